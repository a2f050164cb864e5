import Foundation
import Quire

/// Where the calculator's pieces sit in its window (pixels): the history list at the top, the
/// result bar under it (tap it to push), the writing area below. Pure arithmetic.
struct CalculatorLayout: Equatable {
    let width: Double
    let height: Double
    let scale: Double
    /// The history list, newest at the bottom.
    let history: Rect
    /// The current result; a tap pushes the expression.
    let result: Rect
    /// The Clear history button at the right of the result bar.
    let clearHistory: Rect
    /// The canvas (the Math part's editor view).
    let canvas: Rect
    /// One history row's height.
    let rowHeight: Double

    init(width: Int, height: Int, scale: Double) {
        let w = Double(max(width, 200)), h = Double(max(height, 200)), k = max(scale, 0.5)
        self.width = w; self.height = h; self.scale = k
        rowHeight = (40 * k).rounded()
        let pad = (8 * k).rounded()
        let historyH = max(rowHeight * 2, ((h - pad * 4) * 0.38).rounded())
        history = Rect(x: pad, y: pad, width: w - 2 * pad, height: historyH)
        let barH = (52 * k).rounded()
        let clearW = (150 * k).rounded()
        result = Rect(x: pad, y: history.maxY + pad, width: w - 3 * pad - clearW, height: barH)
        clearHistory = Rect(x: result.maxX + pad, y: result.y, width: clearW, height: barH)
        let top = result.maxY + pad
        canvas = Rect(x: pad, y: top, width: w - 2 * pad, height: max(40, h - top - pad))
    }

    enum Target: Equatable { case result, clearHistory }

    func target(at p: Point) -> Target? {
        if result.contains(p) { return .result }
        if clearHistory.contains(p) { return .clearHistory }
        return nil
    }

    /// The rows of the history that fit, newest last: their frames, for `count` entries.
    func historyRows(count: Int) -> [(index: Int, frame: Rect)] {
        let fit = max(0, Int(history.height / rowHeight))
        let shown = min(fit, count)
        return (0..<shown).map { i in
            let index = count - shown + i
            return (index, Rect(x: history.x, y: history.maxY - Double(shown - i) * rowHeight, width: history.width, height: rowHeight))
        }
    }
}
