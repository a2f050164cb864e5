import Foundation
import InkRecognition
import Testing
@testable import InkMath
import QuireTools

/// What segmentation can group and where lines and scripts begin, on ink placed by hand
/// (millimetres, y down): cases the recognizer once read wrong (docs/MATH-MODEL.md, "Segmentation
/// and line errors").
@Suite struct MathSegmentationTests {
    static func bar(_ x: Double, _ y: Double, _ w: Double) -> [SIMD2<Double>] { [SIMD2(x, y), SIMD2(x + w / 2, y + 0.05), SIMD2(x + w, y)] }
    static func digit(_ x: Double, top: Double = 5, height: Double = 5) -> [SIMD2<Double>] {
        [SIMD2(x, top), SIMD2(x + 2, top + height / 2), SIMD2(x + 1, top + height)]
    }

    @Test func aFractionIsOneLineHoweverFlatItsStrokes() {
        // 5 over 8, then `=`: three of five strokes are flat, so text's line grouping (by the
        // median stroke height) cut the numerator and bar from the rest; math keeps one line.
        let strokes = [Self.digit(1, top: 0, height: 3), Self.bar(0, 4.3, 4), Self.digit(1, top: 5.6, height: 3),
                       Self.bar(5, 4, 2.5), Self.bar(5, 5.3, 2.5)]
        #expect(MathLines.group(strokes: strokes) == [[0, 1, 2, 3, 4]])
        // Two expressions written one under the other stay two lines.
        let two = [Self.digit(0, top: 0, height: 4), Self.bar(3, 2, 3), Self.digit(7, top: 0, height: 4),
                   Self.digit(0, top: 7, height: 4), Self.bar(3, 9, 3), Self.digit(7, top: 7, height: 4)]
        #expect(MathLines.group(strokes: two) == [[0, 1, 2], [3, 4, 5]])
    }
}
