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

    /// Drops points closer than `minDistance` to the previous kept one (the last point is always
    /// kept). Pen samples arrive far denser than pixels when zoomed out: a spline through points a
    /// pixel or more apart looks the same and costs a fraction to fill.
    static func decimate(_ p: [InkPoint], minDistance: Double) -> [InkPoint] {
        guard p.count > 2, minDistance > 0 else { return p }
        let d2 = minDistance * minDistance
        var out: [InkPoint] = [p[0]]
        out.reserveCapacity(p.count)
        for i in 1..<(p.count - 1) {
            let q = p[i], l = out[out.count - 1]
            if (q.x - l.x) * (q.x - l.x) + (q.y - l.y) * (q.y - l.y) >= d2 { out.append(q) }
        }
        let last = p[p.count - 1], l = out[out.count - 1]
        if out.count > 1, (last.x - l.x) * (last.x - l.x) + (last.y - l.y) * (last.y - l.y) < d2 / 4 {
            out[out.count - 1] = last
        } else {
            out.append(last)
        }
        return out
    }

    /// Level of detail: drops the points that the line through their neighbours passes within
    /// `tolerance` of (position and radius alike; Douglas-Peucker). With a tolerance well under a
    /// pixel the ink looks the same, and a zoomed-out page of handwriting, whose curves are many
    /// points per pixel of bend, fills with far fewer edges.
    static func simplify(_ p: [InkPoint], tolerance: Double, width: Double) -> [InkPoint] {
        guard p.count > 2, tolerance > 0 else { return p }
        var keep = [Bool](repeating: false, count: p.count)
        keep[0] = true
        keep[p.count - 1] = true
        var stack = [(0, p.count - 1)]
        let t2 = tolerance * tolerance
        // Half the width per unit of pressure: a change of radius counts as a change of position.
        let rw = width * 0.6
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let pa = p[a], pb = p[b]
            let dx = pb.x - pa.x, dy = pb.y - pa.y
            let len2 = dx * dx + dy * dy
            var worst = 0.0, at = -1
            for i in (a + 1)..<b {
                let q = p[i]
                var t = len2 > 0 ? ((q.x - pa.x) * dx + (q.y - pa.y) * dy) / len2 : 0
                t = min(max(t, 0), 1)
                let ex = pa.x + t * dx - q.x, ey = pa.y + t * dy - q.y
                let er = (pa.f + t * (pb.f - pa.f) - q.f) * rw
                let e = max(ex * ex + ey * ey, er * er)
                if e > worst { worst = e; at = i }
            }
            if worst > t2, at > 0 {
                keep[at] = true
                stack.append((a, at))
                stack.append((at, b))
            }
        }
        var out: [InkPoint] = []
        out.reserveCapacity(p.count)
        for i in 0..<p.count where keep[i] { out.append(p[i]) }
        return out
    }

    /// Whether a stroke should be drawn with varying width.
    static func usesPressure(_ pts: [InkPoint], enabled: Bool, tool: String) -> Bool {
        enabled && tool != "highlighter" && pts.contains { $0.f > 0 }
    }

    /// Adds a smooth constant-width centre line for points `lo...hi` to the current path.
    static func addCenterLine(_ cr: CairoContext, _ p: [InkPoint], from lo: Int = 0, to hiIn: Int? = nil) {
        let hi = hiIn ?? p.count - 1
        guard lo <= hi, hi < p.count else { return }
        cr.moveTo(p[lo].x, p[lo].y)
        if lo == hi {
            // A dot: a zero-length segment with round caps draws a disc.
            cr.lineTo(p[lo].x, p[lo].y)
            return
        }
        for i in lo..<hi {
            let p0 = p[max(i - 1, 0)], p1 = p[i], p2 = p[i + 1], p3 = p[min(i + 2, p.count - 1)]
            // Catmull-Rom to Bézier: the tangent at each point is parallel to its neighbours' chord.
            cr.curveTo(p1.x + (p2.x - p0.x) / 6, p1.y + (p2.y - p0.y) / 6,
                           p2.x - (p3.x - p1.x) / 6, p2.y - (p3.y - p1.y) / 6, p2.x, p2.y)
        }
    }

    /// Adds the variable-width outline of segments `lo..<hi` (segment i joins points i and i+1) to the
    /// current path. `width` is the nominal width in model units, `scale` model->pixels (for sampling).
    ///
    /// Neighbouring quads share their edge (offsets along the mean normal), so a gently curving
    /// stroke has no seams; at sharp turns the quads keep their own normals and a disc fills the
    /// outer wedge, which avoids the folded (reverse-wound) quads a mean normal would make there.
    static func addVariableOutline(_ cr: CairoContext, _ p: [InkPoint], width: Double, scale: Double,
                                   from lo: Int = 0, to hiIn: Int? = nil, minWidth: Double = 0) {
        let hi = hiIn ?? p.count - 1
        func radius(_ f: Double) -> Double { max(width * pressureFactor(f), minWidth) / 2 }
        guard !p.isEmpty else { return }
        if p.count == 1 || lo >= hi {
            let q = p[min(max(lo, 0), p.count - 1)]
            disc(cr, q.x, q.y, radius(q.f), scale: scale)
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
            disc(cr, xs[0], ys[0], rs[0], scale: scale)
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
        // 4. One polygon per run between sharp joints: one side forward, the other back, wound like
        //    Cairo's arcs. (The union of per-piece quads, without their shared inner edges,
        //    which halves the edges the scan converter walks.)
        var start = 0
        while start < n - 1 {
            var end = start + 1
            while end < n - 1, shared[end] != nil { end += 1 }
            func offset(_ k: Int) -> (Double, Double) {
                if let o = shared[k], k != start || k == 0, k != end || k == n - 1 { return o }
                let piece = k == start ? start : end - 1
                return (-uy[piece] * rs[k], ux[piece] * rs[k])
            }
            let o0 = offset(start)
            cr.moveTo(xs[start] - o0.0, ys[start] - o0.1)
            for k in (start + 1)...end { let o = offset(k); cr.lineTo(xs[k] - o.0, ys[k] - o.1) }
            for k in stride(from: end, through: start, by: -1) { let o = offset(k); cr.lineTo(xs[k] + o.0, ys[k] + o.1) }
            cr.closePath()
            start = end
        }
        // 5. Round caps, and at sharp turns the pie that fills the outer gap between the pieces'
        //    ends (a whole disc there cost four times the edges; at small sizes joints are most
        //    of a stroke's edges, and edges are what Cairo's rasterizer pays for).
        disc(cr, xs[0], ys[0], rs[0], scale: scale)
        disc(cr, xs[n - 1], ys[n - 1], rs[n - 1], scale: scale)
        for k in 1..<(n - 1) where shared[k] == nil {
            joint(cr, xs[k], ys[k], rs[k], from: (ux[k - 1], uy[k - 1]), to: (ux[k], uy[k]), scale: scale)
        }
    }

    /// The pie between the outer offsets of two pieces meeting at (x, y) with unit directions
    /// `a` then `b`, by increasing angle like `disc`, so it winds the same way as the outline.
    static func joint(_ cr: CairoContext, _ x: Double, _ y: Double, _ r: Double, from a: (Double, Double), to b: (Double, Double), scale: Double) {
        guard r > 0 else { return }
        let cross = a.0 * b.1 - a.1 * b.0, dot = a.0 * b.0 + a.1 * b.1
        // Turning towards the +normal side (-uy, ux) leaves the gap on the other side.
        let side = cross > 0 ? -1.0 : 1.0
        var v0 = (-a.1 * side, a.0 * side), v1 = (-b.1 * side, b.0 * side)
        var turn = atan2(cross, dot)
        if turn < 0 { swap(&v0, &v1); turn = -turn }
        let perCircle = Double(max(8, min(48, Int(r * scale * 2.5))))
        let steps = max(1, Int((turn * perCircle / (2 * Double.pi)).rounded(.up)))
        let step = turn / Double(steps)
        let c = cos(step), s = sin(step)
        var dx = v0.0 * r, dy = v0.1 * r
        cr.moveTo(x, y)
        cr.lineTo(x + dx, y + dy)
        for _ in 1..<steps {
            (dx, dy) = (dx * c - dy * s, dx * s + dy * c)
            cr.lineTo(x + dx, y + dy)
        }
        cr.lineTo(x + v1.0 * r, y + v1.1 * r)
        cr.closePath()
    }

    /// A disc as a polygon with about one vertex per 2.5 px of radius (at least 8): at ink sizes it
    /// is indistinguishable from an arc, and far cheaper to build and to scan-convert.
    /// Vertices go by increasing angle, the winding Cairo's arcs use and the outline quads match.
    static func disc(_ cr: CairoContext, _ x: Double, _ y: Double, _ r: Double, scale: Double) {
        guard r > 0 else { return }
        let n = max(8, min(48, Int(r * scale * 2.5)))
        let step = 2 * Double.pi / Double(n)
        let c = cos(step), s = sin(step)
        var dx = r, dy = 0.0
        cr.moveTo(x + dx, y)
        for _ in 1..<n {
            (dx, dy) = (dx * c - dy * s, dx * s + dy * c)
            cr.lineTo(x + dx, y + dy)
        }
        cr.closePath()
    }

    /// Draws one stroke with the current matrix (model units). `minWidth` keeps hairlines visible.
    /// `detail` (device pixels, 0 for none) simplifies the centre line first (`simplify`).
    static func draw(_ cr: CairoContext, points all: [InkPoint], tool: String, color: RGBA, width: Double,
                     pressure: Bool, scale: Double, highlighterAlpha: Double, minWidth: Double = 0, detail: Double = 0) {
        guard !all.isEmpty else { return }
        var p = decimate(all, minDistance: 1.5 / scale)
        if detail > 0 { p = simplify(p, tolerance: detail / scale, width: width) }
        let alpha = tool == "highlighter" ? color.a * highlighterAlpha : color.a
        cr.setSourceRGBA(color.r, color.g, color.b, alpha)
        if usesPressure(p, enabled: pressure, tool: tool) {
            addVariableOutline(cr, p, width: width, scale: scale, minWidth: minWidth)
            cr.setFillRule(.winding)
            cr.fill()
        } else {
            cr.setLineWidth(max(width, minWidth))
            cr.setLineCap(.round)
            cr.setLineJoin(.round)
            addCenterLine(cr, p)
            cr.stroke()
        }
    }

    /// Bounds of a stroke's ink in model units (centre-line bounds grown by the largest half width).
    static func inkBounds(_ bounds: Rect, width: Double, pressure: Bool) -> Rect {
        let r = width * (pressure ? pressureFactor(1) : 1) / 2 + 0.01
        return Rect(x: bounds.x - r, y: bounds.y - r, width: bounds.width + 2 * r, height: bounds.height + 2 * r)
    }
}

