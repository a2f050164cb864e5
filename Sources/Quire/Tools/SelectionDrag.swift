import Foundation
import InkModel
import InkRender

/// A pointer dragging the lasso selection by its frame: inside it moves the selection, a corner
/// handle resizes it (in proportion, about the opposite corner), the round handle rotates it
/// about its middle. While the pointer moves the model shows the result (a preview outside the
/// history); at the up it is rolled back and committed as one undoable step.
final class SelectionDrag {
    let grip: SelectionFrame.Part
    /// Selection extent at the down, model millimetres.
    private let start: Rect
    private let origin: Point
    private var preview: [Change] = []
    /// True once the preview became a step of its own (another change landed mid-drag).
    private var sealed = false

    /// A drag for a pointer down at `view` (view pixels) and `first` (model), or nil when it
    /// grabs nothing of the selection's frame.
    init?(editor: Editor, view: Point, first: InkSample, slop: Double) {
        guard let frame = editor.selectionFrame, let grip = frame.hit(view, slop: slop), let r = editor.selectionBounds else { return nil }
        self.grip = grip
        start = r
        origin = Point(x: first.x, y: first.y)
    }

    /// The transform a pointer at `p` (model) asks for.
    func transform(to p: Point) -> Transform {
        switch grip {
        case .inside:
            return Transform(a: 1, d: 1, tx: p.x - origin.x, ty: p.y - origin.y)
        case .corner(let i):
            // The opposite corner stays; the factor follows the pointer along the diagonal.
            let c = [Point(x: start.maxX, y: start.maxY), Point(x: start.x, y: start.maxY),
                     Point(x: start.x, y: start.y), Point(x: start.maxX, y: start.y)][i]
            let vx = origin.x - c.x, vy = origin.y - c.y
            let len2 = vx * vx + vy * vy
            let f = len2 > 1e-9 ? ((p.x - c.x) * vx + (p.y - c.y) * vy) / len2 : 1
            let k = min(20, max(0.05, f))
            return Transform(a: k, d: k, tx: c.x - k * c.x, ty: c.y - k * c.y)
        case .rotate:
            let cx = start.midX, cy = start.midY
            let a = atan2(p.y - cy, p.x - cx) - atan2(origin.y - cy, origin.x - cx)
            let cs = cos(a), sn = sin(a)
            return Transform(a: cs, b: sn, c: -sn, d: cs, tx: cx - cs * cx + sn * cy, ty: cy - sn * cx - cs * cy)
        }
    }

    func move(to s: InkSample, editor: Editor, model m: PartModel) {
        guard !sealed else { return }
        rollBack(editor: editor, model: m)
        let t = editor.keptOnPage(transform(to: Point(x: s.x, y: s.y)), model: m)
        preview = (try? editor.selectionTransformChanges(t, model: m, rehome: false).0) ?? []
        for c in preview { editor.apply(c, to: m) }
        editor.renderer?.invalidate(nil)
    }

    func up(at s: InkSample, editor: Editor, model m: PartModel) {
        guard !sealed else { return }
        rollBack(editor: editor, model: m)
        let t = transform(to: Point(x: s.x, y: s.y))
        if t != .identity {
            do {
                switch grip {
                case .inside: try editor.transformSelection(t, what: "moveSelection")
                case .corner, .rotate: try editor.transformSelection(t, what: "transformSelection")
                }
            } catch let e as QuireError {
                editor.notifyError(blockId: "", code: e.code, message: e.message)
            } catch {}
        }
        editor.renderer?.invalidate(nil)
    }

    func cancel(editor: Editor, model m: PartModel?) {
        guard !sealed, let m else { return }
        rollBack(editor: editor, model: m)
        editor.renderer?.invalidate(nil)
    }

    /// The preview as a step of its own, when another change must land first.
    func takeAppliedChanges() -> Transaction {
        guard !preview.isEmpty, !sealed else { return Transaction() }
        sealed = true
        defer { preview = [] }
        return Transaction(changes: preview)
    }

    private func rollBack(editor: Editor, model m: PartModel) {
        for c in preview.reversed() { editor.apply(c.inverse, to: m) }
        preview = []
    }
}
