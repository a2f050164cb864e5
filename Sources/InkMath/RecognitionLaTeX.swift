import Foundation

/// The canonical LaTeX of a recognised tree (issue 23: `\frac{a}{b}`, `x^{2}`, `\sqrt{x}`, `\times`,
/// plain parentheses, no spaces but the one after a control word followed by a letter). It must
/// give exactly the strings tools/recognition/math/compose.py writes as ground truth: evaluation
/// compares them. Interim: `MathNode.latex` (the output side's serializer) replaces it when it lands.
enum RecognitionLaTeX {
    static let commands: [String: String] = [
        "×": "\\times", "÷": "\\div", "·": "\\cdot", "±": "\\pm", "≤": "\\leq", "≥": "\\geq", "≠": "\\neq",
        "π": "\\pi", "θ": "\\theta", "α": "\\alpha", "β": "\\beta", "{": "\\{", "}": "\\}", "−": "-",
    ]

    static func latex(_ node: MathNode) -> String { join(tokens(node)) }

    static func tokens(_ node: MathNode) -> [String] {
        switch node {
        case let .number(s): return [s]
        case let .identifier(s), let .op(s): return [commands[s] ?? s]
        case let .function(f): return ["\\" + f]
        case let .row(items): return items.flatMap(tokens)
        case let .fraction(n, d): return ["\\frac{" + latex(n) + "}{" + latex(d) + "}"]
        case let .sup(b, e): return tokens(b) + ["^{" + latex(e) + "}"]
        case let .sub(b, i): return tokens(b) + ["_{" + latex(i) + "}"]
        case let .subSup(b, i, e): return tokens(b) + ["_{" + latex(i) + "}", "^{" + latex(e) + "}"]
        case let .root(r, index): return ["\\sqrt" + (index.map { "[" + latex($0) + "]" } ?? "") + "{" + latex(r) + "}"]
        case let .fenced(o, c, content): return [commands[o] ?? o] + tokens(content) + [commands[c] ?? c]
        }
    }

    /// Concatenates tokens; a control word followed by a letter gets one space (`\pi x`).
    static func join(_ parts: [String]) -> String {
        var out = ""
        for p in parts {
            if let f = p.first, f.isLetter, let l = out.last, l.isLetter {
                let word = out.reversed().prefix { $0.isLetter }
                if out.dropLast(word.count).last == "\\" { out += " " }
            }
            out += p
        }
        return out
    }
}
