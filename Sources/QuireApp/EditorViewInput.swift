import Foundation
import Quire

extension EditorView {
    /// Feeds one X pointer event on this view's canvas to its editor as pen, mouse or touch input
    /// and shows the ink at once (the live segment while moving). Only button 1 writes. Returns
    /// whether the editor took it, so the caller flushes the X connection. The windows that are
    /// only canvases (the calculator, a kiosk form's fields) write through this one conversion.
    func write(_ e: PointerInput, clock: EventClock) -> Bool {
        let phase: InputEvent.Phase
        switch e.phase {
        case .buttonPress, .buttonRelease:
            guard e.detail == 1 else { return false }
            phase = e.phase == .buttonPress ? .down : .up
        case .motion, .touchUpdate: phase = .move
        case .touchBegin: phase = .down
        case .touchEnd: phase = .up
        }
        let kind: DeviceKind = e.isTouch ? .touch : (e.device.kind == .touch ? .mouse : e.device.kind)
        let ev = InputEvent(phase: phase, device: e.device.id, kind: kind, touchId: e.isTouch ? e.detail : nil,
                            x: e.point.x, y: e.point.y, time: clock.epochMs(e.serverTime),
                            pressure: e.device.pressureAxis == nil ? 0.5 : (e.pressure ?? (phase == .up ? 0 : 0.5)))
        guard router.handle(ev) else { return false }
        let pointerId = InputRouter.pointerId(device: e.device.id, touchId: e.isTouch ? e.detail : nil)
        if !(phase == .move && presentLiveSegment(pointerId: pointerId)) { present() }
        return true
    }
}
