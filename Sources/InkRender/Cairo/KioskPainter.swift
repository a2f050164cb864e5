import Foundation
import InkModel

/// One field of a kiosk form as painted around its canvas (pixels of the form's window).
public struct KioskFieldPaint: Equatable, Sendable {
    public enum Status: Equatable, Sendable { case empty, required, reading, valid, invalid }
    public var label: String
    public var labelFrame: Rect
    /// The field's box (its canvas lies over it; the frame is drawn around it).
    public var box: Rect
    /// The recognized value, typeset.
    public var value: String
    public var valueFrame: Rect
    /// The reason the value is not valid, or a hint ("required"), under the value.
    public var note: String
    public var noteFrame: Rect
    public var clearFrame: Rect
    public var status: Status
    public init(label: String, labelFrame: Rect, box: Rect, value: String, valueFrame: Rect, note: String,
                noteFrame: Rect, clearFrame: Rect, status: Status) {
        self.label = label; self.labelFrame = labelFrame; self.box = box; self.value = value; self.valueFrame = valueFrame
        self.note = note; self.noteFrame = noteFrame; self.clearFrame = clearFrame; self.status = status
    }
}

/// A whole kiosk form screen: the title, the fields, the footer; or the thank-you screen.
public struct KioskScene: Equatable, Sendable {
    public var width: Double
    public var height: Double
    public var scale: Double
    public var title: String
    public var titleFrame: Rect
    public var fields: [KioskFieldPaint]
    public var clearAllFrame: Rect
    public var submitFrame: Rect
    public var submitEnabled: Bool
    public var statusFrame: Rect
    public var statusText: String
    /// The status is a warning (a countdown, a failed submit): drawn in red.
    public var statusUrgent: Bool
    public var labelFontSize: Double
    public var valueFontSize: Double
    public var buttonFontSize: Double
    /// The thank-you screen's lines instead of the form; nil: the form.
    public var thanks: [String]?
    public init(width: Double, height: Double, scale: Double, title: String, titleFrame: Rect, fields: [KioskFieldPaint],
                clearAllFrame: Rect, submitFrame: Rect, submitEnabled: Bool, statusFrame: Rect, statusText: String,
                statusUrgent: Bool, labelFontSize: Double, valueFontSize: Double, buttonFontSize: Double, thanks: [String]?) {
        self.width = width; self.height = height; self.scale = scale; self.title = title; self.titleFrame = titleFrame
        self.fields = fields; self.clearAllFrame = clearAllFrame; self.submitFrame = submitFrame
        self.submitEnabled = submitEnabled; self.statusFrame = statusFrame; self.statusText = statusText
        self.statusUrgent = statusUrgent; self.labelFontSize = labelFontSize; self.valueFontSize = valueFontSize
        self.buttonFontSize = buttonFontSize; self.thanks = thanks
    }
}

/// Paints a kiosk form's window around its fields' canvases, with Cairo's toy text and DejaVu Sans
/// (the window lays it out: `QuireApp/Kiosk/KioskLayout.swift`).
public enum KioskPainter {
    private static let regular = FontSpec(family: "DejaVu Sans")
    private static let bold = FontSpec(family: "DejaVu Sans", bold: true)

    public static func draw(_ s: KioskScene, on surface: CairoSurface) {
        CairoText.lock()
        defer { CairoText.unlock() }
        do {
            let c = CairoContext(surface)
            c.applyFontOptions()
            c.rectangle(0, 0, s.width, s.height)
            c.setSourceRGB(0.96, 0.96, 0.95)
            c.fill()
            if let lines = s.thanks {
                drawThanks(c, s, lines)
            } else {
                drawForm(c, s)
            }
        }
        surface.flush()
    }

    private static func drawForm(_ c: CairoContext, _ s: KioskScene) {
        let k = s.scale
        c.setSourceRGB(0.12, 0.14, 0.18)
        c.selectFont(bold)
        text(c, s.title, in: s.titleFrame, size: (26 * k).rounded(), align: 0)
        for f in s.fields {
            c.selectFont(regular)
            c.setSourceRGB(0.2, 0.2, 0.22)
            text(c, f.label, in: f.labelFrame, size: s.labelFontSize, align: 0)
            // The box's frame, outside the canvas (which paints its own inside).
            let color: (Double, Double, Double) = switch f.status {
            case .invalid: (0.8, 0.15, 0.1)
            case .valid: (0.2, 0.55, 0.25)
            default: (0.45, 0.48, 0.55)
            }
            c.setSourceRGB(color.0, color.1, color.2)
            c.setLineWidth(2 * k)
            c.rectangle(f.box.insetBy(dx: -1.5 * k, dy: -1.5 * k))
            c.stroke()
            if !f.value.isEmpty {
                c.selectFont(bold)
                c.setSourceRGB(0.08, 0.1, 0.14)
                text(c, f.value, in: f.valueFrame, size: s.valueFontSize, align: 0)
                // A thin line under the value: it is tappable (candidates).
                c.setSourceRGB(0.7, 0.72, 0.76)
                c.rectangle(f.valueFrame.x, f.valueFrame.maxY - 2 * k, f.valueFrame.width, max(1, k))
                c.fill()
            }
            if !f.note.isEmpty {
                c.selectFont(regular)
                switch f.status {
                case .invalid: c.setSourceRGB(0.78, 0.12, 0.08)
                case .reading: c.setSourceRGB(0.4, 0.4, 0.45)
                default: c.setSourceRGB(0.45, 0.45, 0.48)
                }
                let frame = f.value.isEmpty ? f.valueFrame : f.noteFrame
                wrapped(c, f.note, in: frame, size: s.labelFontSize)
            }
            button(c, "Clear", f.clearFrame, enabled: true, primary: false, size: s.labelFontSize, scale: k)
        }
        button(c, "Clear all", s.clearAllFrame, enabled: true, primary: false, size: s.buttonFontSize, scale: k)
        button(c, "Submit", s.submitFrame, enabled: s.submitEnabled, primary: true, size: s.buttonFontSize, scale: k)
        if !s.statusText.isEmpty {
            c.selectFont(s.statusUrgent ? bold : regular)
            if s.statusUrgent { c.setSourceRGB(0.78, 0.12, 0.08) } else { c.setSourceRGB(0.3, 0.3, 0.33) }
            text(c, s.statusText, in: s.statusFrame, size: (17 * k).rounded(), align: 0.5)
        }
    }

    private static func drawThanks(_ c: CairoContext, _ s: KioskScene, _ lines: [String]) {
        let k = s.scale
        let lineH = 56 * k
        var y = s.height / 2 - lineH * Double(lines.count) / 2
        for (i, l) in lines.enumerated() {
            c.selectFont(i == 0 ? bold : regular)
            if i == 0 { c.setSourceRGB(0.12, 0.4, 0.2) } else { c.setSourceRGB(0.25, 0.25, 0.28) }
            text(c, l, in: Rect(x: 0, y: y, width: s.width, height: lineH), size: ((i == 0 ? 40 : 20) * k).rounded(), align: 0.5)
            y += lineH
        }
    }

    private static func button(_ c: CairoContext, _ label: String, _ f: Rect, enabled: Bool, primary: Bool, size: Double, scale k: Double) {
        c.roundedRect(f, radius: 8 * k)
        if primary && enabled { c.setSourceRGB(0.16, 0.45, 0.8) } else { c.setSourceRGB(1, 1, 1) }
        c.fillPreserve()
        c.setSourceRGB(primary && enabled ? 0.1 : 0.65, primary && enabled ? 0.32 : 0.66, primary && enabled ? 0.62 : 0.68)
        c.setLineWidth(max(1, 1.5 * k))
        c.stroke()
        c.selectFont(bold)
        let g = primary && enabled ? 1.0 : enabled ? 0.15 : 0.68
        c.setSourceRGB(g, g, g)
        text(c, label, in: f, size: size, align: 0.5)
    }

    /// Up to two lines from the top of `r` (a reason in words may be long), broken between words.
    private static func wrapped(_ c: CairoContext, _ s: String, in r: Rect, size: Double) {
        c.setFontSize(size)
        let words = s.split(separator: " ").map(String.init)
        var first = ""
        for (i, w) in words.enumerated() {
            let next = first.isEmpty ? w : first + " " + w
            if c.textExtents(next).xAdvance > r.width, !first.isEmpty {
                let lineH = size * 1.35
                text(c, first, in: Rect(x: r.x, y: r.y, width: r.width, height: lineH), size: size, align: 0)
                text(c, words[i...].joined(separator: " "), in: Rect(x: r.x, y: r.y + lineH, width: r.width, height: lineH), size: size, align: 0)
                return
            }
            first = next
        }
        text(c, s, in: Rect(x: r.x, y: r.y, width: r.width, height: size * 1.35), size: size, align: 0)
    }

    /// One line in `r`, vertically centred; `align` 0 left, 0.5 centred. Too long a line is cut
    /// with an ellipsis (a kiosk never spills text over another field).
    private static func text(_ c: CairoContext, _ s: String, in r: Rect, size: Double, align: Double) {
        c.setFontSize(size)
        var t = s.replacingOccurrences(of: "\n", with: " ")
        var w = c.textExtents(t).xAdvance
        while w > r.width, t.count > 1 {
            t = String(t.dropLast(2)) + "\u{2026}"
            w = c.textExtents(t).xAdvance
        }
        let fe = c.fontExtents()
        c.moveTo(r.x + (r.width - w) * align, r.y + (r.height - (fe.ascent + fe.descent)) / 2 + fe.ascent)
        c.showText(t)
    }
}
