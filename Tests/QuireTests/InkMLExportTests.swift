import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Quire
import InkModel

/// `quire export --format inkml`: valid trace types, units on every channel, brushes referenced
/// by the traces, words annotated; InkML -> Quire -> InkML -> Quire keeps everything it kept.
@Suite struct InkMLExportTests {
    /// Ink with time, pressure, a coloured pen, a wide translucent highlighter and a default pen.
    static let source = """
    <?xml version="1.0" encoding="UTF-8"?>
    <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">
      <inkml:definitions>
        <inkml:context xml:id="c">
          <inkml:traceFormat>
            <inkml:channel name="X" type="decimal" units="cm"/>
            <inkml:channel name="Y" type="decimal" units="cm"/>
            <inkml:channel name="T" type="integer" units="ms"/>
            <inkml:channel name="F" type="integer" min="0" max="1023"/>
          </inkml:traceFormat>
        </inkml:context>
        <inkml:brush xml:id="red"><inkml:brushProperty name="color" value="#C00000"/><inkml:brushProperty name="width" value="0.05" units="cm"/></inkml:brush>
        <inkml:brush xml:id="hl"><inkml:brushProperty name="color" value="#ffff00"/><inkml:brushProperty name="width" value="5" units="mm"/>
          <inkml:brushProperty name="transparency" value="128"/><inkml:brushProperty name="rasterOp" value="maskPen"/></inkml:brush>
      </inkml:definitions>
      <inkml:timestamp xml:id="t0" timeString="2024-03-01T10:00:00.000Z"/>
      <inkml:trace contextRef="#c" brushRef="#red">2 3 0 100, 2.5 3.25 16 512, 3.125 3.5 33 1023</inkml:trace>
      <inkml:trace contextRef="#c" brushRef="#hl">2 4 50 300, 6 4 90 300</inkml:trace>
      <inkml:trace contextRef="#c">4 2 120 0, 4.01 2.99 130 700</inkml:trace>
    </inkml:ink>
    """

    func importAndExport(_ src: String, _ dir: TempDir, _ name: String) throws -> (pkg: String, inkml: String) {
        let pkg = dir.path(name + ".iink"), out = dir.path(name + ".inkml")
        let r = try runQuire(["import", src, "--out", pkg])
        #expect(r.status == 0, "\(r.err)")
        let e = try runQuire(["export", pkg, "--format", "inkml", "-o", out])
        #expect(e.status == 0, "\(e.err)")
        return (pkg, try String(contentsOfFile: out, encoding: .utf8))
    }

    func strokes(_ pkg: String) throws -> [InkStroke] {
        let p = try Engine().openPackage(pkg)
        defer { p.close() }
        return try p.part(at: 0).model.orderedStrokes
    }

    /// What a validator checks: trace types InkML defines, a unit for every channel, every
    /// brushRef and contextRef defined, well-formed XML.
    func expectValid(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), sourceLocation: sourceLocation)
        let types = xml.matches(of: /<trace [^>]*type="([^"]*)"/).map { String($0.1) }
        #expect(!types.isEmpty && types.allSatisfy { ["penDown", "penUp", "indeterminate"].contains($0) }, sourceLocation: sourceLocation)
        let channels = xml.matches(of: /<channel [^>]*>/).map { String($0.0) }
        #expect(channels.count == 4 && channels.allSatisfy { $0.contains("units=\"") }, sourceLocation: sourceLocation)
        let defined = Set(xml.matches(of: /xml:id="([^"]*)"/).map { String($0.1) })
        let refs = xml.matches(of: /(?:brushRef|contextRef|traceDataRef)="#([^"]*)"/).map { String($0.1) }
        #expect(!refs.isEmpty && refs.allSatisfy(defined.contains), sourceLocation: sourceLocation)
    }

    @Test func roundTripKeepsGeometryTimePressureAndBrushes() throws {
        let dir = TempDir()
        let src = dir.path("source.inkml")
        try Self.source.write(toFile: src, atomically: true, encoding: .utf8)
        let first = try importAndExport(src, dir, "first")
        expectValid(first.inkml)
        #expect(!first.inkml.contains("type=\"pen\""))
        #expect(first.inkml.contains("<brushProperty name=\"color\" value=\"#c00000\"/>")
                && first.inkml.contains("<brushProperty name=\"width\" value=\"0.5\" units=\"mm\"/>")
                && first.inkml.contains("<brushProperty name=\"transparency\" value=\"128\"/>")
                && first.inkml.contains("<brushProperty name=\"rasterOp\" value=\"maskPen\"/>"))
        let second = try importAndExport(dir.path("first.inkml"), dir, "second")
        #expect(second.inkml == first.inkml)
        let a = try strokes(first.pkg), b = try strokes(second.pkg)
        #expect(a.count == 3 && b.count == 3)
        for (s, t) in zip(a, b) {
            #expect(s.samples == t.samples && s.color == t.color && s.width == t.width && s.tool == t.tool)
        }
        #expect(a[0].color == "#c00000" && a[0].width == 0.5 && a[0][1].x == 25 && a[0][1].y == 32.5)
        #expect(a[1].tool == "highlighter" && a[1].color == "#ffff007f" && a[1].width == 5)
        #expect(a[0][2].t - a[0][0].t == 33 && a[0][2].f == 1)
    }

    @Test func recognizedWordsAreAnnotatedGroups() throws {
        let dir = TempDir()
        let hw = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/handwriting.jsonl").path
        let pkg = dir.path("words.iink")
        #expect(try runQuire(["import", hw, "--out", pkg, "--limit", "3", "--as", "text-document"]).status == 0)
        // The export reads the blocks first, so words are there.
        let words = try runQuire(["export", pkg, "--format", "text"]).out.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(words.count >= 3)
        let xml = try runQuire(["export", pkg, "--format", "inkml"]).out
        expectValid(xml)
        for w in words { #expect(xml.contains("<annotation type=\"truth\">\(w)</annotation>")) }
        // Read back, every word's label stays with its strokes.
        let src = dir.path("words.inkml")
        try xml.write(toFile: src, atomically: true, encoding: .utf8)
        let back = dir.path("back.iink")
        #expect(try runQuire(["import", src, "--out", back]).status == 0)
        let p = try Engine().openPackage(back)
        defer { p.close() }
        let part = try p.part(at: 0)
        let groups = try part.metadata.getStringArray("import.groups").map { try JSONValue.parse(Data($0.utf8)) }
        let labelled = groups.filter { $0["labels"]?["truth"] != nil && $0["labels"]?["blockType"] == nil }
        #expect(labelled.compactMap { $0["labels"]?["truth"]?.stringValue } == words)
        #expect(labelled.allSatisfy { !($0["strokes"]?.arrayValue ?? []).isEmpty })
    }

    /// Files Quire wrote before (`type="pen"`, the tool name as brushRef, no units on F) still read.
    @Test func olderQuireExportsStillRead() throws {
        let dir = TempDir()
        let old = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ink xmlns="http://www.w3.org/2003/InkML">
          <definitions><context xml:id="ctx0"><traceFormat>
            <channel name="X" type="decimal" units="mm"/><channel name="Y" type="decimal" units="mm"/>
            <channel name="T" type="integer" units="ms"/><channel name="F" type="decimal" max="1"/>
          </traceFormat></context></definitions>
          <traceGroup xml:id="b0">
            <annotation type="blockType">Raw Content</annotation>
            <trace xml:id="s1" contextRef="#ctx0" type="pen" brushRef="pen">10.00 10.00 1000 0.500000, 12.00 11.00 1010 0.600000</trace>
            <trace xml:id="s2" contextRef="#ctx0" type="pen" brushRef="highlighter">20.00 10.00 2000 0.500000, 30.00 10.00 2010 0.500000</trace>
          </traceGroup>
        </ink>
        """
        let src = dir.path("old.inkml")
        try old.write(toFile: src, atomically: true, encoding: .utf8)
        let (pkg, xml) = try importAndExport(src, dir, "old")
        let s = try strokes(pkg)
        #expect(s.count == 2 && s[0][1].x == 12 && s[0][1].f == 0.6 && s[1].tool == "highlighter")
        expectValid(xml)
    }

    /// Dataset labels an import kept (a CROHME-style file: truth per symbol, nested groups, the
    /// formula's truth) go back out as traceViews and come in again the same.
    @Test func importedLabelsRoundTrip() throws {
        let dir = TempDir()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("InkFormatsTests/Fixtures/crohme-style.inkml").path
        let first = try importAndExport(fixture, dir, "first")
        expectValid(first.inkml)
        #expect(first.inkml.contains("<annotation type=\"truth\">$x^2$</annotation>"))
        let second = try importAndExport(dir.path("first.inkml"), dir, "second")
        #expect(second.inkml == first.inkml)
        func labels(_ pkg: String) throws -> [String] {
            let p = try Engine().openPackage(pkg)
            defer { p.close() }
            let part = try p.part(at: 0)
            let groups = try part.metadata.getStringArray("import.groups").map { try JSONValue.parse(Data($0.utf8)) }
            return try groups.filter { $0["labels"]?["blockType"] == nil }.map { g in
                let truth = g["labels"]?["truth"]?.stringValue ?? ""
                let ids = (g["strokes"]?.arrayValue ?? []).compactMap(\.stringValue).sorted().joined(separator: ",")
                return "\(truth) \(g["depth"]?.intValue ?? -1) \(ids) \(try part.metadata.getString("import.truth"))"
            }
        }
        let a = try labels(first.pkg), b = try labels(second.pkg)
        #expect(a == ["Segmentation 0 s1,s2,s3 $x^2$", "x 1 s1,s2 $x^2$", "2 1 s3 $x^2$"])
        #expect(b == a)
        #expect(try strokes(first.pkg).map(\.samples) == (try strokes(second.pkg).map(\.samples)))
    }
}
