import CCairo
import Foundation
import InkModel

/// An owned Cairo surface (image, PDF, SVG or an Xlib window surface).
///
/// Cairo hands every surface out as the same `OpaquePointer` type as contexts and displays, so each
/// kind of pointer gets its own owning class: mixing them up becomes a type error, and deinit frees.
/// The pointer never leaves InkRender's Cairo layer.
public final class CairoSurface: @unchecked Sendable {
    let raw: OpaquePointer
    /// The bytes a PDF or SVG surface writes; owned here so that it outlives every write, the last
    /// of which may come from `cairo_surface_destroy`.
    private let sink: DataSink?

    /// Takes ownership of a `cairo_surface_t*`; the wrapper destroys it on deinit.
    private init(adopting surface: OpaquePointer, sink: DataSink? = nil) {
        raw = surface
        self.sink = sink
    }

    /// A new ARGB32 image surface with premultiplied, transparent pixels.
    public convenience init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw QuireError(.invalidArgument, "image surface size \(width)x\(height) is outside 1...32767")
        }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        try CairoSurface.check(s, "image surface \(width)x\(height)")
        self.init(adopting: s)
    }

    /// A 1x1 image surface for measuring text. It cannot fail for this size but for lack of
    /// memory, and then Cairo's error surface is returned: drawing on it does nothing, no crash.
    static func scratch() -> CairoSurface {
        CairoSurface(adopting: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1))
    }

    /// Wraps an Xlib drawable (a window) as a surface. `display` is the `Display*` and `visual` the
    /// `Visual*` of the drawable, passed untyped so that callers need not share Cairo's Xlib types.
    /// Package-only: the app's X11 layer hands its pointers over here, and no client sees them.
    package static func xlib(display: OpaquePointer, drawable: UInt, visual: UnsafeMutableRawPointer,
                             width: Int, height: Int) throws -> CairoSurface {
        let s = cairo_xlib_surface_create(display, Drawable(drawable), visual.assumingMemoryBound(to: Visual.self),
                                          Int32(clamping: width), Int32(clamping: height))!
        try check(s, "Xlib surface")
        return CairoSurface(adopting: s)
    }

    /// A PDF surface whose (first) pages are `width` x `height` points whose bytes collect in `output`.
    static func pdf(width: Double, height: Double, creator: String) throws -> CairoSurface {
        let sink = DataSink()
        let s = cairo_pdf_surface_create_for_stream(dataSinkWrite, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
        try check(s, "PDF surface")
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, creator)
        return CairoSurface(adopting: s, sink: sink)
    }

    /// PDF surfaces: the size in points of the pages drawn from now on (before drawing the page).
    func setPDFPageSize(width: Double, height: Double) { cairo_pdf_surface_set_size(raw, width, height) }

    /// An SVG surface of `width` x `height` points whose bytes collect in `output`.
    static func svg(width: Double, height: Double) throws -> CairoSurface {
        let sink = DataSink()
        let s = cairo_svg_surface_create_for_stream(dataSinkWrite, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
        try check(s, "SVG surface")
        return CairoSurface(adopting: s, sink: sink)
    }

    /// Decodes PNG bytes; the result is always ARGB32 (Cairo returns A8 or RGB24 for some files).
    static func png(_ data: Data) throws -> CairoSurface {
        let src = DataSource(data)
        let s = withExtendedLifetime(src) {
            cairo_image_surface_create_from_png_stream(dataSourceRead, Unmanaged.passUnretained(src).toOpaque())!
        }
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw QuireError(.imageError, "PNG could not be decoded: \(cairoStatusMessage(st))")
        }
        let surface = CairoSurface(adopting: s)
        guard cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32 else {
            let out = try CairoSurface(width: surface.width, height: surface.height)
            let cr = CairoContext(out)
            cr.setSource(surface)
            cr.paint()
            return out
        }
        return surface
    }

    deinit { CairoText.withLock { cairo_surface_destroy(raw) } }

    private static func check(_ s: OpaquePointer, _ what: String) throws {
        let st = cairo_surface_status(s)
        if st != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            throw QuireError(.ioError, "cairo could not create \(what): \(cairoStatusMessage(st))")
        }
    }

    /// Xlib surfaces do not follow window resizes: call this on ConfigureNotify.
    public func setXlibSize(width: Int, height: Int) {
        cairo_xlib_surface_set_size(raw, Int32(clamping: width), Int32(clamping: height))
    }

    /// Finishes pending drawing (call before XFlush, or before reading pixels).
    public func flush() { cairo_surface_flush(raw) }

    /// Tells Cairo that pixels were changed behind its back.
    public func markDirty() { cairo_surface_mark_dirty(raw) }

    /// Image surfaces: size in pixels (0 for other kinds).
    public var width: Int { Int(cairo_image_surface_get_width(raw)) }
    public var height: Int { Int(cairo_image_surface_get_height(raw)) }

    /// Bytes per row of an image surface.
    var stride: Int { Int(cairo_image_surface_get_stride(raw)) }

    /// Cairo's message when the surface is in an error state; nil when it is fine.
    var errorMessage: String? {
        let st = cairo_surface_status(raw)
        return st == CAIRO_STATUS_SUCCESS ? nil : cairoStatusMessage(st)
    }

    /// Vector surfaces: writes everything out (fonts included, hence under the text lock).
    func finish() { CairoText.withLock { cairo_surface_finish(raw) } }

    /// Vector surfaces: the bytes written so far (all of them after `finish`).
    var output: Data { sink?.data ?? Data() }

    /// Image surfaces: calls `body` with the first pixel row and the stride, for reading rows (or
    /// writing them, with `modifying`: Cairo is then told of the change). Pending drawing is
    /// flushed first. Nil for a surface without pixel data.
    @discardableResult
    func withPixelRows<T>(modifying: Bool = false, _ body: (UnsafeMutablePointer<UInt8>, Int) throws -> T) rethrows -> T? {
        flush()
        guard width > 0, height > 0, let base = cairo_image_surface_get_data(raw) else { return nil }
        defer { if modifying { markDirty() } }
        return try body(base, stride)
    }

    /// Image surfaces: the pixels as 0xAARRGGBB (premultiplied, as Cairo stores them), row by row.
    public func argbPixels() -> [UInt32] {
        flush()
        let w = width, h = height, st = stride
        guard w > 0, h > 0, let base = cairo_image_surface_get_data(raw) else { return [] }
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = UnsafeRawPointer(base + y * st).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { out[y * w + x] = row[x] }
        }
        return out
    }

    /// Image surfaces: PNG bytes.
    public func pngData() throws -> Data {
        flush()
        let sink = DataSink()
        let st = cairo_surface_write_to_png_stream(raw, dataSinkWrite, Unmanaged.passUnretained(sink).toOpaque())
        guard st == CAIRO_STATUS_SUCCESS else {
            throw QuireError(.exportError, "PNG encoding failed: \(String(validatingCString: cairo_status_to_string(st)) ?? "?")")
        }
        return sink.data
    }
}
