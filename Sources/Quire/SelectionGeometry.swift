import Foundation
import InkModel

/// How a selection transform (move, resize, rotate: a `Transform` in model millimetres) applies
/// to the things selected. Ink follows it exactly; boxes stay upright: under a rotation a box
/// keeps its size and turns about its middle (a block, a typeset word or an image cannot lie
/// askew on the page).
enum SelectionGeometry {
    static func rotates(_ t: Transform) -> Bool { t.b != 0 || t.c != 0 }

    /// A box after `t`; `.zero` (a typed word's "no place") stays.
    static func box(_ r: Rect, _ t: Transform) -> Rect {
        guard r != .zero else { return r }
        if rotates(t) {
            let c = t.apply(Point(x: r.midX, y: r.midY))
            return Rect(x: c.x - r.width / 2, y: c.y - r.height / 2, width: r.width, height: r.height)
        }
        return t.apply(r)
    }

    /// A stroke after `t`: every sample moved, its times, pressures and attributes kept.
    static func stroke(_ s: InkStroke, _ t: Transform) -> InkStroke {
        let samples = s.samples.map { p -> InkSample in
            let q = t.apply(Point(x: p.x, y: p.y))
            return InkSample(x: q.x, y: q.y, t: p.t, f: p.f)
        }
        var n = InkStroke(id: s.id, pointerType: s.pointerType, pointerId: s.pointerId, tool: s.tool, color: s.color,
                          width: s.width, blockId: s.blockId, seq: s.seq, samples: samples)
        n.startTime = s.startTime
        return n
    }

    /// A block after `t`: its box, and the boxes of its placed words and their characters.
    static func block(_ b: BlockData, _ t: Transform) -> BlockData {
        var nb = b
        nb.box = box(b.box, t)
        nb.words = b.words.map { w in
            var w = w
            w.box = box(w.box, t)
            w.chars = w.chars.map { var c = $0; c.box = box(c.box, t); return c }
            return w
        }
        return nb
    }
}
