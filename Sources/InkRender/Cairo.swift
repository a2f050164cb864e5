import CCairo
import Foundation
import InkModel

/// The process-wide lock for Cairo text.
///
/// Cairo shares its scaled fonts (and their glyph caches) between all contexts of a process, and
/// Debian 12's Cairo 1.16 races on them when two threads use one at once: it aborts in
/// `cairo_scaled_font_destroy` ("! scaled_font->cache_frozen"). So every use of the toy font API,
/// every restore or destroy of a context that may hold a font, and every finish of a PDF or SVG
/// surface (which embeds fonts) runs under this lock. Recursive, because measuring can happen
/// while a page is drawn.
public enum CairoText {
    private static let mutex = NSRecursiveLock()

    /// Takes the lock; pair with `unlock()` (a `defer` right after).
    public static func lock() { mutex.lock() }

    public static func unlock() { mutex.unlock() }

    /// Runs `body` under the lock.
    public static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}

/// An owned Cairo surface (image, PDF, SVG or an Xlib window surface).
///
/// Cairo hands every surface out as the same `OpaquePointer` type as contexts and displays, so each
/// kind of pointer gets its own owning class: mixing them up becomes a type error, and deinit frees.
public final class CairoSurface: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes ownership of a `cairo_surface_t*` (for example one made with `cairo_xlib_surface_create`);
    /// the wrapper destroys it on deinit. The pointer must not be destroyed elsewhere.
    public init(adopting surface: OpaquePointer) {
        raw = surface
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

    /// Wraps an Xlib drawable (a window) as a surface. `display` is the `Display*` and `visual` the
    /// `Visual*` of the drawable, passed untyped so that callers need not share Cairo's Xlib types.
    public static func xlib(display: OpaquePointer, drawable: UInt, visual: UnsafeMutableRawPointer,
                            width: Int, height: Int) throws -> CairoSurface {
        let s = cairo_xlib_surface_create(display, Drawable(drawable), visual.assumingMemoryBound(to: Visual.self),
                                          Int32(clamping: width), Int32(clamping: height))!
        try check(s, "Xlib surface")
        return CairoSurface(adopting: s)
    }

    deinit { CairoText.withLock { cairo_surface_destroy(raw) } }

    static func check(_ s: OpaquePointer, _ what: String) throws {
        let st = cairo_surface_status(s)
        if st != CAIRO_STATUS_SUCCESS {
            let msg = String(validatingCString: cairo_status_to_string(st)) ?? "unknown"
            cairo_surface_destroy(s)
            throw QuireError(.ioError, "cairo could not create \(what): \(msg)")
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

    var stride: Int { Int(cairo_image_surface_get_stride(raw)) }

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

/// An owned `cairo_t`.
final class CairoContext {
    let raw: OpaquePointer
    /// Kept alive for as long as the context draws into it.
    let surface: CairoSurface

    init(_ surface: CairoSurface) {
        self.surface = surface
        raw = cairo_create(surface.raw)
    }

    deinit { CairoText.withLock { cairo_destroy(raw) } }

    var status: cairo_status_t { cairo_status(raw) }

    func save() { cairo_save(raw) }
    func restore() { cairo_restore(raw) }

    func setSource(_ c: RGBA, alphaScale: Double = 1) {
        cairo_set_source_rgba(raw, c.r, c.g, c.b, c.a * alphaScale)
    }

    func setMatrix(_ t: Transform) {
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_set_matrix(raw, &m)
    }

    func transform(_ t: Transform) {
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_transform(raw, &m)
    }

    func rectangle(_ r: Rect) { cairo_rectangle(raw, r.x, r.y, r.width, r.height) }

    func clip(to r: Rect) {
        cairo_rectangle(raw, r.x, r.y, r.width, r.height)
        cairo_clip(raw)
    }
}

/// Collects bytes written by Cairo's stream functions.
final class DataSink {
    var data = Data()
}

let dataSinkWrite: cairo_write_func_t = { closure, bytes, length in
    guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
    let sink = Unmanaged<DataSink>.fromOpaque(closure).takeUnretainedValue()
    if length > 0, let bytes { sink.data.append(bytes, count: Int(length)) }
    return CAIRO_STATUS_SUCCESS
}

/// Feeds bytes to Cairo's stream readers.
final class DataSource {
    let data: Data
    var offset = 0
    init(_ data: Data) { self.data = data }
}

let dataSourceRead: cairo_read_func_t = { closure, out, length in
    guard let closure, let out else { return CAIRO_STATUS_READ_ERROR }
    let src = Unmanaged<DataSource>.fromOpaque(closure).takeUnretainedValue()
    let n = Int(length)
    if n == 0 { return CAIRO_STATUS_SUCCESS }
    guard src.offset + n <= src.data.count else { return CAIRO_STATUS_READ_ERROR }
    src.data.withUnsafeBytes { buf in
        out.update(from: buf.baseAddress!.assumingMemoryBound(to: UInt8.self) + src.offset, count: n)
    }
    src.offset += n
    return CAIRO_STATUS_SUCCESS
}
