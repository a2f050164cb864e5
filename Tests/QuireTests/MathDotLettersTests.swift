import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// An `i` whose dot the partition read apart (`MathDotLetters.swift`): the stem and the dot are
/// read together and kept where the whole line reads better.
@Suite struct MathDotLettersTests {
    static let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-dot-letters.jsonl")

    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> SIMD4<Double> { SIMD4(x0, y0, x1, y1) }

    @Test func aDashedDotOffItsStemPairsButADecimalPointOrCentredDotDoesNot() {
        // Digits 3 mm high (the reference size). An `i`: a 1.4 mm stem, a 0.8 mm dash 0.6 mm to its
        // right and above it (two validation writers' `i` in `\sin`).
        let stem = Self.box(3, 2.2, 3.6, 3.6)
        #expect(MathSegmenter.dotLetterPair(Self.box(4.2, 0.3, 4.5, 1.1), stem, 3))
        #expect(!MathSegmenter.dotAbove(Self.box(4.2, 0.3, 4.5, 1.1), stem, 3), "the partition's own rule does not join it")
        // A `1` 3 mm high with a decimal point at its foot, or a centred dot beside its middle.
        let one = Self.box(0, 0, 0.5, 3)
        #expect(!MathSegmenter.dotLetterPair(Self.box(0.9, 2.8, 1.1, 3.0), one, 3))
        #expect(!MathSegmenter.dotLetterPair(Self.box(0.9, 1.6, 1.1, 1.8), one, 3))
        // A flat stroke is no stem; a dash far above is no dot.
        #expect(!MathSegmenter.dotLetterPair(Self.box(4.2, 0.3, 4.5, 1.1), Self.box(3, 3, 5, 3.3), 3))
        #expect(!MathSegmenter.dotLetterPair(Self.box(3.1, -3, 3.4, -2.2), stem, 3))
    }

    static func recognizers() throws -> (on: MathRecognizer, off: MathRecognizer)? {
        guard let (model, glyph) = try MathFixture.weights() else { return nil }
        return (try MathRecognizer(model: model, glyphNetwork: glyph, localAlternatives: false),
                try MathRecognizer(model: model, glyphNetwork: glyph, dotLetters: false, localAlternatives: false))
    }

    /// Composed ink of training writers (Fixtures/README.md) whose `i` the partition split.
    @Test func anIWhoseDotThePartitionLeftApartIsReadWhole() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        let samples = try MathSample.read(path: Self.url.path)
        #expect(samples.map(\.latex) == ["2y/2x\\neq\\sin(0)", "29+i+\\frac{n+n}{t+8}="])
        for s in samples {
            let on = r.on.recognize(strokes: s.strokes).expressions
            #expect(on.map(\.latex) == [s.latex])
            #expect(r.off.recognize(strokes: s.strokes).expressions.map(\.latex) != [s.latex])
            // The `i` is one symbol of the two strokes the truth gives it; every stroke is read once.
            let truthI = s.symbols.first { $0.label == "i" }.map { $0.strokes.sorted() }
            #expect(on.first?.symbols.contains { $0.label == "i" && $0.strokeIndices.sorted() == truthI } == true)
            #expect(on.flatMap { $0.symbols.flatMap(\.strokeIndices) }.sorted() == Array(s.strokes.indices))
        }
    }
}
