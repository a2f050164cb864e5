import Foundation
import Quire

/// Plays a session recording in the window at the recorded pace (`quire replay --window`): each
/// turn of the event loop plays the steps that are due, through the editor and the window's
/// command dispatcher, and the loop sleeps until the next one.
final class ReplayDriver {
    let player: SessionPlayer
    /// 2 plays twice as fast as recorded.
    let speed: Double
    private var next = 0
    private var startNs: UInt64?
    private(set) var announced = false

    init(player: SessionPlayer, speed: Double) {
        self.player = player
        self.speed = speed
    }

    var finished: Bool { next >= player.steps.count }

    /// Recorded milliseconds since the replay began (time runs from the first call).
    private func elapsedMs(_ now: UInt64) -> Double {
        if startNs == nil { startNs = now }
        return Double(now - startNs!) / 1e6 * speed
    }

    /// Plays the steps that are due; true when something was played (the window redraws).
    func advance(editor: Editor, dispatcher: CommandDispatcher, now: UInt64 = monotonicNs()) throws -> Bool {
        let due = elapsedMs(now)
        var played = false
        while next < player.steps.count, Double(player.steps[next].at) <= due {
            let i = next
            next += 1
            try player.play(player.steps[i].step, into: editor, index: i) { try SessionReplay.perform($0, dispatcher) }
            played = true
        }
        return played
    }

    /// Milliseconds until the next step is due (nil: none left).
    func msUntilNext(now: UInt64 = monotonicNs()) -> Int32? {
        guard next < player.steps.count else { return nil }
        let wait = (Double(player.steps[next].at) - elapsedMs(now)) / speed
        return Int32(max(0, min(2000, wait.rounded(.up))))
    }

    /// Says once, on stdout, that every step was played (tests wait for this line).
    func announceIfDone() {
        guard finished, !announced else { return }
        announced = true
        let extra = player.divergences.isEmpty ? "" : " divergences=\(player.divergences.count)"
        FileHandle.standardOutput.write(Data("quire: replay done steps=\(player.steps.count)\(extra)\n".utf8))
        for d in player.divergences { FileHandle.standardError.write(Data("quire: warning: replay differs: \(d)\n".utf8)) }
    }
}
