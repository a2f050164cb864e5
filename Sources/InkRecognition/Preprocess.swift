import Foundation

/// Ink turned into network features (mirror of tools/recognition/data.py: normalize, resample, features).
public struct PreprocessedInk: Sendable {
    /// Row-major (count x 4): dx, dy, pen_up, y.
    public var features: [Float]
    public var count: Int
    /// Index (into the caller's stroke array) of the stroke each resampled point belongs to.
    public var strokeIndex: [Int]
    /// Resampled point positions in the caller's units (millimetres).
    public var points: [SIMD2<Double>]
}

public enum Preprocessor {
    /// Normalises, resamples and featurises strokes. `inMillimetres == false` normalises by height only
    /// (for ink whose resolution is unknown). Non-finite points and empty strokes are dropped. Returns nil
    /// when no point is left or the resampled ink exceeds `config.maxPoints`.
    public static func prepare(strokes: [[SIMD2<Double>]], config: PreprocessConfig,
                               inMillimetres: Bool = true) -> PreprocessedInk? {
        var clean: [(index: Int, points: [SIMD2<Double>])] = []
        var minP = SIMD2<Double>(repeating: .infinity), maxP = SIMD2<Double>(repeating: -.infinity)
        var rawCount = 0
        for (i, s) in strokes.enumerated() {
            let pts = s.filter { $0.x.isFinite && $0.y.isFinite && abs($0.x) < 1e12 && abs($0.y) < 1e12 }
            if pts.isEmpty { continue }
            for p in pts {
                minP = pointwiseMin(minP, p)
                maxP = pointwiseMax(maxP, p)
            }
            rawCount += pts.count
            clean.append((i, pts))
        }
        if clean.isEmpty { return nil }
        let h = maxP.y - minP.y, w = maxP.x - minP.x
        let u: Double
        if inMillimetres {
            u = max(h, config.minHeightMM)
        } else {
            u = h > 0 ? h : (w > 0 ? w : 1)
        }
        guard u > 0, u.isFinite else { return nil }
        let off = SIMD2<Double>(minP.x, (minP.y + maxP.y) / 2)
        // Bound the work: total arc length / spacing is the number of resampled points.
        var total = 0.0
        for (_, pts) in clean {
            for j in 1 ..< max(1, pts.count) { total += length(pts[j] - pts[j - 1]) / u }
        }
        let estimate = total / config.spacing + Double(2 * clean.count)
        if !(estimate.isFinite) || estimate > Double(config.maxPoints) * 1.2 + 16 { return nil }

        var norm: [SIMD2<Double>] = []
        var strokeIndex: [Int] = []
        var penUp: [Bool] = []
        var scratch: [SIMD2<Double>] = []
        var cum: [Double] = []
        for (index, pts) in clean {
            scratch.removeAll(keepingCapacity: true)
            for p in pts { scratch.append((p - off) / u) }
            let start = norm.count
            resample(scratch, spacing: config.spacing, cum: &cum, into: &norm)
            if norm.count > config.maxPoints { return nil }
            for j in start ..< norm.count {
                strokeIndex.append(index)
                penUp.append(j == start)
            }
        }
        let n = norm.count
        var feats = [Float](repeating: 0, count: n * 4)
        let clip = config.clip
        for j in 0 ..< n {
            if j > 0 {
                let d = norm[j] - norm[j - 1]
                feats[4 * j] = Float(min(max(d.x, -clip), clip))
                feats[4 * j + 1] = Float(min(max(d.y, -clip), clip))
            }
            feats[4 * j + 2] = penUp[j] ? 1 : 0
            feats[4 * j + 3] = Float(min(max(norm[j].y, -clip), clip))
        }
        let mm = norm.map { $0 * u + off }
        return PreprocessedInk(features: feats, count: n, strokeIndex: strokeIndex, points: mm)
    }

    /// Arc-length resampling of one stroke: k = max(1, round(L / spacing)) equal steps, both ends kept.
    static func resample(_ s: [SIMD2<Double>], spacing: Double, cum: inout [Double], into out: inout [SIMD2<Double>]) {
        if s.count == 1 {
            out.append(s[0])
            return
        }
        cum.removeAll(keepingCapacity: true)
        cum.append(0)
        var total = 0.0
        for j in 1 ..< s.count {
            total += length(s[j] - s[j - 1])
            cum.append(total)
        }
        if !(total > 0) {
            out.append(s[0])
            return
        }
        let k = max(1, Int((total / spacing + 0.5).rounded(.down)))
        let step = total / Double(k)
        var seg = 0
        for i in 0 ... k {
            let target = i == k ? total : Double(i) * step
            // np.interp: find the segment with cum[seg] <= target <= cum[seg+1] (rightmost for ties)
            while seg + 1 < s.count - 1 && cum[seg + 1] <= target { seg += 1 }
            let a = cum[seg], b = cum[seg + 1]
            if target >= cum[s.count - 1] {
                out.append(s[s.count - 1])
            } else if b > a {
                let f = (target - a) / (b - a)
                out.append(s[seg] + (s[seg + 1] - s[seg]) * f)
            } else {
                out.append(s[seg + 1])
            }
        }
    }

    @inline(__always)
    static func length(_ v: SIMD2<Double>) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
}
