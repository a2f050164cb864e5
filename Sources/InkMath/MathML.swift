import InkModel

/// Presentation MathML of an expression (docs/MATH.md): `<math>` with `mn`, `mi`, `mo`, `mfrac`,
/// `msup`, `msub`, `msubsup`, `msqrt`, `mroot` and `mrow`, the layout as written.
extension MathNode {
    /// A complete `<math xmlns=…>` element; a function name is followed by U+2061 (function application).
    public var mathML: String {
        "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">" + MathMLWriter.content(self) + "</math>"
    }
}

enum MathMLWriter {
    /// The elements of a node, possibly several (a row's children without an `mrow`).
    static func content(_ node: MathNode) -> String {
        switch node {
        case .number(let s): return "<mn>\(XML.escape(s))</mn>"
        case .identifier(let s): return "<mi>\(XML.escape(s))</mi>"
        case .function(let f): return "<mi>\(XML.escape(f))</mi><mo>&#x2061;</mo>"
        case .op(let s): return "<mo>\(XML.escape(s))</mo>"
        case .row(let items): return items.map(content).joined()
        case .fraction(let n, let d): return "<mfrac>" + one(n) + one(d) + "</mfrac>"
        case .sup(let b, let e): return "<msup>" + one(b, base: true) + one(e) + "</msup>"
        case .sub(let b, let i): return "<msub>" + one(b, base: true) + one(i) + "</msub>"
        case .subSup(let b, let i, let e): return "<msubsup>" + one(b, base: true) + one(i) + one(e) + "</msubsup>"
        case .root(let r, nil): return "<msqrt>" + content(r) + "</msqrt>"
        case .root(let r, let index?): return "<mroot>" + one(r) + one(index) + "</mroot>"
        case .fenced(let open, let close, let c):
            return "<mrow><mo>\(XML.escape(open))</mo>" + content(c) + "<mo>\(XML.escape(close))</mo></mrow>"
        }
    }

    /// Exactly one element, as the arguments of `mfrac`, `msup`… must be.
    private static func one(_ node: MathNode, base: Bool = false) -> String {
        switch node {
        case .row(let items) where items.count != 1: return "<mrow>" + content(node) + "</mrow>"
        case .row(let items): return one(items[0], base: base)
        // A scripted function is its name alone (`sin²`); the application mark follows the script.
        case .function(let f) where base: return "<mi>\(XML.escape(f))</mi>"
        case .function: return "<mrow>" + content(node) + "</mrow>"
        default: return content(node)
        }
    }
}

extension MathNode {
    /// Several expression lines as one `<math>` element: the line itself when there is one, else an
    /// `mtable` with one row per line.
    public static func mathML(lines: [MathNode]) -> String {
        if lines.count == 1 { return lines[0].mathML }
        let rows = lines.map { "<mtr><mtd>" + MathMLWriter.content($0) + "</mtd></mtr>" }.joined()
        return "<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\"><mtable>" + rows + "</mtable></math>"
    }
}
