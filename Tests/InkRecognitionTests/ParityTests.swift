import Foundation
import Testing
@testable import InkRecognition

@Suite struct ParityTests {
    /// Every kernel build this CPU can run (baseline always, AVX2 + FMA where present) matches PyTorch.
    @Test(arguments: RecognitionKernels.available)
    func networkMatchesPyTorch(kernels: RecognitionKernels) throws {
        let model = Fixtures.model
        let cases = try #require(Fixtures.parity["cases"] as? [[String: Any]])
        #expect(cases.count >= 3)
        var worst: Float = 0
        for c in cases {
            let feats = try #require(c["features"] as? [[Double]])
            let expected = try #require(c["log_probs"] as? [[Double]])
            let flat = feats.flatMap { $0.map(Float.init) }
            let lp = flat.withUnsafeBufferPointer { Network.forward(model: model, features: $0, count: feats.count, kernels: kernels) }
            #expect(model.outputLength(forInputLength: feats.count) == expected.count)
            #expect(lp.count == expected.count * model.numClasses)
            guard lp.count == expected.count * model.numClasses else { continue }
            for t in 0 ..< expected.count {
                for k in 0 ..< model.numClasses {
                    worst = max(worst, abs(lp[t * model.numClasses + k] - Float(expected[t][k])))
                }
            }
        }
        print("parity (\(kernels.rawValue) kernels): max |swift - pytorch| log-prob difference = \(worst)")
        #expect(worst < 1e-3)
    }

    @Test func preprocessingMatchesPython() throws {
        let cases = try #require(Fixtures.parity["preprocess_cases"] as? [[String: Any]])
        #expect(cases.count >= 3)
        var worst = 0.0
        for c in cases {
            let strokes = Fixtures.strokes(c["strokes"])
            let expected = try #require(c["features"] as? [[Double]])
            let sid = try #require(c["stroke_index"] as? [Int])
            let ink = try #require(Preprocessor.prepare(strokes: strokes, config: Fixtures.model.preprocess))
            #expect(ink.count == expected.count, "case \(c["id"] ?? "?")")
            #expect(ink.strokeIndex == sid)
            guard ink.count == expected.count else { continue }
            for j in 0 ..< ink.count {
                for k in 0 ..< 4 { worst = max(worst, abs(Double(ink.features[4 * j + k]) - expected[j][k])) }
            }
        }
        print("preprocess: max feature difference = \(worst)")
        #expect(worst < 1e-4)
    }

    @Test func isolatedDotStaysSmall() throws {
        // A 0.4 mm period normalised with the 4 mm floor: its y feature stays within +-0.05 units.
        let dot: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(0.3, 0.2), SIMD2(0.1, 0.4)]]
        let ink = try #require(Preprocessor.prepare(strokes: dot, config: Fixtures.model.preprocess))
        for j in 0 ..< ink.count { #expect(abs(ink.features[4 * j + 3]) <= 0.051) }
        // The same shape without a resolution is normalised by its height (to +-0.5).
        let raw = try #require(Preprocessor.prepare(strokes: dot, config: Fixtures.model.preprocess, inMillimetres: false))
        let ys = (0 ..< raw.count).map { raw.features[4 * $0 + 3] }
        #expect(abs((ys.max() ?? 0) - 0.5) < 1e-6)
    }
}
