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
        /// The ink's extent (ink only): results go right of it.
        var inkBox: MathBox?
    }

    /// The expressions of a block, top to bottom: typeset lines and recognized ink.
    static func entries(_ b: BlockData) -> [Entry] {
        var out: [Entry] = []
        for line in TypesetMath.decode(b.properties)?.lines ?? [] where !line.latex.isEmpty {
            guard let node = try? MathNode.parse(latex: line.latex) else { continue }
            out.append(Entry(node: node, x: line.x, baseline: line.baseline, size: line.size, converted: line))
        }
        for e in MathBlockResult.result(of: b)?.expressions ?? [] {
            let p = placement(e)
            out.append(Entry(node: e.node, x: e.box.x, baseline: p.baseline, size: p.size, inkBox: e.box))
        }
        return out.sorted { ($0.baseline, $0.x) < ($1.baseline, $1.x) }
    }

    /// Each expression with what the solver made of it, in reading order.
    static func solved(_ b: BlockData, options: MathSolverOptions) -> [(entry: Entry, solution: MathSolution)] {
        var solver = MathSolver(options: options)
        return entries(b).map { ($0, solver.solve($0.node)) }
    }

    /// The block with its results recomputed (`TypesetMath` rewritten; removed when empty).
    static func refreshed(_ b: BlockData, options: MathSolverOptions) -> BlockData {
        var lines: [TypesetMath.Line] = []
        for (e, s) in solved(b, options: options) {
            let result = s.result?.latex, diagnostic = s.diagnostic?.message
            if var line = e.converted {
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
    /// the strokes): same left edge, baseline and size as the ink.
    static func converted(_ b: BlockData, options: MathSolverOptions) -> BlockData {
        var lines = TypesetMath.decode(b.properties)?.lines.filter { !$0.latex.isEmpty } ?? []
        for e in MathBlockResult.result(of: b)?.expressions ?? [] where !e.symbols.isEmpty {
            let p = placement(e)
            lines.append(TypesetMath.Line(latex: e.node.latex, x: e.box.x, baseline: p.baseline, size: p.size))
        }
        var nb = b
        nb.properties[TypesetMath.propertyKey] = TypesetMath(lines: lines).encoded
        nb.properties[MathBlockResult.propertyKey] = nil
        nb.words = []
        return refreshed(nb, options: options)
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
            guard !line.latex.isEmpty, line.size.isFinite, line.size > 0, let node = try? MathNode.parse(latex: line.latex) else { return nil }
            let l = MathTypesetter(font: FontSpec(size: line.size), metrics: metrics).layout(node)
            return (i, Rect(x: line.x, y: line.baseline - l.ascent, width: l.width, height: l.height))
        }
    }

    /// The block without the converted expressions at `indices` (a scratch-out), results recomputed.
    static func removingLines(_ indices: Set<Int>, from b: BlockData, options: MathSolverOptions) -> BlockData {
        guard var tm = TypesetMath.decode(b.properties) else { return b }
        tm.lines = tm.lines.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
        var nb = b
        nb.properties[TypesetMath.propertyKey] = TypesetMath(lines: tm.lines).encoded
        return refreshed(nb, options: options)
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
