import CCairo
import Foundation
import Quire

// The window's overlays: the candidates bar ("smart guide") above the active Text block, and the
// popups (a word's candidates, the context menu). Each lives in its own child X window of the
// canvas, so the X server clips the page's repaints around them: drawing ink costs nothing extra
// while they are shown, and they are redrawn only when what they show changes.

/// A Cairo surface on an X window that the app owns (the page renderer keeps its own surfaces).
final class OverlaySurface {
    let raw: OpaquePointer

    init(display: OpaquePointer, window: UInt, visual: UnsafeMutableRawPointer, width: Int, height: Int) throws {
        let s = cairo_xlib_surface_create(display, Drawable(window), visual.assumingMemoryBound(to: Visual.self),
                                          Int32(clamping: max(1, width)), Int32(clamping: max(1, height)))!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            let msg = String(validatingCString: cairo_status_to_string(st)) ?? "unknown"
            cairo_surface_destroy(s)
            throw QuireError(.ioError, "cairo could not create an overlay surface: \(msg)")
        }
        raw = s
    }

    func setSize(width: Int, height: Int) { cairo_xlib_surface_set_size(raw, Int32(clamping: max(1, width)), Int32(clamping: max(1, height))) }

    /// A context with the font options text is measured with (no hinting: the same layout everywhere).
    func context() -> OpaquePointer {
        let c = cairo_create(raw)!
        OverlayText.applyFontOptions(c)
        return c
    }

    deinit { CairoText.withLock { cairo_surface_destroy(raw) } }
}

/// Text layout for the overlays with Cairo's toy API and DejaVu Sans.
enum OverlayText {
    static func applyFontOptions(_ c: OpaquePointer) {
        CairoFontMetrics.applyFontOptions(c)
        cairo_select_font_face(c, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }

    /// One scratch context for measuring, made on first use (the overlays run on the X thread only).
    nonisolated(unsafe) private static var scratch: OpaquePointer?

    static func width(_ text: String, size: Double) -> Double {
        CairoText.lock()
        defer { CairoText.unlock() }
        if scratch == nil, let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) {
            scratch = cairo_create(s)
            cairo_surface_destroy(s)  // the context keeps its own reference
            applyFontOptions(scratch!)
        }
        guard let c = scratch else { return Double(text.count) * size * 0.6 }
        cairo_set_font_size(c, size)
        var e = cairo_text_extents_t()
        cairo_text_extents(c, text, &e)
        return e.x_advance
    }

    static func show(_ c: OpaquePointer, _ text: String, in r: Rect, size: Double, centered: Bool) {
        CairoText.lock()
        defer { CairoText.unlock() }
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

// MARK: the candidates bar

/// What the candidates bar shows: the words of one block, laid out left to right, in pixels of
/// the bar's own window.
struct CandidateBar: Equatable {
    struct Item: Equatable {
        /// Index in the block's words (a `WordRef` index).
        var index: Int
        var label: String
        var frame: Rect
        /// Changed by the latest recognition (drawn in another colour for a moment).
        var changed: Bool
        /// The editor's selected word.
        var selected: Bool
        var styles: [String]
        /// Still ink (false once converted to typeset text).
        var ink: Bool
        var candidateCount: Int
    }

    var blockId: String
    var items: [Item]
    var width: Double
    var height: Double
    var scale: Double

    static func height(scale: Double) -> Double { (26 * scale).rounded() }
    static func fontSize(scale: Double) -> Double { 13 * scale }

    /// Lays out a block's words; `maxWidth` is the room on screen (words past it are left out).
    static func layout(blockId: String, words: [RecognizedWord], changed: Set<Int>, selected: Int?,
                       scale: Double, maxWidth: Double) -> CandidateBar {
        let pad = 6 * scale, gap = 4 * scale, h = height(scale: scale)
        var x = pad
        var items: [Item] = []
        for (i, w) in words.enumerated() where !w.label.isEmpty {
            let tw = OverlayText.width(w.label, size: fontSize(scale: scale)) + 12 * scale
            if x + tw + pad > maxWidth, !items.isEmpty { break }
            items.append(Item(index: i, label: w.label, frame: Rect(x: x, y: 3 * scale, width: tw, height: h - 6 * scale),
                              changed: changed.contains(i), selected: selected == i, styles: w.styles,
                              ink: !w.strokeIds.isEmpty, candidateCount: w.candidates.count))
            x += tw + gap
        }
        return CandidateBar(blockId: blockId, items: items, width: min(maxWidth, max(x - gap + pad, 40 * scale)), height: h, scale: scale)
    }

    /// The word under a point of the bar (a little slack for fingers).
    func item(at p: Point) -> Item? {
        items.first { $0.frame.insetBy(dx: -2 * scale, dy: -3 * scale).contains(p) }
    }

    /// Indices of the words that differ from the previous reading of the same block: a word is
    /// unchanged when the previous reading had the same label for the same strokes, or at the same
    /// place (a word converted in place keeps its box and loses its strokes, but reads the same).
    static func changedWords(old: [RecognizedWord]?, new: [RecognizedWord]) -> Set<Int> {
        guard let old else { return [] }
        var before = Set<String>()
        for w in old {
            if !w.strokeIds.isEmpty { before.insert(strokesKey(w)) }
            before.insert(boxKey(w))
        }
        var out = Set<Int>()
        for (i, w) in new.enumerated() {
            let same = (!w.strokeIds.isEmpty && before.contains(strokesKey(w))) || before.contains(boxKey(w))
            if !same { out.insert(i) }
        }
        return out
    }

    private static func strokesKey(_ w: RecognizedWord) -> String { w.label + "|s:" + w.strokeIds.sorted().joined(separator: ",") }
    private static func boxKey(_ w: RecognizedWord) -> String {
        let b = w.box
        return w.label + "|b:" + [b.x, b.y, b.width, b.height].map { String(Int(($0 * 100).rounded())) }.joined(separator: ",")
    }

    func draw(on s: OverlaySurface, theme: Theme) {
        CairoText.lock()
        defer { CairoText.unlock() }
        let c = s.context()
        defer { cairo_destroy(c); cairo_surface_flush(s.raw) }
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
            OverlayMenu.roundedRect(c, f, radius: 4 * scale)
            if it.selected {
                cairo_set_source_rgb(c, sel.r, sel.g, sel.b)
            } else if it.changed {
                cairo_set_source_rgb(c, 1.0, 0.84, 0.5)   // just (re)read: amber for a moment
            } else {
                cairo_set_source_rgb(c, 1, 1, 1)
            }
            cairo_fill(c)
            let g = it.selected ? 1.0 : 0.1
            cairo_set_source_rgb(c, g, g, g)
            OverlayText.show(c, it.label, in: f, size: Self.fontSize(scale: scale), centered: true)
            if it.styles.contains("underline") {
                cairo_rectangle(c, f.x + 5 * scale, f.maxY - 4 * scale, f.width - 10 * scale, max(1, scale))
                cairo_fill(c)
            }
            if it.styles.contains("surround") {
                OverlayMenu.roundedRect(c, f.insetBy(dx: 1.5 * scale, dy: 1.5 * scale), radius: 4 * scale)
                cairo_set_line_width(c, max(1, scale))
                cairo_stroke(c)
            }
        }
    }
}

// MARK: popups

/// A popup list drawn with Cairo: a word's candidates or the context menu. Pointer, touch and
/// keyboard (Up/Down, Enter, Esc) drive it.
struct OverlayMenu: Equatable {
    enum Action: Equatable {
        case candidate(WordRef, Int)
        case copy, paste, remove, removeWord(WordRef), convertWord(WordRef), convertBlock, export, candidates(WordRef?)
    }
    struct Item: Equatable {
        var label: String
        var action: Action
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
        let w = max(items.map { OverlayText.width($0.label, size: fs) }.max() ?? 0, OverlayText.width(title, size: fs * 0.85)) + 32 * scale
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

    static func roundedRect(_ c: OpaquePointer, _ r: Rect, radius: Double) {
        let rad = min(radius, r.width / 2, r.height / 2)
        cairo_new_sub_path(c)
        cairo_arc(c, r.maxX - rad, r.y + rad, rad, -.pi / 2, 0)
        cairo_arc(c, r.maxX - rad, r.maxY - rad, rad, 0, .pi / 2)
        cairo_arc(c, r.x + rad, r.maxY - rad, rad, .pi / 2, .pi)
        cairo_arc(c, r.x + rad, r.y + rad, rad, .pi, 3 * .pi / 2)
        cairo_close_path(c)
    }

    func draw(on s: OverlaySurface, theme: Theme) {
        CairoText.lock()
        defer { CairoText.unlock() }
        let c = s.context()
        defer { cairo_destroy(c); cairo_surface_flush(s.raw) }
        let (w, h) = size
        cairo_rectangle(c, 0, 0, w, h)
        cairo_set_source_rgb(c, 1, 1, 1)
        cairo_fill_preserve(c)
        cairo_set_source_rgb(c, 0.55, 0.58, 0.62)
        cairo_set_line_width(c, max(1, scale))
        cairo_stroke(c)
        let fs = Self.fontSize(scale: scale)
        if !title.isEmpty {
            cairo_set_source_rgb(c, 0.4, 0.4, 0.42)
            OverlayText.show(c, title, in: Rect(x: 12 * scale, y: 4 * scale, width: w - 24 * scale, height: titleHeight), size: fs * 0.85, centered: false)
        }
        let sel = theme.selectionColor
        for (i, it) in items.enumerated() {
            let f = frame(of: i)
            if i == highlighted {
                Self.roundedRect(c, f, radius: 4 * scale)
                cairo_set_source_rgb(c, sel.r, sel.g, sel.b)
                cairo_fill(c)
            }
            let g = i == highlighted ? 1.0 : it.enabled ? 0.1 : 0.65
            cairo_set_source_rgb(c, g, g, g)
            cairo_select_font_face(c, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, it.current ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            OverlayText.show(c, it.label, in: f.insetBy(dx: 8 * scale, dy: 0), size: fs, centered: false)
        }
    }
}
