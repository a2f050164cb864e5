import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// Strokes of different symbols that cross or touch (`MathStrokeCrossings.swift`).
@Suite struct MathStrokeCrossingsTests {
    /// A straight stroke from a to b, a point every 0.25 mm.
    static func line(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> [SIMD2<Double>] {
        let d = b - a
        let n = max(1, Int(((d.x * d.x + d.y * d.y).squareRoot() / 0.25).rounded()))
        return (0 ... n).map { a + d * (Double($0) / Double(n)) }
    }

    @Test func crossingAndTouchingStrokes() {
        let stem = Self.line([2, 0], [2, 6])
        // The bar of a `+` across the stem, a bar starting at the stem (a `4`'s), one 1 mm away.
        #expect(MathStrokeCrossings.cross(stem, Self.line([0, 3], [4, 3])))
        #expect(MathStrokeCrossings.cross(Self.line([2.1, 4], [5, 4]), stem))
        #expect(!MathStrokeCrossings.cross(Self.line([3, 4], [6, 4]), stem))
        #expect(!MathStrokeCrossings.cross(stem, [[0, 3]]))
        // Only strokes of different groups count.
        let strokes = [stem, Self.line([0, 3], [4, 3]), Self.line([8, 0], [8, 6])]
        #expect(MathStrokeCrossings.count(groups: [[0, 1], [2]], strokes: strokes) == 0)
        #expect(MathStrokeCrossings.count(groups: [[0], [1], [2]], strokes: strokes) == 1)
        #expect(MathStrokeCrossings.count(groups: [[0], [1, 2]], strokes: strokes) == 1)
    }

    /// Real ink of a training writer (Fixtures/README.md): the crossed `X` of `6^{3}>9X` stays whole.
    @Test func aCrossedLetterIsNotCutInTwo() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let on = try MathRecognizer(model: model, glyphNetwork: glyph)
        let off = try MathRecognizer(model: model, glyphNetwork: glyph, crossingPenalty: 0)
        #expect(on.crossingPenalty == MathRecognizer.defaultCrossingPenalty && on.crossingPenalty > 0)
        let samples = try MathFixture.read("math-crossings.jsonl")
        #expect(samples.map(\.latex) == ["6^{3}>9X"])
        for s in samples {
            let right = MathEvaluation.run(s, recognizer: on), wrong = MathEvaluation.run(s, recognizer: off)
            #expect(right.latex == s.latex && right.symbolsRight == s.symbols.count)
            #expect(wrong.latex == "6^{3}>911")
        }
    }

    @Test func groupsCountTheCrossingsTheyKeep() {
        let stem = Self.line([2, 0], [2, 6]), bar = Self.line([0, 3], [4, 3]), far = Self.line([8, 0], [8, 6])
        // A bar that only starts at the stem touches it: no crossing kept.
        let strokes = [stem, bar, far, Self.line([2.1, 4], [5, 4])]
        #expect(MathStrokeCrossings.cross(stem, strokes[3]) && !MathStrokeCrossings.cross(stem, strokes[3], touching: false))
        #expect(MathStrokeCrossings.insidePairs(groups: [[0, 1], [0], [1, 2], [0, 1, 2], [5], [0, 3]], strokes: strokes) == [1, 0, 0, 1, 0, 0])
    }

    /// Real ink of a training writer (Fixtures/README.md): `\frac{413.1}{444}\cdot\sqrt{1}`, whose
    /// first partition cut crossing strokes apart when it paid nothing for that.
    @Test func thePartitionPaysForTheCrossingsItCuts() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let on = try MathRecognizer(model: model, glyphNetwork: glyph)
        let off = try MathRecognizer(model: model, glyphNetwork: glyph, partitionCrossingBonus: 0)
        #expect(on.partitionCrossingBonus == MathRecognizer.defaultPartitionCrossingBonus && on.partitionCrossingBonus > 0)
        let samples = try MathFixture.read("math-partition-crossings.jsonl")
        #expect(samples.map(\.latex) == ["\\frac{413.1}{444}\\cdot\\sqrt{1}"])
        for s in samples {
            #expect(MathEvaluation.run(s, recognizer: on).latex == s.latex)
            #expect(MathEvaluation.run(s, recognizer: off).latex != s.latex)
        }
    }
}
