import Foundation

/// One sample of the shared handwriting-data format
/// (`{"id","set","writer","label","cat","ppi","strokes":[[[x,y(,t)]...]]}`), as read: placing it on
/// a page (`millimetreStrokes`, `traces(at:)`) is apart from reading it, so that recognition
/// evaluation sees the source's own units where the sample gives no resolution.
public struct InkSampleRecord: Sendable {
    public var id: String
    public var label: String
    public var category: String
    /// The data set it comes from (`unipen`, `pendigits`, ...); empty when not given.
    public var set: String
    /// The writer (the writer-disjoint validation split is by writer); empty when not given.
    public var writer: String
    /// True when the sample gave its resolution (`ppi`): `strokes` are then in millimetres.
    public var inMillimetres: Bool
    /// Strokes as read (y down), each point (x, y, t ms): millimetres when `inMillimetres`, else
    /// the source's units. Strokes without points are dropped (they are no ink).
    public var strokes: [[(x: Double, y: Double, t: Int64)]]

    public init(id: String, label: String, category: String, set: String = "", writer: String = "",
                inMillimetres: Bool = true, strokes: [[(x: Double, y: Double, t: Int64)]]) {
        self.id = id; self.label = label; self.category = category; self.set = set; self.writer = writer
        self.inMillimetres = inMillimetres; self.strokes = strokes
    }

    /// The strokes in millimetres, as a page shows them: a sample without a resolution is scaled
    /// so that its lowest point lies `JSONLinesInk.defaultHeightMM` below the source's origin.
    public var millimetreStrokes: [[(x: Double, y: Double, t: Int64)]] {
        if inMillimetres { return strokes }
        var maxY = 0.0
        for s in strokes { for p in s { maxY = max(maxY, p.y) } }
        guard maxY > 0 else { return strokes }
        let k = JSONLinesInk.defaultHeightMM / maxY
        return strokes.map { s in s.map { (x: $0.x * k, y: $0.y * k, t: $0.t) } }
    }

    /// The strokes in millimetres placed at an origin, as importable traces.
    public func traces(at origin: Point = Point(x: 0, y: 0)) -> [ImportedTrace] {
        millimetreStrokes.map { s in
            ImportedTrace(samples: s.map { InkSample(x: $0.x + origin.x, y: $0.y + origin.y, t: 1_700_000_000_000 + $0.t, f: 0.5) },
                          pointerType: .pen, tool: "pen")
        }
    }
    public var traces: [ImportedTrace] { traces() }
    /// The bounds of `millimetreStrokes`.
    public var bounds: Rect {
        var r = Rect.zero
        for s in millimetreStrokes { for p in s { r = r.union(Rect(x: p.x, y: p.y, width: 0.001, height: 0.001)) } }
        return r
    }
}

/// A trace read from InkML or JSON lines: samples in millimetres, pointer type and tool.
public struct ImportedTrace: Sendable {
    public var samples: [InkSample]
    public var pointerType: PointerType
    public var tool: String
    public init(samples: [InkSample], pointerType: PointerType, tool: String) {
        self.samples = samples; self.pointerType = pointerType; self.tool = tool
    }

    /// A time read from a file as milliseconds, or nil when it is not finite or beyond ±1e15 ms
    /// (30,000 years): converting such a value to Int64, or adding a start time to it, would trap.
    public static func milliseconds(_ v: Double) -> Int64? {
        guard v.isFinite, abs(v) <= 1e15 else { return nil }
        return Int64(v)
    }
}

/// Reads the shared JSON-lines handwriting format, gzip or plain: the one reader of it (import,
/// recognition evaluation, the gesture and fuzz tools all use this).
public enum JSONLinesInk {
    /// Samples without a resolution (ppi null) are placed on a page this tall in millimetres.
    public static let defaultHeightMM = 7.0

    /// Samples laid out as `quire import` places them: one per line of the page, top to bottom,
    /// each starting 10 mm from the left and on a 10 mm guide.
    public static func pageTraces(_ records: [InkSampleRecord]) -> [ImportedTrace] {
        var y = 15.0
        var placed: [ImportedTrace] = []
        for rec in records {
            let b = rec.bounds
            placed += rec.traces(at: Point(x: 10 - b.x, y: y - b.y))
            y += (b.height / 10).rounded(.up) * 10 + 10
        }
        return placed
    }

    /// Reads a file; `skip` (see `parse`) drops lines before their JSON is parsed.
    public static func read(path: String, limit: Int = .max,
                            skip: (Data.SubSequence) -> Bool = { _ in false }) throws -> [InkSampleRecord] {
        let raw = try FileIO.readFile(path, maxBytes: 512 << 20)
        return try parse(try Zlib.decompress(raw, maxBytes: 2 << 30), limit: limit, source: path, skip: skip)
    }

    /// Reads every sample of `data`, up to `limit`; blank lines are ignored. `skip` sees each
    /// line's raw bytes first, so that a caller can drop lines cheaply (by `field`) before the JSON
    /// parse, the slow part. A malformed line is an `importError` naming the line.
    public static func parse(_ data: Data, limit: Int = .max, source: String = "input",
                             skip: (Data.SubSequence) -> Bool = { _ in false }) throws -> [InkSampleRecord] {
        var out: [InkSampleRecord] = []
        var lineNo = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNo += 1
            if line.allSatisfy({ $0 == 32 || $0 == 13 || $0 == 9 }) { continue }
            if out.count >= limit { break }
            if skip(line) { continue }
            out.append(try record(line, what: "\(source) line \(lineNo)", defaultId: "line-\(lineNo)"))
        }
        return out
    }

    /// A `"key":"value"` string field found by a byte search, without parsing the line: nil when
    /// absent or when the value holds an escape (the data's keys and writers hold none).
    public static func field(_ key: String, in line: Data.SubSequence) -> String? {
        let pattern = Array("\"\(key)\":\"".utf8)
        guard let r = line.firstRange(of: pattern) else { return nil }
        guard let end = line[r.upperBound...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let v = line[r.upperBound ..< end]
        if v.contains(UInt8(ascii: "\\")) { return nil }
        return String(decoding: v, as: UTF8.self)
    }

    static func record(_ line: Data.SubSequence, what: String, defaultId: String) throws -> InkSampleRecord {
        let v = try JSONValue.parse(Data(line), what: what)
        guard let strokes = v["strokes"]?.arrayValue else {
            throw QuireError(.importError, "\(what): field 'strokes' is missing or not an array")
        }
        var scaleX = 1.0, scaleY = 1.0, inMillimetres = false
        if let ppi = v["ppi"]?.arrayValue, ppi.count == 2, let px = ppi[0].doubleValue, let py = ppi[1].doubleValue, px > 0, py > 0 {
            scaleX = 25.4 / px; scaleY = 25.4 / py; inMillimetres = true
        }
        var parsed: [[(x: Double, y: Double, t: Int64)]] = []
        for (si, s) in strokes.enumerated() {
            guard let pts = s.arrayValue else { throw QuireError(.importError, "\(what): stroke \(si) is not an array") }
            var st: [(x: Double, y: Double, t: Int64)] = []
            for (pi, p) in pts.enumerated() {
                guard let a = p.arrayValue, a.count >= 2, let x = a[0].doubleValue, let y = a[1].doubleValue, x.isFinite, y.isFinite else {
                    throw QuireError(.importError, "\(what): stroke \(si) point \(pi) is malformed")
                }
                // Timestamps grow across strokes even where the source has none.
                var t = Int64(st.count * 10 + si * 100)
                if a.count >= 3 {
                    guard let ms = ImportedTrace.milliseconds(a[2].doubleValue ?? 0) else {
                        throw QuireError(.importError, "\(what): stroke \(si) point \(pi) has a time out of range")
                    }
                    t = ms
                }
                st.append((x * scaleX, y * scaleY, t))
            }
            if !st.isEmpty { parsed.append(st) }
        }
        return InkSampleRecord(id: v["id"]?.stringValue ?? defaultId, label: v["label"]?.stringValue ?? "",
                               category: v["cat"]?.stringValue ?? "", set: v["set"]?.stringValue ?? "",
                               writer: v["writer"]?.stringValue ?? "", inMillimetres: inMillimetres, strokes: parsed)
    }
}
