import Foundation

/// A rectangle in the ink's units (millimetres on a page), y down.
public struct MathBox: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public func union(_ o: MathBox) -> MathBox {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return MathBox(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }
}

extension MathBox {
    /// The smallest box holding `points` (an empty box at the origin for none).
    init(enclosing points: [SIMD2<Double>]) {
        guard let first = points.first else { self.init(x: 0, y: 0, width: 0, height: 0); return }
        let (lo, hi) = points.reduce((first, first)) { (pointwiseMin($0.0, $1), pointwiseMax($0.1, $1)) }
        self.init(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }
}

/// One class the classifier considered for a symbol, with its log-probability.
public struct MathSymbolCandidate: Sendable, Hashable, Codable {
    /// The class: a digit, letter, operator or symbol ("-" is also the fraction bar, "." also the centred dot).
    public var label: String
    /// log P(the ink is exactly this one symbol) under the network (0 is certain).
    public var score: Double
    public init(label: String, score: Double) { self.label = label; self.score = score }
}

/// One recognised symbol of an expression: its class, the alternatives, where it is and its ink.
public struct MathSymbol: Sendable, Hashable, Codable {
    /// The chosen class (see `MathSymbolCandidate.label`): the best candidate, or a close
    /// runner-up its neighbours make likelier (`MathContext`).
    public var label: String
    /// The classes considered, best first (the chosen one first).
    public var candidates: [MathSymbolCandidate]
    /// The box of its ink.
    public var box: MathBox
    /// Its strokes: indices into the strokes given to the recognizer.
    public var strokeIndices: [Int]
    /// Its strokes' ids, where the caller gave ids (an editor's stroke ids).
    public var strokeIds: [String]
    public init(label: String, candidates: [MathSymbolCandidate], box: MathBox, strokeIndices: [Int], strokeIds: [String] = []) {
        self.label = label; self.candidates = candidates; self.box = box; self.strokeIndices = strokeIndices; self.strokeIds = strokeIds
    }
}

/// One reading of a whole expression line.
public struct MathExpressionCandidate: Sendable, Hashable, Codable {
    public var node: MathNode
    /// Canonical LaTeX of `node`.
    public var latex: String
    /// Sum of its symbols' log-probabilities and the recognizer's penalties (higher is better).
    public var score: Double
    public init(node: MathNode, latex: String, score: Double) { self.node = node; self.latex = latex; self.score = score }
}

/// One handwritten expression (one line of a Math block) as read.
public struct MathExpression: Sendable, Hashable, Codable {
    /// The best reading's tree.
    public var node: MathNode
    /// Canonical LaTeX of `node`.
    public var latex: String
    /// The symbols, left to right, with their candidates, boxes and strokes.
    public var symbols: [MathSymbol]
    /// The n best readings, best first (the first is `node`).
    public var candidates: [MathExpressionCandidate]
    /// The box of the line's ink.
    public var box: MathBox
    /// The line's strokes (indices into the strokes given to the recognizer).
    public var strokeIndices: [Int]
    public init(node: MathNode, latex: String, symbols: [MathSymbol], candidates: [MathExpressionCandidate], box: MathBox, strokeIndices: [Int]) {
        self.node = node; self.latex = latex; self.symbols = symbols; self.candidates = candidates; self.box = box; self.strokeIndices = strokeIndices
    }
}

/// What a `MathRecognizer` reads from ink: one expression per line, top to bottom.
public struct MathRecognitionResult: Sendable, Hashable, Codable {
    public var expressions: [MathExpression]
    public init(expressions: [MathExpression]) { self.expressions = expressions }
    /// The expressions' LaTeX, one line each.
    public var latex: String { expressions.map(\.latex).joined(separator: "\n") }
}

/// A stroke group the segmenter considered as one symbol, with its best class and score (nats).
public struct MathHypothesis: Sendable, Hashable, Codable {
    public var strokeIndices: [Int]
    public var label: String
    public var score: Double
}
