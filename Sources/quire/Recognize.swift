import ArgumentParser
import Foundation
import InkRecognition
import Quire
import QuireTools

/// Recognition settings shared by `recognize` and `eval`; they map onto `text.configuration.*`.
struct RecognitionFlags: ParsableArguments {
    @Flag(name: .customLong("digits-only"), help: "Recognize digits only.") var digitsOnly = false
    @Flag(name: .customLong("upper-case-only"), help: "Recognize upper-case letters (and spaces) only.") var upperCaseOnly = false
    @Option(help: "Restrict recognition to these characters.") var charset: String?
    @Option(help: "A word list (one word a line) added to the dictionary.") var lexicon: String?
    @Option(name: .customLong("lexicon-mode"), help: "prefer (default), require or off.") var lexiconMode: String?
    @Flag(name: .customLong("no-system-lexicon"), help: "Do not use the system word list (wamerican).") var noSystemLexicon = false
    @Option(help: "Each recognized line must match this regular expression.") var regex: String?
    @Option(help: "Recognizer weights (default: the bundled quire-rec.bin).") var model: String?
    @Option(name: .customLong("lm"), help: "Character language model (default: quire-lm.bin beside the weights, if present).") var languageModel: String?
    @Flag(name: .customLong("no-lm"), help: "Decode without the character language model.") var noLanguageModel = false
    @Option(name: .customLong("char-model"), help: "Network that re-reads lone characters (default: quire-rec-chars.bin beside the weights, if present).")
    var characterModel: String?
    @Flag(name: .customLong("no-char-model"), help: "Read lone characters with the general network only.") var noCharacterModel = false
    @Option(name: .customLong("lm-weight"), help: "Weight of the language model in the beam search (default \(RecognitionOptions.defaultLanguageModelWeight)).")
    var languageModelWeight: Double?
    @Option(name: .customLong("char-bonus"), help: "Per-character bonus with the language model (default \(RecognitionOptions.defaultCharacterBonus)).")
    var characterBonus: Double?
    @Option(name: .customLong("lexicon-bonus"), help: "Score bonus of a lexicon word over the free reading, per word, in prefer mode (default \(RecognitionOptions.defaultLexiconBonus)).")
    var lexiconBonus: Double?

    /// Decoder options with the language-model and lexicon-bonus flags applied.
    func decoderOptions(_ base: RecognitionOptions) -> RecognitionOptions { readingSettings.decoderOptions(base) }

    /// These flags as the settings of a reading (the inspector states and compares them).
    var readingSettings: ReadingSettings {
        var s = ReadingSettings()
        s.options = options
        s.languageModelWeight = languageModelWeight
        s.characterBonus = characterBonus
        s.lexiconBonus = lexiconBonus
        s.model = model
        s.languageModel = noLanguageModel ? "none" : languageModel
        s.characterModel = noCharacterModel ? "none" : characterModel
        return s
    }

    /// The `text.configuration.*` values (without the prefix) these flags stand for.
    var options: [String: String] {
        var o: [String: String] = [:]
        if digitsOnly { o["digits-only"] = "true" }
        if upperCaseOnly { o["upper-case-only"] = "true" }
        if let charset { o["charset"] = charset }
        if let lexicon { o["lexicon"] = lexicon }
        if let lexiconMode { o["lexicon-mode"] = lexiconMode }
        if noSystemLexicon { o["system-lexicon"] = "false" }
        if let regex { o["regex"] = regex }
        return o
    }

    func apply(to c: Configuration) throws {
        for (k, v) in options {
            if v == "true" || v == "false" {
                try c.setBoolean(v == "true", forKey: "text.configuration." + k)
            } else {
                try c.setString(v, forKey: "text.configuration." + k)
            }
        }
    }

    /// The adapter with its weights loaded and the settings checked, so that bad flags or weights
    /// fail before any work.
    func adapter() throws -> TextRecognizerAdapter {
        if let languageModelWeight, !(languageModelWeight >= 0 && languageModelWeight.isFinite) {
            throw QuireError(.invalidArgument, "--lm-weight must be a finite number >= 0")
        }
        if let characterBonus, !characterBonus.isFinite { throw QuireError(.invalidArgument, "--char-bonus must be finite") }
        if let lexiconBonus, !(lexiconBonus >= 0 && lexiconBonus.isFinite) {
            throw QuireError(.invalidArgument, "--lexicon-bonus must be a finite number >= 0")
        }
        let lm: TextRecognizerAdapter.LanguageModelSource = noLanguageModel ? .none
            : languageModel.map { .file(URL(fileURLWithPath: $0)) } ?? .besideWeights
        if noCharacterModel && characterModel != nil { throw QuireError(.invalidArgument, "--char-model and --no-char-model exclude each other") }
        let cm: TextRecognizerAdapter.CharacterModelSource = noCharacterModel ? .none
            : characterModel.map { .file(URL(fileURLWithPath: $0)) } ?? .besideWeights
        let url: URL
        if let model {
            url = URL(fileURLWithPath: model)
        } else {
            guard let shared = TextRecognizerAdapter.defaultWeightsURL() else {
                throw QuireError(.resourceMissing, "no recognizer weights found: install Resources/recognition/quire-rec.bin, set QUIRE_RECOGNITION_MODEL or pass --model")
            }
            url = shared
        }
        let a = model == nil && lm == .besideWeights && cm == .besideWeights
            ? (TextRecognizerAdapter.shared ?? TextRecognizerAdapter(modelURL: url))
            : TextRecognizerAdapter(modelURL: url, languageModel: lm, characterModel: cm)
        _ = try a.model()
        _ = try a.configured(options: options)
        return a
    }
}

struct RecognizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recognize",
        abstract: "Recognize the handwriting of a package's Text blocks and Raw Content parts, of an InkML or Xournal++ file, or of JSON-lines samples (--jsonl).")
    @Argument(help: "A package, an .inkml, .xopp or .xoj file; with --jsonl, a .jsonl or .jsonl.gz file in the shared handwriting-data format.") var file: String
    @Flag(help: "FILE holds JSON-lines samples: print each reference and what was recognized.") var jsonl = false
    @Flag(help: "JSON output (words with candidates and boxes; one JSON line per sample with --jsonl).") var json = false
    @Option(help: "Only this part (0-based).") var part: Int?
    @Option(help: "With --jsonl: at most this many samples.") var limit: Int?
    @Flag(name: .customLong("validation-only"), help: "With --jsonl: only writers of the validation split.") var validationOnly = false
    @OptionGroup var flags: RecognitionFlags
    @OptionGroup var mathFlags: MathFlags
    @OptionGroup var recovery: RecoveryOptions

    func run() throws {
        try runReporting {
            if mathFlags.math {
                guard jsonl else { throw QuireError(.invalidArgument, "--math reads JSON-lines expressions: give --jsonl (a package's Math blocks are read as math without it)") }
                try RecognizeMath.samples(path: file, limit: limit, json: json, recognizer: try mathFlags.recognizer(),
                                           segments: mathFlags.segments)
                return
            }
            let adapter = try flags.adapter()
            if jsonl { try recognizeSamples(adapter) } else { try recognizePackage(adapter) }
        }
    }

    private func recognizePackage(_ adapter: TextRecognizerAdapter) throws {
        // InkML and Xournal++ files are read through a temporary package of Raw Content parts.
        let imported = try RecognizeImported.temporaryPackage(for: file)
        defer { imported.map(RecognizeImported.remove) }
        let (engine, pkg) = try recovery.open(imported ?? file)
        defer { pkg.close() }
        if let part, !(0 ..< pkg.partCount).contains(part) {
            throw QuireError(.indexOutOfRange, "part \(part) does not exist (the package has \(pkg.partCount))")
        }
        var parts: [JSONValue] = []
        var texts: [String] = []
        for i in part.map({ [$0] }) ?? Array(0 ..< pkg.partCount) {
            let p = try pkg.part(at: i)
            guard RecognizeImported.isRead(p.kind) else { continue }
            let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
            // The blocks are read here, synchronously; no background recognition.
            editor.recognizer = nil
            try flags.apply(to: editor.configuration)
            try editor.setViewSize(width: 794, height: 1123)
            try editor.setPart(p)
            var blocks: [JSONValue] = []
            for b in RecognizeImported.blocks(editor.rootBlock) {
                if b.kind == .math {
                    // Math blocks print their LaTeX, one expression a line; ink written into typeset
                    // math is read with it, as the editor reads it.
                    let result = try mathFlags.adapter().recognizeMath(try editor.recognitionRequest(for: b))
                    let latex = try editor.mathLines(b, reading: result).map(\.node.latex).joined(separator: "\n")
                    texts.append(latex)
                    blocks.append(RecognizeMath.json(block: b, result: result, latex: latex))
                    continue
                }
                let words = try adapter.recognize(try RecognizeImported.request(editor, for: b))
                let text = Self.text(words)
                texts.append(text)
                blocks.append(.object(["id": .string(b.id), "type": .string(b.type), "text": .string(text),
                                       "words": .array(words.map(Self.json))]))
            }
            parts.append(.object(["index": .number(Double(i)), "id": .string(p.id), "type": .string(p.type), "blocks": .array(blocks)]))
        }
        if json {
            print(try JSONValue.object(["path": .string(imported == nil ? pkg.path : file), "parts": .array(parts)]).serialized(pretty: true))
        } else {
            print(texts.filter { !$0.isEmpty }.joined(separator: "\n"))
        }
    }

    static func text(_ words: [RecognizedWord]) -> String {
        var lines: [Int: [String]] = [:]
        for w in words { lines[w.line, default: []].append(w.label) }
        return lines.keys.sorted().map { lines[$0]!.joined(separator: " ") }.joined(separator: "\n")
    }

    static func json(_ w: RecognizedWord) -> JSONValue {
        func r(_ v: Double, _ q: Double = 100) -> JSONValue { .number((v * q).rounded() / q) }
        func box(_ b: Rect) -> JSONValue { .object(["x": r(b.x), "y": r(b.y), "width": r(b.width), "height": r(b.height)]) }
        return .object([
            "label": .string(w.label), "line": .number(Double(w.line)), "box": box(w.box),
            "candidates": .array(w.candidates.map { .object(["label": .string($0.label), "score": r($0.score, 1000)]) }),
            "strokeIds": .array(w.strokeIds.map(JSONValue.string)),
            "chars": .array(w.chars.map { .object(["label": .string($0.label), "box": box($0.box), "strokeIds": .array($0.strokeIds.map(JSONValue.string))]) }),
        ])
    }

    private func recognizeSamples(_ adapter: TextRecognizerAdapter) throws {
        let (recognizer, configured) = try adapter.configured(options: flags.options)
        let base = flags.decoderOptions(configured)
        let samples = try SampleFile.read(file, validationOnly: validationOnly).prefix(limit ?? .max)
        var ok = 0
        for s in samples {
            let r = SampleFile.recognize(s, recognizer: recognizer, options: base)
            ok += r.text == s.normalizedLabel ? 1 : 0
            if json {
                print(try JSONValue.object([
                    "id": .string(s.id), "label": .string(r.text), "reference": .string(s.normalizedLabel),
                    "category": .string(s.category), "lines": .number(Double(r.lines)),
                    "candidates": .array(r.candidates.map { .object(["label": .string($0.text), "score": .number(($0.score * 1000).rounded() / 1000)]) }),
                    "ms": .number((r.ms * 100).rounded() / 100),
                ]).serialized())
            } else {
                print("\(r.text == s.normalizedLabel ? "ok " : "ERR") \(s.id)  \(s.normalizedLabel)  ->  \(r.text)")
            }
        }
        if !json { print("\(ok) of \(samples.count) recognized exactly") }
    }
}

/// Reading and recognizing samples of the shared data format (`QuireTools.SampleEvaluation`).
enum SampleFile {
    static func read(_ path: String, validationOnly: Bool, tuningOnly: Bool = false) throws -> [LabeledSample] {
        try SampleEvaluation.read(path, validationOnly: validationOnly, tuningOnly: tuningOnly)
    }

    static func recognize(_ s: LabeledSample, recognizer: TextRecognizer, options base: RecognitionOptions,
                          clock: Clock = .wall) -> SampleEvaluation.Outcome {
        SampleEvaluation.recognize(s, recognizer: recognizer, options: base, clock: clock)
    }

    typealias Clock = SampleEvaluation.Clock
}

extension SampleEvaluation.Clock: ExpressibleByArgument {}

struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Character error rate, exact-match accuracy and speed per category on JSON-lines samples, plus a 500-word page.")
    @Option(name: .customLong("jsonl"), parsing: .upToNextOption, help: "JSON-lines sample files (.jsonl or .jsonl.gz).")
    var jsonl: [String] = []
    @Option(help: "At most this many samples per category and file, evenly spread over the file.") var limit: Int?
    @Flag(name: .customLong("validation-only"), help: "Only writers of the writer-disjoint validation split (RecognitionMetrics.isValidationWriter).")
    var validationOnly = false
    @Flag(name: .customLong("lm-tuning-writers"), help: "Only the training writers the language-model weights are tuned on (their texts are held out of a model built with build_lm.py --exclude-writers-mod 10/0).")
    var tuningOnly = false
    @Option(help: "Words on the timed page (0: no page).") var pageWords = 500
    @Option(help: "wall (default) or cpu: time with the thread's CPU clock, for a machine busy with other work.")
    var clock: SampleFile.Clock = .wall
    @Option(help: "With --math: how many symbol confusions and wrong expressions to list.") var errors = 15
    @OptionGroup var flags: RecognitionFlags
    @OptionGroup var mathFlags: MathFlags

    static let categories = SampleEvaluation.categories

    /// The field configuration an isolated character of each category is also read with (the UNIPEN
    /// benchmark protocol: digits, upper-case and lower-case letters are separate 10/26/26-class tasks),
    /// as a kiosk form's digit or capital-letter box would set it.
    static let fieldOptions: [String: [String: String]] = [
        "digits": ["digits-only": "true"],
        "upper": ["upper-case-only": "true"],
        "lower": ["charset": "abcdefghijklmnopqrstuvwxyz"],
    ]

    static func pad(_ s: String, _ width: Int = 9) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }

    /// Prints and flushes, so that a long evaluation shows its rows as they come even when piped.
    static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }

    struct Tally {
        var score = SampleEvaluation.Score()
        var ms: [Double] = []
        var networkMs = 0.0
        /// Exact matches when read with the category's field configuration (`fieldOptions`); nil where none.
        var fieldExact: Int?
        mutating func add(_ o: Tally) {
            score.add(o.score); ms += o.ms; networkMs += o.networkMs
            if let f = o.fieldExact { fieldExact = (fieldExact ?? 0) + f }
        }
        func row(_ name: String) -> String {
            let sorted = ms.sorted()
            func pct(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }
            let net = 100 * networkMs / max(1e-9, ms.reduce(0, +))
            let field = fieldExact.map { String(format: " %7.3f", Double($0) / Double(max(1, score.n))) } ?? "       -"
            return EvalCommand.pad(name) + String(format: " %6ld %7.3f %7.3f %7.1f %7.1f %5.0f%%", score.n,
                                                  score.characterErrorRate, score.accuracy,
                                                  pct(0.5), pct(0.95), net) + field
        }
    }

    func run() throws {
        try runReporting {
            guard !jsonl.isEmpty else { throw QuireError(.invalidArgument, "give one or more sample files with --jsonl FILE...") }
            if let limit, limit <= 0 { throw QuireError(.invalidArgument, "--limit must be positive") }
            if mathFlags.math {
                try RecognizeMath.evaluate(paths: jsonl, limit: limit, cpuClock: clock == .cpu, errors: max(0, errors),
                                           recognizer: try mathFlags.recognizer())
                return
            }
            let adapter = try flags.adapter()
            if validationOnly && tuningOnly { throw QuireError(.invalidArgument, "--validation-only and --lm-tuning-writers exclude each other") }
            let (recognizer, configured) = try adapter.configured(options: flags.options)
            let base = flags.decoderOptions(configured)
            let lmLine = try adapter.loadedLanguageModel().map { "\($0.order)-gram model (\($0.count) n-grams), weight \(base.languageModelWeight), bonus \(base.characterBonus)" } ?? "none"
            print("language model: \(lmLine)")
            print("weights: \(adapter.modelURL.path) (training step \(try adapter.model().trainingStep)), kernels: \(RecognitionKernels.current.rawValue), clock: \(clock.rawValue)")
            print("character model: \(recognizer.characterModel.map { "training step \($0.trainingStep)" } ?? "none")")
            // Field reading applies only when no character constraint was given on the command line.
            var fieldReaders: [String: (recognizer: TextRecognizer, options: RecognitionOptions)] = [:]
            if !["digits-only", "upper-case-only", "charset", "regex"].contains(where: { flags.options[$0] != nil }) {
                for (cat, extra) in Self.fieldOptions {
                    let (r, o) = try adapter.configured(options: flags.options.merging(extra) { $1 })
                    fieldReaders[cat] = (r, flags.decoderOptions(o))
                }
            }
            print("samples: \(validationOnly ? "validation writers only (writer-disjoint split)" : tuningOnly ? "language-model tuning writers (training split)" : "all writers")\(limit.map { ", at most \($0) per category and file" } ?? "")")
            var total: [String: Tally] = [:]
            var pageSource: [LabeledSample] = []
            for path in jsonl {
                let all = try SampleFile.read(path, validationOnly: validationOnly, tuningOnly: tuningOnly)
                Self.emit("\n\(path)")
                Self.emit(Self.pad("category") + " " + ["n", "CER", "acc", "ms p50", "ms p95", "net", "field"].enumerated()
                    .map { i, h in String(repeating: " ", count: (i == 0 ? 6 : 7) - h.count) + h }.joined(separator: " "))
                for (cat, list) in SampleEvaluation.select(all, limit: limit) {
                    var t = Tally()
                    for s in list {
                        let r = SampleFile.recognize(s, recognizer: recognizer, options: base, clock: clock)
                        let ref = s.normalizedLabel
                        t.score.add(reference: ref, reading: r.text)
                        t.ms.append(r.ms)
                        t.networkMs += r.networkMs
                        if let f = fieldReaders[cat] {
                            let fr = SampleFile.recognize(s, recognizer: f.recognizer, options: f.options, clock: clock)
                            t.fieldExact = (t.fieldExact ?? 0) + (fr.text == ref ? 1 : 0)
                        }
                    }
                    Self.emit(t.row(cat))
                    total[cat, default: Tally()].add(t)
                    if cat == "words" { pageSource += list.filter(\.inMillimetres) }
                }
            }
            if jsonl.count > 1 {
                print("\nall files")
                for cat in Self.categories { if let t = total[cat] { print(t.row(cat)) } }
            }
            var all = Tally()
            for t in total.values { all.add(t) }
            Self.emit(Self.pad("all") + String(format: " %6ld %7.3f", all.score.n, all.score.characterErrorRate))
            if pageWords > 0 {
                if pageSource.isEmpty {
                    print("\npage: no word samples with a known resolution among the files; give unipen-words for the page timing")
                } else {
                    try timePage(pageSource, options: flags.options, adapter: adapter)
                }
            }
        }
    }

    /// Lays `pageWords` word samples out as a ruled page (10 words a line, 7 mm high, 14 mm guides),
    /// reads it through the editor's recognizer path, then changes one line and reads it again.
    private func timePage(_ source: [LabeledSample], options: [String: String], adapter: TextRecognizerAdapter) throws {
        let spacing = 14.0, height = 7.0
        var strokes: [InkStroke] = []
        var lineLabels: [[String]] = []
        var x = 10.0, line = 0
        var sid = 0
        for k in 0 ..< pageWords {
            let s = source[k % source.count]
            let pts = s.strokes.flatMap { $0 }
            guard let minX = pts.map(\.x).min(), let maxX = pts.map(\.x).max(),
                  let minY = pts.map(\.y).min(), let maxY = pts.map(\.y).max() else { continue }
            let scale = height / max(maxY - minY, 0.5)
            if k > 0 && k % 10 == 0 { line += 1; x = 10 }
            if lineLabels.count <= line { lineLabels.append([]) }
            lineLabels[line].append(s.normalizedLabel)
            let top = Double(line) * spacing + (spacing - height) / 2
            for st in s.strokes where !st.isEmpty {
                let samples = st.enumerated().map { i, p in
                    InkSample(x: x + (p.x - minX) * scale, y: top + (p.y - minY) * scale, t: Int64(sid * 1000 + i * 10), f: 0.5)
                }
                strokes.append(InkStroke(id: "p\(sid)", seq: Int64(sid), samples: samples))
                sid += 1
            }
            x += (maxX - minX) * scale + 4
        }
        let box = Rect(x: 0, y: 0, width: x + 10, height: Double(lineLabels.count) * spacing)
        let page = TextRecognizerAdapter(modelURL: adapter.modelURL, languageModel: adapter.languageModel)
        _ = try page.configured(options: options)  // loads the lexicon before the clock starts
        var req = RecognitionRequest(blockId: "page", box: box, strokes: strokes, guideSpacing: spacing, options: options)
        let t0 = clock.now()
        let words = try page.recognize(req)
        let first = Double(clock.now() - t0) / 1e6
        // One more stroke (a dot) on the last line: only that line is read again.
        let last = strokes[strokes.count - 1]
        let dot = InkStroke(id: "p\(sid)", seq: Int64(sid), samples: [InkSample(x: last.bounds.maxX + 1, y: last.bounds.maxY, t: 0, f: 0.5)])
        req.strokes.append(dot)
        let linesBefore = page.linesRecognized
        let t1 = clock.now()
        _ = try page.recognize(req)
        let again = Double(clock.now() - t1) / 1e6
        let spent = page.workDone
        var errors = 0, chars = 0
        let got = RecognizeCommand.text(words).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, labels) in lineLabels.enumerated() {
            let ref = labels.joined(separator: " ")
            errors += RecognitionMetrics.editDistance(i < got.count ? got[i] : "", ref)
            chars += ref.count
        }
        print(String(format: "\npage: %ld words on %ld lines (word samples, 7 mm high, 14 mm guides): read in %.0f ms (%.1f ms a line), CER %.3f;",
                     pageWords, lineLabels.count, first, first / Double(max(1, lineLabels.count)), Double(errors) / Double(max(1, chars))))
        print(String(format: "      one stroke added to the last line: read again in %.1f ms (%ld line re-read)", again, page.linesRecognized - linesBefore))
        print(String(format: "      both reads: %ld network frames, network %.0f ms (%.0f us a frame), decoding %.0f ms, the rest (line splitting, words, cache) %.0f ms",
                     spent.frames, spent.network * 1000, spent.network * 1e6 / Double(max(1, spent.frames)), spent.decoding * 1000,
                     first + again - (spent.network + spent.decoding) * 1000))
    }
}
