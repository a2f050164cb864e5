import Foundation
import Quire

/// The notebook's pieces of the window: the page strip at the right of the canvas, the file
/// chooser over the canvas, and the controller of page and file commands. `AppWindow` hands them
/// the events of their windows and asks where the canvas goes.
final class NotebookWindow {
    let controller: NotebookController
    let strip: PageStripController
    let chooser: FileChooserController
    let search: SearchBarController
    private let stripWindow: PaintedWindow
    private let chooserWindow: PaintedWindow
    private let searchWindow: PaintedWindow
    private let view: EditorView
    private let session: DocumentSession
    /// Runs a command the strip or the chooser made.
    var perform: (AppCommand) -> Void = { _ in }

    init(view: EditorView, session: DocumentSession, stripWindow: PaintedWindow, chooserWindow: PaintedWindow,
         searchWindow: PaintedWindow, scale: Double) {
        self.view = view
        self.session = session
        self.stripWindow = stripWindow
        self.chooserWindow = chooserWindow
        self.searchWindow = searchWindow
        controller = NotebookController(view: view, session: session)
        strip = PageStripController(layout: PageStripLayout(scale: scale), window: stripWindow)
        chooser = FileChooserController(window: chooserWindow, scale: scale)
        search = SearchBarController(window: searchWindow, view: view, scale: scale)
        controller.search = search
    }

    private var pageCount: Int { session.notebook?.pageCount ?? 0 }

    /// The width the strip takes from the canvas.
    var stripWidth: Double { strip.visible ? strip.layout.width : 0 }

    /// Lays the strip out beside a canvas area (pixels of the top-level window below the toolbar).
    func layout(top: Double, width: Double, height: Double) {
        strip.setFrame(Rect(x: width - strip.layout.width, y: top, width: strip.layout.width, height: max(1, height)))
        if let n = session.notebook { strip.follow(n.currentIndex, pages: n.pageCount) }
        if search.isOpen { search.open(width: Double(view.size.width)) }
    }

    /// Another page (or file) is shown: the search hits framed are that page's.
    func pageShown() { search.showHits(page: nil) }

    func owns(_ window: WindowID) -> Bool { window == stripWindow.id || window == chooserWindow.id || window == searchWindow.id }

    /// Opens the chooser over the whole canvas, in the package's folder.
    func openChooser(_ mode: FileChooserMode, recent: [String]) {
        let folder = (session.path as NSString).deletingLastPathComponent
        let name = mode == .saveAs ? URL(fileURLWithPath: session.path).deletingPathExtension().lastPathComponent + " copy" : ""
        let model = FileChooserModel(mode: mode, folder: folder, recent: recent.filter { $0 != session.path }, name: name,
                                     ownPath: session.path)
        chooser.open(model, frame: Rect(x: 0, y: 0, width: Double(view.size.width), height: Double(view.size.height)))
    }

    /// Events on the strip's or the chooser's window (`owns`).
    func handlePointer(_ e: PointerInput) {
        if e.window == searchWindow.id { return }
        let button1 = e.isTouch || e.detail == 1
        if !e.isTouch, e.phase == .buttonPress, (4...5).contains(e.detail) {
            let dy = (e.detail == 4 ? -48 : 48) * view.scale
            if e.window == chooserWindow.id { chooser.wheel(by: dy) } else { strip.wheel(by: dy, pages: pageCount) }
            return
        }
        guard button1 || e.isMotion else { return }
        if e.window == chooserWindow.id {
            if e.isPress { chooser.pressed(at: e.point) }
            if e.isMotion { chooser.moved(to: e.point) }
            if e.isRelease, let c = chooser.released(at: e.point) { perform(c) }
            return
        }
        if e.isPress { strip.pressed(at: e.point, pages: pageCount, touch: e.isTouch) }
        if e.isMotion { strip.moved(to: e.point, pages: pageCount) }
        if e.isRelease, let c = strip.released(at: e.point, pages: pageCount) { perform(c) }
    }

    /// A key for the chooser or the search bar while open; false: the key is the window's
    /// (shortcuts stay the window's while searching).
    func handleKey(_ k: KeyInput) -> Bool {
        if chooser.isOpen {
            if let c = chooser.key(k) { perform(c) }
            return true
        }
        guard search.isOpen, !k.ctrl, let pkg = session.notebook?.package else { return false }
        if let c = search.key(k, package: pkg) { perform(.search(c)) }
        return true
    }

    func expose(_ window: WindowID) {
        if window == chooserWindow.id { chooser.paint() } else if window == searchWindow.id { search.paint() } else { paint(force: true) }
    }

    /// Repaints the strip when something it shows changed.
    func paint(force: Bool = false) {
        guard let n = session.notebook else { return }
        strip.paint(notebook: n, pageWidth: Double(view.size.width) / view.editor.pixelsPerMillimetre, theme: view.renderer.theme,
                    busy: view.editor.hasActivePointers, force: force)
    }
}
