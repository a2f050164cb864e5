import CCairo
import Foundation
import InkModel

/// One button of the window's toolbar, as the window lays it out (pixels of the toolbar surface).
public struct ChromeButton: Equatable, Sendable {
    public var id: String
    public var label: String
    public var frame: Rect
    /// Drawn pressed (the current tool).
    public var active: Bool
    /// Drawn greyed out (e.g. undo with nothing to undo).
    public var enabled: Bool
    public init(id: String, label: String, frame: Rect, active: Bool = false, enabled: Bool = true) {
        self.id = id; self.label = label; self.frame = frame; self.active = active; self.enabled = enabled
    }
}

/// Draws the window's toolbar and status message with Cairo (no toolkit), so it looks the same on
/// every X server and can be tested from pixels.
public enum ChromePainter {
    /// Paints the toolbar: background, buttons with their labels, and `message` at the right end.
    /// `scale` is the UI scale (1 at 96 dpi).
    public static func drawToolbar(on surface: CairoSurface, width: Int, height: Int, scale: Double,
                                   buttons: [ChromeButton], message: String?, theme: Theme) {
        CairoText.lock()
        defer { CairoText.unlock() }
        let cr = CairoContext(surface)
        let c = cr.raw
        CairoFontMetrics.applyFontOptions(c)
        cairo_rectangle(c, 0, 0, Double(width), Double(height))
        cairo_set_source_rgb(c, 0.95, 0.95, 0.94)
        cairo_fill(c)
        cairo_set_source_rgb(c, 0.78, 0.78, 0.76)
        cairo_rectangle(c, 0, Double(height) - max(1, scale), Double(width), max(1, scale))
        cairo_fill(c)
        cairo_select_font_face(c, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(c, 13 * scale)
        var extents = cairo_text_extents_t()
        for b in buttons {
            let f = b.frame
            PageRenderer.roundedRect(c, f, radius: 6 * scale)
            if b.active {
                cairo_set_source_rgb(c, theme.selectionColor.r, theme.selectionColor.g, theme.selectionColor.b)
            } else {
                cairo_set_source_rgb(c, 1, 1, 1)
            }
            cairo_fill_preserve(c)
            cairo_set_source_rgb(c, 0.7, 0.7, 0.68)
            cairo_set_line_width(c, max(1, scale))
            cairo_stroke(c)
            let grey = b.enabled ? (b.active ? 1.0 : 0.12) : 0.62
            cairo_set_source_rgb(c, grey, grey, grey)
            cairo_text_extents(c, b.label, &extents)
            cairo_move_to(c, f.x + (f.width - extents.width) / 2 - extents.x_bearing,
                          f.y + (f.height - extents.height) / 2 - extents.y_bearing)
            cairo_show_text(c, b.label)
        }
        if let message, !message.isEmpty {
            let right = (buttons.map(\.frame.maxX).max() ?? 0) + 12 * scale
            cairo_save(c)
            cairo_rectangle(c, right, 0, max(0, Double(width) - right), Double(height))
            cairo_clip(c)
            cairo_set_source_rgb(c, 0.55, 0.2, 0.1)
            cairo_text_extents(c, message, &extents)
            cairo_move_to(c, right, (Double(height) - extents.height) / 2 - extents.y_bearing)
            cairo_show_text(c, message)
            cairo_restore(c)
        }
        surface.flush()
    }

    /// The width a label needs at a UI scale (for laying out buttons).
    public static func labelWidth(_ label: String, scale: Double) -> Double {
        guard let s = try? CairoSurface(width: 1, height: 1) else { return Double(label.count) * 8 * scale }
        CairoText.lock()
        defer { CairoText.unlock() }
        let cr = CairoContext(s)
        CairoFontMetrics.applyFontOptions(cr.raw)
        cairo_select_font_face(cr.raw, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr.raw, 13 * scale)
        var e = cairo_text_extents_t()
        cairo_text_extents(cr.raw, label, &e)
        return e.x_advance
    }

}
