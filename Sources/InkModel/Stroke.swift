import Foundation

/// The kind of device a pointer event comes from.
public enum PointerType: Hashable, Sendable {
    case pen, touch, eraser, mouse, custom(Int)

    /// Stable name used in files and configuration ("pen", "touch", "eraser", "mouse", "custom-N").
    public var name: String {
        switch self {
        case .pen: "pen"
        case .touch: "touch"
        case .eraser: "eraser"
        case .mouse: "mouse"
        case .custom(let n): "custom-\(n)"
        }
    }

    public init?(name: String) {
        switch name {
        case "pen": self = .pen
        case "touch": self = .touch
        case "eraser": self = .eraser
        case "mouse": self = .mouse
        default:
            guard name.hasPrefix("custom-"), let n = Int(name.dropFirst(7)) else { return nil }
            self = .custom(n)
        }
    }

    /// Compact code used by the binary stroke format.
    var code: UInt8 {
        switch self {
        case .pen: 0
        case .touch: 1
        case .eraser: 2
        case .mouse: 3
        case .custom: 4
        }
    }
}

/// One sample of a stroke, in model millimetres and milliseconds since 1970.
public struct InkSample: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var t: Int64
    public var f: Double
    public init(x: Double, y: Double, t: Int64, f: Double) { self.x = x; self.y = y; self.t = t; self.f = f }
}

/// 32-bit channels of a stroke too large for the packed form (over 327 mm across or 65 s long).
final class WideSamples: Sendable {
    let xs: [Int32], ys: [Int32], dts: [Int32], ps: [UInt16]
    init(xs: [Int32], ys: [Int32], dts: [Int32], ps: [UInt16]) { self.xs = xs; self.ys = ys; self.dts = dts; self.ps = ps }
}

/// A committed stroke: an immutable list of samples with its pointer and style.
///
/// Samples are stored quantised (x, y in 1/100 mm; pressure in 1/4095; time in ms relative to the
/// first sample), and the file format stores exactly these integers, so save/open and
/// export/import round trips are exact. Nearly every stroke spans less than 327 mm and 65 s: it
/// keeps x and y relative to its first point, time and pressure in 16 bits each, all four channels
/// in one array (8 bytes a point, one allocation), which keeps a 100,000-stroke document under
/// 200 MB. Larger strokes keep 32-bit channels.
///
/// Moving a stroke only changes an offset kept beside the coordinates: when blocks flow down, a
/// whole page of ink moves per pen-up, and that must not copy every point (nor the arrays shared
/// with undo records).
public struct InkStroke: Equatable, Sendable {
    public static let unitsPerMillimetre = 100.0
    public static let pressureLevels = 4095.0

    public var id: String
    public var pointerType: PointerType
    public var pointerId: Int
    /// The tool that drew it ("pen" or "highlighter").
    public var tool: String
    /// Colour as "#rrggbb" or "#rrggbbaa"; empty means the theme's colour for `tool`.
    public var color: String
    /// Nominal width in millimetres; 0 means the theme's width for `tool`.
    public var width: Float
    /// The block this stroke belongs to (Text Document parts), or nil for the root block.
    public var blockId: String?
    /// Creation order, used for z-order and reading order.
    public var seq: Int64
    public var startTime: Int64
    /// Packed form: n x (Int16 bits, from `baseX`), n y (from `baseY`), n time deltas, n pressures.
    /// Readable in the module so the file encoder can walk every point without building arrays.
    private(set) var packed: [UInt16] = []
    private(set) var wide: WideSamples?
    private(set) var baseX: Int32 = 0, baseY: Int32 = 0
    /// How far the stroke was moved since it was drawn, in 1/100 mm.
    public private(set) var offsetX: Int32 = 0
    public private(set) var offsetY: Int32 = 0
    /// Extent of the stored coordinates, 1/100 mm (integers, so moves and undo stay exact).
    private var minX: Int32 = 0, minY: Int32 = 0, maxX: Int32 = 0, maxY: Int32 = 0

    public init(id: String, pointerType: PointerType = .pen, pointerId: Int = -1, tool: String = "pen",
                color: String = "", width: Float = 0, blockId: String? = nil, seq: Int64 = 0, samples: [InkSample]) {
        self.id = id; self.pointerType = pointerType; self.pointerId = pointerId; self.tool = tool
        self.color = color; self.width = width; self.blockId = blockId; self.seq = seq
        self.startTime = samples.first?.t ?? 0
        var xs: [Int32] = [], ys: [Int32] = [], dts: [Int32] = [], ps: [UInt16] = []
        xs.reserveCapacity(samples.count); ys.reserveCapacity(samples.count)
        dts.reserveCapacity(samples.count); ps.reserveCapacity(samples.count)
        for s in samples {
            xs.append(Self.quantize(s.x)); ys.append(Self.quantize(s.y))
            dts.append(Int32(clamping: s.t &- startTime))
            ps.append(UInt16(max(0, min(Self.pressureLevels, (s.f * Self.pressureLevels).rounded()))))
        }
        store(xs: xs, ys: ys, dts: dts, ps: ps)
    }

    /// Builds a stroke from already-quantised arrays (file decoding).
    init(id: String, pointerType: PointerType, pointerId: Int, tool: String, color: String, width: Float,
         blockId: String?, seq: Int64, startTime: Int64, xs: [Int32], ys: [Int32], dts: [Int32], ps: [UInt16]) {
        self.id = id; self.pointerType = pointerType; self.pointerId = pointerId; self.tool = tool
        self.color = color; self.width = width; self.blockId = blockId; self.seq = seq; self.startTime = startTime
        store(xs: xs, ys: ys, dts: dts, ps: ps)
    }

    /// Millimetres to the stored unit (1/100 mm), rounded to nearest.
    public static func quantize(_ mm: Double) -> Int32 {
        Int32(clamping: Int64((mm * unitsPerMillimetre).rounded()))
    }

    private mutating func store(xs: [Int32], ys: [Int32], dts: [Int32], ps: [UInt16]) {
        let n = min(xs.count, ys.count, dts.count, ps.count)
        guard n > 0, let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return }
        minX = x0; maxX = x1; minY = y0; maxY = y1
        let fits = Int64(x1) - Int64(x0) <= Int64(UInt16.max) && Int64(y1) - Int64(y0) <= Int64(UInt16.max)
            && dts.allSatisfy { $0 >= 0 && $0 <= Int32(UInt16.max) }
        guard fits else {
            wide = WideSamples(xs: Array(xs.prefix(n)), ys: Array(ys.prefix(n)), dts: Array(dts.prefix(n)), ps: Array(ps.prefix(n)))
            return
        }
        // x - base then lies in -32768...32767 for any span up to 65535 (wrapping arithmetic
        // round-trips even where x0 + 32768 overflows).
        baseX = x0 &+ 32768
        baseY = y0 &+ 32768
        var out = [UInt16](repeating: 0, count: 4 * n)
        for i in 0..<n {
            out[i] = UInt16(bitPattern: Int16(truncatingIfNeeded: xs[i] &- baseX))
            out[n + i] = UInt16(bitPattern: Int16(truncatingIfNeeded: ys[i] &- baseY))
            out[2 * n + i] = UInt16(truncatingIfNeeded: dts[i])
            out[3 * n + i] = ps[i]
        }
        packed = out
    }

    public var count: Int { wide?.xs.count ?? packed.count / 4 }

    /// Stored (unmoved) coordinates and channels of sample i.
    @inline(__always) private func rawX(_ i: Int) -> Int32 {
        if let w = wide { return w.xs[i] }
        return baseX &+ Int32(Int16(bitPattern: packed[i]))
    }
    @inline(__always) private func rawY(_ i: Int) -> Int32 {
        if let w = wide { return w.ys[i] }
        return baseY &+ Int32(Int16(bitPattern: packed[packed.count / 4 + i]))
    }
    @inline(__always) private func rawDt(_ i: Int) -> Int32 {
        if let w = wide { return w.dts[i] }
        return Int32(packed[packed.count / 2 + i])
    }
    @inline(__always) private func rawP(_ i: Int) -> UInt16 {
        if let w = wide { return w.ps[i] }
        return packed[3 * (packed.count / 4) + i]
    }

    /// X coordinates in 1/100 mm.
    public var xs: [Int32] { (0..<count).map { rawX($0) &+ offsetX } }
    /// Y coordinates in 1/100 mm.
    public var ys: [Int32] { (0..<count).map { rawY($0) &+ offsetY } }
    /// Times in ms after `startTime`.
    public var dts: [Int32] { wide?.dts ?? (0..<count).map { rawDt($0) } }
    /// Pressures, 0...4095.
    public var ps: [UInt16] { wide?.ps ?? Array(packed[(3 * (packed.count / 4))...]) }

    /// Bounds of the samples in millimetres (zero for an empty stroke).
    public var bounds: Rect {
        guard count > 0 else { return .zero }
        let u = Self.unitsPerMillimetre
        return Rect(x: Double(minX &+ offsetX) / u, y: Double(minY &+ offsetY) / u,
                    // In Int64: a file may hold any Int32 coordinates, and their span can exceed Int32.
                    width: Double(Int64(maxX) - Int64(minX)) / u, height: Double(Int64(maxY) - Int64(minY)) / u)
    }

    /// Bounds in 1/100 mm: exact, for indexes that must find a stroke again after it moved.
    public var unitBounds: (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) {
        (minX &+ offsetX, minY &+ offsetY, maxX &+ offsetX, maxY &+ offsetY)
    }

    public subscript(i: Int) -> InkSample {
        let u = Self.unitsPerMillimetre
        return InkSample(x: Double(rawX(i) &+ offsetX) / u, y: Double(rawY(i) &+ offsetY) / u, t: startTime &+ Int64(rawDt(i)),
                         f: Double(rawP(i)) / Self.pressureLevels)
    }

    public var samples: [InkSample] { (0..<count).map { self[$0] } }

    /// Moves the stroke by a whole number of 1/100 mm, in O(1).
    public mutating func translate(unitsX qx: Int32, unitsY qy: Int32) {
        guard count > 0 else { return }
        offsetX &+= qx
        offsetY &+= qy
    }

    /// A copy moved by (dx, dy) millimetres (rounded to 1/100 mm).
    public func translated(dx: Double, dy: Double) -> InkStroke {
        var s = self
        s.translate(unitsX: Self.quantize(dx), unitsY: Self.quantize(dy))
        return s
    }

    /// A copy holding only the samples in `range` (used by precise erasing).
    public func slice(_ range: Range<Int>, id newId: String) -> InkStroke {
        let off = rawDt(range.lowerBound)
        return InkStroke(id: newId, pointerType: pointerType, pointerId: pointerId, tool: tool, color: color,
                         width: width, blockId: blockId, seq: seq, startTime: startTime &+ Int64(off),
                         xs: range.map { rawX($0) &+ offsetX }, ys: range.map { rawY($0) &+ offsetY },
                         dts: range.map { rawDt($0) &- off }, ps: range.map { rawP($0) })
    }

    /// Equal when they hold the same samples and attributes, however they are stored.
    public static func == (a: InkStroke, b: InkStroke) -> Bool {
        guard a.id == b.id, a.pointerType == b.pointerType, a.pointerId == b.pointerId, a.tool == b.tool,
              a.color == b.color, a.width == b.width, a.blockId == b.blockId, a.seq == b.seq,
              a.startTime == b.startTime, a.count == b.count else { return false }
        if a.wide == nil, b.wide == nil, a.baseX &+ a.offsetX == b.baseX &+ b.offsetX, a.baseY &+ a.offsetY == b.baseY &+ b.offsetY {
            return a.packed == b.packed
        }
        for i in 0..<a.count where a.rawX(i) &+ a.offsetX != b.rawX(i) &+ b.offsetX || a.rawY(i) &+ a.offsetY != b.rawY(i) &+ b.offsetY
            || a.rawDt(i) != b.rawDt(i) || a.rawP(i) != b.rawP(i) {
            return false
        }
        return true
    }

    /// Approximate heap bytes held by the samples.
    public var memoryFootprint: Int { wide == nil ? count * 8 : count * 14 }
}
