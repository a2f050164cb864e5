import Foundation
import InkModel

/// Quire's own clipboard type: a copied block with its ink and images, so that pasting into
/// another Quire process (through the X11 CLIPBOARD selection) gives back the block itself.
extension MimeType {
    public static let quireClipboard = MimeType("application/x-quire-block")
}

/// What `copy` puts aside for `paste`: a block with its descendants, strokes and images (values).
struct ClipboardPayload: Sendable {
    var blocks: [BlockData]
    var strokes: [InkStroke]
    var images: [String: Data]
}

/// Quire's clipboard, one per engine: a block or selection copied in one editor pastes into any
/// editor of the same engine (another part, another package), while separate engines (a form's
/// and a test's, tests running side by side) never see each other's copies. Another process gets
/// a copy through the X11 CLIPBOARD as data (`copyData`, `paste(data:at:)`).
final class ClipboardStore: @unchecked Sendable {
    /// The engines' stores, by engine; an entry whose engine is gone is dropped (and never
    /// handed to a new engine that happens to reuse its address).
    private final class Entry {
        weak var engine: Engine?
        let store = ClipboardStore()
        init(_ engine: Engine) { self.engine = engine }
    }
    private static let tableLock = NSLock()
    nonisolated(unsafe) private static var table: [ObjectIdentifier: Entry] = [:]

    /// The clipboard of `engine`.
    static func of(_ engine: Engine) -> ClipboardStore {
        tableLock.withLock {
            let key = ObjectIdentifier(engine)
            if let e = table[key], e.engine === engine { return e.store }
            table = table.filter { $0.value.engine != nil }
            let e = Entry(engine)
            table[key] = e
            return e.store
        }
    }

    private let lock = NSLock()
    private var payload: ClipboardPayload?
    private var selectionPayload: SelectionPayload?
    /// A copied block (nil when a selection was copied last).
    var value: ClipboardPayload? { lock.withLock { payload } }
    /// A copied lasso selection (nil when a block was copied last).
    var selection: SelectionPayload? { lock.withLock { selectionPayload } }
    func set(_ p: ClipboardPayload?) { lock.withLock { payload = p; selectionPayload = nil } }
    func set(_ p: SelectionPayload?) { lock.withLock { selectionPayload = p; payload = nil } }
    /// Both, to put back what was there before a paste of data.
    var saved: (ClipboardPayload?, SelectionPayload?) { lock.withLock { (payload, selectionPayload) } }
    func restore(_ s: (ClipboardPayload?, SelectionPayload?)) { lock.withLock { (payload, selectionPayload) = s } }
}

extension Editor {
    /// This editor's engine's clipboard.
    var clipboard: ClipboardStore { ClipboardStore.of(engine) }

    /// Puts a block (with its ink and images) on Quire's clipboard.
    public func copy(_ block: ContentBlock) throws {
        let m = try requirePart()
        let b = try block.checkValid()
        guard b.id != m.rootId else { throw QuireError(.unsupportedOperation, "the root block cannot be copied; copy its children") }
        var blocks: [BlockData] = [], strokes: [InkStroke] = [], images: [String: Data] = [:]
        func visit(_ id: String) {
            guard let d = m.blocks[id] else { return }
            blocks.append(d)
            strokes += m.strokes(inBlock: id)
            if let img = d.image { images[img.entry] = m.images[img.entry] }
            d.childIds.forEach(visit)
        }
        visit(b.id)
        clipboard.set(ClipboardPayload(blocks: blocks, strokes: strokes, images: images))
    }

    /// True when there is something to paste.
    public var canPaste: Bool { clipboard.value != nil || clipboard.selection != nil }

    /// Pastes the clipboard at a view point: a copied block (Text Document only) as a deep copy
    /// with new ids, or a copied lasso selection (any part type, see `SelectionClipboard.swift`).
    public func paste(at point: Point) throws {
        guard point.x.isFinite, point.y.isFinite else { throw QuireError(.invalidArgument, "paste: point must be finite") }
        if let sel = clipboard.selection { return try paste(sel, at: point) }
        let m = try requireTextDocument("paste")
        guard let payload = clipboard.value, let top = payload.blocks.first else {
            throw QuireError(.unsupportedOperation, "nothing to paste")
        }
        let p = toModel(point.x, point.y)
        var seq = m.nextSeq()
        let (changes, ids) = try pastedTree(payload, dx: max(0, p.x) - top.box.x, dy: max(0, p.y) - top.box.y, model: m, seq: &seq)
        let newTop = ids[top.id]!
        var root = m.root
        let old = root
        root.childIds.append(newTop)
        // Every pasted block is read where it lands (and reported), not only the top one: words
        // another process sent need not match the ink, and an undo and redo would read them.
        commit(Transaction(changes: changes + [.block(old: old, new: root)]), affecting: payload.blocks.compactMap { ids[$0.id] })
        relayout(anchor: newTop, model: m)
    }

    /// The changes that add a copied block tree moved by (dx, dy) mm, with new block and stroke
    /// ids (returned by old block id), and strokes numbered from `seq`. The top block's parent is
    /// the root; the caller adds it to the root's children.
    func pastedTree(_ payload: ClipboardPayload, dx: Double, dy: Double, model m: PartModel, seq: inout Int64) throws -> ([Change], [String: String]) {
        guard let top = payload.blocks.first else { return ([], [:]) }
        var ids: [String: String] = [:]
        for b in payload.blocks { ids[b.id] = m.makeBlockId() }
        var strokeIds: [String: String] = [:]
        for s in payload.strokes { strokeIds[s.id] = m.makeStrokeId() }
        // Another process may name in a word a stroke it filed under another block: a word keeps
        // only its own block's strokes, or it would point at ink outside it.
        var strokeBlock: [String: String] = [:]
        for s in payload.strokes { strokeBlock[s.id] = s.blockId }
        var changes: [Change] = []
        for b in payload.blocks {
            var nb = b
            nb.id = ids[b.id]!
            nb.parentId = b.id == top.id ? m.rootId : b.parentId.flatMap { ids[$0] }
            nb.childIds = b.childIds.compactMap { ids[$0] }
            nb.box = b.box.offsetBy(dx: dx, dy: dy)
            nb.words = b.words.map { w in
                var w = w
                if w.box != .zero { w.box = w.box.offsetBy(dx: dx, dy: dy) }  // as in moveChanges
                func own(_ id: String) -> String? { strokeBlock[id] == b.id ? strokeIds[id] : nil }
                w.strokeIds = w.strokeIds.compactMap(own)
                w.chars = w.chars.map { var c = $0; if c.box != .zero { c.box = c.box.offsetBy(dx: dx, dy: dy) }; c.strokeIds = c.strokeIds.compactMap(own); return c }
                return w
            }
            // Moved to the paste point, a box far from the copied top block can leave the range
            // a package holds: the document would save but not open again.
            if let problem = nb.boxProblem { throw QuireError(.invalidArgument, "cannot paste there: \(problem)") }
            if let img = b.image {
                let entry = "images/\(nb.id)." + (img.mimeType == MimeType.png.typeName ? "png" : "jpg")
                nb.image?.entry = entry
                changes.append(.image(entry: entry, old: nil, new: payload.images[img.entry]))
            }
            changes.append(.block(old: nil, new: nb))
        }
        try Self.checkRange(payload.strokes, dx: dx, dy: dy)
        for s in payload.strokes {
            var ns = s.translated(dx: dx, dy: dy)
            ns.id = strokeIds[s.id]!
            ns.blockId = s.blockId.flatMap { ids[$0] }
            ns.seq = seq
            if seq < .max { seq += 1 }
            changes.append(.stroke(old: nil, new: ns))
        }
        return (changes, ids)
    }

    /// Ink moved past ±21 km (Int32 hundredths of a millimetre) would wrap around to the other
    /// end of the page; like a box out of range, that place is refused.
    static func checkRange(_ strokes: [InkStroke], dx: Double, dy: Double) throws {
        let qx = Int64(InkStroke.quantize(dx)), qy = Int64(InkStroke.quantize(dy))
        for s in strokes {
            let b = s.unitBounds
            guard Int64(b.minX) + qx >= Int64(Int32.min), Int64(b.maxX) + qx <= Int64(Int32.max),
                  Int64(b.minY) + qy >= Int64(Int32.min), Int64(b.maxY) + qy <= Int64(Int32.max) else {
                throw QuireError(.invalidArgument, "cannot paste there: stroke '\(s.id)' would leave the range of coordinates")
            }
        }
    }

    /// Copies `block` (as `copy(_:)` does) and returns it serialized in `MimeType.quireClipboard`.
    public func copyData(_ block: ContentBlock) throws -> Data {
        try copy(block)
        guard let payload = clipboard.value else { throw QuireError(.unsupportedOperation, "nothing was copied") }
        return try Self.encodeClipboard(payload)
    }

    /// Pastes a block serialized by `copyData`, or a selection by `copySelectionData` (possibly by
    /// another process), at a view point.
    /// Malformed data throws `importError` and changes nothing.
    public func paste(data: Data, at point: Point) throws {
        let saved = clipboard.saved
        if Self.isSelectionData(data) {
            let sel = try Self.decodeSelection(data)
            clipboard.set(sel)
            defer { if saved.0 != nil || saved.1 != nil { clipboard.restore(saved) } }
            try paste(at: point)
        } else {
            let payload = try Self.decodeClipboard(data)
            clipboard.set(payload)
            defer { if saved.0 != nil || saved.1 != nil { clipboard.restore(saved) } }
            try paste(at: point)
        }
    }

    private struct Envelope: Codable {
        var format: String
        var version: Int
        var blocks: [BlockData]
        var strokes: Data
        var images: [String: Data]
    }

    static let clipboardFormat = "quire-block"

    static func encodeClipboard(_ p: ClipboardPayload) throws -> Data {
        let e = Envelope(format: clipboardFormat, version: 1, blocks: p.blocks, strokes: StrokeCodec.encode(p.strokes), images: p.images)
        do { return try JSONEncoder().encode(e) } catch {
            throw QuireError(.exportError, "cannot serialize the copied block: \(error)")
        }
    }

    static func decodeClipboard(_ data: Data) throws -> ClipboardPayload {
        guard data.count <= 256 << 20 else { throw QuireError(.importError, "clipboard data is too large (\(data.count) bytes)") }
        let e: Envelope
        do { e = try JSONDecoder().decode(Envelope.self, from: data) } catch {
            throw QuireError(.importError, "clipboard data is not a Quire block: \(error)")
        }
        guard e.format == clipboardFormat, e.version == 1 else {
            throw QuireError(.importError, "clipboard data has format \(e.format) version \(e.version); expected \(clipboardFormat) 1")
        }
        guard let top = e.blocks.first else {
            throw QuireError(.importError, "clipboard data holds no block")
        }
        let ids = Set(e.blocks.map(\.id))
        guard ids.count == e.blocks.count, top.box.x.isFinite, top.box.y.isFinite else {
            throw QuireError(.importError, "clipboard data has duplicate block ids or a non-finite box")
        }
        for b in e.blocks where !BlockData.types.contains(b.type) {
            throw QuireError(.importError, "clipboard data has a block of unknown type '\(b.type)'")
        }
        // Another process wrote this: its blocks must be a tree as a package's are, or the pasted
        // copy loops the editor's walks and saves a package that cannot be opened again. It goes
        // one level under the root, hence one level less.
        let byId = Dictionary(e.blocks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        if let problem = BlockData.treeProblem(byId, rootId: top.id, maxDepth: BlockData.maxDepth - 1) ?? e.blocks.lazy.compactMap(\.boxProblem).first {
            throw QuireError(.importError, "clipboard data: \(problem)")
        }
        let strokes = try StrokeCodec.decode(e.strokes, what: "clipboard strokes")
        for s in strokes where s.blockId.map({ !ids.contains($0) }) ?? true {
            throw QuireError(.importError, "clipboard stroke \(s.id) belongs to no copied block")
        }
        for b in e.blocks {
            if let img = b.image, e.images[img.entry] == nil {
                throw QuireError(.importError, "clipboard image block \(b.id) has no image data")
            }
        }
        // Entries become file names inside the package: only plain names under images/.
        for name in e.images.keys {
            let base = name.hasPrefix("images/") ? String(name.dropFirst(7)) : ""
            guard !base.isEmpty, !base.hasPrefix("."), base.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
                throw QuireError(.importError, "clipboard image entry '\(name)' is not a plain name under images/")
            }
        }
        return ClipboardPayload(blocks: e.blocks, strokes: strokes, images: e.images)
    }
}
