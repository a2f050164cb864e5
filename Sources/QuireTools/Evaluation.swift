import Foundation
import InkModel

/// A labelled handwriting sample for recognition evaluation: a `JSONLinesInk` record with its
/// points as the recognizer takes them (millimetres when the sample gives its resolution, else
/// the source's units, which the recognizer normalises itself).
public struct LabeledSample: Sendable {
    public var id: String
    public var set: String
    /// The source category (`1a`, `6`, `8`, `digit`, ...).
    public var cat: String
    public var label: String
    public var writer: String
    /// Millimetres (y down) when `inMillimetres`, else the source's units.
    public var strokes: [[SIMD2<Double>]]
    public var inMillimetres: Bool

    public init(_ r: InkSampleRecord) {
        id = r.id; set = r.set; cat = r.category; label = r.label; writer = r.writer
        inMillimetres = r.inMillimetres
        strokes = r.strokes.map { s in s.map { SIMD2($0.x, $0.y) } }
    }

    /// Parses one JSON line of the data format (`JSONLinesInk`); a malformed line is an `importError`.
    public init(jsonLine: Data) throws {
        guard let r = try JSONLinesInk.parse(jsonLine).first else {
            throw QuireError(.importError, "input: an empty line is no handwriting sample")
        }
        self.init(r)
    }

    /// The evaluation category: digits, upper, lower, symbols, words, lines (or other).
    public var category: String {
        switch cat {
        case "1a", "digit": return "digits"
        case "1b": return "upper"
        case "1c", "latin-lowercase": return "lower"
        case "1d": return "symbols"
        case "6", "7": return "words"
        case "8": return "lines"
        default: return "other"
        }
    }

    /// The label as the model is trained on it: runs of white space collapsed to one space.
    public var normalizedLabel: String { label.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// True if this sample's writer is in the validation split (tools/recognition/data.py).
    public var isValidation: Bool { RecognitionMetrics.isValidationWriter(writer) }
}

/// The writer splits (validation, language-model tuning) and the edit distance that `quire eval` and the tools share.
public enum RecognitionMetrics {
    /// Training writers whose texts tools/recognition/build_lm.py --exclude-writers-mod 10/0 holds out
    /// of the language model (`int(sha1("lm-tune:" + writer).hexdigest(), 16) % 10 == 0`): the writers
    /// the fusion weights are tuned on.
    public static func isLanguageModelTuningWriter(_ writer: String) -> Bool {
        if isValidationWriter(writer) { return false }
        var r = 0
        for b in SHA1.digest(Array(("lm-tune:" + writer).utf8)) { r = (r * 256 + Int(b)) % 10 }
        return r == 0
    }

    /// The fixed writer-disjoint split: `int(sha1(writer).hexdigest(), 16) % 10 == 0` -> validation.
    public static func isValidationWriter(_ writer: String) -> Bool {
        var r = 0
        for b in SHA1.digest(Array(writer.utf8)) { r = (r * 256 + Int(b)) % 10 }
        return r == 0
    }

    /// Levenshtein distance over characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var prev = Array(0 ... y.count), cur = [Int](repeating: 0, count: y.count + 1)
        for i in 1 ... x.count {
            cur[0] = i
            for j in 1 ... y.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[y.count]
    }
}

/// Minimal SHA-1 (FIPS 180-4) for the split rule; not for security.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var m = message
        let bitLength = UInt64(message.count) &* 8
        m.append(0x80)
        while m.count % 64 != 56 { m.append(0) }
        for i in (0 ..< 8).reversed() { m.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            for i in 0 ..< 16 {
                w[i] = UInt32(m[chunk + 4 * i]) << 24 | UInt32(m[chunk + 4 * i + 1]) << 16
                    | UInt32(m[chunk + 4 * i + 2]) << 8 | UInt32(m[chunk + 4 * i + 3])
            }
            for i in 16 ..< 80 {
                let v = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = v << 1 | v >> 31
            }
            var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4]
            for i in 0 ..< 80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0 ..< 20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20 ..< 40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40 ..< 60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let t = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = b << 30 | b >> 2; b = a; a = t
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d; h[4] = h[4] &+ e
        }
        return h.flatMap { v in (0 ..< 4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) } }
    }
}
