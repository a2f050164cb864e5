import Foundation
import Quire

/// Decides whether a pointer sequence put down on the candidates bar is the bar's (a tap on a
/// word) or ink that happened to start there. The bar floats over the page by the words being
/// written, so a stroke may begin on it. Once the pointer has moved `slop` pixels from where it
/// went down, the sequence is the canvas's, from its press on: no point of the stroke is lost.
struct BarStrokeHandoff {
    /// Where a sequence goes.
    enum Route {
        /// The bar's: a press, a release of a tap, or a move still within the slop.
        case bar
        /// The canvas's: these events, in canvas pixels, in order.
        case canvas([PointerInput])
    }

    /// How far (canvas pixels) a tap may wander before it is a stroke.
    let slop: Double
    /// Sequences pressed on the bar and still within the slop: their press and moves so far,
    /// in canvas pixels.
    private var pending: [Int: [PointerInput]] = [:]
    /// Sequences handed to the canvas, until their release.
    private var handed: Set<Int> = []

    init(slop: Double) { self.slop = slop }

    /// A sequence ended while the bar was hidden (its events went to the canvas without `route`).
    mutating func forget(_ e: PointerInput) {
        let key = InputRouter.pointerId(device: e.device.id, touchId: e.isTouch ? e.detail : nil)
        pending[key] = nil
        handed.remove(key)
    }

    /// Routes an event of the bar's window; `origin` is the bar's top-left in canvas pixels and
    /// `canvas` the canvas window, which handed-off events are addressed to.
    mutating func route(_ e: PointerInput, origin: Point, canvas: WindowID) -> Route {
        let key = InputRouter.pointerId(device: e.device.id, touchId: e.isTouch ? e.detail : nil)
        var c = e
        c.window = canvas
        c.point = Point(x: e.point.x + origin.x, y: e.point.y + origin.y)
        if e.isPress {
            handed.remove(key)
            pending[key] = [c]
            return .bar
        }
        if handed.contains(key) {
            if e.isRelease { handed.remove(key) }
            return .canvas([c])
        }
        guard let held = pending[key], let press = held.first else { return .bar }
        if e.isRelease {
            pending[key] = nil
            return .bar
        }
        guard e.isMotion else { return .bar }
        guard hypot(c.point.x - press.point.x, c.point.y - press.point.y) >= slop else {
            pending[key] = held + [c]
            return .bar
        }
        pending[key] = nil
        handed.insert(key)
        return .canvas(held + [c])
    }
}
