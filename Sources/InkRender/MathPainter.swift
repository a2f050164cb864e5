import Foundation
import InkMath
import InkModel

/// Draws typeset math (`MathLayout`) with Cairo: the expression in the text colour, the solver's
/// result in the theme's answer colour, diagnostics small in the error colour.
struct MathPainter {
    let theme: Theme
    let metrics: FontMetricsProvider

    /// The math a block shows (`TypesetMath` in its properties), laid out line by line.
    func layouts(of b: BlockData) -> [(line: TypesetMath.Line, layout: MathLayout)] {
        guard let tm = TypesetMath.decode(b.properties) else { return [] }
        return tm.lines.compactMap { line in
            guard line.size.isFinite, line.size >= 0.1, line.size <= 500, line.x.isFinite, line.baseline.isFinite else { return nil }
            let setter = MathTypesetter(font: FontSpec(family: theme.textFont.family, size: line.size), metrics: metrics)
            let expr = line.latex.isEmpty ? MathNode.row([]) : ((try? MathNode.parse(latex: line.latex)) ?? .row([]))
            let result = line.result.flatMap { try? MathNode.parse(latex: $0) }
            var l = setter.layout(expr, result: result, drawn: line.scratched == nil ? nil : setter.drawn(line))
            if let d = line.diagnostic, !d.isEmpty {
                let f = FontSpec(family: theme.textFont.family, size: line.size * 0.5, italic: true)
                let gap = line.size * 0.6
                l.marks.append(.text(d, x: l.width + gap, baseline: 0, font: f, answer: true))
                l.width += gap + metrics.measure(d, font: f).width
            }
            return (line, l)
        }
    }

    func draw(_ cr: CairoContext, block b: BlockData) {
        let all = layouts(of: b)
        guard !all.isEmpty else { return }
        CairoText.lock()
        defer { CairoText.unlock() }
        for (line, l) in all {
            let answer = line.diagnostic == nil ? theme.mathAnswerColor : theme.mathErrorColor
            draw(cr, l, at: Point(x: line.x, y: line.baseline), color: theme.textColor, answer: answer)
        }
    }

    /// Caller holds `CairoText`'s lock.
    func draw(_ cr: CairoContext, _ l: MathLayout, at o: Point, color: RGBA, answer: RGBA) {
        cr.save()
        defer { cr.restore() }
        var current: FontSpec?
        for m in l.marks {
            switch m {
            case .text(let s, let x, let b, let f, let a):
                cr.setSource(a ? answer : color)
                if f != current {
                    cr.selectFont(f)
                    cr.setFontSize(f.size)
                    current = f
                }
                cr.moveTo(o.x + x, o.y + b)
                cr.showText(s)
            case .rule(let r, let a):
                cr.setSource(a ? answer : color)
                cr.rectangle(r.x + o.x, r.y + o.y, r.width, r.height)
                cr.fill()
            case .path(let p, let w, let a):
                guard let first = p.first else { continue }
                cr.setSource(a ? answer : color)
                cr.setLineWidth(w)
                cr.setLineCap(.round)
                cr.setLineJoin(.round)
                cr.moveTo(first.x + o.x, first.y + o.y)
                for q in p.dropFirst() { cr.lineTo(q.x + o.x, q.y + o.y) }
                cr.stroke()
            }
        }
    }
}
