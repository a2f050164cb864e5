import Foundation
import InkModel

/// Reads Xournal++ `.xopp` (gzip XML, or the zip package holding `mimetype`, `META-INF/version`,
/// `content.xml` and attachments) and Xournal `.xoj` (gzip XML; plain XML is read too).
///
/// Each page becomes a page of the document with its size and background; layers are
/// flattened in order; pen and highlighter strokes keep their colour and per-point widths
/// (pressure); eraser strokes (Xournal's whiteout) are dropped; text and links become typed
/// text; images and TeX images (PNG or JPEG) become images. PDF backgrounds are named in the
/// page's metadata and not imported. Coordinates are PostScript points, turned into millimetres.
public enum XournalFormat {
    static let mmPerPoint = 25.4 / 72
    static let maxXMLBytes = 512 << 20

    /// Reads the file at `path` (the zip variant needs random access to its entries).
    public static func read(path: String) throws -> InkDocument {
        let raw = try FileIO.readFile(path, maxBytes: maxXMLBytes)
        if ZipEntries.isZip(raw) {
            let entries = try ZipEntries.read(path: path)
            guard let content = entries["content.xml"] else {
                throw QuireError(.importError, "'\(path)' is a zip archive without content.xml: not a Xournal++ file")
            }
            if let m = entries["mimetype"].map({ String(decoding: $0.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }),
               !m.hasPrefix("application/xournal++") {
                throw QuireError(.importError, "'\(path)' has mimetype '\(m.prefix(60))', not application/xournal++")
            }
            return try read(content, attachments: entries, beside: path)
        }
        return try read(raw, beside: path)
    }

    /// Reads gzip or plain XML; `attachments` are the zip package's entries, `beside` the file's
    /// path (Xournal++ keeps attached backgrounds next to it, as `<file>.<name>`).
    public static func read(_ data: Data, attachments: [String: Data] = [:], beside path: String? = nil) throws -> InkDocument {
        let xml = try Gzip.decompress(data, maxBytes: maxXMLBytes)
        let root = try XMLTree.parse(xml, format: "Xournal++")
        guard root.name == "xournal" || root.name == "MrWriter" else {
            throw QuireError(.importError, "not a Xournal++ document: the root element is <\(root.name)>, not <xournal>")
        }
        var r = XournalReading(attachments: attachments, beside: path)
        var doc = InkDocument(format: root["creator"].map { $0.lowercased().hasPrefix("xournal++") || $0.lowercased().hasPrefix("xournalpp") ? "Xournal++" : "Xournal" } ?? "Xournal")
        if let c = root["creator"] { doc.metadata["creator"] = c }
        if let v = root["fileversion"] { doc.metadata["fileversion"] = v }
        for (k, p) in root.children("page").enumerated() { doc.pages.append(try r.page(p, number: k + 1)) }
        guard !doc.pages.isEmpty else { throw QuireError(.importError, "the Xournal++ document has no pages") }
        if r.recovered > 0 { r.notes.append("\(r.recovered) stroke(s) with unreadable per-point widths: drawn at their nominal width there") }
        doc.notes = r.notes + r.dropped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key) not imported" }
        return doc
    }
}

struct XournalReading {
    let attachments: [String: Data]
    let beside: String?
    var notes: [String] = []
    var dropped: [String: Int] = [:]
    /// Strokes whose unreadable per-point widths were replaced by their nominal width.
    var recovered = 0
    var clock: Int64 = 0

    init(attachments: [String: Data], beside: String?) { self.attachments = attachments; self.beside = beside }

    func at(_ e: XElement, _ what: String) -> QuireError { QuireError(.importError, "Xournal++ line \(e.line): \(what)") }

    func number(_ e: XElement, _ name: String) throws -> Double {
        guard let s = e[name], let v = Double(s.trimmingCharacters(in: .whitespaces)), v.isFinite else {
            throw at(e, "<\(e.name)> needs a number in '\(name)' (has \(e[name].map { "'\($0)'" } ?? "none"))")
        }
        return v
    }

    static func color(_ s: String?) -> String {
        guard let s, let c = InkColor.normalized(s) else { return "" }
        return c.count == 9 && c.hasSuffix("ff") ? String(c.prefix(7)) : c
    }

    mutating func page(_ e: XElement, number: Int) throws -> InkPage {
        let mm = XournalFormat.mmPerPoint
        var page = InkPage(size: (try self.number(e, "width") * mm, try self.number(e, "height") * mm))
        if let bg = e.child("background") {
            switch bg["type"] ?? "solid" {
            case "pdf":
                let src = (bg["filename"].map { "\($0), " } ?? "") + "page \(bg["pageno"] ?? "?")"
                page.background = InkBackground(style: "pdf", source: src)
                page.metadata["background.pdf"] = src
                notes.append("page \(number): PDF background (\(src)) not imported")
            case "pixmap":
                let name = bg["filename"] ?? ""
                page.background = InkBackground(style: "image", source: name)
                if let data = attachment(name, domain: bg["domain"]), let info = ImageInfo.sniff(data), let size = page.size {
                    page.images.append(InkImage(data: data, mimeType: info.mimeType, pixelWidth: info.width, pixelHeight: info.height,
                                                box: Rect(x: 0, y: 0, width: size.width, height: size.height)))
                } else {
                    page.metadata["background.image"] = name
                    notes.append("page \(number): image background '\(name)' not found or not PNG/JPEG; not imported")
                }
            default:
                page.background = InkBackground(style: bg["style"] ?? "plain", color: Self.color(bg["color"]))
            }
        }
        for layer in e.children("layer") {
            for el in layer.children {
                switch el.name {
                case "stroke": if let s = try stroke(el) { page.strokes.append(s) }
                case "text", "link": page.texts.append(try text(el))
                case "image", "teximage": try image(el, into: &page)
                case "audio", "timestamp": break
                default: dropped["<\(el.name)> element(s)", default: 0] += 1
                }
            }
        }
        return page
    }

    func attachment(_ name: String, domain: String?) -> Data? {
        if let d = attachments[name] { return d }
        guard let beside, domain == "attach" || domain == nil else { return nil }
        return try? FileIO.readFile(beside + "." + name, maxBytes: 64 << 20)
    }

    mutating func stroke(_ e: XElement) throws -> InkTrace? {
        let tool = e["tool"] ?? "pen"
        guard tool != "eraser" else { dropped["eraser stroke(s)", default: 0] += 1; return nil }
        let mm = XournalFormat.mmPerPoint
        let coords = try values(e.text, e, what: "coordinates")
        guard coords.count >= 2, coords.count % 2 == 0 else {
            throw at(e, "a stroke needs x y pairs; it has \(coords.count) number\(coords.count == 1 ? "" : "s")")
        }
        var pts = stride(from: 0, to: coords.count, by: 2).map { (x: coords[$0] * mm, y: coords[$0 + 1] * mm) }
        // Widths and pressures that are not numbers (Xournal++ once wrote "nan") are recovered
        // as Xournal++ does: the stroke's nominal width stands in for them.
        let widthValues = lenientValues(e["width"] ?? "1")
        guard let first = widthValues.first, let nominal = first, nominal >= 0 else {
            throw at(e, "a stroke's width is missing, negative or not a number ('\((e["width"] ?? "").prefix(30))')")
        }
        var raw = Array(widthValues.dropFirst())
        if let p = e["pressures"] { raw = lenientValues(p).map { $0.map { $0 * nominal } } }
        if raw.contains(where: { $0 == nil || $0! <= 0 }) { recovered += 1 }
        var widths = raw.map { w in w.flatMap { $0 > 0 ? $0 : nil } ?? nominal }
        if e["pathtype"] == "spline", pts.count >= 4 {
            (pts, widths) = Self.flattenSpline(pts, widths: widths)
        }
        // Per-point widths (pressure) become Quire pressures around a nominal width: the renderer
        // draws 0.4 to 1.6 times the width for pressure 0 to 1.
        var width = nominal * mm
        var f = Array(repeating: 0.0, count: pts.count)
        if !widths.isEmpty, widths.count >= pts.count - 1, nominal > 0 {
            let w = (0..<pts.count).map { widths[min($0, widths.count - 1)] * mm }
            // The widest point gets full pressure: the others then down to a quarter of it.
            width = (w.max() ?? width) / 1.6
            f = w.map { max(0, min(1, ($0 / width - 0.4) / 1.2)) }
        }
        var color = Self.color(e["color"])
        if tool == "highlighter", color.count == 9 { color = String(color.prefix(7)) }
        let start = clock
        let samples = pts.enumerated().map { k, p in InkSample(x: p.x, y: p.y, t: start + Int64(k) * 10, f: f[k]) }
        clock += Int64(pts.count) * 10 + 100
        return InkTrace(samples: samples, brush: InkBrush(tool: tool == "highlighter" ? "highlighter" : "pen", color: color, width: width))
    }

    /// Cubic Bézier segments (start, then control, control, end per segment) as a polyline.
    static func flattenSpline(_ p: [(x: Double, y: Double)], widths: [Double]) -> ([(x: Double, y: Double)], [Double]) {
        var out = [p[0]], ws = widths.isEmpty ? [] : [widths[0]]
        var i = 0
        while i + 3 < p.count {
            let (a, b, c, d) = (p[i], p[i + 1], p[i + 2], p[i + 3])
            for k in 1...8 {
                let t = Double(k) / 8, u = 1 - t
                out.append((u * u * u * a.x + 3 * u * u * t * b.x + 3 * u * t * t * c.x + t * t * t * d.x,
                            u * u * u * a.y + 3 * u * u * t * b.y + 3 * u * t * t * c.y + t * t * t * d.y))
                if !widths.isEmpty {
                    let w0 = widths[min(i, widths.count - 1)], w1 = widths[min(i + 3, widths.count - 1)]
                    ws.append(w0 + (w1 - w0) * t)
                }
            }
            i += 3
        }
        return (out, ws)
    }

    func values(_ s: String, _ e: XElement, what: String) throws -> [Double] {
        var out: [Double] = []
        for tok in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            guard let v = Double(tok), v.isFinite else { throw at(e, "'\(tok.prefix(30))' in a stroke's \(what) is not a number") }
            out.append(v)
        }
        return out
    }

    func lenientValues(_ s: String) -> [Double?] {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    func text(_ e: XElement) throws -> InkText {
        let mm = XournalFormat.mmPerPoint
        let size = (e["size"].flatMap(Double.init) ?? 12) * mm
        return InkText(text: e.text, origin: Point(x: try number(e, "x") * mm, y: try number(e, "y") * mm),
                       font: e["font"] ?? "Sans", size: size.isFinite && size > 0 ? size : 12 * mm, color: Self.color(e["color"]))
    }

    mutating func image(_ e: XElement, into page: inout InkPage) throws {
        let mm = XournalFormat.mmPerPoint
        let l = try number(e, "left"), t = try number(e, "top"), r = try number(e, "right"), b = try number(e, "bottom")
        let box = Rect(x: l * mm, y: t * mm, width: (r - l) * mm, height: (b - t) * mm)
        var data = Data(base64Encoded: e.text.filter { !$0.isWhitespace }) ?? Data()
        if let path = e.child("attachment")?["path"] { data = attachments[path] ?? data }
        if let info = ImageInfo.sniff(data), box.width > 0, box.height > 0 {
            page.images.append(InkImage(data: data, mimeType: info.mimeType, pixelWidth: info.width, pixelHeight: info.height,
                                        box: box, tex: e.name == "teximage" ? e["text"] : nil))
        } else if e.name == "teximage", let tex = e["text"] {
            // A TeX image kept as PDF: its LaTeX source, typed at its place, says what it showed.
            page.texts.append(InkText(text: tex, origin: Point(x: box.x, y: box.y), font: "Sans", size: max(1, box.height * 0.6), color: ""))
            notes.append("a TeX image that is not PNG or JPEG was imported as its LaTeX source text")
        } else {
            dropped["image(s) that are not PNG or JPEG", default: 0] += 1
        }
    }
}
