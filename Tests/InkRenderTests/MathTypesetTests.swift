import Foundation
import InkMath
import InkModel
@testable import InkRender
import Testing

/// Typeset math: layout geometry by construct, and golden images of a Math block.
@Suite struct MathTypesetTests {
    static let setter = MathTypesetter(font: FontSpec(family: "DejaVu Sans", size: 6), metrics: CairoFontMetrics())
    static func layout(_ latex: String) throws -> MathLayout { setter.layout(try MathNode.parse(latex: latex)) }

    static func rules(_ l: MathLayout) -> [Rect] {
        l.marks.compactMap { if case .rule(let r, _) = $0 { return r } else { return nil } }
    }
    static func texts(_ l: MathLayout) -> [(String, Double, Double, Double)] {
        l.marks.compactMap { if case .text(let s, let x, let b, let f, _) = $0 { return (s, x, b, f.size) } else { return nil } }
    }

    @Test func fractionBarSpansTheWiderPartOnTheAxis() throws {
        let l = try Self.layout("\\frac{1}{234}")
        let bar = try #require(Self.rules(l).first)
        let t = Self.texts(l)
        let num = try #require(t.first { $0.0 == "1" }), den = try #require(t.first { $0.0 == "234" })
        let denWidth = Self.setter.metrics.measure("234", font: FontSpec(family: "DejaVu Sans", size: den.3)).width
        #expect(bar.width >= denWidth && bar.width < denWidth + 0.4 * 6)
        #expect(bar.midY < 0 && bar.midY > -0.4 * 6, "the bar sits on the math axis, above the baseline")
        #expect(num.2 < bar.y && den.2 > bar.maxY, "numerator above, denominator below")
        #expect(num.3 < 6 && den.3 < 6, "parts are smaller")
        // The numerator is centred over the bar.
        let numWidth = Self.setter.metrics.measure("1", font: FontSpec(family: "DejaVu Sans", size: num.3)).width
        #expect(abs((num.1 + numWidth / 2) - bar.midX) < 0.05)
    }

    @Test func scriptsAreSmallerAndRaisedOrLowered() throws {
        let sup = Self.texts(try Self.layout("x^{2}")), sub = Self.texts(try Self.layout("x_{1}"))
        #expect(sup[1].3 < sup[0].3 && sup[1].2 < -0.3 * 6 && sup[1].1 > sup[0].1)
        #expect(sub[1].3 < sub[0].3 && sub[1].2 > 0.1 * 6)
        let both = Self.texts(try Self.layout("x_{1}^{2}"))
        #expect(abs(both[1].1 - both[2].1) < 1e-9, "sub and sup start at the same x")
    }

    @Test func radicalCoversItsRadicand() throws {
        let l = try Self.layout("\\sqrt{x+1}")
        let bar = try #require(Self.rules(l).first)
        let t = Self.texts(l)
        #expect(bar.x <= t.map(\.1).min()! && bar.maxX >= l.width - 0.3 * 6)
        #expect(bar.maxY < -l.ascent + 0.5)
        #expect(l.marks.contains { if case .path = $0 { return true } else { return false } })
        let nested = try Self.layout("\\sqrt{\\frac{1}{2}}")
        #expect(nested.ascent > l.ascent, "the sign grows with a taller radicand")
    }

    @Test func operatorsAreSpacedButSignsAreNot() throws {
        let plus = Self.texts(try Self.layout("1+2")), sign = Self.texts(try Self.layout("-2"))
        let oneWidth = Self.setter.metrics.measure("1", font: FontSpec(family: "DejaVu Sans", size: 6)).width
        #expect(plus[1].1 > oneWidth + 0.2 * 6 * 0.9)
        #expect(sign[1].1 < Self.setter.metrics.measure("−", font: FontSpec(family: "DejaVu Sans", size: 6)).width + 0.01)
    }

    @Test func hugeAndDeepInputStaysBounded() throws {
        var deep = MathNode.number("1")
        for _ in 0..<500 { deep = .fraction(numerator: deep, denominator: .number("2")) }
        let l = Self.setter.layout(deep)
        #expect(l.width.isFinite && l.height.isFinite)
        let long = Self.setter.layout(.row(Array(repeating: MathNode.op("+"), count: 500)))
        #expect(long.width > 0 && long.width.isFinite)
    }

    static func mathDocument() throws -> PartModel {
        let p = try PartModel(id: "math", type: "Text Document")
        let lines = [
            TypesetMath.Line(latex: "\\frac{1}{3}+\\frac{1}{6}=", result: "\\frac{1}{2}", x: 8, baseline: 16, size: 6),
            TypesetMath.Line(latex: "x^{2}+\\sqrt{x_{1}+3}-(\\frac{a}{b})^{2}=", result: "12.5", x: 8, baseline: 36, size: 6),
            TypesetMath.Line(latex: "\\sqrt[3]{27}\\times2\\sin(30)\\leq|-4|", x: 8, baseline: 52, size: 6),
            TypesetMath.Line(latex: "1\\div0=", diagnostic: "division by zero", x: 8, baseline: 66, size: 6),
        ]
        var b = BlockData(id: "m1", type: "Math", box: Rect(x: 5, y: 5, width: 130, height: 70))
        b.properties[TypesetMath.propertyKey] = TypesetMath(lines: lines).encoded
        Fixtures.addChild(p, b)
        return p
    }

    @Test func mathBlockGolden() throws {
        let r = PageRenderer(theme: .builtIn)
        let st = RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 560, viewHeight: 300, guides: false)
        try Golden.check("math-block", r.renderPNG(part: Self.mathDocument(), state: st))
    }

    @Test func damagedTypesetPropertyDrawsNothingAndDoesNotFail() throws {
        let p = try PartModel(id: "math", type: "Text Document")
        var b = BlockData(id: "m1", type: "Math", box: Rect(x: 5, y: 5, width: 130, height: 70))
        b.properties[TypesetMath.propertyKey] = "{\"lines\": [{\"latex\": \"\\\\frac{\", \"x\": 1, \"baseline\": 1e308, \"size\": 1e300}]"
        Fixtures.addChild(p, b)
        let st = RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 100, viewHeight: 100, guides: false)
        _ = try PageRenderer(theme: .builtIn).renderPNG(part: p, state: st)
    }
}
