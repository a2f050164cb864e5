import Foundation
import Testing
@testable import Quire
@testable import QuireApp

/// A pen's release is held while the same pen's next stroke is written (the editor's pen-up
/// would otherwise run between that stroke's first points and the screen): the strokes still
/// reach the model whole and in order, a lasso's release is never held past the next press, and a
/// device that goes away keeps the strokes a later press confirmed.
@Suite struct HeldPenUpTests {
    private final class Rig {
        let s: NotebookSession
        let pointer: PointerController
        let popup: PopupController
        let pen = InputDevice(id: 11, name: "pen", kind: .pen)
        let eraser = InputDevice(id: 12, name: "eraser", kind: .eraser)

        init() throws {
            s = try NotebookSession()
            let bar = CandidateBarController(view: s.view, window: ImageWindow(width: 800, height: 40), tracer: Tracer())
            popup = PopupController(view: s.view, window: ImageWindow(width: 300, height: 300), tracer: Tracer())
            pointer = PointerController(view: s.view, dispatcher: s.dispatcher, bar: bar, popup: popup, latency: LatencyRecorder())
        }

        var editor: Editor { s.editor }
        var strokeCount: Int { editor.part?.model.strokes.count ?? -1 }

        func send(_ phase: PointerInput.Phase, _ p: Point, device: InputDevice? = nil, button: Int = 1) {
            pointer.handle(PointerInput(phase: phase, window: 1, device: device ?? pen, detail: button, point: p, ctrl: false,
                                        serverTime: 0, pressure: nil, received: 0), at: p)
        }

        /// A zigzag stroke of `n` points starting at `x`, `y` (view pixels); the release is sent too.
        func stroke(x: Double, y: Double, n: Int = 12, device: InputDevice? = nil, release: Bool = true) {
            send(.buttonPress, Point(x: x, y: y), device: device)
            for k in 1 ..< n { send(.motion, Point(x: x + Double(k) * 3, y: y + (k % 2 == 0 ? 0 : 9)), device: device) }
            if release { send(.buttonRelease, Point(x: x + Double(n - 1) * 3, y: y), device: device) }
        }
    }

    @Test func inkReleasesWaitWhileTheNextStrokeIsWrittenThenLandInOrder() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100)
        #expect(r.pointer.roundTripDue && r.pointer.hasHeldUps)
        // The next stroke begins before the loop's round trip: the first stroke's pen-up waits.
        r.stroke(x: 160, y: 100, release: false)
        #expect(r.strokeCount == 0, "the first stroke's pen-up ran before the second stroke's points")
        #expect(r.editor.activePointerIds.count == 2)
        // Its points went to the second stroke, drawn live, not to the first.
        #expect(r.s.view.isInking)
        r.pointer.applySettledUps()
        #expect(r.strokeCount == 0, "a release was applied while its pen was writing the next stroke")
        r.send(.buttonRelease, Point(x: 193, y: 100))
        r.stroke(x: 220, y: 100, release: true)
        r.pointer.applySettledUps()
        // The pen is in the air: all three strokes land, whole and in the order they were written.
        #expect(!r.pointer.hasHeldUps && r.editor.activePointerIds.isEmpty)
        let strokes = try #require(r.editor.part?.model.orderedStrokes)
        #expect(strokes.count == 3)
        #expect(strokes.map { $0.count } == [13, 13, 13], "\(strokes.map { $0.count })")
        let starts = strokes.map { r.editor.viewTransform.apply(Point(x: $0[0].x, y: $0[0].y)).x.rounded() }
        #expect(starts == [100, 160, 220], "\(starts)")
    }

    @Test func aReleaseRunsOnceThePenHasBeenInTheAirAMoment() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100)   // released at monotonic time 0 (the rig's events)
        #expect(r.pointer.heldUpsDue == PointerController.airNs)
        r.pointer.applySettledUps(now: PointerController.airNs - 1)
        // The pen moving in the air does not end the wait either: the next press may be close.
        r.send(.motion, Point(x: 150, y: 150))
        #expect(r.strokeCount == 0 && r.pointer.hasHeldUps)
        r.pointer.applySettledUps(now: PointerController.airNs)
        #expect(r.strokeCount == 1 && !r.pointer.hasHeldUps && r.pointer.heldUpsDue == nil)
    }

    @Test func aLassoReleaseIsAppliedBeforeTheNextPressWhichThenDragsTheSelection() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100, n: 20)
        r.pointer.applySettledUps()
        #expect(r.strokeCount == 1)
        r.editor.toolController.setTool(.selector, for: .pen)
        // A loop around the stroke.
        let loop = (0 ... 24).map { k -> Point in
            let a = Double(k) / 24 * 2 * Double.pi
            return Point(x: 130 + 60 * cos(a), y: 105 + 40 * sin(a))
        }
        r.send(.buttonPress, loop[0])
        for p in loop.dropFirst() { r.send(.motion, p) }
        r.send(.buttonRelease, loop.last!)
        // The press inside the selection must see it: the lasso's release went first.
        r.send(.buttonPress, Point(x: 130, y: 105))
        #expect(!r.editor.selectedStrokes.isEmpty, "the lasso's release was held past the press")
        for k in 1 ... 10 { r.send(.motion, Point(x: 130 + Double(k) * 4, y: 105)) }
        r.send(.buttonRelease, Point(x: 170, y: 105))
        r.pointer.applySettledUps()
        let moved = try #require(r.editor.part?.model.orderedStrokes.first)
        #expect(r.editor.viewTransform.apply(Point(x: moved[0].x, y: moved[0].y)).x > 130, "the selection was not dragged")
    }

    @Test func anotherDevicesPressAppliesTheHeldReleaseFirst() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100)
        r.send(.buttonPress, Point(x: 300, y: 300), device: r.eraser)
        #expect(r.strokeCount == 1 && !r.pointer.hasHeldUps)
    }

    @Test func theRightButtonRightAfterAStrokeOpensTheMenuOnFinishedInk() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100)
        // Pressed before the pen was 10 ms in the air: the held release goes first, so no pointer
        // is down and the context menu opens.
        r.send(.buttonPress, Point(x: 115, y: 104), button: 3)
        #expect(r.strokeCount == 1 && !r.pointer.hasHeldUps)
        #expect(r.popup.isOpen, "the context menu did not open over the stroke just written")
    }

    @Test func aDeviceGoingAwayKeepsConfirmedStrokesAndCancelsTheLastOne() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100)
        r.stroke(x: 160, y: 100)
        // Both releases held (no round trip yet); then the pen is disabled.
        r.pointer.devicesLost([r.pen.id])
        // The first release was confirmed by the second press: its stroke is kept. The second may
        // be the server releasing a disabled device's button: that stroke is cancelled.
        #expect(r.strokeCount == 1)
        #expect(r.editor.activePointerIds.isEmpty && !r.pointer.hasHeldUps)
    }

    @Test func keysAndClosingActOnFinishedStrokes() throws {
        let r = try Rig()
        r.stroke(x: 100, y: 100)
        r.stroke(x: 160, y: 100, release: false)
        r.pointer.applyPendingUps()
        #expect(r.strokeCount == 1 && r.editor.activePointerIds.count == 1)
    }
}
