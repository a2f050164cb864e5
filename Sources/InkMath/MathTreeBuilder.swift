import Foundation

/// What the structure parser reads a line into, before it becomes a tree: symbols (after the
/// parser's decisions: "·" for a raised dot), structures and scripts, left to right.
indirect enum LayoutToken: Equatable {
    /// A symbol's class and the index of the parser's input symbol it came from.
    case symbol(Character, source: Int)
    case fraction([LayoutToken], [LayoutToken])
    case radical([LayoutToken])
    case script(superscript: Bool, [LayoutToken])
}

/// Turns layout tokens into a `MathNode`: digit runs (with one decimal point) become numbers,
/// letter runs spelling a function name functions, matching brackets `fenced`, and a script
/// attaches to the node before it.
enum MathTreeBuilder {
    private enum Element {
        case node(MathNode)
        case script(superscript: Bool, MathNode)
        var opening: Character? {
            if case let .node(.op(o)) = self, o.count == 1, MathSymbols.openers.contains(o.first!) || o == "|" { return o.first }
            return nil
        }
    }

    static func node(_ tokens: [LayoutToken]) -> MathNode {
        let nodes = nest(elements(tokens))
        return nodes.count == 1 ? nodes[0] : .row(nodes)
    }

    /// The node of one symbol class standing alone.
    static func node(symbol c: Character) -> MathNode {
        if MathSymbols.digitSet.contains(c) { return .number(String(c)) }
        if MathSymbols.isLetter(c) { return .identifier(String(c)) }
        return .op(c == "-" ? "−" : String(c))
    }

    private static func elements(_ tokens: [LayoutToken]) -> [Element] {
        var out: [Element] = []
        var i = 0
        while i < tokens.count {
            switch tokens[i] {
            case let .symbol(c, _):
                if MathSymbols.digitSet.contains(c) {
                    var s = String(c)
                    var dot = false
                    i += 1
                    while i < tokens.count, case let .symbol(d, _) = tokens[i] {
                        if MathSymbols.digitSet.contains(d) {
                            s.append(d)
                        } else if d == ".", !dot, i + 1 < tokens.count, case let .symbol(e, _) = tokens[i + 1], MathSymbols.digitSet.contains(e) {
                            dot = true
                            s.append(d)
                        } else {
                            break
                        }
                        i += 1
                    }
                    out.append(.node(.number(s)))
                    continue
                }
                if let f = function(at: i, tokens) {
                    out.append(.node(.function(f)))
                    i += f.count
                    continue
                }
                out.append(.node(node(symbol: c)))
            case let .fraction(num, den): out.append(.node(.fraction(numerator: node(num), denominator: node(den))))
            case let .radical(inside): out.append(.node(.root(radicand: node(inside), index: nil)))
            case let .script(sup, inside): out.append(.script(superscript: sup, node(inside)))
            }
            i += 1
        }
        return out
    }

    /// The function whose name the letters at `i` spell; the first may be a capital (`Cos`, as a
    /// sentence starts: no one writes the product C·o·s).
    private static func function(at i: Int, _ tokens: [LayoutToken]) -> String? {
        MathSymbols.functions.first { f in
            i + f.count <= tokens.count && zip(f, tokens[i ..< i + f.count]).enumerated().allSatisfy { k, pair in
                let (c, t) = pair
                if case let .symbol(d, _) = t { return c == d || (k == 0 && Character(c.uppercased()) == d) }
                return false
            }
        }
    }

    /// Brackets that match become `fenced` (scripts after a closer attach to the whole group).
    private static func nest(_ elements: [Element]) -> [MathNode] {
        var frames: [(open: Character?, items: [Element])] = [(nil, [])]
        for e in elements {
            if case let .node(.op(o)) = e, o.count == 1, let c = o.first {
                let top = frames[frames.count - 1].open
                let closes = (top == "(" && c == ")") || (top == "[" && c == "]") || (top == "{" && c == "}") || (top == "|" && c == "|")
                if closes {
                    let f = frames.removeLast()
                    let content = attach(f.items)
                    frames[frames.count - 1].items.append(.node(.fenced(open: String(f.open!), close: o,
                                                                      content: content.count == 1 ? content[0] : .row(content))))
                    continue
                }
                if MathSymbols.openers.contains(c) || c == "|" {
                    frames.append((c, []))
                    continue
                }
            }
            frames[frames.count - 1].items.append(e)
        }
        // Unclosed brackets stay plain operators.
        while frames.count > 1 {
            let f = frames.removeLast()
            frames[frames.count - 1].items += [.node(.op(String(f.open!)))] + f.items
        }
        return attach(frames[0].items)
    }

    private static func attach(_ elements: [Element]) -> [MathNode] {
        var out: [MathNode] = []
        for e in elements {
            switch e {
            case let .node(n): out.append(n)
            case let .script(sup, s):
                let base = out.popLast() ?? .row([])
                if sup, case let .sub(b, index) = base {
                    out.append(.subSup(base: b, index: index, exponent: s))
                } else {
                    out.append(sup ? .sup(base: base, exponent: s) : .sub(base: base, index: s))
                }
            }
        }
        return out
    }
}
