import Foundation
import Quire

/// Where everything of a kiosk form goes in its window (pixels): the title, each field's label,
/// box, value and Clear button, and the footer with Clear all, the status line and Submit. The
/// form's page (the fields' boxes in millimetres, with the label line above each) is scaled
/// uniformly to fit the window's left part; each field's value and Clear sit in a column to the
/// right of the page, level with its box. Pure arithmetic, tested without a display.
struct KioskLayout: Equatable {
    /// One field as the layout needs it.
    struct Input: Equatable {
        var place: Rect
    }

    struct Field: Equatable {
        /// The field's box: its canvas (the editor's view).
        var box: Rect
        /// The label's line above the box.
        var label: Rect
        /// Where the recognized value is typeset (tapping it shows the candidates).
        var value: Rect
        /// Where the reason a value is not valid is written, under the value.
        var error: Rect
        var clear: Rect
    }

    /// What a point of the window hits.
    enum Target: Equatable {
        case value(Int), clear(Int), clearAll, submit
    }

    let width: Double
    let height: Double
    let scale: Double
    /// View pixels per millimetre of the form's page.
    let pixelsPerMillimetre: Double
    let title: Rect
    let fields: [Field]
    let clearAll: Rect
    let submit: Rect
    /// The status line between the footer's buttons (countdown, submit errors).
    let status: Rect
    let labelFontSize: Double
    let valueFontSize: Double
    let buttonFontSize: Double

    /// The label's line above each box, millimetres (as the spec's automatic layout leaves).
    static let labelLineMM = 10.0
    /// The page is never scaled past this (a form of two small fields on a big screen).
    static let maxPixelsPerMillimetre = 8.0

    init(fields input: [Input], width: Int, height: Int, scale: Double) {
        let w = Double(max(1, width)), h = Double(max(1, height))
        self.width = w
        self.height = h
        self.scale = scale
        let m = (16 * scale).rounded()
        let titleH = (60 * scale).rounded(), footerH = (80 * scale).rounded()
        title = Rect(x: m, y: 0, width: max(1, w - 2 * m), height: titleH)
        let buttonH = (56 * scale).rounded(), buttonW = (180 * scale).rounded()
        let buttonY = h - footerH + (footerH - buttonH) / 2
        clearAll = Rect(x: m, y: buttonY, width: buttonW, height: buttonH)
        submit = Rect(x: w - m - buttonW, y: buttonY, width: buttonW, height: buttonH)
        status = Rect(x: clearAll.maxX + m, y: buttonY, width: max(1, submit.x - clearAll.maxX - 2 * m), height: buttonH)

        // The page: every box with its label line.
        var page = Rect.zero
        for (i, f) in input.enumerated() {
            let r = Rect(x: f.place.x, y: f.place.y - Self.labelLineMM, width: f.place.width, height: f.place.height + Self.labelLineMM)
            page = i == 0 ? r : page.union(r)
        }
        if page.isEmpty { page = Rect(x: 0, y: 0, width: 100, height: 100) }
        let contentW = max(1, w - 2 * m), contentH = max(1, h - titleH - footerH)
        let columnW = max(300 * scale, contentW * 0.36)
        let pageW = max(1, contentW - columnW - m)
        let s = min(Self.maxPixelsPerMillimetre, pageW / page.width, contentH / page.height)
        pixelsPerMillimetre = s
        let ox = m - page.x * s, oy = titleH - page.y * s
        let columnX = m + page.width * s + m
        let columnWidth = max(1, w - m - columnX)
        labelFontSize = min(22 * scale, max(12 * scale, 4 * s)).rounded()
        valueFontSize = min(28 * scale, max(15 * scale, 5 * s)).rounded()
        buttonFontSize = (20 * scale).rounded()

        let line = (valueFontSize * 1.5).rounded()
        let clearW = (96 * scale).rounded()
        var below = titleH
        var out: [Field] = []
        for f in input {
            let box = Rect(x: (ox + f.place.x * s).rounded(), y: (oy + f.place.y * s).rounded(),
                           width: max(1, (f.place.width * s).rounded()), height: max(1, (f.place.height * s).rounded()))
            let label = Rect(x: box.x, y: box.y - Self.labelLineMM * s, width: box.width, height: Self.labelLineMM * s)
            // Level with the box, below the previous field's entry when two boxes share a row.
            let y = max(box.y, below)
            let clearH = min(max(40 * scale, min(box.height, 56 * scale)), 56 * scale).rounded()
            let clear = Rect(x: columnX + columnWidth - clearW, y: y, width: clearW, height: clearH)
            let textW = max(1, clear.x - columnX - 8 * scale)
            let value = Rect(x: columnX, y: y, width: textW, height: line)
            // Two lines: a reason in words may need them.
            let error = Rect(x: columnX, y: y + line, width: textW, height: (labelFontSize * 2.7).rounded())
            below = max(error.maxY, clear.maxY) + 4 * scale
            out.append(Field(box: box, label: label, value: value, error: error, clear: clear))
        }
        fields = out
    }

    /// The button or value under a point of the window (boxes are their canvases' own).
    func target(at p: Point) -> Target? {
        if submit.contains(p) { return .submit }
        if clearAll.contains(p) { return .clearAll }
        for (i, f) in fields.enumerated() {
            if f.clear.contains(p) { return .clear(i) }
            if f.value.union(f.error).contains(p) { return .value(i) }
        }
        return nil
    }
}
