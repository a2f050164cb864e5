import Foundation
import InkModel

/// Quire's own clipboard type: a copied block with its ink and images, so that pasting into
/// another Quire process (through the X11 CLIPBOARD selection) gives back the block itself.
extension MimeType {
    public static let quireClipboard = MimeType("application/x-quire-block")
}

extension Editor {
    /// Copies `block` (as `copy(_:)` does) and returns it serialized in `MimeType.quireClipboard`.
    public func copyData(_ block: ContentBlock) throws -> Data {
        try copy(block)
        guard let payload = ClipboardStore.shared.value else { throw QuireError(.unsupportedOperation, "nothing was copied") }
        return try Self.encodeClipboard(payload)
    }

    /// Pastes a block serialized by `copyData` (possibly by another process) at a view point.
    /// Malformed data throws `importError` and changes nothing.
    public func paste(data: Data, at point: Point) throws {
        let payload = try Self.decodeClipboard(data)
        let saved = ClipboardStore.shared.value
        ClipboardStore.shared.value = payload
        defer { ClipboardStore.shared.value = saved ?? payload }
        try paste(at: point)
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
