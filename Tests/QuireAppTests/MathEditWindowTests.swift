import CX11
import Foundation
import InkMath
import InkModel
import InkRender
import QuireApp
import Testing

/// Converted math edited by pen in the app (`quire edit`, a Math block in a Text Document), with
/// the inputtest pen: "12+7=" written from real samples and converted, the 7 scratched out (its
/// place stays open), a 2 written there from the same writer's ink, read as 12+2=14, converted again.
@Suite(.serialized)
struct MathEditWindowTests {
    @Test func scratchOneTypesetSymbolAndWriteIntoIt() throws {
        let w = try EditorWindow.start(geometry: (900, 560))
        defer { w.stop() }
        let (file, server, app, ready, x, ppmm) = (w.file, w.server, w.app, w.ready, w.x, w.ppmm)
        let pen = try server.connect(.pen)
        let layout = ToolbarLayout(kiosk: false, scale: ready.scale, width: Double(ready.width))
        func screenPoint(_ mmX: Double, _ mmY: Double) -> (x: Double, y: Double) { (Double(ready.x) + mmX * ppmm, Double(ready.y) + mmY * ppmm) }
        func tap(_ f: Rect) throws {
            try pen.penStroke(points: [(x: f.midX, y: f.midY, pressure: 0.5), (x: f.midX + 1, y: f.midY, pressure: 0.5)])
            usleep(300_000)
        }
        func tap(_ c: ToolbarCommand) throws {
            if let f = layout.frames().first(where: { $0.0 == c })?.1 { return try tap(f) }
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
        /// The converted line as saved: the glyphs it shows on the page (mm).
        func savedLine() throws -> (line: TypesetMath.Line, glyphs: [MathGlyph]) {
            try tap(.save)
            usleep(500_000)
            let package = try Engine().openPackage(file)
            defer { package.close() }
            let model = try package.part(at: 0).model
            let block = try #require(model.blocks.values.first { $0.kind == .math })
            let line = try #require(TypesetMath.decode(block.properties)?.lines.first { !$0.latex.isEmpty })
            let l = try #require(MathTypesetter(font: FontSpec(size: line.size), metrics: CairoFontMetrics()).drawn(line))
            return (line, l.glyphs.map { $0.offsetBy(dx: line.x, dy: line.baseline) })
        }
        let strokes = try CalcWindowTests.expression()
        try tap(.math)
        for s in strokes {
            try pen.penStroke(points: s.map { p in let q = screenPoint(10 + p.x, 14 + p.y); return (x: q.x, y: q.y, pressure: 0.6) }, delay: 0.002)
        }
        usleep(3_000_000)
        try tap(.convert)
        usleep(1_000_000)
        var (line, glyphs) = try savedLine()
        #expect(line.latex == "12+7=" && line.result == "19")
        // A zig-zag over the typeset 7.
        let seven = try #require(glyphs.first { $0.symbol == "7" }).box.insetBy(dx: -0.3, dy: -0.3)
        let zig = (0 ... 24).map { i -> (x: Double, y: Double, pressure: Double) in
            let corner = Double(i) / 4, k = Int(corner)
            let from = k % 2 == 0 ? seven.x : seven.maxX, to = k % 2 == 0 ? seven.maxX : seven.x
            let q = screenPoint(from + (to - from) * (corner - Double(k)), seven.y + seven.height * corner / 6)
            return (x: q.x, y: q.y, pressure: 0.5)
        }
        try pen.penStroke(points: zig, delay: 0.01)
        usleep(1_000_000)
        let eqBefore = try #require(glyphs.first { $0.symbol == "=" }).box
        (line, glyphs) = try savedLine()
        #expect(line.latex == "12+=", "the scratch-out took the 7 only")
        #expect(glyphs.first { $0.symbol == "=" }?.box == eqBefore, "its place stays open: the = does not move")
        shot("math-edit-scratched")
        // Undo brings the 7 back, redo takes it again with its place kept.
        x.focus(ready.window)
        try x.keyChord("ctrl+z")
        usleep(500_000)
        (line, _) = try savedLine()
        #expect(line.latex == "12+7=" && line.result == "19" && line.scratched == nil, "undo")
        x.focus(ready.window)
        try x.keyChord("ctrl+y")
        usleep(500_000)
        (line, glyphs) = try savedLine()
        #expect(line.latex == "12+=" && glyphs.first { $0.symbol == "=" }?.box == eqBefore, "redo")
        // The same writer's 2 (the second symbol of the sample: stroke 1) in the 7's place, as tall.
        let two = strokes[1], top = two.map(\.y).min() ?? 0, bottom = two.map(\.y).max() ?? 0, left = two.map(\.x).min() ?? 0
        let k = (seven.height - 0.6) / max(bottom - top, 0.1)
        let x0 = seven.x + 0.3, y0 = seven.y + 0.3
        try pen.penStroke(points: two.map { p in
            let q = screenPoint(x0 + (p.x - left) * k, y0 + (p.y - top) * k)
            return (x: q.x, y: q.y, pressure: 0.6)
        }, delay: 0.002)
        usleep(3_000_000)
        shot("math-edit-written")
        // Before the next convert the ink is still ink, and the export reads it with the line.
        (line, _) = try savedLine()
        #expect(line.latex == "12+=", "the typeset line waits for convert")
        let before = try runTool(try quireBinary().path, ["export", file, "--format", "latex"])
        #expect(before.output.trimmingCharacters(in: .whitespacesAndNewlines) == "12+2=14")
        try tap(.convert)
        usleep(1_000_000)
        (line, _) = try savedLine()
        #expect(line.latex == "12+2=" && line.result == "14")
        shot("math-edit-converted")
        app.terminate()
        #expect(app.waitForExit(timeout: 30) == .exited(0))
        let latex = try runTool(try quireBinary().path, ["export", file, "--format", "latex"])
        #expect(latex.output.trimmingCharacters(in: .whitespacesAndNewlines) == "12+2=14")
    }
}
