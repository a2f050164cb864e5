import Foundation

/// A point in model millimetres or view pixels, depending on context.
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// An axis-aligned rectangle (origin top-left, y down).
public struct Rect: Hashable, Sendable, Codable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public func contains(_ p: Point) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }
    public func intersects(_ r: Rect) -> Bool { x < r.maxX && r.x < maxX && y < r.maxY && r.y < maxY }
    /// The smallest rectangle holding both; an empty (zero-size at origin) rect is treated as "nothing".
    public func union(_ r: Rect) -> Rect {
        if width == 0 && height == 0 && x == 0 && y == 0 { return r }
        if r.width == 0 && r.height == 0 && r.x == 0 && r.y == 0 { return self }
        let nx = min(x, r.x), ny = min(y, r.y)
        return Rect(x: nx, y: ny, width: max(maxX, r.maxX) - nx, height: max(maxY, r.maxY) - ny)
    }
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

/// An affine transform; in the editor it maps model millimetres to view pixels.
public struct Transform: Sendable, Equatable, Codable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    public init(a: Double = 1, b: Double = 0, c: Double = 0, d: Double = 1, tx: Double = 0, ty: Double = 0) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = Transform()
    /// Uniform scale then translation: `p * scale + (tx, ty)`.
    public init(scale: Double, tx: Double, ty: Double) { self.init(a: scale, d: scale, tx: tx, ty: ty) }
    public func apply(_ p: Point) -> Point { Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty) }
    public func apply(_ r: Rect) -> Rect {
        let p0 = apply(Point(x: r.x, y: r.y)), p1 = apply(Point(x: r.maxX, y: r.maxY))
        return Rect(x: min(p0.x, p1.x), y: min(p0.y, p1.y), width: abs(p1.x - p0.x), height: abs(p1.y - p0.y))
    }
    public func inverted() -> Transform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return .identity }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Transform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
    /// Uniform scale factor (assumes no shear), used to convert lengths.
    public var scale: Double { (a * a + b * b).squareRoot() }
}
