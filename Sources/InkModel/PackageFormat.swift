import Foundation
import ZIPFoundation

/// Safety limits for reading archives (configuration keys `content-package.max-*`).
public struct ArchiveLimits: Sendable {
    public var maxEntries: Int
    public var maxTotalSize: Int
    public var maxEntrySize: Int
    public init(maxEntries: Int = 10_000, maxTotalSize: Int = 512 << 20, maxEntrySize: Int = 256 << 20) {
        self.maxEntries = maxEntries; self.maxTotalSize = maxTotalSize; self.maxEntrySize = maxEntrySize
    }
}

/// Everything a package holds, in memory.
struct PackageContent {
    var packageId: String
    var revision: Int
    var metadata: ParameterSet
    var parts: [PartModel]
}

/// Quire's package format: a zip archive described in docs/FORMAT.md.
enum PackageFormat {
    static let formatName = "quire-package"
    static let majorVersion = 1
    static let minorVersion = 0

    // MARK: zip level

    static func isSafeEntryPath(_ p: String) -> Bool {
        guard !p.isEmpty, p.utf8.count <= 512, !p.hasPrefix("/"), !p.contains("\\"), !p.contains("\0") else { return false }
        for comp in p.split(separator: "/", omittingEmptySubsequences: false) {
            if comp == ".." || comp == "." { return false }
        }
        return !p.contains("//")
    }

    /// Reads every file entry of a zip archive into memory, enforcing the limits while inflating
    /// (declared sizes can lie), checking CRCs and rejecting unsafe paths.
    /// The archive's entries (all of them, or only those named in `only`), checked for safety,
    /// size limits and CRC.
    static func readEntries(path: String, limits: ArchiveLimits, only: Set<String>? = nil) throws -> [String: Data] {
        switch FileIO.kind(path) {
        case .missing: throw QuireError(.fileNotFound, "no such package: '\(path)'")
        case .directory: throw QuireError(.notAFile, "'\(path)' is a directory, not a package")
        case .other: throw QuireError(.notAFile, "'\(path)' is not a regular file")
        case .file: break
        }
        guard let fh = FileHandle(forReadingAtPath: path) else {
            throw QuireError(.ioError, "cannot read '\(path)'")
        }
        let head = (try? fh.read(upToCount: 4)) ?? Data()
        try? fh.close()
        guard head.count == 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03 || head[2] == 0x05 else {
            throw QuireError(.notAPackage, "'\(path)' is not a Quire package (not a zip archive)")
        }
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw QuireError(.corruptPackage, "'\(path)' is damaged or truncated (\(error))")
        }
        var out: [String: Data] = [:]
        var total = 0
        var count = 0
        for entry in archive {
            count += 1
            guard count <= limits.maxEntries else {
                throw QuireError(.archiveTooLarge, "'\(path)' has more than \(limits.maxEntries) entries (content-package.max-entries)")
            }
            let name = entry.path
            guard isSafeEntryPath(name) else {
                throw QuireError(.unsafeArchive, "'\(path)' has an unsafe entry path '\(name)'")
            }
            switch entry.type {
            case .directory: continue
            case .symlink: throw QuireError(.unsafeArchive, "'\(path)' has a symbolic link entry '\(name)'")
            case .file: break
            }
            guard out[name] == nil else { throw QuireError(.corruptPackage, "'\(path)' has two entries named '\(name)'") }
            if let only, !only.contains(name) { continue }
            let declared = entry.uncompressedSize
            guard declared <= UInt64(limits.maxEntrySize), total + Int(declared) <= limits.maxTotalSize else {
                throw QuireError(.archiveTooLarge, "'\(path)': entry '\(name)' would exceed the size limits (content-package.max-uncompressed-size)")
            }
            var data = Data()
            data.reserveCapacity(Int(declared))
            let cap = Int(declared)
            // extract() returns the CRC it computes but never compares it, and computes it a byte
            // at a time; zlib's is several times faster, and the comparison is ours.
            var crc: UInt32 = 0
            do {
                _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: true) { chunk in
                    guard data.count + chunk.count <= cap else {
                        throw QuireError(.archiveTooLarge, "'\(path)': entry '\(name)' inflates beyond its declared size")
                    }
                    crc = Zlib.crc32(chunk, continuing: crc)
                    data.append(chunk)
                }
            } catch let e as QuireError {
                throw e
            } catch {
                throw QuireError(.corruptPackage, "'\(path)': entry '\(name)' cannot be read (\(error))")
            }
            guard data.count == cap else {
                throw QuireError(.corruptPackage, "'\(path)': entry '\(name)' is shorter than declared")
            }
            guard crc == entry.checksum else {
                throw QuireError(.corruptPackage, "'\(path)': entry '\(name)' is corrupted (CRC mismatch)")
            }
            total += data.count
            out[name] = data
        }
        return out
    }

    /// Builds a zip archive in memory (tests use it to make damaged packages).
    static func makeArchive(_ entries: [(String, Data)], compress: Bool) throws -> Data {
        do {
            let archive = try Archive(data: Data(), accessMode: .create)
            try add(entries.map { e in LazyEntry(name: e.0, data: { e.1 }) }, to: archive, compress: compress)
            guard let d = archive.data else { throw QuireError(.ioError, "archive could not be built") }
            return d
        } catch let e as QuireError { throw e } catch {
            throw QuireError(.ioError, "archive could not be built: \(error)")
        }
    }

    private static func add(_ entries: [LazyEntry], to archive: Archive, compress: Bool) throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for entry in entries {
            let (size, read) = try entry.open()
            try archive.addEntry(with: entry.name, type: .file, uncompressedSize: Int64(size), modificationDate: date,
                                 compressionMethod: compress ? .deflate : .none, bufferSize: max(1 << 16, min(size, 1 << 22))) { pos, n in
                try read(Int(pos), n)
            }
        }
    }

    /// An empty zip archive: its end-of-central-directory record alone.
    static let emptyArchive = Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))

    /// Writes a package archive atomically (sibling file, fsync, rename), streaming it into the
    /// sibling file entry by entry: the bytes are those `makeArchive` builds in memory, without
    /// holding the whole archive (and a copy of it) beside the document.
    static func writeArchive(_ c: PackageContent, to path: String, compress: Bool,
                             streamStrokesAbove points: Int = streamStrokesAbovePoints) throws {
        let entries = try entries(c, streamStrokesAbove: points)
        try FileIO.writeAtomically(to: path) { fd, tmp in
            // ZIPFoundation opens the file itself; `.update` on an empty archive writes what `.create`
            // would (which insists on making the file, where we need our exclusively created one).
            try FileIO.writeAll(fd, emptyArchive, path: path)
            do {
                try add(entries, to: Archive(url: URL(fileURLWithPath: tmp), accessMode: .update), compress: compress)
                // ZIPFoundation flushes each entry's central directory without checking the result,
                // so a full disk could cut the end off silently: read back what reached the file.
                let written = try Archive(url: URL(fileURLWithPath: tmp), accessMode: .read).map(\.path)
                guard written == entries.map(\.name) else {
                    throw QuireError(.ioError, "cannot write '\(path)': the archive read back incomplete (disk full?)")
                }
            } catch let e as QuireError {
                throw e
            } catch let e as POSIXError {
                throw FileIO.errorFor(e.code.rawValue, "cannot write", path)
            } catch {
                throw QuireError(.ioError, "cannot write '\(path)': \(error)")
            }
        }
    }

    // MARK: content level

    /// One archive entry; its bytes are made when it is written, so that saving holds one part's
    /// stroke data at a time instead of every entry plus the archive.
    struct LazyEntry {
        let name: String
        /// The entry's exact size and a reader of its bytes, asked for in order.
        let open: () throws -> (size: Int, read: (_ position: Int, _ count: Int) throws -> Data)

        init(name: String, open: @escaping () throws -> (size: Int, read: (Int, Int) throws -> Data)) {
            self.name = name
            self.open = open
        }

        init(name: String, data: @escaping () throws -> Data) {
            self.init(name: name) { LazyEntry.whole(try data()) }
        }

        /// Bytes already made, read in any order.
        static func whole(_ d: Data) -> (size: Int, read: (Int, Int) throws -> Data) {
            (d.count, { d.subdata(in: $0..<$0 + $1) })
        }
    }

    static func encode(_ c: PackageContent) throws -> [(String, Data)] {
        try entries(c).map { e in
            let (size, read) = try e.open()
            return (e.name, try read(0, size))
        }
    }

    /// Parts with more points than this stream their stroke data: measured first, then encoded a
    /// piece at a time as the zip asks for it (about 4.5 bytes a point held otherwise: 45 MB for
    /// 10 million points). Smaller parts are encoded at once, which is one pass instead of two.
    static let streamStrokesAbovePoints = 2_000_000

    /// The package's entries in archive order; stroke data and blocks are encoded on demand.
    static func entries(_ c: PackageContent, streamStrokesAbove limit: Int = streamStrokesAbovePoints) throws -> [LazyEntry] {
        var entries: [LazyEntry] = []
        var partsJSON: [JSONValue] = []
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func eager(_ name: String, _ data: Data) -> LazyEntry { LazyEntry(name: name, data: { data }) }
        for p in c.parts {
            let dir = "parts/\(p.id)/"
            partsJSON.append(.object(["id": .string(p.id), "type": .string(p.type), "path": .string(dir)]))
            let partInfo: JSONValue = .object([
                "id": .string(p.id), "type": .string(p.type), "rootId": .string(p.rootId),
                "nextStroke": .number(Double(p.nextStroke)), "nextBlock": .number(Double(p.nextBlock)),
                "metadata": .object(p.metadata.snapshot().mapValues(\.json)),
            ])
            entries.append(eager(dir + "part.json", Data(try partInfo.serialized().utf8)))
            entries.append(LazyEntry(name: dir + "strokes.bin") {
                guard p.pointCount > limit else { return LazyEntry.whole(StrokeCodec.encode(p.orderedStrokes)) }
                // By id, one stroke at a time: a sorted copy of 100,000 strokes alone is tens of MB.
                let table = p.strokes, ids = table.orderedIds()
                let stroke: (Int) -> InkStroke = { table[ids[$0]]! }  // ids come from this very table
                return (StrokeCodec.encodedSize(count: ids.count, stroke: stroke), StrokeCodec.Stream(count: ids.count, stroke: stroke).read)
            })
            entries.append(LazyEntry(name: dir + "blocks.json", data: { try enc.encode(p.blocksInTreeOrder()) }))
            for (name, data) in p.images.sorted(by: { $0.key < $1.key }) { entries.append(eager(dir + name, data)) }
        }
        let manifest: JSONValue = .object([
            "format": .string(formatName),
            "formatVersion": .string("\(majorVersion).\(minorVersion)"),
            "packageId": .string(c.packageId),
            "revision": .number(Double(c.revision)),
            "parts": .array(partsJSON),
            "createdBy": .string("Quire \(QuireVersion.string)"),
        ])
        entries.insert(eager("manifest.json", Data(try manifest.serialized(pretty: true).utf8)), at: 0)
        entries.insert(eager("metadata.json", Data(try JSONValue.object(c.metadata.snapshot().mapValues(\.json)).serialized().utf8)), at: 1)
        return entries
    }

    /// Reads the manifest alone (used to compare an archive's revision with the temp folder's).
    static func manifestInfo(_ entries: [String: Data], source: String) throws -> (packageId: String, revision: Int, major: Int) {
        guard let m = entries["manifest.json"] else {
            throw QuireError(.notAPackage, "\(source) is a zip archive but not a Quire package (no manifest.json)")
        }
        let json = try JSONValue.parse(m, what: "\(source) manifest.json")
        guard case .object = json else { throw QuireError(.corruptPackage, "\(source): manifest.json is not an object") }
        guard json["format"]?.stringValue == formatName else {
            throw QuireError(.notAPackage, "\(source): manifest.json field 'format' must be \"\(formatName)\"")
        }
        guard let ver = json["formatVersion"]?.stringValue else {
            throw QuireError(.corruptPackage, "\(source): manifest.json field 'formatVersion' is missing or not a string")
        }
        guard let major = Int(ver.split(separator: ".").first ?? "") else {
            throw QuireError(.corruptPackage, "\(source): manifest.json field 'formatVersion' ('\(ver)') is not MAJOR.MINOR")
        }
        guard major <= majorVersion else {
            throw QuireError(.unsupportedVersion, "\(source) uses package format \(ver); this Quire reads format \(majorVersion).x: please update Quire")
        }
        guard let pid = json["packageId"]?.stringValue, !pid.isEmpty else {
            throw QuireError(.corruptPackage, "\(source): manifest.json field 'packageId' is missing or not a string")
        }
        guard let rev = json["revision"]?.intValue, rev >= 0 else {
            throw QuireError(.corruptPackage, "\(source): manifest.json field 'revision' is missing or not a non-negative integer")
        }
        return (pid, rev, major)
    }

    static func decode(_ entries: [String: Data], source: String) throws -> PackageContent {
        let info = try manifestInfo(entries, source: source)
        let manifest = try JSONValue.parse(entries["manifest.json"]!, what: "\(source) manifest.json")
        guard let parts = manifest["parts"]?.arrayValue else {
            throw QuireError(.corruptPackage, "\(source): manifest.json field 'parts' is missing or not an array")
        }
        let metadata = try decodeParameters(entries["metadata.json"], what: "\(source) metadata.json")
        var models: [PartModel] = []
        var seen = Set<String>()
        for (i, pj) in parts.enumerated() {
            guard let id = pj["id"]?.stringValue, !id.isEmpty, isSafeEntryPath(id), !id.contains("/"),
                  let type = pj["type"]?.stringValue else {
                throw QuireError(.corruptPackage, "\(source): manifest.json parts[\(i)] needs string fields 'id' and 'type'")
            }
            guard let kind = PartType(rawValue: type) else {
                throw QuireError(.corruptPackage, "\(source): part '\(id)' has unknown type '\(type)'")
            }
            guard seen.insert(id).inserted else { throw QuireError(.corruptPackage, "\(source): part id '\(id)' appears twice") }
            models.append(try decodePart(id: id, kind: kind, entries: entries, source: source))
        }
        return PackageContent(packageId: info.packageId, revision: info.revision, metadata: metadata, parts: models)
    }

    static func decodeParameters(_ data: Data?, what: String) throws -> ParameterSet {
        let p = ParameterSet()
        guard let data else { return p }
        guard let s = String(data: data, encoding: .utf8) else { throw QuireError(.corruptPackage, "\(what) is not UTF-8") }
        do { try p.inject(json: s) } catch let e as QuireError {
            throw QuireError(.corruptPackage, "\(what): \(e.message)")
        }
        return p
    }

    static func decodePart(id: String, kind: PartType, entries: [String: Data], source: String) throws -> PartModel {
        let dir = "parts/\(id)/"
        let what = "\(source) part '\(id)'"
        guard let infoData = entries[dir + "part.json"] else { throw QuireError(.corruptPackage, "\(what): part.json is missing") }
        let info = try JSONValue.parse(infoData, what: "\(what) part.json")
        guard let rootId = info["rootId"]?.stringValue, let ns = info["nextStroke"]?.intValue, let nb = info["nextBlock"]?.intValue else {
            throw QuireError(.corruptPackage, "\(what): part.json needs 'rootId' (string), 'nextStroke' and 'nextBlock' (integers)")
        }
        let meta = ParameterSet()
        if let m = info["metadata"] {
            guard case .object = m else { throw QuireError(.corruptPackage, "\(what): part.json 'metadata' is not an object") }
            do { try meta.inject(json: try m.serialized()) } catch let e as QuireError {
                throw QuireError(.corruptPackage, "\(what) metadata: \(e.message)")
            }
        }
        let strokes = try entries[dir + "strokes.bin"].map { try StrokeCodec.decode($0, what: "\(what) strokes.bin") } ?? []
        guard let blocksData = entries[dir + "blocks.json"] else { throw QuireError(.corruptPackage, "\(what): blocks.json is missing") }
        let blocks: [BlockData]
        do { blocks = try JSONDecoder().decode([BlockData].self, from: blocksData) } catch {
            throw QuireError(.corruptPackage, "\(what): blocks.json is malformed (\(describe(error)))")
        }
        var byId: [String: BlockData] = [:]
        for b in blocks {
            guard byId.updateValue(b, forKey: b.id) == nil else { throw QuireError(.corruptPackage, "\(what): block id '\(b.id)' appears twice") }
            guard b.kind != nil else { throw QuireError(.corruptPackage, "\(what): block '\(b.id)' has unknown type '\(b.type)'") }
        }
        guard let root = byId[rootId], root.kind == kind.rootBlockType else {
            throw QuireError(.corruptPackage, "\(what): root block '\(rootId)' is missing or of the wrong type")
        }
        // A root with a parent would lead every walk up the tree back down into it.
        guard root.parentId == nil else {
            throw QuireError(.corruptPackage, "\(what): root block '\(rootId)' has a parent ('\(root.parentId!)')")
        }
        if let problem = BlockData.treeProblem(byId, rootId: rootId) { throw QuireError(.corruptPackage, "\(what): \(problem)") }
        for b in blocks {
            if let problem = b.boxProblem { throw QuireError(.corruptPackage, "\(what): \(problem)") }
        }
        var images: [String: Data] = [:]
        for b in blocks {
            if let img = b.image {
                guard isSafeEntryPath(img.entry), img.entry.hasPrefix("images/"), let d = entries[dir + img.entry] else {
                    throw QuireError(.corruptPackage, "\(what): image '\(img.entry)' of block '\(b.id)' is missing")
                }
                images[img.entry] = d
            }
        }
        for s in strokes {
            if let bid = s.blockId, byId[bid] == nil {
                throw QuireError(.corruptPackage, "\(what): stroke '\(s.id)' belongs to missing block '\(bid)'")
            }
        }
        return PartModel(id: id, kind: kind, metadata: meta, strokes: strokes, blocks: blocks, rootId: rootId,
                         images: images, nextStroke: Int64(ns), nextBlock: Int64(nb))
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let k, let ctx): "missing field '\(k.stringValue)' at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let ctx): "wrong type at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.valueNotFound(_, let ctx): "missing value at \(ctx.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let ctx): "invalid data at \(ctx.codingPath.map(\.stringValue).joined(separator: ".")): \(ctx.debugDescription)"
        default: "\(error)"
        }
    }
}

/// Quire's version.
public enum QuireVersion {
    public static let string = "0.1.0"
}
