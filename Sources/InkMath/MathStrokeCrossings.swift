/// Strokes of different symbols that cross: a pen crosses its own symbol's strokes (`+`, `t`, `4`,
/// a barred `7`), rarely a neighbour's, so a partition that cuts a crossing apart (the bar of a `4`
/// written as a fourth stroke read `-`) is suspect. `MathRecognizer.read` charges `crossingPenalty`
/// per such pair, so that a merge the partition alternatives try wins where the line reads no worse.
enum MathStrokeCrossings {
    /// How many pairs of strokes in different groups cross each other or touch end to stroke.
    static func count(groups: [[Int]], strokes: [[SIMD2<Double>]]) -> Int {
        let boxes = strokes.map { s -> (SIMD2<Double>, SIMD2<Double>) in
            (s.reduce(SIMD2(Double.infinity, .infinity)) { pointwiseMin($0, $1) },
             s.reduce(SIMD2(-Double.infinity, -.infinity)) { pointwiseMax($0, $1) })
        }
        func overlap(_ a: Int, _ b: Int) -> Bool {
            let t = touch
            return boxes[a].0.x <= boxes[b].1.x + t && boxes[b].0.x <= boxes[a].1.x + t
                && boxes[a].0.y <= boxes[b].1.y + t && boxes[b].0.y <= boxes[a].1.y + t
        }
        var n = 0
        for (i, g) in groups.enumerated() {
            for h in groups[(i + 1)...] {
                for a in g where strokes.indices.contains(a) {
                    for b in h where strokes.indices.contains(b) && overlap(a, b) && cross(strokes[a], strokes[b]) { n += 1 }
                }
            }
        }
        return n
    }

    /// For each group, how many pairs of its own strokes cross: what the partition gains for the
    /// crossings it keeps together (a crossing cut apart costs what one kept inside saves). Strokes
    /// that only touch do not count here: a script written against its base touches it (`v^{1}`
    /// read `u`).
    static func insidePairs(groups: [[Int]], strokes: [[SIMD2<Double>]]) -> [Int] {
        var memo: [SIMD2<Int>: Bool] = [:]
        return groups.map { g in
            var n = 0
            for (i, a) in g.enumerated() where strokes.indices.contains(a) {
                for b in g[(i + 1)...] where strokes.indices.contains(b) {
                    let key = SIMD2(min(a, b), max(a, b))
                    if let c = memo[key] { n += c ? 1 : 0; continue }
                    let c = cross(strokes[a], strokes[b], touching: false)
                    memo[key] = c
                    n += c ? 1 : 0
                }
            }
            return n
        }
    }

    /// How close (mm) a stroke's end must come to another stroke to touch it.
    static let touch = 0.2

    /// Whether two strokes cross, or (`touching`) one ends on the other (within `touch`).
    static func cross(_ p: [SIMD2<Double>], _ q: [SIMD2<Double>], touching: Bool = true) -> Bool {
        guard p.count > 1, q.count > 1 else { return false }
        func side(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        for i in 1 ..< p.count {
            let (a, b) = (p[i - 1], p[i])
            for j in 1 ..< q.count {
                let (c, d) = (q[j - 1], q[j])
                let (s1, s2, s3, s4) = (side(a, b, c), side(a, b, d), side(c, d, a), side(c, d, b))
                guard s1 * s2 <= 0 && s3 * s4 <= 0 else { continue }
                // Through a point of the other (a product of 0), or along it when all four are 0.
                if s1 != 0 || s2 != 0 || s3 != 0 || s4 != 0 { return true }
                if min(a.x, b.x) <= max(c.x, d.x) && min(c.x, d.x) <= max(a.x, b.x)
                    && min(a.y, b.y) <= max(c.y, d.y) && min(c.y, d.y) <= max(a.y, b.y) { return true }
            }
        }
        // Or one ends on the other: the bar of a `4` that starts at its stem.
        guard touching else { return false }
        let eps = touch
        func near(_ e: SIMD2<Double>, _ line: [SIMD2<Double>]) -> Bool {
            for j in 1 ..< line.count {
                let (c, d) = (line[j - 1], line[j])
                let v = d - c, w = e - c
                let t = max(0, min(1, (v.x * w.x + v.y * w.y) / max(v.x * v.x + v.y * v.y, 1e-12)))
                let r = w - v * t
                if r.x * r.x + r.y * r.y < eps * eps { return true }
            }
            return false
        }
        return near(p[0], q) || near(p[p.count - 1], q) || near(q[0], p) || near(q[q.count - 1], p)
    }
}
