import Foundation
import InkMath
import InkModel
import InkRender

/// Converted math edited by pen (`digitalEdit`, docs/MATH.md "Editing typeset math"): a typeset
/// line is read back as symbols (its glyphs' classes and boxes, `MathGlyph`), so that a
/// scratch-out removes the symbols it covers and ink written into the line is parsed together
/// with them (`MathParser`), as if the whole had been written by hand.
enum MathEditing {
    /// A typeset line's symbols placed on the page (model mm).
    struct Typeset {
        var node: MathNode
        /// The glyphs of the expression the line is drawn from (`source`), those scratched out
        /// since the last convert (`hidden`) included: a scratch-out keeps the others in place.
        var glyphs: [MathGlyph]
        var hidden: Set<Int> = []
        var source: String
        /// The expression's box (without its result).
        var box: Rect
        var size: Double

        /// The glyphs the line shows.
        var visible: [MathGlyph] { glyphs.indices.filter { !hidden.contains($0) }.map { glyphs[$0] } }
    }

    /// What a scratch-out does to one typeset line.
    enum LineEdit: Equatable {
        case remove
        /// The line reads `latex` now, drawn as `scratched` says until the next convert.
        case replace(latex: String, scratched: TypesetMath.Scratched?)
    }

    /// A line's symbols, or nil when reading its glyphs back does not give the line (a root
    /// with an index, nesting past the typesetter's depth): such a line is edited only whole.
    static func typeset(_ line: TypesetMath.Line, metrics: FontMetricsProvider) -> Typeset? {
        guard !line.latex.isEmpty, line.size.isFinite, line.size > 0, line.size <= 500, line.x.isFinite, line.baseline.isFinite,
              let node = try? MathNode.parse(latex: line.latex),
              let (l, hidden) = MathTypesetter(font: FontSpec(size: line.size), metrics: metrics).source(of: line) else { return nil }
        let t = Typeset(node: node, glyphs: l.glyphs.map { $0.offsetBy(dx: line.x, dy: line.baseline) }, hidden: hidden,
                        source: line.scratched?.latex ?? line.latex,
                        box: Rect(x: line.x, y: line.baseline - l.ascent, width: l.width, height: l.height), size: line.size)
        guard !t.visible.isEmpty, parse(t.visible, ink: []).latex == node.latex else { return nil }
        return t
    }

    /// The structure parser's reading of typeset glyphs and ink symbols together.
    static func parse(_ glyphs: [MathGlyph], ink: [MathSymbol]) -> MathNode {
        func box(_ r: Rect) -> MathBox { MathBox(x: r.x, y: r.y, width: r.width, height: r.height) }
        var input = glyphs.map { g in
            ParsedSymbolInput(label: g.symbol, box: box(g.box), tick: g.tick, isStructure: g.kind != .symbol)
        }
        for s in ink where s.label.count == 1 && s.label != String(MathSymbols.junk) {
            input.append(ParsedSymbolInput(label: s.label.first!, box: s.box))
        }
        return MathParser.parse(input)
    }

    /// The n best readings of typeset glyphs and ink symbols together, best first: the reading
    /// of the chosen classes, then each ink symbol read as one of its other candidates (typeset
    /// symbols are certain), scored by the chosen classes' log-probabilities with that one
    /// swapped. Readings that give the same LaTeX count once.
    static func candidates(_ glyphs: [MathGlyph], ink: [MathSymbol], limit: Int = 5) -> [(node: MathNode, score: Double)] {
        func chosen(_ s: MathSymbol) -> Double { s.candidates.first { $0.label == s.label }?.score ?? 0 }
        let base = ink.reduce(0.0) { $0 + chosen($1) }
        var options: [(node: MathNode, score: Double)] = [(parse(glyphs, ink: ink), base)]
        for (k, s) in ink.enumerated() {
            for c in s.candidates where c.label != s.label && c.label.count == 1 {
                var swapped = ink
                swapped[k].label = c.label
                options.append((parse(glyphs, ink: swapped), base - chosen(s) + c.score))
            }
        }
        // The reading shown stays first (a chosen class may be a runner-up its context preferred).
        var seen = Set<String>()
        let rest = options.dropFirst().enumerated().sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
        return ([options[0]] + rest).filter { seen.insert($0.node.latex).inserted }.prefix(limit).map { $0 }
    }

    // MARK: - Scratch-out

    /// The glyphs a scratch-out over `area` removes. A glyph goes when the scratch covers half of
    /// what it shows (`hitBox`); a fraction bar takes its numerator and denominator with it; a
    /// radical sign goes alone and leaves its radicand on the line.
    static func covered(_ t: Typeset, area: Rect) -> Set<Int> {
        var out = Set<Int>()
        for (i, g) in t.glyphs.enumerated() where !t.hidden.contains(i) {
            let r = g.hitBox
            let w = min(r.maxX, area.maxX) - max(r.x, area.x), h = min(r.maxY, area.maxY) - max(r.y, area.y)
            if w > 0, h > 0, w * h >= 0.5 * max(r.width * r.height, 1e-9) { out.insert(i) }
        }
        for i in out where t.glyphs[i].kind == .fractionBar { out.formUnion(t.glyphs[i].holds) }
        return out
    }

    /// The line without the glyphs `removed`: nil when nothing is left. The glyphs left stay where
    /// they were (`TypesetMath.Scratched`) until the next convert, so that the pen can write
    /// into the place of those that went. A fraction whose numerator and denominator both went
    /// loses its bar, unless everything else went too.
    static func removing(_ removed: Set<Int>, from t: Typeset) -> LineEdit? {
        guard !removed.subtracting(t.hidden).isEmpty else { return nil }
        var gone = removed.union(t.hidden)
        // A structure left holding nothing is the scratch's too when nothing else remains around it.
        let kept = t.glyphs.indices.filter { !gone.contains($0) }
        if kept.allSatisfy({ t.glyphs[$0].kind != .symbol }) { return .remove }
        for i in kept where t.glyphs[i].kind == .fractionBar && t.glyphs[i].holds.allSatisfy(gone.contains) { gone.insert(i) }
        let rest = t.glyphs.indices.filter { !gone.contains($0) }.map { t.glyphs[$0] }
        guard !rest.isEmpty else { return .remove }
        let node = parse(rest, ink: [])
        return node == .row([]) ? .remove : .replace(latex: node.latex, scratched: TypesetMath.Scratched(latex: t.source, glyphs: gone.sorted()))
    }

    /// What a scratch-out over `area` does to each typeset line of a block, by index in
    /// `TypesetMath.lines`. A line that cannot be read back goes whole when half its box is covered.
    static func scratchEdits(_ b: BlockData, area: Rect, metrics: FontMetricsProvider) -> [Int: LineEdit] {
        guard let tm = TypesetMath.decode(b.properties) else { return [:] }
        var out: [Int: LineEdit] = [:]
        for (i, line) in tm.lines.enumerated() where !line.latex.isEmpty {
            if let t = typeset(line, metrics: metrics) {
                guard t.box.intersects(area) else { continue }
                out[i] = removing(covered(t, area: area), from: t)
            } else if let r = MathBlocks.typesetBoxes(b, metrics: metrics).first(where: { $0.index == i })?.box {
                let w = min(r.maxX, area.maxX) - max(r.x, area.x), h = min(r.maxY, area.maxY) - max(r.y, area.y)
                if w > 0, h > 0, w * h >= 0.5 * max(r.width * r.height, 1e-6) { out[i] = .remove }
            }
        }
        return out
    }

    /// What a gesture may act on in a block's typeset math: each symbol (its `hitBox`) of a line
    /// that reads back, the whole box of one that does not. A scratch over one symbol covers half
    /// of its box, not of its expression's.
    static func gestureBoxes(_ b: BlockData, metrics: FontMetricsProvider) -> [Rect] {
        guard let tm = TypesetMath.decode(b.properties) else { return [] }
        let whole = Dictionary(MathBlocks.typesetBoxes(b, metrics: metrics).map { ($0.index, $0.box) }, uniquingKeysWith: { a, _ in a })
        return tm.lines.enumerated().flatMap { i, line -> [Rect] in
            if let t = typeset(line, metrics: metrics) { return t.visible.map(\.hitBox) }
            return whole[i].map { [$0] } ?? []
        }
    }

    // MARK: - Ink written into typeset math

    /// The scratched-out glyphs of a line whose place the ink's symbols overlap (nil: none).
    static func filled(_ t: Typeset, by ink: [MathExpression]) -> [Int]? {
        let boxes = ink.flatMap(\.symbols).map { Rect(x: $0.box.x, y: $0.box.y, width: $0.box.width, height: $0.box.height) }
        let out = t.hidden.filter { i in boxes.contains { $0.intersects(t.glyphs[i].box) } }.sorted()
        return out.isEmpty ? nil : out
    }

    /// Does ink with this box belong to a typeset line: inside its box or touching it (within a
    /// third of its size above or below, within one size left or right)?
    static func touches(_ ink: MathBox, _ t: Typeset) -> Bool {
        let zone = t.box.insetBy(dx: -t.size, dy: -t.size / 3)
        let mid = ink.y + ink.height / 2
        return ink.x < zone.maxX && ink.maxX > zone.x && mid > zone.y && mid < zone.maxY
    }

    /// For each ink expression, the index of the typeset line it is written into (the one whose
    /// box it overlaps most), if any.
    static func owners(_ ink: [MathExpression], typeset: [Int: Typeset]) -> [Int: Int] {
        var out: [Int: Int] = [:]
        for (k, e) in ink.enumerated() where !e.symbols.isEmpty {
            let near = typeset.filter { touches(e.box, $0.value) }
            func overlap(_ t: Typeset) -> Double {
                let z = t.box.insetBy(dx: -t.size, dy: -t.size / 3)
                return max(0, min(z.maxX, e.box.maxX) - max(z.x, e.box.x)) * max(0, min(z.maxY, e.box.maxY) - max(z.y, e.box.y))
            }
            if let best = near.max(by: { (overlap($0.value), -$0.key) < (overlap($1.value), -$1.key) }) { out[k] = best.key }
        }
        return out
    }
}
