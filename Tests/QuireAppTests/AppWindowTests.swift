import CX11
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// End-to-end tests of `quire edit` in a private Xorg with inputtest devices: the contract in
/// docs/TESTING-X11.md (ready line, pen ink on screen, Ctrl+S, WM_DELETE_WINDOW, SIGTERM).
@Suite(.serialized)
struct AppWindowTests {
    /// Screenshots of failing runs go here when QUIRE_TEST_SHOTS names a folder.
    private func shoot(_ image: CairoImage, _ name: String) {
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? image.writePNG("\(dir)/\(name).png")
        }
    }

    private func newPackage(_ tmp: TempDir) throws -> String {
        let path = tmp.path("notes.iink")
        let r = try runTool(try quireBinary().path, ["new", path, "--part-type", "Text Document"])
        try #require(r.exit == .exited(0), "quire new: \(r.output)")
        return path
    }

    /// Stroke count of part 0, from `quire info` (only once the app has exited: it holds a lock).
    private func strokes(_ path: String) throws -> Int {
        let r = try runTool(try quireBinary().path, ["info", path])
        try #require(r.exit == .exited(0), "quire info: \(r.output)")
        guard let m = r.output.firstMatch(of: /strokes=(\d+)/) else { return -1 }
        return Int(m.1) ?? -1
    }

    private struct Running {
        let server: XServer
        let app: QuireAppProcess
        let x: XClient
        let ready: ReadyLine
        /// The canvas's top-left in root (screen) coordinates.
        let origin: (x: Int, y: Int)
    }

    private func launch(_ file: String, size: (Int, Int) = (1024, 768), geometry: (Int, Int) = (800, 600)) throws -> Running {
        let server = try XServer.xorg(width: size.0, height: size.1)
        let started = Date()
        let app = try QuireAppProcess.edit(file, server: server, geometry: geometry)
        let ready = try app.waitForReady(timeout: 60)
        print("quire edit ready after \(String(format: "%.2f", Date().timeIntervalSince(started))) s: \(ready)")
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let canvas = try x.geometry(ready.canvas)
        return Running(server: server, app: app, x: x, ready: ready, origin: (canvas.x, canvas.y))
    }

    @Test func readyLineDescribesTheWindow() throws {
        let tmp = TempDir()
        let r = try launch(try newPackage(tmp))
        defer { r.app.kill(); r.server.stop() }
        let top = try r.x.geometry(r.ready.window)
        let canvas = try r.x.geometry(r.ready.canvas)
        #expect(canvas.width == r.ready.width && canvas.height == r.ready.height)
        #expect(canvas.x - top.x == r.ready.x && canvas.y - top.y == r.ready.y)
        #expect(top.width == 800 && top.height == 600, "--geometry 800x600 gave \(top)")
        #expect(r.ready.scale > 0)
        #expect(r.x.wmProtocols(r.ready.window).contains("WM_DELETE_WINDOW"))
        #expect(r.app.stdoutLines.filter { $0.hasPrefix(ReadyLine.prefix) }.count == 1)
        let shot = try r.x.capture(r.ready.canvas)
        shoot(shot, "ready")
        #expect(shot.count { $0 > 200 && $1 > 200 && $2 > 200 } > shot.width * shot.height / 2, "the page should be mostly light")
    }

    @Test func penStrokeInksCtrlSSavesCloseExits() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let (w, h) = (Double(r.ready.width), Double(r.ready.height))
        let box = (x: Int(w * 0.3) - 10, y: Int(h * 0.45) - 20, width: Int(w * 0.4) + 20, height: Int(h * 0.1) + 40)
        let before = try r.x.capture(r.ready.canvas).countDark(x: box.x, y: box.y, width: box.width, height: box.height)

        let pen = try r.server.connect(.pen)
        let points = (0 ... 40).map { i -> (x: Double, y: Double, pressure: Double) in
            let t = Double(i) / 40
            return (Double(r.origin.x) + w * (0.3 + 0.4 * t), Double(r.origin.y) + h * (0.5 + 0.05 * sin(t * 12)), 0.3 + 0.6 * t)
        }
        try pen.penStroke(points: points)
        var after = before
        let deadline = Date().addingTimeInterval(10)
        var shot = try r.x.capture(r.ready.canvas)
        while Date() < deadline {
            shot = try r.x.capture(r.ready.canvas)
            after = shot.countDark(x: box.x, y: box.y, width: box.width, height: box.height)
            if after > before + 100 { break }
            usleep(20_000)
        }
        shoot(shot, "pen-stroke")
        #expect(after > before + 100, "pen stroke left no ink on screen (dark pixels \(before) -> \(after))")

        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        // A real keyboard device, not XTest: apps may rightly ignore the XTEST devices for input.
        r.x.focus(r.ready.window)
        try r.server.connect(.keyboard).keyChord(try r.x.keycodes("ctrl+s"))
        var saved = false
        let saveDeadline = Date().addingTimeInterval(10)
        while Date() < saveDeadline {
            if let now = try? Data(contentsOf: URL(fileURLWithPath: file)), now != original { saved = true; break }
            usleep(20_000)
        }
        #expect(saved, "Ctrl+S did not rewrite \(file)")

        r.x.sendDeleteWindow(r.ready.window)
        #expect(r.app.waitForExit(timeout: 20) == .exited(0), "stderr: \(r.app.stderr)")
        #expect(try strokes(file) >= 1)
    }

    /// The pen's eraser end (a device whose name says "eraser") removes ink it crosses.
    @Test func eraserRemovesInk() throws {
        let tmp = TempDir()
        let r = try launch(try newPackage(tmp))
        defer { r.app.kill(); r.server.stop() }
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        let box = (x: 140, y: 180, width: 280, height: 60)
        func dark() throws -> Int { try r.x.capture(r.ready.canvas).countDark(x: box.x, y: box.y, width: box.width, height: box.height) }
        func settle(until done: (Int) -> Bool) throws -> Int {
            var n = try dark()
            let deadline = Date().addingTimeInterval(10)
            while !done(n) && Date() < deadline { usleep(20_000); n = try dark() }
            return n
        }
        let pen = try r.server.connect(.pen)
        try pen.penStroke(points: (0 ... 30).map { (ox + 150 + Double($0) * 8, oy + 210, 0.7) })
        let inked = try settle { $0 > 100 }
        #expect(inked > 100, "no ink to erase")
        let eraser = try r.server.connect(.eraser)
        try eraser.eraserStroke(points: (0 ... 10).map { (ox + 280, oy + 190 + Double($0) * 4, 0.7) })
        let after = try settle { $0 < inked / 4 }
        shoot(try r.x.capture(r.ready.canvas), "eraser")
        #expect(after < inked / 4, "eraser stroke left the ink (dark pixels \(inked) -> \(after))")
    }

    @Test func sigtermSavesAndExitsZero() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let pen = try r.server.connect(.pen)
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        try pen.penStroke(points: (0 ... 20).map { (ox + 100 + Double($0) * 8, oy + 200 + Double($0 % 4) * 3, 0.6) })
        // Let the app take the stroke in before it is told to quit (the test cannot see its queue).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, try r.x.capture(r.ready.canvas).countDark(x: 90, y: 180, width: 200, height: 50) < 50 {
            usleep(20_000)
        }
        r.app.terminate()
        #expect(r.app.waitForExit(timeout: 20) == .exited(0), "stderr: \(r.app.stderr)")
        #expect(try strokes(file) >= 1)
    }
}
