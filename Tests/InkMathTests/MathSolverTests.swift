import InkMath
import InkModel
import Testing

/// The solver: exact rationals, rounding, angle units, functions, variables, placements, errors.
@Suite struct MathSolverTests {
    static func solve(_ latex: String, _ options: MathSolverOptions = MathSolverOptions()) throws -> MathSolution {
        MathSolver.solve(lines: [try MathNode.parse(latex: latex)], options: options)[0]
    }
    /// The shown result in LaTeX, or "!kind" for a diagnostic, or "-" for no result.
    static func result(_ latex: String, _ options: MathSolverOptions = MathSolverOptions()) throws -> String {
        let s = try solve(latex, options)
        if let d = s.diagnostic { return "!" + d.kind.rawValue }
        return s.result?.latex ?? "-"
    }

    @Test func arithmetic() throws {
        let cases = [
            ("12+7=", "19"), ("2+3\\times4=", "14"), ("(2+3)\\times4=", "20"), ("10-2-3=", "5"),
            ("2^{10}=", "1024"), ("-3^{2}=", "-9"), ("(-3)^{2}=", "9"), ("2^{-2}=", "\\frac{1}{4}"),
            ("\\frac{1}{3}+\\frac{1}{6}=", "\\frac{1}{2}"), ("1/3+1/6=", "\\frac{1}{2}"), ("7\\div2=", "\\frac{7}{2}"),
            ("6\\cdot7=", "42"), ("5!=", "120"), ("3!!=", "720"), ("50\\%=", "\\frac{1}{2}"), ("12.5\\%=", "0.125"),
            ("0.1+0.2=", "0.3"), ("1,5+1=", "2.5"), ("\\sqrt{16}=", "4"), ("\\sqrt{\\frac{9}{4}}=", "\\frac{3}{2}"),
            ("\\sqrt[3]{27}=", "3"), ("\\sqrt[3]{-8}=", "-2"), ("\\sqrt{2}=", "1.414"), ("|3-5|=", "2"),
            ("2(3+4)=", "14"), ("(1+1)(2+2)=", "8"), ("2\\sqrt{9}=", "6"), ("\\frac{\\frac{1}{2}}{\\frac{3}{4}}=", "\\frac{2}{3}"),
            ("1-\\frac{5}{2}=", "-\\frac{3}{2}"), ("8^{\\frac{1}{3}}=", "2"), ("4^{0.5}=", "2"), ("0^{0}=", "1"),
            ("1\\,000+1=", "1001"), ("2\\times-3=", "-6"),
        ]
        for (latex, want) in cases { #expect(try Self.result(latex) == want, "\(latex)") }
    }

    @Test func bigIntegersNeverTrap() throws {
        #expect(try Self.result("99999999999\\times99999999999=") == "1\\times10^{22}")
        #expect(try Self.result("9223372036854775807+1=").hasSuffix("10^{18}"))
        #expect(try Self.result("20!=") == "2432902008176640000")
        #expect(try Self.result("25!=") == "1.551\\times10^{25}")
        #expect(try Self.result("171!=") == "!overflow")
        #expect(try Self.result("10^{400}=") == "!overflow")
        #expect(try Self.result("2^{9223372036854775807}=") == "!overflow")
        #expect(try Self.result("\\frac{1}{99999999999}-\\frac{1}{99999999998}=") == "0")
        #expect(try Self.result("99999999999999999999999=") == "1\\times10^{23}")
        #expect(try Self.result("-2^{60}\\times8=") == "-9.223\\times10^{18}")
    }

    @Test func roundingFollowsTheConfiguredDigits() throws {
        #expect(try Self.result("2.0/3=") == "0.667")
        #expect(try Self.result("2.0/3=", MathSolverOptions(fractionalPartDigits: 5)) == "0.66667")
        #expect(try Self.result("2.0/3=", MathSolverOptions(fractionalPartDigits: 0)) == "1")
        #expect(try Self.result("1.5+1.5=") == "3")
        #expect(try Self.result("0.0001=") == "0")
        #expect(try Self.result("-0.0001=") == "0")
        #expect(MathSolverOptions(fractionalPartDigits: 99).fractionalPartDigits == 15)
    }

    @Test func anglesAndFunctions() throws {
        #expect(try Self.result("\\sin(30)=") == "0.5")
        #expect(try Self.result("\\sin 90=") == "1")
        #expect(try Self.result("\\cos(180)=") == "-1")
        #expect(try Self.result("\\tan 45=") == "1")
        #expect(try Self.result("\\tan 90=") == "!undefined")
        let rad = MathSolverOptions(angleUnit: .radians)
        #expect(try Self.result("\\sin(\\frac{\\pi}{2})=", rad) == "1")
        #expect(try Self.result("\\cos(\\pi)=", rad) == "-1")
        #expect(try Self.result("\\sin 30=", rad) == "-0.988")
        #expect(try Self.result("\\sin^{2}30+\\cos^{2}30=") == "1")
        #expect(try Self.result("\\log 1000=") == "3")
        #expect(try Self.result("\\log_{2}8=") == "3")
        #expect(try Self.result("\\ln(e)=") == "1")
        #expect(try Self.result("\\exp(0)=") == "1")
        #expect(try Self.result("\\log 0=") == "!undefined")
        #expect(try Self.result("\\sin 2x=") == "!unknownSymbol")
        #expect(try Self.result("2\\pi=") == "6.283")
        #expect(try Self.result("\\operatorname{foo}(2)=") == "!unknownSymbol")
    }

    @Test func variablesFromEarlierLines() throws {
        let lines = try ["x=3", "2x+1=", "y=x^{2}", "x_{1}=\\frac{1}{2}", "x_{1}+y=", "z=y+1=", "z="].map(MathNode.parse(latex:))
        let s = MathSolver.solve(lines: lines)
        #expect(s[0].assigned == "x" && s[0].result == nil && s[0].diagnostic == nil)
        #expect(s[1].resultLaTeX == "7")
        #expect(s[1].solved.latex == "2x+1=7")
        #expect(s[2].assigned == "y" && s[2].value == .integer(9))
        #expect(s[3].assigned == "x_{1}")
        #expect(s[4].resultLaTeX == "\\frac{19}{2}")
        #expect(s[5].assigned == "z" && s[5].resultLaTeX == "10")
        #expect(s[6].resultLaTeX == "10")
        // A variable used before it has a value is a diagnostic, not a crash.
        let before = MathSolver.solve(lines: try ["2y=", "y=1"].map(MathNode.parse(latex:)))
        #expect(before[0].diagnostic?.kind == .unknownSymbol)
        #expect(before[0].diagnostic?.message == "y has no value")
    }

    @Test func placements() throws {
        #expect(try Self.solve("3+4=?").solved.latex == "3+4=7")
        #expect(try Self.result("?=3\\times4") == "12")
        #expect(try Self.result("3+?=4") == "!syntax")
        #expect(try Self.result("3+4") == "-")
        #expect(try Self.result("3+4=7") == "-")
        #expect(try Self.result("3<4") == "-")
        let noEqual = MathSolverOptions(atRightOfEqualSign: false)
        #expect(try Self.result("3+4=", noEqual) == "-")
        #expect(try Self.result("3+4=?", noEqual) == "7")
        #expect(try Self.result("3+4=?", MathSolverOptions(atQuestionMark: false)) == "-")
        #expect(try Self.result("3+4=", MathSolverOptions(enabled: false)) == "-")
    }

    @Test func implicitMultiplicationDisplay() throws {
        let lines = try ["x=2", "3x(x+1)="].map(MathNode.parse(latex:))
        #expect(MathSolver.solve(lines: lines)[1].solved.latex == "3x(x+1)=18")
        let explicit = MathSolver.solve(lines: lines, options: MathSolverOptions(displayImplicitMultiply: false))
        #expect(explicit[1].solved.latex == "3\\times x\\times(x+1)=18")
    }

    @Test func errorsAreDiagnostics() throws {
        let cases = [
            ("1/0=", "divisionByZero"), ("\\frac{1}{2-2}=", "divisionByZero"), ("0^{-1}=", "divisionByZero"),
            ("3+=", "syntax"), ("\\times2=", "syntax"), ("(1+2=", "syntax"), ("1+2)=", "syntax"), ("\\sin=", "syntax"),
            ("=", "syntax"), ("1\\pm2=", "syntax"), ("q=", "unknownSymbol"), ("\\sqrt{-4}=", "undefined"),
            ("(-8)^{\\frac{1}{2}}=", "undefined"), ("1.5!=", "undefined"), ("(-1)!=", "undefined"), ("x_{y_{z}}=", "unknownSymbol"),
        ]
        for (latex, kind) in cases { #expect(try Self.result(latex) == "!" + kind, "\(latex)") }
    }

    @Test func hugeInputStaysBounded() throws {
        // 500 symbols on one line, and a deeply nested tree built directly.
        let long = Array(repeating: "1+", count: 250).joined() + "0="
        #expect(try Self.result(long) == "250")
        var deep = MathNode.number("2")
        for _ in 0..<150 { deep = .fenced(open: "(", close: ")", content: .row([deep, .op("+"), .number("1")])) }
        #expect(MathSolver.solve(lines: [.row([deep, .op("=")])])[0].resultLaTeX == "152")
        var tower = MathNode.number("2")
        for _ in 0..<20 { tower = .sup(base: .number("2"), exponent: tower) }
        #expect(MathSolver.solve(lines: [.row([tower, .op("=")])])[0].diagnostic?.kind == .overflow)
    }
}

@Suite struct MathSolverOptionsTests {
    @Test func optionsFromConfiguration() throws {
        let c = Configuration()
        #expect(MathSolverOptions(configuration: c) == MathSolverOptions())
        try c.setString("rad", forKey: "math.solver.angle-unit")
        try c.setNumber(5, forKey: "math.solver.fractional-part-digits")
        try c.setStringArray(["at-question-mark"], forKey: "math.solver.numerical-computation")
        try c.setBoolean(false, forKey: "math.solver.display-implicit-multiply")
        let o = MathSolverOptions(configuration: c)
        #expect(o.angleUnit == .radians && o.fractionalPartDigits == 5 && !o.atRightOfEqualSign && o.atQuestionMark)
        #expect(!o.displayImplicitMultiply && o.enabled)
        #expect(o.numericalComputation == ["at-question-mark"])
        try c.setString("gradians", forKey: "math.solver.angle-unit")
        try c.setNumber(-4, forKey: "math.solver.fractional-part-digits")
        let bad = MathSolverOptions(configuration: c)
        #expect(bad.angleUnit == .degrees && bad.fractionalPartDigits == 0)
    }
}
