import Foundation
import Testing
import InkModel

/// `quire recognize` on Xournal++ notes and on packages of imported pages (Raw Content parts):
/// the handwriting is read in lines told by their gaps, and nothing is moved or saved.
@Suite struct RecognizeImportedTests {
    static let handwriting = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/handwriting.jsonl")

    /// Real handwriting (UNIPEN samples of ../shared/data, see Fixtures/README.md) placed on a
    /// Xournal++ page in points: "sister found" on one line, "bread" on the next, and a
    /// highlighter bar below them (a mark, not writing: read as an "l" if it were read).
    static func notes() throws -> Data {
        let lines = try String(contentsOf: handwriting, encoding: .utf8).split(separator: "\n")
        let samples = try lines.prefix(3).map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        func place(_ s: [String: Any], x0: Double, baseline: Double) throws -> (strokes: [String], width: Double) {
            let ppi = try #require((s["ppi"] as? [Double])?.first)
            let strokes = try #require(s["strokes"] as? [[[Double]]])
            let pts = strokes.flatMap { $0 }
            let minX = pts.map { $0[0] }.min()!, maxX = pts.map { $0[0] }.max()!, maxY = pts.map { $0[1] }.max()!
            let k = 72 / ppi
            let text = strokes.map { st in st.map { String(format: "%.2f %.2f", x0 + ($0[0] - minX) * k, baseline - (maxY - $0[1]) * k) }.joined(separator: " ") }
            return (text, (maxX - minX) * k)
        }
        let sister = try place(samples[0], x0: 72, baseline: 150)
        let found = try place(samples[1], x0: 72 + sister.width + 30, baseline: 150)
        let bread = try place(samples[2], x0: 72, baseline: 230)
        #expect(samples.compactMap { $0["label"] as? String } == ["sister", "found", "bread"])
        let strokes = (sister.strokes + found.strokes + bread.strokes).map { "<stroke tool=\"pen\" color=\"#000000ff\" width=\"1.41\">\($0)</stroke>" }
        let mark = "<stroke tool=\"highlighter\" color=\"#ffff0080\" width=\"8\">72 280 73 285 74 290 75 295 76 300 77 305 78 310</stroke>"
        let xml = "<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"Xournal++ 1.2.3\" fileversion=\"4\"><title>notes</title>"
            + "<page width=\"595.27559\" height=\"841.88976\"><background type=\"solid\" color=\"#ffffffff\" style=\"ruled\"/>"
            + "<layer>\(strokes.joined())\(mark)</layer></page></xournal>"
        return try Gzip.compress(Data(xml.utf8))
    }

    @Test func xournalNotesAreReadLineByLine() throws {
        let dir = TempDir()
        let src = dir.path("notes.xopp")
        try Self.notes().write(to: URL(fileURLWithPath: src))
        let before = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("quire-recognize-") }
        let r = try runQuire(["recognize", src])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "sister found\nbread\n")
        // The temporary package is gone, and the notes are untouched.
        let after = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("quire-recognize-") }
        #expect(Set(after) == Set(before))
        #expect(try Data(contentsOf: URL(fileURLWithPath: src)) == (try Self.notes()))
    }

    @Test func importedPagesInAPackageAreRead() throws {
        let dir = TempDir()
        let src = dir.path("notes.xopp"), pkg = dir.path("notes.iink")
        try Self.notes().write(to: URL(fileURLWithPath: src))
        #expect(try runQuire(["import", src, "--out", pkg]).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: pkg))
        let r = try runQuire(["recognize", pkg, "--json"])
        #expect(r.status == 0, "\(r.err)")
        let json = try JSONValue.parse(Data(r.out.utf8))
        let block = try #require(json["parts"]?.arrayValue?.first?["blocks"]?.arrayValue?.first)
        #expect(block["type"]?.stringValue == "Raw Content" && block["text"]?.stringValue == "sister found\nbread")
        // Read, not rearranged or saved: the package is as the import wrote it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: pkg)) == saved)
    }
}
