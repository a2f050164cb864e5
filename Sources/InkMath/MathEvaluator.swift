import Foundation

/// Why an expression has no value: shown beside it instead of a result.
public struct MathDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The symbols do not make an expression (`3+`, `×2`, an unmatched bracket).
        case syntax
        case divisionByZero
        /// A variable with no value yet, or a symbol the solver has no meaning for.
        case unknownSymbol
        /// No real value: `√-1`, `log 0`, `tan 90°`, `1.5!`.
        case undefined
        /// Too large for the solver (`1000!`, `10^{999}`).
        case overflow
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    public var description: String { message }
}

/// Angles for `sin`, `cos` and `tan` (`math.solver.angle-unit`).
public enum MathAngleUnit: String, Sendable, Hashable, Codable {
    case degrees = "deg", radians = "rad"
}

/// The value of a written expression: the layout tree read with the usual precedence (scripts and
/// postfix `!` `%` first, then implicit products, then `× ÷ · /`, then `+ −`), functions applied to
/// the factors that follow them (`\sin 2x` is sin(2x)). See docs/MATH.md#solver.
struct MathEvaluator {
    var variables: [String: MathNumber]
    var angleUnit: MathAngleUnit

    func value(_ node: MathNode) throws -> MathNumber {
        let v = try raw(node)
        if case .real(let x) = v {
            if x.isNaN { throw MathDiagnostic(.undefined, "no real value") }
            if x.isInfinite { throw MathDiagnostic(.overflow, "the result is too large") }
        }
        return v
    }

    private func raw(_ node: MathNode) throws -> MathNumber {
        switch node {
        case .number(let s):
            guard let n = MathNumber(decimal: s) else { throw MathDiagnostic(.syntax, "'\(s)' is not a number") }
            return n
        case .identifier(let name): return try variable(name)
        case .function(let f): throw MathDiagnostic(.syntax, "\(f) needs an argument")
        case .op(let s): throw MathDiagnostic(.syntax, "'\(s)' needs operands")
        case .row(let items):
            var p = RowParser(items: Self.merged(items), eval: self)
            return try p.expression()
        case .fraction(let n, let d):
            guard let q = try value(n) / value(d) else { throw MathDiagnostic(.divisionByZero, "division by zero") }
            return q
        case .sup(let b, let e):
            if case .function(let f) = b { throw MathDiagnostic(.syntax, "\(f) needs an argument") }
            return try power(value(b), value(e))
        case .sub(let b, let i):
            guard let name = Self.variableName(.sub(base: b, index: i)) else {
                throw MathDiagnostic(.syntax, "a subscript belongs to a variable name")
            }
            return try variable(name)
        case .subSup(let b, let i, let e):
            return try power(raw(.sub(base: b, index: i)), value(e))
        case .root(let r, let index):
            let x = try value(r)
            let n = try index.map(value) ?? .integer(2)
            guard let k = n.integerValue, k >= 2 else {
                guard let inverse = MathNumber.integer(1) / n else { throw MathDiagnostic(.divisionByZero, "a root of index 0") }
                return try power(x, inverse)
            }
            if let exact = MathNumber.exactRoot(x, k) { return exact }
            if x.double < 0 && k % 2 == 0 { throw MathDiagnostic(.undefined, "no real root of a negative number") }
            return try power(x, MathNumber.ratio(1, k)!)
        case .fenced(let open, _, let content):
            let v = try value(content)
            return open == "|" ? (v.double < 0 ? -v : v) : v
        }
    }

    /// The name a variable is stored under: `x`, or `x_{1}` for a subscripted one.
    static func variableName(_ node: MathNode) -> String? {
        switch node {
        case .identifier(let s): return s
        case .sub(.identifier, _): return node.latex
        case .row(let items) where items.count == 1: return variableName(items[0])
        default: return nil
        }
    }

    private func variable(_ name: String) throws -> MathNumber {
        if let v = variables[name] { return v }
        switch name {
        case "π": return .real(Double.pi)
        case "e": return .real(M_E)
        default: throw MathDiagnostic(.unknownSymbol, "\(name) has no value")
        }
    }

    func power(_ a: MathNumber, _ b: MathNumber) throws -> MathNumber {
        if a.isZero && b.double < 0 { throw MathDiagnostic(.divisionByZero, "division by zero") }
        guard let p = MathNumber.power(a, b) else { throw MathDiagnostic(.undefined, "no real value") }
        return p
    }

    func apply(_ f: String, base: MathNumber?, to x: MathNumber) throws -> MathNumber {
        let v = x.double
        switch f {
        case "sin", "cos", "tan":
            if angleUnit == .degrees, let exact = Self.exactTrig(f, x) { return exact }
            let r = angleUnit == .degrees ? v * .pi / 180 : v
            if f == "tan", abs(Foundation.cos(r)) < 1e-15 { throw MathDiagnostic(.undefined, "tan is undefined there") }
            return .real(f == "sin" ? Foundation.sin(r) : f == "cos" ? Foundation.cos(r) : Foundation.tan(r))
        case "log", "ln":
            guard v > 0 else { throw MathDiagnostic(.undefined, "\(f) of a number that is not positive") }
            if f == "ln" { return .real(Foundation.log(v)) }
            let b = base?.double ?? 10
            guard b > 0, b != 1 else { throw MathDiagnostic(.undefined, "log to base \(b)") }
            // Exact for powers of the base: log 1000 = 3, not 2.9999999999999996.
            let l = Foundation.log(v) / Foundation.log(b)
            if let k = Int(exactly: l.rounded()), let p = MathNumber.power(base ?? .integer(10), .integer(k)), p == x {
                return .integer(k)
            }
            return .real(l)
        case "exp":
            return .real(Foundation.exp(v))
        default:
            throw MathDiagnostic(.unknownSymbol, "the solver does not know the function \(f)")
        }
    }

    /// sin, cos and tan of whole multiples of 90°, exactly.
    private static func exactTrig(_ f: String, _ x: MathNumber) -> MathNumber? {
        guard let deg = x.integerValue, deg % 90 == 0 else { return nil }
        let q = ((deg / 90) % 4 + 4) % 4
        let sin = [0, 1, 0, -1][q], cos = [1, 0, -1, 0][q]
        switch f {
        case "sin": return .integer(sin)
        case "cos": return .integer(cos)
        default: return cos == 0 ? nil : .integer(sin * cos)
        }
    }

    static func factorial(_ x: MathNumber) throws -> MathNumber {
        guard let n = x.integerValue, n >= 0 else { throw MathDiagnostic(.undefined, "! needs a whole number that is not negative") }
        guard n <= 170 else { throw MathDiagnostic(.overflow, "\(n)! is too large") }
        var r = MathNumber.integer(1)
        for k in stride(from: 2, through: n, by: 1) { r = r * .integer(k) }
        return r
    }

    /// Digits written as separate symbols make one number, and a comma between digits is a decimal
    /// comma (`1,9`): the solver has no lists.
    static func merged(_ items: [MathNode]) -> [MathNode] {
        var out: [MathNode] = []
        var k = 0
        while k < items.count {
            if case .number(let b) = items[k], case .number(let a)? = out.last, !(a.contains(".") && b.contains(".")) {
                out[out.count - 1] = .number(a + b)
            } else if case .op(",") = items[k], case .number(let a)? = out.last, !a.contains("."),
                      k + 1 < items.count, case .number(let b) = items[k + 1], !b.contains(".") {
                out[out.count - 1] = .number(a + "." + b)
                k += 1
            } else {
                out.append(items[k])
            }
            k += 1
        }
        return out
    }
}
