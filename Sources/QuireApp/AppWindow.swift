import CCairo
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
    private var inputContext: InputContext?
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

    // Overlays (see Overlays.swift): child windows of the canvas, redrawn only when their content changes.
    private var barWindow: Window = 0
    private var popupWindow: Window = 0
    private var barSurface: OverlaySurface?
    private var popupSurface: OverlaySurface?
    private var canvasOverlay: OverlaySurface?
    private var bar: CandidateBar?
    /// Where the bar window is, canvas pixels (nil: hidden).
    private var barFrame: Rect?
    private var barDirty = true
    private var barTransform: Transform?
    private var barPressed: Int?
    /// The block the bar follows when no Text block is selected: the one last written in.
    private var activeBlockId: String?
    private var lastWords: (blockId: String, words: [RecognizedWord])?
    private var changedWords: Set<Int> = []
    private var changedUntil: Date?
    /// The selected word's box (model mm), highlighted on the page.
    private var wordHighlight: Rect?
    private var popup: OverlayMenu?
    private var popupFrame: Rect?
    private var popupPressed: Int?
    /// What the context menu acts on, and where it was opened (canvas pixels).
    private var menuTarget: (blockId: String?, word: WordRef?, point: Point)?
    /// Pointer sequences whose press closed a popup: the rest of them is dropped.
    private var swallowed: Set<Int> = []
    /// A finger down and still: a context menu opens at the deadline (monotonic ns).
    private var longPress: (touchId: Int, point: Point, deadline: UInt64)?
    private static let longPressNs: UInt64 = 600_000_000
    /// `QUIRE_TRACE=1`: one stdout line per overlay change and applied gesture (for tests and debugging).
    private let trace = !(ProcessInfo.processInfo.environment["QUIRE_TRACE"] ?? "").isEmpty
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
        autosaveIdle = max(0.5, conf[.appAutosaveIdleSeconds])
        exitChord = conf[.appKioskExitChord].lowercased()
        router.palmRejection = conf[.inputPalmRejectionEnable]
        router.palmTimeoutMs = Int64(conf[.inputPalmRejectionTimeoutMs])
        overrides = DeviceClassifier.overrides(conf[.inputDevices])
        if options.kiosk {
            size = x.screenSize
        } else {
            let s = x.screenSize
            size = (min(max(320, options.width), max(320, s.width)), min(max(240, options.height), max(240, s.height)))
        }
        for (type, key) in [(PointerType.mouse, ConfigKey<String>.inputMouseTool), (.touch, .inputTouchTool)] {
            editor.toolController.setTool(Tool(rawValue: conf[key]) ?? (type == .mouse ? .pen : .hand), for: type)
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
        inputContext = InputContext(x, window: top)
        toolbarWindow = XCreateSimpleWindow(d, top, 0, 0, w, tb, 0, black, white)
        canvas = XCreateSimpleWindow(d, top, 0, Int32(tb), w, max(1, h - tb), 0, black, white)
        // The canvas is always fully painted from the page cache: no server-side clearing.
        XSetWindowBackgroundPixmap(d, canvas, 0)
        // Overlays: children of the canvas, mapped when shown (XMapSubwindows below maps only the
        // top-level's children).
        barWindow = XCreateSimpleWindow(d, canvas, 0, 0, 1, 1, 0, black, white)
        popupWindow = XCreateSimpleWindow(d, canvas, 0, 0, 1, 1, 0, black, white)
        XSelectInput(d, toolbarWindow, ExposureMask)
        XSelectInput(d, canvas, ExposureMask | StructureNotifyMask)
        XSelectInput(d, barWindow, ExposureMask)
        XSelectInput(d, popupWindow, ExposureMask)
        let pointer: [Int32] = [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd]
        for w in [canvas, toolbarWindow, barWindow, popupWindow] { x.selectXI(window: w, events: pointer) }
        x.selectXI(window: x.root, events: [XI_HierarchyChanged, XI_DeviceChanged], deviceId: XIAllDevices)
        let visual = UnsafeMutableRawPointer(quire_DefaultVisual(d, x.screen)!)
        canvasSurface = try CairoSurface.xlib(display: d, drawable: UInt(canvas), visual: visual, width: size.width, height: max(1, size.height - layout.height))
        toolbarSurface = try CairoSurface.xlib(display: d, drawable: UInt(toolbarWindow), visual: visual, width: size.width, height: layout.height)
        barSurface = try OverlaySurface(display: d, window: UInt(barWindow), visual: visual, width: 1, height: 1)
        popupSurface = try OverlaySurface(display: d, window: UInt(popupWindow), visual: visual, width: 1, height: 1)
        canvasOverlay = try OverlaySurface(display: d, window: UInt(canvas), visual: visual, width: size.width, height: max(1, size.height - layout.height))
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
            checkLongPress()
            editor.processPendingResults()
            if barDirty || barTransform != editor.viewTransform { updateBar() }
            present()
            updateToolbar()
            XFlush(d)
            idleWork()
            var timeout: Int32 = dirtySince != nil || clipboard.hasPendingRequest || messageUntil != nil || changedUntil != nil ? 250 : 2000
            if let lp = longPress {
                let now = monotonicNs()
                timeout = lp.deadline <= now ? 0 : min(timeout, Int32((lp.deadline - now) / 1_000_000) + 1)
            }
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
        if let until = changedUntil, Date() >= until { barDirty = true }
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
            compositeCanvas(surface, r)
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
        // Pen and touch (XI2 generic events) never go to the input method: the hot path skips it.
        if ev.type != GenericEvent, let inputContext, inputContext.filter(&ev) { return }
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
                compositeCanvas(s, Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
            } else if e.window == toolbarWindow, e.count == 0 {
                updateToolbar(force: true)
            } else if e.window == barWindow, e.count == 0, let bar, let s = barSurface {
                bar.draw(on: s, theme: renderer.theme)
            } else if e.window == popupWindow, e.count == 0, let popup, let s = popupSurface {
                popup.draw(on: s, theme: renderer.theme)
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
        case FocusIn:
            if ev.xfocus.window == top { inputContext?.setFocus(true) }
        case MappingNotify:
            // Another layout (setxkbmap, a test binding a key): look keys up in the new map.
            var m = ev.xmapping
            XRefreshKeyboardMapping(&m)
        case FocusOut:
            if ev.xfocus.window == top { inputContext?.setFocus(false) }
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
        canvasOverlay?.setSize(width: size.width, height: max(1, size.height - tb))
        closePopup()
        barDirty = true
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

    /// Wall clock minus monotonic clock, ms, taken once: events stamped in the same server
    /// millisecond then get the same time, and later events never get an earlier one (sampling
    /// both clocks per event jittered by a millisecond, which could put a double tap's second tap
    /// before its first).
    private lazy var wallMinusMonoMs: Int64 =
        Int64((Date().timeIntervalSince1970 * 1000).rounded()) - Int64(monotonicNs() / 1_000_000)

    /// Milliseconds since 1970 for an X server timestamp. Xorg and Xvfb stamp events with
    /// CLOCK_MONOTONIC milliseconds; when that does not hold, the arrival time is used.
    private func epochMs(_ serverTime: Time) -> Int64 {
        let mono = Int64(monotonicNs() / 1_000_000)
        let age = (mono & 0xFFFF_FFFF) - Int64(serverTime)
        return ((0...60_000).contains(age) ? mono - age : mono) + wallMinusMonoMs
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
        let isPress = type == XI_ButtonPress || type == XI_TouchBegin, isRelease = type == XI_ButtonRelease || type == XI_TouchEnd
        if de.event == barWindow || de.event == popupWindow {
            if isPress || isRelease { handleOverlay(de.event, press: isPress, Point(x: de.event_x, y: de.event_y), button: de.detail, touch: isTouch) }
            return
        }
        if de.event == toolbarWindow, !(type == XI_Motion || type == XI_TouchUpdate) {
            if isPress, popup != nil { closePopup() }
            handleToolbar(type, Point(x: de.event_x, y: de.event_y), button: de.detail, touch: isTouch)
            return
        }
        guard de.event == canvas || de.event == toolbarWindow else { return }
        // A press that closes a popup does nothing else: the rest of its sequence is dropped.
        let key = InputRouter.pointerId(device: source, touchId: isTouch ? Int(de.detail) : nil)
        if swallowed.contains(key) {
            if isRelease { swallowed.remove(key) }
            return
        }
        if popup != nil, isPress {
            closePopup()
            swallowed.insert(key)
            return
        }
        // Coordinates relative to the canvas even when an implicit grab reports on the toolbar.
        let p = de.event == canvas ? Point(x: de.event_x, y: de.event_y) : Point(x: de.event_x, y: de.event_y - Double(layout.height))
        var phase: InputEvent.Phase
        switch type {
        case XI_ButtonPress, XI_ButtonRelease:
            if (4...7).contains(de.detail) {
                if type == XI_ButtonPress { wheel(Int(de.detail), at: p, ctrl: de.mods.effective & ControlMask != 0) }
                return
            }
            if de.detail == 3 {
                // The right button (or a pen's barrel button) opens the context menu.
                if type == XI_ButtonPress, !editor.hasActivePointers { openContextMenu(at: p) }
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
        if phase == .down {
            // A press of any device comes after a held release in the server's order, and a device
            // being disabled reports its release and the hierarchy change in one go: such a release is
            // genuine. Applying it first lets an eraser flipped in right after the pen erase its ink.
            for held in Array(pendingUps.keys) { applyPendingUp(held) }
        } else if pendingUps[source] != nil {
            applyPendingUp(source)
        }
        if phase == .up, !isTouch, kind != .touch {
            pendingUps[source] = e
            return
        }
        let changed = router.handle(e)
        if isTouch {
            trackLongPress(phase, touchId: Int(de.detail), at: p)
            if phase == .up { barDirty = true }   // a tap selects a block and a word
        }
        if changed {
            // Each event reaches the screen now: no frame timer, no batching. A pen move draws
            // just its new segment; page damage (a stroke committed a moment ago, a recognition
            // result) is repainted by the loop once no input is waiting.
            let live = phase == .move ? editor.liveStroke(pointerId: InputRouter.pointerId(device: source, touchId: nil)) : nil
            if let live, let surface = canvasSurface {
                if let r = renderer.drawLiveSegment(live, state: editor.renderState) { compositeCanvas(surface, r) }
            } else {
                present()
            }
            XFlush(x.display)
            if live != nil { latency.record(workNs: monotonicNs() - received, serverTime: UInt64(de.time)) }
        }
    }

    private func applyPendingUp(_ source: Int) {
        guard let e = pendingUps.removeValue(forKey: source) else { return }
        // The bar follows the block last written in (looked up once per stroke, never per move).
        barDirty = true
        defer {
            if let b = editor.hitBlock(at: Point(x: e.x, y: e.y)), b.kind == .text { activeBlockId = b.id }
        }
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
        if editor.configuration[.inputMouseTool] == "pen" {
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
                let b = try editor.addBlock(at: at, type: BlockType.text.rawValue)
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
        var keysym: KeySym = 0
        var typed = ""
        if let inputContext {
            (typed, keysym) = inputContext.lookup(&k)
        } else {
            var buf = [CChar](repeating: 0, count: 32)
            let n = XLookupString(&k, &buf, 31, &keysym, nil)
            typed = n > 0 ? Self.text(buf, n) ?? "" : ""
        }
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
        if popup != nil {
            switch Int32(keysym) {
            case XK_Escape: closePopup()
            case XK_Up, XK_KP_Up: movePopupHighlight(-1)
            case XK_Down, XK_KP_Down, XK_Tab: movePopupHighlight(1)
            case XK_Return, XK_KP_Enter, XK_space:
                if let p = popup, let i = p.highlighted { activate(p.items[i].action) }
            default: break
            }
            return
        }
        if Int32(keysym) == XK_Menu {
            openContextMenu(at: lastCanvasPoint)
            return
        }
        if var p = prompt {
            switch Int32(keysym) {
            case XK_Escape: prompt = nil
            case XK_Return, XK_KP_Enter:
                prompt = nil
                insertImage(p)
            case XK_BackSpace: if !p.isEmpty { p.removeLast() }; prompt = p
            default:
                if !ctrl, Self.isPrintable(typed) { prompt = p + typed }
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
            editor.selectedWord = nil
            barDirty = true
        default:
            // Typing goes into the selected Text block (or a new one).
            var text = ""
            if keysym == KeySym(XK_BackSpace) { text = "\u{8}" } else if keysym == KeySym(XK_Return) || keysym == KeySym(XK_KP_Enter) { text = "\n" }
            else if let s = Self.character(keysym) { text = String(s) }
            else if Self.isPrintable(typed) { text = typed }
            guard !text.isEmpty, part.kind == .textDocument else { return }
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

    /// Text a key may type: something, and no control characters (Ctrl+letter, Delete).
    static func isPrintable(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7f...0x9f).contains($0.value) }
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
                _ = try editor.addBlock(at: p, type: BlockType.text.rawValue, mimeType: .text, data: text)
            }
        } catch { show("Cannot paste: \(message(error))") }
    }

    private func insertImage(_ path: String) {
        let p = (path as NSString).expandingTildeInPath
        let lower = p.lowercased()
        let mime: MimeType = lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png
        do { _ = try editor.addImage(at: lastCanvasPoint, file: p, mimeType: mime) } catch { show("Cannot insert image: \(message(error))") }
    }

    // MARK: overlays

    /// Paints a canvas rectangle from the renderer, then the selected word's highlight over it.
    /// The highlight costs one rectangle test per call when it is elsewhere.
    private func compositeCanvas(_ surface: CairoSurface, _ r: Rect) {
        renderer.composite(into: surface, rect: r)
        guard let box = wordHighlight, let o = canvasOverlay else { return }
        let h = editor.viewTransform.apply(box).insetBy(dx: -3 * scale, dy: -3 * scale)
        guard h.intersects(r) else { return }
        let c = o.context()
        cairo_rectangle(c, r.x, r.y, r.width, r.height)
        cairo_clip(c)
        let sel = renderer.theme.selectionColor
        OverlayMenu.roundedRect(c, h, radius: 4 * scale)
        cairo_set_source_rgba(c, sel.r, sel.g, sel.b, 0.16)
        cairo_fill_preserve(c)
        cairo_set_source_rgba(c, sel.r, sel.g, sel.b, 0.9)
        cairo_set_line_width(c, 1.5 * scale)
        cairo_stroke(c)
        cairo_destroy(c)
        cairo_surface_flush(o.raw)
    }

    /// Repaints the page where an overlay was, at once: the canvas has no background for the
    /// server to paint, and its Expose comes a loop later (a screenshot in between would show the
    /// old overlay).
    private func repaintCanvas(_ r: Rect) {
        guard let s = canvasSurface else { return }
        compositeCanvas(s, r.insetBy(dx: -1, dy: -1))
    }

    /// The block the bar shows: the selected Text block, else the one last written in.
    private func barBlock() -> ContentBlock? {
        if let id = editor.selection.sorted().first, let b = editor.getBlockById(id), b.kind == .text { return b }
        if let id = activeBlockId, let b = editor.getBlockById(id), b.isValid, b.kind == .text { return b }
        return nil
    }

    /// Brings the candidates bar and the word highlight up to date. Runs when content, selection
    /// or the view changed (flagged by the delegate, pen-ups, taps and keys), never per pen move.
    private func updateBar() {
        barDirty = false
        barTransform = editor.viewTransform
        let sw = editor.selectedWord
        let highlight = sw.flatMap { ref -> Rect? in
            guard let ws = editor.getBlockById(ref.blockId)?.words, ws.indices.contains(ref.index) else { return nil }
            let r = inkBounds(ws[ref.index])
            return r.isEmpty ? nil : r
        }
        if highlight != wordHighlight {
            for old in [wordHighlight, highlight].compactMap({ $0 }) {
                renderer.invalidate(editor.viewTransform.apply(old).insetBy(dx: -6 * scale, dy: -6 * scale))
            }
            wordHighlight = highlight
        }
        let viewW = Double(size.width), viewH = Double(max(1, size.height - layout.height))
        guard let block = barBlock(), case let words = block.words, words.contains(where: { !$0.label.isEmpty }) else {
            hideBar()
            return
        }
        let wordsChanged = lastWords?.blockId != block.id || lastWords?.words != words
        if let last = lastWords, last.blockId == block.id {
            if last.words != words {
                changedWords = CandidateBar.changedWords(old: last.words, new: words)
                changedUntil = changedWords.isEmpty ? nil : Date().addingTimeInterval(1.5)
            }
        } else {
            changedWords = []
            changedUntil = nil
        }
        if let until = changedUntil, Date() >= until { changedWords = []; changedUntil = nil }
        lastWords = (block.id, words)
        let r = editor.viewTransform.apply(block.box)
        let h = CandidateBar.height(scale: scale)
        guard r.maxY > 0, r.y < viewH, r.maxX > 0, r.x < viewW else { hideBar(); return }
        // Just above the block; pinned to the top edge when the block's top is scrolled away.
        let bx = max(0, min(r.x, viewW - 80 * scale)).rounded()
        let by = max(0, r.y - h - 2 * scale).rounded()
        let selected = sw?.blockId == block.id ? sw?.index : nil
        let newBar = CandidateBar.layout(blockId: block.id, words: words, changed: changedWords, selected: selected,
                                         scale: scale, maxWidth: max(40, viewW - bx))
        let frame = Rect(x: bx, y: by, width: newBar.width.rounded(.up), height: h)
        guard newBar != bar || frame != barFrame || wordsChanged else { return }
        let d = x.display
        if frame != barFrame {
            XMoveResizeWindow(d, barWindow, Int32(frame.x), Int32(frame.y), UInt32(frame.width), UInt32(frame.height))
            barSurface?.setSize(width: Int(frame.width), height: Int(frame.height))
            if let old = barFrame { repaintCanvas(old) }
        }
        if barFrame == nil { XMapRaised(d, barWindow) }
        if popup != nil { XRaiseWindow(d, popupWindow) }
        let contentChanged = newBar != bar
        bar = newBar
        barFrame = frame
        if let s = barSurface { newBar.draw(on: s, theme: renderer.theme) }
        if trace, contentChanged || wordsChanged { traceBar(newBar, frame, words) }
    }

    /// Where a word is on the page (model mm): its strokes' bounds, or its box once typeset. The
    /// recognizer's word box may take in the space before the word, which is not where the ink is.
    private func inkBounds(_ w: RecognizedWord) -> Rect {
        let strokes = part.model.strokes
        let boxes = w.strokeIds.compactMap { strokes[$0]?.bounds }
        guard let first = boxes.first else { return w.box }
        return boxes.dropFirst().reduce(first) { $0.union($1) }
    }

    private func hideBar() {
        guard let old = barFrame else { return }
        XUnmapWindow(x.display, barWindow)
        repaintCanvas(old)
        barFrame = nil
        bar = nil
        barPressed = nil
        if trace { emitTrace("bar", .object(["block": .null, "words": .array([])])) }
    }

    private func traceBar(_ bar: CandidateBar, _ frame: Rect, _ words: [RecognizedWord]) {
        func rect(_ r: Rect) -> JSONValue { .array([r.x, r.y, r.width, r.height].map { .number($0) }) }
        let items: [JSONValue] = bar.items.map { it in
            .object(["index": .number(Double(it.index)), "label": .string(it.label), "changed": .bool(it.changed),
                     "selected": .bool(it.selected), "styles": .array(it.styles.map { .string($0) }), "ink": .bool(it.ink),
                     "candidates": .number(Double(it.candidateCount)),
                     "box": rect(editor.viewTransform.apply(inkBounds(words[it.index]))),
                     "rbox": rect(editor.viewTransform.apply(words[it.index].box)),
                     "frame": rect(it.frame.offsetBy(dx: frame.x, dy: frame.y))])
        }
        emitTrace("bar", .object(["block": .string(bar.blockId), "frame": rect(frame), "words": .array(items)]))
    }

    private func emitTrace(_ what: String, _ v: JSONValue) {
        // What the line reports is on the screen by the time anyone reads it.
        XSync(x.display, 0)
        let text: String
        do { text = try v.serialized(pretty: false) } catch { text = "(not written: \(error))" }
        FileHandle.standardOutput.write(Data("quire: \(what) \(text)\n".utf8))
    }

    private func handleOverlay(_ window: Window, press: Bool, _ p: Point, button: Int32, touch: Bool) {
        if !touch, button != 1 { return }
        if window == barWindow {
            guard let bar else { return }
            let hit = bar.item(at: p)?.index
            if press {
                barPressed = hit
                closePopup()
                return
            }
            defer { barPressed = nil }
            guard let i = hit, i == barPressed, let f = barFrame, let it = bar.item(at: p) else { return }
            openCandidates(WordRef(blockId: bar.blockId, index: i), at: Point(x: f.x + it.frame.x, y: f.maxY + 2 * scale))
        } else if let popup {
            let hit = popup.item(at: p)
            if press { popupPressed = hit; return }
            defer { popupPressed = nil }
            guard let i = hit, i == popupPressed else { return }
            activate(popup.items[i].action)
        }
    }

    private func openCandidates(_ ref: WordRef, at p: Point) {
        guard let words = editor.getBlockById(ref.blockId)?.words, words.indices.contains(ref.index),
              let cands = try? editor.candidates(ref), !cands.isEmpty else {
            show("No other readings for this word.", seconds: 3)
            return
        }
        let w = words[ref.index]
        let items = cands.enumerated().map { i, c in
            OverlayMenu.Item(label: c.label, action: .candidate(ref, i), enabled: true, current: i == w.selected)
        }
        editor.selectedWord = ref
        barDirty = true
        showPopup(OverlayMenu(items: items, highlighted: nil, scale: scale, title: "Candidates"), kind: "candidates", at: p)
    }

    /// The context menu (long press, right button, Menu key) for the block and word under a point.
    private func openContextMenu(at p: Point) {
        closePopup()
        let block = editor.hitBlock(at: p)
        let word = editor.hitWord(at: p)
        if let block { editor.setSelection([block.id]) }
        if let word { editor.selectedWord = word }
        var wordLabel = ""
        var wordHasInk = false
        var hasCandidates = false
        if let word, let ws = editor.getBlockById(word.blockId)?.words, ws.indices.contains(word.index) {
            wordLabel = ws[word.index].label
            wordHasInk = !ws[word.index].strokeIds.isEmpty
            hasCandidates = !ws[word.index].candidates.isEmpty
        }
        let recognizable = block.map { [BlockType.text, .math, .diagram].contains($0.kind) } ?? false
        var items: [OverlayMenu.Item] = [
            .init(label: "Copy", action: .copy, enabled: block != nil),
            .init(label: "Paste", action: .paste, enabled: true),
            .init(label: "Remove block", action: .remove, enabled: block != nil),
        ]
        // (Typed words have no place on the page, so a word under the finger is ink or typeset in place.)
        if let word, !wordLabel.isEmpty {
            items.append(.init(label: "Remove word", action: .removeWord(word), enabled: true))
        }
        if let word, wordHasInk { items.append(.init(label: "Convert word", action: .convertWord(word), enabled: true)) }
        items.append(.init(label: "Convert", action: .convertBlock, enabled: recognizable))
        items.append(.init(label: "Export", action: .export, enabled: block != nil))
        items.append(.init(label: "Candidates", action: .candidates(word), enabled: word != nil && hasCandidates))
        let title = !wordLabel.isEmpty ? "\u{201C}\(wordLabel)\u{201D}" : block != nil ? "Block" : "Page"
        barDirty = true
        showPopup(OverlayMenu(items: items, highlighted: nil, scale: scale, title: title), kind: "menu", at: p)
        menuTarget = (block?.id, word, p)
    }

    private func showPopup(_ menu: OverlayMenu, kind: String, at p: Point) {
        closePopup()
        let viewW = Double(size.width), viewH = Double(max(1, size.height - layout.height))
        let (w, h) = menu.size
        let px = max(0, min(p.x, viewW - w)).rounded()
        var py = p.y.rounded()
        if py + h > viewH { py = max(0, p.y - h).rounded() }
        let d = x.display
        XMoveResizeWindow(d, popupWindow, Int32(px), Int32(py), UInt32(w), UInt32(h))
        popupSurface?.setSize(width: Int(w), height: Int(h))
        XMapRaised(d, popupWindow)
        popup = menu
        popupFrame = Rect(x: px, y: py, width: w, height: h)
        if let s = popupSurface { menu.draw(on: s, theme: renderer.theme) }
        if trace {
            let items: [JSONValue] = menu.items.indices.map { i in
                let f = menu.frame(of: i).offsetBy(dx: px, dy: py)
                return .object(["label": .string(menu.items[i].label), "enabled": .bool(menu.items[i].enabled),
                                "current": .bool(menu.items[i].current),
                                "frame": .array([f.x, f.y, f.width, f.height].map { .number($0) })])
            }
            emitTrace("popup", .object(["kind": .string(kind), "title": .string(menu.title), "items": .array(items)]))
        }
    }

    private func closePopup() {
        guard popup != nil else { return }
        XUnmapWindow(x.display, popupWindow)
        if let f = popupFrame { repaintCanvas(f) }
        popup = nil
        popupFrame = nil
        popupPressed = nil
        menuTarget = nil
        if trace { emitTrace("popup", .object(["kind": .null])) }
    }

    private func movePopupHighlight(_ step: Int) {
        guard var p = popup else { return }
        p.move(step)
        popup = p
        if let s = popupSurface { p.draw(on: s, theme: renderer.theme) }
    }

    private func activate(_ action: OverlayMenu.Action) {
        let target = menuTarget
        closePopup()
        barDirty = true
        let block = target?.blockId.flatMap { editor.getBlockById($0) }
        do {
            switch action {
            case let .candidate(ref, i):
                try editor.selectCandidate(ref, candidateIndex: i)
            case .copy:
                copySelection()
            case .paste:
                if let t = target { lastCanvasPoint = t.point }
                pasteClipboard()
            case .remove:
                if let block { try editor.removeBlock(block) }
            case let .removeWord(ref):
                try editor.removeWord(ref)
            case let .convertWord(ref):
                try editor.convert(ref, targetState: .digitalEdit)
            case .convertBlock:
                if let block {
                    try editor.waitForIdle()
                    try editor.convert(block, targetState: .digitalEdit)
                }
            case .export:
                if let block { exportBlock(block) }
            case let .candidates(ref):
                if let ref, let t = target { openCandidates(ref, at: t.point) }
            }
        } catch { show("\(message(error))") }
    }

    /// Writes a block beside the package as PNG, and as text when it has any.
    private func exportBlock(_ b: ContentBlock) {
        let url = URL(fileURLWithPath: package.path)
        let base = url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + "-" + b.id).path
        do {
            try editor.export(b, to: base + ".png", mimeType: .png)
            var names = [(base as NSString).lastPathComponent + ".png"]
            if let text = try? editor.export(b, mimeType: .text), !text.isEmpty {
                try editor.export(b, to: base + ".txt", mimeType: .text)
                names.append((base as NSString).lastPathComponent + ".txt")
            }
            show("Exported " + names.joined(separator: " and "))
        } catch { show("Export failed: \(message(error))") }
    }

    private func trackLongPress(_ phase: InputEvent.Phase, touchId: Int, at p: Point) {
        switch phase {
        case .down:
            // One still finger on the hand tool; a second finger (a pinch) cancels it.
            if longPress == nil, router.lastDropReason == nil, router.activeTouchCount == 1,
               editor.toolController.tool(for: .touch) == .hand {
                longPress = (touchId, p, monotonicNs() + Self.longPressNs)
            } else {
                longPress = nil
            }
        case .move:
            if let lp = longPress, lp.touchId == touchId, hypot(p.x - lp.point.x, p.y - lp.point.y) > 8 * scale { longPress = nil }
        case .up:
            if longPress?.touchId == touchId { longPress = nil }
        case .hover:
            break
        }
    }

    private func checkLongPress() {
        guard let lp = longPress, monotonicNs() >= lp.deadline else { return }
        longPress = nil
        // The finger's tap or drag ends here: what it does from now on is the menu's.
        router.cancelTouches()
        openContextMenu(at: lp.point)
    }

    // MARK: EditorDelegate

    public func contentChanged(_ editor: Editor, blockIds: [String]) {
        dirtySince = Date()  // autosave counts idle time from the last change
        barDirty = true
    }

    public func gestureApplied(_ editor: Editor, gesture: Gesture) {
        barDirty = true
        if let b = editor.getBlockById(gesture.blockId), b.kind == .text { activeBlockId = b.id }
        if trace {
            emitTrace("gesture", .object(["kind": .string(gesture.kind.configName), "block": .string(gesture.blockId),
                                          "words": .array(gesture.words.map { .number(Double($0.index)) })]))
        }
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
