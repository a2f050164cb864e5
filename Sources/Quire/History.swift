import Foundation
import InkModel

/// One primitive model change; undo applies the inverse.
enum Change {
    case stroke(old: InkStroke?, new: InkStroke?)
    case block(old: BlockData?, new: BlockData?)
    case image(entry: String, old: Data?, new: Data?)
    /// Every stroke of a block moved by whole 1/100 mm (a block flowing down): one record per block
    /// instead of two stroke copies per stroke.
    case shiftInk(blockId: String, dx: Int32, dy: Int32)

    var inverse: Change {
        switch self {
        case .stroke(let o, let n): .stroke(old: n, new: o)
        case .block(let o, let n): .block(old: n, new: o)
        case .image(let e, let o, let n): .image(entry: e, old: n, new: o)
        case .shiftInk(let b, let dx, let dy): .shiftInk(blockId: b, dx: 0 &- dx, dy: 0 &- dy)
        }
    }
}

/// A group of changes undone and redone as one step.
struct Transaction {
    var changes: [Change] = []
    var isEmpty: Bool { changes.isEmpty }

    /// Recognition rewrites a block's words outside the history, when its results come in. A
    /// step that changes the ink of a block holding words therefore also records the block as it
    /// is (first, so undo restores it last): undo then gives back its words with the user's
    /// candidate picks and styles, which the reading that follows keeps, instead of leaving words
    /// of the step's ink that a fresh reading replaces without them.
    func keepingWords(_ m: PartModel) -> Transaction {
        var inked: [String] = []
        var recorded = Set<String>()
        for c in changes {
            switch c {
            case .stroke(let o, let n):
                for s in [o, n].compactMap({ $0 }) where !inked.contains(s.blockId ?? m.rootId) { inked.append(s.blockId ?? m.rootId) }
            case .block(let o, let n):
                if let b = o ?? n { recorded.insert(b.id) }
            case .image, .shiftInk:
                break
            }
        }
        let kept: [Change] = inked.compactMap { id in
            guard !recorded.contains(id), let b = m.blocks[id], !b.words.isEmpty else { return nil }
            return .block(old: b, new: b)
        }
        return kept.isEmpty ? self : Transaction(changes: kept + changes)
    }

    /// The blocks the changes touch (each once; a stroke without a block is the root's).
    func affectedBlocks(rootId: String) -> [String] {
        var ids: [String] = []
        for c in changes {
            switch c {
            case .stroke(let o, let n): ids.append(o?.blockId ?? n?.blockId ?? rootId); if let n { ids.append(n.blockId ?? rootId) }
            case .block(let o, let n): ids.append((o ?? n)!.id)
            case .image: break
            case .shiftInk(let b, _, _): ids.append(b)
            }
        }
        return Array(Set(ids))
    }
}

/// The editor's undo and redo stacks, and the only code that changes them: every other part
/// records its `Change`s through here, so the order of steps is decided in one place.
final class History {
    private var undoStack: [Transaction] = []
    private var redoStack: [Transaction] = []

    var canUndo: Bool { !undoStack.isEmpty }
    var canRedo: Bool { !redoStack.isEmpty }
    /// How many steps can be undone.
    var undoCount: Int { undoStack.count }
    /// How many changes the undo stack holds (what undo keeps in memory grows with it).
    var undoChangeCount: Int { undoStack.reduce(0) { $0 + $1.changes.count } }

    /// A new undoable step; what could be redone is gone.
    func record(_ t: Transaction) {
        undoStack.append(t)
        redoStack.removeAll()
    }

    /// Changes that follow from the last step (blocks the flow moved after it) join it, so undo
    /// restores the whole change at once; with no step yet they are one of their own.
    func amendLast(_ changes: [Change]) {
        if var last = undoStack.popLast() {
            last.changes += changes
            undoStack.append(last)
        } else {
            undoStack.append(Transaction(changes: changes))
        }
    }

    /// The step to undo, moved to the redo stack (the caller applies its inverse).
    func takeUndo() -> Transaction? {
        guard let t = undoStack.popLast() else { return nil }
        redoStack.append(t)
        return t
    }

    /// The step to redo, moved back to the undo stack (the caller applies it).
    func takeRedo() -> Transaction? {
        guard let t = redoStack.popLast() else { return nil }
        undoStack.append(t)
        return t
    }

    /// Both stacks, kept while another part is attached (a notebook's other pages).
    struct Saved {
        fileprivate let undo: [Transaction]
        fileprivate let redo: [Transaction]
    }

    func saved() -> Saved { Saved(undo: undoStack, redo: redoStack) }

    /// Puts back the stacks of the part attached again, as they were when it was left.
    func restore(_ s: Saved) {
        undoStack = s.undo
        redoStack = s.redo
    }

    /// Forgets every step (another part was attached).
    func clear() {
        undoStack.removeAll()
        redoStack.removeAll()
    }
}
