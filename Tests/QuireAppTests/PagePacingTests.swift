import Testing
@testable import QuireApp

/// When the window's loop draws the page: never while a stroke is written, not while input is
/// already queued (the next stroke's press right after a pen-up), but never left for long.
struct PagePacingTests {
    @Test func queuedInputGoesFirstButNeverStarvesThePage() {
        var pacing = PagePacing()
        var asked = 0
        func queued() -> Bool { asked += 1; return true }
        // A stroke being written: no page, and no need to ask X.
        let whileInking = pacing.rendersPage(inking: true, inputQueued: queued)
        #expect(!whileInking && asked == 0)
        // Input waits: the page goes after it, for a few turns in a row at most.
        let turns = (0 ..< 10).map { _ in pacing.rendersPage(inking: false, inputQueued: queued) }
        #expect(turns == [false, false, false, true, false, false, false, true, false, false])
        // Nothing queued: the page renders at once, and the count starts again.
        let idle = pacing.rendersPage(inking: false, inputQueued: { false })
        let queuedAgain = pacing.rendersPage(inking: false, inputQueued: queued)
        #expect(idle && !queuedAgain)
    }
}
