import Foundation
import InkModel
import InkRender
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct ExportTests {
    /// A Drawing part with two horizontal strokes at known places.
    func twoStrokes() throws -> PartModel {
        let p = try PartModel(id: "e", type: "Drawing")
        p.insertStroke(Fixtures.stroke("a", width: 1, seq: 1, (0...20).map { (10 + Double($0), 10, 0.5) }))
        p.insertStroke(Fixtures.stroke("b", width: 1, seq: 2, (0...20).map { (10 + Double($0), 30, 0.5) }))
        return p
    }

    @Test func pngHasInkWhereStrokesAreAndBackgroundElsewhere() throws {
        let part = try twoStrokes()
        let dpi = 254.0   // 10 px per mm
        let ex = Exporter(theme: .builtIn)
        let data = try ex.exportPNG(part: part, dpi: dpi, options: ExportOptions(margin: 5))
        let img = try ImageCodec.decodePNG(data)
        let area = try ex.exportBounds(part: part, options: ExportOptions(margin: 5))
        // Content 10...30 mm each way, plus the ink's half width and room for spline overshoot, plus 5 mm.
        #expect(area.x < 5 && area.x > 3 && area.maxX > 35 && area.maxX < 37)
        #expect(img.width == Int((area.width * 10).rounded(.up)) && img.height == Int((area.height * 10).rounded(.up)))
        func px(_ mm: Double, _ o: Double) -> Int { Int(((mm - o) * 10).rounded()) }
        // On each stroke: ink.
        #expect(Fixtures.inkPixels(img, (px(15, area.x), px(10, area.y) - 2, 100, 4)) > 300)
        #expect(Fixtures.inkPixels(img, (px(15, area.x), px(30, area.y) - 2, 100, 4)) > 300)
        // Between them and in the margin: background only (white, opaque).
        #expect(Fixtures.inkPixels(img, (px(15, area.x), px(20, area.y) - 20, 100, 40)) == 0)
        #expect(img[2, 2] == 0xFFFF_FFFF)
        #expect(img[img.width / 2, img.height / 2] == 0xFFFF_FFFF)
    }

    @Test func pngOfOneBlockAndGuidesOption() throws {
        let part = try Fixtures.textDocument()
        let ex = Exporter(theme: .builtIn)
        let block = try ImageCodec.decodePNG(ex.exportPNG(part: part, block: "b3", dpi: 100))
        let whole = try ImageCodec.decodePNG(ex.exportPNG(part: part, dpi: 100))
        #expect(block.width < whole.width && block.height < whole.height)
        #expect(throws: QuireError.self) { try ex.exportPNG(part: part, block: "nope") }
        // Guides are off by default and appear only when asked for.
        let plain = try ex.exportPNG(part: part, block: "b1", dpi: 100)
        let guided = try ex.exportPNG(part: part, block: "b1", dpi: 100, options: ExportOptions(guides: true))
        let a = try ImageCodec.decodePNG(plain), b = try ImageCodec.decodePNG(guided)
        #expect(a.width == b.width)
        #expect(a.pixels.filter { $0 != 0xFFFF_FFFF }.count < b.pixels.filter { $0 != 0xFFFF_FFFF }.count)
    }

    @Test func pngRefusesAbsurdSizes() throws {
        let part = try twoStrokes()
        #expect(throws: QuireError.self) { try Exporter(theme: .builtIn).exportPNG(part: part, dpi: 9000) }
        #expect(throws: QuireError.self) { try Exporter(theme: .builtIn).exportPNG(part: part, dpi: -1) }
    }

    @Test func contentBeyondTheExportableRangeFailsInsteadOfTrapping() throws {
        // A box this far out reaches the exporter only through the API (packages refuse it), and
        // trapped converting the page size to Int.
        let part = try twoStrokes()
        var root = part.root
        root.box = Rect(x: 0, y: 0, width: 1e300, height: 10)
        part.setBlock(root)
        let ex = Exporter(theme: .builtIn)
        for export in [{ try ex.exportPNG(part: part) }, { try ex.exportSVG(part: part) }, { try ex.exportPDF(part: part) }] {
            let e = #expect(throws: QuireError.self) { _ = try export() }
            #expect(e?.code == .exportError)
        }
    }

    @Test func vectorPagesStayWithinCairosCoordinates() throws {
        // Ink may lie anywhere in Int32 hundredths of a millimetre (21 km), but cairo's fixed point
        // ends near 3 km of points: past it a PDF failed or spun for minutes, an SVG came out garbled.
        let tall = try PartModel(id: "t", type: "Drawing")
        tall.insertStroke(Fixtures.stroke("a", seq: 1, [(10, 10, 0.5), (12, 3_000_000, 0.5)]))
        let ex = Exporter(theme: .builtIn)
        for export in [{ try ex.exportSVG(part: tall) }, { try ex.exportPDF(part: tall) }] {
            let e = #expect(throws: QuireError.self) { _ = try export() }
            #expect(e?.code == .exportError && e?.message.contains("export a block") == true)
        }
        // A kilometre-tall page is still written.
        let long = try PartModel(id: "l", type: "Drawing")
        long.insertStroke(Fixtures.stroke("a", seq: 1, [(10, 10, 0.5), (12, 1_000_000, 0.5)]))
        #expect(String(decoding: try ex.exportPDF(part: long).prefix(5), as: UTF8.self) == "%PDF-")
        #expect(String(decoding: try ex.exportSVG(part: long), as: UTF8.self).contains("<path"))
    }

    final class SVGCollector: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var texts: [String] = []
        var inText = false
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements[name, default: 0] += 1
            if name == "text" { inText = true; texts.append("") }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" { inText = false }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inText { texts[texts.count - 1] += string }
        }
    }

    @Test func svgIsXMLWithPathsAndText() throws {
        let part = try Fixtures.textDocument()
        var b = part.blocks["b2"]!
        b.text = "Fish & <chips> \"quoted\""
        part.setBlock(b)
        let data = try Exporter(theme: .builtIn).exportSVG(part: part)
        let parser = XMLParser(data: data)
        let c = SVGCollector()
        parser.delegate = c
        #expect(parser.parse(), "SVG does not parse: \(String(describing: parser.parserError))")
        #expect(c.elements["svg"] == 1)
        #expect((c.elements["path"] ?? 0) >= 5)
        #expect(c.texts.joined(separator: " ").contains("Fish & <chips> \"quoted\""))
        #expect((c.elements["image"] ?? 0) >= 1)
    }

    func pageCount(_ pdf: Data) -> Int {
        // Latin-1 keeps every byte; "/Type /Pages" (the tree node) must not count.
        let s = String(decoding: pdf.map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self)
        var n = 0
        var range = s.startIndex..<s.endIndex
        while let r = s.range(of: "/Type /Page", range: range) {
            let next = s[r.upperBound...].first
            if next != "s" { n += 1 }
            range = r.upperBound..<s.endIndex
        }
        return n
    }

    @Test func pdfHasOnePage() throws {
        let ex = Exporter(theme: .builtIn)
        let part = try Fixtures.textDocument()
        let pdf = try ex.exportPDF(part: part)
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        #expect(pageCount(pdf) == 1)
        // Typeset text is text: an embedded font with a Unicode map, not outlines.
        let latin = String(decoding: pdf.map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self)
        #expect(latin.contains("/FontFile") && latin.contains("/ToUnicode"))
        let one = try ex.exportPDF(part: part, block: "b2")
        #expect(one.starts(with: Array("%PDF-".utf8)))
        #expect(pageCount(one) == 1)
        let empty = try ex.exportPDF(part: PartModel(id: "x", type: "Drawing"))
        #expect(pageCount(empty) == 1)
    }

    @Test func jpegExportDecodes() throws {
        let data = try Exporter(theme: .builtIn).exportJPEG(part: try twoStrokes(), dpi: 100)
        let img = try ImageCodec.decodeJPEG(data)
        #expect(img.width > 50 && img.height > 50)
    }
}
