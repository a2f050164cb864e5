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
        // The bar sits by the moved ink, 0.6 of a guide line above it (room for tall letters),
        // and clear of the first line's block (60 to 70 mm).
        let frame = try #require(moved.frame)
        let barBottom = frame.y + frame.height
        #expect(barBottom <= ink.box.y - 5 * ppmm && barBottom > ink.box.y - 8 * ppmm, "bar bottom \(barBottom / ppmm) mm, ink top \(ink.box.y / ppmm) mm")
        #expect(frame.y >= 70 * ppmm, "bar top \(frame.y / ppmm) mm is over the first line")
        w.shot("bar-follows-flow")
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
    }

    /// The bar leaves room above the ink for the line's tall letters: the stem of the i of
    /// "island" written and read (the bar shows), then its `l`, which starts 1.9 mm above that
    /// ink, is ink in the block, not a press on the bar (the bar once sat 1.5 mm above the ink
    /// and took that stroke).
    @Test func aTallLetterWrittenAfterTheBarShowsIsInk() throws {
        let w = try EditorWindow.start(geometry: (1000, 700), trace: true)
        defer { w.stop() }
        let (server, app, ready, x, ppmm) = (w.server, w.app, w.ready, w.x, w.ppmm)
        let (ox, oy) = try w.canvasOrigin()
        let pen = try server.connect(.pen)
        let island = try #require(try HandwrittenWord.load(["unipen-b0f24618f5b3"]).first)
        func place(_ i: Int) -> [(Double, Double, Double)] { island.points(i, origin: (ox + 20 * ppmm, oy + 66.5 * ppmm), height: 6 * ppmm) }
        // The stem's top at 68.9 mm: its new block starts on the guide line at 60 mm, so the bar
        // goes by the ink, not the block's top.
        try pen.penStroke(points: place(0))
        let shown = try app.waitForLine(after: -1, timeout: 60, what: "the bar on the first letter") { line in
            BarState(line).map { $0.block != nil && $0.words.contains(where: \.ink) } ?? false
        }
        let bar = try #require(BarState(shown.line))
        let inkTop = try #require(bar.words.filter(\.ink).map(\.box.y).min())
        let l = place(3)
        let lTop = try #require(l.map(\.1).min()) - oy
        let barBottom = try #require(bar.frame.map { $0.y + $0.height })
        #expect(lTop < inkTop - 1.5 * ppmm, "the l must start well above the ink: \(lTop) px, ink \(inkTop) px")
        #expect(barBottom <= inkTop - 5 * ppmm, "bar bottom \(barBottom / ppmm) mm, ink top \(inkTop / ppmm) mm")
        try pen.penStroke(points: l)
        _ = try app.waitForLine(after: shown.index, timeout: 60, what: "the l read as ink of the block") { line in
            BarState(line).map { s in s.words.contains { $0.ink && $0.box.y <= lTop + 1 } } ?? false
        }
        w.shot("bar-tall-letter")
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
    }

    /// A stroke that starts on the bar and moves off its press is ink, every point of it; a pen
    /// tap on a word of the bar still lists that word's candidates.
    @Test func aStrokeStartedOnTheBarIsInkAndATapIsTheBars() throws {
        let w = try EditorWindow.start(geometry: (1000, 700), trace: true)
        defer { w.stop() }
        let (server, app, ready, x, ppmm) = (w.server, w.app, w.ready, w.x, w.ppmm)
        let (ox, oy) = try w.canvasOrigin()
        let pen = try server.connect(.pen)
        let found = try #require(try HandwrittenWord.load(["unipen-4fe72e73a415"]).first)
        for i in found.strokes.indices { try pen.penStroke(points: found.points(i, origin: (ox + 20 * ppmm, oy + 66.5 * ppmm), height: 6 * ppmm)) }
        let shown = try app.waitForLine(after: -1, timeout: 60, what: "the word read") { line in
            BarState(line).map { $0.block != nil && $0.words.contains(where: \.ink) && !$0.words.contains(where: \.changed) } ?? false
        }
        let bar = try #require(BarState(shown.line))
        let f = try #require(bar.frame)
        // Down from the bar's middle to below the word: 12 mm, 25 points.
        let start = (ox + f.x + f.width / 2, oy + f.y + f.height / 2)
        let line: [(Double, Double, Double)] = (0 ... 24).map { i in
            let t = Double(i)
            return (start.0 + t * 0.2 * ppmm, start.1 + t * 0.5 * ppmm, 0.6)
        }
        try pen.penStroke(points: line)
        // The same stroke on the page, 60 mm to the right: the one from the bar must have as many samples.
        try pen.penStroke(points: line.map { ($0.0 + 60 * ppmm, $0.1, $0.2) })
        let inked = try app.waitForLine(after: shown.index, timeout: 60, what: "the stroke from the bar read as ink") { l in
            BarState(l).map { s in s.words.contains { $0.ink && $0.box.y <= f.y + f.height / 2 + 1 } } ?? false
        }
        // A pen tap on the first word of the bar opens its candidates.
        let now = try #require(BarState(inked.line))
        let word = try #require(now.words.first)
        try pen.penStroke(points: [(ox + word.frame.x + word.frame.width / 2, oy + word.frame.y + word.frame.height / 2, 0.6),
                                   (ox + word.frame.x + word.frame.width / 2 + 1, oy + word.frame.y + word.frame.height / 2, 0.6)])
        _ = try app.waitForLine(after: inked.index, timeout: 30, what: "the word's candidates") { (l: String) -> Bool in
            l.hasPrefix("quire: popup {") && l.contains("\"kind\":\"candidates\"")
        }
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 30) == .exited(0), "stderr: \(app.stderr)")
        // The stroke kept all its points, from the press on the bar: the two 12 mm strokes (the
        // word's are 6 mm high) have as many samples each.
        let strokes = try w.exportedStrokes()
        #expect(strokes.count == found.strokes.count + 2, "\(strokes.count) strokes")
        let tall = strokes.compactMap { s -> Int? in
            let ys = (s["y"] as? [Double]) ?? []
            guard let lo = ys.min(), let hi = ys.max(), hi - lo > 9 else { return nil }
            return ys.count
        }
        #expect(tall.count == 2 && Set(tall).count == 1 && tall[0] >= line.count, "samples of the strokes from the bar and on the page: \(tall)")
    }
}
