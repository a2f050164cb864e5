import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// Partitions one merge or one split away from the chosen one, read as whole lines
/// (`MathLocalAlternatives.swift`), on real ink the partition alone read wrong.
@Suite struct MathLocalAlternativesTests {
    static let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-local-alternatives.jsonl")

    static func recognizers(margin: Double = MathRecognizer.defaultAlternativeMargin) throws -> (on: MathRecognizer, off: MathRecognizer)? {
        guard let (model, glyph) = try MathFixture.weights() else { return nil }
        return (try MathRecognizer(model: model, glyphNetwork: glyph, alternativeMargin: margin),
                try MathRecognizer(model: model, glyphNetwork: glyph, localAlternatives: false))
    }

    /// Composed ink of training writers (Fixtures/README.md): `591<9!` read `59k9!` (the `1` and
    /// the `<` merged into a `k`) and a `÷` in a numerator read `=` with the bar of the fraction
    /// taken for a script's neighbour.
    @Test func aMergeOrSplitThatTheLineReadsBetterIsKept() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        let samples = try MathSample.read(path: Self.url.path)
        #expect(samples.map(\.latex) == ["591<9!", "6a+\\frac{28\\div9}{51}=3"])
        for s in samples {
            let on = MathEvaluation.run(s, recognizer: r.on), off = MathEvaluation.run(s, recognizer: r.off)
            #expect(on.latex == s.latex)
            #expect(off.latex != s.latex)
            #expect(on.symbolsRight == s.symbols.count)
        }
    }

    /// Composed ink of training writers (Fixtures/README.md) whose script the line's score merged
    /// into its base (read `k^{6}`, `4+6`, `k+8x+3=`): that merge is no longer offered.
    @Test func aMergeThatOnlySwallowsAScriptIsNotOffered() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-script-merges.jsonl")
        let samples = try MathSample.read(path: url.path)
        #expect(samples.map(\.latex) == ["\\sqrt{41}/h_{2}\\times k^{-6}=", "4^{1}+6", "k_{n}+8x+3="])
        for s in samples {
            #expect(MathEvaluation.run(s, recognizer: r.on).latex == s.latex)
        }
    }

    @Test func aScriptStandsRightOfItsBaseSmallerAndOffItsMiddle() {
        // A `k` 4 mm high; a minus 1 mm right of its top, a small `n` by its foot: scripts.
        let k = MathBox(x: 0, y: 0, width: 3, height: 4)
        #expect(MathRecognizer.standsAsScript(MathBox(x: 4, y: 0.5, width: 1.2, height: 0.1), of: k))
        #expect(MathRecognizer.standsAsScript(MathBox(x: 3.5, y: 3, width: 1.5, height: 1.6), of: k))
        // A symbol beside its middle, one as large, and a part reaching into the base are not.
        #expect(!MathRecognizer.standsAsScript(MathBox(x: 4, y: 1.5, width: 1, height: 1), of: k))
        #expect(!MathRecognizer.standsAsScript(MathBox(x: 4, y: -1, width: 3, height: 3.5), of: k))
        #expect(!MathRecognizer.standsAsScript(MathBox(x: 2.5, y: 0, width: 1, height: 1), of: k))
    }

    /// A margin no line can beat keeps the partition's own reading.
    @Test func anUnreachableMarginChangesNothing() throws {
        guard let r = try Self.recognizers(margin: 1e6) else { Issue.record("no math weights"); return }
        for s in try MathSample.read(path: Self.url.path) {
            #expect(MathEvaluation.run(s, recognizer: r.on).latex == MathEvaluation.run(s, recognizer: r.off).latex)
        }
    }

    /// Every alternative covers every stroke exactly once, as the chosen partition does.
    @Test func alternativesArePartitions() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        for s in try MathSample.read(path: Self.url.path) {
            var scored = r.on.scoreHypotheses(s.strokes)
            let chosen = MathSegmenter.bestPartition(strokeCount: s.strokes.count, groups: scored.groups,
                                                     scores: scored.best.map(\.score))
            let alts = r.on.partitionAlternatives(&scored, chosen: chosen, strokes: s.strokes)
            #expect(!alts.isEmpty)
            for a in alts {
                #expect(a.flatMap { scored.groups[$0] }.sorted() == Array(s.strokes.indices))
                #expect(Set(a) != Set(chosen))
            }
        }
    }

    /// A line of more than `maxSymbolsForAlternatives` symbols is read as the partition chose it:
    /// every alternative is the whole line read again, which on hundreds of symbols costs seconds.
    @Test func aLongLineIsNotReadAgainPerAlternative() throws {
        guard let r = try Self.recognizers() else { Issue.record("no math weights"); return }
        let samples = try MathSample.read(path: Self.url.path)
        var line: [[SIMD2<Double>]] = []
        var x = 0.0
        while line.count <= 2 * MathRecognizer.maxSymbolsForAlternatives {
            for s in samples {
                let minX = s.strokes.flatMap { $0 }.map(\.x).min() ?? 0
                let maxX = s.strokes.flatMap { $0 }.map(\.x).max() ?? 0
                line += s.strokes.map { $0.map { SIMD2($0.x - minX + x, $0.y) } }
                x += maxX - minX + 8
            }
        }
        let on = try #require(r.on.recognizeLine(strokes: line)), off = try #require(r.off.recognizeLine(strokes: line))
        #expect(on.symbols.count > MathRecognizer.maxSymbolsForAlternatives)
        #expect(on.latex == off.latex)
    }
}
