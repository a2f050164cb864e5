import Foundation
import InkModel

/// InkML export (W3C InkML 2011) that validators and other programs read as meant:
/// - one context whose traceFormat declares units for every channel: X and Y in millimetres,
///   T in milliseconds since 1970 (integers), F normalised to 0...1 (declared by min and max);
/// - a brush per distinct look (colour, width in mm, transparency for a colour with alpha,
///   `rasterOp` maskPen for the highlighter), referenced by each trace's `brushRef`;
/// - `type="penDown"` traces (Quire once wrote `type="pen"`, which InkML does not define);
/// - a traceGroup per block (annotation `blockType`, and `truth` with a recognizable block's text)
///   holding, CROHME-style, a traceGroup per recognized word with its traces and `truth` label.
extension Editor {
    func exportInkML(_ b: BlockData, model m: PartModel) -> String {
        var ids = InkMLIds()
        var brushes: [InkMLBrushKey: String] = [:]
        var brushOrder: [InkMLBrushKey] = []
        var body = ""

        func trace(_ s: InkStroke, indent: String) {
            let key = InkMLBrushKey(s)
            let brush = brushes[key] ?? {
                let id = "br\(brushes.count + 1)"
                brushes[key] = id; brushOrder.append(key)
                return id
            }()
            let pts = (0..<s.count).map { i -> String in
                let q = s[i]
                return String(format: "%.2f %.2f %lld %.6f", q.x, q.y, q.t, q.f)
            }.joined(separator: ", ")
            body += "\(indent)<trace xml:id=\"\(ids.id(for: s.id))\" type=\"penDown\" contextRef=\"#ctx0\" brushRef=\"#\(brush)\">\(pts)</trace>\n"
        }
        func group(_ d: BlockData, indent: String) {
            body += "\(indent)<traceGroup xml:id=\"\(ids.id(for: d.id))\">\n"
            body += "\(indent)  <annotation type=\"blockType\">\(XML.escape(d.type))</annotation>\n"
            if Self.recognizable(d.type), !Self.plainText(of: d).isEmpty {
                body += "\(indent)  <annotation type=\"truth\">\(XML.escape(Self.plainText(of: d)))</annotation>\n"
            }
            let strokes = m.strokes(inBlock: d.id)
            var written = Set<String>()
            let byId = Dictionary(strokes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for w in d.words where !w.strokeIds.isEmpty {
                // A stroke shared by two words goes with the first: a trace is written once.
                let own = w.strokeIds.filter { byId[$0] != nil && !written.contains($0) }
                guard !own.isEmpty else { continue }
                body += "\(indent)  <traceGroup>\n"
                body += "\(indent)    <annotation type=\"truth\">\(XML.escape(w.label))</annotation>\n"
                for s in strokes where own.contains(s.id) {
                    trace(s, indent: indent + "    ")
                    written.insert(s.id)
                }
                body += "\(indent)  </traceGroup>\n"
            }
            for s in strokes where !written.contains(s.id) { trace(s, indent: indent + "  ") }
            for c in d.childIds.compactMap({ m.blocks[$0] }).sorted(by: { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }) {
                group(c, indent: indent + "  ")
            }
            body += "\(indent)</traceGroup>\n"
        }
        group(b, indent: "  ")
        // Labels an import kept (InkML annotations by traceGroup, as part metadata) go back out.
        if b.id == m.rootId { body += Self.importedLabels(m, ids: &ids) }

        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ink xmlns="http://www.w3.org/2003/InkML">
          <definitions>
            <context xml:id="ctx0">
              <traceFormat>
                <channel name="X" type="decimal" units="mm"/>
                <channel name="Y" type="decimal" units="mm"/>
                <channel name="T" type="integer" units="ms"/>
                <channel name="F" type="decimal" units="dev" min="0" max="1"/>
              </traceFormat>
            </context>

        """
        for key in brushOrder { out += key.element(id: brushes[key]!) }
        out += "  </definitions>\n"
        if b.id == m.rootId, let truth = try? m.metadata.getString("import.truth") {
            out += "  <annotation type=\"truth\">\(XML.escape(truth))</annotation>\n"
        }
        out += body + "</ink>\n"
        return out
    }

    /// The stroke groups and labels an import kept (`import.groups`), as top-level traceViews:
    /// they annotate traces by reference, so the traces stay in their blocks' traceGroups. A
    /// group lists its subgroups, then views of its strokes that none of them holds.
    static func importedLabels(_ m: PartModel, ids: inout InkMLIds) -> String {
        guard let encoded = try? m.metadata.getStringArray("import.groups") else { return "" }
        // Groups of Quire's own blocks (an export read back) come out as blocks again, not as labels.
        let groups = encoded.compactMap { try? JSONValue.parse(Data($0.utf8)) }.filter { $0["labels"]?["blockType"] == nil }
        guard !groups.isEmpty else { return "" }
        // Groups were kept in document order with their depth: a group's subgroups follow it, deeper.
        let depth = groups.map { $0["depth"]?.intValue ?? 0 }
        let strokes = groups.map { g in (g["strokes"]?.arrayValue ?? []).compactMap(\.stringValue).filter { m.strokes[$0] != nil } }
        var out = ""
        func write(_ i: Int, indent: String) -> Int {
            let id = groups[i]["id"]?.stringValue.map { " xml:id=\"\(ids.id(for: $0, kind: "group"))\"" } ?? ""
            out += "\(indent)<traceView\(id)>\n"
            for (k, v) in (groups[i]["labels"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let v = v.stringValue else { continue }
                if k.hasSuffix(".xml") {
                    // Kept as the XML it was read from.
                    out += "\(indent)  <annotationXML type=\"\(XML.escape(String(k.dropLast(4))))\">\(v)</annotationXML>\n"
                } else {
                    out += "\(indent)  <annotation type=\"\(XML.escape(k))\">\(XML.escape(v))</annotation>\n"
                }
            }
            var j = i + 1
            var covered = Set<String>()
            while j < groups.count, depth[j] > depth[i] {
                covered.formUnion(strokes[j])
                j = write(j, indent: indent + "  ")
            }
            for s in strokes[i] where !covered.contains(s) {
                out += "\(indent)  <traceView traceDataRef=\"#\(ids.id(for: s))\"/>\n"
            }
            out += "\(indent)</traceView>\n"
            return j
        }
        var i = 0
        while i < groups.count { i = write(i, indent: "  ") }
        return out
    }
}

/// What a brush says about a stroke.
struct InkMLBrushKey: Hashable {
    let tool: String
    let color: String
    let width: Float

    init(_ s: InkStroke) { tool = s.tool; color = s.color.lowercased(); width = s.width }

    func element(id: String) -> String {
        var props: [String] = []
        let hex = color.hasPrefix("#") ? String(color.dropFirst()) : ""
        if hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) {
            props.append("<brushProperty name=\"color\" value=\"#\(hex.prefix(6))\"/>")
            // InkML's transparency runs the other way from alpha: 0 is opaque.
            if hex.count == 8, let alpha = Int(hex.suffix(2), radix: 16), alpha < 255 {
                props.append("<brushProperty name=\"transparency\" value=\"\(255 - alpha)\"/>")
            }
        }
        if width > 0, width.isFinite { props.append("<brushProperty name=\"width\" value=\"\(width)\" units=\"mm\"/>") }
        if tool == "highlighter" { props.append("<brushProperty name=\"rasterOp\" value=\"maskPen\"/>") }
        props.append("<brushProperty name=\"tip\" value=\"ellipse\"/>")
        return "    <brush xml:id=\"\(id)\">\n" + props.map { "      \($0)\n" }.joined() + "    </brush>\n"
    }
}

/// Ids as xml:id needs them (XML names, unique): Quire's own ("s12", "b3") stay; any other (an
/// id from an imported JSON file) gets a made-up one.
struct InkMLIds {
    private var given: [String: String] = [:]  // by kind and id
    private var used = Set<String>()

    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "-_.".unicodeScalars.contains($0) }
    }

    /// The xml:id of a stroke or block (kind ""), or of another kind of thing ("group").
    mutating func id(for raw: String, kind: String = "") -> String {
        let key = kind + ":" + raw
        if let g = given[key] { return g }
        var id = Self.isName(raw) && !used.contains(raw) ? raw : "id-\(used.count + 1)"
        while used.contains(id) { id += "-" }
        given[key] = id
        used.insert(id)
        return id
    }
}
