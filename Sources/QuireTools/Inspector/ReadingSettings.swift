import Foundation
import InkRecognition
import Quire

/// The settings one reading of ink uses, as the inspector states and compares them: the
/// `text.configuration.*` values, the decoder settings that no configuration key holds, and the
/// files (weights, language model, character model). `quire inspect --compare "KEY=VALUE,…"`
/// reads the same ink a second time with some of them changed.
public struct ReadingSettings: Sendable, Equatable {
    /// `text.configuration.*` values, keys without the prefix (`TextRecognizerAdapter.optionKeys`).
    public var options: [String: String] = [:]
    public var languageModelWeight: Double?
    public var characterBonus: Double?
    /// The bonus of a lexicon word per word in `prefer` mode.
    public var lexiconBonus: Double?
    public var beamWidth: Int?
    public var nBest: Int?
    /// Other recognizer weights, language model ("none": without) or character model ("none").
    public var model: String?
    public var languageModel: String?
    public var characterModel: String?

    public init() {}

    /// The keys `applying` accepts besides the `text.configuration.*` ones.
    public static let decoderKeys = ["lm-weight", "char-bonus", "lexicon-bonus", "beam-width", "n-best", "model", "lm", "char-model"]

    /// These settings with `spec` ("KEY=VALUE,KEY=VALUE") applied over them. A key is a
    /// `text.configuration.*` key (with or without the prefix) or one of `decoderKeys`; an unknown
    /// key, a value that is no number where one is needed, or an empty spec is an `invalidArgument`.
    public func applying(_ spec: String) throws -> ReadingSettings {
        var s = self
        let pairs = spec.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !pairs.isEmpty else { throw QuireError(.invalidArgument, "--compare: give KEY=VALUE pairs, as \"lexicon-mode=off\" or \"lm-weight=0.5\"") }
        for pair in pairs {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw QuireError(.invalidArgument, "--compare: '\(pair)' is not KEY=VALUE")
            }
            var key = pair[..<eq].trimmingCharacters(in: .whitespaces)
            let value = pair[pair.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("text.configuration.") { key.removeFirst("text.configuration.".count) }
            func number() throws -> Double {
                guard let v = Double(value), v.isFinite else { throw QuireError(.invalidArgument, "--compare: \(key) needs a finite number, not '\(value)'") }
                return v
            }
            func count() throws -> Int {
                guard let v = Int(value), v > 0, v <= 1000 else { throw QuireError(.invalidArgument, "--compare: \(key) needs a whole number from 1 to 1000, not '\(value)'") }
                return v
            }
            switch key {
            case "lm-weight": s.languageModelWeight = try number()
            case "char-bonus": s.characterBonus = try number()
            case "lexicon-bonus": s.lexiconBonus = try number()
            case "beam-width": s.beamWidth = try count()
            case "n-best": s.nBest = try count()
            case "model": s.model = value
            case "lm": s.languageModel = value
            case "char-model": s.characterModel = value
            case _ where TextRecognizerAdapter.optionKeys.contains(key): s.options[key] = value
            default:
                throw QuireError(.invalidArgument, "--compare: unknown key '\(key)'; use one of \((TextRecognizerAdapter.optionKeys + Self.decoderKeys).joined(separator: ", "))")
            }
        }
        return s
    }

    /// Decoder options with the decoder settings applied (the configuration's are in `base`).
    public func decoderOptions(_ base: RecognitionOptions) -> RecognitionOptions {
        var o = base
        if let languageModelWeight { o.languageModelWeight = languageModelWeight }
        if let characterBonus { o.characterBonus = characterBonus }
        if let lexiconBonus, case .prefer = o.lexiconMode { o.lexiconMode = .prefer(tolerancePerWord: lexiconBonus) }
        if let beamWidth { o.beamWidth = beamWidth }
        if let nBest { o.nBest = nBest }
        return o
    }

    /// The adapter these settings read with: `base` unless other files are named. A file that
    /// cannot be loaded is a `QuireError` now, before any work.
    public func adapter(over base: TextRecognizerAdapter) throws -> TextRecognizerAdapter {
        guard model != nil || languageModel != nil || characterModel != nil else { return base }
        func lm(_ v: String?) -> TextRecognizerAdapter.LanguageModelSource? {
            v.map { ["none", "off"].contains($0.lowercased()) ? TextRecognizerAdapter.LanguageModelSource.none : .file(URL(fileURLWithPath: $0)) }
        }
        func cm(_ v: String?) -> TextRecognizerAdapter.CharacterModelSource? {
            v.map { ["none", "off"].contains($0.lowercased()) ? TextRecognizerAdapter.CharacterModelSource.none : .file(URL(fileURLWithPath: $0)) }
        }
        let a = TextRecognizerAdapter(modelURL: model.map { URL(fileURLWithPath: $0) } ?? base.modelURL,
                                      languageModel: lm(languageModel) ?? base.languageModel,
                                      characterModel: cm(characterModel) ?? base.characterModel)
        _ = try a.model()
        _ = try a.configured(options: options)
        return a
    }

    /// "key=value" for each setting that differs from `other`, for headings.
    public func differences(from other: ReadingSettings) -> [String] {
        var out: [String] = []
        for k in Set(options.keys).union(other.options.keys).sorted() where options[k] != other.options[k] {
            out.append("\(k)=\(options[k] ?? "(default)")")
        }
        func add<T: Equatable>(_ k: String, _ a: T?, _ b: T?) { if a != b { out.append("\(k)=\(a.map { "\($0)" } ?? "(default)")") } }
        add("lm-weight", languageModelWeight, other.languageModelWeight)
        add("char-bonus", characterBonus, other.characterBonus)
        add("lexicon-bonus", lexiconBonus, other.lexiconBonus)
        add("beam-width", beamWidth, other.beamWidth)
        add("n-best", nBest, other.nBest)
        add("model", model, other.model)
        add("lm", languageModel, other.languageModel)
        add("char-model", characterModel, other.characterModel)
        return out
    }
}
