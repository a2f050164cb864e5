import Foundation
import Quire

/// How `quire calc` is asked to start.
public struct CalculatorOptions: Sendable {
    /// The package; nil: `$XDG_DATA_HOME/quire/calculator.iink`.
    public var file: String?
    public var windowSize: (width: Int, height: Int) = (720, 640)
    /// X display name; nil uses $DISPLAY.
    public var display: String?
    public init(file: String?) { self.file = file }

    /// The package path used: the given one, or the user's calculator in the data folder.
    public var path: String {
        if let file { return file }
        try? FileManager.default.createDirectory(atPath: XDG.dataDir, withIntermediateDirectories: true)
        return XDG.dataDir + "/calculator.iink"
    }
}

/// The SDK's calculator example as a window: write an expression on the canvas (a Math part),
/// its result shows in the bar above (and beside the ink); Enter or a tap on the result pushes
/// it onto the history list at the top, kept in the part's metadata (`CalculatorController`).
/// Ctrl+Z / Ctrl+Y undo and redo, Escape clears the page, Ctrl+Q or closing the window saves and quits.
public final class CalculatorWindow {
    private let display: X11Display
    private let engine: Engine
    private let controller: CalculatorController
    private let view: EditorView
    private let top: XTopLevel
    private let chrome: XChildWindow
    private let canvas: XChildWindow
    private let events: XEventSource
    private let wake: WakePipe
    private let stop = StopSignals()
    private let clock = EventClock()
    private let scale: Double
    private let layout: CalculatorLayout
    private var chromeDirty = true
    private var mapped = false
    private var announced = false
    private var quitting = false
    private var pressed: CalculatorLayout.Target?
    /// What the result bar showed last (repainted when it changes).
    private var shownResult: String?
    /// `QUIRE_TRACE=1`: results and pushes are printed on stdout (`quire: calc result=…`, for scripts and tests).
    private let trace = ProcessInfo.processInfo.environment["QUIRE_TRACE"] == "1"

    public init(options: CalculatorOptions) throws {
        display = try X11Display(name: options.display)
        var warnings: [String] = []
        engine = try makeAppEngine { warnings.append($0) }
        for w in warnings { FileHandle.standardError.write(Data("quire: warning: \(w)\n".utf8)) }
        wake = try WakePipe()
        scale = max(1, display.dpi / 96)
        let s = display.screenSize
        let size = (min(max(320, options.windowSize.width), s.width), min(max(320, options.windowSize.height), s.height))
        layout = CalculatorLayout(width: size.0, height: size.1, scale: scale)
        let renderer = CairoRenderer()
        let editor = engine.createEditor(renderer: renderer, fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: Int(layout.canvas.width), height: Int(layout.canvas.height))
        controller = try CalculatorController(path: options.path, engine: engine, editor: editor)
        top = display.makeTopLevel(width: size.0, height: size.1, title: "Quire calculator", fullscreen: false)
        chrome = try top.createChild(frame: Rect(x: 0, y: 0, width: Double(size.0), height: Double(size.1)), keepContent: true)
        canvas = try top.createChild(of: chrome, frame: layout.canvas, keepContent: true)
        let clipboard = display.makeClipboard(window: top)
        events = display.makeEventSource(top: top, clipboard: clipboard)
        events.overrides = DeviceClassifier.overrides(engine.configuration[.inputDevices])
        view = EditorView(editor: editor, renderer: renderer, scale: scale)
        view.router.onError = { FileHandle.standardError.write(Data("quire: input: \($0)\n".utf8)) }
        editor.pixelsPerMillimetre = 96 * scale / 25.4
        try view.attach(canvas: canvas, highlight: canvas.makeOverlaySurface(), width: Int(layout.canvas.width), height: Int(layout.canvas.height))
        let wakePipe = wake
        renderer.onInvalidate = { wakePipe.wake() }
        editor.onRecognitionResult = { wakePipe.wake() }
        _ = events.refreshDevices()
    }

    /// Runs until the window closes; returns the process exit status.
    public func run() throws -> Int32 {
        stop.install(waking: wake)
        top.show()
        canvas.showRaised()
        while !quitting {
            while events.hasPending && !quitting { events.next { handle($0) } }
            if stop.flag.isSet || quitting { break }
            view.editor.processPendingResults()
            let result = controller.current?.solution.result?.latex ?? controller.resultText
            if result != shownResult {
                shownResult = result
                chromeDirty = true
                if trace { say("quire: calc result=\(result)") }
            }
            present()
            events.flush()
            if events.wait(timeoutMs: view.editor.isIdle ? 2000 : 50, wakeFD: wake.readFD) { wake.drain() }
        }
        view.router.cancelAll()
        try? controller.save()
        top.destroy()
        return 0
    }

    private func present() {
        if chromeDirty {
            chromeDirty = false
            CalculatorPainter.draw(scene(), on: chrome.surface, theme: view.renderer.theme)
        }
        view.present()
        if mapped, !announced {
            announced = true
            events.sync()
            let c = layout.canvas, r = layout.result
            let line = String(format: "quire: ready window=0x%lx canvas=0x%lx x=%d y=%d width=%d height=%d scale=%.3f result=%d,%d,%d,%d\n",
                              top.id, canvas.id, Int(c.x), Int(c.y), Int(c.width), Int(c.height), scale,
                              Int(r.x), Int(r.y), Int(r.width), Int(r.height))
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }

    private func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

    private func scene() -> CalculatorScene {
        let h = controller.history
        let rows = layout.historyRows(count: h.count).map { (latex: h[$0.index], frame: $0.frame) }
        let c = controller.current
        var note = "Write an expression ending in = ; Enter keeps it."
        if let d = c?.solution.diagnostic { note = d.message }
        return CalculatorScene(width: layout.width, height: layout.height, scale: scale, history: rows, historyFrame: layout.history,
                               resultFrame: layout.result, result: c?.solution.result?.latex, note: note,
                               clearHistoryFrame: layout.clearHistory)
    }

    private func push() {
        do {
            if try controller.push() {
                chromeDirty = true
                if trace { say("quire: calc pushed=\(controller.history.last ?? "") history=\(controller.history.count)") }
            }
        } catch {
            FileHandle.standardError.write(Data("quire: calculator: \(error)\n".utf8))
        }
    }

    private func handle(_ event: WindowEvent) {
        switch event {
        case .nonPointer, .focusLost, .devicesLost:
            if case .focusLost = event { view.router.cancelAll() }
            if case .devicesLost(let ids) = event { for id in ids { view.router.deviceLost(id) } }
        case let .expose(window, r, last):
            if window == canvas.id { view.repaint(r) } else if last, window == chrome.id { chromeDirty = true }
        case .mapped(let window):
            if window == top.id { mapped = true; top.takeFocus() }
        case .resized:
            break
        case .closeRequested:
            quitting = true
        case .key(let k):
            if k.key == .enter { push() }
            else if k.key == .escape { view.editor.clear() }
            else if k.ctrl, k.name == "q" { quitting = true }
            else if k.ctrl, k.name == "z" { view.editor.undo() }
            else if k.ctrl, k.name == "y" { view.editor.redo() }
        case .pointer(let e):
            handlePointer(e)
        }
    }

    private func handlePointer(_ e: PointerInput) {
        if e.window == canvas.id {
            write(e)
            return
        }
        guard e.window == chrome.id, e.isTouch || e.detail == 1, e.isPress || e.isRelease else { return }
        if e.isPress { pressed = layout.target(at: e.point); return }
        defer { pressed = nil }
        guard let t = layout.target(at: e.point), t == pressed else { return }
        switch t {
        case .result: push()
        case .clearHistory:
            try? controller.clearHistory()
            chromeDirty = true
        }
    }

    /// Pen, mouse and touch on the canvas write.
    private func write(_ e: PointerInput) {
        if view.write(e, clock: clock) { events.flush() }
    }
}

/// `quire calc`'s entry point.
public enum QuireCalculator {
    /// Opens the calculator and runs until its window closes. Errors before the window is up
    /// (no display, a damaged package) are printed and give a non-zero status.
    public static func run(_ options: CalculatorOptions) -> Int32 {
        do {
            return try CalculatorWindow(options: options).run()
        } catch let e as QuireError {
            FileHandle.standardError.write(Data("quire: error: \(e.message) [\(e.code.rawValue)]\n".utf8))
            return 2
        } catch {
            FileHandle.standardError.write(Data("quire: error: \(error)\n".utf8))
            return 2
        }
    }
}
