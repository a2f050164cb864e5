import CCairo
import CJPEG
import Foundation
import InkModel
#if canImport(Glibc)
import Glibc
#endif

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
        let src = DataSource(data)
        let s = withExtendedLifetime(src) {
            cairo_image_surface_create_from_png_stream(dataSourceRead, Unmanaged.passUnretained(src).toOpaque())!
        }
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw QuireError(.imageError, "PNG could not be decoded: \(String(validatingCString: cairo_status_to_string(st)) ?? "?")")
        }
        let surface = CairoSurface(adopting: s)
        // Cairo returns A8/RGB24 for some PNGs: normalise to ARGB32 so callers see one layout.
        if cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32 {
            let out = try CairoSurface(width: surface.width, height: surface.height)
            let cr = CairoContext(out)
            cairo_set_source_surface(cr.raw, s, 0, 0)
            cairo_paint(cr.raw)
            return out
        }
        return surface
    }

    static func surface(from image: DecodedImage) throws -> CairoSurface {
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height else {
            throw QuireError(.invalidArgument, "pixel count \(image.pixels.count) does not match \(image.width)x\(image.height)")
        }
        let s = try CairoSurface(width: image.width, height: image.height)
        s.flush()
        let base = cairo_image_surface_get_data(s.raw)!
        let st = s.stride
        image.pixels.withUnsafeBufferPointer { px in
            for y in 0..<image.height {
                let row = UnsafeMutableRawPointer(base + y * st).assumingMemoryBound(to: UInt32.self)
                for x in 0..<image.width { row[x] = px[y * image.width + x] }
            }
        }
        s.markDirty()
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
        s.flush()
        let base = cairo_image_surface_get_data(s.raw)!
        let st = s.stride
        for y in 0..<job.height {
            (base + y * st).update(from: px + y * job.width * 4, count: job.width * 4)
        }
        s.markDirty()
        return s
    }

    static func encodeJPEG(_ surface: CairoSurface, quality: Int) throws -> Data {
        surface.flush()
        let w = surface.width, h = surface.height, st = surface.stride
        guard w > 0, h > 0, let base = cairo_image_surface_get_data(surface.raw) else {
            throw QuireError(.exportError, "nothing to encode as JPEG")
        }
        var rows = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { rows.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: y * w * 4).update(from: base + y * st, count: w * 4) } }
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

/// State shared between a caller and the thread that runs libjpeg.
///
/// libjpeg reports fatal errors through `error_exit`, which must not return, and Swift cannot
/// `setjmp`. So libjpeg runs on a thread of its own whose `error_exit` records the message, frees
/// libjpeg's memory and ends the thread with `pthread_exit`: the caller sees a failed job instead of
/// a process exit. Everything that must outlive the thread is owned by this object, not the thread:
/// `pthread_exit` skips the releases of whatever the thread's Swift frames hold, so those frames
/// reach the job only through `Unmanaged` (no strong reference) and libjpeg reads raw memory.
final class JPEGJob {
    /// A copy of the bytes to decode (or the BGRX rows to encode), in memory the job owns.
    let input: UnsafeMutableBufferPointer<UInt8>
    let maxPixels: Int
    var ok = false
    var message = ""
    var width = 0, height = 0
    var quality = 90
    var pixels: UnsafeMutablePointer<UInt8>?
    var output: UnsafeMutablePointer<UInt8>?
    var outputSize = 0
    /// Where libjpeg's mem destination keeps its (malloc'ed) buffer; read back even after a failure.
    let outBuffer = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 1)
    let outSize = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
    let decompress = UnsafeMutablePointer<jpeg_decompress_struct>.allocate(capacity: 1)
    let compress = UnsafeMutablePointer<jpeg_compress_struct>.allocate(capacity: 1)
    let errorManager = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)

    init(input: some ContiguousBytes, maxPixels: Int) {
        self.input = input.withUnsafeBytes { bytes in
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            UnsafeMutableRawBufferPointer(copy).copyMemory(from: bytes)
            return copy
        }
        self.maxPixels = maxPixels
        outBuffer.initialize(to: nil); outSize.initialize(to: 0)
    }

    /// Decodes `input` on the libjpeg thread: `ok`, `pixels`, `width`, `height` or `message`.
    func decode() { runGuarded(self, jpegDecodeBody) }

    /// Encodes `input` (`width` x `height` BGRX rows) at `quality`: `ok`, `output`, `outputSize` or `message`.
    func encode() { runGuarded(self, jpegEncodeBody) }

    func releaseBuffers() {
        pixels?.deallocate(); pixels = nil
        if let b = outBuffer.pointee { free(b); outBuffer.pointee = nil }
        output = nil
    }

    deinit {
        releaseBuffers()
        input.deallocate()
        outBuffer.deallocate(); outSize.deallocate()
        decompress.deallocate(); compress.deallocate(); errorManager.deallocate()
    }
}

private func runGuarded(_ job: JPEGJob, _ body: @escaping @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) {
    let arg = Unmanaged.passRetained(job).toOpaque()
    var tid = pthread_t()
    if pthread_create(&tid, nil, body, arg) == 0 {
        pthread_join(tid, nil)
    } else {
        job.message = "could not start the JPEG thread"
    }
    Unmanaged<JPEGJob>.fromOpaque(arg).release()
}

private let jpegErrorExit: @convention(c) (j_common_ptr?) -> Void = { cinfo in
    guard let cinfo else { pthread_exit(nil) }
    if let raw = cinfo.pointee.client_data {
        let job = Unmanaged<JPEGJob>.fromOpaque(raw).takeUnretainedValue()
        let buf = UnsafeMutablePointer<CChar>.allocate(capacity: Int(JMSG_LENGTH_MAX) + 1)
        buf.initialize(repeating: 0, count: Int(JMSG_LENGTH_MAX) + 1)
        cinfo.pointee.err.pointee.format_message(cinfo, buf)
        job.message = String(validatingCString: buf) ?? "libjpeg error"
        buf.deallocate()
        job.ok = false
    }
    jpeg_destroy(cinfo)
    pthread_exit(nil)
}

/// Warnings (corrupt entropy data and the like) are not fatal: libjpeg fills in and goes on.
private let jpegOutputMessage: @convention(c) (j_common_ptr?) -> Void = { _ in }

private func setUpErrors(_ job: JPEGJob) -> UnsafeMutablePointer<jpeg_error_mgr> {
    let err = jpeg_std_error(job.errorManager)!
    err.pointee.error_exit = jpegErrorExit
    err.pointee.output_message = jpegOutputMessage
    return err
}

/// Runs on the libjpeg thread. The job is reached through `Unmanaged` one statement at a time, so no
/// strong reference is held while libjpeg runs (an error ends the thread: see `JPEGJob`).
private let jpegDecodeBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { arg in
    guard let arg else { return nil }
    let job = Unmanaged<JPEGJob>.fromOpaque(arg)
    let cinfo = job.takeUnretainedValue().decompress
    cinfo.pointee.err = setUpErrors(job.takeUnretainedValue())
    jpeg_CreateDecompress(cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_decompress_struct>.size)
    cinfo.pointee.client_data = arg
    let input = job.takeUnretainedValue().input
    jpeg_mem_src(cinfo, input.baseAddress, UInt(input.count))
    _ = jpeg_read_header(cinfo, 1)
    let w = Int(cinfo.pointee.image_width), h = Int(cinfo.pointee.image_height)
    do { try ImageCodec.checkSize(w, h, maxPixels: job.takeUnretainedValue().maxPixels) } catch let e as QuireError {
        job.takeUnretainedValue().message = e.message
        jpeg_destroy_decompress(cinfo)
        return nil
    } catch { return nil }
    cinfo.pointee.out_color_space = JCS_EXT_BGRA
    _ = jpeg_start_decompress(cinfo)
    guard Int(cinfo.pointee.output_width) == w, Int(cinfo.pointee.output_height) == h,
          cinfo.pointee.output_components == 4 else {
        job.takeUnretainedValue().message = "unexpected JPEG output layout"
        jpeg_destroy_decompress(cinfo)
        return nil
    }
    let px = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h * 4)
    job.takeUnretainedValue().pixels = px
    job.takeUnretainedValue().width = w
    job.takeUnretainedValue().height = h
    var row: UnsafeMutablePointer<UInt8>? = nil
    while cinfo.pointee.output_scanline < cinfo.pointee.output_height {
        row = px + Int(cinfo.pointee.output_scanline) * w * 4
        if jpeg_read_scanlines(cinfo, &row, 1) == 0 { break }
    }
    // A truncated file ends early: libjpeg has already warned; rows not read stay opaque grey.
    let read = Int(cinfo.pointee.output_scanline)
    if read < h {
        for i in (read * w * 4)..<(h * w * 4) { px[i] = (i % 4 == 3) ? 255 : 128 }
        jpeg_abort_decompress(cinfo)
    } else {
        _ = jpeg_finish_decompress(cinfo)
    }
    jpeg_destroy_decompress(cinfo)
    job.takeUnretainedValue().ok = true
    return nil
}

/// Runs on the libjpeg thread; reaches the job as `jpegDecodeBody` does.
private let jpegEncodeBody: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { arg in
    guard let arg else { return nil }
    let job = Unmanaged<JPEGJob>.fromOpaque(arg)
    let cinfo = job.takeUnretainedValue().compress
    cinfo.pointee.err = setUpErrors(job.takeUnretainedValue())
    jpeg_CreateCompress(cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
    cinfo.pointee.client_data = arg
    let (outBuffer, outSize) = (job.takeUnretainedValue().outBuffer, job.takeUnretainedValue().outSize)
    jpeg_mem_dest(cinfo, outBuffer, outSize)
    let width = job.takeUnretainedValue().width
    cinfo.pointee.image_width = JDIMENSION(clamping: width)
    cinfo.pointee.image_height = JDIMENSION(clamping: job.takeUnretainedValue().height)
    cinfo.pointee.input_components = 4
    cinfo.pointee.in_color_space = JCS_EXT_BGRX
    jpeg_set_defaults(cinfo)
    jpeg_set_quality(cinfo, Int32(clamping: job.takeUnretainedValue().quality), 1)
    jpeg_start_compress(cinfo, 1)
    let input = job.takeUnretainedValue().input
    var row: UnsafeMutablePointer<UInt8>? = nil
    while cinfo.pointee.next_scanline < cinfo.pointee.image_height {
        row = input.baseAddress! + Int(cinfo.pointee.next_scanline) * width * 4
        _ = jpeg_write_scanlines(cinfo, &row, 1)
    }
    jpeg_finish_compress(cinfo)
    jpeg_destroy_compress(cinfo)
    job.takeUnretainedValue().output = outBuffer.pointee
    job.takeUnretainedValue().outputSize = Int(outSize.pointee)
    job.takeUnretainedValue().ok = true
    return nil
}
