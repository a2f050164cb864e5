import Foundation
import Testing
@testable import InkRender
import InkModel

/// What tools/fuzz found in the renderer.
@Suite struct FuzzRegressionTests {
    /// quire-fuzz clipboard: a pasted block of 200,000 typed characters without a space took
    /// minutes to draw or export: the word was cut line by line, and what was left measured
    /// again after every cut (quadratic in its length).
    @Test func aLongWordIsCutFromOneMeasurement() {
        var measured = 0
        let font = FontSpec(size: 5)
        let word = String(repeating: "x", count: 20_000)
        let runs = TextLayout.runs("ab " + word + " cd", font: font, left: 0, right: 100, top: 0, pitch: 10, space: 1) { s in
            measured += s.count
            let boxes = (0..<s.count).map { Rect(x: Double($0), y: -4, width: 1, height: 5) }
            return TextMetrics(width: Double(s.count), ascent: 4, descent: 1, glyphBoxes: boxes)
        }
        #expect(measured < 3 * (word.count + 4), "measured \(measured) characters for a text of \(word.count + 6)")
        #expect(runs.map(\.text).joined() == "ab" + word + "cd")
        #expect(runs.dropFirst().dropLast().allSatisfy { $0.width <= 100 })
        // "ab" on the first line, the word on the next 200 (100 characters each), "cd" after it.
        #expect(runs.count == 202 && runs.dropFirst().dropLast().allSatisfy { $0.text.count == 100 && $0.x == 0 })
        #expect(Set(runs.map(\.baseline)).count == 202)
    }
}
