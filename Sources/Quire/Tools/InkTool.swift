import Foundation
import InkModel
import InkRender

/// Pen and highlighter: the pointer's samples become a stroke at pen-up, placed in the block under
/// it (a new Text block in a Text Document when there is none). A pen stroke may be a gesture
/// instead (see `Editor.handleGesture`).
final class InkTool: PointerTool {
    /// Whether a finished stroke is checked for a gesture (the pen's, not the highlighter's).
    private let gestures: Bool

    init(gestures: Bool) { self.gestures = gestures }

    var showsTrace: Bool { true }
    var inks: Bool { true }

    func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model m: PartModel) {
        if gestures, p.samples.count >= 2, editor.handleGesture(p.samples, model: m) { return }
        let style = editor.toolController.style(for: p.tool)
        var stroke = InkStroke(id: p.strokeId, pointerType: p.type, pointerId: -1, tool: p.tool.rawValue, color: style.color,
                               width: style.width, seq: m.nextSeq(), samples: p.samples)
        var t = Transaction()
        var affected: [String] = [m.rootId]
        if m.kind == .textDocument {
            let (blockId, changes) = editor.placeInk(stroke.bounds, start: Point(x: p.samples[0].x, y: p.samples[0].y), model: m)
            stroke.blockId = blockId
            t.changes = changes
            affected = [blockId]
        }
        t.changes.insert(.stroke(old: nil, new: stroke), at: 0)
        editor.commit(t, affecting: affected)
        editor.lastStrokeId = stroke.id
        if m.kind == .textDocument { editor.relayout(anchor: stroke.blockId, model: m) }
    }

    func show(_ p: ActivePointer, in state: inout RenderState, editor: Editor) {
        state.liveStrokes.append(editor.liveStroke(p))
    }
}
