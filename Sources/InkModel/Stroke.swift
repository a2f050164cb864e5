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
    public private(set) var xs: [Int32]
    public private(set) var ys: [Int32]
    public private(set) var dts: [Int32]
    public private(set) var ps: [UInt16]
    public private(set) var bounds: Rect

    public init(id: String, pointerType: PointerType = .pen, pointerId: Int = -1, tool: String = "pen",
                color: String = "", width: Float = 0, blockId: String? = nil, seq: Int64 = 0, samples: [InkSample]) {
        self.id = id; self.pointerType = pointerType; self.pointerId = pointerId; self.tool = tool
        self.color = color; self.width = width; self.blockId = blockId; self.seq = seq
        self.startTime = samples.first?.t ?? 0
        xs = []; ys = []; dts = []; ps = []
        xs.reserveCapacity(samples.count); ys.reserveCapacity(samples.count)
        dts.reserveCapacity(samples.count); ps.reserveCapacity(samples.count)
        bounds = .zero
        for s in samples {
            xs.append(Self.quantize(s.x)); ys.append(Self.quantize(s.y))
            dts.append(Int32(clamping: s.t &- startTime))
            ps.append(UInt16(max(0, min(Self.pressureLevels, (s.f * Self.pressureLevels).rounded()))))
        }
        recomputeBounds()
    }

    /// Builds a stroke from already-quantised arrays (file decoding).
    init(id: String, pointerType: PointerType, pointerId: Int, tool: String, color: String, width: Float,
         blockId: String?, seq: Int64, startTime: Int64, xs: [Int32], ys: [Int32], dts: [Int32], ps: [UInt16]) {
        self.id = id; self.pointerType = pointerType; self.pointerId = pointerId; self.tool = tool
        self.color = color; self.width = width; self.blockId = blockId; self.seq = seq; self.startTime = startTime
        self.xs = xs; self.ys = ys; self.dts = dts; self.ps = ps; self.bounds = .zero
        recomputeBounds()
    }

    static func quantize(_ mm: Double) -> Int32 {
        Int32(clamping: Int64((mm * unitsPerMillimetre).rounded()))
    }

    private mutating func recomputeBounds() {
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else {
            bounds = .zero; return
        }
        let u = Self.unitsPerMillimetre
        bounds = Rect(x: Double(minX) / u, y: Double(minY) / u,
                      width: Double(maxX - minX) / u, height: Double(maxY - minY) / u)
    }

    public var count: Int { xs.count }

    public subscript(i: Int) -> InkSample {
        let u = Self.unitsPerMillimetre
        return InkSample(x: Double(xs[i]) / u, y: Double(ys[i]) / u, t: startTime &+ Int64(dts[i]),
                         f: Double(ps[i]) / Self.pressureLevels)
    }

    public var samples: [InkSample] { (0..<count).map { self[$0] } }

    /// A copy moved by (dx, dy) millimetres.
    public func translated(dx: Double, dy: Double) -> InkStroke {
        var s = self
        let qx = Self.quantize(dx), qy = Self.quantize(dy)
        s.xs = xs.map { $0 &+ qx }
        s.ys = ys.map { $0 &+ qy }
        s.recomputeBounds()
        return s
    }

    /// A copy holding only the samples in `range` (used by precise erasing).
    public func slice(_ range: Range<Int>, id newId: String) -> InkStroke {
        let first = range.lowerBound
        let t0 = startTime &+ Int64(dts[first])
        let off = dts[first]
        return InkStroke(id: newId, pointerType: pointerType, pointerId: pointerId, tool: tool, color: color,
                         width: width, blockId: blockId, seq: seq, startTime: t0,
                         xs: Array(xs[range]), ys: Array(ys[range]), dts: dts[range].map { $0 &- off }, ps: Array(ps[range]))
    }

    /// Approximate heap bytes held by the sample arrays.
    public var memoryFootprint: Int { count * 14 }
}
