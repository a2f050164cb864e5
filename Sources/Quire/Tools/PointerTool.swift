import Foundation
import InkModel
import InkRender

/// What one tool does with a pointer between its down and its up. Each tool is its own type and
/// keeps its own state; the editor makes a fresh one for every pointer that goes down (see
/// `ToolRegistry`). Methods run on the editor's thread with a part attached.
protocol PointerTool: AnyObject {
    /// The pointer went down; its first sample is in `p.samples`.
    func down(_ p: ActivePointer, editor: Editor, model: PartModel)
    /// The pointer moved from `prev` to `s` (already appended to `p.samples`); `view` is `s` in
    /// view pixels (`p.lastView` is still the previous one).
    func move(_ p: ActivePointer, from prev: InkSample, to s: InkSample, view: Point, editor: Editor, model: PartModel)
    /// The pointer went up at `s` (appended to `p.samples` unless it repeats the last sample,
    /// `last`); `view` is `s` in view pixels.
    func up(_ p: ActivePointer, from last: InkSample, to s: InkSample, view: Point, editor: Editor, model: PartModel)
    /// The pointer was abandoned: whatever the tool applied to the model so far is rolled back.
    func cancel(_ p: ActivePointer, editor: Editor, model: PartModel?)
    /// Changes the tool applied to the model already that are no undo step yet. Before another
    /// change lands they become one (so undo runs in the order things happened); the tool then
    /// no longer holds them.
    func takeAppliedChanges() -> Transaction
    /// True when a renderer that draws live ink shows this tool's trace itself, so events need
    /// no repaint of the page.
    var drawnAsLiveInk: Bool { get }
    /// True when the pointer's samples are a trace the renderer shows (`Editor.liveStrokes`).
    var showsTrace: Bool { get }
    /// True when the trace is a stroke of ink in progress (`Editor.liveStroke(pointerId:)`).
    var inks: Bool { get }
    /// Adds what the tool shows while in use (a live stroke, a lasso, a dragged block).
    func show(_ p: ActivePointer, in state: inout RenderState, editor: Editor)
}

extension PointerTool {
    func down(_ p: ActivePointer, editor: Editor, model: PartModel) {}
    func move(_ p: ActivePointer, from prev: InkSample, to s: InkSample, view: Point, editor: Editor, model: PartModel) {}
    func cancel(_ p: ActivePointer, editor: Editor, model: PartModel?) {}
    func takeAppliedChanges() -> Transaction { Transaction() }
    var drawnAsLiveInk: Bool { true }
    var showsTrace: Bool { false }
    var inks: Bool { false }
    func show(_ p: ActivePointer, in state: inout RenderState, editor: Editor) {}
}

/// A pointer that is down: where it went, and the tool acting on it.
final class ActivePointer {
    let type: PointerType
    let tool: Tool
    let strokeId: String
    /// Grown in place at every move: this object holds the only reference to the buffer, so an
    /// append never copies the stroke.
    var samples: [InkSample]
    let startView: Point
    var lastView: Point
    let behaviour: PointerTool

    init(type: PointerType, tool: Tool, strokeId: String, first: InkSample, view: Point, behaviour: PointerTool) {
        self.type = type; self.tool = tool; self.strokeId = strokeId
        self.samples = [first]
        self.startView = view; self.lastView = view
        self.behaviour = behaviour
    }
}

/// The pointers that are down, by pointer id.
final class PointerTable {
    private var active: [Int: ActivePointer] = [:]

    subscript(id: Int) -> ActivePointer? { active[id] }
    var isEmpty: Bool { active.isEmpty }
    /// Ids in increasing order (the order the renderer draws them in).
    var ids: [Int] { active.keys.sorted() }
    var all: [ActivePointer] { ids.map { active[$0]! } }

    func begin(_ id: Int, _ p: ActivePointer) { active[id] = p }
    func end(_ id: Int) -> ActivePointer? { active.removeValue(forKey: id) }
    func removeAll() { active.removeAll() }
}

/// Makes the tool object for each `Tool`. Adding a tool is a new `PointerTool` type and one
/// `register` call; nothing else dispatches on the tool.
final class ToolRegistry {
    private var makers: [Tool: () -> PointerTool] = [:]

    /// The tools Quire ships.
    static func standard() -> ToolRegistry {
        let r = ToolRegistry()
        r.register(.pen) { InkTool(gestures: true) }
        r.register(.highlighter) { InkTool(gestures: false) }
        r.register(.eraser) { EraserTool() }
        r.register(.selector) { LassoTool() }
        r.register(.hand) { HandTool() }
        return r
    }

    func register(_ tool: Tool, make: @escaping () -> PointerTool) { makers[tool] = make }

    /// A fresh object for one pointer using `tool`; an unregistered tool inks like the pen.
    func make(_ tool: Tool) -> PointerTool { makers[tool]?() ?? InkTool(gestures: true) }
}
