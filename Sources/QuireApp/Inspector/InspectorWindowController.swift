import Foundation
import Quire

/// The inspector window (`quire inspect` with a display): the editor window reading, not
/// editing, with the overlay's layers each on its own toggle, the panel, and the stroke
/// timeline, all on keys and on the bar that takes the toolbar's place (`InspectorBarLayout`).
final class InspectorWindowController {
    let timeline: InspectorTimeline
    private let view: EditorView
    private let panel: InspectorPanelController
    private let window: PaintedWindow
    private let tracer: Tracer
    private let scale: Double
    private let height: Double
    /// The layers drawn: all but the frame strips at first (they crowd a dense page; F shows them).
    private(set) var layers: DebugLayers = DebugLayers.all.subtracting(.frames)
    private var linesRead = false
    /// Each stroke's start time, in timeline order, and the gesture marks with theirs.
    private let strokeTimes: [Int64]
    private let gestures: [(t: Int64, mark: DebugGestureMark)]
    private var width = 1.0
    private var pressed: InspectorBarLayout.Item?
    private var signature = ""

    init(view: EditorView, panel: InspectorPanelController, window: PaintedWindow, tracer: Tracer, scale: Double, height: Int,
         gestures: [GestureExplanation]) {
        self.view = view
        self.panel = panel
        self.window = window
        self.tracer = tracer
        self.scale = scale
        self.height = Double(height)
        let strokes = view.editor.part?.model.orderedStrokes ?? []
        timeline = InspectorTimeline(seqs: strokes.map(\.seq))
        strokeTimes = strokes.sorted { $0.seq < $1.seq }.map { $0.count > 0 ? $0[0].t : 0 }
        let taken = gestures.filter { $0.kind != nil }
        self.gestures = zip(taken, InspectorLayers.marks(taken)).map { ($0.samples.first?.t ?? 0, $1) }
    }

    private var layout: InspectorBarLayout { InspectorBarLayout(scale: scale, width: width, height: height) }

    /// Opens the panel and the overlay.
    func start() {
        panel.toggle()
        applyLayers()
        timelineMoved()
    }

    /// A key of the window; false for keys it leaves to the window (quit, zoom, F11, F12).
    func handleKey(_ k: KeyInput) -> Bool {
        guard let a = InspectorTimeline.action(for: k) else { return false }
        perform(a)
        return true
    }

    func perform(_ a: InspectorTimeline.Action) {
        switch a {
        case .toggleLayer(let l):
            layers.formSymmetricDifference(l)
            applyLayers()
        case .togglePanel:
            panel.toggle(overlay: false)
            trace()
        default:
            if timeline.apply(a, now: monotonicNs()) || a == .play { timelineMoved() }
        }
    }

    func tick(now: UInt64) {
        if timeline.tick(now: now) { timelineMoved() }
    }

    // MARK: the bar

    /// A pen, finger or mouse on the bar: a button acts on release over it; the scrubber follows
    /// the press and the drag.
    func handlePointer(_ e: PointerInput) {
        let button1 = e.isTouch || e.detail == 1
        guard button1 else { return }
        let item = layout.item(at: e.point, playing: timeline.playing)
        if e.isPress {
            pressed = item
            if item == .scrubber { scrub(e.point.x) }
        } else if e.isMotion {
            if pressed == .scrubber { scrub(e.point.x) }
        } else if e.isRelease {
            if pressed == .scrubber {
                scrub(e.point.x)
            } else if let item, item == pressed, case .action(let a) = item {
                perform(a)
            }
            pressed = nil
        }
        paint()
    }

    private func scrub(_ x: Double) {
        let n = layout.position(atX: x, count: timeline.seqs.count)
        if n != timeline.shown || timeline.playing { perform(.seek(n)) }
    }

    /// Repaints the bar when what it shows changed (or always with `force`).
    func paint(width: Int, theme: Theme, force: Bool = false) {
        self.width = Double(width)
        let sig = "\(width)|\(layers.rawValue)|\(panel.isOpen)|\(timeline.shown)|\(timeline.playing)|\(String(describing: pressed))"
        guard force || sig != signature else { return }
        signature = sig
        let l = layout
        var buttons: [ChromeButton] = []
        var swatches: [InspectorBarPainter.Swatch] = []
        for b in l.buttons(playing: timeline.playing) {
            guard case .action(let a) = b.item else { continue }
            var on = false
            switch a {
            case .toggleLayer(let layer):
                on = layers.contains(layer)
                let colours = Self.legend(layer, theme: theme)
                swatches.append(.init(frame: Rect(x: b.frame.x + 6 * scale, y: b.frame.maxY - 7 * scale, width: b.frame.width - 12 * scale, height: 3 * scale),
                                      colours: colours))
            case .togglePanel: on = panel.isOpen
            case .play: on = timeline.playing
            default: break
            }
            buttons.append(ChromeButton(id: b.label, label: b.label, frame: b.frame, active: on || b.item == pressed))
        }
        InspectorBarPainter.draw(on: window.surface, width: width, height: Int(height), scale: scale, buttons: buttons, swatches: swatches,
                                 scrubber: l.scrubber, shown: timeline.shown, total: timeline.seqs.count, count: timeline.status, theme: theme)
    }

    private func paint() { if width > 1 { paint(width: Int(width), theme: view.renderer.theme) } }

    /// A layer's colours as the overlay draws them.
    static func legend(_ layer: DebugLayers, theme: Theme) -> [RGBA] {
        switch layer {
        case .lines: return Array(DebugPalette.lines.prefix(3))
        case .words: return [theme.debugWordColor]
        case .chars: return [theme.debugCharColor]
        case .labels: return [theme.debugLabelColor]
        case .blocks: return [theme.debugBlockColor]
        case .frames: return [DebugPalette.frames]
        case .gestures: return [DebugPalette.gesture]
        default: return []
        }
    }

    // MARK: the page

    private func applyLayers() {
        if !linesRead, !layers.isDisjoint(with: [.lines, .frames]) {
            // Read once: the window does not change the ink.
            linesRead = true
            view.debugLines = InspectorLayers.bands(view.editor)
        }
        view.debugLayers = layers
        trace()
    }

    /// Shows the strokes up to the timeline's position, and the gestures made before the last of them.
    private func timelineMoved() {
        view.strokeLimit = timeline.limit
        let shown = timeline.shown, total = timeline.seqs.count
        let until: Int64 = shown >= total ? .max : shown == 0 ? .min : strokeTimes[shown - 1]
        view.debugGestures = gestures.filter { $0.t <= until }.map(\.mark)
        if tracer.enabled { tracer.emit("timeline", .object(["shown": .number(Double(shown)), "total": .number(Double(total))])) }
    }

    private func trace() {
        guard tracer.enabled else { return }
        let names = InspectorTimeline.layerKeys.map(\.1).enumerated().compactMap { _, l in
            layers.contains(l) ? InspectorBarLayout.toggles.first { $0.0 == .toggleLayer(l) }?.1.lowercased() : nil
        }
        tracer.emit("inspector-layers", .object(["layers": .array(names.map { .string($0) }), "lines": .number(Double(view.debugLines.count)),
                                                 "panel": .bool(panel.isOpen)]))
    }
}
