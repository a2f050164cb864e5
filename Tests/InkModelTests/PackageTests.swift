import Foundation
import Testing
@testable import InkModel

@Suite struct PackageTests {
    @Test func openOptionsSucceedAndFailExactly() throws {
        let dir = TempDir(), engine = try Engine()
        let path = dir.path("a.iink")
        expectCode(.fileNotFound) { _ = try engine.openPackage(path) }
        expectCode(.fileNotFound) { _ = try engine.openPackage(path, openOption: .existing) }
        #expect(!FileManager.default.fileExists(atPath: path + "-files"), "a failed open leaves nothing behind")

        var p: ContentPackage? = try engine.openPackage(path, openOption: .create)
        #expect(FileManager.default.fileExists(atPath: path), ".create writes the archive at once")
        _ = try p!.createPart(type: "Text")
        try p!.save()
        p!.close()
        p = try engine.openPackage(path, openOption: .create)
        #expect(p!.partCount == 1, ".create opens an existing package")
        p!.close()

        expectCode(.fileExists) { _ = try engine.openPackage(path, openOption: .createNew) }
        expectCode(.fileExists) { _ = try engine.createPackage(path) }
        p = try engine.openPackage(path, openOption: .existing)
        #expect(p!.partCount == 1)
        p!.close()

        p = try engine.openPackage(path, openOption: .truncateExisting)
        #expect(p!.partCount == 0, ".truncateExisting replaces the package")
        p!.close()
        p = try engine.openPackage(path)
        #expect(p!.partCount == 0)
        p!.close()

        let fresh = try engine.createPackage(dir.path("b.iink"))
        #expect(fresh.partCount == 0)
        fresh.close()
        expectCode(.notAFile) { _ = try engine.openPackage(dir.url.path, openOption: .truncateExisting) }
        expectCode(.fileNotFound) { _ = try engine.createPackage(dir.path("no/such/folder/c.iink")) }
        expectCode(.invalidArgument) { _ = try engine.openPackage("", openOption: .create) }
    }

    @Test func partsCreateCloneRemoveIndex() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("p.iink"))
        defer { pkg.close() }
        var parts: [ContentPart] = []
        for t in engine.supportedPartTypes { parts.append(try pkg.createPart(type: t)) }
        #expect(pkg.partCount == 6)
        #expect(try (0..<6).map { try pkg.part(at: $0).type } == engine.supportedPartTypes)
        #expect(try pkg.part(at: 2) === parts[2])
        #expect(Set(parts.map(\.id)).count == 6)
        expectCode(.indexOutOfRange) { _ = try pkg.part(at: 6) }
        expectCode(.indexOutOfRange) { _ = try pkg.part(at: -1) }
        expectCode(.invalidPartType) { _ = try pkg.createPart(type: "text") }
        expectCode(.invalidPartType) { _ = try pkg.createPart(type: "Spreadsheet") }
        #expect(parts[5].model.root.type == "Container")
        #expect(parts[0].model.root.type == "Text")
        #expect(parts[4].model.root.type == "Raw Content")

        parts[0].model.insertStroke(sampleStroke(parts[0].model))
        let clone = try pkg.clonePart(parts[0])
        #expect(clone.id != parts[0].id && clone.type == "Text" && clone.package === pkg)
        #expect(clone.model.strokes.count == 1)
        clone.model.insertStroke(sampleStroke(clone.model))
        #expect(parts[0].model.strokes.count == 1, "a clone is a deep copy")
        #expect(pkg.index(of: clone) == 6)

        try pkg.removePart(parts[1])
        #expect(pkg.partCount == 6)
        #expect(pkg.index(of: parts[1]) == nil)
        #expect(parts[1].package == nil)
        #expect(pkg.index(of: clone) == 5)
        expectCode(.partNotFound) { try pkg.removePart(parts[1]) }
        expectCode(.partNotFound) { _ = try pkg.clonePart(parts[1]) }
    }

    @Test func cloneAcrossPackagesAndRoundTripEverything() throws {
        let dir = TempDir(), engine = try Engine()
        let a = try engine.createPackage(dir.path("a.iink"))
        let src = try a.createPart(type: "Text Document")
        let m = src.model
        let block = BlockData(id: m.makeBlockId(), type: "Text", box: Rect(x: 5, y: 10, width: 100, height: 30), parentId: m.rootId,
                              text: "hello", words: [RecognizedWord(label: "hello", candidates: [Candidate(label: "hello", score: 0.9), Candidate(label: "hullo", score: 0.1)], box: Rect(x: 5, y: 12, width: 20, height: 8), strokeIds: ["s1"])])
        m.setBlock(block)
        var root = m.root; root.childIds.append(block.id); m.setBlock(root)
        let img = BlockData(id: m.makeBlockId(), type: "Image", box: Rect(x: 5, y: 50, width: 40, height: 30), parentId: m.rootId,
                            image: ImageRef(entry: "images/pic.png", mimeType: "image/png", pixelWidth: 4, pixelHeight: 3))
        m.setBlock(img)
        root = m.root; root.childIds.append(img.id); m.setBlock(root)
        m.setImage(Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]), entry: "images/pic.png")
        let s1 = sampleStroke(m, n: 40, blockId: block.id)
        m.insertStroke(s1)
        let s2 = InkStroke(id: m.makeStrokeId(), pointerType: .custom(7), pointerId: 42, tool: "highlighter", color: "#ff000080", width: 3.5,
                           seq: m.nextSeq(), samples: [InkSample(x: -3.21, y: 1e4, t: 5, f: 1), InkSample(x: 0, y: 0, t: 2, f: 0)])
        m.insertStroke(s2)
        try src.metadata.setString("Lecture 3", forKey: "title")
        try a.metadata.setStringArray(["math", "notes"], forKey: "tags")

        let b = try engine.createPackage(dir.path("b.iink"))
        let copy = try b.clonePart(src)
        #expect(copy.package === b && copy.type == "Text Document")
        try b.save()
        b.close()
        try a.save()
        a.close()

        for path in [dir.path("a.iink"), dir.path("b.iink")] {
            let p = try engine.openPackage(path)
            let part = try p.part(at: 0)
            #expect(part.model.strokes[s1.id] == s1, "strokes round trip exactly")
            #expect(part.model.strokes[s2.id] == s2)
            #expect(part.model.strokes[s2.id]?.pointerType == .custom(7))
            #expect(part.model.blocks[block.id] == block)
            #expect(part.model.blocks[img.id]?.image?.pixelWidth == 4)
            #expect(part.model.images["images/pic.png"] == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))
            #expect(part.model.strokes(inBlock: block.id).map(\.id) == [s1.id])
            #expect(try part.metadata.getString("title") == "Lecture 3")
            if path.hasSuffix("a.iink") { #expect(try p.metadata.getStringArray("tags") == ["math", "notes"]) }
            // New ids never collide with restored ones.
            #expect(part.model.strokes[part.model.makeStrokeId()] == nil)
            p.close()
        }
        // Quantisation is documented: 1/100 mm and 1/4095 pressure.
        #expect(abs(s1[3].x - (10 + 3 * 0.37)) <= 0.005)
        #expect(abs(s1[3].f - 3.0 / 39.0) <= 0.5 / 4095)
    }

    @Test func saveAsMovesThePackageAndDeleteRemovesBoth() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("one.iink"))
        _ = try pkg.createPart(type: "Drawing")
        try pkg.saveAs(dir.path("two.iink"))
        #expect(pkg.path == dir.path("two.iink"))
        #expect(FileManager.default.fileExists(atPath: dir.path("two.iink-files")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("one.iink-files")), "the old temp folder is released")
        expectCode(.packageLocked) { try engine.deletePackage(dir.path("two.iink")) }
        pkg.close()
        #expect(try engine.openPackage(dir.path("two.iink")).partCount == 1)
        try engine.deletePackage(dir.path("two.iink"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("two.iink")))
        #expect(!FileManager.default.fileExists(atPath: dir.path("two.iink-files")))
        expectCode(.fileNotFound) { try engine.deletePackage(dir.path("two.iink")) }
        // The first archive stays as it was.
        let one = try engine.openPackage(dir.path("one.iink"))
        #expect(one.partCount == 0)
        one.close()
    }

    @Test func saveToTempIsRecoveredAfterAnUncleanExit() throws {
        let dir = TempDir(), engine = try Engine()
        let path = dir.path("r.iink")
        var pkg: ContentPackage? = try engine.createPackage(path)
        let part = try pkg!.createPart(type: "Drawing")
        part.model.insertStroke(sampleStroke(part.model))
        try pkg!.save()
        part.model.insertStroke(sampleStroke(part.model))
        try pkg!.saveToTemp()
        #expect(pkg!.hasUnsavedTempContent)
        pkg = nil  // the process "dies" without save(): the temp snapshot stays
        let reopened = try engine.openPackage(path)
        #expect(reopened.recoveredFromTemp)
        #expect(try reopened.part(at: 0).model.strokes.count == 2)
        try reopened.save()
        reopened.close()
        let again = try engine.openPackage(path)
        #expect(!again.recoveredFromTemp)
        #expect(try again.part(at: 0).model.strokes.count == 2)
        again.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-files"), "a cleanly closed, saved package leaves no temp folder")
    }

    @Test func olderTempContentIsNotRecoveredOverANewerSave() throws {
        let dir = TempDir(), engine = try Engine()
        let path = dir.path("o.iink")
        let pkg = try engine.createPackage(path)
        let part = try pkg.createPart(type: "Drawing")
        try pkg.saveToTemp()
        part.model.insertStroke(sampleStroke(part.model))
        try pkg.save()
        pkg.close()
        let p = try engine.openPackage(path)
        #expect(!p.recoveredFromTemp)
        #expect(try p.part(at: 0).model.strokes.count == 1)
        p.close()
    }

    @Test func tempFolderConfigurationKeyMovesIt() throws {
        let dir = TempDir()
        let config = Configuration()
        try config.setString(dir.path("state"), forKey: "content-package.temp-folder")
        try FileManager.default.createDirectory(atPath: dir.path("state"), withIntermediateDirectories: true)
        let engine = try Engine(configuration: config)
        let pkg = try engine.createPackage(dir.path("t.iink"))
        #expect(pkg.tempFolder.hasPrefix(dir.path("state/t.iink-")) && pkg.tempFolder.hasSuffix("-files"))
        try pkg.saveToTemp()
        #expect(FileManager.default.fileExists(atPath: pkg.tempFolder + "/snapshot.qtmp"))
        // A package of the same name in another folder gets its own working state.
        try FileManager.default.createDirectory(atPath: dir.path("other"), withIntermediateDirectories: true)
        let twin = try engine.createPackage(dir.path("other/t.iink"))
        #expect(twin.tempFolder != pkg.tempFolder)
        #expect(twin.tempFolder.hasPrefix(dir.path("state/t.iink-")))
        twin.close()
        #expect(!FileManager.default.fileExists(atPath: dir.path("t.iink-files")))
        pkg.close()
    }

    @Test func twoEnginesCannotOpenTheSamePackage() throws {
        let dir = TempDir()
        let e1 = try Engine(), e2 = try Engine()
        let p1 = try e1.createPackage(dir.path("x.iink"))
        let err = expectCode(.packageLocked) { _ = try e2.openPackage(dir.path("x.iink")) }
        #expect(err?.message.contains("already open") == true)
        expectCode(.packageLocked) { _ = try e1.openPackage(dir.path("x.iink")) }
        p1.close()
        let p2 = try e2.openPackage(dir.path("x.iink"))
        p2.close()
    }

    @Test func metadataSetterReplacesAndPersists() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("m.iink"))
        let part = try pkg.createPart(type: "Math")
        let meta = ParameterSet()
        try meta.setNumber(3, forKey: "page.number")
        part.metadata = meta
        pkg.metadata = meta
        try meta.setNumber(4, forKey: "page.number")
        #expect(try part.metadata.getNumber("page.number") == 3, "the setter copies")
        try pkg.save()
        pkg.close()
        let p = try engine.openPackage(dir.path("m.iink"))
        #expect(try p.part(at: 0).metadata.getNumber("page.number") == 3)
        #expect(try p.metadata.getNumber("page.number") == 3)
        p.close()
    }
}

@Suite struct MovedInkTests {
    /// Moving a block's ink is an O(1) shift inside the model: every reader still sees model
    /// millimetres, the file stores them, and moving back is exact.
    @Test func shiftedInkReadsSavesAndReopensWhereItIs() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("m.iink"))
        let part = try pkg.createPart(type: "Text Document")
        let m = part.model
        m.setBlock(BlockData(id: "b9", type: "Text", box: Rect(x: 0, y: 10, width: 100, height: 20), parentId: m.rootId))
        var root = m.root
        root.childIds = ["b9"]
        m.setBlock(root)
        let a = sampleStroke(m, blockId: "b9")
        m.insertStroke(a)
        let b = sampleStroke(m, y: 40)
        m.insertStroke(b)
        m.translateStrokes(inBlock: "b9", unitsX: 250, unitsY: -1234)
        let moved = a.translated(dx: 2.5, dy: -12.34)
        #expect(m.strokes[a.id] == moved && m.strokes[b.id] == b, "only the block's ink moves")
        #expect(m.strokes(inBlock: "b9") == [moved] && m.orderedStrokes == [moved, b])
        #expect(m.strokes[a.id]?.samples.first?.y == a.samples.first.map { ($0.y * 100 - 1234).rounded() / 100 })
        #expect(Set(m.strokes.values.map(\.id)) == [a.id, b.id] && m.strokes.count == 2)
        let inked = try #require(m.inkExtent(inBlock: "b9"))
        #expect(inked.x <= moved.bounds.x && inked.maxY >= moved.bounds.maxY)
        // A stroke inserted after the shift is stored where it is given.
        let c = sampleStroke(m, x: 50, y: 12, blockId: "b9")
        m.insertStroke(c)
        #expect(m.strokes[c.id] == c && m.removeStroke(id: c.id) == c)
        try pkg.save()
        pkg.close()
        let again = try engine.openPackage(dir.path("m.iink"))
        defer { again.close() }
        let r = try again.part(at: 0).model
        #expect(r.strokes[a.id] == moved && r.strokes[b.id] == b)
        m.translateStrokes(inBlock: "b9", unitsX: -250, unitsY: 1234)
        #expect(m.strokes[a.id] == a, "moving back is exact")
    }
}

@Suite struct StrokeStorageTests {
    /// Strokes are packed in 16 bits a channel when they fit, 32 bits otherwise; both read back
    /// the samples exactly, at the edges of the packed range too, and survive save/open.
    @Test func packedAndWideStrokesKeepTheirSamples() throws {
        func stroke(_ id: String, _ pts: [(Double, Double, Int64)]) -> InkStroke {
            InkStroke(id: id, seq: 1, samples: pts.map { InkSample(x: $0.0, y: $0.1, t: 1_000 + $0.2, f: 0.25) })
        }
        let cases = [
            stroke("small", [(1, 2, 0), (1.01, 2.02, 5), (3, 1, 9)]),
            stroke("edge", [(-327.68, 10, 0), (327.67, 10, 65_535)]),   // exactly 65535 units and ms: still packed
            stroke("wideX", [(0, 0, 0), (655.36, 0, 1)]),
            stroke("long", [(0, 0, 0), (1, 1, 65_536)]),
            stroke("far", [(21_474_000, -21_474_000, 0), (21_474_001, -21_473_999, 3)]),
        ]
        let m = try PartModel(id: "p", type: "Drawing")
        for s in cases {
            let back = s.samples
            #expect(back.count == s.count)
            #expect(InkStroke(id: s.id, seq: 1, samples: back) == s, "\(s.id) round-trips")
            #expect(s.xs.count == s.count && s.dts.last == Int32(back.last!.t - back.first!.t))
            m.insertStroke(s)
        }
        #expect(cases[0].memoryFootprint == 3 * 8 && cases[1].memoryFootprint == 2 * 8)
        #expect(cases[2].memoryFootprint == 2 * 14 && cases[3].memoryFootprint == 2 * 14)
        #expect(cases[1].samples[1].x == 327.67 && cases[1].samples[0].x == -327.68 && cases[3].samples[1].t == 1_000 + 65_536)
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("s.iink"))
        let part = try pkg.createPart(type: "Drawing")
        for s in cases { part.model.insertStroke(s) }
        try pkg.save()
        pkg.close()
        let again = try engine.openPackage(dir.path("s.iink"))
        defer { again.close() }
        let r = try again.part(at: 0).model
        for s in cases { #expect(r.strokes[s.id] == s && r.strokes[s.id]?.samples == s.samples) }
        let piece = cases[1].slice(1..<2, id: "piece")
        #expect(piece.samples == [cases[1].samples[1]].map { InkSample(x: $0.x, y: $0.y, t: $0.t, f: $0.f) })
    }
}
