import Foundation
import Quire

/// The inspector window's timeline: the part's strokes in writing order, the first `shown` of
/// them drawn. Left and Right step a stroke, Home and End jump, Space plays and pauses, the bar's
/// scrubber seeks; letters toggle the overlay's layers and the panel (`InspectorControls`).
/// Everything else is ignored: the window shows how ink was read, it does not edit it.
final class InspectorTimeline {
    private(set) var seqs: [Int64]
    private(set) var shown: Int
    private(set) var playing = false
    /// Milliseconds between strokes while playing.
    let interval: UInt64 = 250
    private var due: UInt64 = 0

    init(seqs: [Int64]) {
        self.seqs = seqs.sorted()
        shown = seqs.count
    }

    /// The `seq` of the last stroke drawn (nil: all are).
    var limit: Int64? { shown >= seqs.count ? nil : shown == 0 ? Int64.min : seqs[shown - 1] }

    /// What a key or a button does in the inspector window.
    enum Action: Equatable {
        case step(Int), start, end, play
        /// Shows the first N strokes (the scrubber).
        case seek(Int)
        case toggleLayer(DebugLayers)
        case togglePanel
    }

    /// Each layer's key (and the panel's, P).
    static let layerKeys: [(Character, DebugLayers)] = [
        ("l", .lines), ("w", .words), ("c", .chars), ("t", .labels), ("b", .blocks), ("f", .frames), ("g", .gestures),
    ]

    static func action(for k: KeyInput) -> Action? {
        guard !k.ctrl, !k.alt else { return nil }
        switch k.key {
        case .left: return .step(-1)
        case .right: return .step(1)
        case .home: return .start
        case .end: return .end
        case .character(" "): return .play
        case .character(let c):
            let lower = Character(c.lowercased())
            if lower == "p" { return .togglePanel }
            return layerKeys.first { $0.0 == lower }.map { .toggleLayer($0.1) }
        default: return nil
        }
    }

    /// Applies a timeline action (layers and panel are the window's); true when the strokes shown changed.
    @discardableResult
    func apply(_ a: Action, now: UInt64) -> Bool {
        let before = shown
        switch a {
        case .step(let d): playing = false; shown = min(seqs.count, max(0, shown + d))
        case .start: playing = false; shown = 0
        case .end: playing = false; shown = seqs.count
        case .seek(let n): playing = false; shown = min(seqs.count, max(0, n))
        case .play:
            if playing { playing = false } else {
                if shown >= seqs.count { shown = 0 }
                playing = true
                due = now + interval * 1_000_000
            }
        case .toggleLayer, .togglePanel: break
        }
        return shown != before
    }

    /// While playing, shows the next stroke when its time has come; true when it did.
    func tick(now: UInt64) -> Bool {
        guard playing, now >= due else { return false }
        shown += 1
        due = now + interval * 1_000_000
        if shown >= seqs.count { shown = seqs.count; playing = false }
        return true
    }

    /// Milliseconds until the next stroke while playing.
    func msUntilNext(now: UInt64) -> Int32? {
        guard playing else { return nil }
        return due <= now ? 0 : Int32((due - now) / 1_000_000) + 1
    }

    /// The bar's count ("12 / 40").
    var status: String { "\(shown) / \(seqs.count)\(playing ? " ▶" : "")" }
}
