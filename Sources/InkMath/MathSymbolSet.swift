/// A set of math classes whose `contains` costs a bit test, not a hash. The parser, the size checks
/// and the prior ask which kind a class is for every symbol of every reading `MathReadings.nBest`
/// weighs, and a `Set<Character>` hashes the character's string each time.
struct MathSymbolSet: Sendable {
    /// Bits of the ASCII members (0-63, 64-127).
    private let low: UInt64
    private let high: UInt64
    /// Members outside ASCII (a few: `×`, `≤`, `π`), each one scalar.
    private let others: [Unicode.Scalar]

    init(_ members: String) {
        var low: UInt64 = 0, high: UInt64 = 0
        var others: [Unicode.Scalar] = []
        for c in members {
            precondition(c.unicodeScalars.count == 1, "MathSymbolSet holds one-scalar classes")
            let v = c.unicodeScalars.first!.value
            if v < 64 { low |= 1 << v } else if v < 128 { high |= 1 << (v - 64) } else { others.append(c.unicodeScalars.first!) }
        }
        (self.low, self.high, self.others) = (low, high, others)
    }

    func contains(_ c: Character) -> Bool {
        if let v = c.asciiValue {
            // A CR-LF pair is one Character with the ASCII value of LF; no class is either.
            guard c.utf8.count == 1 else { return false }
            return v < 64 ? low & (1 << v) != 0 : high & (1 << (v - 64)) != 0
        }
        guard !others.isEmpty else { return false }
        let scalars = c.unicodeScalars
        guard scalars.count == 1, let s = scalars.first else { return false }
        return others.contains(s)
    }
}
