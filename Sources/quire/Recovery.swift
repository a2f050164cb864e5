import ArgumentParser
import Foundation
import Quire
import QuireApp

/// How commands that read a package treat the desktop app's crash-recovery snapshot. The app
/// autosaves into `$XDG_STATE_HOME/quire/autosave`, where a plain engine does not look: without
/// this, a user checking a file from a terminal after a crash would see only the last save.
struct RecoveryOptions: ParsableArguments {
    @Flag(help: "Read the newer recovery snapshot the app left after a crash instead of the package as saved.")
    var recover = false

    /// Opens `file`: with --recover, as the app would (recovering its snapshot); otherwise the
    /// archive as saved, with a note on standard error when the app holds newer, unsaved work.
    func open(_ file: String) throws -> (Engine, ContentPackage) {
        if recover {
            let engine = try makeAppEngine(warn: note)
            let pkg = try engine.openPackage(file)
            if pkg.recoveredFromTemp { note("read the recovery snapshot of '\(pkg.path)' (its unsaved changes), not the archive as saved") }
            return (engine, pkg)
        }
        let engine = try Engine()
        let pkg = try engine.openPackage(file)
        if let s = Self.appSnapshot(for: pkg.path) { note(Self.describe(s, file: pkg.path)) }
        return (engine, pkg)
    }

    /// The app's snapshot of `path` if it is newer than the archive.
    static func appSnapshot(for path: String) -> RecoverySnapshot? {
        guard let engine = try? makeAppEngine(warn: { _ in }) else { return nil }
        return ContentPackage.recoverySnapshot(forPackage: path, configuration: engine.configuration)
    }

    static func describe(_ s: RecoverySnapshot, file: String) -> String {
        let when = ISO8601DateFormatter().string(from: s.modified)
        let why = s.inUse ? "Quire has the package open now and has not saved it yet"
                          : "the app did not save before it exited (a crash?)"
        return "'\(file)' has newer unsaved changes in a recovery snapshot (\(s.path), revision \(s.revision) of \(when); the file holds revision \(s.archiveRevision)): \(why). "
            + "This shows the file as saved. Add --recover to read the snapshot, or run `quire recover \(file)` (or open it with `quire edit`) to save it into the file."
    }

    static func json(_ s: RecoverySnapshot?) -> JSONValue {
        guard let s else { return .null }
        return .object(["path": .string(s.path), "revision": .number(Double(s.revision)),
                        "archiveRevision": .number(Double(s.archiveRevision)),
                        "modified": .string(ISO8601DateFormatter().string(from: s.modified)), "inUse": .bool(s.inUse)])
    }

    func note(_ message: String) {
        FileHandle.standardError.write(Data("quire: note: \(message)\n".utf8))
    }
}

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "recover",
        abstract: "Save the recovery snapshot the app left after a crash into the package file.")
    @Argument(help: "The package file.") var file: String

    func run() throws {
        try runReporting {
            let engine = try makeAppEngine(warn: { FileHandle.standardError.write(Data("quire: \($0)\n".utf8)) })
            let pkg = try engine.openPackage(file)
            defer { pkg.close() }
            guard pkg.recoveredFromTemp else {
                print("nothing to recover: '\(pkg.path)' holds its latest content")
                return
            }
            try pkg.save()
            print("recovered the unsaved changes into '\(pkg.path)'")
        }
    }
}
