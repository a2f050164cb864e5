import Foundation
import InkModel
import InkRecognition

/// The handwriting recognizer of Quire (`InkRecognition.TextRecognizer`) behind the editor's
/// `InkRecognizer` protocol. Weights and word lists load lazily on the first request (on the
/// recognition worker, never on the input thread) and are shared by every adapter of the process.
/// Results are cached per text line, keyed by the line's strokes and the settings, so an edit only
/// re-reads the lines whose ink changed.
public final class TextRecognizerAdapter: InkRecognizer, @unchecked Sendable {
    /// `text.configuration.*` keys (without the prefix) the adapter reads from a request's options.
    public static let optionKeys = ["bundle", "name", "lexicon", "charset", "regex", "digits-only",
                                    "upper-case-only", "lexicon-mode", "system-lexicon"]

    /// The adapter editors get by default: the weights found by `defaultWeightsURL()`, or nil when
    /// there are none (editors then recognize nothing until a recognizer is set).
    public static let shared: TextRecognizerAdapter? = defaultWeightsURL().map { TextRecognizerAdapter(modelURL: $0) }

    /// `$QUIRE_RECOGNITION_MODEL`, `<bin>/../share/quire/recognition/quire-rec.bin`, a
    /// `Resources/recognition` folder above the working directory or the executable, then Quire's
    /// resource folder. A path given in the environment is returned even if the file is missing, so
    /// that a wrong setting surfaces as an error instead of silently disabling recognition.
    public static func defaultWeightsURL() -> URL? {
        if let u = RecognitionModel.defaultModelURL() { return u }
        if let dir = try? QuireResources.directory() {
            let u = dir.appendingPathComponent("recognition/\(RecognitionModel.defaultFileName)")
            if FileManager.default.fileExists(atPath: u.path) { return u }
        }
        return nil
    }

    public let modelURL: URL
    /// Where the character language model comes from.
    public let languageModel: LanguageModelSource
    /// Most lines kept in the result cache.
    public let cacheLimit: Int
    private let lock = NSLock()
    private var cache: [LineKey: CachedLine] = [:]
    private var tick = 0
    private var linesRun = 0
    private var networkNanos: UInt64 = 0
    private var decodeNanos: UInt64 = 0
    private var framesRun = 0

    /// An adapter that loads `modelURL` when first used; a missing or corrupt file then makes every
    /// request throw a `QuireError` (reported through the editor's `onError`).
    public init(modelURL: URL, cacheLimit: Int = 512, languageModel: LanguageModelSource = .besideWeights,
                characterModel: CharacterModelSource = .besideWeights) {
        self.modelURL = modelURL
        self.cacheLimit = max(0, cacheLimit)
        self.languageModel = languageModel
        self.characterModel = characterModel
    }

    /// Where the character model comes from.
    public let characterModel: CharacterModelSource

    /// The network that re-reads lone characters (`TextRecognizer.characterModel`).
    public enum CharacterModelSource: Sendable, Equatable {
        /// None: lone characters are read by the general network.
        case none
        /// `$QUIRE_CHARACTER_MODEL` if set, else `quire-rec-chars.bin` beside the weights if it exists
        /// (no file: none; an unreadable, corrupt or mismatched one is an error).
        case besideWeights
        /// This file (missing, unreadable, corrupt or mismatched: an error).
        case file(URL)
    }

    /// The loaded character model, or nil (throws `resourceMissing` or `recognitionError`, the
    /// latter also when its character set or preprocessing differs from the weights').
    public func loadedCharacterModel() throws -> RecognitionModel? {
        let url: URL
        switch characterModel {
        case .none: return nil
        case let .file(u): url = u
        case .besideWeights:
            if let p = ProcessInfo.processInfo.environment["QUIRE_CHARACTER_MODEL"], !p.isEmpty {
                url = URL(fileURLWithPath: p)
            } else {
                url = modelURL.deletingLastPathComponent().appendingPathComponent(RecognitionModel.characterFileName)
                guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            }
        }
        let cm = try ModelStore.shared.model(at: url, what: "character model", hint: "")
        guard cm.isCompatible(with: try model()) else {
            throw QuireError(.recognitionError, "character model at \(url.path) does not match the weights at \(modelURL.path) (character set or preprocessing differ)")
        }
        return cm
    }

    /// The character n-gram model used with the network.
    public enum LanguageModelSource: Sendable, Equatable {
        /// None: the network, beam search and lexicon only.
        case none
        /// `$QUIRE_LANGUAGE_MODEL` if set, else `quire-lm.bin` beside the weights if it exists
        /// (no file: no language model; an unreadable or corrupt one is an error).
        case besideWeights
        /// This file (missing, unreadable or corrupt: an error).
        case file(URL)
    }

    /// The loaded language model, or nil (throws `resourceMissing` or `recognitionError`).
    public func loadedLanguageModel() throws -> CharacterLanguageModel? {
        switch languageModel {
        case .none: return nil
        case let .file(url): return try ModelStore.shared.languageModel(at: url)
        case .besideWeights:
            if let p = ProcessInfo.processInfo.environment["QUIRE_LANGUAGE_MODEL"], !p.isEmpty {
                return try ModelStore.shared.languageModel(at: URL(fileURLWithPath: p))
            }
            let url = modelURL.deletingLastPathComponent().appendingPathComponent(CharacterLanguageModel.defaultFileName)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return try ModelStore.shared.languageModel(at: url)
        }
    }

    /// An adapter whose weights are loaded now; throws `resourceMissing` for a missing or
    /// unreadable file and `recognitionError` for a corrupt one.
    public static func load(modelURL: URL) throws -> TextRecognizerAdapter {
        let a = TextRecognizerAdapter(modelURL: modelURL)
        _ = try a.model()
        return a
    }

    /// The loaded network (throws as `load(modelURL:)`).
    public func model() throws -> RecognitionModel { try ModelStore.shared.model(at: modelURL) }

    /// Lines the network has read so far (cache misses); cached lines do not count.
    public var linesRecognized: Int { lock.withLock { linesRun } }

    /// Work done so far over all lines read (for benchmarks: the rest of a request is line splitting
    /// and bookkeeping): network output frames, CPU seconds in the network (preprocessing and forward
    /// passes) and in decoding.
    public var workDone: (frames: Int, network: Double, decoding: Double) {
        lock.withLock { (framesRun, Double(networkNanos) / 1e9, Double(decodeNanos) / 1e9) }
    }

    /// Forgets cached line results.
    public func clearCache() { lock.withLock { cache.removeAll() } }

    // MARK: settings

    /// A recognizer and decoder options built from `text.configuration.*` values (keys without the
    /// prefix, as in `RecognitionRequest.options`). Throws `invalidArgument` for a bad regular
    /// expression, character set or lexicon mode, `fileNotFound`/`ioError` for an unreadable lexicon.
    public func configured(options: [String: String]) throws -> (recognizer: TextRecognizer, options: RecognitionOptions) {
        let r = try resolve(options)
        return (r.recognizer, r.options)
    }

    private struct Resolved {
        var recognizer: TextRecognizer
        var options: RecognitionOptions
        var fingerprint: String
    }

    private func resolve(_ o: [String: String]) throws -> Resolved {
        let net = try model()
        var opts = RecognitionOptions()
        func flag(_ key: String, default d: Bool) throws -> Bool {
            guard let v = o[key]?.trimmingCharacters(in: .whitespaces).lowercased(), !v.isEmpty else { return d }
            switch v {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw QuireError(.invalidArgument, "text.configuration.\(key) must be true or false, not '\(v)'")
            }
        }
        var allowed: Set<Character>?
        func restrict(_ s: Set<Character>, _ what: String) throws {
            allowed = allowed.map { $0.intersection(s) } ?? s
            if allowed!.isEmpty {
                throw QuireError(.invalidArgument, "text.configuration: \(what) leaves no character to recognize")
            }
        }
        if let cs = o["charset"], !cs.isEmpty {
            let known = Set(net.charset)
            let s = Set(cs).intersection(known)
            if s.isEmpty { throw QuireError(.invalidArgument, "text.configuration.charset '\(cs)' holds no character the recognizer knows (printable ASCII)") }
            try restrict(s, "text.configuration.charset")
        }
        if try flag("digits-only", default: false) {
            try restrict(RecognitionOptions.digits, "text.configuration.digits-only")
            opts.lexiconMode = .off  // no dictionary word is made of digits
        }
        if try flag("upper-case-only", default: false) {
            try restrict(RecognitionOptions.upperCase.union([" "]), "text.configuration.upper-case-only")
        }
        opts.allowedCharacters = allowed
        if let re = o["regex"], !re.isEmpty {
            do { _ = try NSRegularExpression(pattern: "^(?:" + re + ")$") } catch {
                throw QuireError(.invalidArgument, "text.configuration.regex '\(re)' is not a valid regular expression")
            }
            opts.regularExpression = re
        }
        if let mode = o["lexicon-mode"]?.lowercased(), !mode.isEmpty {
            switch mode {
            case "prefer": if opts.lexiconMode != .off { opts.lexiconMode = RecognitionOptions().lexiconMode }
            case "require": opts.lexiconMode = .require
            case "off": opts.lexiconMode = .off
            default: throw QuireError(.invalidArgument, "text.configuration.lexicon-mode must be prefer, require or off, not '\(mode)'")
            }
        }
        let useSystem = try flag("system-lexicon", default: true)
        var lexicon: Lexicon?
        var lexiconId = "none"
        if opts.lexiconMode != .off {
            let custom = o["lexicon"].flatMap { $0.isEmpty ? nil : $0 }
            (lexicon, lexiconId) = try LexiconStore.shared.lexicon(customPath: custom, withSystem: useSystem)
        }
        let lm = try loadedLanguageModel()
        let cm = try loadedCharacterModel()
        let fp = [opts.allowedCharacters.map { String($0.sorted()) } ?? "*", opts.regularExpression ?? "",
                  "\(opts.lexiconMode)", lexiconId, lm.map { "lm\(ObjectIdentifier($0).hashValue)" } ?? "no-lm",
                  cm.map { "cm\(ObjectIdentifier($0).hashValue)" } ?? "no-cm"]
            .joined(separator: "\u{1}")
        return Resolved(recognizer: TextRecognizer(model: net, lexicon: lexicon, languageModel: lm, characterModel: cm),
                        options: opts, fingerprint: fp)
    }

    // MARK: recognition

    /// Reads a block: its strokes are grouped into lines (by the guides when `guideSpacing` is set,
    /// else by the gaps between lines), each line is recognized (or taken from the cache) and its
    /// words get the ids of their strokes. Math blocks are read as text for now.
    public func recognize(_ request: RecognitionRequest) throws -> [RecognizedWord] {
        let resolved = try resolve(request.options)
        let strokes = request.strokes.filter { $0.count > 0 }
        let points = strokes.map { s in
            let xs = s.xs, ys = s.ys  // computed from packed storage: fetch once per stroke
            return (0 ..< s.count).map { i in
                SIMD2(Double(xs[i]) / InkStroke.unitsPerMillimetre, Double(ys[i]) / InkStroke.unitsPerMillimetre)
            }
        }
        let lines = TextRecognizer.groupLines(strokes: points, lineSpacing: request.guideSpacing, originY: request.box.y)
        let keys = lines.map { group in
            LineKey(settings: resolved.fingerprint, ids: group.map { strokes[$0].id }, ink: Self.inkHash(group.map { strokes[$0] }))
        }
        var results = keys.map { cached($0) }
        // The lines not in the cache go through the network together (a weight load serves several
        // lines: a page reads faster than line by line), then each is decoded.
        let missing = results.indices.filter { results[$0] == nil }
        if !missing.isEmpty {
            let t0 = Self.threadCPUNanos()
            let outputs = resolved.recognizer.logProbabilities(lines: missing.map { i in lines[i].map { points[$0] } })
            let t1 = Self.threadCPUNanos()
            var frames = 0
            for (k, i) in missing.enumerated() {
                guard let (m, ink) = outputs[k] else {
                    throw QuireError(.recognitionError, "line \(i + 1) of block '\(request.blockId)' holds too much ink to recognize (more than \(resolved.recognizer.model.preprocess.maxPoints) resampled points)")
                }
                let r = resolved.recognizer.decode(m, ink: ink, options: resolved.options)
                frames += m.frames
                store(keys[i], r)
                results[i] = r
            }
            let t2 = Self.threadCPUNanos()
            lock.withLock {
                networkNanos += t1 - t0
                decodeNanos += t2 - t1
                framesRun += frames
            }
        }
        var words: [RecognizedWord] = []
        var lineNumber = 0
        for (i, group) in lines.enumerated() {
            guard let result = results[i] else { continue }
            let lineWords = Self.words(result, strokes: group.map { strokes[$0] }, points: group.map { points[$0] }, line: lineNumber)
            if !lineWords.isEmpty {
                words += lineWords
                lineNumber += 1
            }
        }
        return words
    }

    /// CPU time of the calling thread (what the work costs, whatever else the machine runs).
    static func threadCPUNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    static func inkHash(_ strokes: [InkStroke]) -> Int {
        var h = Hasher()
        for s in strokes {
            h.combine(s.id)
            h.combine(s.xs)
            h.combine(s.ys)
        }
        return h.finalize()
    }

    /// How far the nearest point of a stroke lies from a box.
    static func distance(_ pts: [SIMD2<Double>], _ b: BoundingBox) -> Double {
        pts.map { hypot(max(0, b.minX - $0.x, $0.x - b.maxX), max(0, b.minY - $0.y, $0.y - b.maxY)) }.min() ?? .infinity
    }

    /// Converts one line's result: stroke indices become ids, each character gets the strokes of its
    /// word whose points mostly lie over its box.
    static func words(_ r: RecognitionResult, strokes: [InkStroke], points: [[SIMD2<Double>]], line: Int) -> [RecognizedWord] {
        func rect(_ b: BoundingBox) -> Rect { Rect(x: b.minX, y: b.minY, width: b.width, height: b.height) }
        var out: [RecognizedWord] = []
        for w in r.words where !w.text.isEmpty {
            var idx = w.strokeIndices.filter { strokes.indices.contains($0) }
            if idx.isEmpty {
                // Each stroke went to the word holding most of its points, and this one got none.
                // A word without strokes passes for typeset text: every later reading of the
                // block would keep it and read it again, one more copy each time. It names the
                // strokes under its box (shared with a neighbour), else the nearest one.
                let b = w.box
                idx = points.indices.filter { s in points[s].contains { $0.x >= b.minX && $0.x <= b.maxX && $0.y >= b.minY && $0.y <= b.maxY } }
                if idx.isEmpty, let near = points.indices.min(by: { distance(points[$0], b) < distance(points[$1], b) }) { idx = [near] }
            }
            var charStrokes = [[String]](repeating: [], count: w.characters.count)
            if !w.characters.isEmpty {
                for s in idx {
                    var votes = [Int](repeating: 0, count: w.characters.count)
                    for p in points[s] {
                        var best = 0, bestD = Double.infinity
                        for (c, ch) in w.characters.enumerated() {
                            let d = max(0, ch.box.minX - p.x, p.x - ch.box.maxX)
                            if d < bestD { bestD = d; best = c }
                        }
                        votes[best] += 1
                    }
                    if let c = votes.indices.max(by: { votes[$0] < votes[$1] }) { charStrokes[c].append(strokes[s].id) }
                }
            }
            var cands = w.candidates.map { Candidate(label: $0.text, score: $0.score) }
            if cands.first?.label != w.text { cands.insert(Candidate(label: w.text, score: w.candidates.first?.score ?? 0), at: 0) }
            out.append(RecognizedWord(label: w.text, candidates: cands, selected: 0, box: rect(w.box), line: line,
                                      strokeIds: idx.map { strokes[$0].id },
                                      chars: w.characters.enumerated().map { c, ch in
                                          RecognizedChar(label: String(ch.character), box: rect(ch.box), strokeIds: charStrokes[c])
                                      }))
        }
        return out
    }

    // MARK: line cache

    private struct LineKey: Hashable {
        var settings: String
        var ids: [String]
        var ink: Int
    }

    private struct CachedLine {
        var result: RecognitionResult
        var used: Int
    }

    private func cached(_ key: LineKey) -> RecognitionResult? {
        lock.withLock {
            guard var c = cache[key] else { return nil }
            tick += 1
            c.used = tick
            cache[key] = c
            return c.result
        }
    }

    private func store(_ key: LineKey, _ r: RecognitionResult) {
        lock.withLock {
            linesRun += 1
            guard cacheLimit > 0 else { return }
            if cache.count >= cacheLimit {
                // Drop the least recently used half at once: eviction stays rare and cheap.
                let keep = cache.sorted { $0.value.used > $1.value.used }.prefix(cacheLimit / 2)
                cache = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
            tick += 1
            cache[key] = CachedLine(result: r, used: tick)
        }
    }
}

/// Recognizer weights and language models shared by the process, by path; a file changed on disk is
/// read again.
final class ModelStore: @unchecked Sendable {
    static let shared = ModelStore()
    private let lock = NSLock()
    private var models: [String: (stamp: String, model: RecognitionModel)] = [:]
    private var languageModels: [String: (stamp: String, model: CharacterLanguageModel)] = [:]

    func languageModel(at url: URL) throws -> CharacterLanguageModel {
        let path = url.path
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attrs, (attrs[.type] as? FileAttributeType) == .typeRegular else {
            throw QuireError(.resourceMissing, "character language model not found at \(path) (set QUIRE_LANGUAGE_MODEL or install Resources/recognition/\(CharacterLanguageModel.defaultFileName))")
        }
        let stamp = "\((attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)|\((attrs[.size] as? NSNumber)?.intValue ?? -1)"
        return try lock.withLock {
            if let m = languageModels[path], m.stamp == stamp { return m.model }
            do {
                let m = try CharacterLanguageModel(contentsOf: url)
                languageModels[path] = (stamp, m)
                return m
            } catch let e as LanguageModelError {
                if case .fileUnreadable = e { throw QuireError(.resourceMissing, e.description) }
                throw QuireError(.recognitionError, "character language model at \(path) is unusable: \(e.description)")
            }
        }
    }

    func model(at url: URL, what: String = "recognizer weights",
               hint: String = " (set QUIRE_RECOGNITION_MODEL or install Resources/recognition/\(RecognitionModel.defaultFileName))") throws -> RecognitionModel {
        let path = url.path
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attrs, (attrs[.type] as? FileAttributeType) == .typeRegular else {
            throw QuireError(.resourceMissing, "\(what) not found at \(path)\(hint)")
        }
        let stamp = "\((attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)|\((attrs[.size] as? NSNumber)?.intValue ?? -1)"
        return try lock.withLock {
            if let m = models[path], m.stamp == stamp { return m.model }
            do {
                let m = try RecognitionModel(contentsOf: url)
                models[path] = (stamp, m)
                return m
            } catch let e as RecognitionModelError {
                if case .fileUnreadable = e { throw QuireError(.resourceMissing, e.description) }
                throw QuireError(.recognitionError, "cannot use the \(what) at \(path): \(e.description)")
            }
        }
    }
}

/// Word lists shared by the process: the system list (wamerican) and merged custom lists.
final class LexiconStore: @unchecked Sendable {
    static let shared = LexiconStore()
    static let maxCustomBytes = 64 << 20
    private let lock = NSLock()
    private var systemLoaded = false
    private var system: Lexicon?
    private var merged: [String: Lexicon] = [:]

    /// The system list, a custom list added to it, the custom list alone, or nil; with a key that
    /// changes when the list's file does (for caching results).
    func lexicon(customPath: String?, withSystem: Bool) throws -> (Lexicon?, String) {
        guard let customPath else { return withSystem ? (systemLexicon(), "system") : (nil, "none") }
        let url = URL(fileURLWithPath: customPath)
        let attrs = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attrs, (attrs[.type] as? FileAttributeType) == .typeRegular else {
            throw QuireError(.fileNotFound, "text.configuration.lexicon: no word list file at '\(customPath)'")
        }
        let size = (attrs[.size] as? NSNumber)?.intValue ?? 0
        guard size <= Self.maxCustomBytes else {
            throw QuireError(.invalidArgument, "text.configuration.lexicon: '\(customPath)' is larger than \(Self.maxCustomBytes >> 20) MB")
        }
        let key = "\(url.path)|\((attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)|\(size)|\(withSystem)"
        return try lock.withLock {
            if let l = merged[key] { return (l, key) }
            var words: [String]
            do { words = Self.lines(try Data(contentsOf: url)) } catch {
                throw QuireError(.ioError, "text.configuration.lexicon: cannot read '\(customPath)': \(error.localizedDescription)")
            }
            if withSystem, let path = Lexicon.systemWordListPaths.first(where: { FileManager.default.fileExists(atPath: $0) }),
               let data = try? Data(contentsOf: URL(fileURLWithPath: path)) {
                words += Self.lines(data)
            }
            let l = Lexicon(words: words)
            merged = merged.filter { !$0.key.hasPrefix(url.path + "|") }
            merged[key] = l
            return (l, key)
        }
    }

    func systemLexicon() -> Lexicon? {
        lock.withLock {
            if !systemLoaded { system = Lexicon.system(); systemLoaded = true }
            return system
        }
    }

    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
