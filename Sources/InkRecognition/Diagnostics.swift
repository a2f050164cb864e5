import Foundation

/// What the decoder noted for the diagnostics while it read one line (nil in ordinary reading:
/// then nothing is noted and nothing costs anything).
final class DecodeTrace {
    struct Word {
        var frames: Range<Int>
        /// Indices into the best path's characters.
        var characters: [Int]
        var lm: LMFusion?
        /// The word's free and lexicon alternatives (text, score as ranked, lexicon bonus included).
        var free: [(String, Double)] = []
        var lexicon: [(String, Double)] = []
        /// What a lexicon alternative gets added (0 unless `LexiconMode.prefer`).
        var bonus = 0.0
    }
    var matrix: LogProbMatrix?
    var usedCharacterModel = false
    var line: LMFusion?
    var best: DecodedPath?
    var words: [Word] = []
}

/// A candidate's score split into its parts. `total` is the decoder's ranking score; `network` is
/// the exact CTC log-likelihood of the text over the frames read (the beam search sums fewer
/// alignments, so `network + languageModel + lexicon` is at least `total`); `languageModel` is
/// the weighted character-model term with the per-character bonus and the end term; `lexicon`
/// the bonus a lexicon reading gets (`LexiconMode.prefer`).
public struct ScoreParts: Sendable, Equatable {
    public var total: Double
    public var network: Double
    public var languageModel: Double
    public var lexicon: Double
}

/// One alternative reading of a word with its score split into parts.
public struct CandidateDiagnostics: Sendable, Equatable {
    public var text: String
    /// True when the candidate came from the lexicon-constrained search.
    public var fromLexicon: Bool
    public var score: ScoreParts
}

/// One character of the best path and the frames the CTC alignment gives it (from the frame it
/// is first emitted to the next character's).
public struct AlignedCharacter: Sendable, Equatable {
    public var character: Character
    public var frames: Range<Int>
    /// The word it belongs to (nil for a space).
    public var word: Int?
}

/// One word of a line's reading: its frames and its candidates with their score parts.
public struct WordDiagnostics: Sendable, Equatable {
    /// The chosen reading (the word's first candidate).
    public var text: String
    /// The frames the word was read from.
    public var frames: Range<Int>
    /// Candidates best first, as the decoder ranked them, with their score parts.
    public var candidates: [CandidateDiagnostics]
}

/// Time spent in each stage of reading a line, nanoseconds of the reading thread's CPU.
public struct StageTimings: Sendable, Equatable {
    public var preprocess: UInt64 = 0
    public var network: UInt64 = 0
    public var decode: UInt64 = 0
    public init() {}
}

/// Everything about how one line was read: the network's per-frame output, the chosen path's
/// alignment, the words with their candidates and score parts, and the time each stage took.
public struct LineDiagnostics: Sendable {
    /// The result, as `recognize` returns it.
    public var result: RecognitionResult
    public var frames: Int
    /// Per frame: the class with the highest log probability (0: blank) and that log probability.
    public var bestClasses: [Int]
    public var bestLogProbabilities: [Float]
    /// Per frame: the character of the best class (nil: blank).
    public var bestCharacters: [Character?]
    /// The best path's characters (the decoder's, before lexicon choices per word) with their frames.
    public var alignment: [AlignedCharacter]
    public var words: [WordDiagnostics]
    /// True when the character model read this ink (a lone character).
    public var usedCharacterModel: Bool
    /// Resampled points of the ink (frame f covers points 2f and 2f+1) and the stroke of each.
    public var points: [SIMD2<Double>]
    public var pointStrokes: [Int]
    public var timings: StageTimings
}

extension TextRecognizer {
    /// Reads one line as `recognize` does and reports how (see `LineDiagnostics`); nil for unusable
    /// ink. Costs more than `recognize` (timings, exact CTC scores of every candidate): ask for it
    /// when you want to look, never in the reading path.
    public func diagnose(strokes: [[SIMD2<Double>]], options: RecognitionOptions = RecognitionOptions()) -> LineDiagnostics? {
        var timings = StageTimings()
        let t0 = Self.cpuNanos()
        guard let ink = Preprocessor.prepare(strokes: strokes, config: model.preprocess, inMillimetres: options.inMillimetres),
              ink.count > 0 else { return nil }
        let t1 = Self.cpuNanos()
        let lp = model.logProbabilities(features: ink.features, count: ink.count)
        let frames = model.outputLength(forInputLength: ink.count)
        guard lp.count == frames * model.numClasses, lp.allSatisfy({ $0.isFinite }) else { return nil }
        let t2 = Self.cpuNanos()
        let trace = DecodeTrace()
        let result = decode(LogProbMatrix(values: lp, frames: frames, classes: model.numClasses), ink: ink, options: options, trace: trace)
        let t3 = Self.cpuNanos()
        timings.preprocess = t1 - t0
        timings.network = t2 - t1
        timings.decode = t3 - t2
        let m = trace.matrix ?? LogProbMatrix(values: lp, frames: frames, classes: model.numClasses)
        let charset = model.charset
        func character(_ c: Int) -> Character? { c > 0 && c <= charset.count ? charset[c - 1] : nil }
        var bestClasses: [Int] = [], bestLP: [Float] = []
        for t in 0 ..< m.frames {
            var best = 0
            for c in 1 ..< m.classes where m.at(t, c) > m.at(t, best) { best = c }
            bestClasses.append(best)
            bestLP.append(m.at(t, best))
        }
        var alignment: [AlignedCharacter] = []
        if let best = trace.best {
            var wordOf: [Int: Int] = [:]
            for (w, word) in trace.words.enumerated() { for i in word.characters { wordOf[i] = w } }
            for (i, c) in best.classes.enumerated() {
                let end = i + 1 < best.classes.count ? best.frames[i + 1] : m.frames
                alignment.append(AlignedCharacter(character: character(c) ?? " ", frames: best.frames[i] ..< max(best.frames[i] + 1, end), word: wordOf[i]))
            }
        }
        var words: [WordDiagnostics] = []
        for (w, word) in trace.words.enumerated() where w < result.words.count {
            let chosen = result.words[w]
            let cands = chosen.candidates.map { c -> CandidateDiagnostics in
                let lex = word.lexicon.first { $0.0 == c.text }
                let free = word.free.first { $0.0 == c.text }
                // Ranked by the better of its two scores (see segmentWords): that one says where it came from.
                let fromLexicon = lex != nil && (free == nil || lex!.1 >= free!.1)
                let bonus = fromLexicon ? word.bonus : 0
                return CandidateDiagnostics(text: c.text, fromLexicon: fromLexicon, score: ScoreParts(
                    total: c.score, network: Self.ctcLogLikelihood(m, frames: word.frames, classes: classes(of: c.text)),
                    languageModel: word.lm.map { Self.lmScore($0, classes: classes(of: c.text)) } ?? 0, lexicon: bonus))
            }
            words.append(WordDiagnostics(text: chosen.text, frames: word.frames, candidates: cands))
        }
        return LineDiagnostics(result: result, frames: m.frames, bestClasses: bestClasses, bestLogProbabilities: bestLP,
                               bestCharacters: bestClasses.map(character), alignment: alignment, words: words,
                               usedCharacterModel: trace.usedCharacterModel, points: ink.points, pointStrokes: ink.strokeIndex,
                               timings: timings)
    }

    private func classes(of text: String) -> [Int] {
        text.compactMap { ch in model.charset.firstIndex(of: ch).map { $0 + 1 } }
    }

    /// log P(text | frames) under CTC: the sum over every alignment (forward algorithm).
    static func ctcLogLikelihood(_ m: LogProbMatrix, frames r: Range<Int>, classes: [Int]) -> Double {
        guard !r.isEmpty else { return classes.isEmpty ? 0 : -.infinity }
        let ext = [0] + classes.flatMap { [$0, 0] }  // blank, c1, blank, c2, ..., blank
        let n = ext.count
        var alpha = [Double](repeating: -.infinity, count: n)
        alpha[0] = Double(m.at(r.lowerBound, 0))
        if n > 1 { alpha[1] = Double(m.at(r.lowerBound, ext[1])) }
        for t in r.dropFirst() {
            var next = [Double](repeating: -.infinity, count: n)
            for s in 0 ..< n {
                var a = alpha[s]
                if s > 0 { a = logAdd(a, alpha[s - 1]) }
                if s > 1, ext[s] != 0, ext[s] != ext[s - 2] { a = logAdd(a, alpha[s - 2]) }
                next[s] = a == -.infinity ? a : a + Double(m.at(t, ext[s]))
            }
            alpha = next
        }
        return n > 1 ? logAdd(alpha[n - 1], alpha[n - 2]) : alpha[0]
    }

    /// The language model's part of a path's score: each character's weighted log probability and
    /// bonus, then the end (or next-space) term, as the beam search adds them.
    static func lmScore(_ lm: LMFusion, classes: [Int]) -> Double {
        var context = lm.initialContext, total = 0.0
        for c in classes {
            total += lm.score(context: context, cls: c)
            context = lm.model.extend(context, lm.symbol(ofClass: c))
        }
        return total + lm.endScore(context: context)
    }

    static func cpuNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
