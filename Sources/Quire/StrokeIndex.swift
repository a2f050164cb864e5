import Foundation
import InkModel

/// A uniform grid over stroke bounds, so erasing and hit testing touch only nearby strokes and
/// per-event cost stays flat as the document grows.
///
/// Each block's strokes have a layer of their own in coordinates relative to the block's ink
/// shift: when a block flows down, its layer's shift changes and no stroke is re-indexed.
/// Shifts and cell keys are integers (1/100 mm), so a stroke is found again exactly after any
/// number of moves and undos.
struct StrokeIndex {
    /// Cell size in 1/100 mm (10 mm).
    static let cell: Int64 = 1000

    private struct Layer {
        var shiftX: Int64 = 0, shiftY: Int64 = 0
        var cells: [Int64: Set<String>] = [:]
        /// Union of the local bounds ever inserted (grows only; a superset is enough to skip a layer).
        var minX = Int64.max, minY = Int64.max, maxX = Int64.min, maxY = Int64.min
    }
    private var layers: [String: Layer] = [:]

    private static func layerKey(_ s: InkStroke) -> String { s.blockId ?? "" }

    private static func keys(_ x0: Int64, _ y0: Int64, _ x1: Int64, _ y1: Int64) -> [Int64] {
        func c(_ v: Int64) -> Int64 { v >= 0 ? v / cell : -((-v + cell - 1) / cell) }
        let cx0 = c(x0), cx1 = c(x1), cy0 = c(y0), cy1 = c(y1)
        // Huge strokes share one bucket; so do strokes whose coordinates wrapped past Int32 when
        // they moved (max below min: a range of cells would trap).
        guard cx0 <= cx1, cy0 <= cy1, cx1 - cx0 < 2000, cy1 - cy0 < 2000 else { return [Int64.min] }
        var out: [Int64] = []
        out.reserveCapacity(Int((cx1 - cx0 + 1) * (cy1 - cy0 + 1)))
        for x in cx0...cx1 { for y in cy0...cy1 { out.append((x << 32) ^ (y & 0xFFFF_FFFF)) } }
        return out
    }

    private static func localKeys(_ s: InkStroke, _ l: Layer) -> (keys: [Int64], x0: Int64, y0: Int64, x1: Int64, y1: Int64) {
        let b = s.unitBounds
        let x0 = Int64(b.minX) - l.shiftX, y0 = Int64(b.minY) - l.shiftY
        let x1 = Int64(b.maxX) - l.shiftX, y1 = Int64(b.maxY) - l.shiftY
        return (keys(x0, y0, x1, y1), x0, y0, x1, y1)
    }

    mutating func insert(_ s: InkStroke) {
        Self.insert(s, into: &layers[Self.layerKey(s), default: Layer()])
    }

    private static func insert(_ s: InkStroke, into l: inout Layer) {
        let (keys, x0, y0, x1, y1) = localKeys(s, l)
        for key in keys { l.cells[key, default: []].insert(s.id) }
        if x0 > x1 || y0 > y1 {  // wrapped: it may be anywhere
            l.minX = min(l.minX, -(1 << 40)); l.minY = min(l.minY, -(1 << 40)); l.maxX = max(l.maxX, 1 << 40); l.maxY = max(l.maxY, 1 << 40)
        }
        l.minX = min(l.minX, x0); l.minY = min(l.minY, y0); l.maxX = max(l.maxX, x1); l.maxY = max(l.maxY, y1)
    }

    /// Removes a stroke as it is in the model now (same block, same position as when inserted or
    /// shifted since with its block).
    mutating func remove(_ s: InkStroke) {
        guard layers[Self.layerKey(s)] != nil else { return }
        Self.remove(s, from: &layers[Self.layerKey(s)]!)
    }

    private static func remove(_ s: InkStroke, from l: inout Layer) {
        for key in localKeys(s, l).keys { l.cells[key]?.remove(s.id) }
    }

    /// Follows `PartModel.translateStrokes(inBlock:)`.
    mutating func shift(block: String, dx: Int32, dy: Int32) {
        layers[block]?.shiftX += Int64(dx)
        layers[block]?.shiftY += Int64(dy)
    }

    mutating func clear() { layers.removeAll() }

    /// Ids of the strokes whose bounds may meet `r` (millimetres): a superset.
    func candidates(_ r: Rect) -> Set<String> {
        guard r.x.isFinite, r.y.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return [] }
        let u = InkStroke.unitsPerMillimetre
        // Rounded outwards: a stroke touching the rectangle is never missed. Clamped far beyond
        // any stroke (Int32 units), so a huge rectangle converts instead of trapping.
        func units(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int64 { Int64(max(-1e15, min(1e15, (v * u).rounded(rule)))) }
        let x0 = units(r.x, .down) - 1, y0 = units(r.y, .down) - 1
        let x1 = units(r.maxX, .up) + 1, y1 = units(r.maxY, .up) + 1
        var out = Set<String>()
        for l in layers.values {
            let lx0 = x0 - l.shiftX, ly0 = y0 - l.shiftY, lx1 = x1 - l.shiftX, ly1 = y1 - l.shiftY
            guard lx0 <= l.maxX, lx1 >= l.minX, ly0 <= l.maxY, ly1 >= l.minY else { continue }
            let keys = Self.keys(lx0, ly0, lx1, ly1)
            if keys == [Int64.min] {
                for c in l.cells.values { out.formUnion(c) }
                continue
            }
            if let c = l.cells[Int64.min] { out.formUnion(c) }
            for key in keys { if let c = l.cells[key] { out.formUnion(c) } }
        }
        return out
    }
}
