import Foundation
import InkMath
import InkModel

/// A composed math expression (tools/recognition/math/compose.py `--jsonl`): strokes in
/// millimetres (or the source's resolution, `ppi`), the canonical LaTeX, the structure class and
/// the true symbols with their strokes.
public struct MathSample: Sendable {
    public var id: String
    public var writer: String
    /// Canonical LaTeX of the expression ("" when the line gives none).
    public var latex: String
    /// linear, frac, script, root, mixed or nested ("" when the line gives none).
    public var structureClass: String
    /// The true symbols: class and stroke indices.
    public var symbols: [(label: String, strokes: [Int])]
    public var strokes: [[SIMD2<Double>]]

    /// Reads a .jsonl or .jsonl.gz file: the ink through `JSONLinesInk` (the one reader of the
    /// format), the math fields (`latex`, `class`, `symbols`) from the same lines.
    public static func read(path: String, limit: Int = .max) throws -> [MathSample] {
        let raw = try Zlib.decompress(try FileIO.readFile(path, maxBytes: 512 << 20), maxBytes: 2 << 30)
        let records = try JSONLinesInk.parse(raw, limit: limit, source: path)
        let lines = raw.split(separator: UInt8(ascii: "\n")).filter { !$0.allSatisfy { $0 == 32 || $0 == 13 || $0 == 9 } }
        var out: [MathSample] = []
        for (r, line) in zip(records, lines) {
            let v = try JSONValue.parse(Data(line), what: "\(path) sample \(r.id)")
            var symbols: [(String, [Int])] = []
            for s in v["symbols"]?.arrayValue ?? [] {
                guard let label = s["sym"]?.stringValue, let st = s["strokes"]?.arrayValue else {
                    throw QuireError(.importError, "\(path) sample \(r.id): a symbol lacks 'sym' or 'strokes'")
                }
                symbols.append((label, st.compactMap { $0.doubleValue.map { Int($0) } }))
            }
            out.append(MathSample(id: r.id, writer: r.writer, latex: v["latex"]?.stringValue ?? "",
                                  structureClass: v["class"]?.stringValue ?? "", symbols: symbols,
                                  strokes: r.strokes.map { s in s.map { SIMD2($0.x, $0.y) } }))
        }
        return out
    }
}

/// Expression rate, symbol accuracy and speed of the math recognizer per structure class.
public struct MathEvaluation: Sendable {
    public static let classes = ["linear", "frac", "script", "root", "mixed", "nested"]

    /// One sample's outcome.
    public struct Outcome: Sendable {
        public var latex: String
        public var candidates: [String]
        /// Symbols whose exact stroke set was read as one symbol of the true class.
        public var symbolsRight: Int
        public var symbols: Int
        public var exact: Bool
        public var ms: Double
        public var expressions: [MathExpression]
    }

    public struct Tally: Sendable {
        public var n = 0, exact = 0, symbolsRight = 0, symbols = 0
        public var ms: [Double] = []
        public init() {}
        public mutating func add(_ o: Outcome) {
            n += 1; exact += o.exact ? 1 : 0; symbolsRight += o.symbolsRight; symbols += o.symbols; ms.append(o.ms)
        }
        public func percentile(_ p: Double) -> Double {
            let s = ms.sorted()
            return s.isEmpty ? 0 : s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
        }
        public var expressionRate: Double { Double(exact) / Double(max(1, n)) }
        public var symbolAccuracy: Double { Double(symbolsRight) / Double(max(1, symbols)) }
    }

    /// Reads a sample as an editor reads a Math block (lines split, one expression each; several
    /// lines join with a newline), timed on the calling thread's CPU clock when `cpuClock`.
    public static func run(_ s: MathSample, recognizer: MathRecognizer, cpuClock: Bool = false) -> Outcome {
        let t0 = now(cpuClock)
        let r = recognizer.recognize(strokes: s.strokes)
        let ms = Double(now(cpuClock) - t0) / 1e6
        var got: [[Int]: String] = [:]
        for e in r.expressions { for sym in e.symbols { got[sym.strokeIndices.sorted()] = sym.label } }
        let right = s.symbols.filter { got[$0.strokes.sorted()] == $0.label }.count
        let candidates = r.expressions.count == 1 ? r.expressions[0].candidates.map(\.latex) : [r.latex]
        return Outcome(latex: r.latex, candidates: candidates, symbolsRight: right, symbols: s.symbols.count,
                       exact: r.latex == s.latex, ms: ms, expressions: r.expressions)
    }

    static func now(_ cpu: Bool) -> UInt64 {
        if cpu {
            var ts = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
            return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
        }
        return DispatchTime.now().uptimeNanoseconds
    }
}
