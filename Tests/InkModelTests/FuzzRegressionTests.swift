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

extension FuzzRegressionTests {
    /// quire-fuzz config: `content-package.max-entries` of 1e20 (a user's configuration file may
    /// say anything) trapped converting to Int when a package opened.
    @Test func hugeOrNegativeArchiveLimitsDoNotTrap() throws {
        let dir = TempDir()
        let path = dir.path("limits.iink")
        let made = try Engine().createPackage(path)
        _ = try made.createPart(type: "Text")
        try made.save()
        made.close()
        for (key, value) in [("content-package.max-entries", 1e20), ("content-package.max-uncompressed-size", 1e300),
                             ("content-package.max-entry-size", 9.3e18)] {
            let c = Configuration()
            try c.setNumber(value, forKey: key)
            let pkg = try Engine(configuration: c).openPackage(path)
            #expect(pkg.partCount == 1)
            pkg.close()
        }
        let c = Configuration()
        try c.setNumber(-5, forKey: "content-package.max-entries")
        expectCode(.archiveTooLarge) { _ = try Engine(configuration: c).openPackage(path) }
        #expect(try c.getInteger("content-package.max-entries", default: 1) == 0)
        try c.setNumber(1e300, forKey: "n")
        #expect(try c.getInteger("n", default: 1) == Int.max)
        #expect(try c.getInteger("n", default: 1, in: 0...600) == 600)
        #expect(try c.getInteger("missing", default: 7) == 7)
    }
}
