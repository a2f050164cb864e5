import Foundation
import InkModel
import InkRender

/// Selector: the pointer draws a lasso; at pen-up the blocks and strokes whose middles lie inside
/// it are selected.
final class LassoTool: PointerTool {
    var showsTrace: Bool { true }

    func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        let pts = p.samples.map { Point(x: $0.x, y: $0.y) }
        guard pts.count >= 3 else { editor.select(blocks: [], strokes: []); return }
        func inside(_ p: Point) -> Bool {
            var c = false
            var j = pts.count - 1
            for i in 0..<pts.count {
                let a = pts[i], b = pts[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { c.toggle() }
                j = i
            }
            return c
        }
        let strokes = Set(m.strokes.values.filter { inside(Point(x: $0.bounds.x + $0.bounds.width / 2, y: $0.bounds.y + $0.bounds.height / 2)) }.map(\.id))
        let blocks = Set(m.root.childIds.filter { id in
            guard let b = m.blocks[id] else { return false }
            return inside(Point(x: b.box.x + b.box.width / 2, y: b.box.y + b.box.height / 2))
        })
        editor.select(blocks: blocks, strokes: strokes)
        editor.renderer?.invalidate(nil)
    }

    func show(_ p: ActivePointer, in state: inout RenderState, editor: Editor) {
        state.lasso = p.samples.map { editor.viewTransform.apply(Point(x: $0.x, y: $0.y)) }
    }
}
