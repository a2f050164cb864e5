import Foundation
import Testing
@testable import InkRecognition

/// What tools/fuzz found in recognition.
@Suite struct FuzzRegressionTests {
    /// quire-fuzz config: a `text.configuration.regex` with nested repetition ("(\w+\s?)+\d", a
    /// kiosk field's own configuration) backtracks for about a second on each candidate line of
    /// words that cannot match, and a block or two took minutes to read: the recognition worker
    /// did not come back. A match now gives up after a fixed amount of the engine's work (its
    /// progress calls: steps, not time), and the line counts as not matching.
    @Test func aRegularExpressionMatchGivesUpAfterAFixedAmountOfWork() throws {
        let word = "supercalifragilisticex!"
        #expect(TextRecognizer.matches(try NSRegularExpression(pattern: "^(?:[a-z]+!)$"), word), "ordinary patterns match")
        // The first alternative fails only after exponential backtracking; the second would match.
        let hostile = try NSRegularExpression(pattern: "^(?:(\\w+\\s?)+\\d|.*!)$")
        #expect(!TextRecognizer.matches(hostile, word), "given up before the backtracking ends")
        #expect(TextRecognizer.matches(hostile, "ab!"), "a short line is matched in full")
    }
}
