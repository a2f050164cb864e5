import Foundation
import Quire

/// What the notebook's commands need from the window.
protocol NotebookHost: AnyObject {
    func show(_ text: String, seconds: TimeInterval)
    /// The page shown, the pages or the file changed: the title, the strip and the overlays follow.
    func notebookChanged()
    /// A menu of commands (new page types, the File menu), at a canvas point (nil: top right).
    func openMenu(title: String, items: [OverlayMenu.Item], at p: Point?)
    func openFileChooser(_ mode: FileChooserMode)
    func toggleStrip()
}

/// Carries out page and file commands on the document session's notebook: moving between pages,
/// adding, duplicating, deleting and reordering them, New, Open, Save As, and exports.
final class NotebookController {
    let view: EditorView
    let session: DocumentSession
    weak var host: NotebookHost?
    /// Imports another program's ink into a new package beside it: (package path, a note), or nil
    /// when the file is a package. The CLI gives its `quire edit` import; nil: only packages open.
    var importer: ((String) throws -> (path: String, note: String)?)?

    init(view: EditorView, session: DocumentSession) {
        self.view = view
        self.session = session
    }

    private var editor: Editor { view.editor }

    /// "page 2 of 5".
    var pageLabel: String {
        guard let nb = session.notebook else { return "" }
        return "page \(nb.currentIndex + 1) of \(nb.pageCount)"
    }

    /// The window's title: the file and the page.
    var title: String { "Quire - \(session.fileName) - \(pageLabel)" }

    private func show(_ text: String, seconds: TimeInterval = 5) { host?.show(text, seconds: seconds) }

    // MARK: pages

    func perform(_ command: PageCommand) {
        if case .toggleStrip = command { host?.toggleStrip(); return }
        guard let nb = session.notebook else { return }
        view.router.cancelAll()
        do {
            switch command {
            case .next:
                if try !nb.next() { show("This is the last page (Pages, then New, adds one).", seconds: 3) }
            case .previous:
                if try !nb.previous() { show("This is the first page.", seconds: 3) }
            case .goTo(let i): try nb.goTo(i)
            case .add(nil):
                let items = Notebook.pageTypes.map { OverlayMenu.Item(label: $0.rawValue, action: .page(.add($0)), enabled: true) }
                host?.openMenu(title: "New page", items: items, at: nil)
                return
            case .add(let type?):
                try nb.addPage(type: type)
                session.contentChanged()
            case .duplicate:
                try nb.duplicatePage()
                session.contentChanged()
            case .delete:
                let n = nb.currentIndex + 1
                try nb.deletePage()
                session.contentChanged()
                show("Deleted page \(n). Undo brings it back until the notebook is saved.")
            case .restore:
                if try nb.restoreDeletedPage() { session.contentChanged() }
            case let .move(from, to):
                try nb.movePage(from: from, to: to)
                session.contentChanged()
            case .toggleStrip: break
            }
        } catch { show(CommandDispatcher.message(error)) }
        host?.notebookChanged()
    }

    /// Undo right after a page was deleted, or with nothing left to undo on the page, brings back
    /// the latest deleted page.
    func restoreInsteadOfUndo() -> Bool {
        guard let nb = session.notebook, nb.deletionIsLatestStep || (!editor.canUndo && nb.canRestoreDeletedPage) else { return false }
        perform(.restore)
        return true
    }

    // MARK: search

    /// The search bar, where the window has one.
    var search: SearchBarController?

    func perform(_ command: SearchCommand) {
        guard let search, let nb = session.notebook else { return }
        switch command {
        case .open:
            if !search.isOpen { search.open(width: Double(view.size.width)) }
            search.showHits(page: nil)
        case .close:
            search.close()
        case .next, .previous:
            guard search.isOpen,
                  let hit = search.step(forward: command == .next, fromPage: nb.currentIndex, package: nb.package) else { return }
            if hit.partIndex != nb.currentIndex {
                view.router.cancelAll()
                // The search itself is not recorded; the page it turns to is, as a page command.
                var failure: Error?
                let turn = { do { try nb.goTo(hit.partIndex) } catch { failure = error } }
                if let rec = editor.recorder, let record = AppCommand.page(.goTo(hit.partIndex)).sessionRecord(lastPoint: Point(x: 0, y: 0)) {
                    rec.command(record, perform: turn)
                } else {
                    turn()
                }
                if let failure {
                    show(CommandDispatcher.message(failure))
                    return
                }
                host?.notebookChanged()
            }
            reveal(hit.box, below: search.height)
            search.showHits(page: nb.currentIndex)
        }
    }

    /// Scrolls a box (model mm) into view when it is not, a third of the way down, clear of the
    /// bar `below` pixels high at the top.
    private func reveal(_ box: Rect, below top: Double) {
        let t = editor.viewTransform
        let r = t.apply(box)
        let w = Double(view.size.width), h = Double(view.size.height)
        var offset = editor.viewState.offset
        if r.y < top || r.maxY > h { offset.y = max(top + 10, h / 3) - box.y * t.scale }
        if r.x < 0 || r.maxX > w { offset.x = 20 - box.x * t.scale }
        // A scroll, so that a recording replays it.
        let old = editor.viewState.offset
        if offset != old { editor.scroll(by: Point(x: old.x - offset.x, y: old.y - offset.y)) }
    }

    // MARK: files

    func perform(_ command: FileCommand) {
        switch command {
        case .menu:
            let items = [
                OverlayMenu.Item(label: "New notebook", action: .file(.new), enabled: true),
                OverlayMenu.Item(label: "Open\u{2026}", action: .file(.open(nil)), enabled: true),
                OverlayMenu.Item(label: "Save as\u{2026}", action: .file(.saveAs(nil)), enabled: true),
            ] + ExportChoice.allCases.map { OverlayMenu.Item(label: $0.label, action: .file(.export($0)), enabled: true) }
            host?.openMenu(title: "File", items: items, at: nil)
        case .new:
            let folder = (session.path as NSString).deletingLastPathComponent
            let path = Self.freeName(in: folder, base: "Notebook")
            switchTo(path, create: true, note: "New notebook \((path as NSString).lastPathComponent) (Save as renames it).")
        case .open(nil): host?.openFileChooser(.open)
        case .open(let path?): open(path)
        case .saveAs(nil): host?.openFileChooser(.saveAs)
        case .saveAs(let path?): saveAs(path, replacing: false)
        case .replace(let path): saveAs(path, replacing: true)
        case .export(let choice): export(choice)
        }
    }

    private func open(_ path: String) {
        var target = path
        var note = ""
        do {
            if let imported = try importer?(path) {
                target = imported.path
                note = imported.note
            } else if !path.hasSuffix(".iink") {
                guard FileManager.default.fileExists(atPath: path) else { show("No such file: \(path)"); return }
            }
        } catch {
            show("Cannot open \((path as NSString).lastPathComponent): \(CommandDispatcher.message(error))")
            return
        }
        switchTo(target, create: false, note: note.isEmpty ? "Opened \((target as NSString).lastPathComponent)." : note)
    }

    /// Edits another notebook. A recording holds one package, so one under way ends here (what
    /// it holds so far stays playable) and the note says so; it goes on when the switch fails.
    private func switchTo(_ path: String, create: Bool, note: String) {
        view.router.cancelAll()
        let recorder = editor.recorder
        editor.recorder = nil
        do {
            try session.switchTo(path, create: create)
            var stopped = ""
            if let recorder {
                recorder.flush()
                stopped = "Recording stopped: \((recorder.path as NSString).lastPathComponent) holds the session up to here (a recording covers one notebook)."
            }
            show([note, session.openingNote, stopped].filter { !$0.isEmpty }.joined(separator: " "), seconds: stopped.isEmpty ? 5 : 10)
        } catch {
            editor.recorder = recorder
            show("Cannot open \((path as NSString).lastPathComponent): \(CommandDispatcher.message(error))")
        }
        host?.notebookChanged()
    }

    /// Saves under `path`; an existing other file only once the user chose to replace it. The
    /// package is written beside it and renamed over it, so a failed write leaves it whole.
    private func saveAs(_ path: String, replacing: Bool) {
        var target = (path as NSString).expandingTildeInPath
        if (target as NSString).pathExtension.isEmpty { target += ".iink" }
        let absolute = URL(fileURLWithPath: target).standardizedFileURL.path
        if !replacing, absolute != session.path, FileManager.default.fileExists(atPath: absolute) {
            show("\((absolute as NSString).lastPathComponent) already exists: choose another name.")
            return
        }
        do {
            try session.saveAs(absolute)
            show("Saved as \(session.fileName)")
        } catch { show("Save as failed: \(CommandDispatcher.message(error))") }
        host?.notebookChanged()
    }

    /// Writes an export beside the package: the notebook as `name.pdf`, `name.txt`, `name.md`,
    /// the page shown as `name-page3.png` or `.svg`.
    func export(_ choice: ExportChoice) {
        guard let nb = session.notebook else { return }
        let page = "-page\(nb.currentIndex + 1)"
        let path: String
        let write: (String) throws -> Void
        switch choice {
        case .notebookPDF: path = session.exportBase(suffix: "") + ".pdf"; write = { try nb.export(to: $0, mimeType: .pdf) }
        case .notebookText: path = session.exportBase(suffix: "") + ".txt"; write = { try nb.export(to: $0, mimeType: .text) }
        case .notebookMarkdown: path = session.exportBase(suffix: "") + ".md"; write = { try nb.export(to: $0, mimeType: .markdown) }
        case .pagePNG: path = session.exportBase(suffix: page) + ".png"; write = { [editor] in try editor.export(nil, to: $0, mimeType: .png) }
        case .pageSVG: path = session.exportBase(suffix: page) + ".svg"; write = { [editor] in try editor.export(nil, to: $0, mimeType: .svg) }
        }
        do {
            try write(path)
            show("Exported \((path as NSString).lastPathComponent)")
        } catch { show("Export failed: \(CommandDispatcher.message(error))") }
    }

    /// `Notebook.iink`, else `Notebook 2.iink`, ...: the first name with neither a file nor a
    /// package's working folder.
    static func freeName(in folder: String, base: String) -> String {
        var n = 1
        while true {
            let path = (folder as NSString).appendingPathComponent(n == 1 ? "\(base).iink" : "\(base) \(n).iink")
            if !FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: path + "-files") { return path }
            n += 1
        }
    }
}
