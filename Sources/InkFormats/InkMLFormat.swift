import Foundation
import InkModel

/// Reads W3C InkML (2011): any namespace prefix, traceFormat with channels in any order (extra
/// ones ignored), inkSource channel properties, units and resolutions, difference-encoded
/// traces, contexts, brushes, timestamps, traceGroups, labelling traceViews and annotations.
///
/// Trace types: `penDown` (the default) and `indeterminate` are ink; `penUp` traces (the pen
/// moving in the air) are not ink and are dropped; traces Quire once wrote as `type="eraser"` are
/// dropped too (an eraser's path is not ink, and erasing by it would guess at the writer's intent).
/// Each choice is recorded in the document's notes.
public enum InkMLFormat {
    /// A typical stroke of unit-less ink after scaling: about a written letter's height.
    public static let naturalStrokeSize = 8.0

    public static func read(_ data: Data) throws -> InkDocument {
        let root = try XMLTree.parse(data, format: "InkML")
        guard root.name == "ink" else {
            throw QuireError(.importError, "not an InkML document: the root element is <\(root.name)>, not <ink>")
        }
        var reader = InkMLReading(root: root)
        return try reader.run()
    }
}

/// What applies to a trace: its channels, brush and start time.
struct InkMLContext {
    var channels: [InkMLChannel] = [InkMLChannel(name: "X"), InkMLChannel(name: "Y")]
    var brush: XElement?
    var timestamp: Double?
}

/// One InkML document being read (a value: `read` makes one per call).
struct InkMLReading {
    let root: XElement
    var byId: [String: XElement] = [:]
    var page = InkPage()
    var doc = InkDocument(format: "InkML")
    var traceIndexById: [String: Int] = [:]
    var groupStrokesById: [String: [Int]] = [:]
    /// Per stroke: read without units (scaled afterwards), pressure without a declared range.
    var unitless: [Bool] = []
    var rawPressure: [Bool] = []
    var clock: Int64 = 0
    var dropped: [String: Int] = [:]
    var pendingViews: [(group: Int, refs: [String])] = []
    /// Each group's enclosing group, by index into the page's groups.
    var parents: [Int?] = []
    var openGroups: [Int] = []

    init(root: XElement) {
        self.root = root
        var stack = [root]
        while let e = stack.popLast() {
            if let id = e.xmlId, byId[id] == nil { byId[id] = e }
            stack.append(contentsOf: e.children)
        }
    }

    func at(_ e: XElement, _ what: String) -> QuireError { QuireError(.importError, "InkML line \(e.line): \(what)") }

    func lookup(_ ref: String, _ kind: String, from e: XElement) throws -> XElement {
        let id = ref.split(separator: "#", omittingEmptySubsequences: false).last.map(String.init) ?? ref
        guard let t = byId[id], t.name == kind else { throw at(e, "\(kind) '\(ref)' is not defined in this document") }
        return t
    }

    mutating func run() throws -> InkDocument {
        var ctx = InkMLContext()
        for e in root.children {
            switch e.name {
            case "context": ctx = try context(e, base: ctx, seen: [])
            case "traceFormat": ctx.channels = try traceFormat(e)
            case "inkSource": ctx.channels = try inkSource(e, channels: ctx.channels)
            case "trace": try trace(e, ctx)
            case "traceGroup": _ = try group(e, ctx, depth: 0)
            case "annotation", "annotationXML": annotate(e)
            case "traceView": view(e, depth: 0)
            default: break  // definitions (looked up by id), timestamps, canvases
            }
        }
        resolveViews()
        finish()
        for (what, n) in dropped.sorted(by: { $0.key < $1.key }) { doc.notes.append("\(n) \(what) not imported") }
        doc.pages = [page]
        return doc
    }

    mutating func annotate(_ e: XElement) {
        let type = e["type"] ?? (e.name == "annotation" ? "annotation" : "annotationXML")
        let value = e.name == "annotation" ? e.text.trimmingCharacters(in: .whitespacesAndNewlines) : e.children.map(\.xmlString).joined()
        let key = e.name == "annotation" ? type : type + ".xml"
        doc.metadata[key] = doc.metadata[key].map { $0 + "\n" + value } ?? value
    }

    // MARK: contexts

    func context(_ e: XElement, base: InkMLContext, seen: Set<String>) throws -> InkMLContext {
        var c = base
        if let ref = e["contextRef"] {
            let target = try lookup(ref, "context", from: e)
            let id = target.xmlId ?? ""
            guard !seen.contains(id) else { throw at(e, "context '\(ref)' refers back to itself") }
            c = try context(target, base: InkMLContext(), seen: seen.union([id]))
        }
        if let ref = e["inkSourceRef"] { c.channels = try inkSource(try lookup(ref, "inkSource", from: e), channels: c.channels) }
        if let ref = e["traceFormatRef"] { c.channels = try traceFormat(try lookup(ref, "traceFormat", from: e)) }
        if let ref = e["brushRef"] { c.brush = try brush(ref, from: e) }
        if let ref = e["timestampRef"] { c.timestamp = try time(try lookup(ref, "timestamp", from: e), seen: []) }
        for k in e.children {
            switch k.name {
            case "inkSource": c.channels = try inkSource(k, channels: c.channels)
            case "traceFormat": c.channels = try traceFormat(k)
            case "brush": c.brush = k
            case "timestamp": c.timestamp = try time(k, seen: [])
            default: break
            }
        }
        return c
    }

    func brush(_ ref: String, from e: XElement) throws -> XElement? {
        if let b = try? lookup(ref, "brush", from: e) { return b }
        // Quire wrote its tool name there ("pen", "highlighter"): not a reference, still meaningful.
        if !ref.contains("#"), ["pen", "highlighter"].contains(ref) { return XElement(name: "tool", attributes: ["name": ref], line: e.line) }
        throw at(e, "brush '\(ref)' is not defined in this document")
    }

    func traceFormat(_ e: XElement) throws -> [InkMLChannel] {
        if let ref = e["href"] ?? e["traceFormatRef"], e.children.isEmpty { return try traceFormat(try lookup(ref, "traceFormat", from: e)) }
        var out: [InkMLChannel] = []
        func add(_ ch: XElement, intermittent: Bool) throws {
            guard let name = ch["name"], !name.isEmpty else { throw at(ch, "a <channel> has no name") }
            var c = InkMLChannel(name: name)
            c.type = ch["type"] ?? "decimal"
            c.units = ch["units"]
            c.defaultValue = ch["default"].flatMap(Double.init) ?? 0
            c.min = ch["min"].flatMap(Double.init)
            c.max = ch["max"].flatMap(Double.init)
            c.negative = ch["orientation"] == "-ve"
            c.intermittent = intermittent
            out.append(c)
        }
        for k in e.children {
            if k.name == "channel" { try add(k, intermittent: false) }
            if k.name == "intermittentChannels" { for ch in k.children("channel") { try add(ch, intermittent: true) } }
        }
        guard !out.isEmpty else { throw at(e, "the traceFormat has no channels") }
        return out
    }

    func inkSource(_ e: XElement, channels: [InkMLChannel]) throws -> [InkMLChannel] {
        var chans = channels
        if let tf = e.child("traceFormat") { chans = try traceFormat(tf) }
        for props in e.children("channelProperties") {
            for p in props.children("channelProperty") {
                guard let ch = p["channel"], let i = chans.firstIndex(where: { $0.name == ch }),
                      let v = p["value"].flatMap(Double.init), v.isFinite else { continue }
                switch p["name"] {
                case "resolution": chans[i].resolution = (v, p["units"] ?? "dev")
                case "max": chans[i].max = v
                case "min": chans[i].min = v
                default: break
                }
            }
        }
        return chans
    }

    /// A timestamp's time in milliseconds since 1970.
    func time(_ e: XElement, seen: Set<String>) throws -> Double? {
        if let t = e["time"].flatMap(Double.init), t.isFinite { return t }
        if let s = e["timeString"] {
            if let ms = Self.milliseconds(iso8601: s) { return ms }
            throw at(e, "timestamp time '\(s)' is not an ISO 8601 date and time")
        }
        if let ref = e["timestampRef"] {
            let target = try lookup(ref, "timestamp", from: e)
            guard let id = target.xmlId, !seen.contains(id) else { throw at(e, "timestamp '\(ref)' refers back to itself") }
            let base = try time(target, seen: seen.union([id])) ?? 0
            return base + (e["timeOffset"].flatMap(Double.init) ?? 0)
        }
        return nil
    }

    /// An ISO 8601 date and time, with or without fractional seconds and zone (Office writes
    /// none: read as UTC), in milliseconds since 1970.
    static func milliseconds(iso8601 s: String) -> Double? {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX", "yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss.SSS", "yyyy-MM-dd'T'HH:mm:ss"] {
            f.dateFormat = format
            if let d = f.date(from: s) { return d.timeIntervalSince1970 * 1000 }
        }
        return nil
    }

    // MARK: traces and groups

    mutating func group(_ e: XElement, _ outer: InkMLContext, depth: Int) throws -> [Int] {
        var ctx = outer
        if let ref = e["contextRef"] { ctx = try context(try lookup(ref, "context", from: e), base: outer, seen: []) }
        if let ref = e["brushRef"] { ctx.brush = try brush(ref, from: e) }
        var labels: [String: String] = [:]
        var members: [Int] = []
        var views: [String] = []
        let slot = page.groups.count
        page.groups.append(InkGroup(id: e.xmlId, labels: [:], strokes: [], depth: depth))
        parents.append(openGroups.last)
        openGroups.append(slot)
        defer { openGroups.removeLast() }
        for k in e.children {
            switch k.name {
            case "trace": if let i = try trace(k, ctx) { members.append(i) }
            case "traceGroup": members += try group(k, ctx, depth: depth + 1)
            case "traceView": if let ref = k["traceDataRef"] { views.append(ref) }
            case "annotation", "annotationXML": Self.label(k, into: &labels)
            default: break
            }
        }
        page.groups[slot].labels = labels
        page.groups[slot].strokes = members
        if let id = e.xmlId { groupStrokesById[id] = members }
        if !views.isEmpty { pendingViews.append((slot, views)) }
        return members
    }

    /// A group's label from an annotation (by type) or annotationXML (kept as XML, under "<type>.xml").
    static func label(_ k: XElement, into labels: inout [String: String]) {
        if k.name == "annotation" {
            let type = k["type"] ?? "annotation"
            let v = k.text.trimmingCharacters(in: .whitespacesAndNewlines)
            labels[type] = labels[type].map { $0 + "\n" + v } ?? v
        } else {
            let v = k.children.map(\.xmlString).joined()
            if !v.isEmpty { labels[(k["type"] ?? "annotationXML") + ".xml"] = v }
            if let href = k["href"] { labels["href"] = href }
        }
    }

    /// A traceView outside any traceGroup labels traces by reference (InkML's way to annotate ink
    /// without regrouping it, and Quire's export of imported labels): a group like a traceGroup.
    /// Nested traceViews with annotations or views of their own are subgroups; plain ones name
    /// members. A view of part of a trace (`from`, `to`) takes the whole trace.
    mutating func view(_ e: XElement, depth: Int) {
        let slot = page.groups.count
        page.groups.append(InkGroup(id: e.xmlId, labels: [:], strokes: [], depth: depth))
        parents.append(openGroups.last)
        openGroups.append(slot)
        defer { openGroups.removeLast() }
        var labels: [String: String] = [:]
        var refs: [String] = e["traceDataRef"].map { [$0] } ?? []
        for k in e.children {
            switch k.name {
            case "annotation", "annotationXML": Self.label(k, into: &labels)
            case "traceView":
                if k.children.contains(where: { ["annotation", "annotationXML", "traceView"].contains($0.name) }) {
                    view(k, depth: depth + 1)
                } else if let ref = k["traceDataRef"] {
                    refs.append(ref)
                }
            default: break
            }
        }
        page.groups[slot].labels = labels
        if !refs.isEmpty { pendingViews.append((slot, refs)) }
    }

    /// traceViews name traces (or groups) by id, often ones that come later in the file.
    mutating func resolveViews() {
        for (g, refs) in pendingViews {
            var members = page.groups[g].strokes
            for ref in refs {
                let id = ref.split(separator: "#", omittingEmptySubsequences: false).last.map(String.init) ?? ref
                if let i = traceIndexById[id] { members.append(i) } else if let gs = groupStrokesById[id] { members += gs }
            }
            page.groups[g].strokes = members
        }
        // A group holds its subgroups' strokes, those they only view included (children come
        // after their parents).
        for g in page.groups.indices.reversed() {
            if let p = parents[g] { page.groups[p].strokes += page.groups[g].strokes }
        }
        for g in page.groups.indices { page.groups[g].strokes = Array(Set(page.groups[g].strokes)).sorted() }
    }

    @discardableResult
    mutating func trace(_ e: XElement, _ outer: InkMLContext) throws -> Int? {
        let ordinal = page.strokes.count + dropped.values.reduce(0, +) + 1
        let name = e.xmlId.map { "trace '\($0)'" } ?? "trace \(ordinal)"
        switch e["type"] ?? "penDown" {
        case "penDown", "indeterminate", "pen", "touch", "mouse": break
        case "penUp": dropped["penUp trace(s) (pen moving in the air)", default: 0] += 1; return nil
        case "eraser": dropped["eraser trace(s)", default: 0] += 1; return nil
        case let t: throw at(e, "\(name) has type '\(t)'; InkML trace types are penDown, penUp and indeterminate")
        }
        var ctx = outer
        if let ref = e["contextRef"] { ctx = try context(try lookup(ref, "context", from: e), base: outer, seen: []) }
        if let ref = e["brushRef"] { ctx.brush = try brush(ref, from: e) }
        let ch = ctx.channels
        guard let xi = ch.firstIndex(where: { $0.name == "X" }), let yi = ch.firstIndex(where: { $0.name == "Y" }) else {
            throw at(e, "\(name): its traceFormat has no X and Y channels (it has \(ch.map(\.name).joined(separator: ", ")))")
        }
        let ti = ch.firstIndex { $0.name == "T" }, fi = ch.firstIndex { $0.name == "F" }
        var decoder = InkMLTraceDecoder(channels: ch)
        let line = e.line
        let points = try decoder.decode(e.text) { "InkML line \(line): \(name), \($0)" }
        guard !points.isEmpty else { dropped["empty trace(s)", default: 0] += 1; return nil }
        let mmX = ch[xi].millimetresPerValue, mmY = ch[yi].millimetresPerValue
        let noUnits = mmX == nil && mmY == nil
        let sx = (mmX ?? mmY ?? 1) * (ch[xi].negative ? -1 : 1), sy = (mmY ?? mmX ?? 1) * (ch[yi].negative ? -1 : 1)
        let start = (ctx.timestamp ?? 0) + (e["timeOffset"].flatMap(Double.init) ?? 0)
        let msPerT = ti.map { ch[$0].millisecondsPerValue } ?? 1
        var fRange: (lo: Double, span: Double)?
        if let fi, let hi = ch[fi].max, hi > (ch[fi].min ?? 0) { fRange = (ch[fi].min ?? 0, hi - (ch[fi].min ?? 0)) }
        var samples: [InkSample] = []
        samples.reserveCapacity(points.count)
        for (k, p) in points.enumerated() {
            let (c0, o0) = clock.addingReportingOverflow(Int64(k) * 10)
            var t = o0 ? Int64.max : c0
            if let ti, start == 0, msPerT == 1, let ms = decoder.exact[k][ti] {
                t = ms
            } else if let ti {
                let v = start + (p[ti] ?? 0) * msPerT
                guard let ms = ImportedTrace.milliseconds(v) else { throw at(e, "\(name), point \(k + 1): time out of range: \(v) ms") }
                t = ms
            } else if ctx.timestamp != nil || e["timeOffset"] != nil, let base = ImportedTrace.milliseconds(start) {
                t = base + Int64(k) * 10
            }
            var f = fi.flatMap { p[$0] } ?? 0
            if let r = fRange { f = (f - r.lo) / r.span }
            samples.append(InkSample(x: p[xi]! * sx, y: p[yi]! * sy, t: t, f: f))
        }
        // Saturating: a time read exactly may be anywhere in Int64.
        let (next, over) = (samples.last?.t ?? clock).addingReportingOverflow(100)
        clock = over ? .max : next
        let brush = resolveBrush(ctx.brush, lengthScale: mmX ?? 1)
        // A continued trace (continuation="middle"/"end") belongs to the stroke it continues.
        if let c = e["continuation"], c != "begin", let prior = e["priorRef"],
           let i = traceIndexById[prior.split(separator: "#").last.map(String.init) ?? prior] {
            page.strokes[i].samples += samples
            if let id = e.xmlId { traceIndexById[id] = i }
            return nil
        }
        page.strokes.append(InkTrace(samples: samples, brush: brush, sourceId: e.xmlId))
        unitless.append(noUnits)
        rawPressure.append(fi != nil && fRange == nil)
        if let id = e.xmlId { traceIndexById[id] = page.strokes.count - 1 }
        return page.strokes.count - 1
    }

    func resolveBrush(_ b: XElement?, lengthScale: Double) -> InkBrush {
        guard let b else { return InkBrush() }
        if b.name == "tool" { return InkBrush(tool: b["name"] ?? "pen") }
        var props: [String: XElement] = [:]
        var seen = Set<String>()
        var cur: XElement? = b
        // A brush may refine another one (brushRef): the nearer property wins.
        while let e = cur, seen.insert(e.xmlId ?? "\(e.line)").inserted {
            for p in e.children("brushProperty") { if let n = p["name"], props[n] == nil { props[n] = p } }
            cur = e["brushRef"].flatMap { try? lookup($0, "brush", from: e) }
        }
        var out = InkBrush()
        if let c = props["color"]?["value"].flatMap(InkColor.normalized) { out.color = c }
        if let w = props["width"], let v = w["value"].flatMap(Double.init), v.isFinite, v > 0 {
            out.width = v * (w["units"].flatMap(InkMLUnits.millimetres) ?? lengthScale)
        }
        let transparency = props["transparency"]?["value"].flatMap(Double.init).map { Int(max(0, min(255, $0))) } ?? 0
        if props["rasterOp"]?["value"] == "maskPen" || props["tool"]?["value"] == "highlighter" { out.tool = "highlighter" }
        if transparency > 0 {
            out.color = InkColor.withAlpha(out.color.isEmpty ? "#000000" : out.color, 255 - transparency)
        }
        return out
    }

    // MARK: after reading

    /// Unit-less ink is scaled to a natural writing size when taken as millimetres it would be
    /// tiny or huge; pressure without a declared range is brought to 0...1; ink left of or above
    /// the page is moved onto it. Every choice goes into the notes.
    mutating func finish() {
        guard !page.strokes.isEmpty else { return }
        if unitless.allSatisfy({ $0 }) {
            let sizes = page.strokes.compactMap { s -> Double? in
                guard let b = InkPage(strokes: [s]).inkBounds else { return nil }
                let m = max(b.width, b.height)
                return m > 0 ? m : nil
            }.sorted()
            let typical = sizes.isEmpty ? 0 : sizes[sizes.count / 2]
            if typical > 0, typical < 1 || typical > 40 {
                let k = InkMLFormat.naturalStrokeSize / typical
                for i in page.strokes.indices {
                    page.strokes[i].samples = page.strokes[i].samples.map { InkSample(x: $0.x * k, y: $0.y * k, t: $0.t, f: $0.f) }
                    page.strokes[i].brush.width *= k
                }
                let extent = page.inkBounds.map { max($0.width, $0.height) / k } ?? 0
                let note = "coordinates have no units and a typical stroke spans \(fmt(typical)) units (the drawing \(fmt(extent))): "
                    + "scaled by \(fmt(k)) to make a typical stroke \(fmt(InkMLFormat.naturalStrokeSize)) mm"
                doc.notes.append(note)
                doc.metadata["scale"] = "\(k)"
            } else {
                doc.notes.append("coordinates have no units: read as millimetres")
            }
        }
        let needsRange = page.strokes.indices.filter { rawPressure[$0] }
        let fMax = needsRange.flatMap { page.strokes[$0].samples.map(\.f) }.max() ?? 0
        if fMax > 1 {
            for i in needsRange { page.strokes[i].samples = page.strokes[i].samples.map { InkSample(x: $0.x, y: $0.y, t: $0.t, f: $0.f / fMax) } }
            doc.notes.append("pressure has no declared range: divided by its largest value, \(fmt(fMax))")
        }
        if let b = page.inkBounds, b.x < 0 || b.y < 0 || doc.metadata["scale"] != nil {
            let dx = 10 - b.x, dy = 10 - b.y
            for i in page.strokes.indices {
                page.strokes[i].samples = page.strokes[i].samples.map { InkSample(x: $0.x + dx, y: $0.y + dy, t: $0.t, f: $0.f) }
            }
            doc.notes.append("moved by (\(fmt(dx)), \(fmt(dy))) mm so that the ink starts 10 mm from the page's corner")
        }
    }

    func fmt(_ v: Double) -> String {
        let s = String(format: "%.4g", v)
        return s
    }
}
