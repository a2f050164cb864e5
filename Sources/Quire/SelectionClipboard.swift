import Foundation
import InkModel
import InkRender

/// A copied lasso selection: whole block trees (each as a block copy holds it) and loose strokes
/// (no block), with the top-left corner of their extent, which a paste puts at its point.
struct SelectionPayload: Sendable {
    var trees: [ClipboardPayload]
    var strokes: [InkStroke]
    var origin: Point
}

/// Copy, cut and paste of the lasso selection, in Quire's clipboard and as data for the X11
/// CLIPBOARD (`MimeType.quireClipboard`, the same type as a block copy: the data says which).
extension Editor {
    /// Puts the selection (its blocks with their ink and images, and its loose strokes) on
    /// Quire's clipboard; `paste(at:)` pastes it.
    public func copySelection() throws {
        let m = try requirePart()
        guard hasSelection, let r = selectionBounds else { throw QuireError(.unsupportedOperation, "copySelection: nothing is selected") }
        let (blocks, strokes) = selectionItems(m)
        let trees = blocks.map { top -> ClipboardPayload in
            var tree = ClipboardPayload(blocks: [], strokes: [], images: [:])
            for id in subtree(top.id, m) {
                guard let d = m.blocks[id] else { continue }
                tree.blocks.append(d)
                tree.strokes += m.strokes(inBlock: id)
                if let img = d.image { tree.images[img.entry] = m.images[img.entry] }
            }
            return tree
        }
        let loose = strokes.map { s -> InkStroke in var s = s; s.blockId = nil; return s }
        clipboard.set(SelectionPayload(trees: trees, strokes: loose, origin: Point(x: r.x, y: r.y)))
    }

    /// `copySelection`, serialized for another process (`paste(data:at:)` reads it).
    public func copySelectionData() throws -> Data {
        try copySelection()
        guard let sel = clipboard.selection else { throw QuireError(.unsupportedOperation, "nothing was copied") }
        return try Self.encodeSelection(sel)
    }

    /// Copies the selection, then deletes it: the delete is one undoable step.
    public func cutSelection() throws {
        try copySelection()
        try deleteSelection()
    }

    /// The selection's text: the text of its blocks and the recognized words whose ink is all
    /// selected, a line per block.
    public func selectionText() throws -> String {
        let m = try requirePart()
        let (blocks, strokes) = selectionItems(m)
        var lines: [String] = []
        for b in blocks { for id in subtree(b.id, m) { if let d = m.blocks[id] { lines.append(Self.plainText(of: d)) } } }
        let loose = Set(strokes.map(\.id))
        for id in Set(strokes.map { $0.blockId ?? m.rootId }).sorted() {
            guard let b = m.blocks[id] else { continue }
            let words = b.words.filter { !$0.strokeIds.isEmpty && $0.strokeIds.allSatisfy(loose.contains) }
            lines.append(words.map(\.label).joined(separator: " "))
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// The selection drawn as PNG at `dpi`: its ink, and its blocks' typed text and images.
    public func selectionPNG(dpi: Double) throws -> Data {
        let m = try requirePart()
        guard hasSelection else { throw QuireError(.unsupportedOperation, "selectionPNG: nothing is selected") }
        let (blocks, strokes) = selectionItems(m)
        // A plain sheet (no guides) holding copies of the selected blocks (typed text with its
        // laid-out words, images, their ink) and the loose ink, drawn as the page draws them.
        let sheet = try PartModel(id: "selection", type: PartType.drawing.rawValue)
        var root = sheet.root
        for top in blocks {
            for id in subtree(top.id, m) {
                guard var b = m.blocks[id] else { continue }
                if id == top.id { b.parentId = root.id; root.childIds.append(id) }
                sheet.setBlock(b)
                if let img = b.image, let data = m.images[img.entry] { sheet.setImage(data, entry: img.entry) }
                for s in m.strokes(inBlock: id) { sheet.insertStroke(s) }
            }
        }
        sheet.setBlock(root)
        for var s in strokes { s.blockId = nil; sheet.insertStroke(s) }
        let drawn = !strokes.isEmpty || blocks.contains { t in
            subtree(t.id, m).contains { id in
                guard let b = m.blocks[id] else { return false }
                return b.image != nil || !(b.text ?? "").isEmpty || !b.words.isEmpty || !m.strokeIds(inBlock: id).isEmpty
            }
        }
        guard drawn else { throw QuireError(.unsupportedOperation, "selectionPNG: the selection holds nothing to draw") }
        let exporter = Exporter(fontMetrics: (fontMetricsProvider as? CairoFontMetrics) ?? CairoFontMetrics())
        return try exporter.exportPNG(part: sheet, dpi: dpi, options: exportOptions)
    }

    /// Pastes a copied selection with its top-left corner at a view point, with new ids, and
    /// selects what was pasted. In a Text Document blocks keep their kind and loose ink joins
    /// the block it lands in; in other parts all the ink goes on the page. One undoable step.
    func paste(_ sel: SelectionPayload, at point: Point) throws {
        let m = try requirePart()
        let p = toModel(point.x, point.y)
        let dx = max(0, p.x) - sel.origin.x, dy = max(0, p.y) - sel.origin.y
        var seq = m.nextSeq()
        var changes: [Change] = []
        var newBlocks: [String] = []
        var newTops: [String] = []
        var loose = sel.strokes
        if m.kind == .textDocument {
            for tree in sel.trees {
                guard let top = tree.blocks.first else { continue }
                let (c, ids) = try pastedTree(tree, dx: dx, dy: dy, model: m, seq: &seq)
                changes += c
                newTops.append(ids[top.id]!)
                newBlocks += tree.blocks.compactMap { ids[$0.id] }
            }
        } else {
            // One page of ink: the copied blocks' ink is pasted as loose ink.
            loose += sel.trees.flatMap(\.strokes).map { var s = $0; s.blockId = nil; return s }
        }
        try Self.checkRange(loose, dx: dx, dy: dy)
        var moved = loose.map { s -> InkStroke in
            var n = s.translated(dx: dx, dy: dy)
            n.id = m.makeStrokeId()
            n.blockId = nil
            n.seq = seq
            if seq < .max { seq += 1 }
            return n
        }
        if m.kind == .textDocument {
            // The pasted blocks are not in the model yet: loose ink lands beside them, not in
            // them. A new block for it and the pasted trees join the root in one change.
            var placed: [Change] = []
            if !moved.isEmpty { placed = placeLoose(&moved, skipping: [], model: m) }
            var root = m.root
            for case .block(let o, let n?) in placed where n.id == m.rootId {
                root.childIds += n.childIds.filter { !(o?.childIds.contains($0) ?? false) }
            }
            root.childIds += newTops
            changes = placed.filter { if case .block(_, let n?) = $0, n.id == m.rootId { return false }; return true } + changes
            if root != m.root { changes.append(.block(old: m.root, new: root)) }
            newBlocks += moved.compactMap(\.blockId).filter { m.blocks[$0] == nil }
        }
        changes += moved.map { .stroke(old: nil, new: $0) }
        guard !changes.isEmpty else { throw QuireError(.unsupportedOperation, "nothing to paste") }
        commit(Transaction(changes: changes), affecting: newBlocks + moved.map { $0.blockId ?? m.rootId })
        if m.kind == .textDocument { relayout(anchor: newBlocks.first, model: m) }
        select(blocks: Set(newTops), strokes: Set(moved.map(\.id)), framed: true)
        renderer?.invalidate(nil)
    }

    private struct SelectionEnvelope: Codable {
        var format: String
        var version: Int
        var origin: Point
        /// Each block tree as `copyData` serializes a block.
        var trees: [Data]
        var strokes: Data
    }

    static let selectionFormat = "quire-selection"

    static func isSelectionData(_ data: Data) -> Bool {
        struct Head: Decodable { var format: String }
        return (try? JSONDecoder().decode(Head.self, from: data))?.format == selectionFormat
    }

    static func encodeSelection(_ sel: SelectionPayload) throws -> Data {
        let e = SelectionEnvelope(format: selectionFormat, version: 1, origin: sel.origin,
                                  trees: try sel.trees.map(encodeClipboard), strokes: StrokeCodec.encode(sel.strokes))
        do { return try JSONEncoder().encode(e) } catch {
            throw QuireError(.exportError, "cannot serialize the selection: \(error)")
        }
    }

    /// Reads selection data another process may have written: every tree is checked as a block
    /// copy is, and the loose strokes belong to no block.
    static func decodeSelection(_ data: Data) throws -> SelectionPayload {
        guard data.count <= 256 << 20 else { throw QuireError(.importError, "clipboard data is too large (\(data.count) bytes)") }
        let e: SelectionEnvelope
        do { e = try JSONDecoder().decode(SelectionEnvelope.self, from: data) } catch {
            throw QuireError(.importError, "clipboard data is not a Quire selection: \(error)")
        }
        guard e.format == selectionFormat, e.version == 1 else {
            throw QuireError(.importError, "clipboard data has format \(e.format) version \(e.version); expected \(selectionFormat) 1")
        }
        guard e.origin.x.isFinite, e.origin.y.isFinite, abs(e.origin.x) < 1e7, abs(e.origin.y) < 1e7 else {
            throw QuireError(.importError, "clipboard selection has a non-finite or far origin")
        }
        let trees = try e.trees.map(decodeClipboard)
        let strokes = try StrokeCodec.decode(e.strokes, what: "clipboard strokes").map { s -> InkStroke in var s = s; s.blockId = nil; return s }
        guard !trees.isEmpty || !strokes.isEmpty else { throw QuireError(.importError, "clipboard selection is empty") }
        return SelectionPayload(trees: trees, strokes: strokes, origin: e.origin)
    }
}
