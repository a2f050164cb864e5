import Foundation
import InkModel

/// The window's page content (everything but selection and overlays) cached as 256-pixel tiles,
/// per zoom level: a redraw with nothing changed in the model is a copy of tiles, scrolling back
/// finds its tiles, and a changed stroke repaints only the part of the tiles it touches
/// (`ModelDamage` says where). Tiles missing at a new zoom can be drawn a few per frame while the
/// previous frame stands in, scaled (`paint`'s deadline), so a pinch-zoom never waits for a
/// whole page of ink.
///
/// A level's pixels are those of a direct render: tile (i, j) is the view translated by whole
/// pixels, so ink lands on the same sub-pixel positions. Confined to the renderer's lock.
final class TileCache {
    static let size = 256
    /// 256 KB each: about 100 MB at most, four 1080p views' worth (one is 40 tiles). Small tiles
    /// keep one tile's drawing, the unit a frame budget cannot cut, to a few milliseconds.
    var maxTiles = 400

    /// What a level's pixels depend on besides the model.
    struct Level: Hashable {
        var scale: Double
        /// The fractional part of the view's translation.
        var phaseX: Double, phaseY: Double
        var guides: Bool
        var guideSpacing: Double
        var pressure: Bool
        var debugBoxes: Bool
        var background: RGBA?

        init(_ s: RenderState) {
            let t = s.transform
            scale = t.a
            phaseX = t.tx - t.tx.rounded(.down)
            phaseY = t.ty - t.ty.rounded(.down)
            guides = s.guides; guideSpacing = s.guideSpacing; pressure = s.pressure
            debugBoxes = s.debugBoxes; background = s.background
        }

        /// View pixels minus this, in the level's pixels.
        static func origin(_ s: RenderState) -> (x: Double, y: Double) {
            (s.transform.tx.rounded(.down), s.transform.ty.rounded(.down))
        }
    }

    /// Whether tiles can show a state: a plain scale and translation (no rotation or shear).
    static func supports(_ s: RenderState) -> Bool {
        let t = s.transform
        return t.b == 0 && t.c == 0 && t.a == t.d && t.a > 0 && t.a.isFinite && t.tx.isFinite && t.ty.isFinite
    }

    private struct Index: Hashable { var level: Level; var x: Int; var y: Int }
    private final class Tile {
        let surface: CairoSurface
        /// Never drawn yet (a whole tile to draw).
        var blank = true
        /// Tile pixels to draw again.
        var dirty: [Rect] = []
        var used = 0
        init(_ s: CairoSurface) { surface = s }
        var clean: Bool { !blank && dirty.isEmpty }
    }
    private var tiles: [Index: Tile] = [:]
    private var clock = 0

    /// Tiles held now (for tests).
    var count: Int { tiles.count }

    /// Forgets every tile.
    func removeAll() { tiles.removeAll() }

    /// Marks model rectangles (mm) to be drawn again in every level.
    func invalidate(model rects: [Rect]) {
        guard !rects.isEmpty, !tiles.isEmpty else { return }
        // Thousands of rectangles (a block of ink moved) would cost more to test than to merge.
        let rs = rects.count > 256 ? [rects.dropFirst().reduce(rects[0]) { $0.union($1) }] : rects
        let n = Double(Self.size)
        for (i, tile) in tiles {
            let l = i.level
            let ox = Double(i.x) * n - l.phaseX, oy = Double(i.y) * n - l.phaseY
            let bounds = Rect(x: 0, y: 0, width: n, height: n)
            for r in rs {
                // Anti-aliasing reaches a pixel beyond the ink.
                let d = Rect(x: r.x * l.scale - ox - 1, y: r.y * l.scale - oy - 1, width: r.width * l.scale + 2, height: r.height * l.scale + 2)
                guard d.intersects(bounds), let c = Self.roundOut(d.intersection(bounds)) else { continue }
                tile.dirty.append(c)
            }
            if tile.dirty.count > 12 { tile.dirty = [tile.dirty.dropFirst().reduce(tile.dirty[0]) { $0.union($1) }] }
        }
    }

    private static func roundOut(_ r: Rect) -> Rect? {
        let x0 = r.x.rounded(.down), y0 = r.y.rounded(.down), x1 = r.maxX.rounded(.up), y1 = r.maxY.rounded(.up)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Paints view rectangle `rect` of the page (whole pixels) onto `page`, drawing what its tiles
    /// lack. Past `deadline` (monotonic ns) a tile drawn before shows as it was and a new one
    /// leaves what `page` shows there (`keepsPreview`: the previous zoom scaled) or the
    /// background; returns the view rectangles so left. `drew` counts the tiles drawn (across
    /// the calls of one render: the first is always drawn unless `inputPending` says input waits,
    /// which it asks before each tile).
    func paint(_ rect: Rect, into page: CairoSurface, part: PartModel, state: RenderState, renderer: PageRenderer,
               options: DrawOptions, deadline: UInt64?, inputPending: (() -> Bool)? = nil, keepsPreview: Bool = false,
               drew: inout Int) -> [Rect] {
        let level = Level(state)
        let o = Level.origin(state)
        let n = Double(Self.size)
        let x0 = Int(((rect.x - o.x) / n).rounded(.down)), x1 = Int(((rect.maxX - o.x) / n).rounded(.up)) - 1
        let y0 = Int(((rect.y - o.y) / n).rounded(.down)), y1 = Int(((rect.maxY - o.y) / n).rounded(.up)) - 1
        guard x0 <= x1, y0 <= y1 else { return [] }
        var left: [Rect] = []
        let cr = CairoContext(page)
        cr.clip(to: rect)
        cr.setOperator(.source)
        for y in y0...y1 {
            for x in x0...x1 {
                let index = Index(level: level, x: x, y: y)
                let tileView = Rect(x: o.x + Double(x) * n, y: o.y + Double(y) * n, width: n, height: n)
                let tile = tiles[index]
                if tile?.clean != true {
                    // At least one tile per render (`drew` counts them), so rendering always makes
                    // progress, unless input is waiting: the window handles it and renders again
                    // (it drains its input before each render, so this cannot starve the page).
                    let outOfTime = deadline.map { drew > 0 && monotonicNanoseconds() >= $0 } ?? false
                    if outOfTime || (deadline != nil && inputPending?() == true) {
                        // Out of time: a tile drawn before shows as it was (what changed there is
                        // still on the live layer, or about to be), a new one shows a stand-in.
                        if let tile, !tile.blank {
                            cr.setSource(tile.surface, x: tileView.x, y: tileView.y)
                            cr.rectangle(tileView)
                            cr.fill()
                        } else {
                            if !keepsPreview { blank(cr, tileView.intersection(rect), state: state, renderer: renderer) }
                        }
                        left.append(tileView.intersection(rect))
                        continue
                    }
                    guard let t = tile ?? makeTile(index) else {
                        // No memory for a tile: draw the view directly, as without a cache.
                        cr.save()
                        cr.setOperator(.over)
                        renderer.draw(cr, part: part, state: state, clip: tileView.intersection(rect), options: options)
                        cr.restore()
                        continue
                    }
                    draw(t, index, part: part, state: state, renderer: renderer, options: options)
                    drew += 1
                }
                guard let t = tiles[index] else { continue }
                clock += 1
                t.used = clock
                cr.setSource(t.surface, x: tileView.x, y: tileView.y)
                cr.rectangle(tileView)
                cr.fill()
            }
        }
        return left
    }

    private func makeTile(_ index: Index) -> Tile? {
        if tiles.count >= maxTiles {
            // Least recently used first; tiles of this frame (used == clock) are never evicted early.
            let victims = tiles.sorted { $0.value.used < $1.value.used }.prefix(tiles.count - maxTiles + 1)
            for v in victims { tiles[v.key] = nil }
        }
        guard let s = try? CairoSurface(width: Self.size, height: Self.size) else { return nil }
        let t = Tile(s)
        tiles[index] = t
        return t
    }

    private func draw(_ t: Tile, _ index: Index, part: PartModel, state: RenderState, renderer: PageRenderer, options: DrawOptions) {
        let n = Double(Self.size)
        var ts = state
        ts.transform = Transform(scale: index.level.scale, tx: index.level.phaseX - Double(index.x) * n, ty: index.level.phaseY - Double(index.y) * n)
        ts.viewWidth = Self.size
        ts.viewHeight = Self.size
        ts.selectedBlockIds = []
        ts.selectionFrame = nil
        ts.lasso = []
        ts.liveStrokes = []
        ts.dragBlockId = nil
        let cr = CairoContext(t.surface)
        if t.blank {
            renderer.draw(cr, part: part, state: ts, clip: nil, options: options)
        } else {
            for r in Self.merged(t.dirty) { renderer.draw(cr, part: part, state: ts, clip: r, options: options) }
        }
        t.surface.flush()
        t.blank = false
        t.dirty = []
    }

    /// Overlapping dirty rectangles drawn once.
    private static func merged(_ rects: [Rect]) -> [Rect] {
        var out: [Rect] = []
        for r in rects {
            var cur = r
            while let i = out.firstIndex(where: { $0.intersects(cur) }) { cur = out.remove(at: i).union(cur) }
            out.append(cur)
        }
        return out
    }

    /// Fills `r` (view pixels) with the page's background.
    private func blank(_ cr: CairoContext, _ r: Rect, state: RenderState, renderer: PageRenderer) {
        cr.save()
        cr.clip(to: r)
        cr.setSource(state.background ?? renderer.theme.background)
        cr.paint()
        cr.restore()
    }
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

extension Rect {
    /// The overlap of two rectangles (empty, at `self`'s origin, when they do not meet).
    func intersection(_ r: Rect) -> Rect {
        let x0 = max(x, r.x), y0 = max(y, r.y), x1 = min(maxX, r.maxX), y1 = min(maxY, r.maxY)
        guard x1 > x0, y1 > y0 else { return Rect(x: x, y: y, width: 0, height: 0) }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
