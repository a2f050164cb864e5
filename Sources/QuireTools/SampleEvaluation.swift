import Foundation
import InkModel
import InkRecognition

/// Reading labelled samples and counting their errors: the one copy that `quire eval` and the
/// inspector's report of labelled samples share, so that their figures are the same.
public enum SampleEvaluation {
    /// The evaluation categories, in the order they are reported (`LabeledSample.category`).
    public static let categories = ["digits", "upper", "lower", "symbols", "words", "lines"]

    /// Parses a .jsonl or .jsonl.gz file; with `validationOnly`, lines of training writers are
    /// skipped before the (slow) JSON parse; with `tuningOnly`, all but the language-model tuning writers.
    public static func read(_ path: String, validationOnly: Bool, tuningOnly: Bool = false) throws -> [LabeledSample] {
        let records = try JSONLinesInk.read(path: path) { line in
            guard let w = JSONLinesInk.field("writer", in: line) else { return false }
            return (validationOnly && !RecognitionMetrics.isValidationWriter(w))
                || (tuningOnly && !RecognitionMetrics.isLanguageModelTuningWriter(w))
        }
        return records.map(LabeledSample.init).filter { s in
            !(validationOnly && !s.isValidation) && !(tuningOnly && !RecognitionMetrics.isLanguageModelTuningWriter(s.writer))
        }
    }

    /// The samples of each evaluation category in `categories` order (categories without samples
    /// left out); with `limit`, at most that many a category, evenly spread over the file.
    public static func select(_ samples: [LabeledSample], limit: Int?) -> [(category: String, samples: [LabeledSample])] {
        var byCat: [String: [LabeledSample]] = [:]
        for s in samples where categories.contains(s.category) { byCat[s.category, default: []].append(s) }
        return categories.compactMap { cat in
            guard var list = byCat[cat], !list.isEmpty else { return nil }
            if let limit, list.count > limit { list = (0 ..< limit).map { list[$0 * list.count / limit] } }
            return (cat, list)
        }
    }

    /// What reading one sample gave. `ms` is the whole sample; `networkMs` its preprocessing and
    /// network forward passes (the rest is line splitting and decoding); `lines` the lines the ink
    /// was split into.
    public struct Outcome: Sendable {
        public var text: String
        public var candidates: [InkRecognition.RecognitionCandidate]
        public var ms: Double
        public var networkMs: Double
        public var lines: Int
    }

    /// Recognizes a sample as an editor reads a block without guides: the strokes are split into lines
    /// (`TextRecognizer.groupLines`), each line is read and the line results are joined with spaces;
    /// timing the network apart from decoding. The sample's category is not consulted: real ink
    /// carries none, and a lone character or word comes out as one line by the same rule.
    public static func recognize(_ s: LabeledSample, recognizer: TextRecognizer, options base: RecognitionOptions,
                                 clock: Clock = .wall) -> Outcome {
        var opts = base
        opts.inMillimetres = s.inMillimetres
        let t0 = clock.now()
        var network: UInt64 = 0
        let groups = TextRecognizer.groupLines(strokes: s.strokes)
        var rs: [RecognitionResult] = []
        for g in groups {
            let n0 = clock.now()
            let out = recognizer.logProbabilities(strokes: g.map { s.strokes[$0] }, inMillimetres: opts.inMillimetres)
            network += clock.now() - n0
            guard let (m, ink) = out else { continue }
            let r = recognizer.decode(m, ink: ink, options: opts)
            if !(r.text.isEmpty && r.words.isEmpty) { rs.append(r) }
        }
        let text = rs.map(\.text).filter { !$0.isEmpty }.joined(separator: " ")
        let candidates = rs.count == 1 ? rs[0].candidates
            : [InkRecognition.RecognitionCandidate(text: text, score: rs.reduce(0) { $0 + ($1.candidates.first?.score ?? 0) })]
        let ms = Double(clock.now() - t0) / 1e6
        return Outcome(text: text, candidates: candidates, ms: ms, networkMs: Double(network) / 1e6, lines: groups.count)
    }

    /// Wall time, or the calling thread's CPU time: on a machine shared with other work the CPU clock
    /// measures what recognition itself costs (what the wall clock would show on an idle core).
    public enum Clock: String, Sendable, CaseIterable {
        case wall, cpu
        public func now() -> UInt64 {
            switch self {
            case .wall: return DispatchTime.now().uptimeNanoseconds
            case .cpu:
                var ts = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
                return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
            }
        }
    }

    /// Character errors and exact matches over samples: CER is the edit distance summed over the
    /// samples divided by the reference characters; accuracy the share of exact readings.
    public struct Score: Sendable, Equatable {
        public var n = 0, errors = 0, chars = 0, exact = 0
        public init() {}
        /// Counts one sample read as `reading` against its normalized label `reference`.
        public mutating func add(reference: String, reading: String) {
            n += 1
            errors += RecognitionMetrics.editDistance(reading, reference)
            chars += reference.count
            exact += reading == reference ? 1 : 0
        }
        public mutating func add(_ o: Score) { n += o.n; errors += o.errors; chars += o.chars; exact += o.exact }
        public var characterErrorRate: Double { Double(errors) / Double(max(1, chars)) }
        public var accuracy: Double { Double(exact) / Double(max(1, n)) }
    }
}
