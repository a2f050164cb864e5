import Foundation
import Testing
@testable import InkRecognition
import InkModel
@testable import QuireTools

@Suite struct EvaluationTests {
    @Test func sha1MatchesPython() {
        func hex(_ s: String) -> String { SHA1.digest(Array(s.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex("unipen-apple-1a2b3c4d5e") == "14e89e424d15ae6567a57f88648579aab0999a3c")
        #expect(hex(String(repeating: "x", count: 100)) == "50e483690ec481f4af7f6fb524b2b99eb1716565")
    }

    @Test func splitRuleMatchesPython() {
        // Values from tools/recognition/data.py: is_validation_writer.
        for w in ["omniglot-Latin-d11", "pendigits-tra-w03", "pendigits-tra-w05"] { #expect(RecognitionMetrics.isValidationWriter(w)) }
        for w in ["unipen-apple-1a2b3c4d5e", "pendigits-tra-w01", "omniglot-Latin-d03"] { #expect(!RecognitionMetrics.isValidationWriter(w)) }
    }

    @Test func editDistance() {
        #expect(RecognitionMetrics.editDistance("kitten", "sitting") == 3)
        #expect(RecognitionMetrics.editDistance("", "abc") == 3)
        #expect(RecognitionMetrics.editDistance("same", "same") == 0)
    }

    @Test func parsesDataFormat() throws {
        let line = #"{"id":"u1","set":"unipen","cat":"6","label":"to  be","writer":"w","ppi":[254,127],"strokes":[[[10,20],[20,40,5]],[[0,0]]]}"#
        let s = try LabeledSample(jsonLine: Data(line.utf8))
        #expect(s.inMillimetres && s.category == "words" && s.normalizedLabel == "to be")
        #expect(s.strokes.count == 2)
        #expect(abs(s.strokes[0][1].x - 2.0) < 1e-12 && abs(s.strokes[0][1].y - 8.0) < 1e-12)
        let raw = try LabeledSample(jsonLine: Data(#"{"id":"p","cat":"digit","label":"8","writer":"w","ppi":null,"strokes":[[[1,2]]]}"#.utf8))
        #expect(!raw.inMillimetres && raw.category == "digits" && raw.strokes[0][0] == SIMD2(1, 2))
        #expect(throws: QuireError.self) { try LabeledSample(jsonLine: Data("[1]".utf8)) }
        #expect(throws: QuireError.self) { try LabeledSample(jsonLine: Data(#"{"id":"x","strokes":[[[1]]]}"#.utf8)) }
    }
}
