import Foundation
import InkModel

/// Deterministic, handwriting-like strokes for benchmarks and stress tests (not for the product's content).
public enum Synthetic {
    /// A smooth random stroke of `points` samples near a seeded position, ~0.3 mm spacing, 5 ms apart.
    public static func stroke(id: String, seq: Int64, points: Int, seed: UInt64, tool: String = "pen") -> InkStroke {
        var rng = SplitMix(seed: seed &* 0x9E37_79B9 &+ 17)
        let x0 = rng.unit() * 180 + 10, y0 = rng.unit() * 260 + 10
        var angle = rng.unit() * 2 * .pi, x = x0, y = y0, f = 0.3 + 0.4 * rng.unit()
        var samples: [InkSample] = []
        samples.reserveCapacity(points)
        let t0: Int64 = 1_700_000_000_000 + Int64(seed % 1_000_000) * 1000
        for i in 0..<points {
            angle += (rng.unit() - 0.5) * 0.6
            x += cos(angle) * 0.3; y += sin(angle) * 0.3
            f = min(1, max(0.05, f + (rng.unit() - 0.5) * 0.04))
            samples.append(InkSample(x: x, y: y, t: t0 + Int64(i * 5), f: f))
        }
        return InkStroke(id: id, pointerType: .pen, pointerId: 1, tool: tool, seq: seq, samples: samples)
    }
}

/// A small, fast, seedable generator (SplitMix64) so synthetic data is reproducible.
public struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
