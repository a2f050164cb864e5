import Foundation
import Quire

/// One input event from a physical device, already in canvas pixels.
public struct InputEvent: Sendable, Equatable {
    public enum Phase: Sendable, Equatable { case down, move, up, hover }
    public var phase: Phase
    /// The physical (slave) device id.
    public var device: Int
    public var kind: DeviceKind
    /// The touch sequence id (touch devices only).
    public var touchId: Int?
    public var x: Double
    public var y: Double
    /// Milliseconds since 1970.
    public var time: Int64
    /// 0...1.
    public var pressure: Double
    public init(phase: Phase, device: Int, kind: DeviceKind, touchId: Int? = nil, x: Double, y: Double, time: Int64, pressure: Double = 0) {
        self.phase = phase; self.device = device; self.kind = kind; self.touchId = touchId
        self.x = x; self.y = y; self.time = time; self.pressure = pressure
    }
}

/// Where the pens are, for palm rejection: which are down and when one was last seen. One
/// window's routers share one (a kiosk form has a router per field, and a palm resting on one
/// field while the pen writes in another is still a palm).
public final class PalmState {
    /// Touches are ignored while a pen is down or was seen within `timeoutMs`.
    public var enabled = true
    public var timeoutMs: Int64 = 600
    var lastPenTime: Int64 = .min
    var pensDown: Set<Int> = []
    public init() {}

    /// Whether a touch at `time` (ms since 1970) is taken for a palm.
    public func rejects(at time: Int64) -> Bool {
        guard enabled else { return false }
        return !pensDown.isEmpty || (lastPenTime != .min && time - lastPenTime <= timeoutMs)
    }
}

/// Routes device input to the editor: pen and mouse to their tools, the eraser end to the eraser,
/// touch to manipulation (one finger scrolls or drags a block, two fingers pinch-zoom), with palm
/// rejection. Pure logic over a real `Editor`, so it is tested without an X server.
public final class InputRouter {
    public let editor: Editor
    /// The pens' state, possibly shared with other routers of the window.
    public var palm = PalmState()
    /// Touches are ignored while a pen is down or was seen within `palmTimeoutMs`.
    public var palmRejection: Bool {
        get { palm.enabled }
        set { palm.enabled = newValue }
    }
    public var palmTimeoutMs: Int64 {
        get { palm.timeoutMs }
        set { palm.timeoutMs = newValue }
    }
    /// Why the last event was dropped (for logs and tests).
    public private(set) var lastDropReason: String?
    /// Errors from the editor (should not happen: the router keeps sequences consistent).
    public var onError: ((String) -> Void)?

    private struct Touch { var x: Double; var y: Double; var rejected: Bool; var inEditor: Bool }
    /// A pen's or mouse's stroke down in the editor; `released` once its release is held back.
    private struct PenStroke { var id: Int; var released = false }
    /// Per device, its strokes down in the editor, oldest first.
    private var strokes: [Int: [PenStroke]] = [:]
    private var touches: [Int: Touch] = [:]
    private var pinch: (distance: Double, mid: Point)?
    /// Where the current two-finger gesture began (midpoint, finger distance) and where it is now.
    private var twoFinger: (startMid: Point, startDistance: Double, mid: Point, distance: Double)?
    /// A two-finger swipe sideways ended: -1 swiped right (back a page), +1 left (forward).
    public var onSwipe: ((Int) -> Void)?
    /// How far (view pixels) both fingers must travel sideways for a swipe.
    public var swipeDistance = 160.0

    public init(editor: Editor) { self.editor = editor }

    /// Fingers down that are not rejected (palm) or ignored (a third finger).
    public var activeTouchCount: Int { touches.values.filter { !$0.rejected }.count }

    /// The editor pointer id used for a device (pens, erasers, mice) or a touch sequence.
    public static func pointerId(device: Int, touchId: Int?) -> Int {
        if let t = touchId { return (1 << 32) + t }
        return device
    }

    private static func pointerType(_ k: DeviceKind) -> PointerType {
        switch k {
        case .pen: .pen
        case .eraser: .eraser
        case .touch: .touch
        case .mouse, .ignore: .mouse
        }
    }

    /// Whether touch currently manipulates the view (pinch and one-finger scroll) rather than inks.
    private var touchManipulates: Bool { editor.toolController.tool(for: .touch) == .hand }

    /// Handles one event; returns true when the editor's state changed (redraw needed).
    @discardableResult
    public func handle(_ e: InputEvent) -> Bool {
        lastDropReason = nil
        guard e.x.isFinite, e.y.isFinite else { lastDropReason = "non-finite coordinates"; return false }
        switch e.kind {
        case .ignore:
            lastDropReason = "ignored device"
            return false
        case .pen, .eraser:
            palm.lastPenTime = max(palm.lastPenTime, e.time)
            return handlePointer(e)
        case .mouse:
            return handlePointer(e)
        case .touch:
            return handleTouch(e)
        }
    }

    private func handlePointer(_ e: InputEvent) -> Bool {
        let type = Self.pointerType(e.kind)
        let f = e.kind == .mouse ? 0.5 : e.pressure
        // Strokes the editor dropped on its own (a page change cancels pointers) are gone here too.
        let active = editor.activePointerIds
        strokes[e.device]?.removeAll { !active.contains($0.id) }
        let current = strokes[e.device]?.last
        switch e.phase {
        case .hover:
            return false
        case .down:
            if e.kind == .pen || e.kind == .eraser {
                palm.pensDown.insert(e.device)
                cancelTouches()  // the palm landed before the pen
            }
            // A press while the device's stroke is down and its release was never seen: the
            // release was lost, the stroke goes. A stroke whose release is held stays down.
            if let c = current, !c.released {
                call { try editor.pointerCancel(pointerId: c.id) }
                strokes[e.device]?.removeLast()
            }
            let id = freePointerId(device: e.device)
            guard call({ try editor.pointerDown(x: e.x, y: e.y, t: e.time, f: f, type: type, pointerId: id) }) else { return false }
            strokes[e.device, default: []].append(PenStroke(id: id))
            return true
        case .move:
            guard let c = current, !c.released else { return false }
            return call { try editor.pointerMove(x: e.x, y: e.y, t: e.time, f: f, type: type, pointerId: c.id) }
        case .up:
            palm.pensDown.remove(e.device)
            // The release ends the device's oldest stroke whose release was held, else its only one.
            guard let list = strokes[e.device], let k = list.firstIndex(where: \.released) ?? (list.isEmpty ? nil : list.count - 1) else { return false }
            strokes[e.device]?.remove(at: k)
            return call { try editor.pointerUp(x: e.x, y: e.y, t: e.time, f: f, type: type, pointerId: list[k].id) }
        }
    }

    /// The device's release came and is held back (see `PointerController`): its stroke stays down
    /// in the editor while the device's next stroke begins under another pointer id.
    public func releaseHeld(device: Int) {
        guard var list = strokes[device], let c = list.last, !c.released else { return }
        list[list.count - 1].released = true
        strokes[device] = list
    }

    /// The editor pointer id of the device's stroke being written (the newest), if any.
    public func currentPointerId(device: Int) -> Int? {
        strokes[device]?.last.map(\.id)
    }

    /// The device's own id for its first stroke (what `pointerId(device:touchId:)` names); one
    /// beside it for a stroke begun while an earlier one's release is held.
    private func freePointerId(device: Int) -> Int {
        let taken = Set(editor.activePointerIds)
        var k = 0
        while taken.contains(device + (k << 40)) { k += 1 }
        return device + (k << 40)
    }

    private func handleTouch(_ e: InputEvent) -> Bool {
        guard let tid = e.touchId else { lastDropReason = "touch without a sequence id"; return false }
        let id = Self.pointerId(device: e.device, touchId: tid)
        switch e.phase {
        case .hover:
            return false
        case .down:
            if touches[tid] != nil { _ = endTouch(tid, id: id, e: e, cancel: true) }
            if palm.rejects(at: e.time) {
                touches[tid] = Touch(x: e.x, y: e.y, rejected: true, inEditor: false)
                lastDropReason = "palm rejection: a pen is near"
                return false
            }
            let live = touches.filter { !$0.value.rejected }
            if touchManipulates, let (otherId, other) = live.first {
                // A second finger: stop the first finger's scroll/drag and pinch with both.
                if other.inEditor { call { try editor.pointerCancel(pointerId: Self.pointerId(device: e.device, touchId: otherId)) } }
                touches[otherId]?.inEditor = false
                touches[tid] = Touch(x: e.x, y: e.y, rejected: false, inEditor: false)
                startPinch()
                return true
            }
            if touchManipulates, pinch != nil || live.count >= 2 {
                touches[tid] = Touch(x: e.x, y: e.y, rejected: true, inEditor: false)
                lastDropReason = "third finger during a pinch"
                return false
            }
            touches[tid] = Touch(x: e.x, y: e.y, rejected: false, inEditor: true)
            return call { try editor.pointerDown(x: e.x, y: e.y, t: e.time, f: e.pressure, type: .touch, pointerId: id) }
        case .move:
            guard var t = touches[tid] else { lastDropReason = "touch update without a begin"; return false }
            guard !t.rejected else { lastDropReason = "palm rejection: touch began near a pen"; return false }
            t.x = e.x; t.y = e.y
            touches[tid] = t
            if pinch != nil { return updatePinch() }
            guard t.inEditor else { return false }
            return call { try editor.pointerMove(x: e.x, y: e.y, t: e.time, f: e.pressure, type: .touch, pointerId: id) }
        case .up:
            return endTouch(tid, id: id, e: e, cancel: false)
        }
    }

    private func endTouch(_ tid: Int, id: Int, e: InputEvent, cancel: Bool) -> Bool {
        guard let t = touches.removeValue(forKey: tid) else { lastDropReason = "touch end without a begin"; return false }
        if pinch != nil, touches.filter({ !$0.value.rejected }).count < 2 {
            pinch = nil
            if !cancel { reportSwipe() }
            twoFinger = nil
        }
        guard t.inEditor, editor.activePointerIds.contains(id) else { return !t.rejected }
        if cancel { return call { try editor.pointerCancel(pointerId: id) } }
        return call { try editor.pointerUp(x: e.x, y: e.y, t: e.time, f: e.pressure, type: .touch, pointerId: id) }
    }

    private func pinchPair() -> (Touch, Touch)? {
        let live = touches.filter { !$0.value.rejected }.sorted { $0.key < $1.key }
        guard live.count >= 2 else { return nil }
        return (live[0].value, live[1].value)
    }

    private func startPinch() {
        guard let (a, b) = pinchPair() else { return }
        pinch = (max(1, hypot(a.x - b.x, a.y - b.y)), Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
        if let p = pinch { twoFinger = (p.mid, p.distance, p.mid, p.distance) }
    }

    /// Both fingers went far sideways without spreading or closing much: a page turn. (The view
    /// scrolled along meanwhile, as for any two-finger pan.)
    private func reportSwipe() {
        guard let g = twoFinger else { return }
        let dx = g.mid.x - g.startMid.x, dy = g.mid.y - g.startMid.y
        let spread = g.distance / g.startDistance
        guard abs(dx) >= swipeDistance, abs(dx) > 2 * abs(dy), spread > 0.7, spread < 1.4 else { return }
        onSwipe?(dx < 0 ? 1 : -1)
    }

    private func updatePinch() -> Bool {
        guard let p = pinch, let (a, b) = pinchPair() else { return false }
        let d = max(1, hypot(a.x - b.x, a.y - b.y))
        let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        editor.scroll(by: Point(x: p.mid.x - mid.x, y: p.mid.y - mid.y))
        if abs(d / p.distance - 1) > 0.01 { editor.zoom(by: d / p.distance, at: mid) }
        pinch = (d, mid)
        twoFinger?.mid = mid
        twoFinger?.distance = d
        return true
    }

    /// Cancels every touch that reached the editor (a pen came down, or focus was lost).
    public func cancelTouches() {
        for (tid, t) in touches {
            touches[tid]?.rejected = true
            if t.inEditor {
                for id in editor.activePointerIds where id == (1 << 32) + tid { call { try editor.pointerCancel(pointerId: id) } }
            }
            touches[tid]?.inEditor = false
        }
        pinch = nil
        twoFinger = nil
    }

    /// A device went away (unplugged, disabled) or stopped reporting: its strokes are cancelled.
    public func deviceLost(_ device: Int) {
        palm.pensDown.remove(device)
        let active = editor.activePointerIds
        for c in strokes.removeValue(forKey: device) ?? [] where active.contains(c.id) {
            call { try editor.pointerCancel(pointerId: c.id) }
        }
        let id = Self.pointerId(device: device, touchId: nil)
        if editor.activePointerIds.contains(id) { call { try editor.pointerCancel(pointerId: id) } }
    }

    /// Focus lost or a grab broken: everything in progress is cancelled cleanly.
    public func cancelAll() {
        cancelTouches()
        touches = [:]
        palm.pensDown = []
        strokes = [:]
        for id in editor.activePointerIds { call { try editor.pointerCancel(pointerId: id) } }
    }

    @discardableResult
    private func call(_ body: () throws -> Void) -> Bool {
        do { try body(); return true } catch {
            onError?("\(error)")
            return false
        }
    }
}
