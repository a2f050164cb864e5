import Foundation
import Testing
@testable import InkFormats
import InkModel

/// Files written by other programs and people, shipped under their own licences in
/// `Fixtures/real/` (sources and licences in `Fixtures/SOURCES.md`). Expected figures are
/// read off the files' own XML: Xournal++ points are 1/72 inch.
@Suite struct RealFileTests {
    func real(_ name: String) -> String { fixture("real/\(name)").path }

    func read(_ name: String) throws -> InkDocument {
        let path = real(name)
        switch try FormatDetector.detect(path: path) {
        case .xournal: return try XournalFormat.read(path: path)
        case .inkml: return try InkMLFormat.read(try Data(contentsOf: URL(fileURLWithPath: path)))
        case let other: throw QuireError(.importError, "\(name) detected as \(other)")
        }
    }

    func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

    @Test func xournalppStrokesWithToolsColoursPressureAndEraser() throws {
        let doc = try read("xournalpp-strokes.xopp")
        #expect(doc.format == "Xournal++" && doc.pages.count == 1)
        let p = doc.pages[0]
        #expect(near(p.size!.width, 595.27559 * pt) && near(p.size!.height, 841.88976 * pt))
        #expect(p.background?.style == "graph")
        // 12 strokes, one of them an eraser stroke, which is dropped; 1,305 points in the others.
        #expect(p.strokes.count == 11 && p.strokes.reduce(0) { $0 + $1.samples.count } == 1305)
        #expect(p.strokes.map(\.brush.tool) == ["pen", "pen", "pen", "pen", "pen", "pen", "highlighter", "highlighter", "pen", "highlighter", "highlighter"])
        #expect(p.strokes.map(\.brush.color) == ["#002e99", "#808080", "#ed5353", "#ffa154", "#000000", "#64baff",
                                                  "#ffa154", "#9bdb4d", "#000000", "#ffe16b", "#000000"])
        let first = p.strokes[0]
        #expect(first.samples.count == 69 && near(first.samples[0].x, 210.17715 * pt) && near(first.samples[0].y, 200.96557 * pt))
        // Per-point widths become pressures that vary along the stroke; a constant width does not.
        #expect(Set(first.samples.map(\.f)).count > 10)
        #expect(Set(p.strokes[4].samples.map(\.f)).count == 1 && near(p.strokes[4].brush.width, 1.41 * pt))
        #expect(near(p.strokes[6].brush.width, 19.84 * pt), "the wide highlighter keeps its width")
        let b = try #require(p.inkBounds)
        #expect(near(b.x, 86.46991 * pt) && near(b.y, 80.594895 * pt, 1e-5) && near(b.x + b.width, 518.99074 * pt))
        #expect(near(b.y + b.height, 506.94589 * pt))
        #expect(doc.notes.contains { $0.contains("eraser") })
    }

    @Test func xournalppTypedTextInFileVersion5() throws {
        let p = try read("xournalpp-text.xopp").pages[0]
        #expect(p.strokes.isEmpty && p.texts.count == 9)
        #expect(Array(p.texts.prefix(4).map(\.text)) == ["red", "blue", "green", "multiline\ntext"])
        #expect(Array(p.texts.prefix(3).map(\.color)) == ["#ff0000", "#3333cc", "#00f000"])
        #expect(p.texts[0].origin == Point(x: 130.5 * pt, y: 96.75 * pt) && near(p.texts[0].size, 12 * pt) && p.texts[0].font == "Sans")
        #expect(p.texts[4].text == " \n odd  whitespace\ttext\n\n", "whitespace is kept as written")
        #expect(p.texts[5].text.hasPrefix("Xournal++ (/ˌzɚnl̟ˌplʌsˈplʌs/) is an open-source"))
    }

    @Test func xournalppLayersFlattenInOrder() throws {
        let p = try read("xournalpp-layers.xopp").pages[0]
        #expect(p.texts.map(\.text) == ["l1", "l2", "l3"])
        #expect(p.texts.map(\.origin.y) == [122.25 * pt, 223.5 * pt, 309.75 * pt])
        #expect(near(p.size!.width, 612 * pt) && p.background?.style == "lined")
    }

    @Test func xournalppElevenPagesWithEveryBackground() throws {
        let doc = try read("xournalpp-pages.xopp")
        #expect(doc.pages.count == 11)
        #expect(doc.pages.map { $0.texts.first?.text ?? "" } == (1...11).map { "p\($0)" })
        #expect(doc.pages.prefix(10).map { $0.background?.style ?? "" } ==
                ["plain", "ruled", "lined", "lined", "staves", "graph", "dotted", "isodotted", "isograph", "graph"])
        #expect(doc.pages[0].texts[0].color == "#008000" && near(doc.pages[0].texts[0].size, 36 * pt))
        // The last page's image background is attached in a zip package this gzip file is not: named, not invented.
        let last = doc.pages[10]
        #expect(near(last.size!.width, 50 * pt) && last.background?.style == "image" && last.images.isEmpty)
        #expect(last.metadata["background.image"] == "bg_1.png")
        #expect(doc.notes.contains { $0.contains("bg_1.png") })
    }

    @Test func xournalppEmbeddedJPEGImage() throws {
        let p = try read("xournalpp-doc_with_jpg.xopp").pages[0]
        let image = try #require(p.images.first)
        #expect(p.images.count == 1 && image.mimeType == "image/jpeg" && image.pixelWidth > 0 && image.pixelHeight > 0)
        #expect(image.box == Rect(x: 50.79 * pt, y: 45.48 * pt, width: 636 * pt, height: 636 * pt))
        #expect(p.background?.style == "dotted" && near(p.size!.width, 800 * pt))
    }

    @Test func xournalppTeXImageKeepsItsSource() throws {
        let p = try read("xournalpp-latex.xopp").pages[0]
        // Xournal++ 1.2 keeps TeX renderings as PDF: the LaTeX source is typed at its place.
        let images = p.images.filter { $0.tex == "x^2" }
        let texts = p.texts.filter { $0.text == "x^2" }
        #expect(images.count + texts.count == 1)
        let origin = images.first.map { Point(x: $0.box.x, y: $0.box.y) } ?? texts.first!.origin
        #expect(near(origin.x, 14.937 * pt) && near(origin.y, 15.715 * pt))
    }

    @Test func xournalppZipPackagedNaNWidthsAreRecovered() throws {
        #expect(try FormatDetector.detect(path: real("xournalpp-width_recovery.xopp")) == .xournal)
        let doc = try read("xournalpp-width_recovery.xopp")
        let p = doc.pages[0]
        #expect(p.strokes.map(\.samples.count) == [90, 8, 8, 46, 10])
        #expect(p.strokes.map(\.brush.color) == ["#000000", "#00ff00", "#00ff00", "#00ff00", "#00ff00"])
        #expect(near(p.strokes[1].samples[0].x, 377.53 * pt) && near(p.strokes[1].samples[0].y, 176.94 * pt))
        #expect(p.strokes.allSatisfy { $0.samples.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.f.isFinite } })
    }

    @Test func xournalPdfBackgroundsAreNamed() throws {
        let doc = try read("xournalpp-pdfBackground-old.xopp")
        #expect(doc.pages.count == 2 && doc.pages.allSatisfy { $0.background?.style == "pdf" && $0.strokes.isEmpty })
        #expect(doc.pages[0].metadata["background.pdf"]?.contains("bg.pdf") == true)
        #expect(doc.notes.contains { $0.contains("PDF background") })
    }

    @Test func xournalXojWithLineBreaksInsideAStroke() throws {
        let doc = try read("xournalpp-stroke_line_return.xoj")
        #expect(doc.format == "Xournal")
        let s = try #require(doc.pages.first?.strokes.first)
        #expect(doc.pages[0].strokes.count == 1 && s.samples.count == 51 && s.brush.color == "#000000")
        #expect(near(s.samples[0].x, 80.53 * pt) && near(s.samples[0].y, 240.42 * pt))
    }

    @Test func handwrittenNotesFromXournal0_4() throws {
        let doc = try read("xournalpp_htr-unit_calculations.xoj")
        #expect(doc.format == "Xournal" && doc.pages.count == 1)
        let p = doc.pages[0]
        #expect(p.strokes.count == 45 && p.strokes.reduce(0) { $0 + $1.samples.count } == 1651)
        #expect(p.strokes.allSatisfy { $0.brush == InkBrush(tool: "pen", color: "#000000", width: 1.41 * pt) })
        #expect(near(p.strokes[0].samples[0].x, 203.11 * pt) && near(p.strokes[0].samples[0].y, 272.89 * pt))
        let b = try #require(p.inkBounds)
        #expect(near(b.x, 184.44 * pt) && near(b.y, 272.89 * pt) && near(b.width, (446.89 - 184.44) * pt) && near(b.height, (472.44 - 272.89) * pt))
        #expect(near(p.size!.width, 612 * pt) && p.background?.style == "lined")
    }

    @Test func xournalppDocumentationDrawingOverFourPages() throws {
        let doc = try read("xournalpp-Setsquare_annotations.xopp")
        #expect(doc.pages.map(\.strokes.count) == [14, 16, 6, 16])
        #expect(doc.pages.map(\.texts.count) == [3, 3, 3, 13])
        #expect(doc.pages[0].texts.map(\.text).contains("vertical marks"))
        #expect(doc.pages[3].texts.map(\.text).contains("(0, h)"))
        #expect(Set(doc.pages[0].strokes.map(\.brush.color)) == ["#ffa154", "#3a9104"])
        let b = try #require(doc.pages[1].inkBounds)
        #expect(near(b.x, 47.15796063 * pt) && near(b.y, 186.90354028 * pt) && near(b.x + b.width, 462.93809515 * pt))
    }

    @Test func crohme2011FormulaWithGroundTruth() throws {
        let doc = try read("crohme2011-formulaire001-equation001.inkml")
        #expect(doc.format == "InkML")
        let page = try #require(doc.pages.first)
        #expect(page.strokes.count == 5)
        #expect(doc.metadata["truth"] == "$\\phi(x)$" && doc.metadata["writer"] == "depart001")
        #expect(doc.notes.contains { $0.contains("no units") && $0.contains("scaled") })
        let k = try #require(doc.metadata["scale"].flatMap(Double.init))
        // First two samples of each trace, from the file, keep their shape once scaled.
        let src: [[(Double, Double)]] = [
            [(11.7004, 15.5288), (11.7004, 15.5288), (11.7004, 15.5208)],
            [(11.7847, 15.28), (11.7847, 15.28), (11.7727, 15.272)],
            [(12.1217, 15.3924), (12.1217, 15.3924), (12.1137, 15.3603)],
            [(12.1538, 15.7254), (12.1538, 15.7254), (12.1498, 15.7174)],
            [(12.5832, 15.3442), (12.5832, 15.3442), (12.5792, 15.3282)],
        ]
        let heads = page.strokes.map { InkTrace(samples: Array($0.samples.prefix(3)), brush: $0.brush) }
        expectSameShape(src, heads, scale: k)
        let labels = page.groups.compactMap { g in g.labels["truth"].map { ($0, g.strokes) } }
        #expect(labels.contains { $0.0 == "\\phi" && $0.1 == [0, 1] })
        #expect(labels.contains { $0.0 == "(" && $0.1 == [2] })
        #expect(labels.contains { $0.0 == "x" && $0.1 == [3] })
        #expect(labels.contains { $0.0 == ")" && $0.1 == [4] })
    }
}
