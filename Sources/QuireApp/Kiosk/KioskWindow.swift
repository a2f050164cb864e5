import Foundation
import Quire
import QuireForms

/// How a kiosk form window is asked to start (`quire form run`, `quire edit FORM --kiosk`).
public struct KioskOptions: Sendable {
    /// The form package.
    public var file: String
    /// The SQLite file of submissions; nil: `$XDG_DATA_HOME/quire/submissions.sqlite`.
    public var store: String?
    /// A window of this size instead of the whole screen (trying a form on a desktop).
    public var windowSize: (width: Int, height: Int)?
    /// X display name; nil uses $DISPLAY.
    public var display: String?
    public init(file: String) { self.file = file }
}

/// A kiosk form on screen: full screen, the title, each field a labelled box with its own editor
/// and canvas (an `EditorView`), its value typeset beside it, Clear, Clear all and Submit, the
/// thank-you screen and the idle reset (`KioskController`), candidates in a popup. Pen and touch
/// write (touch unless the spec sets `input.touch-tool`), with palm rejection across all fields.
/// Only `app.kiosk.exit-chord` leaves. Runs on the thread that calls `run()`.
public final class KioskWindow {
    private let display: X11Display
    private let engine: Engine
    private let form: Form
    private let controller: KioskController
    private let top: XTopLevel
    /// The whole window's background: title, labels, values, buttons (field canvases are its children).
    private let chrome: XChildWindow
    private let popupWindow: XChildWindow
    private let events: XEventSource
    private let clipboard: XClipboard
    private let keyMap: KeyMap
    private let wake: WakePipe
    private let stop = StopSignals()
    private let tracer = Tracer()
    private let clock = EventClock()
    private let palm = PalmState()
    private let scale: Double
    private var size: (width: Int, height: Int)
    private var layout: KioskLayout
    /// Field views in spec order.
    private var views: [EditorView] = []
    private var viewByWindow: [WindowID: Int] = [:]
    private var popup: (field: Int, menu: OverlayMenu, frame: Rect, alternatives: [FieldValues.Alternative])?
    private var pressedTarget: KioskLayout.Target?
    private var pressedPopupItem: Int?
    private var chromeDirty = true
    private var mapped = false
    private var announced = false
    private var quitting = false
    /// The field canvases are mapped (not on the thank-you screen; the first frame maps them).
    private var canvasesShown = false
    private var shownCountdown: Int?

    public init(options: KioskOptions) throws {
        display = try X11Display(name: options.display)
        var warnings: [String] = []
        engine = try makeAppEngine { warnings.append($0) }
        for w in warnings { FileHandle.standardError.write(Data("quire: warning: \(w)\n".utf8)) }
        form = try Form.open(path: options.file, engine: engine) { _ in CairoRenderer() }
        // Touch writes in a form unless the spec (form or field) says otherwise.
        if form.spec.configuration["input.touch-tool"] == nil {
            try form.configuration.setString(Tool.pen.rawValue, forKey: ConfigKey<String>.inputTouchTool.name)
        }
        let storePath = options.store
        controller = KioskController(form: form, now: { Double(monotonicNs()) / 1e9 }, openStore: { try SubmissionStore(path: storePath) })
        wake = try WakePipe()
        scale = max(1, display.dpi / 96)
        let conf = form.configuration
        keyMap = KeyMap(kiosk: true, exitChord: conf[.appKioskExitChord])
        palm.enabled = conf[.inputPalmRejectionEnable]
        palm.timeoutMs = Int64(conf[.inputPalmRejectionTimeoutMs])
        let s = display.screenSize
        size = options.windowSize.map { (min(max(320, $0.width), s.width), min(max(240, $0.height), s.height)) } ?? s
        layout = KioskLayout(fields: form.spec.fields.map { .init(place: $0.place) }, width: size.width, height: size.height, scale: scale)
        top = display.makeTopLevel(width: size.width, height: size.height, title: "Quire - " + form.spec.title, fullscreen: options.windowSize == nil)
        chrome = try top.createChild(frame: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)), keepContent: true)
        clipboard = display.makeClipboard(window: top)
        events = display.makeEventSource(top: top, clipboard: clipboard)
        events.overrides = DeviceClassifier.overrides(conf[.inputDevices])

        let wakePipe = wake
        for (i, f) in form.spec.fields.enumerated() {
            let editor = form.editors[f.id]!
            guard let renderer = editor.renderer as? CairoRenderer else { throw QuireError(.invalidArgument, "field '\(f.id)' has no renderer") }
            let view = EditorView(editor: editor, renderer: renderer, scale: scale)
            view.router.palm = palm
            view.router.onError = { FileHandle.standardError.write(Data("quire: input: \($0)\n".utf8)) }
            for (type, key) in [(PointerType.mouse, ConfigKey<String>.inputMouseTool), (.touch, .inputTouchTool)] {
                editor.toolController.setTool(Tool(rawValue: editor.configuration[key]) ?? .pen, for: type)
            }
            let box = layout.fields[i].box
            let canvas = try top.createChild(of: chrome, frame: box, keepContent: true)
            editor.pixelsPerMillimetre = layout.pixelsPerMillimetre
            try view.attach(canvas: canvas, highlight: canvas.makeOverlaySurface(), width: Int(box.width), height: Int(box.height))
            renderer.onInvalidate = { wakePipe.wake() }
            editor.onRecognitionResult = { wakePipe.wake() }
            views.append(view)
            viewByWindow[canvas.id] = i
        }
        popupWindow = try top.createChild(of: chrome, frame: Rect(x: 0, y: 0, width: 1, height: 1))
        let events = events
        tracer.sync = { events.sync() }
        controller.onEvent = { [tracer] what, v in if tracer.enabled { tracer.emit(what, v) } }
        _ = events.refreshDevices()
    }

    // MARK: the loop

    /// Shows the form and runs until the exit chord; returns the process exit status.
    public func run() throws -> Int32 {
        stop.install(waking: wake)
        top.show()
        while !quitting {
            while events.hasPending && !quitting { events.next { handle($0) } }
            if stop.flag.isSet || quitting { break }
            for v in views { v.editor.processPendingResults() }
            if !controller.refresh().isEmpty { chromeDirty = true }
            if controller.tick() { chromeDirty = true; closePopup() }
            if controller.countdown != shownCountdown { shownCountdown = controller.countdown; chromeDirty = true }
            present()
            events.flush()
            var timeout: Int32 = 2000
            if views.contains(where: { !$0.editor.isIdle }) { timeout = 50 }
            if let d = controller.nextDeadline {
                let left = d - Double(monotonicNs()) / 1e9
                timeout = min(timeout, max(0, Int32((left * 1000).rounded(.up))))
            }
            if events.wait(timeoutMs: timeout, wakeFD: wake.readFD) { wake.drain() }
        }
        for v in views { v.router.cancelAll() }
        form.close()
        top.destroy()
        return 0
    }

    private func present() {
        let thanks: Bool = if case .thanks = controller.screen { true } else { false }
        if thanks == canvasesShown {
            canvasesShown = !thanks
            for v in views { if thanks { v.canvas?.hide() } else { v.canvas?.showRaised() } }
            chromeDirty = true
        }
        if chromeDirty {
            chromeDirty = false
            KioskPainter.draw(controller.scene(layout), on: chrome.surface)
            if let p = popup { p.menu.draw(on: popupWindow.surface, theme: views[p.field].renderer.theme) }
        }
        if canvasesShown { for v in views { v.present() } }
        if mapped, !announced {
            announced = true
            events.sync()
            let line = String(format: "quire: ready window=0x%lx canvas=0x%lx x=0 y=0 width=%d height=%d scale=%.3f\n",
                              top.id, chrome.id, size.width, size.height, scale)
            FileHandle.standardOutput.write(Data(line.utf8))
            if tracer.enabled { tracer.emit("kiosk", layoutJSON()) }
        }
    }

    private func layoutJSON() -> JSONValue {
        let fields: [JSONValue] = zip(form.spec.fields, layout.fields).map { f, l in
            .object(["id": .string(f.id), "box": Tracer.rect(l.box), "value": Tracer.rect(l.value), "clear": Tracer.rect(l.clear)])
        }
        return .object(["fields": .array(fields), "submit": Tracer.rect(layout.submit), "clearAll": Tracer.rect(layout.clearAll),
                        "pixelsPerMillimetre": .number(layout.pixelsPerMillimetre)])
    }

    // MARK: events

    private func handle(_ event: WindowEvent) {
        switch event {
        case .nonPointer, .focusLost, .devicesLost:
            if case .focusLost = event { for v in views { v.router.cancelAll() } }
            if case .devicesLost(let ids) = event { for v in views { for id in ids { v.router.deviceLost(id) } } }
        case let .expose(window, r, last):
            if let i = viewByWindow[window] { views[i].repaint(r) } else if last, window == chrome.id { chromeDirty = true }
            else if last, window == popupWindow.id, let p = popup { p.menu.draw(on: popupWindow.surface, theme: views[p.field].renderer.theme) }
        case .mapped(let window):
            if window == top.id { mapped = true; top.takeFocus() }
        case .resized:
            break  // full screen: the layout is the screen's
        case .key(let k):
            if keyMap.isExitChord(k) { quitting = true }
        case .closeRequested:
            controller.noteInput()
        case .pointer(let e):
            handlePointer(e)
        }
    }

    private func handlePointer(_ e: PointerInput) {
        let button1 = e.isTouch || e.detail == 1
        if e.isTouch || e.isPress { controller.noteInput() }
        if e.isMotion, !e.isTouch, e.device.kind == .pen || e.device.kind == .eraser { controller.noteInput() }
        if let i = viewByWindow[e.window] {
            guard canvasesShown else { return }
            if e.isPress, popup != nil { closePopup(); return }
            write(e, into: i)
            return
        }
        guard button1, e.isPress || e.isRelease else { return }
        // A palm beside the pen does not press buttons.
        if e.isTouch, palm.rejects(at: clock.epochMs(e.serverTime)) { return }
        if e.window == popupWindow.id, let p = popup {
            if e.isPress { pressedPopupItem = p.menu.item(at: e.point); return }
            if let i = p.menu.item(at: e.point), i == pressedPopupItem {
                let field = form.spec.fields[p.field].id
                closePopup()
                controller.pick(field, p.alternatives[i])
                chromeDirty = true
            }
            pressedPopupItem = nil
            return
        }
        guard e.window == chrome.id else { return }
        if case .thanks = controller.screen {
            if e.isRelease { controller.endThanks(); chromeDirty = true }
            return
        }
        if e.isPress {
            if popup != nil { closePopup(); pressedTarget = nil; return }
            pressedTarget = layout.target(at: e.point)
            return
        }
        defer { pressedTarget = nil }
        guard let t = layout.target(at: e.point), t == pressedTarget else { return }
        switch t {
        case .submit: controller.submit()
        case .clearAll: controller.clearAll()
        case .clear(let i): controller.clear(form.spec.fields[i].id)
        case .value(let i): openCandidates(i)
        }
        chromeDirty = true
    }

    /// Pen, mouse and touch on a field's canvas go to its editor (palm rejection shared).
    private func write(_ e: PointerInput, into i: Int) {
        if views[i].write(e, clock: clock) { events.flush() }
    }

    // MARK: candidates

    private func openCandidates(_ i: Int) {
        let id = form.spec.fields[i].id
        guard let st = controller.states[id], st.alternatives.count > 1 else { return }
        let items = st.alternatives.enumerated().map { k, a in
            OverlayMenu.Item(label: a.text, action: nil, enabled: true, current: k == 0)
        }
        let menu = OverlayMenu(items: items, highlighted: nil, scale: scale * 1.4, title: "Other readings")
        let (w, h) = menu.size
        let anchor = layout.fields[i].value
        let x = max(0, min(anchor.x, Double(size.width) - w)), y = min(anchor.maxY, max(0, Double(size.height) - h))
        let frame = Rect(x: x.rounded(), y: y.rounded(), width: w, height: h)
        popupWindow.setFrame(frame)
        popupWindow.showRaised()
        popup = (i, menu, frame, st.alternatives)
        menu.draw(on: popupWindow.surface, theme: views[i].renderer.theme)
        if tracer.enabled {
            let rows: [JSONValue] = items.indices.map { k in
                .object(["label": .string(items[k].label), "frame": Tracer.rect(menu.frame(of: k).offsetBy(dx: frame.x, dy: frame.y))])
            }
            tracer.emit("popup", .object(["field": .string(id), "items": .array(rows)]))
        }
    }

    private func closePopup() {
        guard popup != nil else { return }
        popupWindow.hide()
        popup = nil
        pressedPopupItem = nil
        chromeDirty = true
    }
}

/// The kiosk form's entry point.
public enum QuireKiosk {
    /// Opens the form full screen and runs until the exit chord. Errors before the window is up
    /// (no display, not a form, a locked package) are printed and give a non-zero status.
    public static func run(_ options: KioskOptions) -> Int32 {
        do {
            return try KioskWindow(options: options).run()
        } catch let e as QuireError {
            FileHandle.standardError.write(Data("quire: error: \(e.message) [\(e.code.rawValue)]\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("quire: error: \(error)\n".utf8))
            return 2
        }
    }
}
