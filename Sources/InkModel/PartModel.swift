import Foundation

/// The content of one part: strokes, the block tree, images and metadata.
///
/// Not thread-safe: the editor confines it to one thread and hands copies (value types) to workers.
public final class PartModel {
    /// Part types and the type of their root block.
    public static let rootBlockType: [String: String] = [
        "Text": "Text", "Math": "Math", "Drawing": "Drawing", "Diagram": "Diagram",
        "Raw Content": "Raw Content", "Text Document": "Container",
    ]
    public static let partTypes = ["Text", "Math", "Drawing", "Diagram", "Raw Content", "Text Document"]

    /// The configuration key prefix for a part type ("Text Document" -> "text-document").
    public static func configPrefix(_ type: String) -> String {
        type.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    public let id: String
    public let type: String
    public let metadata: ParameterSet
    public private(set) var strokes: [String: InkStroke] = [:]
    public private(set) var blocks: [String: BlockData] = [:]
    public private(set) var rootId: String
    /// Image bytes by entry name ("images/<name>").
    public private(set) var images: [String: Data] = [:]
    private var strokeIdsByBlock: [String: Set<String>] = [:]
    var nextStroke: Int64 = 1
    var nextBlock: Int64 = 1
    /// Bumped on every change; packages compare it to know what is unsaved.
    public private(set) var revision: Int = 0

    public init(id: String, type: String) throws {
        guard let rootType = Self.rootBlockType[type] else {
            throw QuireError(.invalidPartType, "unknown part type '\(type)'; supported: \(Self.partTypes.joined(separator: ", "))")
        }
        self.id = id
        self.type = type
        self.metadata = ParameterSet()
        self.rootId = "b0"
        blocks["b0"] = BlockData(id: "b0", type: rootType, box: .zero)
        metadata.onChange = nil
    }

    /// Restores a part from decoded storage (the caller validated the pieces).
    init(id: String, type: String, metadata: ParameterSet, strokes: [InkStroke], blocks: [BlockData], rootId: String,
         images: [String: Data], nextStroke: Int64, nextBlock: Int64) {
        self.id = id; self.type = type; self.metadata = metadata; self.rootId = rootId
        self.images = images; self.nextStroke = nextStroke; self.nextBlock = nextBlock
        for b in blocks { self.blocks[b.id] = b }
        for s in strokes { self.strokes[s.id] = s; strokeIdsByBlock[s.blockId ?? rootId, default: []].insert(s.id); maxSeq = max(maxSeq, s.seq) }
    }

    public var root: BlockData { blocks[rootId]! }

    public func makeStrokeId() -> String { defer { nextStroke += 1 }; return "s\(nextStroke)" }
    public func makeBlockId() -> String { defer { nextBlock += 1 }; return "b\(nextBlock)" }
    private var maxSeq: Int64 = 0
    /// A sequence number above every stroke's (kept incrementally: this runs on every pen-up).
    public func nextSeq() -> Int64 { maxSeq + 1 }

    /// Marks the part changed (metadata edits and similar go through here).
    public func touch() { revision &+= 1 }

    // MARK: primitive mutations (each is undoable by its inverse)

    public func insertStroke(_ s: InkStroke) {
        if let old = strokes[s.id] { strokeIdsByBlock[old.blockId ?? rootId]?.remove(old.id) }
        strokes[s.id] = s
        strokeIdsByBlock[s.blockId ?? rootId, default: []].insert(s.id)
        maxSeq = max(maxSeq, s.seq)
        revision &+= 1
    }

    @discardableResult public func removeStroke(id: String) -> InkStroke? {
        guard let s = strokes.removeValue(forKey: id) else { return nil }
        strokeIdsByBlock[s.blockId ?? rootId]?.remove(id)
        revision &+= 1
        return s
    }

    /// Moves every stroke of a block (not its children) by whole 1/100 mm, in place; returns the
    /// area they covered before and after. Cheap per stroke: flowing blocks down moves pages of ink.
    @discardableResult
    public func translateStrokes(inBlock id: String, unitsX qx: Int32, unitsY qy: Int32) -> Rect {
        guard qx != 0 || qy != 0, let ids = strokeIdsByBlock[id] else { return .zero }
        var area = Rect.zero
        for sid in ids { strokes[sid]?.translate(unitsX: qx, unitsY: qy, growing: &area) }
        revision &+= 1
        let u = InkStroke.unitsPerMillimetre
        return area.union(area.offsetBy(dx: -Double(qx) / u, dy: -Double(qy) / u))
    }

    public func setBlock(_ b: BlockData) {
        blocks[b.id] = b
        revision &+= 1
    }

    @discardableResult public func removeBlock(id: String) -> BlockData? {
        guard id != rootId, let b = blocks.removeValue(forKey: id) else { return nil }
        revision &+= 1
        return b
    }

    public func setImage(_ data: Data?, entry: String) {
        images[entry] = data
        revision &+= 1
    }

    /// Ids of the strokes held by a block (not its children).
    public func strokeIds(inBlock id: String) -> Set<String> { strokeIdsByBlock[id] ?? [] }

    /// Strokes of a block in creation order.
    public func strokes(inBlock id: String) -> [InkStroke] {
        strokeIds(inBlock: id).compactMap { strokes[$0] }.sorted { $0.seq < $1.seq }
    }

    /// All strokes in creation order.
    public var orderedStrokes: [InkStroke] { strokes.values.sorted { $0.seq < $1.seq } }

    /// A deep copy with the same ids (clonePart keeps ids: they are unique within a part only).
    public func clone(newId: String) -> PartModel {
        PartModel(id: newId, type: type, metadata: metadata.copy(), strokes: Array(strokes.values),
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
