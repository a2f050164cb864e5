import Foundation
import InkMath
@testable import Quire
import Testing

/// Reads Math blocks from a script: the block's strokes, grouped into lines by height, are one
/// symbol each, labelled and parsed from the test's LaTeX (a test double for the math recognizer).
final class ScriptedMathRecognizer: BlockPropertiesRecognizer, @unchecked Sendable {
    let blockTypes = ["Math"]
    /// Per line, top to bottom: the expression and one symbol label per stroke.
    let lines: [(latex: String, symbols: [String])]
    init(_ lines: [(String, [String])]) { self.lines = lines.map { ($0.0, $0.1) } }

    func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] { try recognizeWithProperties(r).words }

    func recognizeWithProperties(_ r: RecognitionRequest) throws -> (words: [RecognizedWord], properties: [String: String]) {
        let strokes = r.strokes.sorted { $0.bounds.midY < $1.bounds.midY }
        var groups: [[InkStroke]] = []
        for s in strokes {
            if let last = groups.last?.last, s.bounds.midY - last.bounds.midY < 6 { groups[groups.count - 1].append(s) } else { groups.append([s]) }
        }
        var expressions: [MathExpression] = []
        for (k, g) in groups.enumerated() where k < lines.count {
            let line = g.sorted { $0.bounds.x < $1.bounds.x }
            let node = try MathNode.parse(latex: lines[k].latex)
            func box(_ b: Rect) -> MathBox { MathBox(x: b.x, y: b.y, width: b.width, height: b.height) }
            let symbols = line.enumerated().map { i, s in
                MathSymbol(label: i < lines[k].symbols.count ? lines[k].symbols[i] : "?", candidates: [], box: box(s.bounds),
                           strokeIndices: [], strokeIds: [s.id])
            }
            let all = line.dropFirst().reduce(line[0].bounds) { $0.union($1.bounds) }
            expressions.append(MathExpression(node: node, latex: node.latex, symbols: symbols,
                                              candidates: [MathExpressionCandidate(node: node, latex: node.latex, score: 0)],
                                              box: box(all), strokeIndices: []))
        }
        let result = MathRecognitionResult(expressions: expressions)
        return (MathBlockResult.words(result), [MathBlockResult.propertyKey: try MathBlockResult.encode(result)])
    }
}

@Suite struct MathEditorTests {
    /// Writes one short stroke per symbol on a line at `y` (view pixels), 30 px apart.
    static func writeLine(_ f: Fixture, symbols: Int, x: Double = 40, y: Double) throws {
        for i in 0..<symbols { try f.write(x: x + Double(i) * 30, y: y, length: 20) }
    }

    static func typeset(_ f: Fixture, _ block: ContentBlock?) throws -> [TypesetMath.Line] {
        let b = try #require(block?.data)
        return TypesetMath.decode(b.properties)?.lines ?? []
    }

    @Test func resultAppearsBesideTheInkAfterEquals() throws {
        let f = try Fixture(type: "Math")
        f.editor.register(ScriptedMathRecognizer([("12+7=", ["1", "2", "+", "7", "="])]))
        try Self.writeLine(f, symbols: 5, y: 100)
        try f.editor.waitForIdle()
        let lines = try Self.typeset(f, f.editor.rootBlock)
        #expect(lines.count == 1)
        #expect(lines.first?.latex == "" && lines.first?.result == "19")
        let ink = try #require(f.editor.rootBlock?.data.flatMap(MathBlockResult.result)?.expressions.first)
        #expect((lines.first?.x ?? 0) > ink.box.maxX, "the result is right of the ink")
        #expect(try f.editor.export(nil, mimeType: .latex) == "12+7=19")
        #expect(try f.editor.export(nil, mimeType: .text) == "12+7=19")
        #expect(try f.editor.export(nil, mimeType: .mathml) == "<math xmlns=\"http://www.w3.org/1998/Math/MathML\"><mn>12</mn><mo>+</mo><mn>7</mn><mo>=</mo><mn>19</mn></math>")
        #expect(f.editor.supportedExportMimeTypes(for: nil).contains(.latex))
    }

    @Test func variablesCarryFromLineToLineAndErrorsAreDiagnostics() throws {
        let f = try Fixture(type: "Math")
        f.editor.register(ScriptedMathRecognizer([("x=3", ["x", "=", "3"]), ("2x+1=", ["2", "x", "+", "1", "="]),
                                                  ("\\frac{1}{0}=", ["1", "-", "0", "="])]))
        try Self.writeLine(f, symbols: 3, y: 100)
        try Self.writeLine(f, symbols: 5, y: 200)
        try Self.writeLine(f, symbols: 4, y: 300)
        try f.editor.waitForIdle()
        let lines = try Self.typeset(f, f.editor.rootBlock)
        #expect(lines.map(\.result) == ["7", nil])
        #expect(lines.last?.diagnostic == "division by zero")
        #expect(try f.editor.export(nil, mimeType: .latex) == "x=3\n2x+1=7\n\\frac{1}{0}=")
    }

    @Test func convertTypesetsInPlaceAsOneUndoStep() throws {
        let f = try Fixture(type: "Math")
        f.editor.register(ScriptedMathRecognizer([("12+7=", ["1", "2", "+", "7", "="])]))
        try Self.writeLine(f, symbols: 5, y: 100)
        try f.editor.waitForIdle()
        let root = try #require(f.editor.rootBlock)
        let before = try #require(root.data)
        let ink = try #require(MathBlockResult.result(of: before)?.expressions.first)
        let strokeCount = f.part.model.strokes.count
        #expect(strokeCount == 5)
        try f.editor.convert(nil, targetState: .digitalEdit)
        try f.editor.waitForIdle()
        #expect(f.part.model.strokes.isEmpty)
        let lines = try Self.typeset(f, f.editor.rootBlock)
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.latex == "12+7=" && line.result == "19")
        #expect(abs(line.x - ink.box.x) < 1e-9, "typeset where the ink began")
        // The baseline sits below the "=" (on the math axis) and the size follows the digits' height.
        let eq = try #require(ink.symbols.last)
        #expect(line.baseline > eq.box.y + eq.box.height / 2)
        #expect(try f.editor.export(nil, mimeType: .latex) == "12+7=19")
        f.editor.undo()
        try f.editor.waitForIdle()
        #expect(f.part.model.strokes.count == 5, "undo restores the ink")
        #expect(try Self.typeset(f, f.editor.rootBlock).first?.latex == "", "and the result beside it, not the typeset line")
        f.editor.redo()
        #expect(f.part.model.strokes.isEmpty)
        #expect(try Self.typeset(f, f.editor.rootBlock).first?.latex == "12+7=")
    }

    @Test func scratchOutRemovesATypesetExpression() throws {
        let f = try Fixture(type: "Math")
        f.editor.register(ScriptedMathRecognizer([("x=3", ["x", "=", "3"]), ("2x+1=", ["2", "x", "+", "1", "="])]))
        try Self.writeLine(f, symbols: 3, y: 100)
        try Self.writeLine(f, symbols: 5, y: 200)
        try f.editor.waitForIdle()
        try f.editor.convert(nil, targetState: .digitalEdit)
        try f.editor.waitForIdle()
        #expect(try Self.typeset(f, f.editor.rootBlock).map(\.latex) == ["x=3", "2x+1="])
        let b = try #require(f.editor.rootBlock?.data)
        let box = try #require(MathBlocks.typesetBoxes(b, metrics: FixedMetrics()).first?.box)
        // A zig-zag over the first expression, in view pixels.
        let pts = (0...6).map { i in f.editor.viewTransform.apply(Point(x: i % 2 == 0 ? box.x - 0.5 : box.maxX + 0.5, y: box.y + box.height * Double(i) / 6)) }
        try f.editor.pointerDown(x: pts[0].x, y: pts[0].y, t: 5000, f: 0.5, type: .pen, pointerId: -1)
        for (k, p) in pts.enumerated().dropFirst() {
            for j in 1...8 {
                let q = pts[k - 1], a = Double(j) / 8
                try f.editor.pointerMove(x: q.x + (p.x - q.x) * a, y: q.y + (p.y - q.y) * a, t: 5000 + Int64(k * 80 + j * 10), f: 0.5, type: .pen, pointerId: -1)
            }
        }
        try f.editor.pointerUp(x: pts.last!.x, y: pts.last!.y, t: 5700, f: 0.5, type: .pen, pointerId: -1)
        try f.editor.waitForIdle()
        #expect(f.part.model.strokes.isEmpty, "the scratch-out is not ink")
        let lines = try Self.typeset(f, f.editor.rootBlock)
        #expect(lines.map(\.latex) == ["2x+1="])
        #expect(lines.first?.diagnostic == "x has no value", "x's assignment went with its line")
        f.editor.undo()
        #expect(try Self.typeset(f, f.editor.rootBlock).map(\.result) == [nil, "7"])
    }

    @Test func mathBlockInATextDocument() throws {
        let f = try Fixture(type: "Text Document")
        f.editor.register(ScriptedMathRecognizer([("\\frac{1}{3}+\\frac{1}{6}=", ["1", "-", "3", "+", "1", "-", "6", "="])]))
        let math = try f.editor.addBlock(at: Point(x: 20, y: 60), type: "Math")
        #expect(f.editor.supportedAddBlockTypes.contains("Math"))
        let box = f.editor.viewTransform.apply(math.box)
        try Self.writeLine(f, symbols: 8, x: box.x + 10, y: box.y + box.height / 2)
        try f.editor.waitForIdle()
        #expect(try Self.typeset(f, math).first?.result == "\\frac{1}{2}")
        #expect(try f.editor.export(math, mimeType: .latex) == "\\frac{1}{3}+\\frac{1}{6}=\\frac{1}{2}")
        let json = try JSONValue.parse(Data(try f.editor.export(math, mimeType: .json).utf8), what: "export")
        let e = try #require(json["math"]?["expressions"]?.arrayValue?.first)
        #expect(e["latex"]?.stringValue == "\\frac{1}{3}+\\frac{1}{6}=")
        #expect(e["result"]?.stringValue == "\\frac{1}{2}")
        #expect(e["value"]?.doubleValue == 0.5)
        #expect(e["symbols"]?.arrayValue?.count == 8)
        #expect(e["candidates"]?.arrayValue?.count == 1)
        #expect(e["tree"]?["row"] != nil)
        try f.editor.convert(math, targetState: .digitalEdit)
        #expect(try Self.typeset(f, math).first?.latex == "\\frac{1}{3}+\\frac{1}{6}=")
        // A Text block has no math to export.
        let text = try f.editor.addBlock(at: Point(x: 20, y: 20), type: "Text")
        expectCode(.exportError) { _ = try f.editor.export(text, mimeType: .latex) }
        #expect(!f.editor.supportedExportMimeTypes(for: text).contains(.mathml))
    }

    @Test func solverConfigurationApplies() throws {
        let f = try Fixture(type: "Math")
        try f.editor.configuration.setBoolean(false, forKey: "math.solver.enable")
        f.editor.register(ScriptedMathRecognizer([("12+7=", ["1", "2", "+", "7", "="])]))
        try Self.writeLine(f, symbols: 5, y: 100)
        try f.editor.waitForIdle()
        #expect(try Self.typeset(f, f.editor.rootBlock).isEmpty)
        #expect(try f.editor.export(nil, mimeType: .latex) == "12+7=")
    }
}

@Suite struct MathClipboardTests {
    @Test func clipboardOffersLaTeXAndMathML() throws {
        let f = try Fixture(type: "Text Document")
        f.editor.register(ScriptedMathRecognizer([("2^{10}=", ["2", "1", "0", "="])]))
        let math = try f.editor.addBlock(at: Point(x: 20, y: 60), type: "Math")
        let box = f.editor.viewTransform.apply(math.box)
        try MathEditorTests.writeLine(f, symbols: 4, x: box.x + 10, y: box.y + box.height / 2)
        try f.editor.waitForIdle()
        let offers = f.editor.mathClipboardOffers(math)
        #expect(offers["application/x-latex"] == Data("2^{10}=1024".utf8))
        #expect(offers["text/x-tex"] == offers["application/x-latex"])
        #expect(String(decoding: offers["application/mathml+xml"] ?? Data(), as: UTF8.self).contains("<msup><mn>2</mn><mn>10</mn></msup>"))
        let text = try f.editor.addBlock(at: Point(x: 20, y: 20), type: "Text")
        #expect(f.editor.mathClipboardOffers(text).isEmpty)
    }
}

@Suite struct MathRecognizeContractTests {
    /// `quire recognize --jsonl --math --json` carries the output side's forms and the solver's
    /// value: "12+7=" from real samples (the calculator's end-to-end fixture) reads 19.
    @Test func recognizeJSONCarriesMathMLTextAndValue() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("QuireAppTests/Fixtures/calc-12plus7.jsonl")
        let r = try runQuire(["recognize", "--jsonl", fixture.path, "--math", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let objects = r.out.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 3)
        for o in objects {
            #expect(o["latex"] as? String == "12+7=")
            #expect(o["text"] as? String == "12+7=")
            #expect(o["value"] as? String == "19")
            #expect(o["mathml"] as? String == "<math xmlns=\"http://www.w3.org/1998/Math/MathML\"><mn>12</mn><mo>+</mo><mn>7</mn><mo>=</mo></math>")
        }
    }
}
