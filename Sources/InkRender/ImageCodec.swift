import Foundation
import InkModel

/// Decoded pixels: 0xAARRGGBB per pixel, premultiplied alpha (Cairo's ARGB32), row by row.
public struct DecodedImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt32]
    public init(width: Int, height: Int, pixels: [UInt32]) { self.width = width; self.height = height; self.pixels = pixels }

    /// The pixel at (x, y); 0 outside.
    public subscript(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return pixels[y * width + x]
    }
}

/// PNG and JPEG encoding and decoding for image blocks, exports, tests and tools.
///
/// Every decoder checks the pixel count announced by the file header against a cap before
/// allocating anything, so a small hostile file cannot make the renderer allocate gigabytes.
public enum ImageCodec {
    /// Default cap on decoded pixels (the `image.max-pixels` configuration default).
    public static let defaultMaxPixels = 40_000_000

    /// Decodes PNG bytes with Cairo.
    public static func decodePNG(_ data: Data, maxPixels: Int = defaultMaxPixels) throws -> DecodedImage {
        let s = try pngSurface(data, maxPixels: maxPixels)
        return DecodedImage(width: s.width, height: s.height, pixels: s.argbPixels())
    }

    /// Encodes pixels (0xAARRGGBB premultiplied, `width * height` of them) as PNG.
    public static func encodePNG(_ image: DecodedImage) throws -> Data {
        try surface(from: image).pngData()
    }

    /// Encodes pixels as a baseline JPEG (alpha is dropped: composite first). Quality 1...100.
    public static func encodeJPEG(_ image: DecodedImage, quality: Int = 90) throws -> Data {
        try encodeJPEG(surface(from: image), quality: quality)
    }

    /// Decodes JPEG bytes with libjpeg-turbo.
    public static func decodeJPEG(_ data: Data, maxPixels: Int = defaultMaxPixels) throws -> DecodedImage {
        let s = try jpegSurface(data, maxPixels: maxPixels)
        return DecodedImage(width: s.width, height: s.height, pixels: s.argbPixels())
    }

    /// Width and height announced by a PNG or JPEG header, without decoding; nil if unrecognised.
    public static func headerSize(_ data: Data) -> (width: Int, height: Int)? {
        if isPNG(data) { return pngHeaderSize(data) }
        if isJPEG(data) { return jpegHeaderSize(data) }
        return nil
    }

    /// True when the bytes start with the PNG signature.
    public static func isPNG(_ d: Data) -> Bool { d.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
    /// True when the bytes start with a JPEG start-of-image marker.
    public static func isJPEG(_ d: Data) -> Bool { d.starts(with: [0xFF, 0xD8]) }

    /// Decodes by content (the MIME type may lie); PNG or JPEG.
    static func decodeSurface(_ data: Data, maxPixels: Int) throws -> CairoSurface {
        if data.isEmpty { throw QuireError(.imageError, "image data is missing (0 bytes)") }
        if isPNG(data) { return try pngSurface(data, maxPixels: maxPixels) }
        if isJPEG(data) { return try jpegSurface(data, maxPixels: maxPixels) }
        throw QuireError(.imageError, "image data is neither PNG nor JPEG (\(data.count) bytes)")
    }

    static func checkSize(_ w: Int, _ h: Int, maxPixels: Int) throws {
        guard w > 0, h > 0 else { throw QuireError(.imageError, "image has no pixels (\(w)x\(h))") }
        guard w <= 32767, h <= 32767, w.multipliedReportingOverflow(by: h).partialValue <= maxPixels else {
            throw QuireError(.imageError, "image is too large: \(w)x\(h) pixels (the limit is \(maxPixels) pixels and 32767 a side)")
        }
    }

    private static func pngHeaderSize(_ d: Data) -> (width: Int, height: Int)? {
        // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
        guard d.count >= 24 else { return nil }
        let b = [UInt8](d.prefix(24))
        guard b[12] == 0x49, b[13] == 0x48, b[14] == 0x44, b[15] == 0x52 else { return nil }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (be32(16), be32(20))
    }

    private static func jpegHeaderSize(_ d: Data) -> (width: Int, height: Int)? {
        let b = [UInt8](d)
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let m = b[i + 1]
            if m == 0xFF { i += 1; continue }
            if m == 0xD8 || (0xD0...0xD7).contains(m) || m == 0x01 { i += 2; continue }
            let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            // SOF0...SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
            if (0xC0...0xCF).contains(m), m != 0xC4, m != 0xC8, m != 0xCC {
                guard i + 8 < b.count else { return nil }
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            if m == 0xDA || len < 2 { return nil }
            i += 2 + len
        }
        return nil
    }

    static func pngSurface(_ data: Data, maxPixels: Int) throws -> CairoSurface {
        guard isPNG(data) else { throw QuireError(.imageError, "not a PNG file") }
        guard let (w, h) = pngHeaderSize(data) else { throw QuireError(.imageError, "PNG header is truncated or invalid") }
        try checkSize(w, h, maxPixels: maxPixels)
        return try CairoSurface.png(data)
    }

    static func surface(from image: DecodedImage) throws -> CairoSurface {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height else {
            throw QuireError(.invalidArgument, "pixel count \(image.pixels.count) does not match \(image.width)x\(image.height)")
        }
        let s = try CairoSurface(width: image.width, height: image.height)
        s.withPixelRows(modifying: true) { base, st in
            image.pixels.withUnsafeBufferPointer { px in
                for y in 0..<image.height {
                    let row = UnsafeMutableRawPointer(base + y * st).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<image.width { row[x] = px[y * image.width + x] }
                }
            }
        }
        return s
    }

    // MARK: JPEG through libjpeg

    static func jpegSurface(_ data: Data, maxPixels: Int) throws -> CairoSurface {
        guard isJPEG(data) else { throw QuireError(.imageError, "not a JPEG file") }
        // Reject oversized frames before libjpeg allocates its buffers for them.
        if let (w, h) = jpegHeaderSize(data) { try checkSize(w, h, maxPixels: maxPixels) }
        let job = JPEGJob(input: data, maxPixels: maxPixels)
        job.decode()
        defer { job.releaseBuffers() }
        guard job.ok, let px = job.pixels else {
            throw QuireError(.imageError, "JPEG could not be decoded: \(job.message.isEmpty ? "unknown error" : job.message)")
        }
        let s = try CairoSurface(width: job.width, height: job.height)
        s.withPixelRows(modifying: true) { base, st in
            for y in 0..<job.height {
                (base + y * st).update(from: px + y * job.width * 4, count: job.width * 4)
            }
        }
        return s
    }

    static func encodeJPEG(_ surface: CairoSurface, quality: Int) throws -> Data {
        let w = surface.width, h = surface.height
        let copied: [UInt8]? = surface.withPixelRows { base, st in
            var rows = [UInt8](repeating: 0, count: w * h * 4)
            for y in 0..<h { rows.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: y * w * 4).update(from: base + y * st, count: w * 4) } }
            return rows
        }
        guard let rows = copied else { throw QuireError(.exportError, "nothing to encode as JPEG") }
        let job = JPEGJob(input: rows, maxPixels: Int.max)
        job.width = w; job.height = h; job.quality = max(1, min(100, quality))
        job.encode()
        defer { job.releaseBuffers() }
        guard job.ok, let out = job.output else {
            throw QuireError(.exportError, "JPEG encoding failed: \(job.message)")
        }
        return Data(bytes: out, count: job.outputSize)
    }
}
