import CCairo
import Foundation
import InkModel

/// One input point of a stroke in model millimetres with pressure 0...1.
struct InkPoint: Equatable {
    var x: Double, y: Double, f: Double
}

/// Geometry of ink: smoothing and variable width.
///
/// Centre lines are Catmull-Rom splines through the samples, so a stroke is smooth at any zoom
/// (a polyline shows its corners as soon as one zooms in). Constant-width ink (no pressure, or the
/// highlighter) is one stroked path with round caps and joins. Pressure ink is filled as the union
/// of tapered quads between sub-samples of the spline plus discs where the direction turns: all
/// pieces share one orientation, so a single nonzero fill covers overlaps once (no seams, no
/// darker overlaps) whatever the shape of the stroke.
enum InkPath {
    /// Width factor for a pressure 0...1: 0.5 gives the nominal width.
    static func pressureFactor(_ f: Double) -> Double { 0.4 + 1.2 * min(max(f, 0), 1) }

    /// Drops repeated points (quantised samples repeat when the pen rests).
    static func points(of stroke: InkStroke) -> [InkPoint] {
        var out: [InkPoint] = []
        out.reserveCapacity(stroke.count)
        for i in 0..<stroke.count {
            let s = stroke[i]
            append(&out, InkPoint(x: s.x, y: s.y, f: s.f))
        }
        return out
    }

    static func points(of samples: [InkSample]) -> [InkPoint] {
        var out: [InkPoint] = []
        out.reserveCapacity(samples.count)
        for s in samples where s.x.isFinite && s.y.isFinite { append(&out, InkPoint(x: s.x, y: s.y, f: s.f.isFinite ? s.f : 0)) }
        return out
    }

    private static func append(_ out: inout [InkPoint], _ p: InkPoint) {
        if let last = out.last, last.x == p.x, last.y == p.y {
            out[out.count - 1].f = max(last.f, p.f)
        } else {
            out.append(p)
        }
    }

    /// Whether a stroke should be drawn with varying width.
    static func usesPressure(_ pts: [InkPoint], enabled: Bool, tool: String) -> Bool {
        enabled && tool != "highlighter" && pts.contains { $0.f > 0 }
    }

    /// Adds a smooth constant-width centre line for points `lo...hi` to the current path.
    static func addCenterLine(_ cr: OpaquePointer, _ p: [InkPoint], from lo: Int = 0, to hiIn: Int? = nil) {
        let hi = hiIn ?? p.count - 1
        guard lo <= hi, hi < p.count else { return }
        cairo_move_to(cr, p[lo].x, p[lo].y)
        if lo == hi {
            // A dot: a zero-length segment with round caps draws a disc.
            cairo_line_to(cr, p[lo].x, p[lo].y)
            return
        }
        for i in lo..<hi {
            let p0 = p[max(i - 1, 0)], p1 = p[i], p2 = p[i + 1], p3 = p[min(i + 2, p.count - 1)]
            // Catmull-Rom to Bézier: the tangent at each point is parallel to its neighbours' chord.
            cairo_curve_to(cr, p1.x + (p2.x - p0.x) / 6, p1.y + (p2.y - p0.y) / 6,
                           p2.x - (p3.x - p1.x) / 6, p2.y - (p3.y - p1.y) / 6, p2.x, p2.y)
        }
    }

    /// Adds the variable-width outline of segments `lo..<hi` (segment i joins points i and i+1) to the
    /// current path. `width` is the nominal width in model units, `scale` model->pixels (for sampling).
    ///
    /// Neighbouring quads share their edge (offsets along the mean normal), so a gently curving
    /// stroke has no seams; at sharp turns the quads keep their own normals and a disc fills the
    /// outer wedge, which avoids the folded (reverse-wound) quads a mean normal would make there.
    static func addVariableOutline(_ cr: OpaquePointer, _ p: [InkPoint], width: Double, scale: Double,
                                   from lo: Int = 0, to hiIn: Int? = nil, minWidth: Double = 0) {
        let hi = hiIn ?? p.count - 1
        func radius(_ f: Double) -> Double { max(width * pressureFactor(f), minWidth) / 2 }
        guard !p.isEmpty else { return }
        if p.count == 1 || lo >= hi {
            let q = p[min(max(lo, 0), p.count - 1)]
            disc(cr, q.x, q.y, radius(q.f))
            return
        }
        // 1. Sub-samples of the spline, about one per 3 px.
        var xs = [p[lo].x], ys = [p[lo].y], rs = [radius(p[lo].f)]
        for i in lo..<hi {
            let p0 = p[max(i - 1, 0)], p1 = p[i], p2 = p[i + 1], p3 = p[min(i + 2, p.count - 1)]
            let chordPx = ((p2.x - p1.x) * (p2.x - p1.x) + (p2.y - p1.y) * (p2.y - p1.y)).squareRoot() * scale
            let steps = max(1, min(16, Int((chordPx / 3).rounded(.up))))
            let r1 = radius(p1.f), r2 = radius(p2.f)
            for s in 1...steps {
                let t = Double(s) / Double(steps), t2 = t * t, t3 = t2 * t
                // Uniform Catmull-Rom through p1 (t = 0) and p2 (t = 1).
                let x = 0.5 * (2 * p1.x + (-p0.x + p2.x) * t + (2 * p0.x - 5 * p1.x + 4 * p2.x - p3.x) * t2
                               + (-p0.x + 3 * p1.x - 3 * p2.x + p3.x) * t3)
                let y = 0.5 * (2 * p1.y + (-p0.y + p2.y) * t + (2 * p0.y - 5 * p1.y + 4 * p2.y - p3.y) * t2
                               + (-p0.y + 3 * p1.y - 3 * p2.y + p3.y) * t3)
                let r = r1 + (r2 - r1) * t
                let dx = x - xs[xs.count - 1], dy = y - ys[ys.count - 1]
                if dx * dx + dy * dy > 1e-12 {
                    xs.append(x); ys.append(y); rs.append(r)
                } else {
                    rs[rs.count - 1] = max(rs[rs.count - 1], r)
                }
            }
        }
        let n = xs.count
        guard n >= 2 else {
            disc(cr, xs[0], ys[0], rs[0])
            return
        }
        // 2. Unit directions of the n - 1 pieces.
        var ux = [Double](repeating: 0, count: n - 1), uy = ux
        for k in 0..<(n - 1) {
            let dx = xs[k + 1] - xs[k], dy = ys[k + 1] - ys[k]
            let len = (dx * dx + dy * dy).squareRoot()
            ux[k] = dx / len; uy[k] = dy / len
        }
        // 3. Shared offsets at gentle joints; nil marks a sharp one.
        var shared: [(Double, Double)?] = Array(repeating: nil, count: n)
        for k in 0..<n {
            if k == 0 { shared[k] = (-uy[0] * rs[0], ux[0] * rs[0]); continue }
            if k == n - 1 { shared[k] = (-uy[k - 1] * rs[k], ux[k - 1] * rs[k]); continue }
            let c = ux[k - 1] * ux[k] + uy[k - 1] * uy[k]
            guard c > 0.85 else { continue }
            var mx = ux[k - 1] + ux[k], my = uy[k - 1] + uy[k]
            let ml = (mx * mx + my * my).squareRoot()
            mx /= ml; my /= ml
            // Longer offset along the mean normal keeps the width true through the bend (a miter).
            let k2 = rs[k] / max(mx * ux[k] + my * uy[k], 0.5)
            shared[k] = (-my * k2, mx * k2)
        }
        // 4. One quad per piece, all wound like cairo_arc's discs.
        for k in 0..<(n - 1) {
            let a = shared[k] ?? (-uy[k] * rs[k], ux[k] * rs[k])
            let b = shared[k + 1] ?? (-uy[k] * rs[k + 1], ux[k] * rs[k + 1])
            cairo_move_to(cr, xs[k] - a.0, ys[k] - a.1)
            cairo_line_to(cr, xs[k + 1] - b.0, ys[k + 1] - b.1)
            cairo_line_to(cr, xs[k + 1] + b.0, ys[k + 1] + b.1)
            cairo_line_to(cr, xs[k] + a.0, ys[k] + a.1)
            cairo_close_path(cr)
        }
        // 5. Round caps and the outer wedges of sharp turns.
        disc(cr, xs[0], ys[0], rs[0])
        disc(cr, xs[n - 1], ys[n - 1], rs[n - 1])
        for k in 1..<(n - 1) where shared[k] == nil { disc(cr, xs[k], ys[k], rs[k]) }
    }

    static func disc(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ r: Double) {
        guard r > 0 else { return }
        cairo_new_sub_path(cr)
        cairo_arc(cr, x, y, r, 0, 2 * Double.pi)
        cairo_close_path(cr)
    }

    /// Draws one stroke with the current matrix (model units). `minWidth` keeps hairlines visible.
    static func draw(_ cr: OpaquePointer, points p: [InkPoint], tool: String, color: RGBA, width: Double,
                     pressure: Bool, scale: Double, highlighterAlpha: Double, minWidth: Double = 0) {
        guard !p.isEmpty else { return }
        let alpha = tool == "highlighter" ? color.a * highlighterAlpha : color.a
        cairo_set_source_rgba(cr, color.r, color.g, color.b, alpha)
        if usesPressure(p, enabled: pressure, tool: tool) {
            addVariableOutline(cr, p, width: width, scale: scale, minWidth: minWidth)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
        } else {
            cairo_set_line_width(cr, max(width, minWidth))
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            addCenterLine(cr, p)
            cairo_stroke(cr)
        }
    }

    /// Bounds of a stroke's ink in model units (centre-line bounds grown by the largest half width).
    static func inkBounds(_ bounds: Rect, width: Double, pressure: Bool) -> Rect {
        let r = width * (pressure ? pressureFactor(1) : 1) / 2 + 0.01
        return Rect(x: bounds.x - r, y: bounds.y - r, width: bounds.width + 2 * r, height: bounds.height + 2 * r)
    }
}
