import Foundation
import InkModel
import InkRender

/// Eraser: removes the strokes it passes over as it goes (whole strokes, or only the touched
/// parts with `<part type>.eraser.erase-precisely`). What it removed is one undo step at its up,
/// or sooner if another change lands first; a cancel puts it all back.
final class EraserTool: PointerTool {
    /// Changes already applied to the model that are no undo step yet.
    private var erased = Transaction()

    /// The eraser's own trace is never drawn: what it removes disappears instead.
    var drawnAsLiveInk: Bool { false }

    func down(_ p: ActivePointer, editor: Editor, model m: PartModel) {
        erase(from: p.samples[0], to: p.samples[0], editor: editor, model: m)
    }

    func move(_ p: ActivePointer, from prev: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        erase(from: prev, to: s, editor: editor, model: m)
    }

    func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        if p.samples.count >= 2 { erase(from: last, to: s, editor: editor, model: m) }
        let t = takeAppliedChanges()
        if !t.isEmpty { editor.recordApplied(t, model: m) }
    }

    func cancel(_ p: ActivePointer, editor: Editor, model m: PartModel?) {
        let t = takeAppliedChanges()
        if let m { for c in t.changes.reversed() { editor.apply(c.inverse, to: m) } }
    }

    func takeAppliedChanges() -> Transaction {
        defer { erased = Transaction() }
        return erased
    }

    /// Removes what lies within the eraser's radius of the segment from `a` to `b`.
    private func erase(from a: InkSample, to b: InkSample, editor: Editor, model m: PartModel) {
        let radius = max(0.5, 4 / editor.viewTransform.scale * editor.pixelsPerMillimetre / 3.78)
        let seg = Rect(x: min(a.x, b.x) - radius, y: min(a.y, b.y) - radius, width: abs(a.x - b.x) + 2 * radius, height: abs(a.y - b.y) + 2 * radius)
        let precise = editor.configuration[.erasePrecisely(m.kind)]
        for id in editor.strokeCandidates(seg) {
            guard let s = m.strokes[id], s.bounds.insetBy(dx: -radius, dy: -radius).intersects(seg) else { continue }
            var hit = [Bool](repeating: false, count: s.count)
            var any = false
            let pa = Point(x: a.x, y: a.y), pb = Point(x: b.x, y: b.y)
            for i in 0..<s.count {
                let q = s[i]
                if Self.distance(Point(x: q.x, y: q.y), pa, pb) <= radius { hit[i] = true; any = true }
            }
            // Sparse samples (a fast mouse line): the eraser may cross a segment far from both ends.
            if s.count > 1 {
                for i in 0..<(s.count - 1) where !hit[i] && !hit[i + 1] {
                    let q0 = s[i], q1 = s[i + 1]
                    if Self.segmentDistance(Point(x: q0.x, y: q0.y), Point(x: q1.x, y: q1.y), pa, pb) <= radius {
                        hit[i] = true; hit[i + 1] = true; any = true
                    }
                }
            }
            guard any else { continue }
            var changes: [Change] = [.stroke(old: s, new: nil)]
            if precise {
                var start: Int?
                for i in 0...s.count {
                    if i < s.count, !hit[i] { if start == nil { start = i } } else if let st = start {
                        if i - st >= 2 {
                            var piece = s.slice(st..<i, id: m.makeStrokeId())
                            piece.seq = s.seq
                            changes.append(.stroke(old: nil, new: piece))
                        }
                        start = nil
                    }
                }
            }
            for c in changes { editor.apply(c, to: m); erased.changes.append(c) }
            if !editor.isBatching { editor.renderer?.invalidate(editor.viewTransform.apply(s.bounds.insetBy(dx: -2, dy: -2))) }
        }
    }

    /// Distance between segments ab and cd (0 when they cross).
    static func segmentDistance(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Double {
        func cross(_ o: Point, _ p: Point, _ q: Point) -> Double { (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x) }
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if (d1 > 0) != (d2 > 0), (d3 > 0) != (d4 > 0), d1 != 0, d2 != 0, d3 != 0, d4 != 0 { return 0 }
        return min(distance(a, c, d), distance(b, c, d), distance(c, a, b), distance(d, a, b))
    }

    /// Distance from p to the segment ab.
    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let cx = a.x + t * dx - p.x, cy = a.y + t * dy - p.y
        return (cx * cx + cy * cy).squareRoot()
    }
}
