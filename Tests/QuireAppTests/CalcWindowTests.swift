import CX11
import Foundation
import InkModel
import QuireApp
import Testing

/// `quire calc` end to end in Xorg: "12+7=" written from real samples with the inputtest pen is
/// read and solved (19), a tap on the result pushes it onto the history, which is in the Math
/// part's metadata after the window closes.
@Suite(.serialized)
struct CalcWindowTests {
    /// One composed expression of the fixture: strokes in millimetres.
    static func expression() throws -> [[(x: Double, y: Double)]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/calc-12plus7.jsonl")
        let first = try #require(String(contentsOf: url, encoding: .utf8).split(separator: "\n").first)
        let o = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(o["latex"] as? String == "12+7=")
        let strokes = try #require(o["strokes"] as? [[[Double]]])
        return strokes.map { $0.map { (x: $0[0], y: $0[1]) } }
    }

    @Test func writeTwelvePlusSevenSeeNineteenAndPushIt() throws {
        let tmp = TempDir()
        let file = tmp.path("calc.iink")
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }
        let home = tmp.url.path
        let app = try QuireAppProcess(arguments: ["calc", file, "--geometry", "800x600"], server: server, environment: [
            "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "QUIRE_TRACE": "1",
        ])
        defer { if app.isRunning { app.kill() } }
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let canvas = try x.geometry(ready.canvas)
        // The editor's page is in millimetres at 96 dpi times the UI scale.
        let ppmm = 96 * ready.scale / 25.4
        let (ox, oy) = (Double(canvas.x) + 30, Double(canvas.y) + 40)
        let pen = try server.connect(.pen)
        for s in try Self.expression() {
            try pen.penStroke(points: s.map { (x: ox + $0.x * ppmm, y: oy + $0.y * ppmm, pressure: 0.6) }, delay: 0.002)
        }
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            usleep(1_500_000)
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? x.capture(ready.window).writePNG("\(dir)/calc-written.png")
        }
        _ = try app.waitForLine(prefix: "quire: calc result=19", timeout: 60)
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? x.capture(ready.window).writePNG("\(dir)/calc-result.png")
        }
        // A tap on the result bar pushes the expression.
        let bar = try #require(app.stdoutLines.first { $0.hasPrefix("quire: ready ") }?.split(separator: " ")
            .first { $0.hasPrefix("result=") }?.dropFirst(7).split(separator: ",").compactMap { Double($0) })
        try #require(bar.count == 4)
        let (tx, ty) = (bar[0] + bar[2] / 2, bar[1] + bar[3] / 2)
        try pen.penStroke(points: [(x: tx, y: ty, pressure: 0.5), (x: tx + 1, y: ty, pressure: 0.5)])
        let pushed = try app.waitForLine(prefix: "quire: calc pushed=", timeout: 30)
        #expect(pushed == "quire: calc pushed=12+7=19 history=1")
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            usleep(300_000)
            try? x.capture(ready.window).writePNG("\(dir)/calc-history.png")
        }
        app.terminate()
        #expect(app.waitForExit(timeout: 30) == .exited(0))
        // The history is in the part's metadata, as the SDK's storage page keeps it.
        let package = try Engine().openPackage(file)
        #expect(try package.part(at: 0).type == "Math")
        #expect(try package.part(at: 0).metadata.getStringArray("calculator.history") == ["12+7=19"])
    }

    /// A Math block in a Text Document of `quire edit`: the toolbar's Math button adds it, the
    /// pen writes "12+7=", 19 appears beside the ink, Convert typesets it in place, and the saved
    /// package exports `12+7=19` as LaTeX.
    @Test func mathBlockInATextDocumentIsSolvedAndConverted() throws {
        let w = try EditorWindow.start(geometry: (900, 560))
        defer { w.stop() }
        let (file, server, app, ready, x, ppmm) = (w.file, w.server, w.app, w.ready, w.x, w.ppmm)
        let pen = try server.connect(.pen)
        let layout = ToolbarLayout(kiosk: false, scale: ready.scale, width: Double(ready.width))
        func tap(_ f: Rect) throws {
            try pen.penStroke(points: [(x: f.midX, y: f.midY, pressure: 0.5), (x: f.midX + 1, y: f.midY, pressure: 0.5)])
            usleep(300_000)
        }
        func tap(_ c: ToolbarCommand) throws {
            if let f = layout.frames().first(where: { $0.0 == c })?.1 { return try tap(f) }
            // Folded into More at 900 px (Math): open it, Down to the item (all enabled before it), Enter.
            let i = try #require(layout.folded.firstIndex(of: c), "\(c) is neither on the toolbar nor in More")
            try tap(try #require(layout.moreFrame))
            x.focus(ready.window)
            for _ in 0 ... i { try x.keyChord("Down") }
            try x.keyChord("Return")
            usleep(300_000)
        }
        func shot(_ name: String) {
            if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
                try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                try? x.capture(ready.window).writePNG("\(dir)/\(name).png")
            }
        }
        try tap(.math)
        // The new block starts 5 mm in and 6 mm down the page; write 10 mm in and 14 mm down.
        let (ox, oy) = (Double(ready.x) + 10 * ppmm, Double(ready.y) + 14 * ppmm)
        for s in try Self.expression() {
            try pen.penStroke(points: s.map { (x: ox + $0.x * ppmm, y: oy + $0.y * ppmm, pressure: 0.6) }, delay: 0.002)
        }
        usleep(3_000_000)
        shot("math-block-ink")
        try tap(.convert)
        usleep(1_000_000)
        shot("math-block-converted")
        try tap(.save)
        app.terminate()
        #expect(app.waitForExit(timeout: 30) == .exited(0))
        let latex = try runTool(try quireBinary().path, ["export", file, "--format", "latex"])
        #expect(latex.exit == .exited(0))
        #expect(latex.output.trimmingCharacters(in: .whitespacesAndNewlines) == "12+7=19")
        let ink = try runTool(try quireBinary().path, ["export", file, "--format", "json"])
        #expect(!ink.output.contains("\"strokes\" : [\n        {"), "the ink was converted")
    }
}
