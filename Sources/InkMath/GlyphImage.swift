import Foundation

/// A stroke group drawn into a small grid of feature channels: what `GlyphNetwork` reads. The twin
/// of tools/recognition/math/glyph_image.py (same arithmetic in double precision; `GlyphNetworkTests`
/// compares them).
///
/// Channels: 0 ink; 1-4 its orientation (undirected: 0, 45, 90, 135 degrees, each segment shared
/// linearly between its two nearest); 5 stroke ends. The group's box is centred and its longer side
/// spans `fit` pixels, less when it is under `floorMM` (a dot stays a dot). Order and direction of
/// the strokes do not matter: that is what makes this reader differ from the sequence network.
public struct GlyphImage: Sendable, Equatable {
    public var grid = 32
    public var fit = 28.0
    public var floorMM = 4.0
    public var step = 0.5
    public var channels = 6
    /// Values are capped here (crossings add up).
    public var maxValue = 2.0

    public init() {}

    /// The image, channel-major (`channels` x `grid` x `grid`, rows top to bottom); nil when the
    /// group has no point.
    public func render(_ strokes: [[SIMD2<Double>]]) -> [Float]? {
        let all = strokes.joined()
        guard let first = all.first else { return nil }
        var lo = first, hi = first
        for p in all { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let scale = fit / max(hi.x - lo.x, hi.y - lo.y, floorMM)
        let centre = (lo + hi) / 2
        let half = Double(grid) / 2
        var img = [Double](repeating: 0, count: channels * grid * grid)
        img.withUnsafeMutableBufferPointer { buf in
            func splat(_ c: Int, _ u: Double, _ v: Double, _ w: Double) {
                let uu = u - 0.5, vv = v - 0.5
                let fi = uu.rounded(.down), fj = vv.rounded(.down)
                guard fi > -2, fj > -2, fi < Double(grid), fj < Double(grid) else { return }
                let i0 = Int(fi), j0 = Int(fj)
                let fu = uu - fi, fv = vv - fj
                func add(_ i: Int, _ j: Int, _ weight: Double) {
                    if i >= 0, i < grid, j >= 0, j < grid { buf[(c * grid + j) * grid + i] += weight }
                }
                add(i0, j0, w * (1 - fu) * (1 - fv))
                add(i0, j0 + 1, w * (1 - fu) * fv)
                add(i0 + 1, j0, w * fu * (1 - fv))
                add(i0 + 1, j0 + 1, w * fu * fv)
            }
            for s in strokes where !s.isEmpty {
                let u = s.map { ($0.x - centre.x) * scale + half }
                let v = s.map { ($0.y - centre.y) * scale + half }
                splat(5, u[0], v[0], 1)
                splat(5, u[u.count - 1], v[v.count - 1], 1)
                if s.count == 1 {
                    splat(0, u[0], v[0], 1)
                    continue
                }
                for k in 0 ..< s.count - 1 {
                    let du = u[k + 1] - u[k], dv = v[k + 1] - v[k]
                    let length = (du * du + dv * dv).squareRoot()
                    guard length > 0 else { continue }
                    let n = max(1, Int((length / step).rounded(.up)))
                    let w = length / Double(n)
                    var angle = atan2(dv, du).truncatingRemainder(dividingBy: .pi)
                    if angle < 0 { angle += .pi }
                    let pos = angle / (.pi / 4)
                    let b0 = Int(pos.rounded(.down)) % 4, f = pos - pos.rounded(.down)
                    let b1 = (b0 + 1) % 4
                    for t in 0 ..< n {
                        let a = (Double(t) + 0.5) / Double(n)
                        let uu = u[k] + a * du, vv = v[k] + a * dv
                        splat(0, uu, vv, w)
                        splat(1 + b0, uu, vv, w * (1 - f))
                        splat(1 + b1, uu, vv, w * f)
                    }
                }
            }
        }
        return img.map { Float(min($0, maxValue)) }
    }
}
