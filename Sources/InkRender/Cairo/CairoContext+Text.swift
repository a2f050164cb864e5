import CCairo
import InkModel

/// Ink and advance of a string as Cairo measures it, in user units relative to the pen.
struct CairoTextExtents {
    var xBearing: Double, yBearing: Double
    var width: Double, height: Double
    var xAdvance: Double
}

/// Cairo's toy font API (DejaVu through fontconfig, no Pango). Callers hold `CairoText`'s lock
/// around everything here (see there).
extension CairoContext {
    /// Lays out text the way `CairoFontMetrics` measures it: hint metrics off and no hinting, so
    /// widths scale linearly with the size and do not depend on the device or zoom.
    func applyFontOptions() {
        let opts = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(raw, opts)
        cairo_font_options_destroy(opts)
    }

    /// Selects the face of `font` (family, weight, slant; not its size).
    func selectFont(_ font: FontSpec) {
        cairo_select_font_face(raw, font.family, font.italic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                               font.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
    }

    func setFontSize(_ size: Double) { cairo_set_font_size(raw, size) }

    /// Draws `text` with its baseline origin at the current point.
    func showText(_ text: String) { cairo_show_text(raw, text) }

    func textExtents(_ text: String) -> CairoTextExtents {
        var te = cairo_text_extents_t()
        cairo_text_extents(raw, text, &te)
        return CairoTextExtents(xBearing: te.x_bearing, yBearing: te.y_bearing, width: te.width, height: te.height,
                                xAdvance: te.x_advance)
    }

    /// Ascent and descent of the selected font at its size.
    func fontExtents() -> (ascent: Double, descent: Double) {
        var fe = cairo_font_extents_t()
        cairo_font_extents(raw, &fe)
        return (fe.ascent, fe.descent)
    }
}
