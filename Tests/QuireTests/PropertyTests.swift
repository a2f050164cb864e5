import Foundation
import Testing
@testable import Quire
import QuireTools

/// Thousands of random pointer sequences, valid and invalid; after each event the model must be
/// consistent, and undoing everything must return to the empty start.
@Suite struct PropertyTests {
    func checkConsistent(_ m: PartModel, sourceLocation: SourceLocation = #_sourceLocation) {
        for s in m.strokes.values {
            #expect(s.count > 0, sourceLocation: sourceLocation)
            if let b = s.blockId { #expect(m.blocks[b] != nil, "stroke \(s.id) in missing block", sourceLocation: sourceLocation) }
        }
        for b in m.blocks.values {
            for c in b.childIds { #expect(m.blocks[c]?.parentId == b.id, sourceLocation: sourceLocation) }
            if b.id != m.rootId { #expect(b.parentId.flatMap { m.blocks[$0] }?.childIds.contains(b.id) == true, sourceLocation: sourceLocation) }
        }
        let kids = m.root.childIds.compactMap { m.blocks[$0] }
        for i in 0..<kids.count { for j in 0..<i { #expect(!kids[i].box.intersects(kids[j].box), "blocks overlap", sourceLocation: sourceLocation) } }
    }

    @Test(arguments: ["Text Document", "Drawing"])
    func randomSequencesKeepTheModelConsistent(partType: String) throws {
        let f = try Fixture(type: partType)
        let e = f.editor
        try e.configuration.setBoolean(true, forKey: "text-document.eraser.erase-precisely")
        var rng = SplitMix(seed: partType == "Drawing" ? 7 : 11)
        var down: [Int: PointerType] = [:]
        let types: [PointerType] = [.pen, .pen, .pen, .eraser, .touch, .mouse]
        var accepted = 0, rejected = 0
        for step in 0..<2500 {
            let id = Int(rng.next() % 3)
            let x = rng.unit() * 900 - 50, y = rng.unit() * 700 - 50
            let bad = rng.next() % 50 == 0
            let r = rng.next() % 10
            do {
                if bad {
                    try e.pointerMove(x: .nan, y: y, t: -1, f: 0.5, type: .pen, pointerId: id)
                } else if down[id] == nil {
                    if r < 2 { try e.pointerMove(x: x, y: y, t: -1, f: 0.5, type: .pen, pointerId: id) }
                    else {
                        let t = types[Int(rng.next() % UInt64(types.count))]
                        try e.pointerDown(x: x, y: y, t: Int64(step), f: rng.unit(), type: t, pointerId: id)
                        down[id] = t
                    }
                } else if r < 6 {
                    try e.pointerMove(x: x, y: y, t: Int64(step), f: rng.unit(), type: down[id]!, pointerId: id)
                } else if r < 9 {
                    try e.pointerUp(x: x, y: y, t: Int64(step), f: rng.unit(), type: down[id]!, pointerId: id)
                    down[id] = nil
                } else if r == 9, rng.next() % 2 == 0 {
                    try e.pointerDown(x: x, y: y, t: -1, f: 0, type: .pen, pointerId: id)  // double down: must throw
                } else {
                    try e.pointerCancel(pointerId: id)
                    down[id] = nil
                }
                accepted += 1
            } catch let err as QuireError {
                #expect(err.code == .invalidPointerSequence)
                rejected += 1
            }
            if step % 97 == 0 { e.undo() }
            if step % 50 == 0 { checkConsistent(f.part.model) }
        }
        for id in down.keys { try e.pointerCancel(pointerId: id) }
        checkConsistent(f.part.model)
        #expect(accepted > 1200 && rejected > 30)
        #expect(!f.part.model.strokes.isEmpty)
        while e.canUndo { e.undo() }
        #expect(f.part.model.strokes.isEmpty, "undo of everything returns to the start")
        #expect(f.part.model.blocks.count == 1 && f.part.model.root.childIds.isEmpty)
    }
}
