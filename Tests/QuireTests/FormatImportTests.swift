import Foundation
import Testing
import Quire
import InkModel

/// `quire import` of other programs' files: formats told by content, strokes kept in place,
/// refusals that name the format, and no package left behind by a failed import.
@Suite struct FormatImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("InkFormatsTests/Fixtures")

    func open(_ path: String) throws -> (Engine, ContentPackage) {
        let engine = try Engine()
        return (engine, try engine.openPackage(path))
    }

    @Test func inkmlKeepsEveryStrokeWhereItWas() throws {
        let dir = TempDir()
        let pkg = dir.path("formula.iink")
        // No extension to go by: the content says InkML.
        let src = dir.path("formula.data")
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("crohme-style.inkml").path, toPath: src)
        let r = try runQuire(["import", src, "--out", pkg])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("imported 4 strokes") && r.out.contains("note: coordinates have no units"))
        let (_, p) = try open(pkg)
        defer { p.close() }
        let part = try p.part(at: 0)
        #expect(part.type == "Raw Content")
        let strokes = part.model.orderedStrokes
        #expect(strokes.count == 4 && strokes.allSatisfy { $0.blockId == nil })
        // Exactly the reader's millimetres, to the 1/100 mm a package keeps.
        let scale = try #require(Double(try part.metadata.getString("import.scale")))
        let first = strokes[0][0], x0 = 10.0, y0 = 10.0
        #expect(first.x == x0 + (0.10 - 0.10) * scale && abs(first.y - (y0 + (0.50 - 0.25) * scale)) <= 0.005)
        #expect(try part.metadata.getString("import.truth") == "$x^2$")
        let groups = try part.metadata.getStringArray("import.groups").map { try JSONValue.parse(Data($0.utf8)) }
        let x = try #require(groups.first { $0["labels"]?["truth"]?.stringValue == "x" })
        #expect(x["strokes"]?.arrayValue?.compactMap(\.stringValue) == [strokes[0].id, strokes[1].id])
    }

    @Test func textDocumentLayoutOnRequest() throws {
        let dir = TempDir()
        let pkg = dir.path("flow.iink")
        let r = try runQuire(["import", Self.fixtures.appendingPathComponent("wacom-differences.inkml").path, "--out", pkg, "--as", "text-document"])
        #expect(r.status == 0, "\(r.err)")
        let (_, p) = try open(pkg)
        defer { p.close() }
        #expect(try p.part(at: 0).type == "Text Document")
        #expect(try runQuire(["import", Self.fixtures.appendingPathComponent("wacom-differences.inkml").path, "--out", dir.path("x.iink"), "--as", "sideways"]).status == 2)
    }

    @Test func xournalPagesBecomeParts() throws {
        let dir = TempDir()
        let xml = """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.2.3" fileversion="4"><title>t</title>
        <page width="595.27559" height="841.88976"><background type="solid" color="#ffffffff" style="ruled"/>
        <layer><stroke tool="pen" color="#0000ffff" width="1.41">72 72 144 144</stroke>
        <text font="Sans" size="12" x="72" y="300" color="#000000ff">typed words</text></layer></page>
        <page width="595.27559" height="841.88976"><background type="solid" color="#ffffffff" style="plain"/><layer/></page>
        </xournal>
        """
        let src = dir.path("notes.xopp")
        try Gzip.compress(Data(xml.utf8)).write(to: URL(fileURLWithPath: src))
        let pkg = dir.path("notes.iink")
        let r = try runQuire(["import", src, "--out", pkg])
        #expect(r.status == 0 && r.out.contains("2 Raw Content parts from Xournal++"), "\(r.out) \(r.err)")
        let text = try runQuire(["export", pkg, "--format", "text"])
        #expect(text.out.trimmingCharacters(in: .whitespacesAndNewlines) == "typed words")
        let (_, p) = try open(pkg)
        defer { p.close() }
        let part = try p.part(at: 0)
        let s = try #require(part.model.orderedStrokes.first)
        #expect(s.color == "#0000ff" && s[0].x == 25.4 && s[1].y == 50.8)
        #expect(try part.metadata.getString("import.background") == "ruled")
        #expect(try part.metadata.getNumber("import.page-width") > 209.99)
    }

    @Test func refusalsNameTheFormatAndLeaveNothing() throws {
        let dir = TempDir()
        func refused(_ name: String, _ data: Data) throws -> String {
            let src = dir.path(name), pkg = dir.path(name + ".iink")
            try data.write(to: URL(fileURLWithPath: src))
            let r = try runQuire(["import", src, "--out", pkg])
            #expect(r.status == 2)
            #expect(!FileManager.default.fileExists(atPath: pkg) && !FileManager.default.fileExists(atPath: pkg + "-files"), "\(name) left a package")
            return r.err
        }
        #expect(try refused("drawing.svg", Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)).contains("an SVG image: not supported"))
        #expect(try refused("notes.rnote", try Gzip.compress(Data("{\"version\":\"0.9\",\"data\":{\"engine_snapshot\":{}}}".utf8))).contains("an Rnote file: not supported"))
        #expect(try refused("paper.xopp", Data("%PDF-1.5\n".utf8)).contains("a PDF document: not supported"))
        #expect(try refused("cut.inkml", Data("<ink><trace>1 2, 3".utf8)).contains("truncated"))
        // Read fine, refused while building the package (a unit misread as metres): removed again.
        let far = "<ink><traceFormat><channel name=\"X\" units=\"m\"/><channel name=\"Y\" units=\"m\"/></traceFormat><trace>0 0, 5000 0</trace></ink>"
        #expect(try refused("far.inkml", Data(far.utf8)).contains("more than a kilometre away"))
    }
}
