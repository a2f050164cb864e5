import Foundation
import Testing
@testable import Quire
import QuireTools

/// Block flow in Text Documents: blocks never overlap, later blocks flow down with their ink and
/// recognition boxes, and undo is exact.
@Suite struct FlowTests {
    func boxes(_ f: Fixture) -> [String: Rect] {
        let m = f.part.model
        var out: [String: Rect] = [:]
        for id in m.root.childIds { out[id] = m.blocks[id]?.box }
        return out
    }

    func expectNoOverlap(_ f: Fixture, sourceLocation: SourceLocation = #_sourceLocation) {
        let m = f.part.model
        let kids = m.root.childIds.compactMap { m.blocks[$0] }
        for i in 0..<kids.count {
            for j in 0..<i {
                #expect(!kids[i].box.intersects(kids[j].box), "\(kids[i].id) overlaps \(kids[j].id)", sourceLocation: sourceLocation)
            }
        }
    }

    /// A straight stroke between two view points.
    func line(_ f: Fixture, from a: Point, to b: Point, type: PointerType = .pen) throws {
        try f.editor.pointerDown(x: a.x, y: a.y, t: 1, f: 0.5, type: type, pointerId: 3)
        for i in 1...8 {
            let k = Double(i) / 8
            try f.editor.pointerMove(x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k, t: 1 + Int64(i), f: 0.5, type: type, pointerId: 3)
        }
        try f.editor.pointerUp(x: b.x, y: b.y, t: 10, f: 0.5, type: type, pointerId: 3)
    }

    /// The editor places only blocks that changed since the last flow; an editor made to forget
    /// that (so it places every block against every other, as the flow is defined) must agree
    /// with it after every step of a long random session.
    @Test func incrementalFlowMatchesPlacingEveryBlock() throws {
        let a = try Fixture(), b = try Fixture()
        var rng = SplitMix(seed: 2024)
        let types = ["Text", "Math", "Drawing", "Diagram", "Raw Content"]
        var moves = 0
        for step in 0..<300 {
            let op = rng.next() % 10
            let x = rng.unit() * 700, y = rng.unit() * 560
            for (k, f) in [a, b].enumerated() {
                if k == 1 { f.editor.flow.forget() }
                let kids = f.part.model.root.childIds
                switch op {
                case 0...3:
                    try f.write(x: x, y: y, length: 20 + Double(step % 5) * 30)
                case 4:
                    // Tall strokes grow Text blocks over the blocks below them.
                    try line(f, from: Point(x: x, y: y), to: Point(x: x + 10, y: y + 40 + Double(step % 7) * 20))
                case 5:
                    try f.editor.addBlock(at: Point(x: x, y: y), type: types[step % types.count])
                case 6 where !kids.isEmpty:
                    let block = try #require(f.editor.getBlockById(kids[step % kids.count]))
                    try f.editor.moveBlock(block, to: Point(x: x, y: y))
                    if k == 0 { moves += 1 }
                case 7 where !kids.isEmpty && step % 3 == 0:
                    try f.editor.removeBlock(try #require(f.editor.getBlockById(kids[step % kids.count])))
                case 8:
                    f.editor.undo()
                case 9:
                    f.editor.redo()
                default:
                    break
                }
            }
            #expect(boxes(a) == boxes(b), "step \(step): same boxes")
            #expect(a.part.model.strokes == b.part.model.strokes, "step \(step): same ink")
            expectNoOverlap(a)
        }
        #expect(moves > 10 && a.part.model.root.childIds.count > 10)
        while a.editor.canUndo { a.editor.undo() }
        #expect(a.part.model.strokes.isEmpty && a.part.model.root.childIds.isEmpty, "undo of everything returns to the start")
    }

    @Test func pushedBlocksCarryInkAndWordsAndUndoIsExact() throws {
        let f = try Fixture()
        f.editor.recognizer = CountingRecognizer(delay: 0)
        try f.write(x: 100, y: 100)
        let sid = try f.write(x: 100, y: 250)
        try f.editor.waitForIdle()
        let m = f.part.model
        #expect(m.root.childIds.count == 2)
        let lower = m.root.childIds[1]
        let before = try #require(m.blocks[lower])
        let strokeBefore = try #require(m.strokes[sid])
        #expect(before.words.count == 1 && before.words[0].box == strokeBefore.bounds)

        // A tall stroke starting in the upper block grows it over the lower one.
        try line(f, from: Point(x: 300, y: 100), to: Point(x: 310, y: 240))
        expectNoOverlap(f)
        let after = try #require(m.blocks[lower])
        let dy = after.box.y - before.box.y
        #expect(dy > 5, "the lower block flowed down")
        #expect(after.box == before.box.offsetBy(dx: 0, dy: dy))
        let moved = try #require(m.strokes[sid])
        for (p, q) in zip(strokeBefore.samples, moved.samples) {
            #expect(p.x == q.x && abs(q.y - p.y - dy) < 0.006 && p.t == q.t && p.f == q.f)
        }
        #expect(abs(after.words[0].box.y - before.words[0].box.y - dy) < 1e-9, "recognized words move with their block")

        // The eraser finds the ink where it is now, not where it was.
        let t = f.editor.viewTransform
        func erase(at p: Point) throws {
            let v = t.apply(p)
            try f.editor.pointerDown(x: v.x - 2, y: v.y, t: 1, f: 0, type: .eraser, pointerId: 9)
            try f.editor.pointerMove(x: v.x + 2, y: v.y, t: 2, f: 0, type: .eraser, pointerId: 9)
            try f.editor.pointerUp(x: v.x + 2, y: v.y, t: 3, f: 0, type: .eraser, pointerId: 9)
        }
        try erase(at: Point(x: strokeBefore[0].x, y: strokeBefore[0].y))
        #expect(m.strokes[sid] != nil, "nothing left at the old place")
        try erase(at: Point(x: moved[0].x, y: moved[0].y))
        #expect(m.strokes[sid] == nil, "erased at its new place")
        f.editor.undo()
        #expect(m.strokes[sid] == moved)

        f.editor.undo()
        #expect(m.blocks[lower] == before, "undo puts the block, its words and boxes back exactly")
        #expect(m.strokes[sid] == strokeBefore)
        #expect(m.strokes[sid]?.samples == strokeBefore.samples)
        f.editor.redo()
        #expect(m.blocks[lower] == after && m.strokes[sid] == moved)
        f.editor.undo()
        try erase(at: Point(x: strokeBefore[0].x, y: strokeBefore[0].y))
        #expect(m.strokes[sid] == nil, "and the eraser finds it there again")
    }

    @Test func draggingABlockMovesItsInkAndWords() throws {
        let f = try Fixture()
        f.editor.recognizer = CountingRecognizer(delay: 0)
        let sid = try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let m = f.part.model
        let block = try #require(f.editor.rootBlock?.children.first)
        let before = try #require(m.blocks[block.id]), stroke = try #require(m.strokes[sid])
        try f.editor.moveBlock(block, to: f.editor.viewTransform.apply(Point(x: before.box.x + 12.5, y: before.box.y + 30)))
        let after = try #require(m.blocks[block.id])
        let dx = after.box.x - before.box.x, dy = after.box.y - before.box.y
        #expect(abs(dx - 12.5) < 1e-6 && abs(dy - 30) < 1e-6)
        let q = try #require(m.strokes[sid])
        #expect(abs(q.bounds.x - stroke.bounds.x - dx) < 0.006 && abs(q.bounds.y - stroke.bounds.y - dy) < 0.006)
        #expect(after.words[0].box == before.words[0].box.offsetBy(dx: dx, dy: dy))
        f.editor.undo()
        #expect(m.blocks[block.id] == before && m.strokes[sid] == stroke)
    }
}

@Suite struct GuideTests {
    @Test func textBlocksExposeTheirBaselinesInTheAPIAndJSON() throws {
        let f = try Fixture()
        let e = f.editor
        #expect(e.guides == Guides(enabled: true, spacing: 10))
        try f.write(x: 100, y: 100)
        let text = try #require(e.rootBlock?.children.first)
        let box = text.box
        #expect(box.height == 10 || box.height == 20)
        let lines = try e.baselines(of: text)
        #expect(lines == stride(from: box.y + 10, through: box.maxY + 1e-9, by: 10).map { $0 })
        #expect(text.baselines == lines)
        let math = try e.addBlock(at: Point(x: 20, y: 400), type: "Math")
        #expect(try e.baselines(of: math).isEmpty, "only Text blocks have guides")

        var json = try JSONValue.parse(Data(try e.export(nil, mimeType: .json).utf8))
        let kids = try #require(json["children"]?.arrayValue)
        let t = try #require(kids.first { $0["id"]?.stringValue == text.id })
        #expect(t["guides"]?["spacing"]?.doubleValue == 10)
        #expect(t["guides"]?["baselines"]?.arrayValue?.compactMap(\.doubleValue) == lines)
        #expect(kids.first { $0["id"]?.stringValue == math.id }?["guides"] == nil)
        #expect(json["guides"] == nil, "the Container root has none")

        // The settings are read live.
        try e.configuration.setNumber(5, forKey: "text.guides.spacing")
        #expect(text.baselines.first == box.y + 5 && text.baselines.count == Int(box.height / 5))
        try e.configuration.setBoolean(false, forKey: "text.guides.enable")
        #expect(text.baselines.isEmpty)
        json = try JSONValue.parse(Data(try e.export(text, mimeType: .json).utf8))
        #expect(json["guides"] == nil)
        try e.removeBlock(text)
        #expect(text.baselines.isEmpty)
        expectCode(.invalidBlock) { _ = try e.baselines(of: text) }
    }

    @Test func aBoxTooTallToCountItsLinesHasNone() throws {
        // The line count of a box set this tall through the model trapped converting it to Int.
        let f = try Fixture()
        try f.write(x: 100, y: 100)
        let text = try #require(f.editor.rootBlock?.children.first)
        var b = try #require(f.part.model.blocks[text.id])
        b.box.height = 1e300
        f.part.model.setBlock(b)
        #expect(try f.editor.baselines(of: text).isEmpty)
        #expect(try f.editor.export(text, mimeType: .json).contains("\"guides\"") == false)
    }

    @Test func theRootOfATextPartSpansThePage() throws {
        let f = try Fixture(type: "Text")
        let root = try #require(f.editor.rootBlock)
        let lines = root.baselines
        #expect(lines.first == 10 && zip(lines, lines.dropFirst()).allSatisfy { abs($1 - $0 - 10) < 1e-9 })
        #expect(lines.last! <= f.editor.contentBox.maxY && lines.last! > f.editor.contentBox.maxY - 10)
    }
}
