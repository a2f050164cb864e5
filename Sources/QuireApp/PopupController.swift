import Foundation
import Quire

/// Shows one popup at a time over an editor view: the context menu (long press, right button,
/// Menu key) and a word's candidates. Choosing an item performs its `AppCommand`.
final class PopupController {
    private let view: EditorView
    private let window: PaintedWindow
    private let tracer: Tracer
    private(set) var menu: OverlayMenu?
    private var frame: Rect?
    /// Where the popup stood when it last closed (canvas pixels): the server may still deliver a
    /// pen there until it has unmapped the window, and that input is the canvas's.
    private(set) var closedFrame: Rect?
    private var pressed: Int?
    /// Runs a chosen item's command.
    var perform: (AppCommand) -> Void = { _ in }
    weak var host: CommandHost?

    init(view: EditorView, window: PaintedWindow, tracer: Tracer) {
        self.view = view
        self.window = window
        self.tracer = tracer
    }

    private var editor: Editor { view.editor }
    var isOpen: Bool { menu != nil }

    /// The context menu for the block and word under a point of the canvas.
    func openContextMenu(at p: Point) {
        close()
        if editor.hasSelection, editor.renderState.selectionFrame?.hit(p) != nil { return openSelectionMenu(at: p) }
        let block = editor.hitBlock(at: p)
        let word = editor.hitWord(at: p)
        if let block { editor.setSelection([block.id]) }
        if let word { editor.selectedWord = word }
        var wordLabel = ""
        var wordHasInk = false
        var hasCandidates = false
        if let word, let ws = editor.getBlockById(word.blockId)?.words, ws.indices.contains(word.index) {
            wordLabel = ws[word.index].label
            wordHasInk = !ws[word.index].strokeIds.isEmpty
            hasCandidates = !ws[word.index].candidates.isEmpty
        }
        let recognizable = block.map { [BlockType.text, .math, .diagram].contains($0.kind) } ?? false
        var items: [OverlayMenu.Item] = [
            .init(label: "Copy", action: .copy, enabled: block != nil),
            .init(label: "Paste", action: .paste(at: p), enabled: true),
            .init(label: "Remove block", action: block.map { .removeBlock($0.id) }, enabled: block != nil),
        ]
        // (Typed words have no place on the page, so a word under the finger is ink or typeset in place.)
        if let word, !wordLabel.isEmpty {
            items.append(.init(label: "Remove word", action: .removeWord(word), enabled: true))
        }
        if let word, wordHasInk { items.append(.init(label: "Convert word", action: .convertWord(word), enabled: true)) }
        items.append(.init(label: "Convert", action: block.map { .convertBlock($0.id) }, enabled: recognizable))
        items.append(.init(label: "Export", action: block.map { .exportBlock($0.id) }, enabled: block != nil))
        items.append(.init(label: "Candidates", action: word.map { .showCandidates($0, at: p) }, enabled: word != nil && hasCandidates))
        let title = !wordLabel.isEmpty ? "\u{201C}\(wordLabel)\u{201D}" : block != nil ? "Block" : "Page"
        host?.overlaysChanged()
        show(OverlayMenu(items: items, highlighted: nil, scale: view.scale, title: title), kind: "menu", at: p)
    }

    /// The pens' palette for a tool: its colours (the current one in bold) and widths.
    func openPens(tool: Tool, at p: Point) {
        let items = PenPalette.menuItems(tool: tool, style: editor.toolController.style(for: tool == .highlighter ? .highlighter : .pen),
                                         theme: view.renderer.theme, custom: PenSettings.load().custom)
        show(OverlayMenu(items: items, highlighted: nil, scale: view.scale, title: tool == .highlighter ? "Marker" : "Pen"), kind: "pens", at: p)
    }

    /// The custom colour chooser: a grid of swatches, each a tap target for a pen or a finger.
    func openColourGrid(tool: Tool, at p: Point) {
        let t: Tool = tool == .highlighter ? .highlighter : .pen
        let items = PenPalette.gridItems(tool: t, current: editor.toolController.style(for: t).color)
        show(OverlayMenu(items: items, highlighted: nil, scale: view.scale, title: "Custom colour", columns: PenPalette.gridColumns),
             kind: "colours", at: p)
    }

    /// The lasso selection's menu: its actions, then the colours it can take.
    func openSelectionMenu(at p: Point) {
        var items: [OverlayMenu.Item] = [
            .init(label: "Cut", action: .cut, enabled: true), .init(label: "Copy", action: .copy, enabled: true),
            .init(label: "Delete", action: .removeBlock(nil), enabled: true),
            .init(label: "Convert", action: .convertSelection, enabled: true),
        ]
        items += PenPalette.penColors(theme: view.renderer.theme).map { .init(label: $0.name, action: .penStyle(color: $0.color, width: nil), enabled: true) }
        show(OverlayMenu(items: items, highlighted: nil, scale: view.scale, title: "Selection"), kind: "menu", at: p)
    }

    /// A word's candidates, the chosen one in bold.
    func openCandidates(_ ref: WordRef, at p: Point) {
        guard let words = editor.getBlockById(ref.blockId)?.words, words.indices.contains(ref.index),
              let cands = try? editor.candidates(ref), !cands.isEmpty else {
            host?.show("No other readings for this word.", seconds: 3)
            return
        }
        let w = words[ref.index]
        let items = cands.enumerated().map { i, c in
            OverlayMenu.Item(label: c.label, action: .selectCandidate(ref, i), enabled: true, current: i == w.selected)
        }
        editor.selectedWord = ref
        host?.overlaysChanged()
        show(OverlayMenu(items: items, highlighted: nil, scale: view.scale, title: "Candidates"), kind: "candidates", at: p)
    }

    /// A menu of commands (the File menu, a new page's kind) at a canvas point.
    func openMenu(title: String, items: [OverlayMenu.Item], at p: Point) {
        host?.overlaysChanged()
        show(OverlayMenu(items: items, highlighted: nil, scale: view.scale, title: title), kind: "menu", at: p)
    }

    private func show(_ menu: OverlayMenu, kind: String, at p: Point) {
        close()
        let viewW = Double(view.size.width), viewH = Double(view.size.height)
        let (w, h) = menu.size
        let px = max(0, min(p.x, viewW - w)).rounded()
        // Never above the canvas's top (a point on the toolbar): the title would be cut off.
        var py = max(0, p.y).rounded()
        if py + h > viewH { py = max(0, p.y - h).rounded() }
        let f = Rect(x: px, y: py, width: w, height: h)
        window.setFrame(f)
        window.showRaised()
        self.menu = menu
        frame = f
        closedFrame = nil
        menu.draw(on: window.surface, theme: view.renderer.theme)
        if tracer.enabled {
            let items: [JSONValue] = menu.items.indices.map { i in
                .object(["label": .string(menu.items[i].label), "enabled": .bool(menu.items[i].enabled),
                         "current": .bool(menu.items[i].current), "swatch": menu.items[i].swatch.map(JSONValue.string) ?? .null,
                         "frame": Tracer.rect(menu.frame(of: i).offsetBy(dx: px, dy: py))])
            }
            tracer.emit("popup", .object(["kind": .string(kind), "title": .string(menu.title), "items": .array(items)]))
        }
    }

    func close() {
        guard menu != nil else { return }
        window.hide()
        if let f = frame { view.repaint(f, margin: 1) }
        menu = nil
        closedFrame = frame
        frame = nil
        pressed = nil
        if tracer.enabled { tracer.emit("popup", .object(["kind": .null])) }
    }

    /// Keeps the popup above the candidates bar.
    func raise() { if menu != nil { window.raise() } }

    func repaint() { menu?.draw(on: window.surface, theme: view.renderer.theme) }

    /// Keys while the popup is open: Up/Down/Tab move, Enter or space chooses, Esc closes.
    func handleKey(_ k: KeyInput) {
        switch k.key {
        case .escape: close()
        case .up: moveHighlight(-1)
        case .down, .tab: moveHighlight(1)
        case .enter, .character(" "):
            if let m = menu, let i = m.highlighted { choose(m.items[i]) }
        default: break
        }
    }

    /// A press on the popup's window (pixels of the popup).
    func press(at p: Point) { pressed = menu?.item(at: p) }

    func release(at p: Point) {
        defer { pressed = nil }
        guard let m = menu, let i = m.item(at: p), i == pressed else { return }
        choose(m.items[i])
    }

    private func moveHighlight(_ step: Int) {
        guard var m = menu else { return }
        m.move(step)
        menu = m
        m.draw(on: window.surface, theme: view.renderer.theme)
    }

    private func choose(_ item: OverlayMenu.Item) {
        close()
        host?.overlaysChanged()
        if let c = item.action { perform(c) }
    }
}
