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
        // A 1x1 surface is enough: only metrics are read from it.
        context = CairoContext(CairoSurface.scratch())
        CairoText.withLock { context.applyFontOptions() }
    }

    public func measure(_ text: String, font: FontSpec) -> TextMetrics {
        let size = font.size.isFinite && font.size > 0 ? font.size : 0
        let k = size / Self.referenceSize
        CairoText.lock()
        defer { CairoText.unlock() }
        return lock.withLock {
            let face = Face(family: font.family, bold: font.bold, italic: font.italic)
            // Taken out of the cache while glyphs are added, so that adding one does not copy
            // the whole glyph dictionary (text of many distinct characters made that quadratic).
            var fc = takeFaceCache(face)
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
    /// The face's cache, removed from `cache` (the caller puts it back). Caller holds the lock.
    private func takeFaceCache(_ face: Face) -> FaceCache {
        if let c = cache.removeValue(forKey: face) { return c }
        select(face)
        let fe = context.fontExtents()
        return FaceCache(ascent: fe.ascent, descent: fe.descent)
    }

    /// Caller holds the lock.
    private func select(_ face: Face) {
        guard selected != face else { return }
        context.selectFont(FontSpec(family: face.family, size: Self.referenceSize, bold: face.bold, italic: face.italic))
        context.setFontSize(Self.referenceSize)
        selected = face
    }

    /// Caller holds the lock and has selected the face.
    private func glyph(_ grapheme: String) -> Glyph {
        let te = context.textExtents(grapheme)
        let ink = [te.xBearing, te.yBearing, te.width, te.height].allSatisfy(\.isFinite) && te.width > 0 && te.height > 0
            ? Rect(x: te.xBearing, y: te.yBearing, width: te.width, height: te.height) : nil
        return Glyph(advance: te.xAdvance.isFinite ? te.xAdvance : 0, ink: ink)
    }
}
