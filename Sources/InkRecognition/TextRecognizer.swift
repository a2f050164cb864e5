import Foundation

/// An axis-aligned box in the caller's units (millimetres, y down).
public struct BoundingBox: Sendable, Equatable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }
    static func around(_ pts: some Sequence<SIMD2<Double>>) -> BoundingBox? {
        var b: BoundingBox?
        for p in pts {
            if var c = b {
                c.minX = min(c.minX, p.x); c.minY = min(c.minY, p.y)
                c.maxX = max(c.maxX, p.x); c.maxY = max(c.maxY, p.y)
                b = c
            } else {
                b = BoundingBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
            }
        }
        return b
    }
    func union(_ o: BoundingBox) -> BoundingBox {
        BoundingBox(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }
}

/// A transcription and its log-probability score (higher is better; with `LexiconMode.prefer`, lexicon
/// readings include the per-word bonus). The editor stores a word's alternatives as `InkModel.Candidate`.
public struct RecognitionCandidate: Sendable, Equatable {
    public var text: String
    public var score: Double
    public init(text: String, score: Double) { self.text = text; self.score = score }
}

/// One recognized character and its box.
public struct CharacterResult: Sendable, Equatable {
    public var character: Character
    public var box: BoundingBox
}

/// One recognized word: its reading, alternatives, box, characters and strokes.
public struct WordResult: Sendable {
    public var text: String
    /// Alternatives for this word, best first (the first equals `text`).
    public var candidates: [RecognitionCandidate]
    public var box: BoundingBox
    public var characters: [CharacterResult]
    /// Indices into the `strokes` argument of `recognize` of the strokes this word uses.
    public var strokeIndices: [Int]
    /// Log score of the best unconstrained reading of this word's frames (internal bookkeeping).
    var freeScore: Double = 0
}

/// What `TextRecognizer.recognize` read: the text, line alternatives and words.
public struct RecognitionResult: Sendable {
    public var text: String
    /// Line-level alternatives, best first.
    public var candidates: [RecognitionCandidate]
    public var words: [WordResult]
    public static let empty = RecognitionResult(text: "", candidates: [], words: [])
}

/// How the lexicon is used.
public enum LexiconMode: Sendable, Equatable {
    /// Ignore the lexicon.
    case off
    /// Prefer lexicon words: a lexicon transcription wins unless the free one is more likely by more
    /// than `tolerancePerWord` nats per word.
    case prefer(tolerancePerWord: Double)
    /// Only lexicon words (and numbers / punctuation tokens).
    case require
}

/// Constraints on a reading: characters, pattern, lexicon and language model use.
public struct RecognitionOptions: Sendable {
    /// Characters the output may contain (nil: the whole character set).
    public var allowedCharacters: Set<Character>?
    /// A regular expression (NSRegularExpression syntax) the whole result must match; candidates that
    /// do not match are discarded.
    public var regularExpression: String?
    /// A custom word list; used instead of the recognizer's lexicon when set.
    public var wordList: [String]?
    public var lexiconMode: LexiconMode
    public var beamWidth: Int
    public var nBest: Int
    /// false when the strokes are not in millimetres (normalise by height only).
    public var inMillimetres: Bool
    /// Weight of the character language model's log probability in the beam search (0: not used; used
    /// only when the recognizer has a model).
    public var languageModelWeight: Double
    /// Added per character with the language model (balances the model's cost of every character).
    public var characterBonus: Double

    public init(allowedCharacters: Set<Character>? = nil, regularExpression: String? = nil,
                wordList: [String]? = nil, lexiconMode: LexiconMode = .prefer(tolerancePerWord: RecognitionOptions.defaultLexiconBonus),
                beamWidth: Int = 16, nBest: Int = 5, inMillimetres: Bool = true,
                languageModelWeight: Double = RecognitionOptions.defaultLanguageModelWeight,
                characterBonus: Double = RecognitionOptions.defaultCharacterBonus) {
        self.allowedCharacters = allowedCharacters
        self.regularExpression = regularExpression
        self.wordList = wordList
        self.lexiconMode = lexiconMode
        self.beamWidth = beamWidth
        self.nBest = nBest
        self.inMillimetres = inMillimetres
        self.languageModelWeight = languageModelWeight
        self.characterBonus = characterBonus
    }

    /// Tuned on the language-model tuning writers of the training split, with a model that has not
    /// seen their texts (weight/bonus 0.2/0.5, 0.3/0.5, 0.3/1, 0.4/0.5, 0.5/1, 0.8/1.5: CER of 400
    /// words + 400 lines 0.042, 0.042, 0.044, 0.043, 0.047, 0.055; none 0.049).
    public static let defaultLanguageModelWeight = 0.3
    public static let defaultCharacterBonus = 0.5
    /// How much more likely (log score per word) a free reading must be to beat the best lexicon word.
    public static let defaultLexiconBonus = 6.0

    public static let digits: Set<Character> = Set("0123456789")
    public static let upperCase: Set<Character> = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    public static let lowerCase: Set<Character> = Set("abcdefghijklmnopqrstuvwxyz")
    /// Digits only (no lexicon).
    public static var digitsOnly: RecognitionOptions { RecognitionOptions(allowedCharacters: digits, lexiconMode: .off) }
    /// Upper-case letters and spaces (lexicon preferred).
    public static var upperCaseOnly: RecognitionOptions {
        RecognitionOptions(allowedCharacters: upperCase.union([" "]))
    }
}

/// Recognizes handwritten text from pen strokes. Thread-safe; each call runs on the calling thread.
public final class TextRecognizer: Sendable {
    public let model: RecognitionModel
    public let lexicon: Lexicon?
    public let languageModel: CharacterLanguageModel?
    /// A network trained mostly on isolated characters (`quire-rec-chars.bin`): it re-reads ink that
    /// looks like one character (see `decode`). Nil, or one whose charset or preprocessing differs
    /// from `model`'s, is not used.
    public let characterModel: RecognitionModel?

    public init(model: RecognitionModel, lexicon: Lexicon? = nil, languageModel: CharacterLanguageModel? = nil,
                characterModel: RecognitionModel? = nil) {
        self.model = model
        self.lexicon = lexicon
        self.languageModel = languageModel
        self.characterModel = characterModel.flatMap { $0.isCompatible(with: model) ? $0 : nil }
    }

    /// Network output for strokes (millimetres, y down), or nil for unusable input.
    public func logProbabilities(strokes: [[SIMD2<Double>]], inMillimetres: Bool = true) -> (LogProbMatrix, PreprocessedInk)? {
        guard let ink = Preprocessor.prepare(strokes: strokes, config: model.preprocess, inMillimetres: inMillimetres),
              ink.count > 0 else { return nil }
        let lp = model.logProbabilities(features: ink.features, count: ink.count)
        let frames = model.outputLength(forInputLength: ink.count)
        guard lp.count == frames * model.numClasses, lp.allSatisfy({ $0.isFinite }) else { return nil }
        return (LogProbMatrix(values: lp, frames: frames, classes: model.numClasses), ink)
    }

    /// Network output for several lines at once (each line's strokes in millimetres, y down), in the
    /// order given: the same as `logProbabilities(strokes:inMillimetres:)` line by line, but the
    /// lines share the network's passes (one weight load serves several lines), which reads a page
    /// faster. Nil for a line with unusable input.
    public func logProbabilities(lines: [[[SIMD2<Double>]]], inMillimetres: Bool = true) -> [(LogProbMatrix, PreprocessedInk)?] {
        let inks = lines.map { strokes -> PreprocessedInk? in
            guard let ink = Preprocessor.prepare(strokes: strokes, config: model.preprocess, inMillimetres: inMillimetres),
                  ink.count > 0 else { return nil }
            return ink
        }
        // Lines of similar length share passes: a pass runs as long as its longest line.
        let order = inks.indices.filter { inks[$0] != nil }.sorted { (inks[$0]!.count, $1) > (inks[$1]!.count, $0) }
        let outputs = model.logProbabilities(batch: order.map { (inks[$0]!.features, inks[$0]!.count) })
        var results = [(LogProbMatrix, PreprocessedInk)?](repeating: nil, count: lines.count)
        for (k, i) in order.enumerated() {
            let ink = inks[i]!, lp = outputs[k]
            let frames = model.outputLength(forInputLength: ink.count)
            guard lp.count == frames * model.numClasses, lp.allSatisfy({ $0.isFinite }) else { continue }
            results[i] = (LogProbMatrix(values: lp, frames: frames, classes: model.numClasses), ink)
        }
        return results
    }

    /// Recognizes strokes given in millimetres with y pointing down. Bad input (no strokes, no finite
    /// point, absurdly long ink) yields `RecognitionResult.empty`.
    public func recognize(strokes: [[SIMD2<Double>]], options: RecognitionOptions = RecognitionOptions()) -> RecognitionResult {
        guard let (m, ink) = logProbabilities(strokes: strokes, inMillimetres: options.inMillimetres) else { return .empty }
        return decode(m, ink: ink, options: options)
    }

    /// Decodes a log-probability matrix (exposed for tests and tools). `ink` supplies boxes and strokes.
    /// With a character model and `ink`, ink the matrix reads as one character is read again by the
    /// character model, and its matrix is decoded instead when it also sees exactly one character.
    public func decode(_ m: LogProbMatrix, ink: PreprocessedInk?, options: RecognitionOptions) -> RecognitionResult {
        decodeMatrix(loneCharacterMatrix(m, ink: ink) ?? m, ink: ink, options: options, trace: nil)
    }

    /// `decode`, noting in `trace` what the diagnostics need (see `diagnose`).
    func decode(_ m: LogProbMatrix, ink: PreprocessedInk?, options: RecognitionOptions, trace: DecodeTrace) -> RecognitionResult {
        let own = loneCharacterMatrix(m, ink: ink)
        trace.matrix = own ?? m
        trace.usedCharacterModel = own != nil
        return decodeMatrix(own ?? m, ink: ink, options: options, trace: trace)
    }

    /// The character model's output for ink that holds a single character, else nil. The general
    /// network learned lines and words mostly; a lone letter or digit has no neighbours to tell an O
    /// from a D or an l from an e, and the character model, trained on many more of them, reads
    /// those better (validation fields: see docs/RECOGNITION-MODEL.md). Short words keep the general
    /// reading: the character model, trained mostly on single characters, would read "is" as one.
    func loneCharacterMatrix(_ m: LogProbMatrix, ink: PreprocessedInk?) -> LogProbMatrix? {
        guard let cm = characterModel, let ink, ink.count > 0, m.classes == cm.numClasses else { return nil }
        let space = (cm.charset.firstIndex(of: " ") ?? -1) + 1
        let general = CTCDecoder.greedy(m).classes
        guard general.count == 1, general[0] != space else { return nil }
        let lp = cm.logProbabilities(features: ink.features, count: ink.count)
        let frames = cm.outputLength(forInputLength: ink.count)
        guard frames == m.frames, lp.count == frames * cm.numClasses, lp.allSatisfy({ $0.isFinite }) else { return nil }
        let c = LogProbMatrix(values: lp, frames: frames, classes: cm.numClasses)
        let own = CTCDecoder.greedy(c).classes
        return own.count == 1 && own[0] != space ? c : nil
    }

    private func decodeMatrix(_ m: LogProbMatrix, ink: PreprocessedInk?, options: RecognitionOptions, trace: DecodeTrace?) -> RecognitionResult {
        let charset = model.charset
        guard m.classes == charset.count + 1, m.frames > 0 else { return .empty }
        var allowed: [Bool]? = nil
        if let set = options.allowedCharacters {
            allowed = [true] + charset.map { set.contains($0) }
        }
        let spaceAllowed = allowed.map { a in charset.firstIndex(of: " ").map { a[$0 + 1] } ?? false } ?? true
        var lex: Lexicon? = lexicon
        if let list = options.wordList { lex = Lexicon(words: list) }
        if options.lexiconMode == .off { lex = nil }
        let constraint = lex.map { WordConstraint(lexicon: $0, charset: charset) }
        var regex: NSRegularExpression?
        if let pattern = options.regularExpression {
            regex = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$")
            if regex == nil { return .empty }
        }
        let width = max(1, min(options.beamWidth, 256)) * (regex == nil ? 1 : 4)
        let nBest = max(1, min(options.nBest, 64))
        let wantPaths = regex == nil ? nBest : width

        func text(_ p: DecodedPath) -> String { String(p.classes.map { charset[$0 - 1] }) }
        func matches(_ s: String) -> Bool {
            guard let r = regex else { return true }
            return Self.matches(r, s)
        }

        // The language model reads text of its own charset order; a recognizer with another charset
        // (none ships) decodes without it.
        var lm: LMFusion?
        if let model = languageModel, options.languageModelWeight > 0, charset.count == 95,
           charset.enumerated().allSatisfy({ $1.asciiValue == UInt8($0 + 32) }) {
            lm = LMFusion(model: model, weight: options.languageModelWeight, bonus: options.characterBonus)
        }
        // Over a single character the model knows nothing but how common each character is at the
        // start of a line, a prior that misleads where characters are written for their own sake (a
        // form's digit, a lone mark): validation digits went from CER 0.112 to 0.139 with it. Ink the
        // network reads as one character or none is decoded without it.
        if lm != nil && CTCDecoder.greedy(m).classes.count <= 1 { lm = nil }
        let lmCache = LMScoreCache()
        let free = CTCDecoder.beamSearch(m, beamWidth: width, nBest: wantPaths, allowed: allowed, constraint: nil,
                                         allowSpace: spaceAllowed, lm: lm, lmCache: lmCache)
        var paths = free
        var wordTolerance: Double? = nil
        if let con = constraint {
            switch options.lexiconMode {
            case .require:
                paths = CTCDecoder.beamSearch(m, beamWidth: width, nBest: wantPaths, allowed: allowed,
                                              constraint: con, allowSpace: spaceAllowed, lm: lm, lmCache: lmCache)
            case let .prefer(tol):
                if regex == nil {
                    wordTolerance = tol  // decided word by word below
                } else {
                    // With a regular expression, rank whole-line readings (lexicon ones get the bonus).
                    let constrained = CTCDecoder.beamSearch(m, beamWidth: width, nBest: wantPaths, allowed: allowed,
                                                            constraint: con, allowSpace: spaceAllowed, lm: lm, lmCache: lmCache)
                    let bonus = constrained.map { p -> DecodedPath in
                        var q = p
                        q.score += tol * Double(max(1, text(p).split(separator: " ").count))
                        return q
                    }
                    paths = (bonus + free).sorted { $0.score > $1.score }
                }
            case .off:
                break
            }
        }
        var seen = Set<String>()
        var chosen: [DecodedPath] = []
        for p in paths {
            let s = text(p)
            if seen.contains(s) || !matches(s) { continue }
            seen.insert(s)
            chosen.append(p)
        }
        // A character constraint that masks what the network saw (a capital field's C read as c)
        // leaves the blank to win every frame, and the field would stay empty although something was
        // written there: then the best non-empty reading the constraint allows comes first.
        if allowed != nil, let top = chosen.first, top.classes.isEmpty, !CTCDecoder.greedy(m).classes.isEmpty,
           let k = chosen.firstIndex(where: { !$0.classes.isEmpty }) {
            chosen.insert(chosen.remove(at: k), at: 0)
        }
        guard let best = chosen.first else { return .empty }
        trace?.line = lm
        trace?.best = best
        var candidates = chosen.prefix(nBest).map { RecognitionCandidate(text: text($0), score: $0.score) }
        let words = segmentWords(best, m: m, ink: ink, allowed: allowed, constraint: constraint,
                                 mode: options.lexiconMode, wordTolerance: wordTolerance, nBest: nBest,
                                 width: max(4, width / 2), lm: lm, lmCache: lmCache, trace: trace)
        var lineText = text(best)
        if wordTolerance != nil {
            lineText = words.map(\.text).joined(separator: " ")
            if lineText != candidates.first?.text {
                let score = best.score + words.reduce(0) { $0 + (($1.candidates.first?.score ?? 0) - $1.freeScore) }
                candidates.removeAll { $0.text == lineText }
                candidates.insert(RecognitionCandidate(text: lineText, score: score), at: 0)
                if candidates.count > nBest { candidates.removeLast(candidates.count - nBest) }
            }
        }
        return RecognitionResult(text: lineText, candidates: candidates, words: words)
    }

    private func segmentWords(_ best: DecodedPath, m: LogProbMatrix, ink: PreprocessedInk?, allowed: [Bool]?,
                              constraint: WordConstraint?, mode: LexiconMode, wordTolerance: Double?, nBest: Int,
                              width: Int, lm: LMFusion?, lmCache: LMScoreCache, trace: DecodeTrace?) -> [WordResult] {
        let charset = model.charset
        let spaceClass = (charset.firstIndex(of: " ") ?? -1) + 1
        func str(_ p: DecodedPath) -> String { String(p.classes.map { charset[$0 - 1] }) }
        // Group characters into words at spaces; frame range of character i: [frame_i, frame_{i+1}).
        var groups: [[Int]] = [[]]
        for (i, c) in best.classes.enumerated() {
            if c == spaceClass { groups.append([]) } else { groups[groups.count - 1].append(i) }
        }
        let n = best.classes.count
        func charEnd(_ i: Int) -> Int { i + 1 < n ? best.frames[i + 1] : m.frames }
        var words: [WordResult] = []
        var wordFrames: [Range<Int>] = []
        let lastGroup = groups.lastIndex { !$0.isEmpty }
        for (gi, g) in groups.enumerated() where !g.isEmpty {
            let lo = g.first! == 0 ? 0 : best.frames[g.first!]
            let hi = charEnd(g.last!)
            let range = lo ..< max(lo + 1, hi)
            let pathText = String(g.map { charset[best.classes[$0] - 1] })
            var word = trace.map { _ in DecodeTrace.Word(frames: range, characters: g) }
            var cands = [RecognitionCandidate(text: pathText, score: 0)]
            var freeScore = 0.0
            if nBest > 1 || wordTolerance != nil {
                // The language model sees the words chosen before this one, and a space after it unless it
                // ends the line.
                var wordLM = lm
                if let l = lm {
                    let before = words.map(\.text).joined(separator: " ")
                    wordLM?.initialContext = l.model.context(after: before.isEmpty ? "" : before + " ")
                    wordLM?.terminator = gi == lastGroup ? CharacterLanguageModel.boundary : spaceClass
                }
                let freeAlts = CTCDecoder.beamSearch(m, frames: range, beamWidth: width, nBest: max(2, nBest),
                                                     allowed: allowed, constraint: nil, allowSpace: false, lm: wordLM, lmCache: lmCache)
                var lexAlts: [DecodedPath] = []
                if let con = constraint, mode != .off {
                    lexAlts = CTCDecoder.beamSearch(m, frames: range, beamWidth: width, nBest: max(2, nBest),
                                                    allowed: allowed, constraint: con, allowSpace: false, lm: wordLM, lmCache: lmCache)
                }
                let bonus = wordTolerance ?? 0
                word?.lm = wordLM
                word?.bonus = bonus
                word?.free = freeAlts.map { (str($0), $0.score) }
                word?.lexicon = lexAlts.map { (str($0), $0.score + bonus) }
                var ranked = freeAlts.map { RecognitionCandidate(text: str($0), score: $0.score) }
                ranked += lexAlts.map { RecognitionCandidate(text: str($0), score: $0.score + bonus) }
                ranked.sort { $0.score > $1.score }
                freeScore = freeAlts.first?.score ?? 0
                var unique: [RecognitionCandidate] = []
                for c in ranked where !unique.contains(where: { $0.text == c.text }) { unique.append(c) }
                if wordTolerance != nil, let top = unique.first, !top.text.isEmpty {
                    cands = unique
                } else {
                    let own = unique.first { $0.text == pathText }
                    cands = [RecognitionCandidate(text: pathText, score: own?.score ?? freeScore)]
                    cands += unique.filter { $0.text != pathText }
                }
                if cands.count > nBest { cands.removeLast(cands.count - nBest) }
            }
            let wordText = cands[0].text
            var chars: [CharacterResult] = []
            if let ink {
                if wordText == pathText {
                    for i in g {
                        let r = best.frames[i] ..< max(best.frames[i] + 1, charEnd(i))
                        if let box = box(frames: r, ink: ink) {
                            chars.append(CharacterResult(character: charset[best.classes[i] - 1], box: box))
                        }
                    }
                } else {
                    // The chosen reading differs from the best path: split the word's frames evenly.
                    let k = wordText.count
                    for (j, ch) in wordText.enumerated() {
                        let a = range.lowerBound + range.count * j / k
                        let b = max(a + 1, range.lowerBound + range.count * (j + 1) / k)
                        if let box = box(frames: a ..< b, ink: ink) { chars.append(CharacterResult(character: ch, box: box)) }
                    }
                }
            }
            var w = WordResult(text: wordText, candidates: cands,
                               box: ink.flatMap { box(frames: range, ink: $0) } ?? BoundingBox(minX: 0, minY: 0, maxX: 0, maxY: 0),
                               characters: chars, strokeIndices: [])
            w.freeScore = freeScore
            if let word { trace?.words.append(word) }
            words.append(w)
            wordFrames.append(range)
        }
        // Assign each stroke to the word holding most of its resampled points.
        if let ink, !words.isEmpty {
            var votes: [Int: [Int: Int]] = [:]  // stroke -> word -> count
            for (w, r) in wordFrames.enumerated() {
                for f in r {
                    for p in [2 * f, 2 * f + 1] where p < ink.count {
                        votes[ink.strokeIndex[p], default: [:]][w, default: 0] += 1
                    }
                }
            }
            for (stroke, v) in votes {
                if let w = v.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key {
                    words[w].strokeIndices.append(stroke)
                }
            }
            for w in words.indices {
                words[w].strokeIndices.sort()
            }
        }
        return words
    }

    /// Whether `s` matches, giving up (no match) after a fixed amount of work: a pattern with
    /// nested repetition ("(\w+\s?)+\d", a kiosk field's own configuration) backtracks
    /// exponentially on a line that cannot match, and reading two lines of words took minutes.
    /// The work is counted in the regex engine's progress calls (steps, not time: the same line
    /// gives the same answer every time); an ordinary pattern never makes one.
    static func matches(_ r: NSRegularExpression, _ s: String) -> Bool {
        var found = false, work = 0
        r.enumerateMatches(in: s, options: [.reportProgress], range: NSRange(s.startIndex..., in: s)) { m, _, stop in
            if m != nil { found = true; stop.pointee = true } else { work += 1; if work >= 16 { stop.pointee = true } }
        }
        return found
    }

    private func box(frames r: Range<Int>, ink: PreprocessedInk) -> BoundingBox? {
        let lo = max(0, 2 * r.lowerBound), hi = min(ink.count, 2 * r.upperBound)
        guard lo < hi else { return nil }
        return BoundingBox.around(ink.points[lo ..< hi])
    }
}
