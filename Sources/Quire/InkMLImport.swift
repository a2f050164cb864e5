import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkModel

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
            // Quire wrote its tool name as brushRef; now it refers to a <brush> ("#br1"), which
            // says "highlighter" by its rasterOp: this reader keeps pen for those.
            let tool = attributes["brushRef"].map { $0.hasPrefix("#") ? "pen" : $0 } ?? "pen"
            current = (attributes["type"].flatMap { PointerType(name: $0) } ?? .pen, tool)
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
    /// gestures off, as a user would have written them; in a Text Document each stroke joins the
    /// block where it was written and the blocks flow once at the end.
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
        try withFlowHeld { try pointerEvents(events, processGestures: false) }
    }
}
