import Foundation

/// Errors thrown while loading a character language model (`quire-lm.bin`).
public enum LanguageModelError: Error, Equatable, CustomStringConvertible, Sendable {
    case fileUnreadable(path: String, reason: String)
    case badMagic
    case unsupportedVersion(Int)
    case corrupt(String)

    public var description: String {
        switch self {
        case let .fileUnreadable(path, reason): return "cannot read character language model at \(path): \(reason)"
        case .badMagic: return "not a Quire character language model (magic \"QCLM\" missing)"
        case let .unsupportedVersion(v): return "unsupported character language model format version \(v) (supported: \(CharacterLanguageModel.formatVersion))"
        case let .corrupt(why): return "corrupt character language model: \(why)"
        }
    }
}

/// A character n-gram language model in backoff form (interpolated Kneser-Ney, built by
/// tools/recognition/build_lm.py; format in docs/RECOGNITION-MODEL.md). Symbols: 0 is the text
/// boundary (start and end of a line), 1...95 are the printable ASCII characters 32...126, the same
/// numbering as the recognizer's classes.
///
/// A context is packed in a `UInt64`: the last (order - 1) symbols, 7 bits each, oldest first, under a
/// leading 1 bit that marks the length. Looking up P(w | h) takes at most two hash probes per order.
public final class CharacterLanguageModel: Sendable {
    public static let formatVersion = 1
    public static let defaultFileName = "quire-lm.bin"
    public static let boundary = 0
    public static let symbolCount = 96

    public let order: Int
    /// Number of stored n-grams (all orders).
    public let count: Int
    /// Free text from the file's header (sources and licences).
    public let source: String
    // Open addressing, linear probing; key 0 marks an empty slot (real keys have the length bit set).
    private let keys: [UInt64]
    private let logProbs: [Float]
    private let backoffs: [Float]
    private let mask: Int
    /// An upper bound of `logProbability(of:after:)`: the largest stored log probability plus every
    /// positive backoff weight a lookup may add (one per order below the top). Backoff weights above 1
    /// exist (the file's largest is e^1.9), so a probability after backing off is not bounded by 1 in
    /// this arithmetic; the beam search's pruning needs a bound that holds.
    public let maxLogProbability: Float

    /// The start-of-line context.
    public var initialContext: UInt64 { 1 << 7 | UInt64(Self.boundary) }

    /// Loads a `quire-lm.bin` file; throws `LanguageModelError`.
    public convenience init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LanguageModelError.fileUnreadable(path: url.path, reason: error.localizedDescription)
        }
        try self.init(data: data)
    }

    /// Layout (little endian): "QCLM", u32 version, u32 order, u32 n-gram count, u32 header length H,
    /// H bytes of UTF-8 text (sources, licences), then per n-gram: u64 key, f32 log probability,
    /// f32 log backoff weight (natural logarithms).
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        guard bytes.count >= 20 else { throw LanguageModelError.corrupt("file of \(bytes.count) bytes is too short") }
        guard bytes[0 ..< 4].elementsEqual("QCLM".utf8) else { throw LanguageModelError.badMagic }
        let version = u32(4)
        guard version == Self.formatVersion else { throw LanguageModelError.unsupportedVersion(version) }
        let order = u32(8), n = u32(12), headerLength = u32(16)
        guard (1 ... 9).contains(order) else { throw LanguageModelError.corrupt("order \(order) is not in 1...9") }
        let recordStart = 20 + headerLength
        guard headerLength <= bytes.count, n <= bytes.count / 16, recordStart + n * 16 == bytes.count else {
            throw LanguageModelError.corrupt("expected \(n) records of 16 bytes after a \(headerLength)-byte header, file has \(bytes.count) bytes")
        }
        var capacity = 16
        while capacity < n * 2 { capacity <<= 1 }
        var keys = [UInt64](repeating: 0, count: capacity)
        var probs = [Float](repeating: 0, count: capacity)
        var bows = [Float](repeating: 0, count: capacity)
        let mask = capacity - 1
        var sawUnigrams = 0
        var maxProb = logf(1e-6), maxBackoff: Float = 0
        for i in 0 ..< n {
            let o = recordStart + 16 * i
            var key: UInt64 = 0
            for b in 0 ..< 8 { key |= UInt64(bytes[o + b]) << (8 * b) }
            let p = Float(bitPattern: UInt32(u32(o + 8))), w = Float(bitPattern: UInt32(u32(o + 12)))
            let length = key == 0 ? 0 : (63 - key.leadingZeroBitCount) / 7
            guard length >= 1, length <= order, key >> (7 * length) == 1 else {
                throw LanguageModelError.corrupt("record \(i) has a malformed key")
            }
            guard p.isFinite, p <= 0, w.isFinite else { throw LanguageModelError.corrupt("record \(i) has a non-finite or positive log probability") }
            var slot = Self.hash(key) & mask
            while keys[slot] != 0 {
                if keys[slot] == key { throw LanguageModelError.corrupt("record \(i) repeats a key") }
                slot = (slot + 1) & mask
            }
            keys[slot] = key
            probs[slot] = p
            bows[slot] = w
            maxProb = max(maxProb, p)
            maxBackoff = max(maxBackoff, w)
            if length == 1 { sawUnigrams += 1 }
        }
        // Every symbol but the start needs a unigram, so every lookup ends somewhere.
        guard sawUnigrams >= Self.symbolCount - 1 else {
            throw LanguageModelError.corrupt("\(sawUnigrams) unigrams, need \(Self.symbolCount - 1)")
        }
        self.order = order
        self.count = n
        self.source = String(decoding: bytes[20 ..< recordStart], as: UTF8.self)
        self.keys = keys
        self.logProbs = probs
        self.backoffs = bows
        self.mask = mask
        self.maxLogProbability = maxProb + Float(order - 1) * maxBackoff
    }

    @inline(__always)
    static func hash(_ k: UInt64) -> Int { Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> 20) }

    @inline(__always)
    private func find(_ key: UInt64) -> Int? {
        var slot = Self.hash(key) & mask
        while true {
            let k = keys[slot]
            if k == key { return slot }
            if k == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// Symbols in a context.
    @inline(__always)
    static func length(_ context: UInt64) -> Int { context == 0 ? 0 : (63 - context.leadingZeroBitCount) / 7 }

    /// The context after `symbol`: the last (order - 1) symbols.
    @inline(__always)
    public func extend(_ context: UInt64, _ symbol: Int) -> UInt64 {
        let keep = min(Self.length(context) + 1, order - 1)
        if keep <= 0 { return 1 }
        let body = (context << 7 | UInt64(symbol)) & ((1 << (7 * UInt64(keep))) - 1)
        return 1 << (7 * UInt64(keep)) | body
    }

    /// Natural log of P(symbol | context), backing off to shorter contexts.
    public func logProbability(of symbol: Int, after context: UInt64) -> Float {
        var k = min(Self.length(context), order - 1)
        var penalty: Float = 0
        while true {
            let h = context & ((1 << (7 * UInt64(k))) - 1)
            if let s = find(1 << (7 * UInt64(k + 1)) | h << 7 | UInt64(symbol)) { return penalty + logProbs[s] }
            if k == 0 { return penalty + logf(1e-6) }  // a symbol with no unigram (cannot happen after the load checks)
            if let s = find(1 << (7 * UInt64(k)) | h) { penalty += backoffs[s] }
            k -= 1
        }
    }

    /// The context after a text (ASCII outside 32...126 is skipped), starting at the start of a line.
    public func context(after text: String) -> UInt64 {
        var c = initialContext
        for b in text.utf8 where b >= 32 && b <= 126 { c = extend(c, Int(b) - 31) }
        return c
    }

    /// Natural log probability of a whole line (with its end), for tests and tools.
    public func logProbability(ofLine text: String) -> Double {
        var c = initialContext, total = 0.0
        for b in text.utf8 where b >= 32 && b <= 126 {
            total += Double(logProbability(of: Int(b) - 31, after: c))
            c = extend(c, Int(b) - 31)
        }
        return total + Double(logProbability(of: Self.boundary, after: c))
    }

    /// The model shipped in Resources/recognition (`$QUIRE_LANGUAGE_MODEL` first), or nil.
    public static func defaultModelURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let p = environment["QUIRE_LANGUAGE_MODEL"], !p.isEmpty { return URL(fileURLWithPath: p) }
        return RecognitionModel.defaultModelURL(environment: [:])
            .map { $0.deletingLastPathComponent().appendingPathComponent(defaultFileName) }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }
}

/// How the beam search uses a language model (shallow fusion): each character adds
/// `weight * log P(char | context) + bonus` to its prefix's score, and a finished path adds
/// `weight * log P(terminator | context)` (the end of the line, or the space before the next word).
public struct LMFusion: Sendable {
    public var model: CharacterLanguageModel
    public var weight: Double
    public var bonus: Double
    /// Context before the first character (the start of the line, or the words before).
    public var initialContext: UInt64
    /// Symbol that must follow the decoded text (boundary: end of line; 1: a space), or nil for none.
    public var terminator: Int?

    public init(model: CharacterLanguageModel, weight: Double, bonus: Double, initialContext: UInt64? = nil,
                terminator: Int? = CharacterLanguageModel.boundary) {
        self.model = model
        self.weight = weight
        self.bonus = bonus
        self.initialContext = initialContext ?? model.initialContext
        self.terminator = terminator
    }

    /// Recognizer classes 1...95 are ASCII 32...126, the model's symbols 1...95.
    @inline(__always) func symbol(ofClass c: Int) -> Int { c }

    @inline(__always)
    func score(context: UInt64, cls: Int) -> Double {
        weight * Double(model.logProbability(of: symbol(ofClass: cls), after: context)) + bonus
    }

    func endScore(context: UInt64) -> Double {
        guard let t = terminator else { return 0 }
        return weight * Double(model.logProbability(of: t, after: context))
    }
}

/// Weighted language-model scores of recent (context, class) pairs, for the searches of one line: the
/// line's search and each word's free and lexicon searches extend the same prefixes, and a lookup in
/// the model (up to two probes per order in a table of megabytes) costs far more than one here.
/// Direct-mapped; not thread-safe (one per decode call).
final class LMScoreCache {
    private static let size = 4096
    private var keys = [UInt64](repeating: 0, count: LMScoreCache.size)
    private var scores = [Double](repeating: 0, count: LMScoreCache.size)
    // The fusion settings the entries were computed with (a cache serves one setting at a time).
    private var weight = Double.nan, bonus = Double.nan
    private var model: ObjectIdentifier?

    /// `fusion.score(context:cls:)`, remembered.
    @inline(__always)
    func score(_ fusion: LMFusion, context: UInt64, cls: Int) -> Double {
        if fusion.weight != weight || fusion.bonus != bonus || ObjectIdentifier(fusion.model) != model {
            keys.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            weight = fusion.weight
            bonus = fusion.bonus
            model = ObjectIdentifier(fusion.model)
        }
        // A context is at most 8 symbols of 7 bits under a length bit, so it fits beside the class in 64
        // bits; real keys are never 0 (the length bit), which marks an empty slot.
        let key = context << 7 | UInt64(cls)
        let slot = CharacterLanguageModel.hash(key) & (Self.size - 1)
        if keys[slot] == key { return scores[slot] }
        let s = fusion.score(context: context, cls: cls)
        keys[slot] = key
        scores[slot] = s
        return s
    }
}
