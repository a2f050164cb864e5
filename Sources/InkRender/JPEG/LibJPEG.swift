import CJPEG
import Foundation
import InkModel
#if canImport(Glibc)
import Glibc
#endif

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
