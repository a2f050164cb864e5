import InkModel

/// Greedy line breaking of typeset text: at spaces, and inside words too long for a line.
enum TextLayout {
    /// Runs of `text` between `left` and `right`, baselines `pitch` apart from `top`; `measure`
    /// gives a string's metrics (one glyph box per character).
    static func runs(_ text: String, font: FontSpec, left: Double, right: Double, top: Double, pitch: Double, space: Double,
                     measure: (String) -> TextMetrics) -> [TextRun] {
        var runs: [TextRun] = []
        var line = 0
        var x = left
        var lineHasText = false
        func newLine() { line += 1; x = left; lineHasText = false }
        for (pi, para) in text.components(separatedBy: "\n").enumerated() {
            if pi > 0 { newLine() }
            for word in para.split(separator: " ", omittingEmptySubsequences: true) {
                var w = String(word)
                var m = measure(w)
                if lineHasText, x + space + m.width > right { newLine() }
                if lineHasText { x += space }
                // Break words wider than a whole line at character boundaries.
                while m.width > right - x, w.count > 1 {
                    var n = 0
                    for (i, g) in m.glyphBoxes.enumerated() where x + g.maxX <= right { n = i + 1 }
                    n = max(n, lineHasText ? 0 : 1)
                    if n == 0 { newLine(); continue }
                    let head = String(w.prefix(n))
                    let hm = measure(head)
                    runs.append(TextRun(text: head, x: x, baseline: top + pitch * Double(line + 1), width: hm.width, font: font))
                    newLine()
                    w = String(w.dropFirst(n))
                    m = measure(w)
                }
                runs.append(TextRun(text: w, x: x, baseline: top + pitch * Double(line + 1), width: m.width, font: font))
                x += m.width
                lineHasText = true
            }
        }
        return runs
    }
}
