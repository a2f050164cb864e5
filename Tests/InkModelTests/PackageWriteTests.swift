import Foundation
import Testing
@testable import InkModel

/// Saving streams the archive into its sibling file; the bytes must be those the in-memory build
/// (what older Quire wrote) produces, and failures must leave the target and folder as they were.
@Suite struct PackageWriteTests {
    func content() throws -> PackageContent {
        let a = try PartModel(id: "pa", type: "Drawing")
        // The codec's extremes too (coordinates spanning the whole Int32 range, seq Int64.max).
        for s in StrokeCodecTests.variedStrokes() where s.blockId == nil { a.insertStroke(s) }
        // Pieces of an erased stroke keep its seq: ties must come out in one order on every path.
        let whole = sampleStroke(a, n: 60)
        for (k, r) in [40..<60, 0..<20, 20..<40].enumerated() {
            var piece = whole.slice(r, id: "piece-\(2 - k)")
            piece.seq = whole.seq
            a.insertStroke(piece)
        }
        for _ in 0..<300 { a.insertStroke(sampleStroke(a, n: 80, x: Double.random(in: -50...400), y: Double.random(in: 0...300))) }
        a.setImage(Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }), entry: "images/i1.bin")
        a.setImage(Data(), entry: "images/empty.bin")
        let b = try PartModel(id: "pb", type: "Text")
        b.insertStroke(sampleStroke(b))
        let meta = ParameterSet()
        try meta.store(.string("x"), forKey: "k")
        return PackageContent(packageId: "pid", revision: 7, metadata: meta, parts: [a, b, try PartModel(id: "pc", type: "Drawing")])
    }

    @Test(arguments: [(true, 0), (false, 0), (true, Int.max), (false, Int.max)])
    func streamedArchiveMatchesTheInMemoryBuild(compress: Bool, streamStrokesAbove: Int) throws {
        let dir = TempDir()
        let c = try content()
        let path = dir.path("s.iink")
        try PackageFormat.writeArchive(c, to: path, compress: compress, streamStrokesAbove: streamStrokesAbove)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written == (try PackageFormat.makeArchive(try PackageFormat.encode(c), compress: compress)))
        // And it reads back as the same content.
        let entries = try PackageFormat.readEntries(path: path, limits: ArchiveLimits())
        let back = try PackageFormat.decode(entries, source: "test")
        func byId(_ c: PackageContent) -> [[String: InkStroke]] {
            c.parts.map { Dictionary(uniqueKeysWithValues: $0.orderedStrokes.map { ($0.id, $0) }) }
        }
        #expect(byId(back) == byId(c))
        #expect(back.parts[0].orderedStrokes.map(\.id) == c.parts[0].orderedStrokes.map(\.id))
        #expect(c.parts[0].strokes.orderedIds() == c.parts[0].orderedStrokes.map(\.id))
        #expect(entries["parts/pa/images/i1.bin"] == c.parts[0].images["images/i1.bin"] && entries["parts/pa/images/empty.bin"] == Data())
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["s.iink"], "no temporary file is left")
    }

    @Test func extremeStrokesOpenAndLeaveRoomForNewOnes() throws {
        // A file may hold any Int32 coordinates and any seq: opening it must not trap on a span
        // wider than Int32, and the next stroke must not overflow past seq Int64.max.
        let dir = TempDir()
        let engine = try Engine()
        let path = dir.path("x.iink")
        let pkg = try engine.createPackage(path)
        let part = try pkg.createPart(type: "Drawing")
        for s in StrokeCodecTests.variedStrokes() where s.blockId == nil { part.model.insertStroke(s) }
        try pkg.save()
        pkg.close()
        let back = try engine.openPackage(path)
        defer { back.close() }
        let m = try back.part(at: 0).model
        let wide = try #require(m.strokes["wide-extremes"])
        #expect(wide.bounds.width == (Double(Int32.max) - Double(Int32.min)) / InkStroke.unitsPerMillimetre)
        #expect(m.nextSeq() == Int64.max)
        m.insertStroke(InkStroke(id: m.makeStrokeId(), seq: m.nextSeq(), samples: [InkSample(x: 1, y: 1, t: 0, f: 0.5)]))
        #expect(m.strokes.count == StrokeCodecTests.variedStrokes().filter { $0.blockId == nil }.count + 1)
    }

    @Test func failedWriteLeavesTheTargetAndFolderUntouched() throws {
        struct Boom: Error {}
        let dir = TempDir()
        let path = dir.path("t.iink")
        try FileIO.writeAtomically(Data("old".utf8), to: path)
        #expect(throws: Boom.self) {
            try FileIO.writeAtomically(to: path) { fd, _ in
                try FileIO.writeAll(fd, Data(repeating: 1, count: 1 << 20), path: path)
                throw Boom()
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["t.iink"])
        // A package that cannot be written into a missing folder reports it and creates nothing.
        expectCode(.fileNotFound) { try PackageFormat.writeArchive(try content(), to: dir.path("gone/x.iink"), compress: true) }
    }

    @Test func entryWithAWrongCRCIsRejected() throws {
        let dir = TempDir()
        let c = try content()
        var data = try PackageFormat.makeArchive(try PackageFormat.encode(c), compress: true)
        let path = dir.path("ok.iink")
        try data.write(to: URL(fileURLWithPath: path))
        _ = try PackageFormat.readEntries(path: path, limits: ArchiveLimits())
        // Alter only the recorded CRC of metadata.json (local header and central directory): the
        // data itself is intact and parses, so only the CRC check can notice.
        let name = Data("metadata.json".utf8)
        var search = data.startIndex
        var patched = 0
        while let r = data.range(of: name, in: search..<data.endIndex) {
            search = r.upperBound
            let local = r.lowerBound - 30, central = r.lowerBound - 46
            if local >= 0, data[local..<local + 4] == Data([0x50, 0x4B, 0x03, 0x04]) {
                data[local + 14] ^= 0x5A; patched += 1
            } else if central >= 0, data[central..<central + 4] == Data([0x50, 0x4B, 0x01, 0x02]) {
                data[central + 16] ^= 0x5A; patched += 1
            }
        }
        #expect(patched == 2)
        try data.write(to: URL(fileURLWithPath: dir.path("crc.iink")))
        let err = expectCode(.corruptPackage) { _ = try PackageFormat.readEntries(path: dir.path("crc.iink"), limits: ArchiveLimits()) }
        #expect(err?.message.contains("CRC mismatch") == true && err?.message.contains("metadata.json") == true)
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(Zlib.crc32(Data("123456789".utf8), continuing: 0) == 0xCBF4_3926)
        let split = Zlib.crc32(Data("6789".utf8), continuing: Zlib.crc32(Data("12345".utf8), continuing: 0))
        #expect(split == 0xCBF4_3926)
        #expect(Zlib.crc32(Data(), continuing: 0x1234) == 0x1234)
    }
}
