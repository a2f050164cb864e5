import Foundation
import InkModel
import InkRender

/// Hand (touch by default): a drag scrolls the view, moves the lasso selection when it starts on
/// its frame (see `SelectionDrag`), or moves the block it started on in a Text Document; a tap selects the block and word under it, and a second tap converts (see
/// `DoubleTap`).
final class HandTool: PointerTool {
    /// The block a drag that started on it moves.
    private var dragBlock: String?
    /// True once the pointer went further than a tap may.
    private var moved = false
    /// A drag of the lasso selection.
    private var selectionDrag: SelectionDrag?

    /// View pixels (city-block distance) a tap may move.
    private static let tapSlop = 8.0

    func down(_ p: ActivePointer, editor: Editor, model m: PartModel) {
        let s = p.samples[0]
        if let d = SelectionDrag(editor: editor, view: p.startView, first: s, slop: 12) { selectionDrag = d; return }
        if m.kind == .textDocument, let b = editor.topBlock(atModel: Point(x: s.x, y: s.y), model: m) {
            dragBlock = b.id
        }
    }

    func move(_ p: ActivePointer, from prev: InkSample, to s: InkSample, view: Point, editor: Editor, model: PartModel) {
        let d = Point(x: view.x - p.lastView.x, y: view.y - p.lastView.y)
        if abs(view.x - p.startView.x) + abs(view.y - p.startView.y) > Self.tapSlop { moved = true }
        if let d = selectionDrag { if moved { d.move(to: s, editor: editor, model: model) }; return }
        if dragBlock == nil, moved { editor.scroll(by: Point(x: -d.x, y: -d.y)) }
    }

    func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        let tap = !moved && abs(view.x - p.startView.x) + abs(view.y - p.startView.y) <= Self.tapSlop
        if let d = selectionDrag, !tap { d.up(at: s, editor: editor, model: m); return }
        selectionDrag?.cancel(editor: editor, model: m)
        if tap {
            let hit = editor.topBlock(atModel: Point(x: s.x, y: s.y), model: m)
            editor.select(blocks: hit.map { [$0.id] } ?? [])
            editor.selectWord(editor.hitWord(at: view))
            editor.renderer?.invalidate(nil)
            editor.handleTap(at: Point(x: s.x, y: s.y), time: s.t, blockId: hit?.id, model: m)
        } else if let id = dragBlock, let first = p.samples.first {
            try? editor.moveBlock(id: id, dx: s.x - first.x, dy: s.y - first.y, model: m)
        }
    }

    func cancel(_ p: ActivePointer, editor: Editor, model: PartModel?) { selectionDrag?.cancel(editor: editor, model: model) }

    func takeAppliedChanges() -> Transaction { selectionDrag?.takeAppliedChanges() ?? Transaction() }

    func show(_ p: ActivePointer, in state: inout RenderState, editor: Editor) {
        if let id = dragBlock, moved, let a = p.samples.first, let b = p.samples.last {
            state.dragBlockId = id
            state.dragOffset = Point(x: b.x - a.x, y: b.y - a.y)
        }
    }
}

/// Remembers the last tap, so that a second one close to it in time and place is a double tap.
final class DoubleTap {
    private var last: (t: Int64, p: Point, blockId: String?)?

    /// True when this tap (model point, time in ms, block under it) completes a double tap;
    /// `scale` is view pixels per model millimetre.
    func isDouble(at p: Point, time: Int64, blockId: String?, scale: Double) -> Bool {
        if let last, time - last.t <= 400, time >= last.t, hypot(p.x - last.p.x, p.y - last.p.y) * scale <= 24,
           last.blockId == blockId {
            self.last = nil
            return true
        }
        last = (time, p, blockId)
        return false
    }

    func reset() { last = nil }
}

extension Editor {
    /// A second tap close in time and place to the first converts the block under it
    /// (`convert.convert-on-double-tap`), in place so it stays editable by pen.
    func handleTap(at p: Point, time: Int64, blockId: String?, model m: PartModel) {
        guard doubleTap.isDouble(at: p, time: time, blockId: blockId, scale: viewTransform.scale) else { return }
        guard configuration[.convertOnDoubleTap] else { return }
        let target = blockId.flatMap { getBlockById($0) } ?? (m.kind == .textDocument ? nil : rootBlock)
        guard let target, Self.recognizable(target.type) else { return }
        do { try convert(target, targetState: .digitalEdit) } catch let e as QuireError {
            notifyError(blockId: target.id, code: e.code, message: e.message)
        } catch {
            notifyError(blockId: target.id, code: .invalidArgument, message: "\(error)")
        }
    }
}
