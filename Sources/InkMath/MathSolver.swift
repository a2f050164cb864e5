import Foundation
import InkModel

/// How the solver works (`math.solver.*`, docs/MATH.md#solver).
public struct MathSolverOptions: Sendable, Hashable {
    /// `math.solver.enable`: compute at all.
    public var enabled: Bool
    /// `math.solver.numerical-computation` holds `at-right-of-equal-sign`: a result after a trailing `=`.
    public var atRightOfEqualSign: Bool
    /// `math.solver.numerical-computation` holds `at-question-mark`: a result in place of `?` (`3+4=?`).
    public var atQuestionMark: Bool
    /// `math.solver.fractional-part-digits`: decimals are rounded to this many (0-15) digits.
    public var fractionalPartDigits: Int
    /// `math.solver.angle-unit`.
    public var angleUnit: MathAngleUnit
    /// `math.solver.display-implicit-multiply`: the solved expression keeps products written without
    /// a sign as written (`2x`); false shows them with `×` (`2×x`).
    public var displayImplicitMultiply: Bool

    public init(enabled: Bool = true, atRightOfEqualSign: Bool = true, atQuestionMark: Bool = true,
                fractionalPartDigits: Int = 3, angleUnit: MathAngleUnit = .degrees, displayImplicitMultiply: Bool = true) {
        self.enabled = enabled; self.atRightOfEqualSign = atRightOfEqualSign; self.atQuestionMark = atQuestionMark
        self.fractionalPartDigits = min(max(fractionalPartDigits, 0), 15)
        self.angleUnit = angleUnit; self.displayImplicitMultiply = displayImplicitMultiply
    }

    /// The `math.solver.numerical-computation` value for these options.
    public var numericalComputation: [String] {
        (atRightOfEqualSign ? ["at-right-of-equal-sign"] : []) + (atQuestionMark ? ["at-question-mark"] : [])
    }
}

/// What the solver made of one line.
public struct MathSolution: Sendable, Hashable {
    /// The computed value, when a result was asked for (`=` at the end, `?`) or a variable assigned.
    public var value: MathNumber?
    /// The result as it is shown: an integer, a fraction (exact input) or a rounded decimal.
    public var result: MathNode?
    /// Why there is no value, shown beside the expression.
    public var diagnostic: MathDiagnostic?
    /// The variable this line gave a value (`x = 3`).
    public var assigned: String?
    /// The line with its result: after the trailing `=`, or in place of `?`.
    public var solved: MathNode

    /// The result in canonical LaTeX, nil without one.
    public var resultLaTeX: String? { result?.latex }
}

/// Evaluates lines of math in order: a line `x = 3` gives `x` a value that later lines use.
/// Never throws and never traps: a line that cannot be computed gets a `MathDiagnostic`.
public struct MathSolver: Sendable {
    public var options: MathSolverOptions
    /// Variables assigned so far, by name (`x`, `x_{1}`).
    public var variables: [String: MathNumber] = [:]

    public init(options: MathSolverOptions = MathSolverOptions()) { self.options = options }

    /// Solves each line in order, later lines seeing earlier assignments.
    public static func solve(lines: [MathNode], options: MathSolverOptions = MathSolverOptions()) -> [MathSolution] {
        var solver = MathSolver(options: options)
        return lines.map { solver.solve($0) }
    }

    static let relations: Set<String> = ["=", "≠", "<", ">", "≤", "≥"]

    public mutating func solve(_ line: MathNode) -> MathSolution {
        let items: [MathNode]
        if case .row(let r) = line { items = r } else { items = [line] }
        let shown = options.displayImplicitMultiply ? line : Self.explicitProducts(line)
        var solution = MathSolution(solved: shown)
        guard options.enabled, !items.isEmpty else { return solution }

        // Split at the relations of the top row: `a = b = ` has segments [a], [b], [].
        var segments: [[MathNode]] = [[]], signs: [String] = []
        for item in items {
            if case .op(let s) = item, Self.relations.contains(s) {
                signs.append(s)
                segments.append([])
            } else {
                segments[segments.count - 1].append(item)
            }
        }
        let question = segments.firstIndex { $0.contains(.op("?")) }
        let evaluator = MathEvaluator(variables: variables, angleUnit: options.angleUnit)
        // Which segment to compute, and whether its value is shown as a result.
        var target: Int?, shows = false
        if let q = question {
            guard options.atQuestionMark else { return solution }
            guard segments[q] == [.op("?")], signs.count == 1, signs[0] == "=" else {
                solution.diagnostic = MathDiagnostic(.syntax, "write ? alone on one side of =")
                return solution
            }
            target = 1 - q
            shows = true
        } else if signs.last == "=", segments.last!.isEmpty, segments.count >= 2 {
            guard options.atRightOfEqualSign else { return solution }
            target = segments.count - 2
            shows = true
        }
        // `x = 3` gives x a value (so does `x = 2+1 =`, which shows it too).
        var assignee: String?
        if question == nil, signs.first == "=", segments.count >= 2, !segments[1].isEmpty,
           segments.count == 2 || target == 1 {
            assignee = MathEvaluator.variableName(MathNode.rowOrSingle(segments[0]))
            if assignee != nil { target = 1 }
        }
        guard let t = target else { return solution }
        let expr = segments[t]
        if expr.isEmpty {
            solution.diagnostic = MathDiagnostic(.syntax, "nothing to compute")
            return solution
        }
        do {
            let v = try evaluator.value(.row(expr))
            solution.value = v
            if let name = assignee {
                variables[name] = v
                solution.assigned = name
            }
            if shows {
                let r = result(v, decimal: !v.isExact || Self.hasDecimal(expr))
                solution.result = r
                solution.solved = question != nil ? Self.replacingQuestion(shown, by: r) : Self.appending(r, to: shown)
            }
        } catch let d as MathDiagnostic {
            solution.diagnostic = d
        } catch {
            solution.diagnostic = MathDiagnostic(.syntax, "\(error)")
        }
        return solution
    }

    /// The shown form of a value: an integer, a fraction when exact and not decimal, else a decimal
    /// rounded to the configured digits (`1.23×10^{20}` outside ±10^15).
    public func result(_ v: MathNumber, decimal: Bool) -> MathNode {
        if case .exact(let n, let d) = v, d == 1 || !decimal {
            let magnitude = MathNode.number(n.magnitude.description)
            let body: MathNode = d == 1 ? magnitude : .fraction(numerator: magnitude, denominator: .number(String(d)))
            return n < 0 ? .row([.op("−"), body]) : body
        }
        let x = v.double
        let digits = options.fractionalPartDigits
        if abs(x) >= 1e15 {
            var e = Int(Foundation.log10(abs(x)).rounded(.down))
            var mantissa = Self.decimal(abs(x) / Foundation.pow(10, Double(e)), digits: digits)
            // 9.9996 rounds to 10: write 1×10^(e+1) instead.
            if mantissa == "10" { mantissa = "1"; e += 1 }
            let body = MathNode.row([.number(mantissa), .op("×"), .sup(base: .number("10"), exponent: .number(String(e)))])
            return x < 0 ? .row([.op("−")] + [body]) : body
        }
        let text = Self.decimal(x, digits: digits)
        return text.hasPrefix("-") ? .row([.op("−"), .number(String(text.dropFirst()))]) : .number(text)
    }

    /// `x` rounded to `digits` places, trailing zeros and a negative zero removed.
    static func decimal(_ x: Double, digits: Int) -> String {
        var s = String(format: "%.\(digits)f", x)
        if s.contains(".") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s == "-0" ? "0" : s
    }

    private static func hasDecimal(_ items: [MathNode]) -> Bool {
        items.contains { node in
            switch node {
            case .number(let s): return s.contains(".")
            case .op(","): return true
            case .row(let r): return hasDecimal(r)
            case .fraction(let n, let d): return hasDecimal([n, d])
            case .sup(let b, let e): return hasDecimal([b, e])
            case .sub(let b, let i): return hasDecimal([b, i])
            case .subSup(let b, let i, let e): return hasDecimal([b, i, e])
            case .root(let r, let i): return hasDecimal([r] + (i.map { [$0] } ?? []))
            case .fenced(_, _, let c): return hasDecimal([c])
            case .identifier, .function, .op: return false
            }
        }
    }

    private static func appending(_ r: MathNode, to line: MathNode) -> MathNode {
        let items: [MathNode] = if case .row(let x) = line { x } else { [line] }
        let extra: [MathNode] = if case .row(let x) = r { x } else { [r] }
        return .row(items + extra)
    }

    private static func replacingQuestion(_ line: MathNode, by r: MathNode) -> MathNode {
        let items: [MathNode] = if case .row(let x) = line { x } else { [line] }
        let extra: [MathNode] = if case .row(let x) = r { x } else { [r] }
        return .row(items.flatMap { $0 == .op("?") ? extra : [$0] })
    }

    /// The tree with `×` between factors written side by side (`2x` → `2×x`).
    public static func explicitProducts(_ node: MathNode) -> MathNode {
        switch node {
        case .row(let items):
            var out: [MathNode] = []
            for item in items.map(explicitProducts) {
                if let last = out.last, endsOperand(last), RowParser.startsOperand(item),
                   !(isNumber(last) && isNumber(item)) {
                    out.append(.op("×"))
                }
                out.append(item)
            }
            return .row(out)
        case .fraction(let n, let d): return .fraction(numerator: explicitProducts(n), denominator: explicitProducts(d))
        case .sup(let b, let e): return .sup(base: b, exponent: explicitProducts(e))
        case .root(let r, let i): return .root(radicand: explicitProducts(r), index: i)
        case .fenced(let o, let c, let x): return .fenced(open: o, close: c, content: explicitProducts(x))
        default: return node
        }
    }

    private static func endsOperand(_ node: MathNode) -> Bool {
        if case .op(let s) = node { return s == "!" || s == "%" }
        return RowParser.isOperand(node)
    }

    private static func isNumber(_ node: MathNode) -> Bool {
        if case .number = node { return true }
        return false
    }
}

extension MathSolverOptions {
    /// The options a configuration sets (`math.solver.*`); unset or mistyped keys read their defaults.
    public init(configuration c: ParameterSet) {
        let places = c[.mathSolverNumericalComputation]
        self.init(enabled: c[.mathSolverEnable],
                  atRightOfEqualSign: places.contains("at-right-of-equal-sign"),
                  atQuestionMark: places.contains("at-question-mark"),
                  fractionalPartDigits: c[.mathSolverFractionalPartDigits],
                  angleUnit: MathAngleUnit(rawValue: c[.mathSolverAngleUnit]) ?? .degrees,
                  displayImplicitMultiply: c[.mathSolverDisplayImplicitMultiply])
    }
}
