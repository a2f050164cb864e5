import Foundation
import InkMath
import InkModel

/// Typeset math: glyph runs, rules and strokes placed around a baseline, in millimetres, x from the
/// left edge and y down from the baseline (negative is above it). `MathTypesetter` makes it,
/// `PageRenderer` draws it (`MathPainter`).
public struct MathLayout: Sendable, Equatable {
    public enum Mark: Sendable, Equatable {
        /// Text on a baseline, upright or italic.
        case text(String, x: Double, baseline: Double, font: FontSpec, answer: Bool)
        /// A filled rectangle: fraction bars, radical overbars.
        case rule(Rect, answer: Bool)
        /// A stroked polyline: radical signs, stretched delimiters.
        case path([Point], width: Double, answer: Bool)
    }
    public var width = 0.0
    /// Extent above and below the baseline, by the glyphs' ink.
    public var ascent = 0.0
    public var descent = 0.0
    public var marks: [Mark] = []
    /// Its symbols as the math recognizer names them, with their boxes (`MathGlyph`): what pen
    /// edits of converted math read.
    public var glyphs: [MathGlyph] = []

    public var height: Double { ascent + descent }
    /// The box relative to the start of the baseline.
    public var bounds: Rect { Rect(x: 0, y: -ascent, width: width, height: ascent + descent) }

    /// Places `other` with its baseline start at (dx, dy), growing this layout's extents.
    mutating func place(_ other: MathLayout, dx: Double, dy: Double) {
        let markOffset = marks.count
        for m in other.marks {
            switch m {
            case .text(let s, let x, let b, let f, let a): marks.append(.text(s, x: x + dx, baseline: b + dy, font: f, answer: a))
            case .rule(let r, let a): marks.append(.rule(Rect(x: r.x + dx, y: r.y + dy, width: r.width, height: r.height), answer: a))
            case .path(let p, let w, let a): marks.append(.path(p.map { Point(x: $0.x + dx, y: $0.y + dy) }, width: w, answer: a))
            }
        }
        let offset = glyphs.count
        glyphs += other.glyphs.map { $0.moved(dx: dx, dy: dy, offset: offset, markOffset: markOffset) }
        width = max(width, dx + other.width)
        ascent = max(ascent, other.ascent - dy)
        descent = max(descent, other.descent + dy)
    }

    /// The same layout with every mark in the answer colour (or not).
    func marked(answer: Bool) -> MathLayout {
        var out = self
        out.marks = marks.map {
            switch $0 {
            case .text(let s, let x, let b, let f, _): return .text(s, x: x, baseline: b, font: f, answer: answer)
            case .rule(let r, _): return .rule(r, answer: answer)
            case .path(let p, let w, _): return .path(p, width: w, answer: answer)
            }
        }
        return out
    }
}

/// Lays out a `MathNode` the way math is printed: fraction bars on the math axis with the parts
/// centred and smaller, raised and lowered smaller scripts, radicals with a sign as tall as the
/// radicand and an overbar, stretched delimiters, italic variables, upright numbers and function
/// names, and space around binary operators and relations (none around a sign: `−3`).
public struct MathTypesetter: Sendable {
    /// Family and base size (mm) of the text; scripts and fraction parts shrink from it.
    public var font: FontSpec
    public let metrics: FontMetricsProvider

    public init(font: FontSpec, metrics: FontMetricsProvider) {
        self.font = font
        self.metrics = metrics
    }

    /// The layout of a whole expression at the base size.
    public func layout(_ node: MathNode) -> MathLayout { layout(node, size: font.size, depth: 0) }

    /// A line with its computed result after it in the answer colour; `drawn` is how the line
    /// itself is drawn when not from `line` (after a scratch-out: `drawn(_:)`).
    public func layout(_ line: MathNode, result: MathNode?, drawn: MathLayout? = nil) -> MathLayout {
        var out = drawn ?? layout(line)
        guard let result else { return out }
        let items: [MathNode] = if case .row(let x) = line { x } else { [line] }
        // The result continues the row: after `=` the relation's space is already there.
        let gap = items.last == .op("=") ? 0 : relationSpace(font.size)
        out.place(layout(result).marked(answer: true), dx: out.width + gap, dy: 0)
        return out
    }

    private func relationSpace(_ s: Double) -> Double { 0.28 * s }
    private func binarySpace(_ s: Double) -> Double { 0.22 * s }
    private func axis(_ s: Double) -> Double { 0.26 * s }
    private func rule(_ s: Double) -> Double { max(0.06 * s, 0.05) }
    /// Nesting is bounded: past this depth content is drawn at the smallest size without recursing further.
    private static let maxDepth = 60

    private func smaller(_ s: Double, _ k: Double) -> Double { max(s * k, font.size * 0.45) }

    func layout(_ node: MathNode, size s: Double, depth: Int) -> MathLayout {
        guard depth < Self.maxDepth else { return text("…", size: s, italic: false) }
        switch node {
        case .number(let n): return text(n, size: s, italic: false)
        case .identifier(let v): return text(v, size: s, italic: v.unicodeScalars.allSatisfy { CharacterSet.letters.contains($0) })
        case .function(let f): return text(f, size: s, italic: false)
        case .op(let o): return text(o, size: s, italic: false)
        case .row(let items): return row(items, size: s, depth: depth)
        case .fraction(let n, let d): return fraction(n, d, size: s, depth: depth)
        case .sup(let b, let e): return scripts(b, sub: nil, sup: e, size: s, depth: depth)
        case .sub(let b, let i): return scripts(b, sub: i, sup: nil, size: s, depth: depth)
        case .subSup(let b, let i, let e): return scripts(b, sub: i, sup: e, size: s, depth: depth)
        case .root(let r, let index): return radical(r, index: index, size: s, depth: depth)
        case .fenced(let o, let c, let content): return fenced(o, c, content, size: s, depth: depth)
        }
    }

    private func text(_ t: String, size s: Double, italic: Bool) -> MathLayout {
        let f = FontSpec(family: font.family, size: s, bold: font.bold, italic: italic)
        let m = metrics.measure(t, font: f)
        var out = MathLayout()
        out.width = m.width
        if let ink = m.inkBounds {
            out.ascent = max(-ink.y, 0)
            out.descent = max(ink.maxY, 0)
            // An italic glyph leans past its advance: keep its ink inside the box.
            out.width = max(m.width, ink.maxX)
        } else {
            out.ascent = m.ascent * 0.8
            out.descent = m.descent * 0.5
        }
        out.marks = [.text(t, x: 0, baseline: 0, font: f, answer: false)]
        out.glyphs = MathGlyph.glyphs(of: t, font: f, measured: m, metrics: metrics)
        return out
    }

    private enum Spacing { case none, binary, relation, comma }

    private func row(_ items: [MathNode], size s: Double, depth: Int) -> MathLayout {
        var out = MathLayout()
        var x = 0.0
        for (k, item) in items.enumerated() {
            let spacing = self.spacing(items, k)
            let scale = depth > 0 && s < font.size * 0.9 ? 0.5 : 1.0
            let before: Double, after: Double
            switch spacing {
            case .none: before = 0; after = 0
            case .binary: before = binarySpace(s) * scale; after = before
            case .relation: before = k == 0 ? 0 : relationSpace(s) * scale; after = relationSpace(s) * scale
            case .comma: before = 0; after = 0.17 * s
            }
            var l = layout(item, size: s, depth: depth + 1)
            var lead = before
            if case .function = item {
                // A thin space between a function name and the letters around it: `2 sin x`.
                if k + 1 < items.count, !isFenced(items[k + 1]) { l.width += 0.17 * s }
                if k > 0, self.spacing(items, k - 1) == .none, !isOpenOrOperator(items[k - 1]) { lead += 0.17 * s }
            }
            out.place(l, dx: x + lead, dy: 0)
            x += lead + l.width + after
        }
        out.width = x
        return out
    }

    private func isOpenOrOperator(_ n: MathNode) -> Bool {
        if case .op(let o) = n { return !"!%)]}|".contains(o) }
        return false
    }

    private func isFenced(_ n: MathNode) -> Bool {
        if case .fenced = n { return true }
        if case .op(let o) = n { return "([{|".contains(o) }
        return false
    }

    /// Binary operators take space when something to combine stands on both sides; a sign does not.
    private func spacing(_ items: [MathNode], _ k: Int) -> Spacing {
        guard case .op(let o) = items[k] else { return .none }
        if "=≠<>≤≥".contains(o) { return .relation }
        if o == "," { return .comma }
        guard "+−±×÷·".contains(o), k > 0, k + 1 < items.count else { return .none }
        if case .op(let prev) = items[k - 1], !"!%)]}|".contains(prev) { return .none }
        return .binary
    }

    private func fraction(_ n: MathNode, _ d: MathNode, size s: Double, depth: Int) -> MathLayout {
        let ps = smaller(s, 0.85)
        let num = part(n, size: ps, depth: depth + 1), den = part(d, size: ps, depth: depth + 1)
        let t = rule(s), gap = 0.16 * s, pad = 0.12 * s
        let w = max(num.width, den.width) + 2 * pad
        let a = axis(s)
        var out = MathLayout()
        out.marks = [.rule(Rect(x: 0, y: -a - t / 2, width: w, height: t), answer: false)]
        out.ascent = a + t / 2
        out.descent = 0
        out.place(num, dx: (w - num.width) / 2, dy: -a - t / 2 - gap - num.descent)
        out.place(den, dx: (w - den.width) / 2, dy: -a + t / 2 + gap + den.ascent)
        let bar = Rect(x: 0, y: -a - t / 2, width: w, height: t)
        out.glyphs.append(MathGlyph(symbol: "-", box: bar, hitBox: bar.insetBy(dx: 0, dy: -0.15 * s), kind: .fractionBar,
                                    holds: Array(out.glyphs.indices), marks: [0]))
        // A little space either side so that a bar does not touch its neighbours.
        var spaced = MathLayout()
        spaced.place(out, dx: 0.08 * s, dy: 0)
        spaced.width = w + 0.16 * s
        return spaced
    }

    /// A fraction part or radicand; an empty one (its content scratched out) keeps a slot the
    /// size of a digit, outlined, for the pen to write into.
    private func part(_ n: MathNode, size s: Double, depth: Int) -> MathLayout {
        guard n == .row([]) else { return layout(n, size: s, depth: depth) }
        var out = MathLayout()
        let w = 0.5 * s, h = 0.7 * s
        out.marks = [.path([Point(x: 0.05 * s, y: 0), Point(x: 0.05 * s + w, y: 0), Point(x: 0.05 * s + w, y: -h),
                            Point(x: 0.05 * s, y: -h), Point(x: 0.05 * s, y: 0)], width: rule(s) * 0.4, answer: false)]
        out.width = w + 0.1 * s
        out.ascent = h
        return out
    }

    private func scripts(_ b: MathNode, sub: MathNode?, sup: MathNode?, size s: Double, depth: Int) -> MathLayout {
        var out = layout(b, size: s, depth: depth + 1)
        let ss = smaller(s, 0.7)
        let x = out.width + 0.04 * s
        var width = out.width
        if let sup {
            let e = layout(sup, size: ss, depth: depth + 1)
            // Raised so that its bottom clears the middle of the base, and higher for a tall base.
            let raise = max(0.42 * s, out.ascent - 0.45 * s, e.descent + 0.3 * s)
            out.place(e, dx: x, dy: -raise)
            width = max(width, x + e.width)
        }
        if let sub {
            let i = layout(sub, size: ss, depth: depth + 1)
            let drop = max(0.22 * s, i.ascent - 0.5 * s, out.descent - 0.1 * s)
            out.place(i, dx: x, dy: drop)
            width = max(width, x + i.width)
        }
        out.width = width + 0.04 * s
        return out
    }

    private func radical(_ r: MathNode, index: MathNode?, size s: Double, depth: Int) -> MathLayout {
        let body = part(r, size: s, depth: depth + 1)
        let t = rule(s), gap = 0.14 * s
        let top = max(body.ascent, 0.7 * s) + gap
        let bottom = max(body.descent, 0.05 * s)
        let h = top + bottom
        // The sign: a short tick up-left, down to the bottom, then up to the overbar.
        let signW = 0.35 * s + 0.1 * h
        var out = MathLayout()
        var lead = 0.05 * s
        var indexLayout: MathLayout?
        if let index {
            let il = layout(index, size: smaller(s, 0.55), depth: depth + 1)
            indexLayout = il
            lead = max(lead, il.width - 0.3 * signW)
        }
        let x0 = lead
        let sign = [Point(x: x0, y: -0.45 * h + bottom), Point(x: x0 + 0.18 * signW, y: -0.55 * h + bottom),
                    Point(x: x0 + 0.5 * signW, y: bottom), Point(x: x0 + signW, y: -top + t / 2)]
        out.marks.append(.path(sign, width: t, answer: false))
        out.marks.append(.rule(Rect(x: x0 + signW, y: -top, width: body.width + 0.16 * s, height: t), answer: false))
        out.ascent = top
        out.descent = bottom
        if let il = indexLayout {
            out.place(il, dx: x0 + 0.4 * signW - il.width, dy: -0.5 * h + bottom - 0.1 * s - il.descent)
        }
        let held = out.glyphs.count
        out.place(body, dx: x0 + signW + 0.08 * s, dy: 0)
        // As a hand writes it: the sign and its overbar over the radicand, the tick where the
        // rising stroke comes within 30% of the top.
        let whole = Rect(x: x0, y: -top, width: signW + body.width + 0.16 * s, height: h)
        out.glyphs.append(MathGlyph(symbol: "√", box: whole, hitBox: Rect(x: x0, y: -top, width: signW, height: h),
                                    kind: .radical, holds: Array(held ..< out.glyphs.count), tick: x0 + 0.85 * signW, marks: [0, 1]))
        out.width = x0 + signW + body.width + 0.2 * s
        return out
    }

    private func fenced(_ o: String, _ c: String, _ content: MathNode, size s: Double, depth: Int) -> MathLayout {
        let body = layout(content, size: s, depth: depth + 1)
        let plain = text("(", size: s, italic: false)
        // Content no taller than a line keeps the font's brackets.
        if body.ascent <= plain.ascent * 1.05 && body.descent <= plain.descent * 1.3 {
            let l = text(o, size: s, italic: false), r = text(c, size: s, italic: false)
            var out = MathLayout()
            out.place(l, dx: 0, dy: 0)
            out.place(body, dx: l.width, dy: 0)
            out.place(r, dx: l.width + body.width, dy: 0)
            out.width = l.width + body.width + r.width
            return out
        }
        let top = body.ascent + 0.1 * s, bottom = body.descent + 0.1 * s
        let w = 0.3 * s + 0.05 * (top + bottom)
        var out = MathLayout()
        out.marks.append(.path(delimiter(o, left: true, x: 0, w: w, top: -top, bottom: bottom), width: rule(s) * 1.2, answer: false))
        if o.count == 1, let ch = o.first { out.glyphs.append(MathGlyph(symbol: ch, box: Rect(x: 0, y: -top, width: w, height: top + bottom), marks: [0])) }
        out.place(body, dx: w, dy: 0)
        out.marks.append(.path(delimiter(c, left: false, x: w + body.width, w: w, top: -top, bottom: bottom),
                               width: rule(s) * 1.2, answer: false))
        if c.count == 1, let ch = c.first {
            out.glyphs.append(MathGlyph(symbol: ch, box: Rect(x: w + body.width, y: -top, width: w, height: top + bottom),
                                        marks: [out.marks.count - 1]))
        }
        out.ascent = max(out.ascent, top)
        out.descent = max(out.descent, bottom)
        out.width = 2 * w + body.width
        return out
    }

    /// A delimiter stretched from `top` to `bottom` inside [x, x + w].
    private func delimiter(_ d: String, left: Bool, x: Double, w: Double, top: Double, bottom: Double) -> [Point] {
        let inner = left ? x + 0.75 * w : x + 0.25 * w, outer = left ? x + 0.25 * w : x + 0.75 * w
        let mid = (top + bottom) / 2
        switch d {
        case "[", "]":
            return [Point(x: inner, y: top), Point(x: outer, y: top), Point(x: outer, y: bottom), Point(x: inner, y: bottom)]
        case "|":
            return [Point(x: x + w / 2, y: top), Point(x: x + w / 2, y: bottom)]
        case "{", "}":
            let tip = left ? x + 0.1 * w : x + 0.9 * w, m = (inner + outer) / 2
            return [Point(x: inner, y: top), Point(x: m, y: top + 0.1 * (bottom - top)), Point(x: m, y: mid - 0.05 * (bottom - top)),
                    Point(x: tip, y: mid), Point(x: m, y: mid + 0.05 * (bottom - top)), Point(x: m, y: bottom - 0.1 * (bottom - top)),
                    Point(x: inner, y: bottom)]
        default:
            // A parenthesis: an elliptic arc bulging outwards.
            return (0...16).map { k in
                let a = Double(k) / 16 * Double.pi
                return Point(x: inner + (outer - inner) * sin(a), y: top + (bottom - top) * (1 - cos(a)) / 2)
            }
        }
    }
}
