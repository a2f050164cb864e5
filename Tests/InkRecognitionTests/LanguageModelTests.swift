import Foundation
import Testing
@testable import InkRecognition

/// Writes a model file in the `quire-lm.bin` layout: (symbols, log probability, log backoff weight).
func languageModelData(order: Int, _ entries: [([Int], Float, Float)], magic: String = "QCLM", version: UInt32 = 1) -> Data {
    var d = Data(magic.utf8)
    let header = Data("test model".utf8)
    for v in [version, UInt32(order), UInt32(entries.count), UInt32(header.count)] { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
    d.append(header)
    for (symbols, p, b) in entries {
        var key: UInt64 = 1
        for s in symbols { key = key << 7 | UInt64(s) }
        withUnsafeBytes(of: key.littleEndian) { d.append(contentsOf: $0) }
        withUnsafeBytes(of: p.bitPattern.littleEndian) { d.append(contentsOf: $0) }
        withUnsafeBytes(of: b.bitPattern.littleEndian) { d.append(contentsOf: $0) }
    }
    return d
}

/// A bigram model: uniform unigrams, and after "c" the letter "a" has probability 0.5.
func cThenAModel() throws -> CharacterLanguageModel {
    let uniform = logf(1 / 96)
    let sym = { (c: Character) in Int(c.asciiValue!) - 31 }
    let bow = logf((1 - 0.5) / (1 - 1 / 96))
    var entries: [([Int], Float, Float)] = (0 ..< 96).map { ([$0], uniform, $0 == sym("c") ? bow : 0) }
    entries.append(([sym("c"), sym("a")], logf(0.5), 0))
    return try CharacterLanguageModel(data: languageModelData(order: 2, entries))
}

@Suite struct LanguageModelTests {
    @Test func scoresBackOffAndContexts() throws {
        let lm = try cThenAModel()
        #expect(lm.order == 2 && lm.count == 97)
        let c = lm.context(after: "c")
        #expect(abs(lm.logProbability(of: Int(Character("a").asciiValue!) - 31, after: c) - logf(0.5)) < 1e-6)
        // Unseen after "c": the context's weight times the unigram.
        let o = lm.logProbability(of: Int(Character("o").asciiValue!) - 31, after: c)
        #expect(abs(o - (logf(0.5 / (1 - 1 / 96)) + logf(1 / 96))) < 1e-5)
        // The distribution after "c" sums to one.
        let total = (0 ..< 96).reduce(0.0) { $0 + exp(Double(lm.logProbability(of: $1, after: c))) }
        #expect(abs(total - 1) < 1e-4)
        // An order-2 model keeps one symbol of context.
        #expect(lm.extend(lm.extend(lm.initialContext, 3), 4) == (1 << 7 | 4))
        #expect(lm.logProbability(ofLine: "ca") > lm.logProbability(ofLine: "co"))
    }

    @Test func shippedModelPrefersEnglish() throws {
        let url = Fixtures.root.appendingPathComponent("Resources/recognition/\(CharacterLanguageModel.defaultFileName)")
        guard FileManager.default.fileExists(atPath: url.path) else { return }  // the model is optional
        let lm = try CharacterLanguageModel(contentsOf: url)
        #expect(lm.order >= 3)
        #expect(lm.logProbability(ofLine: "the house") > lm.logProbability(ofLine: "tne hovse"))
        #expect(lm.logProbability(ofLine: "and then") > lm.logProbability(ofLine: "aud tben"))
    }

    @Test func badFilesThrowClearErrors() throws {
        let good = languageModelData(order: 2, (0 ..< 96).map { ([$0], logf(1 / 96), 0) })
        #expect(throws: Never.self) { _ = try CharacterLanguageModel(data: good) }
        #expect(throws: LanguageModelError.badMagic) { _ = try CharacterLanguageModel(data: languageModelData(order: 2, [], magic: "QREC")) }
        #expect(throws: LanguageModelError.unsupportedVersion(9)) { _ = try CharacterLanguageModel(data: languageModelData(order: 2, [], version: 9)) }
        // truncated, too short, missing unigrams, a malformed key, a positive probability
        #expect(throws: LanguageModelError.self) { _ = try CharacterLanguageModel(data: good.prefix(good.count - 3)) }
        #expect(throws: LanguageModelError.self) { _ = try CharacterLanguageModel(data: Data("QCLM".utf8)) }
        #expect(throws: LanguageModelError.self) { _ = try CharacterLanguageModel(data: languageModelData(order: 2, [([5], -1, 0)])) }
        #expect(throws: LanguageModelError.self) { _ = try CharacterLanguageModel(data: languageModelData(order: 2, [([1, 2, 3], -1, 0)])) }
        #expect(throws: LanguageModelError.self) { _ = try CharacterLanguageModel(data: languageModelData(order: 2, [([1], 0.5, 0)])) }
        #expect(throws: LanguageModelError.self) { _ = try CharacterLanguageModel(data: languageModelData(order: 0, [])) }
        let missing = URL(fileURLWithPath: "/nonexistent/quire-lm.bin")
        #expect {
            _ = try CharacterLanguageModel(contentsOf: missing)
        } throws: { e in
            if case .fileUnreadable = e as? LanguageModelError { return true }
            return false
        }
        // Random bytes after a valid start never trap.
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 50 {
            var d = good
            for _ in 0 ..< 8 { d[Int.random(in: 4 ..< d.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng) }
            _ = try? CharacterLanguageModel(data: d)
        }
    }

    @Test func fusionPrefersThePlausibleReading() throws {
        // The network slightly prefers "cot"; a model that expects "a" after "c" turns it into "cat".
        let m = Fixtures.matrix([["c": 0.9], ["o": 0.46, "a": 0.44], ["t": 0.9]])
        let lm = try cThenAModel()
        let plain = TextRecognizer(model: Fixtures.model)
        #expect(plain.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off)).text == "cot")
        let fused = TextRecognizer(model: Fixtures.model, languageModel: lm)
        let r = fused.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off, languageModelWeight: 1))
        #expect(r.text == "cat")
        #expect(r.candidates.map(\.text).contains("cot"))
        // Weight 0 turns the model off.
        #expect(fused.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off, languageModelWeight: 0)).text == "cot")
        // With the lexicon preferred, per-word decoding uses the model too.
        let pref = fused.decode(m, ink: nil, options: RecognitionOptions(wordList: ["cot", "cat"], languageModelWeight: 1))
        #expect(pref.text == "cat")
    }
}
