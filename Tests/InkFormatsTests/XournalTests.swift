import Foundation
import Testing
@testable import InkFormats
import InkModel
import ZIPFoundation

/// A 2x1 PNG (red, blue), small enough to write inline.
let tinyPNG = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==")!

let pt = 25.4 / 72

func xournalXML(creator: String = "Xournal++ 1.2.3", imageElement: String? = nil) -> String {
    """
    <?xml version="1.0" standalone="no"?>
    <xournal creator="\(creator)" fileversion="4">
    <title>Xournal++ document</title>
    <page width="595.27559" height="841.88976">
    <background type="solid" color="#ffffffff" style="graph"/>
    <layer>
    <stroke tool="pen" color="#ff0000ff" width="2.26 1.0 1.5 2.0">72 72 144 72 144 144</stroke>
    <stroke tool="eraser" color="#ffffffff" width="8.5">0 0 10 10</stroke>
    <text font="Sans" size="12" x="100" y="200" color="#000000ff">Hello, notes &amp; more</text>
    </layer>
    <layer name="second">
    <stroke tool="highlighter" color="#ffff007f" width="8.5">72 300 300 300</stroke>
    \(imageElement ?? "<image left=\"72\" top=\"400\" right=\"144\" bottom=\"436\">\(tinyPNG.base64EncodedString())</image>")
    <teximage text="x^2" left="200" top="400" right="236" bottom="418">\(tinyPNG.base64EncodedString())</teximage>
    </layer>
    </page>
    <page width="300" height="200">
    <background type="pdf" domain="absolute" filename="/home/someone/slides.pdf" pageno="3"/>
    <layer><stroke tool="pen" color="#000000ff" width="1.41">10 10 20 20</stroke></layer>
    </page>
    </xournal>
    """
}

@Suite struct XournalTests {
    func checkNotes(_ doc: InkDocument, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(doc.pages.count == 2, sourceLocation: sourceLocation)
        let p = doc.pages[0]
        #expect(abs(p.size!.width - 210) < 0.01 && abs(p.size!.height - 297) < 0.01, "A4 in points", sourceLocation: sourceLocation)
        #expect(p.background == InkBackground(style: "graph", color: "#ffffff"), sourceLocation: sourceLocation)
        // Layers in order, the eraser stroke dropped.
        #expect(p.strokes.map(\.brush.tool) == ["pen", "highlighter"], sourceLocation: sourceLocation)
        let pen = p.strokes[0]
        #expect(pen.samples.map(\.x) == [72 * pt, 144 * pt, 144 * pt] && pen.samples.map(\.y) == [72 * pt, 72 * pt, 144 * pt], sourceLocation: sourceLocation)
        #expect(pen.brush.color == "#ff0000", sourceLocation: sourceLocation)
        // Per-point widths 1.0, 1.5, 2.0 pt: the widest at full pressure, the renderer's 0.4 + 1.2 f factor gives the others back.
        let w = pen.brush.width
        let drawn = pen.samples.map { w * (0.4 + 1.2 * $0.f) / pt }
        #expect(zip(drawn, [1.0, 1.5, 2.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(drawn)", sourceLocation: sourceLocation)
        #expect(p.strokes[1].brush.color == "#ffff00" && abs(p.strokes[1].brush.width - 8.5 * pt) < 1e-9, sourceLocation: sourceLocation)
        #expect(p.texts == [InkText(text: "Hello, notes & more", origin: Point(x: 100 * pt, y: 200 * pt), font: "Sans", size: 12 * pt, color: "#000000")],
                sourceLocation: sourceLocation)
        #expect(p.images.count == 2 && p.images.allSatisfy { $0.data == tinyPNG && $0.pixelWidth == 2 && $0.pixelHeight == 1 }, sourceLocation: sourceLocation)
        #expect(p.images[0].box == Rect(x: 72 * pt, y: 400 * pt, width: 72 * pt, height: 36 * pt) && p.images[1].tex == "x^2", sourceLocation: sourceLocation)
        #expect(doc.pages[1].metadata["background.pdf"] == "/home/someone/slides.pdf, page 3", sourceLocation: sourceLocation)
        #expect(doc.notes.contains { $0.contains("PDF background") } && doc.notes.contains { $0.contains("eraser") }, sourceLocation: sourceLocation)
    }

    @Test func gzipXopp() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("xopp-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("notes.xopp")
        try Gzip.compress(Data(xournalXML().utf8)).write(to: file)
        #expect(try FormatDetector.detect(path: file.path) == .xournal)
        let doc = try XournalFormat.read(path: file.path)
        #expect(doc.format == "Xournal++")
        try checkNotes(doc)
    }

    @Test func zipPackagedXoppWithAttachedImage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("xopp-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("packaged.xopp")
        let xml = xournalXML(imageElement: "<image left=\"72\" top=\"400\" right=\"144\" bottom=\"436\"><attachment path=\"images/1.png\"/></image>")
        let archive = try Archive(url: file, accessMode: .create)
        for (name, data) in [("mimetype", Data(" application/xournal++\n".utf8)), ("META-INF/version", Data("current=5\nmin=5\n".utf8)),
                             ("content.xml", Data(xml.utf8)), ("images/1.png", tinyPNG)] {
            try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { pos, size in
                data.subdata(in: Int(pos)..<Int(pos) + size)
            }
        }
        #expect(try FormatDetector.detect(path: file.path) == .xournal)
        try checkNotes(try XournalFormat.read(path: file.path))
    }

    @Test func xojFromXournal() throws {
        let doc = try XournalFormat.read(try Gzip.compress(Data(xournalXML(creator: "Xournal 0.4.8").utf8)))
        #expect(doc.format == "Xournal")
        try checkNotes(doc)
        // Plain (not gzip) XML is read as well.
        try checkNotes(try XournalFormat.read(Data(xournalXML().utf8)))
    }

    @Test func unreadableWidthsAreRecoveredAndBadFilesNamed() throws {
        let nan = xournalXML().replacingOccurrences(of: "width=\"2.26 1.0 1.5 2.0\"", with: "width=\"2.26 nan 1.5 2.0\"")
        let doc = try XournalFormat.read(Data(nan.utf8))
        #expect(doc.pages[0].strokes.count == 2 && doc.notes.contains { $0.contains("unreadable per-point widths") })
        let odd = xournalXML().replacingOccurrences(of: ">72 72 144 72 144 144<", with: ">72 72 144<")
        let e = #expect(throws: QuireError.self) { _ = try XournalFormat.read(Data(odd.utf8)) }
        #expect(e?.message.contains("line 7") == true && e?.message.contains("x y pairs") == true, "\(String(describing: e))")
        let other = #expect(throws: QuireError.self) { _ = try XournalFormat.read(Data("<svg/>".utf8)) }
        #expect(other?.message.contains("not a Xournal++ document") == true)
    }

    @Test func splineStrokesAreFlattened() throws {
        let xml = xournalXML().replacingOccurrences(of: "<stroke tool=\"pen\" color=\"#ff0000ff\" width=\"2.26 1.0 1.5 2.0\">72 72 144 72 144 144</stroke>",
                                                     with: "<stroke tool=\"pen\" color=\"#ff0000ff\" width=\"2\" pathtype=\"spline\">0 0 0 72 72 72 72 0</stroke>")
        let s = try XournalFormat.read(Data(xml.utf8)).pages[0].strokes[0]
        #expect(s.samples.count == 9 && abs(s.samples[4].x - 36 * pt) < 1e-9 && abs(s.samples[4].y - 54 * pt) < 1e-9)
    }
}

@Suite struct XournalWriterTests {
    @Test func writtenPagesReadBackTheSame() throws {
        let doc = try XournalFormat.read(Data(xournalXML().utf8))
        let parts = try doc.pages.indices.map { k -> PartModel in
            let m = try PartModel(id: "p\(k)", type: InkImporter.partType)
            try InkImporter.fill(m, page: doc.pages[k], doc: doc, number: k + 1, source: nil)
            return m
        }
        let data = try XournalFormat.write(parts)
        #expect(data.prefix(2) == Data([0x1F, 0x8B]), "gzip")
        let back = try XournalFormat.read(data)
        #expect(back.pages.count == 2)
        #expect(abs(back.pages[0].size!.width - 210) < 0.01 && back.pages[0].background?.style == "graph")
        for (a, b) in zip(parts[0].orderedStrokes, back.pages[0].strokes) {
            #expect(a.count == b.samples.count && a.tool == b.brush.tool && a.color == b.brush.color)
            #expect(abs(Double(a.width) - b.brush.width) < 1e-4)
            for i in 0..<a.count {
                #expect(abs(a[i].x - b.samples[i].x) < 1e-4 && abs(a[i].y - b.samples[i].y) < 1e-4)
                #expect(abs(a[i].f - b.samples[i].f) < 1e-3)
            }
        }
        #expect(back.pages[0].texts.map(\.text) == ["Hello, notes & more"])
        #expect(back.pages[0].images.count == 2 && back.pages[0].images[0].data == tinyPNG)
    }
}
