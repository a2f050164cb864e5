import Foundation
import Testing
@testable import QuireApp
import QuireTestSupport

/// F12 in the editor window (Xvfb): the debug overlay on the page and the inspector panel at the
/// right with the block's lines, candidates and timings; F12 again hides both.
@Suite(.serialized)
struct InspectorWindowTests {
    /// The canvas once two captures in a row agree (the window has drawn what it was asked to).
    fileprivate func settled(_ x: XClient, _ ready: ReadyLine) throws -> CairoImage {
        var last = try x.capture(ready.canvas)
        for _ in 0 ..< 100 {
            usleep(100_000)
            let next = try x.capture(ready.canvas)
            if next.same(as: last) { return next }
            last = next
        }
        return last
    }

    @Test func f12ShowsTheOverlayAndThePanelAndHidesThem() throws {
        let tmp = TempDir()
        let file = tmp.path("welcome.iink")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Resources/samples/welcome.iink"), to: URL(fileURLWithPath: file))
        let server = try XServer.xvfb(width: 1100, height: 800)
        defer { server.stop() }
        let env = ["XDG_STATE_HOME": tmp.path("state"), "XDG_CONFIG_HOME": tmp.path("config"), "XDG_DATA_HOME": tmp.path("data"), "QUIRE_TRACE": "1"]
        let app = try QuireAppProcess.edit(file, server: server, geometry: (1000, 700), environment: env)
        defer { app.kill() }
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let before = try settled(x, ready)
        x.focus(ready.window)
        try x.keyChord("F12")
        let shown = try app.waitForLine(prefix: "quire: inspector {\"open\":true,\"rows\"", timeout: 60)
        #expect(shown.contains("Line 1: ") && shown.contains("responsibilities") && shown.contains("net ") && shown.contains("ms: layout"), "\(shown)")
        let open = try settled(x, ready)
        let panelX = open.width - min(380, open.width * 45 / 100)
        // The panel: its light grey background over the right of the canvas, with dark text.
        let panel = open.count(x: panelX + 4, y: 4, width: open.width - panelX - 8, height: 200) { r, g, b in r >= 240 && r < 252 && g >= 240 && g < 252 && b < r }
        #expect(panel > 10_000, "panel background pixels: \(panel)")
        #expect(open.countDark(x: panelX, y: 0, width: open.width - panelX, height: 300) > 300, "the panel's text")
        // The overlay: the page left of the panel is drawn differently (boxes and labels).
        var changed = 0
        for yy in stride(from: 0, to: open.height, by: 2) {
            for xx in stride(from: 0, to: panelX, by: 2) where open.pixel(x: xx, y: yy) != before.pixel(x: xx, y: yy) { changed += 1 }
        }
        #expect(changed > 500, "overlay pixels: \(changed)")
        try x.keyChord("F12")
        _ = try app.waitForLine(prefix: "quire: inspector {\"open\":false", timeout: 30)
        let closed = try settled(x, ready)
        var differ = 0
        for yy in stride(from: 0, to: closed.height, by: 2) {
            for xx in stride(from: 0, to: closed.width, by: 2) where closed.pixel(x: xx, y: yy) != before.pixel(x: xx, y: yy) { differ += 1 }
        }
        #expect(differ < 50, "F12 again restores the page: \(differ) pixels differ")
    }
}


extension InspectorWindowTests {
    /// `quire inspect PACKAGE` with a display: the inspector window on a copy of the package, with
    /// the panel and the overlay open and the strokes on a timeline (Home, Right, End).
    @Test func inspectOpensTheInspectorWindowWithATimeline() throws {
        let tmp = TempDir()
        let file = tmp.path("welcome.iink")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Resources/samples/welcome.iink"), to: URL(fileURLWithPath: file))
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        let server = try XServer.xvfb(width: 1100, height: 800)
        defer { server.stop() }
        let env = ["XDG_STATE_HOME": tmp.path("state"), "XDG_CONFIG_HOME": tmp.path("config"), "XDG_DATA_HOME": tmp.path("data"), "QUIRE_TRACE": "1"]
        let app = try QuireAppProcess(arguments: ["inspect", file, "--geometry", "1000x700"], server: server, environment: env)
        defer { app.kill() }
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let rows = try app.waitForLine(prefix: "quire: inspector {\"open\":true,\"rows\"", timeout: 60)
        #expect(rows.contains("Line 1: ") && rows.contains("responsibilities"), "\(rows)")
        func ink(_ img: CairoImage) -> Int { img.count(x: 0, y: 0, width: img.width * 55 / 100, height: img.height) { r, g, b in Int(r) + Int(g) + Int(b) < 200 } }
        let all = ink(try settled(x, ready))
        x.focus(ready.window)
        try x.keyChord("Home")
        _ = try app.waitForLine(prefix: "quire: timeline {\"shown\":0,", timeout: 30)
        let none = ink(try settled(x, ready))
        for _ in 0 ..< 20 { try x.keyChord("Right") }
        _ = try app.waitForLine(prefix: "quire: timeline {\"shown\":20,", timeout: 30)
        let some = ink(try settled(x, ready))
        #expect(none < some && some < all, "ink drawn: none \(none), 20 strokes \(some), all \(all)")
        // Letters do not type into what the window shows; End shows every stroke again.
        try x.keyChord("x")
        try x.keyChord("End")
        _ = try app.waitForLine(prefix: "quire: timeline {\"shown\":192,\"total\":192}", timeout: 30)
        try x.keyChord("ctrl+q")
        #expect(app.waitForExit(timeout: 30) == .exited(0))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original, "the inspected package is left as it was")
    }
}

extension InspectorWindowTests {
    /// The inspector window's layers each on its own toggle, by key and by the bar (a button-1
    /// press and release, as a pen's tip gives): the lines layer tints the first block's line
    /// (top left of the page) and nothing below the ink; the frames layer adds the strip under
    /// the line; the scrubber shows the strokes up to where it is tapped.
    @Test func layersToggleOnKeysAndOnTheBarAndTheScrubberSeeks() throws {
        let tmp = TempDir()
        let file = tmp.path("welcome.iink")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Resources/samples/welcome.iink"), to: URL(fileURLWithPath: file))
        let server = try XServer.xvfb(width: 1100, height: 800)
        defer { server.stop() }
        let env = ["XDG_STATE_HOME": tmp.path("state"), "XDG_CONFIG_HOME": tmp.path("config"), "XDG_DATA_HOME": tmp.path("data"), "QUIRE_TRACE": "1"]
        let app = try QuireAppProcess(arguments: ["inspect", file, "--geometry", "1000x700"], server: server, environment: env)
        defer { app.kill() }
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        // Each step waits for the trace line after the last one it saw.
        var seen = -1
        func next(_ prefix: String, timeout: Double = 30) throws -> String {
            let hit = try app.waitForLine(after: seen, timeout: timeout, what: prefix) { $0.hasPrefix(prefix) }
            seen = hit.index
            return hit.line
        }
        let first = try next("quire: inspector-layers ", timeout: 60)
        // The layers a trace line names.
        func layers(_ line: String) -> [String] {
            guard let a = line.range(of: "\"layers\":["), let b = line[a.upperBound...].firstIndex(of: "]") else { return [] }
            return line[a.upperBound ..< b].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        #expect(layers(first) == ["lines", "words", "chars", "labels", "blocks", "gestures"] && !first.contains("\"lines\":0"), "\(first)")
        _ = try app.waitForLine(prefix: "quire: inspector {\"open\":true,\"rows\"", timeout: 60)
        seen = try app.waitForLine(after: seen, what: "the first timeline") { $0.hasPrefix("quire: timeline ") }.index
        let on = try settled(x, ready)
        // The first block's line (canvas pixels, left of the panel) and the empty page below the ink.
        func changed(_ a: CairoImage, _ b: CairoImage, _ r: (x: Int, y: Int, w: Int, h: Int)) -> Int {
            var n = 0
            for yy in r.y ..< r.y + r.h { for xx in r.x ..< r.x + r.w where a.pixel(x: xx, y: yy) != b.pixel(x: xx, y: yy) { n += 1 } }
            return n
        }
        let line1 = (x: 20, y: 40, w: 540, h: 70), below = (x: 0, y: 480, w: 600, h: 150)
        x.focus(ready.window)
        try x.keyChord("l")
        let off = try next("quire: inspector-layers ")
        #expect(layers(off) == ["words", "chars", "labels", "blocks", "gestures"], "\(off)")
        let noLines = try settled(x, ready)
        let tint = changed(on, noLines, line1)
        #expect(tint > 5_000, "the line's band: \(tint) pixels changed")
        #expect(changed(on, noLines, below) == 0, "nothing changes below the ink")

        // The bar's Lines toggle brings the band back, pixel for pixel.
        let bar = InspectorBarLayout(scale: ready.scale, width: Double(ready.width), height: Double(ready.y))
        let top = try x.geometry(ready.window)
        let lines = try #require(bar.buttons(playing: false).first { $0.item == .action(.toggleLayer(.lines)) }?.frame)
        x.click(x: top.x + Int(lines.midX), y: top.y + Int(lines.midY))
        let back = try next("quire: inspector-layers ")
        #expect(layers(back).first == "lines", "\(back)")
        let again = try settled(x, ready)
        #expect(changed(on, again, line1) == 0, "the band is drawn again as before")

        // F: the per-frame strip under each line.
        try x.keyChord("f")
        let frames = try next("quire: inspector-layers ")
        #expect(layers(frames).contains("frames"), "\(frames)")
        let strip = changed(again, try settled(x, ready), (x: 20, y: 98, w: 540, h: 16))
        #expect(strip > 300, "the frame strip under line 1.1: \(strip) pixels")

        // The scrubber: tapped at its left end no stroke is shown, at a third about a third.
        let s = bar.scrubber
        x.click(x: top.x + Int(s.x) - 4, y: top.y + Int(s.midY))
        #expect(try next("quire: timeline ") == "quire: timeline {\"shown\":0,\"total\":192}")
        x.click(x: top.x + Int(s.x + s.width / 3), y: top.y + Int(s.midY))
        let third = try next("quire: timeline ")
        let shown = Int(third.split(separator: ":")[2].split(separator: ",")[0]) ?? -1
        #expect((62 ... 66).contains(shown), "\(third)")
        try x.keyChord("ctrl+q")
        #expect(app.waitForExit(timeout: 30) == .exited(0))
    }
}

private extension CairoImage {
    /// Pixel for pixel the same picture.
    func same(as o: CairoImage) -> Bool {
        guard width == o.width, height == o.height else { return false }
        for y in 0 ..< height { for x in 0 ..< width where pixel(x: x, y: y) != o.pixel(x: x, y: y) { return false } }
        return true
    }
}
