import CX11
import Foundation
import Testing
import QuireApp
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

    private func launch(_ file: String, size: (Int, Int) = (1024, 768), geometry: (Int, Int) = (800, 600),
                        xvfb: Bool = false, latencyLog: String? = nil) throws -> Running {
        let server = xvfb ? try XServer.xvfb(width: size.0, height: size.1) : try XServer.xorg(width: size.0, height: size.1)
        let started = Date()
        // Autosave state and user configuration stay beside the test's package.
        let home = (file as NSString).deletingLastPathComponent
        let env = ["XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"]
        let app = try QuireAppProcess.edit(file, server: server, geometry: geometry, latencyLog: latencyLog, environment: env)
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

    // MARK: input end to end (Xorg + inputtest devices)

    /// Waits until the dark-pixel count of a canvas rectangle satisfies `done` (or 10 s pass).
    private func settle(_ r: Running, _ box: (Int, Int, Int, Int), until done: (Int) -> Bool) throws -> Int {
        func dark() throws -> Int { try r.x.capture(r.ready.canvas).countDark(x: box.0, y: box.1, width: box.2, height: box.3) }
        var n = try dark()
        let deadline = Date().addingTimeInterval(10)
        while !done(n) && Date() < deadline { usleep(20_000); n = try dark() }
        return n
    }

    private func close(_ r: Running) {
        r.x.sendDeleteWindow(r.ready.window)
        #expect(r.app.waitForExit(timeout: 20) == .exited(0), "stderr: \(r.app.stderr)")
    }

    /// Pressure arrays of every stroke in the saved package (from `quire export --format json`).
    private func pressures(_ path: String) throws -> [[Double]] {
        let r = try runTool(try quireBinary().path, ["export", path, "--format", "json"])
        try #require(r.exit == .exited(0), "quire export: \(r.output)")
        var out: [[Double]] = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] {
                if let f = o["f"] as? [Double], o["x"] != nil { out.append(f) }
                o.values.forEach(walk)
            } else if let a = v as? [Any] { a.forEach(walk) }
        }
        walk(try JSONSerialization.jsonObject(with: Data(r.output.utf8)))
        return out
    }

    @Test func penPressureIsSavedInOrder() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        let points = (0 ... 30).map { i -> (x: Double, y: Double, pressure: Double) in
            let d = Double(i)
            return (ox + 120 + d * 9, oy + 220 + sin(d / 3) * 10, 0.1 + d * 0.025)
        }
        try r.server.connect(.pen).penStroke(points: points)
        #expect(try settle(r, (100, 190, 320, 70)) { $0 > 100 } > 100)
        close(r)
        let f = try pressures(file)
        try #require(f.count == 1, "expected one stroke, got \(f.count)")
        #expect(f[0].count >= 25)
        // The tip lifts with pressure 0: that last sample aside, pressures rise as they were written.
        let written = f[0].dropLast()
        #expect(zip(written, written.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "pressures out of order: \(f[0])")
        #expect(written.first! < 0.2 && written.last! > 0.7)
    }

    @Test func eraserPassRemovesTheStrokeFromThePackage() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        try r.server.connect(.pen).penStroke(points: (0 ... 30).map { (ox + 150 + Double($0) * 8, oy + 210, 0.7) })
        #expect(try settle(r, (140, 180, 280, 60)) { $0 > 100 } > 100)
        try r.server.connect(.eraser).eraserStroke(points: (0 ... 10).map { (ox + 280, oy + 190 + Double($0) * 4, 0.7) })
        #expect(try settle(r, (140, 180, 280, 60)) { $0 < 20 } < 20)
        close(r)
        #expect(try strokes(file) == 0)
    }

    /// A separate eraser device pressed right after the pen lifts (both in one batch of events, before
    /// the app's round trip that confirms the pen's release) still erases: the release comes first.
    @Test func eraserRightAfterPenLiftErases() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        let pen = try r.server.connect(.pen), eraser = try r.server.connect(.eraser)
        // A stroke the eraser does not touch stays; the one it crosses goes.
        try pen.penStroke(points: (0 ... 30).map { (ox + 520 + Double($0) * 6, oy + 80 + sin(Double($0)) * 6, 0.7) })
        #expect(try settle(r, (510, 60, 200, 40)) { $0 > 100 } > 100)
        try pen.penStroke(points: (0 ... 30).map { (ox + 150 + Double($0) * 8, oy + 210, 0.7) })
        try eraser.eraserStroke(points: (0 ... 10).map { (ox + 280, oy + 190 + Double($0) * 4, 0.7) })
        #expect(try settle(r, (140, 180, 280, 60)) { $0 < 20 } < 20)
        shoot(try r.x.capture(r.ready.canvas), "eraser-after-pen")
        #expect(try settle(r, (510, 60, 200, 40)) { $0 > 100 } > 100)
        close(r)
        #expect(try strokes(file) == 1)
    }

    /// Ink near the bottom of the page leaves room to scroll; a finger dragged up on empty paper
    /// scrolls the page (the ink moves up on screen) and writes nothing. A palm landing while the
    /// pen is in use is ignored.
    @Test func touchDragScrollsAndPalmIsIgnored() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        let h = r.ready.height
        let pen = try r.server.connect(.pen)
        try pen.penStroke(points: (0 ... 30).map { (ox + 200 + Double($0) * 8, oy + Double(h) - 60, 0.7) })
        let low = (190, h - 90, 270, 60)
        #expect(try settle(r, low) { $0 > 100 } > 100)
        usleep(800_000)  // past the palm-rejection window of the pen just used

        let touch = try r.server.connect(.touch)
        try touch.touchDrag(id: 1, points: (0 ... 15).map { (ox + 600, oy + 250 - Double($0) * 10) })
        let moved = (190, h - 240, 270, 60)  // 150 px higher
        #expect(try settle(r, moved) { $0 > 100 } > 100, "the page did not scroll with the finger")
        #expect(try settle(r, low) { $0 < 20 } < 20)

        // Palm: the pen writes while a touch drags; the page must not move.
        try pen.proximityIn(x: ox + 100, y: oy + 100)
        try pen.hover(x: ox + 100, y: oy + 100)
        try touch.touchDrag(id: 2, points: (0 ... 15).map { (ox + 600, oy + 300 - Double($0) * 10) })
        // A scribble: a straight line this long above a block is a slice gesture (it would open
        // space and move the block down), not ink.
        try pen.penStroke(points: (0 ... 20).map { (ox + 100 + Double($0) * 8, oy + 100 + sin(Double($0)) * 10, 0.6) }, proximity: false)
        try pen.proximityOut(x: ox + 260, y: oy + 100)
        #expect(try settle(r, (90, 80, 200, 40)) { $0 > 80 } > 80)
        #expect(try settle(r, moved) { $0 > 100 } > 100, "a palm touch during pen use scrolled the page")
        close(r)
        #expect(try strokes(file) == 2)
    }

    @Test func unplugMidStrokeCancelsItAndTheAppCarriesOn() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file)
        defer { r.app.kill(); r.server.stop() }
        let ox = Double(r.origin.x), oy = Double(r.origin.y)
        let pen = try r.server.connect(.pen)
        try pen.proximityIn(x: ox + 100, y: oy + 300)
        try pen.button(1, pressed: true, [0: pen.deviceX(ox + 100), 1: pen.deviceY(oy + 300), 4: 600])
        try pen.sync()
        for i in 1 ... 15 { try pen.motion([0: pen.deviceX(ox + 100 + Double(i) * 10), 1: pen.deviceY(oy + 300), 4: 600]); try pen.sync() }
        #expect(try settle(r, (90, 280, 200, 40)) { $0 > 50 } > 50, "the live stroke was not drawn")
        try r.server.disableDevice(name: TestInputDevice.pen.deviceName)
        // The cancelled stroke leaves the screen; the eraser (another device) still works.
        #expect(try settle(r, (90, 280, 200, 40)) { $0 < 10 } < 10)
        try r.server.connect(.eraser).eraserStroke(points: [(ox + 300, oy + 100, 0.5), (ox + 310, oy + 110, 0.5)])
        close(r)
        #expect(try strokes(file) == 0)
    }

    // MARK: Xvfb: mouse, keyboard and resize through XTest

    @Test func mouseKeyboardAndResizeUnderXvfb() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file, xvfb: true)
        defer { r.app.kill(); r.server.stop() }
        r.x.mouseDrag((0 ... 20).map { (r.origin.x + 100 + $0 * 10, r.origin.y + 150 + ($0 % 5) * 4) })
        #expect(try settle(r, (90, 130, 230, 60)) { $0 > 60 } > 60, "a mouse drag should write")
        // Resize: the canvas follows the window and is repainted.
        XResizeWindow(r.x.display, r.ready.window, 640, 480)
        r.x.sync()
        var g = try r.x.geometry(r.ready.canvas)
        let deadline = Date().addingTimeInterval(10)
        while g.width != 640 && Date() < deadline { usleep(20_000); g = try r.x.geometry(r.ready.canvas) }
        #expect(g.width == 640 && g.height == 480 - r.ready.y)
        #expect(try settle(r, (90, 130, 230, 60)) { $0 > 60 } > 60, "ink gone after resize")
        // Typing with nothing selected starts a typed text block.
        r.x.focus(r.ready.window)
        for k in ["h", "e", "l", "l", "o"] { try r.x.keyChord(k) }
        try r.x.keyChord("ctrl+z")  // undo the last letter
        close(r)
        let text = try runTool(try quireBinary().path, ["export", file, "--format", "text"])
        #expect(text.output.contains("hell") && !text.output.contains("hello"), "exported: \(text.output)")
    }

    /// Dead keys, Compose and keysyms outside Latin-1 go through the X input method: before it,
    /// ´ then e typed "e", Cyrillic and Latin-2 letters typed nothing and Compose o e typed "oe".
    @Test func deadKeysComposeAndOtherLayoutsTypeUnderXvfb() throws {
        let tmp = TempDir()
        let file = try newPackage(tmp)
        let r = try launch(file, xvfb: true)
        defer { r.app.kill(); r.server.stop() }
        let dead = try r.x.bindSpareKeycode("dead_acute"), cyrillic = try r.x.bindSpareKeycode("Cyrillic_zhe")
        let caron = try r.x.bindSpareKeycode("ccaron"), compose = try r.x.bindSpareKeycode("Multi_key")
        usleep(200_000)  // the app refreshes its keymap on MappingNotify
        r.x.focus(r.ready.window)
        try r.x.keyChord("h")
        r.x.key(code: dead)
        try r.x.keyChord("e")
        r.x.key(code: cyrillic)
        r.x.key(code: caron)
        r.x.key(code: compose)
        try r.x.keyChord("o")
        try r.x.keyChord("e")
        close(r)
        let text = try runTool(try quireBinary().path, ["export", file, "--format", "text"])
        #expect(text.output.trimmingCharacters(in: .whitespacesAndNewlines) == "h\u{e9}\u{436}\u{10d}\u{153}", "exported: \(text.output)")
    }

    // MARK: latency instrumentation (scripts/bench-latency runs this with a release binary)

    /// Writes a few hundred pen points on an empty page and on a full page (3,000 strokes; the
    /// benchmark script asks for 10,000) and checks that
    /// Quire's own latency instrumentation measured each of them; prints the figures.
    @Test func latencyIsMeasuredForEveryPenPoint() throws {
        let env = ProcessInfo.processInfo.environment
        let points = Int(env["QUIRE_BENCH_POINTS"] ?? "") ?? 300
        let fill = Int(env["QUIRE_BENCH_STROKES"] ?? "") ?? 3_000
        // The pen's time in the air between strokes (0: the next press right after the release).
        let airMs = Int(env["QUIRE_BENCH_AIR_MS"] ?? "") ?? 0
        for strokesInPage in [0, fill] {
            let tmp = TempDir()
            let file = tmp.path("page.iink")
            let made = try runTool(try quireBinary().path, ["new", file, "--fill-strokes", "\(strokesInPage)"], timeout: 300)
            try #require(made.exit == .exited(0), "quire new: \(made.output)")
            let log = tmp.path("latency.json")
            let r = try launch(file, geometry: (1000, 700), latencyLog: log)
            defer { r.app.kill(); r.server.stop() }
            let pen = try r.server.connect(.pen)
            let ox = Double(r.origin.x), oy = Double(r.origin.y)
            var written = 0
            var row = 0
            while written < points {
                let n = min(50, points - written)
                let y = oy + 120 + Double(row % 8) * 45
                try pen.penStroke(points: (0 ..< n).map { (ox + 60 + Double($0) * 12, y + sin(Double($0) / 2) * 8, 0.6) }, delay: 0.002)
                if airMs > 0 { usleep(useconds_t(airMs * 1000)) }
                written += n
                row += 1
            }
            // A long stroke right after a pen-up: its first points arrive while the page takes
            // in the stroke just committed (and recognition runs), the case that made points wait.
            try pen.penStroke(points: (0 ..< 200).map { (ox + 60 + Double($0) * 3, oy + 480 + sin(Double($0) / 5) * 10, 0.6) }, delay: 0.002)
            row += 1
            close(r)
            if let keep = env["QUIRE_BENCH_LOG_DIR"] {
                // The whole log (each step of the loop, per stroke figures) for a closer look.
                try? FileManager.default.copyItem(atPath: log, toPath: keep + "/latency-\(strokesInPage).json")
            }
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: log))) as? [String: Any])
            let events = (json["events"] as? Double) ?? 0
            let work = (json["work_us"] as? [String: Double]) ?? [:]
            let server = (json["server_to_flush_ms"] as? [String: Double]) ?? [:]
            // Every move after a stroke's first point is measured (the down and up are not moves).
            #expect(events >= Double(points - 2 * row), "measured \(events) of \(points) points")
            #expect((work["p50"] ?? 0) > 0 && (work["p99"] ?? 0) >= (work["p50"] ?? 0))
            #expect((server["count"] ?? 0) > 0)
            let strokes = (json["strokes_server_to_flush_ms"] as? [[String: Double]]) ?? []
            #expect(strokes.count >= row, "\(strokes.count) strokes measured of \(row)")
            let long = strokes.last ?? [:]
            let read = (json["server_to_read_ms"] as? [String: Double]) ?? [:]
            let late = (json["late_points"] as? [String: Any]) ?? [:]
            let during = ((late["wait_ms_during"] as? [String: Double]) ?? [:]).sorted { $0.value > $1.value }
                .map { "\($0.key) \(Int($0.value.rounded())) ms" }.joined(separator: ", ")
            print(String(format: "latency page=%d strokes (air %ld ms): %.0f points, Quire's work per point p50 %.0f us, p99 %.0f us, max %.0f us; X server event to flush p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms",
                         strokesInPage, airMs, events, work["p50"] ?? 0, work["p99"] ?? 0, work["max"] ?? 0,
                         server["p50"] ?? 0, server["p95"] ?? 0, server["p99"] ?? 0, server["max"] ?? 0))
            print(String(format: "latency page=%d strokes: long stroke right after a pen-up: %.0f points, event to flush p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms",
                         strokesInPage, long["count"] ?? 0, long["p50"] ?? 0, long["p95"] ?? 0, long["p99"] ?? 0, long["max"] ?? 0))
            print(String(format: "latency page=%d strokes: event to read p50 %.0f ms, p99 %.0f ms; %.0f points read %.0f ms or more late, their wait during: ",
                         strokesInPage, read["p50"] ?? 0, read["p99"] ?? 0, (late["count"] as? Double) ?? 0, (late["threshold_ms"] as? Double) ?? 0) + during)
        }
    }

    // MARK: CLIPBOARD between two Quire windows

    @Test func copyInOneWindowPastesTheBlockInAnother() throws {
        let tmp = TempDir()
        let fileA = try newPackage(tmp)
        let fileB = tmp.path("other.iink")
        try #require(try runTool(try quireBinary().path, ["new", fileB]).exit == .exited(0))
        let a = try launch(fileA, geometry: (500, 420), xvfb: true)
        defer { a.app.kill(); a.server.stop() }
        let home = tmp.url.path
        let b = try QuireAppProcess.edit(fileB, server: a.server, geometry: (500, 420),
                                         environment: ["XDG_STATE_HOME": home + "/state-b", "XDG_CONFIG_HOME": home + "/config-b"])
        defer { b.kill() }
        let readyB = try b.waitForReady(timeout: 60)
        try a.x.waitUntilViewable(readyB.window)
        XMoveWindow(a.x.display, readyB.window, 520, 0)
        a.x.sync()
        usleep(200_000)
        let originB = try a.x.geometry(readyB.canvas)

        // Write in A, pick the lasso from A's toolbar and circle the block.
        a.x.mouseDrag((0 ... 20).map { (a.origin.x + 100 + $0 * 8, a.origin.y + 150 + ($0 % 4) * 3) })
        #expect(try settle(a, (90, 130, 190, 50)) { $0 > 50 } > 50)
        let layout = ToolbarLayout(kiosk: false, scale: a.ready.scale, width: Double(a.ready.width))
        let top = try a.x.geometry(a.ready.window)
        if let lasso = layout.frames().first(where: { $0.0 == .selector })?.1 {
            a.x.click(x: top.x + Int(lasso.x + lasso.width / 2), y: top.y + Int(lasso.y + lasso.height / 2))
        } else {
            // 500 px is too narrow for the lasso's button: it is in the More menu (Down to it, Enter).
            let more = try #require(layout.moreFrame)
            let i = try #require(layout.folded.firstIndex(of: .selector))
            a.x.click(x: top.x + Int(more.x + more.width / 2), y: top.y + Int(more.y + more.height / 2))
            usleep(200_000)
            a.x.focus(a.ready.window)
            for _ in 0 ... i { try a.x.keyChord("Down") }
            try a.x.keyChord("Return")
        }
        let (l, t, rr, bb) = (a.origin.x + 5, a.origin.y + 20, a.origin.x + 495, a.origin.y + 330)
        a.x.mouseDrag([(l, t), (rr, t), (rr, bb), (l, bb), (l, t + 2)])
        a.x.focus(a.ready.window)
        try a.x.keyChord("ctrl+c")
        usleep(300_000)

        // Paste in B: the block itself arrives (Quire's own clipboard type), ink and all.
        a.x.mouseMove(x: originB.x + 60, y: originB.y + 100)
        a.x.focus(readyB.window)
        try a.x.keyChord("ctrl+v")
        var inked = 0
        let deadline = Date().addingTimeInterval(10)
        while inked < 50 && Date() < deadline {
            usleep(50_000)
            inked = try a.x.capture(readyB.canvas).countDark()
        }
        #expect(inked > 50, "nothing was pasted into the second window; A: \(a.app.stderr) B: \(b.stderr)")
        a.x.sendDeleteWindow(readyB.window)
        #expect(b.waitForExit(timeout: 20) == .exited(0))
        close(a)
        #expect(try strokes(fileB) == 1)
        #expect(try strokes(fileA) == 1)
    }
}
