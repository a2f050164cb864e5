import Foundation
import Testing
import QuireTestSupport
@testable import Quire
@testable import QuireApp

/// A window's session driven without an X server: device events through the app's input router
/// and commands through its dispatcher, recorded by `SessionRecorder`; replaying the recording
/// into a fresh editor must give the same model.
private final class RecordedSession {
    let dir = TempDir()
    let session: DocumentSession
    let editor: Editor
    let view: EditorView
    let dispatcher: CommandDispatcher
    let gestures = GestureRecorder()
    var time: Int64 = 1_700_000_000_000
    let sessionPath: String

    init() throws {
        let engine = try Engine()
        session = try DocumentSession(engine: engine, path: dir.path("doc.iink"))
        let renderer = CairoRenderer()
        editor = engine.createEditor(renderer: renderer, fontMetricsProvider: CairoFontMetrics())
        view = EditorView(editor: editor, renderer: renderer, scale: 1)
        editor.pixelsPerMillimetre = 96 / 25.4
        try editor.setViewSize(width: 800, height: 600)
        try editor.setPart(session.part)
        dispatcher = CommandDispatcher(view: view, session: session, clipboard: SessionClipboard(), scale: 1)
        editor.addDelegate(gestures)
        sessionPath = dir.path("session.jsonl")
        _ = try SessionRecorder(path: sessionPath, editor: editor)
    }

    /// One stroke of a device through the router; points in model mm.
    func stroke(_ pts: [Point], device: Int, kind: DeviceKind, touchId: Int? = nil) {
        for (i, p) in pts.enumerated() {
            let v = editor.viewTransform.apply(p)
            time += 8
            let phase: InputEvent.Phase = i == 0 ? .down : i == pts.count - 1 ? .up : .move
            view.router.handle(InputEvent(phase: phase, device: device, kind: kind, touchId: touchId, x: v.x, y: v.y, time: time, pressure: 0.5))
        }
        time += 300
    }

    /// Writes fixture words left to right from (x, y) mm with the pen, one stroke at a time.
    func write(_ ids: [String], x: Double, y: Double) throws {
        var cx = x
        for id in ids {
            let s = try Handwriting.sample(id)
            let b = s.bounds, k = 6 / max(b.height, 0.5)
            for st in s.strokes where !st.isEmpty {
                stroke(st.map { Point(x: cx + ($0.x - b.x) * k, y: y + ($0.y - b.y) * k) }, device: 5, kind: .pen)
            }
            cx += Handwriting.width(s) + 4
        }
    }

    func word(_ label: String) -> RecognizedWord? {
        editor.rootBlock.map { [$0] + $0.children }?.flatMap(\.words).first { $0.label == label }
    }

    static func dense(_ pts: [Point]) -> [Point] {
        var out = [pts[0]]
        for (a, b) in zip(pts, pts.dropFirst()) {
            for k in 1...8 { let u = Double(k) / 8; out.append(Point(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u)) }
        }
        return out
    }
}

private final class SessionClipboard: ClipboardTransport {
    var offers: [String: Data] = [:]
    func own(_ offers: [String: Data], time: UInt) -> Bool { self.offers = offers; return true }
    func ownedOffer(_ type: String) -> Data? { offers[type] }
    func requestPaste(time: UInt, done: @escaping ((String, Data)?) -> Void) { done(nil) }
}

@Suite(.serialized) struct SessionReplayTests {
    @Test func replayingARecordedSessionGivesTheSameModel() throws {
        let s = try RecordedSession()
        try s.write(["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547"], x: 10, y: 20)
        try s.editor.waitForIdle()
        #expect(try s.editor.export(nil, mimeType: .text) == "found bread sugar")
        // Picking a candidate needs the words there: the replay waits where results were applied.
        let block = try #require(s.editor.rootBlock?.children.first { !$0.words.isEmpty })
        let found = try #require(block.words.firstIndex { $0.label == "found" })
        s.dispatcher.perform(.selectCandidate(WordRef(blockId: block.id, index: found), 1))
        let picked = try #require(s.word(block.words[found].candidates[1].label))
        #expect(picked.selected == 1)

        // Scratch-out over "sugar" (a gesture: it needs the recognized words under it).
        let sugar = try #require(s.word("sugar")).box
        let zig = (0...6).map { i in Point(x: i % 2 == 0 ? sugar.x - 0.5 : sugar.maxX + 0.5, y: sugar.y + sugar.height * Double(i) / 6) }
        s.stroke(RecordedSession.dense(zig), device: 5, kind: .pen)
        try s.editor.waitForIdle()
        #expect(s.gestures.applied.map(\.kind) == [.scratchOut])
        // The eraser end across "bread".
        let bread = try #require(s.word("bread")).box
        s.stroke(RecordedSession.dense([Point(x: bread.x - 1, y: bread.midY), Point(x: bread.maxX + 1, y: bread.midY)]), device: 6, kind: .eraser)
        try s.editor.waitForIdle()
        let left = try s.editor.export(nil, mimeType: .text)
        #expect(left.hasPrefix("found") && !left.contains("bread") && !left.contains("sugar"), "\(left)")

        // Zoom in, then one finger scrolls the page (after the palm-rejection window).
        s.dispatcher.perform(.zoomIn)
        s.time += 2000
        let before = s.editor.viewTransform
        let far = s.editor.viewTransform.inverted().apply(Point(x: 400, y: 500))
        s.stroke(RecordedSession.dense([far, Point(x: far.x, y: far.y - 30)]), device: 7, kind: .touch, touchId: 1)
        #expect(s.editor.viewTransform != before, "the finger scrolled the view")

        // More words in the scrolled, zoomed view; undo twice, redo once; convert and undo it; type.
        let at = s.editor.viewTransform.inverted().apply(Point(x: 60, y: 200))
        s.time += 2000
        try s.write(["unipen-b0f24618f5b3", "unipen-db47d8bec17f"], x: at.x, y: at.y)
        try s.editor.waitForIdle()
        s.dispatcher.perform(.undo)
        s.dispatcher.perform(.undo)
        s.dispatcher.perform(.redo)
        try s.editor.waitForIdle()
        s.dispatcher.perform(.convert)
        #expect(s.session.part.model.strokes.isEmpty, "converted")
        s.dispatcher.perform(.undo)
        s.dispatcher.perform(.addTextBlock)
        s.dispatcher.perform(.typeText("ok"))
        try s.editor.waitForIdle()
        s.editor.recorder?.flush()

        let recorded = try String(contentsOfFile: s.sessionPath, encoding: .utf8)
        for needle in ["\"type\":\"pen\"", "\"type\":\"eraser\"", "\"type\":\"touch\"", "\"c\":\"zoomIn\"", "\"e\":\"scroll\"",
                       "\"e\":\"results\"", "\"c\":\"undo\"", "\"c\":\"convert\"", "\"c\":\"typeText\""] {
            #expect(recorded.contains(needle), "the recording has \(needle)")
        }

        let replayGestures = GestureRecorder()
        let out = s.dir.path("replayed.iink")
        let outcome = try SessionReplay.run(sessionPath: s.sessionPath, outPath: out) { $0.addDelegate(replayGestures) }
        #expect(outcome.divergences.isEmpty, "\(outcome.divergences)")
        #expect(replayGestures.applied.map(\.kind) == [.scratchOut])
        #expect(outcome.text == (try s.editor.export(nil, mimeType: .text)))

        let pkg = try Engine().openPackage(out)
        defer { pkg.close() }
        let replayed = try pkg.part(at: 0).model, original = s.session.part.model
        #expect(replayed.strokes == original.strokes, "same strokes")
        #expect(replayed.blocks == original.blocks, "same block tree, words and text")
        #expect(replayed.rootId == original.rootId)
        #expect(!original.strokes.isEmpty && original.blocks.count > 2)
    }

    /// The lasso in a recording: a selection drawn with the pen, dragged, cut, pasted, deleted
    /// and recoloured, and one made through the API, replay onto the same strokes.
    @Test func lassoSelectionsReplayOntoTheSameInk() throws {
        let s = try RecordedSession()
        try s.write(["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547"], x: 10, y: 20)
        try s.editor.waitForIdle()
        let bread = try #require(s.word("bread")).box
        s.dispatcher.perform(.tool(.selector))
        let loop = [Point(x: bread.x - 1, y: bread.y - 2), Point(x: bread.maxX + 1, y: bread.y - 2),
                    Point(x: bread.maxX + 1, y: bread.maxY + 2), Point(x: bread.x - 1, y: bread.maxY + 2), Point(x: bread.x - 1, y: bread.y - 1)]
        s.stroke(RecordedSession.dense(loop), device: 5, kind: .pen)
        let lassoed = s.editor.selectedStrokes
        #expect(!lassoed.isEmpty)
        s.stroke(RecordedSession.dense([Point(x: bread.midX, y: bread.midY), Point(x: bread.midX + 5, y: bread.midY + 30)]), device: 5, kind: .pen)
        s.dispatcher.perform(.penStyle(color: "#c62828", width: nil))
        s.dispatcher.perform(.cut)
        s.dispatcher.perform(.undo)
        // Through the API: the first stroke alone, recoloured and deleted.
        let first = try #require(s.session.part.model.orderedStrokes.first?.id)
        s.editor.setSelection(blocks: [], strokes: [first])
        s.dispatcher.perform(.penStyle(color: "#2e7d32", width: nil))
        s.dispatcher.perform(.removeBlock(nil))
        s.dispatcher.perform(.clearSelection)
        try s.editor.waitForIdle()
        s.editor.recorder?.flush()
        let original = s.session.part.model
        #expect(original.strokes[first] == nil && original.strokes.values.contains { $0.color == "#c62828" })

        let out = s.dir.path("replayed.iink")
        let outcome = try SessionReplay.run(sessionPath: s.sessionPath, outPath: out) { _ in }
        #expect(outcome.divergences.isEmpty, "\(outcome.divergences)")
        let pkg = try Engine().openPackage(out)
        defer { pkg.close() }
        let replayed = try pkg.part(at: 0).model
        #expect(replayed.strokes == original.strokes, "same strokes, moved, recoloured and deleted alike")
        #expect(replayed.blocks == original.blocks)
    }

    @Test func aBatchAndViewChangesReplayExactly() throws {
        let s = try RecordedSession()
        s.editor.zoom(by: 1.5, at: Point(x: 100, y: 100))
        try Handwriting.writeLine(["unipen-b0f24618f5b3"], editor: s.editor, x: 20, y: 30)
        try s.editor.setViewSize(width: 640, height: 480)
        try s.editor.waitForIdle()
        s.editor.recorder?.flush()
        let out = s.dir.path("replayed.iink")
        let outcome = try SessionReplay.run(sessionPath: s.sessionPath, outPath: out)
        #expect(outcome.text == "island")
        let pkg = try Engine().openPackage(out)
        defer { pkg.close() }
        #expect(try pkg.part(at: 0).model.strokes == s.session.part.model.strokes)
        #expect(try pkg.part(at: 0).model.blocks == s.session.part.model.blocks)
    }

    @Test func theRecordingKeepsNoMachineLocalKeys() throws {
        let dir = TempDir()
        let engine = try Engine()
        try engine.configuration.setString(dir.path("s.jsonl"), forKey: "app.record")
        try engine.configuration.setString(dir.path("state"), forKey: "content-package.temp-folder")
        try engine.configuration.setString("off", forKey: "text.configuration.lexicon-mode")
        let pkg = try engine.createPackage(dir.path("d.iink"))
        defer { pkg.close() }
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 400, height: 300)
        try editor.setPart(pkg.createPart(type: PartType.textDocument.rawValue))
        let rec = try SessionRecorder(path: dir.path("s.jsonl"), editor: editor)
        rec.flush()
        let player = try SessionPlayer(path: dir.path("s.jsonl"))
        #expect(player.configuration["app.record"] == nil && player.configuration["content-package.temp-folder"] == nil)
        #expect(player.configuration["text.configuration.lexicon-mode"] == .string("off"))
    }

    @Test func badSessionFilesAreClearErrors() throws {
        let dir = TempDir()
        let cases: [(String, String)] = [
            ("", "empty session file"),
            ("{\"x\":1}\n", "not a Quire session recording"),
            ("{\"quire-session\":99}\n", "newer than this Quire reads"),
            ("{\"quire-session\":1,\"view\":[10,10]}\n", "no starting package"),
            ("not json\n", "not valid JSON"),
        ]
        for (i, (text, message)) in cases.enumerated() {
            let path = dir.path("bad\(i).jsonl")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let e = #expect(throws: QuireError.self) { try SessionPlayer(path: path) }
            #expect(e?.message.contains(message) == true, "\(e?.message ?? "")")
        }
        // A good header with a broken record names its line.
        let s = try RecordedSession()
        s.editor.recorder?.flush()
        let header = try String(contentsOfFile: s.sessionPath, encoding: .utf8)
        let path = dir.path("badline.jsonl")
        try (header + "{\"at\":0,\"e\":\"down\",\"id\":1,\"x\":\"left\"}\n").write(toFile: path, atomically: true, encoding: .utf8)
        let e = #expect(throws: QuireError.self) { try SessionPlayer(path: path) }
        #expect(e?.message.contains("line 2") == true, "\(e?.message ?? "")")
        let replayOut = dir.path("r.iink")
        #expect(throws: QuireError.self) { _ = try SessionReplay.run(sessionPath: path, outPath: replayOut) }
    }

    @Test func theReplayCommandPrintsTheTextAndWritesThePackage() throws {
        let s = try RecordedSession()
        try s.write(["unipen-b0f24618f5b3", "unipen-db47d8bec17f"], x: 10, y: 20)
        try s.editor.waitForIdle()
        s.dispatcher.perform(.undo)
        try s.editor.waitForIdle()
        s.editor.recorder?.flush()
        let expected = try s.editor.export(nil, mimeType: .text)
        let out = s.dir.path("cli.iink")
        let r = try runQuire(["replay", s.sessionPath, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == expected)
        #expect(!r.err.contains("differs"))
        let pkg = try Engine().openPackage(out)
        defer { pkg.close() }
        #expect(try pkg.part(at: 0).model.strokes == s.session.part.model.strokes)
        // A file that is not a session: a clear error, status 2.
        let bad = try runQuire(["replay", s.dir.path("doc.iink")])
        #expect(bad.status == 2 && bad.err.contains("quire: error:"), "\(bad.err)")
    }
}
