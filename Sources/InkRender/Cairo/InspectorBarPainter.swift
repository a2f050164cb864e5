import Foundation
import InkModel

/// The inspector window's bar: the toolbar's buttons (`ChromePainter`), under each layer toggle a
/// strip of its colour (the overlay's legend), and the timeline's scrubber with a tick per stroke
/// where they fit, the part shown filled, a handle, and the count at the right.
public enum InspectorBarPainter {
    /// A legend strip under a toggle: one colour, or several side by side (the lines' cycle).
    public struct Swatch: Equatable, Sendable {
        public var frame: Rect
        public var colours: [RGBA]
        public init(frame: Rect, colours: [RGBA]) { self.frame = frame; self.colours = colours }
    }

    public static func draw(on surface: CairoSurface, width: Int, height: Int, scale: Double, buttons: [ChromeButton],
                            swatches: [Swatch], scrubber: Rect, shown: Int, total: Int, count: String, theme: Theme) {
        ChromePainter.drawToolbar(on: surface, width: width, height: height, scale: scale, buttons: buttons, message: nil, theme: theme)
        CairoText.lock()
        defer { CairoText.unlock() }
        do {
            let cr = CairoContext(surface)
            cr.applyFontOptions()
            for s in swatches where !s.colours.isEmpty {
                let w = s.frame.width / Double(s.colours.count)
                for (i, c) in s.colours.enumerated() {
                    cr.setSource(c)
                    cr.rectangle(s.frame.x + Double(i) * w, s.frame.y, w, s.frame.height)
                    cr.fill()
                }
            }
            let track = Rect(x: scrubber.x, y: scrubber.midY - 3 * scale, width: scrubber.width, height: 6 * scale)
            let f = total > 0 ? Double(shown) / Double(total) : 1
            cr.roundedRect(track, radius: 3 * scale)
            cr.setSourceRGB(0.82, 0.82, 0.8)
            cr.fill()
            cr.roundedRect(Rect(x: track.x, y: track.y, width: track.width * f, height: track.height), radius: 3 * scale)
            cr.setSource(theme.selectionColor)
            cr.fill()
            if total > 0, scrubber.width / Double(total) >= 3 * scale {
                // A tick per stroke, when they stand apart.
                cr.setSourceRGB(0.45, 0.45, 0.45)
                cr.setLineWidth(max(1, scale))
                for k in 0 ... total {
                    let x = (track.x + track.width * Double(k) / Double(total)).rounded() + 0.5
                    cr.moveTo(x, track.maxY + 2 * scale)
                    cr.lineTo(x, track.maxY + 6 * scale)
                }
                cr.stroke()
            }
            let hx = track.x + track.width * f
            cr.arc(hx, track.midY, radius: 8 * scale, from: 0, to: 2 * .pi)
            cr.setSourceRGB(1, 1, 1)
            cr.fillPreserve()
            cr.setSource(theme.selectionColor)
            cr.setLineWidth(2 * scale)
            cr.stroke()
            cr.selectFont(FontSpec(family: "DejaVu Sans"))
            cr.setFontSize(13 * scale)
            cr.setSourceRGB(0.2, 0.2, 0.22)
            let e = cr.textExtents(count)
            cr.moveTo(scrubber.maxX + 14 * scale, Double(height) / 2 - e.yBearing - e.height / 2)
            cr.showText(count)
        }
        surface.flush()
    }
}
