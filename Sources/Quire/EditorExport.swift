import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkModel

extension Editor {
    /// A block's text: typed/converted text, else its recognized words line by line.
    static func plainText(of b: BlockData) -> String {
        if let t = b.text { return t }
        return textLines(of: b.words).map { $0.map { b.words[$0].label }.joined(separator: " ") }.joined(separator: "\n")
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
        return [.text, .json, .inkml, .png, .jpeg, .svg, .pdf]
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
                .map { Self.plainText(of: $0) }.filter { !$0.isEmpty }.joined(separator: "\n")
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
        case .text, .json, .inkml: return Data(try export(block, mimeType: mimeType).utf8)
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
        if let f = b.textFont {
            o["textFont"] = .object(["family": .string(f.family), "size": .number(f.size), "bold": .bool(f.bold), "italic": .bool(f.italic)])
        }
        if let img = b.image {
            o["image"] = .object(["mimeType": .string(img.mimeType), "pixelWidth": .number(Double(img.pixelWidth)), "pixelHeight": .number(Double(img.pixelHeight))])
        }
        o["words"] = .array(b.words.map { w in
            .object([
                "label": .string(w.label), "line": .number(Double(w.line)), "box": Self.json(w.box),
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

    // MARK: InkML

    func exportInkML(_ b: BlockData, model m: PartModel) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ink xmlns="http://www.w3.org/2003/InkML">
          <definitions>
            <context xml:id="ctx0">
              <traceFormat>
                <channel name="X" type="decimal" units="mm"/>
                <channel name="Y" type="decimal" units="mm"/>
                <channel name="T" type="integer" units="ms"/>
                <channel name="F" type="decimal" max="1"/>
              </traceFormat>
            </context>
          </definitions>

        """
        func group(_ d: BlockData, indent: String) {
            out += "\(indent)<traceGroup xml:id=\"\(XML.escape(d.id))\">\n"
            out += "\(indent)  <annotation type=\"blockType\">\(XML.escape(d.type))</annotation>\n"
            if Self.recognizable(d.type), !Self.plainText(of: d).isEmpty {
                out += "\(indent)  <annotation type=\"truth\">\(XML.escape(Self.plainText(of: d)))</annotation>\n"
            }
            for s in m.strokes(inBlock: d.id) {
                let pts = (0..<s.count).map { i -> String in
                    let q = s[i]
                    return String(format: "%.2f %.2f %lld %.6f", q.x, q.y, q.t, q.f)
                }.joined(separator: ", ")
                out += "\(indent)  <trace xml:id=\"\(XML.escape(s.id))\" contextRef=\"#ctx0\" type=\"\(s.pointerType.name)\" brushRef=\"\(XML.escape(s.tool))\">\(pts)</trace>\n"
            }
            for c in d.childIds.compactMap({ m.blocks[$0] }).sorted(by: { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }) {
                group(c, indent: indent + "  ")
            }
            out += "\(indent)</traceGroup>\n"
        }
        group(b, indent: "  ")
        out += "</ink>\n"
        return out
    }
}

/// Reads InkML (W3C) traces: X, Y (mm unless units say otherwise), optional T and F channels.
public enum InkMLReader {
    public static func read(_ data: Data) throws -> [ImportedTrace] {
        // Foundation's parser traps on an element or attribute name that is not UTF-8 (libxml2
        // hands it over as it is): a document read as UTF-8 must be UTF-8.
        if !declaresOtherEncoding(data), String(validating: data, as: UTF8.self) == nil {
            throw QuireError(.importError, "InkML is not valid UTF-8 (and declares no other encoding)")
        }
        let delegate = InkMLParserDelegate()
        // Fed as a stream, libxml2 reads the document in chunks: handed over whole, a document
        // over 10 MB fails as "huge input lookup" (error 1), and Quire's own InkML export of
        // a few thousand strokes is that large.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.delegate = delegate
        let parsed = parser.parse()
        // A trace the delegate refused stops the parser too: its message says what was wrong.
        if let e = delegate.error { throw e }
        guard parsed else {
            throw QuireError(.importError, "InkML is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        guard delegate.sawInk else { throw QuireError(.importError, "not an InkML document (no <ink> element)") }
        guard delegate.current == nil, delegate.depth == 0 else { throw QuireError(.importError, "InkML document is truncated") }
        return delegate.traces
    }
}

extension InkMLReader {
    /// True for UTF-16 (a byte-order mark, or "<" as two bytes) and for an XML declaration naming
    /// an encoding other than UTF-8: libxml2 converts those to UTF-8 itself.
    static func declaresOtherEncoding(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(200))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0x3C, 0x00]) || head.starts(with: [0x00, 0x3C]) {
            return true
        }
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return false }
        let decl = String(decoding: head[..<end], as: UTF8.self).lowercased().replacingOccurrences(of: "'", with: "\"")
        guard let r = decl.range(of: "encoding=\"") else { return false }
        let name = decl[r.upperBound...].prefix { $0 != "\"" }
        return name != "utf-8" && name != "utf8"
    }
}

private final class InkMLParserDelegate: NSObject, XMLParserDelegate {
    var channels: [String] = []
    var inTraceFormat = false
    var current: (type: PointerType, tool: String)?
    var text = ""
    var traces: [ImportedTrace] = []
    var error: QuireError?
    var sawInk = false
    var depth = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        depth += 1
        switch name {
        case "ink": sawInk = true
        case "traceFormat": inTraceFormat = true; channels = []
        case "channel": if inTraceFormat, let n = attributes["name"] { channels.append(n) }
        case "trace":
            current = (attributes["type"].flatMap { PointerType(name: $0) } ?? .pen, attributes["brushRef"] ?? "pen")
            text = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { if current != nil { text += string } }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if name == "traceFormat" { inTraceFormat = false }
        guard name == "trace", let cur = current else { return }
        current = nil
        let ch = channels.isEmpty ? ["X", "Y"] : channels
        guard let xi = ch.firstIndex(of: "X"), let yi = ch.firstIndex(of: "Y") else {
            error = QuireError(.importError, "InkML traceFormat needs X and Y channels"); parser.abortParsing(); return
        }
        let ti = ch.firstIndex(of: "T"), fi = ch.firstIndex(of: "F")
        var samples: [InkSample] = []
        for (k, point) in text.split(separator: ",").enumerated() {
            let tokens = point.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            let v = tokens.map { Double($0) }
            guard v.count >= ch.count, v.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                error = QuireError(.importError, "InkML trace \(traces.count) point \(k) is malformed: '\(point.prefix(60))'")
                parser.abortParsing(); return
            }
            var t = Int64(k * 10)
            if let ti {
                // Integers exactly (a time Quire wrote reads back, whatever it is), else a number
                // that fits: 1e19 would trap converting.
                guard let ms = Int64(tokens[ti]) ?? ImportedTrace.milliseconds(v[ti]!) else {
                    error = QuireError(.importError, "InkML trace \(traces.count) point \(k) has a time out of range: \(v[ti]!)")
                    parser.abortParsing(); return
                }
                t = ms
            }
            samples.append(InkSample(x: v[xi]!, y: v[yi]!, t: t, f: fi.map { v[$0]! } ?? 0))
        }
        if !samples.isEmpty { traces.append(ImportedTrace(samples: samples, pointerType: cur.type, tool: cur.tool)) }
    }
}

extension Editor {
    /// Writes imported traces (model millimetres) into the part through batch pointer input,
    /// gestures off, as a user would have written them.
    public func importTraces(_ traces: [ImportedTrace]) throws {
        let t = viewTransform
        var events: [PointerEvent] = []
        events.reserveCapacity(traces.reduce(0) { $0 + $1.samples.count })
        for tr in traces {
            guard let first = tr.samples.first else { continue }
            let type: PointerType = tr.pointerType == .eraser ? .pen : tr.pointerType
            let saved = toolController.tool(for: type)
            _ = saved
            for (i, s) in tr.samples.enumerated() {
                let p = t.apply(Point(x: s.x, y: s.y))
                let kind: PointerEventKind = i == 0 ? .down : (i == tr.samples.count - 1 ? .up : .move)
                events.append(PointerEvent(kind: kind, x: p.x, y: p.y, t: s.t, f: s.f, pointerType: type, pointerId: 1))
            }
            if tr.samples.count == 1 {
                let p = t.apply(Point(x: first.x, y: first.y))
                events.append(PointerEvent(kind: .up, x: p.x, y: p.y, t: first.t, f: first.f, pointerType: type, pointerId: 1))
            }
        }
        let prev = [PointerType.pen, .mouse, .touch].map { ($0, toolController.tool(for: $0)) }
        for (pt, _) in prev { toolController.setTool(.pen, for: pt) }
        defer { for (pt, tool) in prev { toolController.setTool(tool, for: pt) } }
        try pointerEvents(events, processGestures: false)
    }
}
