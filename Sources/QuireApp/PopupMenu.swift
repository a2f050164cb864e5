import Foundation
import Quire

// Popups (a word's candidates, the context menu): the list and its layout, and the controller
// that shows one at a time in its own child window of the canvas.

/// A popup list: a word's candidates or the context menu. Pointer, touch and
/// keyboard (Up/Down, Enter, Esc) drive it.
struct OverlayMenu: Equatable {
    struct Item: Equatable {
        var label: String
        /// What choosing the item does (nil: nothing to act on; such items are disabled).
        var action: AppCommand?
        var enabled: Bool
        /// Drawn bold (the chosen candidate).
        var current: Bool = false
        /// A colour shown beside the label, or alone in a grid ("#rrggbb[aa]").
        var swatch: String?
    }

    var items: [Item]
    /// Keyboard highlight.
    var highlighted: Int?
    var scale: Double
    var title: String
    /// 1: a list of rows; more: a grid of square swatch cells, this many to a row.
    var columns: Int = 1

    var rowHeight: Double { (32 * scale).rounded() }
    /// Side of a grid cell: at least 8 mm at 96 dpi, a pen's or a finger's target.
    var cellSize: Double { (32 * scale).rounded() }
    var titleHeight: Double { title.isEmpty ? 0 : (24 * scale).rounded() }
    static func fontSize(scale: Double) -> Double { 14 * scale }

    var size: (width: Double, height: Double) {
        if columns > 1 {
            let rows = (items.count + columns - 1) / columns
            let w = max(Double(columns) * cellSize, OverlayPainter.textWidth(title, size: Self.fontSize(scale: scale) * 0.85) + 24 * scale)
            return ((w + 8 * scale).rounded(.up), titleHeight + cellSize * Double(rows) + 8 * scale)
        }
        let fs = Self.fontSize(scale: scale)
        let chip = items.contains { $0.swatch != nil } ? Self.chipSize(scale: scale) + 8 * scale : 0
        let w = chip + max(items.map { OverlayPainter.textWidth($0.label, size: fs) }.max() ?? 0, OverlayPainter.textWidth(title, size: fs * 0.85)) + 32 * scale
        return (max(120 * scale, w).rounded(.up), titleHeight + rowHeight * Double(items.count) + 8 * scale)
    }

    static func chipSize(scale: Double) -> Double { (18 * scale).rounded() }

    func frame(of i: Int) -> Rect {
        if columns > 1 {
            return Rect(x: 4 * scale + cellSize * Double(i % columns), y: 4 * scale + titleHeight + cellSize * Double(i / columns),
                        width: cellSize, height: cellSize)
        }
        return Rect(x: 4 * scale, y: 4 * scale + titleHeight + rowHeight * Double(i), width: size.width - 8 * scale, height: rowHeight)
    }

    /// The enabled item under a point of the popup window.
    func item(at p: Point) -> Int? {
        items.indices.first { items[$0].enabled && frame(of: $0).contains(p) }
    }

    /// Moves the keyboard highlight by `step` over the enabled items (wrapping).
    mutating func move(_ step: Int) {
        let enabled = items.indices.filter { items[$0].enabled }
        guard !enabled.isEmpty else { highlighted = nil; return }
        guard let h = highlighted, let k = enabled.firstIndex(of: h) else {
            highlighted = step >= 0 ? enabled.first : enabled.last
            return
        }
        highlighted = enabled[((k + step) % enabled.count + enabled.count) % enabled.count]
    }

    func draw(on s: CairoSurface, theme: Theme) {
        let (w, h) = size
        let rows = items.indices.map { i in
            OverlayMenuRow(label: items[i].label, frame: frame(of: i), enabled: items[i].enabled,
                           current: items[i].current, highlighted: i == highlighted,
                           swatch: items[i].swatch.flatMap { RGBA(hex: $0) }, showsLabel: columns == 1)
        }
        OverlayPainter.drawMenu(on: s, width: w, height: h, scale: scale, title: title, titleHeight: titleHeight,
                                rows: rows, fontSize: Self.fontSize(scale: scale), theme: theme)
    }
}
