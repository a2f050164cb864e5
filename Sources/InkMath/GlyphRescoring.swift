import Foundation

/// The glyph image network's look at the groups the partition chose.
///
/// Each chosen group's class scores gain `glyphWeight` x the glyph network's log-probabilities.
/// With `glyphRepartition`, a chosen group of several strokes that the glyph network takes for
/// "not one symbol" (probability at least `glyphSplitDoubt`: a digit with the dot beside it merged
/// into it) may also be taken apart: every scored hypothesis inside it is read by the glyph network
/// too, and the best partition of its strokes by the summed scores replaces it. The network was
/// trained on whole symbols and on groups spanning several, never on a piece of one (one bar of an
/// `=` reads as a confident `-`), so it never re-decides a group it believes is one symbol, and
/// the sequence network's scores, which did see pieces, still weigh every split.
extension MathRecognizer {
    /// The chosen groups after the glyph network's look (indices into `scored.groups`), with their
    /// `best` and `candidates` in `scored` updated to the summed scores.
    func glyphRescored(_ scored: inout Scored, chosen: [Int], strokes: [[SIMD2<Double>]]) -> [Int] {
        guard let glyphNetwork, glyphWeight > 0 else { return chosen }
        let junk = glyphNetwork.charset.firstIndex(of: MathSymbols.junk)
        var summed: [Int: (label: Character, score: Double, candidates: [MathSymbolCandidate])] = [:]
        var doubt: [Int: Double] = [:]
        func read(_ k: Int) {
            guard summed[k] == nil, let cs = scored.scores[k],
                  let (c, lp) = withGlyph(cs, group: scored.groups[k], scored: &scored, strokes: strokes) else { return }
            summed[k] = rank(c)
            if let junk { doubt[k] = exp(Double(lp[junk])) }
        }
        chosen.forEach(read)
        var result = chosen
        let doubted = glyphRepartition ? chosen.filter { scored.groups[$0].count > 1 && (doubt[$0] ?? 0) >= glyphSplitDoubt } : []
        for k in doubted {
            let whole = Set(scored.groups[k])
            let inside = scored.groups.indices.filter { j in
                j == k || (scored.scores[j] != nil && scored.groups[j].allSatisfy(whole.contains))
            }
            inside.forEach(read)
            // A hypothesis the glyph network could not read cannot be weighed against the others.
            let ks = inside.filter { summed[$0] != nil }
            guard ks.contains(k) else { continue }
            let local = Dictionary(uniqueKeysWithValues: whole.sorted().enumerated().map { ($1, $0) })
            let picked = MathSegmenter.bestPartition(strokeCount: whole.count, groups: ks.map { scored.groups[$0].map { local[$0]! } },
                                                     scores: ks.map { summed[$0]!.score }, penalty: groupPenalty)
                .map { ks[$0] }
            if picked != [k] { result = result.filter { $0 != k } + picked }
        }
        for k in result {
            guard let r = summed[k] else { continue }
            scored.best[k] = (r.label, r.score)
            scored.candidates[k] = r.candidates
        }
        return result
    }

    /// `cs` (class scores, index 0 the CTC blank) with the glyph network's log-probabilities of the
    /// group's ink added at `glyphWeight`, and those log-probabilities; nil without the network or
    /// an image. The network reads each group once per line (`Scored.glyph`): the partition
    /// alternatives' rounds, the dot letters and the loose pairs ask again for many of the same.
    func withGlyph(_ cs: [Double], group: [Int], scored: inout Scored, strokes: [[SIMD2<Double>]]) -> (scores: [Double], glyph: [Float])? {
        guard glyphWeight > 0, let lp = glyphReading(group, scored: &scored, strokes: strokes) else { return nil }
        var c = cs
        for i in lp.indices { c[i + 1] += glyphWeight * Double(lp[i]) }
        return (c, lp)
    }

    /// The glyph network's log-probabilities of a group's ink (nil without the network or an
    /// image), read once per line (`Scored.glyph`).
    func glyphReading(_ group: [Int], scored: inout Scored, strokes: [[SIMD2<Double>]]) -> [Float]? {
        guard let glyphNetwork else { return nil }
        if let known = scored.glyph[group] { return known }
        let read = glyphNetwork.logProbabilities(strokes: group.map { strokes[$0] })
        scored.glyph.updateValue(read, forKey: group)
        return read
    }
}
