import Foundation
import Testing
@testable import InkModel

/// A part's journal names every change once, as it was and as it became, and says when it no
/// longer reaches back far enough.
@Suite struct ChangeJournalTests {
    func stroke(_ id: String, block: String? = nil, x: Double = 10) -> InkStroke {
        InkStroke(id: id, tool: "pen", blockId: block, seq: 1,
                  samples: [InkSample(x: x, y: 10, t: 0, f: 0.5), InkSample(x: x + 5, y: 12, t: 8, f: 0.5)])
    }

    @Test func everyMutationIsJournalledWithWhatItReplaced() throws {
        let part = try PartModel(id: "p", type: "Text Document")
        let start = part.revision
        #expect(part.changes(since: start)?.isEmpty == true)
        let block = BlockData(id: "b1", type: "Text", box: Rect(x: 0, y: 0, width: 50, height: 20))
        part.setBlock(block)
        part.insertStroke(stroke("s1", block: "b1"))
        part.translateStrokes(inBlock: "b1", unitsX: 100, unitsY: -200)
        var moved = part.strokes["s1"]!
        moved.color = "#ff0000"
        part.insertStroke(moved)
        part.removeStroke(id: "s1")
        part.setImage(Data([1, 2, 3]), entry: "images/a.png")
        var bigger = block
        bigger.box.height = 40
        part.setBlock(bigger)
        part.removeBlock(id: "b1")
        part.touch()
        let list = Array(try #require(part.changes(since: start)))
        var shifted = stroke("s1", block: "b1")
        shifted.translate(unitsX: 100, unitsY: -200)
        #expect(list == [
            .block(old: nil, new: block),
            .stroke(old: nil, new: stroke("s1", block: "b1")),
            .inkMoved(block: "b1", unitsX: 100, unitsY: -200),
            .stroke(old: shifted, new: moved),
            .stroke(old: moved, new: nil),
            .image(entry: "images/a.png"),
            .block(old: block, new: bigger),
            .block(old: bigger, new: nil),
            .other,
        ])
        #expect(part.revision == start + list.count, "one entry per revision")
        // Read from any revision in between: the changes after it.
        #expect(part.changes(since: start + 7).map(Array.init) == [.block(old: bigger, new: nil), .other])
        #expect(part.changes(since: part.revision)?.isEmpty == true)
        #expect(part.changes(since: part.revision + 1) == nil, "a revision the part never had")
    }

    @Test func aReaderTooFarBehindGetsNil() throws {
        let part = try PartModel(id: "p", type: "Drawing")
        let start = part.revision
        for i in 0 ..< ChangeJournal.capacity + 1 { part.insertStroke(stroke("s\(i % 3)")) }
        #expect(part.changes(since: start) == nil)
        let recent = part.revision - 100
        #expect(part.changes(since: recent)?.count == 100)
        // A clone starts a journal of its own, from its own revision.
        let copy = part.clone(newId: "q")
        #expect(copy.changes(since: copy.revision)?.isEmpty == true)
    }
}
