import Foundation

/// Symbols whose parts a hand set further apart than the partition's hypotheses reach.
///
/// The hypothesis graph joins strokes whose x-extents nearly overlap and that stand close in height
/// (`MathSegmenter.neighbours`). On 4,000 composed expressions of training writers, 17 of 128 `!`
/// had no hypothesis (the dot over half the stem below it), nor 15 `4` (the stem right of the open
/// corner), 8 `=` (bars further apart than they are long), 8 `%` (a circle away from the slash) and
/// 6 `5` (the bar off): each was read as two symbols (`7.1`, `l_{1}`, `-` twice). Loosening the
/// graph would score far more groups and offer the first partition neighbours joined. Instead, the
/// union of each such pair of chosen groups is scored after the partition and joins the hypotheses
/// that the partition alternatives (`MathLocalAlternatives.swift`) weigh: a merge is kept only where
/// the whole line reads better by their margin, the neighbours' context included.
extension MathRecognizer {
    /// The glyph network's log-probability of "not one symbol" above which a loose pair is not read:
    /// log 0.99.
    static let loosePairDoubt = log(0.99)

    /// Scores the union of each pair of chosen groups of at most two strokes that
    /// `MathSegmenter.loosePair` allows and that is no hypothesis yet, and appends it to `scored`;
    /// not where the union's best class is one of the two parts' own (a `4` swallowing the decimal
    /// point beside it: set B's `4.8` read `48`; a `5` the minus before it: `\alpha^{5.7}`).
    func looseUnions(_ scored: inout Scored, chosen: [Int], strokes: [[SIMD2<Double>]]) {
        let boxes = MathSegmenter.boxes(strokes)
        let ref = MathSegmenter.referenceSize(boxes)
        func box(_ k: Int) -> SIMD4<Double> {
            scored.groups[k].dropFirst().reduce(boxes[scored.groups[k][0]]) {
                SIMD4(min($0[0], boxes[$1][0]), min($0[1], boxes[$1][1]), max($0[2], boxes[$1][2]), max($0[3], boxes[$1][3]))
            }
        }
        let small = chosen.filter { scored.groups[$0].count <= 2 && scored.scores[$0] != nil }
        let have = Set(scored.groups)
        var pairs: [(parts: [Int], group: [Int])] = []
        for (i, a) in small.enumerated() {
            for b in small.dropFirst(i + 1) {
                let g = (scored.groups[a] + scored.groups[b]).sorted()
                if !have.contains(g), MathSegmenter.loosePair(box(a), box(b), ref) { pairs.append(([a, b], g)) }
            }
        }
        // Most pairs are two neighbouring symbols, which the glyph network (trained on groups that
        // span several) is sure are not one: those are not read by the sequence network, the
        // costlier of the two (training writers' 4,000: 82% of pairs, and none of the 63 unions
        // the line kept but a `1%` read `y`; docs/MATH-CHECKS.md, step 29).
        if glyphWeight > 0, let junk = glyphNetwork?.charset.firstIndex(of: MathSymbols.junk) {
            pairs = pairs.filter { p in
                glyphReading(p.group, scored: &scored, strokes: strokes).map { Double($0[junk]) < Self.loosePairDoubt } ?? true
            }
        }
        guard !pairs.isEmpty else { return }
        for (p, cs) in zip(pairs, classScores(of: pairs.map(\.group), strokes: strokes)) {
            guard let seq = cs else { continue }
            let r = rank(withGlyph(seq, group: p.group, scored: &scored, strokes: strokes)?.scores ?? seq)
            if p.parts.contains(where: { scored.best[$0].label == r.label }) { continue }
            // `scores` keeps the sequence network's alone, as for every hypothesis, so that the
            // partition alternatives add the glyph network's once.
            scored.append(p.group, seq, r)
        }
    }
}

extension MathSegmenter {
    /// Two boxes close enough to be parts of one symbol that `neighbours` keeps apart: side by side
    /// less than 0.4 of the reference size apart and nearly level (a `4`'s stem, a `5`'s bar, a
    /// `%`'s circle), or over each other up to 1.2 of it apart (an `!`'s dot, an `=`'s bars).
    static func loosePair(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ ref: Double) -> Bool {
        let xg = max(a[0], b[0]) - min(a[2], b[2])
        let yg = max(a[1], b[1]) - min(a[3], b[3])
        return (xg < 0.4 * ref && yg < 0.3 * ref) || (xg < 0.15 * ref && yg < 1.2 * ref)
    }
}
