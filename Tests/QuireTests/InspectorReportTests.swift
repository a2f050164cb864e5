import Foundation
import Testing
import QuireTestSupport
@testable import Quire
import QuireTools

/// The HTML inspector: what it shows, and that it stands alone (no reference to anything outside
/// the file, so it opens anywhere and can be attached to a bug report).
@Suite(.serialized) struct InspectorReportTests {
    /// Anything that would make a browser fetch or run something from elsewhere. The report's
    /// own script is inline (`<script>` with no attribute).
    static let externalReferences = ["http:", "https:", "//", "src=", "href=", "url(", "<script ", "<link", "@import", "<iframe",
                                     "<img", "<object", "<embed", "import(", "fetch(", "xmlhttprequest"]

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
        #expect(html.components(separatedBy: "<svg").count - 1 == 3, "the page, then one picture per line")
        for w in ["found", "bread", "island"] { #expect(html.contains("<tr class=\"chosen\"><td>\(w)"), "\(w) is a chosen candidate") }
        #expect(html.contains("class=\"L-strip\"") && html.contains("class=\"L-char\"") && html.contains("class=\"L-line\""))
        #expect(html.contains("Configuration in force") && html.contains("lexicon-mode"))
        // The timeline: every stroke numbered in writing order, and controls for each picture.
        #expect(html.components(separatedBy: "class=\"tl\"").count - 1 == 3)
        #expect(html.contains("data-i=\"0\"") && html.contains("data-a=\"play\"") && html.contains("type=\"range\""))
        // The layers as toggles.
        for layer in ["line", "word", "char", "strip", "align", "gesture"] {
            #expect(html.contains("value=\"\(layer)\" checked") && html.contains("body.no-\(layer) .L-\(layer)"), "\(layer)")
        }
        #expect(html.components(separatedBy: "<script>").count == 2 && html.contains("</script>"), "one inline script")
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

    /// Parses the report's figures: category -> (n, CER, accuracy) as printed.
    static func reportFigures(_ html: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for row in html.components(separatedBy: "<tr data-cat=\"").dropFirst() {
            let cat = String(row.prefix { $0 != "\"" })
            func cell(_ cls: String) -> String {
                guard let r = row.range(of: "<td class=\"\(cls)\">") else { return "?" }
                return String(row[r.upperBound...].prefix { $0 != "<" })
            }
            out[cat] = [cell("n"), cell("cer"), cell("acc")]
        }
        return out
    }

    @Test func theReportsFiguresEqualQuireEvalsOnTheSameSamples() throws {
        let dir = TempDir()
        let files = [Handwriting.fixtureURL.path, Handwriting.fixtureURL.deletingLastPathComponent().appendingPathComponent("lines-and-marks.jsonl").path]
        // Lower-case letters only: the digits, capitals and symbols are misread, so the figures are not all zero.
        let flags = ["--charset", "abcdefghijklmnopqrstuvwxyz ", "--limit", "5"]
        let eval = try runQuire(["eval", "--jsonl"] + files + ["--page-words", "0"] + flags)
        #expect(eval.status == 0, "\(eval.err)")
        // "all files" rows: category n CER acc ...; the last row: all n CER.
        var expected: [String: [String]] = [:]
        let lines = eval.out.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "all files"))
        for line in lines[(start + 1)...] {
            let f = line.split(separator: " ").map(String.init)
            if f.count >= 4, f[0] != "all" { expected[f[0]] = Array(f[1 ... 3]) }
            if f.count == 3, f[0] == "all" { expected["all"] = Array(f[1 ... 2]) }
        }
        let out = dir.path("r.html")
        let r = try runQuire(["inspect"] + files + ["--html", out] + flags)
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        var got = Self.reportFigures(html)
        got["all"] = got["all"].map { Array($0.prefix(2)) }
        #expect(expected.count == 7 && got == expected, "eval \(expected) report \(got)")
        #expect(expected.values.contains { $0.count > 2 && $0[1] != "0.000" }, "some category has errors: \(expected)")
        #expect(Self.standsAlone(html).isEmpty)
        // The errors are in the gallery and the confusion table.
        #expect(html.contains("id=\"gallery\"") && html.contains("data-writer=\"unipen-") && html.contains("<del>") && html.contains("<mark>"))
        #expect(html.contains("id=\"confusions\"") && html.contains("lines in detail"))
    }

    @Test func compareReadsTheSameInkWithOtherSettingsSideBySide() throws {
        let dir = TempDir()
        let engine = try Engine()
        let pkgPath = dir.path("p.iink")
        let pkg = try engine.createPackage(pkgPath)
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 800, height: 600)
        try editor.setPart(pkg.createPart(type: PartType.textDocument.rawValue))
        try Handwriting.writeLine(["unipen-4fe72e73a415", "unipen-2e05f671aedf"], editor: editor, x: 10, y: 20)
        try editor.waitForIdle()
        try pkg.save()
        try editor.setPart(nil)
        pkg.close()
        let out = dir.path("c.html")
        // Only digits: the same ink reads otherwise, and the report says so.
        let r = try runQuire(["inspect", pkgPath, "--html", out, "--compare", "digits-only=true, lm-weight=0.5"])
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("B: digits-only=true, lm-weight=0.5") && html.contains("1 of 1 lines read differently"), "\(html.prefix(3000))")
        #expect(html.contains("class=\"cmp\"") && html.contains("class=\"line chg\"") && html.contains("<mark>"))
        #expect(Self.standsAlone(html).isEmpty)
        // Bad settings are refused before any work.
        for (spec, message) in [("colour=red", "unknown key 'colour'"), ("lm-weight=heavy", "needs a finite number"), ("lexicon-mode", "is not KEY=VALUE"),
                                ("lexicon-mode=sometimes", "lexicon-mode must be prefer")] {
            let bad = try runQuire(["inspect", pkgPath, "--html", dir.path("x.html"), "--compare", spec])
            #expect(bad.status != 0 && bad.err.contains(message), "\(spec): \(bad.err)")
        }
    }

    @Test func aSessionsReportExplainsItsGestures() throws {
        let dir = TempDir()
        let engine = try Engine()
        let pkg = try engine.createPackage(dir.path("g.iink"))
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 800, height: 600)
        try editor.setPart(pkg.createPart(type: PartType.textDocument.rawValue))
        let session = dir.path("s.jsonl")
        _ = try SessionRecorder(path: session, editor: editor)
        try Handwriting.writeLine(["unipen-4fe72e73a415", "unipen-2e05f671aedf"], editor: editor, x: 10, y: 20)
        try editor.waitForIdle()
        // A line through the second word: a strike-through.
        let words = try #require(editor.rootBlock?.children.first?.words)
        let bread = try #require(words.first { $0.label == "bread" }).box
        let px = 96 / 25.4
        let y = bread.midY * px
        try editor.pointerDown(x: (bread.x - 1) * px, y: y, t: 900_000, f: 0.5, type: .pen, pointerId: 1)
        for k in 1 ... 10 { try editor.pointerMove(x: (bread.x - 1 + Double(k) * (bread.width + 2) / 10) * px, y: y, t: 900_000 + Int64(k) * 10, f: 0.5, type: .pen, pointerId: 1) }
        try editor.pointerUp(x: (bread.maxX + 1) * px, y: y, t: 900_200, f: 0.5, type: .pen, pointerId: 1)
        try editor.waitForIdle()
        editor.recorder?.flush()
        try editor.setPart(nil)
        pkg.close()
        let out = dir.path("g.html")
        let r = try runQuire(["inspect", session, "--html", out])
        #expect(r.status == 0, "\(r.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("<h2>Gestures</h2>") && html.contains("strikeThrough, applied"), "\(html.prefix(4000))")
        #expect(html.contains("class=\"L-gesture\" data-g=\"strikeThrough\""), "the gesture is drawn on the page")
        #expect(html.contains("✔ through a word&apos;s middle (strike-through)") || html.contains("✔ through a word's middle (strike-through)"))
        #expect(Self.standsAlone(html).isEmpty)
    }
}
