import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// Symbols whose parts stand further apart than the partition's hypotheses reach
/// (`MathLoosePairs.swift`): their unions join the partition alternatives.
@Suite struct MathLoosePairsTests {
    static let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-loose-pairs.jsonl")

    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> SIMD4<Double> { SIMD4(x0, y0, x1, y1) }

    @Test func partsAFewMillimetresApartPairButNeighboursDoNot() {
        // Reference size 3 mm. An `!`: a 2 mm stem and its dot 1.6 mm below, beside its foot.
        let stem = Self.box(10, 0, 10.4, 2)
        #expect(MathSegmenter.loosePair(stem, Self.box(9.8, 3.6, 10.1, 3.9), 3))
        #expect(!MathSegmenter.neighbours([stem, Self.box(9.8, 3.6, 10.1, 3.9)]).contains { !$0.isEmpty },
                "the partition's own graph keeps them apart")
        // A `4` whose stem stands 0.8 mm right of its open corner.
        #expect(MathSegmenter.loosePair(Self.box(0, 0.5, 2.5, 3.5), Self.box(3.3, 0, 3.6, 5), 3))
        // The next digit 1.5 mm on, and a digit two lines down, are not one symbol.
        #expect(!MathSegmenter.loosePair(Self.box(0, 0, 2, 3), Self.box(3.5, 0, 5.5, 3), 3))
        #expect(!MathSegmenter.loosePair(Self.box(0, 0, 2, 3), Self.box(0, 7, 2, 10), 3))
    }

    static func recognizers() throws -> (on: MathRecognizer, off: MathRecognizer)? {
        guard let (model, glyph) = try MathFixture.weights() else { return nil }
        return (try MathRecognizer(model: model, glyphNetwork: glyph),
                try MathRecognizer(model: model, glyphNetwork: glyph, loosePairs: false))
    }

    /// Composed ink of training writers (Fixtures/README.md): an `!`, a `4`, an `=` and a `%`
    /// whose parts had no hypothesis together (`54-8.1`, `l_{1-8y}=`, `z-=`, `(n/99.1`).
    @Test func aSymbolWrittenInPartsFarApartIsReadWhole() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        let samples = try MathSample.read(path: Self.url.path).prefix(4)
        #expect(samples.map(\.latex) == ["54-8!", "4-8y=", "z=", "(n/9\\%)"])
        for (s, label) in zip(samples, ["!", "4", "=", "%"]) {
            let on = r.on.recognize(strokes: s.strokes).expressions
            #expect(on.map(\.latex) == [s.latex])
            #expect(r.off.recognize(strokes: s.strokes).expressions.map(\.latex) != [s.latex])
            // The symbol is one of the strokes the truth gives it; every stroke is read once.
            let truth = s.symbols.first { $0.label == label }.map { $0.strokes.sorted() }
            #expect(on.first?.symbols.contains { $0.label == label && $0.strokeIndices.sorted() == truth } == true)
            #expect(on.flatMap { $0.symbols.flatMap(\.strokeIndices) }.sorted() == Array(s.strokes.indices))
        }
    }

    /// A union that reads as one of its own parts is not offered: a pendigits writer's `5` would
    /// swallow the minus before it (`\alpha^{5.7}`).
    @Test func aSymbolDoesNotSwallowItsNeighbour() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        let s = try #require(MathSample.read(path: Self.url.path).last)
        #expect(s.latex == "\\alpha^{-5.7}")
        #expect(r.on.recognize(strokes: s.strokes).expressions.map(\.latex) == [s.latex])
    }

    /// The glyph network screens the loose pairs before the sequence network reads them: a pair it
    /// is sure spans two symbols (the next digit, a neighbour over the line) is never appended,
    /// while the `!`, `4`, `=` and `%` written apart still are.
    @Test func pairsTheGlyphNetworkCallsTwoSymbolsAreNotRead() throws {
        guard let r = try Self.recognizers()?.on else { Issue.record("no math weights"); return }
        let junk = try #require(r.glyphNetwork?.charset.firstIndex(of: MathSymbols.junk))
        var screened = 0
        for (s, label) in zip(try MathSample.read(path: Self.url.path).prefix(4), ["!", "4", "=", "%"]) {
            var scored = r.scoreHypotheses(s.strokes)
            let first = MathSegmenter.bestPartition(strokeCount: s.strokes.count, groups: scored.groups,
                                                    scores: scored.best.map(\.score), penalty: r.groupPenalty)
            let chosen = r.glyphRescored(&scored, chosen: first, strokes: s.strokes)
            let before = scored.groups.count, read = Set(scored.glyph.keys)
            r.looseUnions(&scored, chosen: chosen, strokes: s.strokes)
            let appended = scored.groups[before...]
            for g in appended {
                let lp = try #require(scored.glyph[g] ?? nil)
                #expect(Double(lp[junk]) < MathRecognizer.loosePairDoubt, "\(s.latex): \(g) appended though the glyph network doubts it")
            }
            let doubted = scored.glyph.filter { !read.contains($0.key) && ($0.value.map { Double($0[junk]) >= MathRecognizer.loosePairDoubt } ?? false) }
            screened += doubted.count
            let truth = try #require(s.symbols.first { $0.label == label }).strokes.sorted()
            #expect(appended.contains(truth), "\(s.latex): the \(label) written apart is no longer offered")
        }
        #expect(screened > 0, "no pair was screened: the samples no longer test the screen")
    }

    /// The glyph network reads each group once per line: a reading already made is what the
    /// scores gain, not a new one.
    @Test func theGlyphNetworkReadsAGroupOncePerLine() throws {
        guard let r = try Self.recognizers()?.on else { Issue.record("no math weights"); return }
        let s = try #require(MathSample.read(path: Self.url.path).first)
        var scored = r.scoreHypotheses(s.strokes)
        let k = try #require(scored.groups.indices.first { scored.scores[$0] != nil })
        let seq = try #require(scored.scores[k])
        let fresh = try #require(r.withGlyph(seq, group: scored.groups[k], scored: &scored, strokes: s.strokes))
        #expect(scored.glyph[scored.groups[k]] ?? nil == fresh.glyph)
        // A planted reading is used as it stands.
        let planted = [Float](repeating: -1, count: fresh.glyph.count)
        scored.glyph[scored.groups[k]] = planted
        let again = try #require(r.withGlyph(seq, group: scored.groups[k], scored: &scored, strokes: s.strokes))
        #expect(again.glyph == planted)
        #expect(again.scores[1] == seq[1] - r.glyphWeight)
    }
}
