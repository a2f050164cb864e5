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
        // An existing package of that name is never overwritten: the import takes the next free name.
        let pkg = dir.path("formula.iink")
        #expect(try runQuire(["import", src, "--out", pkg]).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: pkg))
        let p = try Engine().openPackage(pkg)
        #expect(try p.part(at: 0).model.strokes.count == 4)
        p.close()

        let r = try edit(src)
        #expect(r.out.contains("Imported formula.inkml into formula-2.iink (4 strokes, 1 Raw Content part from InkML); editing that package."), "\(r.out)")
        #expect(r.err.contains("cannot open X display"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: pkg)) == saved)
        #expect(try Data(contentsOf: URL(fileURLWithPath: src)) == original)
    }

    /// The package is made before the window opens; when the window cannot open, the package
    /// (still exactly as imported) is removed again: nothing is left behind, the source keeps the ink.
    @Test func aWindowThatCannotOpenLeavesNoPackageBehind() throws {
        let dir = TempDir()
        let src = dir.path("formula.inkml")
        try FileManager.default.copyItem(atPath: Self.inkml.path, toPath: src)
        let r = try edit(src)
        #expect(r.status != 0 && r.out.contains("into formula.iink") && r.err.contains("cannot open X display"), "\(r)")
        #expect(r.err.contains("removed formula.iink again"), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["formula.inkml"])
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
