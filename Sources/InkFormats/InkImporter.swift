import Foundation
import InkModel

/// Turns a read document into Quire parts without moving anything: each page becomes a Raw
/// Content part (no block flow, no layout of ink), its strokes keep their coordinates to the
/// 1/100 mm Quire stores, typed text becomes Text blocks and images Image blocks at their places.
/// What has no place in the model (labels, backgrounds, the reader's notes) goes into the
/// part's metadata under `import.`.
public enum InkImporter {
    /// The part type imported pages get.
    public static let partType = PartType.rawContent.rawValue
    /// Farther than any page reaches (1 km): such coordinates come from a misread unit.
    public static let maxCoordinate = 1_000_000.0

    /// Adds one part per page of `doc` to `pkg`.
    @discardableResult
    public static func addPages(_ doc: InkDocument, to pkg: ContentPackage, source: String? = nil) throws -> [ContentPart] {
        try check(doc)
        var parts: [ContentPart] = []
        for (k, page) in doc.pages.enumerated() {
            let part = try pkg.createPart(type: partType)
            try fill(part.model, page: page, doc: doc, number: k + 1, source: source)
            parts.append(part)
        }
        return parts
    }

    /// Refuses coordinates no page has, before anything is written.
    static func check(_ doc: InkDocument) throws {
        for (k, page) in doc.pages.enumerated() {
            for (i, s) in page.strokes.enumerated() {
                if let bad = s.samples.first(where: { !(abs($0.x) <= maxCoordinate && abs($0.y) <= maxCoordinate) }) {
                    throw QuireError(.importError, "\(doc.format) page \(k + 1), stroke \(i + 1): a point lies at (\(bad.x), \(bad.y)) mm, "
                                     + "more than a kilometre away: its units must be misread")
                }
            }
        }
    }

    static func key(_ s: String) -> String {
        let cleaned = String(s.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
        let parts = cleaned.split(separator: ".", omittingEmptySubsequences: true)
        return parts.isEmpty ? "value" : parts.joined(separator: ".")
    }

    static func fill(_ m: PartModel, page: InkPage, doc: InkDocument, number: Int, source: String?) throws {
        var strokeIds: [String] = []
        for trace in page.strokes {
            let s = InkStroke(id: m.makeStrokeId(), pointerType: .pen, tool: trace.brush.tool, color: trace.brush.color,
                              width: Float(trace.brush.width), blockId: nil, seq: m.nextSeq(), samples: trace.samples)
            m.insertStroke(s)
            strokeIds.append(s.id)
        }
        var root = m.root
        for t in page.texts where !t.text.isEmpty {
            let lines = t.text.split(separator: "\n", omittingEmptySubsequences: false)
            let width = max(10, Double(lines.map(\.count).max() ?? 1) * t.size * 0.6)
            var b = BlockData(id: m.makeBlockId(), type: BlockType.text.rawValue,
                              box: Rect(x: t.origin.x, y: t.origin.y, width: width, height: Double(lines.count) * t.size * 1.3),
                              parentId: root.id, text: t.text, conversion: "digitalEdit")
            b.properties["import.font"] = "\(t.font) \(String(format: "%.2f", t.size)) mm"
            if !t.color.isEmpty { b.properties["import.color"] = t.color }
            m.setBlock(b)
            root.childIds.append(b.id)
        }
        for img in page.images {
            let id = m.makeBlockId()
            let entry = "images/\(id)." + (img.mimeType == "image/png" ? "png" : "jpg")
            m.setImage(img.data, entry: entry)
            var b = BlockData(id: id, type: BlockType.image.rawValue, box: img.box, parentId: root.id,
                              image: ImageRef(entry: entry, mimeType: img.mimeType, pixelWidth: img.pixelWidth, pixelHeight: img.pixelHeight))
            if let tex = img.tex { b.properties["import.tex"] = tex }
            m.setBlock(b)
            root.childIds.append(b.id)
        }
        m.setBlock(root)

        let md = m.metadata
        try md.setString(doc.format, forKey: "import.format")
        if let source { try md.setString(source, forKey: "import.source") }
        if doc.pages.count > 1 { try md.setNumber(Double(number), forKey: "import.page") }
        if let size = page.size {
            try md.setNumber(size.width, forKey: "import.page-width")
            try md.setNumber(size.height, forKey: "import.page-height")
        }
        if let bg = page.background {
            try md.setString(bg.style, forKey: "import.background")
            if !bg.color.isEmpty { try md.setString(bg.color, forKey: "import.background-color") }
        }
        for (k, v) in doc.metadata.merging(page.metadata, uniquingKeysWith: { $1 }) { try md.setString(v, forKey: "import." + key(k)) }
        if !doc.notes.isEmpty { try md.setStringArray(doc.notes, forKey: "import.notes") }
        let groups = page.groups.filter { !$0.labels.isEmpty || !$0.strokes.isEmpty }
        if !groups.isEmpty {
            let encoded = try groups.map { g -> String in
                var o: [String: JSONValue] = [
                    "labels": .object(g.labels.mapValues { .string($0) }),
                    "strokes": .array(g.strokes.filter { $0 < strokeIds.count }.map { .string(strokeIds[$0]) }),
                    "depth": .number(Double(g.depth)),
                ]
                if let id = g.id { o["id"] = .string(id) }
                return try JSONValue.object(o).serialized()
            }
            try md.setStringArray(encoded, forKey: "import.groups")
        }
    }

    /// The strokes of a document as pen input (for `--as text-document`): millimetres, in order.
    public static func traces(_ doc: InkDocument) -> [ImportedTrace] {
        doc.pages.flatMap { $0.strokes.map { ImportedTrace(samples: $0.samples, pointerType: .pen, tool: $0.brush.tool) } }
    }
}
