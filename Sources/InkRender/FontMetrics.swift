import CCairo
import Foundation
import InkModel

/// `FontMetricsProvider` on Cairo's toy font API (DejaVu through fontconfig, no Pango).
///
/// Hint metrics are off and hinting is none so that widths scale linearly with the size and do not
/// depend on the device or zoom: text measured here lands exactly where the renderer draws it.
/// Glyph advances are measured once at a reference size and cached per font, which makes layout of
/// long documents cheap. Thread-safe.
public final class CairoFontMetrics: FontMetricsProvider, @unchecked Sendable {
    /// Size (in Cairo user units) at which advances are measured before scaling to the request.
    private static let referenceSize = 100.0

    private struct Face: Hashable { var family: String; var bold: Bool; var italic: Bool }
    /// A grapheme at the reference size: its advance and its ink relative to the pen (nil: none).
    private struct Glyph { var advance: Double; var ink: Rect? }
    private struct FaceCache { var ascent: Double; var descent: Double; var glyphs: [String: Glyph] = [:] }

    private let lock = NSLock()
    private let context: CairoContext
    private var cache: [Face: FaceCache] = [:]
    private var selected: Face?

    public init() {
        // A 1x1 surface is enough: only metrics are read from it. It cannot fail for this size.
        let surface = (try? CairoSurface(width: 1, height: 1)) ?? CairoSurface(adopting: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1))
        context = CairoContext(surface)
        CairoText.withLock { CairoFontMetrics.applyFontOptions(context.raw) }
    }

    /// Makes a context lay out text the way this class measures it (no hinting: the same layout
    /// at every scale). The window's overlays use it too.
    public static func applyFontOptions(_ cr: OpaquePointer) {
        let opts = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(cr, opts)
        cairo_font_options_destroy(opts)
    }

    static func selectFont(_ cr: OpaquePointer, _ font: FontSpec) {
        cairo_select_font_face(cr, font.family, font.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                               font.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
    }

    public func measure(_ text: String, font: FontSpec) -> TextMetrics {
        let size = font.size.isFinite && font.size > 0 ? font.size : 0
        let k = size / Self.referenceSize
        CairoText.lock()
        defer { CairoText.unlock() }
        return lock.withLock {
            let face = Face(family: font.family, bold: font.bold, italic: font.italic)
            var fc = faceCache(face)
            var boxes: [Rect] = []
            var x = 0.0
            var ink: Rect?
            let ascent = fc.ascent * k, descent = fc.descent * k
            for ch in text {
                let key = String(ch)
                let g: Glyph
                if let c = fc.glyphs[key] { g = c } else {
                    select(face)
                    g = glyph(key)
                    fc.glyphs[key] = g
                }
                if let r = g.ink {
                    let e = Rect(x: x + r.x * k, y: r.y * k, width: r.width * k, height: r.height * k)
                    ink = ink.map { $0.union(e) } ?? e
                }
                boxes.append(Rect(x: x, y: -ascent, width: g.advance * k, height: ascent + descent))
                x += g.advance * k
            }
            cache[face] = fc
            return TextMetrics(width: x, ascent: ascent, descent: descent, glyphBoxes: boxes, inkBounds: ink)
        }
    }

    /// Caller holds the lock.
    private func faceCache(_ face: Face) -> FaceCache {
        if let c = cache[face] { return c }
        select(face)
        var fe = cairo_font_extents_t()
        cairo_font_extents(context.raw, &fe)
        let c = FaceCache(ascent: fe.ascent, descent: fe.descent)
        cache[face] = c
        return c
    }

    /// Caller holds the lock.
    private func select(_ face: Face) {
        guard selected != face else { return }
        Self.selectFont(context.raw, FontSpec(family: face.family, size: Self.referenceSize, bold: face.bold, italic: face.italic))
        cairo_set_font_size(context.raw, Self.referenceSize)
        selected = face
    }

    /// Caller holds the lock and has selected the face.
    private func glyph(_ grapheme: String) -> Glyph {
        var te = cairo_text_extents_t()
        cairo_text_extents(context.raw, grapheme, &te)
        let ink = [te.x_bearing, te.y_bearing, te.width, te.height].allSatisfy(\.isFinite) && te.width > 0 && te.height > 0
            ? Rect(x: te.x_bearing, y: te.y_bearing, width: te.width, height: te.height) : nil
        return Glyph(advance: te.x_advance.isFinite ? te.x_advance : 0, ink: ink)
    }
}
