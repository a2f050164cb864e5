import Foundation
import Testing
import Quire

/// `quire edit FILE.xopp|.inkml`: the file is imported into a new package beside it (never over
/// an existing one), the terminal says so, and the window edits that package.
@Suite struct EditImportTests {
    static let inkml = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("InkFormatsTests/Fixtures/crohme-style.inkml")

    /// Runs `quire edit` against an X display that does not exist: the import happens before the
    /// window would open, then opening the display fails.
    func edit(_ file: String) throws -> (status: Int32, out: String, err: String) {
        try runQuire(["edit", file], environment: ["DISPLAY": ":9871"])
    }

    @Test func inkIsImportedBesideItUnderAFreeName() throws {
        let dir = TempDir()
        let src = dir.path("formula.inkml")
        try FileManager.default.copyItem(atPath: Self.inkml.path, toPath: src)
        let original = try Data(contentsOf: URL(fileURLWithPath: src))

        let first = try edit(src)
        #expect(first.out.contains("Imported formula.inkml into formula.iink (4 strokes, 1 Raw Content part from InkML); editing that package."), "\(first.out)")
        #expect(first.err.contains("cannot open X display"))
        let pkg = dir.path("formula.iink")
        let saved = try Data(contentsOf: URL(fileURLWithPath: pkg))
        let p = try Engine().openPackage(pkg)
        #expect(try p.part(at: 0).model.strokes.count == 4)
        p.close()

        // Again: a new package, the first one untouched, the source as it was.
        let second = try edit(src)
        #expect(second.out.contains("into formula-2.iink"), "\(second.out)")
        #expect(FileManager.default.fileExists(atPath: dir.path("formula-2.iink")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: pkg)) == saved)
        #expect(try Data(contentsOf: URL(fileURLWithPath: src)) == original)
    }

    @Test func packagesAndRefusedFilesAreNotImported() throws {
        let dir = TempDir()
        // A package opens as it is: nothing imported.
        let pkg = dir.path("notes.iink")
        #expect(try runQuire(["new", pkg]).status == 0)
        let r = try edit(pkg)
        #expect(!r.out.contains("Imported") && r.err.contains("cannot open X display"))
        // A broken InkML file is refused by name, and no package is made for it.
        let bad = dir.path("cut.inkml")
        try Data("<ink><trace>1 2, 3".utf8).write(to: URL(fileURLWithPath: bad))
        let b = try edit(bad)
        #expect(b.status == 2 && b.err.contains("truncated"), "\(b.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("cut.iink")))
    }
}
