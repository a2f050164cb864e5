/// One node of a handwritten expression's layout tree: what the recognizer produces and what the
/// LaTeX, MathML and text writers, the solver and the typesetter read. It describes how the
/// expression is written (presentation), not what it means: `2x` is a row of a number and an
/// identifier, and the solver decides that it is a product.
public indirect enum MathNode: Sendable, Hashable, Codable {
    /// A number as written: digits with at most one decimal point ("12", "3.5").
    case number(String)
    /// A variable or named constant, one symbol: "x", "π", "θ", "α", "β".
    case identifier(String)
    /// A function name written in letters: "sin", "cos", "tan", "log", "ln", "exp".
    case function(String)
    /// An operator, relation or punctuation mark, by its Unicode character:
    /// "+", "−", "±", "×", "÷", "·", "/", "=", "≠", "<", ">", "≤", "≥", "!", "%", ",", "?",
    /// and "(" ")" "[" "]" "{" "}" "|" when they do not pair up (paired ones are `fenced`).
    case op(String)
    /// Symbols side by side, left to right.
    case row([MathNode])
    /// A fraction bar with what is above and below it.
    case fraction(numerator: MathNode, denominator: MathNode)
    /// A raised, smaller script: `x^{2}`.
    case sup(base: MathNode, exponent: MathNode)
    /// A lowered, smaller script: `x_{1}`.
    case sub(base: MathNode, index: MathNode)
    /// Both scripts on one base: `x_{1}^{2}`.
    case subSup(base: MathNode, index: MathNode, exponent: MathNode)
    /// A radical over its radicand, with an optional index (`\sqrt[3]{x}`).
    case root(radicand: MathNode, index: MathNode?)
    /// A matched pair of delimiters around content: "(" ")", "[" "]", "{" "}", "|" "|".
    case fenced(open: String, close: String, content: MathNode)
}
