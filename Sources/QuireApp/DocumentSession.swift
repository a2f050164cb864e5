import Foundation
import Quire

/// The document a window edits: its package (a notebook of pages), unsaved changes, autosave,
/// the recovery of what an unclean exit left behind, and switching to another file (New, Open,
/// Save As). Knows nothing of windows, so a window with several editors (a form's fields) or an
/// inspector can share one session.
final class DocumentSession {
    let engine: Engine
    private(set) var package: ContentPackage
    /// The pages on the window's editor, once `attach` gave it one.
    private(set) var notebook: Notebook?
    /// A note for the user about how the document was opened (a recovery), or "".
    private(set) var openingNote: String
    /// Seconds without changes before the working state is autosaved.
    var autosaveIdle: TimeInterval = 3
    /// When the first change since the last save or autosave happened (nil: nothing unsaved).
    private(set) var dirtySince: Date?
    /// Where opened and saved files are remembered (nil: nowhere, as in tests and replays).
    var recent: RecentFiles?
    /// The page shown first: the first Text Document, else the first part.
    private let firstPart: ContentPart

    /// Opens (or creates) the package at `path`, or the notebook in $XDG_DATA_HOME/quire, and picks
    /// its part: the first Text Document, else the first part; an empty package gets a Text Document.
    init(engine: Engine, path: String?) throws {
        self.engine = engine
        let file: String
        if let path { file = path } else {
            try? FileManager.default.createDirectory(atPath: XDG.dataDir, withIntermediateDirectories: true)
            file = XDG.dataDir + "/notes.iink"
        }
        (package, firstPart, openingNote) = try Self.open(engine, file, option: .create)
    }

    private static func open(_ engine: Engine, _ file: String, option: PackageOpenOption) throws -> (ContentPackage, ContentPart, String) {
        let pkg = try engine.openPackage(file, openOption: option)
        do {
            let first = try Notebook.firstTextDocument(pkg).map { try pkg.part(at: $0) }
            let part = try first ?? (pkg.partCount > 0 ? pkg.part(at: 0) : pkg.createPart(type: PartType.textDocument.rawValue))
            return (pkg, part, pkg.recoveredFromTemp ? "Recovered unsaved changes after an unclean exit." : "")
        } catch {
            pkg.close()
            throw error
        }
    }

    /// The part the window shows.
    var part: ContentPart { notebook?.currentPage ?? firstPart }

    /// Shows the notebook's first page on `editor`.
    func attach(_ editor: Editor) throws {
        notebook = try Notebook(package: package, editor: editor, page: package.index(of: firstPart))
        recent?.add(package.path)
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
        notebook?.saved()
        dirtySince = nil
        recent?.add(package.path)
    }

    /// Saves under another name; the window then edits that file (its autosave and recovery
    /// move with it).
    func saveAs(_ newPath: String) throws {
        try package.saveAs(newPath)
        notebook?.saved()
        dirtySince = nil
        recent?.add(package.path)
    }

    /// Saves this notebook and edits the one at `newPath` instead (created when missing with
    /// `create`), on the same editor. Nothing changes when the other file cannot be opened or
    /// this one cannot be saved.
    func switchTo(_ newPath: String, create: Bool) throws {
        let absolute = URL(fileURLWithPath: newPath).standardizedFileURL.path
        guard absolute != package.path else { return }
        let (pkg, first, note) = try Self.open(engine, absolute, option: create ? .createNew : .existing)
        do { try package.save() } catch {
            pkg.close()
            throw error
        }
        let editor = notebook?.editor
        let old = package
        package = pkg
        dirtySince = nil
        if let editor {
            try? editor.waitForIdle()
            do { notebook = try Notebook(package: pkg, editor: editor, page: pkg.index(of: first)) } catch {
                package = old
                pkg.close()
                throw error
            }
        }
        old.close()
        openingNote = note
        recent?.add(pkg.path)
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
        exportBase(suffix: "-" + blockId)
    }

    /// The package's path without its extension, with `suffix` appended.
    func exportBase(suffix: String) -> String {
        let url = URL(fileURLWithPath: package.path)
        return url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + suffix).path
    }
}
