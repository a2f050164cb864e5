import Foundation
import Testing
import QuireApp

/// A pen that goes down right after choosing a popup's item can reach the X server before the
/// popup's window is unmapped: the server then delivers that stroke to the closed popup's window.
/// The stroke is the canvas's ink all the same (it was lost under load: the lasso test's red
/// word came out a stroke short now and then). Made certain here by stopping the app while the
/// tap and the stroke are sent, so both reach the server while the popup is still mapped.
@Suite(.serialized)
struct PopupRaceWindowTests {
    @Test func strokeRightAfterChoosingAColourIsInk() throws {
        let w = try EditorWindow.start(geometry: (900, 650), trace: true)
        defer { w.stop() }
        let (app, ready, x, ppmm) = (w.app, w.ready, w.x, w.ppmm)
        let topLevel = try x.geometry(ready.window)
        let (ox, oy) = try w.canvasOrigin()
        let pen = try w.server.connect(.pen)
        func tap(_ px: Double, _ py: Double) throws { try pen.penStroke(points: [(px, py, 0.6), (px, py, 0.6)]) }

        let layout = ToolbarLayout(kiosk: false, scale: ready.scale, width: Double(ready.width))
        let pens = try #require(layout.frames().first { $0.0.rawValue == "pens" }?.1)
        try tap(Double(topLevel.x) + pens.x + pens.width / 2, Double(topLevel.y) + pens.y + pens.height / 2)
        let hit = try app.waitForLine(after: -1, timeout: 60, what: "the pens' palette") { $0.hasPrefix("quire: popup {\"") && $0.contains("\"pens\"") }
        let popup = try #require(try JSONSerialization.jsonObject(with: Data(hit.line.dropFirst("quire: popup ".count).utf8)) as? [String: Any])
        let items = (popup["items"] as? [[String: Any]]) ?? []
        let red = try #require(items.first { $0["label"] as? String == "Red" }, "no Red in \(items)")
        let f = (red["frame"] as? [Double]) ?? [0, 0, 0, 0]
        let (rx, ry) = (ox + f[0] + f[2] / 2, oy + f[1] + f[3] / 2)

        // Stopped, the app cannot unmap the popup before the stroke's press reaches the server.
        kill(app.pid, SIGSTOP)
        do {
            try tap(rx, ry)
            // A zigzag 24 mm wide starting on the Red item, inside the popup at first.
            try pen.penStroke(points: (0 ... 24).map { i in (rx + Double(i) * ppmm, ry + (i % 2 == 0 ? 0 : 3 * ppmm), 0.6) })
        } catch {
            kill(app.pid, SIGCONT)
            throw error
        }
        kill(app.pid, SIGCONT)
        _ = try app.waitForLine(after: hit.index, timeout: 60, what: "the popup closed") { $0.hasPrefix("quire: popup {\"kind\":null") }

        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
        let strokes = try w.exportedStrokes()
        #expect(strokes.count == 1, "strokes: \(strokes.count)")
        #expect(strokes.first?["color"] as? String == "#c62828", "colour: \(String(describing: strokes.first?["color"]))")
        let xs = (strokes.first?["x"] as? [Double]) ?? []
        #expect(xs.count >= 20 && ((xs.max() ?? 0) - (xs.min() ?? 0)) > 20, "the stroke's \(xs.count) points span \(String(describing: xs.min()))...\(String(describing: xs.max())) mm")
    }
}
