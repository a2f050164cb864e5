import Foundation
import Quire
import QuireTools

/// X11 clipboard payloads (`application/x-quire-block`), pasted with `Editor.paste(data:at:)`.
///
/// Seeds are what `copyData` wrote for real blocks: the welcome sample's, and a document of real
/// handwriting (recognized, converted in place and published, underlined), typed text, a Math and
/// a Drawing block with ink, an image, and blocks nested in a Container. Each case mutates one:
/// the blocks (tree, boxes, words, text, images, properties), the strokes (decoded, changed,
/// encoded again), the images, the envelope, or the bytes. A paste that throws must change
/// nothing; one that succeeds must leave a consistent model that exports, copies and pastes
/// again, undoes to the start, and saves and reopens the same.
final class ClipboardFuzz: FuzzTarget {
    /// The envelope as `ClipboardData.swift` writes it.
    struct Envelope: Codable {
        var format: String
        var version: Int
        var blocks: [BlockData]
        var strokes: Data
        var images: [String: Data]
    }

    let context: FuzzContext
    let fonts = CairoFontMetrics()
    var seeds: [Data] = []

    init(context: FuzzContext) throws {
        self.context = context
        let ws = try Workspace(base: context.work, name: "clipboard-seeds")
        defer { ws.remove() }
        var rng = SplitMix(seed: 42)
        try seeds += copies(ofPackage: Session.welcomePath(), ws: ws)
        try seeds += copies(ofBuiltDocument: ws, &rng)
        // Nested: a Container holding two copied blocks, as another process may send.
        if seeds.count >= 2 {
            var a = try JSONDecoder().decode(Envelope.self, from: seeds[0])
            let b = try JSONDecoder().decode(Envelope.self, from: seeds[seeds.count - 1])
            var top = BlockData(id: "c0", type: "Container", box: a.blocks[0].box.union(b.blocks[0].box))
            var renamed = b.blocks.map { var x = $0; x.id = "n" + x.id; x.parentId = x.parentId.map { "n" + $0 }; x.childIds = x.childIds.map { "n" + $0 }; return x }
            renamed[0].parentId = "c0"
            a.blocks[0].parentId = "c0"
            top.childIds = [a.blocks[0].id, renamed[0].id]
            var strokes = try StrokeCodec.decode(a.strokes, what: "seed")
            strokes += try StrokeCodec.decode(b.strokes, what: "seed").map { var s = $0; s.id = "n" + s.id; s.blockId = s.blockId.map { "n" + $0 }; return s }
            a.blocks = [top] + a.blocks + renamed
            a.strokes = StrokeCodec.encode(strokes)
            a.images.merge(b.images) { x, _ in x }
            seeds.append(try JSONEncoder().encode(a))
        }
        guard !seeds.isEmpty else { throw Violation("no clipboard seeds") }
    }

    func copies(ofPackage file: String, ws: Workspace) throws -> [Data] {
        let path = ws.file("welcome.iink")
        try FileManager.default.copyItem(atPath: file, toPath: path)
        let engine = try Engine()
        let pkg = try engine.openPackage(path)
        defer { pkg.close() }
        let e = engine.createEditor(fontMetricsProvider: fonts)
        try e.setViewSize(width: 794, height: 1123)
        try e.setPart(try pkg.part(at: 0))
        try e.waitForIdle()
        return try e.rootBlock!.children.map { try e.copyData($0) }
    }

    func copies(ofBuiltDocument ws: Workspace, _ rng: inout SplitMix) throws -> [Data] {
        let engine = try Engine()
        let pkg = try engine.createPackage(ws.file("built.iink"))
        defer { pkg.close() }
        let e = engine.createEditor(fontMetricsProvider: fonts)
        try e.setViewSize(width: 794, height: 1123)
        try e.setPart(try pkg.createPart(type: PartType.textDocument.rawValue))
        var pen = Pen(clock: 1_700_000_000_000)
        var y = 15.0
        for _ in 0..<5 {
            for s in context.handwriting.strokes(&rng, at: Point(x: 12, y: y), maxHeight: 8) { try pen.draw(e, s) }
            y += 25
        }
        try e.typeText("typed words here\nand a second line", into: nil)
        for type in ["Math", "Drawing"] {
            let b = try e.addBlock(at: e.viewTransform.apply(Point(x: 20, y: y + 10)), type: type)
            for s in context.handwriting.strokes(&rng, at: Point(x: b.box.x + 5, y: b.box.y + 5), maxHeight: 8) { try pen.draw(e, s) }
            y = b.box.maxY + 10
        }
        let img = ws.file("one.png")
        try Data(SampleImages.png1x1).write(to: URL(fileURLWithPath: img))
        try e.addImage(at: e.viewTransform.apply(Point(x: 20, y: y + 10)), file: img, mimeType: .png)
        try e.waitForIdle()
        let kids = e.rootBlock!.children
        // An underlined word, a block converted in place, one published.
        if let w = kids.first?.words.first(where: { !$0.box.isEmpty }) {
            try pen.draw(e, Pen.resample([Point(x: w.box.x - 0.5, y: w.box.maxY + 1), Point(x: w.box.maxX + 0.5, y: w.box.maxY + 1.2)], &rng))
        }
        if kids.count > 2 {
            try e.convert(kids[1], targetState: .digitalEdit)
            try e.convert(kids[2], targetState: .digitalPublish)
        }
        try e.waitForIdle()
        return try e.rootBlock!.children.map { try e.copyData($0) }
    }

    func run(index: Int, rng: inout SplitMix) throws {
        let ws = try Workspace(base: context.work, name: "clipboard-\(index)")
        defer { ws.remove() }
        let (data, what) = try mutated(rng.pick(seeds), &rng)
        context.log("payload \(what), \(data.count) bytes")
        if rng.chance(0.02) { try data.write(to: URL(fileURLWithPath: ws.file("payload.json"))) }

        let engine = try Engine()
        let path = ws.file("target.iink")
        var pkg = try engine.createPackage(path)
        defer { pkg.close() }
        var part = try pkg.createPart(type: rng.chance(0.95) ? PartType.textDocument.rawValue : PartType.text.rawValue)
        var e = engine.createEditor(fontMetricsProvider: fonts)
        try e.setViewSize(width: 794, height: 1123)
        try e.setPart(part)
        var pen = Pen(clock: 1_700_000_000_000)
        if rng.chance(0.5) {
            for s in context.handwriting.strokes(&rng, at: Point(x: 15, y: rng.double(in: 5...60)), maxHeight: 8) { try pen.draw(e, s) }
        }
        try e.waitForIdle()
        try e.setPart(part)  // history starts here: undoing everything stops at this content
        try e.waitForIdle()
        let start = ModelSnapshot(part.model)
        let point: Point
        switch rng.int(12) {
        case 0: point = Point(x: rng.pick([-1e9, -5, 1e7, 3e6, .nan, .infinity]), y: rng.pick([-1, 0, 1e12, 5e6]))
        default: point = Point(x: rng.double(in: 0...700), y: rng.double(in: 0...1100))
        }
        do {
            try e.paste(data: data, at: point)
        } catch let err as QuireError {
            let after = ModelSnapshot(part.model)
            if after != start { throw Violation("paste threw \(err.code) (\(err.message)) but changed the model: \(start.difference(to: after))") }
            context.log("refused: \(err.message.prefix(160))")
            return
        }
        try e.waitForIdle()
        func check(_ when: String) throws {
            if let p = Invariants.problem(part.model, idle: true) { throw Violation("\(when): \(p)") }
            if let p = Invariants.exportProblem(e, part.model) { throw Violation("\(when): \(p)") }
            if let p = Invariants.imageExportProblem(e, &rng) { throw Violation("\(when): \(p)") }
        }
        try check("after paste")
        // What Quire wrote from the pasted block must paste again.
        let pasted = part.model.root.childIds.first { !start.blocks.keys.contains($0) }
        if let id = pasted, let b = e.getBlockById(id) {
            let again: Data
            do { again = try e.copyData(b) } catch let err as QuireError { throw Violation("copyData of the pasted block failed: \(err.message)") }
            do { try e.paste(data: again, at: Point(x: 20, y: 30)) } catch let err as QuireError {
                // Moved to another point, a box near the edge of the range a package holds may
                // leave it: that refusal is right. Anything else means Quire wrote what it cannot read.
                guard err.code == .invalidArgument, err.message.hasPrefix("cannot paste there") else {
                    throw Violation("the pasted block, copied again, does not paste: \(err.message)")
                }
            }
            try e.waitForIdle()
            try check("after pasting the copy again")
        }
        let end = ModelSnapshot(part.model)
        while e.canUndo { e.undo() }
        try e.waitForIdle()
        let undone = ModelSnapshot(part.model)
        if let d = start.mismatch(undone) { throw Violation("undo after paste does not give back the start: \(d)") }
        while e.canRedo { e.redo() }
        try e.waitForIdle()
        let redone = ModelSnapshot(part.model)
        if let d = end.mismatch(redone) { throw Violation("redo after paste does not give back the end: \(d)") }
        do { try pkg.save() } catch let err as QuireError { throw Violation("save after paste failed: \(err.message)") }
        pkg.close()
        do { pkg = try engine.openPackage(path) } catch let err as QuireError {
            throw Violation("the package saved after a paste does not open: \(err.message)")
        }
        part = try pkg.part(at: 0)
        let reopened = ModelSnapshot(part.model)
        if reopened != redone { throw Violation("save and reopen after paste changed the model: \(redone.difference(to: reopened))") }
        e = engine.createEditor(fontMetricsProvider: fonts)
        try e.setViewSize(width: 794, height: 1123)
        try e.setPart(part)
        try e.waitForIdle()
        try check("after reopening")
    }
}
