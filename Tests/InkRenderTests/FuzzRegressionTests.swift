import Foundation
import Testing
@testable import InkRender
import InkModel

/// What tools/fuzz found in the renderer's text layout.
@Suite struct FuzzRegressionTests {
    /// Fixed-pitch metrics (1 mm a character) that count how many characters were measured.
    final class CountingMetrics: FontMetricsProvider, @unchecked Sendable {
        let lock = NSLock()
        var measured = 0
        func measure(_ text: String, font: FontSpec) -> TextMetrics {
            let n = text.count
            lock.withLock { measured += n }
            let boxes = (0..<n).map { Rect(x: Double($0), y: -4, width: 1, height: 5) }
            return TextMetrics(width: Double(n), ascent: 4, descent: 1, glyphBoxes: boxes)
        }
    }

    /// quire-fuzz clipboard: a pasted block of 200,000 typed characters without a space took
    /// minutes to lay out: the word was cut line by line, and what was left measured again after
    /// every cut (quadratic in its length). It is now cut from its one measurement.
    @Test func aLongWordIsCutFromOneMeasurement() {
        let metrics = CountingMetrics()
        let layout = TextLayout(font: FontSpec(size: 5), margin: 0, guideSpacing: 10, pageWidth: 100, metrics: metrics)
        let word = String(repeating: "x", count: 20_000)
        let words = layout.flow("ab " + word + " cd", area: Rect(x: 0, y: 0, width: 100, height: 10))
        #expect(metrics.measured < 3 * (word.count + 4), "measured \(metrics.measured) characters for a text of \(word.count + 6)")
        #expect(words.map(\.label) == ["ab", word, "cd"])
        let long = words[1]
        #expect(long.chars.count == word.count)
        // Cut where each line ends: 100 characters a line, each line's cells inside the area.
        let lines = Dictionary(grouping: long.chars, by: { $0.box.y })
        #expect(lines.count == word.count / 100 + 1 || lines.count == word.count / 100)
        #expect(long.chars.allSatisfy { $0.box.x >= -0.001 && $0.box.maxX <= 100.001 })
        #expect(words[2].box.y > long.chars.last!.box.y - 0.001)
    }
}
