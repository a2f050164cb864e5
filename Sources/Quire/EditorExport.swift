import Foundation
import InkModel

extension Editor {
    /// A block's text: typed/converted text, else its recognized words line by line, each read
    /// as the page shows it (`chosenLabel`).
    static func plainText(of b: BlockData) -> String {
        if let t = b.text { return t }
        return textLines(of: b.words).map { $0.map { b.words[$0].chosenLabel }.joined(separator: " ") }.joined(separator: "\n")
    }

    /// Word indices by line, in reading order. Words typeset in place and words of ink written
    /// later among them were numbered by different recognitions, so a block mixing the two is
    /// read by geometry: words whose middles lie within half a word height of a line's join it.
    static func textLines(of words: [RecognizedWord]) -> [[Int]] {
        let mixed = words.contains(where: \.isTypesetInPlace) && words.contains(where: { !$0.strokeIds.isEmpty })
        guard mixed else {
            var lines: [Int: [Int]] = [:]
            for (i, w) in words.enumerated() { lines[w.line, default: []].append(i) }
            return lines.keys.sorted().map { k in lines[k]!.sorted { words[$0].box.x < words[$1].box.x || (words[$0].box.x == words[$1].box.x && $0 < $1) } }
        }
        let heights = words.map(\.box.height).filter { $0 > 0 }.sorted()
        let h = heights.isEmpty ? 5 : heights[heights.count / 2]
        let order = words.indices.sorted { words[$0].box.midY < words[$1].box.midY }
        var lines: [[Int]] = []
        var lineY = -Double.infinity
        for i in order {
            if words[i].box.midY - lineY > h * 0.5 || lines.isEmpty { lines.append([]); lineY = words[i].box.midY }
            lines[lines.count - 1].append(i)
        }
        return lines.map { $0.sorted { words[$0].box.x < words[$1].box.x } }
    }

    /// Blocks under `id` in reading order (top to bottom, then left to right).
    func readingOrder(_ id: String, model m: PartModel) -> [BlockData] {
        guard let b = m.blocks[id] else { return [] }
        let kids = b.childIds.compactMap { m.blocks[$0] }.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
        return [b] + kids.flatMap { readingOrder($0.id, model: m) }
    }

    public func supportedExportMimeTypes(for block: ContentBlock?) -> [MimeType] {
        guard attached != nil else { return [] }
        if let block, block.isValid, block.kind == .image { return [.json, .png, .jpeg, .svg, .pdf] }
        let math: [MimeType]
        if let m = attached?.model, let b = block.flatMap({ $0.isValid ? $0.data : nil }) ?? (block == nil ? m.root : nil),
           !mathBlocks(b, model: m).isEmpty {
            math = [.latex, .mathml]
        } else {
            math = []
        }
        return [.text, .json, .inkml] + math + [.png, .jpeg, .svg, .pdf]
    }

    func exportTarget(_ block: ContentBlock?) throws -> (PartModel, BlockData) {
        let m = try requirePart()
        syncTextLayout()
        if let block { return (m, try block.checkValid()) }
        return (m, m.root)
    }

    /// Exports a block (nil = the whole part) in a textual format: text, JSON or InkML.
    public func export(_ block: ContentBlock?, mimeType: MimeType) throws -> String {
        let (m, b) = try exportTarget(block)
        switch mimeType {
        case .text:
            return readingOrder(b.id, model: m).filter { Self.recognizable($0.type) }
                .map { $0.kind == .math ? mathPlainText($0) : Self.plainText(of: $0) }.filter { !$0.isEmpty }.joined(separator: "\n")
        case .latex:
            return try exportLaTeX(b, model: m)
        case .mathml:
            return try exportMathML(b, model: m)
        case .json:
            return try exportJSON(b, model: m).serialized(pretty: true)
        case .inkml:
            return exportInkML(b, model: m)
        default:
            throw QuireError(.exportError, "\(mimeType.typeName) is not a textual export format; use exportData")
        }
    }

    /// Exports in any supported format as bytes.
    public func exportData(_ block: ContentBlock?, mimeType: MimeType) throws -> Data {
        switch mimeType {
        case .text, .json, .inkml, .latex, .mathml: return Data(try export(block, mimeType: mimeType).utf8)
        default: return try exportImage(block, mimeType: mimeType)
        }
    }

    /// Exports to a file (written atomically).
    public func export(_ block: ContentBlock?, to path: String, mimeType: MimeType) throws {
        try FileIO.writeAtomically(try exportData(block, mimeType: mimeType), to: URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    // MARK: JSON

    static func json(_ r: Rect) -> JSONValue {
        .object(["x": .number(r.x), "y": .number(r.y), "width": .number(r.width), "height": .number(r.height)])
    }

    func exportJSON(_ b: BlockData, model m: PartModel) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .string(b.id), "type": .string(b.type), "box": Self.json(b.box), "conversion": .string(b.conversion),
        ]
        if Self.recognizable(b.type) { o["label"] = .string(Self.plainText(of: b)) }
        if let g = guidesJSON(b) { o["guides"] = g }
        if b.kind == .math { o["math"] = mathJSON(b) }
        // Typed and converted text, and properties, so that `quire import` can read the block back.
        if let t = b.text { o["text"] = .string(t) }
        if !b.properties.isEmpty { o["properties"] = .object(b.properties.mapValues { .string($0) }) }
        if let f = b.textFont {
            o["textFont"] = .object(["family": .string(f.family), "size": .number(f.size), "bold": .bool(f.bold), "italic": .bool(f.italic)])
        }
        if let img = b.image {
            o["image"] = .object(["mimeType": .string(img.mimeType), "pixelWidth": .number(Double(img.pixelWidth)), "pixelHeight": .number(Double(img.pixelHeight))])
        }
        o["words"] = .array(b.words.map { w in
            .object([
                "label": .string(w.chosenLabel), "line": .number(Double(w.line)), "box": Self.json(w.box),
                "candidates": .array(w.candidates.map { .object(["label": .string($0.label), "score": .number($0.score)]) }),
                "selected": .number(Double(w.selected)),
                "strokeIds": .array(w.strokeIds.map { .string($0) }),
                "styles": .array(w.styles.map { .string($0) }),
                "chars": .array(w.chars.map { .object(["label": .string($0.label), "box": Self.json($0.box), "strokeIds": .array($0.strokeIds.map { .string($0) })]) }),
            ])
        })
        o["strokes"] = .array(m.strokes(inBlock: b.id).map { s in
            .object([
                "id": .string(s.id), "pointerType": .string(s.pointerType.name), "pointerId": .number(Double(s.pointerId)),
                "tool": .string(s.tool), "color": .string(s.color), "width": .number(Double(s.width)),
                "x": .array((0..<s.count).map { .number(s[$0].x) }),
                "y": .array((0..<s.count).map { .number(s[$0].y) }),
                "t": .array((0..<s.count).map { .number(Double(s[$0].t)) }),
                "f": .array((0..<s.count).map { .number(s[$0].f) }),
            ])
        })
        o["children"] = .array(readingOrder(b.id, model: m).dropFirst().filter { $0.parentId == b.id }.map { exportJSON($0, model: m) })
        return .object(o)
    }
}
