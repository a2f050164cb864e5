import Foundation
import Testing
import InkModel
@testable import Quire

/// Export reads a word by its chosen candidate, the one definition (`RecognizedWord.chosenLabel`)
/// the layout, renderer and editor use, not by its stored `label`.
@Suite struct ExportChosenLabelTests {
    /// A recognizer plugged in for Text whose word's label disagrees with its selected candidate
    /// (as a package written elsewhere may hold).
    final class DisagreeingRecognizer: BlockRecognizer, @unchecked Sendable {
        let blockTypes = ["Text"]
        func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
            [RecognizedWord(label: "helo", candidates: [Candidate(label: "hello", score: 0.8), Candidate(label: "helo", score: 0.2)],
                            selected: 0, box: r.box, strokeIds: r.strokes.map(\.id))]
        }
    }

    /// Text export gave "helo" where the page showed "hello".
    @Test func textAndJSONExportUseTheChosenCandidate() throws {
        let f = try Fixture()
        f.editor.register(DisagreeingRecognizer())
        try f.write(x: 100, y: 100)
        try f.editor.waitForIdle()
        let block = try #require(f.editor.rootBlock?.children.first { $0.type == "Text" })
        #expect(block.words.map(\.chosenLabel) == ["hello"])
        #expect(try f.editor.export(nil, mimeType: .text) == "hello")
        #expect(block.text == "hello")
        let json = try f.editor.export(block, mimeType: .json)
        let words = Self.wordLabels(try JSONSerialization.jsonObject(with: Data(json.utf8)))
        #expect(words == ["hello"])
    }

    /// The `label` of every object in a `words` array, anywhere in an exported JSON value.
    static func wordLabels(_ v: Any) -> [String] {
        if let o = v as? [String: Any] {
            var out: [String] = []
            for (k, x) in o.sorted(by: { $0.key < $1.key }) {
                if k == "words", let ws = x as? [[String: Any]] { out += ws.compactMap { $0["label"] as? String } } else { out += wordLabels(x) }
            }
            return out
        }
        if let a = v as? [Any] { return a.flatMap(wordLabels) }
        return []
    }
}
