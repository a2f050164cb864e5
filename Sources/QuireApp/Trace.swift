import Foundation
import Quire

/// `QUIRE_TRACE=1`: one stdout line per overlay change and applied gesture (for tests and debugging).
final class Tracer {
    let enabled = !(ProcessInfo.processInfo.environment["QUIRE_TRACE"] ?? "").isEmpty
    /// Waits until the window system has drawn everything requested so far.
    var sync: () -> Void = {}

    func emit(_ what: String, _ v: JSONValue) {
        // What the line reports is on the screen by the time anyone reads it.
        sync()
        let text: String
        do { text = try v.serialized(pretty: false) } catch { text = "(not written: \(error))" }
        FileHandle.standardOutput.write(Data("quire: \(what) \(text)\n".utf8))
    }

    static func rect(_ r: Rect) -> JSONValue { .array([r.x, r.y, r.width, r.height].map { .number($0) }) }
}

/// `quire: selection {...}` whenever the lasso selection or the history changes: what is
/// selected, its frame (view pixels), its extent in the model (millimetres) and whether undo
/// and redo are possible, so a test sees each drag land as one step.
struct SelectionTrace {
    private var last: JSONValue?

    mutating func update(_ editor: Editor, _ tracer: Tracer) {
        guard tracer.enabled else { return }
        let frame = editor.renderState.selectionFrame
        let v: JSONValue = .object([
            "strokes": .number(Double(editor.selectedStrokes.count)), "blocks": .number(Double(editor.selection.count)),
            "frame": frame.map { Tracer.rect($0.box) } ?? .null,
            "bounds": editor.hasSelection ? editor.selectionBounds.map(Tracer.rect) ?? .null : .null,
            "undo": .bool(editor.canUndo), "redo": .bool(editor.canRedo),
        ])
        guard v != last else { return }
        last = v
        tracer.emit("selection", v)
    }
}
