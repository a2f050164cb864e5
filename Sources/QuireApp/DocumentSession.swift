import Foundation
import Quire

/// The document a window edits: its package, the part shown, unsaved changes, autosave and the
/// recovery of what an unclean exit left behind. Knows nothing of windows, so a window with
/// several editors (a form's fields) or an inspector can share one session.
final class DocumentSession {
    let package: ContentPackage
    /// The part the window shows.
    let part: ContentPart
    /// A note for the user about how the document was opened (a recovery), or "".
    let openingNote: String
    /// Seconds without changes before the working state is autosaved.
    var autosaveIdle: TimeInterval = 3
    /// When the first change since the last save or autosave happened (nil: nothing unsaved).
    private(set) var dirtySince: Date?

    /// Opens (or creates) the package at `path`, or the notebook in $XDG_DATA_HOME/quire, and picks
    /// its part: the first Text Document, else the first part; an empty package gets a Text Document.
    init(engine: Engine, path: String?) throws {
        let file: String
        if let path { file = path } else {
            try? FileManager.default.createDirectory(atPath: XDG.dataDir, withIntermediateDirectories: true)
            file = XDG.dataDir + "/notes.iink"
        }
        let pkg = try engine.openPackage(file, openOption: .create)
        var chosen: ContentPart?
        for i in 0..<pkg.partCount {
            let p = try pkg.part(at: i)
            if p.kind == .textDocument { chosen = p; break }
            if chosen == nil { chosen = p }
        }
        part = try chosen ?? pkg.createPart(type: PartType.textDocument.rawValue)
        package = pkg
        openingNote = pkg.recoveredFromTemp ? "Recovered unsaved changes after an unclean exit." : ""
    }

    var path: String { package.path }
    var fileName: String { URL(fileURLWithPath: package.path).lastPathComponent }

    /// Something changed: autosave counts idle time from now.
    func contentChanged() { dirtySince = Date() }

    var hasUnsavedChanges: Bool { dirtySince != nil }

    /// True once the changes have waited `autosaveIdle` seconds.
    func autosaveDue(now: Date = Date()) -> Bool {
        guard let since = dirtySince else { return false }
        return now.timeIntervalSince(since) >= autosaveIdle
    }

    /// Saves the working state to the package's temp folder (what recovery reads), not the file.
    func autosave() throws {
        guard dirtySince != nil else { return }
        try package.saveToTemp()
        dirtySince = nil
    }

    func save() throws {
        try package.save()
        dirtySince = nil
    }

    /// Saves on the way out; when the file cannot be written the temp snapshot still holds
    /// everything, and the next start recovers it. Returns the error, if any.
    func saveForExit() -> Error? {
        do { try package.save(); return nil } catch {
            try? package.saveToTemp()
            return error
        }
    }

    func close() { package.close() }

    /// The path, without extension, of a block's export beside the package.
    func exportBase(for blockId: String) -> String {
        let url = URL(fileURLWithPath: package.path)
        return url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + "-" + blockId).path
    }
}
