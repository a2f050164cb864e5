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

    /// The network skips the patches of empty background; what it gives must be what every patch
    /// read gives: real glyphs, an empty image (all background) and noise (no background at all).
    @Test func skippingTheBackgroundChangesNoScore() throws {
        let net = try GlyphNetwork(contentsOf: Self.weightsURL)
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/glyph-parity.json"))
        let parity = try JSONDecoder().decode(Parity.self, from: data)
        var images = try parity.cases.map { c in try #require(net.image.render(c.strokes.map { $0.map { SIMD2($0[0], $0[1]) } })) }
        let count = net.image.channels * net.image.grid * net.image.grid
        images.append([Float](repeating: 0, count: count))
        var seed: UInt64 = 7
        images.append((0 ..< count).map { _ in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Float(seed >> 40) / Float(1 << 24) * 2
        })
        for image in images {
            let fast = net.logProbabilities(image: image), dense = Self.denseLogProbabilities(net, image)
            let worst = zip(fast, dense).map { abs($0 - $1) }.max() ?? 0
            #expect(fast.count == dense.count && worst == 0, "differs by \(worst)")
        }
    }

    /// The network read the plain way: every pixel's patch through each convolution.
    static func denseLogProbabilities(_ net: GlyphNetwork, _ pixels: [Float]) -> [Float] {
        var n = net.image.grid, depth = net.image.channels
        var x = [Float](repeating: 0, count: pixels.count)
        for c in 0 ..< depth { for p in 0 ..< n * n { x[p * depth + c] = pixels[c * n * n + p] } }
        for conv in net.convs {
            let k = depth * 9
            var patches = [Float](repeating: 0, count: n * n * k)
            for y in 0 ..< n {
                for xx in 0 ..< n {
                    for ky in 0 ..< 3 {
                        for kx in 0 ..< 3 {
                            let sy = y + ky - 1, sx = xx + kx - 1
                            guard sy >= 0, sy < n, sx >= 0, sx < n else { continue }
                            for c in 0 ..< depth { patches[(y * n + xx) * k + (ky * 3 + kx) * depth + c] = x[(sy * n + sx) * depth + c] }
                        }
                    }
                }
            }
            let stride = conv.outputStride
            var out = [Float](repeating: 0, count: n * n * stride)
            patches.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { conv.apply(p.baseAddress!, n: n * n, into: $0.baseAddress!) } }
            let m = n / 2
            x = [Float](repeating: 0, count: m * m * conv.rows)
            for py in 0 ..< m {
                for px in 0 ..< m {
                    for c in 0 ..< conv.rows {
                        let q = 2 * py * n + 2 * px
                        let v = max(max(out[q * stride + c], out[(q + 1) * stride + c]), max(out[(q + n) * stride + c], out[(q + n + 1) * stride + c]))
                        x[(py * m + px) * conv.rows + c] = max(v, 0)
                    }
                }
            }
            n = m
            depth = conv.rows
        }
        var flat = [Float](repeating: 0, count: x.count)
        for c in 0 ..< depth { for p in 0 ..< n * n { flat[c * n * n + p] = x[p * depth + c] } }
        var h = [Float](repeating: 0, count: net.fc.outputStride)
        flat.withUnsafeBufferPointer { f in h.withUnsafeMutableBufferPointer { net.fc.apply(f.baseAddress!, n: 1, into: $0.baseAddress!) } }
        h = h.map { max($0, 0) }
        var z = [Float](repeating: 0, count: net.out.outputStride)
        h.withUnsafeBufferPointer { hh in z.withUnsafeMutableBufferPointer { net.out.apply(hh.baseAddress!, n: 1, into: $0.baseAddress!) } }
        z.removeLast(z.count - net.charset.count)
        let top = z.max() ?? 0
        let lse = top + log(z.reduce(Float(0)) { $0 + exp($1 - top) })
        return z.map { $0 - lse }
    }
}
