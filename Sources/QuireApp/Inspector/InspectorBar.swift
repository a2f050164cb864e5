import Foundation
import Quire

/// The inspector window's bar, in place of the editor's toolbar: the timeline's buttons (start,
/// step back, play/pause, step on, end), a toggle per overlay layer and the panel, each with its
/// colour as the legend, and a scrubber across the rest: a pen taps or drags it to show the
/// first strokes up to that point. Sizes are touch-sized like the toolbar's (44 px at scale 1).
struct InspectorBarLayout: Sendable {
    enum Item: Equatable, Sendable {
        case action(InspectorTimeline.Action)
        case scrubber
    }

    struct Button: Equatable, Sendable {
        var item: Item
        var label: String
        var frame: Rect
    }

    /// The toggles in order, with their labels.
    static let toggles: [(InspectorTimeline.Action, String)] = [
        (.toggleLayer(.lines), "Lines"), (.toggleLayer(.words), "Words"), (.toggleLayer(.chars), "Chars"),
        (.toggleLayer(.labels), "Labels"), (.toggleLayer(.blocks), "Blocks"), (.toggleLayer(.frames), "Frames"),
        (.toggleLayer(.gestures), "Gestures"), (.togglePanel, "Panel"),
    ]

    var scale: Double
    var width: Double
    var height: Double

    /// Buttons left to right; `playing` shows Pause in place of Play.
    func buttons(playing: Bool) -> [Button] {
        var x = 6 * scale
        var out: [Button] = []
        let top = 5 * scale, h = height - 10 * scale
        let transport: [(InspectorTimeline.Action, String)] = [(.start, "|◀"), (.step(-1), "◀"), (.play, playing ? "II" : "▶▶"),
                                                              (.step(1), "▶"), (.end, "▶|")]
        for (a, label) in transport {
            out.append(Button(item: .action(a), label: label, frame: Rect(x: x, y: top, width: 40 * scale, height: h)))
            x += 42 * scale
        }
        x += 10 * scale
        for (a, label) in Self.toggles {
            let w = max(44 * scale, ChromePainter.labelWidth(label, scale: scale) + 16 * scale)
            out.append(Button(item: .action(a), label: label, frame: Rect(x: x, y: top, width: w, height: h)))
            x += w + 4 * scale
        }
        return out
    }

    /// The scrubber's track: what the buttons leave, less room for the count at the right.
    var scrubber: Rect {
        let left = (buttons(playing: false).last?.frame.maxX ?? 0) + 14 * scale
        let right = width - 86 * scale
        return Rect(x: left, y: 5 * scale, width: max(60 * scale, right - left), height: height - 10 * scale)
    }

    /// What is under a point of the bar (a little slack around each button, as in the toolbar).
    func item(at p: Point, playing: Bool) -> Item? {
        if let b = buttons(playing: playing).first(where: { $0.frame.insetBy(dx: -2 * scale, dy: -4 * scale).contains(p) }) { return b.item }
        let s = scrubber
        if p.x >= s.x - 8 * scale, p.x <= s.maxX + 8 * scale, p.y >= 0, p.y <= height { return .scrubber }
        return nil
    }

    /// How many strokes the scrubber shows with the pen at `x`: the track is cut into `count`
    /// equal steps, the left end shows none and the right end all.
    func position(atX x: Double, count: Int) -> Int {
        let s = scrubber
        guard count > 0, s.width > 0 else { return 0 }
        let f = min(1, max(0, (x - s.x) / s.width))
        return Int((f * Double(count)).rounded())
    }
}
