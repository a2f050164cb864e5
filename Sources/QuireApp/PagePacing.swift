/// When the window's loop draws the page. Never while a stroke is written (its points draw only
/// their own ink); not while input is already queued, which right after a pen-up is the next
/// stroke's press and first points: they go first, and once the press is handled the page waits
/// for the next pen-up, the finished stroke staying on the live layer meanwhile. A few turns in a
/// row at most, so a stream of other input (a wheel, a hovering pen) never starves the page.
struct PagePacing {
    /// Turns in a row at most that leave the page for queued input.
    static let maxDeferrals = 3
    private var deferrals = 0

    /// Whether this turn of the loop renders the page; `inputQueued` (a question to the X
    /// connection) is asked only when the answer matters.
    mutating func rendersPage(inking: Bool, inputQueued: () -> Bool) -> Bool {
        if inking { return false }
        if deferrals < Self.maxDeferrals, inputQueued() {
            deferrals += 1
            return false
        }
        deferrals = 0
        return true
    }
}
