import Foundation
import InkFormats
import Quire

/// What the file chooser is for.
enum FileChooserMode: Equatable, Sendable {
    case open, saveAs
}

/// One entry of the chooser's list.
struct FileChooserEntry: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case folder, notebook, importable(String) }
    var name: String
    var path: String
    var kind: Kind
    /// Grey text beside the name (the format, or a recent file's folder).
    var detail: String
}

/// The file chooser's state without a window: the folder shown (or the recent files), its
/// entries (folders, Quire packages and the ink files Quire imports, found by content), and the
/// name typed when saving.
struct FileChooserModel: Sendable {
    let mode: FileChooserMode
    private(set) var folder: String
    /// True while the recent files are listed instead of a folder.
    private(set) var showingRecent: Bool
    private(set) var entries: [FileChooserEntry] = []
    /// The file name being saved as.
    var name: String
    let recent: [String]
    /// The notebook's own file: saving onto it just saves, without asking.
    let ownPath: String
    /// The existing file the user is being asked to replace (saving), else nil.
    private(set) var replacing: String?

    init(mode: FileChooserMode, folder: String, recent: [String], name: String = "", ownPath: String = "") {
        self.mode = mode
        self.folder = folder
        self.recent = recent
        self.name = name
        self.ownPath = ownPath
        showingRecent = mode == .open && !recent.isEmpty
        reload()
    }

    /// The title line.
    var title: String { mode == .open ? "Open a notebook or ink file" : "Save the notebook as" }
    /// The line under it.
    var location: String { showingRecent ? "Recent notebooks" : folder }

    mutating func showRecent() {
        guard !recent.isEmpty else { return }
        showingRecent = true
        reload()
    }

    mutating func enter(_ path: String) {
        folder = URL(fileURLWithPath: path).standardizedFileURL.path
        showingRecent = false
        reload()
    }

    mutating func up() {
        if showingRecent { showingRecent = false; reload(); return }
        enter((folder as NSString).deletingLastPathComponent.isEmpty ? "/" : (folder as NSString).deletingLastPathComponent)
    }

    /// Choosing an entry: a folder is entered (nil); a file is the path to open, or, when saving,
    /// gives its name to the field (nil): a notebook's whole name (saving asks before replacing
    /// it), another program's file its name without the extension, so that the notebook goes
    /// beside it as `.iink` rather than over it.
    mutating func choose(_ index: Int) -> String? {
        guard entries.indices.contains(index) else { return nil }
        let e = entries[index]
        switch e.kind {
        case .folder:
            enter(e.path)
            return nil
        case .notebook, .importable:
            if mode == .open { return e.path }
            name = e.kind == .notebook ? e.name : (e.name as NSString).deletingPathExtension
            return nil
        }
    }

    /// Save pressed: the command that saves (`saveAs` where no other file is in the way, the
    /// notebook's own file included); nil when the name is not valid, or when a file of that
    /// name exists and `replacing` now names it, for the user to answer `answerReplace`.
    mutating func confirmSave() -> FileCommand? {
        guard mode == .saveAs, let path = savePath else { return nil }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if absolute != URL(fileURLWithPath: ownPath).standardizedFileURL.path, FileManager.default.fileExists(atPath: absolute) {
            replacing = absolute
            return nil
        }
        return .saveAs(absolute)
    }

    /// The answer to "Replace …?": Replace gives the command that saves over the file; Cancel
    /// (nil) goes back to the list with the name kept.
    mutating func answerReplace(_ replace: Bool) -> FileCommand? {
        defer { replacing = nil }
        return replace ? replacing.map { .replace($0) } : nil
    }

    /// The path to save to: the typed name in the folder shown, with `.iink` added when it has no
    /// extension; nil for an empty name or one naming a folder.
    var savePath: String? {
        let n = name.trimmingCharacters(in: .whitespaces)
        guard !n.isEmpty, !n.contains("/"), n != ".", n != ".." else { return nil }
        let file = (n as NSString).pathExtension.isEmpty ? n + ".iink" : n
        return (folder as NSString).appendingPathComponent(file)
    }

    mutating func reload() {
        entries = showingRecent ? recent.map(Self.recentEntry) : Self.list(folder)
    }

    private static func recentEntry(_ path: String) -> FileChooserEntry {
        FileChooserEntry(name: (path as NSString).lastPathComponent, path: path, kind: .notebook,
                         detail: (path as NSString).deletingLastPathComponent)
    }

    /// File extensions worth reading the head of: what Quire imports is then told by content.
    static let importExtensions: Set<String> = ["xopp", "xoj", "inkml", "ink", "xml", "json", "jsonl", "gz"]

    /// A folder's entries: folders, then files Quire opens, each sorted by name; hidden entries
    /// and packages' working folders are left out.
    static func list(_ folder: String) -> [FileChooserEntry] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return [] }
        var folders: [FileChooserEntry] = [], files: [FileChooserEntry] = []
        for name in names where !name.hasPrefix(".") && !name.hasSuffix(".iink-files") {
            let path = (folder as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
            if isDir.boolValue {
                folders.append(FileChooserEntry(name: name, path: path, kind: .folder, detail: ""))
            } else if name.hasSuffix(".iink") {
                files.append(FileChooserEntry(name: name, path: path, kind: .notebook, detail: "Quire notebook"))
            } else if importExtensions.contains((name as NSString).pathExtension.lowercased()),
                      let format = try? FormatDetector.detect(path: path) {
                switch format {
                case .inkml, .xournal, .quireJSON:
                    files.append(FileChooserEntry(name: name, path: path, kind: .importable(format.description), detail: format.description))
                default: break
                }
            }
        }
        let byName: (FileChooserEntry, FileChooserEntry) -> Bool = { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        return folders.sorted(by: byName) + files.sorted(by: byName)
    }
}

/// Quire's own file chooser (the app uses no toolkit): a panel over the canvas with finger-sized
/// rows, a tap to enter a folder or choose a file, a drag to scroll, and, when saving, a name
/// typed on the keyboard (a pen user can keep the name proposed).
final class FileChooserController {
    private let window: PaintedWindow
    let scale: Double
    private(set) var model: FileChooserModel?
    private var size: (width: Double, height: Double) = (1, 1)
    private var scrollY: Double = 0
    private var press: (at: Point, scrollY: Double, dragging: Bool, button: Button?)?

    enum Button: String, CaseIterable, Sendable {
        case recent, up, home, cancel, confirm
        /// The "Replace …?" dialog's answers.
        case replace, keep
    }

    init(window: PaintedWindow, scale: Double) {
        self.window = window
        self.scale = scale
    }

    var isOpen: Bool { model != nil }

    func open(_ model: FileChooserModel, frame: Rect) {
        self.model = model
        scrollY = 0
        size = (frame.width, frame.height)
        window.setFrame(frame)
        window.showRaised()
        paint()
    }

    func close() {
        guard model != nil else { return }
        model = nil
        press = nil
        window.hide()
    }

    // MARK: layout (pixels of the chooser)

    private var rowHeight: Double { 46 * scale }
    private var buttonsY: Double { 56 * scale }
    private var fieldFrame: Rect? {
        model?.mode == .saveAs ? Rect(x: 14 * scale, y: buttonsY + 48 * scale, width: size.width - 28 * scale, height: 38 * scale) : nil
    }
    var listArea: Rect {
        let top = (fieldFrame?.maxY ?? buttonsY + 40 * scale) + 10 * scale
        return Rect(x: 14 * scale, y: top, width: size.width - 28 * scale, height: max(rowHeight, size.height - top - 14 * scale))
    }

    private func label(_ b: Button) -> String {
        switch b {
        case .recent: "Recent"
        case .up: "Up"
        case .home: "Home"
        case .cancel: "Cancel"
        case .confirm: "Save"
        case .replace: "Replace"
        case .keep: "Cancel"
        }
    }

    /// The "Replace …?" dialog over the list, pen-sized, while it is asked.
    var dialogFrame: Rect? {
        guard model?.replacing != nil else { return nil }
        let w = min(size.width - 28 * scale, 480 * scale), h = 150 * scale
        return Rect(x: (size.width - w) / 2, y: max(buttonsY, (size.height - h) / 2), width: w, height: h)
    }

    /// The buttons that take taps: the dialog's alone while it is shown.
    func buttonFrames() -> [(Button, Rect)] {
        guard let d = dialogFrame else { return barButtonFrames() }
        let w = 120 * scale, h = 44 * scale, y = d.maxY - h - 16 * scale
        return [(.keep, Rect(x: d.maxX - 2 * w - 26 * scale, y: y, width: w, height: h)),
                (.replace, Rect(x: d.maxX - w - 16 * scale, y: y, width: w, height: h))]
    }

    /// The row of buttons under the title.
    private func barButtonFrames() -> [(Button, Rect)] {
        guard let m = model else { return [] }
        let shown: [Button] = m.mode == .open ? [.recent, .up, .home, .cancel] : [.up, .home, .cancel, .confirm]
        var x = 14 * scale
        return shown.map { b in
            let w = max(84 * scale, ChromePainter.labelWidth(label(b), scale: scale) + 28 * scale)
            defer { x += w + 8 * scale }
            return (b, Rect(x: x, y: buttonsY, width: w, height: 38 * scale))
        }
    }

    func rowFrame(_ i: Int) -> Rect {
        let a = listArea
        return Rect(x: a.x, y: a.y + Double(i) * rowHeight - scrollY, width: a.width, height: rowHeight)
    }

    private func row(at p: Point) -> Int? {
        guard let m = model, listArea.contains(p) else { return nil }
        let i = Int(((p.y - listArea.y + scrollY) / rowHeight).rounded(.down))
        return m.entries.indices.contains(i) ? i : nil
    }

    private var maxScroll: Double { max(0, Double(model?.entries.count ?? 0) * rowHeight - listArea.height) }

    // MARK: input

    func pressed(at p: Point) {
        press = (p, scrollY, false, buttonFrames().first { $0.1.contains(p) }?.0)
    }

    /// A drag on the list scrolls it.
    func moved(to p: Point) {
        guard var pr = press, pr.button == nil, model?.replacing == nil else { return }
        if !pr.dragging, abs(p.y - pr.at.y) > 10 * scale { pr.dragging = true }
        press = pr
        if pr.dragging {
            scrollY = max(0, min(maxScroll, pr.scrollY - (p.y - pr.at.y)))
            paint()
        }
    }

    func wheel(by dy: Double) {
        scrollY = max(0, min(maxScroll, scrollY + dy))
        paint()
    }

    /// A release: the command it makes (open or save a path), if any; the chooser closes itself
    /// for Cancel and stays open while folders are entered.
    func released(at p: Point) -> AppCommand? {
        guard let pr = press, var m = model else { return nil }
        press = nil
        if let b = pr.button {
            guard buttonFrames().first(where: { $0.1.contains(p) })?.0 == b else { return nil }
            return act(b, &m)
        }
        guard m.replacing == nil, !pr.dragging, let i = row(at: p), row(at: pr.at) == i else { return nil }
        let enteredFolder = m.entries[i].kind == .folder
        let chosen = m.choose(i)
        model = m
        if enteredFolder { scrollY = 0 }
        if let path = chosen {
            close()
            return .file(.open(path))
        }
        paint()
        return nil
    }

    private func act(_ b: Button, _ m: inout FileChooserModel) -> AppCommand? {
        switch b {
        case .recent: m.showRecent()
        case .up: m.up()
        case .home: m.enter(NSHomeDirectory())
        case .cancel:
            close()
            return nil
        case .confirm, .replace, .keep:
            let command = b == .confirm ? m.confirmSave() : m.answerReplace(b == .replace)
            guard let command else {
                model = m
                paint()
                return nil
            }
            close()
            return .file(command)
        }
        model = m
        scrollY = 0
        paint()
        return nil
    }

    /// Keys while open: typing edits the name (saving), Enter confirms, Esc cancels; while
    /// "Replace …?" is asked, Enter replaces and Esc goes back to the list.
    func key(_ k: KeyInput) -> AppCommand? {
        guard var m = model else { return nil }
        if m.replacing != nil {
            switch k.key {
            case .escape: return act(.keep, &m)
            case .enter: return act(.replace, &m)
            default: return nil
            }
        }
        switch k.key {
        case .escape:
            close()
            return nil
        case .enter:
            return m.mode == .saveAs ? act(.confirm, &m) : nil
        case .backspace:
            if m.mode == .saveAs, !m.name.isEmpty { m.name.removeLast() }
        default:
            if m.mode == .saveAs, !k.ctrl, KeyMap.isPrintable(k.text) { m.name += k.text }
        }
        model = m
        paint()
        return nil
    }

    // MARK: painting

    func paint() {
        guard let m = model else { return }
        let rows = m.entries.indices.compactMap { i -> FileChooserRow? in
            let f = rowFrame(i)
            guard f.maxY >= listArea.y, f.y <= listArea.maxY else { return nil }
            let e = m.entries[i]
            return FileChooserRow(frame: f, label: e.name, detail: e.detail, folder: e.kind == .folder,
                                  highlighted: m.mode == .saveAs && e.kind != .folder && e.name == m.name)
        }
        let buttons = barButtonFrames().map { b, f in
            ChromeButton(id: b.rawValue, label: label(b), frame: f, active: b == press?.button,
                         enabled: b == .recent ? !m.recent.isEmpty : b == .confirm ? m.savePath != nil : true)
        }
        let dialog = dialogFrame.map { frame in
            let name = ((m.replacing ?? "") as NSString).lastPathComponent
            return ChromeDialog(frame: frame, title: "Replace \u{201C}\(name)\u{201D}?",
                                detail: "It is already in this folder: Replace writes this notebook over it.",
                                buttons: buttonFrames().map { ChromeButton(id: $0.0.rawValue, label: label($0.0), frame: $0.1, active: $0.0 == press?.button) })
        }
        NotebookPainter.drawFileChooser(on: window.surface, width: size.width, height: size.height, scale: scale, title: m.title,
                                        location: m.location, buttons: buttons, field: fieldFrame.map { ($0, m.name) },
                                        rows: rows, listArea: listArea, theme: .default, dialog: dialog)
    }
}
