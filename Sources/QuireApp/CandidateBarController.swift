import Foundation
import Quire

/// Keeps the candidates bar of one editor view up to date: which block it follows, which words
/// just changed, where its window is, and the selected word's highlight on the page. Updates run
/// when content, selection or the view changed (flagged by the delegate, pen-ups, taps and keys),
/// never per pen move.
final class CandidateBarController {
    private let view: EditorView
    private let window: PaintedWindow
    private let tracer: Tracer
    private(set) var bar: CandidateBar?
    /// Where the bar window is, canvas pixels (nil: hidden).
    private(set) var frame: Rect?
    /// Where the bar stood when it last hid (canvas pixels): the server may still deliver a pen
    /// there until it has unmapped the window, and that input is the canvas's.
    private(set) var hiddenFrame: Rect?
    /// Something the bar shows may have changed.
    var dirty = true
    private var transform: Transform?
    private var pressed: Int?
    /// The block the bar follows when no Text block is selected: the one last written in.
    var activeBlockId: String?
    private var lastWords: (blockId: String, words: [RecognizedWord])?
    private var changedWords: Set<Int> = []
    private var changedUntil: Date?
    /// Called after the bar window moved or showed, so a popup stays above it.
    var keepAbove: () -> Void = {}

    init(view: EditorView, window: PaintedWindow, tracer: Tracer) {
        self.view = view
        self.window = window
        self.tracer = tracer
    }

    private var editor: Editor { view.editor }

    var needsUpdate: Bool { dirty || transform != editor.viewTransform }

    /// True while a word is drawn as just changed (the loop wakes to end that).
    var isShowingChange: Bool { changedUntil != nil }

    /// Called while idle: the moment of a change's colour has passed.
    func expireChange(now: Date = Date()) {
        if let until = changedUntil, now >= until { dirty = true }
    }

    /// Pen-up, tap or gesture in a block: the bar follows it when it is a Text block.
    func follow(_ block: ContentBlock?) {
        if let block, block.kind == .text { activeBlockId = block.id }
    }

    /// The block the bar shows: the selected Text block, else the one last written in.
    private func barBlock() -> ContentBlock? {
        if let id = editor.selection.sorted().first, let b = editor.getBlockById(id), b.kind == .text { return b }
        if let id = activeBlockId, let b = editor.getBlockById(id), b.isValid, b.kind == .text { return b }
        return nil
    }

    /// Brings the bar and the word highlight up to date.
    func update() {
        dirty = false
        transform = editor.viewTransform
        let sw = editor.selectedWord
        view.wordHighlight = sw.flatMap { ref -> Rect? in
            guard let ws = editor.getBlockById(ref.blockId)?.words, ws.indices.contains(ref.index) else { return nil }
            let r = inkBounds(ws[ref.index])
            return r.isEmpty ? nil : r
        }
        let viewW = Double(view.size.width), viewH = Double(view.size.height)
        // A lasso selection's handles sit where the bar would (just above the ink): the bar
        // steps aside until the selection ends, so every handle can be grabbed.
        guard editor.renderState.selectionFrame == nil, let block = barBlock(), case let words = block.words, words.contains(where: { !$0.label.isEmpty }) else {
            hide()
            return
        }
        let wordsChanged = lastWords?.blockId != block.id || lastWords?.words != words
        if let last = lastWords, last.blockId == block.id {
            if last.words != words {
                changedWords = CandidateBar.changedWords(old: last.words, new: words)
                changedUntil = changedWords.isEmpty ? nil : Date().addingTimeInterval(1.5)
            }
        } else {
            changedWords = []
            changedUntil = nil
        }
        if let until = changedUntil, Date() >= until { changedWords = []; changedUntil = nil }
        lastWords = (block.id, words)
        let scale = view.scale
        let r = editor.viewTransform.apply(anchor(block, words))
        let h = CandidateBar.height(scale: scale)
        guard r.maxY > 0, r.y < viewH, r.maxX > 0, r.x < viewW else { hide(); return }
        // Just above the block; pinned to the top edge when the block's top is scrolled away.
        let bx = max(0, min(r.x, viewW - 80 * scale)).rounded()
        let by = max(0, r.y - h - 2 * scale).rounded()
        let selected = sw?.blockId == block.id ? sw?.index : nil
        let newBar = CandidateBar.layout(blockId: block.id, words: words, changed: changedWords, selected: selected,
                                         scale: scale, maxWidth: max(40, viewW - bx))
        let newFrame = Rect(x: bx, y: by, width: newBar.width.rounded(.up), height: h)
        guard newBar != bar || newFrame != frame || wordsChanged else { return }
        if newFrame != frame {
            window.setFrame(newFrame)
            if let old = frame { view.repaint(old, margin: 1) }
        }
        if frame == nil { window.showRaised() }
        hiddenFrame = nil
        keepAbove()
        let contentChanged = newBar != bar
        bar = newBar
        frame = newFrame
        newBar.draw(on: window.surface, theme: view.renderer.theme)
        if tracer.enabled, contentChanged || wordsChanged { trace(newBar, newFrame, words) }
    }

    /// Redraws the bar (its window was exposed).
    func repaint() {
        if let bar { bar.draw(on: window.surface, theme: view.renderer.theme) }
    }

    func hide() {
        guard let old = frame else { return }
        window.hide()
        view.repaint(old, margin: 1)
        hiddenFrame = old
        frame = nil
        bar = nil
        pressed = nil
        if tracer.enabled { tracer.emit("bar", .object(["block": .null, "words": .array([])])) }
    }

    /// A press on the bar's window (pixels of the bar).
    func press(at p: Point) { pressed = bar?.item(at: p)?.index }

    /// A release on the bar's window: the word pressed and released on, and where its candidates
    /// open (canvas pixels).
    func release(at p: Point) -> (WordRef, Point)? {
        defer { pressed = nil }
        guard let bar, let it = bar.item(at: p), it.index == pressed, let f = frame else { return nil }
        return (WordRef(blockId: bar.blockId, index: it.index), Point(x: f.x + it.frame.x, y: f.maxY + 2 * view.scale))
    }

    /// What the bar sits above (model mm): the block, or, where the block's top lies further
    /// above its ink (as when the block flow pushed a block whose box began on the line above
    /// its ink), 0.6 of a guide line above the ink's top: the bar stays by the ink, not over the
    /// empty line, and leaves room for the line's tall letters. A bar just over x-height ink
    /// took the pen-down of the next `l` or `d`, and that stroke was lost.
    private func anchor(_ block: ContentBlock, _ words: [RecognizedWord]) -> Rect {
        let box = block.box
        guard let top = words.map(inkBounds).filter({ !$0.isEmpty }).map(\.y).min() else { return box }
        let y = max(box.y, top - Self.ascenderRoom * editor.guides.spacing)
        return Rect(x: box.x, y: y, width: box.width, height: max(0, box.maxY - y))
    }

    /// How far above the ink's top the bar stays, in guide lines: handwriting's ascenders rise
    /// about as far again above x-height letters, and x-height is under half a guide line.
    static let ascenderRoom = 0.6

    /// Where a word is on the page (model mm): its strokes' bounds, or its box once typeset. The
    /// recognizer's word box may take in the space before the word, which is not where the ink is.
    private func inkBounds(_ w: RecognizedWord) -> Rect {
        guard let strokes = editor.part?.model.strokes else { return w.box }
        let boxes = w.strokeIds.compactMap { strokes[$0]?.bounds }
        guard let first = boxes.first else { return w.box }
        return boxes.dropFirst().reduce(first) { $0.union($1) }
    }

    private func trace(_ bar: CandidateBar, _ frame: Rect, _ words: [RecognizedWord]) {
        let items: [JSONValue] = bar.items.map { it in
            .object(["index": .number(Double(it.index)), "label": .string(it.label), "changed": .bool(it.changed),
                     "selected": .bool(it.selected), "styles": .array(it.styles.map { .string($0) }), "ink": .bool(it.ink),
                     "candidates": .number(Double(it.candidateCount)),
                     "box": Tracer.rect(editor.viewTransform.apply(inkBounds(words[it.index]))),
                     "rbox": Tracer.rect(editor.viewTransform.apply(words[it.index].box)),
                     "frame": Tracer.rect(it.frame.offsetBy(dx: frame.x, dy: frame.y))])
        }
        tracer.emit("bar", .object(["block": .string(bar.blockId), "frame": Tracer.rect(frame), "words": .array(items)]))
    }
}
