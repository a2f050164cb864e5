import Foundation

/// One sample of the shared handwriting-data format (`{"id","label","cat","ppi","strokes":[[[x,y(,t)]...]]}`).
public struct InkSampleRecord: Sendable {
    public var id: String
    public var label: String
    public var category: String
    /// Strokes in millimetres (y down), each point (x, y, t ms).
    public var strokes: [[(x: Double, y: Double, t: Int64)]]
    /// The strokes placed at an origin, as importable traces.
    public func traces(at origin: Point = Point(x: 0, y: 0)) -> [ImportedTrace] {
        strokes.map { s in
            ImportedTrace(samples: s.map { InkSample(x: $0.x + origin.x, y: $0.y + origin.y, t: 1_700_000_000_000 + $0.t, f: 0.5) },
                          pointerType: .pen, tool: "pen")
        }
    }
    public var traces: [ImportedTrace] { traces() }
    public var bounds: Rect {
        var r = Rect.zero
        for s in strokes { for p in s { r = r.union(Rect(x: p.x, y: p.y, width: 0.001, height: 0.001)) } }
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

/// Reads the shared JSON-lines handwriting format, gzip or plain.
public enum JSONLinesInk {
    /// Samples without a resolution (ppi null) are scaled to this height in millimetres.
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

    public static func read(path: String, limit: Int = .max) throws -> [InkSampleRecord] {
        let raw = try FileIO.readFile(path, maxBytes: 512 << 20)
        return try parse(try Zlib.decompress(raw), limit: limit, source: path)
    }

    public static func parse(_ data: Data, limit: Int = .max, source: String = "input") throws -> [InkSampleRecord] {
        var out: [InkSampleRecord] = []
        var lineNo = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            lineNo += 1
            if out.count >= limit { break }
            let v = try JSONValue.parse(Data(line), what: "\(source) line \(lineNo)")
            guard let strokes = v["strokes"]?.arrayValue else {
                throw QuireError(.importError, "\(source) line \(lineNo): field 'strokes' is missing or not an array")
            }
            var scaleX = 1.0, scaleY = 1.0
            if let ppi = v["ppi"]?.arrayValue, ppi.count == 2, let px = ppi[0].doubleValue, let py = ppi[1].doubleValue, px > 0, py > 0 {
                scaleX = 25.4 / px; scaleY = 25.4 / py
            }
            var parsed: [[(x: Double, y: Double, t: Int64)]] = []
            var maxY = 0.0
            for (si, s) in strokes.enumerated() {
                guard let pts = s.arrayValue else { throw QuireError(.importError, "\(source) line \(lineNo): stroke \(si) is not an array") }
                var st: [(x: Double, y: Double, t: Int64)] = []
                for (pi, p) in pts.enumerated() {
                    guard let a = p.arrayValue, a.count >= 2, let x = a[0].doubleValue, let y = a[1].doubleValue, x.isFinite, y.isFinite else {
                        throw QuireError(.importError, "\(source) line \(lineNo): stroke \(si) point \(pi) is malformed")
                    }
                    var t = Int64(st.count * 10 + si * 100)
                    if a.count >= 3 {
                        guard let ms = ImportedTrace.milliseconds(a[2].doubleValue ?? 0) else {
                            throw QuireError(.importError, "\(source) line \(lineNo): stroke \(si) point \(pi) has a time out of range")
                        }
                        t = ms
                    }
                    st.append((x, y, t))
                    maxY = max(maxY, y)
                }
                if !st.isEmpty { parsed.append(st) }
            }
            if v["ppi"]?.arrayValue == nil, maxY > 0 { scaleX = defaultHeightMM / maxY; scaleY = scaleX }
            // Timestamps must grow across strokes even where the source has none.
            var lastT: Int64 = 0
            let scaled = parsed.map { s in s.map { p -> (x: Double, y: Double, t: Int64) in
                lastT = max(lastT, p.t); return (p.x * scaleX, p.y * scaleY, p.t) } }
            out.append(InkSampleRecord(id: v["id"]?.stringValue ?? "line-\(lineNo)", label: v["label"]?.stringValue ?? "",
                                       category: v["cat"]?.stringValue ?? "", strokes: scaled))
        }
        return out
    }
}
