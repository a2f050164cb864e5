import CX11
import Foundation
import Testing
@testable import QuireApp

/// The notebook in the real window, end to end in a private Xorg with the inputtest pen,
/// touchscreen and a keyboard: show the page strip, add a page, write on each, move between them
/// (PgUp, a tap on a thumbnail, two-finger swipes), Save As through the file chooser (and over an
/// existing file, answering "Replace …?"), reopen what was saved, and find a word of page 2 from
/// page 1 with the search bar.
@Suite(.serialized)
struct NotebookWindowTests {
    private func shoot(_ image: CairoImage, _ name: String) {
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? image.writePNG("\(dir)/\(name).png")
        }
    }

    private struct Window {
        let app: QuireAppProcess
        let x: XClient
        let ready: ReadyLine
        let top: (x: Int, y: Int)
    }

    private func launch(_ file: String, _ server: XServer, home: String) throws -> Window {
        let env = ["XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data"]
        let app = try QuireAppProcess.edit(file, server: server, geometry: (1000, 700), environment: env)
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let g = try x.geometry(ready.window)
        return Window(app: app, x: x, ready: ready, top: (g.x, g.y))
    }

    /// Waits until the window's title contains `text`; returns the title.
    @discardableResult
    private func title(_ w: Window, contains text: String, timeout: Double = 15) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var t = ""
        while Date() < deadline {
            t = w.x.name(of: w.ready.window) ?? ""
            if t.contains(text) { break }
            usleep(20_000)
        }
        return t
    }

    private func until(_ timeout: Double = 15, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(30_000)
        }
        return false
    }

    @Test func addWriteMoveSaveAsReopen() throws {
        let tmp = TempDir()
        let file = tmp.path("notes.iink")
        let made = try runTool(try quireBinary().path, ["new", file, "--part-type", "Text Document"])
        try #require(made.exit == .exited(0), "quire new: \(made.output)")
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }
        var w = try launch(file, server, home: tmp.url.path)
        defer { if w.app.isRunning { w.app.kill() } }
        let pen = try server.connect(.pen)
        let keyboard = try server.connect(.keyboard)
        func keys(_ chord: String) throws {
            w.x.focus(w.ready.window)
            try keyboard.keyChord(try w.x.keycodes(chord))
        }
        func tap(_ x: Double, _ y: Double) throws { try pen.penStroke(points: [(x, y, 0.5), (x, y, 0.5)]) }
        #expect(title(w, contains: "notes.iink - page 1 of 1").hasSuffix("notes.iink - page 1 of 1"))
        /// The top-level's children on screen: the toolbar and the canvas until the strip is shown.
        func shownChildren() -> Int { w.x.children(of: w.ready.window).filter { w.x.isViewable($0) }.count }
        #expect(shownChildren() == 2, "a hidden page strip covers the canvas")

        let screen = quire_DefaultScreen(w.x.display)
        let ppmm = Double(quire_DisplayWidth(w.x.display, screen)) / Double(quire_DisplayWidthMM(w.x.display, screen))
        let words = try HandwrittenWord.load(["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547",
                                              "unipen-b0f24618f5b3", "unipen-db47d8bec17f", "unipen-92ceb47958ec"])
        /// Writes words 6 mm high on the second guide line of the page shown.
        func write(_ ws: ArraySlice<HandwrittenWord>) throws {
            let canvas = try w.x.geometry(w.ready.canvas)
            var cx = 20 * ppmm
            for word in ws {
                let b = word.bounds
                let k = 6 * ppmm / max(b.height, 1)
                for s in word.strokes {
                    try pen.penStroke(points: s.map { (Double(canvas.x) + cx + ($0.x - b.x) * k, Double(canvas.y) + 62.5 * ppmm + ($0.y - b.y) * k, 0.6) })
                }
                cx += b.width * k + 5 * ppmm
            }
        }
        func inkOnCanvas() throws -> Int {
            let c = try w.x.capture(w.ready.canvas)
            return c.countDark(x: Int(15 * ppmm), y: Int(58 * ppmm), width: Int(120 * ppmm), height: Int(14 * ppmm))
        }

        try write(words[0 ..< 3])
        #expect(try until { try inkOnCanvas() > 200 }, "page 1 shows no ink")

        // The toolbar's Pages button shows the strip; the canvas gives it room.
        let toolbar = ToolbarLayout(kiosk: false, scale: w.ready.scale, width: Double(w.ready.width))
        let pages = try #require(toolbar.frames().first { $0.0 == .pages }?.1)
        try tap(Double(w.top.x) + pages.midX, Double(w.top.y) + pages.midY)
        let strip = PageStripLayout(scale: w.ready.scale)
        #expect(try until { try w.x.geometry(w.ready.canvas).width == 1000 - Int(strip.width) }, "the page strip did not open")
        #expect(shownChildren() == 3)

        // New (the strip's first button): the kind menu, Text Document first.
        let stripX = Double(w.top.x) + 1000 - strip.width, stripY = Double(w.top.y) + Double(toolbar.height)
        let newButton = strip.buttonFrames()[0].1
        try tap(stripX + newButton.midX, stripY + newButton.midY)
        usleep(300_000)
        try keys("Down")
        try keys("Return")
        #expect(title(w, contains: "page 2 of 2").hasSuffix("notes.iink - page 2 of 2"))
        #expect(try until { try inkOnCanvas() < 20 }, "the new page is not blank")
        try write(words[3 ..< 6])
        #expect(try until { try inkOnCanvas() > 200 }, "page 2 shows no ink")
        usleep(1_500_000)   // the thumbnail of the page written on follows within a second
        shoot(try w.x.capture(w.ready.window), "page-strip")

        // PgUp: back to page 1 and its ink; a tap on the second thumbnail: page 2 again.
        try keys("Prior")
        #expect(title(w, contains: "page 1 of 2").hasSuffix("page 1 of 2"))
        #expect(try until { try inkOnCanvas() > 200 })
        let second = strip.cellFrame(1, scrollY: 0)
        try tap(stripX + second.midX, stripY + second.midY)
        #expect(title(w, contains: "page 2 of 2").hasSuffix("page 2 of 2"))

        // Two fingers swiped sideways on the canvas turn the page (right: back, left: forward),
        // once palm rejection has let go of the pen.
        let touch = try server.connect(.touch)
        func swipe(_ dx: Double) throws {
            let canvas = try w.x.geometry(w.ready.canvas)
            let x0 = Double(canvas.x) + 400 - dx / 2, ys = [Double(canvas.y) + 250, Double(canvas.y) + 330]
            let p = InputTestDevice.touchPressureMax / 2
            for (i, y) in ys.enumerated() { try touch.touch(id: UInt32(i + 1), .begin, [0: touch.deviceX(x0), 1: touch.deviceY(y), InputTestDevice.pressureAxis: p]) }
            try touch.sync()
            for step in 1 ... 12 {
                for (i, y) in ys.enumerated() {
                    try touch.touch(id: UInt32(i + 1), .update, [0: touch.deviceX(x0 + dx * Double(step) / 12), 1: touch.deviceY(y), InputTestDevice.pressureAxis: p])
                }
                try touch.sync()
                usleep(10_000)
            }
            for (i, y) in ys.enumerated() { try touch.touch(id: UInt32(i + 1), .end, [0: touch.deviceX(x0 + dx), 1: touch.deviceY(y), InputTestDevice.pressureAxis: 0]) }
            try touch.sync()
        }
        usleep(900_000)
        try swipe(300)
        #expect(title(w, contains: "page 1 of 2").hasSuffix("page 1 of 2"), "a swipe to the right did not go back a page")
        try swipe(-300)
        #expect(title(w, contains: "page 2 of 2").hasSuffix("page 2 of 2"), "a swipe to the left did not go forward a page")

        // Save As: the chooser proposes "notes copy"; Enter saves, and the window edits the copy.
        try keys("ctrl+shift+s")
        usleep(700_000)
        shoot(try w.x.capture(w.ready.window), "file-chooser")
        try keys("Return")
        #expect(title(w, contains: "notes copy.iink").hasSuffix("notes copy.iink - page 2 of 2"))
        let copy = tmp.path("notes copy.iink")

        // Save As onto the first file, which exists: "Replace notes.iink?" is asked over the chooser;
        // Escape goes back to the chooser, Enter there asks again, and Replace writes over it.
        let firstSave = try Data(contentsOf: URL(fileURLWithPath: file))
        try keys("ctrl+shift+s")
        usleep(700_000)
        for _ in 0 ..< "notes copy copy".count { try keys("BackSpace") }
        for ch in "notes" { try keys(String(ch)) }
        try keys("Return")
        usleep(700_000)
        shoot(try w.x.capture(w.ready.window), "replace-dialog")
        try keys("Escape")
        usleep(300_000)
        #expect(title(w, contains: "notes copy.iink", timeout: 1).hasSuffix("notes copy.iink - page 2 of 2"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == firstSave, "Escape replaced the file")
        try keys("Return")
        usleep(500_000)
        try keys("Return")
        #expect(title(w, contains: "- notes.iink").hasSuffix("Quire - notes.iink - page 2 of 2"), "Replace did not save over notes.iink")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        w.x.sendDeleteWindow(w.ready.window)
        #expect(w.app.waitForExit(timeout: 20) == .exited(0), "stderr: \(w.app.stderr)")
        let replaced = try runTool(try quireBinary().path, ["info", file])
        #expect(replaced.output.contains("parts: 2"), "\(replaced.output)")
        let info = try runTool(try quireBinary().path, ["info", copy])
        #expect(info.output.contains("parts: 2"), "\(info.output)")
        #expect(info.output.components(separatedBy: "type=\"Text Document\"").count == 3, "\(info.output)")
        #expect(!info.output.contains("strokes=0 "), "\(info.output)")

        // Reopened: page 1 of 2, and PgDn reaches the second page's ink.
        w = try launch(copy, server, home: tmp.url.path)
        #expect(title(w, contains: "page 1 of 2").hasSuffix("notes copy.iink - page 1 of 2"))
        try keys("Next")
        #expect(title(w, contains: "page 2 of 2").hasSuffix("page 2 of 2"))
        #expect(try until { try inkOnCanvas() > 200 }, "the reopened page 2 shows no ink")

        // Search from page 1 for a word written on page 2: Ctrl+F, the word, Enter lands on it.
        try keys("Prior")
        #expect(title(w, contains: "page 1 of 2").hasSuffix("page 1 of 2"))
        try keys("ctrl+f")
        usleep(300_000)
        for ch in words[4].label.lowercased() { try keys(String(ch)) }
        try keys("Return")
        #expect(title(w, contains: "page 2 of 2").hasSuffix("page 2 of 2"), "searching \(words[4].label) did not go to page 2")
        usleep(500_000)
        shoot(try w.x.capture(w.ready.window), "search-hit")
        w.x.sendDeleteWindow(w.ready.window)
        #expect(w.app.waitForExit(timeout: 20) == .exited(0), "stderr: \(w.app.stderr)")
    }
}
