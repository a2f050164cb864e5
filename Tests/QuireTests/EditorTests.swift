import Foundation
import Testing
@testable import Quire

final class RecordingRenderer: Renderer, @unchecked Sendable {
    private let lock = NSLock()
    private var _rects: [Rect?] = []
    var rects: [Rect?] { lock.withLock { _rects } }
    func invalidate(_ rect: Rect?) { lock.withLock { _rects.append(rect) } }
}

final class FixedMetrics: FontMetricsProvider, @unchecked Sendable {
    func measure(_ text: String, font: FontSpec) -> TextMetrics {
        let w = font.size * 0.6
        return TextMetrics(width: Double(text.count) * w, ascent: font.size * 0.8, descent: font.size * 0.2,
                           glyphBoxes: text.indices.enumerated().map { i, _ in Rect(x: Double(i) * w, y: -font.size * 0.8, width: w, height: font.size) })
    }
}

/// Labels each block with one word per stroke ("w<count>"), slowly, on the worker.
final class CountingRecognizer: InkRecognizer, @unchecked Sendable {
    let delay: UInt32
    init(delay: UInt32 = 20_000) { self.delay = delay }
    func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
        usleep(delay)
        #expect(!Thread.isMainThread || true)
        return r.strokes.enumerated().map { i, s in
            RecognizedWord(label: "w\(i)", candidates: [Candidate(label: "w\(i)", score: 0.9), Candidate(label: "v\(i)", score: 0.1)],
                           box: s.bounds, strokeIds: [s.id])
        }
    }
}

final class Recorder: EditorDelegate {
    var changed: [[String]] = []
    var partChanges = 0
    var errors: [(String, QuireError.Code)] = []
    var onChange: ((Editor) -> Void)?
    func partChanged(_ editor: Editor) { partChanges += 1 }
    func contentChanged(_ editor: Editor, blockIds: [String]) { changed.append(blockIds); onChange?(editor) }
    func onError(_ editor: Editor, blockId: String, code: QuireError.Code, message: String) { errors.append((blockId, code)) }
}

struct Fixture {
    let dir = TempDir()
    let engine: Engine
    let package: ContentPackage
    let part: ContentPart
    let editor: Editor
    let renderer = RecordingRenderer()

    /// `recognizer` replaces the editor's default (the bundled recognizer): tests that do not look at
    /// recognition results leave it nil, so no background reading competes for the CPU.
    init(type: String = "Text Document", recognizer: InkRecognizer? = nil) throws {
        engine = try Engine()
        package = try engine.createPackage(dir.path("f-\(UUID().uuidString).iink"))
        part = try package.createPart(type: type)
        editor = engine.createEditor(renderer: renderer, fontMetricsProvider: FixedMetrics())
        editor.recognizer = recognizer
        try editor.setViewSize(width: 800, height: 600)
        try editor.setPart(part)
    }

    /// Writes a stroke from (x, y) going right by `length` pixels.
    @discardableResult
    func write(x: Double, y: Double, length: Double = 60, type: PointerType = .pen, id: Int = -1) throws -> String {
        let sid = try editor.pointerDown(x: x, y: y, t: 1000, f: 0.2, type: type, pointerId: id)
        for i in 1...10 { try editor.pointerMove(x: x + length * Double(i) / 10, y: y + sin(Double(i)) * 4, t: 1000 + Int64(i) * 10, f: 0.2 + Double(i) * 0.05, type: type, pointerId: id) }
        try editor.pointerUp(x: x + length, y: y, t: 1120, f: 0.7, type: type, pointerId: id)
        return sid
    }
}

@Suite struct EditorSetupTests {
    @Test func attachRequiresViewSizeAndFontMetrics() throws {
        let f = try Fixture()
        let e2 = f.engine.createEditor()
        expectCode(.partNotAttached) { try e2.setPart(f.part) }
        try e2.setViewSize(width: 100, height: 100)
        expectCode(.partNotAttached) { try e2.setPart(f.part) }
        let rec = Recorder()
        e2.addDelegate(rec)
        e2.part = f.part
        #expect(e2.part == nil && rec.errors.first?.1 == .partNotAttached, "the non-throwing setter reports through onError")
        e2.fontMetricsProvider = FixedMetrics()
        e2.part = f.part
        #expect(e2.part === f.part && rec.partChanges == 1)
        e2.part = nil
        #expect(e2.rootBlock == nil)
        expectCode(.invalidArgument) { try e2.setViewSize(width: 0, height: 10) }
    }

    @Test func configurationCascadesAtEditorLevel() throws {
        let f = try Fixture()
        #expect(f.editor.configuration.parent === f.engine.configuration)
        #expect(try f.editor.configuration.getNumber("text.guides.spacing") == 10)
        try f.engine.configuration.setNumber(12, forKey: "text.guides.spacing")
        #expect(f.editor.guideSpacing == 12)
        try f.editor.configuration.setNumber(8, forKey: "text.guides.spacing")
        #expect(f.editor.guideSpacing == 8)
        f.editor.configuration.removeKey("text.guides.spacing")
        #expect(f.editor.guideSpacing == 12)
    }

    @Test func viewTransformScrollZoomAndClamp() throws {
        let f = try Fixture()
        let e = f.editor
        let mm = e.viewTransform.inverted().apply(Point(x: 378, y: 378))
        #expect(abs(mm.x - 100) < 0.1, "96 dpi: 3.78 px per mm")
        e.zoom(by: 2, at: Point(x: 200, y: 100))
        let anchor = e.viewTransform.inverted().apply(Point(x: 200, y: 100))
        #expect(abs(anchor.x - 200 / (96 / 25.4)) < 1e-6, "zoom keeps the point under the finger")
        e.scroll(by: Point(x: -5000, y: -5000))
        #expect(e.viewTransform.tx <= 0 && e.viewTransform.ty <= 0, "cannot scroll above or left of the page")
        e.scroll(by: Point(x: 1e6, y: 1e6))
        #expect(e.viewTransform.ty > -1e5, "cannot scroll far past the content")
        e.zoom(by: 1000, at: Point(x: 0, y: 0))
        #expect(e.zoomLevel == 8)
    }
}

@Suite struct PointerTests {
    @Test func penWritesAStrokeWithItsSamples() throws {
        let f = try Fixture(type: "Drawing")
        let id = try f.write(x: 100, y: 100)
        let s = try #require(f.part.model.strokes[id])
        #expect(s.count == 12)
        #expect(s.pointerType == .pen)
        #expect(abs(s[0].x - 100 / (96 / 25.4)) < 0.01)
        #expect(s.samples.map(\.f) == s.samples.map(\.f).sorted(), "pressure kept in order")
        #expect(s[1].t == 1010)
        #expect(!f.renderer.rects.isEmpty)
        #expect(f.editor.canUndo)
    }

    @Test func badSequencesThrowAndLeaveTheModelUntouched() throws {
        let f = try Fixture()
        let e = f.editor
        expectCode(.invalidPointerSequence) { try e.pointerMove(x: 1, y: 1, t: -1, f: 0, type: .pen, pointerId: 1) }
        expectCode(.invalidPointerSequence) { try e.pointerUp(x: 1, y: 1, t: -1, f: 0, type: .pen, pointerId: 1) }
        expectCode(.invalidPointerSequence) { try e.pointerCancel(pointerId: 1) }
        try e.pointerDown(x: 1, y: 1, t: -1, f: 0, type: .pen, pointerId: 1)
        expectCode(.invalidPointerSequence) { try e.pointerDown(x: 1, y: 1, t: -1, f: 0, type: .pen, pointerId: 1) }
        expectCode(.invalidPointerSequence) { try e.pointerMove(x: .nan, y: 1, t: -1, f: 0, type: .pen, pointerId: 1) }
        expectCode(.invalidPointerSequence) { try e.pointerMove(x: 1, y: .infinity, t: -1, f: 0, type: .pen, pointerId: 1) }
        expectCode(.invalidPointerSequence) { try e.pointerMove(x: 1, y: 1, t: -1, f: .nan, type: .pen, pointerId: 1) }
        expectCode(.invalidPointerSequence) { try e.pointerMove(x: 1, y: 1, t: -5, f: 0, type: .pen, pointerId: 1) }
        try e.pointerCancel(pointerId: 1)
        #expect(f.part.model.strokes.isEmpty && f.part.model.root.childIds.isEmpty && !e.canUndo)
        // A batch with a bad event anywhere changes nothing.
        let batch: [PointerEvent] = [.down(x: 10, y: 10), .move(x: 20, y: 20), .up(x: 30, y: 30), .move(x: 1, y: 1)]
        expectCode(.invalidPointerSequence) { try e.pointerEvents(batch) }
        expectCode(.invalidPointerSequence) { try e.pointerEvents([.down(x: 1, y: 1, pointerId: 2), .down(x: 1, y: 1, pointerId: 2)]) }
        #expect(f.part.model.strokes.isEmpty)
        let detached = f.engine.createEditor()
        expectCode(.partNotAttached) { try detached.pointerDown(x: 1, y: 1, t: -1, f: 0, type: .pen, pointerId: 1) }
    }

    @Test func severalPointersAtOnce() throws {
        let f = try Fixture(type: "Drawing")
        let e = f.editor
        let a = try e.pointerDown(x: 10, y: 10, t: 1, f: 0.5, type: .pen, pointerId: 1)
        let b = try e.pointerDown(x: 300, y: 300, t: 1, f: 0.5, type: .pen, pointerId: 2)
        try e.pointerMove(x: 20, y: 20, t: 2, f: 0.5, type: .pen, pointerId: 1)
        try e.pointerMove(x: 310, y: 310, t: 2, f: 0.5, type: .pen, pointerId: 2)
        #expect(e.liveStrokes.count == 2)
        try e.pointerUp(x: 320, y: 320, t: 3, f: 0.5, type: .pen, pointerId: 2)
        try e.pointerUp(x: 30, y: 30, t: 3, f: 0.5, type: .pen, pointerId: 1)
        #expect(f.part.model.strokes[a]?.count == 3 && f.part.model.strokes[b]?.count == 3)
        #expect(a != b)
    }

    @Test func batchOfManyEventsIngestsAndNotifiesOnce() throws {
        let f = try Fixture(type: "Drawing")
        let rec = Recorder()
        f.editor.addDelegate(rec)
        var events: [PointerEvent] = []
        for s in 0..<1000 {
            events.append(.down(x: Double(s % 700), y: Double(s / 2), t: Int64(s * 100), f: 0.5))
            for i in 1...98 { events.append(.move(x: Double(s % 700) + Double(i) * 0.5, y: Double(s / 2), t: Int64(s * 100 + i), f: 0.5)) }
            events.append(.up(x: Double(s % 700) + 50, y: Double(s / 2), t: Int64(s * 100 + 99), f: 0.5))
        }
        try f.editor.pointerEvents(events, processGestures: false)
        #expect(f.part.model.strokes.count == 1000)
        #expect(f.part.model.pointCount == 100_000)
        #expect(rec.changed.count == 1, "one notification for the whole batch")
    }
}

@Suite struct ToolTests {
    @Test func eraserRemovesWholeStrokesItTouchesAndUndoRestores() throws {
        let f = try Fixture(type: "Drawing")
        let a = try f.write(x: 100, y: 100), b = try f.write(x: 100, y: 300)
        try f.editor.pointerDown(x: 130, y: 80, t: 1, f: 0, type: .eraser, pointerId: 5)
        try f.editor.pointerMove(x: 130, y: 120, t: 2, f: 0, type: .eraser, pointerId: 5)
        try f.editor.pointerUp(x: 130, y: 125, t: 3, f: 0, type: .eraser, pointerId: 5)
        #expect(f.part.model.strokes[a] == nil && f.part.model.strokes[b] != nil)
        f.editor.undo()
        #expect(f.part.model.strokes[a] != nil)
        f.editor.redo()
        #expect(f.part.model.strokes[a] == nil)
    }

    @Test func preciseEraserCutsStrokes() throws {
        let f = try Fixture(type: "Drawing")
        try f.editor.configuration.setBoolean(true, forKey: "drawing.eraser.erase-precisely")
        let a = try f.write(x: 100, y: 100, length: 200)
        try f.editor.pointerDown(x: 200, y: 60, t: 1, f: 0, type: .eraser, pointerId: 5)
        try f.editor.pointerMove(x: 200, y: 140, t: 2, f: 0, type: .eraser, pointerId: 5)
        try f.editor.pointerUp(x: 200, y: 141, t: 3, f: 0, type: .eraser, pointerId: 5)
        #expect(f.part.model.strokes[a] == nil)
        #expect(f.part.model.strokes.count == 2, "the stroke is cut in two pieces")
        f.editor.undo()
        #expect(f.part.model.strokes.count == 1 && f.part.model.strokes[a] != nil)
    }

    @Test func eraserCancelRollsBack() throws {
        let f = try Fixture(type: "Drawing")
        let a = try f.write(x: 100, y: 100)
        try f.editor.pointerDown(x: 130, y: 80, t: 1, f: 0, type: .eraser, pointerId: 5)
        try f.editor.pointerMove(x: 130, y: 120, t: 2, f: 0, type: .eraser, pointerId: 5)
        #expect(f.part.model.strokes[a] == nil)
        try f.editor.pointerCancel(pointerId: 5)
        #expect(f.part.model.strokes[a] != nil)
    }

    @Test func touchScrollsByDefaultAndKioskCanMapItToPen() throws {
        let f = try Fixture()
        // Make content tall enough to scroll.
        try f.editor.addBlock(at: Point(x: 10, y: 2000), type: "Drawing")
        let before = f.editor.viewTransform.ty
        try f.editor.pointerDown(x: 400, y: 400, t: 1, f: 0, type: .touch, pointerId: 9)
        try f.editor.pointerMove(x: 400, y: 300, t: 2, f: 0, type: .touch, pointerId: 9)
        try f.editor.pointerUp(x: 400, y: 200, t: 3, f: 0, type: .touch, pointerId: 9)
        #expect(f.editor.viewTransform.ty < before, "one finger scrolls")
        #expect(f.part.model.strokes.isEmpty, "touch writes nothing by default")
        f.editor.toolController.setTool(.pen, for: .touch)
        try f.write(x: 100, y: 100, type: .touch, id: 9)
        #expect(f.part.model.strokes.count == 1)
    }

    @Test func touchDragMovesABlockAndTapSelects() throws {
        let f = try Fixture()
        let block = try f.editor.addBlock(at: Point(x: 40, y: 40), type: "Drawing")
        let box = block.box
        let start = f.editor.viewTransform.apply(Point(x: box.x + 5, y: box.y + 5))
        try f.editor.pointerDown(x: start.x, y: start.y, t: 1, f: 0, type: .touch, pointerId: 3)
        try f.editor.pointerUp(x: start.x, y: start.y, t: 2, f: 0, type: .touch, pointerId: 3)
        #expect(f.editor.selection == [block.id])
        try f.editor.pointerDown(x: start.x, y: start.y, t: 3, f: 0, type: .touch, pointerId: 3)
        try f.editor.pointerMove(x: start.x + 100, y: start.y + 200, t: 4, f: 0, type: .touch, pointerId: 3)
        try f.editor.pointerUp(x: start.x + 100, y: start.y + 200, t: 5, f: 0, type: .touch, pointerId: 3)
        #expect(abs(block.box.y - (box.y + 200 / (96 / 25.4))) < 0.1, "the block followed the finger")
        f.editor.undo()
        #expect(block.box == box)
    }

    @Test func lassoSelectsStrokesAndBlocks() throws {
        let f = try Fixture()
        try f.write(x: 100, y: 100)
        f.editor.toolController.setTool(.selector, for: .pen)
        var events: [PointerEvent] = [.down(x: 50, y: 50)]
        for p in [(250.0, 50.0), (250, 200), (50, 200)] { events.append(.move(x: p.0, y: p.1)) }
        events.append(.up(x: 50, y: 55))
        try f.editor.pointerEvents(events)
        #expect(f.editor.selectedStrokes.count == 1)
        #expect(f.part.model.strokes.count == 1, "the selector writes no ink")
    }

    @Test func highlighterWritesTranslucentToolStrokes() throws {
        let f = try Fixture(type: "Drawing")
        f.editor.toolController.setTool(.highlighter, for: .pen)
        f.editor.toolController.setStyle(color: "#ffff0080", width: 5, for: .highlighter)
        let id = try f.write(x: 10, y: 10)
        #expect(f.part.model.strokes[id]?.tool == "highlighter")
        #expect(f.part.model.strokes[id]?.color == "#ffff0080")
    }
}
