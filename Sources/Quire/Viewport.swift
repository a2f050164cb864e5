import Foundation
import InkModel

/// What part of the page the view shows: the transform from model millimetres to view pixels,
/// the zoom, the screen's resolution and the view's size. Scrolling stays over the content.
final class Viewport {
    /// Model millimetres -> view pixels.
    private(set) var transform = Transform(scale: 96 / 25.4, tx: 0, ty: 0)
    /// View pixels per model millimetre at zoom 1.
    private(set) var pixelsPerMillimetre: Double = 96 / 25.4
    private(set) var zoomLevel: Double = 1
    private(set) var size: (width: Int, height: Int)?

    /// Width of the page in model millimetres (the view width at zoom 1).
    var pageWidth: Double { Double(size?.width ?? 800) / pixelsPerMillimetre }

    /// The page at zoom 1, in model millimetres: the least extent of the content.
    var page: Rect {
        Rect(x: 0, y: 0, width: pageWidth, height: Double(size?.height ?? 600) / pixelsPerMillimetre)
    }

    func toModel(_ x: Double, _ y: Double) -> Point { transform.inverted().apply(Point(x: x, y: y)) }

    func setPixelsPerMillimetre(_ ppm: Double) {
        pixelsPerMillimetre = ppm
        transform = Transform(scale: ppm * zoomLevel, tx: transform.tx, ty: transform.ty)
    }

    func setSize(width: Int, height: Int) { size = (width, height) }

    /// Back to zoom 1 at the top of the page (a part was attached).
    func reset() {
        zoomLevel = 1
        transform = Transform(scale: pixelsPerMillimetre, tx: 0, ty: 0)
    }

    /// Goes back to a zoom and translation taken earlier (the caller clamps).
    func restore(zoom: Double, tx: Double, ty: Double) {
        zoomLevel = min(8, max(0.25, zoom))
        transform = Transform(scale: pixelsPerMillimetre * zoomLevel, tx: tx, ty: ty)
    }

    /// Scrolls by a delta in view pixels (the caller clamps).
    func scroll(by delta: Point) {
        transform.tx -= delta.x
        transform.ty -= delta.y
    }

    /// Zooms by `factor` (kept within 0.25...8) keeping the model point under `point` in place.
    func zoom(by factor: Double, at point: Point) {
        let anchor = transform.inverted().apply(point)
        zoomLevel = min(8, max(0.25, zoomLevel * factor))
        let s = pixelsPerMillimetre * zoomLevel
        transform = Transform(scale: s, tx: point.x - anchor.x * s, ty: point.y - anchor.y * s)
    }

    /// Keeps the view over `content`: no scrolling above/left of the page or far past its end.
    func clamp(to content: Rect) {
        guard let size else { return }
        let s = transform.scale
        let maxTx = 0.0, maxTy = 0.0
        let minTx = min(0, Double(size.width) - (content.maxX + 20) * s)
        let minTy = min(0, Double(size.height) - (content.maxY + 60) * s)
        transform.tx = min(maxTx, max(minTx, transform.tx))
        transform.ty = min(maxTy, max(minTy, transform.ty))
    }
}

/// Where a view stands on its part: the zoom and the view pixel at which the model's origin lies.
/// A notebook keeps one per page, so each page opens where it was left.
public struct ViewState: Equatable, Sendable {
    public var zoom: Double
    public var offset: Point
    public init(zoom: Double, offset: Point) {
        self.zoom = zoom
        self.offset = offset
    }
}

extension Editor {
    /// The current zoom and scroll position.
    public var viewState: ViewState {
        ViewState(zoom: viewport.zoomLevel, offset: Point(x: viewport.transform.tx, y: viewport.transform.ty))
    }

    /// Returns to a zoom and scroll position taken with `viewState` (clamped to the content, as
    /// scrolling is). Not recorded: a session recording covers one part.
    public func restoreView(_ state: ViewState) {
        guard state.zoom.isFinite, state.zoom > 0, state.offset.x.isFinite, state.offset.y.isFinite else { return }
        viewport.restore(zoom: state.zoom, tx: state.offset.x, ty: state.offset.y)
        clampView()
        renderer?.invalidate(nil)
    }

    /// Model millimetres -> view pixels.
    public var viewTransform: Transform { viewport.transform }

    /// View pixels per model millimetre at zoom 1 (96 dpi by default; the window sets the screen's).
    public var pixelsPerMillimetre: Double {
        get { viewport.pixelsPerMillimetre }
        set {
            recorder?.view(["e": .string("ppmm"), "v": .number(newValue)])
            viewport.setPixelsPerMillimetre(newValue)
            syncTextLayout()  // the page width changed
        }
    }

    public var zoomLevel: Double { viewport.zoomLevel }
    public var viewSize: (width: Int, height: Int)? { viewport.size }

    /// Scrolls the view by a delta in view pixels (clamped to the content).
    public func scroll(by delta: Point) {
        guard delta.x.isFinite, delta.y.isFinite else { return }
        recorder?.view(["e": .string("scroll"), "dx": .number(delta.x), "dy": .number(delta.y)])
        viewport.scroll(by: delta)
        clampView()
        renderer?.invalidate(nil)
    }

    /// Zooms by `factor` keeping the model point under `point` (view pixels) in place.
    public func zoom(by factor: Double, at point: Point) {
        guard factor.isFinite, factor > 0, point.x.isFinite, point.y.isFinite else { return }
        recorder?.view(["e": .string("zoom"), "factor": .number(factor), "x": .number(point.x), "y": .number(point.y)])
        viewport.zoom(by: factor, at: point)
        clampView()
        renderer?.invalidate(nil)
    }

    /// The extent of the content in model millimetres (at least the page at zoom 1).
    public var contentBox: Rect {
        var box = viewport.page
        if let m = attached?.model {
            for b in m.blocks.values where b.id != m.rootId { box = box.union(b.box) }
            for s in m.strokes.values where s.blockId == nil { box = box.union(s.bounds) }
            // Text laid out in a root without a box (a Text part) reaches as far as it goes.
            for w in m.root.words where !w.box.isEmpty { box = box.union(w.box) }
        }
        return box
    }

    /// Keeps the view over the content: no scrolling above/left of the page or far past its end.
    func clampView() {
        guard viewport.size != nil else { return }
        viewport.clamp(to: contentBox)
    }

    func toModel(_ x: Double, _ y: Double) -> Point { viewport.toModel(x, y) }

    /// Width of the page in model millimetres (the view width at zoom 1).
    var pageWidth: Double { viewport.pageWidth }
}
