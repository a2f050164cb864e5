import Foundation
import Testing
@testable import Quire

/// One word per stroke; the first stroke's word has the candidates the test sets, so a test can
/// change what the next reading of the block offers.
final class ScriptedRecognizer: InkRecognizer, @unchecked Sendable {
    private let lock = NSLock()
    private var labels: [String] = ["w"]
    func offer(_ l: [String]) { lock.withLock { labels = l } }
    func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
        let first = lock.withLock { labels }
        return r.strokes.sorted { $0.seq < $1.seq }.enumerated().map { i, s in
            let l = i == 0 ? first : ["w\(i)"]
            return RecognizedWord(label: l[0], candidates: l.enumerated().map { Candidate(label: $1, score: -Double($0)) },
                                  box: s.bounds, line: 0, strokeIds: [s.id])
        }
    }
}

/// What tools/fuzz found in the editor, the InkML reader and the clipboard; each test failed
/// (or crashed) before the fix it names.
@Suite struct FuzzRegressionTests {
    /// quire-fuzz session: a picked candidate that a later reading of the block no longer
    /// offered was put first with selected 0, so it looked like the recognizer's own choice and
    /// the reading after that replaced it (undoing that later ink did not bring it back either).
    @Test func aPickedCandidateSurvivesReadingsThatNoLongerOfferIt() throws {
        let rec = ScriptedRecognizer()
        let f = try Fixture(recognizer: rec)
        rec.offer(["The", "the", "Thee"])
        let a = try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.editor.rootBlock?.children.first)
        let index = try #require(block.words.firstIndex { $0.strokeIds == [a] })
        try f.editor.selectCandidate(WordRef(blockId: block.id, index: index), candidateIndex: 2)
        rec.offer(["The", "Tho"])
        try f.write(x: 200, y: 102)
        try f.editor.waitForIdle()
        #expect(block.words.first { $0.strokeIds == [a] }?.label == "Thee")
        try f.write(x: 300, y: 101)
        try f.editor.waitForIdle()
        #expect(block.words.first { $0.strokeIds == [a] }?.label == "Thee", "the second reading keeps the choice too")
        #expect(try f.editor.export(nil, mimeType: .text).hasPrefix("Thee"))
    }

    /// fuzz_import.py --kind jsonl: a 200,000-point stroke took 35 s to import, as every
    /// pointerMove copied the stroke's samples (a copy stayed in the pointer table).
    @Test func pointerMoveAppendsWithoutCopyingTheStroke() throws {
        let f = try Fixture()
        try f.editor.pointerDown(x: 10, y: 10, t: 1000, f: 0.5, type: .pen, pointerId: 1)
        func buffer() -> UnsafeRawPointer? { f.editor.pointers[1]?.samples.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
        var moves = 0
        var last = buffer()
        for i in 1...2000 {
            try f.editor.pointerMove(x: 10 + Double(i % 300), y: 10 + Double(i % 7), t: 1000 + Int64(i), f: 0.5, type: .pen, pointerId: 1)
            let b = buffer()
            if b != last { moves += 1 }
            last = b
        }
        // Growing by doubling moves the buffer about log2(2000) times; a copy per move, 2000 times.
        #expect(moves < 40, "the samples moved \(moves) times in 2000 moves")
        try f.editor.pointerUp(x: 20, y: 20, t: 5000, f: 0.5, type: .pen, pointerId: 1)
        #expect(f.part.model.strokes.values.first?.count == 2002)
    }

    /// fuzz_import.py --kind inkml: a T channel value of 1e19 trapped converting to Int64.
    @Test func inkmlTimesOutOfRangeAreRefused() throws {
        let doc = "<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"T\"/></traceFormat><trace>1 2 0, 3 4 1e19</trace></ink>"
        let e = #expect(throws: QuireError.self) { _ = try InkMLReader.read(Data(doc.utf8)) }
        #expect(e?.code == .importError)
        #expect(e?.message.contains("time out of range") == true, "the trace's own message, not 'not well-formed': \(e?.message ?? "")")
    }

    /// fuzz_import.py: InkML over 10 MB (Quire's own export of some 3,000 strokes) failed as
    /// "not well-formed XML": libxml2 refuses a single chunk that large.
    @Test func inkmlOverTenMegabytesReads() throws {
        let trace = "<trace>" + (0..<100).map { "\($0).55 20.46 \(1_700_000_000_000 + $0) 0.5" }.joined(separator: ", ") + "</trace>\n"
        let doc = "<ink xmlns=\"http://www.w3.org/2003/InkML\"><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"T\"/><channel name=\"F\"/></traceFormat>\n"
            + String(repeating: trace, count: 3500) + "</ink>\n"
        #expect(doc.utf8.count > 10_000_000)
        let traces = try InkMLReader.read(Data(doc.utf8))
        #expect(traces.count == 3500 && traces.allSatisfy { $0.samples.count == 100 })
        // A truncated document is still refused.
        let e = #expect(throws: QuireError.self) { _ = try InkMLReader.read(Data(doc.utf8.prefix(5_000_000))) }
        #expect(e?.code == .importError)
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session: typed text holding a control character made the InkML export
    /// unreadable ("not well-formed", XML 1.0 allows no such character even escaped).
    @Test func inkmlExportOfControlCharactersReadsBack() throws {
        let f = try Fixture()
        try f.write(x: 100, y: 300)
        _ = try f.editor.typeText("ctl\u{1}\u{1b}[2J\u{7f} <&>\"' \u{FFFF}ok", into: nil)
        let xml = try f.editor.export(nil, mimeType: .inkml)
        let traces = try InkMLReader.read(Data(xml.utf8))
        #expect(traces.count == 1)
        #expect(xml.contains("ctl[2J\u{7f} &lt;&amp;&gt;&quot;&apos; ok"))
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session (and clipboard): a new block that overlapped the one above was pushed
    /// down by the flow before its reading came back; the reading, of ink no longer there, was
    /// dropped and the block stayed without words (its text missing from every export).
    @Test func aBlockPushedDownBeforeItsReadingIsReadWhereItLands() throws {
        let f = try Fixture(recognizer: CountingRecognizer())
        let px = 96 / 25.4
        func stroke(_ pts: [(Double, Double)], t: Int64) throws {
            try f.editor.pointerDown(x: pts[0].0 * px, y: pts[0].1 * px, t: t, f: 0.5)
            for (i, p) in pts.enumerated().dropFirst() { try f.editor.pointerMove(x: p.0 * px, y: p.1 * px, t: t + Int64(i) * 10, f: 0.5) }
            try f.editor.pointerUp(x: pts[pts.count - 1].0 * px, y: pts[pts.count - 1].1 * px, t: t + 100, f: 0.5)
        }
        try stroke([(20, 26), (30, 26.5), (40, 26)], t: 1000)            // block A, 20...30 mm
        try stroke([(60, 30.6), (62, 32), (64, 33)], t: 3000)            // starts below A: block B from 20 mm, overlapping A
        try f.editor.waitForIdle()
        let blocks = try #require(f.editor.rootBlock?.children)
        #expect(blocks.count == 2)
        let b = try #require(blocks.first { $0.box.y > 30 }, "B was pushed below A")
        #expect(b.words.count == 1, "B is read where it landed")
        #expect(try f.editor.export(nil, mimeType: .text).split(separator: "\n").count == 2)
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session: ink committed by another pointer while an eraser was still down made
    /// what the eraser had removed so far its own undo step, but nobody re-read or reported the
    /// erased block: its words kept the ids of the erased strokes (and its text their letters).
    @Test func strokesErasedBeforeAnotherPointersInkAreReadAgain() throws {
        let f = try Fixture(recognizer: CountingRecognizer(delay: 0))
        let a = try f.write(x: 100, y: 100)
        try f.write(x: 200, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.editor.rootBlock?.children.first)
        #expect(block.words.count == 2)
        let rec = Recorder()
        f.editor.addDelegate(rec)
        // The eraser crosses the first stroke and stays down while a pen writes elsewhere.
        try f.editor.pointerDown(x: 130, y: 80, t: 2000, f: 0, type: .eraser, pointerId: 7)
        try f.editor.pointerMove(x: 130, y: 120, t: 2010, f: 0, type: .eraser, pointerId: 7)
        #expect(f.part.model.strokes[a] == nil)
        try f.write(x: 100, y: 400, id: 8)
        try f.editor.pointerUp(x: 131, y: 121, t: 2200, f: 0, type: .eraser, pointerId: 7)
        try f.editor.waitForIdle()
        #expect(!block.words.contains { $0.strokeIds.contains(a) }, "no word holds the erased stroke")
        #expect(block.words.count == 1)
        #expect(rec.changed.contains { $0.contains(block.id) }, "delegates hear of the erased block")
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session: a word of one point (a dot: its box has no size) stayed where it was
    /// when its block moved, away from its ink, until the block was read again.
    @Test func aDotsWordMovesWithItsBlock() throws {
        let f = try Fixture(recognizer: CountingRecognizer(delay: 0))
        try f.editor.pointerDown(x: 200, y: 100, t: 1000, f: 0.5)
        try f.editor.pointerUp(x: 200, y: 100, t: 1010, f: 0.5)
        try f.editor.waitForIdle()
        let block = try #require(f.editor.rootBlock?.children.first)
        let dot = try #require(block.words.first)
        #expect(dot.box.width == 0 && dot.box.height == 0 && dot.box != .zero)
        try f.editor.moveBlock(block, to: f.editor.viewTransform.apply(Point(x: block.box.x, y: block.box.y + 50)))
        let moved = try #require(block.words.first)
        #expect(abs(moved.box.y - (dot.box.y + 50)) < 0.01, "the dot's word moved with its ink")
        #expect(abs(moved.box.y - (f.part.model.strokes.values.first?.bounds.y ?? 0)) < 0.01)
    }
}

extension FuzzRegressionTests {
    /// Found with the one above: pasting moved typed words' boxes with the block. Typed words now
    /// have their layout in the model: a pasted copy's words are laid out where the copy is.
    @Test func pastedTypedWordsAreLaidOutInTheirCopy() throws {
        let f = try Fixture()
        let typed = try f.editor.typeText("two words", into: nil)
        #expect(typed.words.allSatisfy { !$0.box.isEmpty && typed.box.intersects($0.box) })
        try f.editor.copy(typed)
        try f.editor.paste(at: Point(x: 300, y: 500))
        let pasted = try #require(f.editor.rootBlock?.children.last)
        #expect(pasted.id != typed.id && pasted.words.count == 2)
        for w in pasted.words {
            #expect(!w.box.isEmpty && w.box.x >= pasted.box.x - 0.01 && w.box.maxX <= pasted.box.maxX + 0.01
                    && w.box.y >= pasted.box.y - 0.01 && w.box.maxY <= pasted.box.maxY + 0.01, "\(w.box) in \(pasted.box)")
        }
        #expect(!typed.box.intersects(pasted.box))
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session: a tool width of -1 or NaN went into the strokes; the package saved,
    /// and then refused to open ("invalid stroke width"): everything in it was lost.
    @Test func invalidToolWidthsDoNotMakeThePackageUnreadable() throws {
        let f = try Fixture()
        for (i, w) in [Float(-1), .nan, .infinity].enumerated() {
            f.editor.toolController.setStyle(color: "#ff0000", width: w, for: .pen)
            try f.write(x: 100, y: 100 + Double(i) * 80)
        }
        #expect(f.part.model.strokes.values.allSatisfy { $0.width == 0 && $0.color == "#ff0000" })
        try f.package.save()
        let path = f.package.path
        f.package.close()
        let reopened = try f.engine.openPackage(path)
        defer { reopened.close() }
        #expect(try reopened.part(at: 0).model.strokes.count == 3)
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz clipboard: a pasted stroke timed at Int64.max exported to InkML as written,
    /// and the InkML reader (reading T through Double) refused its own export.
    @Test func inkmlTimesReadAsIntegersExactly() throws {
        let doc = "<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"T\"/></traceFormat>"
            + "<trace>1 2 9223372036854775807, 3 4 -9223372036854775808, 5 6 1700000000123</trace></ink>"
        let t = try #require(try InkMLReader.read(Data(doc.utf8)).first).samples.map(\.t)
        #expect(t == [.max, .min, 1_700_000_000_123])
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz session: recognition rewrites words outside the history, so undoing an erase
    /// brought the stroke back but not its word as it was: the fresh reading had lost the
    /// user's candidate pick ('c' picked, erased, undone: 'd' again).
    @Test func undoOfAnEraseGivesBackThePickedCandidate() throws {
        let f = try Fixture(recognizer: CountingRecognizer(delay: 0))
        try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.editor.rootBlock?.children.first)
        try f.editor.selectCandidate(WordRef(blockId: block.id, index: 0), candidateIndex: 1)
        #expect(block.words.first?.label == "v0")
        try f.editor.pointerDown(x: 130, y: 80, t: 5000, f: 0, type: .eraser, pointerId: 2)
        try f.editor.pointerMove(x: 130, y: 120, t: 5010, f: 0, type: .eraser, pointerId: 2)
        try f.editor.pointerUp(x: 131, y: 121, t: 5020, f: 0, type: .eraser, pointerId: 2)
        try f.editor.waitForIdle()
        #expect(block.words.isEmpty)
        f.editor.undo()
        try f.editor.waitForIdle()
        #expect(block.words.first?.label == "v0", "the pick comes back with the stroke")
        f.editor.redo()
        try f.editor.waitForIdle()
        #expect(block.words.isEmpty)
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz config: `image.max-file-size` of 1e20 trapped converting to Int in addImage,
    /// and an `image.max-pixels` below zero trapped writing the refusal's message.
    @Test func hugeImageLimitsDoNotTrap() throws {
        let f = try Fixture()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
                            0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
                            0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0xE2, 0x21, 0xBC, 0x33, 0x00, 0x00, 0x00, 0x00, 0x49,
                            0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        let file = f.dir.path("one.png")
        try Data(png).write(to: URL(fileURLWithPath: file))
        try f.editor.configuration.setNumber(1e20, forKey: "image.max-file-size")
        try f.editor.addImage(at: Point(x: 50, y: 50), file: file, mimeType: .png)
        try f.editor.configuration.setNumber(-1e20, forKey: "image.max-pixels")
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 50, y: 300), file: file, mimeType: .png) }
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz config: `text.guides.spacing` of 1e300 made the area around a gesture overflow
    /// the stroke grid's Int64 (a trap), and gave blocks a height beyond what a package holds.
    @Test func aHugeGuideSpacingMeansTheDefault() throws {
        let f = try Fixture()
        try f.editor.configuration.setNumber(1e300, forKey: "text.guides.spacing")
        #expect(f.editor.guides.spacing == 10)
        try f.write(x: 100, y: 100)
        try f.write(x: 100, y: 100, length: 30)     // a short dash over the first: checked as a gesture
        let kids = f.part.model.root.childIds.compactMap { f.part.model.blocks[$0] }
        #expect(!kids.isEmpty && kids.allSatisfy { $0.boxProblem == nil })
    }

    /// quire-fuzz config: with a negative `text-document.block-spacing` the flow pushed a block
    /// that overlapped the one above to just above that block's bottom, again and again: a hang.
    @Test func aNegativeBlockSpacingDoesNotHangTheFlow() throws {
        let f = try Fixture()
        try f.editor.configuration.setNumber(-5, forKey: "text-document.block-spacing")
        let px = 96 / 25.4
        for (k, pts) in [[(20.0, 26.0), (30, 26.5), (40, 26)], [(60, 30.6), (62, 32), (64, 33)]].enumerated() {
            try f.editor.pointerDown(x: pts[0].0 * px, y: pts[0].1 * px, t: 1000 + Int64(k) * 1000, f: 0.5)
            try f.editor.pointerMove(x: pts[1].0 * px, y: pts[1].1 * px, t: 1010 + Int64(k) * 1000, f: 0.5)
            try f.editor.pointerUp(x: pts[2].0 * px, y: pts[2].1 * px, t: 1020 + Int64(k) * 1000, f: 0.5)
        }
        let kids = f.part.model.root.childIds.compactMap { f.part.model.blocks[$0] }
        #expect(kids.count == 2 && !kids[0].box.intersects(kids[1].box))
    }

    /// quire-fuzz config: a text.configuration.bundle of another type (a number, in a user's
    /// file) made setPart throw typeMismatch: no document could be opened.
    @Test func aMistypedRecognitionBundleDoesNotKeepPartsFromOpening() throws {
        let f = try Fixture()
        let part = try f.package.createPart(type: "Text")
        try f.editor.configuration.inject(json: "{\"text\": {\"configuration\": {\"bundle\": 5, \"name\": true}}}")
        try f.editor.setPart(part)
        #expect(try part.model.metadata.getString("quire.text.configuration.bundle") == "en_US")
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz clipboard: a pasted Container's Text children were never read (only the top
    /// block was), so words another process sent stayed even where they did not match the ink;
    /// an undo and redo then read them and the words changed.
    @Test func everyPastedBlockIsRead() throws {
        struct Envelope: Codable { var format: String; var version: Int; var blocks: [BlockData]; var strokes: Data; var images: [String: Data] }
        let top = BlockData(id: "c", type: "Container", box: Rect(x: 10, y: 10, width: 150, height: 40), childIds: ["t"])
        let child = BlockData(id: "t", type: "Text", box: Rect(x: 10, y: 10, width: 150, height: 20), parentId: "c",
                              words: [RecognizedWord(label: "stale", candidates: [Candidate(label: "stale", score: 1)], box: Rect(x: 12, y: 12, width: 5, height: 5), strokeIds: ["x"])])
        let stroke = InkStroke(id: "x", blockId: "t", seq: 1, samples: (0..<10).map { InkSample(x: 12 + Double($0), y: 15, t: Int64($0), f: 0.5) })
        let data = try JSONEncoder().encode(Envelope(format: "quire-block", version: 1, blocks: [top, child], strokes: StrokeCodec.encode([stroke]), images: [:]))
        let f = try Fixture(recognizer: CountingRecognizer(delay: 0))
        try f.editor.paste(data: data, at: Point(x: 100, y: 100))
        try f.editor.waitForIdle()
        let text = try #require(f.part.model.blocks.values.first { $0.type == "Text" })
        #expect(text.words.map(\.label) == ["w0"], "the pasted child is read where it landed")
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz clipboard: a pasted stroke near the edge of the coordinate range (±21 km)
    /// moved past it, wrapped round to the other end, and the stroke grid trapped on its bounds
    /// (max below min). Such a paste is now refused, and the grid files a wrapped stroke anyway.
    @Test func inkMovedPastTheCoordinateRangeIsRefusedAndNeverTraps() throws {
        // 6.47 mm below Int32.max hundredths of a millimetre.
        let far = InkStroke(id: "s1", samples: [InkSample(x: 21_474_830, y: 10, t: 0, f: 0.5), InkSample(x: 21_474_830.05, y: 12, t: 5, f: 0.5)])
        var grid = StrokeIndex()
        var wrapped = far
        wrapped.translate(unitsX: 645, unitsY: 0)  // its left end reaches Int32.max, its right end wraps
        #expect(wrapped.unitBounds.minX > wrapped.unitBounds.maxX, "the move wrapped")
        grid.insert(wrapped)
        #expect(grid.candidates(Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)).contains("s1"))

        struct Envelope: Codable { var format: String; var version: Int; var blocks: [BlockData]; var strokes: Data; var images: [String: Data] }
        var stroke = far
        stroke.blockId = "t"
        // The block's box at the page's left edge, its ink far right: pasted 26 mm right of the
        // edge, the ink would move past the end of the range.
        let block = BlockData(id: "t", type: "Text", box: Rect(x: 0, y: 0, width: 30, height: 20))
        let data = try JSONEncoder().encode(Envelope(format: "quire-block", version: 1, blocks: [block], strokes: StrokeCodec.encode([stroke]), images: [:]))
        let f = try Fixture()
        let e = #expect(throws: QuireError.self) { try f.editor.paste(data: data, at: Point(x: 100, y: 10)) }
        #expect(e?.code == .invalidArgument)
        #expect(f.part.model.strokes.isEmpty && f.part.model.root.childIds.isEmpty)
    }
}

extension FuzzRegressionTests {
    /// fuzz_import.py --kind inkml: a byte of Quire's own export damaged into an element name
    /// that is not UTF-8 ("<\xDBannotation>") made Foundation's XML parser trap.
    @Test func inkmlNamesThatAreNotUTF8AreRefused() throws {
        for bytes in [Array("<ink><".utf8) + [0xDB] + Array("x/><trace>1 2</trace></ink>".utf8),
                      Array("<ink><trace a".utf8) + [0xDB] + Array("=\"1\">1 2</trace></ink>".utf8)] {
            let e = #expect(throws: QuireError.self) { _ = try InkMLReader.read(Data(bytes)) }
            #expect(e?.code == .importError)
        }
        // Declared in another encoding, the same byte is a letter (Û) and reads.
        let latin = Array("<?xml version='1.0' encoding='ISO-8859-1'?><ink><".utf8) + [0xDB] + Array("x/><trace>1 2, 3 4</trace></ink>".utf8)
        #expect(try InkMLReader.read(Data(latin)).count == 1)
        let utf16 = try #require("<ink><trace>1 2, 3 4</trace></ink>".data(using: .utf16))
        #expect(try InkMLReader.read(utf16).count == 1)
    }
}

extension FuzzRegressionTests {
    /// quire-fuzz clipboard (seed 1, case 9907): a payload whose word names a stroke filed under
    /// another block (here the container above it) was pasted as it was, and the word held ink
    /// outside its block. A word now keeps only its own block's strokes.
    @Test func aPastedWordKeepsOnlyItsOwnBlocksStrokes() throws {
        struct Envelope: Codable { var format: String; var version: Int; var blocks: [BlockData]; var strokes: Data; var images: [String: Data] }
        let top = BlockData(id: "c", type: "Container", box: Rect(x: 10, y: 10, width: 150, height: 60), childIds: ["t"])
        let word = RecognizedWord(label: "of", candidates: [Candidate(label: "of", score: 1)], box: Rect(x: 12, y: 12, width: 5, height: 5), strokeIds: ["x", "y"])
        let t = BlockData(id: "t", type: "Text", box: Rect(x: 10, y: 10, width: 150, height: 20), parentId: "c", words: [word])
        // "x" is filed under the container, "y" under the Text block that names both.
        let x = InkStroke(id: "x", blockId: "c", seq: 1, samples: (0..<10).map { InkSample(x: 12 + Double($0), y: 45, t: Int64($0), f: 0.5) })
        let y = InkStroke(id: "y", blockId: "t", seq: 2, samples: (0..<10).map { InkSample(x: 12 + Double($0), y: 15, t: 20 + Int64($0), f: 0.5) })
        let data = try JSONEncoder().encode(Envelope(format: "quire-block", version: 1, blocks: [top, t], strokes: StrokeCodec.encode([x, y]), images: [:]))
        let f = try Fixture()
        try f.editor.paste(data: data, at: Point(x: 100, y: 100))
        try f.editor.waitForIdle()
        let m = f.part.model
        for b in m.blocks.values {
            let own = m.strokeIds(inBlock: b.id)
            for w in b.words { #expect(w.strokeIds.allSatisfy { own.contains($0) }, "word '\(w.label)' of a \(b.type) block holds only its block's ink") }
        }
        #expect(m.strokes.count == 2)
    }
}

extension FuzzRegressionTests {
    /// fuzz_import.py --kind inkml (seed 1, case 4427): 4,000 one-point traces stacked 1 mm
    /// apart, imported into a Text Document. Each became a block above the ones already pushed
    /// down, so flowing after every stroke moved all of those again and undo kept every move:
    /// quadratic, minutes and over 6 GB. An import now flows once, at the end.
    @Test func importedStackedMarksFlowOnceNotAfterEveryStroke() throws {
        let n = 300
        let traces = (0..<n).map { k in
            ImportedTrace(samples: [InkSample(x: 0.5, y: Double(k), t: 1_700_000_000_000 + Int64(k), f: 0.5)], pointerType: .pen, tool: "pen")
        }
        let f = try Fixture()
        f.editor.recognizer = nil  // ink only, as `quire import` does
        try f.editor.importTraces(traces)
        let m = f.part.model
        #expect(m.strokes.count == n)
        let kids = m.root.childIds.compactMap { m.blocks[$0] }
        for i in 1..<kids.count { #expect(!kids[i].box.intersects(kids[i - 1].box)) }
        // The old flow recorded 81,958 changes here (each block pushed down again by every later one).
        #expect(f.editor.history.undoChangeCount < 20 * n, "undo holds \(f.editor.history.undoChangeCount) changes for \(n) strokes")
        while f.editor.canUndo { f.editor.undo() }
        #expect(f.part.model.strokes.isEmpty && f.part.model.root.childIds.isEmpty)
    }
}
