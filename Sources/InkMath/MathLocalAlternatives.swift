import Foundation

/// Partitions one merge or one split away from the chosen one, read as whole lines.
///
/// The partition scores each stroke group on its own, so a minus merged into the `5` beside it
/// (`s-`), a `\neq` read as `/` and `=`, or a fraction bar merged into its numerator cost it only
/// a fraction of a nat; read as a whole line, with the prior over the neighbours and the layout
/// they make, the right partition is clearly better. Earlier tries that let every such reading
/// compete as an equal lost more than they gained (the joint score favours fewer symbols), so an
/// alternative must beat the chosen line by `MathRecognizer.alternativeMargin`.
extension MathRecognizer {
    /// Most an alternative may lose on its groups' own scores (nats) and still be read: what the
    /// context can win back is bounded as its candidates are (`MathReadings.contextMargin`).
    static let alternativeLoss = MathReadings.contextMargin
    /// Most alternatives read per round.
    static let maxAlternatives = 48

    /// Two chosen groups whose union is a scored hypothesis, and a chosen group of several strokes
    /// cut into two scored hypotheses: each as the chosen groups with that one change. New groups'
    /// scores gain the glyph network's, as chosen groups' do (written into `scored`).
    func partitionAlternatives(_ scored: inout Scored, chosen: [Int], strokes: [[SIMD2<Double>]]) -> [[Int]] {
        var owner: [Int: Int] = [:]
        for k in chosen { for s in scored.groups[k] { owner[s] = k } }
        var summed = Set(chosen)
        func addGlyph(_ k: Int) {
            guard summed.insert(k).inserted, let seq = scored.scores[k] else { return }
            let r = rank(withGlyph(seq, group: scored.groups[k], scored: &scored, strokes: strokes)?.scores ?? seq)
            scored.best[k] = (r.label, r.score)
            scored.candidates[k] = r.candidates
        }
        var out: [(alt: [Int], loss: Double)] = []
        let n = scored.groups.count
        for j in 0 ..< n where owner[scored.groups[j][0]] != j && scored.scores[j] != nil {
            let g = scored.groups[j]
            let owners = Set(g.compactMap { owner[$0] })
            guard owners.count == 2, owners.allSatisfy({ o in scored.groups[o].allSatisfy(g.contains) }) else { continue }
            addGlyph(j)
            if swallowsScript(j, owners: Array(owners), scored: scored, strokes: strokes) { continue }
            let loss = owners.reduce(0) { $0 + scored.best[$1].score } - scored.best[j].score - groupPenalty
            if loss < Self.alternativeLoss { out.append((chosen.filter { !owners.contains($0) } + [j], loss)) }
        }
        for k in chosen where scored.groups[k].count > 1 {
            let whole = Set(scored.groups[k])
            let inside = (0 ..< n).filter { $0 != k && scored.scores[$0] != nil && scored.groups[$0].allSatisfy(whole.contains) }
            let byGroup = Dictionary(inside.map { (scored.groups[$0], $0) }, uniquingKeysWith: { a, _ in a })
            for a in inside {
                // Each cut once: the part holding the group's first stroke is `a`.
                let rest = whole.subtracting(scored.groups[a]).sorted()
                guard let first = rest.first, first > scored.groups[a][0], let b = byGroup[rest] else { continue }
                addGlyph(a)
                addGlyph(b)
                let loss = scored.best[k].score - scored.best[a].score - scored.best[b].score + groupPenalty
                if loss < Self.alternativeLoss { out.append((chosen.filter { $0 != k } + [a, b], loss)) }
            }
        }
        // The cheapest first, so that a line with many pays for a bounded number of readings.
        return out.sorted { $0.loss < $1.loss }.prefix(Self.maxAlternatives).map(\.alt)
    }

    /// Whether the union `j` of two chosen groups reads as one of them already does while the other
    /// stands where a script of it would (`standsAsScript`). Such a merge only swallows the script
    /// (`k^{-6}` read `k^{6}`, `4^{1}` read `4`, `k_{n}` read `k`), yet one symbol fewer costs the
    /// line less than the script's layout costs the prior, so the whole line's score would take
    /// it; it is not offered (docs/MATH-CHECKS.md, step 25). Dots are left out: a point drawn as
    /// two dabs is one `.`.
    func swallowsScript(_ j: Int, owners: [Int], scored: Scored, strokes: [[SIMD2<Double>]]) -> Bool {
        guard owners.count == 2, !".,".contains(scored.best[j].label) else { return false }
        func box(_ k: Int) -> MathBox { MathBox(enclosing: scored.groups[k].flatMap { strokes[$0] }) }
        return [(owners[0], owners[1]), (owners[1], owners[0])].contains { kept, other in
            scored.best[kept].label == scored.best[j].label && Self.standsAsScript(box(other), of: box(kept))
        }
    }

    /// Whether `other` stands where a script of `base` would: wholly to its right, under 0.8 of its
    /// height, its centre in the base's top or bottom 0.4.
    static func standsAsScript(_ other: MathBox, of base: MathBox) -> Bool {
        let centre = other.y + other.height / 2
        return other.x > base.maxX && other.height < 0.8 * base.height
            && (centre < base.y + 0.4 * base.height || centre > base.maxY - 0.4 * base.height)
    }
}
