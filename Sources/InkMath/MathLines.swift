import Foundation
import InkRecognition

/// Math lines: text's line grouping (`TextRecognizer.groupLines`), then lines that a fraction
/// split joined again. Text groups strokes by the median stroke height, which the flat bars of a
/// fraction, `=` and `-` make small, so a numerator and its bar could become a line of their own
/// (sets A and B: 4 of 1,000 expressions read as two lines).
public enum MathLines {
    /// Line groups of stroke indices, top to bottom (as `TextRecognizer.groupLines`).
    public static func group(strokes: [[SIMD2<Double>]]) -> [[Int]] {
        var lines = TextRecognizer.groupLines(strokes: strokes)
        guard lines.count > 1 else { return lines }
        let b = MathSegmenter.boxes(strokes)
        let ref = MathSegmenter.referenceSize(lines.joined().map { b[$0] })
        var k = 0
        while k + 1 < lines.count {
            if joined(lines[k], lines[k + 1], b, ref) {
                lines[k] = (lines[k] + lines[k + 1]).sorted()
                lines.remove(at: k + 1)
                k = max(0, k - 1)
            } else {
                k += 1
            }
        }
        return lines
    }

    /// Whether two lines, `upper` above `lower`, are one: a bar (a flat stroke at least half the
    /// reference size long) of one lies over or under ink of the other less than half the reference
    /// size from it, as a fraction's bar lies over its denominator and under its numerator. Lines of
    /// a block written one under another are further apart than half a symbol, and no bar of one
    /// spans ink of the next so close.
    static func joined(_ upper: [Int], _ lower: [Int], _ b: [SIMD4<Double>], _ ref: Double) -> Bool {
        func isBar(_ i: Int) -> Bool { let w = b[i][2] - b[i][0]; return w >= 0.5 * ref && b[i][3] - b[i][1] < 0.3 * w }
        func under(_ bar: Int, _ i: Int) -> Bool { b[i][0] + b[i][2] > 2 * b[bar][0] && b[i][0] + b[i][2] < 2 * b[bar][2] }
        let barOverLower = upper.contains { bar in
            isBar(bar) && lower.contains { under(bar, $0) && b[$0][1] > b[bar][3] && b[$0][1] - b[bar][3] < 0.5 * ref }
        }
        let barUnderUpper = lower.contains { bar in
            isBar(bar) && upper.contains { under(bar, $0) && b[$0][3] < b[bar][1] && b[bar][1] - b[$0][3] < 0.5 * ref }
        }
        return barOverLower || barUnderUpper
    }
}
