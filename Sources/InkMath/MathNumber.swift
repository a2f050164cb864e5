import Foundation

/// A number the solver computes with: exact while every step is rational and fits 64-bit
/// integers, a `Double` from the first irrational step (a root, a function) or overflow on.
public enum MathNumber: Sendable, Hashable {
    /// `numerator / denominator` in lowest terms, denominator positive.
    case exact(numerator: Int, denominator: Int)
    case real(Double)

    public static func integer(_ n: Int) -> MathNumber { .exact(numerator: n, denominator: 1) }

    /// `n / d` reduced; nil when d is 0.
    public static func ratio(_ n: Int, _ d: Int) -> MathNumber? {
        guard d != 0 else { return nil }
        // Int.min has no positive counterpart: such a fraction continues as a real.
        guard n != .min, d != .min else { return .real(Double(n) / Double(d)) }
        let g = gcd(abs(n), abs(d))
        let s = d < 0 ? -1 : 1
        return .exact(numerator: s * n / g, denominator: s * d / g)
    }

    /// A decimal as written ("3.25", "1,9", "007") read exactly; a real when it has too many digits.
    public init?(decimal text: String) {
        let t = text.replacingOccurrences(of: ",", with: ".")
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              !(parts.count == 1 && parts[0].isEmpty) else { return nil }
        let whole = parts[0].drop { $0 == "0" }, frac = parts.count == 2 ? parts[1] : ""
        let digits = String(whole + frac)
        if digits.count <= 18, frac.count <= 18 {
            var pow10 = 1
            for _ in 0..<frac.count { pow10 *= 10 }
            self = MathNumber.ratio(Int(digits) ?? 0, pow10)!
        } else {
            guard let d = Double(t) else { return nil }
            self = .real(d)
        }
    }

    public var double: Double {
        switch self {
        case .exact(let n, let d): return Double(n) / Double(d)
        case .real(let x): return x
        }
    }

    public var isExact: Bool { if case .exact = self { return true } else { return false } }
    /// The value as an integer when it is one exactly.
    public var integerValue: Int? {
        if case .exact(let n, 1) = self { return n }
        return nil
    }
    public var isZero: Bool { double == 0 }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }

    // MARK: arithmetic: exact where both are exact and nothing overflows

    public static func + (a: MathNumber, b: MathNumber) -> MathNumber {
        if case .exact(let an, let ad) = a, case .exact(let bn, let bd) = b {
            let g = gcd(ad, bd)
            let (l, o1) = an.multipliedReportingOverflow(by: bd / g)
            let (r, o2) = bn.multipliedReportingOverflow(by: ad / g)
            let (n, o3) = l.addingReportingOverflow(r)
            let (d, o4) = ad.multipliedReportingOverflow(by: bd / g)
            if !(o1 || o2 || o3 || o4), let q = ratio(n, d) { return q }
        }
        return .real(a.double + b.double)
    }

    public static prefix func - (a: MathNumber) -> MathNumber {
        if case .exact(let n, let d) = a, n != .min { return .exact(numerator: -n, denominator: d) }
        return .real(-a.double)
    }

    public static func - (a: MathNumber, b: MathNumber) -> MathNumber { a + (-b) }

    public static func * (a: MathNumber, b: MathNumber) -> MathNumber {
        if case .exact(let an, let ad) = a, case .exact(let bn, let bd) = b {
            let g1 = gcd(abs(an), bd), g2 = gcd(abs(bn), ad)
            let (n, o1) = (an / g1).multipliedReportingOverflow(by: bn / g2)
            let (d, o2) = (ad / g2).multipliedReportingOverflow(by: bd / g1)
            if !(o1 || o2), let q = ratio(n, d) { return q }
        }
        return .real(a.double * b.double)
    }

    /// nil for a division by zero.
    public static func / (a: MathNumber, b: MathNumber) -> MathNumber? {
        if b.isZero { return nil }
        if case .exact(let bn, let bd) = b, bn != .min {
            return a * .exact(numerator: bn < 0 ? -bd : bd, denominator: abs(bn))
        }
        return .real(a.double / b.double)
    }

    /// `a^b`: exact for an exact base and an integer exponent, and for exact roots of perfect
    /// powers (`(9/4)^(1/2)`); nil where the real result does not exist (`(-8)^(1/2)`, `0^-1`).
    public static func power(_ a: MathNumber, _ b: MathNumber) -> MathNumber? {
        if let e = b.integerValue, case .exact = a {
            if e < 0 {
                guard !a.isZero, let p = power(a, .integer(-e)) else { return nil }
                return .integer(1) / p
            }
            if let p = exactPower(a, e) { return p }
        }
        if case .exact(1, let q) = b, q > 1, let r = exactRoot(a, q) { return r }
        if case .exact(let p, let q) = b, q > 1, q % 2 == 1, a.double < 0 {
            // An odd root of a negative number is real: (-8)^(1/3) = -2.
            let m = Foundation.pow(-a.double, Double(p) / Double(q))
            return .real(p % 2 == 0 ? m : -m)
        }
        if a.isZero, b.double < 0 { return nil }
        let x = Foundation.pow(a.double, b.double)
        return x.isNaN ? nil : .real(x)
    }

    private static func exactPower(_ a: MathNumber, _ e: Int) -> MathNumber? {
        var result = MathNumber.integer(1), base = a, e = e
        while e > 0 {
            if e & 1 == 1 { result = result * base }
            e >>= 1
            if e > 0 { base = base * base }
            if !result.isExact || !base.isExact { return nil }
        }
        return result
    }

    /// The exact q-th root of an exact number when it has one.
    static func exactRoot(_ a: MathNumber, _ q: Int) -> MathNumber? {
        guard case .exact(let n, let d) = a, q >= 2, q <= 64 else { return nil }
        if n < 0 && q % 2 == 0 { return nil }
        func root(_ v: Int) -> Int? {
            let r = Int(Foundation.pow(Double(abs(v)), 1 / Double(q)).rounded())
            for c in [r - 1, r, r + 1] where c >= 0 {
                if let p = exactPower(.integer(c), q), p == .integer(abs(v)) { return v < 0 ? -c : c }
            }
            return nil
        }
        guard let rn = root(n), let rd = root(d) else { return nil }
        return ratio(rn, rd)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
