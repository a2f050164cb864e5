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
