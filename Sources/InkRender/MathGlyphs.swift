import Foundation
import InkMath
import InkModel

/// One symbol of typeset math as the math recognizer would name it, with where it is: what lets a
/// pen edit converted math (`digitalEdit`). Scratch-out removes the glyphs it covers, and ink
/// written into typeset math is read together with its glyphs (MathParser takes both).
public struct MathGlyph: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case symbol
        /// A fraction bar: `holds` its numerator's and denominator's glyphs.
        case fractionBar
        /// A radical sign with its overbar: `holds` its radicand's glyphs.
        case radical
    }

    /// The class, in the recognizer's alphabet (`-` for a minus sign and a fraction bar, `√`).
    public var symbol: Character
    /// Its box as the structure parser reads it, relative to the layout's origin (y down): the
    /// glyph's ink; a radical's sign together with its overbar, as a hand writes it.
    public var box: Rect
    /// What a scratch-out must cover to remove it: the ink, a radical's sign alone, a bar with
    /// some height (a rule is thinner than any scratch).
    public var hitBox: Rect
    public var kind: Kind
    /// Indices in `MathLayout.glyphs` of what a fraction bar or radical holds.
    public var holds: [Int]
    /// A radical's tick: where its sign's ink comes within 30% of its top (`ParsedSymbolInput.tick`).
    public var tick: Double?

    public init(symbol: Character, box: Rect, hitBox: Rect? = nil, kind: Kind = .symbol, holds: [Int] = [], tick: Double? = nil) {
        self.symbol = symbol; self.box = box; self.hitBox = hitBox ?? box; self.kind = kind; self.holds = holds; self.tick = tick
    }

    /// The same glyph moved by (dx, dy): placed on a page at a line's left edge and baseline.
    public func offsetBy(dx: Double, dy: Double) -> MathGlyph { moved(dx: dx, dy: dy, offset: 0) }

    /// The same glyph moved by (dx, dy), its `holds` shifted by `offset`.
    func moved(dx: Double, dy: Double, offset: Int) -> MathGlyph {
        var g = self
        g.box = Rect(x: box.x + dx, y: box.y + dy, width: box.width, height: box.height)
        g.hitBox = Rect(x: hitBox.x + dx, y: hitBox.y + dy, width: hitBox.width, height: hitBox.height)
        g.holds = holds.map { $0 + offset }
        g.tick = tick.map { $0 + dx }
        return g
    }

    /// The recognizer's class of a typeset character (the minus sign is the hyphen class).
    static func symbol(of c: Character) -> Character { c == "−" ? "-" : c }

    /// One glyph per character of a text run at the origin: each character's own ink where the
    /// metrics provider knows it, else its cell.
    static func glyphs(of text: String, font: FontSpec, measured m: TextMetrics, metrics: FontMetricsProvider) -> [MathGlyph] {
        let chars = Array(text)
        guard chars.count > 1 else {
            guard let c = chars.first else { return [] }
            let box = m.inkBounds ?? Rect(x: 0, y: -m.ascent, width: m.width, height: m.ascent + m.descent)
            return [MathGlyph(symbol: symbol(of: c), box: box)]
        }
        return chars.enumerated().map { k, c in
            let cell = k < m.glyphBoxes.count ? m.glyphBoxes[k] : Rect(x: 0, y: -m.ascent, width: 0, height: m.ascent + m.descent)
            let ink = metrics.measure(String(c), font: font).inkBounds
            let box = ink.map { Rect(x: cell.x + $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? cell
            return MathGlyph(symbol: symbol(of: c), box: box)
        }
    }
}
