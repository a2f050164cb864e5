/// What a symbol's own pen path rules out, beyond its box: a minus is one bar, so a single stroke
/// that runs across, back and across again with its first and last runs at different heights is no
/// `-` but a `=` written without a lift (one validation writer writes every `=` so; the networks
/// read the flat zigzag as `-` by 4-7 nats, its image being a thick dash). A dash retraced on itself
/// keeps its runs at one height (composed expressions: at most 0.09 of its width apart, but for two
/// odd training samples; such `=` 0.26-0.3). And a stem with a dot wholly below it is a `!`, never a
/// `1` or `l` (two validation writers' slanted `!` read `1` by 3 nats).
enum MathStrokeShape {
    /// Where the pen turns back horizontally (point indices: the ends of the runs), counting only
    /// runs of at least `share` of the stroke's width (the hook at a bar's end is no turn).
    static func horizontalRuns(_ stroke: [SIMD2<Double>], share: Double = 0.4) -> [Range<Int>] {
        guard let lo = stroke.map(\.x).min(), let hi = stroke.map(\.x).max(), hi > lo else { return [stroke.indices] }
        let run = share * (hi - lo)
        var ends: [Int] = []
        var direction = 0.0
        var anchor = (x: stroke[0].x, i: 0)
        for (i, p) in stroke.enumerated().dropFirst() {
            let d = p.x - anchor.x
            if direction == 0 {
                if abs(d) >= run { direction = d > 0 ? 1 : -1; anchor = (p.x, i) }
            } else if d * direction > 0 {
                anchor = (p.x, i)
            } else if abs(d) >= run {
                ends.append(anchor.i)
                direction = -direction
                anchor = (p.x, i)
            }
        }
        let bounds = [0] + ends + [stroke.count - 1]
        return zip(bounds.dropLast(), bounds.dropFirst()).map { $0 ..< $1 + 1 }
    }

    /// Whether one stroke is a `=` drawn as a zigzag: three runs, the first and last at least
    /// `separation` of its width apart in height.
    static func isZigzagEquals(_ stroke: [SIMD2<Double>], separation: Double = 0.18) -> Bool {
        let runs = horizontalRuns(stroke)
        guard runs.count == 3, let lo = stroke.map(\.x).min(), let hi = stroke.map(\.x).max() else { return false }
        func height(_ r: Range<Int>) -> Double {
            let ys = stroke[r].map(\.y).sorted()
            return ys[ys.count / 2]
        }
        return abs(height(runs[2]) - height(runs[0])) >= separation * (hi - lo)
    }

    /// Nats a `-` loses when its group is a zigzag `=` (and `=` is among its candidates).
    static let zigzagPenalty = 8.0

    /// Whether two strokes are a stem and a dot wholly below it, over its foot: the dot's extent at
    /// most `dotShare` of the stem's height, its top below the stem's lowest point.
    static func isDotBelowStem(_ strokes: [[SIMD2<Double>]], dotShare: Double = 0.4) -> Bool {
        guard strokes.count == 2 else { return false }
        let b = MathSegmenter.boxes(strokes)
        let (stem, dot) = b[0][3] - b[0][1] >= b[1][3] - b[1][1] ? (b[0], b[1]) : (b[1], b[0])
        let h = stem[3] - stem[1]
        guard h > 0, h > stem[2] - stem[0], max(dot[2] - dot[0], dot[3] - dot[1]) <= dotShare * h, dot[1] > stem[3] else { return false }
        let cx = (dot[0] + dot[2]) / 2
        return cx > stem[0] - 0.25 * h && cx < stem[2] + 0.25 * h && dot[1] - stem[3] < 0.5 * h
    }

    /// Classes a stem with a dot below cannot be: no `1` or `l` carries a dot under its foot.
    static let stemClasses: Set<String> = ["1", "l", "I", "|", "/", "i"]
    /// Nats those classes lose when their group is a stem with a dot below (and `!` is a candidate).
    static let dotBelowPenalty = 8.0

    /// The symbol with the candidates its pen path rules out lowered (and re-sorted).
    static func checked(_ symbol: MathSymbol, strokes: [[SIMD2<Double>]]) -> MathSymbol {
        var s = symbol
        var changed = false
        if strokes.count == 1, s.candidates.contains(where: { $0.label == "=" }),
           let k = s.candidates.firstIndex(where: { $0.label == "-" }), isZigzagEquals(strokes[0]) {
            s.candidates[k].score -= zigzagPenalty
            changed = true
        }
        if s.candidates.contains(where: { $0.label == "!" }), isDotBelowStem(strokes) {
            for k in s.candidates.indices where stemClasses.contains(s.candidates[k].label) {
                s.candidates[k].score -= dotBelowPenalty
                changed = true
            }
        }
        guard changed else { return symbol }
        s.candidates.sort { $0.score > $1.score }
        s.label = s.candidates[0].label
        return s
    }
}
