import Foundation
import Testing
@testable import Quire
@testable import QuireApp

/// The toolbar in the window's width: every command has a button inside it or is in the More
/// menu, buttons stay touch-sized and never overlap, and ◀ Pages ▶ stay on the bar.
@Suite struct ToolbarLayoutTests {
    private func check(_ layout: ToolbarLayout, width: Double) {
        let frames = layout.frames()
        let shown = frames.map(\.0)
        #expect(Set(shown).isDisjoint(with: layout.folded), "\(width)")
        #expect(Set(shown + layout.folded) == Set(layout.commands), "\(width): every command is reachable")
        #expect(layout.folded.isEmpty == (layout.moreFrame == nil), "\(width)")
        for c in [ToolbarCommand.previousPage, .pages, .nextPage] { #expect(shown.contains(c), "\(width): \(c)") }
        let rects = frames.map(\.1) + [layout.moreFrame].compactMap { $0 }
        for r in rects {
            #expect(r.x >= 0 && r.maxX <= width, "\(width): \(r) inside the bar")
            // The hit area (the frame and its margin) is finger-sized.
            #expect(r.width + 4 >= 44 && r.height + 8 >= 44, "\(width): \(r)")
        }
        let sorted = rects.sorted { $0.x < $1.x }
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.maxX < b.x, "\(width): \(a) and \(b) overlap") }
        // A tap in each button's middle names its command.
        for (c, r) in frames { #expect(layout.command(at: Point(x: r.midX, y: r.midY)) == c) }
        if let m = layout.moreFrame { #expect(layout.isMore(at: Point(x: m.midX, y: m.midY)) && layout.command(at: Point(x: m.midX, y: m.midY)) == nil) }
    }

    @Test func everyCommandIsReachableAtEachWidth() {
        for width in [1400.0, 1000, 700, 600, 480] {
            check(ToolbarLayout(kiosk: false, scale: 1, width: width), width: width)
            check(ToolbarLayout(kiosk: true, scale: 1, width: width), width: width)
        }
        check(ToolbarLayout(kiosk: false, scale: 2, width: 1400), width: 1400)
    }

    @Test func spacingTightensBeforeButtonsFold() {
        let wide = ToolbarLayout(kiosk: false, scale: 1, width: 3000)
        #expect(!wide.compact && wide.folded.isEmpty && wide.moreFrame == nil)
        let natural = wide.frames().last!.1.maxX + 6
        // Just too narrow for the natural spacing: tight spacing, nothing folded.
        let tight = ToolbarLayout(kiosk: false, scale: 1, width: natural - 1)
        #expect(tight.compact && tight.folded.isEmpty)
        // Narrower: the least-used buttons fold first, in the documented order.
        let w700 = ToolbarLayout(kiosk: false, scale: 1, width: 700)
        #expect(!w700.folded.isEmpty)
        #expect(Set(w700.folded) == Set(ToolbarLayout.foldOrder.prefix(w700.folded.count)))
        let w480 = ToolbarLayout(kiosk: false, scale: 1, width: 480)
        #expect(Set(w700.folded).isSubset(of: Set(w480.folded)) && w480.folded.count > w700.folded.count)
        // The pen and Undo stay on the bar down to 480 px.
        #expect(w480.frames().contains { $0.0 == .pen } && w480.frames().contains { $0.0 == .undo })
    }

    @Test func resizingLaysOutAgainAndLeavesTheMessageTheRest() {
        var layout = ToolbarLayout(kiosk: false, scale: 1, width: 480)
        let narrow = layout.folded
        layout.width = 3000
        #expect(layout.folded.isEmpty && layout.moreFrame == nil && !narrow.isEmpty)
        let m = layout.messageFrame
        #expect(m.x > layout.frames().last!.1.maxX && abs(m.maxX - 2994) < 0.001)
        layout.width = 480
        #expect(layout.folded == narrow)
    }
}
