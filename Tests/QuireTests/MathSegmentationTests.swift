import Foundation
import InkRecognition
import Testing
@testable import InkMath
import QuireTools

/// What segmentation can group and where lines and scripts begin, on ink placed by hand
/// (millimetres, y down): cases the recognizer once read wrong (docs/MATH-EXPERIMENTS.md, "Segmentation
/// and line errors").
@Suite struct MathSegmentationTests {
    static func bar(_ x: Double, _ y: Double, _ w: Double) -> [SIMD2<Double>] { [SIMD2(x, y), SIMD2(x + w / 2, y + 0.05), SIMD2(x + w, y)] }
    static func digit(_ x: Double, top: Double = 5, height: Double = 5) -> [SIMD2<Double>] {
        [SIMD2(x, top), SIMD2(x + 2, top + height / 2), SIMD2(x + 1, top + height)]
    }

    @Test func divisionSignsDotsFarFromItsBarJoinIt() {
        // Digits 2 mm high (the reference size), a ÷ whose bar is 2 mm long and whose dots are 1.4
        // mm over and under it, more than 0.6 reference sizes: one hypothesis of three strokes.
        let strokes = [Self.digit(0, top: 1, height: 2), Self.bar(3, 2, 2), [SIMD2(3.9, 0.5), SIMD2(4.0, 0.6)],
                       [SIMD2(4.0, 3.45), SIMD2(4.1, 3.55)], Self.digit(6, top: 1, height: 2)]
        #expect(MathSegmenter.hypotheses(strokes).contains([1, 2, 3]))
        // A dot beside a bar's end (a decimal point after a minus) is not a ÷'s.
        let boxes = MathSegmenter.boxes([Self.bar(3, 2, 2), [SIMD2(5.4, 2.9), SIMD2(5.5, 3.0)]])
        #expect(!MathSegmenter.dotByBar(boxes[1], boxes[0], 2))
    }

    @Test func aDecimalPointBesideADigitIsNeverPartOfIt() {
        // A `4` of two strokes (5 mm), then a dot 0.15 mm right of it at its foot.
        let four: [[SIMD2<Double>]] = [[SIMD2(2, 5), SIMD2(0, 8), SIMD2(3, 8)], [SIMD2(2.5, 6), SIMD2(2.5, 10)]]
        let dot = [SIMD2(3.15, 9.5), SIMD2(3.25, 9.6)]
        let hyps = MathSegmenter.hypotheses(four + [dot])
        #expect(hyps.contains([0, 1]) && hyps.contains([2]))
        #expect(!hyps.contains([0, 1, 2]), "\(hyps)")
        #expect(MathSegmenter.hypotheses(four + [dot], prune: false).contains([0, 1, 2]))
        // A `!` whose dot strayed right of its stem, and an `i`'s dot above, stay groups.
        #expect(MathSegmenter.hypotheses([[SIMD2(1, 5), SIMD2(1, 9)], [SIMD2(1.15, 9.6), SIMD2(1.25, 9.7)]]).contains([0, 1]))
        #expect(MathSegmenter.hypotheses([[SIMD2(1, 7), SIMD2(1, 10)], [SIMD2(1.3, 5.5), SIMD2(1.4, 5.6)]]).contains([0, 1]))
    }

    @Test func aFractionIsOneLineHoweverFlatItsStrokes() {
        // 5 over 8, then `=`: three of five strokes are flat, so text's line grouping (by the
        // median stroke height) cut the numerator and bar from the rest; math keeps one line.
        let strokes = [Self.digit(1, top: 0, height: 3), Self.bar(0, 4.3, 4), Self.digit(1, top: 5.6, height: 3),
                       Self.bar(5, 4, 2.5), Self.bar(5, 5.3, 2.5)]
        #expect(MathLines.group(strokes: strokes) == [[0, 1, 2, 3, 4]])
        // Two expressions written one under the other stay two lines.
        let two = [Self.digit(0, top: 0, height: 4), Self.bar(3, 2, 3), Self.digit(7, top: 0, height: 4),
                   Self.digit(0, top: 7, height: 4), Self.bar(3, 9, 3), Self.digit(7, top: 7, height: 4)]
        #expect(MathLines.group(strokes: two) == [[0, 1, 2], [3, 4, 5]])
    }

    @Test func aBracketAsLargeAsItsBaseIsNoScript() {
        // `ln(58)` with a flat `n` (its x-height implies a small digit height, so the bracket's foot
        // looked like a subscript's): the bracket opens a group on the line.
        func s(_ c: Character, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> ParsedSymbolInput {
            ParsedSymbolInput(label: c, box: MathBox(x: x, y: y, width: w, height: h))
        }
        let syms = [s("l", 0, 0.7, 1.4, 6.5), s("n", 1.6, 4.9, 1.4, 2), s("(", 3.4, 0, 0.7, 9.9), s("5", 4.3, 1.7, 1.5, 6.5),
                    s("8", 6.2, 2.2, 0.9, 6.7), s(")", 7.2, 1.5, 0.7, 9.3)]
        #expect(MathParser.parse(syms).latex == "\\ln(58)")
        // A small bracket low after its base still starts a subscript.
        let x = s("x", 0, 6.9, 3, 3.1)
        #expect(MathParser.parse([x, s("(", 3.5, 8.5, 0.6, 2.6), s("1", 4.3, 8.8, 1, 2), s(")", 5.5, 8.5, 0.6, 2.6)]).latex == "x_{(1)}")
    }

    /// Composed ink of training writers (Fixtures/README.md) that the recognizer read wrong before:
    /// `\tan(q)` as `\tan_{(9)}` (the bracket after a flat `n` taken for a subscript) and a
    /// fraction cut into two lines (`4t-` over `-k\cdot y-`).
    @Test func realInkOnceMisreadIsReadRight() throws {
        guard let shared = MathFixture.recognizer else { Issue.record("no math weights"); return }
        let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-segmentation.jsonl")
        let samples = try MathSample.read(path: url.path)
        #expect(samples.map(\.latex) == ["\\tan(q)", "\\frac{4t}{k\\cdot y}="])
        for s in samples { #expect(MathEvaluation.run(s, recognizer: shared).latex == s.latex) }
        #expect(TextRecognizer.groupLines(strokes: samples[1].strokes).count == 2)
        #expect(MathLines.group(strokes: samples[1].strokes).count == 1)
    }

    /// `recognize --math --json --math-segments` (error analysis): each symbol's strokes, every
    /// stroke once, and every scored stroke group, the symbols' among them.
    @Test func cliPrintsSymbolsAndHypotheses() throws {
        guard MathFixture.recognizer != nil else { Issue.record("no math weights"); return }
        let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-segmentation.jsonl")
        let samples = try MathSample.read(path: url.path)
        let r = try runQuire(["recognize", "--jsonl", url.path, "--math", "--json", "--math-segments"])
        #expect(r.status == 0, "\(r.err)")
        let objects = r.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == samples.count)
        for (o, s) in zip(objects, samples) {
            let symbols = (o["symbols"] as? [[String: Any]]) ?? []
            let groups = symbols.map { (($0["strokes"] as? [Int]) ?? []).sorted() }
            #expect(groups.joined().sorted() == Array(s.strokes.indices))
            let hypotheses = Set(((o["hypotheses"] as? [[String: Any]]) ?? []).map { (($0["strokes"] as? [Int]) ?? []).sorted() })
            #expect(!hypotheses.isEmpty && groups.allSatisfy(hypotheses.contains))
        }
    }
}
