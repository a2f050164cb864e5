import Foundation
import Testing
import Quire

/// `quire search FILE|DIR "query" [--json]` on real handwriting (validation writers' words of the
/// shared fixture) imported with `quire import`: the ink is recognized for the search, nothing saved.
@Suite struct SearchCommandTests {
    func imported(_ dir: TempDir, _ name: String) throws -> String {
        let pkg = dir.path(name)
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: pkg).deletingLastPathComponent().path, withIntermediateDirectories: true)
        let r = try runQuire(["import", handwritingFixtureURL.path, "--out", pkg])
        try #require(r.status == 0, "\(r.err)")
        return pkg
    }

    @Test func jsonLinesNameFilePartBlockWordAndBox() throws {
        let dir = TempDir()
        let pkg = try imported(dir, "words.iink")
        let before = try Data(contentsOf: URL(fileURLWithPath: pkg))
        let r = try runQuire(["search", pkg, "BREAD", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        try #require(lines.count == 1, "\(r.out)")
        let hit = try JSONValue.parse(Data(lines[0].utf8))
        #expect(hit.objectValue.map { Set($0.keys) } == ["file", "part", "block", "word", "box"])
        #expect(hit["file"]?.stringValue == pkg && hit["part"]?.doubleValue == 0 && hit["word"]?.stringValue == "bread")
        #expect(hit["block"]?.stringValue?.hasPrefix("b") == true)
        // The third sample, one under the other from 15 mm down: the box is on its ink.
        let box = try #require(hit["box"])
        #expect((box["x"]?.doubleValue ?? 0) >= 9 && (box["y"]?.doubleValue ?? 0) > 30 && (box["width"]?.doubleValue ?? 0) > 5)
        // Searching recognizes in memory: the package is not changed.
        #expect(try Data(contentsOf: URL(fileURLWithPath: pkg)) == before)
        // Readable output, and exit status 1 when nothing is found (as grep).
        let text = try runQuire(["search", pkg, "island"])
        #expect(text.status == 0 && text.out.contains(": part 0, block ") && text.out.contains("\"island\" at ("), "\(text.out)")
        let none = try runQuire(["search", pkg, "zebra"])
        #expect(none.status == 1 && none.out.isEmpty)
        #expect(try runQuire(["search", pkg, "bread", "--stored-only"]).status == 1, "nothing stored: the ink was never recognized")
    }

    @Test func aFolderOfNotebooksIsSearchedRecursively() throws {
        let dir = TempDir()
        let a = try imported(dir, "a.iink"), b = try imported(dir, "2026/march/b.iink")
        try Data("not a zip".utf8).write(to: URL(fileURLWithPath: dir.path("broken.iink")))
        let r = try runQuire(["search", dir.url.path, "sugar", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let files = r.out.split(separator: "\n").compactMap { try? JSONValue.parse(Data($0.utf8))["file"]?.stringValue }
        #expect(files == [b, a].sorted(), "\(r.out)")
        #expect(r.err.contains("skipped") && r.err.contains("broken.iink"), "\(r.err)")
    }

    @Test func inkFilesAndTypedTextAreSearched() throws {
        let xopp = repositoryRoot.appendingPathComponent("Tests/InkFormatsTests/Fixtures/real/xournalpp-text.xopp").path
        let r = try runQuire(["search", xopp, "Green", "--json"])
        #expect(r.status == 0 && r.out.contains("\"word\":\"green\""), "\(r.out)\(r.err)")
        let bad = try runQuire(["search", xopp, " "])
        #expect(bad.status == 2 && bad.err.contains("no word"), "\(bad.err)")
        let missing = try runQuire(["search", "/nonexistent/notes.iink", "x"])
        #expect(missing.status == 2 && missing.err.contains("does not exist"))
    }
}

/// `quire eval-search`: the figure of the README, here on the shared fixture's sixteen words.
@Suite struct EvalSearchCommandTests {
    @Test func everyFixtureWordIsFoundAndCandidatesAreCounted() throws {
        let r = try runQuire(["eval-search", handwritingFixtureURL.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("16 words of validation writers: quire search finds 16 (100.0%)"), "\(r.out)")
        // One of them is found only through a candidate other than its reading.
        #expect(r.out.contains("by what each word reads as, exact: 15 (93.8%)"), "\(r.out)")
        let bad = try runQuire(["eval-search", handwritingFixtureURL.path, "--limit", "0"])
        #expect(bad.status == 2 && bad.err.contains("--limit"))
    }
}
