import Foundation
import Quire

/// Turns pointer and touch input on an editor view's canvas into editor input: pen releases held
/// for a round trip, pressure, wheel scrolling and zooming, the right button's and a long press's
/// context menu, presses that only close a popup, and drawing each event at once.
final class PointerController {
    private let view: EditorView
    private let dispatcher: CommandDispatcher
    private let bar: CandidateBarController
    private let popup: PopupController
    private let latency: LatencyRecorder
    /// Sends what was drawn to the window system.
    var flush: () -> Void = {}

    /// Pen/mouse releases held until the next round trip (see `AppWindow.run`).
    private(set) var pendingUps: [Int: InputEvent] = [:]
    private var pressure: [Int: Double] = [:]
    /// Pointer sequences whose press closed a popup: the rest of them is dropped.
    private var swallowed: Set<Int> = []
    /// A finger down and still: a context menu opens at the deadline (monotonic ns).
    private var longPress: (touchId: Int, point: Point, deadline: UInt64)?
    private static let longPressNs: UInt64 = 600_000_000
    private let clock = EventClock()

    init(view: EditorView, dispatcher: CommandDispatcher, bar: CandidateBarController, popup: PopupController, latency: LatencyRecorder) {
        self.view = view
        self.dispatcher = dispatcher
        self.bar = bar
        self.popup = popup
        self.latency = latency
    }

    private var editor: Editor { view.editor }
    private var router: InputRouter { view.router }

    /// Notes an event's pressure, whichever window it went to (the last one reported holds until
    /// the device reports another).
    func note(_ e: PointerInput) {
        if let f = e.pressure { pressure[e.device.id] = f }
    }

    /// Devices went away: their held releases go too, and their strokes end.
    func devicesLost(_ ids: [Int]) {
        for id in ids {
            pendingUps[id] = nil
            router.deviceLost(id)
        }
    }

    /// An event on the canvas; `p` is in canvas pixels (an implicit grab may report on another window).
    func handle(_ e: PointerInput, at p: Point) {
        let source = e.device.id
        let touchId = e.isTouch ? e.detail : nil
        // A press that closes a popup does nothing else: the rest of its sequence is dropped.
        let key = InputRouter.pointerId(device: source, touchId: touchId)
        if swallowed.contains(key) {
            if e.isRelease { swallowed.remove(key) }
            return
        }
        if popup.isOpen, e.isPress {
            popup.close()
            swallowed.insert(key)
            return
        }
        var phase: InputEvent.Phase
        switch e.phase {
        case .buttonPress, .buttonRelease:
            if (4...7).contains(e.detail) {
                if e.phase == .buttonPress { wheel(e.detail, at: p, ctrl: e.ctrl) }
                return
            }
            if e.detail == 3 {
                // The right button (or a pen's barrel button) opens the context menu.
                if e.phase == .buttonPress, !editor.hasActivePointers { popup.openContextMenu(at: p) }
                return
            }
            guard e.detail == 1 else { return }
            phase = e.phase == .buttonPress ? .down : .up
        case .motion, .touchUpdate: phase = .move
        case .touchBegin: phase = .down
        case .touchEnd: phase = .up
        }
        let kind: DeviceKind = e.isTouch ? .touch : (e.device.kind == .touch ? .mouse : e.device.kind)
        let f = pressure[source] ?? (phase == .up ? 0 : 0.5)
        dispatcher.lastPoint = p
        let ev = InputEvent(phase: phase, device: source, kind: kind, touchId: touchId, x: p.x, y: p.y,
                            time: clock.epochMs(e.serverTime), pressure: e.device.pressureAxis == nil ? 0.5 : f)
        if phase == .down {
            if !e.isTouch { latency.strokeBegan() }
            // A press of any device comes after a held release in the server's order, and a device
            // being disabled reports its release and the hierarchy change in one go: such a release is
            // genuine. Applying it first lets an eraser flipped in right after the pen erase its ink.
            applyPendingUps()
        } else if pendingUps[source] != nil {
            applyPendingUp(source)
        }
        if phase == .up, !e.isTouch, kind != .touch {
            pendingUps[source] = ev
            return
        }
        let changed = latency.step(phase == .move ? "pen move" : phase == .down ? "pen down" : "release") { router.handle(ev) }
        if e.isTouch {
            trackLongPress(phase, touchId: e.detail, at: p)
            if phase == .up { bar.dirty = true }   // a tap selects a block and a word
        }
        if changed {
            // Each event reaches the screen now: no frame timer, no batching. A pen move draws
            // just its new segment; page damage (a stroke committed a moment ago, a recognition
            // result) is repainted by the loop once no input is waiting.
            // A press that starts ink draws its first dot the same way: the page's own changes
            // (the stroke before, recognition's words) are the loop's, between strokes.
            let live = phase != .up && latency.step("live ink") { view.presentLiveSegment(pointerId: InputRouter.pointerId(device: source, touchId: nil)) }
            if !live { latency.step("render after a pen event") { view.present() } }
            latency.step("flush") { flush() }
            if live, phase == .move { latency.record(received: e.received, serverTime: UInt64(e.serverTime)) }
        }
    }

    func applyPendingUps() {
        for source in Array(pendingUps.keys) { applyPendingUp(source) }
    }

    private func applyPendingUp(_ source: Int) {
        guard let e = pendingUps.removeValue(forKey: source) else { return }
        // The bar follows the block last written in (looked up once per stroke, never per move):
        // the one holding the new stroke, which the block flow may have pushed below the point
        // where the pen lifted; a tap or gesture, the block there.
        bar.dirty = true
        let strokeBefore = editor.lastStrokeId
        defer {
            let written = editor.lastStrokeId.flatMap { $0 != strokeBefore ? editor.block(holdingStroke: $0) : nil }
            bar.follow(written ?? editor.hitBlock(at: Point(x: e.x, y: e.y)))
        }
        // The stroke stays on the live layer until the page shows it: the loop renders once the
        // input queued behind this release (the next stroke's first points) is handled.
        _ = latency.step("pen-up") { router.handle(e) }
    }

    private func wheel(_ button: Int, at p: Point, ctrl: Bool) {
        let step = 48 * view.scale
        if ctrl {
            editor.zoom(by: button == 4 ? 1.1 : button == 5 ? 1 / 1.1 : 1, at: p)
        } else {
            switch button {
            case 4: editor.scroll(by: Point(x: 0, y: -step))
            case 5: editor.scroll(by: Point(x: 0, y: step))
            case 6: editor.scroll(by: Point(x: -step, y: 0))
            default: editor.scroll(by: Point(x: step, y: 0))
            }
        }
    }

    // MARK: long press

    private func trackLongPress(_ phase: InputEvent.Phase, touchId: Int, at p: Point) {
        switch phase {
        case .down:
            // One still finger on the hand tool; a second finger (a pinch) cancels it.
            if longPress == nil, router.lastDropReason == nil, router.activeTouchCount == 1,
               editor.toolController.tool(for: .touch) == .hand {
                longPress = (touchId, p, monotonicNs() + Self.longPressNs)
            } else {
                longPress = nil
            }
        case .move:
            if let lp = longPress, lp.touchId == touchId, hypot(p.x - lp.point.x, p.y - lp.point.y) > 8 * view.scale { longPress = nil }
        case .up:
            if longPress?.touchId == touchId { longPress = nil }
        case .hover:
            break
        }
    }

    /// Monotonic time (ns) the loop must wake at for a long press, if one is pending.
    var longPressDeadline: UInt64? { longPress?.deadline }

    /// Opens the context menu once a finger has been still long enough.
    func checkLongPress() {
        guard let lp = longPress, monotonicNs() >= lp.deadline else { return }
        longPress = nil
        // The finger's tap or drag ends here: what it does from now on is the menu's.
        router.cancelTouches()
        popup.openContextMenu(at: lp.point)
    }
}
