import Foundation
import Testing
import QuireTestSupport
@testable import Quire
import QuireTools

/// The HTML inspector: what it shows, and that it stands alone (no reference to anything outside
/// the file, so it opens anywhere and can be attached to a bug report).
@Suite(.serialized) struct InspectorReportTests {
    /// Anything that would make a browser fetch or run something from elsewhere.
    static let externalReferences = ["http:", "https:", "//", "src=", "href=", "url(", "<script", "<link", "@import", "<iframe", "<img"]

    static func standsAlone(_ html: String) -> [String] {
        // "//" also catches protocol-relative URLs; the report has no comment syntax that uses it.
        externalReferences.filter { html.lowercased().contains($0) }
    }

    @Test func theReportShowsEachLineAndStandsAlone() throws {
        let dir = TempDir()
        let engine = try Engine()
        let pkg = try engine.createPackage(dir.path("ink.iink"))
        defer { pkg.close() }
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 1000, height: 700)
        try editor.setPart(pkg.createPart(type: PartType.text.rawValue))
        try Handwriting.writeLine(["unipen-4fe72e73a415", "unipen-2e05f671aedf"], editor: editor, x: 10, y: 12)
        try Handwriting.writeLine(["unipen-b0f24618f5b3"], editor: editor, x: 10, y: 26)
        let html = try InspectorReport.html(editor: editor, title: "ink <&> test")
        #expect(Self.standsAlone(html).isEmpty, "\(Self.standsAlone(html))")
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>"))
        #expect(html.contains("ink &lt;&amp;&gt; test"), "the title is escaped")
        #expect(html.components(separatedBy: "<svg").count - 1 == 2, "one picture per line")
        for w in ["found", "bread", "island"] { #expect(html.contains("<tr class=\"chosen\"><td>\(w)"), "\(w) is a chosen candidate") }
        #expect(html.contains("class=\"frame\"") && html.contains("class=\"char\""))
        #expect(html.contains("Configuration in force") && html.contains("lexicon-mode"))
    }

    @Test func inspectWritesTheReportForAPackageASessionAndSamples() throws {
        let dir = TempDir()
        // Samples (JSON lines) straight from the fixture.
        let fromSamples = dir.path("samples.html")
        let r = try runQuire(["inspect", Handwriting.fixtureURL.path, "--html", fromSamples, "--limit", "3"])
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: fromSamples, encoding: .utf8)
        #expect(Self.standsAlone(html).isEmpty)
        #expect(html.contains("<svg"))
        // A package, and a session recorded over it.
        let engine = try Engine()
        let pkgPath = dir.path("p.iink")
        let pkg = try engine.createPackage(pkgPath)
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 800, height: 600)
        try editor.setPart(pkg.createPart(type: PartType.textDocument.rawValue))
        let session = dir.path("s.jsonl")
        _ = try SessionRecorder(path: session, editor: editor)
        try Handwriting.writeLine(["unipen-2e05f671aedf"], editor: editor, x: 10, y: 20)
        try editor.waitForIdle()
        editor.recorder?.flush()
        try pkg.save()
        try editor.setPart(nil)
        pkg.close()
        #expect(SessionRecorder.isSession(path: session) && !SessionRecorder.isSession(path: pkgPath))
        for input in [pkgPath, session] {
            let out = dir.path("out.html")
            let r = try runQuire(["inspect", input, "--html", out])
            #expect(r.status == 0, "\(r.err)")
            let html = try String(contentsOfFile: out, encoding: .utf8)
            #expect(html.contains("<tr class=\"chosen\"><td>bread"), "\(input)")
            #expect(Self.standsAlone(html).isEmpty)
        }
        let missing = try runQuire(["inspect", dir.path("nothing.iink"), "--html", dir.path("x.html")])
        #expect(missing.status == 2 && missing.err.contains("quire: error:"))
    }
}
