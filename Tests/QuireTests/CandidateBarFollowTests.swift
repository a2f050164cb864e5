import Foundation
import Testing
import InkRender
@testable import Quire
@testable import QuireApp

/// Ink written just below a paragraph of a Text Document is pushed down by the block flow: the
/// candidate bar follows the block the ink landed in, not whatever is where the pen lifted.
@Suite struct CandidateBarFollowTests {
    /// A paragraph of typed text, and a pen stroke starting just under it (view pixels).
    private func paragraphAndStrokeBelow(_ s: NotebookSession) throws -> (paragraph: ContentBlock, stroke: [Point]) {
        let paragraph = try s.editor.typeText("a paragraph of typed text above the ink", into: nil)
        // A "w" about 6 mm high, its top a hair under the paragraph: the new block's box starts on
        // the guide line above the ink, inside the paragraph, so the flow pushes it down a line.
        let below = s.editor.viewTransform.apply(Point(x: paragraph.box.x + 10, y: paragraph.box.maxY + 0.75))
        let corners = [(0.0, 0.0), (8, 24), (16, 6), (24, 24), (32, 0)].map { Point(x: below.x + $0.0, y: below.y + $0.1) }
        var stroke = [corners[0]]
        for (a, b) in zip(corners, corners.dropFirst()) {
            for k in 1...6 { let u = Double(k) / 6; stroke.append(Point(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u)) }
        }
        return (paragraph, stroke)
    }

    @Test func theBlockHoldingTheLastStrokeIsWhereTheFlowPutIt() throws {
        let s = try NotebookSession()
        let (paragraph, stroke) = try paragraphAndStrokeBelow(s)
        _ = try s.editor.pointerDown(x: stroke[0].x, y: stroke[0].y, t: 0, f: 0.5, type: .pen, pointerId: 1)
        for (i, p) in stroke.enumerated().dropFirst() { try s.editor.pointerMove(x: p.x, y: p.y, t: Int64(i) * 10, f: 0.5, type: .pen, pointerId: 1) }
        try s.editor.pointerUp(x: stroke.last!.x, y: stroke.last!.y, t: 200, f: 0.5, type: .pen, pointerId: 1)
        let id = try #require(s.editor.lastStrokeId)
        let block = try #require(s.editor.block(holdingStroke: id))
        let ink = try #require(s.editor.part?.model.strokes[id]?.bounds)
        let holds = ink.x >= block.box.x && ink.maxX <= block.box.maxX && ink.y >= block.box.y && ink.maxY <= block.box.maxY
        #expect(block.id != paragraph.id && holds && block.box.y > paragraph.box.maxY, "\(block.box) \(ink) \(paragraph.box)")
        // The flow moved the new block: where the pen lifted is not in it any more.
        let lifted = s.editor.viewTransform.inverted().apply(stroke.last!)
        #expect(!block.box.contains(lifted), "the flow did not move the ink; the test shows nothing")
        #expect(s.editor.hitBlock(at: stroke.last!)?.id != block.id)
        // Undone, the stroke is gone and holds no block; another page forgets it.
        s.dispatcher.perform(.undo)
        #expect(s.editor.block(holdingStroke: id) == nil)
        s.dispatcher.perform(.page(.add(.textDocument)))
        #expect(s.editor.lastStrokeId == nil)
    }

    @Test func theBarFollowsTheInkThroughThePointerController() throws {
        let s = try NotebookSession()
        let (paragraph, stroke) = try paragraphAndStrokeBelow(s)
        let bar = CandidateBarController(view: s.view, window: ImageWindow(width: 800, height: 40), tracer: Tracer())
        let popup = PopupController(view: s.view, window: ImageWindow(width: 300, height: 300), tracer: Tracer())
        let pointer = PointerController(view: s.view, dispatcher: s.dispatcher, bar: bar, popup: popup, latency: LatencyRecorder())
        let pen = InputDevice(id: 11, name: "pen", kind: .pen)
        bar.follow(paragraph)
        func send(_ phase: PointerInput.Phase, _ p: Point) {
            pointer.handle(PointerInput(phase: phase, window: 1, device: pen, detail: 1, point: p, ctrl: false, serverTime: 0, pressure: nil, received: 0), at: p)
        }
        send(.buttonPress, stroke[0])
        for p in stroke.dropFirst() { send(.motion, p) }
        send(.buttonRelease, stroke.last!)
        pointer.applyPendingUps()
        let written = try #require(s.editor.lastStrokeId.flatMap { s.editor.block(holdingStroke: $0) })
        #expect(written.id != paragraph.id && bar.activeBlockId == written.id)
        // A tap in the paragraph (no ink written) still moves the bar to the block tapped.
        let inParagraph = s.editor.viewTransform.apply(Point(x: paragraph.box.midX, y: paragraph.box.midY))
        send(.buttonPress, inParagraph)
        send(.buttonRelease, inParagraph)
        pointer.applyPendingUps()
        #expect(bar.activeBlockId == paragraph.id)
    }

    /// Where the bar stood when it hid is kept until it shows again: a pen the server delivers to
    /// its window meanwhile is the canvas's ink there (`AppWindow.handlePointer`).
    @Test func theBarRemembersWhereItStoodWhenItHid() throws {
        let s = try NotebookSession()
        let bar = CandidateBarController(view: s.view, window: ImageWindow(width: 800, height: 40), tracer: Tracer())
        try s.view.attach(canvas: ImageWindow(width: 800, height: 600), highlight: try CairoSurface(width: 800, height: 600), width: 800, height: 600)
        let block = try s.editor.typeText("a few typed words", into: nil)
        bar.follow(block)
        bar.update()
        let shown = try #require(bar.frame, "the bar did not show over typed words")
        #expect(bar.hiddenFrame == nil)
        s.editor.scroll(by: Point(x: 0, y: 5000))
        bar.update()
        #expect(bar.frame == nil && bar.hiddenFrame == shown)
        s.editor.scroll(by: Point(x: 0, y: -5000))
        bar.update()
        #expect(bar.frame == shown && bar.hiddenFrame == nil)
    }
}
