import Foundation
import Testing
@testable import Quire
import QuireApp

/// After a crash the app's newest work is in its recovery snapshot under
/// `$XDG_STATE_HOME/quire/autosave`, not in the package file: the CLI must say so, read it on
/// request, and never overwrite the file in a way that makes the snapshot look stale.
@Suite struct RecoveryCLITests {
    /// Leaves `file` as the app would after a crash: saved with one stroke, autosaved with three.
    private func crashedPackage(_ dir: TempDir, env: [String: String]) throws -> String {
        let file = dir.path("notes.iink")
        let autosave = env["XDG_STATE_HOME"]! + "/quire/autosave"
        try FileManager.default.createDirectory(atPath: autosave, withIntermediateDirectories: true)
        let conf = Configuration()
        try conf.setString(autosave, forKey: "content-package.temp-folder")
        let engine = try Engine(configuration: conf)
        let pkg = try engine.createPackage(file)
        let part = try pkg.createPart(type: "Drawing")
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        editor.recognizer = nil
        try editor.setViewSize(width: 400, height: 300)
        try editor.setPart(part)
        func stroke(_ y: Double) throws {
            try editor.pointerEvents([.down(x: 20, y: y), .move(x: 60, y: y + 5), .up(x: 90, y: y)])
        }
        try stroke(20)
        try pkg.save()
        try stroke(60); try stroke(100)
        try pkg.saveToTemp()
        try editor.setPart(nil)
        pkg.close()  // the snapshot stays: it is newer than the archive
        return file
    }

    @Test func infoExportRecognizeSayANewerSnapshotExistsAndRecoverReadsIt() throws {
        let dir = TempDir()
        let env = ["XDG_STATE_HOME": dir.path("state"), "XDG_CONFIG_HOME": dir.path("config")]
        let file = try crashedPackage(dir, env: env)

        let info = try runQuire(["info", file], environment: env)
        #expect(info.status == 0)
        #expect(info.out.contains("strokes=1"), "the file as saved")
        #expect(info.err.contains("newer unsaved changes") && info.err.contains("--recover") && info.err.contains("quire recover"), "\(info.err)")
        let json = try runQuire(["info", file, "--json"], environment: env)
        let parsed = try JSONValue.parse(Data(json.out.utf8))
        #expect(parsed["recoverySnapshot"]?["revision"]?.intValue == 3)
        #expect(parsed["recoverySnapshot"]?["inUse"] == .bool(false))

        for args in [["export", file, "--format", "json"], ["recognize", file]] {
            let r = try runQuire(args, environment: env)
            #expect(r.status == 0 && r.err.contains("newer unsaved changes"), "\(args): \(r.err)")
        }
        let recovered = try runQuire(["info", file, "--recover"], environment: env)
        #expect(recovered.status == 0 && recovered.out.contains("strokes=3"), "\(recovered.out) \(recovered.err)")

        // Saving over the file would hide the snapshot: convert refuses and writes nothing.
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let convert = try runQuire(["convert", file], environment: env)
        #expect(convert.status != 0 && convert.err.contains("Nothing was written"), "\(convert.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)

        let rec = try runQuire(["recover", file], environment: env)
        #expect(rec.status == 0 && rec.out.contains("recovered"), "\(rec.out) \(rec.err)")
        let after = try runQuire(["info", file], environment: env)
        #expect(after.out.contains("strokes=3") && !after.err.contains("newer unsaved changes"), "\(after.out) \(after.err)")
        #expect(try runQuire(["recover", file], environment: env).out.contains("nothing to recover"))
    }

    /// While the app has the package open, the snapshot is its autosave, and the note says so.
    @Test func aSnapshotOfAnOpenPackageIsReportedInUse() throws {
        let dir = TempDir()
        let env = ["XDG_STATE_HOME": dir.path("state"), "XDG_CONFIG_HOME": dir.path("config")]
        let file = try crashedPackage(dir, env: env)
        let conf = Configuration()
        try conf.setString(env["XDG_STATE_HOME"]! + "/quire/autosave", forKey: "content-package.temp-folder")
        let holder = try Engine(configuration: conf).openPackage(file)
        defer { holder.close() }
        let snap = try #require(ContentPackage.recoverySnapshot(forPackage: file, configuration: conf))
        #expect(snap.inUse && snap.revision == 3 && snap.archiveRevision == 2)
        let info = try runQuire(["info", file], environment: env)
        #expect(info.err.contains("has the package open now"), "\(info.err)")
    }
}
