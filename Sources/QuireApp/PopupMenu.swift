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
    }

    var items: [Item]
    /// Keyboard highlight.
    var highlighted: Int?
    var scale: Double
    var title: String

    var rowHeight: Double { (32 * scale).rounded() }
    var titleHeight: Double { title.isEmpty ? 0 : (24 * scale).rounded() }
    static func fontSize(scale: Double) -> Double { 14 * scale }

    var size: (width: Double, height: Double) {
        let fs = Self.fontSize(scale: scale)
        let w = max(items.map { OverlayPainter.textWidth($0.label, size: fs) }.max() ?? 0, OverlayPainter.textWidth(title, size: fs * 0.85)) + 32 * scale
        return (max(120 * scale, w).rounded(.up), titleHeight + rowHeight * Double(items.count) + 8 * scale)
    }

    func frame(of i: Int) -> Rect {
        Rect(x: 4 * scale, y: 4 * scale + titleHeight + rowHeight * Double(i), width: size.width - 8 * scale, height: rowHeight)
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
                           current: items[i].current, highlighted: i == highlighted)
        }
        OverlayPainter.drawMenu(on: s, width: w, height: h, scale: scale, title: title, titleHeight: titleHeight,
                                rows: rows, fontSize: Self.fontSize(scale: scale), theme: theme)
    }
}
