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
                let m = measure(String(word))
                if lineHasText, x + space + m.width > right { newLine() }
                if lineHasText { x += space }
                // A word wider than a whole line is cut at character boundaries, from its one
                // measurement: measuring the rest again after every cut made a long word (a pasted
                // block of 200,000 letters) quadratic, minutes to draw.
                let chars = Array(word), boxes = m.glyphBoxes
                var first = 0
                func rest() -> Double { first == 0 ? m.width : first < boxes.count ? m.width - boxes[first].x : 0 }
                while boxes.count == chars.count, rest() > right - x, chars.count - first > 1 {
                    let base = boxes[first].x
                    var n = 0
                    while first + n < boxes.count, x + boxes[first + n].maxX - base <= right { n += 1 }
                    n = max(n, lineHasText ? 0 : 1)
                    if n == 0 { newLine(); continue }
                    runs.append(TextRun(text: String(chars[first ..< first + n]), x: x, baseline: top + pitch * Double(line + 1),
                                        width: boxes[first + n - 1].maxX - base, font: font))
                    newLine()
                    first += n
                }
                runs.append(TextRun(text: String(chars[first...]), x: x, baseline: top + pitch * Double(line + 1), width: rest(), font: font))
                x += rest()
                lineHasText = true
            }
        }
        return runs
    }
}
