import Testing
@testable import InkMath

/// The bit-set of math classes the hot paths ask (`MathSymbolSet`) and the placement table answer
/// exactly as a `Set<Character>` and the placement rules do, for every class and for characters
/// that only look like one.
@Suite struct MathSymbolSetTests {
    static let probes: [Character] = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-=()[]{}|.,!%/<>?×÷±πθαβ≤≥≠√·∅ ")
        + ["\r\n", "e\u{301}", "1\u{20E3}", "Ω", "−", "🙂", "\u{7F}", "@", "~"]

    @Test func membersAreThoseOfASet() {
        for members in ["0123456789", "+-=×÷±≤≥≠<>/", ".,·()[]{}|", "gpqy", "πθαβ", "=<>≤≥≠", "", "?~\u{7F} @"] {
            let fast = MathSymbolSet(members), plain = Set(members)
            for c in Self.probes { #expect(fast.contains(c) == plain.contains(c), "\(members) contains \(c)") }
        }
    }

    @Test func placementsAreTheRules() {
        for c in Self.probes {
            #expect(String(describing: MathSymbols.placement(c)) == String(describing: MathSymbols.placementByRule(c)), "\(c)")
        }
    }
}
