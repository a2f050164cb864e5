import Foundation
import InkModel

/// The window's renderer: a cached page image for committed content plus a layer for live ink.
///
/// How the window uses it (all calls but `invalidate` on the thread that owns the model):
/// - `invalidate(_:)` may come from any thread (editor, recognition worker); rectangles are
///   coalesced and `onInvalidate` fires so the window can wake its event loop.
/// - When woken, or after input: `if let r = renderer.render(part:state:) { renderer.composite(into: window, rect: r) }`.
///   Only damaged rectangles of the page are repainted, and the returned rectangle is all that
///   needs copying.
/// - On each pointer move while inking: `if let r = renderer.drawLiveSegment(stroke, state:) { composite(into:rect: r) }`;
///   this draws just the new piece of the stroke, so a point costs a small rectangle, not a redraw.
/// - On Expose: `renderer.composite(into: window, rect: exposed)` (no model needed).
/// Rectangles are in view pixels. Callbacks run with internal locks held: they may call
/// `invalidate` but must not call `render`, `drawLiveSegment` or `composite` (post to the loop instead).
public final class CairoRenderer: Renderer, @unchecked Sendable {
    private let lock = NSLock()            // surfaces, page renderer, bookkeeping
    private let damageLock = NSLock()      // pending damage only, so invalidate never waits on drawing
    private var pendingFull = true
    private var pending: [Rect] = []
    private var onInvalidateStorage: (@Sendable () -> Void)?
    private var onImageErrorStorage: (@Sendable (String, QuireError) -> Void)?

    private let pageRenderer: PageRenderer
    private var page: CairoSurface?
    private var live: CairoSurface?
    private var frame: CairoSurface?
    private var lastState: RenderState?
    private var lastSelection: [Rect] = []
    private var lastDrag: Rect?
    private var lasso: [Point] = []
    /// Per live stroke: how many (deduplicated) points are on the live layer, and their extent.
    private var liveDrawn: [String: (count: Int, bounds: Rect)] = [:]
    /// Per live stroke: its predicted continuation (view pixels), drawn only on the frame, so
    /// the next composite of its rectangle wipes it.
    private var predicted: [String: Prediction] = [:]

    struct Prediction {
        var from: Point, to: Point
        var width: Double
        var color: RGBA
        var rect: Rect
    }

    /// Page content as tiles per zoom level, invalidated by what changed in the model.
    private let tiles = TileCache()
    private let modelDamage = ModelDamage()
    private var budgetStorage: Double?
    private var tilesEnabled = true

    /// Most rectangles kept apart before they are merged into their bounding box.
    private static let maxRects = 12

    /// The desktop window's `frameBudget`: 6 ms of tiles per render leaves most of a 60 Hz frame
    /// to input and the copy to the window.
    public static let windowFrameBudget = 0.006

    /// At most this many seconds of drawing tiles per `render` (nil: no limit). What is left is
    /// shown stood in for (a tile as it was, or the nearest zoom level scaled) and stays pending
    /// (`needsRender`), so a window that handles its input before rendering again never holds a
    /// pen point behind a page of ink. A stroke just committed stays on the live layer until the
    /// page shows it.
    public var frameBudget: Double? {
        get { lock.withLock { budgetStorage } }
        set { lock.withLock { budgetStorage = newValue } }
    }

    /// Asked before each tile `render` would draw; true stops drawing tiles for this render (what
    /// is left stays pending, shown as it was), so input that arrived meanwhile is handled first.
    /// The window asks its X connection whether events are queued. Called on the rendering thread.
    public var inputPending: (() -> Bool)? {
        get { lock.withLock { inputPendingStorage } }
        set { lock.withLock { inputPendingStorage = newValue } }
    }
    private var inputPendingStorage: (() -> Bool)?

    /// Draws the page from cached tiles (the default) or directly, as without a cache (for
    /// comparisons). Changing it repaints everything.
    public var usesTiles: Bool {
        get { lock.withLock { tilesEnabled } }
        set {
            lock.withLock { tilesEnabled = newValue; tiles.removeAll(); modelDamage.reset() }
            invalidate(nil)
        }
    }

    /// Tiles held now (for tests).
    var tileCount: Int { lock.withLock { tiles.count } }
    /// How the last `render` found what changed in the model (for tests).
    var damageSource: ModelDamage.Source { lock.withLock { modelDamage.source } }

    /// Ink's level of detail on screen, in pixels (`DrawOptions.inkDetail`): a tenth of a pixel.
    /// Settable for comparisons in tests; changing it repaints everything.
    var inkDetail: Double {
        get { lock.withLock { detailStorage } }
        set {
            lock.withLock { detailStorage = newValue; tiles.removeAll(); modelDamage.reset() }
            invalidate(nil)
        }
    }
    private var detailStorage = CairoRenderer.screenInkDetail
    /// Ink's level of detail on screen (pixels).
    static let screenInkDetail = 0.1

    public init(theme: Theme = .default, fontMetrics: CairoFontMetrics = CairoFontMetrics(),
                maxImagePixels: Int = ImageCodec.defaultMaxPixels) {
        pageRenderer = PageRenderer(theme: theme, fontMetrics: fontMetrics, maxImagePixels: maxImagePixels)
        pageRenderer.onImageError = { [weak self] id, e in self?.onImageError?(id, e) }
    }

    /// Called (on any thread) after `invalidate`; typically writes to a pipe the X loop polls.
    public var onInvalidate: (@Sendable () -> Void)? {
        get { damageLock.withLock { onInvalidateStorage } }
        set { damageLock.withLock { onInvalidateStorage = newValue } }
    }

    /// Called during `render` when an image block cannot be shown (a placeholder is drawn instead);
    /// the editor forwards it to its delegates' `onError`.
    public var onImageError: (@Sendable (String, QuireError) -> Void)? {
        get { damageLock.withLock { onImageErrorStorage } }
        set { damageLock.withLock { onImageErrorStorage = newValue } }
    }

    /// The theme; changing it repaints everything.
    public var theme: Theme {
        get { lock.withLock { pageRenderer.theme } }
        set { lock.withLock { pageRenderer.theme = newValue; tiles.removeAll(); modelDamage.reset() }; invalidate(nil) }
    }

    public func invalidate(_ rect: Rect?) {
        let cb: (@Sendable () -> Void)? = damageLock.withLock {
            if let r = rect {
                if !pendingFull, r.width > 0, r.height > 0, r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite {
                    pending = Self.coalesce(pending + [r])
                }
            } else {
                pendingFull = true
                pending = []
            }
            return onInvalidateStorage
        }
        cb?()
    }

    public var drawsLiveInk: Bool { true }

    /// Whether `render` has page damage to repaint.
    public var needsRender: Bool { damageLock.withLock { pendingFull || !pending.isEmpty } }

    /// Merges overlapping rectangles; beyond `maxRects`, everything becomes one bounding box.
    static func coalesce(_ rects: [Rect]) -> [Rect] {
        var out: [Rect] = []
        for r in rects {
            var cur = r
            var merged = true
            while merged {
                merged = false
                if let i = out.firstIndex(where: { $0.intersects(cur) }) {
                    cur = out.remove(at: i).union(cur)
                    merged = true
                }
            }
            out.append(cur)
        }
        if out.count > maxRects { return [out.dropFirst().reduce(out[0]) { $0.union($1) }] }
        return out
    }

    private func takeDamage() -> (full: Bool, rects: [Rect]) {
        damageLock.withLock {
            defer { pendingFull = false; pending = [] }
            return (pendingFull, pending)
        }
    }

    /// Rounds out to whole pixels and clips to the view.
    private static func pixelRect(_ r: Rect, _ state: RenderState) -> Rect? {
        let x0 = max(0, r.x.rounded(.down)), y0 = max(0, r.y.rounded(.down))
        let x1 = min(Double(state.viewWidth), r.maxX.rounded(.up)), y1 = min(Double(state.viewHeight), r.maxY.rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func ensureSurfaces(_ state: RenderState) -> Bool {
        let w = max(1, state.viewWidth), h = max(1, state.viewHeight)
        if let p = page, p.width == w, p.height == h { return false }
        guard let p = try? CairoSurface(width: w, height: h), let l = try? CairoSurface(width: w, height: h),
              let f = try? CairoSurface(width: w, height: h) else { return false }
        page = p; live = l; frame = f
        liveDrawn = [:]
        predicted = [:]
        return true
    }

    /// Brings the cached page up to date with `part` and `state`: repaints damaged rectangles (from
    /// `invalidate`, and from changes of view, options, selection, drag, lasso and live strokes).
    /// Returns the view rectangle to copy to the window with `composite`, or nil if nothing changed.
    @discardableResult
    public func render(part: PartModel?, state: RenderState) -> Rect? {
        lock.lock()
        defer { lock.unlock() }
        var full = ensureSurfaces(state)
        var pageRects: [Rect] = []
        var frameRects: [Rect] = []
        var scrolled = false
        var preview = false
        if let last = lastState, !full {
            if last.guides != state.guides || last.guideSpacing != state.guideSpacing || last.pressure != state.pressure
                || last.debugBoxes != state.debugBoxes || last.background != state.background
                || (state.debugBoxes && (last.debugLayers != state.debugLayers || last.debugLines != state.debugLines || last.debugGestures != state.debugGestures)) {
                full = true
            } else if last.transform != state.transform {
                if let strips = scrollPage(from: last.transform, to: state.transform, state) {
                    pageRects += strips
                    // Everything moved on screen, though only the strips need drawing.
                    frameRects.append(state.viewRect)
                    scrolled = true
                } else {
                    full = true
                    // A zoom drawn over several frames starts from the last frame, scaled.
                    if budgetStorage != nil, tilesEnabled, TileCache.supports(last), TileCache.supports(state) {
                        zoomPreview(from: last.transform, to: state.transform, state)
                        preview = true
                    }
                }
            }
        } else {
            full = true
        }
        // Selection and drag live on the page: damage where they were and where they are now.
        let sel = part.map { pageRenderer.selectionRects(part: $0, state: state) } ?? []
        if sel != lastSelection { pageRects += lastSelection + sel }
        lastSelection = sel
        var dragRect: Rect?
        if let part, let id = state.dragBlockId, let e = pageRenderer.subtreeExtent(part, id, pressure: state.pressure) {
            let moved = e.offsetBy(dx: state.dragOffset.x, dy: state.dragOffset.y)
            dragRect = state.transform.apply(e.union(moved)).insetBy(dx: -2, dy: -2)
        }
        if dragRect != lastDrag { pageRects += [lastDrag, dragRect].compactMap { $0 } }
        lastDrag = dragRect
        // The lasso is drawn only when compositing.
        if state.lasso != lasso {
            frameRects += [pageRenderer.lassoRect(lasso), pageRenderer.lassoRect(state.lasso)].compactMap { $0 }
            lasso = state.lasso
        }
        let liveIds = Set(state.liveStrokes.map(\.id))
        for (id, p) in predicted where !liveIds.contains(id) || full || scrolled || !state.prediction {
            frameRects.append(p.rect)
            predicted[id] = nil
        }
        let damage = takeDamage()
        full = full || damage.full
        lastState = state
        // Dragging, the debug overlay and the inspector's timeline change what tiles hold from
        // frame to frame: drawn directly, as without a cache.
        let tiled = tilesEnabled && TileCache.supports(state) && state.dragBlockId == nil && !state.debugBoxes && state.strokeLimit == nil
        // The model itself says what changed: tiles are redrawn there and nowhere else.
        if let part {
            switch modelDamage.changes(part, renderer: pageRenderer, pressure: state.pressure) {
            case .none: break
            case .all:
                tiles.removeAll()
                full = true
            case .rects(let rs):
                tiles.invalidate(model: rs)
                pageRects += rs.map { state.transform.apply($0).insetBy(dx: -2, dy: -2) }
            }
        } else {
            modelDamage.reset()
            tiles.removeAll()
        }
        var painted: [Rect] = []
        var left: [Rect] = []
        if let page {
            if let part {
                var options = DrawOptions()
                options.overlay = false
                options.fastInk = true
                options.inkDetail = detailStorage
                let rects = full ? [state.viewRect] : Self.coalesce(damage.rects + pageRects).compactMap { Self.pixelRect($0, state) }
                let deadline = budgetStorage.map { monotonicNanoseconds() &+ UInt64(max(0, $0) * 1e9) }
                var drew = 0
                for r in rects {
                    if tiled {
                        options.selection = false
                        left += tiles.paint(r, into: page, part: part, state: state, renderer: pageRenderer, options: options,
                                            deadline: deadline, inputPending: inputPendingStorage, keepsPreview: preview, drew: &drew)
                        pageRenderer.drawSelectionLayer(CairoContext(page), part: part, state: state, clip: r)
                    } else {
                        pageRenderer.draw(CairoContext(page), part: part, state: state, clip: full ? nil : r, options: options)
                    }
                }
                page.flush()
                painted = rects
            } else if full {
                let cr = CairoContext(page)
                cr.setSource(state.background ?? pageRenderer.theme.background)
                cr.paint()
                painted = [state.viewRect]
            }
        }
        if !left.isEmpty {
            // Drawn at the next render; the window polls while `needsRender`.
            damageLock.withLock { pending = Self.coalesce(pending + left) }
        }
        // Live strokes that ended (committed or cancelled) leave the live layer once the page shows
        // them; one still being drawn on the page stays until then.
        let gone = liveDrawn.filter { !liveIds.contains($0.key) }
        if (!gone.isEmpty && left.isEmpty) || full || scrolled {
            if let l = live {
                let cr = CairoContext(l)
                cr.setOperator(.clear)
                cr.paint()
            }
            frameRects += liveDrawn.values.map(\.bounds)
            liveDrawn = [:]
        }
        for s in state.liveStrokes {
            if let r = drawLiveLocked(s, state: state) { frameRects.append(r) }
        }
        if full, page != nil { return state.viewRect }
        return Self.union(painted + frameRects, state)
    }

    /// A pure scroll by whole pixels moves the cached page instead of repainting it; returns the
    /// strips that scrolled into view (nil when the change is not such a scroll). Caller holds the lock.
    private func scrollPage(from old: Transform, to new: Transform, _ state: RenderState) -> [Rect]? {
        guard old.a == new.a, old.b == new.b, old.c == new.c, old.d == new.d, let page, let frame else { return nil }
        let dx = new.tx - old.tx, dy = new.ty - old.ty
        let w = Double(state.viewWidth), h = Double(state.viewHeight)
        guard dx == dx.rounded(), dy == dy.rounded(), abs(dx) < w, abs(dy) < h else { return nil }
        // Cairo cannot copy a surface onto itself: go through the frame surface.
        let f = CairoContext(frame)
        f.setOperator(.source)
        f.setSource(page)
        f.paint()
        let p = CairoContext(page)
        p.setOperator(.source)
        p.setSource(frame, x: dx, y: dy)
        p.paint()
        var strips: [Rect] = []
        if dx > 0 { strips.append(Rect(x: 0, y: 0, width: dx, height: h)) }
        if dx < 0 { strips.append(Rect(x: w + dx, y: 0, width: -dx, height: h)) }
        if dy > 0 { strips.append(Rect(x: 0, y: 0, width: w, height: dy)) }
        if dy < 0 { strips.append(Rect(x: 0, y: h + dy, width: w, height: -dy)) }
        // Pending damage was recorded in the old view coordinates.
        damageLock.withLock { pending = pending.map { $0.offsetBy(dx: dx, dy: dy) } }
        return strips
    }

    /// Scales the cached page from one zoom to another (through the frame surface), so tiles
    /// not drawn yet at the new zoom show the old pixels, blurred, never a blank. Caller holds the lock.
    private func zoomPreview(from old: Transform, to new: Transform, _ state: RenderState) {
        guard let page, let frame else { return }
        let f = CairoContext(frame)
        f.setOperator(.source)
        f.setSource(page)
        f.paint()
        let k = new.a / old.a
        let p = CairoContext(page)
        p.setSource(state.background ?? pageRenderer.theme.background)
        p.paint()
        p.translate(new.tx - old.tx * k, new.ty - old.ty * k)
        p.scale(k, k)
        p.setSource(frame, filter: .good)
        p.paint()
    }

    private static func union(_ rects: [Rect], _ state: RenderState) -> Rect? {
        guard let first = rects.first else { return nil }
        return pixelRect(rects.dropFirst().reduce(first) { $0.union($1) }, state)
    }

    /// Draws whatever part of a live stroke is not on the live layer yet (normally the segment
    /// ending at its newest point) and returns the view rectangle it touched.
    @discardableResult
    public func drawLiveSegment(_ stroke: LiveStroke, state: RenderState) -> Rect? {
        lock.lock()
        defer { lock.unlock() }
        // New surfaces are blank: the page needs a full render (no callback here, under the lock).
        if ensureSurfaces(state) { damageLock.withLock { pendingFull = true; pending = [] } }
        return drawLiveLocked(stroke, state: state)
    }

    private func drawLiveLocked(_ stroke: LiveStroke, state: RenderState) -> Rect? {
        guard let live else { return nil }
        let pts = InkPath.points(of: stroke.samples)
        let done = liveDrawn[stroke.id]
        let n = pts.count
        guard n > 0, n != done?.count else { return nil }
        // Redraw the previous segment too: it was drawn before its successor point was known, so
        // its spline end tangent changes now.
        let lo = max(0, (done?.count ?? 0) - 2)
        let theme = pageRenderer.theme
        let t = state.transform
        let scale = max(t.scale, 1e-9)
        let width = theme.width(tool: stroke.tool, width: stroke.width)
        let color = theme.color(tool: stroke.tool, color: stroke.color)
        let minWidth = 0.75 / scale
        let cr = CairoContext(live)
        cr.setMatrix(t)
        // As the page draws ink (`DrawOptions.fastInk`), so the stroke does not change at pen-up.
        cr.setAntialias(.fast)
        let highlighter = stroke.tool == "highlighter"
        let alpha = highlighter ? color.a * theme.highlighterAlpha : color.a
        cr.setSourceRGBA(color.r, color.g, color.b, alpha)
        // SOURCE (not OVER) so overlapping pieces of a translucent stroke do not darken each other.
        if highlighter { cr.setOperator(.source) }
        if InkPath.usesPressure(pts, enabled: state.pressure, tool: stroke.tool) {
            InkPath.addVariableOutline(cr, pts, width: width, scale: scale, from: lo, to: n - 1, minWidth: minWidth)
            cr.setFillRule(.winding)
            cr.fill()
        } else {
            cr.setLineWidth(max(width, minWidth))
            cr.setLineCap(.round)
            cr.setLineJoin(.round)
            InkPath.addCenterLine(cr, pts, from: lo, to: n - 1)
            cr.stroke()
        }
        let lo2 = max(0, lo - 1)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in pts[lo2..<n] { minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        let model = InkPath.inkBounds(Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY),
                                      width: max(width, minWidth), pressure: state.pressure)
        var r = t.apply(model).insetBy(dx: -2, dy: -2)
        liveDrawn[stroke.id] = (n, done.map { $0.bounds.union(r) } ?? r)
        // The old prediction goes (the composite of its rectangle repaints page + live there).
        if let old = predicted.removeValue(forKey: stroke.id) { r = r.union(old.rect) }
        if state.prediction, let p = Self.predict(stroke.samples, transform: t) {
            let w = max(width, minWidth) * scale
            let pr = Rect(x: min(p.from.x, p.to.x), y: min(p.from.y, p.to.y), width: abs(p.to.x - p.from.x), height: abs(p.to.y - p.from.y))
                .insetBy(dx: -w - 2, dy: -w - 2)
            predicted[stroke.id] = Prediction(from: p.from, to: p.to, width: w, color: color, rect: pr)
            r = r.union(pr)
        }
        return Self.pixelRect(r, state)
    }

    /// Where the pen is likely to be one event later: the last point moved on at the pen's
    /// recent velocity for as long as the last event took (4-16 ms), at most 12 pixels. View pixels.
    static func predict(_ samples: [InkSample], transform t: Transform) -> (from: Point, to: Point)? {
        let n = samples.count
        guard n >= 3 else { return nil }
        let last = samples[n - 1]
        // Velocity over at least 8 ms (single events jitter), at most the last 6 samples.
        var k = n - 2
        while k > max(0, n - 6), last.t - samples[k].t < 8 { k -= 1 }
        let dt = Double(last.t - samples[k].t)
        let step = Double(last.t - samples[n - 2].t)
        guard dt > 0, step > 0 else { return nil }
        let a = t.apply(Point(x: samples[k].x, y: samples[k].y)), b = t.apply(Point(x: last.x, y: last.y))
        let horizon = min(16, max(4, step))
        var dx = (b.x - a.x) / dt * horizon, dy = (b.y - a.y) / dt * horizon
        let len = hypot(dx, dy)
        guard len >= 0.5 else { return nil }
        if len > 12 { dx *= 12 / len; dy *= 12 / len }
        return (b, Point(x: b.x + dx, y: b.y + dy))
    }

    /// Copies the view rectangle `rect` (nil: all) of page + live ink + lasso onto `target`, e.g. the
    /// window's Xlib surface, then flushes it. Composition happens offscreen first, so the window
    /// never shows a half-drawn state.
    public func composite(into target: CairoSurface, rect: Rect? = nil) {
        lock.lock()
        defer { lock.unlock() }
        guard let page, let live, let frame else { return }
        let full = Rect(x: 0, y: 0, width: Double(page.width), height: Double(page.height))
        let r = rect ?? full
        let fc = CairoContext(frame)
        fc.clip(to: r)
        fc.setOperator(.source)
        fc.setSource(page)
        fc.paint()
        fc.setOperator(.over)
        fc.setSource(live)
        fc.paint()
        for p in predicted.values where p.rect.intersects(r) {
            // Lighter than the ink: it is a guess the next event replaces.
            fc.setSourceRGBA(p.color.r, p.color.g, p.color.b, p.color.a * 0.55)
            fc.setLineWidth(p.width)
            fc.setLineCap(.round)
            fc.moveTo(p.from.x, p.from.y)
            fc.lineTo(p.to.x, p.to.y)
            fc.stroke()
        }
        pageRenderer.drawLasso(fc, lasso)
        frame.flush()
        let tc = CairoContext(target)
        tc.clip(to: r)
        tc.setOperator(.source)
        tc.setSource(frame)
        tc.paint()
        target.flush()
    }

    /// The current frame (page, live ink, lasso) as pixels; for tests and screenshots.
    public func frameImage() -> DecodedImage? {
        let size: (Int, Int)? = lock.withLock { page.map { ($0.width, $0.height) } }
        guard let (w, h) = size, let s = try? CairoSurface(width: w, height: h) else { return nil }
        composite(into: s)
        return DecodedImage(width: w, height: h, pixels: s.argbPixels())
    }
}
