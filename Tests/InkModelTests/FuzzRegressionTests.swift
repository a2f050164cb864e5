import Foundation
import Testing
@testable import InkModel

/// Inputs tools/fuzz found crashing or hanging InkModel; each must now be refused with a
/// QuireError (or read), never trap.
@Suite struct FuzzRegressionTests {
    /// fuzz_import.py --kind jsonl: a time of 1e19 ms trapped converting to Int64.
    @Test func jsonLinesTimesOutOfRangeAreRefused() throws {
        for t in ["1e19", "-1e19", "9.3e18", "1e300"] {
            let line = "{\"id\":\"x\",\"strokes\":[[[1,2,0],[2,3,\(t)]]]}"
            let err = expectCode(.importError) { _ = try JSONLinesInk.parse(Data(line.utf8)) }
            #expect(err?.message.contains("time") == true)
        }
        // Ordinary times still read, large ones within range too.
        let ok = try JSONLinesInk.parse(Data("{\"strokes\":[[[1,2,0],[2,3,1e12]]]}".utf8))
        #expect(ok.first?.strokes.first?.last?.t == 1_000_000_000_000)
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session: pieces of an erased stroke share its seq, and strokes(inBlock:) left
    /// ties in set order, which changes with the set's history: the same ink was read in another
    /// order, and recognized differently, after an undo.
    @Test func strokesOfABlockHaveOneOrderWhateverTheirHistory() throws {
        let m = try PartModel(id: "p", type: "Text")
        for i in 0..<200 { m.insertStroke(sampleStroke(m, n: 3, x: Double(i), blockId: "b0")) }
        let ids = (0..<12).map { "piece\($0)" }
        for id in ids.shuffled() {
            var s = sampleStroke(m, n: 3, blockId: "b0")
            s.id = id
            s.seq = 7
            m.insertStroke(s)
        }
        for s in m.strokes.values where !s.id.hasPrefix("piece") { m.removeStroke(id: s.id) }
        #expect(m.strokes(inBlock: "b0").map(\.id) == ids.sorted())
    }
}
