import Foundation
import InkModel
import InkRender

/// Figures printed by `RenderBenchmark.run` (milliseconds of the calling thread's CPU time).
public struct RenderBenchmarkResult: Sendable {
    public var strokes: Int
    public var points: Int
    public var viewWidth: Int
    public var viewHeight: Int
    /// A redraw of the full view from the renderer's tiles (nothing changed in the model).
    public var fullRedrawMs: Double
    /// The first draw of that view, with no tiles yet.
    public var coldRedrawMs: Double
    /// Frame times (ms) with the window's frame budget: redraws of the full view, a pinch-zoom
    /// (steps out and back in), and scrolling over the 10,000-stroke page.
    public var fullViewFrames: FrameTimes
    public var pinchFrames: FrameTimes
    public var scrollFrames: FrameTimes
    /// The same view over an empty page: the fixed cost of a redraw (clear, copy to the window).
    public var emptyRedrawMs: Double
    /// A page ten views tall holding the same 10,000 strokes, its first view drawn: what culling saves.
    public var longPageRedrawMs: Double
    /// Scrolling by 40 px: the cached page moves and the strip that came into view is drawn.
    public var scrollRedrawMs: Double
    public var partialRedrawMs: Double
    public var livePointP50Ms: Double
    public var livePointP99Ms: Double
    public var livePoints: Int
    public var exportPNGMs: Double
    public var exportPNGBytes: Int
    public var exportPDFMs: Double
    public var exportPDFBytes: Int
}

/// Percentiles of frame times (ms).
public struct FrameTimes: Sendable, CustomStringConvertible {
    public var p50: Double, p95: Double, max: Double, count: Int
    init(_ v: [Double]) {
        let s = v.sorted()
        count = s.count
        p50 = s.isEmpty ? 0 : s[s.count / 2]
        p95 = s.isEmpty ? 0 : s[min(s.count - 1, Int((Double(s.count) * 0.95).rounded(.up)) - 1)]
        max = s.last ?? 0
    }
    public var description: String { String(format: "p50 %.1f ms, p95 %.1f ms, max %.1f ms over %d frames", p50, p95, max, count) }
}

/// The renderer benchmark behind `quire bench render`.
public enum RenderBenchmark {
    /// The window's frame budget for drawing tiles (`CairoRenderer.frameBudget`), used in the frame-time runs.
    public static let windowFrameBudget = CairoRenderer.windowFrameBudget

    /// A deterministic page of handwriting-like strokes with pressure (a few highlighter ones),
    /// spread over `width` x `height` millimetres.
    public static func makePage(strokes: Int = 10_000, pointsPerStroke: Int = 100, width: Double = 480, height: Double = 270) -> PartModel {
        // "Drawing" needs no layout; the model cannot refuse a known part type.
        let part = try! PartModel(id: "bench", type: "Drawing")
        var rng = SplitMix64(seed: 42)
        for i in 0..<strokes {
            var x = rng.next(in: 5...(width - 20)), y = rng.next(in: 5...(height - 10))
            var heading = rng.next(in: 0...(2 * Double.pi))
            let turn = rng.next(in: -0.25...0.25)
            var samples: [InkSample] = []
            samples.reserveCapacity(pointsPerStroke)
            for j in 0..<pointsPerStroke {
                let phase = Double(j) / Double(max(pointsPerStroke - 1, 1))
                samples.append(InkSample(x: x, y: y, t: Int64(i * 2000 + j * 8), f: 0.35 + 0.5 * sin(Double.pi * phase)))
                // Curvature swinging like cursive letters about 2 mm high, sampled every 0.2 mm.
                heading += turn * 0.2 + 0.3 * sin(Double(j) * 0.3)
                x += 0.2 * cos(heading); y += 0.2 * sin(heading)
            }
            let tool = i % 50 == 49 ? "highlighter" : "pen"
            part.insertStroke(InkStroke(id: "s\(i)", tool: tool, seq: Int64(i), samples: samples))
        }
        return part
    }

    /// Runs the benchmark and reports each figure through `log` as it is measured.
    @discardableResult
    public static func run(strokes: Int = 10_000, pointsPerStroke: Int = 100, livePoints: Int = 400, exports: Bool = true,
                           log: (String) -> Void = { print($0) }) throws -> RenderBenchmarkResult {
        // Thread CPU time: the development machine is shared, and time spent waiting for a core
        // is not the renderer's work (Cairo draws on the calling thread).
        func now() -> Double {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
        }
        let start = now()
        let part = makePage(strokes: strokes, pointsPerStroke: pointsPerStroke)
        log("times are thread CPU ms; page: \(part.strokes.count) strokes, \(part.pointCount) points (built in \(String(format: "%.0f", (now() - start))) ms)")
        let state = RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 1920, viewHeight: 1080,
                                guides: false, pressure: true)
        let renderer = CairoRenderer(theme: .builtIn)
        let window = try CairoSurface(width: state.viewWidth, height: state.viewHeight)

        func frame(_ renderer: CairoRenderer, _ part: PartModel, _ state: RenderState) -> Double {
            let t0 = now()
            if let r = renderer.render(part: part, state: state) { renderer.composite(into: window, rect: r) }
            return now() - t0
        }
        /// Median first draw (fresh renderers, no tiles) and median redraw of the same view (`invalidate(nil)`).
        func fullRedraw(_ part: PartModel, _ state: RenderState, runs: Int = 5) -> (cold: Double, cached: Double, frames: [Double]) {
            var cold: [Double] = [], cached: [Double] = []
            for i in 0..<3 {
                let renderer = CairoRenderer(theme: .builtIn)
                cold.append(frame(renderer, part, state))
                guard i == 0 else { continue }
                for _ in 0..<max(runs, 30) {
                    renderer.invalidate(nil)
                    cached.append(frame(renderer, part, state))
                }
            }
            return (cold.sorted()[cold.count / 2], cached.sorted()[cached.count / 2], cached)
        }
        let empty = fullRedraw(try PartModel(id: "empty", type: "Drawing"), state)
        let emptyMs = empty.cached
        log(String(format: "full redraw %dx%d, empty page: %.1f ms (median of 30)", state.viewWidth, state.viewHeight, emptyMs))
        let full = fullRedraw(part, state)
        let fullMs = full.cached
        log(String(format: "full redraw %dx%d, all %d strokes in view: %.1f ms (median of 30; from tiles)", state.viewWidth, state.viewHeight, part.strokes.count, fullMs))
        log(String(format: "first draw of that view (no tiles yet): %.0f ms (median of 3)", full.cold))
        let fullFrames = FrameTimes(full.frames)
        log("frame times, full view of \(part.strokes.count) strokes: \(fullFrames)")
        let long = makePage(strokes: strokes, pointsPerStroke: pointsPerStroke, width: 480, height: 2700)
        let longMs = fullRedraw(long, state).cold
        log(String(format: "full redraw %dx%d, first view of a page 10 views tall (%d strokes): %.1f ms (median of 3, no tiles yet)",
                   state.viewWidth, state.viewHeight, long.strokes.count, longMs))

        // Pinch-zoom on the full page, as the window draws it (frame budget): 24 steps out to half
        // the scale about the centre, 24 back in, then the frames until every tile is sharp.
        var pinch: [Double] = []
        var settle = 0
        do {
            let renderer = CairoRenderer(theme: .builtIn)
            renderer.render(part: part, state: state)
            renderer.frameBudget = windowFrameBudget
            var st = state
            let cx = Double(state.viewWidth) / 2, cy = Double(state.viewHeight) / 2
            let factors = Array(repeating: 0.9715, count: 24) + Array(repeating: 1 / 0.9715, count: 24)
            for f in factors {
                let t = st.transform
                st.transform = Transform(scale: t.a * f, tx: cx - (cx - t.tx) * f, ty: cy - (cy - t.ty) * f)
                pinch.append(frame(renderer, part, st))
            }
            while renderer.needsRender, settle < 1000 {
                pinch.append(frame(renderer, part, st))
                settle += 1
            }
        }
        let pinchFrames = FrameTimes(pinch)
        log("frame times, pinch-zoom out to half and back on \(part.strokes.count) strokes: \(pinchFrames) (\(settle) after the gesture until sharp)")

        // Scroll the full page by whole pixels: 30 steps of 24 px away, 30 back.
        var scrollFull: [Double] = []
        do {
            let renderer = CairoRenderer(theme: .builtIn)
            renderer.render(part: part, state: state)
            renderer.frameBudget = windowFrameBudget
            var st = state
            for i in 0..<60 {
                st.transform.ty += i < 30 ? -24 : 24
                st.transform.tx += i < 30 ? -8 : 8
                scrollFull.append(frame(renderer, part, st))
            }
            while renderer.needsRender { scrollFull.append(frame(renderer, part, st)) }
        }
        let scrollFrames = FrameTimes(scrollFull)
        log("frame times, scrolling the \(part.strokes.count)-stroke page 720 px and back: \(scrollFrames)")

        // Scroll down the long page 40 px at a time, as a touch drag does.
        var scroll: [Double] = []
        do {
            let renderer = CairoRenderer(theme: .builtIn)
            var st = state
            renderer.render(part: long, state: st)
            for _ in 0..<20 {
                st.transform.ty -= 40
                let t0 = now()
                if let r = renderer.render(part: long, state: st) { renderer.composite(into: window, rect: r) }
                scroll.append((now() - t0))
            }
        }
        let scrollMs = scroll.sorted()[scroll.count / 2]
        log(String(format: "scroll by 40 px (page moved, strip drawn, frame copied): %.2f ms (median of 20)", scrollMs))

        renderer.render(part: part, state: state)

        var partial: [Double] = []
        for i in 0..<10 {
            renderer.invalidate(Rect(x: Double(100 + i * 150), y: 400, width: 200, height: 100))
            let t0 = now()
            if let r = renderer.render(part: part, state: state) { renderer.composite(into: window, rect: r) }
            partial.append((now() - t0))
        }
        let partialMs = partial.sorted()[partial.count / 2]
        log(String(format: "partial redraw 200x100 px: %.2f ms (median of 10)", partialMs))

        var live = LiveStroke(id: "live", samples: [])
        var costs: [Double] = []
        var st = state
        for j in 0..<livePoints {
            let a = Double(j) * 0.05
            live.samples.append(InkSample(x: 100 + Double(j) * 0.25, y: 120 + 8 * sin(a * 3), t: Int64(j * 8), f: 0.5 + 0.3 * sin(a)))
            st.liveStrokes = [live]
            let t0 = now()
            if let r = renderer.drawLiveSegment(live, state: st) { renderer.composite(into: window, rect: r) }
            costs.append((now() - t0))
        }
        costs.sort()
        let p50 = costs[costs.count / 2], p99 = costs[min(costs.count - 1, Int(Double(costs.count) * 0.99))]
        log(String(format: "live point (draw segment + copy to window): p50 %.3f ms, p99 %.3f ms over %d points", p50, p99, livePoints))

        var png = Data(), pdf = Data(), pngMs = 0.0, pdfMs = 0.0
        if exports {
            let exporter = Exporter(theme: .builtIn)
            var t0 = now()
            png = try exporter.exportPNG(part: part, dpi: 150)
            pngMs = (now() - t0)
            log(String(format: "export PNG 150 dpi: %.0f ms, %d bytes", pngMs, png.count))
            t0 = now()
            pdf = try exporter.exportPDF(part: part)
            pdfMs = (now() - t0)
            log(String(format: "export PDF: %.0f ms, %d bytes", pdfMs, pdf.count))
        }
        return RenderBenchmarkResult(strokes: part.strokes.count, points: part.pointCount, viewWidth: state.viewWidth,
                                     viewHeight: state.viewHeight, fullRedrawMs: fullMs, coldRedrawMs: full.cold,
                                     fullViewFrames: fullFrames, pinchFrames: pinchFrames, scrollFrames: scrollFrames, emptyRedrawMs: emptyMs,
                                     longPageRedrawMs: longMs, scrollRedrawMs: scrollMs, partialRedrawMs: partialMs,
                                     livePointP50Ms: p50, livePointP99Ms: p99, livePoints: livePoints,
                                     exportPNGMs: pngMs, exportPNGBytes: png.count, exportPDFMs: pdfMs, exportPDFBytes: pdf.count)
    }
}

/// Small deterministic generator so benchmark pages are identical from run to run.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(in r: ClosedRange<Double>) -> Double {
        r.lowerBound + (r.upperBound - r.lowerBound) * Double(next() >> 11) / Double(1 << 53)
    }
}
