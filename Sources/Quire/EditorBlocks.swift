import Foundation
import InkModel
import InkRender

/// Blocks of a Text Document: adding (empty, typed, image), removing and moving them, and where
/// new ink goes. The flow that keeps them apart is `BlockFlow`.
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

    /// The block that holds a stroke now, wherever the block flow moved it since it was written;
    /// nil when the stroke is not on the attached part (erased, undone).
    public func block(holdingStroke id: String) -> ContentBlock? {
        guard let m = attached?.model, let s = m.strokes[id] else { return nil }
        return ContentBlock(id: s.blockId ?? m.rootId, editor: self, model: m)
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

    /// Chooses the block for new ink in a Text Document: the block under it, else a new Text block.
    func placeInk(_ bounds: Rect, start: Point, model m: PartModel) -> (String, [Change]) {
        let spacing = guideSpacing
        let center = Point(x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2)
        if let hit = topBlock(atModel: start, model: m) ?? topBlock(atModel: center, model: m) {
            var nb = hit
            if hit.kind == .text { nb.box = Self.textBox(hit.box, holding: bounds, spacing: spacing) }
            return (hit.id, nb == hit ? [] : [.block(old: hit, new: nb)])
        }
        let margin = 5.0
        let x = max(margin, bounds.x - 2)
        let top = max(0, ((bounds.y - 1) / spacing).rounded(.down) * spacing)
        let bottom = max(top + spacing, ((bounds.maxY + 1) / spacing).rounded(.up) * spacing)
        let width = max(pageWidth - x - margin, bounds.maxX - x + 2)
        let block = BlockData(id: m.makeBlockId(), type: BlockType.text.rawValue, box: Rect(x: x, y: top, width: width, height: bottom - top), parentId: m.rootId)
        var root = m.root
        let oldRoot = root
        root.childIds.append(block.id)
        return (block.id, [.block(old: nil, new: block), .block(old: oldRoot, new: root)])
    }

    /// A Text block's box grown to hold ink: down to a whole guide line, and to the right; its
    /// top-left stays.
    static func textBox(_ box: Rect, holding bounds: Rect, spacing: Double) -> Rect {
        let grown = box.union(bounds)
        let bottom = (grown.maxY / spacing).rounded(.up) * spacing
        return Rect(x: box.x, y: box.y, width: max(box.width, grown.maxX - box.x), height: bottom - box.y)
    }

    /// `text.guides.spacing`; under 0.5 mm or over a metre (block boxes would leave the range a
    /// package holds, and areas around a gesture overflow) the default 10.
    var guideSpacing: Double {
        let s = configuration[.textGuidesSpacing]
        return s > 0.5 && s <= 1000 ? s : 10
    }

    /// `text-document.block-spacing`, kept within 0...1000 mm: a negative gap would make the flow
    /// push a block down onto the one above it forever.
    var blockSpacing: Double {
        let g = configuration[.textDocumentBlockSpacing]
        return g.isNaN ? 4 : max(0, min(1000, g))
    }

    /// The top-most child block of the root containing a model point (found by binary search in
    /// the flow's index: this runs at every pen-up, on pages of thousands of blocks).
    func topBlock(atModel p: Point, model m: PartModel) -> BlockData? {
        let index = flow.index
        index.sync(m)
        if index.usable { return index.topmost(at: p, margin: 0.5).flatMap { m.blocks[$0] } }
        for id in m.root.childIds.reversed() {
            if let b = m.blocks[id], b.box.insetBy(dx: -0.5, dy: -0.5).contains(p) { return b }
        }
        return nil
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
