import Foundation
import InkMath
@testable import Quire
@testable import QuireApp
import QuireTestSupport
import Testing

/// `quire calc` without a window: the controller's history in the part's metadata, the layout.
@Suite struct CalculatorTests {
    static func open(_ path: String, _ recognizer: ScriptedMathRecognizer? = nil) throws -> CalculatorController {
        let engine = try Engine()
        let editor = engine.createEditor(renderer: RecordingRenderer(), fontMetricsProvider: FixedMetrics())
        editor.recognizer = nil
        try editor.setViewSize(width: 800, height: 400)
        if let recognizer { editor.register(recognizer) }
        return try CalculatorController(path: path, engine: engine, editor: editor)
    }

    static func write(_ c: CalculatorController, symbols: Int) throws {
        for i in 0..<symbols {
            let x = 40 + Double(i) * 30
            try c.editor.pointerDown(x: x, y: 100, t: 1000, f: 0.5, type: .pen, pointerId: -1)
            for k in 1...5 { try c.editor.pointerMove(x: x + Double(k) * 4, y: 100 + Double(k), t: 1000 + Int64(k) * 10, f: 0.5, type: .pen, pointerId: -1) }
            try c.editor.pointerUp(x: x + 20, y: 105, t: 1100, f: 0.5, type: .pen, pointerId: -1)
        }
        try c.editor.waitForIdle()
    }

    @Test func pushKeepsTheExpressionInTheMetadataHistory() throws {
        let dir = TempDir()
        let path = dir.path("calc.iink")
        do {
            let c = try Self.open(path, ScriptedMathRecognizer([("12+7=", ["1", "2", "+", "7", "="])]))
            #expect(c.part.type == "Math" && c.history.isEmpty)
            #expect(try c.push() == false, "nothing written, nothing pushed")
            try Self.write(c, symbols: 5)
            #expect(c.resultText == "19")
            #expect(try c.push())
            #expect(c.history == ["12+7=19"])
            #expect(c.part.model.strokes.isEmpty, "the page is clear for the next expression")
            try Self.write(c, symbols: 5)
            #expect(try c.push())
        }
        // Saved with the package: a new engine reads it back the SDK's way.
        let engine = try Engine()
        let package = try engine.openPackage(path)
        #expect(package.partCount == 1)
        let part = try package.part(at: 0)
        #expect(try part.metadata.getStringArray("calculator.history") == ["12+7=19", "12+7=19"])
        #expect(try MathNode.parse(latex: part.metadata.getStringArray("calculator.history")[0]).plainText == "12+7=19")
    }

    @Test func reopensTheSamePartAndClearsTheHistory() throws {
        let dir = TempDir()
        let path = dir.path("calc.iink")
        do {
            let c = try Self.open(path, ScriptedMathRecognizer([("2\\times3=", ["2", "×", "3", "="])]))
            try Self.write(c, symbols: 4)
            try c.push()
        }
        do {
            let c = try Self.open(path)
            #expect(c.package.partCount == 1 && c.history == ["2\\times3=6"])
            try c.clearHistory()
        }
        #expect(try Self.open(path).history.isEmpty)
    }

    @Test func historyIsBounded() throws {
        let dir = TempDir()
        let c = try Self.open(dir.path("calc.iink"), ScriptedMathRecognizer([("1+1=", ["1", "+", "1", "="])]))
        let metadata = c.part.metadata
        try metadata.setStringArray((0..<CalculatorController.historyLimit).map { "\($0)" }, forKey: CalculatorController.historyKey)
        c.part.metadata = metadata
        try Self.write(c, symbols: 4)
        try c.push()
        #expect(c.history.count == CalculatorController.historyLimit && c.history.last == "1+1=2" && c.history.first == "1")
    }

    @Test func layoutStacksHistoryResultAndCanvas() {
        let l = CalculatorLayout(width: 720, height: 640, scale: 1)
        #expect(l.history.maxY < l.result.y && l.result.maxY < l.canvas.y && l.canvas.maxY <= 640)
        #expect(l.target(at: Point(x: l.result.midX, y: l.result.midY)) == .result)
        #expect(l.target(at: Point(x: l.clearHistory.midX, y: l.clearHistory.midY)) == .clearHistory)
        #expect(l.target(at: Point(x: l.canvas.midX, y: l.canvas.midY)) == nil)
        let rows = l.historyRows(count: 100)
        #expect(!rows.isEmpty && rows.last?.index == 99 && rows.allSatisfy { l.history.contains(Point(x: $0.frame.midX, y: $0.frame.midY)) })
        #expect(l.historyRows(count: 0).isEmpty)
        let tiny = CalculatorLayout(width: 10, height: 10, scale: 1)
        #expect(tiny.canvas.height >= 40)
    }
}
