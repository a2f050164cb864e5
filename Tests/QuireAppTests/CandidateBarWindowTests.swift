import CX11
import Foundation
import Testing
import QuireApp

/// The candidates bar follows ink the block flow moved, in the real window (Xorg, inputtest pen):
/// a word written just under a line of handwriting lands in a new block that the flow pushes a
/// line down; the bar shows that block's reading just above where the ink now is, not the
/// line above it.
@Suite(.serialized)
struct CandidateBarWindowTests {
    @Test func theBarFollowsInkPushedDownByTheFlow() throws {
        let w = try EditorWindow.start(geometry: (1000, 700), trace: true)
        defer { w.stop() }
        let (server, app, ready, x, ppmm) = (w.server, w.app, w.ready, w.x, w.ppmm)
        let (ox, oy) = try w.canvasOrigin()
        let pen = try server.connect(.pen)
        var seen = -1
        func bar(_ what: String, _ match: @escaping (BarState) -> Bool) throws -> BarState {
            let hit = try app.waitForLine(after: seen, timeout: 60, what: what) { BarState($0).map(match) ?? false }
            seen = hit.index
            return BarState(hit.line)!
        }
        /// Writes words `height` mm high from (x, top) mm, left to right.
        func write(_ words: [HandwrittenWord], x x0: Double, top: Double, height: Double) throws {
            var cx = x0 * ppmm
            for w in words {
                let b = w.bounds, k = height * ppmm / max(b.height, 1)
                for s in w.strokes { try pen.penStroke(points: s.map { (ox + cx + ($0.x - b.x) * k, oy + top * ppmm + ($0.y - b.y) * k, 0.6) }) }
                cx += b.width * k + 4 * ppmm
            }
        }
        let words = try HandwrittenWord.load(["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547"])
        // A line of two words on the guide line at 70 mm: their block spans 60 to 70 mm.
        try write(Array(words[0 ..< 2]), x: 20, top: 62.5, height: 6)
        let first = try bar("the first line read") { s in s.block != nil && s.words.filter(\.ink).count >= 2 && !s.words.contains(where: \.changed) }
        // A word in one stroke, its top 0.7 mm under that block (the pen never touches it): the new block
        // starts on the guide line above the ink, inside the first, and the flow pushes it down
        // a line and the gap (to 74 mm), so the ink lands about 14 mm lower than it was written.
        try write([words[2]], x: 30, top: 70.7, height: 3.2)
        let moved = try bar("a bar on the new block") { s in s.block != first.block && s.words.contains(where: \.ink) }
        let ink = try #require(moved.words.first { $0.ink })
        #expect(ink.box.y > 80 * ppmm, "the word was not pushed down: its ink is at \(ink.box.y / ppmm) mm")
        // The bar sits just above the moved ink (within 3 mm), clear of the first line.
        let barBottom = ink.frame.y + ink.frame.height
        #expect(barBottom <= ink.box.y + 1 && barBottom > ink.box.y - 3 * ppmm, "bar bottom \(barBottom / ppmm) mm, ink top \(ink.box.y / ppmm) mm")
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            usleep(300_000)
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? x.capture(ready.window).writePNG("\(dir)/bar-follows-flow.png")
        }
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
    }
}
