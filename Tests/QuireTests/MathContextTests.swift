import Foundation
import Testing
@testable import InkMath
import QuireTools

/// The symbol-sequence prior and the joint choice of symbol classes it drives.
@Suite struct MathContextTests {
    let ctx = MathContext.standard

    @Test func neighboursDecideLookAlikes() {
        // Inside a number a digit, not a letter (a letter after a digit is an implicit product,
        // but a digit after a letter is rare); an operator sits between operands.
        #expect(ctx.logProbability(of: ["1", "2", "5"]) > ctx.logProbability(of: ["1", "z", "5"]) + 2)
        #expect(ctx.logProbability("+", after: "3") > ctx.logProbability("t", after: "3") + 1)
        // `×` is followed by an operand, a variable `x` by an operator or the end.
        #expect(ctx.logProbability("4", after: "×") > ctx.logProbability("+", after: "×") + 1)
        #expect(ctx.logProbability("+", after: "x") > ctx.logProbability("+", after: "×") + 1)
        #expect(ctx.logProbability(of: ["2", "+", "1", "="]) > ctx.logProbability(of: ["z", "t", "/", "="]) + 3)
    }

    @Test func unseenPairsKeepAProbability() {
        let p = ctx.logProbability("?", after: "[")
        #expect(p.isFinite && p > Foundation.log(1e-6))
        #expect(ctx.logProbability("x", after: "no such token") == Foundation.log(1e-4))
        // Every row is a distribution over the vocabulary.
        let vocab = MathContext.markers + MathContext.classes
        for prev in ["3", "x", "<frac>", "<s>"] {
            let total = vocab.reduce(0) { $0 + Foundation.exp(ctx.logProbability($1, after: prev)) }
            #expect(abs(total - 1) < 1e-3, "row \(prev) sums to \(total)")
        }
    }

    @Test func decodeUsesNeighbours() {
        // "1z5+t": the classifier prefers z and t by a little; between digits z is a 2, at the end
        // after an operator a 1 is 0.6 nats likelier than a t (the counts of build_context.py
        // -n 30000 --seed 5): the prior reads "125+1"; weight 0 keeps the classes.
        let slots: [MathContext.Slot] = [.symbol(0, token: "1"), .symbol(1, token: "z"), .symbol(2, token: "5"),
                                         .symbol(3, token: "+"), .symbol(4, token: "t")]
        let options: [[(label: Character, score: Double)]] = [[("1", -0.1)], [("z", -0.5), ("2", -1.0)], [("5", -0.1)],
                                                              [("+", -0.1), ("t", -1.5)], [("t", -0.4), ("1", -0.9)]]
        #expect(ctx.decode(slots: slots, options: options, weight: 1) == ["1", "2", "5", "+", "1"])
        #expect(ctx.decode(slots: slots, options: options, weight: 0) == ["1", "z", "5", "+", "t"])
    }

    @Test func timesBetweenOperandsXBeforeAnOperator() {
        // The same ink scored a little towards `×`: before a digit it stays `×` ("2×3"), before `+`
        // it is the variable ("2x+1").
        let options: [[(label: Character, score: Double)]] = [[("2", -0.1)], [("×", -0.4), ("x", -0.9)], [("3", -0.1)]]
        let times: [MathContext.Slot] = [.symbol(0, token: "2"), .symbol(1, token: "×"), .symbol(2, token: "3")]
        #expect(ctx.decode(slots: times, options: options, weight: 0.5) == ["2", "×", "3"])
        let plus: [MathContext.Slot] = times.prefix(2) + [.symbol(2, token: "+"), .symbol(3, token: "1")]
        #expect(ctx.decode(slots: plus, options: [options[0], options[1], [("+", -0.1)], [("1", -0.1)]], weight: 0.5) == ["2", "x", "+", "1"])
    }

    /// Composed expressions (Fixtures/README.md) the classifier alone misreads and the prior fixes.
    @Test func priorFixesLookAlikesInRealInk() throws {
        guard let shared = MathFixture.recognizer else { Issue.record("no math weights"); return }
        let plain = try MathRecognizer(model: shared.model, contextWeight: 0, syntaxWeight: 0)
        let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-context.jsonl")
        let samples = try MathSample.read(path: url.path)
        #expect(samples.map(\.latex) == ["1=", "7y=", "18=", "3-9x"])
        for s in samples {
            #expect(MathEvaluation.run(s, recognizer: shared).latex == s.latex)
            // Without the prior `7y=` is `z_{4}=`: the `y` the classifier calls `4` is laid out as
            // a subscript, which measures no symbol outside it (stop 45), and the `7` is a `z`.
            #expect(MathEvaluation.run(s, recognizer: plain).latex != s.latex, "\(s.latex) needs no prior any more")
        }
    }

    static func symbol(_ cands: [(String, Double)], _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> MathSymbol {
        MathSymbol(label: cands[0].0, candidates: cands.map { MathSymbolCandidate(label: $0.0, score: $0.1) },
                   box: MathBox(x: x, y: y, width: w, height: h), strokeIndices: [])
    }

    @Test func sizeDecidesDotOrMinusAndLetterCase() {
        // Digits 5 mm high; a 2 mm bar the classifier calls '.' is a minus, a 0.5 mm one stays a dot;
        // an `O` 3 mm high (an x-height) is an o, an `s` 5 mm high an S.
        let line = [Self.symbol([("7", -0.1)], 0, 5, 3, 5), Self.symbol([(".", -0.3), ("-", -0.9)], 4, 7.5, 2, 0.3),
                    Self.symbol([("8", -0.1)], 7, 5, 3, 5), Self.symbol([(".", -0.3), ("-", -0.9)], 11, 9.5, 0.5, 0.4),
                    Self.symbol([("2", -0.1)], 12, 5, 3, 5), Self.symbol([("O", -0.4), ("o", -0.8)], 16, 7, 3, 3),
                    Self.symbol([("s", -0.4), ("S", -0.8)], 20, 5, 3, 5)]
        let checked = MathReadings.sizeChecked(line)
        #expect(checked.map(\.label) == ["7", "-", "8", ".", "2", "o", "S"])
        #expect(checked[1].candidates.map(\.label) == ["-", "."])
        // A small `2` raised after a digit is an exponent and stays a 2; one as small on the line is a z.
        let scripts = [Self.symbol([("7", -0.1)], 0, 5, 3, 5), Self.symbol([("2", -0.3), ("z", -0.9)], 3.5, 2.5, 2, 3),
                       Self.symbol([("+", -0.1)], 7, 6.5, 3, 3), Self.symbol([("2", -0.3), ("z", -0.9)], 11, 7, 3, 3),
                       Self.symbol([("+", -0.1)], 15, 6.5, 3, 3), Self.symbol([("8", -0.1)], 19, 5, 3, 5), Self.symbol([("4", -0.1)], 23, 5, 3, 5)]
        #expect(MathReadings.sizeChecked(scripts).map(\.label) == ["7", "2", "+", "z", "+", "8", "4"])
    }

    @Test func sizeDecidesCommaOrSlash() {
        // Digits 5 mm high: a 1.8 mm stroke the classifier calls `/` is a comma, a 6 mm one it calls
        // `,` a slash; without a comma (or a `1`: `aShortSlashBetweenDigitsIsAOne`) among its
        // candidates a short `/` stays one.
        let line = [Self.symbol([("5", -0.1)], 0, 5, 3, 5), Self.symbol([("/", -0.2), (",", -1.5)], 3.5, 9, 1, 1.8),
                    Self.symbol([("8", -0.1)], 5, 5, 3, 5), Self.symbol([(",", -0.2), ("/", -1.5)], 8.5, 4.5, 3, 6),
                    Self.symbol([("3", -0.1)], 12, 5, 3, 5), Self.symbol([("/", -0.2), ("(", -1.5)], 15.5, 8, 1, 1.8),
                    Self.symbol([("0", -0.1)], 17, 5, 3, 5)]
        let checked = MathReadings.sizeChecked(line)
        #expect(checked.map(\.label) == ["5", ",", "8", "/", "3", "/", "0"])
        #expect(checked[1].candidates.map(\.label) == [",", "/"] && checked[1].candidates[1].score == -0.2 - MathReadings.sizePenalty)
    }

    @Test func aCommaHangsBelowTheLineAPointSitsOnIt() {
        // Digits 5 mm high on a baseline at y = 10 (drifting 0.5 mm down the line): a 1.5 mm tick
        // the classifier calls `,` by 1.5 nats whose foot is on its neighbours' line is a point; a
        // mark it calls `.` that hangs 1.2 mm below is a comma; a comma that hangs stays one.
        let digit = { (x: Double, dy: Double) in Self.symbol([("6", -0.1)], x, 5 + dy, 3, 5) }
        let tick = [digit(0, 0), Self.symbol([(",", -0.2), (".", -1.7)], 3.5, 8.6, 0.6, 1.5), digit(5, 0.1)]
        let checked = MathReadings.sizeChecked(tick)
        #expect(checked.map(\.label) == ["6", ".", "6"])
        #expect(checked[1].candidates[1].score == -0.2 - MathReadings.commaFootPenalty)
        let hanging = [digit(10, 0.3), Self.symbol([(".", -0.2), (",", -1.7)], 13.5, 9.8, 0.6, 1.6), digit(15, 0.4)]
        #expect(MathReadings.sizeChecked(hanging).map(\.label) == ["6", ",", "6"])
        let comma = [digit(20, 0.5), Self.symbol([(",", -0.2), (".", -1.7)], 23.5, 9.9, 0.6, 1.5), digit(25, 0.5)]
        #expect(MathReadings.sizeChecked(comma).map(\.label) == ["6", ",", "6"])
    }

    /// Real ink of training writers (Fixtures/README.md): points drawn as short ticks the classifier
    /// calls commas (`6,7`, `6,2`), and a comma it calls a point (`245.5`).
    @Test func commasAndPointsOfTrainingWritersReadByTheirFoot() throws {
        try MathFixture.expectReadExactly("math-comma-foot.jsonl", ["6.7<6u", "6.2-7\\beta=", "5\\div245,5/95="])
    }

    @Test func aShortSlashBetweenDigitsIsAOne() {
        // Digits 5 mm high: a 4.2 mm stroke the classifier calls `/` by 1.3 nats over `1` is a `1`
        // between two digits; a 6 mm one stays a `/`, and so does a short one after a letter.
        let slash = { (x: Double, h: Double) in Self.symbol([("/", -0.2), ("1", -1.5)], x, 10 - h, 1.5, h) }
        let line = [Self.symbol([("5", -0.1)], 0, 5, 3, 5), slash(3.5, 4.2), Self.symbol([("7", -0.1)], 5.5, 5, 3, 5),
                    slash(9, 6), Self.symbol([("3", -0.1)], 11, 5, 3, 5)]
        let checked = MathReadings.sizeChecked(line)
        #expect(checked.map(\.label) == ["5", "1", "7", "/", "3"])
        #expect(checked[1].candidates[1].score == -0.2 - MathReadings.shortSlashPenalty)
        let afterLetter = [Self.symbol([("a", -0.1)], 0, 7, 3, 3), slash(3.5, 4.2), Self.symbol([("7", -0.1)], 5.5, 5, 3, 5)]
        #expect(MathReadings.sizeChecked(afterLetter).map(\.label) == ["a", "/", "7"])
    }

    @Test func aDigitThatHangsBelowTheLineIsADescenderLetter() {
        // Digits 5 mm high on a baseline at y = 10. A glyph the classifier calls `9` by 1.7 nats
        // over `g` whose foot hangs 1.3 mm below the line is the `g`; one on the line stays a `9`.
        let digit = { (x: Double) in Self.symbol([("2", -0.1)], x, 5, 3, 5) }
        let low = [digit(0), Self.symbol([("9", -0.3), ("g", -2.0)], 4, 6, 3, 5.3), digit(8)]
        let checked = MathReadings.sizeChecked(low)
        #expect(checked.map(\.label) == ["2", "g", "2"])
        #expect(checked[1].candidates[1].score == -0.3 - MathReadings.descenderFootPenalty)
        let onLine = [digit(0), Self.symbol([("9", -0.3), ("g", -2.0)], 4, 5, 3, 5), digit(8)]
        #expect(MathReadings.sizeChecked(onLine).map(\.label) == ["2", "9", "2"])
        // The other way: a `q` (by 1.7 nats over `9`) standing on the line is the `9`, one that
        // hangs stays a `q`; a capital `Y` that hangs is a `y`.
        let standing = [digit(0), Self.symbol([("q", -0.3), ("9", -2.0)], 4, 5.1, 3, 4.9), digit(8)]
        #expect(MathReadings.sizeChecked(standing).map(\.label) == ["2", "9", "2"])
        let hanging = [digit(0), Self.symbol([("q", -0.3), ("9", -2.0)], 4, 6.9, 3, 4.8), digit(8)]
        #expect(MathReadings.sizeChecked(hanging).map(\.label) == ["2", "q", "2"])
        let capital = [digit(0), Self.symbol([("Y", -0.3), ("y", -2.0)], 4, 6, 3, 5.3), digit(8)]
        #expect(MathReadings.sizeChecked(capital).map(\.label) == ["2", "y", "2"])
    }

    @Test func theSizeChecksMeasureWithTheReadingsClasses() {
        // Two strokes the classifier calls `/` (by 0.4 nats over `1`) give no digit height, so the
        // foot of the `9` between them, 1.3 mm below their baseline, is not measured. Measured as
        // the reading classes them, `1`s, it hangs: the glyph is a `g`. Symbols no check changes
        // keep their own classes.
        let slash = { (x: Double) in Self.symbol([("/", -0.1), ("1", -0.5)], x, 5, 1, 5) }
        let line = [slash(0), Self.symbol([("9", -0.3), ("g", -2.0)], 4, 6, 3, 5.3), slash(8)]
        #expect(MathReadings.sizeChecked(line).map(\.label) == ["/", "9", "/"])
        let measured = MathReadings.sizeChecked(line, as: ["1", "9", "1"])
        #expect(measured.map(\.label) == ["/", "g", "/"])
        #expect(measured[1].candidates[1].score == -0.3 - MathReadings.descenderFootPenalty)
    }

    @Test func aFractionPartAloneIsSizedByTheOtherPart() {
        // A bar at y = 10, digits 5 mm high below it: the glyph above, alone in its part, that the
        // classifier calls `0` by 1 nat over `o` is 3 mm high, an `o` at the denominator's size;
        // one 5 mm high stays a `0`.
        let bar = Self.symbol([("-", -0.1)], 0, 10, 10, 0.3)
        let one = Self.symbol([("1", -0.1)], 2, 11, 1, 5), two = Self.symbol([("2", -0.1)], 5, 11, 3, 5)
        let small = Self.symbol([("0", -0.2), ("o", -1.2)], 3.5, 6, 2.5, 3)
        #expect(MathReadings.sizeChecked([bar, one, small, two]).map(\.label) == ["-", "1", "o", "2"])
        let tall = Self.symbol([("0", -0.2), ("o", -1.2)], 3.5, 4, 3, 5)
        #expect(MathReadings.sizeChecked([bar, one, tall, two]).map(\.label) == ["-", "1", "0", "2"])
    }

    @Test func aRadicandAloneIsSizedByTheRowItsRadicalStandsOn() {
        // `7+` then a radical down to the line (digits 5 mm high on a baseline at y = 10) over a
        // glyph 2.8 mm high that the classifier calls `2` by 1 nat over `z`: an x-height beside
        // the line's digits, a `z`.
        let line = [Self.symbol([("7", -0.1)], 0, 5, 3, 5), Self.symbol([("+", -0.1)], 4, 6, 3, 3)]
        let glyph = { (y: Double) in Self.symbol([("2", -0.2), ("z", -1.2)], 13, y, 2.5, 2.8) }
        let standing = Self.symbol([("√", -0.1)], 9, 2.5, 8, 7.5)
        #expect(MathReadings.sizeChecked(line + [standing, glyph(7.2)]).map(\.label) == ["7", "+", "√", "z"])
        // The same radical ending 1.5 mm above the line (a script's, `^{\sqrt{0}}`, that the `+`
        // keeps on the line) does not stand on it: its glyph is judged by nothing but itself.
        let raised = Self.symbol([("√", -0.1)], 9, 1, 8, 7.5)
        #expect(MathReadings.sizeChecked(line + [raised, glyph(5.7)]).map(\.label) == ["7", "+", "√", "2"])
    }

    @Test func aSymbolOutsideAScriptIsNotMeasuredByIt() {
        // A `z` 3 mm high (the classifier's best by 1 nat over `Z`) alone on its line with its
        // superscript `4`, 3 mm high, and an `=`: the script, smaller than the line, gives no
        // digit height, so the `z` is not judged a capital by it.
        let base = Self.symbol([("z", -0.2), ("Z", -1.2)], 0, 7, 2.5, 3)
        let script = Self.symbol([("4", -0.1)], 3, 3.5, 2, 3)
        let equals = Self.symbol([("=", -0.1)], 7, 7.5, 3, 1.5)
        #expect(MathReadings.sizeChecked([base, script, equals]).map(\.label) == ["z", "4", "="])
        // Beside a digit of the line 5 mm high it is still the small letter, and at that digit's
        // height the capital.
        let digit = Self.symbol([("7", -0.1)], 10, 5, 3, 5)
        #expect(MathReadings.sizeChecked([base, script, equals, digit]).map(\.label) == ["z", "4", "=", "7"])
        let tall = Self.symbol([("z", -0.2), ("Z", -1.2)], 0, 5, 3.5, 5)
        #expect(MathReadings.sizeChecked([tall, script, equals, digit]).map(\.label) == ["Z", "4", "=", "7"])
    }

    /// Real ink of training writers (Fixtures/README.md): a base alone on its line with its script,
    /// read `C^{7}`, `9_{5}` and `2_{7}` before stop 45, when the script's smaller size measured it.
    @Test func basesOfTrainingWritersAreNotMeasuredByTheirScripts() throws {
        try MathFixture.expectReadExactly("math-script-measure.jsonl", ["c^{7}=", "a_{5}=", "z_{7}="])
    }

    /// Real ink of training writers (Fixtures/README.md): `\sqrt{o}` and `\sqrt{z}` on the line, read
    /// `\sqrt{0}` and `\sqrt{2}` before stop 45, and `^{\sqrt{0}}` raised as scripts, which a
    /// radicand sized by the line whatever its radical stands on read `^{\sqrt{o}}`.
    @Test func radicandsOfTrainingWritersAreSizedByTheLineTheirRadicalStandsOn() throws {
        try MathFixture.expectReadExactly("math-radicands.jsonl", [
            "(93-\\sqrt{o}\\div b)+W", "\\frac{\\cos(t)+h}{c}-\\sqrt{z}=k", "13\\div1^{\\sqrt{0}}", "7x-(702+\\theta)^{\\sqrt{0}}",
        ])
    }

    /// Real ink of training writers (Fixtures/README.md) whose `s`, `,` and `z` were size-checked
    /// beside neighbours the classifier misread (`5^{4}`, `6/1`, `=2` before stop 44).
    @Test func sizeChecksOfTrainingWritersMeasureWithTheReadingsClasses() throws {
        try MathFixture.expectReadExactly("math-remeasured.jsonl", ["s^{4}-\\sqrt{76}=", "9u-4j+6,1", "1^{3k}/\\alpha=z"])
    }

    /// Real ink of training writers (Fixtures/README.md) whose `q`, `y` and `g` the classifier read
    /// as `9`, `Y` and `9`, though they hang below the line (`77+85=99`, `(8Y-...`, `6p-9^{5}/\beta`).
    @Test func descenderLettersOfTrainingWritersReadByTheirFoot() throws {
        try MathFixture.expectReadExactly("math-descender-foot.jsonl", ["77+85=9q", "(8y-\\sqrt{c+4k}+t)\\leq9\\beta", "6p-g^{5}/\\beta"])
    }

    @Test func aDescenderLetterWhoseTopIsACapitalsIsTheCapital() {
        // Digits 5 mm high on a baseline at y = 10: a `y` (by 1.7 nats) whose top is 4.8 mm above
        // the line is a `Y` that hangs a little low; one whose top is at the x-height stays a `y`.
        let digit = { (x: Double) in Self.symbol([("2", -0.1)], x, 5, 3, 5) }
        let high = [digit(0), Self.symbol([("y", -0.3), ("Y", -2.0)], 4, 5.2, 3, 5.6), digit(8)]
        #expect(MathReadings.sizeChecked(high).map(\.label) == ["2", "Y", "2"])
        let low = [digit(0), Self.symbol([("y", -0.3), ("Y", -2.0)], 4, 6.9, 3, 4.8), digit(8)]
        #expect(MathReadings.sizeChecked(low).map(\.label) == ["2", "y", "2"])
    }

    @Test func aSmallLetterNineTenthsOfItsRowsDigitsIsTheCapital() {
        // Digits 5 mm high: a `w` the classifier prefers by 0.6 nats, 4.6 mm high on the line, is
        // a `W`; one 3.5 mm high stays a `w`.
        let digit = { (x: Double) in Self.symbol([("5", -0.1)], x, 5, 3, 5) }
        let tall = [digit(0), Self.symbol([("w", -0.3), ("W", -0.9)], 4, 5.4, 4, 4.6), digit(9)]
        #expect(MathReadings.sizeChecked(tall).map(\.label) == ["5", "W", "5"])
        let small = [digit(0), Self.symbol([("w", -0.3), ("W", -0.9)], 4, 6.5, 4, 3.5), digit(9)]
        #expect(MathReadings.sizeChecked(small).map(\.label) == ["5", "w", "5"])
    }

    @Test func fractionPartsAreMeasuredAgainstTheirOwnRow() {
        // Digits 7 mm high on the line; a denominator "W9" written smaller (4 mm digits): its 3.6 mm
        // `W` is a capital beside its own 9, though only half the line's digit height.
        let bar = Self.symbol([("-", -0.1)], 20, 14, 10, 0.3)
        let line = [Self.symbol([("8", -0.1)], 0, 10, 4, 7), Self.symbol([("8", -0.1)], 5, 10, 4, 7),
                    Self.symbol([("+", -0.1)], 15, 12.5, 3, 3), bar, Self.symbol([("4", -0.1)], 23, 9.5, 3, 4),
                    Self.symbol([("W", -0.6), ("w", -0.7)], 21, 14.8, 3.5, 3.6), Self.symbol([("9", -0.1)], 25.5, 14.6, 3, 4)]
        #expect(MathReadings.sizeChecked(line).map(\.label) == ["8", "8", "+", "-", "4", "W", "9"])
        // The same `W` on the line beside 7 mm digits is a small w.
        let small = [line[0], line[1], Self.symbol([("W", -0.6), ("w", -0.7)], 10, 13.4, 3.5, 3.6)]
        #expect(MathReadings.sizeChecked(small).map(\.label) == ["8", "8", "w"])
    }

    @Test func operatorsAloneGiveNoScaleForLetterCase() {
        // "x=": an x 2.2 mm high beside a 2 mm wide `=` is not judged by the `=`'s width (no digit
        // height is known), so the classifier's small x stands; with a 5 mm digit before it, the
        // same x is a capital's height and its capital wins.
        let x = Self.symbol([("x", -0.3), ("X", -0.9)], 4, 0, 2.4, 5)
        let alone = [Self.symbol([("x", -0.3), ("X", -0.9)], 0, 0, 2.4, 2.2), Self.symbol([("=", 0)], 3, 0.5, 2, 1.2)]
        #expect(MathReadings.sizeChecked(alone).map(\.label) == ["x", "="])
        let withDigit = [Self.symbol([("3", -0.1)], 0, 0, 3, 5), x, Self.symbol([("=", 0)], 7.5, 2, 2, 1.2)]
        #expect(MathReadings.sizeChecked(withDigit).map(\.label) == ["3", "X", "="])
    }

    @Test func aSmallLetterAsTallAsADigitIsAnAscenderLetter() {
        // "8b": a `b` as tall as the 8 that the classifier calls `e` (its loop is all it sees) is a
        // `b`; the same `e` at x-height stays an `e`.
        let tall = [Self.symbol([("8", -0.1)], 0, 0, 3, 5), Self.symbol([("e", -0.5), ("b", -3)], 4, 0, 3, 5)]
        #expect(MathReadings.sizeChecked(tall).map(\.label) == ["8", "b"])
        let small = [tall[0], Self.symbol([("e", -0.5), ("b", -3)], 4, 2, 3, 3)]
        #expect(MathReadings.sizeChecked(small).map(\.label) == ["8", "e"])
    }

    @Test func aScriptsMinusIsNoDotHoweverSureTheClassifierIs() {
        // "c^{5-6}": script digits 2 mm high; a 1 mm bar (half their height) that the classifier,
        // seeing it alone, calls a dot by 6 nats is the script's minus.
        let line = [Self.symbol([("c", -0.1)], 0, 3, 2.5, 2.5), Self.symbol([("5", -0.1)], 3, 1, 1.3, 2),
                    Self.symbol([(".", 0), ("-", -6)], 4.6, 1.9, 1, 0.25), Self.symbol([("6", -0.1)], 5.9, 1, 1.3, 2)]
        #expect(MathReadings.sizeChecked(line).map(\.label) == ["c", "5", "-", "6"])
    }

    @Test func aDescenderBelowTheLineIsALetter() {
        // Digits 5 mm high on a baseline at y = 15; a symbol the classifier calls `9` a little more
        // than `g` reaches 1.75 mm below it, where a `g`'s tail goes and no `9` does: the reading
        // ranks `g` first, with the prior and without.
        let line = [Self.symbol([("8", -0.1)], 0, 10, 3, 5), Self.symbol([("+", -0.1)], 4, 11, 3, 3),
                    Self.symbol([("9", -0.3), ("g", -0.6)], 8, 11.9, 3, 4.85), Self.symbol([("=", -0.1)], 12, 11.8, 3, 1.5)]
        let ticks = [Double?](repeating: nil, count: line.count)
        #expect(MathReadings.nBest(symbols: line, ticks: ticks, limit: 3).readings.first?.latex == "8+g=")
        #expect(MathReadings.nBest(symbols: line, ticks: ticks, limit: 3, context: ctx, weight: 0.5).readings.first?.latex == "8+g=")
        // Standing on the line, the same ink is a 9.
        var onLine = line
        onLine[2].box = MathBox(x: 8, y: 10.1, width: 3, height: 4.85)
        #expect(MathReadings.nBest(symbols: onLine, ticks: ticks, limit: 3).readings.first?.latex == "8+9=")
    }

    @Test func twoParallelBarsMayPairFarApart() {
        // Small digits (3 mm: the reference size) and an `=` whose bars are 2.5 mm apart, more than
        // 0.6 of it: still one hypothesis. A short bar under a long one (a minus under a fraction bar) is not.
        func line(_ x: Double, _ y: Double, _ w: Double) -> [SIMD2<Double>] { [SIMD2(x, y), SIMD2(x + w / 2, y + 0.05), SIMD2(x + w, y)] }
        func digit(_ x: Double) -> [SIMD2<Double>] { [SIMD2(x, 8), SIMD2(x + 0.5, 9.5), SIMD2(x + 0.2, 11)] }
        let strokes = [digit(0), digit(2), digit(4), line(6, 8.5, 5), line(6.2, 11, 4.8), digit(12)]
        #expect(MathSegmenter.hypotheses(strokes).contains([3, 4]))
        let fraction = [digit(0), digit(2), digit(4), line(6, 8.5, 12), line(9, 11, 3), digit(12)]
        #expect(!MathSegmenter.hypotheses(fraction).contains([3, 4]))
    }

    @Test func anIsDotOffItsStemStillJoinsIt() {
        // Digits 5 mm high (the reference size); an i's stem 3 mm high and its dot 1.2 mm to the
        // right of it and 1.5 mm above: one hypothesis. A decimal point at the foot of a digit is not.
        func digit(_ x: Double) -> [SIMD2<Double>] { [SIMD2(x, 5), SIMD2(x + 1, 7.5), SIMD2(x + 0.5, 10)] }
        let stem: [SIMD2<Double>] = [SIMD2(10, 7), SIMD2(10.2, 8.5), SIMD2(10.3, 10)]
        let dot: [SIMD2<Double>] = [SIMD2(11.5, 5.2), SIMD2(11.6, 5.3)]
        #expect(MathSegmenter.hypotheses([digit(0), digit(4), stem, dot, digit(14)]).contains([2, 3]))
        let point: [SIMD2<Double>] = [SIMD2(6.2, 9.8), SIMD2(6.3, 9.9)]
        #expect(!MathSegmenter.dotAbove(MathSegmenter.boxes([point])[0], MathSegmenter.boxes([digit(4)])[0], 5))
    }
}
