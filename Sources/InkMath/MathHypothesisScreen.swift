import Foundation

/// Stroke groups the glyph network is sure are not one symbol, kept from the sequence network.
///
/// The sequence network reads every hypothesis of up to four strokes (`MathSegmenter.hypotheses`),
/// and groups of several strokes are its longest sequences: on set A they were 58% of its frames
/// and it was the largest share of the slowest expressions' time. Most such groups join two
/// neighbouring symbols, which the glyph network (trained on groups spanning several, and under
/// half the sequence network's cost per group) calls "not one symbol" with near certainty.
/// Those are dropped before the sequence network reads the rest; the partition never had a use
/// for them, and the glyph network's readings are kept for the steps after it, which ask for many
/// of the same groups (docs/MATH-CHECKS.md, step 30).
extension MathRecognizer {
    /// The glyph network's log-probability of "not one symbol" at or above which a hypothesis of
    /// several strokes is not read by the sequence network: log 0.999 (at 0.99 alike in time, one
    /// `\leq` and one `H` lost on the validation sets).
    static let hypothesisDoubt = log(0.999)

    /// `hyps` without the groups of several strokes the glyph network doubts (`hypothesisDoubt`);
    /// every hypothesis without the network, the screen, or an image. Singletons always stay: each
    /// stroke belongs to some symbol.
    func screened(_ hyps: [[Int]], scored: inout Scored, strokes: [[SIMD2<Double>]]) -> [[Int]] {
        guard glyphScreen, glyphWeight > 0, let junk = glyphNetwork?.charset.firstIndex(of: MathSymbols.junk) else { return hyps }
        return hyps.filter { g in
            g.count == 1 || (glyphReading(g, scored: &scored, strokes: strokes).map { Double($0[junk]) < Self.hypothesisDoubt } ?? true)
        }
    }
}
