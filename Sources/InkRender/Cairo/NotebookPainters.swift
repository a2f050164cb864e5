import Foundation
import InkModel

// The notebook's pieces of the window: the page strip (thumbnails) and Quire's own file chooser,
// painted like the toolbar (Cairo, DejaVu Sans). The window lays them out; these only draw.

/// One page of the strip, in pixels of the strip's window.
public struct PageStripCell {
    public var frame: Rect
    public var label: String
    /// The page shown in the editor (framed in the selection colour).
    public var current: Bool
    /// The page being dragged (drawn faded where it was).
    public var lifted: Bool
    public var thumbnail: CairoSurface?
    public init(frame: Rect, label: String, current: Bool, lifted: Bool, thumbnail: CairoSurface?) {
        self.frame = frame; self.label = label; self.current = current; self.lifted = lifted; self.thumbnail = thumbnail
    }
}

/// A question over the file chooser ("Replace …?"), in pixels of its window.
public struct ChromeDialog: Equatable, Sendable {
    public var frame: Rect
    public var title: String
    /// A line under the title.
    public var detail: String
    public var buttons: [ChromeButton]
    public init(frame: Rect, title: String, detail: String, buttons: [ChromeButton]) {
        self.frame = frame; self.title = title; self.detail = detail; self.buttons = buttons
    }
}

/// One row of the file chooser, in pixels of its window.
public struct FileChooserRow: Equatable, Sendable {
    public var frame: Rect
    public var label: String
    /// Grey text at the right (a kind, a folder).
    public var detail: String
    public var folder: Bool
    public var highlighted: Bool
    public init(frame: Rect, label: String, detail: String, folder: Bool, highlighted: Bool) {
        self.frame = frame; self.label = label; self.detail = detail; self.folder = folder; self.highlighted = highlighted
    }
}

public enum NotebookPainter {
    private static let font = FontSpec(family: "DejaVu Sans")
    private static let bold = FontSpec(family: "DejaVu Sans", bold: true)

    /// Paints the page strip: its buttons at the top, then a thumbnail per page with its number;
    /// `dropY` draws where a dragged page would land.
    public static func drawPageStrip(on surface: CairoSurface, width: Double, height: Double, scale: Double,
                                     buttons: [ChromeButton], cells: [PageStripCell], dropY: Double?, theme: Theme) {
        draw(on: surface) { c in
            c.rectangle(0, 0, width, height)
            c.setSourceRGB(0.9, 0.91, 0.92)
            c.fill()
            c.setSourceRGB(0.72, 0.74, 0.76)
            c.rectangle(0, 0, max(1, scale), height)
            c.fill()
            drawButtons(c, buttons, scale: scale, theme: theme)
            let sel = theme.selectionColor
            for cell in cells {
                let f = cell.frame
                let pic = Rect(x: f.x, y: f.y, width: f.width, height: f.height - 18 * scale)
                c.save()
                if let t = cell.thumbnail {
                    c.setSource(t, x: pic.x, y: pic.y)
                    c.rectangle(pic)
                    c.fill()
                } else {
                    c.setSourceRGB(1, 1, 1)
                    c.rectangle(pic)
                    c.fill()
                }
                if cell.lifted {
                    c.setSourceRGBA(0.9, 0.91, 0.92, 0.7)
                    c.rectangle(pic)
                    c.fill()
                }
                c.restore()
                if cell.current {
                    c.setSourceRGB(sel.r, sel.g, sel.b)
                    c.setLineWidth(3 * scale)
                } else {
                    c.setSourceRGB(0.62, 0.64, 0.66)
                    c.setLineWidth(max(1, scale))
                }
                c.rectangle(pic.insetBy(dx: -0.5, dy: -0.5))
                c.stroke()
                c.setSourceRGB(0.2, 0.2, 0.22)
                c.selectFont(cell.current ? bold : font)
                show(c, cell.label, in: Rect(x: f.x, y: pic.maxY, width: f.width, height: 18 * scale), size: 11 * scale, centered: true)
            }
            if let y = dropY {
                c.setSourceRGB(sel.r, sel.g, sel.b)
                c.rectangle(6 * scale, y - 2 * scale, width - 12 * scale, 4 * scale)
                c.fill()
            }
        }
    }

    /// Paints the file chooser: a title, the folder, its buttons, the name being typed (saving),
    /// and the rows.
    public static func drawFileChooser(on surface: CairoSurface, width: Double, height: Double, scale: Double, title: String,
                                       location: String, buttons: [ChromeButton], field: (frame: Rect, text: String)?,
                                       rows: [FileChooserRow], listArea: Rect, theme: Theme, dialog: ChromeDialog? = nil) {
        draw(on: surface) { c in
            c.rectangle(0, 0, width, height)
            c.setSourceRGB(0.97, 0.97, 0.96)
            c.fill()
            c.setSourceRGB(0.1, 0.1, 0.12)
            c.selectFont(bold)
            show(c, title, in: Rect(x: 14 * scale, y: 6 * scale, width: width - 28 * scale, height: 26 * scale), size: 16 * scale, centered: false)
            c.selectFont(font)
            c.setSourceRGB(0.35, 0.35, 0.38)
            show(c, location, in: Rect(x: 14 * scale, y: 32 * scale, width: width - 28 * scale, height: 20 * scale), size: 12 * scale, centered: false)
            drawButtons(c, buttons, scale: scale, theme: theme)
            if let field {
                c.roundedRect(field.frame, radius: 4 * scale)
                c.setSourceRGB(1, 1, 1)
                c.fillPreserve()
                c.setSourceRGB(0.55, 0.58, 0.62)
                c.setLineWidth(max(1, scale))
                c.stroke()
                c.setSourceRGB(0.1, 0.1, 0.12)
                show(c, field.text + "_", in: field.frame.insetBy(dx: 8 * scale, dy: 0), size: 14 * scale, centered: false)
            }
            c.save()
            c.clip(to: listArea)
            c.setSourceRGB(1, 1, 1)
            c.rectangle(listArea)
            c.fill()
            let sel = theme.selectionColor
            for row in rows where row.frame.intersects(listArea) {
                if row.highlighted {
                    c.setSourceRGB(sel.r, sel.g, sel.b)
                    c.rectangle(row.frame)
                    c.fill()
                }
                c.setSourceRGB(0.88, 0.88, 0.9)
                c.rectangle(row.frame.x, row.frame.maxY - max(1, scale), row.frame.width, max(1, scale))
                c.fill()
                let g = row.highlighted ? 1.0 : 0.1
                c.setSourceRGB(g, g, g)
                c.selectFont(row.folder ? bold : font)
                let text = row.frame.insetBy(dx: 14 * scale, dy: 0)
                show(c, (row.folder ? "\u{25B8} " : "") + row.label, in: text, size: 15 * scale, centered: false)
                if !row.detail.isEmpty {
                    c.selectFont(font)
                    c.setSourceRGB(row.highlighted ? 1 : 0.5, row.highlighted ? 1 : 0.5, row.highlighted ? 1 : 0.52)
                    c.setFontSize(12 * scale)
                    let w = c.textExtents(row.detail).xAdvance
                    show(c, row.detail, in: Rect(x: text.maxX - w, y: text.y, width: w, height: text.height), size: 12 * scale, centered: false)
                }
            }
            c.restore()
            c.setSourceRGB(0.72, 0.74, 0.76)
            c.setLineWidth(max(1, scale))
            c.rectangle(listArea)
            c.stroke()
            if let dialog { drawDialog(c, dialog, width: width, height: height, scale: scale, theme: theme) }
        }
    }

    /// The chooser dimmed, and a box with the question and its buttons over it.
    private static func drawDialog(_ c: CairoContext, _ d: ChromeDialog, width: Double, height: Double, scale: Double, theme: Theme) {
        c.setSourceRGBA(0.1, 0.1, 0.12, 0.35)
        c.rectangle(0, 0, width, height)
        c.fill()
        c.roundedRect(d.frame, radius: 8 * scale)
        c.setSourceRGB(1, 1, 1)
        c.fillPreserve()
        c.setSourceRGB(0.45, 0.47, 0.5)
        c.setLineWidth(max(1, 1.5 * scale))
        c.stroke()
        let text = d.frame.insetBy(dx: 18 * scale, dy: 0)
        c.setSourceRGB(0.1, 0.1, 0.12)
        c.selectFont(bold)
        show(c, d.title, in: Rect(x: text.x, y: d.frame.y + 14 * scale, width: text.width, height: 28 * scale), size: 17 * scale, centered: false)
        c.selectFont(font)
        c.setSourceRGB(0.3, 0.3, 0.33)
        show(c, d.detail, in: Rect(x: text.x, y: d.frame.y + 46 * scale, width: text.width, height: 22 * scale), size: 13 * scale, centered: false)
        drawButtons(c, d.buttons, scale: scale, theme: theme)
    }

    /// Paints the search bar: the query being typed, what it found, and the keys.
    public static func drawSearchBar(on surface: CairoSurface, width: Double, height: Double, scale: Double,
                                     query: String, status: String, theme: Theme) {
        draw(on: surface) { c in
            c.rectangle(0, 0, width, height)
            c.setSourceRGB(0.96, 0.96, 0.9)
            c.fill()
            c.setSourceRGB(0.72, 0.74, 0.76)
            c.rectangle(0, height - max(1, scale), width, max(1, scale))
            c.fill()
            c.selectFont(bold)
            c.setSourceRGB(0.2, 0.2, 0.22)
            show(c, "Find", in: Rect(x: 12 * scale, y: 0, width: 50 * scale, height: height), size: 13 * scale, centered: false)
            let field = Rect(x: 60 * scale, y: 6 * scale, width: min(360 * scale, width * 0.45), height: height - 12 * scale)
            c.roundedRect(field, radius: 4 * scale)
            c.setSourceRGB(1, 1, 1)
            c.fillPreserve()
            c.setSourceRGB(0.55, 0.58, 0.62)
            c.setLineWidth(max(1, scale))
            c.stroke()
            c.selectFont(font)
            c.setSourceRGB(0.1, 0.1, 0.12)
            show(c, query + "_", in: field.insetBy(dx: 8 * scale, dy: 0), size: 14 * scale, centered: false)
            c.setSourceRGB(status == "no match" ? 0.6 : 0.2, 0.2, 0.2)
            show(c, status, in: Rect(x: field.maxX + 12 * scale, y: 0, width: 110 * scale, height: height), size: 13 * scale, centered: false)
            c.setSourceRGB(0.45, 0.45, 0.48)
            show(c, "Enter: next \u{00B7} Shift+Enter: previous \u{00B7} Esc: close",
                 in: Rect(x: field.maxX + 130 * scale, y: 0, width: max(0, width - field.maxX - 140 * scale), height: height), size: 12 * scale, centered: false)
        }
    }

    private static func drawButtons(_ c: CairoContext, _ buttons: [ChromeButton], scale: Double, theme: Theme) {
        c.selectFont(font)
        for b in buttons {
            c.roundedRect(b.frame, radius: 6 * scale)
            if b.active {
                c.setSourceRGB(theme.selectionColor.r, theme.selectionColor.g, theme.selectionColor.b)
            } else {
                c.setSourceRGB(1, 1, 1)
            }
            c.fillPreserve()
            c.setSourceRGB(0.7, 0.7, 0.68)
            c.setLineWidth(max(1, scale))
            c.stroke()
            let g = b.enabled ? (b.active ? 1.0 : 0.12) : 0.62
            c.setSourceRGB(g, g, g)
            show(c, b.label, in: b.frame, size: 13 * scale, centered: true)
        }
    }

    /// Runs `body` on a fresh context under the text lock, then flushes the surface.
    private static func draw(on surface: CairoSurface, _ body: (CairoContext) -> Void) {
        CairoText.lock()
        defer { CairoText.unlock() }
        do {
            let c = CairoContext(surface)
            c.applyFontOptions()
            c.selectFont(font)
            body(c)
        }
        surface.flush()
    }

    private static func show(_ c: CairoContext, _ text: String, in r: Rect, size: Double, centered: Bool) {
        c.save()
        c.clip(to: r)
        c.setFontSize(size)
        let fe = c.fontExtents()
        let e = c.textExtents(text)
        let x = centered ? r.x + (r.width - e.xAdvance) / 2 : r.x
        let y = r.y + (r.height - (fe.ascent + fe.descent)) / 2 + fe.ascent
        c.moveTo(x, y)
        c.showText(text)
        c.restore()
    }
}
