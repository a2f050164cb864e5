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

/// A committed stroke: an immutable list of samples with its pointer and style.
///
/// Samples are stored quantised (x, y in 1/100 mm; pressure in 1/4095; time in ms relative to the
/// first sample) in separate arrays: 14 bytes a point keeps a 100,000-stroke document small, and the
/// file format stores exactly these integers, so save/open and export/import round trips are exact.
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
    /// Coordinates as drawn; `offsetX`/`offsetY` (same units) are added on every read.
    private var rawXs: [Int32]
    private var rawYs: [Int32]
    public private(set) var dts: [Int32]
    public private(set) var ps: [UInt16]
    /// How far the stroke was moved since it was drawn, in 1/100 mm.
    public private(set) var offsetX: Int32 = 0
    public private(set) var offsetY: Int32 = 0
    /// Extent of the raw coordinates, 1/100 mm (kept as integers so moves and undo stay exact).
    private var minX: Int32 = 0, minY: Int32 = 0, maxX: Int32 = 0, maxY: Int32 = 0

    public init(id: String, pointerType: PointerType = .pen, pointerId: Int = -1, tool: String = "pen",
                color: String = "", width: Float = 0, blockId: String? = nil, seq: Int64 = 0, samples: [InkSample]) {
        self.id = id; self.pointerType = pointerType; self.pointerId = pointerId; self.tool = tool
        self.color = color; self.width = width; self.blockId = blockId; self.seq = seq
        self.startTime = samples.first?.t ?? 0
        rawXs = []; rawYs = []; dts = []; ps = []
        rawXs.reserveCapacity(samples.count); rawYs.reserveCapacity(samples.count)
        dts.reserveCapacity(samples.count); ps.reserveCapacity(samples.count)
        for s in samples {
            rawXs.append(Self.quantize(s.x)); rawYs.append(Self.quantize(s.y))
            dts.append(Int32(clamping: s.t &- startTime))
            ps.append(UInt16(max(0, min(Self.pressureLevels, (s.f * Self.pressureLevels).rounded()))))
        }
        recomputeExtent()
    }

    /// Builds a stroke from already-quantised arrays (file decoding).
    init(id: String, pointerType: PointerType, pointerId: Int, tool: String, color: String, width: Float,
         blockId: String?, seq: Int64, startTime: Int64, xs: [Int32], ys: [Int32], dts: [Int32], ps: [UInt16]) {
        self.id = id; self.pointerType = pointerType; self.pointerId = pointerId; self.tool = tool
        self.color = color; self.width = width; self.blockId = blockId; self.seq = seq; self.startTime = startTime
        self.rawXs = xs; self.rawYs = ys; self.dts = dts; self.ps = ps
        recomputeExtent()
    }

    /// Millimetres to the stored unit (1/100 mm), rounded to nearest.
    public static func quantize(_ mm: Double) -> Int32 {
        Int32(clamping: Int64((mm * unitsPerMillimetre).rounded()))
    }

    private mutating func recomputeExtent() {
        guard let x0 = rawXs.min(), let x1 = rawXs.max(), let y0 = rawYs.min(), let y1 = rawYs.max() else {
            minX = 0; minY = 0; maxX = 0; maxY = 0; offsetX = 0; offsetY = 0; return
        }
        minX = x0; maxX = x1; minY = y0; maxY = y1
    }

    /// X coordinates in 1/100 mm.
    public var xs: [Int32] { offsetX == 0 ? rawXs : rawXs.map { $0 &+ offsetX } }
    /// Y coordinates in 1/100 mm.
    public var ys: [Int32] { offsetY == 0 ? rawYs : rawYs.map { $0 &+ offsetY } }

    /// Bounds of the samples in millimetres (zero for an empty stroke).
    public var bounds: Rect {
        guard !rawXs.isEmpty else { return .zero }
        let u = Self.unitsPerMillimetre
        return Rect(x: Double(minX &+ offsetX) / u, y: Double(minY &+ offsetY) / u,
                    width: Double(maxX - minX) / u, height: Double(maxY - minY) / u)
    }

    /// Bounds in 1/100 mm: exact, for indexes that must find a stroke again after it moved.
    public var unitBounds: (minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) {
        (minX &+ offsetX, minY &+ offsetY, maxX &+ offsetX, maxY &+ offsetY)
    }

    public var count: Int { rawXs.count }

    public subscript(i: Int) -> InkSample {
        let u = Self.unitsPerMillimetre
        return InkSample(x: Double(rawXs[i] &+ offsetX) / u, y: Double(rawYs[i] &+ offsetY) / u, t: startTime &+ Int64(dts[i]),
                         f: Double(ps[i]) / Self.pressureLevels)
    }

    public var samples: [InkSample] { (0..<count).map { self[$0] } }

    /// Moves the stroke by a whole number of 1/100 mm, in O(1).
    public mutating func translate(unitsX qx: Int32, unitsY qy: Int32) {
        guard !rawXs.isEmpty else { return }
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
        let first = range.lowerBound
        let t0 = startTime &+ Int64(dts[first])
        let off = dts[first]
        return InkStroke(id: newId, pointerType: pointerType, pointerId: pointerId, tool: tool, color: color,
                         width: width, blockId: blockId, seq: seq, startTime: t0,
                         xs: rawXs[range].map { $0 &+ offsetX }, ys: rawYs[range].map { $0 &+ offsetY },
                         dts: dts[range].map { $0 &- off }, ps: Array(ps[range]))
    }

    /// Equal when they hold the same samples and attributes, however the coordinates are split
    /// between points and offset.
    public static func == (a: InkStroke, b: InkStroke) -> Bool {
        guard a.id == b.id, a.pointerType == b.pointerType, a.pointerId == b.pointerId, a.tool == b.tool,
              a.color == b.color, a.width == b.width, a.blockId == b.blockId, a.seq == b.seq,
              a.startTime == b.startTime, a.dts == b.dts, a.ps == b.ps, a.rawXs.count == b.rawXs.count else { return false }
        if a.offsetX == b.offsetX, a.offsetY == b.offsetY { return a.rawXs == b.rawXs && a.rawYs == b.rawYs }
        for i in 0..<a.rawXs.count {
            if a.rawXs[i] &+ a.offsetX != b.rawXs[i] &+ b.offsetX || a.rawYs[i] &+ a.offsetY != b.rawYs[i] &+ b.offsetY { return false }
        }
        return true
    }

    /// Approximate heap bytes held by the sample arrays.
    public var memoryFootprint: Int { count * 14 }
}
