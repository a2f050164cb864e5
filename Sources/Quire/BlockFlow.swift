import Foundation
import InkModel

/// The block flow of a Text Document: blocks pushed down, in reading order, so none overlap.
/// It remembers the boxes it left last time, which makes the next flow incremental.
final class BlockFlow {
    /// Boxes of the root's children as the last flow left them.
    private var boxes: [String: Rect] = [:]
    /// While true (an import), blocks are not flowed after each change but once at the end: ink
    /// written above existing blocks pushes all of them down, so flowing after each of n
    /// imported strokes moved O(n) blocks each time, and every move was kept for undo (4,000
    /// stacked marks took minutes and gigabytes; found by tools/fuzz, InkML case 4427).
    var held = false

    /// Places `blocks` (the root's children, in its order) with `gap` between them: a block keeps
    /// its place unless a block above it now covers it. Returns the changes that move blocks, and
    /// the ids of those that moved, in reading order.
    ///
    /// Incremental: the boxes the previous flow left did not overlap, so a block whose box is
    /// unchanged since can only collide with blocks that changed or moved, and it is checked
    /// against those alone unless it has to move. The result is the same as placing every block
    /// against every earlier one (`FlowTests` checks this), but a pen-up costs a sort of the
    /// blocks plus the blocks that actually move, and a moved block's ink moves as one record.
    func place(_ blocks: [BlockData], gap: Double) -> (changes: [Change], moved: [BlockData]) {
        // Sorted as small keys, not as blocks: sorting the blocks themselves moved ~1,700 large
        // values per pen-up on the page of scripts/bench-latency (a third of the pen-up's time).
        // Ties (same top-left) keep the order of the root's children, so the flow is deterministic.
        var order: [(y: Double, x: Double, index: Int)] = []
        order.reserveCapacity(blocks.count)
        for (i, b) in blocks.enumerated() { order.append((b.box.y, b.box.x, i)) }
        order.sort { ($0.y, $0.x, $0.index) < ($1.y, $1.x, $1.index) }
        var placed: [Rect] = []
        placed.reserveCapacity(blocks.count)
        var placedChanged: [Rect] = []
        var changes: [Change] = []
        var moved: [BlockData] = []
        var next: [String: Rect] = [:]
        next.reserveCapacity(blocks.count)
        for key in order {
            let b = blocks[key.index]
            var box = b.box
            let changed = boxes[b.id] != b.box
            if changed || placedChanged.contains(where: { $0.intersects(box) }) {
                var moving = true
                while moving {
                    moving = false
                    for r in placed where r.intersects(box) {
                        box.y = r.maxY + gap
                        moving = true
                    }
                }
            }
            if box != b.box {
                changes += Editor.moveChanges(b, to: box)
                moved.append(b)
            }
            placed.append(box)
            if changed || box != b.box { placedChanged.append(box) }
            next[b.id] = box
        }
        boxes = next
        return (changes, moved)
    }

    /// Forgets the last flow: the next one places every block against every other.
    func forget() { boxes.removeAll() }
}

extension Editor {
    /// Flows the root's children (see `BlockFlow`). The moves join the last undo step so undo
    /// restores the whole change at once; with `record` false (text laid out again for a new
    /// font or page) they are no step of their own.
    func relayout(anchor: String?, model m: PartModel, record: Bool = true) {
        guard !flow.held else { return }
        let blocks = m.root.childIds.compactMap { m.blocks[$0] }
        let (moves, moved) = flow.place(blocks, gap: blockSpacing)
        guard !moves.isEmpty else { return }
        // Moved words are laid out afresh where they land (not just shifted), so that a block's
        // layout is always what laying it out again gives.
        let changes = layingOut(Transaction(changes: moves)).changes
        var dirty = Rect.zero
        for c in changes { dirty = dirty.union(apply(c, to: m)) }
        guard record else { renderer?.invalidate(nil); return }
        history.amendLast(changes)
        finishChange(blockIds: [], dirty: dirty, model: m)
        // A block that moved before its reading came back (a new block pushed below the one it
        // overlapped) would have that reading dropped, as it is of ink no longer there: read it
        // again where it is now. Blocks already read moved with their words.
        for b in moved where Self.recognizable(b.type) && recognition.isPending(b.id) {
            scheduleRecognition(blockId: b.id)
        }
    }
}

extension Editor {
    /// Runs `body` with the flow held, then flows the blocks once (the moves join the last undo
    /// step). Nothing is flowed if `body` throws: batch input is checked before it changes anything.
    func withFlowHeld(_ body: () throws -> Void) throws {
        guard !flow.held else { return try body() }
        flow.held = true
        do { try body() } catch { flow.held = false; throw error }
        flow.held = false
        if let m = attached?.model, m.kind == .textDocument { relayout(anchor: nil, model: m) }
    }
}
