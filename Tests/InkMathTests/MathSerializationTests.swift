import InkMath
import Testing

/// Canonical LaTeX, MathML and text of each construct, and the LaTeX parser.
@Suite struct MathSerializationTests {
    static let x = MathNode.identifier("x")
    static func n(_ s: String) -> MathNode { .number(s) }
    static func o(_ s: String) -> MathNode { .op(s) }

    @Test func canonicalLaTeXOfEachConstruct() {
        let x = Self.x, n = Self.n, o = Self.o
        let cases: [(MathNode, String)] = [
            (.row([n("12"), o("+"), n("7"), o("=")]), "12+7="),
            (.fraction(numerator: n("1"), denominator: n("3")), "\\frac{1}{3}"),
            (.sup(base: x, exponent: n("2")), "x^{2}"),
            (.sub(base: x, index: n("1")), "x_{1}"),
            (.subSup(base: x, index: n("1"), exponent: n("2")), "x_{1}^{2}"),
            (.root(radicand: x, index: nil), "\\sqrt{x}"),
            (.root(radicand: x, index: n("3")), "\\sqrt[3]{x}"),
            (.row([n("2"), o("×"), n("3"), o("÷"), n("4"), o("·"), n("5"), o("±"), n("1")]), "2\\times3\\div4\\cdot5\\pm1"),
            (.row([x, o("≤"), n("1"), o("≥"), n("2"), o("≠"), n("3"), o("−"), n("4")]), "x\\leq1\\geq2\\neq3-4"),
            (.row([.identifier("π"), x]), "\\pi x"),
            (.row([.identifier("θ"), o("+"), .identifier("α"), .identifier("β")]), "\\theta+\\alpha\\beta"),
            (.row([.function("sin"), x]), "\\sin x"),
            (.row([.function("cos"), .fenced(open: "(", close: ")", content: .row([n("2"), x]))]), "\\cos(2x)"),
            (.fenced(open: "{", close: "}", content: x), "\\{x\\}"),
            (.row([n("50"), o("%")]), "50\\%"),
            (.sup(base: .fenced(open: "(", close: ")", content: .row([x, o("+"), n("1")])), exponent: n("2")), "(x+1)^{2}"),
            (.sup(base: .row([n("2"), x]), exponent: n("2")), "{2x}^{2}"),
            (.row([.function("sinh"), x]), "\\sinh x"),
            (.row([.function("arsinh"), x]), "\\operatorname{arsinh}x"),
        ]
        for (node, latex) in cases {
            #expect(node.latex == latex)
            #expect((try? MathNode.parse(latex: latex)) == node, "parse \(latex)")
        }
    }

    /// Ground truth of expressions composed by tools/recognition/math/compose.py (validation
    /// writers, seed 5): the writer and the parser must give back exactly these strings.
    static let composed: [String] = [
        #"c^{8}\div\frac{\sqrt{23}-5}{\sqrt{5n}}\geq6\alpha"#,
        #"\sqrt{\sqrt{86\cdot n}}\cdot\theta+z_{8}\geq k"#,
        #"7+\frac{(5\times6)^{7}-\sqrt{\alpha}}{5.3}"#,
        #"\sqrt{0\div\beta}/\frac{8,1-9}{25\times5}"#,
        #"\frac{36}{8\beta}\cdot0^{2}-\sqrt{5_{3}}"#,
        #"\sqrt{3/\beta^{43\times2}}\times\sqrt{0}"#,
        #"\frac{\frac{56\times21}{35+46}}{1}\div7"#,
        #"\frac{62\times3}{4}-\frac{4}{49+43}"#,
        #"\beta^{-6}\div\frac{125}{7+7^{7}}="#,
        #"3^{7}\div\sqrt{60-1}\div9^{7_{6}}"#,
        #"\frac{\frac{p}{6a}+c^{4}}{y/85}="#,
        #"\frac{\frac{32+\pi}{49}}{4-91}="#,
        #"\sqrt{92!}-\frac{6i}{\alpha+10}"#,
        #"\frac{I-9a}{0}-(\alpha\times7)"#,
        #"21\times\sqrt{427\div3^{8-6}}="#,
        #"\frac{36}{49}\div95\div12\leq5"#,
        #"\sqrt{76\times\sqrt{8a}}\geq d"#,
        #"\frac{\frac{91.5}{57}}{35}/9=7"#,
        #"\frac{2}{b^{-5}-\sqrt{865}}=b"#,
        #"\frac{7}{5,3%/k}-\sqrt{9k}=l"#,
        #"n^{\frac{7+0}{y}}\times3a=3x"#,
        #"\sqrt{8-3\pi}-\sqrt{k+6}+63="#,
        #"\frac{2}{d+4y}-\theta^{6.1}="#,
        #"\sqrt{25-7}-2\beta+4\neq911"#,
        #"\sqrt{\sqrt{3}+4_{9}}+1,0="#,
        #"71+\frac{1^{-7.4}}{\pi-9}="#,
        #"\frac{6z-4t}{2-z}\div8/x=z"#,
        #"\frac{a}{\sqrt{998}\div14}"#,
        #"\sqrt{90}-\sqrt{2\beta}=87"#,
        #"3+\sqrt{56+42}+\sqrt{809}"#,
        #"\frac{1}{6\div6}-y+5^{9}="#,
        #"(7\times\frac{5}{69+24})="#,
        #"9!\times\frac{3-40}{1}-4"#,
        #"\sqrt{218-9z}/84.9/6^{1}"#,
        #"\sqrt{(7n-a/6)}/32\leq4t"#,
        #"8-\sqrt{3-\sqrt{t+t}}/37"#,
        #"938\times26+894.4\neq34"#,
        #"\sqrt{x_{1}/138!}/82=36"#,
        #"a\times\pi\times3\neq a"#,
        #"93+0-\sqrt{\sqrt{6-60}}"#,
        #"\sqrt{30-5}\times2^{6}"#,
        #"91\div\sqrt{85+\alpha}"#,
        #"\frac{54%}{9\pi\cdot5}"#,
        #"\frac{c+0}{61/4.3}=45!"#,
        #"\sqrt{\tan(9)+c^{2}}=0"#,
        #"\sqrt{5x}-\beta\geq404"#,
        #"x_{9}\div z^{5}\neq q"#,
        #"\sqrt{\cos(4a)/5y}=90"#,
        #"36+\frac{8\cdot60}{4}"#,
        #"6\alpha/\frac{95}{5}="#,
        #"3\times(501/7)^{1}=9t"#,
        #"\frac{71\cdot6}{3}=82"#,
        #"\frac{5b}{74\div99}=3"#,
        #"3t\times y/\sqrt{15}"#,
        #"24+\frac{4-5}{93+5}="#,
        #"t^{-1}+\frac{2.4}{k}"#,
        #"226.6-\frac{5v}{5e}="#,
        #"102-\frac{8i}{6a/9c}"#,
        #"7+\sqrt{40\times\pi}"#,
        #"\sqrt{29}-9\times55="#
    ]

    @Test func composedGroundTruthRoundTrips() throws {
        for latex in Self.composed {
            let node = try MathNode.parse(latex: latex)
            #expect(node.latex == latex.replacingOccurrences(of: "%", with: "\\%"), "\(latex)")
        }
    }

    @Test func parserAcceptsTypedVariants() throws {
        #expect(try MathNode.parse(latex: "x^2 + \\left( y \\right) * 3 \\le 4").latex == "x^{2}+(y)\\times3\\leq4")
        #expect(try MathNode.parse(latex: "\\dfrac12").latex == "\\frac{1}{2}")
        #expect(try MathNode.parse(latex: "x^23") == .row([.sup(base: Self.x, exponent: Self.n("2")), Self.n("3")]))
        #expect(try MathNode.parse(latex: "\\operatorname{sinh}x") == .row([.function("sinh"), Self.x]))
        #expect(try MathNode.parse(latex: "|x|^{2}") == .sup(base: .fenced(open: "|", close: "|", content: Self.x), exponent: Self.n("2")))
        // An unpaired bracket stays an operator.
        #expect(try MathNode.parse(latex: "(1+2") == .row([Self.o("("), Self.n("1"), Self.o("+"), Self.n("2")]))
        #expect(try MathNode.parse(latex: "3.25.") == .row([Self.n("3.25"), Self.o(".")]))
        #expect(try MathNode.parse(latex: "") == .row([]))
    }

    @Test func parserRejectsBadInput() {
        for bad in ["\\frac{1}", "x^", "{x", "x}", "\\foo", "x^{1}^{2}", "x_1_2", "\\", "€", "\\sqrt[3{x}",
                    String(repeating: "{", count: 5000)] {
            #expect(throws: MathSyntaxError.self, "\(bad.prefix(20))") { try MathNode.parse(latex: bad) }
        }
    }

    @Test func mathMLOfEachConstruct() throws {
        func ml(_ latex: String) throws -> String {
            let m = try MathNode.parse(latex: latex).mathML
            let head = "<math xmlns=\"http://www.w3.org/1998/Math/MathML\">"
            #expect(m.hasPrefix(head) && m.hasSuffix("</math>"))
            return String(m.dropFirst(head.count).dropLast("</math>".count))
        }
        #expect(try ml("12+7=") == "<mn>12</mn><mo>+</mo><mn>7</mn><mo>=</mo>")
        #expect(try ml("\\frac{x+1}{2}") == "<mfrac><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow><mn>2</mn></mfrac>")
        #expect(try ml("x^{2}") == "<msup><mi>x</mi><mn>2</mn></msup>")
        #expect(try ml("x_{1}") == "<msub><mi>x</mi><mn>1</mn></msub>")
        #expect(try ml("x_{1}^{2}") == "<msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup>")
        #expect(try ml("\\sqrt{2x}") == "<msqrt><mn>2</mn><mi>x</mi></msqrt>")
        #expect(try ml("\\sqrt[3]{8}") == "<mroot><mn>8</mn><mn>3</mn></mroot>")
        #expect(try ml("(a)") == "<mrow><mo>(</mo><mi>a</mi><mo>)</mo></mrow>")
        #expect(try ml("x<y\\leq2-1") == "<mi>x</mi><mo>&lt;</mo><mi>y</mi><mo>≤</mo><mn>2</mn><mo>−</mo><mn>1</mn>")
        #expect(try ml("\\sin x") == "<mi>sin</mi><mo>&#x2061;</mo><mi>x</mi>")
        #expect(try ml("\\pi") == "<mi>π</mi>")
    }

    @Test func plainTextOfEachConstruct() throws {
        let cases = [
            ("12+7=", "12+7="), ("\\frac{1}{3}", "1/3"), ("\\frac{x+1}{2}", "(x+1)/2"), ("2\\frac{1}{3}", "2(1/3)"),
            ("1+\\frac{1}{3}=", "1+1/3="), ("x^{n+1}", "x^(n+1)"), ("x_{1}", "x_1"), ("\\sqrt{x+1}", "√(x+1)"),
            ("\\sqrt[3]{8}", "∛8"), ("\\sqrt[5]{x}", "x^(1/5)"), ("\\sin x", "sin x"), ("\\cos(x)", "cos(x)"),
            ("2\\times3\\div4-1", "2×3÷4−1"), ("\\pi r^{2}", "πr^2"),
        ]
        for (latex, text) in cases {
            #expect(try MathNode.parse(latex: latex).plainText == text, "\(latex)")
        }
    }
}
