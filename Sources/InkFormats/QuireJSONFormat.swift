import Foundation
import InkModel

/// Reads Quire's own `quire export --format json` back into a part: the block tree with boxes,
/// conversion states, typed text, fonts and properties, every stroke with its id, tool, colour,
/// width and samples, and the recognized words with their candidates, choice, characters and
/// styles. Ids are kept, so a part exported again gives the same JSON (coordinates to the 1/100 mm
/// and pressure to the 1/4095 a package stores).
///
/// What the JSON does not hold is not invented: image blocks come without their pixels (the
/// export names only their type and size) and are left out with a note; guides follow the
/// configuration of whoever opens the package.
public enum QuireJSONFormat {
    /// A part read from JSON, checked whole before anything is written.
    public struct Part {
        public var type: PartType
        public var blocks: [BlockData]
        public var strokes: [InkStroke]
        public var notes: [String]
    }

    public static func read(_ data: Data) throws -> Part {
        let json: JSONValue
        do { json = try JSONValue.parse(data, what: "Quire JSON") } catch let e as QuireError {
            throw QuireError(.importError, e.message)
        }
        var r = Reading()
        guard let top = json.objectValue else { throw QuireError(.importError, "Quire JSON: the document is not an object") }
        let rootType = try r.blockType(top, path: "the top block")
        // A whole part's export starts at its root, whose type tells the part type; a block's own
        // export becomes a part of that block's kind.
        guard let type = PartType.allCases.first(where: { $0.rootBlockType == rootType }) else {
            throw QuireError(.importError, "Quire JSON: the top block is an \(rootType.rawValue) block, which no part type has as its root")
        }
        _ = try r.block(top, parent: nil, path: "the top block")
        var byId: [String: BlockData] = [:]
        for b in r.blocks { byId[b.id] = b }
        if let problem = BlockData.treeProblem(byId, rootId: r.blocks[0].id) { throw QuireError(.importError, "Quire JSON: \(problem)") }
        for b in r.blocks { if let problem = b.boxProblem { throw QuireError(.importError, "Quire JSON: \(problem)") } }
        if r.droppedImages > 0 { r.notes.append("\(r.droppedImages) image block(s) left out: Quire JSON holds no image pixels") }
        return Part(type: type, blocks: r.blocks, strokes: r.strokes, notes: r.notes)
    }

    /// Adds `part` to `pkg`: the model's root takes the top block's place (its id included).
    @discardableResult
    public static func add(_ part: Part, to pkg: ContentPackage) throws -> ContentPart {
        let p = try pkg.createPart(type: part.type.rawValue)
        let m = p.model
        let rootId = m.rootId, topId = part.blocks[0].id
        if topId != rootId, part.blocks.contains(where: { $0.id == rootId }) {
            throw QuireError(.importError, "Quire JSON: block '\(rootId)' is not the top block; the part's root must have that id")
        }
        func mapped(_ id: String?) -> String? { id == topId ? rootId : id }
        for var b in part.blocks {
            b.id = mapped(b.id)!
            b.parentId = mapped(b.parentId)
            m.setBlock(b)
        }
        for var s in part.strokes {
            s.blockId = s.blockId == topId ? nil : s.blockId
            m.insertStroke(s)
        }
        m.advanceIdCounters()
        return p
    }
}

/// One document being read: blocks depth first (the top one first), strokes with their blocks.
private struct Reading {
    var blocks: [BlockData] = []
    var strokes: [InkStroke] = []
    var strokeIds = Set<String>()
    var notes: [String] = []
    var droppedImages = 0

    func fail(_ path: String, _ what: String) -> QuireError { QuireError(.importError, "Quire JSON, \(path): \(what)") }

    func string(_ o: [String: JSONValue], _ key: String, path: String) throws -> String {
        guard let s = o[key]?.stringValue else { throw fail(path, "'\(key)' is missing or not a string") }
        return s
    }

    func number(_ o: JSONValue?, _ key: String, path: String) throws -> Double {
        guard let v = o?[key]?.doubleValue, v.isFinite else { throw fail(path, "'\(key)' is missing or not a finite number") }
        return v
    }

    func rect(_ v: JSONValue?, path: String) throws -> Rect {
        guard v?.objectValue != nil else { throw fail(path, "the box is missing or not an object") }
        return Rect(x: try number(v, "x", path: path), y: try number(v, "y", path: path),
                    width: try number(v, "width", path: path), height: try number(v, "height", path: path))
    }

    func strings(_ v: JSONValue?, _ key: String, path: String) throws -> [String] {
        guard let v else { return [] }
        guard let a = v.arrayValue, a.allSatisfy({ $0.stringValue != nil }) else { throw fail(path, "'\(key)' is not an array of strings") }
        return a.compactMap(\.stringValue)
    }

    func blockType(_ o: [String: JSONValue], path: String) throws -> BlockType {
        let t = try string(o, "type", path: path)
        guard let k = BlockType(rawValue: t) else {
            throw fail(path, "unknown block type '\(t)' (Quire's are \(BlockType.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return k
    }

    /// Reads a block and its children; nil for an image block (left out).
    mutating func block(_ o: [String: JSONValue], parent: String?, path: String) throws -> String? {
        let id = try string(o, "id", path: path)
        let here = "block '\(id)'"
        let kind = try blockType(o, path: here)
        if kind == .image, parent != nil { droppedImages += 1; return nil }
        guard !blocks.contains(where: { $0.id == id }) else { throw fail(here, "the id appears twice") }
        var b = BlockData(id: id, type: kind.rawValue, box: try rect(o["box"], path: here), parentId: parent)
        b.conversion = o["conversion"]?.stringValue ?? "handwriting"
        guard ["handwriting", "digitalEdit", "digitalPublish"].contains(b.conversion) else {
            throw fail(here, "conversion '\(b.conversion)' is not handwriting, digitalEdit or digitalPublish")
        }
        b.text = o["text"]?.stringValue
        if let props = o["properties"]?.objectValue {
            for (k, v) in props {
                guard let s = v.stringValue else { throw fail(here, "property '\(k)' is not a string") }
                b.properties[k] = s
            }
        }
        if let f = o["textFont"], f.objectValue != nil {
            b.textFont = FontSpec(family: f["family"]?.stringValue ?? "DejaVu Sans", size: try number(f, "size", path: here + " textFont"),
                                  bold: f["bold"]?.boolValue ?? false, italic: f["italic"]?.boolValue ?? false)
        }
        for (i, w) in (o["words"]?.arrayValue ?? []).enumerated() { b.words.append(try word(w, path: "\(here), word \(i)")) }
        let slot = blocks.count
        blocks.append(b)
        for (i, s) in (o["strokes"]?.arrayValue ?? []).enumerated() { try stroke(s, block: id, path: "\(here), stroke \(i)") }
        var kids: [String] = []
        for (i, c) in (o["children"]?.arrayValue ?? []).enumerated() {
            guard let co = c.objectValue else { throw fail(here, "child \(i) is not an object") }
            if let k = try block(co, parent: id, path: "\(here), child \(i)") { kids.append(k) }
        }
        blocks[slot].childIds = kids
        return id
    }

    func word(_ w: JSONValue, path: String) throws -> RecognizedWord {
        guard let o = w.objectValue else { throw fail(path, "not an object") }
        let candidates = try (o["candidates"]?.arrayValue ?? []).map { c -> Candidate in
            guard let l = c["label"]?.stringValue else { throw fail(path, "a candidate has no label") }
            return Candidate(label: l, score: c["score"]?.doubleValue ?? 0)
        }
        let chars = try (o["chars"]?.arrayValue ?? []).map { c -> RecognizedChar in
            guard let l = c["label"]?.stringValue else { throw fail(path, "a character has no label") }
            return RecognizedChar(label: l, box: try rect(c["box"], path: path + " character"), strokeIds: try strings(c["strokeIds"], "strokeIds", path: path))
        }
        let selected = o["selected"]?.intValue ?? 0
        guard candidates.isEmpty ? selected == 0 : candidates.indices.contains(selected) else {
            throw fail(path, "'selected' is \(selected), but there are \(candidates.count) candidates")
        }
        return RecognizedWord(label: try string(o, "label", path: path), candidates: candidates, selected: selected,
                              box: try rect(o["box"], path: path), line: o["line"]?.intValue ?? 0,
                              strokeIds: try strings(o["strokeIds"], "strokeIds", path: path), chars: chars,
                              styles: try strings(o["styles"], "styles", path: path))
    }

    mutating func stroke(_ v: JSONValue, block: String, path: String) throws {
        guard let o = v.objectValue else { throw fail(path, "not an object") }
        let id = try string(o, "id", path: path)
        guard strokeIds.insert(id).inserted else { throw fail(path, "stroke id '\(id)' appears twice") }
        func column(_ key: String) throws -> [Double] {
            guard let a = o[key]?.arrayValue else { throw fail(path, "'\(key)' is missing or not an array") }
            return try a.map { guard let n = $0.doubleValue, n.isFinite else { throw fail(path, "'\(key)' holds a value that is not a finite number") }; return n }
        }
        let xs = try column("x"), ys = try column("y"), ts = try column("t"), fs = try column("f")
        guard !xs.isEmpty, ys.count == xs.count, ts.count == xs.count, fs.count == xs.count else {
            throw fail(path, "x, y, t and f must hold the same number of values, at least one (they hold \(xs.count), \(ys.count), \(ts.count), \(fs.count))")
        }
        var samples: [InkSample] = []
        samples.reserveCapacity(xs.count)
        for k in xs.indices {
            guard abs(xs[k]) <= InkImporter.maxCoordinate, abs(ys[k]) <= InkImporter.maxCoordinate else {
                throw fail(path, "point \(k) lies at (\(xs[k]), \(ys[k])) mm, more than a kilometre away")
            }
            guard let t = ImportedTrace.milliseconds(ts[k]) else { throw fail(path, "point \(k) has time \(ts[k]) ms, out of range") }
            samples.append(InkSample(x: xs[k], y: ys[k], t: t, f: min(1, max(0, fs[k]))))
        }
        let pointer = o["pointerType"]?.stringValue ?? "pen"
        guard let type = PointerType(name: pointer) else { throw fail(path, "unknown pointer type '\(pointer)'") }
        let width = o["width"]?.doubleValue ?? 0
        guard width.isFinite, width >= 0, width <= 1000 else { throw fail(path, "width \(width) mm is out of range") }
        strokes.append(InkStroke(id: id, pointerType: type, pointerId: o["pointerId"]?.intValue ?? -1, tool: o["tool"]?.stringValue ?? "pen",
                                 color: o["color"]?.stringValue ?? "", width: Float(width), blockId: block,
                                 seq: Int64(strokes.count + 1), samples: samples))
    }
}
