import Foundation
import Quire
import QuireTools

/// Editor sessions: a part (empty, the welcome sample, or real handwriting imported and saved
/// as `quire import` does) edited by a random sequence of pen, touch and eraser input, gestures,
/// lasso, drags, conversions, candidate picks, typing, images, copy/paste, undo/redo, save and
/// reopen. After every step: no crash or hang, a consistent model (`Invariants.problem`), working
/// exports, and a step that throws leaves the model as it was. At the end: undo of everything
/// gives back the start, redo of everything the end, and save then reopen the same model.
final class SessionFuzz: FuzzTarget {
    let context: FuzzContext
    static let partTypes = PartType.allCases.filter { $0 != .textDocument }.map(\.rawValue)
    let fonts = CairoFontMetrics()

    init(context: FuzzContext) throws { self.context = context }

    func run(index: Int, rng: inout SplitMix) throws {
        let ws = try Workspace(base: context.work, name: "session-\(index)")
        defer { ws.remove() }
        let s = try Session(context: context, workspace: ws, fonts: fonts, rng: &rng)
        defer { s.package.close() }
        let steps = rng.int(in: 3...25)
        for step in 0..<steps {
            let before = ModelSnapshot(s.model)
            let name = s.randomStep(&rng)
            var threw: QuireError?
            do {
                try s.perform(name, &rng)
            } catch let e as QuireError {
                threw = e
            }
            context.log("step \(step) \(name)\(threw.map { " -> \($0.code): \($0.message.prefix(120))" } ?? "")")
            try s.settle()
            if context.options.verbose { context.log("    " + s.summary) }
            if let e = threw, !s.mayChangeWhenThrowing(name) {
                let after = ModelSnapshot(s.model)
                if after != before {
                    throw Violation("step \(step) \(name) threw \(e.code) (\(e.message)) but changed the model: \(before.difference(to: after))")
                }
            }
            // Exports every few steps (they cost most of a case) and after the last.
            try s.check("after step \(step) \(name)", &rng, exports: step % 4 == 3 || step == steps - 1, images: step % 8 == 7)
        }
        try s.finish(&rng)
        context.log("gestures applied: \(s.gestures.applied.map(\.rawValue).sorted())")
    }
}

/// Counts the gestures an editor applied (for --verbose: are the gesture steps reaching words?).
final class GestureLog: EditorDelegate {
    var applied: [GestureKind] = []
    func gestureApplied(_ editor: Editor, gesture: Gesture) { applied.append(gesture.kind) }
}

/// One case's editor, package and history bookkeeping.
final class Session {
    let context: FuzzContext
    let ws: Workspace
    let fonts: CairoFontMetrics
    var engine: Engine
    var package: ContentPackage
    var part: ContentPart
    var editor: Editor
    var pen: Pen
    /// The model when the editor was attached: what undoing everything must give back.
    var start: ModelSnapshot
    var path: String
    let gestures = GestureLog()
    var model: PartModel { part.model }

    init(context: FuzzContext, workspace ws: Workspace, fonts: CairoFontMetrics, rng: inout SplitMix) throws {
        self.context = context
        self.ws = ws
        self.fonts = fonts
        pen = Pen(clock: 1_700_000_000_000 + Int64(rng.int(1_000_000)) * 1000)
        path = ws.file("session.iink")
        engine = try Engine()
        let type = rng.chance(0.7) ? PartType.textDocument.rawValue : rng.pick(SessionFuzz.partTypes)
        let content = rng.int(3)
        // Set before any ink is read: words read with another guide spacing would differ from a
        // later reading of the same ink.
        if rng.chance(0.3) { try engine.configuration.setBoolean(true, forKey: PartModel.configPrefix(type) + ".eraser.erase-precisely") }
        if rng.chance(0.1) { try engine.configuration.setBoolean(false, forKey: "gesture.enable") }
        if rng.chance(0.1), content != 0 { try engine.configuration.setNumber(rng.pick([5, 8, 12.5]), forKey: "text.guides.spacing") }
        switch content {
        case 0 where type == PartType.textDocument.rawValue:
            let welcome = Session.welcomePath()
            try FileManager.default.copyItem(atPath: welcome, toPath: path)
            package = try engine.openPackage(path)
            part = try package.part(at: 0)
        case 1:
            // As `quire import` makes them: real handwriting, one sample per line, saved, reopened.
            package = try engine.createPackage(path)
            part = try package.createPart(type: type)
            let e = engine.createEditor(fontMetricsProvider: fonts)
            try e.setViewSize(width: 794, height: 1123)
            try e.setPart(part)
            var y = 15.0
            var traces: [ImportedTrace] = []
            for _ in 0..<rng.int(in: 1...6) {
                let strokes = context.handwriting.strokes(&rng, at: Point(x: 10, y: y), maxHeight: 30)
                var t = pen.clock
                traces += strokes.map { st in
                    ImportedTrace(samples: st.map { p in t += 10; return InkSample(x: p.x, y: p.y, t: t, f: 0.5) }, pointerType: .pen, tool: "pen")
                }
                y = (strokes.flatMap { $0 }.map(\.y).max() ?? y) + 12
            }
            try e.importTraces(traces)
            try e.waitForIdle()
            try package.save()
            package.close()
            package = try engine.openPackage(path)
            part = try package.part(at: 0)
        default:
            package = try engine.createPackage(path)
            part = try package.createPart(type: type)
        }
        editor = engine.createEditor(fontMetricsProvider: fonts)
        start = ModelSnapshot(part.model)
        try attach()
    }

    static func welcomePath() -> String {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.appendingPathComponent("Resources/samples/welcome.iink").path
    }

    /// A fresh editor on `part`; its history starts here.
    func attach() throws {
        editor = engine.createEditor(fontMetricsProvider: fonts)
        editor.addDelegate(gestures)
        try editor.setViewSize(width: 794, height: 1123)
        try editor.setPart(part)
        try editor.waitForIdle()
        start = ModelSnapshot(model)
        if let p = Invariants.problem(model, idle: true) { throw Violation("the part as opened is inconsistent: \(p)") }
    }

    /// The blocks and their words, for --verbose.
    var summary: String {
        model.blocksInTreeOrder().map { b in
            "\(b.id)\(b.type.prefix(2))[\(model.strokeIds(inBlock: b.id).count)s " + b.words.map { "\($0.label)\($0.selected == 0 ? "" : "#\($0.selected)")" }.joined(separator: " ") + "]"
        }.joined(separator: " ") + " undo=\(editor.canUndo)"
    }

    /// Ends strokes still in progress (some steps leave a pointer down) and applies recognition.
    func settle() throws {
        for id in editor.activePointerIds { try editor.pointerCancel(pointerId: id) }
        try editor.waitForIdle()
    }

    func check(_ when: String, _ rng: inout SplitMix, exports: Bool = true, images: Bool) throws {
        if let p = Invariants.problem(model, idle: true) { throw Violation("\(when): \(p)") }
        if exports, let p = Invariants.exportProblem(editor, model) { throw Violation("\(when): \(p)") }
        if images, let p = Invariants.imageExportProblem(editor, &rng) { throw Violation("\(when): \(p)") }
    }

    /// Steps that may change the model and still throw (an eraser pass that was rolled back is
    /// checked separately; these run several public calls of which a later one may refuse).
    func mayChangeWhenThrowing(_ step: String) -> Bool {
        ["reopen", "recover", "lasso", "multi-pointer", "gesture", "write", "scribble",
         "erase", "tap", "double-tap", "drag", "scroll-drag"].contains(step)
    }

    /// Saves, closes, opens the file again (a fresh engine) and checks it holds the same model.
    func reopen(_ why: String, viaTemp: Bool = false) throws {
        try settle()
        let before = ModelSnapshot(model)
        if viaTemp { try package.saveToTemp() } else { try package.save() }
        let dirty = viaTemp && package.hasUnsavedTempContent
        package.close()
        let config = engine.configuration
        engine = try Engine(configuration: config)
        do { package = try engine.openPackage(path) } catch let e as QuireError {
            throw Violation("\(why): the saved package does not open again: \(e.message)")
        }
        if viaTemp && dirty && !package.recoveredFromTemp { throw Violation("\(why): saveToTemp content was not recovered") }
        part = try package.part(at: 0)
        let after = ModelSnapshot(model)
        if after != before { throw Violation("\(why): the reopened model differs: \(before.difference(to: after))") }
        try attach()
    }

    /// End of a case: undo everything, redo everything, save and reopen.
    func finish(_ rng: inout SplitMix) throws {
        try settle()
        let end = ModelSnapshot(model)
        var n = 0
        while editor.canUndo { editor.undo(); n += 1; if n > 100_000 { throw Violation("undo never ends") } }
        try editor.waitForIdle()
        let undone = ModelSnapshot(model)
        if let d = start.mismatch(undone) { throw Violation("undo of all \(n) steps does not give back the start: \(d)") }
        if let p = Invariants.problem(model, idle: true) { throw Violation("after undo of everything: \(p)") }
        // Exactly as many redos: steps undone during the session may still wait on the redo stack.
        for _ in 0..<n { editor.redo() }
        try editor.waitForIdle()
        let redone = ModelSnapshot(model)
        if let d = end.mismatch(redone) { throw Violation("redo of all \(n) steps does not give back the end: \(d)") }
        try check("after redo of everything", &rng, images: true)
        try reopen("save at the end")
    }
}
