/// Reads one row of a written expression by precedence (MathEvaluator's grammar):
///
///     expression := term (("+" | "−") term)*
///     term       := signed (("×" | "÷" | "·" | "/") signed)*
///     signed     := ("−" | "+") signed | product
///     product    := postfix postfix*                 (implicit multiplication)
///     postfix    := primary ("!" | "%")*
///     primary    := operand | function [argument]
struct RowParser {
    let items: [MathNode]
    let eval: MathEvaluator
    private var k = 0

    init(items: [MathNode], eval: MathEvaluator) { self.items = items; self.eval = eval }

    private var current: MathNode? { k < items.count ? items[k] : nil }
    private func isOp(_ node: MathNode?, _ set: String) -> String? {
        if case .op(let s)? = node, set.contains(s) { return s }
        return nil
    }

    mutating func expression() throws -> MathNumber {
        guard !items.isEmpty else { throw MathDiagnostic(.syntax, "nothing to compute") }
        var v = try term()
        while let op = isOp(current, "+−±") {
            k += 1
            guard op != "±" else { throw MathDiagnostic(.syntax, "± gives two values") }
            let r = try term()
            v = op == "+" ? v + r : v - r
        }
        if let extra = current { throw MathDiagnostic(.syntax, "unexpected \(Self.describe(extra))") }
        return v
    }

    private mutating func term() throws -> MathNumber {
        var v = try signed()
        while let op = isOp(current, "×÷·/") {
            k += 1
            let r = try signed()
            if op == "×" || op == "·" {
                v = v * r
            } else {
                guard let q = v / r else { throw MathDiagnostic(.divisionByZero, "division by zero") }
                v = q
            }
        }
        return v
    }

    private mutating func signed() throws -> MathNumber {
        if let op = isOp(current, "+−") {
            k += 1
            let v = try signed()
            return op == "−" ? -v : v
        }
        return try product()
    }

    private mutating func product() throws -> MathNumber {
        var v = try postfix()
        while let next = current, Self.startsOperand(next) {
            v = v * (try postfix())
        }
        return v
    }

    private mutating func postfix() throws -> MathNumber {
        var v = try primary()
        while let op = isOp(current, "!%") {
            k += 1
            if op == "!" {
                v = try MathEvaluator.factorial(v)
            } else {
                v = (v / .integer(100))!
            }
        }
        return v
    }

    private mutating func primary() throws -> MathNumber {
        guard let node = current else { throw MathDiagnostic(.syntax, "an operand is missing at the end") }
        // A function, possibly with a power (sin²x) or a base (log₂8), applied to what follows.
        var name: String?, exponent: MathNode?, base: MathNode?
        switch node {
        case .function(let f): name = f
        case .sup(.function(let f), let e): name = f; exponent = e
        case .sub(.function(let f), let b): name = f; base = b
        case .subSup(.function(let f), let b, let e): name = f; base = b; exponent = e
        default: break
        }
        if let name {
            k += 1
            let x = try argument(of: name)
            let b = try base.map { try eval.value($0) }
            var v = try eval.apply(name, base: b, to: x)
            if let exponent { v = try eval.power(v, eval.value(exponent)) }
            return v
        }
        guard Self.isOperand(node) else {
            throw MathDiagnostic(.syntax, "an operand is missing before \(Self.describe(node))")
        }
        k += 1
        return try eval.value(node)
    }

    /// A bracketed group right after the name, or else the implicit product that follows it.
    private mutating func argument(of f: String) throws -> MathNumber {
        guard let next = current, Self.startsOperand(next) else { throw MathDiagnostic(.syntax, "\(f) needs an argument") }
        if case .fenced = next {
            return try postfix()
        }
        return try product()
    }

    static func isOperand(_ node: MathNode) -> Bool {
        switch node {
        case .number, .identifier, .fraction, .sup, .sub, .subSup, .root, .fenced: return true
        case .row(let items): return !items.isEmpty
        case .function, .op: return false
        }
    }

    static func startsOperand(_ node: MathNode) -> Bool {
        if case .function = node { return true }
        if case .sup(.function, _) = node { return true }
        if case .sub(.function, _) = node { return true }
        if case .subSup(.function, _, _) = node { return true }
        return isOperand(node)
    }

    static func describe(_ node: MathNode) -> String {
        if case .op(let s) = node {
            return "( [ { |".contains(s) ? "an unmatched '\(s)'" : ") ] }".contains(s) ? "an unmatched '\(s)'" : "'\(s)'"
        }
        return "'\(node.plainText)'"
    }
}
