/// Whether a reading's layout can be a written calculation: the faults a reader would never accept
/// (`/=`, a closing bracket with nothing open, an operator at the end of a line, a relation inside
/// an exponent). The classifier and the bigram prior see symbols and their neighbours; these
/// faults span a row (bracket balance) or its ends, so a reading with a `1` read `/` or a `7`
/// read `)` could still win on local evidence.
enum MathWellFormed {
    private enum Kind: Equatable {
        case start, operand, digit, binary, unary, relation, postfix, open, close, point, neutral
    }

    private static func kind(_ c: Character) -> Kind {
        if MathSymbols.digits.contains(c) { return .digit }
        if c.isLetter { return .operand }
        switch c {
        case "-", "+", "±": return .unary
        case "×", "÷", "·", "/": return .binary
        case "=", "<", ">", "≤", "≥", "≠": return .relation
        case "!", "%": return .postfix
        case "(", "[", "{": return .open
        case ")", "]", "}": return .close
        case ".", ",": return .point
        default: return .neutral
        }
    }

    /// How many faults the layout has (0: it reads as a calculation could be written).
    static func faults(_ tokens: [LayoutToken]) -> Int { faults(row: tokens, main: true) }

    private static func faults(row: [LayoutToken], main: Bool) -> Int {
        if row.isEmpty { return 1 }
        var n = 0
        var open = 0
        var prev = Kind.start
        func endsOperand(_ k: Kind) -> Bool { k == .operand || k == .digit || k == .close || k == .postfix }
        for (i, t) in row.enumerated() {
            switch t {
            case let .symbol(c, _):
                let k = kind(c)
                switch k {
                case .binary, .relation, .unary:
                    // A sign may open a row or follow an operator (`=-5`); nothing else may.
                    let signs = k == .unary && prev != .unary
                    if !signs && (prev == .start || prev == .open || prev == .binary || prev == .relation || prev == .unary) { n += 1 }
                    if k == .relation && !main { n += 1 }
                case .close:
                    if open == 0 { n += 1 } else { open -= 1 }
                    if !endsOperand(prev) && prev != .neutral { n += 1 }
                case .open:
                    open += 1
                case .postfix:
                    if !endsOperand(prev) { n += 1 }
                case .point:
                    // A decimal point or comma stands between digits.
                    let next: Character? = if i + 1 < row.count, case let .symbol(d, _) = row[i + 1] { d } else { nil }
                    if prev != .digit || !(next.map { MathSymbols.digits.contains($0) } ?? false) { n += 1 }
                default: break
                }
                prev = k
            case let .fraction(num, den):
                n += faults(row: num, main: false) + faults(row: den, main: false)
                prev = .operand
            case let .radical(inside):
                n += faults(row: inside, main: false)
                prev = .operand
            case let .script(_, inside):
                n += faults(row: inside, main: false)
                if !endsOperand(prev) && prev != .neutral { n += 1 }
            }
        }
        if prev == .binary || prev == .unary || (prev == .relation && !main) { n += 1 }
        return n + open
    }
}
