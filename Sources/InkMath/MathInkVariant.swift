import Foundation

/// A small writer-like change of a stroke group's shape (slant, width, rotation), under which the
/// symbol classifier reads a hypothesis a second time (test-time augmentation, `MathScoring`).
/// Writers the classifier never saw differ from its training writers mostly in such changes: a
/// closed `4` leaning like a `9`, a slanted `1` like a `/`.
public struct MathInkVariant: Sendable, Hashable, CustomStringConvertible {
    /// Shear in degrees; positive leans the top to the right.
    public var slant: Double
    /// Width factor (1: as written).
    public var aspect: Double
    /// Rotation in degrees, clockwise on the page (y down).
    public var rotation: Double

    public init(slant: Double = 0, aspect: Double = 1, rotation: Double = 0) {
        self.slant = slant
        self.aspect = aspect
        self.rotation = rotation
    }

    /// The ink as written.
    public static let identity = MathInkVariant()

    /// Whether the variant leaves ink unchanged.
    public var isIdentity: Bool { slant == 0 && aspect == 1 && rotation == 0 }

    /// The name `init?(name:)` reads: `slant+10`, `aspect0.85`, `rot-5`, several joined by `/`.
    public var description: String {
        var parts: [String] = []
        func num(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        if slant != 0 { parts.append("slant" + (slant > 0 ? "+" : "") + num(slant)) }
        if aspect != 1 { parts.append("aspect" + num(aspect)) }
        if rotation != 0 { parts.append("rot" + (rotation > 0 ? "+" : "") + num(rotation)) }
        return parts.isEmpty ? "identity" : parts.joined(separator: "/")
    }

    /// Reads `description`'s form; nil for anything else or values out of range (slant and
    /// rotation within ±30 degrees, aspect 0.5-2: beyond, a symbol turns into another).
    public init?(name: String) {
        var v = MathInkVariant()
        for part in name.split(separator: "/").map(String.init) {
            func value(after prefix: String) -> Double? {
                guard part.hasPrefix(prefix), let d = Double(part.dropFirst(prefix.count)), d.isFinite else { return nil }
                return d
            }
            if part == "identity" { continue }
            if let d = value(after: "slant"), abs(d) <= 30 { v.slant = d } else if let d = value(after: "aspect"), (0.5 ... 2).contains(d) {
                v.aspect = d
            } else if let d = value(after: "rot"), abs(d) <= 30 { v.rotation = d } else { return nil }
        }
        self = v
    }

    /// A comma-separated list of names (`slant+10,slant-10`); "none" or "" is the empty list.
    /// `bad` is the first part that is not a variant's name (the list read so far comes with it).
    public static func list(_ text: String) -> (variants: [MathInkVariant], bad: String?) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.isEmpty || t == "none" { return ([], nil) }
        var out: [MathInkVariant] = []
        for part in t.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let v = MathInkVariant(name: part) else { return (out, part) }
            out.append(v)
        }
        return (out, nil)
    }

    /// The strokes transformed about the centre of their common box (millimetres, y down).
    /// Preprocessing measures the result again, so only the shape matters, not where it lands.
    public func apply(_ strokes: [[SIMD2<Double>]]) -> [[SIMD2<Double>]] {
        guard !isIdentity else { return strokes }
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        for s in strokes { for p in s { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) } }
        guard lo.x <= hi.x else { return strokes }
        let c = (lo + hi) / 2
        let shear = Foundation.tan(slant * .pi / 180)
        let a = rotation * .pi / 180, cs = Foundation.cos(a), sn = Foundation.sin(a)
        return strokes.map { s in
            s.map { p in
                let d = p - c
                // Slant first (y up the page is -y here: the top moves right), then width, then rotation.
                let x = (d.x - shear * d.y) * aspect, y = d.y
                return c + SIMD2(x * cs - y * sn, x * sn + y * cs)
            }
        }
    }
}

/// How the class scores of one hypothesis read several times (variants, a second network) become one.
public enum MathScoreCombination: String, Sendable, CaseIterable {
    /// The mean of the log-probabilities (a geometric mean: every reading must agree).
    case meanLog = "log"
    /// The log of the mean probability (one confident reading can carry the class).
    case meanProbability = "prob"

    /// Combines per-reading class scores (each `classes` long; -infinity allowed) into one vector.
    public func combine(_ readings: [[Double]]) -> [Double] {
        guard let first = readings.first else { return [] }
        if readings.count == 1 { return first }
        let n = Double(readings.count)
        return first.indices.map { c in
            // A class some reading cannot give at all is floored, not -infinity, so one reading's
            // underflow does not veto what the others read.
            let v = readings.map { max($0[c], -1e4) }
            switch self {
            case .meanLog:
                return v.reduce(0, +) / n
            case .meanProbability:
                let m = v.max()!
                return m + Foundation.log(v.reduce(0) { $0 + Foundation.exp($1 - m) } / n)
            }
        }
    }
}
