import Foundation
import InkMath
import InkModel
import InkRender

/// What a Math block shows besides its ink: the solver's results beside recognized expressions and
/// the typeset expressions that replaced converted ink, kept in `TypesetMath` on the block.
/// Lines are solved top to bottom across both, so `x = 3` converted and `2x+1=` still in ink
/// give 7.
enum MathBlocks {
    /// One expression of a block, converted or in ink, in reading order.
    struct Entry {
        var node: MathNode
        var x: Double, baseline: Double, size: Double
        /// Its line in `TypesetMath` when converted, nil for ink.
        var converted: TypesetMath.Line?
        /// The ink's extent (ink only): results go right of it. For a typeset line with ink
        /// written into it, the extent of both.
        var inkBox: MathBox?
        /// Ink read together with a typeset line (`MathEditing`): `node` is what both make.
        var ink: [MathExpression] = []
        /// That line's typeset symbols (those a scratch-out left), with which the ink is read.
        var glyphs: [MathGlyph] = []
    }

    /// The expressions of a block, top to bottom: typeset lines and recognized ink. Ink written
    /// into or beside a typeset line (`MathEditing.touches`) is read with it as one expression;
    /// that needs the font metrics the line is typeset with (without them, ink stays apart).
    static func entries(_ b: BlockData, metrics: FontMetricsProvider?) -> [Entry] {
        var out: [Entry] = []
        let lines = TypesetMath.decode(b.properties)?.lines ?? []
        let ink = MathBlockResult.result(of: b)?.expressions ?? []
        var typeset: [Int: MathEditing.Typeset] = [:]
        if let metrics, !ink.isEmpty {
            for (i, line) in lines.enumerated() { typeset[i] = MathEditing.typeset(line, metrics: metrics) }
        }
        let owners = MathEditing.owners(ink, typeset: typeset)
        for (i, line) in lines.enumerated() where !line.latex.isEmpty {
            guard var node = try? MathNode.parse(latex: line.latex) else { continue }
            var entry = Entry(node: node, x: line.x, baseline: line.baseline, size: line.size, converted: line)
            let written = ink.indices.filter { owners[$0] == i }.map { ink[$0] }
            if let t = typeset[i], !written.isEmpty {
                node = MathEditing.parse(t.visible, ink: written.flatMap(\.symbols))
                let all = written.reduce(MathBox(x: t.box.x, y: t.box.y, width: t.box.width, height: t.box.height)) { $0.union($1.box) }
                entry = Entry(node: node, x: min(line.x, all.x), baseline: line.baseline, size: line.size, converted: line,
                              inkBox: all, ink: written, glyphs: t.visible)
            }
            out.append(entry)
        }
        for (k, e) in ink.enumerated() where owners[k] == nil {
            let p = placement(e)
            out.append(Entry(node: e.node, x: e.box.x, baseline: p.baseline, size: p.size, inkBox: e.box))
        }
        return out.sorted { ($0.baseline, $0.x) < ($1.baseline, $1.x) }
    }

    /// Each expression with what the solver made of it, in reading order.
    static func solved(_ b: BlockData, options: MathSolverOptions, metrics: FontMetricsProvider?) -> [(entry: Entry, solution: MathSolution)] {
        var solver = MathSolver(options: options)
        return entries(b, metrics: metrics).map { ($0, solver.solve($0.node)) }
    }

    /// The block with its results recomputed (`TypesetMath` rewritten; removed when empty).
    static func refreshed(_ b: BlockData, options: MathSolverOptions, metrics: FontMetricsProvider?) -> BlockData {
        var lines: [TypesetMath.Line] = []
        for (e, s) in solved(b, options: options, metrics: metrics) {
            let result = s.result?.latex, diagnostic = s.diagnostic?.message
            if var line = e.converted, let box = e.inkBox {
                // Ink written into it: the line stays as typeset until the next convert, the
                // result of both goes right of the ink; places the ink fills lose their outline.
                line.result = nil
                line.diagnostic = nil
                if let metrics, let t = MathEditing.typeset(line, metrics: metrics) { line.scratched?.filled = MathEditing.filled(t, by: e.ink) }
                lines.append(line)
                if result != nil || diagnostic != nil {
                    lines.append(TypesetMath.Line(latex: "", result: result, diagnostic: diagnostic,
                                                  x: box.maxX + 0.35 * e.size, baseline: e.baseline, size: e.size))
                }
            } else if var line = e.converted {
                line.scratched?.filled = nil
                line.result = result
                line.diagnostic = diagnostic
                lines.append(line)
            } else if let box = e.inkBox, result != nil || diagnostic != nil {
                lines.append(TypesetMath.Line(latex: "", result: result, diagnostic: diagnostic,
                                              x: box.maxX + 0.35 * e.size, baseline: e.baseline, size: e.size))
            }
        }
        var nb = b
        nb.properties[TypesetMath.propertyKey] = lines.isEmpty ? nil : TypesetMath(lines: lines).encoded
        return nb
    }

    /// The block with its recognized ink expressions typeset in their place (the caller removes
    /// the strokes): same left edge, baseline and size as the ink. Ink written into a typeset
    /// line makes that line what both read as, at the line's baseline and size.
    static func converted(_ b: BlockData, options: MathSolverOptions, metrics: FontMetricsProvider?) -> BlockData {
        var lines: [TypesetMath.Line] = []
        for e in entries(b, metrics: metrics) {
            if var line = e.converted {
                // Places kept open by a scratch-out close up now.
                line.scratched = nil
                if e.ink.isEmpty { lines.append(line) } else if e.node != .row([]) {
                    lines.append(TypesetMath.Line(latex: e.node.latex, x: e.x, baseline: line.baseline, size: line.size))
                }
            } else if let ink = MathBlockResult.result(of: b)?.expressions.first(where: { $0.box == e.inkBox && $0.node == e.node }),
                      !ink.symbols.isEmpty {
                lines.append(TypesetMath.Line(latex: e.node.latex, x: e.x, baseline: e.baseline, size: e.size))
            }
        }
        var nb = b
        nb.properties[TypesetMath.propertyKey] = TypesetMath(lines: lines).encoded
        nb.properties[MathBlockResult.propertyKey] = nil
        nb.words = []
        return refreshed(nb, options: options, metrics: metrics)
    }

    /// Size and baseline of typeset math that matches an expression's ink: the size from the
    /// height of its digits and letters (a digit is 0.73 em in DejaVu Sans), the baseline from an
    /// operator on the math axis when there is one, else from the bottom of its digits.
    static func placement(_ e: MathExpression) -> (size: Double, baseline: Double) {
        let glyphs = e.symbols.filter { $0.label.count == 1 && $0.label.first!.isNumber && $0.box.height > 0 }
        let heights = glyphs.map(\.box.height).sorted()
        let digit = heights.isEmpty ? max(e.box.height * 0.6, 1) : heights[heights.count / 2]
        let size = min(max(digit / 0.73, 1), 200)
        // The widest operator on the axis is the main line's, not a script's.
        let axisOps = e.symbols.filter { ["=", "+", "×", "÷", "<", ">", "≤", "≥", "≠"].contains($0.label) }
        if let op = axisOps.max(by: { $0.box.width < $1.box.width }) {
            return (size, op.box.y + op.box.height / 2 + 0.26 * size)
        }
        let bottoms = glyphs.map(\.box.maxY).sorted()
        return (size, bottoms.isEmpty ? e.box.maxY : bottoms[bottoms.count / 2])
    }

    /// Where each converted expression of a block is drawn (model mm), by its index in
    /// `TypesetMath.lines`: what pen gestures hit.
    static func typesetBoxes(_ b: BlockData, metrics: FontMetricsProvider) -> [(index: Int, box: Rect)] {
        guard let tm = TypesetMath.decode(b.properties) else { return [] }
        return tm.lines.enumerated().compactMap { i, line in
            guard !line.latex.isEmpty, line.size.isFinite, line.size > 0,
                  let l = MathTypesetter(font: FontSpec(size: line.size), metrics: metrics).source(of: line)?.layout else { return nil }
            return (i, Rect(x: line.x, y: line.baseline - l.ascent, width: l.width, height: l.height))
        }
    }

    /// The block with converted expressions edited (a scratch-out: lines removed or re-read
    /// from the symbols left), results recomputed.
    static func editing(_ edits: [Int: MathEditing.LineEdit], in b: BlockData, options: MathSolverOptions,
                        metrics: FontMetricsProvider?) -> BlockData {
        guard var tm = TypesetMath.decode(b.properties), !edits.isEmpty else { return b }
        tm.lines = tm.lines.enumerated().compactMap { i, line in
            switch edits[i] {
            case nil: return line
            case .remove: return nil
            case .replace(let latex, let scratched):
                var l = line
                l.latex = latex
                l.scratched = scratched
                return l
            }
        }
        var nb = b
        nb.properties[TypesetMath.propertyKey] = TypesetMath(lines: tm.lines).encoded
        return refreshed(nb, options: options, metrics: metrics)
    }

    /// The area a block's typeset math may cover (for repainting): its lines, generously.
    static func extent(_ b: BlockData) -> Rect? {
        guard let tm = TypesetMath.decode(b.properties) else { return nil }
        return tm.lines.reduce(nil as Rect?) { acc, l in
            let r = Rect(x: l.x - l.size, y: l.baseline - 2 * l.size, width: 40 * l.size, height: 4 * l.size)
            return acc.map { $0.union(r) } ?? r
        }
    }
}
