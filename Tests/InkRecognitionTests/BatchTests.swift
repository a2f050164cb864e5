import Foundation
import Testing
@testable import InkRecognition

/// The batched network pass (several lines at once) and the decoder's pruning.
@Suite struct BatchTests {
    /// Deterministic pseudo-random features (dx, dy, pen-up, y) of `count` points.
    static func features(count: Int, seed: UInt64) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Float {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(state % 10_000) / 10_000
        }
        return (0 ..< count).flatMap { _ in [next() - 0.5, next() - 0.5, next() < 0.05 ? 1 : 0, next() - 0.5] }
    }

    @Test(arguments: RecognitionKernels.available)
    func batchEqualsOneAtATime(kernels: RecognitionKernels) {
        let model = Fixtures.model
        // Lengths that differ (odd and even, shorter and longer than a group of the recurrent kernel),
        // not sorted, with a one-point line: the batch reorders them and must give each its own output.
        let counts = [37, 250, 1, 120, 121, 250, 64, 9, 300, 18]
        let inputs = counts.enumerated().map { Self.features(count: $1, seed: UInt64($0 + 1)) }
        let alone = zip(inputs, counts).map { f, n in
            f.withUnsafeBufferPointer { Network.forward(model: model, features: $0, count: n, kernels: kernels) }
        }
        // Nested closures borrow every buffer at once.
        func together(_ k: Int, _ buffers: [(features: UnsafeBufferPointer<Float>, count: Int)]) -> [[Float]] {
            if k == inputs.count { return Network.forward(model: model, batch: buffers, kernels: kernels) }
            return inputs[k].withUnsafeBufferPointer { together(k + 1, buffers + [($0, counts[k])]) }
        }
        let batched = together(0, [])
        #expect(batched.count == counts.count)
        var worst: Float = 0
        for i in counts.indices {
            #expect(batched[i].count == model.outputLength(forInputLength: counts[i]) * model.numClasses)
            guard batched[i].count == alone[i].count else { continue }
            for j in alone[i].indices { worst = max(worst, abs(batched[i][j] - alone[i][j])) }
        }
        #expect(worst <= 1e-5, "max |batched - alone| = \(worst)")
    }

    @Test func modelBatchKeepsOrderAndSkipsEmptyInput() {
        let model = Fixtures.model
        // More lines than one pass takes, an empty one, and one with too few features.
        var batch: [(features: [Float], count: Int)] = (0 ..< RecognitionModel.maxBatch + 3).map {
            let n = 20 + 13 * $0
            return (Self.features(count: n, seed: UInt64(100 + $0)), n)
        }
        batch.insert(([], 0), at: 2)
        batch.append(([1, 2, 3], 5))
        let out = model.logProbabilities(batch: batch)
        #expect(out.count == batch.count)
        #expect(out[2].isEmpty)
        #expect(out[batch.count - 1].isEmpty)
        for (i, b) in batch.enumerated() where i != 2 && i != batch.count - 1 {
            #expect(out[i] == model.logProbabilities(features: b.features, count: b.count))
        }
        #expect(model.logProbabilities(batch: []).isEmpty)
        #expect(Network.forward(model: model, batch: []).isEmpty)
    }

    @Test func recognizerLinesMatchOneByOne() {
        let recognizer = TextRecognizer(model: Fixtures.model)
        let line: [[SIMD2<Double>]] = [(0 ..< 40).map { SIMD2(Double($0) * 0.5, 3 * sin(Double($0) / 3)) }]
        let short: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 1)]]
        let bad: [[SIMD2<Double>]] = [[SIMD2(.nan, .nan)]]
        let out = recognizer.logProbabilities(lines: [line, bad, short, []])
        #expect(out.count == 4)
        #expect(out[1] == nil && out[3] == nil)
        #expect(out[0]?.0.values == recognizer.logProbabilities(strokes: line)?.0.values)
        #expect(out[2]?.0.values == recognizer.logProbabilities(strokes: short)?.0.values)
        #expect(recognizer.logProbabilities(lines: []).isEmpty)
    }

    @Test func boundPruningKeepsTheBeamsOfRealOutput() {
        // Without a language model the bound holds exactly: the pruned search returns the reference's
        // paths and scores on network output of real ink (the parity cases).
        let model = Fixtures.model
        let cases = (Fixtures.parity["cases"] as? [[String: Any]]) ?? []
        #expect(!cases.isEmpty)
        for c in cases {
            guard let feats = c["features"] as? [[Double]] else { continue }
            let lp = model.logProbabilities(features: feats.flatMap { $0.map(Float.init) }, count: feats.count)
            let m = LogProbMatrix(values: lp, frames: lp.count / model.numClasses, classes: model.numClasses)
            for width in [2, 8, 16] {
                let pruned = CTCDecoder.beamSearch(m, beamWidth: width, nBest: 5, allowed: nil, constraint: nil)
                let full = CTCDecoder.beamSearch(m, beamWidth: width, nBest: 5, allowed: nil, constraint: nil, boundPruning: false)
                #expect(pruned.map(\.classes) == full.map(\.classes))
                #expect(pruned.map(\.frames) == full.map(\.frames))
                let gap = zip(pruned, full).map { abs($0.score - $1.score) }.max() ?? 0
                #expect(gap < 1e-9, "width \(width): score gap \(gap), \(pruned.map(\.score)) vs \(full.map(\.score))")
            }
        }
    }
}
