import Foundation
import InkModel

/// The root's child blocks sorted by the top of their boxes (then their left, then their order
/// among the root's children), kept in step with the model through its block log: a pen-up on a
/// page of thousands of blocks finds the block under the pen and the blocks a growing block may
/// push by binary search, and updates only the blocks that changed.
final class BlockIndex {
    struct Entry {
        var box: Rect
        /// Increases with the block's place in the root's `childIds` (ties between equal boxes).
        var rank: Int
        var id: String
    }

    /// Every child that exists, sorted by (top, left, rank).
    private(set) var entries: [Entry] = []
    /// Each indexed child's entry as it is in `entries` (to find it again).
    private var indexed: [String: Entry] = [:]
    /// Every id in the root's `childIds`, existing or not, with its rank.
    private var ranks: [String: Int] = [:]
    private var nextRank = 0
    /// The root's `childIds` as last read (shares the model's storage: no copy).
    private var children: [String] = []
    private weak var model: PartModel?
    private var cursor = 0
    /// At least the height of every indexed box: how far above a point a box holding it can start.
    private(set) var maxHeight = 0.0
    /// False when the tree cannot be indexed (an id twice among the root's children, a box not
    /// finite): callers then go through every child, as the flow is defined.
    private(set) var usable = false
    /// Blocks set or removed (children or not) since `takeTouched`.
    private var touched = Set<String>()
    /// True when the index was read afresh since `takeTouched`: what changed before is unknown.
    private var rebuilt = true
    /// Entries the last `sync` moved within `entries` (each insertion or removal moves those
    /// after it; a sort counts them all): tests check a flow that pushed the whole page down is
    /// taken in at once, not one shift of the page's entries per moved block.
    private(set) var shifted = 0

    /// Reads the model's changes since the last call (all of it the first time, for another part,
    /// or when the log no longer reaches back that far).
    func sync(_ m: PartModel) {
        shifted = 0
        guard model === m, let log = m.blockChanges(since: cursor) else { return rebuild(m) }
        guard !log.isEmpty else { cursor = m.blockLogEnd; return }
        guard usable else { return rebuild(m) }
        cursor = m.blockLogEnd
        var ids = Set(log)
        if ids.contains(m.rootId) {
            guard let (gone, added) = childrenDiff(m.root.childIds) else { return rebuild(m) }
            ids.formUnion(gone)
            ids.formUnion(added)
        }
        if ids.count > 64 {
            if !refreshMany(ids, m) { rebuild(m) }
            return
        }
        for id in ids where !refresh(id, m) { return rebuild(m) }
    }

    /// The ids touched since the last call, or nil when the index was rebuilt since (then any
    /// child may have changed).
    func takeTouched() -> Set<String>? {
        defer { touched.removeAll(); rebuilt = false }
        return rebuilt ? nil : touched
    }

    /// Forgets everything: the next `sync` reads the whole tree.
    func forget() {
        model = nil
        entries.removeAll(); indexed.removeAll(); ranks.removeAll(); children = []
        usable = false; rebuilt = true; touched.removeAll()
    }

    /// The entry of child `id`, if it exists.
    func entry(_ id: String) -> Entry? { indexed[id] }

    /// Where `e` is in `entries` (it must be indexed).
    func position(of e: Entry) -> Int { lowerBound(e.box.y, e.box.x, e.rank) }

    /// The first position whose key is not below (y, x, rank).
    func lowerBound(_ y: Double, _ x: Double = -.infinity, _ rank: Int = .min) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let e = entries[mid]
            if (e.box.y, e.box.x, e.rank) < (y, x, rank) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The last child in the root's order whose box, widened by `margin`, holds `p` (as a scan
    /// of `childIds` from the end would find); nil if none. Only while `usable`.
    func topmost(at p: Point, margin: Double) -> String? {
        // Boxes holding p start at most `margin` below it and at most their height above it; one
        // more millimetre either way absorbs rounding, and the exact test decides.
        var best: Entry?
        let end = lowerBound(p.y + margin + 1)
        var i = lowerBound(p.y - margin - maxHeight - 1)
        while i < end {
            let e = entries[i]
            if e.box.insetBy(dx: -margin, dy: -margin).contains(p), e.rank > best?.rank ?? .min { best = e }
            i += 1
        }
        return best?.id
    }

    /// The entries whose box intersects `r`, in the root's order. Only while `usable`.
    func intersecting(_ r: Rect) -> [Entry] {
        var out: [Entry] = []
        // A box meeting r starts above its bottom and at most its height above its top.
        let end = lowerBound(r.maxY)
        var i = lowerBound(r.y - maxHeight - 1)
        while i < end {
            if entries[i].box.intersects(r) { out.append(entries[i]) }
            i += 1
        }
        return out.sorted { $0.rank < $1.rank }
    }

    // MARK: keeping it in step

    private func rebuild(_ m: PartModel) {
        forget()
        model = m
        cursor = m.blockLogEnd
        children = m.root.childIds
        for id in children {
            guard ranks[id] == nil else { return }  // an id twice: not indexable
            ranks[id] = nextRank
            nextRank += 1
        }
        for id in children {
            guard let b = m.blocks[id] else { continue }
            guard b.box.y.isFinite, b.box.x.isFinite, b.box.height.isFinite else { return }
            let e = Entry(box: b.box, rank: ranks[id]!, id: id)
            entries.append(e)
            indexed[id] = e
            maxHeight = max(maxHeight, b.box.height)
        }
        entries.sort { ($0.box.y, $0.box.x, $0.rank) < ($1.box.y, $1.box.x, $1.rank) }
        shifted = entries.count
        usable = true
    }

    /// Brings the ranks up to the root's new `childIds`: children kept in their order keep their
    /// rank, the others go, and the rest (new, or moved after others) get new ranks at the end.
    /// Returns the ids gone and added, or nil when the change is not of that kind cheaply (an id
    /// twice, or many children reordered): the caller rebuilds.
    private func childrenDiff(_ new: [String]) -> (gone: [String], added: [String])? {
        if new == children { return ([], []) }
        var gone: [String] = [], i = 0, j = 0
        while i < children.count {
            if j < new.count, new[j] == children[i] { j += 1 } else { gone.append(children[i]) }
            i += 1
        }
        let added = Array(new[j...])
        // Each child gone or re-ranked is an update of the sorted entries: past a few dozen
        // (a page cleared, a block put back far up), sorting them afresh is as cheap.
        guard gone.count + added.count <= 64 else { return nil }
        for id in gone { ranks[id] = nil }
        for id in added {
            guard ranks[id] == nil else { return nil }
            ranks[id] = nextRank
            nextRank += 1
        }
        children = new
        return (gone, added)
    }

    /// The entry child `id` has in the model now: `.some(nil)` when it is no longer a child, nil
    /// when its box cannot be indexed (not finite).
    private func entryNow(_ id: String, _ m: PartModel) -> Entry?? {
        guard let rank = ranks[id], let b = m.blocks[id] else { return .some(nil) }
        guard b.box.y.isFinite, b.box.x.isFinite, b.box.height.isFinite else { return nil }
        return .some(Entry(box: b.box, rank: rank, id: id))
    }

    /// Re-reads child `id` (or its absence); false when it cannot be indexed.
    private func refresh(_ id: String, _ m: PartModel) -> Bool {
        // Touched even when it is back where the index had it: in between, a flow may have moved
        // it and an undo put it back, and the flow must compare it with where it left it.
        touched.insert(id)
        let old = indexed[id]
        guard let new = entryNow(id, m) else { return false }
        if old?.box == new?.box && old?.rank == new?.rank { return true }
        if let old {
            let p = position(of: old)
            shifted += entries.count - p
            entries.remove(at: p)
        }
        if let new {
            let p = lowerBound(new.box.y, new.box.x, new.rank)
            shifted += entries.count - p
            entries.insert(new, at: p)
            maxHeight = max(maxHeight, new.box.height)
        }
        indexed[id] = new
        return true
    }

    /// `refresh` of many children at once (a flow that pushed the page below moved them all):
    /// the entries are updated where they are and sorted once, nearly in order already, instead
    /// of a removal and an insertion per child, each moving every entry after it.
    private func refreshMany(_ ids: Set<String>, _ m: PartModel) -> Bool {
        // Where each changed child is, found while the entries are still sorted.
        var updates: [(position: Int?, entry: Entry?)] = []
        for id in ids {
            touched.insert(id)
            let old = indexed[id]
            guard let new = entryNow(id, m) else { return false }
            if old?.box == new?.box && old?.rank == new?.rank { continue }
            updates.append((old.map(position(of:)), new))
            indexed[id] = new
            if let new { maxHeight = max(maxHeight, new.box.height) }
        }
        guard !updates.isEmpty else { return true }
        var gone: Set<Int> = []
        for u in updates {
            switch (u.position, u.entry) {
            case let (p?, e?): entries[p] = e
            case let (p?, nil): gone.insert(p)
            case let (nil, e?): entries.append(e)
            case (nil, nil): break
            }
        }
        if !gone.isEmpty { entries = entries.enumerated().filter { !gone.contains($0.offset) }.map(\.element) }
        entries.sort { ($0.box.y, $0.box.x, $0.rank) < ($1.box.y, $1.box.x, $1.rank) }
        shifted += entries.count
        return true
    }
}
