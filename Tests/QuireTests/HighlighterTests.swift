import Foundation
import Testing
@testable import Quire

/// Pens and highlighters: the tool's style is what a stroke stores and every export carries, and
/// highlighter ink marks the words it covers without ever being read as letters.
@Suite(.serialized) struct HighlighterTests {
    @Test func penStylesAreStoredAndExported() throws {
        let f = try Fixture()
        f.editor.toolController.setStyle(color: "#1565c0", width: 0.8, for: .pen)
        f.editor.toolController.setStyle(color: "#ffeb3b80", width: 6, for: .highlighter)
        let pen = try f.write(x: 100, y: 100)
        f.editor.toolController.setTool(.highlighter, for: .pen)
        let hl = try f.write(x: 100, y: 104)
        let s = try #require(f.part.model.strokes[pen]), h = try #require(f.part.model.strokes[hl])
        #expect(s.color == "#1565c0" && s.width == 0.8 && s.tool == "pen")
        #expect(h.color == "#ffeb3b80" && h.width == 6 && h.tool == "highlighter")
        let json = try f.editor.export(nil, mimeType: .json)
        #expect(json.contains("\"#1565c0\"") && json.contains("\"#ffeb3b80\"") && json.contains("\"highlighter\""))
        let inkml = try f.editor.export(nil, mimeType: .inkml)
        #expect(inkml.contains("value=\"#1565c0\"") && inkml.contains("value=\"0.8\" units=\"mm\""))
        #expect(inkml.contains("name=\"rasterOp\" value=\"maskPen\""), "the highlighter's brush says so")
        let svg = String(decoding: try f.editor.exportData(nil, mimeType: .svg), as: UTF8.self)
        #expect(svg.contains("rgb(8.235294%,39.607843%,75.294118%)") || svg.lowercased().contains("#1565c0"), "the pen's colour is in the SVG")
    }

    /// The pen's style belongs to the editor, not the page: every page of a notebook, new or
    /// gone back to, is written in the chosen colour.
    @Test func thePensStyleHoldsOnEveryPage() throws {
        let f = try Fixture()
        let nb = try Notebook(package: f.package, editor: f.editor)
        f.editor.toolController.setStyle(color: "#c62828", width: 1.2, for: .pen)
        let first = try f.write(x: 100, y: 100)
        try nb.addPage(type: .drawing)
        let second = try f.write(x: 100, y: 100)
        #expect(f.editor.part?.model.strokes[second]?.color == "#c62828" && f.editor.part?.model.strokes[second]?.width == 1.2)
        try nb.goTo(0)
        let third = try f.write(x: 100, y: 200)
        let m = try #require(f.editor.part?.model)
        #expect(m.strokes[first]?.color == "#c62828" && m.strokes[third]?.color == "#c62828")
    }

    @Test func highlighterInkIsNeverReadAndMarksTheWordItCovers() throws {
        let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
        let block = try f.editor.addBlock(at: f.editor.viewTransform.apply(Point(x: 12, y: 31)), type: "Text")
        let ids = ["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547"]  // found bread sugar
        try Handwriting.writeLine(ids, editor: f.editor, x: 15, y: 32)
        try f.editor.waitForIdle()
        let before = block.text
        #expect(before == "found bread sugar")
        let bread = try #require(block.words.first { $0.label == "bread" })
        // A broad yellow stroke across "bread", at its middle height, a little past both ends.
        f.editor.toolController.setTool(.highlighter, for: .pen)
        f.editor.toolController.setStyle(color: "#ffeb3b80", width: 5, for: .highlighter)
        let y = bread.box.midY
        var events: [PointerEvent] = []
        let x0 = bread.box.x - 0.5, x1 = bread.box.maxX + 0.5
        for i in 0...20 {
            let v = f.editor.viewTransform.apply(Point(x: x0 + (x1 - x0) * Double(i) / 20, y: y + sin(Double(i)) * 0.3))
            events.append(i == 0 ? .down(x: v.x, y: v.y, t: Int64(5000 + i * 10)) : i == 20 ? .up(x: v.x, y: v.y, t: Int64(5000 + i * 10)) : .move(x: v.x, y: v.y, t: Int64(5000 + i * 10)))
        }
        try f.editor.pointerEvents(events)
        try f.editor.waitForIdle()
        let hl = try #require(f.part.model.strokes.values.first { $0.tool == "highlighter" })
        #expect(hl.blockId == block.id, "the highlighter's ink lies in the block it marks")
        #expect(block.text == before, "the reading is what it was: the highlighter is no letter")
        #expect(!block.words.flatMap(\.strokeIds).contains(hl.id))
        #expect(block.words.first { $0.label == "bread" }?.styles == ["highlight"])
        #expect(block.words.filter { $0.label != "bread" }.allSatisfy { !$0.styles.contains("highlight") })
        let json = try JSONValue.parse(Data(try f.editor.export(nil, mimeType: .json).utf8))
        let words = try #require(json["children"]?.arrayValue?.first?["words"]?.arrayValue)
        #expect(words.first { $0["label"]?.stringValue == "bread" }?["styles"] == .array([.string("highlight")]))
        // Undone, the word is plain again.
        f.editor.undo()
        try f.editor.waitForIdle()
        #expect(block.words.allSatisfy { !$0.styles.contains("highlight") })
        #expect(block.text == before)
    }
}
