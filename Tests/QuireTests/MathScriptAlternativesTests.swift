import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// Scripts as large as their base also read on their base's line, and subscripts as large paid for
/// (`MathScriptAlternatives.swift`), and runs a little off a letter's line also read as its scripts
/// (`MathRaisedScripts.swift`).
@Suite struct MathScriptAlternativesTests {
    static func box(_ x: Double, _ top: Double, _ h: Double) -> MathBox { MathBox(x: x, y: top, width: 0.6 * h, height: h) }

    @Test func aSuperscriptOfItsBaseSizeMovesOntoTheBaseLine() throws {
        // `8` on the line (bottom at 10), then `6` as large but raised by half its height: a superscript.
        let labels: [Character] = ["8", "6"]
        let boxes = [Self.box(0, 0, 10), Self.box(7, -5, 10)]
        let layout = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: boxes[$0]) })
        #expect(layout == [.symbol("8", source: 0), .script(superscript: true, [.symbol("6", source: 1)])])
        let flat = MathReadings.flattenedBoxes(layout, labels: labels, boxes: boxes)
        try #require(flat.count == 1)
        #expect(abs(flat[0][1].y - 0) < 1e-9 && flat[0][0] == boxes[0])
        let relaid = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: flat[0][$0]) })
        #expect(relaid == [.symbol("8", source: 0), .symbol("6", source: 1)])
    }

    @Test func smallSuperscriptsAndSubscriptsStay() {
        let labels: [Character] = ["8", "6"]
        // Half the size and raised: a superscript as people write one.
        let small = [Self.box(0, 0, 10), Self.box(7, -3, 5)]
        let sup = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: small[$0]) })
        #expect(sup.count == 2)
        #expect(MathReadings.flattenedBoxes(sup, labels: labels, boxes: small).isEmpty)
        // Small and lowered: a subscript, never read flat.
        let low = [Self.box(0, 0, 10), Self.box(7, 8, 5)]
        let sub = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: low[$0]) })
        #expect(sub == [.symbol("8", source: 0), .script(superscript: false, [.symbol("6", source: 1)])])
        #expect(MathReadings.flattenedBoxes(sub, labels: labels, boxes: low).isEmpty)
    }

    @Test func aSubscriptAsLargeAsItsBaseIsCounted() {
        // `2` then a `9` as large, lowered by a descender: read `9` it is a subscript of the 2's size
        // (what a `g` read `9` makes), which the readings pay for; read `g` it sits on the line.
        let boxes = [Self.box(0, 0, 10), Self.box(7, 4, 10)]
        let nine: [Character] = ["2", "9"], g: [Character] = ["2", "g"]
        let asNine = MathParser.layout(nine.indices.map { ParsedSymbolInput(label: nine[$0], box: boxes[$0]) })
        #expect(asNine == [.symbol("2", source: 0), .script(superscript: false, [.symbol("9", source: 1)])])
        #expect(MathReadings.largeSubscripts(asNine, labels: nine, boxes: boxes) == 1)
        let asG = MathParser.layout(g.indices.map { ParsedSymbolInput(label: g[$0], box: boxes[$0]) })
        #expect(MathReadings.largeSubscripts(asG, labels: g, boxes: boxes) == 0)
        // A subscript written half the size costs nothing.
        let low = [Self.box(0, 0, 10), Self.box(7, 8, 5)]
        let sub = MathParser.layout(nine.indices.map { ParsedSymbolInput(label: nine[$0], box: low[$0]) })
        #expect(sub.count == 2 && MathReadings.largeSubscripts(sub, labels: nine, boxes: low) == 0)
    }

    @Test func aSubscriptOfItsBaseSizeMovesOntoTheBaseLine() throws {
        // A tall `1` (bottom at 10), then an `8` 0.81 of its height whose bottom sits 1 lower: the
        // parser's subscript; read flat it is `18`, and the readings weigh both.
        let labels: [Character] = ["1", "8"]
        let boxes = [MathBox(x: 0, y: 0, width: 2, height: 10), MathBox(x: 3, y: 2.9, width: 5, height: 8.1)]
        let layout = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: boxes[$0]) })
        #expect(layout == [.symbol("1", source: 0), .script(superscript: false, [.symbol("8", source: 1)])])
        let flat = MathReadings.flattenedBoxes(layout, labels: labels, boxes: boxes)
        try #require(flat.count == 1)
        #expect(abs(flat[0][1].maxY - 10) < 1e-9 && flat[0][0] == boxes[0], "\(flat)")
        let relaid = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: flat[0][$0]) })
        #expect(relaid == [.symbol("1", source: 0), .symbol("8", source: 1)])
        let line = labels.indices.map { i in
            MathSymbol(label: String(labels[i]), candidates: [MathSymbolCandidate(label: String(labels[i]), score: -0.1)],
                       box: boxes[i], strokeIndices: [i])
        }
        let r = MathReadings.nBest(symbols: line, ticks: [nil, nil], limit: 5, context: MathContext.standard,
                                   weight: MathRecognizer.defaultContextWeight, syntaxWeight: MathRecognizer.defaultSyntaxWeight)
        #expect(r.readings.first?.latex == "18", "\(r.readings.map(\.latex))")
        #expect(r.readings.map(\.latex).contains("1_{8}"))
    }

    /// Real ink of training writers (Fixtures/README.md): subscripts the parser made of a digit
    /// written a little low (`5_{5}`, `1_{64…}`) and of descender letters read as digits (`5_{9}`
    /// for `5q`), and of an `8c` whose `c` sits low.
    @Test func subscriptsAsLargeAsTheirBaseAlsoReadFlat() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let r = try MathRecognizer(model: model, glyphNetwork: glyph)
        let samples = try MathFixture.read("math-flat-subscripts.jsonl")
        #expect(samples.map(\.latex) == ["55", "164\\div3\\theta=68", "\\sqrt{A\\times\\sqrt{495-5q}}=9c", "8c\\times65"])
        let scripted = ["5_{5}", "1_{64\\div3\\theta=68}", "\\sqrt{A\\times\\sqrt{495-5_{9}}}=9c", "8_{c\\times65}"]
        for (s, sub) in zip(samples, scripted) {
            let e = MathEvaluation.run(s, recognizer: r)
            #expect(e.latex == s.latex)
            #expect(e.candidates.contains(sub), "\(e.candidates)")
        }
    }

    @Test func aFaultyReadingIsAlsoReadFlat() {
        // `3-n≠2` (set B): the `n` stands high, so with the `-` the layout is `3^{-n≠2}`, a relation
        // in an exponent; read flat it is the truth. Without the flat reading a swap that mends the
        // layout won (`3\cdot n\neq2` on the real ink, `3-n+2` from these scores).
        let sym = MathRankingTests.symbol
        let line = [sym([("3", 0), ("z", -14.04), ("B", -14.09), ("5", -16.59)], 0, 0.9, 3.5, 3.4),
                    sym([("-", -0.85), ("<", -8.52), ("c", -8.71), (".", -9.36)], 5, 2.2, 1.8, 0.4),
                    sym([("n", -0.09), ("r", -3.92), ("-", -7.39), ("a", -9.8)], 7.9, 1.8, 3.4, 1.6),
                    sym([("≠", -0.53), ("4", -5.95), ("1", -8.43), ("+", -8.57)], 12.3, 1.2, 2.2, 2),
                    sym([("Z", -1.42), ("2", -2.79), ("z", -8.94), ("7", -10.03)], 15.7, 0, 5, 3.6)]
        let r = MathReadings.nBest(symbols: MathReadings.sizeChecked(line), ticks: line.map { _ in nil }, limit: 5,
                                   context: MathContext.standard, weight: MathRecognizer.defaultContextWeight,
                                   syntaxWeight: MathRecognizer.defaultSyntaxWeight)
        #expect(r.readings.first?.latex == "3-n\\neq2", "\(r.readings.map(\.latex))")
    }

    /// Real ink of a training writer (Fixtures/README.md): `86.7` whose `6.7` stands a little high.
    @Test func digitsWrittenHighReadOnTheLine() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let r = try MathRecognizer(model: model, glyphNetwork: glyph)
        let samples = try MathFixture.read("math-flat-script.jsonl")
        #expect(samples.map(\.latex) == ["\\sqrt{(9+9)^{4}}\\times\\sqrt{2}\\geq86.7"])
        for s in samples {
            let e = MathEvaluation.run(s, recognizer: r)
            #expect(e.latex == s.latex)
            #expect(e.candidates.contains("\\sqrt{(9+9)^{4}}\\times\\sqrt{2}\\geq8^{6.7}"), "\(e.candidates)")
        }
    }

    /// `c` on the line (bottom at 10), then an `8` 0.72 of a digit high whose bottom stands 1.75 up:
    /// too little for the parser's superscript, enough for the line to pay for it.
    static let raised: (labels: [Character], boxes: [MathBox]) = (["c", "8"], [MathBox(x: 0, y: 4, width: 4, height: 6),
                                                                            MathBox(x: 5, y: 1.25, width: 4, height: 7)])

    @Test func aRunALittleOffALettersLineIsAlsoReadAsItsScript() throws {
        let (labels, boxes) = Self.raised
        let layout = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: boxes[$0]) })
        #expect(layout == [.symbol("c", source: 0), .symbol("8", source: 1)])
        let moved = MathReadings.scriptedBoxes(layout, labels: labels, boxes: boxes)
        try #require(moved.count == 1)
        #expect(moved[0][0] == boxes[0] && moved[0][1].y < boxes[1].y)
        let relaid = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: moved[0][$0]) })
        #expect(relaid == [.symbol("c", source: 0), .script(superscript: true, [.symbol("8", source: 1)])])
        // Nearly as large as a digit and lowered as much, it is a subscript (a smaller one the
        // parser makes one by itself).
        var low = boxes
        low[1] = MathBox(x: 5, y: 3.25, width: 4, height: 8.5)
        let lowered = MathReadings.scriptedBoxes(MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: low[$0]) }),
                                                 labels: labels, boxes: low)
        try #require(lowered.count == 1)
        #expect(MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: lowered[0][$0]) })
            == [.symbol("c", source: 0), .script(superscript: false, [.symbol("8", source: 1)])])
    }

    @Test func aRaisedMinusBeforeTheRunIsItsSign() throws {
        // `n`, then a minus standing over the operators' axis and a `9` raised as the `8` above: `n^{-9}`.
        let labels: [Character] = ["n", "-", "9"]
        let boxes = [MathBox(x: 0, y: 4, width: 4, height: 6), MathBox(x: 5, y: 3.8, width: 3, height: 0.4),
                     MathBox(x: 9, y: 1.25, width: 4, height: 7)]
        let layout = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: boxes[$0]) })
        #expect(layout == [.symbol("n", source: 0), .symbol("-", source: 1), .symbol("9", source: 2)])
        let moved = MathReadings.scriptedBoxes(layout, labels: labels, boxes: boxes)
        try #require(moved.count == 1)
        #expect(MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: moved[0][$0]) })
            == [.symbol("n", source: 0), .script(superscript: true, [.symbol("-", source: 1), .symbol("9", source: 2)])])
        // A minus on the operators' axis is the line's: `n-9`, whatever the 9's height.
        var axis = boxes
        axis[1].y = 5.8
        #expect(MathReadings.scriptedBoxes(MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: axis[$0]) }),
                                           labels: labels, boxes: axis).isEmpty)
    }

    @Test func theTailOfAScriptWithARelationIsAlsoReadOnTheLine() throws {
        // `p`, then `2 + x = 4` all raised as one exponent: no calculation has `=` in an exponent.
        let labels: [Character] = ["p", "2", "+", "x", "=", "4"]
        let boxes = [MathBox(x: 0, y: 4, width: 4, height: 9), MathBox(x: 5, y: -2, width: 3, height: 5),
                     MathBox(x: 9, y: -1, width: 3, height: 3), MathBox(x: 13, y: 0, width: 3, height: 3),
                     MathBox(x: 17, y: 0, width: 3, height: 2), MathBox(x: 21, y: -2, width: 3, height: 5)]
        let layout = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: boxes[$0]) })
        try #require(layout.count == 2)
        let tails = MathReadings.tailBoxes(layout, labels: labels, boxes: boxes)
        try #require(tails.count == 2)
        // From the `+` on: `p^{2}+x=4`; the `2` stays where it was.
        #expect(tails[0][1] == boxes[1] && tails[0][2].y > boxes[2].y)
        let relaid = MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: tails[0][$0]) })
        #expect(MathTreeBuilder.node(relaid).latex == "p^{2}+x=4", "\(relaid)")
        // Without the relation the exponent is left whole.
        let plain = Array(labels.prefix(4)), few = Array(boxes.prefix(4))
        let short = MathParser.layout(plain.indices.map { ParsedSymbolInput(label: plain[$0], box: few[$0]) })
        #expect(MathTreeBuilder.node(short).latex == "p^{2+x}")
        #expect(MathReadings.tailBoxes(short, labels: plain, boxes: few).isEmpty)
    }

    @Test func onTheLineOrAfterADigitNoScriptIsTried() {
        let (labels, boxes) = Self.raised
        var flat = boxes
        flat[1].y = 3
        #expect(MathReadings.scriptedBoxes(MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: flat[$0]) }),
                                           labels: labels, boxes: flat).isEmpty)
        // `95` with the 5 as high: digits after a digit stay on the line (the prior finds `9^{5}` as likely).
        let digits: [Character] = ["9", "5"]
        let tall = [MathBox(x: 0, y: 0, width: 5, height: 10), MathBox(x: 6, y: -1.75, width: 5, height: 10)]
        #expect(MathReadings.scriptedBoxes(MathParser.layout(digits.indices.map { ParsedSymbolInput(label: digits[$0], box: tall[$0]) }),
                                           labels: digits, boxes: tall).isEmpty)
    }

    @Test func theReadingsWeighALettersRaisedRunAsItsScript() {
        let (labels, boxes) = Self.raised
        let sym = { (i: Int, alt: String) in
            MathSymbol(label: String(labels[i]), candidates: [MathSymbolCandidate(label: String(labels[i]), score: -0.1),
                                                              MathSymbolCandidate(label: alt, score: -4)],
                       box: boxes[i], strokeIndices: [i])
        }
        let line = [sym(0, "C"), sym(1, "B")]
        let r = MathReadings.nBest(symbols: line, ticks: [nil, nil], limit: 5, context: MathContext.standard,
                                   weight: MathRecognizer.defaultContextWeight, syntaxWeight: MathRecognizer.defaultSyntaxWeight)
        #expect(r.readings.first?.latex == "c^{8}", "\(r.readings.map(\.latex))")
        #expect(r.readings.map(\.latex).contains("c8"))
    }

    /// Real ink of training writers (Fixtures/README.md): a power and a subscript after a letter,
    /// written a little off its line, and an exponent the parser let run on over an `=`.
    @Test func lettersScriptsWrittenLowReadAsScripts() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let r = try MathRecognizer(model: model, glyphNetwork: glyph)
        let samples = try MathFixture.read("math-raised-scripts.jsonl")
        #expect(samples.map(\.latex) == ["n^{7}", "2a-9p-d_{7}", "\\alpha^{1,9}=249"])
        for s in samples {
            #expect(MathEvaluation.run(s, recognizer: r).latex == s.latex)
        }
    }

    @Test func aTailWrittenLargerThanItsScriptIsAlsoReadOnTheLine() throws {
        // `p`, a small `2` raised after it, then `+ 3` near the script's line but the `3` written
        // larger than the `2`: `p^{2+3}` to the parser.
        let labels: [Character] = ["p", "2", "+", "3"]
        var boxes = [MathBox(x: 0, y: 4, width: 4, height: 9), MathBox(x: 5, y: -2, width: 3, height: 5),
                     MathBox(x: 9, y: -1, width: 3, height: 3), MathBox(x: 13, y: -3, width: 4, height: 7)]
        func layout(_ b: [MathBox]) -> [LayoutToken] { MathParser.layout(labels.indices.map { ParsedSymbolInput(label: labels[$0], box: b[$0]) }) }
        try #require(MathTreeBuilder.node(layout(boxes)).latex == "p^{2+3}")
        let tails = MathReadings.tailBoxes(layout(boxes), labels: labels, boxes: boxes)
        try #require(tails.count == 1)
        #expect(MathTreeBuilder.node(layout(tails[0])).latex == "p^{2}+3")
        // The `3` as small as the `2`: an exponent `2+3`, left whole.
        boxes[3] = MathBox(x: 13, y: -2, width: 3, height: 5)
        try #require(MathTreeBuilder.node(layout(boxes)).latex == "p^{2+3}")
        #expect(MathReadings.tailBoxes(layout(boxes), labels: labels, boxes: boxes).isEmpty)
    }

    /// Real ink of training writers (Fixtures/README.md): a subscript and an exponent the parser let
    /// run on over the rest of the line, written at the line's size (`a_{c+5T}`, `a^{5G/x\div332}=`).
    @Test func tailsWrittenAtTheLinesSizeReadOnTheLine() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let r = try MathRecognizer(model: model, glyphNetwork: glyph)
        let samples = try MathFixture.read("math-large-tails.jsonl")
        #expect(samples.map(\.latex) == ["a_{c}+5T", "a^{5G/x}\\div332="])
        for s in samples {
            #expect(MathEvaluation.run(s, recognizer: r).latex == s.latex)
        }
    }
}
