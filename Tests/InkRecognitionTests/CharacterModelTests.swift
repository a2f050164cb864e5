import Foundation
import Testing
@testable import InkRecognition

/// The character model re-reads ink the general network sees as one character, and only that.
@Suite struct CharacterModelTests {
    /// A weight file whose network ignores its input and puts most of every frame's mass on one class
    /// (`favouring` nil: the blank), so what it contributes to a result is unmistakable.
    static func constantModel(favouring c: Character?, charset: [Character] = Fixtures.model.charset,
                              preprocess p: PreprocessConfig = Fixtures.model.preprocess) throws -> RecognitionModel {
        let classes = charset.count + 1
        let shapes: [(String, [Int])] = [("conv.weight", [1, 4, 5]), ("conv.bias", [1])]
            + ["fwd", "bwd"].flatMap { d in [("lstm0.\(d).w_ih", [4, 1]), ("lstm0.\(d).w_hh", [4, 1]), ("lstm0.\(d).bias", [4])] }
            + [("out.weight", [classes, 2]), ("out.bias", [classes])]
        var table: [[String: Any]] = [], blob: [UInt8] = [], offset = 0
        for (name, shape) in shapes {
            let count = shape.reduce(1, *)
            var halves = [UInt16](repeating: 0, count: count)
            if name == "out.bias" { halves[c.flatMap { charset.firstIndex(of: $0) }.map { $0 + 1 } ?? 0] = 0x4800 }  // 8.0
            table.append(["name": name, "shape": shape, "dtype": "f16", "offset": offset, "count": count])
            for h in halves { blob += [UInt8(h & 0xFF), UInt8(h >> 8)] }
            offset += 2 * count
        }
        let header: [String: Any] = [
            "data_bytes": offset, "charset": String(charset), "tensors": table,
            "config": ["conv_channels": 1, "conv_kernel": 5, "hidden": 1, "layers": 1],
            "preprocess": ["min_height_mm": p.minHeightMM, "spacing": p.spacing, "clip": p.clip, "num_features": 4,
                           "max_points": p.maxPoints],
        ]
        let h = try JSONSerialization.data(withJSONObject: header)
        var d = Data("QREC".utf8)
        for v in [UInt32(1), UInt32(h.count)] { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        d.append(h)
        while d.count % 16 != 0 { d.append(0) }
        d.append(contentsOf: blob)
        return try RecognitionModel(data: d)
    }

    /// A stroke 8 mm tall, its preprocessed ink, and a matrix of as many frames reading `text`
    /// (one character a frame, blanks after).
    static func ink(reading text: String) throws -> (LogProbMatrix, PreprocessedInk) {
        let stroke: [SIMD2<Double>] = (0 ... 40).map { i in
            let t = Double(i)
            return SIMD2(10 + 0.05 * t, 20 + 0.2 * t)
        }
        let prepared = Preprocessor.prepare(strokes: [stroke], config: Fixtures.model.preprocess, inMillimetres: true)
        let ink = try #require(prepared)
        let frames = Fixtures.model.outputLength(forInputLength: ink.count)
        #expect(frames > text.count)
        let rows = text.map { [String($0): 0.9] } + Array(repeating: ["_": 0.9], count: frames - text.count)
        return (Fixtures.matrix(rows), ink)
    }

    let options = RecognitionOptions(lexiconMode: .off)

    @Test func loneCharacterIsReadByTheCharacterModel() throws {
        let q = TextRecognizer(model: Fixtures.model, characterModel: try Self.constantModel(favouring: "Q"))
        #expect(q.characterModel != nil)
        let (one, ink) = try Self.ink(reading: "a")
        let r = q.decode(one, ink: ink, options: options)
        #expect(r.text == "Q")
        #expect(r.words.map(\.text) == ["Q"])
        #expect(r.words.first?.characters.map(\.character) == ["Q"], "boxes come from the character model's alignment")
        // Without a character model, or without the ink to re-read, the general reading stands.
        #expect(TextRecognizer(model: Fixtures.model).decode(one, ink: ink, options: options).text == "a")
        #expect(q.decode(one, ink: nil, options: options).text == "a")
    }

    @Test func wordsAndEmptyReadingsKeepTheGeneralReading() throws {
        let q = TextRecognizer(model: Fixtures.model, characterModel: try Self.constantModel(favouring: "Q"))
        let (two, ink2) = try Self.ink(reading: "is")
        #expect(q.decode(two, ink: ink2, options: options).text == "is")
        let (none, ink0) = try Self.ink(reading: "")
        #expect(q.decode(none, ink: ink0, options: options).text == "")
        // A character model that sees nothing there does not erase the general reading.
        let blank = TextRecognizer(model: Fixtures.model, characterModel: try Self.constantModel(favouring: nil))
        let (one, ink1) = try Self.ink(reading: "a")
        #expect(blank.decode(one, ink: ink1, options: options).text == "a")
    }

    @Test func mismatchedCharacterModelIsNotUsed() throws {
        var other = Fixtures.model.preprocess
        other.spacing *= 2
        let spaced = try Self.constantModel(favouring: "Q", preprocess: other)
        #expect(!spaced.isCompatible(with: Fixtures.model))
        let letters = try Self.constantModel(favouring: "b", charset: Array("ab"))
        #expect(!letters.isCompatible(with: Fixtures.model))
        let (one, ink) = try Self.ink(reading: "a")
        for m in [spaced, letters] {
            let r = TextRecognizer(model: Fixtures.model, characterModel: m)
            #expect(r.characterModel == nil)
            #expect(r.decode(one, ink: ink, options: options).text == "a")
        }
    }
}
