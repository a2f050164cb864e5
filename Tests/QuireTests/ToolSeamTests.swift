import Foundation
import Testing
import InkModel
@testable import Quire

/// The editor's tools are objects behind one protocol: a tool registered for a `Tool` gets every
/// event of the pointers using it, with its own state per pointer, and nothing else changes.
@Suite struct ToolSeamTests {
    final class CountingTool: PointerTool {
        var calls: [String] = []
        func down(_ p: ActivePointer, editor: Editor, model: PartModel) { calls.append("down") }
        func move(_ p: ActivePointer, from prev: InkSample, to s: InkSample, view: Point, editor: Editor, model: PartModel) {
            calls.append("move")
        }
        func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model: PartModel) {
            calls.append("up \(p.samples.count)")
        }
    }

    @Test func aRegisteredToolGetsItsPointersEventsAndItsOwnState() throws {
        let f = try Fixture()
        var tools: [CountingTool] = []
        f.editor.tools.register(.selector) { let t = CountingTool(); tools.append(t); return t }
        f.editor.toolController.setTool(.selector, for: .pen)
        try f.write(x: 100, y: 100)
        try f.write(x: 100, y: 200)
        #expect(tools.count == 2, "one tool object per pointer")
        #expect(tools.allSatisfy { $0.calls == ["down"] + Array(repeating: "move", count: 10) + ["up 12"] })
        #expect(f.part.model.strokes.isEmpty && f.editor.selection.isEmpty, "the tool did nothing, and nothing else acted")
        #expect(!f.editor.canUndo)
    }
}
