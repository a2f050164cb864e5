import CX11
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The pen gestures, touch gestures, candidates bar and context menu of `quire edit`, end to end:
/// real handwriting written with the inputtest pen in Xorg, gestures drawn on it, taps with the
/// touchscreen, and the package checked with `quire export` after the window closes.
@Suite(.serialized)
struct GestureWindowTests {
    private func shoot(_ image: CairoImage, _ name: String) {
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? image.writePNG("\(dir)/\(name).png")
        }
    }

    /// Rectangles in canvas pixels.
    private typealias Box = (x: Double, y: Double, width: Double, height: Double)

    private static func contains(_ b: Box, _ p: (x: Double, y: Double), slack: Double = 0) -> Bool {
        p.x >= b.x - slack && p.x <= b.x + b.width + slack && p.y >= b.y - slack && p.y <= b.y + b.height + slack
    }

    @Test func writeGestureConvertAndPickACandidate() throws {
        let w = try EditorWindow.start(geometry: (1000, 700), trace: true)
        defer { w.stop() }
        let (file, server, app, ready, x, ppmm) = (w.file, w.server, w.app, w.ready, w.x, w.ppmm)
        let (ox, oy) = try w.canvasOrigin()
        let lh = 10 * ppmm   // guide spacing
        func shot(_ name: String) throws { shoot(try x.capture(ready.window), name) }

        // Bar lines from stdout, in order; `next` waits for the first one after `from` that matches.
        var seen = 0
        func next(_ what: String, timeout: Double = 60, _ match: (BarState) -> Bool) throws -> BarState {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let lines = app.stdoutLines
                while seen < lines.count {
                    defer { seen += 1 }
                    if let s = BarState(lines[seen]), match(s) { return s }
                }
                usleep(20_000)
            }
            throw HarnessError("no candidates bar showing \(what) in \(timeout) s; stdout:\n\(app.stdoutLines.suffix(12).joined(separator: "\n"))\nstderr:\n\(app.stderr.suffix(2000))")
        }
        func line(_ prefix: String, after index: Int) throws -> (Int, String) {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                let lines = app.stdoutLines
                if let i = lines.indices.first(where: { $0 >= index && lines[$0].hasPrefix(prefix) }) { return (i, lines[i]) }
                usleep(20_000)
            }
            throw HarnessError("no '\(prefix)' line; stdout:\n\(app.stdoutLines.suffix(12).joined(separator: "\n"))")
        }

        // 1. Write six words on one line with the pen, 6 mm high, in the band above the second guide.
        let words = try HandwrittenWord.load(["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547",
                                              "unipen-b0f24618f5b3", "unipen-db47d8bec17f", "unipen-92ceb47958ec"])
        let pen = try server.connect(.pen)
        var written: [Box] = []
        var cx = 20 * ppmm
        let top = 62.5 * ppmm, height = 6 * ppmm
        for w in words {
            let b = w.bounds
            let k = height / max(b.height, 1)
            for s in w.strokes {
                try pen.penStroke(points: s.map { (ox + cx + ($0.x - b.x) * k, oy + top + ($0.y - b.y) * k, 0.6) })
            }
            written.append((cx, top, b.width * k, height))
            cx += b.width * k + 5 * ppmm
        }
        // Settled: every written word is read, and the highlight of the last change has expired.
        func covered(_ s: BarState, _ boxes: [Box]) -> Bool {
            boxes.allSatisfy { b in s.words.contains { $0.ink && Self.contains(b, $0.center, slack: 2) } }
        }
        var bar = try next("all six words") { s in covered(s, written) && !s.words.contains(where: \.changed) }
        let wordsIn = { (s: BarState, b: Box) in s.words.filter { Self.contains(b, $0.center, slack: 2) } }
        print("recognized: \(bar.labels)")
        try shot("gesture-write")

        // 2. Scratch out the third word: it goes, the others stay. (Before the strike-through: once a
        // word is gone, the recognizer's box of the word after the gap takes in the gap, and a
        // scratch over that word's ink alone covers too little of the box to count as a gesture.)
        let scratched = written[2]
        try pen.penStroke(points: (0 ... 7).flatMap { pass -> [(Double, Double, Double)] in
            let y0 = scratched.y + scratched.height * Double(pass) / 7, y1 = scratched.y + scratched.height * Double(pass + 1) / 7
            let (xa, xb) = pass % 2 == 0 ? (scratched.x - 2, scratched.x + scratched.width + 2) : (scratched.x + scratched.width + 2, scratched.x - 2)
            return (0 ... 8).map { i in let t = Double(i) / 8; return (ox + xa + (xb - xa) * t, oy + y0 + (y1 - y0) * t, 0.6) }
        })
        let gesture1 = try line("quire: gesture ", after: seen)
        #expect(gesture1.1.contains("\"scratch-out\""), "\(gesture1.1)")
        bar = try next("the scratched word gone") { s in wordsIn(s, scratched).isEmpty && !s.words.contains(where: \.changed) }
        #expect(covered(bar, Array(written[0 ... 1]) + Array(written[3...])), "scratch-out removed more than its word: \(bar.labels)")
        try shot("gesture-scratch-out")

        // 3. Strike through the second word: it goes, the others stay.
        let struck = written[1]
        let sy = struck.y + struck.height * 0.62
        try pen.penStroke(points: (0 ... 30).map { i in
            let t = Double(i) / 30
            return (ox + struck.x - 0.1 * lh + t * (struck.width + 0.2 * lh), oy + sy + sin(t * 3) * 0.6, 0.6)
        })
        let gesture2 = try line("quire: gesture ", after: gesture1.0 + 1)
        #expect(gesture2.1.contains("\"strike-through\""), "\(gesture2.1)")
        let before = bar
        bar = try next("the struck word gone") { s in wordsIn(s, struck).isEmpty && !s.words.contains(where: \.changed) }
        #expect(covered(bar, [written[0]] + Array(written[3...])), "strike-through removed more than its word: \(before.labels) -> \(bar.labels)")
        try shot("gesture-strike-through")

        // 4. Underline the first word: it keeps its ink and gets the style.
        let underlined = written[0]
        try pen.penStroke(points: (0 ... 24).map { i in
            let t = Double(i) / 24
            return (ox + underlined.x - 0.05 * lh + t * (underlined.width + 0.1 * lh), oy + underlined.y + underlined.height + 0.12 * lh + sin(t * 4) * 0.5, 0.6)
        })
        let gesture3 = try line("quire: gesture ", after: gesture2.0 + 1)
        #expect(gesture3.1.contains("\"underline\""), "\(gesture3.1)")
        bar = try next("the underline") { s in wordsIn(s, underlined).contains { $0.styles.contains("underline") } }
        let underlinedLabels = wordsIn(bar, underlined).map(\.label)

        // 5. Join the fourth and fifth words: an upward line in the gap closes it.
        let (left, right) = (written[3], written[4])
        // In the gap as the gesture classifier sees it: between the two words' recognized boxes.
        // (Those boxes run left of the ink: a word's box takes in the space before it, so a line
        // in the middle of the inked gap would cross the right word's box and stay ink.)
        let lw = try #require(wordsIn(bar, left).last), rw = try #require(wordsIn(bar, right).first)
        let (gapStart, gapEnd) = (max(lw.rbox.x + lw.rbox.width, left.x + left.width * 0.6), min(rw.rbox.x, right.x))
        try #require(gapEnd - gapStart > 3, "no gap between \(lw.label) \(lw.rbox) and \(rw.label) \(rw.rbox)")
        let gx = (gapStart + gapEnd) / 2 - 0.4
        let baseline = top + height
        try pen.penStroke(points: (0 ... 20).map { i in
            let t = Double(i) / 20
            return (ox + gx + t * 0.8, oy + baseline + 0.1 * lh - t * 0.75 * lh, 0.6)
        })
        let gesture4 = try line("quire: gesture ", after: gesture3.0 + 1)
        #expect(gesture4.1.contains("\"join\""), "\(gesture4.1)")
        let pair: Box = (left.x, left.y, right.x + right.width - left.x, right.height)
        let pairBefore = wordsIn(bar, pair)
        let gap = right.x - (left.x + left.width)
        bar = try next("the joined words") { s in
            let ws = wordsIn(s, pair)
            return !s.words.contains(where: \.changed) && !ws.isEmpty
                && ws.map { $0.box.x + $0.box.width }.max()! < right.x + right.width - gap * 0.6
        }
        // The gap is closed in the ink; whether the recognizer now reads one word is its own affair
        // (these weights often still read a space between two whole words that touch).
        let pairAfter = wordsIn(bar, pair).sorted { $0.box.x < $1.box.x }
        let inkGaps = zip(pairAfter, pairAfter.dropFirst()).map { $1.box.x - ($0.box.x + $0.box.width) }
        #expect(inkGaps.allSatisfy { $0 < 0.15 * lh }, "join left a gap: \(inkGaps) px")
        print("join: \(pairBefore.map(\.label)) -> \(pairAfter.map(\.label))")
        try shot("gesture-join")
        let joined = bar

        // 6. Double tap with a finger converts the block in place (after the palm-rejection window).
        usleep(700_000)
        let touch = try server.connect(.touch)
        let tapAt = (ox + written[5].x + written[5].width / 2, oy + written[5].y + written[5].height / 2)
        try touch.tap(id: 1, x: tapAt.0, y: tapAt.1)
        try touch.tap(id: 2, x: tapAt.0, y: tapAt.1)
        bar = try next("the converted words") { s in !s.words.isEmpty && s.words.allSatisfy { !$0.ink } }
        #expect(bar.labels == joined.labels, "conversion changed the words: \(joined.labels) -> \(bar.labels)")
        try shot("gesture-converted")

        // 7. Tap a word in the candidates bar, then another reading in its popup.
        let pick = try #require(bar.words.first { $0.candidates >= 2 }, "no word with two candidates: \(bar.labels)")
        try touch.tap(id: 3, x: ox + pick.frame.x + pick.frame.width / 2, y: oy + pick.frame.y + pick.frame.height / 2)
        let popupLine = try line("quire: popup {\"items\"", after: 0)
        let popup = try #require(try JSONSerialization.jsonObject(with: Data(popupLine.1.dropFirst("quire: popup ".count).utf8)) as? [String: Any])
        #expect(popup["kind"] as? String == "candidates")
        let items = (popup["items"] as? [[String: Any]]) ?? []
        try shot("gesture-candidates")
        let choice = try #require(items.first { ($0["current"] as? Bool) == false && ($0["label"] as? String) != pick.label },
                                  "the popup offers nothing else: \(items)")
        let label = try #require(choice["label"] as? String)
        let f = (choice["frame"] as? [Double]) ?? [0, 0, 0, 0]
        try touch.tap(id: 4, x: ox + f[0] + f[2] / 2, y: oy + f[1] + f[3] / 2)
        bar = try next("the picked candidate") { s in s.words.count == joined.words.count && s.words.contains { $0.index == pick.index && $0.label == label } }
        let finalLabels = bar.labels

        // 8. A long press on a word opens the context menu; Esc closes it.
        let menuAt = bar.words[0]
        try touch.touch(id: 5, .begin, [0: touch.deviceX(ox + menuAt.center.x), 1: touch.deviceY(oy + menuAt.center.y), 4: 1000])
        try touch.sync()
        let menuLine = try line("quire: popup {\"items\"", after: popupLine.0 + 1)
        #expect(menuLine.1.contains("\"kind\":\"menu\"") && menuLine.1.contains("\"Convert\""), "\(menuLine.1)")
        try touch.touch(id: 5, .end, [0: touch.deviceX(ox + menuAt.center.x), 1: touch.deviceY(oy + menuAt.center.y), 4: 0])
        try touch.sync()
        try shot("gesture-context-menu")
        x.focus(ready.window)
        try server.connect(.keyboard).keyChord(try x.keycodes("Escape"))
        let closed = try line("quire: popup {\"kind\":null", after: menuLine.0 + 1)
        #expect(closed.0 > menuLine.0)

        // 9. The package holds what the bar showed: text export, and the underline in JSON.
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
        let text = try runTool(try quireBinary().path, ["export", file, "--format", "text"])
        try #require(text.exit == .exited(0), "quire export: \(text.output)")
        let exported = text.output.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(exported == finalLabels, "export text \(exported) != bar \(finalLabels)")
        #expect(exported.contains(label))
        let json = try runTool(try quireBinary().path, ["export", file, "--format", "json"])
        try #require(json.exit == .exited(0), "quire export: \(json.output)")
        var styled: [String] = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] {
                if let st = o["styles"] as? [String], st.contains("underline"), let l = o["label"] as? String { styled.append(l) }
                o.values.forEach(walk)
            } else if let a = v as? [Any] { a.forEach(walk) }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.output.utf8)))
        #expect(!styled.isEmpty && styled.allSatisfy { underlinedLabels.contains($0) || $0 == label },
                "underlined in JSON: \(styled), underlined in the bar: \(underlinedLabels)")
    }

    /// The mouse: the right button opens the context menu on a block; Export writes it beside the
    /// package, and the keyboard picks Remove (Up/Down skip nothing enabled, Enter acts). Xvfb
    /// and XTest are enough here.
    @Test func rightClickMenuExportsAndRemovesABlock() throws {
        let tmp = TempDir()
        let file = tmp.path("notes.iink")
        try #require(try runTool(try quireBinary().path, ["new", file, "--part-type", "Text Document"]).exit == .exited(0))
        let server = try XServer.xvfb(width: 1024, height: 768)
        defer { server.stop() }
        let home = tmp.url.path
        let app = try QuireAppProcess.edit(file, server: server, geometry: (800, 600), environment: [
            "XDG_STATE_HOME": home + "/state", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "QUIRE_TRACE": "1",
        ])
        defer { if app.isRunning { app.kill() } }
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let canvas = try x.geometry(ready.canvas)
        func popup(after index: Int) throws -> (Int, [String: Any]) {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                let lines = app.stdoutLines
                if let i = lines.indices.first(where: { $0 >= index && lines[$0].hasPrefix("quire: popup ") }),
                   let o = try JSONSerialization.jsonObject(with: Data(lines[i].dropFirst("quire: popup ".count).utf8)) as? [String: Any] {
                    return (i, o)
                }
                usleep(20_000)
            }
            throw HarnessError("no popup line; stdout:\n\(app.stdoutLines.suffix(8).joined(separator: "\n"))\nstderr: \(app.stderr)")
        }

        x.mouseDrag((0 ... 20).map { (canvas.x + 120 + $0 * 8, canvas.y + 200 + ($0 % 4) * 5) })
        let deadline = Date().addingTimeInterval(10)
        while try x.capture(ready.canvas).countDark(x: 110, y: 185, width: 190, height: 40) < 50, Date() < deadline { usleep(20_000) }
        // Right-click on the ink: the menu lists the block's actions.
        x.click(x: canvas.x + 160, y: canvas.y + 205, button: 3)
        let (i1, menu) = try popup(after: 0)
        #expect(menu["kind"] as? String == "menu")
        let items = (menu["items"] as? [[String: Any]]) ?? []
        let labels = items.compactMap { $0["label"] as? String }
        #expect(["Copy", "Paste", "Remove block", "Convert", "Export", "Candidates"].allSatisfy(labels.contains), "\(labels)")
        let export = try #require(items.first { $0["label"] as? String == "Export" })
        #expect(export["enabled"] as? Bool == true)
        let f = (export["frame"] as? [Double]) ?? [0, 0, 0, 0]
        x.click(x: canvas.x + Int(f[0] + f[2] / 2), y: canvas.y + Int(f[1] + f[3] / 2))
        let (i2, closed) = try popup(after: i1 + 1)
        #expect(closed["kind"] is NSNull)
        var png: String?
        let exportDeadline = Date().addingTimeInterval(10)
        while png == nil, Date() < exportDeadline {
            png = (try? FileManager.default.contentsOfDirectory(atPath: tmp.url.path))?.first { $0.hasPrefix("notes-") && $0.hasSuffix(".png") }
            if png == nil { usleep(20_000) }
        }
        let exported = try #require(png, "Export wrote no PNG beside the package")
        #expect(try Data(contentsOf: tmp.url.appendingPathComponent(exported)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))

        // Again, and this time the keyboard: Down to Copy, Paste, Remove; Enter removes the block.
        x.click(x: canvas.x + 160, y: canvas.y + 205, button: 3)
        let (i3, _) = try popup(after: i2 + 1)
        x.focus(ready.window)
        for k in ["Down", "Down", "Down", "Return"] { try x.keyChord(k) }
        _ = try popup(after: i3 + 1)
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
        let info = try runTool(try quireBinary().path, ["info", file])
        #expect(info.output.contains("strokes=0"), "the block was not removed: \(info.output)")
    }
}
