import Foundation
import Quire

/// Turns pointer and touch input on an editor view's canvas into editor input: pen releases held
/// for a round trip (and while the same pen's next stroke is written), pressure, wheel scrolling
/// and zooming, the right button's and a long press's context menu, presses that only close a
/// popup, and drawing each event at once.
final class PointerController {
    private let view: EditorView
    private let dispatcher: CommandDispatcher
    private let bar: CandidateBarController
    private let popup: PopupController
    private let latency: LatencyRecorder
    /// Sends what was drawn to the window system.
    var flush: () -> Void = {}

    /// A pen or mouse release held back, in the order releases came.
    private struct HeldUp {
        var event: InputEvent
        /// A press came after it: the server sent it as a real release, not as a device going away.
        var confirmed = false
        /// When it came (monotonic ns).
        var received: UInt64
    }
    /// Pen/mouse releases held until the next round trip (see `AppWindow.run`). A release that the
    /// same device's next press follows waits further, while that stroke is written: the editor's
    /// pen-up (the block flow, the recognition request; milliseconds on a full page) would
    /// otherwise run between that stroke's first points and the screen. It runs, in order, once
    /// the device has no stroke down and has been in the air for `airNs`: in the pen's time in the
    /// air between strokes, or after the last of a quick run of strokes.
    private var heldUps: [HeldUp] = []
    /// Sources with a stroke down on the canvas (pressed, release not yet come).
    private var strokesDown: Set<Int> = []
    /// A release was held since the last round trip.
    private(set) var roundTripDue = false
    /// Whether any release is held back.
    var hasHeldUps: Bool { !heldUps.isEmpty }
    /// How long a pen is in the air before its held releases run: the next stroke of quick
    /// writing comes sooner, and its first points then need not wait for the editor's pen-up.
    static let airNs: UInt64 = 10_000_000
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
            // Releases a later press confirmed are real strokes; the last one may be the device
            // going away (the server releases its buttons first): that stroke is cancelled.
            let mine = heldUps.filter { $0.event.device == id }
            heldUps.removeAll { $0.event.device == id }
            for h in mine where h.confirmed { apply(h.event) }
            strokesDown.remove(id)
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
        // Another button (the context menu, the wheel's scroll and zoom) acts on finished strokes:
        // a held release would keep a pointer down, and its point is in the view as it is now.
        if e.phase == .buttonPress, e.detail != 1 { applyPendingUps() }
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
        let holds = !e.isTouch && kind != .touch
        if phase == .down {
            if !e.isTouch { latency.strokeBegan() }
            // A press of any device comes after a held release in the server's order, and a device
            // being disabled reports its release and the hierarchy change in one go: such a release is
            // genuine. Another device's go first: an eraser flipped in right after the pen erases its
            // ink. This device's wait while its new stroke is written, if they were ink.
            for i in heldUps.indices { heldUps[i].confirmed = true }
            applyHeldUps { $0.device != source || !holds || !defers($0) }
        }
        if holds {
            if phase == .down { strokesDown.insert(source) }
            if phase == .up {
                strokesDown.remove(source)
                heldUps.append(HeldUp(event: ev, received: e.received))
                router.releaseHeld(device: source)
                roundTripDue = true
                return
            }
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
            let live = phase != .up && latency.step("live ink") {
                view.presentLiveSegment(pointerId: e.isTouch ? key : router.currentPointerId(device: source) ?? key)
            }
            if !live { latency.step("render after a pen event") { view.present() } }
            latency.step("flush") { flush() }
            if live, phase == .move { latency.record(received: e.received, serverTime: UInt64(e.serverTime)) }
        }
    }

    /// Applies every held release (keys, focus and window events act on finished strokes).
    func applyPendingUps() {
        applyHeldUps { _ in true }
    }

    /// After the round trip: applies the held releases of devices that have been in the air for
    /// `airNs` (by `now`, monotonic ns); those of a device writing its next stroke wait for it.
    func applySettledUps(now: UInt64 = .max) {
        roundTripDue = false
        let air = airborneSince()
        applyHeldUps { e in air[e.device].map { now >= $0 &+ Self.airNs } ?? false }
    }

    /// When the next held release is due (monotonic ns): the loop wakes for it.
    var heldUpsDue: UInt64? {
        airborneSince().values.min().map { $0 &+ Self.airNs }
    }

    /// Per device with held releases and no stroke down, when its last release came.
    private func airborneSince() -> [Int: UInt64] {
        var out: [Int: UInt64] = [:]
        for h in heldUps where !strokesDown.contains(h.event.device) { out[h.event.device] = max(out[h.event.device] ?? 0, h.received) }
        return out
    }

    /// A held release waits while its device's next stroke is written only if it ended ink: a
    /// lasso's or a drag's release changes what the next press does (it grabs the selection).
    private func defers(_ e: InputEvent) -> Bool {
        router.currentPointerId(device: e.device).map { view.editor.liveStroke(pointerId: $0) != nil } ?? false
    }

    /// Applies the held releases that `which` picks, in the order they came. A device's releases
    /// keep their order: one not picked holds back the device's later ones.
    private func applyHeldUps(_ which: (InputEvent) -> Bool) {
        guard !heldUps.isEmpty else { return }
        var kept: [HeldUp] = []
        var blocked: Set<Int> = []
        let all = heldUps
        heldUps = []
        for h in all {
            if blocked.contains(h.event.device) || !which(h.event) {
                blocked.insert(h.event.device)
                kept.append(h)
            } else {
                apply(h.event)
            }
        }
        heldUps = kept + heldUps
    }

    private func apply(_ e: InputEvent) {
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
