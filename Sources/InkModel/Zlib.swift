import CQuireZlib
import Foundation

/// zlib, the one wrapper of it: gzip decoding (the handwriting data) and encoding (Xournal++
/// files), and CRC-32 (package entries).
public enum Zlib {
    /// Inflates gzip data (several concatenated members too); other data comes back unchanged.
    /// The output is capped so that a hostile file cannot exhaust memory.
    public static func decompress(_ data: Data, maxBytes: Int = 1 << 30) throws -> Data {
        guard data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B else { return data }
        var stream = z_stream()
        guard quire_inflateInit2(&stream, 15 + 32) == Z_OK else { throw QuireError(.importError, "cannot initialise zlib") }
        defer { inflateEnd(&stream) }
        let (out, status) = pump(&stream, data, step: { inflate(&$0, Z_NO_FLUSH) }) { r, stream, produced in
            if produced > maxBytes { return Z_MEM_ERROR }
            if r == Z_STREAM_END {
                // Concatenated gzip members: start the next one if input remains.
                if stream.avail_in > 0 { inflateReset(&stream); return nil }
                return Z_STREAM_END
            }
            if r != Z_OK { return r }
            return stream.avail_in == 0 && stream.avail_out != 0 ? Z_BUF_ERROR : nil
        }
        guard status == Z_STREAM_END else {
            throw QuireError(.importError, status == Z_MEM_ERROR ? "gzip data inflates beyond \(maxBytes) bytes" : "gzip data is corrupt or truncated (zlib \(status))")
        }
        return out
    }

    /// CRC-32 of `data`, continuing from `crc` (0 to start).
    static func crc32(_ data: Data, continuing crc: UInt32) -> UInt32 {
        data.withUnsafeBytes { b in
            // A null buffer would make zlib return its initial value instead of continuing.
            guard let p = b.baseAddress, b.count > 0 else { return crc }
            return UInt32(truncatingIfNeeded: crc32_z(UInt(crc), p.assumingMemoryBound(to: UInt8.self), b.count))
        }
    }
}

/// The name gzip decoding had first.
public typealias Gzip = Zlib

extension Zlib {
    /// `data` as one gzip member (zlib, default level).
    public static func compress(_ data: Data) throws -> Data {
        var stream = z_stream()
        // deflateInit2 is a macro; its function takes the library version and the stream's size.
        let ok = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                               zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard ok == Z_OK else { throw QuireError(.exportError, "cannot initialise zlib (\(ok))") }
        defer { deflateEnd(&stream) }
        let (out, status) = pump(&stream, data, step: { deflate(&$0, Z_FINISH) }) { r, _, _ in r == Z_OK ? nil : r }
        guard status == Z_STREAM_END else { throw QuireError(.exportError, "gzip compression failed (zlib \(status))") }
        return out
    }

    /// Feeds `data` through `stream` in 64 KB output chunks: `step` runs zlib once, and `next`
    /// reads its result (and the bytes produced so far) and returns the final status, or nil to
    /// go on. Inflating and deflating share it.
    private static func pump(_ stream: inout z_stream, _ data: Data, step: (inout z_stream) -> Int32,
                             next: (Int32, inout z_stream, Int) -> Int32?) -> (Data, Int32) {
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = [UInt8](data)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            while true {
                let r: Int32 = chunk.withUnsafeMutableBufferPointer { outBuf in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = uInt(outBuf.count)
                    return step(&stream)
                }
                out.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if let s = next(r, &stream, out.count) { return s }
            }
        }
        return (out, status)
    }
}
