import Foundation
import InkMath
import InkRender
@testable import Quire
import QuireTestSupport
import QuireTools
import Testing

/// Converted math edited by pen (`digitalEdit`): scratch-out removes the typeset symbols it
/// covers, ink written into typeset math is read with it. Real weights, real handwriting
/// (validation writers: Fixtures/README.md, QuireAppTests/Fixtures/README.md), real font metrics.
@Suite(.serialized) struct MathPenEditTests {
    static let calc: [MathSample] = (try? MathSample.read(path: repositoryRoot
        .appendingPathComponent("Tests/QuireAppTests/Fixtures/calc-12plus7.jsonl").path)) ?? []

    struct Session {
        let dir = TempDir()
        let editor: Editor
        let package: ContentPackage
        let metrics = CairoFontMetrics()

        init() throws {
            let url = try #require(MathRecognizerAdapter.defaultWeightsURL())
            let pkg = try Engine().createPackage(dir.path("math.iink"))
            package = pkg
            editor = try Engine().createEditor(fontMetricsProvider: metrics)
            try editor.setViewSize(width: 1000, height: 700)
            editor.register(MathRecognizerAdapter(modelURL: url))
            try editor.setPart(pkg.createPart(type: PartType.math.rawValue))
        }

        var lines: [TypesetMath.Line] { editor.rootBlock?.data.flatMap { TypesetMath.decode($0.properties)?.lines } ?? [] }
        var latex: String { (try? editor.export(nil, mimeType: .latex)) ?? "" }

        /// Writes some symbols of a sample (all by default) with their box's top-left at `at`
        /// (mm), scaled to `height` mm when given.
        func write(_ s: MathSample, symbols: [Int]? = nil, at: Point, height: Double? = nil) throws {
            let strokes = (symbols ?? Array(s.symbols.indices)).flatMap { s.symbols[$0].strokes }.sorted().map { s.strokes[$0] }
            let pts = strokes.joined()
            let x0 = pts.map(\.x).min() ?? 0, y0 = pts.map(\.y).min() ?? 0, y1 = pts.map(\.y).max() ?? 1
            let k = height.map { $0 / max(y1 - y0, 1e-3) } ?? 1
            var events: [PointerEvent] = []
            var t: Int64 = 1_700_000_000_000
            for stroke in strokes where !stroke.isEmpty {
                for (i, p) in stroke.enumerated() {
                    let v = editor.viewTransform.apply(Point(x: at.x + (p.x - x0) * k, y: at.y + (p.y - y0) * k))
                    t += 8
                    events.append(i == 0 ? .down(x: v.x, y: v.y, t: t, f: 0.5) : .move(x: v.x, y: v.y, t: t, f: 0.5))
                }
                let l = stroke.last!
                let v = editor.viewTransform.apply(Point(x: at.x + (l.x - x0) * k, y: at.y + (l.y - y0) * k))
                events.append(.up(x: v.x, y: v.y, t: t + 4, f: 0.5))
            }
            try editor.pointerEvents(events, processGestures: false)
            try editor.waitForIdle()
        }

        /// A zig-zag scratch-out over `r` (mm).
        func scratch(_ r: Rect) throws {
            let pts = (0...6).map { i in editor.viewTransform.apply(Point(x: i % 2 == 0 ? r.x : r.maxX, y: r.y + r.height * Double(i) / 6)) }
            try editor.pointerDown(x: pts[0].x, y: pts[0].y, t: 5000, f: 0.5, type: .pen, pointerId: -1)
            for (k, p) in pts.enumerated().dropFirst() {
                for j in 1...8 {
                    let q = pts[k - 1], a = Double(j) / 8
                    try editor.pointerMove(x: q.x + (p.x - q.x) * a, y: q.y + (p.y - q.y) * a, t: 5000 + Int64(k * 80 + j * 10), f: 0.5, type: .pen, pointerId: -1)
                }
            }
            try editor.pointerUp(x: pts.last!.x, y: pts.last!.y, t: 5700, f: 0.5, type: .pen, pointerId: -1)
            try editor.waitForIdle()
        }

        /// The typeset glyphs of expression `i` (results beside ink not counted) on the page.
        func glyphs(_ i: Int = 0) throws -> MathEditing.Typeset {
            let line = lines.filter { !$0.latex.isEmpty }[i]
            return try #require(MathEditing.typeset(line, metrics: metrics), "line \(line.latex) reads back")
        }

        func convert() throws {
            try editor.convert(nil, targetState: .digitalEdit)
            try editor.waitForIdle()
        }
    }

    /// "12+7=" written and converted: the typeset line and its result.
    static func converted12plus7() throws -> Session {
        let s = try Session()
        try s.write(try #require(calc.first), at: Point(x: 20, y: 20))
        try s.convert()
        #expect(s.lines.map(\.latex) == ["12+7="] && s.lines.first?.result == "19")
        #expect(s.editor.part?.model.strokes.isEmpty == true)
        return s
    }

    @Test func scratchOutRemovesOneSymbolAndUndoRestoresIt() throws {
        let s = try Self.converted12plus7()
        let seven = try #require(try s.glyphs().glyphs.first { $0.symbol == "7" })
        try s.scratch(seven.box.insetBy(dx: -0.3, dy: -0.3))
        #expect(s.editor.part?.model.strokes.isEmpty == true, "the scratch-out is not ink")
        #expect(s.lines.map(\.latex) == ["12+="], "only the 7 went")
        #expect(s.lines.first?.result == nil && s.lines.first?.diagnostic != nil, "re-solved: no value, a diagnostic")
        #expect(s.latex == "12+=")
        let json = try JSONValue.parse(Data(try s.editor.export(nil, mimeType: .json).utf8), what: "export")
        #expect(json["math"]?["expressions"]?.arrayValue?.first?["latex"]?.stringValue == "12+=")
        s.editor.undo()
        #expect(s.lines.map(\.latex) == ["12+7="] && s.lines.first?.result == "19", "one undo step brings the 7 back")
        s.editor.redo()
        #expect(s.lines.map(\.latex) == ["12+="])
    }

    /// The scratched 7's place stays open (the symbols left do not move) until the next convert,
    /// and the same writer's 2 written there is read in order with them: 12+2=14.
    @Test func inkWrittenIntoTheGapIsReadInPlaceThenConverted() throws {
        let s = try Self.converted12plus7()
        let before = try s.glyphs().visible
        let seven = try #require(before.first { $0.symbol == "7" })
        try s.scratch(seven.box.insetBy(dx: -0.3, dy: -0.3))
        #expect(s.lines.map(\.latex) == ["12+="])
        let t = try s.glyphs()
        #expect(t.visible.map(\.symbol) == ["1", "2", "+", "="])
        for (a, b) in zip(t.visible, before.filter { $0.symbol != "7" }) {
            #expect(abs(a.box.x - b.box.x) < 1e-9 && abs(a.box.y - b.box.y) < 1e-9, "\(a.symbol) stays where it was")
        }
        // The 2 of the sample, as tall as the 7 was, in its place.
        let line = try #require(s.lines.first)
        try s.write(try #require(Self.calc.first), symbols: [1], at: Point(x: seven.box.x, y: seven.box.y), height: seven.box.height)
        #expect(s.latex == "12+2=14", "the ink is read with the typeset symbols and solved")
        let offers = s.editor.mathClipboardOffers(try #require(s.editor.rootBlock))
        #expect(offers["application/x-latex"].map { String(decoding: $0, as: UTF8.self) } == "12+2=14", "copy as LaTeX")
        #expect(s.lines.first?.latex == "12+=", "the typeset line waits for the next convert")
        #expect(s.lines.contains { $0.latex.isEmpty && $0.result == "14" }, "the result shows right of the ink")
        let written = try #require(s.lines.first)
        #expect(written.scratched?.filled == written.scratched?.glyphs, "the 7's place is filled")
        let drawn = try #require(MathTypesetter(font: FontSpec(size: written.size), metrics: s.metrics).drawn(written))
        #expect(!drawn.marks.contains { if case .path = $0 { return true } else { return false } }, "so its outline goes")
        try s.convert()
        #expect(s.editor.part?.model.strokes.isEmpty == true)
        #expect(s.lines.map(\.latex) == ["12+2="] && s.lines.first?.result == "14")
        #expect(s.lines.first?.scratched == nil, "typeset afresh")
        #expect(abs((s.lines.first?.x ?? 0) - line.x) < 1e-9, "in place")
        s.editor.undo()
        #expect(s.lines.first?.latex == "12+=" && s.editor.part?.model.strokes.isEmpty == false, "undo brings back the ink")
        #expect(try s.glyphs().visible.first { $0.symbol == "=" }?.box.x == before.first { $0.symbol == "=" }?.box.x, "and the gap")
    }

    /// The JSON export of ink read with typeset symbols carries the symbols of both (which is
    /// which), the ink's candidates, box and strokes, and the n-best of the whole.
    @Test func jsonOfInkWrittenIntoTypesetMathHasBothSymbols() throws {
        let s = try Self.converted12plus7()
        let seven = try #require(try s.glyphs().visible.first { $0.symbol == "7" })
        try s.scratch(seven.box.insetBy(dx: -0.3, dy: -0.3))
        try s.write(try #require(Self.calc.first), symbols: [1], at: Point(x: seven.box.x, y: seven.box.y), height: seven.box.height)
        let json = try JSONValue.parse(Data(try s.editor.export(nil, mimeType: .json).utf8), what: "export")
        let e = try #require(json["math"]?["expressions"]?.arrayValue?.first)
        #expect(e["latex"]?.stringValue == "12+2=" && e["result"]?.stringValue == "14" && e["converted"]?.boolValue == true)
        let symbols = try #require(e["symbols"]?.arrayValue)
        #expect(symbols.compactMap { $0["label"]?.stringValue } == ["1", "2", "+", "2", "="], "left to right")
        #expect(symbols.compactMap { $0["source"]?.stringValue } == ["typeset", "typeset", "typeset", "ink", "typeset"])
        let ink = symbols[3]
        let strokeIds = Set(s.editor.part?.model.strokes.keys.map { $0 } ?? [])
        let inkIds = ink["strokeIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(!inkIds.isEmpty && Set(inkIds) == strokeIds, "the ink symbol names its strokes")
        #expect((ink["candidates"]?.arrayValue?.count ?? 0) > 1 && ink["candidates"]?.arrayValue?.first?["label"]?.stringValue == "2")
        #expect((ink["box"]?["x"]?.doubleValue ?? 0) > seven.box.x - 1, "its box where it was written")
        #expect(symbols[4]["strokeIds"]?.arrayValue?.isEmpty == true && symbols[4]["candidates"]?.arrayValue?.count == 1)
        let candidates = try #require(e["candidates"]?.arrayValue?.compactMap { $0["latex"]?.stringValue })
        #expect(candidates.first == "12+2=" && candidates.count > 1 && candidates.allSatisfy { $0.hasPrefix("12+") && $0.hasSuffix("=") },
                "the n-best of the whole: \(candidates)")
        #expect(e["box"]?["width"]?.doubleValue != nil)
    }

    /// `quire recognize` of the saved package reads the ink with the typeset math it is written
    /// into, as the editor does (it printed the ink alone: `2`).
    @Test func recognizeReadsInkWithTheTypesetLine() throws {
        let s = try Self.converted12plus7()
        let seven = try #require(try s.glyphs().visible.first { $0.symbol == "7" })
        try s.scratch(seven.box.insetBy(dx: -0.3, dy: -0.3))
        try s.write(try #require(Self.calc.first), symbols: [1], at: Point(x: seven.box.x, y: seven.box.y), height: seven.box.height)
        #expect(s.latex == "12+2=14")
        try s.package.save()
        s.package.close()
        let r = try runQuire(["recognize", s.dir.path("math.iink")])
        #expect(r.status == 0 && r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "12+2=", "\(r.out) \(r.err)")
        let j = try runQuire(["recognize", s.dir.path("math.iink"), "--json"])
        let json = try JSONValue.parse(Data(j.out.utf8), what: "recognize")
        let block = json["parts"]?.arrayValue?.first?["blocks"]?.arrayValue?.first
        #expect(block?["latex"]?.stringValue == "12+2=")
        #expect(block?["expressions"]?.arrayValue?.first?["latex"]?.stringValue == "2", "the ink alone, with its symbols")
    }

    /// The place kept open is drawn as an outlined slot; a convert with nothing written closes it
    /// up (one undo step), and a second scratch-out keeps both places open.
    @Test func scratchedPlacesCloseUpOnConvert() throws {
        let s = try Self.converted12plus7()
        let before = try s.glyphs().visible
        let eqBefore = try #require(before.first { $0.symbol == "=" }).box.x
        try s.scratch(try #require(before.first { $0.symbol == "7" }).box.insetBy(dx: -0.3, dy: -0.3))
        try s.scratch(before[0].box.union(before[1].box).insetBy(dx: -0.2, dy: -0.2))
        #expect(s.lines.map(\.latex) == ["+="])
        #expect(try s.glyphs().visible.first { $0.symbol == "=" }?.box.x == eqBefore, "two places open, nothing moved")
        let line = try #require(s.lines.first)
        let drawn = try #require(MathTypesetter(font: FontSpec(size: line.size), metrics: s.metrics).drawn(line))
        let slots = drawn.marks.filter { if case .path = $0 { return true } else { return false } }
        #expect(slots.count == 2, "each place outlined")
        let texts = drawn.marks.compactMap { if case .text(let t, _, _, _, _) = $0 { return t } else { return nil } }
        #expect(texts == ["+", "="], "the 12 and the 7 undrawn")
        try s.convert()
        #expect(s.lines.map(\.latex) == ["+="] && s.lines.first?.scratched == nil)
        #expect(try s.glyphs().visible.first { $0.symbol == "=" }!.box.x < eqBefore - 1, "closed up")
        s.editor.undo()
        #expect(s.lines.first?.scratched != nil, "undo opens the places again")
    }

    /// Symbols scratched out a few at a time; when none is left, the expression goes.
    @Test func scratchingEverySymbolRemovesTheExpression() throws {
        let s = try Self.converted12plus7()
        let g = try s.glyphs().glyphs
        let twelve = g[0].box.union(g[1].box)
        try s.scratch(twelve.insetBy(dx: -0.2, dy: -0.2))
        #expect(s.lines.map(\.latex) == ["+7="], "the 12 went")
        try s.scratch(try s.glyphs().box.insetBy(dx: -0.5, dy: -0.5))
        #expect(s.lines.isEmpty, "no symbol left: the expression goes")
        #expect(s.editor.part?.model.strokes.isEmpty == true)
        s.editor.undo()
        #expect(s.lines.map(\.latex) == ["+7="])
        s.editor.undo()
        #expect(s.lines.map(\.latex) == ["12+7="] && s.lines.first?.result == "19")
    }

    /// A fraction part scratched out leaves a slot; a digit written into it goes there. The bar
    /// scratched out takes the whole fraction.
    @Test func fractionSlotIsWrittenIntoAndItsBarRemovesIt() throws {
        let s = try Session()
        try s.write(try MathFixture.sample("\\frac{\\beta+4}{9}"), at: Point(x: 20, y: 20))
        try s.convert()
        #expect(s.lines.map(\.latex) == ["\\frac{\\beta+4}{9}"])
        let nine = try #require(try s.glyphs().glyphs.first { $0.symbol == "9" })
        try s.scratch(nine.box.insetBy(dx: -0.2, dy: -0.2))
        #expect(s.lines.map(\.latex) == ["\\frac{\\beta+4}{}"], "the denominator's slot stays")
        let bar = try #require(try s.glyphs().glyphs.first { $0.kind == .fractionBar })
        let line = try #require(s.lines.first)
        let h = 0.85 * 0.73 * line.size
        try s.write(try #require(Self.calc.first), symbols: [3], at: Point(x: bar.box.midX - h / 3, y: bar.box.maxY + 0.12 * line.size), height: h)
        #expect(s.latex == "\\frac{\\beta+4}{7}", "the digit is read into the denominator")
        let json = try JSONValue.parse(Data(try s.editor.export(nil, mimeType: .json).utf8), what: "export")
        #expect(json["math"]?["expressions"]?.arrayValue?.first?["latex"]?.stringValue == "\\frac{\\beta+4}{7}")
        try s.convert()
        #expect(s.lines.map(\.latex) == ["\\frac{\\beta+4}{7}"])
        let newBar = try #require(try s.glyphs().glyphs.first { $0.kind == .fractionBar })
        try s.scratch(newBar.hitBox)
        #expect(s.lines.isEmpty, "the bar takes its numerator and denominator: nothing is left")
        s.editor.undo()
        #expect(s.lines.map(\.latex) == ["\\frac{\\beta+4}{7}"])
    }

    /// A radical sign scratched out leaves its radicand.
    @Test func radicalSignScratchedOutLeavesItsRadicand() throws {
        let s = try Session()
        try s.write(try MathFixture.sample("44+\\sqrt{0}-7^{6}"), at: Point(x: 20, y: 20))
        try s.convert()
        #expect(s.lines.map(\.latex) == ["44+\\sqrt{0}-7^{6}"])
        let sign = try #require(try s.glyphs().glyphs.first { $0.kind == .radical })
        // Sideways over the sign's tick and stem (its overbar and the radicand stay uncovered).
        let r = sign.hitBox
        try s.scratch(Rect(x: r.x - 0.4, y: r.y + 0.15 * r.height, width: r.width + 0.8, height: 0.7 * r.height))
        #expect(s.lines.map(\.latex) == ["44+0-7^{6}"])
        #expect(s.latex == "44+0-7^{6}")
    }

    /// Ink after a converted expression continues it; a small raised digit is a superscript.
    @Test func inkAppendedAndRaisedIsReadWithTheTypesetLine() throws {
        let s = try Session()
        let calc = try #require(Self.calc.first)
        try s.write(calc, symbols: [0, 1, 2, 3], at: Point(x: 20, y: 20))
        try s.write(try MathFixture.sample("3b="), symbols: [0, 1], at: Point(x: 20, y: 50), height: 4)
        try s.convert()
        #expect(s.lines.map(\.latex) == ["12+7", "3b"])
        // "+7=" (the same writer's) right after the typeset 12+7, its 7 on the line's baseline.
        let first = try s.glyphs(0), line = s.lines[0]
        let top = calc.symbols[2...4].flatMap { $0.strokes }.flatMap { calc.strokes[$0] }.map(\.y).min() ?? 0
        let sevenBottom = calc.symbols[3].strokes.flatMap { calc.strokes[$0] }.map(\.y).max() ?? 0
        try s.write(calc, symbols: [2, 3, 4], at: Point(x: first.box.maxX + 0.25 * line.size, y: line.baseline - (sevenBottom - top)))
        #expect(s.latex.hasPrefix("12+7+7=26\n"), "12+7 and the ink +7= read as one: \(s.latex)")
        // A small 2 up to the right of the typeset b.
        let b = try #require(try s.glyphs(1).glyphs.first { $0.symbol == "b" })
        try s.write(calc, symbols: [1], at: Point(x: b.box.maxX + 0.3, y: b.box.y - 1.2), height: 0.6 * b.box.height)
        #expect(s.latex == "12+7+7=26\n3b^{2}")
        try s.convert()
        #expect(s.lines.map(\.latex) == ["12+7+7=", "3b^{2}"])
        #expect(s.lines.first?.result == "26")
        s.editor.undo()
        #expect(s.lines.filter { !$0.latex.isEmpty }.map(\.latex) == ["12+7", "3b"], "one undo step")
    }
}
