import CCairo
import Foundation
import InkModel

// The desktop window's overlays, painted with Cairo's toy text API and DejaVu Sans: the
// candidates bar above a Text block, popups (a word's candidates, the context menu) and the
// selected word's highlight on the canvas. The window lays them out; these only draw.

/// One word of the candidates bar, in pixels of the bar's window.
public struct OverlayBarItem: Equatable, Sendable {
    public var label: String
    public var frame: Rect
    /// The editor's selected word (drawn in the selection colour).
    public var selected: Bool
    /// Changed by the latest recognition (drawn amber for a moment).
    public var changed: Bool
    public var underline: Bool
    public var surround: Bool
    public init(label: String, frame: Rect, selected: Bool, changed: Bool, underline: Bool, surround: Bool) {
        self.label = label; self.frame = frame; self.selected = selected; self.changed = changed
        self.underline = underline; self.surround = surround
    }
}

/// One row of a popup, in pixels of the popup's window.
public struct OverlayMenuRow: Equatable, Sendable {
    public var label: String
    public var frame: Rect
    public var enabled: Bool
    /// Drawn bold (the chosen candidate).
    public var current: Bool
    /// The keyboard's highlight.
    public var highlighted: Bool
    public init(label: String, frame: Rect, enabled: Bool, current: Bool, highlighted: Bool) {
        self.label = label; self.frame = frame; self.enabled = enabled; self.current = current; self.highlighted = highlighted
    }
}

/// Draws the window's overlays. Every function takes the Cairo text lock (see `CairoText`).
public enum OverlayPainter {
    /// One scratch context for measuring, made on first use (the overlays run on the X thread only).
    nonisolated(unsafe) private static var scratch: CairoContext?

    /// The advance width of a label at a font size (pixels).
    public static func textWidth(_ text: String, size: Double) -> Double {
        CairoText.lock()
        defer { CairoText.unlock() }
        if scratch == nil, let s = try? CairoSurface(width: 1, height: 1) {
            let c = CairoContext(s)
            applyFont(c.raw)
            scratch = c
        }
        guard let c = scratch?.raw else { return Double(text.count) * size * 0.6 }
        cairo_set_font_size(c, size)
        var e = cairo_text_extents_t()
        cairo_text_extents(c, text, &e)
        return e.x_advance
    }

    /// Paints the candidates bar: a framed strip with one rounded box per word.
    public static func drawCandidateBar(on surface: CairoSurface, width: Double, height: Double, scale: Double,
                                        items: [OverlayBarItem], fontSize: Double, theme: Theme) {
        draw(on: surface) { c in
            cairo_rectangle(c, 0, 0, width, height)
            cairo_set_source_rgb(c, 0.94, 0.95, 0.97)
            cairo_fill(c)
            cairo_set_source_rgb(c, 0.72, 0.75, 0.8)
            cairo_set_line_width(c, max(1, scale))
            cairo_rectangle(c, 0.5, 0.5, width - 1, height - 1)
            cairo_stroke(c)
            let sel = theme.selectionColor
            for it in items {
                let f = it.frame
                PageRenderer.roundedRect(c, f, radius: 4 * scale)
                if it.selected {
                    cairo_set_source_rgb(c, sel.r, sel.g, sel.b)
                } else if it.changed {
                    cairo_set_source_rgb(c, 1.0, 0.84, 0.5)
                } else {
                    cairo_set_source_rgb(c, 1, 1, 1)
                }
                cairo_fill(c)
                let g = it.selected ? 1.0 : 0.1
                cairo_set_source_rgb(c, g, g, g)
                show(c, it.label, in: f, size: fontSize, centered: true)
                if it.underline {
                    cairo_rectangle(c, f.x + 5 * scale, f.maxY - 4 * scale, f.width - 10 * scale, max(1, scale))
                    cairo_fill(c)
                }
                if it.surround {
                    PageRenderer.roundedRect(c, f.insetBy(dx: 1.5 * scale, dy: 1.5 * scale), radius: 4 * scale)
                    cairo_set_line_width(c, max(1, scale))
                    cairo_stroke(c)
                }
            }
        }
    }

    /// Paints a popup: a framed white box, an optional grey title, and its rows.
    public static func drawMenu(on surface: CairoSurface, width: Double, height: Double, scale: Double, title: String,
                                titleHeight: Double, rows: [OverlayMenuRow], fontSize: Double, theme: Theme) {
        draw(on: surface) { c in
            cairo_rectangle(c, 0, 0, width, height)
            cairo_set_source_rgb(c, 1, 1, 1)
            cairo_fill_preserve(c)
            cairo_set_source_rgb(c, 0.55, 0.58, 0.62)
            cairo_set_line_width(c, max(1, scale))
            cairo_stroke(c)
            if !title.isEmpty {
                cairo_set_source_rgb(c, 0.4, 0.4, 0.42)
                show(c, title, in: Rect(x: 12 * scale, y: 4 * scale, width: width - 24 * scale, height: titleHeight),
                     size: fontSize * 0.85, centered: false)
            }
            let sel = theme.selectionColor
            for row in rows {
                if row.highlighted {
                    PageRenderer.roundedRect(c, row.frame, radius: 4 * scale)
                    cairo_set_source_rgb(c, sel.r, sel.g, sel.b)
                    cairo_fill(c)
                }
                let g = row.highlighted ? 1.0 : row.enabled ? 0.1 : 0.65
                cairo_set_source_rgb(c, g, g, g)
                cairo_select_font_face(c, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, row.current ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
                show(c, row.label, in: row.frame.insetBy(dx: 8 * scale, dy: 0), size: fontSize, centered: false)
            }
        }
    }

    /// Outlines the selected word (`box`, canvas pixels) over the page, inside `clip`.
    public static func drawWordHighlight(on surface: CairoSurface, clip: Rect, box: Rect, scale: Double, theme: Theme) {
        let cr = CairoContext(surface)
        let c = cr.raw
        applyFont(c)
        cairo_rectangle(c, clip.x, clip.y, clip.width, clip.height)
        cairo_clip(c)
        let sel = theme.selectionColor
        PageRenderer.roundedRect(c, box, radius: 4 * scale)
        cairo_set_source_rgba(c, sel.r, sel.g, sel.b, 0.16)
        cairo_fill_preserve(c)
        cairo_set_source_rgba(c, sel.r, sel.g, sel.b, 0.9)
        cairo_set_line_width(c, 1.5 * scale)
        cairo_stroke(c)
        withExtendedLifetime(cr) {}
        surface.flush()
    }

    /// Runs `body` on a fresh context under the text lock, then flushes the surface.
    private static func draw(on surface: CairoSurface, _ body: (OpaquePointer) -> Void) {
        CairoText.lock()
        defer { CairoText.unlock() }
        do {
            let cr = CairoContext(surface)
            applyFont(cr.raw)
            body(cr.raw)
        }
        surface.flush()
    }

    private static func applyFont(_ c: OpaquePointer) {
        CairoFontMetrics.applyFontOptions(c)
        cairo_select_font_face(c, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }

    private static func show(_ c: OpaquePointer, _ text: String, in r: Rect, size: Double, centered: Bool) {
        cairo_set_font_size(c, size)
        var fe = cairo_font_extents_t()
        cairo_font_extents(c, &fe)
        var e = cairo_text_extents_t()
        cairo_text_extents(c, text, &e)
        let x = centered ? r.x + (r.width - e.x_advance) / 2 : r.x
        let y = r.y + (r.height - (fe.ascent + fe.descent)) / 2 + fe.ascent
        cairo_move_to(c, x, y)
        cairo_show_text(c, text)
    }
}
