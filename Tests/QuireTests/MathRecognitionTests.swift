import Foundation
import Testing
@testable import InkMath
import InkRecognition
@testable import Quire
import QuireTools

/// Composed expressions of validation writers (Fixtures/README.md) and the shipped math weights.
enum MathFixture {
    static let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-expressions.jsonl")
    static let samples: [MathSample] = (try? MathSample.read(path: url.path)) ?? []
    static let recognizer: MathRecognizer? = MathRecognizerAdapter.defaultWeightsURL().flatMap { try? MathRecognizer(contentsOf: $0) }

    /// The shipped sequence and glyph weights, nil where none are installed: for recognizers built
    /// with one step switched off.
    static func weights() throws -> (model: RecognitionModel, glyph: GlyphNetwork?)? {
        guard let url = MathRecognizerAdapter.defaultWeightsURL() else { return nil }
        return (try RecognitionModel(contentsOf: url), try MathRecognizer.glyphModelURL(beside: url).map { try GlyphNetwork(contentsOf: $0) })
    }

    /// The expressions of `Tests/QuireTests/Fixtures/NAME` (Fixtures/README.md says whose ink).
    static func read(_ name: String) throws -> [MathSample] {
        try MathSample.read(path: repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/\(name)").path)
    }

    /// Expects fixture `name` to hold the expressions `latex`, and the shipped recognizer to read
    /// each of them exactly.
    static func expectReadExactly(_ name: String, _ latex: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard let shared = recognizer else { Issue.record("no math weights", sourceLocation: sourceLocation); return }
        let samples = try read(name)
        #expect(samples.map(\.latex) == latex, sourceLocation: sourceLocation)
        for s in samples {
            #expect(MathEvaluation.run(s, recognizer: shared).latex == s.latex, "\(s.id)", sourceLocation: sourceLocation)
        }
    }

    static func sample(_ latex: String) throws -> MathSample {
        try #require(samples.first { $0.latex == latex }, "fixture expression \(latex) missing")
    }

    /// Pointer events writing a sample with its top-left corner at (x, y) mm.
    static func events(_ s: MathSample, editor: Editor, x: Double, y: Double) -> [PointerEvent] {
        let pts = s.strokes.joined()
        let minX = pts.map(\.x).min() ?? 0, minY = pts.map(\.y).min() ?? 0
        var out: [PointerEvent] = []
        var t: Int64 = 1_700_000_000_000
        for stroke in s.strokes where !stroke.isEmpty {
            for (i, p) in stroke.enumerated() {
                let v = editor.viewTransform.apply(Point(x: x + p.x - minX, y: y + p.y - minY))
                t += 8
                out.append(i == 0 ? .down(x: v.x, y: v.y, t: t, f: 0.5) : .move(x: v.x, y: v.y, t: t, f: 0.5))
            }
            let v = editor.viewTransform.apply(Point(x: x + stroke.last!.x - minX, y: y + stroke.last!.y - minY))
            out.append(.up(x: v.x, y: v.y, t: t + 4, f: 0.5))
        }
        return out
    }
}

/// The structure parser on symbols placed by hand (digit height 5 mm, baseline y = 10).
@Suite struct MathParserTests {
    static func s(_ c: Character, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> ParsedSymbolInput {
        ParsedSymbolInput(label: c, box: MathBox(x: x, y: y, width: w, height: h))
    }
    static func digit(_ c: Character, _ x: Double, top: Double = 5, height: Double = 5) -> ParsedSymbolInput { s(c, x, top, 3, height) }
    static func latex(_ syms: [ParsedSymbolInput]) -> String { MathParser.parse(syms).latex }

    @Test func linearOperatorsAndNumbers() {
        let syms = [Self.digit("1", 0), Self.digit("2", 4), Self.s("+", 8, 6.6, 3, 3), Self.digit("3", 12),
                    Self.s(".", 15.5, 9.6, 0.4, 0.4), Self.digit("5", 16.5)]
        #expect(MathParser.parse(syms) == .row([.number("12"), .op("+"), .number("3.5")]))
        #expect(Self.latex(syms) == "12+3.5")
    }

    @Test func raisedDotIsCdotAndMinusIsUnicodeMinus() {
        let syms = [Self.digit("2", 0), Self.s(".", 4, 7.6, 0.4, 0.4), Self.digit("3", 5.5), Self.s("-", 9.5, 7.8, 3, 0.3), Self.digit("4", 13.5)]
        #expect(MathParser.parse(syms) == .row([.number("2"), .op("·"), .number("3"), .op("−"), .number("4")]))
        #expect(Self.latex(syms) == "2\\cdot3-4")
    }

    @Test func aCentredDotIsMeasuredAgainstTheLineOnBothSides() {
        // A `3` set 1.5 mm high, a dot 0.9 mm above its foot, then `26` on the line (digits 5 mm):
        // against the 3 alone a point (`3.26`, a validation set's reading); against both sides `3\cdot26`.
        let cdot = [Self.digit("3", 0, top: 4), Self.s(".", 4, 7.9, 0.4, 0.4), Self.digit("2", 5.5, top: 5.5), Self.digit("6", 9, top: 5.5)]
        #expect(Self.latex(cdot) == "3\\cdot26")
        // A decimal point at the line's foot stays one, however high the digit before it.
        let point = [Self.digit("3", 0, top: 4), Self.s(".", 4, 10.1, 0.4, 0.4), Self.digit("5", 5.5, top: 5.5)]
        #expect(Self.latex(point) == "3.5")
    }

    @Test func aDeepCommaInAScriptKeepsTheScript() {
        // A validation writer's `n^{4,5}`: the comma's tail hangs nearer the `n`'s line than the
        // script's, its head sits on the script's line (read `n^{4}-5` while its foot decided).
        let syms = [Self.s("n", 0, 2.85, 4.4, 4), Self.s("4", 5.2, 0, 3.2, 4.7), Self.s(",", 7.9, 4.3, 1.9, 1.6),
                    Self.s("5", 10.3, 0, 4, 4.9), Self.s("=", 16, 4, 3.4, 2), Self.digit("6", 21, top: 1.6, height: 6.6)]
        #expect(Self.latex(syms) == "n^{4,5}=6")
        // A comma whose head is down on the letter's line ends the script.
        let low = [Self.s("n", 0, 2.85, 4.4, 4), Self.s("4", 5.2, 0, 3.2, 4.7), Self.s(",", 7.9, 6.2, 1.2, 1.4),
                   Self.s("5", 10.3, 2.9, 3, 4), Self.s("=", 16, 4, 3.4, 2), Self.digit("6", 21, top: 1.6, height: 6.6)]
        #expect(Self.latex(low) == "n^{4},5=6")
    }

    @Test func aFractionOfFullSizeDigitsIsNoScript() {
        // `7-` then a fraction of 5 mm digits whose bar stands high: the fraction is on the line.
        let big = [Self.digit("7", 0), Self.s("-", 4, 6.9, 2.5, 0.2), Self.s("-", 8, 5.4, 7, 0.2),
                   Self.digit("3", 10, top: 0), Self.digit("4", 10, top: 6)]
        #expect(Self.latex(big) == "7-\\frac{3}{4}")
        // The same fraction written at script size after the 7 is its superscript.
        let small = [Self.digit("7", 0), Self.s("-", 3.5, 2.4, 3.5, 0.15), Self.s("3", 4, -0.6, 2, 2.8), Self.s("4", 4, 2.7, 2, 2.8)]
        #expect(Self.latex(small) == "7^{\\frac{3}{4}}")
    }

    @Test func aDecimalPointAtARadicalsFootIsUnderIt() {
        // The tick's foot is the radical's lowest ink, on the line: the point's centre a little
        // below it is still under the sign.
        let syms = [Self.s("√", 0, 3, 16, 7), Self.digit("6", 4), Self.digit("9", 8),
                    Self.s(".", 11.5, 9.9, 0.4, 0.4), Self.digit("7", 12.5), Self.s("=", 18, 7, 3, 1.5)]
        #expect(Self.latex(syms) == "\\sqrt{69.7}=")
    }

    @Test func aSuperscriptStandsAboveItsBasesMiddle() {
        // An `n` a third of the digit height, its foot 0.28 H above the line: raised enough to be a
        // script, but its centre is below the 4's, on the `=`'s axis: `4n=`.
        let low = [Self.digit("4", 0), Self.s("n", 4, 6.9, 2.5, 1.7), Self.s("=", 8, 7, 3, 1.5), Self.digit("2", 12)]
        #expect(Self.latex(low) == "4n=2")
        // The same `n` higher, its centre above the 4's middle, is its exponent.
        let high = [Self.digit("4", 0), Self.s("n", 4, 5.6, 2.5, 1.7), Self.s("=", 8, 7, 3, 1.5), Self.digit("2", 12)]
        #expect(Self.latex(high) == "4^{n}=2")
    }

    @Test func fraction() {
        let syms = [Self.s("-", 0, 10, 6, 0.2), Self.digit("1", 1.5, top: 4), Self.digit("2", 1.5, top: 11)]
        #expect(MathParser.parse(syms) == .fraction(numerator: .number("1"), denominator: .number("2")))
        #expect(Self.latex(syms) == "\\frac{1}{2}")
    }

    @Test func nestedFraction() {
        // (1/2) over 3: the wide bar takes the narrow one with its parts.
        let syms = [Self.s("-", 0, 20, 10, 0.2), Self.s("-", 2, 13, 6, 0.2), Self.digit("1", 3.5, top: 7.5),
                    Self.digit("2", 3.5, top: 14), Self.digit("3", 3.5, top: 21)]
        #expect(Self.latex(syms) == "\\frac{\\frac{1}{2}}{3}")
    }

    @Test func superscriptAndSubscript() {
        let x = Self.s("x", 0, 6.9, 3, 3.1)
        #expect(Self.latex([x, Self.s("2", 3.5, 3, 2, 3)]) == "x^{2}")
        #expect(MathParser.parse([x, Self.s("2", 3.5, 3, 2, 3)]) == .sup(base: .identifier("x"), exponent: .number("2")))
        #expect(Self.latex([x, Self.s("1", 3.5, 9, 2, 3)]) == "x_{1}")
        #expect(Self.latex([x, Self.s("1", 3.5, 9, 2, 3), Self.s("+", 7, 6.6, 3, 3), Self.digit("4", 11)]) == "x_{1}+4")
    }

    @Test func rootsNestedAndFunctions() {
        let root = [Self.s("√", 0, 3, 10, 8), Self.digit("2", 4, top: 5)]
        #expect(MathParser.parse(root) == .root(radicand: .number("2"), index: nil))
        let nested = [Self.s("√", 0, 2, 16, 9), Self.s("√", 4, 3.5, 11, 7), Self.digit("7", 9, top: 5)]
        #expect(Self.latex(nested) == "\\sqrt{\\sqrt{7}}")
        let sin = [Self.s("s", 0, 6.9, 2.5, 3.1), Self.s("i", 3, 5.5, 1, 4.5), Self.s("n", 4.5, 6.9, 2.5, 3.1), Self.s("x", 8, 6.9, 3, 3.1)]
        #expect(MathParser.parse(sin) == .row([.function("sin"), .identifier("x")]))
        #expect(Self.latex(sin) == "\\sin x")
        // A capital first letter still spells the function; a capital inside does not.
        var capital = sin
        capital[0].label = "S"
        #expect(Self.latex(capital) == "\\sin x")
        capital[2].label = "N"
        #expect(Self.latex(capital) != "\\sin x")
    }

    @Test func bracketsPairIntoFencesAndTakeScripts() {
        let syms = [Self.s("(", 0, 4.5, 1.5, 6.5), Self.s("a", 2, 6.9, 3, 3.1), Self.s("+", 6, 6.6, 3, 3), Self.s("b", 10, 5, 3, 5),
                    Self.s(")", 14, 4.5, 1.5, 6.5), Self.s("2", 16, 1.5, 2, 3)]
        let row: MathNode = .row([.identifier("a"), .op("+"), .identifier("b")])
        #expect(MathParser.parse(syms) == .sup(base: .fenced(open: "(", close: ")", content: row), exponent: .number("2")))
        #expect(Self.latex(syms) == "(a+b)^{2}")
        // An unmatched bracket stays an operator.
        #expect(MathParser.parse([Self.s("(", 0, 4.5, 1.5, 6.5), Self.digit("1", 2)]) == .row([.op("("), .number("1")]))
    }

    @Test func emptyInputIsAnEmptyRow() {
        #expect(MathParser.parse([]) == .row([]))
    }
}

/// Segmentation: hypotheses, single-symbol CTC scores, partition.
@Suite struct MathSegmenterTests {
    /// log P(exactly one c) by summing every path of a tiny matrix.
    static func bruteForce(_ lp: [Float], frames: Int, classes: Int, _ c: Int) -> Double {
        var total = 0.0
        var path = [Int](repeating: 0, count: frames)
        func visit(_ t: Int, _ p: Double) {
            if t == frames {
                var collapsed: [Int] = []
                for (i, k) in path.enumerated() where (i == 0 || path[i - 1] != k) && k != 0 { collapsed.append(k) }
                if collapsed == [c] { total += p }
                return
            }
            for k in 0 ..< classes { path[t] = k; visit(t + 1, p * exp(Double(lp[t * classes + k]))) }
        }
        visit(0, 1)
        return log(total)
    }

    @Test func classScoresAreExactCTC() {
        let frames = 5, classes = 4
        var lp: [Float] = []
        var seed: UInt64 = 7
        for _ in 0 ..< frames {
            var row: [Double] = []
            for _ in 0 ..< classes { seed = seed &* 6364136223846793005 &+ 1442695040888963407; row.append(Double(seed >> 40) / Double(1 << 24) + 0.05) }
            let z = row.reduce(0, +)
            lp += row.map { Float(log($0 / z)) }
        }
        let got = MathSegmenter.classScores(lp, frames: frames, classes: classes)
        #expect(got[0] == -.infinity)
        for c in 1 ..< classes { #expect(abs(got[c] - Self.bruteForce(lp, frames: frames, classes: classes, c)) < 1e-5) }
    }

    static func bar(_ x0: Double, _ x1: Double, _ y: Double) -> [SIMD2<Double>] { [SIMD2(x0, y), SIMD2((x0 + x1) / 2, y), SIMD2(x1, y)] }
    static func tick(_ x: Double, _ y0: Double, _ y1: Double) -> [SIMD2<Double>] { [SIMD2(x, y0), SIMD2(x, (y0 + y1) / 2), SIMD2(x, y1)] }

    @Test func hypothesesAreOrderFreeAndPruned() {
        // An "=" (two bars) and a far "1": the bars pair, the "1" stays alone, whatever the order.
        let strokes = [Self.bar(0, 4, 5), Self.tick(20, 2, 8), Self.bar(0, 4, 6.5)]
        #expect(MathSegmenter.hypotheses(strokes) == [[0], [1], [2], [0, 2]])
        // A long fraction bar with three digits over it and three under: no group of three or
        // more that spans the fraction survives pruning, every pair still does.
        var frac = [Self.bar(0, 20, 10)]
        for k in 0 ..< 3 { frac.append(Self.tick(3 + 6 * Double(k), 3, 8)); frac.append(Self.tick(3 + 6 * Double(k), 12, 17)) }
        let pruned = MathSegmenter.hypotheses(frac), all = MathSegmenter.hypotheses(frac, prune: false)
        #expect(pruned.filter { $0.count == 2 } == all.filter { $0.count == 2 })
        #expect(pruned.filter { $0.count >= 3 }.allSatisfy { !($0.contains(0) && $0.contains(1) && $0.contains(2)) })
        #expect(pruned.count < all.count)
    }

    @Test func aTallSymbolKeepsItsShortBarAmongSmallStrokes() {
        // "7y=" in a small hand: a 3.4 mm `7` with a 1.1 mm crossbar, a `y`, and two 1 mm bars.
        // The short strokes make the reference size 1.1 mm, so the `7` is over 3 of them tall, yet
        // with its bar it is no taller than alone: the pair is a hypothesis.
        let seven = [SIMD2(0.0, 0.0), SIMD2(3.2, 0.0), SIMD2(1.0, 3.4)]
        let strokes = [seven, Self.bar(0.9, 2.0, 2.3), [SIMD2(3.9, 1.4), SIMD2(5.1, 3.0), SIMD2(6.3, 1.4), SIMD2(4.5, 4.8)],
                       Self.bar(7.6, 8.6, 1.7), Self.bar(7.6, 8.6, 2.3)]
        #expect(MathSegmenter.hypotheses(strokes).contains([0, 1]))
        // Two strokes stacked that tall (a digit over another, no bar between) stay apart.
        let stacked = [Self.tick(0, 0, 3.4), Self.tick(0, 3.8, 7.2), Self.bar(2, 3, 3), Self.bar(4, 5, 3), Self.bar(6, 7, 3)]
        #expect(!MathSegmenter.hypotheses(stacked).contains([0, 1]))
    }

    @Test func partitionPaysAPenaltyPerGroup() {
        let groups = [[0], [1], [0, 1], [2]]
        // Two singletons at -1 each (-3 with penalties) lose to the pair at -1.5 (-2).
        #expect(Set(MathSegmenter.bestPartition(strokeCount: 3, groups: groups, scores: [-1, -1, -1.5, -0.1])) == [2, 3])
        #expect(Set(MathSegmenter.bestPartition(strokeCount: 3, groups: groups, scores: [-0.1, -0.1, -2, -0.1])) == [0, 1, 3])
    }
}

/// The shipped weights on composed expressions of validation writers.
@Suite(.serialized) struct MathRecognitionTests {
    @Test func fixtureCoversEveryStructureClass() throws {
        #expect(Set(MathFixture.samples.map(\.structureClass)) == Set(MathEvaluation.classes))
    }

    @Test func readsEachStructureWithItsSymbolsAndStrokes() throws {
        let r = try #require(MathFixture.recognizer, "math weights not found")
        for s in MathFixture.samples {
            let o = MathEvaluation.run(s, recognizer: r)
            #expect(o.latex == s.latex, "\(s.id)")
            #expect(o.symbolsRight == s.symbols.count, "\(s.id)")
            let e = try #require(o.expressions.first)
            #expect(o.expressions.count == 1)
            #expect(e.candidates.first?.latex == e.latex)
            #expect(Set(e.candidates.map(\.latex)).count == e.candidates.count)
            #expect(e.symbols.allSatisfy { $0.candidates.first?.label == $0.label && !$0.strokeIndices.isEmpty })
            #expect(e.symbols.flatMap(\.strokeIndices).sorted() == Array(s.strokes.indices))
        }
        let frac = try MathFixture.sample("\\frac{6}{88+0_{4}}")
        let node = try #require(r.recognizeLine(strokes: frac.strokes)?.node)
        #expect(node == .fraction(numerator: .number("6"),
                                  denominator: .row([.number("88"), .op("+"), .sub(base: .number("0"), index: .number("4"))])))
    }

    @Test func pruningKeepsTheReferenceReading() throws {
        let model = try #require(MathFixture.recognizer).model
        let full = try MathRecognizer(model: model, pruneHypotheses: false)
        for s in MathFixture.samples { #expect(MathEvaluation.run(s, recognizer: full).latex == s.latex) }
    }

    @Test func badInputGivesNoCrash() throws {
        let r = try #require(MathFixture.recognizer)
        #expect(r.recognize(strokes: []).expressions.isEmpty)
        #expect(r.recognize(strokes: [[], [SIMD2(.nan, 1)]]).expressions.isEmpty)
        let dot = r.recognize(strokes: [[SIMD2(5, 5)]])
        #expect(dot.expressions.count == 1 && dot.expressions[0].symbols.count == 1)
        // A stroke far too long for the network and one of absurd size: read as something, no crash.
        let long = (0 ..< 100_000).map { SIMD2(Double($0) * 0.05, sin(Double($0) / 30) * 3) }
        let huge = [SIMD2(0.0, 0.0), SIMD2(1e7, 1e7), SIMD2(-1e8, 5)]
        let out = r.recognize(strokes: [long, huge])
        #expect(out.expressions.flatMap(\.symbols).count >= 1)
        // 500 symbols on one line: read up to the recognizer's bound, the rest left unread.
        let five = try MathFixture.sample("k-1")
        var many: [[SIMD2<Double>]] = []
        for k in 0 ..< 170 { many += five.strokes.map { $0.map { $0 + SIMD2(Double(k) * 9, 0) } } }
        #expect(many.count >= 500)
        let e = try #require(r.recognizeLine(strokes: many))
        #expect(e.strokeIndices.count == r.maxStrokesPerLine)
        #expect(e.symbols.flatMap(\.strokeIndices).count == r.maxStrokesPerLine)
    }

    @Test func weightsThatAreNotMathAreRefused() throws {
        let text = try #require(TextRecognizerAdapter.defaultWeightsURL())
        #expect(throws: MathRecognizerError.self) { try MathRecognizer(contentsOf: text) }
    }
}

/// Math in the editor: Math parts and blocks read math off the input thread, line by line.
@Suite(.serialized) struct MathEditorRecognitionTests {
    @Test func mathPartReadsMathIncrementallyAndStoresTheResult() throws {
        let url = try #require(MathRecognizerAdapter.defaultWeightsURL())
        let adapter = MathRecognizerAdapter(modelURL: url)
        let dir = TempDir()
        let pkg = try Engine().createPackage(dir.path("math.iink"))
        let editor = try Engine().createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 1000, height: 700)
        editor.register(adapter)
        try editor.setPart(pkg.createPart(type: PartType.math.rawValue))
        let root = try #require(editor.rootBlock)
        #expect(root.kind == .math)
        let first = try MathFixture.sample("\\sqrt{63}"), second = try MathFixture.sample("k-1")
        try editor.pointerEvents(MathFixture.events(first, editor: editor, x: 10, y: 10), processGestures: false)
        try editor.waitForIdle()
        #expect(root.words.map(\.label) == ["\\sqrt{63}"])
        #expect(try editor.mathResult(for: root)?.expressions.first?.node == .root(radicand: .number("63"), index: nil))
        #expect(adapter.linesRecognized == 1)
        // A second line: only it is read.
        try editor.pointerEvents(MathFixture.events(second, editor: editor, x: 10, y: 40), processGestures: false)
        try editor.waitForIdle()
        #expect(adapter.linesRecognized == 2)
        #expect(root.words.map(\.label) == ["\\sqrt{63}", "k-1"])
        let result = try #require(try editor.mathResult(for: root))
        #expect(result.latex == "\\sqrt{63}\nk-1")
        // Symbols carry the editor's stroke ids, and candidates are on the word.
        let ids = Set(editor.part!.model.strokes(inBlock: root.id).map(\.id))
        #expect(Set(result.expressions.flatMap { $0.symbols.flatMap(\.strokeIds) }) == ids)
        #expect(root.words[0].candidates.first?.label == "\\sqrt{63}")
        // Saved and opened again, the result is still on the block.
        try pkg.save()
        pkg.close()
        let again = try Engine().openPackage(dir.path("math.iink"))
        defer { again.close() }
        let part = try again.part(at: 0)
        let block = try #require(part.model.blocks[part.model.rootId])
        #expect(MathBlockResult.result(of: block)?.latex == "\\sqrt{63}\nk-1")
    }

    @Test func cliPrintsLaTeXForMathBlocksAndTheJSONContract() throws {
        let dir = TempDir()
        let path = dir.path("calc.iink")
        let pkg = try Engine().createPackage(path)
        let editor = try Engine().createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 1000, height: 700)
        editor.recognizer = nil
        try editor.setPart(pkg.createPart(type: PartType.math.rawValue))
        try editor.pointerEvents(MathFixture.events(try MathFixture.sample("\\frac{\\beta+4}{9}"), editor: editor, x: 10, y: 10), processGestures: false)
        try pkg.save()
        pkg.close()
        let r = try runQuire(["recognize", path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "\\frac{\\beta+4}{9}")

        let lines = try runQuire(["recognize", "--jsonl", MathFixture.url.path, "--math", "--json"])
        #expect(lines.status == 0, "\(lines.err)")
        let objects = lines.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == MathFixture.samples.count)
        for (o, s) in zip(objects, MathFixture.samples) {
            #expect(Set(o.keys) == ["id", "latex", "mathml", "text", "value", "candidates", "ms"])
            #expect(o["id"] as? String == s.id && o["latex"] as? String == s.latex)
            #expect((o["candidates"] as? [String])?.first == s.latex)
            #expect((o["mathml"] as? String)?.hasPrefix("<math") == true)
            #expect((o["text"] as? String)?.isEmpty == false)
            #expect((o["ms"] as? Double).map { $0 >= 0 } == true)
        }
        let ev = try runQuire(["eval", "--math", "--jsonl", MathFixture.url.path, "--errors", "0"])
        #expect(ev.status == 0, "\(ev.err)")
        for k in MathEvaluation.classes { #expect(ev.out.contains("\n" + k.padding(toLength: 8, withPad: " ", startingAt: 0))) }
        #expect(ev.out.contains("all        10   1.000    1.000"))
        // --math needs --jsonl; a missing file is an error, not a crash.
        #expect(try runQuire(["recognize", MathFixture.url.path, "--math"]).status != 0)
        #expect(try runQuire(["eval", "--math", "--jsonl", dir.path("missing.jsonl")]).status != 0)
    }
}
