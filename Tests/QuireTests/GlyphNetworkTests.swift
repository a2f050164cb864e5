import Foundation
import InkRecognition
import Testing
@testable import InkMath
import QuireTestSupport

/// The glyph image network: its image and log-probabilities equal the Python reference's
/// (tools/recognition/math/export_glyph.py --parity), the image ignores writing order, and bad
/// weight files are refused clearly.
@Suite struct GlyphNetworkTests {
    static let weightsURL = repositoryRoot.appendingPathComponent("Resources/recognition/\(GlyphNetwork.defaultFileName)")

    struct Parity: Decodable {
        struct Case: Decodable {
            let strokes: [[[Double]]]
            let image: [[Double]]
            let log_probs: [Double]
        }
        let step: Int
        let cases: [Case]
    }

    @Test func imageAndScoresMatchPython() throws {
        let net = try GlyphNetwork(contentsOf: Self.weightsURL)
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/glyph-parity.json"))
        let parity = try JSONDecoder().decode(Parity.self, from: data)
        #expect(parity.step == net.trainingStep, "the fixture was written from the shipped weights")
        #expect(parity.cases.count == 6)
        for c in parity.cases {
            let strokes = c.strokes.map { $0.map { SIMD2($0[0], $0[1]) } }
            let image = try #require(net.image.render(strokes))
            var want = [Float](repeating: 0, count: image.count)
            for e in c.image { want[Int(e[0])] = Float(e[1]) }
            let worst = zip(image, want).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-4, "image differs from Python's by \(worst)")
            let lp = net.logProbabilities(image: image)
            #expect(lp.count == net.charset.count)
            let diff = zip(lp, c.log_probs).map { abs(Double($0) - $1) }.max() ?? 0
            #expect(diff < 2e-3, "log-probabilities differ from Python's by \(diff)")
        }
    }

    @Test func theImageIgnoresWritingOrderAndDirection() throws {
        let image = GlyphImage()
        let four: [[SIMD2<Double>]] = [[SIMD2(1, 0), SIMD2(0, 3), SIMD2(2.5, 3)], [SIMD2(2, 1), SIMD2(2, 5)]]
        let a = try #require(image.render(four))
        let b = try #require(image.render(four.reversed().map { Array($0.reversed()) }))
        #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-6 })
        // A dot stays a dot: under the size floor it covers at most the four pixels of one splat.
        let dot = try #require(image.render([[SIMD2(10, 10)]]))
        #expect(dot[0 ..< 1024].filter { $0 > 0 }.count <= 4)
        #expect(image.render([]) == nil && image.render([[]]) == nil)
        // Ink far outside the grid (a huge stroke beside a tiny one) is clipped, never a trap.
        #expect(image.render([[SIMD2(0, 0), SIMD2(1e8, 1)], [SIMD2(-1e8, 0)]]) != nil)
    }

    @Test func badWeightFilesAreRefusedClearly() throws {
        let good = try Data(contentsOf: Self.weightsURL)
        #expect(throws: RecognitionModelError.self) { try GlyphNetwork(data: good.prefix(good.count / 2)) }
        #expect(throws: RecognitionModelError.badMagic) { try GlyphNetwork(data: Data("not weights at all".utf8)) }
        // The math sequence network's file is a valid container but not a glyph network.
        let math = try Data(contentsOf: repositoryRoot.appendingPathComponent("Resources/recognition/quire-math.bin"))
        #expect(throws: RecognitionModelError.self) { try GlyphNetwork(data: math) }
        #expect(throws: RecognitionModelError.self) { try GlyphNetwork(contentsOf: URL(fileURLWithPath: "/nonexistent/quire-glyph.bin")) }
    }

    /// The recognizer adds the glyph network's scores: with weight 0 it reads as without it, and a
    /// network of another alphabet is refused.
    @Test func theRecognizerCombinesOnlyCompatibleNetworks() throws {
        let mathURL = repositoryRoot.appendingPathComponent("Resources/recognition/quire-math.bin")
        let model = try RecognitionModel(contentsOf: mathURL)
        let glyph = try GlyphNetwork(contentsOf: Self.weightsURL)
        let with = try MathRecognizer(model: model, glyphNetwork: glyph)
        let off = try MathRecognizer(model: model, glyphNetwork: glyph, glyphWeight: 0)
        let without = try MathRecognizer(model: model)
        let strokes: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(0.3, 6)], [SIMD2(2, 3), SIMD2(6, 3)], [SIMD2(4, 1), SIMD2(4, 5)],
                                          [SIMD2(8, 0), SIMD2(11, 0), SIMD2(8.5, 6)]]
        let a = try #require(without.recognizeLine(strokes: strokes)), b = try #require(off.recognizeLine(strokes: strokes))
        #expect(a.latex == b.latex && a.symbols.map(\.candidates) == b.symbols.map(\.candidates))
        let c = try #require(with.recognizeLine(strokes: strokes))
        #expect(c.symbols.map(\.candidates) != a.symbols.map(\.candidates), "the glyph network's scores count")
        // The doubt term touches groups of several strokes only.
        let doubting = try MathRecognizer(model: model, glyphNetwork: glyph, glyphJunkWeight: 1)
        let plain = without.hypothesisScores(strokes: strokes), doubted = doubting.hypothesisScores(strokes: strokes)
        #expect(plain.map(\.strokeIndices) == doubted.map(\.strokeIndices))
        for (p, d) in zip(plain, doubted) {
            if p.strokeIndices.count == 1 { #expect(p.score == d.score) } else { #expect(d.score <= p.score) }
        }
        #expect(zip(plain, doubted).contains { $0.strokeIndices.count > 1 && $1.score < $0.score })
        let text = try RecognitionModel(contentsOf: repositoryRoot.appendingPathComponent("Resources/recognition/quire-rec.bin"))
        #expect(!glyph.isCompatible(with: text) && glyph.isCompatible(with: model))
        // Loading beside the math weights picks the glyph network up.
        #expect(MathRecognizer.glyphModelURL(beside: mathURL) == Self.weightsURL)
    }
}
