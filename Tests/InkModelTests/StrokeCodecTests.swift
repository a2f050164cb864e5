import Foundation
import Testing
@testable import InkModel

/// The plain byte writer the stroke encoder used before it wrote in place; kept as the reference
/// the fast encoder must match byte for byte, and for hand-built hostile inputs.
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

/// strokes.bin as docs/FORMAT.md describes it, written plainly through the public channel arrays.
func referenceEncode(_ strokes: [InkStroke]) -> Data {
    var w = ByteWriter()
    w.bytes.append(contentsOf: Array("QSTK".utf8))
    w.u8(1)
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

@Suite struct StrokeCodecTests {
    /// Strokes of every storage form and attribute the format carries.
    static func variedStrokes() -> [InkStroke] {
        func samples(_ n: Int, x: Double, y: Double, dx: Double, dy: Double, dt: Int64, t0: Int64 = 1_700_000_000_000) -> [InkSample] {
            (0..<n).map { i in
                let d = Double(i)
                return InkSample(x: x + d * dx + sin(d) * 0.7, y: y + d * dy, t: t0 + Int64(i) * dt, f: Double(i % 7) / 6)
            }
        }
        var out: [InkStroke] = []
        out.append(InkStroke(id: "pen", pointerType: .pen, pointerId: 3, tool: "pen", seq: 1,
                             samples: samples(50, x: 10, y: 20, dx: 0.37, dy: 0.11, dt: 7)))
        // Negative coordinates, a colour, a width, a block.
        out.append(InkStroke(id: "touch", pointerType: .touch, pointerId: 0, tool: "highlighter", color: "#ff000080",
                             width: 2.5, blockId: "b12", seq: 2, samples: samples(30, x: -40, y: -0.05, dx: -1.3, dy: 0.02, dt: 16)))
        out.append(InkStroke(id: "custom", pointerType: .custom(-7), pointerId: Int(Int32.max) + 9, tool: "pen",
                             seq: -3, samples: samples(5, x: 0, y: 0, dx: 0.01, dy: -0.01, dt: 1, t0: -20)))
        out.append(InkStroke(id: "custom-big", pointerType: .custom(1 << 40), pointerId: -1, seq: Int64.max,
                             samples: samples(3, x: 1, y: 1, dx: 1, dy: 1, dt: 1, t0: Int64.min / 2)))
        out.append(InkStroke(id: "eraser", pointerType: .eraser, seq: 5, samples: samples(2, x: 3, y: 3, dx: 0, dy: 0, dt: 0)))
        out.append(InkStroke(id: "mouse·ünï", pointerType: .mouse, tool: "stylo", blockId: "ブロック", seq: 6,
                             samples: samples(1, x: 7, y: 8, dx: 0, dy: 0, dt: 0)))
        out.append(InkStroke(id: "empty", seq: 7, samples: []))
        // Wide storage: wider than 327 mm, longer than 65 s, and deltas spanning the whole Int32 range.
        out.append(InkStroke(id: "wide-span", seq: 8, samples: samples(40, x: -200, y: 5, dx: 25, dy: -3, dt: 9)))
        out.append(InkStroke(id: "wide-time", seq: 9, samples: samples(20, x: 5, y: 5, dx: 0.1, dy: 0.1, dt: 5_000)))
        out.append(InkStroke(id: "wide-extremes", seq: 10, samples: [
            InkSample(x: -3e7, y: 3e7, t: 0, f: 0), InkSample(x: 3e7, y: -3e7, t: Int64(Int32.max), f: 1),
            InkSample(x: -3e7, y: 0, t: Int64(Int32.max), f: 0.5),
        ]))
        // Moved strokes keep their points and an offset: the encoder must apply it, wrapping as the accessors do.
        var moved = InkStroke(id: "moved", seq: 11, samples: samples(25, x: 100, y: 100, dx: 0.5, dy: 0.5, dt: 3))
        moved.translate(unitsX: -123_456, unitsY: 7_890)
        out.append(moved)
        var movedWide = out[7]
        movedWide.id = "moved-wide"
        movedWide.translate(unitsX: Int32.max, unitsY: Int32.min)
        out.append(movedWide)
        out.append(out[0].slice(10..<20, id: "slice"))
        return out
    }

    @Test func encodeMatchesTheReferenceEncoderByteForByte() throws {
        let strokes = Self.variedStrokes()
        #expect(strokes.contains { $0.wide != nil } && strokes.contains { $0.wide == nil && $0.count > 0 })
        #expect(StrokeCodec.encode(strokes) == referenceEncode(strokes))
        for s in strokes { #expect(StrokeCodec.encode([s]) == referenceEncode([s]), "stroke \(s.id)") }
        #expect(StrokeCodec.encode([]) == referenceEncode([]))
    }

    @Test func encodeGrowsPastAPoorCapacityGuess() {
        // Long strings are not part of the up-front estimate: the buffer must grow for them.
        let long = String(repeating: "é", count: 5_000)
        let s = InkStroke(id: long, tool: long, color: long, blockId: long, seq: 1,
                          samples: [InkSample(x: 1, y: 2, t: 3, f: 0.5)])
        #expect(StrokeCodec.encode([s, s.translated(dx: 1, dy: 1).renamed("b")]) == referenceEncode([s, s.translated(dx: 1, dy: 1).renamed("b")]))
    }

    @Test func encodedBytesArePinned() {
        // Two points: (0.01, -0.02) mm at t 1000 with no pressure, (0.03, -0.02) at 1005 with full pressure.
        let s = InkStroke(id: "s1", seq: 1, samples: [InkSample(x: 0.01, y: -0.02, t: 1000, f: 0),
                                                      InkSample(x: 0.03, y: -0.02, t: 1005, f: 1)])
        let hex = StrokeCodec.encode([s]).map { String(format: "%02x", $0) }.joined()
        #expect(hex == "5153544b" + "01" + "01" + "027331" + "00" + "01" + "0370656e" + "00" + "00000000" + "00"
                + "02" + "d00f" + "02" + "0204" + "0300" + "000a" + "00fe3f")
    }

    @Test func encodedSizeIsExact() {
        let strokes = Self.variedStrokes()
        #expect(StrokeCodec.encodedSize(strokes) == StrokeCodec.encode(strokes).count)
        #expect(StrokeCodec.encodedSize([]) == StrokeCodec.encode([]).count)
        for s in strokes { #expect(StrokeCodec.encodedSize([s]) == StrokeCodec.encode([s]).count, "stroke \(s.id)") }
    }

    @Test(arguments: [1, 7, 100, 4096, 1 << 20]) func streamHandsOutTheEncodingInPieces(chunk: Int) throws {
        let strokes = Self.variedStrokes() + Self.variedStrokes().map { $0.renamed($0.id + "-2") }
        let whole = StrokeCodec.encode(strokes)
        let stream = StrokeCodec.Stream(strokes)
        var joined = Data()
        while joined.count < whole.count {
            let piece = try stream.read(position: joined.count, count: min(chunk, whole.count - joined.count))
            #expect(!piece.isEmpty)
            joined.append(piece)
        }
        #expect(joined == whole)
        #expect(try stream.read(position: joined.count, count: 10).isEmpty, "nothing past the end")
        // A reader that skips ahead gets an error, not other bytes.
        #expect(throws: QuireError.self) { try StrokeCodec.Stream(strokes).read(position: 5, count: 5) }
    }

    @Test func decodeRoundTripsEveryStorageForm() throws {
        let strokes = Self.variedStrokes()
        let back = try StrokeCodec.decode(StrokeCodec.encode(strokes), what: "test")
        #expect(back == strokes)
        #expect(back.map(\.xs) == strokes.map(\.xs) && back.map(\.ps) == strokes.map(\.ps))
        // Decoding from a slice of a larger buffer (Data with a non-zero start index).
        var padded = Data([9, 9, 9])
        padded.append(StrokeCodec.encode(strokes))
        #expect(try StrokeCodec.decode(padded.dropFirst(3), what: "test") == strokes)
    }
}

extension InkStroke {
    func renamed(_ newId: String) -> InkStroke {
        var s = self
        s.id = newId
        return s
    }
}
