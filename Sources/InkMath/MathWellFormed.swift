/// Whether a reading's layout can be a written calculation: the faults a reader would never accept
/// (`/=`, a closing bracket with nothing open, an operator at the end of a line, a relation inside
/// an exponent). The classifier and the bigram prior see symbols and their neighbours; these
/// faults span a row (bracket balance) or its ends, so a reading with a `1` read `/` or a `7`
/// read `)` could still win on local evidence.
enum MathWellFormed {
    private enum Kind: Equatable {
        case start, operand, digit, binary, unary, relation, postfix, open, close, point, neutral
    }

    /// A symbol's kind. `nBest` asks this of every symbol of every reading it weighs, so the
    /// one-scalar symbols of the alphabet are told by their scalar (a `Set` lookup or a `Character`
    /// comparison costs a hash or a string compare each).
    private static func kind(_ c: Character) -> Kind {
        let scalars = c.unicodeScalars
        guard scalars.count == 1, let value = scalars.first?.value else { return c.isLetter ? .operand : .neutral }
        switch value {
        case 0x30 ... 0x39: return .digit
        case 0x41 ... 0x5A, 0x61 ... 0x7A: return .operand
        case 0x2D, 0x2B, 0xB1: return .unary  // - + ±
        case 0xD7, 0xF7, 0xB7, 0x2F: return .binary  // × ÷ · /
        case 0x3D, 0x3C, 0x3E, 0x2264, 0x2265, 0x2260: return .relation  // = < > ≤ ≥ ≠
        case 0x21, 0x25: return .postfix  // ! %
        case 0x28, 0x5B, 0x7B: return .open
        case 0x29, 0x5D, 0x7D: return .close
        case 0x2E, 0x2C: return .point
        default: return c.isLetter ? .operand : .neutral
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
                    if prev != .digit || next.map(kind) != .digit { n += 1 }
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
