import Foundation

/// Symbol segmentation (mirror of tools/recognition/math/segment.py): stroke-group hypotheses,
/// their single-symbol scores, and the best partition of the strokes into symbols. Writing order
/// is never used: a late dot or bar joins its symbol.
public enum MathSegmenter {
    /// Most strokes one symbol may take.
    public static let maxStrokes = 4
    /// Components of at most this many strokes are partitioned exactly, larger ones greedily.
    public static let maxExact = 18
    /// Score a partition pays per group (nats): more, smaller groups must earn their keep.
    public static let defaultGroupPenalty = 0.5

    /// Bounding boxes of strokes (x0, y0, x1, y1); a stroke with no finite point gets a zero box at the origin.
    static func boxes(_ strokes: [[SIMD2<Double>]]) -> [SIMD4<Double>] {
        strokes.map { s in
            var b = SIMD4<Double>(.infinity, .infinity, -.infinity, -.infinity)
            for p in s where p.x.isFinite && p.y.isFinite {
                b = SIMD4(min(b[0], p.x), min(b[1], p.y), max(b[2], p.x), max(b[3], p.y))
            }
            return b[0] <= b[2] ? b : .zero
        }
    }

    /// The median of max(width, height) over the strokes, at least 1 mm.
    static func referenceSize(_ b: [SIMD4<Double>]) -> Double {
        let ext = b.map { max($0[2] - $0[0], $0[3] - $0[1]) }.sorted()
        guard !ext.isEmpty else { return 1 }
        let m = ext.count % 2 == 1 ? ext[ext.count / 2] : (ext[ext.count / 2 - 1] + ext[ext.count / 2]) / 2
        return max(m, 1)
    }

    /// Two strokes may belong to one symbol when their x-extents overlap (or nearly, 0.15 of the
    /// reference size) and their boxes are at most 0.6 of it apart vertically, or when they are
    /// `parallelBars`, a `dotAbove` its stem or a `dotByBar`.
    static func neighbours(_ b: [SIMD4<Double>]) -> [[Int]] {
        let ref = referenceSize(b)
        var adj = [[Int]](repeating: [], count: b.count)
        for i in b.indices {
            for j in (i + 1) ..< max(i + 1, b.count) {
                let xo = min(b[i][2], b[j][2]) - max(b[i][0], b[j][0])
                let yg = max(b[i][1], b[j][1]) - min(b[i][3], b[j][3])
                if (xo > -0.15 * ref && yg < 0.6 * ref) || parallelBars(b[i], b[j]) || dotAbove(b[i], b[j], ref) || dotAbove(b[j], b[i], ref)
                    || dotByBar(b[i], b[j], ref) || dotByBar(b[j], b[i], ref) {
                    adj[i].append(j)
                    adj[j].append(i)
                }
            }
        }
        return adj
    }

    /// Two flat strokes of similar length one above the other, overlapping over half the shorter
    /// and less than the longer's length apart: the bars of an `=`, however far apart the rest of
    /// the line's strokes say they are (composed validation expressions: 4 of 505 `=` otherwise).
    static func parallelBars(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Bool {
        let wa = a[2] - a[0], wb = b[2] - b[0], ha = a[3] - a[1], hb = b[3] - b[1]
        guard wa > 0, wb > 0, ha < 0.3 * wa, hb < 0.3 * wb else { return false }
        let xo = min(a[2], b[2]) - max(a[0], b[0])
        let yg = max(a[1], b[1]) - min(a[3], b[3])
        return min(wa, wb) > 0.5 * max(wa, wb) && xo > 0.5 * min(wa, wb) && yg > 0 && yg < max(wa, wb)
    }

    /// A dot (under 0.15 of the reference size) above the middle of a taller stroke, up to 0.45 of
    /// the reference size aside and 1 above: the dot of an `i` or `j` that a slanted hand put off
    /// the stem (composed validation expressions: 12 of 15 `i` had no hypothesis, half of them such dots).
    /// A centred dot or a decimal point sits lower and is not joined.
    static func dotAbove(_ dot: SIMD4<Double>, _ stem: SIMD4<Double>, _ ref: Double) -> Bool {
        let ext = max(dot[2] - dot[0], dot[3] - dot[1])
        guard ext < 0.15 * ref, stem[3] - stem[1] > 2 * ext, dot[3] < (stem[1] + stem[3]) / 2 else { return false }
        let xg = max(dot[0], stem[0]) - min(dot[2], stem[2])
        return xg < 0.45 * ref && stem[1] - dot[3] < ref
    }

    /// A dot or short dash over an upright stroke, looser than `dotAbove` (the dot up to 0.7 of the
    /// reference size and 0.8 of the stem, up to 0.7 aside and 1 above): the `i` and `j` of hands
    /// that dash their dots (validation `i`: dots 0.05-0.65 reference sizes, 0.8 of the stem, up to
    /// 0.65 aside). Not a hypothesis of the partition (`MathDotLetters.swift`).
    static func dotLetterPair(_ dot: SIMD4<Double>, _ stem: SIMD4<Double>, _ ref: Double) -> Bool {
        let ext = max(dot[2] - dot[0], dot[3] - dot[1])
        let sw = stem[2] - stem[0], sh = stem[3] - stem[1]
        guard sh > 0, ext <= 0.7 * ref, ext <= 0.8 * sh, sh >= 0.8 * sw, dot[3] < (stem[1] + stem[3]) / 2 else { return false }
        let xg = max(dot[0], stem[0]) - min(dot[2], stem[2])
        return xg < 0.7 * ref && stem[1] - dot[3] < ref
    }

    /// A dot (under 0.2 of the reference size and 0.3 of the bar) over or under the middle of a flat
    /// stroke, less than the stroke's length away: the dots of a `÷` written far from its bar (they
    /// are further from it than 0.6 of the line's strokes' size; set B: 2 of 14 `÷` had no hypothesis).
    static func dotByBar(_ dot: SIMD4<Double>, _ bar: SIMD4<Double>, _ ref: Double) -> Bool {
        let w = bar[2] - bar[0], h = bar[3] - bar[1]
        let ext = max(dot[2] - dot[0], dot[3] - dot[1])
        guard w > 0, h < 0.3 * w, ext < 0.3 * w, ext < 0.2 * ref else { return false }
        let cx = (dot[0] + dot[2]) / 2
        let yg = max(dot[1], bar[1]) - min(dot[3], bar[3])
        return abs(cx - (bar[0] + bar[2]) / 2) < 0.3 * w && yg > 0 && yg < w
    }

    /// All connected stroke sets of at most `maxStrokes` strokes (sorted), ordered by size then
    /// lexicographically: singletons first.
    ///
    /// With `prune`, groups too large to be one symbol are dropped (and not grown further): three or
    /// more strokes spanning over 2.6 reference sizes either way, two strokes over 3 tall and half
    /// again as tall as the taller alone (two strokes may be wide: a radical with its overbar apart). On 300 composed expressions of
    /// training writers this drops 73% of the ink the network would read and no true symbol. Nor is a
    /// dot wholly right of the rest of its group, beside its lower half, grouped with it (a decimal
    /// point merged into the `4` before it: sets B and C +2 and +1 expressions, none broken).
    public static func hypotheses(_ strokes: [[SIMD2<Double>]], maxStrokes: Int = maxStrokes, prune: Bool = true) -> [[Int]] {
        let b = boxes(strokes)
        let adj = neighbours(b)
        let ref = referenceSize(b)
        func tooLarge(_ g: [Int]) -> Bool {
            guard prune, g.count >= 2 else { return false }
            var u = b[g[0]]
            for i in g.dropFirst() { u = SIMD4(min(u[0], b[i][0]), min(u[1], b[i][1]), max(u[2], b[i][2]), max(u[3], b[i][3])) }
            let w = (u[2] - u[0]) / ref, h = (u[3] - u[1]) / ref
            if g.count >= 3 { return w > 2.6 || h > 2.6 }
            // Two strokes are too tall only when stacked: a `7`'s short bar among a line of small
            // strokes (the reference size) leaves the pair no taller than the `7` itself.
            let tallest = g.map { b[$0][3] - b[$0][1] }.max() ?? 0
            return h > 3 && u[3] - u[1] > 1.5 * tallest
        }
        // A dot wholly right of the rest of its group, beside its lower half, is a decimal point or
        // comma after a digit: no symbol has one there (`i`, `j` carry theirs above, `!`, `?` below,
        // `÷` above and below, `%` its circle under the slash), but for a `!` slanted away from its dot.
        func dotBeside(_ g: [Int]) -> Bool {
            guard prune, g.count >= 2 else { return false }
            for d in g {
                let rest = g.filter { $0 != d }
                var u = b[rest[0]]
                for i in rest.dropFirst() { u = SIMD4(min(u[0], b[i][0]), min(u[1], b[i][1]), max(u[2], b[i][2]), max(u[3], b[i][3])) }
                let h = u[3] - u[1], dot = b[d]
                let cy = (dot[1] + dot[3]) / 2
                // A lone stem with a dot may be a `!` whose dot strayed: the networks decide.
                if rest.count == 1 && u[2] - u[0] < 0.4 * h { continue }
                if max(dot[2] - dot[0], dot[3] - dot[1]) <= 0.25 * h && dot[0] > u[2]
                    && cy >= u[1] + 0.5 * h && cy <= u[3] + 0.25 * h { return true }
            }
            return false
        }
        var seen = Set<[Int]>()
        var frontier = (0 ..< strokes.count).map { [$0] }
        var out = frontier
        seen.formUnion(frontier)
        for _ in 0 ..< max(0, maxStrokes - 1) {
            var next = Set<[Int]>()
            for g in frontier {
                for i in g {
                    for j in adj[i] where !g.contains(j) {
                        let h = (g + [j]).sorted()
                        if !seen.contains(h) && !tooLarge(h) && !dotBeside(h) { next.insert(h) }
                    }
                }
            }
            seen.formUnion(next)
            frontier = next.sorted { $0.lexicographicallyPrecedes($1) }
            out += frontier
        }
        return out
    }

    /// log P(the ink reads as exactly one class c) under CTC for every class, from a group's
    /// log-probabilities (`frames` x `classes`, row major, class 0 the blank): a three-state forward
    /// pass per class (leading blanks, c repeated, trailing blanks). Entry 0 is -infinity.
    public static func classScores(_ logp: [Float], frames: Int, classes: Int) -> [Double] {
        guard frames > 0, classes > 0, logp.count >= frames * classes else { return [Double](repeating: -.infinity, count: max(classes, 0)) }
        // In probabilities, rescaled every frame (all classes share the scale, kept as its log):
        // three multiply-adds per class and frame instead of log-sum-exps.
        var a0 = Double(Foundation.exp(logp[0]))
        var a1 = (0 ..< classes).map { Double(Foundation.exp(logp[$0])) }
        var a2 = [Double](repeating: 0, count: classes)
        var logScale = 0.0
        var p = [Double](repeating: 0, count: classes)
        for t in 1 ..< max(1, frames) {
            let row = t * classes
            for c in 0 ..< classes { p[c] = Double(Foundation.exp(logp[row + c])) }
            let blank = p[0]
            var top = a0 * blank
            for c in 0 ..< classes {
                let n2 = (a1[c] + a2[c]) * blank
                let n1 = (a0 + a1[c]) * p[c]
                a2[c] = n2
                a1[c] = n1
                top = max(top, n1, n2)
            }
            a0 *= blank
            if top > 0 && top.isFinite {
                let k = 1 / top
                a0 *= k
                for c in 0 ..< classes { a1[c] *= k; a2[c] *= k }
                logScale += Foundation.log(top)
            }
        }
        var out = (0 ..< classes).map { c -> Double in
            let v = a1[c] + a2[c]
            return v > 0 ? Foundation.log(v) + logScale : -.infinity
        }
        out[0] = -.infinity
        return out
    }

    /// Covers strokes 0..<n exactly once with hypotheses (indices into `groups`, each sorted)
    /// maximising the sum of `scores` minus `penalty` per group. Exact per connected component of
    /// up to `maxExact` strokes, greedy above. Every stroke must have its singleton among `groups`.
    public static func bestPartition(strokeCount n: Int, groups: [[Int]], scores: [Double],
                                     penalty: Double = defaultGroupPenalty) -> [Int] {
        var parent = Array(0 ..< n)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for g in groups { for j in g.dropFirst() { let a = find(j), b = find(g[0]); if a != b { parent[a] = b } } }
        var comps: [Int: [Int]] = [:]
        var order: [Int] = []
        for i in 0 ..< n {
            let r = find(i)
            if comps[r] == nil { order.append(r) }
            comps[r, default: []].append(i)
        }
        var byComp: [Int: [Int]] = [:]
        for (k, g) in groups.enumerated() where !g.isEmpty { byComp[find(g[0]), default: []].append(k) }
        var result: [Int] = []
        for r in order {
            let comp = comps[r]!, cands = byComp[r] ?? []
            result += comp.count <= maxExact
                ? exact(comp, cands, groups, scores, penalty)
                : greedy(comp, cands, groups, scores, penalty)
        }
        return result
    }

    private static func exact(_ comp: [Int], _ cands: [Int], _ groups: [[Int]], _ scores: [Double], _ penalty: Double) -> [Int] {
        var bit: [Int: Int] = [:]
        for (k, s) in comp.enumerated() { bit[s] = k }
        var byLow = [[(group: Int, mask: UInt32)]](repeating: [], count: comp.count)
        for k in cands {
            var m: UInt32 = 0
            for s in groups[k] { m |= 1 << UInt32(bit[s]!) }
            byLow[bit[groups[k][0]]!].append((k, m))
        }
        var memo: [UInt32: (value: Double, choice: Int)] = [0: (0, -1)]
        // Iterative deepening over the masks reachable from the full set, smallest first.
        func best(_ rem: UInt32) -> Double {
            if let v = memo[rem] { return v.value }
            let low = rem.trailingZeroBitCount
            var top = (value: -Double.infinity, choice: -1)
            for (k, m) in byLow[low] where m & rem == m {
                let v = best(rem & ~m) + scores[k] - penalty
                if v > top.value { top = (v, k) }
            }
            if top.choice < 0 { top = (-1e9 + best(rem & ~(1 << UInt32(low))), -1) }
            memo[rem] = top
            return top.value
        }
        let full: UInt32 = comp.count == 32 ? .max : (1 << UInt32(comp.count)) - 1
        _ = best(full)
        var out: [Int] = []
        var rem = full
        while rem != 0 {
            let choice = memo[rem]!.choice
            if choice < 0 {
                // No hypothesis covers this stroke: it stays alone (callers always give singletons).
                let low = rem.trailingZeroBitCount
                if let single = cands.first(where: { groups[$0] == [comp[low]] }) { out.append(single) }
                rem &= ~(1 << UInt32(low))
                continue
            }
            out.append(choice)
            for s in groups[choice] { rem &= ~(1 << UInt32(bit[s]!)) }
        }
        return out
    }

    private static func greedy(_ comp: [Int], _ cands: [Int], _ groups: [[Int]], _ scores: [Double], _ penalty: Double) -> [Int] {
        var left = Set(comp)
        var out: [Int] = []
        func key(_ k: Int) -> Double { -(scores[k] - penalty) / Double(groups[k].count) - 0.3 * Double(groups[k].count) }
        for k in cands.enumerated().sorted(by: { (key($0.element), $0.offset) < (key($1.element), $1.offset) }).map(\.element)
        where groups[k].allSatisfy(left.contains) {
            out.append(k)
            left.subtract(groups[k])
        }
        for s in left.sorted() { if let single = cands.first(where: { groups[$0] == [s] }) { out.append(single) } }
        return out
    }
}
