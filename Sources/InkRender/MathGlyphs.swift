import Foundation
import InkMath
import InkModel

/// One symbol of typeset math as the math recognizer would name it, with where it is: what lets a
/// pen edit converted math (`digitalEdit`). Scratch-out removes the glyphs it covers, and ink
/// written into typeset math is read together with its glyphs (MathParser takes both).
public struct MathGlyph: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case symbol
        /// A fraction bar: `holds` its numerator's and denominator's glyphs.
        case fractionBar
        /// A radical sign with its overbar: `holds` its radicand's glyphs.
        case radical
    }

    /// The class, in the recognizer's alphabet (`-` for a minus sign and a fraction bar, `√`).
    public var symbol: Character
    /// Its box as the structure parser reads it, relative to the layout's origin (y down): the
    /// glyph's ink; a radical's sign together with its overbar, as a hand writes it.
    public var box: Rect
    /// What a scratch-out must cover to remove it: the ink, a radical's sign alone, a bar with
    /// some height (a rule is thinner than any scratch).
    public var hitBox: Rect
    public var kind: Kind
    /// Indices in `MathLayout.glyphs` of what a fraction bar or radical holds.
    public var holds: [Int]
    /// A radical's tick: where its sign's ink comes within 30% of its top (`ParsedSymbolInput.tick`).
    public var tick: Double?
    /// Indices in `MathLayout.marks` of what draws it, and for a character of a longer text run
    /// its index in that run: what a scratched-out glyph leaves undrawn (`MathTypesetter.hiding`).
    public var marks: [Int]
    public var character: Int?

    public init(symbol: Character, box: Rect, hitBox: Rect? = nil, kind: Kind = .symbol, holds: [Int] = [], tick: Double? = nil,
                marks: [Int] = [], character: Int? = nil) {
        self.symbol = symbol; self.box = box; self.hitBox = hitBox ?? box; self.kind = kind; self.holds = holds; self.tick = tick
        self.marks = marks; self.character = character
    }

    /// The same glyph moved by (dx, dy): placed on a page at a line's left edge and baseline.
    public func offsetBy(dx: Double, dy: Double) -> MathGlyph { moved(dx: dx, dy: dy, offset: 0, markOffset: 0) }

    /// The same glyph moved by (dx, dy), its `holds` shifted by `offset` and `marks` by `markOffset`.
    func moved(dx: Double, dy: Double, offset: Int, markOffset: Int) -> MathGlyph {
        var g = self
        g.box = Rect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
        g.hitBox = Rect(x: hitBox.x + dx, y: hitBox.y + dy, width: hitBox.width, height: hitBox.height)
        g.holds = holds.map { $0 + offset }
        g.marks = marks.map { $0 + markOffset }
        g.tick = tick.map { $0 + dx }
        return g
    }

    /// The recognizer's class of a typeset character (the minus sign is the hyphen class).
    static func symbol(of c: Character) -> Character { c == "−" ? "-" : c }

    /// One glyph per character of a text run at the origin: each character's own ink where the
    /// metrics provider knows it, else its cell.
    static func glyphs(of text: String, font: FontSpec, measured m: TextMetrics, metrics: FontMetricsProvider) -> [MathGlyph] {
        let chars = Array(text)
        guard chars.count > 1 else {
            guard let c = chars.first else { return [] }
            let box = m.inkBounds ?? Rect(x: 0, y: -m.ascent, width: m.width, height: m.ascent + m.descent)
            return [MathGlyph(symbol: symbol(of: c), box: box, marks: [0])]
        }
        return chars.enumerated().map { k, c in
            let cell = k < m.glyphBoxes.count ? m.glyphBoxes[k] : Rect(x: 0, y: -m.ascent, width: 0, height: m.ascent + m.descent)
            let ink = metrics.measure(String(c), font: font).inkBounds
            let box = ink.map { Rect(x: cell.x + $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? cell
            return MathGlyph(symbol: symbol(of: c), box: box, marks: [0], character: k)
        }
    }
}

extension MathTypesetter {
    /// What a typeset line is drawn from: the layout of its expression, or after a scratch-out
    /// (`TypesetMath.Line.scratched`) the layout it was typeset with and the glyphs that went.
    /// nil for a line without an expression (a result beside ink) or one that does not parse.
    public func source(of line: TypesetMath.Line) -> (layout: MathLayout, hidden: Set<Int>)? {
        if let sc = line.scratched, let node = try? MathNode.parse(latex: sc.latex) {
            let l = layout(node)
            return (l, Set(sc.glyphs.filter { l.glyphs.indices.contains($0) }))
        }
        guard !line.latex.isEmpty, let node = try? MathNode.parse(latex: line.latex) else { return nil }
        return (layout(node), [])
    }

    /// A typeset line's expression as drawn: the symbols left by a scratch-out where they were,
    /// each removed symbol's place open and outlined (`hiding`).
    public func drawn(_ line: TypesetMath.Line) -> MathLayout? {
        source(of: line).map { hiding($0.hidden, in: $0.layout, filled: Set(line.scratched?.filled ?? [])) }
    }

    /// `l` without the glyphs `hidden` (indices in `l.glyphs`): their marks undrawn (a character
    /// of a longer run cut out of it, the rest of the run where it was), their place kept (the
    /// layout's extent does not change) and outlined as a slot to write into, one per group of
    /// neighbouring symbols, unless ink fills it (`filled`). The glyphs left keep their boxes.
    public func hiding(_ hidden: Set<Int>, in l: MathLayout, filled: Set<Int> = []) -> MathLayout {
        let gone = hidden.filter { l.glyphs.indices.contains($0) }
        guard !gone.isEmpty else { return l }
        var dropMarks = Set<Int>(), dropChars: [Int: Set<Int>] = [:]
        for i in gone {
            let g = l.glyphs[i]
            if let c = g.character, let m = g.marks.first { dropChars[m, default: []].insert(c) } else { dropMarks.formUnion(g.marks) }
        }
        // Old mark index (and character) to the new one, for the glyphs that stay.
        var markMap: [Int: Int] = [:], charMap: [Int: [Int: (mark: Int, character: Int?)]] = [:]
        var out = l
        out.marks = []
        for (k, m) in l.marks.enumerated() where !dropMarks.contains(k) {
            guard let cut = dropChars[k], case .text(let s, let x, let b, let f, let a) = m else {
                markMap[k] = out.marks.count
                out.marks.append(m)
                continue
            }
            let cs = Array(s)
            var start: Int?
            for j in 0 ... cs.count {
                let keep = j < cs.count && !cut.contains(j)
                if keep, start == nil { start = j }
                guard !keep, let r = start else { continue }
                let lead = r == 0 ? 0 : metrics.measure(String(cs[..<r]), font: f).width
                for c in r ..< j { charMap[k, default: [:]][c] = (out.marks.count, j - r > 1 ? c - r : nil) }
                out.marks.append(.text(String(cs[r ..< j]), x: x + lead, baseline: b, font: f, answer: a))
                start = nil
            }
        }
        var index: [Int: Int] = [:]
        out.glyphs = []
        for (i, g) in l.glyphs.enumerated() where !gone.contains(i) {
            index[i] = out.glyphs.count
            var n = g
            if let c = g.character, let m = g.marks.first, let to = charMap[m]?[c] {
                n.marks = [to.mark]
                n.character = to.character
            } else {
                n.marks = g.marks.compactMap { markMap[$0] }
            }
            out.glyphs.append(n)
        }
        for k in out.glyphs.indices { out.glyphs[k].holds = out.glyphs[k].holds.compactMap { index[$0] } }
        // The slots: hidden symbols side by side (within a quarter em) make one.
        var slots: [Rect] = []
        for r in gone.subtracting(filled).map({ l.glyphs[$0] }).filter({ $0.kind == .symbol }).map(\.box).sorted(by: { $0.x < $1.x }) {
            if let last = slots.last, r.x <= last.maxX + 0.25 * font.size { slots[slots.count - 1] = last.union(r) } else { slots.append(r) }
        }
        let pad = 0.06 * font.size, w = max(0.06 * font.size, 0.05) * 0.4
        for s in slots {
            let r = s.insetBy(dx: -pad, dy: -pad)
            out.marks.append(.path([Point(x: r.x, y: r.maxY), Point(x: r.maxX, y: r.maxY), Point(x: r.maxX, y: r.y), Point(x: r.x, y: r.y),
                                    Point(x: r.x, y: r.maxY)], width: w, answer: false))
        }
        return out
    }
}
