import CX11
import Foundation
import Quire

/// Set from signal handlers (on a dispatch queue) and read by the event loop.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A pipe that other threads write to so that the event loop's poll() wakes up.
private final class WakePipe: @unchecked Sendable {
    let readFD: Int32
    let writeFD: Int32
    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw QuireError(.ioError, "cannot create a pipe: \(String(cString: strerror(errno)))") }
        readFD = fds[0]; writeFD = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    func wake() { var b: UInt8 = 1; _ = write(writeFD, &b, 1) }
    func drain() { var buf = [UInt8](repeating: 0, count: 256); while read(readFD, &buf, 256) > 0 {} }
    deinit { close(readFD); close(writeFD) }
}

private func monotonicNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The editor window: Xlib + XInput2 input, Cairo drawing through `CairoRenderer`, a toolbar,
/// keyboard shortcuts, the CLIPBOARD, saving and autosave. Runs on the thread that calls `run()`.
public final class AppWindow: EditorDelegate {
    private let options: AppOptions
    private let x: XConnection
    private let engine: Engine
    private let package: ContentPackage
    private let part: ContentPart
    private let editor: Editor
    private let renderer: CairoRenderer
    private let router: InputRouter
    private let wake: WakePipe
    private let stop = Flag()
    private var signalSources: [DispatchSourceSignal] = []

    private var top: Window = 0
    private var toolbarWindow: Window = 0
    private var canvas: Window = 0
    private var canvasSurface: CairoSurface?
    private var toolbarSurface: CairoSurface?
    private var clipboard: XClipboard!
    private var layout: ToolbarLayout
    private let scale: Double
    private var size: (width: Int, height: Int)
    private var mapped = false
    private var announced = false
    private var quit = false
    private var exitCode: Int32 = 0
    private var fullscreen = false

    private var devices: [Int: InputDevice] = [:]
    /// Pen/mouse releases held until the next round trip (see the loop).
    private var pendingUps: [Int: InputEvent] = [:]
    private var pressure: [Int: Double] = [:]
    private var overrides: [(String, DeviceKind)] = []
    private var pressedCommand: ToolbarCommand?
    private var currentTool: Tool = .pen
    private var lastCanvasPoint = Point(x: 40, y: 40)
    private var lastServerTime: Time = 0

    private var message: String = ""
    private var messageUntil: Date?
    private var toolbarSignature = ""
    private var prompt: String?   // image path being typed

    private var dirtySince: Date?
    private var autosaveIdle: TimeInterval
    private var exitChord: String
    private let latency = LatencyRecorder()

    /// Opens the display and the document and creates the window (not shown until `run`).
    public init(options: AppOptions) throws {
        self.options = options
        x = try XConnection(name: options.display)
        var warnings: [String] = []
        engine = try makeAppEngine { warnings.append($0) }
        let (pkg, part, note) = try openDocument(engine: engine, path: options.file)
        package = pkg
        self.part = part
        message = (warnings + [note]).filter { !$0.isEmpty }.joined(separator: " ")
        if !message.isEmpty { messageUntil = Date().addingTimeInterval(8) }
        for w in warnings { FileHandle.standardError.write(Data("quire: warning: \(w)\n".utf8)) }
        wake = try WakePipe()
        let dpi = x.dpi
        scale = max(1, dpi / 96)
        layout = ToolbarLayout(kiosk: options.kiosk, scale: scale)
        renderer = CairoRenderer()
        let metrics = CairoFontMetrics()
        editor = engine.createEditor(renderer: renderer, fontMetricsProvider: metrics)
        editor.pixelsPerMillimetre = dpi / 25.4
        router = InputRouter(editor: editor)
        let conf = editor.configuration
        autosaveIdle = max(0.5, (try? conf.getNumber("app.autosave.idle-seconds", default: 3)) ?? 3)
        exitChord = ((try? conf.getString("app.kiosk.exit-chord", default: "ctrl+alt+shift+q")) ?? "ctrl+alt+shift+q").lowercased()
        router.palmRejection = (try? conf.getBoolean("input.palm-rejection.enable", default: true)) ?? true
        router.palmTimeoutMs = Int64((try? conf.getNumber("input.palm-rejection.timeout-ms", default: 600)) ?? 600)
        overrides = DeviceClassifier.overrides((try? conf.getStringArray("input.devices", default: [])) ?? [])
        if options.kiosk {
            size = x.screenSize
        } else {
            let s = x.screenSize
            size = (min(max(320, options.width), max(320, s.width)), min(max(240, options.height), max(240, s.height)))
        }
        for (type, key, def) in [(PointerType.mouse, "input.mouse-tool", "pen"), (.touch, "input.touch-tool", "hand")] {
            let name = (try? conf.getString(key, default: def)) ?? def
            editor.toolController.setTool(Tool(rawValue: name) ?? (def == "pen" ? .pen : .hand), for: type)
        }
        router.onError = { FileHandle.standardError.write(Data("quire: input: \($0)\n".utf8)) }
    }

    // MARK: setup

    private func createWindows() throws {
        let d = x.display
        let black = quire_BlackPixel(d, x.screen), white = quire_WhitePixel(d, x.screen)
        let w = UInt32(size.width), h = UInt32(size.height), tb = UInt32(layout.height)
        top = XCreateSimpleWindow(d, x.root, 0, 0, w, h, 0, black, white)
        let title = "Quire - " + URL(fileURLWithPath: package.path).lastPathComponent
        XStoreName(d, top, title)
        var utf8 = Array(title.utf8)
        XChangeProperty(d, top, x.atom("_NET_WM_NAME"), x.atom("UTF8_STRING"), 8, PropModeReplace, &utf8, Int32(utf8.count))
        if let hint = XAllocClassHint() {
            let name = strdup("quire"), cls = strdup("Quire")
            hint.pointee.res_name = name
            hint.pointee.res_class = cls
            XSetClassHint(d, top, hint)
            XFree(hint); free(name); free(cls)
        }
        var proto = x.atom("WM_DELETE_WINDOW")
        XSetWMProtocols(d, top, &proto, 1)
        if options.kiosk {
            var state = [x.atom("_NET_WM_STATE_FULLSCREEN")]
            _ = state.withUnsafeMutableBytes {
                XChangeProperty(d, top, x.atom("_NET_WM_STATE"), Atom(XA_ATOM), 32, PropModeReplace, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
            }
            fullscreen = true
        }
        XSelectInput(d, top, KeyPressMask | StructureNotifyMask | FocusChangeMask | PropertyChangeMask)
        toolbarWindow = XCreateSimpleWindow(d, top, 0, 0, w, tb, 0, black, white)
        canvas = XCreateSimpleWindow(d, top, 0, Int32(tb), w, max(1, h - tb), 0, black, white)
        // The canvas is always fully painted from the page cache: no server-side clearing.
        XSetWindowBackgroundPixmap(d, canvas, 0)
        XSelectInput(d, toolbarWindow, ExposureMask)
        XSelectInput(d, canvas, ExposureMask | StructureNotifyMask)
        let pointer: [Int32] = [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd]
        x.selectXI(window: canvas, events: pointer)
        x.selectXI(window: toolbarWindow, events: pointer)
        x.selectXI(window: x.root, events: [XI_HierarchyChanged, XI_DeviceChanged], deviceId: XIAllDevices)
        let visual = UnsafeMutableRawPointer(quire_DefaultVisual(d, x.screen)!)
        canvasSurface = try CairoSurface.xlib(display: d, drawable: UInt(canvas), visual: visual, width: size.width, height: max(1, size.height - layout.height))
        toolbarSurface = try CairoSurface.xlib(display: d, drawable: UInt(toolbarWindow), visual: visual, width: size.width, height: layout.height)
        clipboard = XClipboard(x: x, window: top)
        try editor.setViewSize(width: size.width, height: max(1, size.height - layout.height))
        try editor.setPart(part)
        editor.addDelegate(self)
        let wakePipe = wake
        renderer.onInvalidate = { wakePipe.wake() }
        editor.onRecognitionResult = { wakePipe.wake() }
        refreshDevices()
        XMapSubwindows(d, top)
        XMapWindow(d, top)
        XFlush(d)
    }

    private func installSignalHandlers() {
        let flag = stop, wakePipe = wake
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler { flag.set(); wakePipe.wake() }
            src.resume()
            signalSources.append(src)
        }
    }

    // MARK: the loop

    /// Shows the window and runs until it is closed; returns the process exit status.
    public func run() throws -> Int32 {
        installSignalHandlers()
        try createWindows()
        let d = x.display
        var fds = [pollfd(fd: x.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
        while !quit {
            while XPending(d) > 0 && !quit {
                var ev = XEvent()
                XNextEvent(d, &ev)
                handle(&ev, received: monotonicNs())
            }
            if !pendingUps.isEmpty {
                // Disabling a device makes the server release its buttons first: the round trip
                // brings in the hierarchy change that reveals such a release as a lost pointer.
                XSync(d, 0)
                while XPending(d) > 0 && !quit {
                    var ev = XEvent()
                    XNextEvent(d, &ev)
                    handle(&ev, received: monotonicNs())
                }
                for source in Array(pendingUps.keys) { applyPendingUp(source) }
            }
            if stop.isSet { finish(save: true); break }
            if quit { break }
            editor.processPendingResults()
            present()
            updateToolbar()
            XFlush(d)
            idleWork()
            let timeout: Int32 = dirtySince != nil || clipboard.hasPendingRequest || messageUntil != nil ? 250 : 2000
            fds[0].revents = 0; fds[1].revents = 0
            _ = poll(&fds, 2, XPending(d) > 0 ? 0 : timeout)
            if fds[1].revents != 0 { wake.drain() }
        }
        latency.write(to: options.latencyLog)
        package.close()
        XDestroyWindow(d, top)
        XFlush(d)
        return exitCode
    }

    private func idleWork() {
        clipboard.expire()
        if let until = messageUntil, Date() > until { message = ""; messageUntil = nil }
        if let since = dirtySince, Date().timeIntervalSince(since) >= autosaveIdle, !editor.hasActivePointers {
            autosave()
        }
    }

    private func autosave() {
        guard dirtySince != nil else { return }
        do { try package.saveToTemp(); dirtySince = nil } catch let e as QuireError {
            show("Autosave failed: \(e.message)")
        } catch { show("Autosave failed: \(error)") }
    }

    private func save() {
        do {
            try package.save()
            dirtySince = nil
            show("Saved \(URL(fileURLWithPath: package.path).lastPathComponent)")
        } catch let e as QuireError {
            show("Save failed: \(e.message)")
        } catch { show("Save failed: \(error)") }
    }

    /// Leaves the loop, saving the package first (closing a note-taking window never loses ink).
    private func finish(save doSave: Bool) {
        router.cancelAll()
        if doSave {
            do { try package.save() } catch {
                // The temp snapshot still holds everything: the next start recovers it.
                try? package.saveToTemp()
                FileHandle.standardError.write(Data("quire: error: could not save \(package.path): \(error)\n".utf8))
                exitCode = 1
            }
        }
        quit = true
    }

    private func show(_ text: String, seconds: TimeInterval = 5) {
        message = text
        messageUntil = Date().addingTimeInterval(seconds)
        FileHandle.standardError.write(Data("quire: \(text)\n".utf8))
    }

    // MARK: drawing

    private func present() {
        guard let surface = canvasSurface else { return }
        if let r = renderer.render(part: part.model, state: editor.renderState) {
            renderer.composite(into: surface, rect: r)
        }
        if mapped, !announced {
            announced = true
            XSync(x.display, 0)
            let line = String(format: "quire: ready window=0x%lx canvas=0x%lx x=0 y=%d width=%d height=%d scale=%.3f\n",
                              UInt(top), UInt(canvas), layout.height, size.width, max(1, size.height - layout.height), scale)
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }

    private func updateToolbar(force: Bool = false) {
        let sig = "\(currentTool)|\(editor.canUndo)|\(editor.canRedo)|\(message)|\(prompt ?? "-")|\(pressedCommand?.rawValue ?? "")|\(size.width)"
        guard force || sig != toolbarSignature, let s = toolbarSurface else { return }
        toolbarSignature = sig
        let buttons = layout.frames().map { c, f in
            ChromeButton(id: c.rawValue, label: c.label, frame: f,
                         active: c.tool == currentTool || c == pressedCommand,
                         enabled: c == .undo ? editor.canUndo : c == .redo ? editor.canRedo : true)
        }
        let text = prompt.map { "Image file: \($0)_  (Enter to insert, Esc to cancel)" } ?? message
        ChromePainter.drawToolbar(on: s, width: size.width, height: layout.height, scale: scale, buttons: buttons,
                                  message: text, theme: renderer.theme)
    }

    // MARK: events

    private func handle(_ ev: inout XEvent, received: UInt64) {
        // Keys, focus and window events act on a finished stroke (Ctrl+C right after a lasso).
        if ev.type != GenericEvent, !pendingUps.isEmpty {
            for source in Array(pendingUps.keys) { applyPendingUp(source) }
        }
        switch ev.type {
        case GenericEvent:
            handleGeneric(&ev, received: received)
        case Expose:
            let e = ev.xexpose
            if e.window == canvas, let s = canvasSurface {
                renderer.composite(into: s, rect: Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
            } else if e.window == toolbarWindow, e.count == 0 {
                updateToolbar(force: true)
            }
        case MapNotify:
            if ev.xmap.window == top {
                mapped = true
                XSetInputFocus(x.display, top, RevertToParent, 0)
            }
        case ConfigureNotify:
            let e = ev.xconfigure
            if e.window == top, Int(e.width) != size.width || Int(e.height) != size.height { resize(Int(e.width), Int(e.height)) }
        case KeyPress:
            var k = ev.xkey
            lastServerTime = k.time
            handleKey(&k)
        case FocusOut:
            // A stroke cannot continue without focus (the grab is gone): cancel, then keep the work.
            if ev.xfocus.window == top, ev.xfocus.mode == NotifyNormal || ev.xfocus.mode == NotifyGrab {
                router.cancelAll()
                autosave()
            }
        case ClientMessage:
            let e = ev.xclient
            if e.message_type == x.atom("WM_PROTOCOLS"), Atom(e.data.l.0) == x.atom("WM_DELETE_WINDOW") {
                if options.kiosk { show("This kiosk closes with its exit key chord only.") } else { finish(save: true) }
            }
        case SelectionRequest:
            clipboard.handleRequest(ev.xselectionrequest)
        case SelectionClear:
            clipboard.handleClear(ev.xselectionclear)
        case SelectionNotify:
            clipboard.handleNotify(ev.xselection)
        default:
            break
        }
    }

    private func resize(_ w: Int, _ h: Int) {
        size = (max(1, w), max(1, h))
        let tb = layout.height
        XMoveResizeWindow(x.display, toolbarWindow, 0, 0, UInt32(size.width), UInt32(tb))
        XMoveResizeWindow(x.display, canvas, 0, Int32(tb), UInt32(size.width), UInt32(max(1, size.height - tb)))
        canvasSurface?.setXlibSize(width: size.width, height: max(1, size.height - tb))
        toolbarSurface?.setXlibSize(width: size.width, height: tb)
        try? editor.setViewSize(width: size.width, height: max(1, size.height - tb))
        updateToolbar(force: true)
    }

    private func refreshDevices() {
        let list = x.queryDevices(overrides: overrides)
        let old = devices
        devices = Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
        for (id, _) in old where devices[id] == nil || devices[id]?.enabled == false {
            pendingUps[id] = nil
            router.deviceLost(id)
        }
        if ProcessInfo.processInfo.environment["QUIRE_DEBUG_DEVICES"] != nil {
            for d in list { FileHandle.standardError.write(Data("quire: device \(d.id) '\(d.name)' -> \(d.kind.rawValue) pressure-axis=\(d.pressureAxis.map(String.init) ?? "none")\n".utf8)) }
        }
    }

    /// Milliseconds since 1970 for an X server timestamp. Xorg and Xvfb stamp events with
    /// CLOCK_MONOTONIC milliseconds; when that does not hold, the arrival time is used.
    private func epochMs(_ serverTime: Time) -> Int64 {
        let mono = Int64(monotonicNs() / 1_000_000)
        let wall = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let st = Int64(serverTime)
        let age = (mono & 0xFFFF_FFFF) - st
        return (0...60_000).contains(age) ? wall - age : wall
    }

    private func handleGeneric(_ ev: inout XEvent, received: UInt64) {
        var cookie = ev.xcookie
        guard cookie.extension == x.xiOpcode, XGetEventData(x.display, &cookie) != 0 else { return }
        defer { XFreeEventData(x.display, &cookie) }
        switch cookie.evtype {
        case XI_HierarchyChanged, XI_DeviceChanged:
            refreshDevices()
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            let de = cookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            handleDevice(cookie.evtype, de, received: received)
        default:
            break
        }
    }

    private func handleDevice(_ type: Int32, _ de: XIDeviceEvent, received: UInt64) {
        // Pointer events emulated from touches would write a second time.
        if de.flags & Int32(XIPointerEmulated) != 0 { return }
        lastServerTime = de.time
        let source = Int(de.sourceid)
        if devices[source] == nil { refreshDevices() }
        let dev = devices[source] ?? InputDevice(id: source, name: "unknown", kind: .mouse)
        if let axis = dev.pressureAxis {
            let mask = de.valuators.mask, count = Int(de.valuators.mask_len) * 8
            var vi = 0
            for bit in 0..<min(count, axis + 1) where quire_XIMaskIsSet(mask, Int32(bit)) != 0 {
                if bit == axis { pressure[source] = dev.normalizedPressure(de.valuators.values[vi]) }
                vi += 1
            }
        }
        let isTouch = type == XI_TouchBegin || type == XI_TouchUpdate || type == XI_TouchEnd
        let kind: DeviceKind = isTouch ? .touch : (dev.kind == .touch ? .mouse : dev.kind)
        let t = epochMs(de.time)
        if de.event == toolbarWindow, !(type == XI_Motion || type == XI_TouchUpdate) {
            handleToolbar(type, Point(x: de.event_x, y: de.event_y), button: de.detail, touch: isTouch)
            return
        }
        guard de.event == canvas || de.event == toolbarWindow else { return }
        // Coordinates relative to the canvas even when an implicit grab reports on the toolbar.
        let p = de.event == canvas ? Point(x: de.event_x, y: de.event_y) : Point(x: de.event_x, y: de.event_y - Double(layout.height))
        var phase: InputEvent.Phase
        switch type {
        case XI_ButtonPress, XI_ButtonRelease:
            if (4...7).contains(de.detail) {
                if type == XI_ButtonPress { wheel(Int(de.detail), at: p, ctrl: de.mods.effective & ControlMask != 0) }
                return
            }
            guard de.detail == 1 else { return }
            phase = type == XI_ButtonPress ? .down : .up
        case XI_Motion: phase = .move
        case XI_TouchBegin: phase = .down
        case XI_TouchUpdate: phase = .move
        default: phase = .up
        }
        let f = pressure[source] ?? (phase == .up ? 0 : 0.5)
        lastCanvasPoint = p
        let e = InputEvent(phase: phase, device: source, kind: kind, touchId: isTouch ? Int(de.detail) : nil,
                           x: p.x, y: p.y, time: t, pressure: dev.pressureAxis == nil ? 0.5 : f)
        if pendingUps[source] != nil { applyPendingUp(source) }
        if phase == .up, !isTouch, kind != .touch {
            pendingUps[source] = e
            return
        }
        let changed = router.handle(e)
        if changed {
            // Each event reaches the screen now: no frame timer, no batching. A pen move draws
            // just its new segment; page damage (a stroke committed a moment ago, a recognition
            // result) is repainted by the loop once no input is waiting.
            let live = phase == .move ? editor.liveStroke(pointerId: InputRouter.pointerId(device: source, touchId: nil)) : nil
            if let live, let surface = canvasSurface {
                if let r = renderer.drawLiveSegment(live, state: editor.renderState) { renderer.composite(into: surface, rect: r) }
            } else {
                present()
            }
            XFlush(x.display)
            if live != nil { latency.record(workNs: monotonicNs() - received, serverTime: UInt64(de.time)) }
        }
    }

    private func applyPendingUp(_ source: Int) {
        guard let e = pendingUps.removeValue(forKey: source) else { return }
        if router.handle(e) {
            present()
            XFlush(x.display)
        }
    }

    private func wheel(_ button: Int, at p: Point, ctrl: Bool) {
        let step = 48 * scale
        if ctrl {
            editor.zoom(by: button == 4 ? 1.1 : button == 5 ? 1 / 1.1 : 1, at: p)
        } else {
            switch button {
            case 4: editor.scroll(by: Point(x: 0, y: -step))
            case 5: editor.scroll(by: Point(x: 0, y: step))
            case 6: editor.scroll(by: Point(x: -step, y: 0))
            default: editor.scroll(by: Point(x: step, y: 0))
            }
        }
    }

    private func handleToolbar(_ type: Int32, _ p: Point, button: Int32, touch: Bool) {
        let press = type == XI_ButtonPress || type == XI_TouchBegin
        if !touch, button != 1 { return }
        if press {
            pressedCommand = layout.command(at: p)
        } else {
            let c = layout.command(at: p)
            let pressed = pressedCommand
            pressedCommand = nil
            if let c, c == pressed { run(c) }
        }
        updateToolbar()
    }

    // MARK: commands

    private func setTool(_ tool: Tool) {
        currentTool = tool
        editor.toolController.setTool(tool, for: .pen)
        if ((try? editor.configuration.getString("input.mouse-tool", default: "pen")) ?? "pen") == "pen" {
            editor.toolController.setTool(tool, for: .mouse)
        }
    }

    private func run(_ c: ToolbarCommand) {
        if let t = c.tool { setTool(t); return }
        router.cancelAll()
        switch c {
        case .undo: editor.undo()
        case .redo: editor.redo()
        case .clear: editor.clear()
        case .convert:
            do {
                try editor.waitForIdle()
                let target = editor.selection.first.flatMap { editor.getBlockById($0) }
                try editor.convert(target, targetState: .digitalEdit)
            } catch { show("Convert failed: \(message(error))") }
        case .text:
            do {
                // An empty Text block below everything; typing fills it.
                let bottom = editor.rootBlock?.children.map(\.box.maxY).max() ?? 0
                let at = editor.viewTransform.apply(Point(x: 5, y: bottom + 6))
                let b = try editor.addBlock(at: at, type: "Text")
                editor.setSelection([b.id])
                show("Type to add text to the new block.")
            } catch { show("Cannot add a text block: \(message(error))") }
        case .image:
            prompt = ""
        case .save:
            save()
        default:
            break
        }
    }

    private func message(_ error: Error) -> String { (error as? QuireError)?.message ?? "\(error)" }

    private func selectedBlock() -> ContentBlock? {
        editor.selection.sorted().first.flatMap { editor.getBlockById($0) }
    }

    private func handleKey(_ k: inout XKeyEvent) {
        var buf = [CChar](repeating: 0, count: 32)
        var keysym: KeySym = 0
        let n = XLookupString(&k, &buf, 31, &keysym, nil)
        let ctrl = k.state & UInt32(ControlMask) != 0, shift = k.state & UInt32(ShiftMask) != 0, alt = k.state & UInt32(Mod1Mask) != 0
        let lower = keysym >= 0x41 && keysym <= 0x5a ? keysym + 0x20 : keysym
        if options.kiosk {
            var chord: [String] = []
            if ctrl { chord.append("ctrl") }
            if alt { chord.append("alt") }
            if shift { chord.append("shift") }
            if let name = XKeysymToString(lower) { chord.append(String(cString: name).lowercased()) }
            if chord.joined(separator: "+") == exitChord { finish(save: true); return }
        }
        if var p = prompt {
            switch Int32(keysym) {
            case XK_Escape: prompt = nil
            case XK_Return, XK_KP_Enter:
                prompt = nil
                insertImage(p)
            case XK_BackSpace: if !p.isEmpty { p.removeLast() }; prompt = p
            default:
                if n > 0, !ctrl, let s = Self.text(buf, n) { prompt = p + s }
            }
            return
        }
        if ctrl {
            switch Int32(lower) {
            case XK_z: router.cancelAll(); if shift { editor.redo() } else { editor.undo() }
            case XK_y: router.cancelAll(); editor.redo()
            case XK_s: save()
            case XK_c: copySelection()
            case XK_v: pasteClipboard()
            case XK_plus, XK_equal, XK_KP_Add: editor.zoom(by: 1.25, at: Point(x: Double(size.width) / 2, y: Double(size.height - layout.height) / 2))
            case XK_minus, XK_KP_Subtract: editor.zoom(by: 0.8, at: Point(x: Double(size.width) / 2, y: Double(size.height - layout.height) / 2))
            case XK_q: if !options.kiosk { finish(save: true) }
            case XK_Return, XK_KP_Enter: run(.convert)
            default: break
            }
            return
        }
        switch Int32(keysym) {
        case XK_F11:
            if !options.kiosk { toggleFullscreen() }
        case XK_Delete:
            if let b = selectedBlock() {
                do { try editor.removeBlock(b) } catch { show("Cannot remove: \(message(error))") }
            }
        case XK_Escape:
            editor.setSelection([])
        default:
            // Typing goes into the selected Text block (or a new one).
            var text = ""
            if keysym == KeySym(XK_BackSpace) { text = "\u{8}" } else if keysym == KeySym(XK_Return) || keysym == KeySym(XK_KP_Enter) { text = "\n" }
            else if let s = Self.character(keysym) { text = String(s) }
            else if n > 0, let s = Self.text(buf, n), s.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) { text = s }
            guard !text.isEmpty, part.type == "Text Document" else { return }
            guard text != "\u{8}" || selectedBlock() != nil else { return }
            do {
                let b = try editor.typeText(text, into: selectedBlock())
                editor.setSelection([b.id])
            } catch { show("Cannot type here: \(message(error))") }
        }
    }

    static func text(_ buf: [CChar], _ n: Int32) -> String? {
        String(validating: buf.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The character of a keysym: Latin-1 keysyms are their code points, Unicode keysyms are 0x01000000 + code point.
    static func character(_ keysym: KeySym) -> Character? {
        if keysym >= 0x20 && keysym <= 0x7e || keysym >= 0xa0 && keysym <= 0xff { return Character(UnicodeScalar(UInt8(keysym))) }
        if keysym & 0xff00_0000 == 0x0100_0000, let u = UnicodeScalar(UInt32(keysym & 0x00ff_ffff)), u.value >= 0x20 { return Character(u) }
        return nil
    }

    private func toggleFullscreen() {
        fullscreen.toggle()
        // With a window manager: ask it (EWMH). Without one, resize to the screen ourselves.
        var ev = XEvent()
        ev.xclient.type = ClientMessage
        ev.xclient.window = top
        ev.xclient.message_type = x.atom("_NET_WM_STATE")
        ev.xclient.format = 32
        ev.xclient.data.l.0 = fullscreen ? 1 : 0
        ev.xclient.data.l.1 = Int(x.atom("_NET_WM_STATE_FULLSCREEN"))
        XSendEvent(x.display, x.root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &ev)
        let s = x.screenSize
        if fullscreen {
            XMoveResizeWindow(x.display, top, 0, 0, UInt32(s.width), UInt32(s.height))
        } else {
            XResizeWindow(x.display, top, UInt32(options.width), UInt32(options.height))
        }
    }

    // MARK: clipboard and images

    private func copySelection() {
        guard let b = selectedBlock() else { show("Select a block to copy (tap it, or draw a lasso)."); return }
        do {
            var offers: [String: Data] = [MimeType.quireClipboard.typeName: try editor.copyData(b)]
            let text = (try? editor.export(b, mimeType: .text)) ?? b.text
            if !text.isEmpty {
                offers["UTF8_STRING"] = Data(text.utf8)
                offers["text/plain;charset=utf-8"] = Data(text.utf8)
            }
            if let png = try? editor.exportImageData(b, mimeType: .png, dpi: 96 * scale) { offers["image/png"] = png }
            if clipboard.own(offers, time: lastServerTime) { show("Copied.", seconds: 2) } else { show("Could not take the clipboard.") }
        } catch { show("Cannot copy: \(message(error))") }
    }

    private func pasteClipboard() {
        let at = lastCanvasPoint
        if clipboard.ownsClipboard, let data = clipboard.offers[MimeType.quireClipboard.typeName] {
            paste(type: MimeType.quireClipboard.typeName, data: data, at: at)
            return
        }
        clipboard.requestPaste(time: lastServerTime) { [weak self] result in
            guard let self else { return }
            guard let (type, data) = result else { self.show("Nothing to paste (or the clipboard owner did not answer)."); return }
            self.paste(type: type, data: data, at: at)
        }
    }

    private func paste(type: String, data: Data, at p: Point) {
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
                _ = try editor.addBlock(at: p, type: "Text", mimeType: .text, data: text)
            }
        } catch { show("Cannot paste: \(message(error))") }
    }

    private func insertImage(_ path: String) {
        let p = (path as NSString).expandingTildeInPath
        let lower = p.lowercased()
        let mime: MimeType = lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png
        do { _ = try editor.addImage(at: lastCanvasPoint, file: p, mimeType: mime) } catch { show("Cannot insert image: \(message(error))") }
    }

    // MARK: EditorDelegate

    public func contentChanged(_ editor: Editor, blockIds: [String]) {
        dirtySince = Date()  // autosave counts idle time from the last change
    }

    public func onError(_ editor: Editor, blockId: String, code: QuireError.Code, message: String) {
        show("\(message)")
    }
}

/// Quire's own share of each pen event's latency: from reading the event off the X connection to
/// the flush of its pixels, plus the X server timestamp to flush (millisecond resolution).
final class LatencyRecorder {
    private var workUs: [Double] = []
    private var serverMs: [Double] = []

    func record(workNs: UInt64, serverTime: UInt64) {
        workUs.append(Double(workNs) / 1000)
        let nowMs = (monotonicNs() / 1_000_000) & 0xFFFF_FFFF
        if nowMs >= serverTime, nowMs - serverTime < 60_000 { serverMs.append(Double(nowMs - serverTime)) }
    }

    static func percentile(_ v: [Double], _ p: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    func write(to path: String?) {
        guard let path else { return }
        let o: JSONValue = .object([
            "events": .number(Double(workUs.count)),
            "work_us": .object(["p50": .number(Self.percentile(workUs, 0.5)), "p99": .number(Self.percentile(workUs, 0.99)),
                                "max": .number(workUs.max() ?? 0)]),
            "server_to_flush_ms": .object(["p50": .number(Self.percentile(serverMs, 0.5)), "p99": .number(Self.percentile(serverMs, 0.99)),
                                           "count": .number(Double(serverMs.count))]),
        ])
        try? FileIO.writeAtomically(Data(o.serialized(pretty: true).utf8), to: path)
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
