import CCairo
import InkModel

/// An owned `cairo_t` drawing into a `CairoSurface`: the only way InkRender draws.
///
/// A thin layer: each method is one Cairo call (or a few that belong together), with Swift
/// types for Cairo's enums and structs, so that renderers, exporters and painters are Swift code.
final class CairoContext {
    let raw: OpaquePointer
    /// Kept alive for as long as the context draws into it.
    let surface: CairoSurface

    enum Operator { case clear, source, over }
    enum Antialias { case `default`, fast }
    enum LineCap { case butt, round }
    enum LineJoin { case miter, round }
    enum FillRule { case winding, evenOdd }
    enum Filter { case good }

    init(_ surface: CairoSurface) {
        self.surface = surface
        raw = cairo_create(surface.raw)
    }

    deinit { CairoText.withLock { cairo_destroy(raw) } }

    /// Cairo's message when the context is in an error state; nil when it is fine.
    var errorMessage: String? {
        let st = cairo_status(raw)
        return st == CAIRO_STATUS_SUCCESS ? nil : cairoStatusMessage(st)
    }

    // MARK: state

    func save() { cairo_save(raw) }
    func restore() { cairo_restore(raw) }

    func setOperator(_ op: Operator) {
        switch op {
        case .clear: cairo_set_operator(raw, CAIRO_OPERATOR_CLEAR)
        case .source: cairo_set_operator(raw, CAIRO_OPERATOR_SOURCE)
        case .over: cairo_set_operator(raw, CAIRO_OPERATOR_OVER)
        }
    }

    func setAntialias(_ a: Antialias) {
        cairo_set_antialias(raw, a == .fast ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT)
    }

    func setSource(_ c: RGBA, alphaScale: Double = 1) {
        cairo_set_source_rgba(raw, c.r, c.g, c.b, c.a * alphaScale)
    }

    func setSourceRGB(_ r: Double, _ g: Double, _ b: Double) { cairo_set_source_rgb(raw, r, g, b) }

    func setSourceRGBA(_ r: Double, _ g: Double, _ b: Double, _ a: Double) { cairo_set_source_rgba(raw, r, g, b, a) }

    /// Paints from another surface placed at (x, y) in user units.
    func setSource(_ s: CairoSurface, x: Double = 0, y: Double = 0, filter: Filter? = nil) {
        cairo_set_source_surface(raw, s.raw, x, y)
        if filter == .good { cairo_pattern_set_filter(cairo_get_source(raw), CAIRO_FILTER_GOOD) }
    }

    func setLineWidth(_ w: Double) { cairo_set_line_width(raw, w) }

    func setLineCap(_ c: LineCap) {
        cairo_set_line_cap(raw, c == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
    }

    func setLineJoin(_ j: LineJoin) {
        cairo_set_line_join(raw, j == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
    }

    func setFillRule(_ r: FillRule) {
        cairo_set_fill_rule(raw, r == .winding ? CAIRO_FILL_RULE_WINDING : CAIRO_FILL_RULE_EVEN_ODD)
    }

    /// Dashes lengths in user units; an empty array draws solid lines again.
    func setDash(_ dashes: [Double], offset: Double = 0) {
        dashes.withUnsafeBufferPointer { cairo_set_dash(raw, $0.baseAddress, Int32($0.count), offset) }
    }

    // MARK: transformation

    func setMatrix(_ t: Transform) {
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_set_matrix(raw, &m)
    }

    func transform(_ t: Transform) {
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_transform(raw, &m)
    }

    func translate(_ dx: Double, _ dy: Double) { cairo_translate(raw, dx, dy) }

    func scale(_ sx: Double, _ sy: Double) { cairo_scale(raw, sx, sy) }

    /// Length of a user-space unit along x in device units (the current matrix's x scale).
    var matrixScale: Double {
        var m = cairo_matrix_t()
        cairo_get_matrix(raw, &m)
        return (m.xx * m.xx + m.yx * m.yx).squareRoot()
    }

    // MARK: path

    func moveTo(_ x: Double, _ y: Double) { cairo_move_to(raw, x, y) }
    func lineTo(_ x: Double, _ y: Double) { cairo_line_to(raw, x, y) }

    func curveTo(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        cairo_curve_to(raw, x1, y1, x2, y2, x3, y3)
    }

    func closePath() { cairo_close_path(raw) }
    func newSubPath() { cairo_new_sub_path(raw) }

    func arc(_ x: Double, _ y: Double, radius: Double, from a0: Double, to a1: Double) {
        cairo_arc(raw, x, y, radius, a0, a1)
    }

    func rectangle(_ r: Rect) { cairo_rectangle(raw, r.x, r.y, r.width, r.height) }

    func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) { cairo_rectangle(raw, x, y, w, h) }

    /// Adds a rectangle with rounded corners (radius clamped to half the shorter side).
    func roundedRect(_ r: Rect, radius: Double) {
        let rad = min(radius, r.width / 2, r.height / 2)
        cairo_new_sub_path(raw)
        cairo_arc(raw, r.maxX - rad, r.y + rad, rad, -Double.pi / 2, 0)
        cairo_arc(raw, r.maxX - rad, r.maxY - rad, rad, 0, Double.pi / 2)
        cairo_arc(raw, r.x + rad, r.maxY - rad, rad, Double.pi / 2, Double.pi)
        cairo_arc(raw, r.x + rad, r.y + rad, rad, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(raw)
    }

    // MARK: painting

    func fill() { cairo_fill(raw) }
    func fillPreserve() { cairo_fill_preserve(raw) }
    func stroke() { cairo_stroke(raw) }
    func paint() { cairo_paint(raw) }

    /// Intersects the clip with the current path (and clears the path).
    func clip() { cairo_clip(raw) }

    func clip(to r: Rect) {
        cairo_rectangle(raw, r.x, r.y, r.width, r.height)
        cairo_clip(raw)
    }

    /// Vector surfaces: ends the page (its text goes out through the shared fonts, hence the lock).
    func showPage() { CairoText.withLock { cairo_show_page(raw) } }
}
