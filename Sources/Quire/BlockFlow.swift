import Foundation
import InkModel

/// The block flow of a Text Document: blocks pushed down, in reading order, so none overlap.
/// It remembers the boxes it left last time, which makes the next flow incremental.
final class BlockFlow {
    /// Boxes of the root's children as the last flow left them.
    private var boxes: [String: Rect] = [:]
    /// The root's children sorted by position, following the model's block log.
    let index = BlockIndex()
    /// While true (an import), blocks are not flowed after each change but once at the end: ink
    /// written above existing blocks pushes all of them down, so flowing after each of n
    /// imported strokes moved O(n) blocks each time, and every move was kept for undo (4,000
    /// stacked marks took minutes and gigabytes; found by tools/fuzz, InkML case 4427).
    var held = false
    /// How many blocks the last flow looked at, counting each block once more for every box it
    /// was checked against (the bench and tests check it stays small: the blocks moved times the
    /// boxes beside each, whatever the page holds).
    private(set) var lastExamined = 0

    /// Places the root's children of `m` with `gap` between them: a block keeps its place unless
    /// a block above it now covers it. Returns the changes that move blocks, and the blocks that
    /// moved, in reading order (sorted by top, then left, then their order among the children).
    ///
    /// Incremental: the boxes the previous flow left did not overlap, so a block whose box is
    /// unchanged since can only collide with blocks that changed or moved, and it is checked
    /// against those alone unless it has to move. The model's block log says which blocks
    /// changed and `BlockIndex` finds the blocks near them, so a pen-up costs the blocks that
    /// changed or moved and those beside them, whatever the page holds. The result is that of
    /// `placeAll` (`FlowTests` checks it after every step of random edits).
    func place(model m: PartModel, gap: Double) -> (changes: [Change], moved: [BlockData]) {
        index.sync(m)
        guard index.usable, let touched = index.takeTouched() else {
            return placeAll(m.root.childIds.compactMap { m.blocks[$0] }, gap: gap)
        }
        // Children that came, went or changed since the last flow; the others are where it left them.
        var changed: [(position: Int, entry: BlockIndex.Entry)] = []
        for id in touched {
            if let e = index.entry(id) {
                if boxes[id] != e.box { changed.append((index.position(of: e), e)) }
            } else {
                boxes[id] = nil
            }
        }
        lastExamined = touched.count
        guard !changed.isEmpty else { return ([], []) }
        // Most of the page changed (an import flowed once at its end): every block is checked
        // against the others either way, and the plain loop does it with less bookkeeping.
        if changed.count * 4 > index.entries.count {
            return placeAll(m.root.childIds.compactMap { m.blocks[$0] }, gap: gap)
        }
        changed.sort { $0.position < $1.position }
        let entries = index.entries
        // The sweep: boxes placed in this flow before the current block that reach below its top,
        // in reading order, each marked when it changed or moved. Blocks come by top and only move
        // down, so a box whose bottom is above one block's top is above every later block's top
        // too and leaves for good: each block is checked against the boxes beside it, not against
        // every block the flow has pushed (a pen-up at the top of a full page pushes them all).
        var reach: [Placed] = []
        // The lowest bottom among the boxes that changed or moved: a block starting below it can
        // no longer collide with any of them.
        var horizon = -Double.infinity
        var changes: [Change] = []
        var moved: [BlockData] = []
        var next = 0, i = changed[0].position
        // Whether `reach` was swept up to the block before `i` (else the flow jumped to `i`).
        var walking = false
        while i < entries.count {
            let e = entries[i]
            let isChanged = next < changed.count && changed[next].position == i
            if isChanged { next += 1 }
            if !isChanged && !(e.box.y < horizon) {
                guard next < changed.count else { break }
                i = changed[next].position
                walking = false
                continue
            }
            lastExamined += 1
            if walking {
                reach.removeAll { !($0.box.maxY > e.box.y) }
            } else {
                reach = reaching(i, top: e.box.y, placed: reach, entries: entries)
            }
            lastExamined += reach.count
            var box = e.box
            if isChanged || reach.contains(where: { $0.changed && $0.box.intersects(box) }) {
                box = Self.pushedDown(box, past: reach.map(\.box), gap: gap)
            }
            if box != e.box, let b = m.blocks[e.id] {
                changes += Editor.moveChanges(b, to: box)
                moved.append(b)
            }
            let placedChanged = isChanged || box != e.box
            if placedChanged {
                horizon = max(horizon, box.maxY)
                boxes[e.id] = box
            }
            reach.append(Placed(position: i, box: box, changed: placedChanged))
            walking = true
            i += 1
        }
        return (changes, moved)
    }

    /// A box placed in this flow: its block's position in the index, where it is now, and whether
    /// it changed or moved (only those can make an unchanged block below them move).
    private struct Placed {
        var position: Int
        var box: Rect
        var changed: Bool
    }

    /// `box` moved down, `gap` below each box of `above` it meets, until it meets none.
    private static func pushedDown(_ box: Rect, past above: [Rect], gap: Double) -> Rect {
        var box = box
        var moving = true
        while moving {
            moving = false
            for r in above where r.intersects(box) {
                box.y = r.maxY + gap
                moving = true
            }
        }
        return box
    }

    /// The sweep after the flow jumped to position `i` (past blocks it had no need to look at):
    /// the boxes placed before `i` reaching below `top`, in reading order. Those this flow placed
    /// come from `placed` (the sweep so far); the others are where the index has them, and only
    /// the unchanged ones starting at most `index.maxHeight` above `top` can reach below it. A
    /// block this flow placed is never higher than the index has it, so one that left the sweep
    /// does not come back through the index.
    private func reaching(_ i: Int, top: Double, placed: [Placed], entries: [BlockIndex.Entry]) -> [Placed] {
        var out: [Placed] = []
        var k = 0
        var j = index.lowerBound(top - index.maxHeight - 1)
        lastExamined += i - j
        while j < i {
            while k < placed.count, placed[k].position < j {
                if placed[k].box.maxY > top { out.append(placed[k]) }
                k += 1
            }
            if k < placed.count, placed[k].position == j {
                if placed[k].box.maxY > top { out.append(placed[k]) }
                k += 1
            } else if entries[j].box.maxY > top {
                out.append(Placed(position: j, box: entries[j].box, changed: false))
            }
            j += 1
        }
        while k < placed.count, placed[k].position < i {
            if placed[k].box.maxY > top { out.append(placed[k]) }
            k += 1
        }
        return out
    }

    /// The flow as defined: every block in reading order, each checked against every block
    /// placed before it unless neither it nor any changed block near it changed. Used when the
    /// index cannot say what changed (the first flow of a part, a tree rewritten at once).
    func placeAll(_ blocks: [BlockData], gap: Double) -> (changes: [Change], moved: [BlockData]) {
        // Sorted as small keys, not as blocks: sorting the blocks themselves moved ~1,700 large
        // values per pen-up on the page of scripts/bench-latency (a third of the pen-up's time).
        // Ties (same top-left) keep the order of the root's children, so the flow is deterministic.
        lastExamined = blocks.count
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
                box = Self.pushedDown(box, past: placed, gap: gap)
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
    func forget() {
        boxes.removeAll()
        index.forget()
    }
}

extension Editor {
    /// Flows the root's children (see `BlockFlow`). The moves join the last undo step so undo
    /// restores the whole change at once; with `record` false (text laid out again for a new
    /// font or page) they are no step of their own.
    func relayout(anchor: String?, model m: PartModel, record: Bool = true) {
        guard !flow.held else { return }
        let moves = flow.place(model: m, gap: blockSpacing).changes
        guard !moves.isEmpty else { return }
        // Moved words are laid out afresh where they land (not just shifted), so that a block's
        // layout is always what laying it out again gives.
        let changes = layingOut(Transaction(changes: moves)).changes
        var dirty = Rect.zero
        for c in changes { dirty = dirty.union(apply(c, to: m)) }
        guard record else { renderer?.invalidate(nil); return }
        history.amendLast(changes)
        // Not read again: blocks already read moved with their words, and a reading still on
        // its way follows its block's ink when it comes back (`processPendingResults`).
        finishChange(blockIds: [], dirty: dirty, model: m)
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
