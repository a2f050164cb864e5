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
        cr.applyFontOptions()
        cr.rectangle(0, 0, Double(width), Double(height))
        cr.setSourceRGB(0.95, 0.95, 0.94)
        cr.fill()
        cr.setSourceRGB(0.78, 0.78, 0.76)
        cr.rectangle(0, Double(height) - max(1, scale), Double(width), max(1, scale))
        cr.fill()
        cr.selectFont(uiFont)
        cr.setFontSize(13 * scale)
        for b in buttons {
            let f = b.frame
            cr.roundedRect(f, radius: 6 * scale)
            if b.active {
                cr.setSourceRGB(theme.selectionColor.r, theme.selectionColor.g, theme.selectionColor.b)
            } else {
                cr.setSourceRGB(1, 1, 1)
            }
            cr.fillPreserve()
            cr.setSourceRGB(0.7, 0.7, 0.68)
            cr.setLineWidth(max(1, scale))
            cr.stroke()
            let grey = b.enabled ? (b.active ? 1.0 : 0.12) : 0.62
            cr.setSourceRGB(grey, grey, grey)
            let extents = cr.textExtents(b.label)
            cr.moveTo(f.x + (f.width - extents.width) / 2 - extents.xBearing,
                      f.y + (f.height - extents.height) / 2 - extents.yBearing)
            cr.showText(b.label)
        }
        if let message, !message.isEmpty {
            let right = (buttons.map(\.frame.maxX).max() ?? 0) + 12 * scale
            cr.save()
            cr.clip(to: Rect(x: right, y: 0, width: max(0, Double(width) - right), height: Double(height)))
            cr.setSourceRGB(0.55, 0.2, 0.1)
            let extents = cr.textExtents(message)
            cr.moveTo(right, (Double(height) - extents.height) / 2 - extents.yBearing)
            cr.showText(message)
            cr.restore()
        }
        surface.flush()
    }

    /// The toolbar's face (its size is the UI scale's).
    private static let uiFont = FontSpec(family: "DejaVu Sans", size: 13)

    /// The width a label needs at a UI scale (for laying out buttons).
    public static func labelWidth(_ label: String, scale: Double) -> Double {
        guard let s = try? CairoSurface(width: 1, height: 1) else { return Double(label.count) * 8 * scale }
        CairoText.lock()
        defer { CairoText.unlock() }
        let cr = CairoContext(s)
        cr.applyFontOptions()
        cr.selectFont(uiFont)
        cr.setFontSize(13 * scale)
        let e = cr.textExtents(label)
        return e.xAdvance
    }

}
