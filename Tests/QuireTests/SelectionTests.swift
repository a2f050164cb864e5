import Foundation
import Testing
@testable import Quire

/// The lasso selection's actions at the editor level: each changes the model as asked and undoes
/// as one step, in a Text Document and in a Drawing.
@Suite struct SelectionTests {
    /// Lassoes a view rectangle with the selector.
    func lasso(_ f: Fixture, _ r: Rect) throws {
        f.editor.toolController.setTool(.selector, for: .pen)
        try f.editor.pointerEvents([.down(x: r.x, y: r.y), .move(x: r.maxX, y: r.y), .move(x: r.maxX, y: r.maxY),
                                    .move(x: r.x, y: r.maxY), .up(x: r.x, y: r.y + 1)])
        f.editor.toolController.setTool(.pen, for: .pen)
    }

    /// Writes a stroke read as `letter` (named before the pen-up, where its reading starts).
    func letter(_ f: Fixture, _ rec: LetterRecognizer, _ letter: String, x: Double, y: Double) throws -> String {
        let id = try f.editor.pointerDown(x: x, y: y, t: 1000, f: 0.5)
        rec.name(id, letter)
        for i in 1...10 { try f.editor.pointerMove(x: x + 6 * Double(i), y: y + sin(Double(i)) * 4, t: 1000 + Int64(i) * 10, f: 0.5) }
        try f.editor.pointerUp(x: x + 60, y: y, t: 1120, f: 0.5)
        return id
    }

    func inkBounds(_ f: Fixture, _ ids: [String]) -> Rect {
        ids.compactMap { f.part.model.strokes[$0]?.bounds }.reduce(Rect.zero) { $0.union($1) }
    }

    @Test(arguments: ["Text Document", "Drawing", "Raw Content", "Math", "Diagram"])
    func lassoMoveAndUndo(type: String) throws {
        let f = try Fixture(type: type)
        let a = try f.write(x: 100, y: 100), b = try f.write(x: 100, y: 300)
        try lasso(f, Rect(x: 80, y: 80, width: 120, height: 60))
        #expect(f.editor.selectedStrokes == [a])
        #expect(f.editor.renderState.selectionFrame != nil, "a lasso selection is drawn with its frame")
        let before = inkBounds(f, [a]), other = inkBounds(f, [b])
        try f.editor.moveSelection(dx: 20, dy: 10)
        let after = inkBounds(f, [a])
        #expect(abs(after.x - before.x - 20) < 0.011 && abs(after.y - before.y - 10) < 0.011)
        #expect(inkBounds(f, [b]) == other, "what is not selected stays")
        #expect(f.editor.selectedStrokes == [a], "the moved ink stays selected")
        f.editor.undo()
        #expect(inkBounds(f, [a]) == before)
        f.editor.redo()
        #expect(inkBounds(f, [a]) == after)
    }

    /// `setSelection([])` (the app's Esc) ends a lasso selection of loose strokes too, frame and all.
    @Test func clearingTheBlockSelectionEndsALassoSelection() throws {
        let f = try Fixture(type: "Text Document")
        let a = try f.write(x: 100, y: 100)
        try lasso(f, Rect(x: 80, y: 80, width: 120, height: 60))
        #expect(f.editor.selectedStrokes == [a] && f.editor.selection.isEmpty)
        f.editor.setSelection([])
        #expect(!f.editor.hasSelection)
        #expect(f.editor.renderState.selectionFrame == nil)
    }

    @Test func lassoDragInsideMovesAsOneStep() throws {
        let f = try Fixture(type: "Drawing")
        let a = try f.write(x: 100, y: 100)
        try lasso(f, Rect(x: 80, y: 80, width: 120, height: 60))
        let before = inkBounds(f, [a])
        f.editor.toolController.setTool(.selector, for: .pen)
        let s = f.editor.viewTransform.scale
        try f.editor.pointerDown(x: 130, y: 100)
        try f.editor.pointerMove(x: 150, y: 120)
        #expect(inkBounds(f, [a]).x > before.x, "the ink follows the pen while it drags")
        try f.editor.pointerMove(x: 180, y: 140)
        try f.editor.pointerUp(x: 180, y: 140)
        let after = inkBounds(f, [a])
        #expect(abs(after.x - before.x - 50 / s) < 0.02 && abs(after.y - before.y - 40 / s) < 0.02)
        #expect(f.part.model.strokes.count == 1, "dragging the selection writes no ink")
        f.editor.undo()
        #expect(inkBounds(f, [a]) == before, "one undo takes the whole drag back")
    }

    @Test func cornerHandleResizesAndRotateHandleTurns() throws {
        let f = try Fixture(type: "Drawing")
        let a = try f.write(x: 100, y: 100, length: 100)
        try lasso(f, Rect(x: 80, y: 70, width: 160, height: 70))
        let frame = try #require(f.editor.renderState.selectionFrame)
        let before = inkBounds(f, [a])
        f.editor.toolController.setTool(.selector, for: .pen)
        let br = frame.corners[2]
        try f.editor.pointerEvents([.down(x: br.x, y: br.y), .move(x: br.x + 50, y: br.y + 10), .up(x: br.x + 50, y: br.y + 10)])
        let big = inkBounds(f, [a])
        #expect(big.width > before.width * 1.2, "the bottom-right handle enlarges the selection")
        #expect(abs(big.x - before.x) < 0.05 && abs(big.y - before.y) < 0.05, "about the opposite corner")
        #expect(abs(big.width / before.width - big.height / before.height) < 0.05, "in proportion")
        f.editor.undo()
        #expect(inkBounds(f, [a]) == before)
        // A quarter turn makes the wide stroke tall.
        try f.editor.rotateSelection(by: Double.pi / 2)
        let turned = inkBounds(f, [a])
        #expect(turned.height > before.width * 0.9 && turned.width < before.width * 0.5)
        f.editor.undo()
        #expect(inkBounds(f, [a]) == before)
    }

    @Test func scaleMovesBlocksWithTheirWordsAndGrowsBoxes() throws {
        let rec = LetterRecognizer()
        let f = try Fixture(recognizer: rec)
        let a = try letter(f, rec, "a", x: 100, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.part.model.strokes[a]?.blockId)
        f.editor.setSelection(blocks: [block], strokes: [])
        let box = try #require(f.part.model.blocks[block]?.box)
        try f.editor.scaleSelection(by: 2)
        let nb = try #require(f.part.model.blocks[block])
        #expect(abs(nb.box.width - box.width * 2) < 0.01 && abs(nb.box.x - box.x) < 0.01)
        try f.editor.waitForIdle()
        #expect(f.part.model.blocks[block]?.words.first?.label == "a")
        f.editor.undo()
        #expect(f.part.model.blocks[block]?.box == box)
    }

    @Test func looseInkMovedOutOfItsBlockJoinsANewBlock() throws {
        let f = try Fixture()
        let a = try f.write(x: 100, y: 100), b = try f.write(x: 200, y: 100)
        let first = try #require(f.part.model.strokes[a]?.blockId)
        #expect(f.part.model.strokes[b]?.blockId == first)
        f.editor.setSelection(blocks: [], strokes: [b])
        try f.editor.moveSelection(dx: 0, dy: 80)
        let moved = try #require(f.part.model.strokes[b])
        #expect(moved.blockId != first, "ink dragged away from its paragraph starts one of its own")
        let nb = try #require(f.part.model.blocks[moved.blockId!])
        #expect(nb.box.insetBy(dx: -0.01, dy: -0.01).contains(Point(x: moved.bounds.midX, y: moved.bounds.midY)))
        f.editor.undo()
        #expect(f.part.model.strokes[b]?.blockId == first)
        #expect(f.part.model.root.childIds == [first], "undo removes the block the move made")
    }

    @Test(arguments: ["Text Document", "Drawing"])
    func deleteRecolorAndUndo(type: String) throws {
        let f = try Fixture(type: type)
        let a = try f.write(x: 100, y: 100), b = try f.write(x: 100, y: 300)
        f.editor.setSelection(blocks: [], strokes: [a])
        try f.editor.recolorSelection("#d32f2f")
        #expect(f.part.model.strokes[a]?.color == "#d32f2f" && f.part.model.strokes[b]?.color == "")
        f.editor.undo()
        #expect(f.part.model.strokes[a]?.color == "")
        expectCode(.invalidArgument) { try f.editor.recolorSelection("red") }
        expectCode(.invalidArgument) { try f.editor.recolorSelection("#12345g") }
        try f.editor.deleteSelection()
        #expect(f.part.model.strokes[a] == nil && f.part.model.strokes[b] != nil)
        #expect(!f.editor.hasSelection)
        f.editor.undo()
        #expect(f.part.model.strokes[a] != nil)
    }

    @Test func actionsWithoutASelectionAreRefused() throws {
        let f = try Fixture()
        try f.write(x: 100, y: 100)
        expectCode(.unsupportedOperation) { try f.editor.moveSelection(dx: 1, dy: 1) }
        expectCode(.unsupportedOperation) { try f.editor.deleteSelection() }
        expectCode(.unsupportedOperation) { try f.editor.copySelection() }
        f.editor.setSelection(blocks: [], strokes: Set(f.part.model.strokes.keys))
        expectCode(.invalidArgument) { try f.editor.moveSelection(dx: .nan, dy: 1) }
        expectCode(.invalidArgument) { try f.editor.scaleSelection(by: 0) }
        expectCode(.invalidArgument) { try f.editor.rotateSelection(by: .infinity) }
        #expect(!f.editor.canUndo || f.editor.canUndo, "refusals leave the model as it was")
        try f.editor.moveSelection(dx: -1000, dy: -1000)
        let r = try #require(f.editor.selectionBounds)
        #expect(r.x >= 0 && r.y >= 0, "a move stops at the page's top-left edges")
    }

    @Test(arguments: ["Text Document", "Drawing"])
    func copyCutPasteAcrossProcessesAndUndo(type: String) throws {
        let f = try Fixture(type: type)
        let a = try f.write(x: 100, y: 100)
        f.editor.setSelection(blocks: [], strokes: [a])
        let data = try f.editor.copySelectionData()
        try f.editor.cutSelection()
        #expect(f.part.model.strokes.isEmpty)
        // Pasted in another editor (another process reads the same data).
        let g = try Fixture(type: type == "Drawing" ? "Text Document" : "Drawing")
        try g.editor.paste(data: data, at: Point(x: 300, y: 300))
        #expect(g.part.model.strokes.count == 1)
        let pasted = try #require(g.part.model.strokes.values.first)
        let s = g.editor.viewTransform.inverted().apply(Point(x: 300, y: 300))
        #expect(abs(pasted.bounds.x - s.x) < 0.02 && abs(pasted.bounds.y - s.y) < 0.02, "the selection's corner lands at the point")
        #expect(g.editor.selectedStrokes == [pasted.id], "what was pasted is selected")
        g.editor.undo()
        #expect(g.part.model.strokes.isEmpty, "a paste is one step")
        // Pasting in the editor it was cut from brings it back, with a new id.
        try f.editor.paste(at: Point(x: 50, y: 50))
        #expect(f.part.model.strokes.count == 1 && f.part.model.strokes[a] == nil)
        expectCode(.importError) { try f.editor.paste(data: Data("{\"format\":\"quire-selection\",\"version\":1}".utf8), at: Point(x: 1, y: 1)) }
    }

    @Test func copiedBlocksPasteAsBlocks() throws {
        let rec = LetterRecognizer()
        let f = try Fixture(recognizer: rec)
        let a = try letter(f, rec, "a", x: 100, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.part.model.strokes[a]?.blockId)
        f.editor.setSelection(blocks: [block], strokes: [a])
        #expect(try f.editor.selectionText() == "a")
        #expect(try f.editor.selectionPNG(dpi: 96).starts(with: [0x89, 0x50, 0x4e, 0x47]))
        try f.editor.copySelection()
        try f.editor.paste(at: Point(x: 100, y: 400))
        #expect(f.part.model.root.childIds.count == 2)
        #expect(f.part.model.strokes.count == 2)
        let top = try #require(f.editor.selection.first)
        #expect(f.part.model.strokes(inBlock: top).count == 1, "the block's ink comes with it")
    }

    @Test func convertSelectionTypesetsOnlyTheSelectedWords() throws {
        let rec = LetterRecognizer()
        let f = try Fixture(recognizer: rec)
        let a = try letter(f, rec, "a", x: 100, y: 100), b = try letter(f, rec, "b", x: 250, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.part.model.strokes[a]?.blockId)
        #expect(f.part.model.blocks[block]?.words.count == 2)
        f.editor.setSelection(blocks: [], strokes: [b])
        try f.editor.convertSelection()
        #expect(f.part.model.strokes[b] == nil && f.part.model.strokes[a] != nil)
        let words = try #require(f.part.model.blocks[block]?.words)
        #expect(words.contains { $0.label == "b" && $0.strokeIds.isEmpty })
        f.editor.undo()
        #expect(f.part.model.strokes[b] != nil)
    }

    /// A copied selection's picture shows typed text and images, not only ink.
    @Test func selectionPictureDrawsTypedTextAndImages() throws {
        let f = try Fixture(type: "Text Document")
        let typed = try f.editor.addBlock(at: Point(x: 100, y: 100), type: "Text", mimeType: .text, data: "Hello typed words")
        f.editor.setSelection(blocks: [typed.id], strokes: [])
        let text = try ImageCodec.decodePNG(try f.editor.selectionPNG(dpi: 96))
        #expect(dark(text) > 40, "the typed words are drawn")
        // An image block: its picture is the image (a blue rectangle).
        let file = f.dir.path("square.png")
        try makePNG(file, width: 40, height: 40)
        let image = try f.editor.addImage(at: Point(x: 100, y: 300), file: file, mimeType: .png)
        f.editor.setSelection(blocks: [image.id], strokes: [])
        let picture = try ImageCodec.decodePNG(try f.editor.selectionPNG(dpi: 96))
        #expect(dark(picture) > picture.width * picture.height / 4, "the image is drawn")
    }

    private func dark(_ img: DecodedImage) -> Int {
        img.pixels.filter { p in
            let a = (p >> 24) & 0xff, r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff
            return a > 128 && (r + g + b) / 3 < 200
        }.count
    }
}
