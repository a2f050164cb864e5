/// The plain-text form of an expression (docs/MATH.md): what a person would type in a text field,
/// with the written operators (`12+7=`, `(x+1)/2`, `x^(n+1)`, `√(x+1)`, `sin x`).
extension MathNode {
    /// The expression as plain text; structure the line cannot show becomes `/`, `^`, `_` and
    /// parentheses around anything longer than one symbol.
    public var plainText: String { MathText.write(self) }
}

enum MathText {
    static func write(_ node: MathNode) -> String {
        switch node {
        case .number(let s), .identifier(let s), .op(let s): return s
        case .function(let f): return f
        case .row(let items): return row(items)
        case .fraction(let n, let d): return group(n) + "/" + group(d)
        case .sup(let b, let e): return group(b) + "^" + group(e)
        case .sub(let b, let i): return group(b) + "_" + group(i)
        case .subSup(let b, let i, let e): return group(b) + "_" + group(i) + "^" + group(e)
        case .root(let r, let index):
            switch index {
            case nil: return "√" + group(r)
            case .number("3")?: return "∛" + group(r)
            case .number("4")?: return "∜" + group(r)
            case let n?: return group(r) + "^(1/" + write(n) + ")"
            }
        case .fenced(let open, let close, let content): return open + write(content) + close
        }
    }

    /// One symbol or bracketed group as is; anything longer in parentheses.
    private static func group(_ node: MathNode) -> String {
        switch node {
        case .number, .identifier, .fenced: return write(node)
        case .row(let items) where items.count == 1: return group(items[0])
        default: return "(" + write(node) + ")"
        }
    }

    private static func row(_ items: [MathNode]) -> String {
        var out = ""
        for (k, item) in items.enumerated() {
            var text = write(item)
            // A fraction beside a factor keeps its own parentheses: `2(1/3)`, not `21/3`.
            if case .fraction = item, items.count > 1, !(isLoose(items, k - 1) && isLoose(items, k + 1)) {
                text = "(" + text + ")"
            }
            // A function name and a letter after it would read as one word.
            if case .function = items[max(k - 1, 0)], k > 0, text.first?.isLetter == true { out += " " }
            out += text
        }
        return out
    }

    /// Nothing, or an operator binding more loosely than `/`, at `k`.
    private static func isLoose(_ items: [MathNode], _ k: Int) -> Bool {
        guard items.indices.contains(k) else { return true }
        if case .op(let s) = items[k] { return "+−±=≠<>≤≥,".contains(s) }
        return false
    }

    /// The letters of a name written as identifiers (`\operatorname{sinh}`).
    static func letters(_ node: MathNode) -> String {
        switch node {
        case .identifier(let s): return s
        case .row(let items): return items.map(letters).joined()
        default: return ""
        }
    }
}
