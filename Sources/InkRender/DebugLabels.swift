import Foundation
import InkModel

/// Where the recognition debug overlay puts its word labels so that none covers another: each
/// label sits just above its word; where an earlier label is in the way it moves right, past that
/// label, as long as it still starts over its word, else up a row. Labels are placed in reading
/// order (top to bottom, left to right), so a page reads the same way each time.
public enum DebugLabelLayout {
    /// `anchors`: the words' boxes; `sizes`: each label's width and height, in the same units (y
    /// down); `gap`: the space kept between labels and above the word. Returns each label's frame.
    public static func place(anchors: [Rect], sizes: [(width: Double, height: Double)], gap: Double) -> [Rect] {
        precondition(anchors.count == sizes.count, "one size per label")
        var placed: [Rect] = []
        var frames = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: anchors.count)
        let order = anchors.indices.sorted { (anchors[$0].y, anchors[$0].x, $0) < (anchors[$1].y, anchors[$1].x, $1) }
        for i in order {
            let a = anchors[i], s = sizes[i]
            var row = 0
            var r = Rect(x: a.x, y: a.y - gap - s.height, width: s.width, height: s.height)
            // Bounded: each step moves past one placed label, or up a row (at most one row per label).
            var steps = 0
            while let blocker = placed.first(where: { $0.insetBy(dx: -gap / 2, dy: -gap / 2).intersects(r) }), steps < 4 * (placed.count + 1) {
                steps += 1
                if blocker.maxX + gap < a.maxX {
                    r.x = blocker.maxX + gap
                } else {
                    row += 1
                    r = Rect(x: a.x, y: a.y - gap - s.height - Double(row) * (s.height + gap), width: s.width, height: s.height)
                }
            }
            placed.append(r)
            frames[i] = r
        }
        return frames
    }
}
