import Foundation
import Testing
@testable import InkRecognition
@testable import Quire

/// What tools/fuzz found in the bundled recognizer's adapter.
@Suite struct FuzzRegressionAdapterTests {
    /// quire-fuzz session: the decoder gives each stroke to the word holding most of its points,
    /// so a short word ("." after "the") could end with no stroke. Such a word passed for typeset
    /// text: each later reading of the block kept it and added it again (four dots after three
    /// readings). Every word the adapter returns now names strokes.
    @Test func everyRecognizedWordNamesStrokes() throws {
        let strokes = [InkStroke(id: "s1", samples: (0..<10).map { InkSample(x: 10 + Double($0), y: 20, t: Int64($0), f: 0.5) }),
                       InkStroke(id: "s2", samples: (0..<10).map { InkSample(x: 21 + Double($0) * 0.3, y: 20 + Double($0) * 0.1, t: Int64($0), f: 0.5) })]
        let points = strokes.map { s in s.samples.map { SIMD2(x: $0.x, y: $0.y) } }
        let the = WordResult(text: "the", candidates: [InkRecognition.RecognitionCandidate(text: "the", score: -1)],
                             box: BoundingBox(minX: 10, minY: 19, maxX: 23, maxY: 21), characters: [], strokeIndices: [0, 1])
        let dot = WordResult(text: ".", candidates: [InkRecognition.RecognitionCandidate(text: ".", score: -2)],
                             box: BoundingBox(minX: 23.2, minY: 20.5, maxX: 24, maxY: 21), characters: [], strokeIndices: [])
        let far = WordResult(text: "!", candidates: [InkRecognition.RecognitionCandidate(text: "!", score: -3)],
                             box: BoundingBox(minX: 90, minY: 20, maxX: 91, maxY: 21), characters: [], strokeIndices: [])
        let r = RecognitionResult(text: "the . !", candidates: [], words: [the, dot, far])
        let words = TextRecognizerAdapter.words(r, strokes: strokes, points: points, line: 0)
        #expect(words.map(\.label) == ["the", ".", "!"])
        #expect(words[0].strokeIds == ["s1", "s2"])
        #expect(words[1].strokeIds == ["s2"], "the stroke under the dot")
        #expect(words[2].strokeIds == ["s2"], "the nearest stroke when none lies under the box")
        #expect(words.allSatisfy { !$0.strokeIds.isEmpty })
    }
}
