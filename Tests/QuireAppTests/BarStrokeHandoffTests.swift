import Foundation
import Testing
import Quire
@testable import QuireApp

/// Which pointer sequences on the candidates bar are the bar's and which are ink.
struct BarStrokeHandoffTests {
    private let pen = InputDevice(id: 7, name: "pen", kind: .pen)
    private func ev(_ phase: PointerInput.Phase, _ x: Double, _ y: Double, detail: Int = 1) -> PointerInput {
        PointerInput(phase: phase, window: 5, device: pen, detail: detail, point: Point(x: x, y: y), ctrl: false, serverTime: 0, pressure: 0.5, received: 0)
    }
    private func canvas(_ r: BarStrokeHandoff.Route) -> [PointerInput]? {
        if case let .canvas(es) = r { return es }
        return nil
    }

    @Test func aTapIsTheBarsAndAStrokeGoesToTheCanvasWholeInCanvasPixels() {
        var h = BarStrokeHandoff(slop: 8)
        let origin = Point(x: 100, y: 50)
        // A tap that wanders 5 px: every event the bar's.
        for e in [ev(.buttonPress, 10, 10), ev(.motion, 13, 14, detail: 0), ev(.buttonRelease, 13, 14)] {
            #expect(canvas(h.route(e, origin: origin, canvas: 9)) == nil)
        }
        // A stroke: nothing until it leaves the slop, then its press, its moves so far and the one
        // that left, all addressed to the canvas; after that each event as it comes.
        #expect(canvas(h.route(ev(.buttonPress, 10, 10), origin: origin, canvas: 9)) == nil)
        #expect(canvas(h.route(ev(.motion, 14, 10, detail: 0), origin: origin, canvas: 9)) == nil)
        let handed = canvas(h.route(ev(.motion, 20, 10, detail: 0), origin: origin, canvas: 9))
        let events = handed ?? []
        let phases: [PointerInput.Phase] = events.map(\.phase)
        let xs: [Double] = events.map(\.point.x)
        #expect(phases == [.buttonPress, .motion, .motion])
        #expect(xs == [110, 114, 120])
        #expect(events.allSatisfy { $0.window == 9 && $0.point.y == 60 })
        #expect(canvas(h.route(ev(.motion, 21, 11, detail: 0), origin: origin, canvas: 9))?.count == 1)
        let release = canvas(h.route(ev(.buttonRelease, 21, 11), origin: origin, canvas: 9)) ?? []
        #expect(release.count == 1 && release.first?.phase == .buttonRelease)
        // The next press starts afresh: the bar's again.
        #expect(canvas(h.route(ev(.buttonPress, 30, 10), origin: origin, canvas: 9)) == nil)
        #expect(canvas(h.route(ev(.buttonRelease, 30, 10), origin: origin, canvas: 9)) == nil)
        // A stroke handed off, then ended while the bar was hidden: forgotten, so the pen's later
        // hovering over the bar stays the bar's.
        #expect(canvas(h.route(ev(.buttonPress, 10, 10), origin: origin, canvas: 9)) == nil)
        #expect(canvas(h.route(ev(.motion, 40, 10, detail: 0), origin: origin, canvas: 9))?.count == 2)
        h.forget(ev(.buttonRelease, 40, 10))
        // A hovering pen's moves, with nothing pressed, are the bar's (it ignores them).
        #expect(canvas(h.route(ev(.motion, 90, 10, detail: 0), origin: origin, canvas: 9)) == nil)
    }
}
