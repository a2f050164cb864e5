import Foundation
import InkModel
import InkRender

extension Editor {
    /// What a Cairo renderer needs besides the model to draw this editor's view right now: view
    /// transform and size, selection, strokes in progress, lasso, a block being dragged, and the
    /// rendering options from the configuration.
    public var renderState: RenderState {
        // The layout follows a changed guide spacing before it is drawn.
        syncTextLayout()
        var s = RenderState(transform: viewTransform, viewWidth: viewSize?.width ?? 1, viewHeight: viewSize?.height ?? 1,
                            selectedBlockIds: selection,
                            guides: configuration[.textGuidesEnable],
                            guideSpacing: guideSpacing,
                            pressure: configuration[.rendererInkPressure],
                            debugBoxes: configuration[.rendererDebugBoxes])
        s.prediction = configuration[.rendererPredictionEnable]
        s.selectionFrame = selectionFrame
        for p in pointers.all { p.behaviour.show(p, in: &s, editor: self) }
        return s
    }

    /// The stroke in progress of one pointer (nil if that pointer is not inking), so a window can
    /// draw just its newest segment after each move.
    public func liveStroke(pointerId: Int) -> LiveStroke? {
        guard let p = pointers[pointerId], p.behaviour.inks else { return nil }
        return liveStroke(p)
    }

    /// Whether any pointer is down (a stroke, erase, lasso or drag in progress).
    public var hasActivePointers: Bool { !pointers.isEmpty }

    /// Ids of the pointers currently down.
    public var activePointerIds: [Int] { pointers.ids }

    func liveStroke(_ p: ActivePointer) -> LiveStroke {
        let style = toolController.style(for: p.tool)
        return LiveStroke(id: p.strokeId, tool: p.tool.rawValue, color: style.color, width: style.width, samples: p.samples)
    }
}

extension Editor {
    /// Types text into a Text Document: appended to `block` when it is a typed Text block (no ink),
    /// otherwise a new typed Text block is started below `block` (or below all content when nil).
    /// Returns the block that received the text. "\u{8}" (backspace) deletes the last character.
    @discardableResult
    public func typeText(_ text: String, into block: ContentBlock?) throws -> ContentBlock {
        let m = try requireTextDocument("typeText")
        guard !text.isEmpty else { throw QuireError(.invalidArgument, "typeText: nothing to type") }
        if let block {
            let b = try block.checkValid()
            if b.kind == .text, m.strokes(inBlock: b.id).isEmpty {
                var nb = b
                var t = b.text ?? ""
                for ch in text {
                    if ch == "\u{8}" { if !t.isEmpty { t.removeLast() } } else { t.append(ch) }
                }
                nb.text = t
                let lines = max(1, t.split(separator: "\n", omittingEmptySubsequences: false).count)
                nb.box.height = max(b.box.height, Double(lines + 1) * guideSpacing)
                guard nb != b else { return block }
                // The words follow the text in the commit's layout, keeping the styles of those
                // that stay; wrapped lines may grow the block.
                commit(Transaction(changes: [.block(old: b, new: nb)]), affecting: [b.id])
                relayout(anchor: b.id, model: m)
                return ContentBlock(id: b.id, editor: self, model: m)
            }
        }
        let typed = text.filter { $0 != "\u{8}" }
        guard !typed.isEmpty else { throw QuireError(.invalidArgument, "typeText: nothing to type") }
        // Below the given block, else below everything: a new line of the page.
        let below = block.flatMap { m.blocks[$0.id] }?.box.maxY
            ?? m.root.childIds.compactMap { m.blocks[$0]?.box.maxY }.max() ?? 0
        let left = block.flatMap { m.blocks[$0.id] }?.box.x ?? 5
        let view = viewTransform.apply(Point(x: left, y: below + guideSpacing * 0.5))
        return try addBlock(at: view, type: BlockType.text.rawValue, mimeType: .text, data: typed)
    }
}

extension Editor {
    /// Replaces the selection with the given blocks of the attached part (unknown ids are ignored).
    public func setSelection(_ blockIds: Set<String>) {
        guard let m = attached?.model else { return }
        let new = blockIds.filter { m.blocks[$0] != nil && $0 != m.rootId }
        // Same blocks but lassoed strokes too: those go (Esc ends a lasso selection).
        guard new != selection || !selectedStrokes.isEmpty else { return }
        recorder?.view(["e": .string("select"), "blocks": .array(new.sorted().map { .string($0) })])
        select(blocks: new, strokes: [])
        renderer?.invalidate(nil)
    }
}
