import Foundation

/// One primitive change of a part, as its journal records it (`PartModel.changes(since:)`).
public enum PartChange: Equatable, Sendable {
    /// A stroke inserted (`old` nil), replaced (moved, recoloured, given to another block) or
    /// removed (`new` nil); both as they were then, in model millimetres.
    case stroke(old: InkStroke?, new: InkStroke?)
    /// Every stroke then held by `block` moved by whole 1/100 mm.
    case inkMoved(block: String, unitsX: Int32, unitsY: Int32)
    /// A block added (`old` nil), changed or removed (`new` nil).
    case block(old: BlockData?, new: BlockData?)
    /// An image's bytes set or removed.
    case image(entry: String)
    /// Nothing drawn changed (metadata, `touch()`).
    case other
}

/// The last few thousand changes of a part, one per revision, so a reader that looked at the part
/// at some revision (the window's renderer, once per frame) learns what changed since without
/// comparing the whole part. Older entries are dropped: a reader that far behind gets nil and
/// compares instead.
struct ChangeJournal {
    /// The part's revision before `entries[0]`.
    private var base: Int
    private var entries: [PartChange] = []
    /// Entries kept at most; past it the older half goes (amortised O(1) per change).
    static let capacity = 4096

    init(revision: Int) { base = revision }

    /// Records the change that took the part to `revision`.
    mutating func append(_ change: PartChange, revision: Int) {
        // Every change bumps the revision by one; anything else (a revision moved without an
        // entry) restarts the journal rather than let it misreport.
        if base &+ entries.count &+ 1 != revision {
            entries.removeAll(keepingCapacity: true)
            base = revision &- 1
        }
        entries.append(change)
        if entries.count > Self.capacity {
            let drop = entries.count / 2
            entries.removeFirst(drop)
            base = base &+ drop
        }
    }

    /// The changes after `revision` up to `now`, oldest first; nil when they are not all kept.
    func changes(since revision: Int, now: Int) -> ArraySlice<PartChange>? {
        guard base &+ entries.count == now else { return nil }
        let start = revision &- base
        guard start >= 0, start <= entries.count else { return nil }
        return entries[start...]
    }
}
