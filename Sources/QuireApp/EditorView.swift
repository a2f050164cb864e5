import Foundation
import Quire

/// One editor on screen: the editor, its renderer and input router, the canvas window it paints,
/// and the selected word's highlight. A window holds one of these per editor it shows (a form
/// would hold one per field); an inspector can show one of its own.
final class EditorView {
    let editor: Editor
    let renderer: CairoRenderer
    let router: InputRouter
    /// UI scale (1 at 96 dpi).
    let scale: Double
    /// The canvas window, once the window system made it.
    private(set) var canvas: PaintedWindow?
    /// A second surface on the canvas for the word highlight (drawn over the page).
    private var highlightSurface: CairoSurface?
    /// The canvas's size in pixels.
    private(set) var size: (width: Int, height: Int) = (1, 1)
    /// The selected word's box (model mm), highlighted on the page.
    var wordHighlight: Rect? {
        didSet {
            guard wordHighlight != oldValue else { return }
            for old in [oldValue, wordHighlight].compactMap({ $0 }) {
                renderer.invalidate(editor.viewTransform.apply(old).insetBy(dx: -6 * scale, dy: -6 * scale))
            }
        }
    }

    /// Search hits on the page (model mm), framed like the selected word.
    var searchHighlights: [Rect] = [] {
        didSet {
            guard searchHighlights != oldValue else { return }
            for r in oldValue + searchHighlights {
                renderer.invalidate(editor.viewTransform.apply(r).insetBy(dx: -6 * scale, dy: -6 * scale))
            }
        }
    }

    init(editor: Editor, renderer: CairoRenderer, scale: Double) {
        self.editor = editor
        self.renderer = renderer
        self.scale = scale
        router = InputRouter(editor: editor)
    }

    /// Gives the view its canvas (and the canvas's highlight surface) and size.
    func attach(canvas: PaintedWindow, highlight: CairoSurface, width: Int, height: Int) throws {
        self.canvas = canvas
        highlightSurface = highlight
        try setSize(width: width, height: height)
    }

    /// The canvas moved or changed size (pixels of its parent window).
    func setFrame(_ frame: Rect) throws {
        canvas?.setFrame(frame)
        try setSize(width: Int(frame.width), height: Int(frame.height))
    }

    private func setSize(width: Int, height: Int) throws {
        size = (max(1, width), max(1, height))
        try editor.setViewSize(width: size.width, height: size.height)
    }

    /// The middle of the canvas (zooming by key keeps it in place).
    var center: Point { Point(x: Double(size.width) / 2, y: Double(size.height) / 2) }

    /// Only strokes up to this `seq` are drawn (the inspector window's timeline); nil: all.
    var strokeLimit: Int64? {
        didSet { if strokeLimit != oldValue { renderer.invalidate(nil) } }
    }

    /// The debug overlay's layers and the data they draw (the inspector window sets them).
    var debugLayers: DebugLayers = .editor {
        didSet { if debugLayers != oldValue { renderer.invalidate(nil) } }
    }
    var debugLines: [DebugLineBand] = [] {
        didSet { if debugLines != oldValue { renderer.invalidate(nil) } }
    }
    var debugGestures: [DebugGestureMark] = [] {
        didSet { if debugGestures != oldValue { renderer.invalidate(nil) } }
    }

    /// Whether a stroke of ink is being written (a pointer down whose tool inks).
    var isInking: Bool { editor.activePointerIds.contains { editor.liveStroke(pointerId: $0) != nil } }

    /// Renders what changed on the page and puts it on the canvas.
    func present() {
        guard let surface = canvas?.surface else { return }
        var state = editor.renderState
        state.strokeLimit = strokeLimit
        state.debugLayers = debugLayers
        state.debugLines = debugLines
        state.debugGestures = debugGestures
        if let r = renderer.render(part: editor.part?.model, state: state) {
            composite(surface, r)
        }
    }

    /// Draws just the new segment of a stroke in progress; false when there is none.
    func presentLiveSegment(pointerId: Int) -> Bool {
        guard let live = editor.liveStroke(pointerId: pointerId), let surface = canvas?.surface else { return false }
        if let r = renderer.drawLiveSegment(live, state: editor.renderState) { composite(surface, r) }
        return true
    }

    /// Repaints a canvas rectangle (an Expose, or where an overlay was: the canvas has no
    /// background for the server to paint, and its Expose comes a loop later).
    func repaint(_ r: Rect, margin: Double = 0) {
        guard let surface = canvas?.surface else { return }
        composite(surface, margin == 0 ? r : r.insetBy(dx: -margin, dy: -margin))
    }

    /// Paints a canvas rectangle from the renderer, then the selected word's highlight over it.
    /// The highlight costs one rectangle test per call when it is elsewhere.
    private func composite(_ surface: CairoSurface, _ r: Rect) {
        renderer.composite(into: surface, rect: r)
        if let o = highlightSurface {
            for hit in searchHighlights {
                let h = editor.viewTransform.apply(hit).insetBy(dx: -3 * scale, dy: -3 * scale)
                if h.intersects(r) { OverlayPainter.drawWordHighlight(on: o, clip: r, box: h, scale: scale, theme: renderer.theme) }
            }
        }
        guard let box = wordHighlight, let o = highlightSurface else { return }
        let h = editor.viewTransform.apply(box).insetBy(dx: -3 * scale, dy: -3 * scale)
        guard h.intersects(r) else { return }
        OverlayPainter.drawWordHighlight(on: o, clip: r, box: h, scale: scale, theme: renderer.theme)
    }
}
