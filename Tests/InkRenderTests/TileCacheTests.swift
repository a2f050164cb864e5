import Foundation
import InkModel
@testable import InkRender
import QuireTools
import Testing

/// The window's tile cache must show exactly what a direct render shows, at any zoom, and follow
/// every kind of edit by itself (no `invalidate` from the caller), redrawing only where it changed.
@Suite struct TileCacheTests {
    /// A renderer drawing without tiles: the reference.
    func direct(_ part: PartModel, _ state: RenderState) throws -> DecodedImage {
        let r = CairoRenderer(theme: .builtIn)
        r.usesTiles = false
        r.render(part: part, state: state)
        return try #require(r.frameImage())
    }

    func expectSame(_ a: DecodedImage, _ b: DecodedImage, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let d = Golden.diff(a, b)
        #expect(d.passes && d.meanAbs < 0.3, "\(what): \(d)", sourceLocation: sourceLocation)
    }

    /// Ink, guides, typeset text, images, highlighter and a selection, over several tiles.
    func page() throws -> (PartModel, RenderState) {
        let part = try Fixtures.textDocument()
        for i in 0..<40 {
            let x = 8 + Double(i % 8) * 17, y = 100 + Double(i / 8) * 12
            part.insertStroke(Fixtures.stroke("w\(i)", seq: Int64(100 + i), Fixtures.loops(x0: x, y0: y, count: 2)))
        }
        var st = Fixtures.textState()
        st.lasso = []
        st.viewWidth = 700
        st.viewHeight = 640
        return (part, st)
    }

    @Test func tilesLookLikeADirectRenderAtEveryZoom() throws {
        let (part, base) = try page()
        let r = CairoRenderer(theme: .builtIn)
        for (scale, tx, ty) in [(4.0, 0.0, 0.0), (0.6, 13.25, 7.5), (1.7, -20.4, 31.8), (4.3, -101.5, -63.2), (9.8, -480.0, -95.6)] {
            var st = base
            st.transform = Transform(scale: scale, tx: tx, ty: ty)
            r.render(part: part, state: st)
            expectSame(try #require(r.frameImage()), try direct(part, st), "scale \(scale)")
        }
        #expect(r.tileCount > 4, "the view spans several tiles")
    }

    @Test func editsInvalidateOnlyWhatTheyTouch() throws {
        let (part, st) = try page()
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: part, state: st)
        func check(_ what: String, small: Bool = true, _ edit: () -> Void) throws {
            edit()
            // No invalidate: the renderer finds the change in the model.
            let damage = r.render(part: part, state: st)
            if small {
                let d = try #require(damage, "\(what): nothing repainted")
                #expect(d.width * d.height < 0.25 * 700 * 640, "\(what): repainted \(d)")
            }
            expectSame(try #require(r.frameImage()), try direct(part, st), what)
        }
        let added = Fixtures.stroke("n1", seq: 500, Fixtures.wave(x0: 60, y0: 140, length: 30, amplitude: 3))
        try check("add") { part.insertStroke(added) }
        try check("erase") { _ = part.removeStroke(id: "w3") }
        try check("undo the erase") { part.insertStroke(Fixtures.stroke("w3", seq: 103, Fixtures.loops(x0: 59, y0: 100, count: 2))) }
        try check("recolour") { var s = added; s.color = "#d03030"; part.insertStroke(s) }
        try check("move a block's ink") { part.translateStrokes(inBlock: "b1", unitsX: 500, unitsY: 300) }
        try check("move a stroke") { var s = added; s.translate(unitsX: -800, unitsY: 200); part.insertStroke(s) }
        try check("resize a block") { var b = part.blocks["b5"]!; b.box.height = 25; part.setBlock(b) }
        try check("remove a block", small: false) { var root = part.root; root.childIds.removeAll { $0 == "b4" }; part.setBlock(root); part.removeBlock(id: "b4") }
        try check("new words") {
            var b = part.blocks["b1"]!
            b.words = [RecognizedWord(label: "hi", candidates: [Candidate(label: "hi", score: 0.9)], box: Rect(x: 12, y: 10, width: 20, height: 7),
                                      line: 0, strokeIds: ["h1"], chars: [], styles: ["underline"])]
            part.setBlock(b)
        }
        // A redraw asked for without a change repaints from tiles, and looks the same.
        r.invalidate(nil)
        #expect(r.render(part: part, state: st) == st.viewRect)
        expectSame(try #require(r.frameImage()), try direct(part, st), "invalidate(nil)")
    }

    @Test func anotherPartOrThemeStartsAfresh() throws {
        let (part, st) = try page()
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: part, state: st)
        let other = Fixtures.inkDocument()
        r.render(part: other, state: st)
        expectSame(try #require(r.frameImage()), try direct(other, st), "other part")
        var theme = Theme.builtIn
        theme.penColor = RGBA(r: 0.8, g: 0.1, b: 0.1, a: 1)
        r.theme = theme
        r.render(part: other, state: st)
        let ref = CairoRenderer(theme: theme)
        ref.usesTiles = false
        ref.render(part: other, state: st)
        expectSame(try #require(r.frameImage()), try #require(ref.frameImage()), "theme")
    }

    /// With a budget, a new zoom shows the old level scaled and finishes over later renders; a
    /// stroke just committed stays on the live layer until its tiles are drawn.
    @Test func budgetedRendersFinishLaterAndKeepCommittedInk() throws {
        let (part, st) = try page()
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: part, state: st)
        r.frameBudget = 0
        var zoomed = st
        zoomed.transform = Transform(scale: 5, tx: -40, ty: -30)
        r.render(part: part, state: zoomed)
        #expect(r.needsRender, "a zero budget draws one tile per render")
        let first = try #require(r.frameImage())
        #expect(Fixtures.inkPixels(first, (0, 0, 700, 640)) > 1000, "the previous zoom stands in, scaled")
        var renders = 1
        while r.needsRender, renders < 50 { r.render(part: part, state: zoomed); renders += 1 }
        #expect(!r.needsRender && renders > 1)
        expectSame(try #require(r.frameImage()), try direct(part, zoomed), "finished")

        // A stroke drawn live, then committed: the page is dirty where it lies.
        var live = LiveStroke(id: "live", samples: [])
        var s = zoomed
        for i in 0..<30 {
            live.samples.append(InkSample(x: 40 + Double(i) * 0.8, y: 60 + 3 * sin(Double(i) / 3), t: Int64(i * 8), f: 0.5))
            s.liveStrokes = [live]
            r.drawLiveSegment(live, state: s)
        }
        part.insertStroke(InkStroke(id: "live", tool: "pen", seq: 900, samples: live.samples))
        s.liveStrokes = []
        // Another dirty tile first uses up the budget of this render.
        part.insertStroke(Fixtures.stroke("far", seq: 901, Fixtures.wave(x0: 130, y0: 120, length: 5, amplitude: 1)))
        r.render(part: part, state: s)
        // Where the committed stroke lies (160-285, 255-285 px), away from the other one.
        let around = (150, 240, 150, 60)
        #expect(r.needsRender)
        let ink = Fixtures.inkPixels(try #require(r.frameImage()), around)
        while r.needsRender, renders < 100 { r.render(part: part, state: s); renders += 1 }
        expectSame(try #require(r.frameImage()), try direct(part, s), "committed")
        let final = Fixtures.inkPixels(try #require(r.frameImage()), around)
        #expect(final > 200 && ink >= final - 20, "the stroke never left the screen: \(ink) then \(final)")
    }

    /// While input waits (`inputPending`), a render draws no tile at all, not even the one a
    /// budget always allows: a committed stroke stays on the live layer, and the page finishes
    /// once the input is handled.
    @Test func queuedInputHoldsTilesBack() throws {
        let (part, st) = try page()
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: part, state: st)
        r.frameBudget = 0.006
        var waiting = true
        var asked = 0
        r.inputPending = { asked += 1; return waiting }
        var live = LiveStroke(id: "new", samples: [])
        var s = st
        // A short stroke inside one tile: the one tile a budget always allows would finish it.
        for i in 0..<10 {
            live.samples.append(InkSample(x: 30 + Double(i) * 0.3, y: 40 + sin(Double(i) / 3), t: Int64(i * 8), f: 0.5))
            s.liveStrokes = [live]
            r.drawLiveSegment(live, state: s)
        }
        part.insertStroke(InkStroke(id: "new", tool: "pen", seq: 900, samples: live.samples))
        s.liveStrokes = []
        for _ in 0..<3 { r.render(part: part, state: s) }
        #expect(asked >= 3 && r.needsRender, "asked \(asked) times; the tile is left while input waits")
        let held = try #require(r.frameImage())
        expectSame(held, try direct(part, s), "the committed stroke shows from the live layer meanwhile")
        waiting = false
        var renders = 0
        while r.needsRender, renders < 50 { r.render(part: part, state: s); renders += 1 }
        #expect(!r.needsRender)
        expectSame(try #require(r.frameImage()), try direct(part, s), "finished once input was handled")
    }
}

/// Ink drawn at a level of detail (centre lines simplified within a tenth of a pixel) must look
/// like ink drawn from every point, at every zoom, and on a page of dense handwriting.
@Suite struct InkDetailTests {
    @Test func simplifiedInkLooksLikeFullDetail() throws {
        let part = RenderBenchmark.makePage(strokes: 300, pointsPerStroke: 100, width: 160, height: 90)
        for scale in [0.5, 1.0, 2.0, 4.0, 8.0] {
            let st = RenderState(transform: Transform(scale: scale, tx: 3.5, ty: 2.25), viewWidth: 640, viewHeight: 360, guides: false)
            func frame(_ detail: Double) throws -> DecodedImage {
                let r = CairoRenderer(theme: .builtIn)
                r.usesTiles = false
                r.inkDetail = detail
                r.render(part: part, state: st)
                return try #require(r.frameImage())
            }
            let d = Golden.diff(try frame(CairoRenderer.screenInkDetail), try frame(0))
            #expect(d.passes && d.meanAbs < 0.5, "scale \(scale): \(d)")
        }
        // It does drop points: most of a zoomed-out stroke's.
        let s = part.orderedStrokes[0]
        let pts = InkPath.decimate(InkPath.points(of: s), minDistance: 1.5 / 1.0)
        #expect(InkPath.simplify(pts, tolerance: CairoRenderer.screenInkDetail / 1.0, width: 0.6).count < pts.count)
    }
}

@Suite struct TileCacheStabilityTests {
    /// The window's default theme (the shipped theme.json) keeps tiles between frames: a second
    /// render of an unchanged page with a redraw asked for draws no tile.
    @Test func unchangedPageKeepsItsTilesWithTheShippedTheme() throws {
        #expect(Theme.default == Theme.default)
        let r = CairoRenderer()
        r.frameBudget = 0
        let (part, st) = (Fixtures.inkDocument(), Fixtures.inkState())
        var renders = 0
        repeat { r.render(part: part, state: st); renders += 1 } while r.needsRender && renders < 100
        #expect(!r.needsRender)
        r.invalidate(nil)
        r.render(part: part, state: st)
        #expect(!r.needsRender, "a redraw from tiles finishes in one render")
    }
}
