import Foundation
import Quire

/// What the inspector panel (F12) says about a block, as rows of text: the time each stage took,
/// then per line its reading and timings, per word its top candidates with their scores split
/// into network, language model and lexicon parts (`Editor.recognitionDiagnostics`).
enum InspectorPanel {
    /// Candidates listed per word.
    static let candidatesPerWord = 3

    static func ms(_ ns: UInt64) -> String { String(format: "%.1f", Double(ns) / 1e6) }
    static func score(_ v: Double) -> String { v.isFinite ? String(format: "%.2f", v) : "–" }

    static func rows(_ d: BlockDiagnostics) -> [OverlayPanelRow] {
        var rows = [OverlayPanelRow("Block \(d.blockId): \(d.lines.count) line\(d.lines.count == 1 ? "" : "s")", style: .heading)]
        rows.append(.init("ms: layout \(ms(d.layoutNanos)) · preprocess \(ms(d.timings.preprocess)) · network \(ms(d.timings.network)) · decode \(ms(d.timings.decode))",
                          style: .dim))
        rows.append(.init("lexicon \(d.configuration["lexicon-mode.resolved"] ?? "–") · LM \(d.configuration["language-model"] ?? "–")", style: .dim))
        for (i, line) in d.lines.enumerated() {
            let ld = line.diagnostics
            rows.append(.init("Line \(i + 1): \(ld.result.text)", style: .heading))
            rows.append(.init("\(ld.frames) frames · \(line.strokeIds.count) strokes · network \(ms(ld.timings.network)) ms · decode \(ms(ld.timings.decode)) ms",
                              style: .dim, level: 1))
            for w in ld.words {
                rows.append(.init(w.text, style: .chosen, level: 1))
                for c in w.candidates.prefix(candidatesPerWord) {
                    rows.append(.init("\(c.text)  \(score(c.score.total))  (net \(score(c.score.network)), LM \(score(c.score.languageModel)), lex \(score(c.score.lexicon)))",
                                      style: c.text == w.text ? .normal : .dim, level: 2))
                }
            }
        }
        return rows
    }
}

/// The inspector panel of one editor view: F12 shows it at the right of the canvas with the
/// debug overlay on the page (word, character and block boxes with their labels), and hides
/// both. It shows the selected block, else the block the candidates bar follows, else the first
/// block with ink; its diagnostics are read again only when content or selection changed.
final class InspectorPanelController {
    private let view: EditorView
    private let window: PaintedWindow
    private let tracer: Tracer
    private(set) var isOpen = false
    private(set) var rows: [OverlayPanelRow] = []
    private(set) var frame: Rect?
    /// Content, selection or size changed since the panel was drawn.
    var dirty = true
    /// The block the candidates bar follows (when nothing is selected).
    var followedBlockId: () -> String? = { nil }

    init(view: EditorView, window: PaintedWindow, tracer: Tracer) {
        self.view = view
        self.window = window
        self.tracer = tracer
    }

    private var editor: Editor { view.editor }
    private var shownSelection: Set<String> = []
    var needsUpdate: Bool { isOpen && (dirty || editor.selection != shownSelection) }

    /// F12: the panel and the debug overlay on or off together (the inspector window's B and P
    /// toggle one of them).
    func toggle(panel: Bool = true, overlay: Bool = true) {
        let on = !isOpen
        if overlay {
            try? editor.configuration.setBoolean(panel ? on : !editor.configuration[.rendererDebugBoxes], forKey: ConfigKey<Bool>.rendererDebugBoxes.name)
            editor.renderer?.invalidate(nil)
        }
        guard panel else { return }
        isOpen = on
        dirty = true
        if !isOpen { hide() }
        if tracer.enabled { tracer.emit("inspector", .object(["open": .bool(isOpen)])) }
    }

    private func block() -> ContentBlock? {
        let candidates = editor.selection.sorted() + [followedBlockId()].compactMap { $0 }
        for id in candidates { if let b = editor.getBlockById(id), b.isValid, b.kind == .text { return b } }
        guard let root = editor.rootBlock else { return nil }
        let model = editor.part?.model
        return ([root] + root.children).first { $0.kind == .text && model?.strokeIds(inBlock: $0.id).isEmpty == false }
    }

    func update() {
        dirty = false
        shownSelection = editor.selection
        guard isOpen else { return }
        if let b = block() {
            do { rows = InspectorPanel.rows(try editor.recognitionDiagnostics(b)) } catch {
                rows = [OverlayPanelRow("Block \(b.id)", style: .heading), OverlayPanelRow(CommandDispatcher.message(error), style: .dim)]
            }
        } else {
            rows = [OverlayPanelRow("Nothing to inspect", style: .heading), OverlayPanelRow("Write in a Text block or select one.", style: .dim)]
        }
        let scale = view.scale, viewW = Double(view.size.width), viewH = Double(view.size.height)
        let w = min(380 * scale, (viewW * 0.45).rounded())
        let f = Rect(x: viewW - w, y: 0, width: w, height: viewH)
        if f != frame {
            window.setFrame(f)
            if frame == nil { window.showRaised() }
            frame = f
        }
        repaint()
        if tracer.enabled { tracer.emit("inspector", .object(["open": .bool(true), "rows": .array(rows.map { .string($0.text) })])) }
    }

    /// Redraws the panel (its window was exposed).
    func repaint() {
        guard let f = frame else { return }
        OverlayPainter.drawPanel(on: window.surface, width: f.width, height: f.height, scale: view.scale, rows: rows, fontSize: 13 * view.scale)
    }

    private func hide() {
        guard let old = frame else { return }
        window.hide()
        view.repaint(old, margin: 1)
        frame = nil
    }
}
