import Foundation
import InkModel
import InkRender

/// Selector. Down inside the selection's frame (or on a handle) drags the selection (see
/// `SelectionDrag`); anywhere else the pointer draws a lasso, and at the up the strokes and
/// blocks whose middles lie inside it are selected (`Editor.select(lasso:)`).
final class LassoTool: PointerTool {
    private var drag: SelectionDrag?

    var showsTrace: Bool { drag == nil }

    func down(_ p: ActivePointer, editor: Editor, model: PartModel) {
        // A finger needs more room around a handle than a pen tip.
        drag = SelectionDrag(editor: editor, view: p.startView, first: p.samples[0], slop: p.type == .touch ? 12 : 6)
    }

    func move(_ p: ActivePointer, from prev: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        if let drag { drag.move(to: s, editor: editor, model: m) } else { editor.renderer?.invalidate(nil) }
    }

    func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        if let drag {
            drag.up(at: s, editor: editor, model: m)
        } else {
            editor.select(lasso: p.samples.map { editor.viewTransform.apply(Point(x: $0.x, y: $0.y)) })
        }
        editor.renderer?.invalidate(nil)
    }

    func cancel(_ p: ActivePointer, editor: Editor, model m: PartModel?) { drag?.cancel(editor: editor, model: m) }

    func takeAppliedChanges() -> Transaction { drag?.takeAppliedChanges() ?? Transaction() }

    func show(_ p: ActivePointer, in state: inout RenderState, editor: Editor) {
        guard drag == nil else { return }
        state.lasso = p.samples.map { editor.viewTransform.apply(Point(x: $0.x, y: $0.y)) }
    }
}
