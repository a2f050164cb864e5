import Foundation
import InkModel

extension XournalFormat {
    /// A Xournal++ `.xopp` (gzip XML, file version 4) with one page per part: strokes with their
    /// colour and per-point widths from pressure, typed text as text elements, images as images.
    /// A part imported from Xournal++ gets its page size and background back; others get an A4
    /// page grown to hold their content.
    public static func write(_ parts: [PartModel]) throws -> Data {
        var out = "<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"Quire\" fileversion=\"4\">\n<title>Xournal++ document written by Quire</title>\n"
        for m in parts { out += page(m) }
        out += "</xournal>\n"
        return try Gzip.compress(Data(out.utf8))
    }

    static func n(_ mm: Double) -> String { String(format: "%.4f", mm / mmPerPoint) }

    static func color(_ c: String, default d: String, alpha: String) -> String {
        let base = InkColor.normalized(c) ?? d
        return base.count == 9 ? base : base + alpha
    }

    static func page(_ m: PartModel) -> String {
        let strokes = m.orderedStrokes
        var extent = (w: 210.0, h: 297.0)
        for s in strokes where s.count > 0 { extent = (max(extent.w, s.bounds.maxX + 10), max(extent.h, s.bounds.maxY + 10)) }
        for b in m.blocks.values where b.id != m.rootId { extent = (max(extent.w, b.box.maxX + 10), max(extent.h, b.box.maxY + 10)) }
        let w = (try? m.metadata.getNumber("import.page-width")) ?? extent.w
        let h = (try? m.metadata.getNumber("import.page-height")) ?? extent.h
        let styles: Set<String> = ["plain", "lined", "ruled", "graph", "dotted", "isodotted", "isograph", "staves"]
        let style = (try? m.metadata.getString("import.background")).flatMap { styles.contains($0) ? $0 : nil } ?? "plain"
        let bg = color((try? m.metadata.getString("import.background-color")) ?? "#ffffff", default: "#ffffff", alpha: "ff")
        var out = "<page width=\"\(n(max(w, 1)))\" height=\"\(n(max(h, 1)))\">\n<background type=\"solid\" color=\"\(bg)\" style=\"\(style)\"/>\n<layer>\n"
        for s in strokes where s.count > 0 {
            let highlighter = s.tool == "highlighter"
            let width = Double(s.width > 0 ? s.width : (highlighter ? 5 : 0.5))
            var pts = s.samples
            if pts.count == 1 { pts.append(pts[0]) }  // Xournal++ ignores strokes of one point
            let pressure = !highlighter && pts.contains { $0.f > 0 }
            var widths = n(pressure ? width * 1.6 : width)
            // One width per point (Xournal++ reads n - 1 or more; the last point's keeps the widest exact).
            if pressure { widths += pts.map { " " + n(width * (0.4 + 1.2 * min(max($0.f, 0), 1))) }.joined() }
            let c = color(s.color, default: highlighter ? "#ffff00" : "#000000", alpha: highlighter ? "7f" : "ff")
            out += "<stroke tool=\"\(highlighter ? "highlighter" : "pen")\" color=\"\(c)\" width=\"\(widths)\" capStyle=\"round\">"
            out += pts.map { "\(n($0.x)) \(n($0.y))" }.joined(separator: " ") + "</stroke>\n"
        }
        for b in m.blocksInTreeOrder() where b.id != m.rootId {
            if let text = b.text, !text.isEmpty {
                let size = (b.textFont?.size ?? 12 * mmPerPoint) / mmPerPoint
                let c = color(b.properties["import.color"] ?? "", default: "#000000", alpha: "ff")
                out += "<text font=\"\(XML.escape(b.textFont?.family ?? "Sans"))\" size=\"\(String(format: "%.2f", size))\" x=\"\(n(b.box.x))\" y=\"\(n(b.box.y))\" color=\"\(c)\">\(XML.escape(text))</text>\n"
            } else if let ref = b.image, let data = m.images[ref.entry] {
                out += "<image left=\"\(n(b.box.x))\" top=\"\(n(b.box.y))\" right=\"\(n(b.box.maxX))\" bottom=\"\(n(b.box.maxY))\">\(data.base64EncodedString())</image>\n"
            }
        }
        return out + "</layer>\n</page>\n"
    }
}
