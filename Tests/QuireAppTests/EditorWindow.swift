import CX11
import Foundation
import QuireTestSupport
import Testing

/// `quire edit` on a new Text Document under Xorg (for the inputtest pen), with its own XDG
/// folders, ready and viewable: the start the window tests that write into the editor share.
/// Call `stop()` in a `defer` right after `start`.
struct EditorWindow {
    let tmp: TempDir
    /// The package the app edits.
    let file: String
    let server: XServer
    let app: QuireAppProcess
    let ready: ReadyLine
    let x: XClient
    /// Screen pixels per millimetre: the app lays pages out in millimetres at the screen's
    /// resolution (no Xft.dpi here).
    let ppmm: Double

    /// `trace` sets QUIRE_TRACE=1 (the bar, selection and popup lines the tests wait for).
    static func start(geometry: (Int, Int), trace: Bool = false) throws -> EditorWindow {
        let tmp = TempDir()
        let file = tmp.path("notes.iink")
        let made = try runTool(try quireBinary().path, ["new", file, "--part-type", "Text Document"])
        try #require(made.exit == .exited(0), "quire new: \(made.output)")
        let server = try XServer.xorg(width: 1024, height: 768)
        let home = tmp.url.path
        var environment = ["XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"]
        if trace { environment["QUIRE_TRACE"] = "1" }
        var app: QuireAppProcess?
        do {
            app = try QuireAppProcess.edit(file, server: server, geometry: geometry, environment: environment)
            let ready = try app!.waitForReady(timeout: 60)
            let x = try XClient(server: server)
            try x.waitUntilViewable(ready.window)
            let screen = quire_DefaultScreen(x.display)
            let ppmm = Double(quire_DisplayWidth(x.display, screen)) / Double(quire_DisplayWidthMM(x.display, screen))
            return EditorWindow(tmp: tmp, file: file, server: server, app: app!, ready: ready, x: x, ppmm: ppmm)
        } catch {
            if let app, app.isRunning { app.kill() }
            server.stop()
            throw error
        }
    }

    /// The canvas's top left on the screen, pixels.
    func canvasOrigin() throws -> (x: Double, y: Double) {
        let canvas = try x.geometry(ready.canvas)
        return (Double(canvas.x), Double(canvas.y))
    }

    /// Keeps a screenshot of the window as `NAME.png` when QUIRE_TEST_SHOTS names a folder
    /// (after a moment, so the last repaint is in it).
    func shot(_ name: String) {
        guard let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty else { return }
        usleep(300_000)
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? x.capture(ready.window).writePNG("\(dir)/\(name).png")
    }

    func stop() {
        if app.isRunning { app.kill() }
        server.stop()
    }

    /// The strokes of the saved package, from `quire export --format json` (every block's).
    func exportedStrokes() throws -> [[String: Any]] {
        let json = try runTool(try quireBinary().path, ["export", file, "--format", "json"])
        try #require(json.exit == .exited(0), "quire export: \(json.output)")
        var strokes: [[String: Any]] = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] {
                if let ss = o["strokes"] as? [[String: Any]] { strokes += ss }
                o.values.forEach(walk)
            } else if let a = v as? [Any] { a.forEach(walk) }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.output.utf8)))
        return strokes
    }
}
