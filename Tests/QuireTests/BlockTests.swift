import CCairo
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import Quire

@Suite struct BlockTests {
    @Test func rootBlocksForAllPartTypes() throws {
        let expected = ["Text": "Text", "Math": "Math", "Drawing": "Drawing", "Diagram": "Diagram", "Raw Content": "Raw Content", "Text Document": "Container"]
        // A copied block, as data: what the shared clipboard holds depends on tests running beside this one
        // (a lasso selection pastes into any part type), so the block is pasted from its own data.
        let source = try Fixture(type: "Text Document")
        let blockData = try source.editor.copyData(try source.editor.addBlock(at: Point(x: 10, y: 10), type: "Text"))
        for (type, root) in expected {
            let f = try Fixture(type: type)
            let r = try #require(f.editor.rootBlock)
            #expect(r.type == root && r.parent == nil && r.isValid)
            #expect(f.editor.getBlockById(r.id)?.id == r.id)
            #expect(f.editor.getBlockById("nope") == nil)
            if type != "Text Document" {
                expectCode(.unsupportedOperation) { try f.editor.addBlock(at: Point(x: 1, y: 1), type: "Text") }
                expectCode(.unsupportedOperation) { try f.editor.paste(data: blockData, at: Point(x: 1, y: 1)) }
                #expect(f.editor.hitBlock(at: Point(x: 5, y: 5))?.id == r.id)
            }
        }
    }

    @Test func inkOutsideBlocksStartsATextBlockAndInkOverABlockJoinsIt() throws {
        let f = try Fixture()
        let a = try f.write(x: 100, y: 100)
        let root = try #require(f.editor.rootBlock)
        #expect(root.children.count == 1)
        let text = root.children[0]
        #expect(text.type == "Text" && text.parent?.id == root.id)
        #expect(text.strokeIds == [a])
        let b = try f.write(x: 200, y: 110)
        #expect(root.children.count == 1 && Set(text.strokeIds) == [a, b], "ink over the block goes to it")
        try f.write(x: 100, y: 500)
        #expect(root.children.count == 2)
        #expect(f.editor.hitBlock(at: Point(x: 120, y: 100))?.id == text.id)
        #expect(f.editor.hitBlock(at: Point(x: 790, y: 590)) == nil)
    }

    @Test func addBlocksOfEveryTypeNeverOverlap() throws {
        let f = try Fixture()
        var blocks: [ContentBlock] = []
        for t in f.editor.supportedAddBlockTypes { blocks.append(try f.editor.addBlock(at: Point(x: 20, y: 20), type: t)) }
        expectCode(.invalidBlockType) { try f.editor.addBlock(at: Point(x: 1, y: 1), type: "Image") }
        expectCode(.invalidBlockType) { try f.editor.addBlock(at: Point(x: 1, y: 1), type: "text") }
        #expect(blocks.map(\.type) == ["Text", "Math", "Drawing", "Diagram", "Raw Content"])
        for i in 0..<blocks.count { for j in 0..<i { #expect(!blocks[i].box.intersects(blocks[j].box), "\(blocks[i].type) overlaps \(blocks[j].type)") } }
        let typed = try f.editor.addBlock(at: Point(x: 20, y: 20), type: "Text", mimeType: .text, data: "Hello typed world")
        #expect(typed.text == "Hello typed world" && typed.words.count == 3)
        expectCode(.unsupportedOperation) { try f.editor.addBlock(at: Point(x: 1, y: 1), type: "Text", mimeType: .png, data: "x") }
        for b in blocks { #expect(!typed.box.intersects(b.box)) }
    }

    @Test func removeInvalidatesAndUndoRestores() throws {
        let f = try Fixture()
        try f.write(x: 100, y: 100)
        let block = try #require(f.editor.rootBlock?.children.first)
        try f.editor.removeBlock(block)
        #expect(!block.isValid && f.part.model.strokes.isEmpty)
        expectCode(.invalidBlock) { try f.editor.removeBlock(block) }
        expectCode(.invalidBlock) { try f.editor.copy(block) }
        expectCode(.invalidBlock) { _ = try f.editor.export(block, mimeType: .text) }
        expectCode(.unsupportedOperation) { try f.editor.removeBlock(f.editor.rootBlock!) }
        f.editor.undo()
        #expect(block.isValid && f.part.model.strokes.count == 1)
        f.editor.part = nil
        #expect(!block.isValid, "detaching the part invalidates its blocks")
    }

    @Test func undoRedoOfEveryKindOfChangeReturnsToTheStart() throws {
        let f = try Fixture()
        let e = f.editor
        try f.write(x: 100, y: 100)
        try e.addBlock(at: Point(x: 10, y: 300), type: "Math")
        let png = f.dir.path("i.png")
        try makePNG(png, width: 40, height: 20)
        try e.addImage(at: Point(x: 10, y: 400), file: png, mimeType: .png)
        let first = try #require(e.rootBlock?.children.first)
        try e.copy(first)
        try e.paste(at: Point(x: 300, y: 500))
        try e.moveBlock(first, to: Point(x: 20, y: 200))
        e.clear()
        #expect(f.part.model.strokes.isEmpty && f.part.model.root.childIds.isEmpty)
        var steps = 0
        while e.canUndo { e.undo(); steps += 1 }
        #expect(steps == 6, "write, add, image, paste, move, clear")
        #expect(f.part.model.strokes.isEmpty && f.part.model.blocks.count == 1 && f.part.model.images.isEmpty)
        while e.canRedo { e.redo() }
        #expect(f.part.model.blocks.count == 1)
        e.undo()
        #expect(f.part.model.root.childIds.count == 4 && f.part.model.images.count == 1)
    }

    @Test func copyPasteIntoAnotherEditorAndPackage() throws {
        let f = try Fixture()
        // Another package and editor of the same engine: the clipboard is the engine's.
        let gPackage = try f.engine.createPackage(f.dir.path("g.iink"))
        let gPart = try gPackage.createPart(type: "Text Document")
        let gEditor = f.engine.createEditor(fontMetricsProvider: FixedMetrics())
        try gEditor.setViewSize(width: 800, height: 600)
        try gEditor.setPart(gPart)
        try f.write(x: 100, y: 100)
        let png = f.dir.path("p.png")
        try makePNG(png, width: 8, height: 8)
        let img = try f.editor.addImage(at: Point(x: 10, y: 300), file: png, mimeType: .png)
        let text = try #require(f.editor.rootBlock?.children.first)
        try f.editor.copy(text)
        try gEditor.paste(at: Point(x: 50, y: 50))
        let pasted = try #require(gEditor.rootBlock?.children.first)
        #expect(pasted.id != text.id || gPart.model !== f.part.model)
        #expect(pasted.strokeIds.count == 1 && pasted.strokeIds != text.strokeIds || gPart.id != f.part.id)
        try f.editor.copy(img)
        try gEditor.paste(at: Point(x: 50, y: 300))
        try f.editor.paste(at: Point(x: 50, y: 500))
        #expect(gPart.model.images.count == 1 && f.part.model.images.count == 2)
        let ids = f.part.model.root.childIds
        #expect(Set(ids).count == ids.count, "new ids")
        try gPackage.save()
        gPackage.close()
        let reopened = try f.engine.openPackage(gPackage.path)
        #expect(try reopened.part(at: 0).model.images.count == 1)
        #expect(try reopened.part(at: 0).model.strokes.count == 1)
        reopened.close()
    }

    @Test func imagesGoodAndBad() throws {
        let f = try Fixture()
        let png = f.dir.path("ok.png")
        try makePNG(png, width: 30, height: 15)
        let b = try f.editor.addImage(at: Point(x: 10, y: 10), file: png, mimeType: .png)
        #expect(b.type == "Image" && abs(b.box.width / b.box.height - 2) < 0.01)
        let jpeg = f.dir.path("ok.jpg")
        // A minimal baseline JPEG header with a SOF0 frame of 64x32.
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
                  0xFF, 0xC0, 0, 11, 8, 0, 32, 0, 64, 1, 1, 0x11, 0, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: jpeg))
        let j = try f.editor.addImage(at: Point(x: 10, y: 10), file: jpeg, mimeType: .jpeg)
        #expect(f.part.model.blocks[j.id]?.image?.pixelWidth == 64)
        let before = f.part.model.blocks.count
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: f.dir.path("missing.png"), mimeType: .png) }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: f.dir.path("bad.png")))
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: f.dir.path("bad.png"), mimeType: .png) }
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: f.dir.path("bad.png"), mimeType: .jpeg) }
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: png, mimeType: .pdf) }
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: f.dir.url.path, mimeType: .png) }
        try f.editor.configuration.setNumber(100, forKey: "image.max-pixels")
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: png, mimeType: .png) }
        try f.editor.configuration.setNumber(50, forKey: "image.max-file-size")
        expectCode(.imageError) { try f.editor.addImage(at: Point(x: 1, y: 1), file: png, mimeType: .png) }
        #expect(f.part.model.blocks.count == before, "failed imports leave nothing behind")
    }

    /// JPEG allows any number of 0xFF fill bytes before a marker (libjpeg reads such files); the
    /// header reader must skip them instead of taking a fill byte for a marker.
    @Test func jpegWithFillBytesBeforeItsMarkersIsAdded() throws {
        let f = try Fixture()
        let pixels = DecodedImage(width: 48, height: 20, pixels: Array(repeating: 0xFF3366CC, count: 48 * 20))
        var bytes = [UInt8](try ImageCodec.encodeJPEG(pixels))
        // Fill bytes before every marker after SOI (at least the APP0/DQT/SOF ones).
        var out: [UInt8] = Array(bytes[0..<2]), i = 2
        while i + 3 < bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            out += [0xFF, 0xFF, 0xFF]
            if marker == 0xDA { out += bytes[i...]; i = bytes.count; break }
            let len = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            out += bytes[i ..< i + 2 + len]
            i += 2 + len
        }
        #expect(out.count > bytes.count + 6, "fill bytes were inserted")
        bytes = out
        let jpeg = f.dir.path("fill.jpg")
        try Data(bytes).write(to: URL(fileURLWithPath: jpeg))
        #expect(try ImageCodec.decodeJPEG(Data(bytes)).width == 48, "libjpeg reads the file")
        let j = try f.editor.addImage(at: Point(x: 10, y: 10), file: jpeg, mimeType: .jpeg)
        #expect(f.part.model.blocks[j.id]?.image?.pixelWidth == 48)
        #expect(f.part.model.blocks[j.id]?.image?.pixelHeight == 20)
    }
}

/// Writes a real PNG with Cairo.
func makePNG(_ path: String, width: Int32, height: Int32) throws {
    let s = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height))
    defer { cairo_surface_destroy(s) }
    let cr = cairo_create(s)
    cairo_set_source_rgb(cr, 0.2, 0.4, 0.8)
    cairo_paint(cr)
    cairo_destroy(cr)
    #expect(cairo_surface_write_to_png(s, path) == CAIRO_STATUS_SUCCESS)
}

@Suite struct RecognitionSeamTests {
    /// Reads every block as one word with a fixed label, for the block types it declares.
    final class FixedLabelRecognizer: BlockRecognizer, @unchecked Sendable {
        let label: String, blockTypes: [String]
        init(_ label: String, for types: [String]) { self.label = label; blockTypes = types }
        func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
            [RecognizedWord(label: label, candidates: [Candidate(label: label, score: 1)], box: r.box, strokeIds: r.strokes.map(\.id))]
        }
    }

    /// Recognizers plug in per block type: a Math recognizer reads Math blocks beside the Text
    /// one, and `recognizer` (the Text recognizer) reads Math only while no other is set.
    @Test func eachBlockTypeIsReadByItsOwnRecognizer() throws {
        let f = try Fixture()
        f.editor.recognizer = FixedLabelRecognizer("text", for: ["Text"])
        #expect(f.editor.recognizer(forBlockType: "Math") === f.editor.recognizer, "Math is read as text by default")
        let math = try f.editor.addBlock(at: Point(x: 100, y: 300), type: "Math")
        f.editor.register(FixedLabelRecognizer("math", for: ["Math"]))
        try f.write(x: 120, y: 320)
        try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let text = try #require(f.editor.rootBlock?.children.first { $0.type == "Text" })
        #expect(math.words.map(\.label) == ["math"])
        #expect(text.words.map(\.label) == ["text"])
        f.editor.setRecognizer(nil, forBlockType: "Math")
        try f.write(x: 200, y: 320)
        try f.editor.waitForIdle()
        #expect(math.words.map(\.label) == ["math"], "a block type without a recognizer is not read")
        #expect(f.editor.recognizer(forBlockType: "Text") != nil)
    }

    @Test func resultsArriveOffThreadAndWaitForIdleAppliesThem() throws {
        let f = try Fixture()
        f.editor.recognizer = CountingRecognizer()
        let rec = Recorder()
        f.editor.addDelegate(rec)
        try f.write(x: 100, y: 100)
        try f.write(x: 250, y: 100)
        #expect(!f.editor.isIdle)
        try f.editor.waitForIdle()
        #expect(f.editor.isIdle)
        let block = try #require(f.editor.rootBlock?.children.first)
        #expect(block.words.map(\.label) == ["w0", "w1"])
        #expect(try f.editor.export(nil, mimeType: .text) == "w0 w1")
        #expect(try f.editor.candidates(blockId: block.id, wordIndex: 1).map(\.label) == ["w1", "v1"])
        // waitForIdle from a delegate callback throws instead of deadlocking.
        var thrown: QuireError?
        rec.onChange = { e in do { try e.waitForIdle() } catch let q as QuireError { thrown = q } catch {} }
        try f.write(x: 130, y: 104)
        #expect(thrown?.code == .busy)
        rec.onChange = nil
        try f.editor.waitForIdle()
        #expect(block.words.count == 3)
    }

    /// The SDK: "isIdle will always be false when accessed from inside a contentChanged
    /// notification", including the one that delivers recognition results.
    @Test func isIdleIsFalseInsideEveryNotification() throws {
        let f = try Fixture()
        f.editor.recognizer = CountingRecognizer(delay: 0)
        let rec = Recorder()
        f.editor.addDelegate(rec)
        var seen: [Bool] = []
        var waitErrors: [QuireError.Code] = []
        rec.onChange = { e in
            seen.append(e.isIdle)
            do { try e.waitForIdle() } catch let q as QuireError { waitErrors.append(q.code) } catch {}
        }
        try f.write(x: 100, y: 100)      // the ink change
        try f.editor.waitForIdle()       // the recognition result
        let block = try #require(f.editor.rootBlock?.children.first)
        #expect(block.words.count == 1, "the result was applied")
        #expect(seen.count >= 2)
        #expect(seen.allSatisfy { $0 == false }, "isIdle inside contentChanged: \(seen)")
        #expect(waitErrors.count == seen.count && waitErrors.allSatisfy { $0 == .busy })
        rec.onChange = nil
        #expect(f.editor.isIdle, "and true again once the notification is over")
    }

    @Test func convertReplacesInkByTextAndUndoes() throws {
        let f = try Fixture()
        f.editor.recognizer = CountingRecognizer(delay: 0)
        try f.write(x: 100, y: 100)
        try f.write(x: 250, y: 100)
        let block = try #require(f.editor.rootBlock?.children.first)
        try f.editor.convert(block, targetState: .digitalEdit)
        #expect(f.part.model.strokes.isEmpty)
        #expect(block.text == "w0 w1")
        #expect(f.part.model.blocks[block.id]?.conversion == "digitalEdit")
        f.editor.undo()
        #expect(f.part.model.strokes.count == 2)
        try f.editor.convert(nil, targetState: .digitalPublish)
        #expect(try f.editor.export(nil, mimeType: .text) == "w0 w1")
        #expect(f.part.model.blocks[block.id]?.conversion == "digitalPublish")
    }
}

@Suite struct ExportImportTests {
    @Test func jsonCarriesBlocksWordsStrokesAndPressure() throws {
        let f = try Fixture()
        f.editor.recognizer = CountingRecognizer(delay: 0)
        try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let json = try JSONValue.parse(Data(try f.editor.export(nil, mimeType: .json).utf8))
        #expect(json["type"]?.stringValue == "Container")
        let child = try #require(json["children"]?.arrayValue?.first)
        #expect(child["type"]?.stringValue == "Text")
        #expect(child["label"]?.stringValue == "w0")
        #expect(child["words"]?.arrayValue?.first?["candidates"]?.arrayValue?.count == 2)
        let stroke = try #require(child["strokes"]?.arrayValue?.first)
        #expect(stroke["f"]?.arrayValue?.count == 12)
        #expect(stroke["t"]?.arrayValue?.first?.doubleValue == 1000)
        #expect(f.editor.supportedExportMimeTypes(for: nil).contains(.inkml))
    }

    @Test func inkmlRoundTripKeepsStrokesExactly() throws {
        let f = try Fixture()
        try f.write(x: 100, y: 100)
        try f.write(x: 120, y: 300)
        let xml = try f.editor.export(nil, mimeType: .inkml)
        #expect(xml.contains("<ink xmlns=\"http://www.w3.org/2003/InkML\">"))
        let traces = try InkMLReader.read(Data(xml.utf8))
        #expect(traces.count == 2)
        let g = try Fixture()
        try g.editor.importTraces(traces)
        let a = f.part.model.orderedStrokes, b = g.part.model.orderedStrokes
        #expect(a.count == b.count)
        for (s, t) in zip(a, b) {
            #expect(s.samples == t.samples, "same samples to the last bit of precision kept")
        }
        expectCode(.importError) { _ = try InkMLReader.read(Data("<ink><trace>1 2, x y</trace></ink>".utf8)) }
        expectCode(.importError) { _ = try InkMLReader.read(Data("<ink><trace>".utf8)) }
    }

    /// Typed text may hold control characters that XML 1.0 forbids even escaped: the export drops
    /// them so that a conforming parser still reads the document.
    @Test func inkmlOfTypedTextWithControlCharactersIsWellFormed() throws {
        let f = try Fixture()
        try f.write(x: 100, y: 100)
        try f.editor.addBlock(at: Point(x: 50, y: 400), type: "Text", mimeType: .text, data: "a\u{1}b\u{0B}c & <d> \u{FFFE}'e'")
        let xml = try f.editor.export(nil, mimeType: .inkml)
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(xml.contains("abc &amp; &lt;d&gt;"))
        #expect(try InkMLReader.read(Data(xml.utf8)).count == 1)
    }
}
