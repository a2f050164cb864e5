import Foundation

/// The math alphabet the symbol classifier reads (mirror of tools/recognition/math/symbols.py):
/// which classes are digits, letters or operators, and where each sits on a written line.
public enum MathSymbols {
    /// The class "this stroke group is not one symbol" (pieces of two or more symbols).
    public static let junk: Character = "∅"
    public static let digits = Set("0123456789")
    /// `digits` for the hot paths (`MathSymbolSet`).
    static let digitSet = MathSymbolSet("0123456789")
    /// Operators and relations the parser places on the math axis (the fraction bar is also "-").
    static let operators = MathSymbolSet("+-=×÷±≤≥≠<>/")
    static let openers = MathSymbolSet("([{")
    static let closers = MathSymbolSet(")]}")
    /// Function names written in letters, longest first where one is a prefix of another.
    public static let functions = ["sin", "cos", "tan", "log", "exp", "ln"]
    static let ascenders = MathSymbolSet("bdfhklt")
    static let descenders = MathSymbolSet("gpqy")
    static let xHeight = 0.62
    /// The math axis (where operators are centred) in digit heights above the baseline, y down.
    static let axis = -0.42

    /// Greek and other one-character identifiers besides Latin letters.
    static let greek = MathSymbolSet("πθαβ")

    static func isLetter(_ c: Character) -> Bool { (c.isASCII && c.isLetter) || greek.contains(c) }

    /// Where a class sits on a line, in digit heights H with the baseline at 0, y down.
    enum Placement {
        /// Placed by its box: top and bottom.
        case box(top: Double, bottom: Double)
        /// A dot: its bottom sits at `at` (0: on the baseline).
        case dot(at: Double)
        /// Centred on the math axis, independent of its own size.
        case centred(Double)
    }

    /// Every class's placement, looked up rather than worked out: the parser asks for it many
    /// times per reading, and each reading of a line's alternatives asks again.
    static func placement(_ c: Character) -> Placement? {
        if let v = c.asciiValue, c.utf8.count == 1 { return asciiPlacements[Int(v)] }
        let scalars = c.unicodeScalars
        if scalars.count == 1, let s = scalars.first, let known = otherPlacements[s.value] { return known }
        return placementByRule(c)
    }

    /// Placements of the ASCII classes by code, and of the others by scalar (an array index and an
    /// integer key: a `Character` key hashes a string).
    static let asciiPlacements: [Placement?] = (0 ..< 128).map { placementByRule(Character(UnicodeScalar(UInt8($0)))) }
    static let otherPlacements: [UInt32: Placement?] = Dictionary(uniqueKeysWithValues: "×÷±πθαβ≤≥≠√·∅".map {
        ($0.unicodeScalars.first!.value, placementByRule($0))
    })

    static func placementByRule(_ c: Character) -> Placement? {
        if digitSet.contains(c) || (c.isASCII && c.isUppercase) || "!?%θ".contains(c) || ascenders.contains(c) {
            return .box(top: -1, bottom: 0)
        }
        switch c {
        case "β": return .box(top: -1, bottom: 0.3)
        case "i": return .box(top: -0.9, bottom: 0)
        case "j": return .box(top: -0.9, bottom: 0.35)
        default: break
        }
        if descenders.contains(c) { return .box(top: -xHeight, bottom: 0.35) }
        if (c.isASCII && c.isLowercase) || "απ".contains(c) { return .box(top: -xHeight, bottom: 0) }
        if "()[]{}|".contains(c) { return .box(top: -1.1, bottom: 0.2) }
        switch c {
        case "/": return .box(top: -1.05, bottom: 0.1)
        case ".": return .dot(at: 0)
        case "·": return .dot(at: axis)
        case ",": return .box(top: -0.12, bottom: 0.25)
        case "-", "=", "+", "×", "÷", "≠", "±", "≤", "≥", "<", ">": return .centred(axis)
        default: return nil
        }
    }
}
