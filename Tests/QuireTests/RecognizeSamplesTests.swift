import Foundation
import Testing
@testable import Quire

/// `quire recognize --jsonl`: one JSON object per sample whatever was read, and ink split into lines
/// as an editor splits a block, never by the sample's category.
@Suite struct RecognizeSamplesTests {
    /// Validation-writer samples (UNIPEN, CC BY 4.0; see Fixtures/README.md): four lone characters
    /// whose reading had a candidate scored -inf (printed as `null`), a colon, an equals sign, an i
    /// and a word with its dots (once split into lines), and two texts of two written lines each.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/lines-and-marks.jsonl")

    static func records(_ out: String) throws -> [JSONValue] {
        try out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { try JSONValue.parse(Data($0.utf8)) }
    }

    @Test func oneFiniteRecordPerSample() throws {
        let samples = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(Data($0.utf8)) }
        let r = try runQuire(["recognize", "--jsonl", Self.fixture.path, "--json"])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.out.contains("null"))
        let records = try Self.records(r.out)
        #expect(records.map { $0["id"]?.stringValue } == samples.map { $0["id"]?.stringValue })
        for rec in records {
            let scores = rec["candidates"]?.arrayValue?.map { $0["score"]?.doubleValue } ?? []
            #expect(!scores.isEmpty && scores.allSatisfy { $0?.isFinite == true }, "\(rec)")
            #expect(rec["label"]?.stringValue == rec["reference"]?.stringValue, "\(rec)")
        }
        // Lone characters and the word are one line each, the texts two.
        #expect(records.map { $0["lines"]?.intValue } == [1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    }

    /// The same ink with its category removed or wrong reads the same: `cat` is only reported.
    @Test func linesDoNotDependOnTheCategory() throws {
        let dir = TempDir()
        let lines = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n")
        var outputs: [[JSONValue]] = []
        for cat in [nil, "6", "1a"] as [String?] {
            let rewritten = try lines.map { line -> String in
                var o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                if let cat { o["cat"] = cat } else { o.removeValue(forKey: "cat") }
                return String(decoding: try JSONSerialization.data(withJSONObject: o), as: UTF8.self)
            }
            let path = dir.path("cat-\(cat ?? "none").jsonl")
            try Data((rewritten.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
            let r = try runQuire(["recognize", "--jsonl", path, "--json"])
            #expect(r.status == 0, "\(r.err)")
            outputs.append(try Self.records(r.out))
        }
        let original = try Self.records(try runQuire(["recognize", "--jsonl", Self.fixture.path, "--json"]).out)
        for out in outputs {
            #expect(out.map { $0["label"] } == original.map { $0["label"] })
            #expect(out.map { $0["lines"] } == original.map { $0["lines"] })
        }
        #expect(outputs[0].last?["label"]?.stringValue == "live load male method")
        #expect(outputs[0].last?["category"]?.stringValue == "other")
    }

    /// An application's recognizer may return scores or boxes that are not finite. They are made
    /// finite before they reach the model, which must always export and save (the JSON writer
    /// refuses non-finite numbers, see JSONWriterTests): nothing of the reading is lost.
    @Test func nonFiniteResultsOfARecognizerAreMadeFiniteAndTheModelSaves() throws {
        final class NaNRecognizer: InkRecognizer, @unchecked Sendable {
            func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
                [RecognizedWord(label: "x", candidates: [Candidate(label: "x", score: .nan), Candidate(label: "y", score: -.infinity),
                                                         Candidate(label: "z", score: -2)],
                                selected: 7, box: r.strokes.first?.bounds ?? .zero, strokeIds: r.strokes.map(\.id),
                                chars: [RecognizedChar(label: "x", box: Rect(x: .nan, y: 0, width: .infinity, height: 1))])]
            }
        }
        let f = try Fixture(type: "Text", recognizer: NaNRecognizer())
        try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let json = try JSONValue.parse(Data(try f.editor.export(nil, mimeType: .json).utf8))
        let word = try #require(json["words"]?.arrayValue?.first)
        #expect(word["candidates"]?.arrayValue?.compactMap { $0["label"]?.stringValue } == ["x", "y", "z"])
        #expect(word["candidates"]?.arrayValue?.allSatisfy { $0["score"]?.doubleValue?.isFinite == true } == true)
        #expect(word["selected"]?.intValue == 0)
        #expect(try f.editor.export(nil, mimeType: .text) == "x")
        try f.package.save()
        try f.editor.setPart(nil)
        f.package.close()
        let reopened = try f.engine.openPackage(f.package.path, openOption: .existing)
        defer { reopened.close() }
        #expect(try reopened.part(at: 0).model.root.words.first?.label == "x")
    }
}
