/// Canonical LaTeX of a written expression (docs/MATH.md): the form the recognizer's ground truth
/// uses (tools/recognition/math, `symbols.latex_of` and `join_latex`), so that an expression read
/// right compares equal as a string. No spaces except one after a control word that a letter
/// follows (`\pi x`), which TeX needs; every script and fraction part is braced; parentheses plain.
extension MathNode {
    /// The canonical LaTeX of this node (`\frac{1}{2}`, `x^{2}`, `\sqrt[3]{8}`, `2\times3`).
    public var latex: String { MathLaTeX.write(self) }
}

/// The symbol tables shared by the LaTeX writer and parser.
enum MathLaTeX {
    /// Characters written as a control sequence; every other operator or identifier is itself.
    static let commands: [String: String] = [
        "×": "\\times", "÷": "\\div", "·": "\\cdot", "±": "\\pm", "≤": "\\leq", "≥": "\\geq",
        "≠": "\\neq", "π": "\\pi", "θ": "\\theta", "α": "\\alpha", "β": "\\beta",
        "{": "\\{", "}": "\\}", "%": "\\%", "−": "-",
    ]
    /// Function names LaTeX has a command for; others are written `\operatorname{name}`.
    static let functionCommands: Set<String> = [
        "sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
        "log", "ln", "lg", "exp", "min", "max", "det", "gcd",
    ]

    static func write(_ node: MathNode) -> String { join(tokens(node)) }

    /// The tokens of a node as the recognizer's reference emits them: one per symbol of a row, a
    /// whole construct (`\frac{…}{…}`, `x^{2}`) as one token.
    static func tokens(_ node: MathNode) -> [String] {
        switch node {
        case .row(let items): return items.flatMap(tokens)
        default: return [token(node)]
        }
    }

    static func token(_ node: MathNode) -> String {
        switch node {
        case .number(let s): return s
        case .identifier(let s), .op(let s): return commands[s] ?? s
        case .function(let f): return functionCommands.contains(f) ? "\\" + f : "\\operatorname{\(f)}"
        case .row: return write(node)
        case .fraction(let n, let d): return "\\frac{\(write(n))}{\(write(d))}"
        case .sup(let b, let e): return base(b) + "^{\(write(e))}"
        case .sub(let b, let i): return base(b) + "_{\(write(i))}"
        case .subSup(let b, let i, let e): return base(b) + "_{\(write(i))}^{\(write(e))}"
        case .root(let r, let index):
            return "\\sqrt" + (index.map { "[\(write($0))]" } ?? "") + "{\(write(r))}"
        case .fenced(let open, let close, let content):
            return token(.op(open)) + write(content) + token(.op(close))
        }
    }

    /// A script's base: one symbol or construct as is, several braced so that the script covers them.
    private static func base(_ node: MathNode) -> String {
        if case .row(let items) = node {
            return items.count == 1 ? base(items[0]) : "{\(write(node))}"
        }
        // A base that is itself scripted is braced too, or `x^{2}^{3}` would be a double script.
        switch node {
        case .sup, .sub, .subSup: return "{\(write(node))}"
        default: return write(node)
        }
    }

    /// Concatenates tokens with no spaces, except one where a control word would run into a letter.
    static func join(_ parts: [String]) -> String {
        var out = ""
        for p in parts {
            if let first = p.first, first.isASCIILetter, let last = out.last, last.isASCIILetter,
               endsWithControlWord(out) {
                out += " "
            }
            out += p
        }
        return out
    }

    private static func endsWithControlWord(_ s: String) -> Bool {
        var i = s.endIndex
        while i > s.startIndex, s[s.index(before: i)].isASCIILetter { i = s.index(before: i) }
        return i > s.startIndex && s[s.index(before: i)] == "\\"
    }
}

extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
}
