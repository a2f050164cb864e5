import Foundation
import InkModel
import InkRender

/// What `copy` puts aside for `paste`: a block with its descendants, strokes and images (values).
struct ClipboardPayload: Sendable {
    var blocks: [BlockData]
    var strokes: [InkStroke]
    var images: [String: Data]
}

/// The process-wide clipboard, so a block copied in one editor pastes into another (and another package).
final class ClipboardStore: @unchecked Sendable {
    static let shared = ClipboardStore()
    private let lock = NSLock()
    private var payload: ClipboardPayload?
    var value: ClipboardPayload? {
        get { lock.withLock { payload } }
        set { lock.withLock { payload = newValue } }
    }
}

extension Editor {
    static func recognizable(_ type: String) -> Bool { BlockType(rawValue: type)?.isRecognized ?? false }

    /// Block types `addBlock` accepts (Text Document parts only).
    public var supportedAddBlockTypes: [String] {
        attached?.kind == .textDocument ? BlockType.addable.map(\.rawValue) : []
    }

    func requireTextDocument(_ what: String) throws -> PartModel {
        let m = try requirePart()
        guard m.kind == .textDocument else {
            throw QuireError(.unsupportedOperation, "\(what) works in Text Document parts only (this part is \(m.type))")
        }
        return m
    }

    func defaultSize(_ type: String, at x: Double) -> (Double, Double) {
        let spacing = guideSpacing
        switch BlockType(rawValue: type) {
        case .text: return (max(30, pageWidth - x - 5), 2 * spacing)
        case .math: return (min(120, max(30, pageWidth - x - 5)), 3 * spacing)
        case .drawing, .diagram: return (min(120, max(30, pageWidth - x - 5)), 80)
        default: return (min(120, max(30, pageWidth - x - 5)), 40)
        }
    }

    func insertBlock(_ b: BlockData, extra: [Change] = [], model m: PartModel) -> ContentBlock {
        var root = m.root
        let old = root
        root.childIds.append(b.id)
        var t = Transaction()
        t.changes = [.block(old: nil, new: b)] + extra + [.block(old: old, new: root)]
        commit(t, affecting: [b.id])
        relayout(anchor: b.id, model: m)
        return ContentBlock(id: b.id, editor: self, model: m)
    }

    /// Adds an empty block at a view point.
    @discardableResult
    public func addBlock(at point: Point, type: String) throws -> ContentBlock {
        let m = try requireTextDocument("addBlock")
        guard let kind = BlockType(rawValue: type), BlockType.addable.contains(kind) else {
            throw QuireError(.invalidBlockType, "cannot add a block of type '\(type)'; supported: \(supportedAddBlockTypes.joined(separator: ", "))")
        }
        guard point.x.isFinite, point.y.isFinite else { throw QuireError(.invalidArgument, "addBlock: point must be finite") }
        let p = toModel(point.x, point.y)
        let x = max(0, p.x), y = max(0, kind == .text ? (p.y / guideSpacing).rounded(.down) * guideSpacing : p.y)
        let (w, h) = defaultSize(type, at: x)
        return insertBlock(BlockData(id: m.makeBlockId(), type: type, box: Rect(x: x, y: y, width: w, height: h), parentId: m.rootId), model: m)
    }

    /// Adds a block holding imported typed content (text/plain into a Text block).
    @discardableResult
    public func addBlock(at point: Point, type: String, mimeType: MimeType, data: String) throws -> ContentBlock {
        let m = try requireTextDocument("addBlock")
        guard type == BlockType.text.rawValue || type == BlockType.math.rawValue else {
            throw QuireError(.invalidBlockType, "typed content can be imported into Text or Math blocks, not '\(type)'")
        }
        guard mimeType == .text else {
            throw QuireError(.unsupportedOperation, "importing \(mimeType.typeName) into a \(type) block is not supported (text/plain is)")
        }
        guard point.x.isFinite, point.y.isFinite else { throw QuireError(.invalidArgument, "addBlock: point must be finite") }
        let p = toModel(point.x, point.y)
        let x = max(0, p.x), y = max(0, (p.y / guideSpacing).rounded(.down) * guideSpacing)
        let (w, _) = defaultSize(type, at: x)
        let lines = max(1, data.split(separator: "\n", omittingEmptySubsequences: false).count)
        var b = BlockData(id: m.makeBlockId(), type: type, box: Rect(x: x, y: y, width: w, height: Double(lines + 1) * guideSpacing), parentId: m.rootId)
        b.text = data
        b.conversion = ConversionState.digitalEdit.rawValue
        b.words = Self.typedWords(data)
        return insertBlock(b, model: m)
    }

    /// The words of typed text before layout gives them their places (`TextLayout.tokens`).
    static func typedWords(_ text: String) -> [RecognizedWord] {
        TextLayout.tokens(text).map { RecognizedWord(label: $0.label, candidates: [Candidate(label: $0.label, score: 1)], line: $0.line) }
    }

    /// Adds a PNG or JPEG image, copied into the package. A missing, unreadable, malformed or
    /// oversized file throws and adds nothing.
    @discardableResult
    public func addImage(at point: Point, file: String, mimeType: MimeType) throws -> ContentBlock {
        let m = try requireTextDocument("addImage")
        guard mimeType == .png || mimeType == .jpeg else {
            throw QuireError(.imageError, "images must be image/png or image/jpeg, not \(mimeType.typeName)")
        }
        guard point.x.isFinite, point.y.isFinite else { throw QuireError(.invalidArgument, "addImage: point must be finite") }
        let maxBytes = configuration[.imageMaxFileSize]
        let data: Data
        do { data = try FileIO.readFile(file, maxBytes: maxBytes) } catch let e as QuireError {
            throw QuireError(.imageError, "cannot add image '\(file)': \(e.message)")
        }
        let maxPixels = configuration[.imageMaxPixels]
        let size = try ImageHeader.size(of: data, mimeType: mimeType, file: file)
        guard Double(size.width) * Double(size.height) <= maxPixels else {
            throw QuireError(.imageError, "image '\(file)' is \(size.width)x\(size.height) pixels, more than image.max-pixels (\(String(format: "%.0f", maxPixels)))")
        }
        let p = toModel(point.x, point.y)
        let x = max(0, p.x), y = max(0, p.y)
        let w = min(max(20, pageWidth - x - 5), Double(size.width) * 25.4 / 96)
        let h = w * Double(size.height) / Double(size.width)
        let entry = "images/\(m.makeBlockId())." + (mimeType == .png ? "png" : "jpg")
        let b = BlockData(id: m.makeBlockId(), type: BlockType.image.rawValue, box: Rect(x: x, y: y, width: w, height: h), parentId: m.rootId,
                          image: ImageRef(entry: entry, mimeType: mimeType.typeName, pixelWidth: size.width, pixelHeight: size.height))
        return insertBlock(b, extra: [.image(entry: entry, old: nil, new: data)], model: m)
    }

    /// The top-most block at a view point: a child block of a Text Document, else the root block.
    public func hitBlock(at point: Point) -> ContentBlock? {
        guard let m = attached?.model, point.x.isFinite, point.y.isFinite else { return nil }
        let p = toModel(point.x, point.y)
        if let b = topBlock(atModel: p, model: m) { return ContentBlock(id: b.id, editor: self, model: m) }
        return m.kind == .textDocument ? nil : rootBlock
    }

    /// Changes that remove a block, its descendants, their strokes and images.
    func removalChanges(_ id: String, model m: PartModel) -> [Change] {
        guard let b = m.blocks[id] else { return [] }
        var out: [Change] = []
        for c in b.childIds { out += removalChanges(c, model: m) }
        for s in m.strokes(inBlock: id) { out.append(.stroke(old: s, new: nil)) }
        if let img = b.image { out.append(.image(entry: img.entry, old: m.images[img.entry], new: nil)) }
        out.append(.block(old: b, new: nil))
        return out
    }

    public func removeBlock(_ block: ContentBlock) throws {
        let m = try requirePart()
        let b = try block.checkValid()
        guard b.id != m.rootId, let parentId = b.parentId, var parent = m.blocks[parentId] else {
            throw QuireError(.unsupportedOperation, "the root block cannot be removed (use clear)")
        }
        let old = parent
        parent.childIds.removeAll { $0 == b.id }
        var t = Transaction()
        t.changes = removalChanges(b.id, model: m) + [.block(old: old, new: parent)]
        commit(t, affecting: [parentId])
    }

    /// Moves a block (and its ink and recognition boxes) by a model-millimetre offset; later blocks flow down.
    func moveBlock(id: String, dx: Double, dy: Double, model m: PartModel) throws {
        guard let b = m.blocks[id], id != m.rootId else { throw QuireError(.invalidBlock, "no movable block '\(id)'") }
        var box = b.box.offsetBy(dx: dx, dy: dy)
        box.x = max(0, box.x); box.y = max(0, box.y)
        var t = Transaction()
        t.changes = Self.moveChanges(b, to: box)
        commit(t, affecting: [id])
        relayout(anchor: id, model: m)
    }

    /// Changes that put block `b` at `box` (same size) with its strokes and recognized words.
    /// The ink moves by the offset rounded to 1/100 mm, the unit strokes are stored in.
    static func moveChanges(_ b: BlockData, to box: Rect) -> [Change] {
        let dx = box.x - b.box.x, dy = box.y - b.box.y
        guard dx != 0 || dy != 0 else { return [] }
        var nb = b
        nb.box = box
        // Every placed box moves, a zero-size one too (a dot's word is a point on the page);
        // only `.zero`, a typed word's "no place", stays.
        nb.words = b.words.map { w in
            var w = w
            if w.box != .zero { w.box = w.box.offsetBy(dx: dx, dy: dy) }
            w.chars = w.chars.map { var c = $0; if c.box != .zero { c.box = c.box.offsetBy(dx: dx, dy: dy) }; return c }
            return w
        }
        var out: [Change] = [.block(old: b, new: nb)]
        let qx = InkStroke.quantize(dx), qy = InkStroke.quantize(dy)
        if qx != 0 || qy != 0 { out.append(.shiftInk(blockId: b.id, dx: qx, dy: qy)) }
        return out
    }

    /// Moves a block to a new top-left position (view pixels), e.g. at the end of a touch drag.
    public func moveBlock(_ block: ContentBlock, to point: Point) throws {
        let m = try requireTextDocument("moveBlock")
        let b = try block.checkValid()
        let p = toModel(point.x, point.y)
        try moveBlock(id: b.id, dx: p.x - b.box.x, dy: p.y - b.box.y, model: m)
    }

    /// Pushes blocks down, in reading order, so none overlap: a block keeps its place unless a block
    /// above it now covers it.
    /// The moves join the last undo step so undo restores the whole change at once; with `record`
    /// false (text laid out again for a new font or page) they are no step of their own.
    ///
    /// Incremental: the boxes the previous flow left (`flowBoxes`) did not overlap, so a block
    /// whose box is unchanged since can only collide with blocks that changed or moved, and it is
    /// checked against those alone unless it has to move. The result is the same as placing every
    /// block against every earlier one (`FlowTests` checks this), but a pen-up costs a sort of the
    /// blocks plus the blocks that actually move, and a moved block's ink moves as one record.
    func relayout(anchor: String?, model m: PartModel, record: Bool = true) {
        let gap = blockSpacing
        let ids = m.root.childIds
        var kids: [(index: Int, block: BlockData)] = []
        kids.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() { if let b = m.blocks[id] { kids.append((i, b)) } }
        // Ties (same top-left) keep the order of the root's children, so the flow is deterministic.
        kids.sort { ($0.block.box.y, $0.block.box.x, $0.index) < ($1.block.box.y, $1.block.box.x, $1.index) }
        var placed: [Rect] = []
        placed.reserveCapacity(kids.count)
        var placedChanged: [Rect] = []
        var changes: [Change] = []
        var boxes: [String: Rect] = [:]
        boxes.reserveCapacity(kids.count)
        for (_, b) in kids {
            var box = b.box
            let changed = flowBoxes[b.id] != b.box
            if changed || placedChanged.contains(where: { $0.intersects(box) }) {
                var moved = true
                while moved {
                    moved = false
                    for r in placed where r.intersects(box) {
                        box.y = r.maxY + gap
                        moved = true
                    }
                }
            }
            if box != b.box { changes += Self.moveChanges(b, to: box) }
            placed.append(box)
            if changed || box != b.box { placedChanged.append(box) }
            boxes[b.id] = box
        }
        flowBoxes = boxes
        guard !changes.isEmpty else { return }
        // Moved words are laid out afresh where they land (not just shifted), so that a block's
        // layout is always what laying it out again gives.
        changes = layingOut(Transaction(changes: changes)).changes
        var dirty = Rect.zero
        for c in changes { dirty = dirty.union(apply(c, to: m)) }
        guard record else { renderer?.invalidate(nil); return }
        if var last = undoStack.popLast() { last.changes += changes; undoStack.append(last) } else { undoStack.append(Transaction(changes: changes)) }
        finishChange(blockIds: [], dirty: dirty, model: m)
        // A block that moved before its reading came back (a new block pushed below the one it
        // overlapped) would have that reading dropped, as it is of ink no longer there: read it
        // again where it is now. Blocks already read moved with their words.
        for (_, b) in kids where boxes[b.id] != b.box && Self.recognizable(b.type) && recognition.isPending(b.id) {
            scheduleRecognition(blockId: b.id)
        }
    }

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
        ClipboardStore.shared.value = ClipboardPayload(blocks: blocks, strokes: strokes, images: images)
    }

    /// True when there is something to paste.
    public var canPaste: Bool { ClipboardStore.shared.value != nil }

    /// Pastes the clipboard's block at a view point: a deep copy with new ids (Text Document only).
    public func paste(at point: Point) throws {
        let m = try requireTextDocument("paste")
        guard let payload = ClipboardStore.shared.value, let top = payload.blocks.first else {
            throw QuireError(.unsupportedOperation, "nothing to paste")
        }
        guard point.x.isFinite, point.y.isFinite else { throw QuireError(.invalidArgument, "paste: point must be finite") }
        let p = toModel(point.x, point.y)
        let dx = max(0, p.x) - top.box.x, dy = max(0, p.y) - top.box.y
        var ids: [String: String] = [:]
        for b in payload.blocks { ids[b.id] = m.makeBlockId() }
        var strokeIds: [String: String] = [:]
        for s in payload.strokes { strokeIds[s.id] = m.makeStrokeId() }
        var changes: [Change] = []
        var seq = m.nextSeq()
        for b in payload.blocks {
            var nb = b
            nb.id = ids[b.id]!
            nb.parentId = b.id == top.id ? m.rootId : b.parentId.flatMap { ids[$0] }
            nb.childIds = b.childIds.compactMap { ids[$0] }
            nb.box = b.box.offsetBy(dx: dx, dy: dy)
            nb.words = b.words.map { w in
                var w = w
                if w.box != .zero { w.box = w.box.offsetBy(dx: dx, dy: dy) }  // as in moveChanges
                w.strokeIds = w.strokeIds.compactMap { strokeIds[$0] }
                w.chars = w.chars.map { var c = $0; if c.box != .zero { c.box = c.box.offsetBy(dx: dx, dy: dy) }; c.strokeIds = c.strokeIds.compactMap { strokeIds[$0] }; return c }
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
        // Ink moved past ±21 km (Int32 hundredths of a millimetre) would wrap around to the
        // other end of the page; like a box out of range, that place is refused.
        let qx = Int64(InkStroke.quantize(dx)), qy = Int64(InkStroke.quantize(dy))
        for s in payload.strokes {
            let b = s.unitBounds
            guard Int64(b.minX) + qx >= Int64(Int32.min), Int64(b.maxX) + qx <= Int64(Int32.max),
                  Int64(b.minY) + qy >= Int64(Int32.min), Int64(b.maxY) + qy <= Int64(Int32.max) else {
                throw QuireError(.invalidArgument, "cannot paste there: stroke '\(s.id)' would leave the range of coordinates")
            }
        }
        for s in payload.strokes {
            var ns = s.translated(dx: dx, dy: dy)
            ns.id = strokeIds[s.id]!
            ns.blockId = s.blockId.flatMap { ids[$0] }
            ns.seq = seq
            if seq < .max { seq += 1 }
            changes.append(.stroke(old: nil, new: ns))
        }
        let newTop = ids[top.id]!
        var root = m.root
        let old = root
        root.childIds.append(newTop)
        changes.append(.block(old: old, new: root))
        // Every pasted block is read where it lands (and reported), not only the top one: words
        // another process sent need not match the ink, and an undo and redo would read them.
        commit(Transaction(changes: changes), affecting: payload.blocks.compactMap { ids[$0.id] })
        relayout(anchor: newTop, model: m)
    }
}

/// The pixel size an added image file announces, read by `ImageCodec` (the one header reader)
/// after checking that the bytes are of the MIME type the image is added as.
enum ImageHeader {
    static func size(of d: Data, mimeType: MimeType, file: String) throws -> (width: Int, height: Int) {
        func bad(_ why: String) -> QuireError { QuireError(.imageError, "image '\(file)' is unreadable: \(why)") }
        let png = mimeType == .png
        guard png ? ImageCodec.isPNG(d) : ImageCodec.isJPEG(d) else { throw bad(png ? "not a PNG file" : "not a JPEG file") }
        guard let size = ImageCodec.headerSize(d) else { throw bad(png ? "no IHDR header" : "no frame header") }
        guard size.width > 0, size.height > 0 else { throw bad("zero size") }
        return size
    }
}
