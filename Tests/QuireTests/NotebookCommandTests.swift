import Foundation
import Testing
@testable import InkRender
@testable import Quire
@testable import QuireApp

/// The window's page and file commands without an X server: keys, the dispatcher on a real
/// session and editor, the page strip's and the file chooser's hit testing, the two-finger swipe.
@Suite struct NotebookCommandTests {
    private func key(_ k: Key, _ text: String = "", ctrl: Bool = false, shift: Bool = false) -> KeyInput {
        KeyInput(key: k, text: text, ctrl: ctrl, shift: shift)
    }

    @Test func keysNamePageAndFileCommands() {
        let map = KeyMap(kiosk: false)
        #expect(map.command(for: key(.pageUp)) == .page(.previous))
        #expect(map.command(for: key(.pageDown)) == .page(.next))
        #expect(map.command(for: key(.character("n"), ctrl: true)) == .file(.new))
        #expect(map.command(for: key(.character("o"), ctrl: true)) == .file(.open(nil)))
        #expect(map.command(for: key(.character("S"), ctrl: true, shift: true)) == .file(.saveAs(nil)))
        #expect(map.command(for: key(.character("s"), ctrl: true)) == .save)
        let kiosk = KeyMap(kiosk: true)
        #expect(kiosk.command(for: key(.character("n"), ctrl: true)) == nil && kiosk.command(for: key(.character("o"), ctrl: true)) == nil)
        #expect(kiosk.command(for: key(.character("S"), ctrl: true, shift: true)) == .save)
        #expect(XKeys.key(0xff55) == .pageUp && XKeys.key(0xff56) == .pageDown)
    }

    @Test func pagesAreAddedVisitedAndTitled() throws {
        let s = try NotebookSession()
        #expect(s.notebook.title == "Quire - doc.iink - page 1 of 1")
        s.dispatcher.perform(.page(.add(nil)))
        #expect(s.host.menus.last?.title == "New page" && s.host.menus.last?.items.map(\.label) == Notebook.pageTypes.map(\.rawValue))
        s.dispatcher.perform(.page(.add(.math)))
        #expect(s.editor.part?.kind == .math && s.notebook.title == "Quire - doc.iink - page 2 of 2")
        s.dispatcher.perform(.page(.previous))
        #expect(s.editor.part?.kind == .textDocument)
        s.dispatcher.perform(.page(.previous))
        #expect(s.host.messages.last == "This is the first page.")
        s.dispatcher.perform(.page(.next))
        s.dispatcher.perform(.page(.duplicate))
        #expect(s.session.notebook?.pages.map(\.kind) == [.textDocument, .math, .math] && s.session.hasUnsavedChanges)
        s.dispatcher.perform(.page(.move(from: 2, to: 0)))
        #expect(s.session.notebook?.currentIndex == 0)
        #expect(s.host.changes >= 6)
    }

    @Test func undoBringsBackADeletedPageUntilSave() throws {
        let s = try NotebookSession()
        s.dispatcher.perform(.page(.add(.drawing)))
        s.dispatcher.perform(.page(.delete))
        #expect(s.session.notebook?.pageCount == 1 && s.host.messages.last?.hasPrefix("Deleted page 2.") == true)
        s.dispatcher.perform(.undo)
        #expect(s.session.notebook?.pageCount == 2 && s.editor.part?.kind == .drawing)
        // Page 1 has a step of its own: undo right after the deletion still restores the page.
        s.dispatcher.perform(.page(.previous))
        _ = try s.editor.typeText("kept", into: nil)
        s.dispatcher.perform(.page(.next))
        s.dispatcher.perform(.page(.delete))
        #expect(s.editor.canUndo && s.session.notebook?.pageCount == 1)
        s.dispatcher.perform(.undo)
        #expect(s.session.notebook?.pageCount == 2 && s.editor.part?.kind == .drawing)
        // Once something is written after the deletion, undo takes that back first, then the deletion.
        s.dispatcher.perform(.page(.delete))
        _ = try s.editor.typeText(" more", into: s.editor.rootBlock?.children.first)
        s.dispatcher.perform(.undo)
        #expect(s.session.notebook?.pageCount == 1 && s.editor.part?.model.blocks.values.contains { $0.text == "kept" } == true)
        s.dispatcher.perform(.undo)
        #expect(s.session.notebook?.pageCount == 2 && s.editor.part?.kind == .drawing)
        s.dispatcher.perform(.page(.delete))
        s.dispatcher.perform(.save)
        s.dispatcher.perform(.undo)
        #expect(s.session.notebook?.pageCount == 1)
    }

    @Test func saveAsNewAndOpenSwitchFiles() throws {
        let s = try NotebookSession()
        s.dispatcher.perform(.page(.add(.drawing)))
        // Save as: the window now edits the new file, and its pages.
        let copy = s.dir.path("copy")
        s.dispatcher.perform(.file(.saveAs(copy)))
        #expect(s.session.path == copy + ".iink" && s.notebook.title == "Quire - copy.iink - page 2 of 2")
        s.dispatcher.perform(.file(.saveAs(s.dir.path("doc.iink"))))
        #expect(s.host.messages.last == "doc.iink already exists: choose another name.")
        // New: a fresh notebook beside it; the old one is saved.
        s.dispatcher.perform(.file(.new))
        #expect(s.session.path == s.dir.path("Notebook.iink") && s.session.notebook?.pageCount == 1)
        s.dispatcher.perform(.file(.new))
        #expect(s.session.path == s.dir.path("Notebook 2.iink"))
        // Open: the saved copy comes back with both pages, on its first Text Document.
        s.dispatcher.perform(.file(.open(copy + ".iink")))
        #expect(s.session.path == copy + ".iink" && s.session.notebook?.pages.map(\.kind) == [.textDocument, .drawing])
        #expect(s.editor.part === s.session.notebook?.pages.first)
        #expect(s.session.recent?.files.prefix(3) == [copy + ".iink", s.dir.path("Notebook 2.iink"), s.dir.path("Notebook.iink")])
        // A file that is not there leaves everything as it was.
        s.dispatcher.perform(.file(.open(s.dir.path("missing.iink"))))
        #expect(s.session.path == copy + ".iink" && s.host.messages.last?.hasPrefix("Cannot open missing.iink") == true)
        // The file menu and the chooser are the host's.
        s.dispatcher.perform(.file(.menu))
        s.dispatcher.perform(.file(.open(nil)))
        s.dispatcher.perform(.file(.saveAs(nil)))
        #expect(s.host.menus.last?.title == "File" && s.host.choosers == [.open, .saveAs])
    }

    @Test func replacingAnExistingFileWritesOverItOrLeavesItWhole() throws {
        let s = try NotebookSession()
        _ = try s.editor.typeText("mine", into: nil)
        s.dispatcher.perform(.page(.add(.drawing)))
        let other = s.dir.path("other.iink")
        let pkg = try Engine().createPackage(other)
        _ = try pkg.createPart(type: PartType.math.rawValue)
        try pkg.save()
        // Open elsewhere (its lock held): replacing fails with a message, and both files stay as they were.
        s.dispatcher.perform(.file(.replace(other)))
        #expect(s.host.messages.last?.hasPrefix("Save as failed:") == true && s.session.path == s.dir.path("doc.iink"))
        pkg.close()
        let before = try Engine().openPackage(other, openOption: .existing)
        #expect(try before.partCount == 1 && before.part(at: 0).kind == .math)
        before.close()
        // Answered Replace: the notebook is written over it (no leftover temporary file) and the window edits it.
        s.dispatcher.perform(.file(.replace(other)))
        #expect(s.session.path == other && s.host.messages.last == "Saved as other.iink")
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.dir.url.path).filter { $0.hasSuffix(".tmp") } == [])
        s.session.close()
        let after = try Engine().openPackage(other, openOption: .existing)
        defer { after.close() }
        #expect(try after.partCount == 2 && after.part(at: 1).kind == .drawing)
        #expect(try after.part(at: 0).model.blocks.values.contains { $0.text == "mine" })
    }

    @Test func autosaveAndRecoveryFollowTheFileSwitchedTo() throws {
        let s = try NotebookSession()
        s.dispatcher.perform(.file(.new))
        let fresh = s.session.path
        s.dispatcher.perform(.page(.add(.drawing)))
        _ = try s.editor.pointerDown(x: 40, y: 40, t: 0, f: 0.5, type: .pen, pointerId: 1)
        try s.editor.pointerMove(x: 300, y: 60, t: 50, f: 0.5, type: .pen, pointerId: 1)
        try s.editor.pointerUp(x: 300, y: 60, t: 100, f: 0.5, type: .pen, pointerId: 1)
        s.session.contentChanged()
        try s.session.autosave()
        // An unclean exit: the file holds one empty page, the autosave both pages and the ink.
        s.session.close()
        let engine = try Engine()
        let recovered = try engine.openPackage(fresh, openOption: .existing)
        defer { recovered.close() }
        #expect(recovered.recoveredFromTemp && recovered.partCount == 2)
        #expect(try recovered.part(at: 1).model.strokes.count == 1)
    }

    @Test func saveAsTakesTheAutosaveAlong() throws {
        let s = try NotebookSession()
        s.dispatcher.perform(.file(.saveAs(s.dir.path("moved.iink"))))
        _ = try s.editor.typeText("after save as", into: nil)
        s.session.contentChanged()
        try s.session.autosave()
        s.session.close()
        let recovered = try Engine().openPackage(s.dir.path("moved.iink"), openOption: .existing)
        defer { recovered.close() }
        #expect(recovered.recoveredFromTemp)
        #expect(try recovered.part(at: 0).model.blocks.values.contains { $0.text == "after save as" })
    }

    @Test func openingAnotherProgramsInkGoesThroughTheImporter() throws {
        let s = try NotebookSession()
        let other = s.dir.path("notes.xopp")
        try Data("x".utf8).write(to: URL(fileURLWithPath: other))
        let imported = s.dir.path("notes.iink")
        let pkg = try Engine().createPackage(imported)
        _ = try pkg.createPart(type: PartType.rawContent.rawValue)
        try pkg.save()
        pkg.close()
        s.notebook.importer = { path in path == other ? (imported, "Imported notes.xopp.") : nil }
        s.dispatcher.perform(.file(.open(other)))
        #expect(s.session.path == imported && s.editor.part?.kind == .rawContent && s.host.messages.last == "Imported notes.xopp.")
    }

    @Test func exportsLandBesideThePackage() throws {
        let s = try NotebookSession()
        _ = try s.editor.typeText("hello", into: nil)
        s.dispatcher.perform(.page(.add(.textDocument)))
        for c in ExportChoice.allCases { s.dispatcher.perform(.file(.export(c))) }
        for name in ["doc.pdf", "doc.txt", "doc.md", "doc-page2.png", "doc-page2.svg"] {
            #expect(FileManager.default.fileExists(atPath: s.dir.path(name)), "\(name)")
        }
        #expect(String(decoding: FileManager.default.contents(atPath: s.dir.path("doc.md")) ?? Data(), as: UTF8.self) == "# Page 1\n\nhello\n\n# Page 2\n")
        #expect(s.host.messages.last == "Exported doc.md")
    }
}

@Suite struct PageStripTests {
    @Test func tapsJumpAndDragsReorder() {
        let layout = PageStripLayout(scale: 1)
        let strip = PageStripController(layout: layout, window: ImageWindow(width: 176, height: 900))
        strip.setFrame(Rect(x: 0, y: 0, width: 176, height: 900))
        let second = layout.cellFrame(1, scrollY: 0)
        strip.pressed(at: Point(x: second.midX, y: second.midY), pages: 3)
        #expect(strip.released(at: Point(x: second.midX + 3, y: second.midY), pages: 3) == .page(.goTo(1)))
        // Dragging the first page below the third.
        let first = layout.cellFrame(0, scrollY: 0), third = layout.cellFrame(2, scrollY: 0)
        strip.pressed(at: Point(x: first.midX, y: first.midY), pages: 3)
        strip.moved(to: Point(x: first.midX, y: third.maxY + 4), pages: 3)
        #expect(strip.released(at: Point(x: first.midX, y: third.maxY + 4), pages: 3) == .page(.move(from: 0, to: 2)))
        // Dropped where it was: nothing.
        strip.pressed(at: Point(x: first.midX, y: first.midY), pages: 3)
        strip.moved(to: Point(x: first.midX, y: first.midY + 30), pages: 3)
        #expect(strip.released(at: Point(x: first.midX, y: first.midY + 30), pages: 3) == nil)
        // The buttons.
        for (b, f) in layout.buttonFrames() {
            strip.pressed(at: Point(x: f.midX, y: f.midY), pages: 3)
            #expect(strip.released(at: Point(x: f.midX, y: f.midY), pages: 3) == b.command)
        }
        #expect(layout.page(at: Point(x: 80, y: 10), scrollY: 0, count: 3) == nil)
    }

    @Test func aFingerScrollsTheStripUnlessItHoldsStillFirst() {
        let layout = PageStripLayout(scale: 1)
        let strip = PageStripController(layout: layout, window: ImageWindow(width: 176, height: 500))
        strip.setFrame(Rect(x: 0, y: 0, width: 176, height: 500))
        let cell = layout.cellFrame(1, scrollY: 0)
        let start = Point(x: cell.midX, y: cell.midY), t0: UInt64 = 1_000_000_000
        // A plain finger drag up scrolls by as much, and moves no page.
        strip.pressed(at: start, pages: 10, touch: true, now: t0)
        strip.moved(to: Point(x: start.x, y: start.y - 150), pages: 10, now: t0 + 100_000_000)
        #expect(strip.scrollY == 150)
        #expect(strip.released(at: Point(x: start.x, y: start.y - 150), pages: 10) == nil)
        // Held still first: the same drag moves the page under the finger (now page 1 is lower).
        let held = layout.cellFrame(2, scrollY: 150)
        let from = Point(x: held.midX, y: held.midY)
        strip.pressed(at: from, pages: 10, touch: true, now: t0)
        strip.moved(to: Point(x: from.x, y: from.y + 2 * (layout.cellHeight + 12)), pages: 10, now: t0 + PageStripController.holdNs)
        #expect(strip.scrollY == 150)
        #expect(strip.released(at: Point(x: from.x, y: from.y + 2 * (layout.cellHeight + 12)), pages: 10) == .page(.move(from: 2, to: 4)))
    }

    @Test func stripPaintsThumbnailsOfThePages() throws {
        let s = try NotebookSession()
        for y in stride(from: 40.0, through: 200, by: 40) {
            _ = try s.editor.pointerDown(x: 40, y: y, t: 0, f: 0.5, type: .pen, pointerId: 1)
            try s.editor.pointerMove(x: 600, y: y + 5, t: 50, f: 0.5, type: .pen, pointerId: 1)
            try s.editor.pointerUp(x: 600, y: y + 5, t: 100, f: 0.5, type: .pen, pointerId: 1)
        }
        s.dispatcher.perform(.page(.add(.drawing)))
        let window = ImageWindow(width: 176, height: 600)
        let strip = PageStripController(layout: PageStripLayout(scale: 1), window: window)
        strip.setFrame(Rect(x: 0, y: 0, width: 176, height: 600))
        strip.setVisible(true)
        strip.paint(notebook: s.session.notebook!, pageWidth: 800 / s.editor.pixelsPerMillimetre, theme: .default)
        // Ink in the first thumbnail, none in the second (a blank page).
        func darkPixels(_ r: Rect) -> Int {
            let px = window.surface.argbPixels()
            var n = 0
            for y in Int(r.y + 4)..<Int(r.maxY - 22) { for x in Int(r.x + 4)..<Int(r.maxX - 4) where px[y * 176 + x] & 0xff < 0xc0 { n += 1 } }
            return n
        }
        let layout = strip.layout
        #expect(darkPixels(layout.cellFrame(0, scrollY: 0)) > 50)
        #expect(darkPixels(layout.cellFrame(1, scrollY: 0)) == 0)
        // Another file whose pages have the same ids (a copy, cleared) gets thumbnails of its own.
        s.dispatcher.perform(.save)
        try FileManager.default.copyItem(atPath: s.session.path, toPath: s.dir.path("inked.iink"))
        s.dispatcher.perform(.page(.previous))
        s.dispatcher.perform(.clear)
        s.dispatcher.perform(.save)
        try FileManager.default.copyItem(atPath: s.session.path, toPath: s.dir.path("blank.iink"))
        for (name, inked) in [("inked.iink", true), ("blank.iink", false)] {
            s.dispatcher.perform(.file(.open(s.dir.path(name))))
            #expect(s.session.path == s.dir.path(name))
            strip.paint(notebook: s.session.notebook!, pageWidth: 800 / s.editor.pixelsPerMillimetre, theme: .default)
            #expect((darkPixels(layout.cellFrame(0, scrollY: 0)) > 50) == inked, "\(name)")
        }
    }
}

@Suite struct FileChooserTests {
    @Test func listsFoldersNotebooksAndInkFilesByContent() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path("Lectures"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path(".hidden"), withIntermediateDirectories: true)
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir.path("b.iink")))
        try FileManager.default.createDirectory(atPath: dir.path("b.iink-files"), withIntermediateDirectories: true)
        let inkml = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>0 0, 10 10</trace></ink>"#
        try Data(inkml.utf8).write(to: URL(fileURLWithPath: dir.path("a.inkml")))
        try Data("not ink".utf8).write(to: URL(fileURLWithPath: dir.path("fake.inkml")))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: dir.path("notes.txt")))
        let m = FileChooserModel(mode: .open, folder: dir.url.path, recent: [])
        #expect(m.entries.map(\.name) == ["Lectures", "a.inkml", "b.iink"])
        #expect(m.entries.map(\.kind) == [.folder, .importable("InkML"), .notebook])
        #expect(!m.showingRecent && m.location == dir.url.path)
    }

    @Test func choosingEntersFoldersOpensFilesAndNamesSaves() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: true)
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir.path("sub/x.iink")))
        var open = FileChooserModel(mode: .open, folder: dir.url.path, recent: [dir.path("sub/x.iink")])
        #expect(open.showingRecent && open.entries.map(\.name) == ["x.iink"])
        open.up()
        #expect(!open.showingRecent && open.choose(0) == nil && open.folder.hasSuffix("/sub"))
        #expect(open.choose(0) == dir.path("sub/x.iink"))
        var save = FileChooserModel(mode: .saveAs, folder: dir.path("sub"), recent: [], name: "Maths")
        #expect(save.savePath == dir.path("sub/Maths.iink"))
        #expect(save.choose(0) == nil && save.name == "x.iink" && save.savePath == dir.path("sub/x.iink"))
        save.name = "../up"
        #expect(save.savePath == nil)
        save.name = "  "
        #expect(save.savePath == nil)
    }

    @Test func savingOntoAnExistingFileAsksFirst() throws {
        let dir = TempDir()
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir.path("old.iink")))
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir.path("mine.iink")))
        let inkml = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>0 0, 10 10</trace></ink>"#
        try Data(inkml.utf8).write(to: URL(fileURLWithPath: dir.path("draft.inkml")))
        var m = FileChooserModel(mode: .saveAs, folder: dir.url.path, recent: [], name: "new", ownPath: dir.path("mine.iink"))
        #expect(m.confirmSave() == .saveAs(dir.path("new.iink")) && m.replacing == nil)
        m.name = "old"
        #expect(m.confirmSave() == nil && m.replacing == dir.path("old.iink"))
        #expect(m.answerReplace(false) == nil && m.replacing == nil && m.name == "old")
        #expect(m.confirmSave() == nil && m.answerReplace(true) == .replace(dir.path("old.iink")))
        // The notebook's own file just saves; another program's file is proposed as a notebook beside it.
        m.name = "mine.iink"
        #expect(m.confirmSave() == .saveAs(dir.path("mine.iink")))
        #expect(m.choose(m.entries.firstIndex { $0.name == "draft.inkml" }!) == nil && m.name == "draft")
    }

    @Test func theReplaceDialogTakesTapsAndKeys() throws {
        let dir = TempDir()
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir.path("old.iink")))
        let c = FileChooserController(window: ImageWindow(width: 600, height: 500), scale: 1)
        let frame = Rect(x: 0, y: 0, width: 600, height: 500)
        func tap(_ r: Rect) -> AppCommand? { c.pressed(at: Point(x: r.midX, y: r.midY)); return c.released(at: Point(x: r.midX, y: r.midY)) }
        func button(_ b: FileChooserController.Button) -> Rect? { c.buttonFrames().first { $0.0 == b }?.1 }
        c.open(FileChooserModel(mode: .saveAs, folder: dir.url.path, recent: [], name: "old"), frame: frame)
        #expect(tap(try #require(button(.confirm))) == nil && c.isOpen && c.dialogFrame != nil)
        // Only the dialog's buttons answer; the list under it does not.
        #expect(button(.confirm) == nil && tap(c.rowFrame(0)) == nil && c.model?.replacing != nil)
        #expect(tap(try #require(button(.keep))) == nil && c.isOpen && c.dialogFrame == nil)
        #expect(c.key(KeyInput(key: .enter, text: "\r")) == nil && c.dialogFrame != nil)
        #expect(c.key(KeyInput(key: .escape, text: "")) == nil && c.isOpen && c.dialogFrame == nil)
        _ = c.key(KeyInput(key: .enter, text: "\r"))
        #expect(tap(try #require(button(.replace))) == .file(.replace(dir.path("old.iink"))) && !c.isOpen)
    }

    @Test func tapsAndKeysOnTheChooser() throws {
        let dir = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: true)
        try Data("PK".utf8).write(to: URL(fileURLWithPath: dir.path("sub/x.iink")))
        let c = FileChooserController(window: ImageWindow(width: 600, height: 500), scale: 1)
        c.open(FileChooserModel(mode: .open, folder: dir.url.path, recent: []), frame: Rect(x: 0, y: 0, width: 600, height: 500))
        func tap(_ p: Point) -> AppCommand? { c.pressed(at: p); return c.released(at: p) }
        let row0 = c.rowFrame(0)
        #expect(tap(Point(x: row0.midX, y: row0.midY)) == nil && c.model?.folder.hasSuffix("/sub") == true)
        #expect(tap(Point(x: row0.midX, y: row0.midY)) == .file(.open(dir.path("sub/x.iink"))) && !c.isOpen)
        c.open(FileChooserModel(mode: .saveAs, folder: dir.url.path, recent: [], name: ""), frame: Rect(x: 0, y: 0, width: 600, height: 500))
        for ch in "Plan" { _ = c.key(KeyInput(key: .character(ch), text: String(ch))) }
        _ = c.key(KeyInput(key: .backspace, text: ""))
        #expect(c.key(KeyInput(key: .enter, text: "\r")) == .file(.saveAs(dir.path("Pla.iink"))) && !c.isOpen)
        c.open(FileChooserModel(mode: .open, folder: dir.url.path, recent: []), frame: Rect(x: 0, y: 0, width: 600, height: 500))
        let cancel = c.buttonFrames().first { $0.0 == .cancel }!.1
        #expect(tap(Point(x: cancel.midX, y: cancel.midY)) == nil && !c.isOpen)
    }
}

@Suite struct SwipeTests {
    private func ev(_ phase: InputEvent.Phase, _ x: Double, _ y: Double, touch: Int, t: Int64) -> InputEvent {
        InputEvent(phase: phase, device: 9, kind: .touch, touchId: touch, x: x, y: y, time: t, pressure: 0.5)
    }

    /// Two fingers 80 px apart travel `dx` sideways (and spread by `spread` px), then lift.
    private func twoFingers(dx: Double, spread: Double = 0) throws -> [Int] {
        let f = try Fixture()
        f.editor.toolController.setTool(.hand, for: .touch)
        let r = InputRouter(editor: f.editor)
        var swipes: [Int] = []
        r.onSwipe = { swipes.append($0) }
        r.handle(ev(.down, 400, 300, touch: 1, t: 1000))
        r.handle(ev(.down, 400, 380, touch: 2, t: 1005))
        for i in 1...10 {
            let d = dx * Double(i) / 10, s = spread * Double(i) / 10
            r.handle(ev(.move, 400 + d, 300 - s, touch: 1, t: 1010 + Int64(i) * 10))
            r.handle(ev(.move, 400 + d, 380 + s, touch: 2, t: 1012 + Int64(i) * 10))
        }
        r.handle(ev(.up, 400 + dx, 300 - spread, touch: 1, t: 1200))
        r.handle(ev(.up, 400 + dx, 380 + spread, touch: 2, t: 1205))
        return swipes
    }

    @Test func twoFingersSidewaysTurnThePage() throws {
        #expect(try twoFingers(dx: -250) == [1])
        #expect(try twoFingers(dx: 250) == [-1])
        #expect(try twoFingers(dx: 60) == [])
        // A pinch that drifts sideways zooms; it turns no page.
        #expect(try twoFingers(dx: -250, spread: 120) == [])
    }
}

/// A session, editor, dispatcher and notebook commands over a new package, with a recording host.
final class NotebookSession {
    let dir = TempDir()
    let session: DocumentSession
    let editor: Editor
    let view: EditorView
    let dispatcher: CommandDispatcher
    let notebook: NotebookController
    let host = NotebookRecordingHost()

    init() throws {
        let engine = try Engine()
        session = try DocumentSession(engine: engine, path: dir.path("doc.iink"))
        session.recent = RecentFiles(path: dir.path("state/recent-files"))
        let renderer = CairoRenderer()
        editor = engine.createEditor(renderer: renderer, fontMetricsProvider: CairoFontMetrics())
        editor.recognizer = nil
        view = EditorView(editor: editor, renderer: renderer, scale: 1)
        try editor.setViewSize(width: 800, height: 600)
        try session.attach(editor)
        dispatcher = CommandDispatcher(view: view, session: session, clipboard: NullClipboard(), scale: 1)
        notebook = NotebookController(view: view, session: session)
        dispatcher.notebook = notebook
        dispatcher.host = host
        notebook.host = host
    }

    deinit { session.close() }
}

final class NotebookRecordingHost: CommandHost, NotebookHost {
    var messages: [String] = []
    var menus: [(title: String, items: [OverlayMenu.Item])] = []
    var choosers: [FileChooserMode] = []
    var changes = 0
    func show(_ text: String, seconds: TimeInterval) { messages.append(text) }
    func promptForImage() {}
    func toggleFullscreen() {}
    func toggleInspector() {}
    func quit() {}
    func openContextMenu(at p: Point) {}
    func openCandidates(_ ref: WordRef, at p: Point) {}
    func overlaysChanged() {}
    func notebookChanged() { changes += 1 }
    func openMenu(title: String, items: [OverlayMenu.Item], at p: Point?) { menus.append((title, items)) }
    func openFileChooser(_ mode: FileChooserMode) { choosers.append(mode) }
    func toggleStrip() {}
}

private final class NullClipboard: ClipboardTransport {
    func own(_ offers: [String: Data], time: UInt) -> Bool { false }
    func ownedOffer(_ type: String) -> Data? { nil }
    func requestPaste(time: UInt, done: @escaping ((String, Data)?) -> Void) { done(nil) }
}

/// A window that paints into an image surface of its own size.
final class ImageWindow: PaintedWindow {
    let id: WindowID = 7
    let surface: CairoSurface
    init(width: Int, height: Int) { surface = try! CairoSurface(width: width, height: height) }
    func setFrame(_ frame: Rect) {}
    func showRaised() {}
    func raise() {}
    func hide() {}
}

@Suite struct SearchBarTests {
    /// Three pages of typed text; the search bar on an image window; page 1 shown.
    private func notebook() throws -> (NotebookSession, SearchBarController) {
        let s = try NotebookSession()
        _ = try s.editor.typeText("alpha béta", into: nil)
        s.dispatcher.perform(.page(.add(.textDocument)))
        _ = try s.editor.typeText("gamma beta", into: nil)
        s.dispatcher.perform(.page(.add(.textDocument)))
        _ = try s.editor.typeText("delta", into: nil)
        s.dispatcher.perform(.page(.goTo(0)))
        let bar = SearchBarController(window: ImageWindow(width: 800, height: 40), view: s.view, scale: 1)
        s.notebook.search = bar
        return (s, bar)
    }

    private func type(_ text: String, _ s: NotebookSession, _ bar: SearchBarController) {
        for ch in text { _ = bar.key(KeyInput(key: .character(ch), text: String(ch)), package: s.session.package) }
    }

    private func key(_ k: Key, shift: Bool = false, _ s: NotebookSession, _ bar: SearchBarController) {
        if let c = bar.key(KeyInput(key: k, text: "", shift: shift), package: s.session.package) { s.dispatcher.perform(.search(c)) }
    }

    @Test func ctrlFOpensEnterWalksTheHitsAcrossPages() throws {
        #expect(KeyMap(kiosk: false).command(for: KeyInput(key: .character("f"), text: "", ctrl: true)) == .search(.open))
        let (s, bar) = try notebook()
        s.dispatcher.perform(.search(.open))
        #expect(bar.isOpen)
        type("BETA", s, bar)
        #expect(bar.state.hits.map(\.partIndex) == [0, 1] && bar.state.status == "2 found")
        // The page's hit is framed as soon as it is found.
        #expect(s.view.searchHighlights.count == 1 && s.view.wordHighlight == nil)
        key(.enter, s, bar)
        #expect(s.session.notebook?.currentIndex == 0 && bar.state.status == "1 of 2" && s.view.wordHighlight != nil)
        key(.enter, s, bar)
        #expect(s.session.notebook?.currentIndex == 1 && bar.state.status == "2 of 2")
        #expect(s.notebook.title.hasSuffix("page 2 of 3") && s.view.searchHighlights.count == 1 && s.view.wordHighlight != nil)
        key(.enter, shift: true, s, bar)
        #expect(s.session.notebook?.currentIndex == 0 && bar.state.status == "1 of 2")
        // Wraps around: back from the first hit is the last.
        key(.enter, shift: true, s, bar)
        #expect(s.session.notebook?.currentIndex == 1)
        key(.escape, s, bar)
        #expect(!bar.isOpen && s.view.searchHighlights.isEmpty && s.view.wordHighlight == nil)
    }

    @Test func fromAPageTheFirstHitIsOnOrAfterIt() throws {
        let (s, bar) = try notebook()
        s.dispatcher.perform(.page(.goTo(2)))
        s.dispatcher.perform(.search(.open))
        type("alpha", s, bar)
        #expect(s.view.searchHighlights.isEmpty)
        key(.enter, s, bar)
        #expect(s.session.notebook?.currentIndex == 0 && bar.state.status == "1 of 1")
        _ = bar.key(KeyInput(key: .backspace, text: ""), package: s.session.package)
        type("zz", s, bar)
        #expect(bar.state.query == "alphzz" && bar.state.status == "no match")
        key(.enter, s, bar)
        #expect(s.session.notebook?.currentIndex == 0 && bar.state.status == "no match")
    }
}
