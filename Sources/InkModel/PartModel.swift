import Foundation

/// The content of one part: strokes, the block tree, images and metadata.
///
/// Not thread-safe: the editor confines it to one thread and hands copies (value types) to workers.
public final class PartModel {
    /// Part types and the type of their root block.
    public static let rootBlockType: [String: String] = Dictionary(uniqueKeysWithValues:
        PartType.allCases.map { ($0.rawValue, $0.rootBlockType.rawValue) })
    public static let partTypes = PartType.allCases.map(\.rawValue)

    /// The configuration key prefix for a part type ("Text Document" -> "text-document").
    public static func configPrefix(_ type: String) -> String {
        type.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    public let id: String
    /// The part's kind (checked when the part was created or read).
    public let kind: PartType
    /// The SDK's type string of `kind`.
    public var type: String { kind.rawValue }
    public let metadata: ParameterSet
    /// Strokes by id, in model millimetres (see `StrokeTable`).
    public var strokes: StrokeTable { StrokeTable(raw: rawStrokes, shifts: inkShifts, rootId: rootId) }
    /// Strokes as drawn; a stroke's block shift (`inkShifts`) is added when it is read.
    private var rawStrokes: [String: InkStroke] = [:]
    /// How far each block's ink has moved, in 1/100 mm: moving a block's ink is one entry, not a
    /// write per stroke (blocks flowing down move pages of ink on a pen-up).
    private var inkShifts: [String: (x: Int32, y: Int32)] = [:]
    /// Per block, bumped whenever its ink changes (renderers cache per block on it).
    private var inkRevisions: [String: Int] = [:]
    /// Per block, a rectangle holding every stroke ever inserted, before shifting (grows only).
    private var rawInkExtents: [String: Rect] = [:]
    public private(set) var blocks: [String: BlockData] = [:]
    public private(set) var rootId: String
    /// Image bytes by entry name ("images/<name>").
    public private(set) var images: [String: Data] = [:]
    private var strokeIdsByBlock: [String: Set<String>] = [:]
    var nextStroke: Int64 = 1
    var nextBlock: Int64 = 1
    /// Bumped on every change; packages compare it to know what is unsaved.
    public private(set) var revision: Int = 0
    /// What each recent revision changed (see `changes(since:)`).
    private var journal = ChangeJournal(revision: 0)

    public init(id: String, type: String) throws {
        guard let kind = PartType(rawValue: type) else {
            throw QuireError(.invalidPartType, "unknown part type '\(type)'; supported: \(Self.partTypes.joined(separator: ", "))")
        }
        self.id = id
        self.kind = kind
        self.metadata = ParameterSet()
        self.rootId = "b0"
        blocks["b0"] = BlockData(id: "b0", type: kind.rootBlockType.rawValue, box: .zero)
        metadata.onChange = nil
    }

    /// Restores a part from decoded storage (the caller validated the pieces).
    init(id: String, kind: PartType, metadata: ParameterSet, strokes: [InkStroke], blocks: [BlockData], rootId: String,
         images: [String: Data], nextStroke: Int64, nextBlock: Int64) {
        self.id = id; self.kind = kind; self.metadata = metadata; self.rootId = rootId
        self.images = images; self.nextStroke = nextStroke; self.nextBlock = nextBlock
        for b in blocks { self.blocks[b.id] = b }
        for s in strokes {
            rawStrokes[s.id] = s
            strokeIdsByBlock[s.blockId ?? rootId, default: []].insert(s.id)
            rawInkExtents[s.blockId ?? rootId] = rawInkExtents[s.blockId ?? rootId].map { $0.union(s.bounds) } ?? s.bounds
            maxSeq = max(maxSeq, s.seq)
        }
    }

    public var root: BlockData { blocks[rootId]! }

    public func makeStrokeId() -> String { defer { nextStroke += 1 }; return "s\(nextStroke)" }
    public func makeBlockId() -> String { defer { nextBlock += 1 }; return "b\(nextBlock)" }
    private var maxSeq: Int64 = 0

    /// Moves the id counters past every `s<n>` and `b<n>` id in the part, so that ids made later
    /// stay unique in a part filled with ids from elsewhere (a Quire JSON import keeps its ids).
    public func advanceIdCounters() {
        func number(_ id: String, _ prefix: Character) -> Int64? { id.first == prefix ? Int64(id.dropFirst()) : nil }
        for id in rawStrokes.keys { if let n = number(id, "s"), n >= nextStroke, n < .max { nextStroke = n + 1 } }
        for id in blocks.keys { if let n = number(id, "b"), n >= nextBlock, n < .max { nextBlock = n + 1 } }
    }
    /// A sequence number above every stroke's (kept incrementally: this runs on every pen-up); a
    /// part holding seq `Int64.max` (any value is valid in a file) gets `Int64.max` again, not a trap.
    public func nextSeq() -> Int64 { maxSeq == .max ? .max : maxSeq + 1 }

    /// Marks the part changed (metadata edits and similar go through here).
    public func touch() { record(.other) }

    /// The changes made since the part was at `revision`, oldest first, one per revision (a
    /// renderer reads them instead of comparing the whole part); nil when `revision` is older than
    /// the last few thousand changes.
    public func changes(since revision: Int) -> ArraySlice<PartChange>? {
        journal.changes(since: revision, now: self.revision)
    }

    /// Bumps the revision and journals what changed: every mutation ends here.
    private func record(_ change: PartChange) {
        revision &+= 1
        journal.append(change, revision: revision)
    }

    // MARK: primitive mutations (each is undoable by its inverse)

    public func insertStroke(_ s: InkStroke) {
        let old = rawStrokes[s.id].map { StrokeTable.shifted($0, inkShifts, rootId) }
        if let old {
            strokeIdsByBlock[old.blockId ?? rootId]?.remove(old.id)
            inkRevisions[old.blockId ?? rootId, default: 0] &+= 1
        }
        inkRevisions[s.blockId ?? rootId, default: 0] &+= 1
        var raw = s
        if let d = inkShifts[s.blockId ?? rootId] { raw.translate(unitsX: 0 &- d.x, unitsY: 0 &- d.y) }
        rawStrokes[s.id] = raw
        strokeIdsByBlock[s.blockId ?? rootId, default: []].insert(s.id)
        rawInkExtents[s.blockId ?? rootId] = rawInkExtents[s.blockId ?? rootId].map { $0.union(raw.bounds) } ?? raw.bounds
        maxSeq = max(maxSeq, s.seq)
        record(.stroke(old: old, new: s))
    }

    @discardableResult public func removeStroke(id: String) -> InkStroke? {
        guard let s = rawStrokes.removeValue(forKey: id) else { return nil }
        strokeIdsByBlock[s.blockId ?? rootId]?.remove(id)
        inkRevisions[s.blockId ?? rootId, default: 0] &+= 1
        let removed = StrokeTable.shifted(s, inkShifts, rootId)
        record(.stroke(old: removed, new: nil))
        return removed
    }

    /// Moves every stroke of a block (not its children) by whole 1/100 mm in O(1), whatever the
    /// amount of ink. Exact: moving back restores every coordinate.
    public func translateStrokes(inBlock id: String, unitsX qx: Int32, unitsY qy: Int32) {
        guard qx != 0 || qy != 0 else { return }
        let d = inkShifts[id] ?? (0, 0)
        inkShifts[id] = (d.x &+ qx, d.y &+ qy)
        inkRevisions[id, default: 0] &+= 1
        record(.inkMoved(block: id, unitsX: qx, unitsY: qy))
    }

    public func setBlock(_ b: BlockData) {
        let old = blocks.updateValue(b, forKey: b.id)
        record(.block(old: old, new: b))
    }

    @discardableResult public func removeBlock(id: String) -> BlockData? {
        guard id != rootId, let b = blocks.removeValue(forKey: id) else { return nil }
        record(.block(old: b, new: nil))
        return b
    }

    // MARK: the block log

    /// The position after the last change, for `blockChanges(since:)`: the part's revision.
    public var blockLogEnd: Int { revision }

    /// Ids of the blocks set or removed since `cursor` (a `blockLogEnd`), oldest first and as often
    /// as each changed, read from the change journal: what lets an observer (the editor's block
    /// flow and index) follow the block tree without comparing every block on every pen-up. Nil
    /// when the journal no longer reaches back that far.
    public func blockChanges(since cursor: Int) -> [String]? {
        changes(since: cursor)?.compactMap { change in
            if case let .block(old, new) = change { return (new ?? old)?.id }
            return nil
        }
    }

    public func setImage(_ data: Data?, entry: String) {
        images[entry] = data
        record(.image(entry: entry))
    }

    /// A rectangle (mm) holding the centre lines of every stroke of a block, or nil if it never had
    /// any. Cheap, and never smaller than the ink: it may still cover strokes since removed.
    public func inkExtent(inBlock id: String) -> Rect? {
        guard let r = rawInkExtents[id] else { return nil }
        guard let d = inkShifts[id] else { return r }
        return r.offsetBy(dx: Double(d.x) / InkStroke.unitsPerMillimetre, dy: Double(d.y) / InkStroke.unitsPerMillimetre)
    }

    /// Changes whenever the ink of block `id` changes (strokes added, removed or moved).
    public func inkRevision(ofBlock id: String) -> Int { inkRevisions[id] ?? 0 }

    /// Ids of the blocks holding strokes, including ids of blocks that no longer exist.
    public var blockIdsWithInk: [String] { strokeIdsByBlock.compactMap { $0.value.isEmpty ? nil : $0.key } }

    /// Ids of the strokes held by a block (not its children).
    public func strokeIds(inBlock id: String) -> Set<String> { strokeIdsByBlock[id] ?? [] }

    /// Strokes of a block in creation order; pieces of one erased stroke share its seq, so ties go
    /// by id (set order would change with the set's history, and so would what is read from them).
    public func strokes(inBlock id: String) -> [InkStroke] {
        let d = inkShifts[id]
        return strokeIds(inBlock: id).compactMap { sid -> InkStroke? in
            guard var s = rawStrokes[sid] else { return nil }
            if let d { s.translate(unitsX: d.x, unitsY: d.y) }
            return s
        }.sorted { ($0.seq, $0.id) < ($1.seq, $1.id) }
    }

    /// All strokes in creation order (pieces of one erased stroke share its seq: then by id).
    public var orderedStrokes: [InkStroke] { strokes.values.sorted { ($0.seq, $0.id) < ($1.seq, $1.id) } }

    /// A deep copy with the same ids (clonePart keeps ids: they are unique within a part only).
    public func clone(newId: String) -> PartModel {
        PartModel(id: newId, kind: kind, metadata: metadata.copy(), strokes: Array(strokes.values),
                  blocks: Array(blocks.values), rootId: rootId, images: images,
                  nextStroke: nextStroke, nextBlock: nextBlock)
    }

    /// Blocks in tree order (depth first), starting at the root.
    public func blocksInTreeOrder() -> [BlockData] {
        var out: [BlockData] = []
        var seen = Set<String>()
        func visit(_ id: String) {
            guard !seen.contains(id), let b = blocks[id] else { return }
            seen.insert(id); out.append(b)
            for c in b.childIds { visit(c) }
        }
        visit(rootId)
        return out
    }

    /// Number of samples over all strokes.
    public var pointCount: Int { strokes.values.reduce(0) { $0 + $1.count } }
}

/// A part's strokes by id, as a value: what `PartModel.strokes` returns. Reads like a dictionary
/// (`[id]`, `values`, `keys`, `count`, `isEmpty`); each stroke comes with its block's ink shift
/// applied, so it is in model millimetres wherever its block has moved.
public struct StrokeTable: Equatable, Sendable {
    let raw: [String: InkStroke]
    let shifts: [String: (x: Int32, y: Int32)]
    let rootId: String

    static func shifted(_ s: InkStroke, _ shifts: [String: (x: Int32, y: Int32)], _ rootId: String) -> InkStroke {
        guard !shifts.isEmpty, let d = shifts[s.blockId ?? rootId] else { return s }
        var t = s
        t.translate(unitsX: d.x, unitsY: d.y)
        return t
    }

    public subscript(id: String) -> InkStroke? { raw[id].map { Self.shifted($0, shifts, rootId) } }

    /// The ids in `PartModel.orderedStrokes` order, without copying the strokes (a save of a large
    /// part reads them one at a time).
    func orderedIds() -> [String] {
        raw.values.map { (seq: $0.seq, id: $0.id) }.sorted { ($0.seq, $0.id) < ($1.seq, $1.id) }.map(\.id)
    }
    public var count: Int { raw.count }
    public var isEmpty: Bool { raw.isEmpty }
    public var keys: Dictionary<String, InkStroke>.Keys { raw.keys }
    public var values: LazyMapCollection<Dictionary<String, InkStroke>.Values, InkStroke> {
        let shifts = shifts, rootId = rootId
        return raw.values.lazy.map { Self.shifted($0, shifts, rootId) }
    }

    public static func == (a: StrokeTable, b: StrokeTable) -> Bool {
        guard a.count == b.count else { return false }
        for (id, s) in a.raw { guard let t = b[id], Self.shifted(s, a.shifts, a.rootId) == t else { return false } }
        return true
    }
}
