import Foundation
import Testing
import InkRender
import Quire
import InkModel

/// `quire import` of Quire's own `quire export --format json`: package -> JSON -> package gives
/// the same JSON again, and an edited JSON file comes back with its edits.
@Suite struct QuireJSONImportTests {
    static let handwriting = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/handwriting.jsonl").path

    /// A Text Document with recognized handwriting, a typed block, a styled word and a word whose
    /// second candidate was chosen.
    func richPackage(_ dir: TempDir) throws -> String {
        let pkg = dir.path("rich.iink")
        let r = try runQuire(["import", Self.handwriting, "--out", pkg, "--limit", "3", "--as", "text-document"])
        #expect(r.status == 0, "\(r.err)")
        let engine = try Engine()
        let p = try engine.openPackage(pkg)
        defer { p.close() }
        let part = try p.part(at: 0)
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 794, height: 1123)
        try editor.setPart(part)
        try editor.waitForIdle()
        _ = try editor.addBlock(at: Point(x: 10, y: 120), type: "Text", mimeType: .text, data: "typed words here")
        let m = part.model
        var b = try #require(m.blocksInTreeOrder().first { !$0.words.isEmpty && $0.text == nil && ($0.words.first?.candidates.count ?? 0) > 1 })
        b.words[0].styles = ["underline"]
        b.words[0].selected = 1
        b.properties["note"] = "kept"
        m.setBlock(b)
        try p.save()
        return pkg
    }

    @Test func packageToJSONToPackageGivesTheSameJSON() throws {
        let dir = TempDir()
        let pkg = try richPackage(dir)
        let first = try runQuire(["export", pkg, "--format", "json", "-o", dir.path("first.json")])
        #expect(first.status == 0, "\(first.err)")
        let json = try String(contentsOfFile: dir.path("first.json"), encoding: .utf8)
        #expect(json.contains("typed words here") && json.contains("underline") && json.contains("\"note\" : \"kept\""))

        let back = dir.path("back.iink")
        let r = try runQuire(["import", dir.path("first.json"), "--out", back])
        #expect(r.status == 0 && r.out.contains("1 Text Document part"), "\(r.out) \(r.err)")
        let second = try runQuire(["export", back, "--format", "json"])
        #expect(second.status == 0)
        #expect(second.out == json)
        // quire recognize reads the JSON's handwriting as it reads a package's.
        let read = try runQuire(["recognize", dir.path("first.json")])
        #expect(read.status == 0 && read.out.split(separator: "\n").prefix(3) == ["sister", "found", "bread"], "\(read.out) \(read.err)")

        // Ids are the exported ones, and ids made later do not collide with them.
        let engine = try Engine()
        let a = try engine.openPackage(pkg), b = try engine.openPackage(back)
        defer { a.close(); b.close() }
        let ma = try a.part(at: 0).model, mb = try b.part(at: 0).model
        #expect(Set(mb.strokes.keys) == Set(ma.strokes.keys) && Set(mb.blocks.keys) == Set(ma.blocks.keys))
        #expect(mb.strokes[mb.makeStrokeId()] == nil && mb.blocks[mb.makeBlockId()] == nil)
    }

    @Test func editedJSONComesBackEdited() throws {
        let dir = TempDir()
        let pkg = try richPackage(dir)
        let json = try runQuire(["export", pkg, "--format", "json"]).out
        let edited = dir.path("edited.json")
        try json.replacingOccurrences(of: "typed words here", with: "edited by hand").write(toFile: edited, atomically: true, encoding: .utf8)
        let back = dir.path("edited.iink")
        #expect(try runQuire(["import", edited, "--out", back]).status == 0)
        let text = try runQuire(["export", back, "--format", "text"]).out
        #expect(text.contains("edited by hand") && !text.contains("typed words here"))
    }

    @Test func rawContentRoundTripsAndBadJSONIsRefused() throws {
        let dir = TempDir()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("InkFormatsTests/Fixtures/crohme-style.inkml").path
        let pkg = dir.path("raw.iink")
        #expect(try runQuire(["import", fixture, "--out", pkg]).status == 0)
        let json = try runQuire(["export", pkg, "--format", "json"]).out
        try json.write(toFile: dir.path("raw.json"), atomically: true, encoding: .utf8)
        #expect(try runQuire(["import", dir.path("raw.json"), "--out", dir.path("raw2.iink")]).out.contains("1 Raw Content part"))
        #expect(try runQuire(["export", dir.path("raw2.iink"), "--format", "json"]).out == json)

        // A stroke whose columns disagree is refused by name, and no package is left.
        let bad = json.replacingOccurrences(of: "\"f\" : [", with: "\"f\" : [0.5, ")
        try bad.write(toFile: dir.path("bad.json"), atomically: true, encoding: .utf8)
        let r = try runQuire(["import", dir.path("bad.json"), "--out", dir.path("bad.iink")])
        #expect(r.status == 2 && r.err.contains("Quire JSON, block 'b0', stroke 0") && r.err.contains("same number of values"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("bad.iink")))
    }
}
