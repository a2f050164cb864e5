import Foundation

/// The `i` and `j` whose dot the partition read apart.
///
/// Some hands put an `i`'s dot well off its stem, or make it a dash as long as half the stem
/// (composed validation expressions: 8 of 26 `i`, two writers, had no hypothesis, so `\sin` read
/// `s/\cdot n`). A stroke group that loose would join many a decimal point or `\cdot` to the digit
/// before it, and the classifier reads a short stem alone as confidently as the whole letter, so
/// such pairs are not hypotheses of the partition: each is read apart, and kept only where the whole
/// line then reads better, the prior over its neighbours included (`MathRecognizer.read`).
extension MathRecognizer {
    /// For each pair of chosen one-stroke groups that `MathSegmenter.dotLetterPair` allows and whose
    /// union reads `i` or `j` among its five best classes: the two groups and the index of the union,
    /// appended to `scored` with its scores (the glyph network's added as for chosen groups).
    func dotLetterMerges(_ scored: inout Scored, chosen: [Int], strokes: [[SIMD2<Double>]]) -> [(parts: [Int], merged: Int)] {
        let singles = chosen.filter { scored.groups[$0].count == 1 && scored.scores[$0] != nil }
        guard singles.count >= 2 else { return [] }
        let boxes = MathSegmenter.boxes(strokes)
        let ref = MathSegmenter.referenceSize(boxes)
        let have = Set(scored.groups)
        var pairs: [(dot: Int, stem: Int)] = []
        for d in singles {
            for s in singles where s != d {
                let g = [scored.groups[d][0], scored.groups[s][0]].sorted()
                if !have.contains(g), MathSegmenter.dotLetterPair(boxes[scored.groups[d][0]], boxes[scored.groups[s][0]], ref) {
                    pairs.append((d, s))
                }
            }
        }
        guard !pairs.isEmpty else { return [] }
        let groups = pairs.map { [scored.groups[$0.dot][0], scored.groups[$0.stem][0]].sorted() }
        var out: [(parts: [Int], merged: Int)] = []
        for (p, cs) in zip(pairs, classScores(of: groups, strokes: strokes)) {
            guard let seq = cs else { continue }
            let g = [scored.groups[p.dot][0], scored.groups[p.stem][0]].sorted()
            let r = rank(withGlyph(seq, group: g, scored: &scored, strokes: strokes)?.scores ?? seq)
            guard r.candidates.prefix(5).contains(where: { $0.label == "i" || $0.label == "j" }) else { continue }
            // `scores` keeps the sequence network's alone, as for every hypothesis, so that the
            // partition alternatives add the glyph network's once.
            scored.append(g, seq, r)
            out.append(([p.dot, p.stem], scored.groups.count - 1))
        }
        return out
    }
}
