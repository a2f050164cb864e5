import Foundation

/// Appends little-endian integers and LEB128 varints to a byte buffer.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    mutating func zigzag(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func string(_ s: String) {
        let u = Array(s.utf8)
        varint(UInt64(u.count))
        bytes.append(contentsOf: u)
    }

    mutating func f32(_ f: Float) {
        let b = f.bitPattern
        for i in 0..<4 { bytes.append(UInt8((b >> (8 * UInt32(i))) & 0xFF)) }
    }
}

/// Reads what `ByteWriter` wrote; every read is bounds-checked and throws on malformed data.
struct ByteReader {
    let bytes: [UInt8]
    var pos = 0
    let what: String

    init(_ data: Data, what: String) { bytes = [UInt8](data); self.what = what }

    var remaining: Int { bytes.count - pos }

    func fail(_ why: String) -> QuireError { QuireError(.corruptPackage, "\(what): \(why) at byte \(pos)") }

    mutating func u8() throws -> UInt8 {
        guard pos < bytes.count else { throw fail("unexpected end of data") }
        defer { pos += 1 }
        return bytes[pos]
    }

    mutating func varint() throws -> UInt64 {
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

    mutating func zigzag() throws -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    mutating func count(max: Int) throws -> Int {
        let v = try varint()
        guard v <= UInt64(max) else { throw fail("count \(v) exceeds what the data can hold") }
        return Int(v)
    }

    mutating func string() throws -> String {
        let n = try count(max: remaining)
        defer { pos += n }
        guard let s = String(validating: bytes[pos..<pos + n], as: UTF8.self) else { throw fail("invalid UTF-8") }
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
        var w = ByteWriter()
        w.bytes.reserveCapacity(strokes.reduce(64) { $0 + 24 + $1.count * 6 })
        w.bytes.append(contentsOf: magic)
        w.u8(version)
        w.varint(UInt64(strokes.count))
        for s in strokes {
            w.string(s.id)
            w.u8(s.pointerType.code)
            if case .custom(let n) = s.pointerType { w.zigzag(Int64(n)) }
            w.zigzag(Int64(s.pointerId))
            w.string(s.tool)
            w.string(s.color)
            w.f32(s.width)
            w.string(s.blockId ?? "")
            w.zigzag(s.seq)
            w.zigzag(s.startTime)
            w.varint(UInt64(s.count))
            // Channel by channel, delta coded: neighbouring deltas look alike, which deflate likes.
            var prev: Int32 = 0
            for v in s.xs { w.zigzag(Int64(v) - Int64(prev)); prev = v }
            prev = 0
            for v in s.ys { w.zigzag(Int64(v) - Int64(prev)); prev = v }
            prev = 0
            for v in s.dts { w.zigzag(Int64(v) - Int64(prev)); prev = v }
            var prevP: Int32 = 0
            for v in s.ps { w.zigzag(Int64(v) - Int64(prevP)); prevP = Int32(v) }
        }
        return Data(w.bytes)
    }

    /// Decodes strokes; malformed data throws `corruptPackage` naming `what`.
    public static func decode(_ data: Data, what: String) throws -> [InkStroke] {
        var r = ByteReader(data, what: what)
        for m in magic { guard try r.u8() == m else { throw r.fail("not a Quire stroke file (bad magic)") } }
        let v = try r.u8()
        guard v == version else { throw QuireError(.unsupportedVersion, "\(what): stroke format version \(v) is not supported (this Quire reads version \(version))") }
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
            func channel() throws -> [Int32] {
                var a = [Int32](); a.reserveCapacity(count)
                var prev: Int64 = 0
                for _ in 0..<count {
                    prev &+= try r.zigzag()
                    guard let v = Int32(exactly: prev) else { throw r.fail("coordinate out of range") }
                    a.append(v)
                }
                return a
            }
            let xs = try channel(), ys = try channel(), dts = try channel(), pr = try channel()
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
