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
    /// A colour chip before the label (a pen colour).
    public var swatch: RGBA?
    /// False in a grid of colours: the chip fills the cell and the current one is ringed.
    public var showsLabel: Bool
    public init(label: String, frame: Rect, enabled: Bool, current: Bool, highlighted: Bool, swatch: RGBA? = nil, showsLabel: Bool = true) {
        self.label = label; self.frame = frame; self.enabled = enabled; self.current = current; self.highlighted = highlighted
        self.swatch = swatch; self.showsLabel = showsLabel
    }
}

/// One row of text in a side panel (the inspector's), indented by `level`.
public struct OverlayPanelRow: Equatable, Sendable {
    public enum Style: Sendable { case heading, normal, dim, chosen }
    public var text: String
    public var style: Style
    public var level: Int
    public init(_ text: String, style: Style = .normal, level: Int = 0) { self.text = text; self.style = style; self.level = level }
}

/// Draws the window's overlays. Every function takes the Cairo text lock (see `CairoText`).
public enum OverlayPainter {
    /// One scratch context for measuring, made on first use (the overlays run on the X thread only).
    nonisolated(unsafe) private static var scratch: CairoContext?
    private static let regular = FontSpec(family: "DejaVu Sans")
    private static let bold = FontSpec(family: "DejaVu Sans", bold: true)

    /// The advance width of a label at a font size (pixels).
    public static func textWidth(_ text: String, size: Double) -> Double {
        CairoText.lock()
        defer { CairoText.unlock() }
        if scratch == nil, let s = try? CairoSurface(width: 1, height: 1) {
            let c = CairoContext(s)
            prepare(c)
            scratch = c
        }
        guard let c = scratch else { return Double(text.count) * size * 0.6 }
        c.setFontSize(size)
        return c.textExtents(text).xAdvance
    }

    /// Paints the candidates bar: a framed strip with one rounded box per word.
    public static func drawCandidateBar(on surface: CairoSurface, width: Double, height: Double, scale: Double,
                                        items: [OverlayBarItem], fontSize: Double, theme: Theme) {
        draw(on: surface) { c in
            c.rectangle(0, 0, width, height)
            c.setSourceRGB(0.94, 0.95, 0.97)
            c.fill()
            c.setSourceRGB(0.72, 0.75, 0.8)
            c.setLineWidth(max(1, scale))
            c.rectangle(0.5, 0.5, width - 1, height - 1)
            c.stroke()
            let sel = theme.selectionColor
            for it in items {
                let f = it.frame
                c.roundedRect(f, radius: 4 * scale)
                if it.selected {
                    c.setSourceRGB(sel.r, sel.g, sel.b)
                } else if it.changed {
                    c.setSourceRGB(1.0, 0.84, 0.5)
                } else {
                    c.setSourceRGB(1, 1, 1)
                }
                c.fill()
                let g = it.selected ? 1.0 : 0.1
                c.setSourceRGB(g, g, g)
                show(c, it.label, in: f, size: fontSize, centered: true)
                if it.underline {
                    c.rectangle(f.x + 5 * scale, f.maxY - 4 * scale, f.width - 10 * scale, max(1, scale))
                    c.fill()
                }
                if it.surround {
                    c.roundedRect(f.insetBy(dx: 1.5 * scale, dy: 1.5 * scale), radius: 4 * scale)
                    c.setLineWidth(max(1, scale))
                    c.stroke()
                }
            }
        }
    }

    /// Paints a popup: a framed white box, an optional grey title, and its rows.
    public static func drawMenu(on surface: CairoSurface, width: Double, height: Double, scale: Double, title: String,
                                titleHeight: Double, rows: [OverlayMenuRow], fontSize: Double, theme: Theme) {
        draw(on: surface) { c in
            c.rectangle(0, 0, width, height)
            c.setSourceRGB(1, 1, 1)
            c.fillPreserve()
            c.setSourceRGB(0.55, 0.58, 0.62)
            c.setLineWidth(max(1, scale))
            c.stroke()
            if !title.isEmpty {
                c.setSourceRGB(0.4, 0.4, 0.42)
                show(c, title, in: Rect(x: 12 * scale, y: 4 * scale, width: width - 24 * scale, height: titleHeight),
                     size: fontSize * 0.85, centered: false)
            }
            let sel = theme.selectionColor
            let chip = (18 * scale).rounded()
            let withChips = rows.contains { $0.swatch != nil && $0.showsLabel }
            for row in rows {
                if !row.showsLabel {
                    drawSwatchCell(c, row, scale: scale, theme: theme)
                    continue
                }
                if row.highlighted {
                    c.roundedRect(row.frame, radius: 4 * scale)
                    c.setSourceRGB(sel.r, sel.g, sel.b)
                    c.fill()
                }
                let g = row.highlighted ? 1.0 : row.enabled ? 0.1 : 0.65
                var text = row.frame.insetBy(dx: 8 * scale, dy: 0)
                if withChips {
                    if let color = row.swatch {
                        let r = Rect(x: text.x, y: row.frame.midY - chip / 2, width: chip, height: chip)
                        fillSwatch(c, r, color, radius: chip / 2, scale: scale)
                        if row.current { ring(c, r.insetBy(dx: -2.5 * scale, dy: -2.5 * scale), radius: chip / 2 + 2.5 * scale, scale: scale) }
                    }
                    text.x += chip + 8 * scale
                    text.width -= chip + 8 * scale
                }
                c.setSourceRGB(g, g, g)
                c.selectFont(row.current ? bold : regular)
                show(c, row.label, in: text, size: fontSize, centered: false)
            }
        }
    }

    /// A grid cell: the colour filling it, ringed when it is the current one or the keyboard's.
    private static func drawSwatchCell(_ c: CairoContext, _ row: OverlayMenuRow, scale: Double, theme: Theme) {
        let r = row.frame.insetBy(dx: 3 * scale, dy: 3 * scale)
        if let color = row.swatch { fillSwatch(c, r, color, radius: 4 * scale, scale: scale) }
        if row.current || row.highlighted {
            ring(c, row.frame.insetBy(dx: 1 * scale, dy: 1 * scale), radius: 5 * scale, scale: scale)
        }
    }

    /// A colour over white (a translucent marker shows as it will on paper), with a thin grey edge.
    private static func fillSwatch(_ c: CairoContext, _ r: Rect, _ color: RGBA, radius: Double, scale: Double) {
        c.roundedRect(r, radius: radius)
        c.setSourceRGB(1, 1, 1)
        c.fillPreserve()
        c.setSourceRGBA(color.r, color.g, color.b, color.a)
        c.fillPreserve()
        c.setSourceRGB(0.6, 0.62, 0.66)
        c.setLineWidth(max(1, scale))
        c.stroke()
    }

    private static func ring(_ c: CairoContext, _ r: Rect, radius: Double, scale: Double) {
        c.roundedRect(r, radius: radius)
        c.setSourceRGB(0.1, 0.1, 0.12)
        c.setLineWidth(2 * scale)
        c.stroke()
    }

    /// Paints a side panel: a light framed box with rows of text, top down, clipped at its bottom.
    public static func drawPanel(on surface: CairoSurface, width: Double, height: Double, scale: Double,
                                 rows: [OverlayPanelRow], fontSize: Double) {
        draw(on: surface) { c in
            c.rectangle(0, 0, width, height)
            c.setSourceRGB(0.97, 0.97, 0.95)
            c.fill()
            c.setSourceRGB(0.6, 0.6, 0.62)
            c.setLineWidth(max(1, scale))
            c.rectangle(0.5, 0.5, width - 1, height - 1)
            c.stroke()
            var y = 6 * scale
            for row in rows {
                let size = row.style == .heading ? fontSize * 1.05 : fontSize * 0.92
                let h = size * 1.35
                guard y + h < height else { break }
                switch row.style {
                case .heading: c.setSourceRGB(0.1, 0.1, 0.12)
                case .normal: c.setSourceRGB(0.15, 0.15, 0.18)
                case .dim: c.setSourceRGB(0.45, 0.45, 0.5)
                case .chosen: c.setSourceRGB(0.05, 0.3, 0.7)
                }
                c.selectFont(row.style == .heading || row.style == .chosen ? bold : regular)
                let x = (8 + 14 * Double(row.level)) * scale
                show(c, row.text, in: Rect(x: x, y: y, width: width - x - 6 * scale, height: h), size: size, centered: false)
                y += h
            }
        }
    }

    /// Outlines the selected word (`box`, canvas pixels) over the page, inside `clip`.
    public static func drawWordHighlight(on surface: CairoSurface, clip: Rect, box: Rect, scale: Double, theme: Theme) {
        do {
            let c = CairoContext(surface)
            prepare(c)
            c.clip(to: clip)
            let sel = theme.selectionColor
            c.roundedRect(box, radius: 4 * scale)
            c.setSourceRGBA(sel.r, sel.g, sel.b, 0.16)
            c.fillPreserve()
            c.setSourceRGBA(sel.r, sel.g, sel.b, 0.9)
            c.setLineWidth(1.5 * scale)
            c.stroke()
        }
        surface.flush()
    }

    /// Runs `body` on a fresh context under the text lock, then flushes the surface.
    private static func draw(on surface: CairoSurface, _ body: (CairoContext) -> Void) {
        CairoText.lock()
        defer { CairoText.unlock() }
        do {
            let c = CairoContext(surface)
            prepare(c)
            body(c)
        }
        surface.flush()
    }

    /// The font options text is measured with (no hinting: the same layout everywhere), DejaVu Sans.
    private static func prepare(_ c: CairoContext) {
        c.applyFontOptions()
        c.selectFont(regular)
    }

    private static func show(_ c: CairoContext, _ text: String, in r: Rect, size: Double, centered: Bool) {
        c.setFontSize(size)
        let fe = c.fontExtents()
        let e = c.textExtents(text)
        let x = centered ? r.x + (r.width - e.xAdvance) / 2 : r.x
        let y = r.y + (r.height - (fe.ascent + fe.descent)) / 2 + fe.ascent
        c.moveTo(x, y)
        c.showText(text)
    }
}
