import Foundation
import InkRecognition
import Testing
@testable import InkMath
import QuireTools

/// Hypotheses the glyph network is sure are not one symbol are kept from the sequence network
/// (`MathHypothesisScreen.swift`).
@Suite struct MathHypothesisScreenTests {
    static func recognizers() throws -> (on: MathRecognizer, off: MathRecognizer)? {
        guard let (model, glyph) = try MathFixture.weights(), glyph != nil else { return nil }
        return (try MathRecognizer(model: model, glyphNetwork: glyph),
                try MathRecognizer(model: model, glyphNetwork: glyph, glyphScreen: false))
    }

    /// Training writers' expressions with symbols of several strokes (`=`, `+`, `\times`, `\div`,
    /// `4`, `\theta`, `\sqrt`) beside groups spanning two symbols.
    static func samples() throws -> [MathSample] {
        try MathFixture.read("math-expressions.jsonl") + MathFixture.read("math-flat-subscripts.jsonl")
    }

    @Test func groupsTheGlyphNetworkDoubtsAreNotReadButSymbolsAre() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights or glyph network"); return }
        let junk = try #require(r.on.glyphNetwork?.charset.firstIndex(of: MathSymbols.junk))
        var dropped = 0, symbolsOfSeveral = 0
        for s in try Self.samples() {
            let all = MathSegmenter.hypotheses(s.strokes)
            let on = r.on.scoreHypotheses(s.strokes)
            let kept = Set(on.groups)
            for g in all where g.count > 1 {
                let lp = try #require(on.glyph[g] ?? nil, "\(s.latex): \(g) not read by the glyph network")
                let doubted = Double(lp[junk]) >= MathRecognizer.hypothesisDoubt
                #expect(kept.contains(g) == !doubted, "\(s.latex): \(g) kept \(kept.contains(g)), doubted \(doubted)")
                if doubted { dropped += 1 }
            }
            // No symbol the writer made of several strokes is lost.
            for sym in s.symbols where sym.strokes.count > 1 && all.contains(sym.strokes.sorted()) {
                symbolsOfSeveral += 1
                #expect(kept.contains(sym.strokes.sorted()), "\(s.latex): its \(sym.label) is no longer a hypothesis")
            }
            // Without the screen, every hypothesis is read.
            #expect(Set(r.off.scoreHypotheses(s.strokes).groups) == Set(all))
            #expect(r.on.recognize(strokes: s.strokes).expressions.map(\.latex)
                    == r.off.recognize(strokes: s.strokes).expressions.map(\.latex), "\(s.latex) read differently")
        }
        #expect(dropped > 20, "only \(dropped) groups screened: the samples no longer test the screen")
        #expect(symbolsOfSeveral > 10, "only \(symbolsOfSeveral) symbols of several strokes: the samples no longer test the screen")
    }
}
