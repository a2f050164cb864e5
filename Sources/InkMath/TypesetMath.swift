import Foundation

/// What a Math block shows as typeset math, stored on the block (property `quire.math.typeset`,
/// JSON) so that it is saved with the package and drawn by the renderer without the editor:
/// converted expressions in place of their ink, and the solver's results beside ink.
public struct TypesetMath: Codable, Sendable, Hashable {
    /// The block property that holds it.
    public static let propertyKey = "quire.math.typeset"

    /// One expression line.
    public struct Line: Codable, Sendable, Hashable {
        /// The expression in canonical LaTeX ("" when only the result is drawn beside ink).
        public var latex: String
        /// The result in canonical LaTeX, drawn after the expression in the answer colour; nil: none.
        public var result: String?
        /// A diagnostic shown after the expression instead of a result (`division by zero`).
        public var diagnostic: String?
        /// Where the line starts: left edge and baseline, model millimetres.
        public var x: Double
        public var baseline: Double
        /// Font size (mm) of the expression's base level.
        public var size: Double
        /// After a scratch-out, until the next convert: what the line is drawn from, so that the
        /// symbols left stay where they were and the removed ones leave their place open to
        /// write into. nil: the line is drawn from `latex`.
        public var scratched: Scratched?

        public init(latex: String, result: String? = nil, diagnostic: String? = nil, x: Double, baseline: Double, size: Double,
                    scratched: Scratched? = nil) {
            self.latex = latex; self.result = result; self.diagnostic = diagnostic
            self.x = x; self.baseline = baseline; self.size = size; self.scratched = scratched
        }
    }

    /// A typeset line with symbols scratched out of it: the expression it was typeset from and
    /// which of its symbols went (indices in the typesetter's glyphs of `latex`, in order).
    public struct Scratched: Codable, Sendable, Hashable {
        public var latex: String
        public var glyphs: [Int]
        /// Those of `glyphs` whose place ink has been written into: their outline is not drawn.
        public var filled: [Int]?
        public init(latex: String, glyphs: [Int], filled: [Int]? = nil) { self.latex = latex; self.glyphs = glyphs; self.filled = filled }
    }

    public var lines: [Line]
    public init(lines: [Line]) { self.lines = lines }

    /// The value stored in a block's properties, nil for none or for one that does not decode
    /// (damaged data draws nothing rather than failing).
    public static func decode(_ properties: [String: String]) -> TypesetMath? {
        guard let s = properties[propertyKey] else { return nil }
        return try? JSONDecoder().decode(TypesetMath.self, from: Data(s.utf8))
    }

    /// The JSON to store under `propertyKey`.
    public var encoded: String {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return (try? e.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"lines\":[]}"
    }
}
