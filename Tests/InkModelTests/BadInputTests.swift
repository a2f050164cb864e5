import Foundation
import Testing
import ZIPFoundation
@testable import InkModel

/// Every hostile or broken file gets a QuireError with a stable code; nothing crashes or hangs,
/// and nothing is written outside the package's temp folder.
@Suite struct BadInputTests {
    /// A valid package's entries, to be altered by each test.
    func goodEntries(_ dir: TempDir) throws -> [(String, Data)] {
        let engine = try Engine()
        let pkg = try engine.openPackage(dir.path("good-\(UUID().uuidString).iink"), openOption: .create)
        let part = try pkg.createPart(type: "Text")
        part.model.insertStroke(sampleStroke(part.model, n: 200))
        let e = try PackageFormat.encode(PackageContent(packageId: "pid", revision: 3, metadata: ParameterSet(), parts: [part.model]))
        pkg.close()
        return e
    }

    func write(_ entries: [(String, Data)], to path: String, compress: Bool = true) throws {
        try PackageFormat.makeArchive(entries, compress: compress).write(to: URL(fileURLWithPath: path))
    }

    func openFails(_ path: String, _ code: QuireError.Code, engine: Engine? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let e = try engine ?? Engine()
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)) ?? [])
        let err = expectCode(code, sourceLocation: sourceLocation) { _ = try e.openPackage(path) }
        #expect(err?.message.isEmpty == false, sourceLocation: sourceLocation)
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)) ?? [])
        #expect(after == before, "a failed open leaves no files behind", sourceLocation: sourceLocation)
    }

    @Test func missingFileAndDirectory() throws {
        let dir = TempDir()
        try openFails(dir.path("missing.iink"), .fileNotFound)
        try FileManager.default.createDirectory(atPath: dir.path("folder.iink"), withIntermediateDirectories: true)
        try openFails(dir.path("folder.iink"), .notAFile)
    }

    @Test func notAZipAndNotAPackage() throws {
        let dir = TempDir()
        try Data("this is plain text, not a package".utf8).write(to: URL(fileURLWithPath: dir.path("text.iink")))
        try openFails(dir.path("text.iink"), .notAPackage)
        try Data().write(to: URL(fileURLWithPath: dir.path("empty.iink")))
        try openFails(dir.path("empty.iink"), .notAPackage)
        try write([("readme.txt", Data("hi".utf8))], to: dir.path("foreign.iink"))
        try openFails(dir.path("foreign.iink"), .notAPackage)
    }

    @Test func truncatedArchive() throws {
        let dir = TempDir()
        let data = try PackageFormat.makeArchive(try goodEntries(dir), compress: true)
        for cut in [data.count / 2, data.count - 10, 30] {
            let p = dir.path("trunc\(cut).iink")
            try data.prefix(cut).write(to: URL(fileURLWithPath: p))
            try openFails(p, .corruptPackage)
        }
    }

    @Test func corruptedEntryFailsItsCRC() throws {
        let dir = TempDir()
        var data = try PackageFormat.makeArchive(try goodEntries(dir), compress: false)
        // Flip a byte inside strokes.bin's stored (uncompressed) data, well past its local header.
        let name = Data("strokes.bin".utf8)
        let r = try #require(data.range(of: name))
        data[r.upperBound + 60] ^= 0xFF
        try data.write(to: URL(fileURLWithPath: dir.path("crc.iink")))
        try openFails(dir.path("crc.iink"), .corruptPackage)
    }

    @Test func manifestWithWrongTypesOrMissingFields() throws {
        let dir = TempDir()
        let good = try goodEntries(dir)
        let manifests: [(String, QuireError.Code)] = [
            (#"{"format": "quire-package", "formatVersion": 1, "packageId": "x", "revision": 1, "parts": []}"#, .corruptPackage),
            (#"{"format": "quire-package", "formatVersion": "1.0", "revision": 1, "parts": []}"#, .corruptPackage),
            (#"{"format": "quire-package", "formatVersion": "1.0", "packageId": "x", "revision": "1", "parts": []}"#, .corruptPackage),
            (#"{"format": "quire-package", "formatVersion": "1.0", "packageId": "x", "revision": 1, "parts": {}}"#, .corruptPackage),
            (#"{"format": "quire-package", "formatVersion": "1.0", "packageId": "x", "revision": 1, "parts": [{"id": 3}]}"#, .corruptPackage),
            (#"{"format": "quire-package", "formatVersion": "1.0", "packageId": "x", "revision": 1, "parts": [{"id": "p", "type": "Bogus"}]}"#, .corruptPackage),
            (#"{"format": "quire-package", "formatVersion": "1.0", "packageId": "x", "revision": 1, "parts": [{"id": "nope", "type": "Text"}]}"#, .corruptPackage),
            (#"{"format": "other"}"#, .notAPackage),
            (#"[1, 2, 3]"#, .corruptPackage),
            ("{broken", .invalidJSON),
            (#"{"format": "quire-package", "formatVersion": "2.0", "packageId": "x", "revision": 1, "parts": []}"#, .unsupportedVersion),
        ]
        for (i, (m, code)) in manifests.enumerated() {
            var entries = good.filter { $0.0 != "manifest.json" }
            entries.insert(("manifest.json", Data(m.utf8)), at: 0)
            let p = dir.path("manifest\(i).iink")
            try write(entries, to: p)
            try openFails(p, code)
        }
        // A newer minor version of the same major format opens.
        var entries = good.filter { $0.0 != "manifest.json" }
        let id = good.first { $0.0.hasSuffix("part.json") }!.0.split(separator: "/")[1]
        entries.insert(("manifest.json", Data(#"{"format": "quire-package", "formatVersion": "1.7", "packageId": "x", "revision": 1, "parts": [{"id": "\#(id)", "type": "Text"}], "future": true}"#.utf8)), at: 0)
        try write(entries, to: dir.path("minor.iink"))
        let pkg = try Engine().openPackage(dir.path("minor.iink"))
        #expect(try pkg.part(at: 0).model.strokes.count == 1)
        pkg.close()
    }

    @Test func corruptPartEntries() throws {
        let dir = TempDir()
        let good = try goodEntries(dir)
        let strokesName = good.first { $0.0.hasSuffix("strokes.bin") }!.0
        let blocksName = good.first { $0.0.hasSuffix("blocks.json") }!.0
        let variants: [(String, Data)] = [
            (strokesName, Data("QSTK".utf8) + Data([1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F])),
            (strokesName, Data("JUNK".utf8)),
            (strokesName, good.first { $0.0 == strokesName }!.1.dropLast(5)),
            (blocksName, Data(#"[{"id": "b0"}]"#.utf8)),
            (blocksName, Data("[]".utf8)),
        ]
        for (i, (name, data)) in variants.enumerated() {
            let entries = good.map { $0.0 == name ? (name, data) : $0 }
            try write(entries, to: dir.path("part\(i).iink"))
            try openFails(dir.path("part\(i).iink"), .corruptPackage)
        }
    }

    @Test func entryPathsWithDotDotOrAbsoluteAreRefused() throws {
        let dir = TempDir()
        for (i, evil) in ["../evil.txt", "/tmp/evil-quire.txt", "parts/../../evil.txt", "a\\..\\b"].enumerated() {
            var entries = try goodEntries(dir)
            entries.append((evil, Data("pwned".utf8)))
            try write(entries, to: dir.path("evil\(i).iink"))
            try openFails(dir.path("evil\(i).iink"), .unsafeArchive)
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil-quire.txt"))
        #expect(!FileManager.default.fileExists(atPath: dir.url.deletingLastPathComponent().appendingPathComponent("evil.txt").path))
    }

    @Test func zipBombsHitTheConfiguredCaps() throws {
        let dir = TempDir()
        let config = Configuration()
        try config.setNumber(Double(1 << 20), forKey: "content-package.max-uncompressed-size")
        try config.setNumber(50, forKey: "content-package.max-entries")
        let engine = try Engine(configuration: config)
        // Highly compressible: 4 MiB of zeros deflate to a few KiB.
        var entries = try goodEntries(dir)
        entries.append(("parts/bomb.bin", Data(count: 4 << 20)))
        try write(entries, to: dir.path("bomb.iink"))
        #expect((try FileManager.default.attributesOfItem(atPath: dir.path("bomb.iink"))[.size] as! NSNumber).intValue < 100_000)
        try openFails(dir.path("bomb.iink"), .archiveTooLarge, engine: engine)
        // Too many entries.
        var many = try goodEntries(dir)
        for i in 0..<60 { many.append(("extra/\(i)", Data([1]))) }
        try write(many, to: dir.path("many.iink"))
        try openFails(dir.path("many.iink"), .archiveTooLarge, engine: engine)
        // An entry that lies about its size: declared tiny, inflates to 256 KiB.
        var liar = try goodEntries(dir)
        liar.append(("zz.bin", Data(count: 256 << 10)))
        var data = try PackageFormat.makeArchive(liar, compress: true)
        patchUncompressedSize(&data, entryName: "zz.bin", to: 100)
        try data.write(to: URL(fileURLWithPath: dir.path("liar.iink")))
        let err = expectCode(.archiveTooLarge) { _ = try Engine().openPackage(dir.path("liar.iink")) }
        #expect(err?.message.contains("declared") == true)
    }

    /// Rewrites the uncompressed-size fields of an entry in its local header and central directory record.
    func patchUncompressedSize(_ data: inout Data, entryName: String, to size: UInt32) {
        let name = Data(entryName.utf8)
        var search = data.startIndex
        while let r = data.range(of: name, in: search..<data.endIndex) {
            search = r.upperBound
            let local = r.lowerBound - 30, central = r.lowerBound - 46
            let le = withUnsafeBytes(of: size.littleEndian) { Data($0) }
            if local >= 0, data[local..<local + 4] == Data([0x50, 0x4B, 0x03, 0x04]) {
                data.replaceSubrange(local + 22..<local + 26, with: le)
            } else if central >= 0, data[central..<central + 4] == Data([0x50, 0x4B, 0x01, 0x02]) {
                data.replaceSubrange(central + 24..<central + 28, with: le)
            }
        }
    }

    @Test func readOnlyLocation() throws {
        let engine = try Engine()
        // /proc refuses new files even for root, which CI runs as.
        expectCode(.readOnly) { _ = try engine.createPackage("/proc/quire-test.iink") }
        if getuid() != 0 {
            let dir = TempDir()
            try FileManager.default.createDirectory(atPath: dir.path("ro"), withIntermediateDirectories: true)
            chmod(dir.path("ro"), 0o555)
            defer { chmod(dir.path("ro"), 0o755) }
            expectCode(.readOnly) { _ = try engine.createPackage(dir.path("ro/x.iink")) }
        }
        // A package whose folder became read-only after opening keeps its content and reports the failure.
        let dir = TempDir()
        let pkg = try engine.createPackage(dir.path("w.iink"))
        try pkg.saveAs(dir.path("w2.iink"))
        expectCode(.readOnly) { try pkg.saveAs("/proc/quire-w3.iink") }
        #expect(pkg.path == dir.path("w2.iink"), "a failed saveAs keeps the package where it was")
        try pkg.save()
        pkg.close()
    }

    /// blocks.json for the good package's Text part: its root `b0` plus `extra` blocks, each
    /// `(id, parentId, childIds, box)`; `rootParent` and `rootChildren` set the root's links.
    func blocksJSON(rootParent: String? = nil, rootChildren: [String] = [], rootBox: String = "[0, 0, 0, 0]",
                    _ extra: [(String, String?, [String], String)] = [], words: String = "[]") -> Data {
        func box(_ b: String) -> String {
            let v = b.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return #"{"x": \#(v[0]), "y": \#(v[1]), "width": \#(v[2]), "height": \#(v[3])}"#
        }
        func block(_ id: String, _ parent: String?, _ kids: [String], _ b: String, _ words: String = "[]") -> String {
            let p = parent.map { #""parentId": "\#($0)", "# } ?? ""
            let k = kids.map { "\"\($0)\"" }.joined(separator: ",")
            return #"{"id": "\#(id)", "type": "Text", \#(p)"box": \#(box(b)), "childIds": [\#(k)], "conversion": "handwriting", "words": \#(words), "properties": {}}"#
        }
        let all = [block("b0", rootParent, rootChildren, rootBox, words)] + extra.map { block($0.0, $0.1, $0.2, $0.3) }
        return Data(("[" + all.joined(separator: ",") + "]").utf8)
    }

    func withBlocks(_ good: [(String, Data)], _ blocks: Data) -> [(String, Data)] {
        good.map { $0.0.hasSuffix("blocks.json") ? ($0.0, blocks) : $0 }
    }

    @Test func blockTreesThatAreNotTreesAreRefused() throws {
        // Each of these opened before and then crashed (stack overflow) or hung export, recognition
        // and convert, which walk the tree from the root.
        let dir = TempDir()
        let good = try goodEntries(dir)
        let box = "[10, 10, 100, 20]"
        var chain: [(String, String?, [String], String)] = []
        for i in 1...(BlockData.maxDepth + 1) {
            chain.append(("c\(i)", i == 1 ? "b0" : "c\(i - 1)", i <= BlockData.maxDepth ? ["c\(i + 1)"] : [], box))
        }
        let variants: [(String, Data)] = [
            // Two blocks each other's parent and child, apart from the root.
            ("orphan cycle", blocksJSON([("x", "y", ["y"], box), ("y", "x", ["x"], box)])),
            // A child whose child is the root, which points back at it.
            ("cycle through the root", blocksJSON(rootParent: "c", rootChildren: ["c"], [("c", "b0", ["b0"], box)])),
            ("self-parent", blocksJSON([("c", "c", ["c"], box)])),
            ("child listed twice", blocksJSON(rootChildren: ["c", "c"], [("c", "b0", [], box)])),
            ("root with a parent", blocksJSON(rootParent: "c", rootChildren: [], [("c", nil, [], box)])),
            ("nested too deep", blocksJSON(rootChildren: ["c1"], chain)),
        ]
        for (i, (what, blocks)) in variants.enumerated() {
            let p = dir.path("tree\(i).iink")
            try write(withBlocks(good, blocks), to: p)
            let err = expectCode(.corruptPackage) { _ = try Engine().openPackage(p) }
            #expect(err?.message.contains("malformed") == false, "\(what) is refused for its links: \(err?.message ?? "")")
        }
        // A nested block within the depth limit still opens.
        let p = dir.path("nested.iink")
        try write(withBlocks(good, blocksJSON(rootChildren: ["c1"], Array(chain.prefix(3)).enumerated().map { i, c in
            (c.0, c.1, i < 2 ? c.2 : [], c.3)
        })), to: p)
        let pkg = try Engine().openPackage(p)
        #expect(try pkg.part(at: 0).model.blocksInTreeOrder().map(\.id) == ["b0", "c1", "c2", "c3"])
        pkg.close()
    }

    @Test func boxesOutOfRangeAreRefused() throws {
        // A box of 1e300 mm opened, then trapped converting the export size (or the guide count)
        // to Int in every PNG, SVG, PDF and JSON export.
        let dir = TempDir()
        let good = try goodEntries(dir)
        let word = { (b: String) in #"[{"label": "a", "candidates": [], "selected": 0, "box": \#(b), "line": 0, "strokeIds": [], "chars": [], "styles": []}]"# }
        let char = #"[{"label": "a", "candidates": [], "selected": 0, "box": {"x": 0, "y": 0, "width": 1, "height": 1}, "line": 0, "strokeIds": [], "#
            + #""chars": [{"label": "a", "box": {"x": 0, "y": -1e300, "width": 1, "height": 1}, "strokeIds": []}], "styles": []}]"#
        let variants: [Data] = [
            blocksJSON(rootBox: "[0, 0, 1e300, 10]"),
            blocksJSON(rootBox: "[-1e308, 0, 10, 10]"),
            blocksJSON(rootBox: "[0, 6e8, 10, 6e8]"),  // each value in range, the bottom edge not
            blocksJSON(rootChildren: ["c"], [("c", "b0", [], "[0, 0, 10, 1.7976931348623157e308]")]),
            blocksJSON(words: word(#"{"x": 0, "y": 0, "width": 1e20, "height": 1}"#)),
            blocksJSON(words: char),
        ]
        for (i, blocks) in variants.enumerated() {
            let p = dir.path("box\(i).iink")
            try write(withBlocks(good, blocks), to: p)
            let err = expectCode(.corruptPackage) { _ = try Engine().openPackage(p) }
            #expect(err?.message.contains("out of range") == true, "\(err?.message ?? "")")
        }
        // Far out but within range (a kilometre away, 100 m tall) still opens.
        let p = dir.path("far.iink")
        try write(withBlocks(good, blocksJSON(rootBox: "[-1e6, 1e6, 10, 1e5]")), to: p)
        let pkg = try Engine().openPackage(p)
        #expect(try pkg.part(at: 0).model.root.box == Rect(x: -1e6, y: 1e6, width: 10, height: 1e5))
        pkg.close()
    }

    @Test func strokeCodecRejectsHostileCounts() {
        // Claims 2^62 strokes in a 10-byte payload: refused before allocating.
        var w = ByteWriter()
        w.bytes.append(contentsOf: StrokeCodec.magic)
        w.u8(1)
        w.varint(1 << 62)
        #expect(throws: QuireError.self) { _ = try StrokeCodec.decode(Data(w.bytes), what: "test") }
        #expect(throws: QuireError.self) { _ = try StrokeCodec.decode(Data([0x51, 0x53, 0x54, 0x4B, 9]), what: "test") }
    }
}
