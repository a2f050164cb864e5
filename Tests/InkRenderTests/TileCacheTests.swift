import Foundation
@testable import InkModel
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
            // No invalidate: the renderer finds the change in the model, from the part's own
            // journal (a kind of change the journal missed would show wrong, or fall back to the
            // comparison).
            let damage = r.render(part: part, state: st)
            #expect(r.damageSource == .journal, "\(what): found by \(r.damageSource)")
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
        try check("redo the erase") { _ = part.removeStroke(id: "w3") }
        try check("recolour") { var s = added; s.color = "#d03030"; part.insertStroke(s) }
        try check("move a block's ink") { part.translateStrokes(inBlock: "b1", unitsX: 500, unitsY: 300) }
        try check("move a stroke") { var s = added; s.translate(unitsX: -800, unitsY: 200); part.insertStroke(s) }
        try check("resize a block") { var b = part.blocks["b5"]!; b.box.height = 25; part.setBlock(b) }
        try check("remove a block", small: false) { var root = part.root; root.childIds.removeAll { $0 == "b4" }; part.setBlock(root); part.removeBlock(id: "b4") }
        try check("move a block with its ink") {
            var b = part.blocks["b5"]!
            b.box = b.box.offsetBy(dx: 0, dy: 12)
            part.setBlock(b)
            part.translateStrokes(inBlock: "b5", unitsX: 0, unitsY: 1200)
        }
        try check("replace an image") {
            // Another image's bytes under the same entry (an image block's content changed).
            let other = part.images["images/g.jpg"]!
            part.setImage(other, entry: "images/g.png")
        }
        try check("new words") {
            var b = part.blocks["b1"]!
            b.words = [RecognizedWord(label: "hi", candidates: [Candidate(label: "hi", score: 0.9)], box: Rect(x: 12, y: 10, width: 20, height: 7),
                                      line: 0, strokeIds: ["h1"], chars: [], styles: ["underline"])]
            part.setBlock(b)
        }
        try check("convert a block's ink") {
            // As the editor converts: the ink goes, the block shows its text instead.
            for id in ["h1", "h2", "h3"] { part.removeStroke(id: id) }
            var b = part.blocks["b1"]!
            b.words = []
            b.text = "hi there"
            b.conversion = "digitalEdit"
            part.setBlock(b)
        }
        try check("paste a block with ink") {
            Fixtures.addChild(part, BlockData(id: "p1", type: "Drawing", box: Rect(x: 60, y: 130, width: 40, height: 20)))
            part.insertStroke(Fixtures.stroke("p1s1", block: "p1", seq: 600, Fixtures.wave(x0: 62, y0: 140, length: 30, amplitude: 4)))
            part.insertStroke(Fixtures.stroke("p1s2", block: "p1", seq: 601, Fixtures.loops(x0: 64, y0: 146, count: 3)))
        }
        try check("several changes between two frames") {
            // A block's ink moved, one of its strokes erased after the move, another recoloured
            // and moved back; a stroke written and erased again; a block changed and changed back.
            part.translateStrokes(inBlock: "p1", unitsX: 700, unitsY: -400)
            part.removeStroke(id: "p1s1")
            var s = part.strokes["p1s2"]!
            s.color = "#2040c0"
            s.translate(unitsX: -700, unitsY: 400)
            part.insertStroke(s)
            part.insertStroke(Fixtures.stroke("gone", seq: 700, Fixtures.wave(x0: 20, y0: 150, length: 20, amplitude: 2)))
            part.removeStroke(id: "gone")
            let b5 = part.blocks["b5"]!
            var moved = b5
            moved.box.height = 40
            part.setBlock(moved)
            part.setBlock(b5)
        }
        try check("remove a block's ink and move it") {
            part.translateStrokes(inBlock: "b5", unitsX: 300, unitsY: 0)
            part.removeStroke(id: "d2")
        }
        // A redraw asked for without a change repaints from tiles, and looks the same.
        r.invalidate(nil)
        #expect(r.render(part: part, state: st) == st.viewRect)
        expectSame(try #require(r.frameImage()), try direct(part, st), "invalidate(nil)")
    }

    /// More changes between two frames than the part's journal keeps: the renderer compares the
    /// part with what it drew instead, and still repaints exactly what changed.
    @Test func changesPastTheJournalAreFoundByComparing() throws {
        let (part, st) = try page()
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: part, state: st)
        #expect(r.damageSource == .fresh)
        let kept = part.strokes["w5"]!
        for i in 0 ..< ChangeJournal.capacity + 10 {
            var s = kept
            s.translate(unitsX: Int32(i % 7) * 10, unitsY: 0)
            part.insertStroke(s)
        }
        part.removeStroke(id: "w6")
        let damage = try #require(r.render(part: part, state: st))
        #expect(r.damageSource == .diff)
        #expect(damage.width * damage.height < 0.25 * 700 * 640, "repainted \(damage)")
        expectSame(try #require(r.frameImage()), try direct(part, st), "past the journal")
        // The next change is read from the journal again.
        part.removeStroke(id: "w7")
        r.render(part: part, state: st)
        #expect(r.damageSource == .journal)
        expectSame(try #require(r.frameImage()), try direct(part, st), "journal again")
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
