/// What a symbol's own pen path rules out, beyond its box: a minus is one bar, so a single stroke
/// that runs across, back and across again with its first and last runs at different heights is no
/// `-` but a `=` written without a lift (one validation writer writes every `=` so; the networks
/// read the flat zigzag as `-` by 4-7 nats, its image being a thick dash). A dash retraced on itself
/// keeps its runs at one height (composed expressions: at most 0.09 of its width apart, but for two
/// odd training samples; such `=` 0.26-0.3).
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

    /// The symbol with the candidates its pen path rules out lowered (and re-sorted).
    static func checked(_ symbol: MathSymbol, strokes: [[SIMD2<Double>]]) -> MathSymbol {
        guard strokes.count == 1, symbol.candidates.contains(where: { $0.label == "=" }),
              let k = symbol.candidates.firstIndex(where: { $0.label == "-" }),
              isZigzagEquals(strokes[0]) else { return symbol }
        var s = symbol
        s.candidates[k].score -= zigzagPenalty
        s.candidates.sort { $0.score > $1.score }
        s.label = s.candidates[0].label
        return s
    }
}
