import Foundation
import InkMath
import InkModel
import InkRender

/// Math in exports: LaTeX and MathML of Math blocks, their plain text with results, and the
/// expression trees, symbols, candidates and results in the JSON export (docs/JSON-EXPORT.md).
extension Editor {
    var mathSolverOptions: MathSolverOptions { MathSolverOptions(configuration: configuration) }

    /// The Math blocks at or under `b`, in reading order.
    func mathBlocks(_ b: BlockData, model m: PartModel) -> [BlockData] {
        readingOrder(b.id, model: m).filter { $0.kind == .math }
    }

    /// Each expression of the Math blocks under `b` as shown: with its result after `=` or at `?`.
    func shownMath(_ b: BlockData, model m: PartModel) -> [MathNode] {
        mathBlocks(b, model: m).flatMap { MathBlocks.solved($0, options: mathSolverOptions, metrics: fontMetricsProvider).map(\.solution.solved) }
    }

    /// `--format latex`: one expression per line, canonical LaTeX (docs/MATH.md).
    func exportLaTeX(_ b: BlockData, model m: PartModel) throws -> String {
        let lines = shownMath(b, model: m)
        guard !lines.isEmpty else { throw QuireError(.exportError, "no math to export: the block holds no recognized expression") }
        return lines.map(\.latex).joined(separator: "\n")
    }

    /// `--format mathml`: one `<math>` element (an `mtable` for several lines).
    func exportMathML(_ b: BlockData, model m: PartModel) throws -> String {
        let lines = shownMath(b, model: m)
        guard !lines.isEmpty else { throw QuireError(.exportError, "no math to export: the block holds no recognized expression") }
        return MathNode.mathML(lines: lines)
    }

    /// A Math block's plain text: each expression with its result.
    func mathPlainText(_ b: BlockData) -> String {
        MathBlocks.solved(b, options: mathSolverOptions, metrics: fontMetricsProvider).map(\.solution.solved.plainText).joined(separator: "\n")
    }

    /// The `math` object of a Math block in the JSON export.
    func mathJSON(_ b: BlockData) -> JSONValue {
        let ink = MathBlockResult.result(of: b)?.expressions ?? []
        func box(_ r: MathBox) -> JSONValue { Self.json(Rect(x: r.x, y: r.y, width: r.width, height: r.height)) }
        let expressions: [JSONValue] = MathBlocks.solved(b, options: mathSolverOptions, metrics: fontMetricsProvider).map { entry, s in
            var o: [String: JSONValue] = [
                "latex": .string(entry.node.latex), "mathml": .string(entry.node.mathML), "text": .string(entry.node.plainText),
                "tree": Self.treeJSON(entry.node), "converted": .bool(entry.converted != nil),
                "baseline": .number(entry.baseline), "x": .number(entry.x), "size": .number(entry.size),
                "result": s.result.map { .string($0.latex) } ?? .null,
                "resultText": s.result.map { .string($0.plainText) } ?? .null,
                "value": s.value.map { .number($0.double) } ?? .null,
                "diagnostic": s.diagnostic.map { .object(["kind": .string($0.kind.rawValue), "message": .string($0.message)]) } ?? .null,
                "solved": .string(s.solved.latex),
            ]
            if let assigned = s.assigned { o["assigned"] = .string(assigned) }
            func candidate(_ latex: String, _ score: Double) -> JSONValue { .object(["latex": .string(latex), "score": .number(score)]) }
            if !entry.ink.isEmpty, let all = entry.inkBox {
                // Ink written into a typeset line: the symbols of both, left to right, each saying
                // which it is; the n-best of the whole (MathEditing.candidates).
                o["box"] = box(all)
                let symbols = entry.glyphs.map { (x: $0.box.x, json: Self.symbolJSON($0)) }
                    + entry.ink.flatMap(\.symbols).map { (x: $0.box.x, json: Self.symbolJSON($0, box: box)) }
                o["symbols"] = .array(symbols.enumerated().sorted { ($0.element.x, $0.offset) < ($1.element.x, $1.offset) }.map(\.element.json))
                o["candidates"] = .array(MathEditing.candidates(entry.glyphs, ink: entry.ink.flatMap(\.symbols)).map { candidate($0.node.latex, $0.score) })
            } else if let e = ink.first(where: { $0.node == entry.node && $0.box == entry.inkBox }) {
                o["box"] = box(e.box)
                o["candidates"] = .array(e.candidates.map { candidate($0.latex, $0.score) })
                o["symbols"] = .array(e.symbols.map { Self.symbolJSON($0, box: box) })
            }
            return .object(o)
        }
        return .object(["expressions": .array(expressions)])
    }

    /// A handwritten symbol in the JSON export: its class, candidates, box and strokes.
    static func symbolJSON(_ sym: MathSymbol, box: (MathBox) -> JSONValue) -> JSONValue {
        .object(["label": .string(sym.label), "box": box(sym.box), "strokeIds": .array(sym.strokeIds.map(JSONValue.string)), "source": .string("ink"),
                 "candidates": .array(sym.candidates.map { .object(["label": .string($0.label), "score": .number($0.score)]) })])
    }

    /// A typeset symbol (`MathGlyph`) in the JSON export: certain, no strokes.
    static func symbolJSON(_ g: MathGlyph) -> JSONValue {
        .object(["label": .string(String(g.symbol)), "box": json(g.box), "strokeIds": .array([]), "source": .string("typeset"),
                 "candidates": .array([.object(["label": .string(String(g.symbol)), "score": .number(0)])])])
    }

    /// The expression tree as JSON (the `MathNode` Codable form).
    static func treeJSON(_ node: MathNode) -> JSONValue {
        guard let d = try? JSONEncoder().encode(node), let v = try? JSONValue.parse(d, what: "math tree") else { return .null }
        return v
    }
}

extension Editor {
    /// What the clipboard offers for a block's math besides its plain text: LaTeX
    /// (`application/x-latex`, `text/x-tex`) and MathML (`application/mathml+xml`, `MathML`);
    /// none for a block without recognized math.
    public func mathClipboardOffers(_ block: ContentBlock) -> [String: Data] {
        guard let m = attached?.model, let b = block.data, let latex = try? exportLaTeX(b, model: m),
              let mathml = try? exportMathML(b, model: m) else { return [:] }
        return ["application/x-latex": Data(latex.utf8), "text/x-tex": Data(latex.utf8),
                "application/mathml+xml": Data(mathml.utf8), "MathML": Data(mathml.utf8)]
    }
}

/// One expression of a Math block as the editor shows it.
public struct MathLine: Sendable, Hashable {
    /// The expression as written.
    public var node: MathNode
    /// What the solver made of it (result, diagnostic, the line with its result).
    public var solution: MathSolution
    /// Typeset in place of its ink (converted), else ink.
    public var converted: Bool
}

extension Editor {
    /// The expressions of the Math blocks at or under `block` (nil: the whole part), top to
    /// bottom, each solved in order (`math.solver.*`).
    public func mathLines(_ block: ContentBlock? = nil) throws -> [MathLine] {
        let (m, b) = try exportTarget(block)
        return mathBlocks(b, model: m).flatMap { mb in
            MathBlocks.solved(mb, options: mathSolverOptions, metrics: fontMetricsProvider).map { MathLine(node: $0.entry.node, solution: $0.solution, converted: $0.entry.converted != nil) }
        }
    }

    /// What a Math block's ink reads when `reading` is its recognition (a fresh one, as `quire
    /// recognize` makes): each expression of ink, top to bottom, ink written into typeset math
    /// read with it (a typeset `12+` and a handwritten `2=` give `12+2=`). Typeset math with no
    /// ink in it is left out.
    public func mathLines(_ block: ContentBlock, reading: MathRecognitionResult) throws -> [MathLine] {
        let (_, b) = try exportTarget(block)
        guard b.kind == .math else { return [] }
        var nb = b
        nb.properties[MathBlockResult.propertyKey] = try MathBlockResult.encode(reading)
        return MathBlocks.solved(nb, options: mathSolverOptions, metrics: fontMetricsProvider)
            .filter { $0.entry.converted == nil || !$0.entry.ink.isEmpty }
            .map { MathLine(node: $0.entry.node, solution: $0.solution, converted: $0.entry.converted != nil) }
    }
}
