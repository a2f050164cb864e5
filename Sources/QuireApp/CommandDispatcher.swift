import Foundation
import Quire

/// The CLIPBOARD as commands use it (X11's selections in the window; a dictionary in tests).
protocol ClipboardTransport: AnyObject {
    /// Takes the clipboard with these offers (by MIME type or X target name). False: not given.
    func own(_ offers: [String: Data], time: UInt) -> Bool
    /// Our own offer of a type, while we still own the clipboard.
    func ownedOffer(_ type: String) -> Data?
    /// Asks the clipboard's owner for its best pasteable type; `done` gets (type, data) or nil.
    func requestPaste(time: UInt, done: @escaping ((String, Data)?) -> Void)
}

/// What commands need from the window around the editor.
protocol CommandHost: AnyObject {
    /// A status message in the toolbar (also written to stderr).
    func show(_ text: String, seconds: TimeInterval)
    /// Starts asking for an image file's path.
    func promptForImage()
    func toggleFullscreen()
    /// Shows or hides the debug overlay and the inspector panel.
    func toggleInspector()
    /// Saves and leaves the event loop.
    func quit()
    func openContextMenu(at p: Point)
    func openCandidates(_ ref: WordRef, at p: Point)
    /// The selection or the words changed: the candidates bar follows.
    func overlaysChanged()
    /// Opens the pens' palette at a point of the canvas.
    func openPens(at p: Point)
    /// Opens the custom colour chooser at a point of the canvas.
    func openColourGrid(at p: Point)
}

extension CommandHost {
    func openPens(at p: Point) {}
    func openColourGrid(at p: Point) {}
}

/// Performs `AppCommand`s on the focused editor view and the document session.
final class CommandDispatcher {
    /// The view commands act on (the one with the keyboard focus).
    var view: EditorView
    let session: DocumentSession
    let clipboard: ClipboardTransport
    weak var host: CommandHost?
    /// Page and file commands (`QuireApp/Notebook/`); nil where there is no notebook (a replay).
    var notebook: NotebookController?
    /// UI scale (1 at 96 dpi): copied images are rendered at 96 × scale dpi.
    let scale: Double
    /// The pen's tool, as the toolbar shows it.
    private(set) var currentTool: Tool = .pen
    /// Where the pointer last was on the canvas: pastes and images go there.
    var lastPoint = Point(x: 40, y: 40)
    /// Window-system time of the latest input (the CLIPBOARD needs one).
    var lastServerTime: UInt = 0

    init(view: EditorView, session: DocumentSession, clipboard: ClipboardTransport, scale: Double) {
        self.view = view
        self.session = session
        self.clipboard = clipboard
        self.scale = scale
    }

    private var editor: Editor { view.editor }

    func perform(_ command: AppCommand) {
        // A recording gets the command, not what the editor does for it: replaying it does that.
        if let rec = editor.recorder, let record = command.sessionRecord(lastPoint: lastPoint) {
            rec.command(record) { run(command) }
        } else {
            run(command)
        }
    }

    private func run(_ command: AppCommand) {
        switch command {
        case .tool(let t): setTool(t)
        case .undo:
            view.router.cancelAll()
            if notebook?.restoreInsteadOfUndo() != true { editor.undo() }
        case .redo: view.router.cancelAll(); editor.redo()
        case .clear: view.router.cancelAll(); editor.clear()
        case .convert:
            view.router.cancelAll()
            do {
                try editor.waitForIdle()
                let target = editor.selection.first.flatMap { editor.getBlockById($0) }
                try editor.convert(target, targetState: .digitalEdit)
            } catch { show("Convert failed: \(Self.message(error))") }
        case .convertBlock(let id):
            attempt {
                guard let b = editor.getBlockById(id) else { return }
                try editor.waitForIdle()
                try editor.convert(b, targetState: .digitalEdit)
            }
        case .convertWord(let ref): attempt { try editor.convert(ref, targetState: .digitalEdit) }
        case .addTextBlock:
            view.router.cancelAll()
            addTextBlock()
        case .addMathBlock:
            view.router.cancelAll()
            addMathBlock()
        case .insertImage:
            view.router.cancelAll()
            host?.promptForImage()
        case .save:
            do { try session.save(); show("Saved \(session.fileName)") } catch { show("Save failed: \(Self.message(error))") }
        case .copy: if editor.selectedStrokes.isEmpty { copySelection() } else { copyLasso(cut: false) }
        case .cut: copyLasso(cut: true)
        case .convertSelection:
            view.router.cancelAll()
            attempt { try editor.convertSelection() }
        case let .penStyle(color, width): setPenStyle(color: color, width: width)
        case .pens(let p): host?.openPens(at: p ?? lastPoint)
        case .colourGrid(let p): host?.openColourGrid(at: p ?? lastPoint)
        case .paste(let p):
            if let p { lastPoint = p }
            pasteClipboard()
        case .removeBlock(nil) where !editor.selectedStrokes.isEmpty:
            attempt { try editor.deleteSelection() }
        case .removeBlock(let id):
            let block: ContentBlock? = if let id { editor.getBlockById(id) } else { selectedBlock() }
            guard let b = block else { return }
            do { try editor.removeBlock(b) } catch { show("Cannot remove: \(Self.message(error))") }
        case .removeWord(let ref): attempt { try editor.removeWord(ref) }
        case .exportBlock(let id): if let b = editor.getBlockById(id) { exportBlock(b) }
        case let .showCandidates(ref, p): host?.openCandidates(ref, at: p)
        case let .selectCandidate(ref, i): attempt { try editor.selectCandidate(ref, candidateIndex: i) }
        case .zoomIn: editor.zoom(by: 1.25, at: view.center)
        case .zoomOut: editor.zoom(by: 0.8, at: view.center)
        case .toggleFullscreen: host?.toggleFullscreen()
        case .toggleInspector: host?.toggleInspector()
        case .quit: host?.quit()
        case .clearSelection:
            editor.setSelection([])
            editor.selectedWord = nil
            host?.overlaysChanged()
        case .contextMenu(let p): host?.openContextMenu(at: p ?? lastPoint)
        case .typeText(let text): type(text)
        case .page(let c): notebook?.perform(c)
        case .file(let c): notebook?.perform(c)
        case .search(let c): notebook?.perform(c)
        }
    }

    /// Inserts an image file at the last pointer position (JPEG by its extension, else PNG).
    func insertImage(path: String) {
        let p = (path as NSString).expandingTildeInPath
        if let rec = editor.recorder, let data = FileManager.default.contents(atPath: p) {
            // The image itself: the file may be gone when the session is replayed.
            let record: JSONValue = .object(["c": .string("image"), "path": .string(p), "data": .string(data.base64EncodedString()),
                                             "x": .number(lastPoint.x), "y": .number(lastPoint.y)])
            rec.command(record) { insertImageNow(path: p) }
        } else {
            insertImageNow(path: p)
        }
    }

    private func insertImageNow(path p: String) {
        let lower = p.lowercased()
        let mime: MimeType = lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png
        do { _ = try editor.addImage(at: lastPoint, file: p, mimeType: mime) } catch { show("Cannot insert image: \(Self.message(error))") }
    }

    static func message(_ error: Error) -> String { (error as? QuireError)?.message ?? "\(error)" }

    private func show(_ text: String, seconds: TimeInterval = 5) { host?.show(text, seconds: seconds) }

    private func attempt(_ body: () throws -> Void) {
        do { try body() } catch { show(Self.message(error)) }
    }

    /// Where the pens' choices are kept (tests point it elsewhere).
    var pensPath = PenSettings.defaultPath

    /// Sets the current tool's colour and width, keeps them for the next session, and recolours
    /// the lasso selection when a colour was chosen.
    private func setPenStyle(color: String?, width: Float?) {
        let tool: Tool = currentTool == .highlighter ? .highlighter : .pen
        let tc = editor.toolController
        let old = tc.style(for: tool)
        let new = (color: color ?? old.color, width: width ?? old.width)
        tc.setStyle(color: new.color, width: new.width, for: tool)
        var saved = PenSettings.load(path: pensPath)
        saved.styles[tool.rawValue] = .init(color: new.color, width: new.width)
        // A colour from outside the fixed palette (the chooser's grid) becomes the custom one,
        // offered in the palette from now on.
        if let color, !color.isEmpty, !PenPalette.isPreset(color, tool: tool, theme: view.renderer.theme) { saved.custom = color }
        do { try saved.save(path: pensPath) } catch { show("Cannot keep the pen's style: \(Self.message(error))") }
        if let color, editor.hasSelection, !editor.selectedStrokes.isEmpty || currentTool == .selector {
            attempt { try editor.recolorSelection(color) }
        }
    }

    private func copyLasso(cut: Bool) {
        guard editor.hasSelection else { show("Draw a lasso around what to \(cut ? "cut" : "copy")."); return }
        do {
            var offers: [String: Data] = [MimeType.quireClipboard.typeName: try editor.copySelectionData()]
            if let text = try? editor.selectionText(), !text.isEmpty {
                offers["UTF8_STRING"] = Data(text.utf8)
                offers["text/plain;charset=utf-8"] = Data(text.utf8)
            }
            if let png = try? editor.selectionPNG(dpi: 96 * scale) { offers["image/png"] = png }
            guard clipboard.own(offers, time: lastServerTime) else { show("Could not take the clipboard."); return }
            if cut { try editor.deleteSelection() }
            show(cut ? "Cut." : "Copied.", seconds: 2)
        } catch { show("Cannot \(cut ? "cut" : "copy"): \(Self.message(error))") }
    }

    private func setTool(_ tool: Tool) {
        currentTool = tool
        editor.toolController.setTool(tool, for: .pen)
        if editor.configuration[.inputMouseTool] == "pen" {
            editor.toolController.setTool(tool, for: .mouse)
        }
    }

    func selectedBlock() -> ContentBlock? {
        editor.selection.sorted().first.flatMap { editor.getBlockById($0) }
    }

    private func addTextBlock() {
        do {
            // An empty Text block below everything; typing fills it.
            let bottom = editor.rootBlock?.children.map(\.box.maxY).max() ?? 0
            let at = editor.viewTransform.apply(Point(x: 5, y: bottom + 6))
            let b = try editor.addBlock(at: at, type: BlockType.text.rawValue)
            editor.setSelection([b.id])
            show("Type to add text to the new block.")
        } catch { show("Cannot add a text block: \(Self.message(error))") }
    }

    private func addMathBlock() {
        do {
            // An empty Math block below everything, a line tall and the page wide: write in it.
            let bottom = editor.rootBlock?.children.map(\.box.maxY).max() ?? 0
            let at = editor.viewTransform.apply(Point(x: 5, y: bottom + 6))
            let b = try editor.addBlock(at: at, type: BlockType.math.rawValue)
            editor.setSelection([b.id])
            show("Write math in the new block; = at the end shows the result.")
        } catch { show("Cannot add a math block: \(Self.message(error))") }
    }

    private func type(_ text: String) {
        guard editor.part?.kind == .textDocument else { return }
        guard text != "\u{8}" || selectedBlock() != nil else { return }
        do {
            let b = try editor.typeText(text, into: selectedBlock())
            editor.setSelection([b.id])
        } catch { show("Cannot type here: \(Self.message(error))") }
    }

    private func exportBlock(_ b: ContentBlock) {
        let base = session.exportBase(for: b.id)
        do {
            try editor.export(b, to: base + ".png", mimeType: .png)
            var names = [(base as NSString).lastPathComponent + ".png"]
            if let text = try? editor.export(b, mimeType: .text), !text.isEmpty {
                try editor.export(b, to: base + ".txt", mimeType: .text)
                names.append((base as NSString).lastPathComponent + ".txt")
            }
            show("Exported " + names.joined(separator: " and "))
        } catch { show("Export failed: \(Self.message(error))") }
    }

    // MARK: clipboard

    private func copySelection() {
        guard let b = selectedBlock() else { show("Select a block to copy (tap it, or draw a lasso)."); return }
        do {
            var offers: [String: Data] = [MimeType.quireClipboard.typeName: try editor.copyData(b)]
            let text = (try? editor.export(b, mimeType: .text)) ?? b.text
            if !text.isEmpty {
                offers["UTF8_STRING"] = Data(text.utf8)
                offers["text/plain;charset=utf-8"] = Data(text.utf8)
            }
            // Math as LaTeX and MathML text, for editors and office programs that take them.
            for (type, data) in editor.mathClipboardOffers(b) { offers[type] = data }
            if let png = try? editor.exportImageData(b, mimeType: .png, dpi: 96 * scale) { offers["image/png"] = png }
            if clipboard.own(offers, time: lastServerTime) { show("Copied.", seconds: 2) } else { show("Could not take the clipboard.") }
        } catch { show("Cannot copy: \(Self.message(error))") }
    }

    private func pasteClipboard() {
        let at = lastPoint
        if let data = clipboard.ownedOffer(MimeType.quireClipboard.typeName) {
            paste(type: MimeType.quireClipboard.typeName, data: data, at: at)
            return
        }
        clipboard.requestPaste(time: lastServerTime) { [weak self] result in
            guard let self else { return }
            guard let (type, data) = result else { self.show("Nothing to paste (or the clipboard owner did not answer)."); return }
            self.paste(type: type, data: data, at: at)
        }
    }

    /// Pastes what the clipboard answered. A paste from another program arrives after its
    /// command: the data is recorded here, so a replay needs no clipboard.
    func paste(type: String, data: Data, at p: Point) {
        if let rec = editor.recorder {
            let record: JSONValue = .object(["c": .string("pasteData"), "type": .string(type), "data": .string(data.base64EncodedString()),
                                             "x": .number(p.x), "y": .number(p.y)])
            rec.command(record) { pasteNow(type: type, data: data, at: p) }
        } else {
            pasteNow(type: type, data: data, at: p)
        }
    }

    private func pasteNow(type: String, data: Data, at p: Point) {
        do {
            switch type {
            case MimeType.quireClipboard.typeName:
                try editor.paste(data: data, at: p)
            case "image/png":
                let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("quire-paste-\(getpid()).png")
                try data.write(to: tmp)
                defer { try? FileManager.default.removeItem(at: tmp) }
                _ = try editor.addImage(at: p, file: tmp.path, mimeType: .png)
            default:
                let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
                guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { show("The clipboard text is empty."); return }
                _ = try editor.addBlock(at: p, type: BlockType.text.rawValue, mimeType: .text, data: text)
            }
        } catch { show("Cannot paste: \(Self.message(error))") }
    }
}
