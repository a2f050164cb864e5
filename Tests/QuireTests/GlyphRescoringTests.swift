import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// The glyph network's second look at the partition (`MathRecognizer.glyphRescored`): a chosen group
/// it takes for "not one symbol" is split into the hypotheses inside it, on real ink that the
/// sequence network alone merged (Fixtures/README.md, `math-glyph-split.jsonl`).
@Suite struct GlyphRescoringTests {
    static let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-glyph-split.jsonl")

    static func recognizers() throws -> (on: MathRecognizer, off: MathRecognizer, unsure: MathRecognizer)? {
        guard let (model, found) = try MathFixture.weights(), let glyph = found else { return nil }
        // The later steps that may also mend a merge are off, and so is the screen that keeps the
        // merged group from the partition in the first place (`MathHypothesisScreen.swift`), so
        // this one is seen alone.
        return (try MathRecognizer(model: model, glyphNetwork: glyph, localAlternatives: false, glyphScreen: false),
                try MathRecognizer(model: model, glyphNetwork: glyph, glyphRepartition: false, localAlternatives: false, glyphScreen: false),
                try MathRecognizer(model: model, glyphNetwork: glyph, glyphSplitDoubt: 1, localAlternatives: false, glyphScreen: false))
    }

    @Test func aMergedDecimalPointOrMinusIsTakenApart() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math or glyph weights"); return }
        let samples = try MathSample.read(path: Self.url.path)
        #expect(samples.map(\.latex) == ["\\frac{2.9+1}{5.0}-47=82", "t^{-9}\\cdot a_{b}"])
        for s in samples {
            let on = MathEvaluation.run(s, recognizer: r.on), off = MathEvaluation.run(s, recognizer: r.off)
            #expect(on.latex == s.latex)
            // The sequence network alone merges a point or a minus into the symbol beside it.
            #expect(off.latex != s.latex)
            #expect(on.symbolsRight > off.symbolsRight)
            // Never sure enough: the chosen groups stay as the sequence network chose them.
            #expect(MathEvaluation.run(s, recognizer: r.unsure).latex == off.latex)
        }
    }

    @Test func everyStrokeStaysInExactlyOneSymbol() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math or glyph weights"); return }
        for s in try MathSample.read(path: Self.url.path) {
            let e = r.on.recognize(strokes: s.strokes).expressions
            #expect(e.flatMap { $0.symbols.flatMap(\.strokeIndices) }.sorted() == Array(s.strokes.indices))
        }
    }
}
