import Foundation
import Testing
@testable import Quire
@testable import QuireApp

/// The window's commands without an X server: which key, toolbar button and context menu item
/// names which `AppCommand`, and what performing one does to the editor and the document.
@Suite struct AppCommandTests {
    private func key(_ k: Key, _ text: String = "", ctrl: Bool = false, shift: Bool = false, alt: Bool = false, name: String? = nil) -> KeyInput {
        KeyInput(key: k, text: text, ctrl: ctrl, shift: shift, alt: alt, name: name)
    }

    @Test func keyMapNamesTheShortcutsCommands() {
        let map = KeyMap(kiosk: false)
        #expect(map.command(for: key(.character("z"), ctrl: true)) == .undo)
        #expect(map.command(for: key(.character("Z"), ctrl: true, shift: true)) == .redo)
        #expect(map.command(for: key(.character("y"), ctrl: true)) == .redo)
        #expect(map.command(for: key(.character("s"), ctrl: true)) == .save)
        #expect(map.command(for: key(.character("c"), ctrl: true)) == .copy)
        #expect(map.command(for: key(.character("v"), ctrl: true)) == .paste(at: nil))
        for k in [Key.character("+"), .character("="), .keypadPlus] { #expect(map.command(for: key(k, ctrl: true)) == .zoomIn) }
        for k in [Key.character("-"), .keypadMinus] { #expect(map.command(for: key(k, ctrl: true)) == .zoomOut) }
        #expect(map.command(for: key(.character("q"), ctrl: true)) == .quit)
        #expect(map.command(for: key(.enter, ctrl: true)) == .convert)
        #expect(map.command(for: key(.character("x"), ctrl: true)) == .cut)
        #expect(map.command(for: key(.escape, ctrl: true)) == nil)
        #expect(map.command(for: key(.f11)) == .toggleFullscreen)
        #expect(map.command(for: key(.f12)) == .toggleInspector)
        #expect(map.command(for: key(.delete)) == .removeBlock(nil))
        #expect(map.command(for: key(.escape)) == .clearSelection)
        #expect(map.command(for: key(.menu)) == .contextMenu(at: nil))
        #expect(map.command(for: key(.menu, ctrl: true)) == .contextMenu(at: nil))
    }

    @Test func plainKeysTypeTheirText() {
        let map = KeyMap(kiosk: false)
        #expect(map.command(for: key(.character("a"), "a")) == .typeText("a"))
        #expect(map.command(for: key(.character(" "), " ")) == .typeText(" "))
        #expect(map.command(for: key(.backspace, "\u{8}")) == .typeText("\u{8}"))
        #expect(map.command(for: key(.enter, "\r")) == .typeText("\n"))
        // The end of a Compose sequence has text and no key symbol.
        #expect(map.command(for: key(.none, "é")) == .typeText("é"))
        #expect(map.command(for: key(.keypadPlus, "+")) == .typeText("+"))
        #expect(map.command(for: key(.tab, "\t")) == nil)
        #expect(map.command(for: key(.other, "")) == nil)
    }

    @Test func kioskHasNoWayOutButItsChord() {
        let map = KeyMap(kiosk: true, exitChord: "Ctrl+Alt+Shift+Q")
        #expect(map.command(for: key(.character("q"), ctrl: true)) == nil)
        #expect(map.command(for: key(.f11)) == nil)
        #expect(map.command(for: key(.f12)) == nil, "a kiosk shows no debugging")
        #expect(map.isExitChord(key(.character("Q"), ctrl: true, shift: true, alt: true, name: "q")))
        #expect(!map.isExitChord(key(.character("q"), ctrl: true, alt: true, name: "q")))
        #expect(!KeyMap(kiosk: false).isExitChord(key(.character("Q"), ctrl: true, shift: true, alt: true, name: "q")))
    }

    @Test func keysymsDecodeToKeys() {
        #expect(XKeys.key(0xff1b) == .escape)
        #expect(XKeys.key(0xff0d) == .enter && XKeys.key(0xff8d) == .enter)
        #expect(XKeys.key(0xff52) == .up && XKeys.key(0xff97) == .up)
        #expect(XKeys.key(0xff54) == .down && XKeys.key(0xff99) == .down)
        #expect(XKeys.key(0xff09) == .tab && XKeys.key(0xff67) == .menu && XKeys.key(0xffc8) == .f11 && XKeys.key(0xffc9) == .f12)
        #expect(XKeys.key(0xff08) == .backspace && XKeys.key(0xffff) == .delete)
        #expect(XKeys.key(0xffab) == .keypadPlus && XKeys.key(0xffad) == .keypadMinus)
        #expect(XKeys.key(0x20) == .character(" ") && XKeys.key(0x5a) == .character("Z") && XKeys.key(0xe9) == .character("é"))
        #expect(XKeys.key(0x0100_0436) == .character("ж"))
        #expect(XKeys.key(0) == .none && XKeys.key(0xffe1) == .other)
    }

    @Test func toolbarButtonsNameTheirCommands() {
        let expected: [ToolbarCommand: AppCommand] = [
            .pen: .tool(.pen), .highlighter: .tool(.highlighter), .eraser: .tool(.eraser), .selector: .tool(.selector), .pens: .pens(at: nil),
            .undo: .undo, .redo: .redo, .clear: .clear, .convert: .convert, .text: .addTextBlock, .math: .addMathBlock, .image: .insertImage, .save: .save,
            .file: .file(.menu), .previousPage: .page(.previous), .pages: .page(.toggleStrip), .nextPage: .page(.next),
        ]
        for c in ToolbarCommand.allCases { #expect(c.command == expected[c], "\(c)") }
        #expect(ToolbarLayout(kiosk: true, scale: 1, width: 1000).commands == ToolbarCommand.allCases.filter { $0 != .image && $0 != .save && $0 != .file })
        let bar = ToolbarController(layout: ToolbarLayout(kiosk: false, scale: 1, width: 1000), window: TestWindow())
        let frames = bar.layout.frames()
        let undo = frames.first { $0.0 == .undo }!.1, redo = frames.first { $0.0 == .redo }!.1
        bar.press(at: Point(x: undo.midX, y: undo.midY))
        #expect(bar.release(at: Point(x: undo.midX, y: undo.midY)) == .undo)
        // Released over another button: nothing.
        bar.press(at: Point(x: undo.midX, y: undo.midY))
        #expect(bar.release(at: Point(x: redo.midX, y: redo.midY)) == nil)
    }

    @Test func moreMenuItemsPerformTheFoldedButtonsCommands() throws {
        let s = try Session()
        let bar = ToolbarController(layout: ToolbarLayout(kiosk: false, scale: 1, width: 480), window: TestWindow())
        bar.paint(width: 480, scale: 1, tool: .pen, canUndo: false, canRedo: false, theme: .default)
        var opened: (String, [OverlayMenu.Item], Point)?
        bar.openMenu = { opened = ($0, $1, $2) }
        let more = try #require(bar.layout.moreFrame)
        bar.press(at: Point(x: more.midX, y: more.midY))
        #expect(bar.release(at: Point(x: more.midX, y: more.midY)) == nil)
        let (title, items, at) = try #require(opened)
        #expect(title == "More" && at == Point(x: more.x, y: 0))
        #expect(items.compactMap(\.action) == bar.layout.folded.map(\.command))
        #expect(items.first { $0.label == "Redo" }?.enabled == false, "Redo is greyed out in the menu as on its button")
        // Chosen through the popup, as in the window: Text adds a Text block, Clear removes it.
        let popup = PopupController(view: s.view, window: TestWindow(), tracer: Tracer())
        popup.perform = { s.dispatcher.perform($0) }
        for label in ["Text", "Clear"] {
            popup.openMenu(title: title, items: items, at: at)
            let menu = try #require(popup.menu)
            let i = try #require(menu.items.firstIndex { $0.label == label })
            let f = menu.frame(of: i)
            popup.press(at: Point(x: f.midX, y: f.midY))
            popup.release(at: Point(x: f.midX, y: f.midY))
            #expect((s.editor.rootBlock?.children.count ?? 0) == (label == "Text" ? 1 : 0), "\(label)")
        }
    }

    @Test func imagePromptTakesTextUntilEnter() {
        let bar = ToolbarController(layout: ToolbarLayout(kiosk: false, scale: 1, width: 1000), window: TestWindow())
        bar.beginPrompt()
        for c in "a.pngx" { _ = bar.promptKey(key(.character(c), String(c))) }
        _ = bar.promptKey(key(.backspace))
        _ = bar.promptKey(key(.character("v"), "\u{16}", ctrl: true))
        #expect(bar.prompt == "a.png")
        #expect(bar.promptKey(key(.enter)) == "a.png" && bar.prompt == nil)
        bar.beginPrompt()
        #expect(bar.promptKey(key(.escape)) == nil && bar.prompt == nil)
    }

    @Test func contextMenuItemsNameTheirCommands() throws {
        let s = try Session()
        let block = try s.editor.addBlock(at: Point(x: 100, y: 100), type: "Text", mimeType: .text, data: "hello")
        let popup = PopupController(view: s.view, window: TestWindow(), tracer: Tracer())
        let r = s.editor.viewTransform.apply(block.box)
        let p = Point(x: r.midX, y: r.midY)
        popup.openContextMenu(at: p)
        let items = try #require(popup.menu?.items)
        let actions = Dictionary(items.map { ($0.label, $0.action) }, uniquingKeysWith: { a, _ in a })
        #expect(actions["Copy"] == .copy)
        #expect(actions["Paste"] == .paste(at: p))
        #expect(actions["Remove block"] == .removeBlock(block.id))
        #expect(actions["Convert"] == .convertBlock(block.id))
        #expect(actions["Export"] == .exportBlock(block.id))
        #expect(s.editor.selection == [block.id])
        // On empty page: only Paste is enabled, and the block commands have nothing to act on.
        popup.openContextMenu(at: Point(x: 700, y: 550))
        let empty = try #require(popup.menu)
        #expect(empty.title == "Page")
        #expect(empty.items.filter(\.enabled).map(\.label) == ["Paste"])
        #expect(empty.items.first { $0.label == "Remove block" }?.action == nil)
        popup.close()
        #expect(!popup.isOpen)
    }

    @Test func undoRedoClearAndTypingActOnTheEditor() throws {
        let s = try Session()
        s.dispatcher.perform(.typeText("hi"))
        let b = try #require(s.editor.selection.first.flatMap { s.editor.getBlockById($0) })
        #expect(b.text == "hi")
        // Backspace needs a selected block; the selection ends with Escape.
        s.dispatcher.perform(.typeText("\u{8}"))
        #expect(s.editor.getBlockById(b.id)?.text == "h")
        s.dispatcher.perform(.clearSelection)
        #expect(s.editor.selection.isEmpty && s.host.overlayChanges == 1)
        s.dispatcher.perform(.typeText("\u{8}"))
        #expect(s.editor.getBlockById(b.id)?.text == "h")
        s.dispatcher.perform(.undo)
        #expect(s.editor.getBlockById(b.id)?.text == "hi")
        s.dispatcher.perform(.redo)
        #expect(s.editor.getBlockById(b.id)?.text == "h")
        s.dispatcher.perform(.clear)
        #expect(s.editor.rootBlock?.children.isEmpty ?? true)
        s.dispatcher.perform(.addTextBlock)
        #expect(s.editor.selection.count == 1 && s.host.messages.last == "Type to add text to the new block.")
        s.dispatcher.perform(.addMathBlock)
        let math = try #require(s.editor.selection.first.flatMap { s.editor.getBlockById($0) })
        #expect(math.type == "Math" && s.editor.rootBlock?.children.count == 2)
    }

    @Test func toolsZoomDeleteAndWindowCommands() throws {
        let s = try Session()
        s.dispatcher.perform(.tool(.eraser))
        #expect(s.dispatcher.currentTool == .eraser)
        #expect(s.editor.toolController.tool(for: .pen) == .eraser && s.editor.toolController.tool(for: .mouse) == .eraser)
        let scale = s.editor.viewTransform.a
        s.dispatcher.perform(.zoomIn)
        #expect(abs(s.editor.viewTransform.a - scale * 1.25) < 1e-9)
        s.dispatcher.perform(.zoomOut)
        #expect(abs(s.editor.viewTransform.a - scale) < 1e-9)
        let b = try s.editor.addBlock(at: Point(x: 100, y: 100), type: "Text", mimeType: .text, data: "gone")
        s.dispatcher.perform(.removeBlock(nil))   // nothing selected: nothing removed
        #expect(s.editor.getBlockById(b.id) != nil)
        s.editor.setSelection([b.id])
        s.dispatcher.perform(.removeBlock(nil))
        #expect(s.editor.getBlockById(b.id) == nil)
        s.dispatcher.perform(.insertImage)
        s.dispatcher.perform(.toggleFullscreen)
        s.dispatcher.perform(.quit)
        s.dispatcher.perform(.contextMenu(at: nil))
        #expect(s.host.calls == ["promptForImage", "toggleFullscreen", "quit", "contextMenu (40.0, 40.0)"])
    }

    @Test func copyPasteSaveAndExportGoThroughTheSession() throws {
        let s = try Session()
        s.dispatcher.perform(.copy)
        #expect(s.host.messages.last == "Select a block to copy (tap it, or draw a lasso).")
        let b = try s.editor.addBlock(at: Point(x: 100, y: 100), type: "Text", mimeType: .text, data: "copy me")
        s.editor.setSelection([b.id])
        s.dispatcher.perform(.copy)
        #expect(s.host.messages.last == "Copied.")
        #expect(s.clipboard.offers["UTF8_STRING"] == Data("copy me".utf8))
        #expect(s.clipboard.offers[MimeType.quireClipboard.typeName] != nil)
        s.dispatcher.perform(.paste(at: Point(x: 100, y: 400)))
        #expect(s.dispatcher.lastPoint == Point(x: 100, y: 400))
        #expect(s.editor.rootBlock?.children.filter { $0.text == "copy me" }.count == 2)
        // Another program's text.
        s.clipboard.offers = [:]
        s.clipboard.foreign = ("text/plain;charset=utf-8", Data("from afar".utf8))
        s.dispatcher.perform(.paste(at: nil))
        #expect(s.editor.rootBlock?.children.contains { $0.text == "from afar" } == true)
        #expect(s.session.hasUnsavedChanges == false)   // the delegate is the window's: mark by hand
        s.session.contentChanged()
        s.dispatcher.perform(.save)
        #expect(!s.session.hasUnsavedChanges && s.host.messages.last == "Saved \(s.session.fileName)")
        s.dispatcher.perform(.exportBlock(b.id))
        let base = s.session.exportBase(for: b.id)
        #expect(FileManager.default.fileExists(atPath: base + ".png"))
        #expect(try String(contentsOfFile: base + ".txt", encoding: .utf8).contains("copy me"))
    }

    @Test func lassoSelectionIsCutCopiedDeletedAndRecolouredByCommands() throws {
        let s = try Session()
        s.dispatcher.pensPath = s.dir.path("pens.json")
        let a = try s.editor.pointerDown(x: 100, y: 100)
        for i in 1...8 { try s.editor.pointerMove(x: 100 + Double(i) * 8, y: 100 + Double(i % 2) * 6) }
        try s.editor.pointerUp(x: 170, y: 100)
        s.editor.setSelection(blocks: [], strokes: [a])
        s.dispatcher.perform(.copy)
        #expect(s.clipboard.offers["image/png"] != nil, "a lasso copy offers a picture of the ink")
        let data = try #require(s.clipboard.offers[MimeType.quireClipboard.typeName])
        #expect(String(decoding: data, as: UTF8.self).contains("quire-selection"))
        // Choosing a colour recolours the selection and becomes the pen's, kept for next time.
        s.dispatcher.perform(.penStyle(color: "#c62828", width: 1.2))
        #expect(s.editor.part?.model.strokes[a]?.color == "#c62828")
        #expect(s.editor.toolController.style(for: .pen) == ("#c62828", 1.2))
        #expect(PenSettings.load(path: s.dir.path("pens.json")).styles["pen"] == .init(color: "#c62828", width: 1.2))
        let fresh = ToolController()
        PenSettings.load(path: s.dir.path("pens.json")).apply(to: fresh)
        #expect(fresh.style(for: .pen) == ("#c62828", 1.2), "the next session starts with it")
        s.dispatcher.perform(.cut)
        #expect(s.editor.part?.model.strokes[a] == nil && s.host.messages.last == "Cut.")
        s.dispatcher.perform(.paste(at: Point(x: 300, y: 300)))
        #expect(s.editor.part?.model.strokes.count == 1)
        s.dispatcher.perform(.removeBlock(nil))   // Delete: the pasted, selected ink goes
        #expect(s.editor.part?.model.strokes.isEmpty == true)
        s.dispatcher.perform(.undo)
        #expect(s.editor.part?.model.strokes.count == 1)
        // A colour from the chooser's grid becomes the custom one, offered by the palette; a
        // palette colour picked later leaves it be.
        s.dispatcher.perform(.colourGrid(at: Point(x: 10, y: 20)))
        #expect(s.host.calls.last == "colourGrid (10.0, 20.0)")
        let grid = PenPalette.gridColors(tool: .pen)[17].color
        s.dispatcher.perform(.penStyle(color: grid, width: nil))
        #expect(PenSettings.load(path: s.dir.path("pens.json")).custom == grid)
        s.dispatcher.perform(.penStyle(color: "#1565c0", width: nil))
        #expect(PenSettings.load(path: s.dir.path("pens.json")).custom == grid)
        #expect(s.editor.toolController.style(for: .pen).color == "#1565c0")
        // A broken pens file gives the defaults, never a crash.
        try Data("{".utf8).write(to: URL(fileURLWithPath: s.dir.path("bad.json")))
        var warned = ""
        #expect(PenSettings.load(path: s.dir.path("bad.json"), warn: { warned = $0 }) == PenSettings())
        #expect(warned.contains("bad.json"))
    }
}

/// An editor view and a dispatcher over a new package, with a recording host and clipboard.
private final class Session {
    let dir = TempDir()
    let session: DocumentSession
    let editor: Editor
    let view: EditorView
    let dispatcher: CommandDispatcher
    let host = RecordingHost()
    let clipboard = MemoryClipboard()

    init() throws {
        let engine = try Engine()
        session = try DocumentSession(engine: engine, path: dir.path("doc.iink"))
        let renderer = CairoRenderer()
        editor = engine.createEditor(renderer: renderer, fontMetricsProvider: CairoFontMetrics())
        editor.recognizer = nil
        view = EditorView(editor: editor, renderer: renderer, scale: 1)
        try editor.setViewSize(width: 800, height: 600)
        try editor.setPart(session.part)
        dispatcher = CommandDispatcher(view: view, session: session, clipboard: clipboard, scale: 1)
        dispatcher.host = host
    }
}

private final class RecordingHost: CommandHost {
    var messages: [String] = []
    var calls: [String] = []
    var overlayChanges = 0
    func show(_ text: String, seconds: TimeInterval) { messages.append(text) }
    func promptForImage() { calls.append("promptForImage") }
    func toggleFullscreen() { calls.append("toggleFullscreen") }
    func toggleInspector() { calls.append("toggleInspector") }
    func quit() { calls.append("quit") }
    func openContextMenu(at p: Point) { calls.append("contextMenu (\(p.x), \(p.y))") }
    func openCandidates(_ ref: WordRef, at p: Point) { calls.append("candidates \(ref)") }
    func overlaysChanged() { overlayChanges += 1 }
    func openColourGrid(at p: Point) { calls.append("colourGrid (\(p.x), \(p.y))") }
}

private final class MemoryClipboard: ClipboardTransport {
    var offers: [String: Data] = [:]
    /// What another program offers when we do not own the clipboard.
    var foreign: (String, Data)?
    func own(_ offers: [String: Data], time: UInt) -> Bool { self.offers = offers; return true }
    func ownedOffer(_ type: String) -> Data? { offers[type] }
    func requestPaste(time: UInt, done: @escaping ((String, Data)?) -> Void) { done(foreign) }
}

/// A window that paints into an image surface.
private final class TestWindow: PaintedWindow {
    let id: WindowID = 1
    let surface = try! CairoSurface(width: 200, height: 100)
    func setFrame(_ frame: Rect) {}
    func showRaised() {}
    func raise() {}
    func hide() {}
}
