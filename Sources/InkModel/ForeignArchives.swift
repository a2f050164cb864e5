import CQuireZlib
import Foundation

/// Archives of other programs' files (Xournal++'s zip-packaged `.xopp`), read with the same
/// checks as Quire's own packages: entry paths, sizes while inflating, CRCs.
public enum ZipEntries {
    /// True when `data` starts like a zip archive.
    public static func isZip(_ data: Data) -> Bool {
        data.count >= 4 && data.prefix(4).elementsEqual([0x50, 0x4B, 0x03, 0x04])
    }

    /// The file entries of the zip archive at `path` by name: all of them, or those in `only`.
    public static func read(path: String, only: Set<String>? = nil, limits: ArchiveLimits = ArchiveLimits()) throws -> [String: Data] {
        try PackageFormat.readEntries(path: path, limits: limits, only: only)
    }
}

extension Zlib {
    /// `data` as one gzip member (zlib, default level).
    public static func compress(_ data: Data) throws -> Data {
        var stream = z_stream()
        // deflateInit2 is a macro; its function takes the library version and the stream's size.
        let ok = deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                               zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard ok == Z_OK else { throw QuireError(.exportError, "cannot initialise zlib (\(ok))") }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            while true {
                let r: Int32 = chunk.withUnsafeMutableBufferPointer { outBuf in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = uInt(outBuf.count)
                    return deflate(&stream, Z_FINISH)
                }
                out.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if r != Z_OK { return r }
            }
        }
        guard status == Z_STREAM_END else { throw QuireError(.exportError, "gzip compression failed (zlib \(status))") }
        return out
    }
}
