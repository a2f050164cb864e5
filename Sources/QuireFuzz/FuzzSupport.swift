import Foundation
import Quire
import QuireTools

/// An invariant that does not hold: the driver prints it with the case number and exits 1.
struct Violation: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

extension SplitMix {
    /// A seed for case `index` of a run seeded with `seed`: the same pair always gives the same case.
    static func forCase(seed: UInt64, index: Int) -> SplitMix {
        var mix = SplitMix(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(index)) &* 0xD6E8_FEB8_6659_FD93)
        _ = mix.next()
        return mix
    }
    mutating func int(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
    mutating func int(in r: ClosedRange<Int>) -> Int { r.lowerBound + int(r.count) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    mutating func pick<T>(_ a: [T]) -> T { a[int(a.count)] }
    mutating func double(in r: ClosedRange<Double>) -> Double { r.lowerBound + unit() * (r.upperBound - r.lowerBound) }
}

/// Numbers and strings that break code written for ordinary values.
enum Hostile {
    static let numbers: [Double] = [0, -0.0, -1, 1, 0.5, 1e-300, .leastNonzeroMagnitude, 1e308, -1e308, .greatestFiniteMagnitude, 1e20, -1e20,
                                    2_147_483_648, -2_147_483_649, 9_007_199_254_740_992, 9.3e18, -9.3e18, 1e19, 1e9, -1e9, 1e7,
                                    123_456.789, 4096, 65535, 3.5, -5, 1e15]
    static let strings: [String] = ["", " ", "b0", "b1", "s1", "../x", "a/b", "\u{0}", "a\u{1}b\u{1b}[2J", "\u{202e}é😀",
                                    String(repeating: "x", count: 5000), String(repeating: "é", count: 300), "Text", "Container",
                                    "Image", "handwriting", "digitalEdit", "digitalPublish", "underline", "surround",
                                    "images/x.png", "#ff0000", "not a colour", "<&>\"'", "]]>", "\n\n", "a\nb", "\u{301}\u{301}"]
}

/// A folder for one case's files, removed when the case ends.
final class Workspace {
    let path: String
    init(base: String, name: String) throws {
        path = base + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { path + "/" + name }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Real handwriting (the shared JSON-lines format), in millimetres, origin at the sample's top left.
struct Handwriting {
    var samples: [InkSampleRecord]

    static func load(_ path: String) throws -> Handwriting {
        let recs = try JSONLinesInk.read(path: path).filter { r in
            !r.strokes.isEmpty && r.bounds.width < 400 && r.bounds.height < 200
        }
        guard !recs.isEmpty else { throw Violation("no usable handwriting in \(path)") }
        return Handwriting(samples: recs)
    }

    /// A sample's strokes moved so its top left is at `origin` (mm).
    func strokes(_ rng: inout SplitMix, at origin: Point, maxHeight: Double? = nil) -> [[Point]] {
        let s = rng.pick(samples)
        let b = s.bounds
        let k = maxHeight.map { b.height > $0 ? $0 / b.height : 1 } ?? 1
        return s.millimetreStrokes.map { st in st.map { Point(x: origin.x + ($0.x - b.x) * k, y: origin.y + ($0.y - b.y) * k) } }
    }
}

/// A part's content as a value: what save/reopen and undo/redo must give back exactly.
struct ModelSnapshot: Equatable {
    var type: String
    var rootId: String
    var strokes: StrokeTable
    var blocks: [String: BlockData]
    var images: [String: Data]
    var metadata: String

    init(_ m: PartModel) {
        type = m.type; rootId = m.rootId; strokes = m.strokes; blocks = m.blocks; images = m.images
        metadata = m.metadata.json
    }

    /// Why the two differ beyond what reading the same ink again may change, or nil: after an
    /// undo, say, a block's words may have boxes a few thousandths of a millimetre off, other
    /// alternatives and scores, and characters' strokes split otherwise; the words themselves
    /// (labels, choices, strokes, styles, lines) and everything else must be exact.
    func mismatch(_ o: ModelSnapshot) -> String? {
        var exactO = o
        for (id, a) in blocks {
            guard let b = o.blocks[id] else { return difference(to: o) }
            if a.words.count != b.words.count { return "block \(id): \(a.words.count) words / \(b.words.count): " + difference(to: o) }
            func near(_ p: Rect, _ q: Rect) -> Bool {
                abs(p.x - q.x) <= 0.02 && abs(p.y - q.y) <= 0.02 && abs(p.width - q.width) <= 0.04 && abs(p.height - q.height) <= 0.04
            }
            for (i, (x, y)) in zip(a.words, b.words).enumerated() {
                var why: [String] = []
                if x.label != y.label || x.selected != y.selected || x.line != y.line { why.append("label/selected/line") }
                if x.strokeIds != y.strokeIds { why.append("strokes \(x.strokeIds) / \(y.strokeIds)") }
                if x.styles != y.styles { why.append("styles \(x.styles) / \(y.styles)") }
                // The other candidates and the scores are not compared either: a block the flow
                // moved keeps the words read where it was, and the same ink read 12 mm lower
                // ranks its unlikely alternatives differently (recognition is not exactly
                // translation invariant).
                if !near(x.box, y.box) { why.append("box \(x.box) / \(y.box)") }
                // Characters' strokes are not compared: a stroke goes to the character box nearest
                // most of its points, and the line batches a reading runs (some lines come from
                // the cache) move those boxes by rounding, enough to flip a stroke at a boundary.
                if x.chars.map(\.label) != y.chars.map(\.label) {
                    why.append("chars \(x.chars.map(\.label)) / \(y.chars.map(\.label))")
                }
                if let j = zip(x.chars, y.chars).enumerated().first(where: { !near($0.element.0.box, $0.element.1.box) })?.offset {
                    why.append("char \(j) box \(x.chars[j].box) / \(y.chars[j].box)")
                }
                if !why.isEmpty { return "block \(id) word \(i) '\(x.label)' / '\(y.label)': " + why.joined(separator: "; ") }
            }
            exactO.blocks[id]?.words = a.words
        }
        return self == exactO ? nil : difference(to: exactO)
    }

    /// The first difference, for a report.
    func difference(to o: ModelSnapshot) -> String {
        if type != o.type || rootId != o.rootId { return "part type/root \(type)/\(rootId) vs \(o.type)/\(o.rootId)" }
        if strokes != o.strokes {
            let a = Set(strokes.keys), b = Set(o.strokes.keys)
            if a != b { return "stroke ids differ: only first \(a.subtracting(b).sorted().prefix(5)), only second \(b.subtracting(a).sorted().prefix(5))" }
            let id = a.sorted().first { strokes[$0] != o.strokes[$0] } ?? "?"
            let s = strokes[id], t = o.strokes[id]
            return "stroke \(id) differs: block \(s?.blockId ?? "-")/\(t?.blockId ?? "-"), seq \(s?.seq ?? 0)/\(t?.seq ?? 0), "
                + "points \(s?.count ?? 0)/\(t?.count ?? 0), bounds \(s?.bounds ?? .zero)/\(t?.bounds ?? .zero)"
        }
        if blocks != o.blocks {
            let a = Set(blocks.keys), b = Set(o.blocks.keys)
            if a != b { return "block ids differ: only first \(a.subtracting(b).sorted()), only second \(b.subtracting(a).sorted())" }
            let id = a.sorted().first { blocks[$0] != o.blocks[$0] }!
            let x = blocks[id]!, y = o.blocks[id]!
            var d: [String] = []
            if x.box != y.box { d.append("box \(x.box) / \(y.box)") }
            if x.childIds != y.childIds { d.append("children \(x.childIds) / \(y.childIds)") }
            if x.parentId != y.parentId { d.append("parent \(x.parentId ?? "-") / \(y.parentId ?? "-")") }
            if x.text != y.text { d.append("text \(String(describing: x.text?.prefix(40))) / \(String(describing: y.text?.prefix(40)))") }
            if x.conversion != y.conversion { d.append("conversion \(x.conversion) / \(y.conversion)") }
            if x.properties != y.properties { d.append("properties \(x.properties) / \(y.properties)") }
            if x.image != y.image { d.append("image") }
            if x.words != y.words {
                func brief(_ w: RecognizedWord) -> String {
                    let b = w.box
                    return "'\(w.label)'#\(w.selected)/\(w.candidates.count) (\(b.x),\(b.y) \(b.width)x\(b.height)) \(w.strokeIds) line \(w.line) \(w.styles)"
                }
                d.append("words\n    " + x.words.prefix(12).map(brief).joined(separator: "\n    ") + "\n  /\n    " + y.words.prefix(12).map(brief).joined(separator: "\n    "))
            }
            return "block \(id) differs: " + d.joined(separator: "; ")
        }
        if images != o.images { return "images differ: \(images.keys.sorted()) / \(o.images.keys.sorted())" }
        if metadata != o.metadata { return "metadata differs: \(metadata) / \(o.metadata)" }
        return "no difference"
    }
}

enum Invariants {
    /// Why the part's model is not consistent, or nil: a block tree under the root, boxes in range,
    /// every stroke in an existing block and indexed under it, Text Document blocks not
    /// overlapping, finite candidate scores; with `idle` (recognition applied), words holding
    /// only strokes of their block. (A `selected` out of range is tolerated everywhere: a
    /// package or a payload may hold one.)
    static func problem(_ m: PartModel, idle: Bool) -> String? {
        guard let root = m.blocks[m.rootId] else { return "root block \(m.rootId) is missing" }
        if root.parentId != nil { return "the root has a parent" }
        if let p = BlockData.treeProblem(m.blocks, rootId: m.rootId) { return p }
        for b in m.blocks.values.sorted(by: { $0.id < $1.id }) {
            if let p = b.boxProblem { return p }
            if !BlockData.types.contains(b.type) { return "block \(b.id) has type \(b.type)" }
            if let img = b.image, m.images[img.entry] == nil { return "image block \(b.id) has no image data (\(img.entry))" }
        }
        var indexed = 0
        for id in m.blockIdsWithInk {
            let ids = m.strokeIds(inBlock: id)
            guard m.blocks[id] != nil else { return "strokes \(ids.sorted().prefix(3)) are indexed under missing block \(id)" }
            for sid in ids {
                guard let s = m.strokes[sid] else { return "stroke \(sid) is indexed under \(id) but missing" }
                if (s.blockId ?? m.rootId) != id { return "stroke \(sid) of block \(s.blockId ?? "-") is indexed under \(id)" }
            }
            indexed += ids.count
        }
        if indexed != m.strokes.count { return "\(m.strokes.count) strokes but \(indexed) indexed under blocks" }
        for s in m.strokes.values {
            if s.count == 0 { return "stroke \(s.id) has no points" }
            if let b = s.blockId, m.blocks[b] == nil { return "stroke \(s.id) is in missing block \(b)" }
        }
        if m.kind == .textDocument {
            let kids = m.root.childIds.compactMap { m.blocks[$0] }
            for i in 0..<kids.count {
                for j in 0..<i where kids[i].box.intersects(kids[j].box) {
                    return "blocks \(kids[j].id) \(kids[j].box) and \(kids[i].id) \(kids[i].box) overlap"
                }
            }
        }
        for b in m.blocks.values.sorted(by: { $0.id < $1.id }) {
            for (i, w) in b.words.enumerated() {
                if let c = w.candidates.first(where: { !$0.score.isFinite }) { return "word \(i) of \(b.id) has candidate '\(c.label)' scored \(c.score)" }
                guard idle, b.text == nil else { continue }
                let own = m.strokeIds(inBlock: b.id)
                if let sid = w.strokeIds.first(where: { !own.contains($0) }) {
                    return "word \(i) '\(w.label)' of \(b.id) holds stroke \(sid), which is not in the block (idle)"
                }
            }
        }
        return nil
    }

    /// Text, JSON and InkML exports work; the JSON parses; the InkML reads back with a trace per stroke.
    static func exportProblem(_ e: Editor, _ m: PartModel) -> String? {
        do {
            _ = try e.export(nil, mimeType: .text)
            let json = try e.export(nil, mimeType: .json)
            // JSONSerialization: JSONValue's decoder is slow on a large part, and this runs after every step.
            guard (try? JSONSerialization.jsonObject(with: Data(json.utf8))) is [String: Any] else { return "the JSON export does not parse" }
            let inkml = try e.export(nil, mimeType: .inkml)
            let traces: [ImportedTrace]
            do { traces = try InkMLReader.read(Data(inkml.utf8)) } catch let err as QuireError {
                return "the InkML export does not read back: \(err.message)"
            }
            if traces.count != m.strokes.count { return "the InkML export holds \(traces.count) traces for \(m.strokes.count) strokes" }
        } catch let err as QuireError {
            return "export failed: \(err.message) [\(err.code)]"
        } catch {
            return "export threw \(error)"
        }
        return nil
    }

    /// PNG (and sometimes SVG or PDF) export of the whole part.
    static func imageExportProblem(_ e: Editor, _ rng: inout SplitMix) -> String? {
        do {
            switch rng.int(6) {
            case 0: _ = try e.exportData(nil, mimeType: .svg)
            case 1: _ = try e.exportData(nil, mimeType: .pdf)
            default: _ = try e.exportImageData(nil, mimeType: .png, dpi: 12)
            }
        } catch let err as QuireError {
            // A part too large to draw is refused with a message; anything else is a failure.
            if err.code == .exportError || err.code == .imageError { return nil }
            return "image export failed: \(err.message) [\(err.code)]"
        } catch {
            return "image export threw \(error)"
        }
        return nil
    }
}

/// Pointer input in model millimetres, converted to view pixels through the editor's transform.
struct Pen {
    var clock: Int64

    mutating func tick(_ ms: Int64) -> Int64 { clock += ms; return clock }

    /// One pointer sequence (down, moves, up) along `pts`, one call per event.
    mutating func draw(_ e: Editor, _ pts: [Point], type: PointerType = .pen, id: Int = -1, pressure: Double = 0.5) throws {
        guard let first = pts.first else { return }
        let t = e.viewTransform
        let a = t.apply(first)
        try e.pointerDown(x: a.x, y: a.y, t: tick(10), f: pressure, type: type, pointerId: id)
        for p in pts.dropFirst().dropLast() {
            let v = t.apply(p)
            try e.pointerMove(x: v.x, y: v.y, t: tick(8), f: pressure, type: type, pointerId: id)
        }
        let z = t.apply(pts.count > 1 ? pts[pts.count - 1] : first)
        try e.pointerUp(x: z.x, y: z.y, t: tick(8), f: pressure, type: type, pointerId: id)
    }

    /// Several strokes as one `pointerEvents` batch.
    mutating func batch(_ e: Editor, _ strokes: [[Point]], type: PointerType = .pen, gestures: Bool = true) throws {
        let t = e.viewTransform
        var ev: [PointerEvent] = []
        for s in strokes where !s.isEmpty {
            for (i, p) in s.enumerated() {
                let v = t.apply(p)
                let kind: PointerEventKind = i == 0 ? .down : (i == s.count - 1 ? .up : .move)
                ev.append(PointerEvent(kind: kind, x: v.x, y: v.y, t: tick(8), f: 0.5, pointerType: type, pointerId: 3))
            }
            if s.count == 1 { let v = t.apply(s[0]); ev.append(.up(x: v.x, y: v.y, t: tick(5), type: type, pointerId: 3)) }
            _ = tick(150)
        }
        try e.pointerEvents(ev, processGestures: gestures)
    }

    /// A hand-drawn polyline: points every ~0.6 mm along `pts`, with a little jitter.
    static func resample(_ pts: [Point], _ rng: inout SplitMix, step: Double = 0.6, jitter: Double = 0.08) -> [Point] {
        guard pts.count > 1 else { return pts }
        var out: [Point] = []
        for i in 0..<(pts.count - 1) {
            let a = pts[i], b = pts[i + 1]
            let k = max(1, Int(hypot(b.x - a.x, b.y - a.y) / step))
            for j in 0..<k {
                let u = Double(j) / Double(k)
                out.append(Point(x: a.x + (b.x - a.x) * u + (rng.unit() - 0.5) * jitter, y: a.y + (b.y - a.y) * u + (rng.unit() - 0.5) * jitter))
            }
        }
        out.append(pts[pts.count - 1])
        return out
    }
}

/// Small real images for Image blocks.
enum SampleImages {
    static let png1x1: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0xE2, 0x21, 0xBC, 0x33, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}
