import Foundation
import Quire

/// The editor window: wires the pieces together. X11/ opens the display, makes the windows and
/// decodes events; an `EditorView` paints the editor on the canvas; the toolbar, candidates bar
/// and popups are controllers of their own; every command goes through `CommandDispatcher`; the
/// `DocumentSession` saves and autosaves. Runs on the thread that calls `run()`.
public final class AppWindow: EditorDelegate {
    private let options: AppOptions
    private let display: X11Display
    private let engine: Engine
    private let session: DocumentSession
    private let view: EditorView
    private let top: XTopLevel
    private let toolbarWindow: XChildWindow
    private let canvasWindow: XChildWindow
    private let barWindow: XChildWindow
    private let popupWindow: XChildWindow
    private let panelWindow: XChildWindow
    /// The toolbar's message over the canvas when the toolbar has no room for it.
    private let messageWindow: XChildWindow
    private let clipboard: XClipboard
    private let events: XEventSource
    private let toolbar: ToolbarController
    private let bar: CandidateBarController
    private let popup: PopupController
    private let inspector: InspectorPanelController
    /// The page strip, the file chooser, page and file commands.
    private let notebook: NotebookWindow
    private let dispatcher: CommandDispatcher
    private let pointer: PointerController
    private let keyMap: KeyMap
    private let tracer = Tracer()
    private var selectionTrace = SelectionTrace()
    /// Strokes that start on the candidates bar: 8 px (2 mm at 96 dpi) off the press, ink.
    private var barStrokes: BarStrokeHandoff
    private let latency = LatencyRecorder()
    private let wake: WakePipe
    private let stop = StopSignals()
    private let scale: Double
    private var size: (width: Int, height: Int)
    private var mapped = false
    private var announced = false
    /// When the loop draws the page (not while inking, input already queued first).
    private var pacing = PagePacing()
    private var quitting = false
    private var exitCode: Int32 = 0
    /// Plays a session recording (`quire replay --window`).
    private let replay: ReplayDriver?
    /// The inspector window's layers, panel and timeline (`quire inspect` with a display).
    private let inspectorWindow: InspectorWindowController?

    private var editor: Editor { view.editor }

    /// Opens the display and the document and creates the window (not shown until `run`).
    public init(options: AppOptions) throws {
        self.options = options
        display = try X11Display(name: options.display)
        var warnings: [String] = []
        engine = try makeAppEngine { warnings.append($0) }
        if let path = options.replay {
            // The recording's starting package and configuration, and its pace.
            let player = try SessionPlayer(path: path)
            guard let file = options.file else { throw QuireError(.invalidArgument, "replay: no package path to play into") }
            try player.writePackage(to: file)
            try engine.configuration.inject(json: try JSONValue.object(player.configuration).serialized())
            replay = ReplayDriver(player: player, speed: options.replaySpeed > 0 ? options.replaySpeed : 1)
        } else {
            replay = nil
        }
        session = try DocumentSession(engine: engine, path: options.file)
        for w in warnings { FileHandle.standardError.write(Data("quire: warning: \(w)\n".utf8)) }
        wake = try WakePipe()
        let dpi = display.dpi
        scale = max(1, dpi / 96)
        barStrokes = BarStrokeHandoff(slop: 8 * scale)
        let layout = ToolbarLayout(kiosk: options.kiosk, scale: scale, width: Double(options.width))
        let renderer = CairoRenderer()
        // Input first: a render draws a few ms of tiles, and the loop comes back for the rest.
        renderer.frameBudget = CairoRenderer.windowFrameBudget
        let editor = engine.createEditor(renderer: renderer, fontMetricsProvider: CairoFontMetrics())
        editor.pixelsPerMillimetre = dpi / 25.4
        view = EditorView(editor: editor, renderer: renderer, scale: scale)
        let conf = editor.configuration
        session.autosaveIdle = max(0.5, conf[.appAutosaveIdleSeconds])
        keyMap = KeyMap(kiosk: options.kiosk, exitChord: conf[.appKioskExitChord])
        view.router.palmRejection = conf[.inputPalmRejectionEnable]
        view.router.palmTimeoutMs = Int64(conf[.inputPalmRejectionTimeoutMs])
        let s = display.screenSize
        size = options.kiosk ? s : (min(max(320, options.width), max(320, s.width)), min(max(240, options.height), max(240, s.height)))
        if let r = replay { size = (r.player.viewSize.width, r.player.viewSize.height + layout.height) }
        for (type, key) in [(PointerType.mouse, ConfigKey<String>.inputMouseTool), (.touch, .inputTouchTool)] {
            editor.toolController.setTool(Tool(rawValue: conf[key]) ?? (type == .mouse ? .pen : .hand), for: type)
        }
        PenSettings.load(warn: { warnings.append($0) }).apply(to: editor.toolController)
        view.router.onError = { FileHandle.standardError.write(Data("quire: input: \($0)\n".utf8)) }

        // The windows: the toolbar and the canvas in the top-level, the overlays in the canvas
        // (mapped when shown).
        let w = Double(size.width), h = Double(size.height), tb = Double(layout.height)
        top = display.makeTopLevel(width: size.width, height: size.height, title: "Quire - " + session.fileName, fullscreen: options.kiosk)
        toolbarWindow = try top.createChild(frame: Rect(x: 0, y: 0, width: w, height: tb))
        // The canvas is always fully painted from the page cache: no server-side clearing.
        canvasWindow = try top.createChild(frame: Rect(x: 0, y: tb, width: w, height: max(1, h - tb)), keepContent: true, structureEvents: true)
        barWindow = try top.createChild(of: canvasWindow, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        popupWindow = try top.createChild(of: canvasWindow, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        panelWindow = try top.createChild(of: canvasWindow, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        messageWindow = try top.createChild(of: canvasWindow, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        let stripWindow = try top.createChild(frame: Rect(x: 0, y: tb, width: 1, height: 1))
        let chooserWindow = try top.createChild(of: canvasWindow, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        let searchWindow = try top.createChild(of: canvasWindow, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        clipboard = display.makeClipboard(window: top)
        events = display.makeEventSource(top: top, clipboard: clipboard)
        events.overrides = DeviceClassifier.overrides(conf[.inputDevices])

        toolbar = ToolbarController(layout: layout, window: toolbarWindow, overlay: messageWindow)
        toolbar.showQuietly((warnings + [options.openingNote, session.openingNote]).filter { !$0.isEmpty }.joined(separator: " "), seconds: 8)
        bar = CandidateBarController(view: view, window: barWindow, tracer: tracer)
        popup = PopupController(view: view, window: popupWindow, tracer: tracer)
        inspector = InspectorPanelController(view: view, window: panelWindow, tracer: tracer)
        dispatcher = CommandDispatcher(view: view, session: session, clipboard: clipboard, scale: scale)
        notebook = NotebookWindow(view: view, session: session, stripWindow: stripWindow, chooserWindow: chooserWindow,
                                  searchWindow: searchWindow, scale: scale)
        pointer = PointerController(view: view, dispatcher: dispatcher, bar: bar, popup: popup, latency: latency)
        try view.attach(canvas: canvasWindow, highlight: canvasWindow.makeOverlaySurface(), width: size.width, height: Int(max(1, h - tb)))
        if let r = replay { try r.player.prepare(editor, part: session.part) } else { try editor.setPart(session.part) }
        if replay == nil { session.recent = RecentFiles(path: XDG.stateDir + "/recent-files") }
        try session.attach(editor)
        notebook.layout(top: tb, width: w, height: h - tb)
        inspectorWindow = options.inspect ? InspectorWindowController(view: view, panel: inspector, window: toolbarWindow, tracer: tracer, scale: scale,
                                                                      height: layout.height, gestures: options.inspectGestures) : nil
        // A replay records only when asked on its command line (`app.record` names the file it may be playing).
        // `--record` that cannot write is an error; `app.record` (a kiosk's standing setting) only warns.
        if let path = options.record ?? (conf[.appRecord].isEmpty || replay != nil ? nil : conf[.appRecord]) {
            do {
                let recorder = try SessionRecorder(path: (path as NSString).expandingTildeInPath, editor: editor)
                recorder.onError = { FileHandle.standardError.write(Data("quire: warning: \($0)\n".utf8)) }
            } catch where options.record == nil {
                FileHandle.standardError.write(Data("quire: warning: not recording the session: \(CommandDispatcher.message(error))\n".utf8))
            }
        }

        editor.addDelegate(self)
        dispatcher.host = self
        dispatcher.notebook = notebook.controller
        notebook.controller.host = self
        notebook.controller.importer = options.importer
        notebook.perform = { [unowned self] in dispatcher.perform($0) }
        view.router.onSwipe = { [unowned self] in dispatcher.perform(.page($0 > 0 ? .next : .previous)) }
        top.setTitle(notebook.controller.title)
        popup.host = self
        popup.perform = { [unowned self] in dispatcher.perform($0) }
        toolbar.openMenu = { [unowned self] in popup.openMenu(title: $0, items: $1, at: $2) }
        bar.keepAbove = { [unowned self] in popup.raise() }
        inspector.followedBlockId = { [unowned self] in bar.activeBlockId }
        inspectorWindow?.start()
        let events = events
        tracer.sync = { events.sync() }
        pointer.flush = { events.flush() }
        // Tiles wait while pen points are queued: ink first, the page between points.
        renderer.inputPending = { events.hasPending }
        let wakePipe = wake
        renderer.onInvalidate = { wakePipe.wake() }
        editor.onRecognitionResult = { wakePipe.wake() }
        events.refreshDevices()
    }

    // MARK: the loop

    /// Shows the window and runs until it is closed; returns the process exit status.
    public func run() throws -> Int32 {
        stop.install(waking: wake)
        top.show()
        // Showing the top-level maps all its children: the page strip stays hidden until asked for.
        notebook.strip.setVisible(notebook.strip.visible)
        latency.enabled = options.latencyLog != nil
        while !quitting {
            latency.step("input") { while events.hasPending && !quitting { events.next { handle($0) } } }
            if pointer.roundTripDue {
                // Disabling a device makes the server release its buttons first: the round trip
                // brings in the hierarchy change that reveals such a release as a lost pointer.
                latency.step("round trip") { events.sync() }
                latency.step("input") { while events.hasPending && !quitting { events.next { handle($0) } } }
            }
            if pointer.hasHeldUps { pointer.applySettledUps(now: monotonicNs()) }
            if stop.flag.isSet { finish(save: true); break }
            if quitting { break }
            pointer.checkLongPress()
            if let r = replay, mapped {
                do { _ = try r.advance(editor: editor, dispatcher: dispatcher) } catch {
                    show("Replay stopped: \(CommandDispatcher.message(error))")
                    FileHandle.standardError.write(Data("quire: error: replay: \(CommandDispatcher.message(error))\n".utf8))
                    exitCode = 2
                    finish(save: false)
                    break
                }
                if r.finished { try? editor.waitForIdle() }
            }
            latency.step("recognition results") { editor.processPendingResults() }
            latency.step("candidate bar") { if bar.needsUpdate { bar.update() } }
            inspectorWindow?.tick(now: monotonicNs())
            if inspector.needsUpdate, !editor.hasActivePointers { inspector.update() }
            // While a stroke is being written only its new ink is drawn (with each point): the
            // page (the last stroke's tiles, recognition's words) waits for the pen-up, so no
            // point queues behind a tile.
            let inking = view.isInking
            // Input already queued (right after a pen-up: the next stroke's press and first
            // points) goes before the page takes in what changed; the loop comes back at once.
            if pacing.rendersPage(inking: inking, inputQueued: { events.hasPending }) {
                latency.step("page render") { present() }
            }
            selectionTrace.update(editor, tracer)
            latency.step("toolbar and strip") {
                paintToolbar()
                notebook.paint()
            }
            latency.step("flush") { events.flush() }
            latency.step("idle work") { idleWork() }
            let waiting = session.hasUnsavedChanges || clipboard.hasPendingRequest || toolbar.hasTimedMessage || bar.isShowingChange
            var timeout: Int32 = waiting ? 250 : 2000
            if let r = replay, mapped {
                if let wait = r.msUntilNext() { timeout = min(timeout, wait) }
                r.announceIfDone()
            }
            if let wait = inspectorWindow?.timeline.msUntilNext(now: monotonicNs()) { timeout = min(timeout, wait) }
            if let due = pointer.heldUpsDue {
                let now = monotonicNs()
                timeout = due <= now ? 0 : min(timeout, Int32((due - now) / 1_000_000) + 1)
            }
            if let deadline = pointer.longPressDeadline {
                let now = monotonicNs()
                timeout = deadline <= now ? 0 : min(timeout, Int32((deadline - now) / 1_000_000) + 1)
            }
            // Tiles left to draw: come back at once, unless a stroke is being written (its
            // points wake the loop; spinning would only take the CPU from the X server).
            if view.renderer.needsRender, !inking { timeout = 0 }
            if latency.step("wait", { events.wait(timeoutMs: timeout, wakeFD: wake.readFD) }) { wake.drain() }
        }
        latency.write(to: options.latencyLog)
        editor.recorder?.flush()
        session.close()
        top.destroy()
        return exitCode
    }

    private func idleWork() {
        clipboard.expire()
        toolbar.expireMessage()
        bar.expireChange()
        if session.autosaveDue(), !editor.hasActivePointers { autosave() }
    }

    private func autosave() {
        guard session.hasUnsavedChanges else { return }
        do { try session.autosave() } catch { show("Autosave failed: \(CommandDispatcher.message(error))") }
    }

    /// Leaves the loop, saving the package first (closing a note-taking window never loses ink).
    private func finish(save: Bool) {
        // Held releases end strokes the user finished: they are kept, not cancelled.
        pointer.applyPendingUps()
        view.router.cancelAll()
        if save, let error = session.saveForExit() {
            FileHandle.standardError.write(Data("quire: error: could not save \(session.path): \(error)\n".utf8))
            exitCode = 1
        }
        quitting = true
    }

    private func present() {
        view.present()
        // Ready once the page is all drawn (the first frame is drawn a budget at a time).
        if mapped, !announced, !view.renderer.needsRender {
            announced = true
            events.sync()
            let line = String(format: "quire: ready window=0x%lx canvas=0x%lx x=0 y=%d width=%d height=%d scale=%.3f\n",
                              top.id, canvasWindow.id, toolbar.layout.height, size.width, view.size.height, scale)
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }

    private func paintToolbar(force: Bool = false) {
        if let iw = inspectorWindow { iw.paint(width: size.width, theme: view.renderer.theme, force: force); return }
        let nb = session.notebook
        toolbar.latched = notebook.strip.visible ? [.pages] : []
        toolbar.disabled = Set([nb.map { $0.currentIndex == 0 } == true ? ToolbarCommand.previousPage : nil,
                                nb.map { $0.currentIndex + 1 >= $0.pageCount } == true ? .nextPage : nil].compactMap { $0 })
        toolbar.paint(width: size.width, scale: scale, tool: dispatcher.currentTool,
                      canUndo: editor.canUndo || session.notebook?.canRestoreDeletedPage == true,
                      canRedo: editor.canRedo, theme: view.renderer.theme, force: force)
    }

    // MARK: events

    private func handle(_ event: WindowEvent) {
        switch event {
        case .nonPointer:
            // Keys, focus and window events act on a finished stroke (Ctrl+C right after a lasso).
            pointer.applyPendingUps()
        case let .expose(window, r, last):
            if window == canvasWindow.id {
                view.repaint(r)
            } else if last, window == toolbarWindow.id || window == messageWindow.id {
                paintToolbar(force: true)
            } else if last, window == barWindow.id {
                bar.repaint()
            } else if last, window == popupWindow.id {
                popup.repaint()
            } else if last, window == panelWindow.id {
                inspector.repaint()
            } else if last, notebook.owns(window) {
                notebook.expose(window)
            }
        case .mapped(let window):
            if window == top.id {
                mapped = true
                top.takeFocus()
            }
        case let .resized(window, w, h):
            if window == top.id, w != size.width || h != size.height { resize(w, h) }
        case .key(let k):
            dispatcher.lastServerTime = k.time
            handleKey(k)
        case .focusLost:
            // A stroke cannot continue without focus (the grab is gone): cancel, then keep the work.
            view.router.cancelAll()
            autosave()
        case .closeRequested:
            if options.kiosk { show("This kiosk closes with its exit key chord only.") } else { finish(save: true) }
        case .pointer(let e):
            handlePointer(e)
        case .devicesLost(let ids):
            pointer.devicesLost(ids)
        }
    }

    private func resize(_ w: Int, _ h: Int) {
        size = (max(1, w), max(1, h))
        let tb = Double(toolbar.layout.height)
        toolbarWindow.setFrame(Rect(x: 0, y: 0, width: Double(size.width), height: tb))
        layoutCanvas()
        popup.close()
        bar.dirty = true
        inspector.dirty = true
        paintToolbar(force: true)
    }

    /// The canvas takes the width the page strip leaves.
    private func layoutCanvas() {
        let tb = Double(toolbar.layout.height), h = max(1, Double(size.height) - tb)
        try? view.setFrame(Rect(x: 0, y: tb, width: max(1, Double(size.width) - notebook.stripWidth), height: h))
        notebook.layout(top: tb, width: Double(size.width), height: h)
    }

    private func handleKey(_ k: KeyInput) {
        if keyMap.isExitChord(k) { finish(save: true); return }
        if let iw = inspectorWindow {
            // The inspector window reads ink, it does not edit it: its own keys and the window's.
            if iw.handleKey(k) { return }
            if let c = keyMap.command(for: k), [.toggleInspector, .toggleFullscreen, .quit, .zoomIn, .zoomOut].contains(c) { dispatcher.perform(c) }
            return
        }
        if notebook.handleKey(k) { return }
        if popup.isOpen { popup.handleKey(k); return }
        let command = keyMap.command(for: k)
        if case .contextMenu = command { dispatcher.perform(.contextMenu(at: nil)); return }
        if toolbar.prompt != nil {
            if let path = toolbar.promptKey(k) { dispatcher.insertImage(path: path) }
            return
        }
        if let command { dispatcher.perform(command) }
    }

    private func handlePointer(_ e: PointerInput) {
        dispatcher.lastServerTime = e.serverTime
        pointer.note(e)
        let button1 = e.isTouch || e.detail == 1
        // A press anywhere but the canvas (toolbar, page strip, bar, popup) acts on finished strokes.
        if e.isPress, e.window != canvasWindow.id, e.window != messageWindow.id { pointer.applyPendingUps() }
        if notebook.owns(e.window) {
            if e.isPress { popup.close() }
            notebook.handlePointer(e)
            return
        }
        // A pen put down right after choosing a popup's item, or right after the candidates bar
        // stepped aside, can reach the server before that window is unmapped, and its stroke is
        // then delivered there: it is the canvas's ink.
        if (e.window == popupWindow.id && !popup.isOpen) || (e.window == barWindow.id && bar.bar == nil) {
            if e.window == barWindow.id, e.isRelease { barStrokes.forget(e) }
            guard let f = e.window == popupWindow.id ? popup.closedFrame : bar.hiddenFrame else { return }
            var c = e
            c.window = canvasWindow.id
            c.point = Point(x: e.point.x + f.x, y: e.point.y + f.y)
            return handlePointer(c)
        }
        // A stroke that starts on the bar is ink: once it moves off its press, it is the canvas's.
        // (A pen's moves carry no button.)
        if e.window == barWindow.id, button1 || e.isMotion, let f = bar.frame,
           case let .canvas(events) = barStrokes.route(e, origin: Point(x: f.x, y: f.y), canvas: canvasWindow.id) {
            return events.forEach(handlePointer)
        }
        if e.window == barWindow.id || e.window == popupWindow.id {
            guard button1, e.isPress || e.isRelease else { return }
            if e.window == barWindow.id {
                guard bar.bar != nil else { return }
                if e.isPress {
                    bar.press(at: e.point)
                    popup.close()
                } else if let (ref, at) = bar.release(at: e.point) {
                    popup.openCandidates(ref, at: at)
                }
            } else if e.isPress {
                popup.press(at: e.point)
            } else {
                popup.release(at: e.point)
            }
            return
        }
        if let iw = inspectorWindow, e.window == toolbarWindow.id {
            iw.handlePointer(e)
            return
        }
        if e.window == toolbarWindow.id, !e.isMotion {
            if e.isPress, popup.isOpen { popup.close() }
            guard button1 else { return }
            if e.isPress {
                toolbar.press(at: e.point)
            } else if let c = toolbar.release(at: e.point) {
                dispatcher.perform(c)
            }
            paintToolbar()
            return
        }
        // The message strip lies at the canvas's origin and lets the pen through.
        guard e.window == canvasWindow.id || e.window == toolbarWindow.id || e.window == messageWindow.id else { return }
        // Coordinates relative to the canvas even when an implicit grab reports on the toolbar.
        let p = e.window != toolbarWindow.id ? e.point : Point(x: e.point.x, y: e.point.y - Double(toolbar.layout.height))
        // The inspector window only scrolls and zooms (the wheel): pens and fingers do not edit what it shows.
        if inspectorWindow != nil, !(4 ... 7).contains(e.detail) || e.isTouch { return }
        pointer.handle(e, at: p)
    }

    // MARK: EditorDelegate

    public func contentChanged(_ editor: Editor, blockIds: [String]) {
        session.contentChanged()
        bar.dirty = true
        inspector.dirty = true
    }

    public func gestureApplied(_ editor: Editor, gesture: Gesture) {
        bar.dirty = true
        bar.follow(editor.getBlockById(gesture.blockId))
        if tracer.enabled {
            tracer.emit("gesture", .object(["kind": .string(gesture.kind.configName), "block": .string(gesture.blockId),
                                            "words": .array(gesture.words.map { .number(Double($0.index)) })]))
        }
    }

    public func onError(_ editor: Editor, blockId: String, code: QuireError.Code, message: String) {
        show("\(message)")
    }
}

extension AppWindow: CommandHost {
    func show(_ text: String, seconds: TimeInterval = 5) { toolbar.show(text, seconds: seconds) }
    func promptForImage() { toolbar.beginPrompt() }
    func toggleFullscreen() { top.setFullscreen(!top.fullscreen, restoreSize: (options.width, options.height)) }
    func quit() { finish(save: true) }
    func openContextMenu(at p: Point) { popup.openContextMenu(at: p) }
    func openCandidates(_ ref: WordRef, at p: Point) { popup.openCandidates(ref, at: p) }
    func overlaysChanged() { bar.dirty = true; inspector.dirty = true }
    func openPens(at p: Point) { popup.openPens(tool: dispatcher.currentTool, at: p) }
    func openColourGrid(at p: Point) { popup.openColourGrid(tool: dispatcher.currentTool, at: p) }
    func toggleInspector() { inspector.toggle() }
}

extension AppWindow: NotebookHost {
    func notebookChanged() {
        popup.close()
        view.wordHighlight = nil
        bar.dirty = true
        top.setTitle(notebook.controller.title)
        if let n = session.notebook { notebook.strip.follow(n.currentIndex, pages: n.pageCount) }
        notebook.pageShown()
        notebook.paint(force: true)
        paintToolbar(force: true)
    }

    func openMenu(title: String, items: [OverlayMenu.Item], at p: Point?) {
        popup.openMenu(title: title, items: items, at: p ?? Point(x: Double(view.size.width) - 1, y: 0))
    }

    func openFileChooser(_ mode: FileChooserMode) {
        popup.close()
        view.router.cancelAll()
        notebook.openChooser(mode, recent: session.recent?.files ?? [])
    }

    func toggleStrip() {
        notebook.strip.setVisible(!notebook.strip.visible)
        layoutCanvas()
        notebook.paint(force: true)
    }
}

/// The desktop app's entry point.
public enum QuireDesktop {
    /// Opens the window and runs until it is closed. Errors (no display, a locked or corrupt
    /// package) are printed and give a non-zero status.
    public static func run(_ options: AppOptions) -> Int32 {
        do {
            let w = try AppWindow(options: options)
            return try w.run()
        } catch let e as QuireError {
            FileHandle.standardError.write(Data("quire: error: \(e.message) [\(e.code.rawValue)]\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("quire: error: \(error)\n".utf8))
            return 2
        }
    }
}
