import Foundation
import InkModel
@testable import InkRender
import Testing
import QuireTools

@Suite struct FontMetricsTests {
    @Test func measuresDejaVuLinearly() {
        let fm = CairoFontMetrics()
        let a = fm.measure("Hello world", font: FontSpec(size: 5))
        let b = fm.measure("Hello world", font: FontSpec(size: 10))
        #expect(a.width > 15 && a.width < 40, "width \(a.width)")
        #expect(abs(b.width - 2 * a.width) < 1e-9)
        #expect(a.ascent > 3 && a.ascent < 6 && a.descent > 0.5 && a.descent < 2.5)
        #expect(a.glyphBoxes.count == 11)
        #expect(abs(a.glyphBoxes.last!.maxX - a.width) < 1e-9)
        #expect(a.glyphBoxes[1].x == a.glyphBoxes[0].maxX)
        // Proportional font: "i" is narrower than "W".
        #expect(fm.measure("i", font: FontSpec()).width < fm.measure("W", font: FontSpec()).width)
        #expect(fm.measure("Wi", font: FontSpec(bold: true)).width > fm.measure("Wi", font: FontSpec()).width)
        #expect(fm.measure("", font: FontSpec()).width == 0)
        // Graphemes, not scalars: one box for "é" written with a combining accent.
        #expect(fm.measure("e\u{301}x", font: FontSpec()).glyphBoxes.count == 2)
    }

    @Test func threadSafe() async {
        let fm = CairoFontMetrics()
        let expected = fm.measure("concurrent", font: FontSpec(size: 4))
        await withTaskGroup(of: Bool.self) { g in
            for i in 0..<8 {
                g.addTask { fm.measure("concurrent", font: FontSpec(size: 4, italic: i % 2 == 1)).width > 0 }
            }
            for await ok in g { #expect(ok) }
        }
        #expect(fm.measure("concurrent", font: FontSpec(size: 4)) == expected)
    }

    /// Cairo shares scaled fonts between contexts; two threads drawing text at once once aborted
    /// the test process in cairo_scaled_font_destroy (rare: this test did not hit it in 6 runs
    /// without `CairoText`). Every thread makes its own contexts and sizes and must read the same
    /// widths as one thread alone, so the lock must not change what is measured.
    @Test func textOnManyThreadsAtOnce() async throws {
        let scales = (0..<12).map { 1 + Double($0) * 0.37 }
        let alone = scales.map { ChromePainter.labelWidth("Convert Wq", scale: $0) }
        let results = await withTaskGroup(of: Bool.self, returning: [Bool].self) { g in
            for t in 0..<8 {
                g.addTask {
                    guard let bar = try? CairoSurface(width: 240, height: 40) else { return false }
                    var ok = true
                    for i in 0..<30 {
                        let k = (i + t) % scales.count
                        ok = ok && ChromePainter.labelWidth("Convert Wq", scale: scales[k]) == alone[k]
                        let button = ChromeButton(id: "c", label: "Convert \(i)", frame: Rect(x: 4, y: 4, width: 120, height: 32))
                        ChromePainter.drawToolbar(on: bar, width: 240, height: 40, scale: scales[k], buttons: [button],
                                                  message: "thread \(t)", theme: .builtIn)
                        ok = ok && CairoFontMetrics().measure("page \(i)", font: FontSpec(size: scales[k] * 3)).width > 0
                    }
                    return ok
                }
            }
            var all: [Bool] = []
            for await ok in g { all.append(ok) }
            return all
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}

@Suite struct ThemeTests {
    @Test func shippedThemeMatchesBuiltIn() {
        #expect(Theme.default == Theme.builtIn)
    }

    @Test func mergesOverrides() throws {
        let t = try Theme(json: ##"{"pen": {"color": "#ff0000"}, "highlighter": {"alpha": 0.25}}"##, base: .builtIn)
        #expect(t.penColor == RGBA(r: 1, g: 0, b: 0))
        #expect(t.penWidth == Theme.builtIn.penWidth)
        #expect(t.highlighterAlpha == 0.25)
        #expect(throws: QuireError.self) { try Theme(json: #"{"pen": {"color": "red"}}"#) }
        #expect(throws: QuireError.self) { try Theme(json: #"{"pen": {"width": -1}}"#) }
        #expect(throws: QuireError.self) { try Theme(json: "[1]") }
        #expect(RGBA(hex: "#11223380")!.a == Double(0x80) / 255)
        #expect(RGBA(hex: "#abc") == RGBA(hex: "#aabbcc"))
    }
}

@Suite struct CairoRendererTests {
    func state() -> RenderState {
        RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 320, viewHeight: 200, guides: false)
    }

    @Test func firstRenderIsFullAndMatchesPageRenderer() throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = Fixtures.inkDocument()
        let damaged = r.render(part: part, state: state())
        #expect(damaged == Rect(x: 0, y: 0, width: 320, height: 200))
        #expect(r.render(part: part, state: state()) == nil, "nothing changed, nothing to copy")
        let frame = try #require(r.frameImage())
        // The window draws ink with fast anti-aliasing (DrawOptions.fastInk), exports do not.
        var options = DrawOptions()
        options.fastInk = true
        let ref = try ImageCodec.decodePNG(PageRenderer(theme: .builtIn).render(part: part, state: state(), options: options).pngData())
        #expect(Golden.diff(frame, ref).passes)
    }

    @Test func invalidateRepaintsOnlyDamage() throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = Fixtures.inkDocument()
        r.render(part: part, state: state())
        // A caller's damage is copied again from the page's tiles, and nothing else.
        r.invalidate(Rect(x: 0, y: 0, width: 40, height: 40))
        #expect(r.needsRender)
        let d = try #require(r.render(part: part, state: state()))
        #expect(d.width <= 40 && d.height <= 40)
        #expect(!r.needsRender)
        // A stroke added to the model is found there, with no invalidate: the page is repainted
        // where it lies, from (8, 8) to (312, 192) px, and nowhere else.
        part.insertStroke(Fixtures.stroke("n1", seq: 10, [(2, 2, 0.5), (60, 20, 0.5), (78, 48, 0.5)]))
        let d2 = try #require(r.render(part: part, state: state()))
        #expect(d2.x >= 0 && d2.y >= 0 && d2.width < 320 && d2.height < 200)
        #expect(d2.x <= 8 && d2.maxX >= 312 && d2.maxY >= 192, "\(d2)")
        let img = try #require(r.frameImage())
        #expect(Fixtures.inkPixels(img, (294, 179, 12, 12)) > 0)
        r.invalidate(nil)
        #expect(r.render(part: part, state: state()) == Rect(x: 0, y: 0, width: 320, height: 200))
        #expect(Fixtures.inkPixels(try #require(r.frameImage()), (294, 179, 12, 12)) > 0)
    }

    /// The renderer keeps each block's strokes between frames; any change of a block's ink (added,
    /// removed, the whole block's ink moved by the flow) must show at the next redraw.
    @Test func cachedInkFollowsModelChanges() throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = try PartModel(id: "c", type: "Text Document")
        var root = part.root
        root.childIds = ["b1"]
        part.setBlock(root)
        part.setBlock(BlockData(id: "b1", type: "Text", box: Rect(x: 0, y: 0, width: 80, height: 20), parentId: part.rootId))
        part.insertStroke(Fixtures.stroke("s1", block: "b1", seq: 1, [(5, 5, 0.5), (30, 8, 0.5)]))
        r.render(part: part, state: state())
        #expect(Fixtures.inkPixels(try #require(r.frameImage()), (20, 20, 100, 12)) > 0)
        part.translateStrokes(inBlock: "b1", unitsX: 0, unitsY: 3000)
        r.invalidate(nil)
        r.render(part: part, state: state())
        var img = try #require(r.frameImage())
        #expect(Fixtures.inkPixels(img, (20, 20, 100, 12)) == 0, "gone from where it was")
        #expect(Fixtures.inkPixels(img, (20, 140, 100, 12)) > 0, "drawn where the flow moved it")
        part.insertStroke(Fixtures.stroke("s2", block: "b1", seq: 2, [(40, 5, 0.5), (70, 5, 0.5)]))
        _ = part.removeStroke(id: "s1")
        r.invalidate(nil)
        r.render(part: part, state: state())
        img = try #require(r.frameImage())
        #expect(Fixtures.inkPixels(img, (20, 140, 100, 12)) == 0 && Fixtures.inkPixels(img, (170, 14, 100, 12)) > 0)
        // Ink of a block that no longer exists is still drawn.
        part.removeBlock(id: "b1")
        r.invalidate(nil)
        r.render(part: part, state: state())
        #expect(Fixtures.inkPixels(try #require(r.frameImage()), (170, 14, 100, 12)) > 0)
    }

    @Test func liveSegmentsCostSmallRectangles() throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = try PartModel(id: "l", type: "Drawing")
        var st = state()
        r.render(part: part, state: st)
        var live = LiveStroke(id: "s1", samples: [])
        var rects: [Rect] = []
        for i in 0..<40 {
            live.samples.append(InkSample(x: 5 + Double(i), y: 20 + 5 * sin(Double(i) / 4), t: Int64(i), f: 0.6))
            st.liveStrokes = [live]
            if let d = r.drawLiveSegment(live, state: st) { rects.append(d) }
        }
        #expect(rects.count == 40)
        // Each new point touches a few pixels around its segment, never the view.
        #expect(rects.dropFirst().allSatisfy { $0.width <= 24 && $0.height <= 24 }, "\(rects.map { "\($0.width)x\($0.height)" })")
        #expect(r.drawLiveSegment(live, state: st) == nil, "no new point, nothing drawn")
        let img = try #require(r.frameImage())
        #expect(Fixtures.inkPixels(img, (20, 60, 140, 40)) > 100)
        // Ending the stroke without committing it clears it from the window.
        st.liveStrokes = []
        let d = try #require(r.render(part: part, state: st))
        #expect(d.width < 320)
        #expect(Fixtures.inkPixels(try #require(r.frameImage()), (0, 0, 320, 200)) == 0)
    }

    @Test func predictionRunsAheadAndTheNextEventWipesIt() throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = try PartModel(id: "p", type: "Drawing")
        var st = state()
        st.prediction = true
        r.render(part: part, state: st)
        let window = try CairoSurface(width: 320, height: 200)
        r.composite(into: window)
        func ink(_ box: (Int, Int, Int, Int)) -> Int {
            Fixtures.inkPixels(DecodedImage(width: 320, height: 200, pixels: window.argbPixels()), box)
        }
        // Rightwards at 2 mm (8 px) every 8 ms along y = 20 mm (80 px), ending at x = 25 mm (100 px).
        var live = LiveStroke(id: "s", samples: [])
        for i in 0...10 {
            live.samples.append(InkSample(x: 5 + 2 * Double(i), y: 20, t: Int64(1000 + 8 * i), f: 0.5))
            st.liveStrokes = [live]
            if let d = r.drawLiveSegment(live, state: st) { r.composite(into: window, rect: d) }
        }
        let ahead = (103, 77, 6, 7)
        #expect(ink(ahead) > 0, "the predicted piece is drawn ahead of the last point")
        // The pen turns down: the guess straight ahead is wiped by the next event's composite.
        live.samples.append(InkSample(x: 25, y: 22, t: 1088, f: 0.5))
        st.liveStrokes = [live]
        r.composite(into: window, rect: r.drawLiveSegment(live, state: st))
        #expect(ink(ahead) == 0)
        #expect(ink((96, 92, 9, 12)) > 0, "now it points down")
        // The stroke ends: no prediction is left on screen.
        st.liveStrokes = []
        r.composite(into: window, rect: r.render(part: part, state: st))
        #expect(ink((0, 0, 320, 200)) == 0)
        // Off (the default): nothing is drawn ahead.
        st.prediction = false
        live = LiveStroke(id: "t", samples: [])
        for i in 0...10 {
            live.samples.append(InkSample(x: 5 + 2 * Double(i), y: 20, t: Int64(2000 + 8 * i), f: 0.5))
            st.liveStrokes = [live]
            if let d = r.drawLiveSegment(live, state: st) { r.composite(into: window, rect: d) }
        }
        #expect(ink(ahead) == 0)
    }

    @Test func lassoAndSelectionDamage() throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = try Fixtures.textDocument(images: false)
        var st = Fixtures.textState()
        st.lasso = []; st.selectedBlockIds = []
        r.render(part: part, state: st)
        st.lasso = [Point(x: 10, y: 10), Point(x: 50, y: 12), Point(x: 30, y: 40)]
        let d1 = try #require(r.render(part: part, state: st))
        #expect(d1.width < 60 && d1.height < 50)
        st.selectedBlockIds = ["b2"]
        let d2 = try #require(r.render(part: part, state: st))
        #expect(d2.width > 300 && d2.width < 420)
    }

    @Test func invalidateFromManyThreads() async throws {
        let r = CairoRenderer(theme: .builtIn)
        let part = Fixtures.inkDocument()
        r.render(part: part, state: state())
        let counter = Counter()
        r.onInvalidate = { counter.bump() }
        await withTaskGroup(of: Void.self) { g in
            for t in 0..<8 {
                g.addTask {
                    for i in 0..<200 { r.invalidate(Rect(x: Double((t * 37 + i * 13) % 300), y: Double(i % 180), width: 10, height: 10)) }
                }
            }
        }
        #expect(counter.value == 1600)
        #expect(r.needsRender)
        #expect(r.render(part: part, state: state()) != nil)
        #expect(!r.needsRender)
    }

    @Test func compositesOntoAnotherSurface() throws {
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: Fixtures.inkDocument(), state: state())
        let target = try CairoSurface(width: 320, height: 200)
        r.composite(into: target, rect: Rect(x: 0, y: 0, width: 160, height: 200))
        let px = DecodedImage(width: 320, height: 200, pixels: target.argbPixels())
        #expect(px[10, 10] == 0xFFFF_FFFF)
        #expect(px[300, 10] == 0, "outside the rectangle the target is left alone")
    }

    @Test func benchmarkRunsSmall() throws {
        var lines: [String] = []
        let res = try RenderBenchmark.run(strokes: 200, pointsPerStroke: 50, livePoints: 50) { lines.append($0) }
        #expect(res.strokes == 200 && res.points == 10_000)
        #expect(lines.count >= 5)
        #expect(res.livePointP50Ms > 0 && res.fullRedrawMs > 0)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func bump() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}

@Suite struct ScrollTests {
    @Test func wholePixelScrollMatchesFullRedraw() throws {
        let part = Fixtures.inkDocument()
        var st = RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 320, viewHeight: 200, guides: true)
        let r = CairoRenderer(theme: .builtIn)
        r.render(part: part, state: st)
        for (dx, dy) in [(-37.0, 0.0), (0, -21), (15, 9)] {
            st.transform.tx += dx; st.transform.ty += dy
            #expect(r.render(part: part, state: st) == st.viewRect)
        }
        let scrolled = try #require(r.frameImage())
        let fresh = CairoRenderer(theme: .builtIn)
        fresh.render(part: part, state: st)
        let d = Golden.diff(scrolled, try #require(fresh.frameImage()))
        #expect(d.passes, "\(d)")
        #expect(d.meanAbs < 0.2, "\(d)")
    }
}
