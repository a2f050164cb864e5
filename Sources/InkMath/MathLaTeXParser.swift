/// A LaTeX string that cannot be read as an expression: where and why.
public struct MathSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Offset in characters from the start of the input.
    public var offset: Int
    public var message: String
    public var description: String { "\(message) (at character \(offset))" }
}

extension MathNode {
    /// Reads LaTeX back into a tree: the canonical form (`MathNode.latex`) and the usual variants a
    /// person types (`\le`, `\left(`, `*`, spaces, unbraced one-symbol scripts `x^2`, bare `%`).
    /// Digits with one decimal point make one number; letters are identifiers one by one; brackets
    /// that pair up become `fenced`. `parse(n.latex) == n` for a tree in the parser's normal form
    /// (one-element rows unwrapped, numbers whole). Throws `MathSyntaxError` for anything else.
    public static func parse(latex: String) throws -> MathNode {
        var p = MathLaTeXParser(Array(latex))
        let node = try p.row(until: nil)
        return node
    }

    /// A row of `items`, or the item itself when there is one: the normal form the parser produces.
    public static func rowOrSingle(_ items: [MathNode]) -> MathNode {
        items.count == 1 ? items[0] : .row(items)
    }
}

struct MathLaTeXParser {
    private let s: [Character]
    private var i = 0
    /// Nesting depth of groups, bounded so that hostile input cannot exhaust the stack.
    private var depth = 0
    private static let maxDepth = 200

    private static let openers: [String: String] = ["(": ")", "[": "]", "{": "}", "|": "|"]
    private static let fromCommand: [String: MathNode] = {
        var m: [String: MathNode] = [:]
        for (ch, cmd) in MathLaTeX.commands where cmd.hasPrefix("\\") {
            m[String(cmd.dropFirst())] = "πθαβ".contains(ch) ? .identifier(ch) : .op(ch)
        }
        for (alias, ch) in ["le": "≤", "ge": "≥", "ne": "≠", "lt": "<", "gt": ">", "ast": "×", "mp": "∓"] {
            m[alias] = .op(ch)
        }
        m["lvert"] = .op("|"); m["rvert"] = .op("|"); m["vert"] = .op("|")
        for f in MathLaTeX.functionCommands { m[f] = .function(f) }
        return m
    }()
    private static let unicode: [Character: MathNode] = [
        "×": .op("×"), "÷": .op("÷"), "·": .op("·"), "±": .op("±"), "≤": .op("≤"), "≥": .op("≥"),
        "≠": .op("≠"), "−": .op("−"), "π": .identifier("π"), "θ": .identifier("θ"),
        "α": .identifier("α"), "β": .identifier("β"), "*": .op("×"),
    ]

    init(_ s: [Character]) { self.s = s }

    private func fail(_ message: String, at offset: Int? = nil) -> MathSyntaxError {
        MathSyntaxError(offset: offset ?? i, message: message)
    }

    /// A row up to `close` (a character that ends it, consumed) or the end of the input.
    mutating func row(until close: Character?) throws -> MathNode {
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maxDepth else { throw fail("expression nested too deeply") }
        var items: [MathNode] = []
        var open: [(index: Int, open: String)] = []
        while true {
            skipSpaces()
            guard i < s.count else {
                if let close { throw fail("missing '\(close)'") }
                break
            }
            let c = s[i]
            if let close, c == close { i += 1; break }
            if c == "}" { throw fail("unexpected '}'") }
            if c == "^" || c == "_" {
                i += 1
                let script = try argument()
                let base = items.popLast() ?? .row([])
                items.append(try attach(script, to: base, superscript: c == "^"))
                continue
            }
            let node = try atom()
            // Spacing commands and `{}` add nothing, except as the empty base of a script.
            if case .row(let empty) = node, empty.isEmpty {
                skipSpaces()
                if i < s.count, s[i] == "^" || s[i] == "_" { items.append(node) }
                continue
            }
            // Brackets pair as they come, so that a script after `)` attaches to the whole group.
            if case .op(let sym) = node {
                if let top = open.last, Self.openers[top.open] == sym {
                    open.removeLast()
                    let content = MathNode.rowOrSingle(Array(items[(top.index + 1)...]))
                    items.removeSubrange(top.index...)
                    items.append(.fenced(open: top.open, close: sym, content: content))
                    continue
                }
                if Self.openers[sym] != nil {
                    open.append((items.count, sym))
                }
            }
            items.append(node)
        }
        return MathNode.rowOrSingle(items)
    }

    private mutating func skipSpaces() {
        while i < s.count, s[i].isWhitespace { i += 1 }
    }

    /// A script's or command's argument: a braced group or one symbol.
    private mutating func argument() throws -> MathNode {
        skipSpaces()
        guard i < s.count else { throw fail("missing argument at the end") }
        if s[i] == "{" {
            i += 1
            return try row(until: "}")
        }
        if s[i] == "}" || s[i] == "^" || s[i] == "_" { throw fail("missing argument before '\(s[i])'") }
        // One symbol only: `x^23` is x squared, then 3.
        if s[i].isNumber { i += 1; return .number(String(s[i - 1])) }
        return try atom()
    }

    private func attach(_ script: MathNode, to base: MathNode, superscript: Bool) throws -> MathNode {
        switch (base, superscript) {
        case (.sub(let b, let index), true): return .subSup(base: b, index: index, exponent: script)
        case (.sup(let b, let exponent), false): return .subSup(base: b, index: script, exponent: exponent)
        case (.sup, true), (.subSup, _): throw fail("double script")
        case (.sub, false): throw fail("double subscript")
        default: return superscript ? .sup(base: base, exponent: script) : .sub(base: base, index: script)
        }
    }

    private mutating func atom() throws -> MathNode {
        let c = s[i]
        if c.isASCII && c.isNumber || (c == "." && i + 1 < s.count && s[i + 1].isASCII && s[i + 1].isNumber) {
            return number()
        }
        if c == "\\" { return try command() }
        if c == "{" {
            i += 1
            return try row(until: "}")
        }
        i += 1
        if c.isASCIILetter { return .identifier(String(c)) }
        if "+=<>!,?/|()[].%:;'".contains(c) { return .op(String(c)) }
        if c == "-" { return .op("−") }
        if let n = Self.unicode[c] { return n }
        throw fail("unknown symbol '\(c)'", at: i - 1)
    }

    private mutating func number() -> MathNode {
        var text = ""
        var point = false
        while i < s.count {
            let c = s[i]
            if c.isASCII && c.isNumber {
                text.append(c)
            } else if c == ".", !point, i + 1 < s.count, s[i + 1].isASCII, s[i + 1].isNumber {
                point = true
                text.append(c)
            } else {
                break
            }
            i += 1
        }
        return .number(text)
    }

    private mutating func command() throws -> MathNode {
        let start = i
        i += 1
        guard i < s.count else { throw fail("lone '\\' at the end", at: start) }
        if !s[i].isASCIILetter {
            let c = s[i]
            i += 1
            switch c {
            case "{", "}", "%", "|": return .op(String(c))
            case ",", ";", ":", "!", " ": return .row([])
            default: throw fail("unknown command '\\\(c)'", at: start)
            }
        }
        var name = ""
        while i < s.count, s[i].isASCIILetter { name.append(s[i]); i += 1 }
        switch name {
        case "frac", "dfrac", "tfrac":
            let n = try argument()
            let d = try argument()
            return .fraction(numerator: n, denominator: d)
        case "sqrt":
            skipSpaces()
            var index: MathNode?
            if i < s.count, s[i] == "[" {
                i += 1
                index = try row(until: "]")
            }
            return .root(radicand: try argument(), index: index)
        case "operatorname":
            let arg = try argument()
            let text = MathText.letters(arg)
            guard !text.isEmpty else {
                throw fail("\\operatorname needs a name", at: start)
            }
            return .function(text)
        case "left", "right", "bigl", "bigr", "Bigl", "Bigr":
            skipSpaces()
            guard i < s.count else { throw fail("missing delimiter after \\\(name)", at: start) }
            if s[i] == "." { i += 1; return .row([]) }
            return try atom()
        case "quad", "qquad", "thinspace", "medspace", "thickspace": return .row([])
        default:
            if let n = Self.fromCommand[name] { return n }
            throw fail("unknown command '\\\(name)'", at: start)
        }
    }
}
