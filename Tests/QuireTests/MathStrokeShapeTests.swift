import Testing
@testable import InkMath

/// What a symbol's pen path rules out (`MathStrokeShape.swift`).
@Suite struct MathStrokeShapeTests {
    /// A polyline through the given corners, a point every 0.2 mm, with a little vertical wobble.
    static func path(_ corners: [SIMD2<Double>]) -> [SIMD2<Double>] {
        var out: [SIMD2<Double>] = [corners[0]]
        for (a, b) in zip(corners.dropLast(), corners.dropFirst()) {
            let d = b - a
            let n = max(1, Int(((d.x * d.x + d.y * d.y).squareRoot() / 0.2).rounded()))
            for k in 1 ... n { out.append(a + (b - a) * Double(k) / Double(n) + SIMD2(0, 0.03 * Double(out.count % 3 - 1))) }
        }
        return out
    }

    @Test func aZigzagIsAnEqualsAndARetracedDashIsNot() {
        // Across, back down the diagonal, across again: the two bars 2 mm apart on a 5 mm width.
        #expect(MathStrokeShape.isZigzagEquals(Self.path([[0, 0], [5, 0], [0, 2], [5, 2]])))
        // A dash, a dash with a hook at its end, and one retraced over itself.
        #expect(!MathStrokeShape.isZigzagEquals(Self.path([[0, 0], [5, 0]])))
        #expect(!MathStrokeShape.isZigzagEquals(Self.path([[0, 0], [5, 0], [4.3, 0.4]])))
        #expect(!MathStrokeShape.isZigzagEquals(Self.path([[0, 0], [5, 0], [0, 0.2], [5, 0.3]])))
        // Scribbled back and forth more than twice: not a `=` written in one go.
        #expect(!MathStrokeShape.isZigzagEquals(Self.path([[0, 0], [5, 0], [0, 1], [5, 1], [0, 2], [5, 2]])))
        #expect(MathStrokeShape.horizontalRuns(Self.path([[0, 0], [5, 0], [0, 2], [5, 2]])).count == 3)
    }

    @Test func aZigzagLosesItsMinusOnlyWhereEqualsIsACandidate() {
        let zigzag = Self.path([[0, 0], [5, 0], [0, 2], [5, 2]])
        let box = MathBox(x: 0, y: 0, width: 5, height: 2)
        let read = MathSymbol(label: "-", candidates: [.init(label: "-", score: -0.1), .init(label: "=", score: -5.1)], box: box, strokeIndices: [0])
        let checked = MathStrokeShape.checked(read, strokes: [zigzag])
        #expect(checked.label == "=" && checked.candidates.map(\.label) == ["=", "-"])
        #expect(checked.candidates[1].score == -0.1 - MathStrokeShape.zigzagPenalty)
        // No `=` to turn to, two strokes, or a flat dash: unchanged.
        let alone = MathSymbol(label: "-", candidates: [.init(label: "-", score: -0.1), .init(label: "~", score: -5)], box: box, strokeIndices: [0])
        #expect(MathStrokeShape.checked(alone, strokes: [zigzag]) == alone)
        #expect(MathStrokeShape.checked(read, strokes: [zigzag, zigzag]) == read)
        #expect(MathStrokeShape.checked(read, strokes: [Self.path([[0, 0], [5, 0]])]) == read)
    }

    @Test func aStemWithADotBelowIsAnExclamationMark() {
        // A slanted 10 mm stem and a 0.2 mm dot 0.7 mm under its foot: the networks' `1` loses.
        let stem = Self.path([[3, 0], [0.2, 10]]), dot: [SIMD2<Double>] = [[0.3, 10.7], [0.5, 10.9]]
        #expect(MathStrokeShape.isDotBelowStem([stem, dot]) && MathStrokeShape.isDotBelowStem([dot, stem]))
        let box = MathBox(x: 0, y: 0, width: 3, height: 10.9)
        let read = MathSymbol(label: "1", candidates: [.init(label: "1", score: -0.1), .init(label: "!", score: -3)], box: box, strokeIndices: [0, 1])
        let checked = MathStrokeShape.checked(read, strokes: [stem, dot])
        #expect(checked.label == "!" && checked.candidates[1].score == -0.1 - MathStrokeShape.dotBelowPenalty)
        // The dot above (an `i`), a bar under the foot as long as the stem is wide, a dot far
        // below, or no `!` among the candidates: unchanged.
        #expect(!MathStrokeShape.isDotBelowStem([stem, [[1.5, -1], [1.6, -0.9]]]))
        #expect(!MathStrokeShape.isDotBelowStem([stem, Self.path([[-2, 10.5], [5, 10.5]])]))
        #expect(!MathStrokeShape.isDotBelowStem([stem, [[0.3, 16], [0.5, 16.2]]]))
        let noBang = MathSymbol(label: "1", candidates: [.init(label: "1", score: -0.1), .init(label: "l", score: -3)], box: box, strokeIndices: [0, 1])
        #expect(MathStrokeShape.checked(noBang, strokes: [stem, dot]) == noBang)
    }
}
