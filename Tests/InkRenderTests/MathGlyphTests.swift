import Foundation
import InkMath
import InkModel
@testable import InkRender
import Testing

/// Typeset math read back as symbols (`MathLayout.glyphs`): what editing converted math by pen
/// rests on. The structure parser must give back the expression from its glyphs alone.
@Suite struct MathGlyphTests {
    static let setter = MathTypesetter(font: FontSpec(family: "DejaVu Sans", size: 6), metrics: CairoFontMetrics())

    static func reread(_ l: MathLayout) -> MathNode {
        MathParser.parse(l.glyphs.map { g in
            ParsedSymbolInput(label: g.symbol, box: MathBox(x: g.box.x, y: g.box.y, width: g.box.width, height: g.box.height),
                              tick: g.tick, isStructure: g.kind != .symbol)
        })
    }

    @Test(arguments: ["12+7=", "2x+1=", "x^{2}", "x_{1}+4", "\\frac{1}{2}", "\\frac{\\beta+4}{9}", "\\frac{4W}{m\\div7}\\leq56",
                      "\\sqrt{63}", "44+\\sqrt{0}-7^{6}", "\\frac{6}{88+0_{4}}", "6_{2}=", "u^{1}=", "\\sqrt{a}>b", "3.5\\times2",
                      "\\sin(30)+1", "2(3+4)=", "\\frac{1}{3}+\\frac{1}{6}=", "(x+1)^{2}", "\\frac{\\frac{1}{2}}{3}", "1/2", "-3+5", "k-1"])
    func typesetMathReadsBackAsItself(_ latex: String) throws {
        let node = try MathNode.parse(latex: latex)
        let l = Self.setter.layout(node)
        #expect(Self.reread(l).latex == latex)
    }

    @Test func glyphsNameTheirClassesAndStructures() throws {
        let l = Self.setter.layout(try MathNode.parse(latex: "\\frac{12}{\\sqrt{3}}-x"))
        #expect(l.glyphs.map(\.symbol) == ["1", "2", "3", "√", "-", "-", "x"])
        let bar = try #require(l.glyphs.first { $0.kind == .fractionBar })
        #expect(bar.holds.map { l.glyphs[$0].symbol } == ["1", "2", "3", "√"], "the bar holds both parts")
        let root = try #require(l.glyphs.first { $0.kind == .radical })
        #expect(root.holds.map { l.glyphs[$0].symbol } == ["3"])
        #expect(root.hitBox.width < root.box.width / 2, "a scratch must cover the sign, not the radicand")
        #expect(bar.hitBox.height > bar.box.height, "a bar is hit with some height")
        // Each digit of a number has its own box, left to right.
        let one = l.glyphs[0].box, two = l.glyphs[1].box
        #expect(one.maxX <= two.x + 0.01 && one.width > 0 && two.width > 0)
    }

    /// Every glyph names the marks that draw it.
    @Test func glyphsNameTheirMarks() throws {
        let l = Self.setter.layout(try MathNode.parse(latex: "\\frac{12}{\\sqrt{3}}-x+\\left(\\frac{1}{2}\\right)"))
        for g in l.glyphs {
            #expect(!g.marks.isEmpty && g.marks.allSatisfy(l.marks.indices.contains), "\(g.symbol)")
        }
        let one = l.glyphs[0]
        guard case .text(let t, _, _, _, _) = l.marks[one.marks[0]] else { Issue.record("a digit is text"); return }
        #expect(t == "12" && one.character == 0 && l.glyphs[1].character == 1)
        #expect(l.glyphs.first { $0.kind == .radical }?.marks.count == 2, "the sign and its overbar")
    }

    /// Glyphs hidden (scratched out): the others stay where they were, a character is cut out of
    /// its run, the place is kept and outlined.
    @Test func hidingKeepsTheOthersInPlace() throws {
        let l = Self.setter.layout(try MathNode.parse(latex: "123+4="))
        let h = Self.setter.hiding([1], in: l)
        #expect(h.width == l.width && h.ascent == l.ascent)
        #expect(h.glyphs.map(\.symbol) == ["1", "3", "+", "4", "="])
        #expect(h.glyphs.map(\.box) == [0, 2, 3, 4, 5].map { l.glyphs[$0].box })
        let texts = h.marks.compactMap { m -> (String, Double)? in if case .text(let t, let x, _, _, _) = m { return (t, x) } else { return nil } }
        #expect(texts.map(\.0) == ["1", "3", "+", "4", "="])
        #expect(abs(texts[1].1 - (Self.setter.metrics.measure("12", font: FontSpec(family: "DejaVu Sans", size: 6)).width)) < 1e-9,
                "the 3 where it was")
        let slots = h.marks.compactMap { m -> [Point]? in if case .path(let p, _, _) = m { return p } else { return nil } }
        #expect(slots.count == 1)
        let two = l.glyphs[1].box
        #expect(slots.first.map { p in p.map(\.x).min()! < two.x && p.map(\.x).max()! > two.maxX } == true, "outlined where the 2 was")
        #expect(Self.reread(h).latex == "13+4=")
        // The marks the glyphs left name are the right ones.
        if case .text(let t, _, _, _, _) = h.marks[h.glyphs[1].marks[0]] { #expect(t == "3") } else { Issue.record("3 is text") }
    }

    /// A fraction part or radicand scratched out keeps an outlined slot, read back as empty.
    @Test func emptySlotsStayStructures() throws {
        for latex in ["\\frac{1}{}", "\\frac{}{2}+3", "\\sqrt{}"] {
            let l = Self.setter.layout(try MathNode.parse(latex: latex))
            #expect(l.marks.contains { if case .path = $0 { return true } else { return false } }, "\(latex): the slot is drawn")
            #expect(Self.reread(l).latex == latex)
        }
    }
}
