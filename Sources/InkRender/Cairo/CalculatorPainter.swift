import Foundation
import InkMath
import InkModel

/// What the calculator's window shows around its canvas (QuireApp/Calculator lays it out).
public struct CalculatorScene: Sendable {
    public var width: Double
    public var height: Double
    public var scale: Double
    /// History rows, oldest first: LaTeX and frame.
    public var history: [(latex: String, frame: Rect)]
    public var historyFrame: Rect
    public var resultFrame: Rect
    /// The result (LaTeX) of what is written, or nil.
    public var result: String?
    /// A diagnostic or a hint shown in the result bar when there is no result.
    public var note: String
    public var clearHistoryFrame: Rect
    public init(width: Double, height: Double, scale: Double, history: [(latex: String, frame: Rect)], historyFrame: Rect,
                resultFrame: Rect, result: String?, note: String, clearHistoryFrame: Rect) {
        self.width = width; self.height = height; self.scale = scale; self.history = history; self.historyFrame = historyFrame
        self.resultFrame = resultFrame; self.result = result; self.note = note; self.clearHistoryFrame = clearHistoryFrame
    }
}

/// Paints the calculator's history (typeset math, newest at the bottom), its result bar (the
/// result in the theme's answer colour) and the Clear history button.
public enum CalculatorPainter {
    private static let metrics = CairoFontMetrics()

    public static func draw(_ s: CalculatorScene, on surface: CairoSurface, theme: Theme = .default) {
        CairoText.lock()
        defer { CairoText.unlock() }
        do {
            let c = CairoContext(surface)
            c.applyFontOptions()
            c.rectangle(0, 0, s.width, s.height)
            c.setSourceRGB(0.95, 0.95, 0.94)
            c.fill()
            let k = s.scale
            c.setSource(.white)
            c.roundedRect(s.historyFrame, radius: 6 * k)
            c.fill()
            let painter = MathPainter(theme: theme, metrics: metrics)
            for (i, row) in s.history.enumerated() {
                if i % 2 == 1 {
                    c.setSourceRGB(0.97, 0.97, 0.98)
                    c.rectangle(row.frame)
                    c.fill()
                }
                guard let node = try? MathNode.parse(latex: row.latex) else { continue }
                // Laid out in pixels: the typesetter's millimetres are just units here.
                let setter = MathTypesetter(font: FontSpec(family: theme.textFont.family, size: 17 * k), metrics: metrics)
                var l = setter.layout(node)
                let fit = min(1, (row.frame.height - 6 * k) / max(l.height, 1))
                if fit < 1 { l = MathTypesetter(font: FontSpec(family: theme.textFont.family, size: 17 * k * fit), metrics: metrics).layout(node) }
                let baseline = row.frame.y + (row.frame.height - l.height) / 2 + l.ascent
                painter.draw(c, l, at: Point(x: row.frame.x + 12 * k, y: baseline), color: theme.textColor, answer: theme.mathAnswerColor)
            }
            if s.history.isEmpty {
                c.selectFont(FontSpec(family: "DejaVu Sans", italic: true))
                c.setSourceRGB(0.55, 0.55, 0.58)
                text(c, "History: Enter or a tap on the result keeps an expression here.", in: s.historyFrame.insetBy(dx: 12 * k, dy: 0), size: 15 * k)
            }
            // The result bar.
            c.setSource(.white)
            c.roundedRect(s.resultFrame, radius: 6 * k)
            c.fill()
            c.setSourceRGB(0.75, 0.77, 0.8)
            c.setLineWidth(max(1, k))
            c.roundedRect(s.resultFrame, radius: 6 * k)
            c.stroke()
            if let r = s.result, let node = try? MathNode.parse(latex: r) {
                let setter = MathTypesetter(font: FontSpec(family: theme.textFont.family, size: 24 * k), metrics: metrics)
                let eq = setter.layout(.op("="))
                let l = setter.layout(.row([.op("="), node]))
                let baseline = s.resultFrame.midY + (eq.ascent - eq.descent) / 2
                painter.draw(c, l.marked(answer: true), at: Point(x: s.resultFrame.x + 14 * k, y: baseline),
                             color: theme.textColor, answer: theme.mathAnswerColor)
            } else if !s.note.isEmpty {
                c.selectFont(FontSpec(family: "DejaVu Sans"))
                c.setSourceRGB(0.45, 0.45, 0.48)
                text(c, s.note, in: s.resultFrame.insetBy(dx: 14 * k, dy: 0), size: 16 * k)
            }
            // Clear history.
            c.roundedRect(s.clearHistoryFrame, radius: 6 * k)
            c.setSource(.white)
            c.fillPreserve()
            c.setSourceRGB(0.65, 0.66, 0.68)
            c.stroke()
            c.selectFont(FontSpec(family: "DejaVu Sans", bold: true))
            c.setSourceRGB(0.2, 0.2, 0.22)
            text(c, "Clear history", in: s.clearHistoryFrame, size: 15 * k, center: true)
        }
        surface.flush()
    }

    /// One line in `r`, vertically centred, cut with an ellipsis when too long.
    private static func text(_ c: CairoContext, _ s: String, in r: Rect, size: Double, center: Bool = false) {
        c.setFontSize(size)
        var t = s
        var w = c.textExtents(t).xAdvance
        while w > r.width, t.count > 1 {
            t = String(t.dropLast(2)) + "\u{2026}"
            w = c.textExtents(t).xAdvance
        }
        let fe = c.fontExtents()
        c.moveTo(r.x + (center ? (r.width - w) / 2 : 0), r.y + (r.height - (fe.ascent + fe.descent)) / 2 + fe.ascent)
        c.showText(t)
    }
}
