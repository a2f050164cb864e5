import CX11
import Foundation
import Testing
import QuireApp
#if canImport(Glibc)
import Glibc
#endif

/// One `quire: selection {...}` trace line of the app (`QUIRE_TRACE=1`): the lasso selection.
private struct SelectionState {
    typealias Box = (x: Double, y: Double, width: Double, height: Double)
    let strokes: Int
    let blocks: Int
    /// The drawn frame, canvas pixels.
    let frame: Box?
    /// The selection's extent in the model, millimetres.
    let bounds: Box?
    let undo: Bool
    let redo: Bool

    init?(_ line: String) {
        guard line.hasPrefix("quire: selection "),
              let o = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(17).utf8)) as? [String: Any] else { return nil }
        func rect(_ v: Any?) -> Box? {
            guard let a = v as? [Double], a.count == 4 else { return nil }
            return (a[0], a[1], a[2], a[3])
        }
        strokes = (o["strokes"] as? Int) ?? -1
        blocks = (o["blocks"] as? Int) ?? -1
        frame = rect(o["frame"])
        bounds = rect(o["bounds"])
        undo = (o["undo"] as? Bool) ?? false
        redo = (o["redo"] as? Bool) ?? false
    }

    /// Bounds within `tol` millimetres of `b` on every side.
    func at(_ b: Box, tol: Double) -> Bool {
        guard let r = bounds else { return false }
        return abs(r.x - b.x) <= tol && abs(r.y - b.y) <= tol && abs(r.width - b.width) <= tol && abs(r.height - b.height) <= tol
    }
}

/// The lasso, the pens' palette and the highlighter of `quire edit`, end to end in Xorg with the
/// inputtest pen: real handwriting written, two words lassoed, moved by a drag inside the frame
/// and resized by a corner handle (each one undo step), a colour picked from the palette and
/// written with, a word highlighted; the package checked with `quire export` after the window
/// closes.
@Suite(.serialized)
struct LassoPenWindowTests {
    private typealias Box = (x: Double, y: Double, width: Double, height: Double)

    private func shoot(_ image: CairoImage, _ name: String) {
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? image.writePNG("\(dir)/\(name).png")
        }
    }

    private static func contains(_ b: Box, _ p: (x: Double, y: Double), slack: Double = 0) -> Bool {
        p.x >= b.x - slack && p.x <= b.x + b.width + slack && p.y >= b.y - slack && p.y <= b.y + b.height + slack
    }

    @Test func lassoMoveResizeColourAndHighlight() throws {
        let w = try EditorWindow.start(geometry: (1000, 700), trace: true)
        defer { w.stop() }
        let (file, server, app, ready, x, ppmm) = (w.file, w.server, w.app, w.ready, w.x, w.ppmm)
        let topLevel = try x.geometry(ready.window)
        let (ox, oy) = try w.canvasOrigin()
        // A popup's trace line comes as it is mapped, before its items are all painted.
        func shot(_ name: String) throws { usleep(400_000); shoot(try x.capture(ready.window), name) }
        let pen = try server.connect(.pen)
        let keyboard = try server.connect(.keyboard)

        // Trace lines in order: `next` returns the first one after the last seen that matches.
        var seen = -1
        func next<T>(_ what: String, timeout: Double = 60, _ parse: @escaping (String) -> T?, _ match: @escaping (T) -> Bool) throws -> T {
            let hit = try app.waitForLine(after: seen, timeout: timeout, what: what) { parse($0).map(match) ?? false }
            seen = hit.index
            return parse(hit.line)!
        }
        func selection(_ what: String, _ match: @escaping (SelectionState) -> Bool) throws -> SelectionState {
            try next("a selection with \(what)", SelectionState.init, match)
        }
        func tap(_ px: Double, _ py: Double) throws { try pen.penStroke(points: [(px, py, 0.6), (px, py, 0.6)]) }
        func button(_ label: String) throws {
            let layout = ToolbarLayout(kiosk: false, scale: ready.scale, width: Double(ready.width))
            let f = try #require(layout.frames().first { $0.0.rawValue == label }?.1, "no toolbar button \(label)")
            try tap(Double(topLevel.x) + f.x + f.width / 2, Double(topLevel.y) + f.y + f.height / 2)
        }
        func drag(from a: (Double, Double), to b: (Double, Double)) throws {
            try pen.penStroke(points: (0 ... 16).map { i in
                let t = Double(i) / 16
                return (ox + a.0 + (b.0 - a.0) * t, oy + a.1 + (b.1 - a.1) * t, 0.6)
            })
        }
        func keys(_ chord: String) throws {
            x.focus(ready.window)
            try keyboard.keyChord(try x.keycodes(chord))
        }

        // 1. Four words on one line, 6 mm high, with the pen.
        let words = try HandwrittenWord.load(["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547", "unipen-b0f24618f5b3"])
        var written: [Box] = []
        var cx = 20 * ppmm
        let top = 62.5 * ppmm, height = 6 * ppmm
        for w in words {
            let b = w.bounds
            let k = height / max(b.height, 1)
            for s in w.strokes { try pen.penStroke(points: s.map { (ox + cx + ($0.x - b.x) * k, oy + top + ($0.y - b.y) * k, 0.6) }) }
            written.append((cx, top, b.width * k, height))
            cx += b.width * k + 5 * ppmm
        }
        func covered(_ s: BarState, _ boxes: [Box]) -> Bool {
            boxes.allSatisfy { b in s.words.contains { $0.ink && Self.contains(b, $0.center, slack: 2) } }
        }
        let read = try next("all four words read", BarState.init) { covered($0, written) && !$0.words.contains(where: \.changed) }
        print("recognized: \(read.labels)")

        // 2. The marker across the first word: the word gets the highlight style and its block's
        // reading stays what it was (the stroke is no letter).
        try button("highlighter")
        let hw = written[0]
        try drag(from: (hw.x - 1 * ppmm, hw.y + hw.height / 2), to: (hw.x + hw.width + 1 * ppmm, hw.y + hw.height / 2))
        let marked = try next("the first word highlighted", BarState.init) { s in
            s.words.contains { Self.contains(hw, $0.center, slack: 2) && $0.styles.contains("highlight") }
        }
        #expect(marked.labels == read.labels, "the highlighter changed the reading: \(read.labels) -> \(marked.labels)")
        #expect(marked.words.filter { $0.styles.contains("highlight") }.count == 1, "\(marked.words.map { ($0.label, $0.styles) })")

        // 3. The lasso from the toolbar; a loop around the second and third words selects their
        // strokes and nothing else.
        try button("selector")
        let (l, r) = (written[1].x - 2 * ppmm, written[2].x + written[2].width + 2 * ppmm)
        let (t, b) = (top - 2.5 * ppmm, top + height + 2.5 * ppmm)
        let corners: [(Double, Double)] = [(l, b), (l, t), (r, t), (r, b), (l, b)]
        var loop: [(x: Double, y: Double, pressure: Double)] = []
        for (p, q) in zip(corners, corners.dropFirst()) {
            for i in 0 ..< 12 {
                let f = Double(i) / 12
                loop.append((ox + p.0 + (q.0 - p.0) * f, oy + p.1 + (q.1 - p.1) * f, 0.6))
            }
        }
        loop.append((ox + l, oy + b - 1, 0.6))
        let beforeLasso = seen
        try pen.penStroke(points: loop)
        let expected = words[1].strokes.count + words[2].strokes.count
        let selected = try selection("\(expected) strokes") { $0.strokes == expected && $0.blocks == 0 && $0.frame != nil }
        let b0 = try #require(selected.bounds), f0 = try #require(selected.frame)
        #expect(b0.x * ppmm > written[1].x - 0.5 * ppmm && (b0.x + b0.width) * ppmm < written[2].x + written[2].width + 0.5 * ppmm,
                "selection \(b0) mm is not the two words \(written[1]) \(written[2]) px")
        // The candidates bar steps aside while the selection's handles show.
        _ = try app.waitForLine(after: beforeLasso, what: "the bar hidden for the selection") { BarState($0)?.block == nil }

        // 4. A pen drag inside the frame moves the selection: 15 mm right, 30 mm down.
        let (dx, dy) = (15.0, 30.0)
        let grab = (f0.x + f0.width / 2, f0.y + f0.height / 2)
        try drag(from: grab, to: (grab.0 + dx * ppmm, grab.1 + dy * ppmm))
        let movedTo: Box = (b0.x + dx, b0.y + dy, b0.width, b0.height)
        let moved = try selection("its ink moved by (\(dx), \(dy)) mm") { $0.strokes == expected && $0.at(movedTo, tol: 0.4) }
        let b1 = try #require(moved.bounds), f1 = try #require(moved.frame)
        #expect(abs(b1.width - b0.width) < 0.02 && abs(b1.height - b0.height) < 0.02, "moving changed the size: \(b0) -> \(b1)")
        #expect(moved.undo && !moved.redo)

        // 5. The bottom-right handle, dragged out along the diagonal, resizes by 1.5 about the
        // opposite corner (the top-left of the ink, 6 px inside the frame's corner).
        let anchor = (f1.x + 6, f1.y + 6), handle = (f1.x + f1.width, f1.y + f1.height)
        let factor = 1.5
        try drag(from: handle, to: (anchor.0 + (handle.0 - anchor.0) * factor, anchor.1 + (handle.1 - anchor.1) * factor))
        let scaledTo: Box = (b1.x, b1.y, b1.width * factor, b1.height * factor)
        let scaled = try selection("its ink resized by \(factor)") { $0.strokes == expected && $0.at(scaledTo, tol: 0.6) }
        let b2 = try #require(scaled.bounds)
        try shot("lasso-handles")

        // 6. Each drag was one undo step: Ctrl+Z twice goes back through the move to the start,
        // Ctrl+Y twice comes back to the resized ink.
        try keys("ctrl+z")
        _ = try selection("the resize undone") { $0.at(b1, tol: 0.02) && $0.redo }
        try keys("ctrl+z")
        let undone = try selection("the move undone") { $0.at(b0, tol: 0.02) }
        #expect(undone.strokes == expected)
        try keys("ctrl+y")
        _ = try selection("the move redone") { $0.at(b1, tol: 0.02) }
        try keys("ctrl+y")
        _ = try selection("the resize redone") { $0.at(b2, tol: 0.02) && !$0.redo }
        try keys("Escape")
        _ = try selection("nothing") { $0.strokes == 0 && $0.frame == nil }

        // 7. The pen's palette: Red, then a word written below is red.
        try button("pen")
        try button("pens")
        let popup = try next("the pens' palette", { (line: String) -> [String: Any]? in
            guard line.hasPrefix("quire: popup {") else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(line.dropFirst("quire: popup ".count).utf8)) as? [String: Any]
        }) { $0["kind"] as? String == "pens" }
        let items = (popup["items"] as? [[String: Any]]) ?? []
        let red = try #require(items.first { $0["label"] as? String == "Red" }, "no Red in \(items)")
        let rf = (red["frame"] as? [Double]) ?? [0, 0, 0, 0]
        try shot("pens-palette")
        try tap(ox + rf[0] + rf[2] / 2, oy + rf[1] + rf[3] / 2)
        let redWord = words[3]
        let rb = redWord.bounds, rk = height / max(rb.height, 1)
        let redTop = top + 15 * ppmm
        for s in redWord.strokes {
            try pen.penStroke(points: s.map { (ox + 20 * ppmm + ($0.x - rb.x) * rk, oy + redTop + ($0.y - rb.y) * rk, 0.6) })
        }

        // 8. More colours: the chooser's grid; a cell picked with the pen is the ink of the next
        // word, and becomes the custom colour.
        func popupLine(_ kind: String) throws -> [[String: Any]] {
            let o = try next("the \(kind) popup", { (line: String) -> [String: Any]? in
                guard line.hasPrefix("quire: popup {") else { return nil }
                return try? JSONSerialization.jsonObject(with: Data(line.dropFirst("quire: popup ".count).utf8)) as? [String: Any]
            }) { $0["kind"] as? String == kind }
            return (o["items"] as? [[String: Any]]) ?? []
        }
        func tapItem(_ item: [String: Any]) throws {
            let f = (item["frame"] as? [Double]) ?? [0, 0, 0, 0]
            try tap(ox + f[0] + f[2] / 2, oy + f[1] + f[3] / 2)
        }
        try button("pens")
        let palette = try popupLine("pens")
        #expect(palette.first { $0["label"] as? String == "Red" }?["current"] as? Bool == true, "the palette marks Red as the pen's")
        try tapItem(try #require(palette.first { ($0["label"] as? String ?? "").hasPrefix("More colours") }, "no More colours in \(palette)"))
        let grid = try popupLine("colours")
        #expect(grid.count == 72)
        // Both popups open whole on the canvas, title and all, though the button is above it.
        let titled = 28 * ready.scale - 1
        #expect(((palette.first?["frame"] as? [Double])?[1] ?? 0) >= titled && ((grid.first?["frame"] as? [Double])?[1] ?? 0) >= titled,
                "a popup starts above the canvas: \(String(describing: palette.first?["frame"])), \(String(describing: grid.first?["frame"]))")
        let cell = grid[20]
        let custom = try #require(cell["swatch"] as? String)
        try shot("pens-colour-grid")
        try tapItem(cell)
        let customWord = words[3]
        let cb = customWord.bounds, ck = height / max(cb.height, 1)
        for s in customWord.strokes {
            try pen.penStroke(points: s.map { (ox + 20 * ppmm + ($0.x - cb.x) * ck, oy + top + 65 * ppmm + ($0.y - cb.y) * ck, 0.6) })
        }
        let customBox: Box = (20 * ppmm, top + 65 * ppmm, cb.width * ck, height)
        // The word read whole: its box spans the ink written. Not "unchanged" as well: under load the
        // reading of the last stroke can be the only one after it, so it comes marked as changed and
        // no later bar repeats it.
        _ = try next("the chosen colour's word read whole", BarState.init) { s in
            s.words.contains { $0.ink && Self.contains(customBox, $0.center, slack: 2) && $0.box.width >= customBox.width * 0.9 }
        }
        try shot("pens-ink")

        // 9. The package: the moved words' strokes where the selection ended, the red word red,
        // one highlighter stroke, the highlighted word in JSON; the palette's choice kept.
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
        let json = try runTool(try quireBinary().path, ["export", file, "--format", "json"])
        try #require(json.exit == .exited(0), "quire export: \(json.output)")
        var strokes: [[String: Any]] = []
        var highlighted: [String] = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] {
                if let ss = o["strokes"] as? [[String: Any]] { strokes += ss }
                if let st = o["styles"] as? [String], st.contains("highlight"), let l = o["label"] as? String { highlighted.append(l) }
                o.values.forEach(walk)
            } else if let a = v as? [Any] { a.forEach(walk) }
        }
        walk(try JSONSerialization.jsonObject(with: Data(json.output.utf8)))
        func extent(_ s: [String: Any]) -> Box {
            let xs = (s["x"] as? [Double]) ?? [], ys = (s["y"] as? [Double]) ?? []
            return (xs.min() ?? 0, ys.min() ?? 0, (xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        }
        let inked = strokes.filter { $0["tool"] as? String == "pen" && !["#c62828", custom].contains($0["color"] as? String ?? "") }
        let inMoved = inked.filter { let e = extent($0); return Self.contains(b2, (e.x + e.width / 2, e.y + e.height / 2), slack: 0.01) }
        #expect(inMoved.count == expected, "\(inMoved.count) strokes in the resized selection \(b2), expected \(expected)")
        let union = inMoved.map(extent).reduce(nil as Box?) { acc, e in
            guard let a = acc else { return e }
            let x0 = min(a.x, e.x), y0 = min(a.y, e.y)
            return (x0, y0, max(a.x + a.width, e.x + e.width) - x0, max(a.y + a.height, e.y + e.height) - y0)
        }
        #expect(union.map { abs($0.x - b2.x) < 0.05 && abs($0.y - b2.y) < 0.05 && abs($0.width - b2.width) < 0.1 } == true,
                "moved ink spans \(String(describing: union)), the selection ended at \(b2)")
        #expect(!inked.contains { let e = extent($0); return Self.contains(b0, (e.x + e.width / 2, e.y + e.height / 2)) },
                "ink was left where the moved words were")
        let reds = strokes.filter { $0["color"] as? String == "#c62828" }
        #expect(reds.count == redWord.strokes.count && reds.allSatisfy { $0["tool"] as? String == "pen" }, "red strokes: \(reds.count)")
        #expect(strokes.filter { $0["tool"] as? String == "highlighter" }.count == 1)
        #expect(strokes.filter { $0["color"] as? String == custom }.count == customWord.strokes.count, "strokes in the chosen \(custom)")
        #expect(highlighted.count == 1, "highlighted in JSON: \(highlighted)")
        let pens = try String(contentsOfFile: w.tmp.url.path + "/config/quire/pens.json", encoding: .utf8)
        let kept = try JSONSerialization.jsonObject(with: Data(pens.utf8)) as? [String: Any]
        #expect(kept?["custom"] as? String == custom, "pens.json: \(pens)")
        #expect((kept?["styles"] as? [String: Any])?["pen"].map { "\($0)" }?.contains(custom) == true, "pens.json: \(pens)")
    }
    /// The rotate handle through the real app: two words lassoed, the round handle above the
    /// frame dragged a quarter turn clockwise about the selection's centre (the ink's extent
    /// turns: width and height swap about the same centre), and one Ctrl+Z puts it back.
    @Test func lassoRotateByTheHandleAndUndo() throws {
        let w = try EditorWindow.start(geometry: (1000, 700), trace: true)
        defer { w.stop() }
        let (server, app, ready, x, ppmm) = (w.server, w.app, w.ready, w.x, w.ppmm)
        let topLevel = try x.geometry(ready.window)
        let (ox, oy) = try w.canvasOrigin()
        let pen = try server.connect(.pen)
        let keyboard = try server.connect(.keyboard)
        var seen = -1
        func selection(_ what: String, _ match: @escaping (SelectionState) -> Bool) throws -> SelectionState {
            let hit = try app.waitForLine(after: seen, timeout: 60, what: "a selection with \(what)") { SelectionState($0).map(match) ?? false }
            seen = hit.index
            return SelectionState(hit.line)!
        }
        func drag(from a: (Double, Double), to b: (Double, Double)) throws {
            try pen.penStroke(points: (0 ... 16).map { i in
                let t = Double(i) / 16
                return (ox + a.0 + (b.0 - a.0) * t, oy + a.1 + (b.1 - a.1) * t, 0.6)
            })
        }

        let words = try HandwrittenWord.load(["unipen-4fe72e73a415", "unipen-2e05f671aedf"])
        var cx = 30 * ppmm
        let top = 62.5 * ppmm, height = 6 * ppmm
        for w in words {
            let b = w.bounds, k = height / max(b.height, 1)
            for s in w.strokes { try pen.penStroke(points: s.map { (ox + cx + ($0.x - b.x) * k, oy + top + ($0.y - b.y) * k, 0.6) }) }
            cx += b.width * k + 5 * ppmm
        }
        let layout = ToolbarLayout(kiosk: false, scale: ready.scale, width: Double(ready.width))
        let lasso = try #require(layout.frames().first { $0.0.rawValue == "selector" }?.1)
        try pen.penStroke(points: [(Double(topLevel.x) + lasso.midX, Double(topLevel.y) + lasso.midY, 0.6),
                                   (Double(topLevel.x) + lasso.midX, Double(topLevel.y) + lasso.midY, 0.6)])
        let (l, r, t, b) = (25 * ppmm, cx, top - 3 * ppmm, top + height + 3 * ppmm)
        let corners: [(Double, Double)] = [(l, b), (l, t), (r, t), (r, b), (l, b)]
        var loop: [(x: Double, y: Double, pressure: Double)] = []
        for (p, q) in zip(corners, corners.dropFirst()) {
            for i in 0 ..< 12 { let f = Double(i) / 12; loop.append((ox + p.0 + (q.0 - p.0) * f, oy + p.1 + (q.1 - p.1) * f, 0.6)) }
        }
        loop.append((ox + l, oy + b - 1, 0.6))
        try pen.penStroke(points: loop)
        let expected = words.reduce(0) { $0 + $1.strokes.count }
        let selected = try selection("\(expected) strokes") { $0.strokes == expected && $0.frame != nil }
        let b0 = try #require(selected.bounds), f0 = try #require(selected.frame)

        // The round handle sits 3 handle sizes (12 px) above the top edge's middle; dragged to the
        // right of the centre, level with it, the pointer turns 90 degrees about the centre.
        let handle = (f0.x + f0.width / 2, f0.y - 36)
        let centre = ((b0.x + b0.width / 2) * ppmm, (b0.y + b0.height / 2) * ppmm)
        let radius = centre.1 - handle.1
        try drag(from: handle, to: (centre.0 + radius, centre.1))
        let turned: SelectionState.Box = (b0.x + b0.width / 2 - b0.height / 2, b0.y + b0.height / 2 - b0.width / 2, b0.height, b0.width)
        let rotated = try selection("its ink turned a quarter") { $0.strokes == expected && $0.at(turned, tol: 0.8) }
        #expect(rotated.undo && !rotated.redo)
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? x.capture(ready.window).writePNG("\(dir)/lasso-rotated.png")
        }
        // One undo step: Ctrl+Z puts the ink back exactly as it was, Ctrl+Y turns it again.
        x.focus(ready.window)
        try keyboard.keyChord(try x.keycodes("ctrl+z"))
        let undone = try selection("the rotation undone") { $0.at(b0, tol: 0.02) && $0.redo }
        #expect(undone.strokes == expected)
        try keyboard.keyChord(try x.keycodes("ctrl+y"))
        _ = try selection("the rotation redone") { $0.at(rotated.bounds!, tol: 0.02) && !$0.redo }
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
    }
}
