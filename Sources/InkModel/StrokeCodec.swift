import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the stroke encoder writes: a buffer, or a counter that measures the encoding first (a zip
/// entry declares its size before its bytes are streamed).
protocol ByteSink: ~Copyable {
    mutating func reserve(_ n: Int)
    mutating func put(_ b: UInt8)
    mutating func putVarint(_ v: UInt64)
    mutating func putF32(_ f: Float)
    mutating func string(_ s: String)
}

extension ByteSink where Self: ~Copyable {
    @inline(__always) mutating func putZigzag(_ v: Int64) { putVarint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }
}

/// Counts what the encoder would write.
struct ByteCounter: ByteSink {
    private(set) var count = 0
    func reserve(_ n: Int) {}
    @inline(__always) mutating func put(_ b: UInt8) { count += 1 }
    @inline(__always) mutating func putVarint(_ v: UInt64) { count += v == 0 ? 1 : (70 - v.leadingZeroBitCount) / 7 }
    mutating func putF32(_ f: Float) { count += 4 }
    mutating func string(_ s: String) {
        let n = s.utf8.count
        putVarint(UInt64(n))
        count += n
    }
}

/// A growable byte buffer for the stroke encoder, which writes four varints per point of a
/// document on every save: callers reserve room once per stroke, so the `put` methods store bytes
/// without a capacity check each. The storage comes from malloc so `data()` can hand it to `Data`
/// without a copy (and growing a large buffer is an mremap, not a copy).
struct ByteBuffer: ByteSink, ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 64)
        guard let p = malloc(self.capacity) else { fatalError("out of memory: \(self.capacity) bytes") }
        base = p.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    /// Makes room for `n` more bytes; every `put` relies on an earlier reservation.
    mutating func reserve(_ n: Int) {
        guard n > capacity - count else { return }
        let grown = Swift.max(capacity + capacity / 2, count + n)
        guard let p = realloc(base, grown) else { fatalError("out of memory: \(grown) bytes") }
        base = p.assumingMemoryBound(to: UInt8.self)
        capacity = grown
    }

    @inline(__always) mutating func put(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    /// Unsigned LEB128: at most 10 bytes.
    @inline(__always) mutating func putVarint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: v) | 0x80
            count += 1
            v >>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: v)
        count += 1
    }

    mutating func putF32(_ f: Float) {
        let b = f.bitPattern
        for i in 0..<4 { put(UInt8(truncatingIfNeeded: b >> (8 * UInt32(i)))) }
    }

    /// A length-prefixed UTF-8 string; reserves its own room (strings have no useful bound).
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u in
            reserve(10 + u.count)
            putVarint(UInt64(u.count))
            if let src = u.baseAddress { (base + count).update(from: src, count: u.count) }
            count += u.count
        }
    }

    /// Copies out the first `n` bytes (at most `count`) and moves the rest to the front.
    mutating func take(_ n: Int) -> Data {
        let n = Swift.min(n, count)
        let out = Data(bytes: base, count: n)
        memmove(base, base + n, count - n)
        count -= n
        return out
    }

    /// The bytes written, handed over without a copy.
    consuming func data() -> Data {
        let p = UnsafeMutableRawPointer(base), n = count
        discard self
        guard n > 0 else { free(p); return Data() }
        // Give back the unused tail before Data holds the buffer for as long as it lives.
        let shrunk = realloc(p, n) ?? p
        return Data(bytesNoCopy: shrunk, count: n, deallocator: .free)
    }
}

/// Reads what `ByteBuffer` wrote, in place; every read is bounds-checked and throws on malformed
/// data. Valid only inside the `withUnsafeBytes` call that made it.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var pos = 0
    let what: String

    init(_ bytes: UnsafeRawBufferPointer, what: String) { self.bytes = bytes; self.what = what }

    var remaining: Int { bytes.count - pos }

    func fail(_ why: String, at byte: Int? = nil) -> QuireError {
        QuireError(.corruptPackage, "\(what): \(why) at byte \(byte ?? pos)")
    }

    @inline(__always) mutating func u8() throws -> UInt8 {
        guard pos < bytes.count else { throw fail("unexpected end of data") }
        defer { pos += 1 }
        return bytes[pos]
    }

    @inline(__always) mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8()
            guard shift < 64 else { throw fail("varint too long") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    @inline(__always) mutating func zigzag() throws -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// Reads `count` zigzag deltas and returns their running sums, each checked to fit Int32: the
    /// loop over every point of a file, so it keeps its position in a register and writes the
    /// array in place. Throws what the one-value reads would, at the same byte.
    mutating func deltaChannel(count: Int) throws -> [Int32] {
        // An empty array built in place writes its count into the storage all empty arrays share,
        // a race under ThreadSanitizer when two threads decode empty channels at once.
        guard count > 0 else { return [] }
        var p = pos
        defer { pos = p }
        let end = bytes.count
        return try [Int32](unsafeUninitializedCapacity: count) { out, initialized in
            var prev: Int64 = 0
            for i in 0..<count {
                var u: UInt64 = 0, shift: UInt64 = 0
                while true {
                    guard p < end else { throw fail("unexpected end of data", at: p) }
                    let b = bytes[p]
                    p += 1
                    guard shift < 64 else { throw fail("varint too long", at: p) }
                    u |= UInt64(b & 0x7F) << shift
                    if b & 0x80 == 0 { break }
                    shift += 7
                }
                prev &+= Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
                guard let v = Int32(exactly: prev) else { throw fail("coordinate out of range", at: p) }
                out[i] = v
            }
            initialized = count
        }
    }

    mutating func count(max: Int) throws -> Int {
        let v = try varint()
        guard v <= UInt64(max) else { throw fail("count \(v) exceeds what the data can hold") }
        return Int(v)
    }

    mutating func string() throws -> String {
        let n = try count(max: remaining)
        defer { pos += n }
        // Typed and contiguous, so validation takes the standard library's fast path.
        let s = UnsafeRawBufferPointer(rebasing: bytes[pos..<pos + n]).withMemoryRebound(to: UInt8.self) {
            String(validating: $0, as: UTF8.self)
        }
        guard let s else { throw fail("invalid UTF-8") }
        return s
    }

    mutating func f32() throws -> Float {
        var b: UInt32 = 0
        for i in 0..<4 { b |= UInt32(try u8()) << (8 * UInt32(i)) }
        return Float(bitPattern: b)
    }
}

/// The compact binary form of a part's strokes (`strokes.bin`), documented in docs/FORMAT.md.
public enum StrokeCodec {
    static let magic: [UInt8] = Array("QSTK".utf8)
    static let version: UInt8 = 1

    /// Encodes strokes in the package's compact binary form.
    public static func encode(_ strokes: [InkStroke]) -> Data {
        var w = ByteBuffer(capacity: strokes.reduce(16) { $0 + 48 + $1.count * 5 })
        writeHeader(count: strokes.count, into: &w)
        for s in strokes { write(s, into: &w) }
        return w.data()
    }

    /// The exact size of `encode(strokes)`, without building it.
    static func encodedSize(_ strokes: [InkStroke]) -> Int {
        encodedSize(count: strokes.count) { strokes[$0] }
    }

    /// The exact size of the encoding of `count` strokes, the i-th given by `stroke(i)`.
    static func encodedSize(count: Int, stroke: (Int) -> InkStroke) -> Int {
        var c = ByteCounter()
        writeHeader(count: count, into: &c)
        for i in 0..<count { write(stroke(i), into: &c) }
        return c.count
    }

    /// `encode(strokes)` handed out in order, piece by piece, encoding only as far as asked: a save
    /// then holds a buffer's worth of a part's stroke data instead of all of it.
    final class Stream {
        private let count: Int
        private let stroke: (Int) -> InkStroke
        private var next = 0
        private var buffer: ByteBuffer
        private var handedOut = 0

        /// Streams `count` strokes, the i-th given by `stroke(i)` (asked for once, in order).
        init(count: Int, stroke: @escaping (Int) -> InkStroke) {
            self.count = count
            self.stroke = stroke
            buffer = ByteBuffer(capacity: 1 << 16)
            writeHeader(count: count, into: &buffer)
        }

        convenience init(_ strokes: [InkStroke]) {
            self.init(count: strokes.count) { strokes[$0] }
        }

        /// The `count` bytes at `position`, which must follow the previous read.
        func read(position: Int, count: Int) throws -> Data {
            guard position == handedOut else {
                throw QuireError(.ioError, "stroke data read out of order (at \(position), expected \(handedOut))")
            }
            while buffer.count < count, next < self.count {
                write(stroke(next), into: &buffer)
                next += 1
            }
            let out = buffer.take(count)
            handedOut += out.count
            return out
        }
    }

    static func writeHeader<W: ByteSink & ~Copyable>(count: Int, into w: inout W) {
        w.reserve(magic.count + 11)
        for b in magic { w.put(b) }
        w.put(version)
        w.putVarint(UInt64(count))
    }

    /// Appends one stroke. The points are read from the stroke's stored form in place: building
    /// its coordinate arrays would allocate four arrays per stroke on every save.
    static func write<W: ByteSink & ~Copyable>(_ s: InkStroke, into w: inout W) {
        w.string(s.id)
        w.reserve(64)
        w.put(s.pointerType.code)
        if case .custom(let n) = s.pointerType { w.putZigzag(Int64(n)) }
        w.putZigzag(Int64(s.pointerId))
        w.string(s.tool)
        w.string(s.color)
        w.reserve(4)
        w.putF32(s.width)
        w.string(s.blockId ?? "")
        let n = s.count
        // A delta of two Int32 values zigzags into at most 34 bits (5 bytes); of two UInt16, 3.
        w.reserve(30 + 18 * n)
        w.putZigzag(s.seq)
        w.putZigzag(s.startTime)
        w.putVarint(UInt64(n))
        // Channel by channel, delta coded: neighbouring deltas look alike, which deflate likes.
        @inline(__always) func channel(_ w: inout W, _ value: (Int) -> Int32) {
            var prev: Int64 = 0
            for i in 0..<n {
                let v = Int64(value(i))
                w.putZigzag(v - prev)
                prev = v
            }
        }
        let dx = s.offsetX, dy = s.offsetY
        if let wide = s.wide {
            wide.xs.withUnsafeBufferPointer { b in channel(&w) { b[$0] &+ dx } }
            wide.ys.withUnsafeBufferPointer { b in channel(&w) { b[$0] &+ dy } }
            wide.dts.withUnsafeBufferPointer { b in channel(&w) { b[$0] } }
            wide.ps.withUnsafeBufferPointer { b in channel(&w) { Int32(b[$0]) } }
        } else {
            // Wrapping adds, as the stroke's own accessors use: base + offset + bits is exact mod 2^32.
            let bx = s.baseX &+ dx, by = s.baseY &+ dy
            s.packed.withUnsafeBufferPointer { p in
                channel(&w) { bx &+ Int32(Int16(bitPattern: p[$0])) }
                channel(&w) { by &+ Int32(Int16(bitPattern: p[n + $0])) }
                channel(&w) { Int32(p[2 * n + $0]) }
                channel(&w) { Int32(p[3 * n + $0]) }
            }
        }
    }

    /// Decodes strokes; malformed data throws `corruptPackage` naming `what`.
    public static func decode(_ data: Data, what: String) throws -> [InkStroke] {
        try data.withUnsafeBytes { try decode(ByteReader($0, what: what)) }
    }

    private static func decode(_ reader: ByteReader) throws -> [InkStroke] {
        var r = reader
        for m in magic { guard try r.u8() == m else { throw r.fail("not a Quire stroke file (bad magic)") } }
        let v = try r.u8()
        guard v == version else { throw QuireError(.unsupportedVersion, "\(r.what): stroke format version \(v) is not supported (this Quire reads version \(version))") }
        // Each stroke needs at least 16 bytes: this caps the count before allocating anything.
        let n = try r.count(max: r.remaining / 16)
        var out: [InkStroke] = []
        out.reserveCapacity(n)
        var ids = Set<String>()
        for _ in 0..<n {
            let id = try r.string()
            guard !id.isEmpty, ids.insert(id).inserted else { throw r.fail("empty or duplicate stroke id '\(id)'") }
            let code = try r.u8()
            let type: PointerType
            switch code {
            case 0: type = .pen
            case 1: type = .touch
            case 2: type = .eraser
            case 3: type = .mouse
            case 4: type = .custom(Int(truncatingIfNeeded: try r.zigzag()))
            default: throw r.fail("unknown pointer type \(code)")
            }
            let pid = Int(truncatingIfNeeded: try r.zigzag())
            let tool = try r.string(), color = try r.string()
            let width = try r.f32()
            guard width.isFinite, width >= 0 else { throw r.fail("invalid stroke width") }
            let block = try r.string()
            let seq = try r.zigzag(), start = try r.zigzag()
            // Each point takes at least 4 bytes (one per channel).
            let count = try r.count(max: r.remaining / 4)
            let xs = try r.deltaChannel(count: count), ys = try r.deltaChannel(count: count)
            let dts = try r.deltaChannel(count: count), pr = try r.deltaChannel(count: count)
            var ps = [UInt16](); ps.reserveCapacity(count)
            for p in pr {
                guard let q = UInt16(exactly: p), Double(q) <= InkStroke.pressureLevels else { throw r.fail("pressure out of range") }
                ps.append(q)
            }
            out.append(InkStroke(id: id, pointerType: type, pointerId: pid, tool: tool, color: color, width: width,
                                 blockId: block.isEmpty ? nil : block, seq: seq, startTime: start,
                                 xs: xs, ys: ys, dts: dts, ps: ps))
        }
        guard r.remaining == 0 else { throw r.fail("trailing bytes") }
        return out
    }
}
