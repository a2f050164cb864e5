import Foundation
import Testing
@testable import InkMath
import InkRecognition
@testable import Quire
import QuireTestSupport
import QuireTools

/// Reading a hypothesis several times: writer-like variants of its shape (test-time augmentation)
/// and a second network (an ensemble), and how their class scores combine.
@Suite struct MathScoringTests {
    @Test func variantsTransformAboutTheCentreAndReadTheirNames() throws {
        // A vertical bar 10 mm tall centred on (5, 5).
        let bar: [[SIMD2<Double>]] = [[SIMD2(5, 0), SIMD2(5, 10)]]
        let slanted = MathInkVariant(slant: 45).apply(bar)[0]
        #expect(abs(slanted[0].x - 10) < 1e-9 && abs(slanted[1].x - 0) < 1e-9, "the top leans right")
        #expect(slanted.map(\.y) == [0, 10])
        let wide = MathInkVariant(aspect: 2).apply([[SIMD2(4, 0), SIMD2(6, 10)]])[0]
        #expect(wide.map(\.x) == [3, 7])
        let turned = MathInkVariant(rotation: 90).apply(bar)[0]
        #expect(abs(turned[0].x - 10) < 1e-9 && abs(turned[0].y - 5) < 1e-9, "clockwise on a y-down page: the top goes right")
        #expect(MathInkVariant.identity.apply(bar) == bar)
        for v in [MathInkVariant(slant: 10), MathInkVariant(aspect: 0.85), MathInkVariant(rotation: -5),
                  MathInkVariant(slant: -10, aspect: 1.15, rotation: 3)] {
            #expect(MathInkVariant(name: v.description) == v)
        }
        #expect(MathInkVariant(name: "slant+45") == nil && MathInkVariant(name: "aspect3") == nil && MathInkVariant(name: "tilt5") == nil)
        #expect(MathInkVariant.list("none").variants.isEmpty && MathInkVariant.list("").bad == nil)
        #expect(MathInkVariant.list("slant+10, rot-5").variants == [MathInkVariant(slant: 10), MathInkVariant(rotation: -5)])
        #expect(MathInkVariant.list("slant+10,wobble").bad == "wobble")
    }

    @Test func combinationsAreTheMeansTheyName() {
        let a = [-.infinity, -1.0, -3.0], b = [-.infinity, -2.0, -1.0]
        #expect(MathScoreCombination.meanLog.combine([a]) == a, "one reading stays as it is")
        let log = MathScoreCombination.meanLog.combine([a, b])
        #expect(log[1] == -1.5 && log[2] == -2)
        let prob = MathScoreCombination.meanProbability.combine([a, b])
        #expect(abs(prob[1] - Foundation.log((exp(-1) + exp(-2)) / 2)) < 1e-12)
        #expect(abs(prob[2] - Foundation.log((exp(-3) + exp(-1)) / 2)) < 1e-12)
        // A class no reading can give stays far below every class some reading gives.
        #expect(log[0] < -1000 && prob[0] < -1000)
        #expect(MathScoreCombination.meanLog.combine([a, b]) == MathScoreCombination.meanLog.combine([a, b]))
        #expect(MathScoreCombination.meanLog.combine([]).isEmpty)
    }

    /// Real handwriting (Fixtures/README.md, `math-variants.jsonl`): a `/` whose writer drew it
    /// steep enough for the network to read a `1`; read again leaning 10 degrees further right,
    /// as the training writers' `/` do, it is a `/`.
    @Test func aSlantedReadingFixesAKnownMisread() throws {
        let shared = try #require(MathFixture.recognizer)
        let url = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/math-variants.jsonl")
        let s = try #require(try MathSample.read(path: url.path).first)
        #expect(s.latex == "1/4=\\alpha")
        let plain = try MathRecognizer(model: shared.model, variants: [])
        let slanted = try MathRecognizer(model: shared.model, variants: [MathInkVariant(slant: 10)], combination: .meanProbability)
        #expect(MathEvaluation.run(s, recognizer: plain).latex == "114=\\alpha")
        #expect(MathEvaluation.run(s, recognizer: slanted).latex == s.latex)
        // The same reading every time: variants and networks are combined in a fixed order.
        let twice = (0 ..< 2).map { _ in slanted.recognizeLine(strokes: s.strokes) }
        #expect(twice[0] == twice[1])
        let withSecond = try MathRecognizer(model: shared.model, secondModel: shared.model,
                                            variants: [MathInkVariant(slant: 10), MathInkVariant(aspect: 0.85)])
        #expect(withSecond.recognizeLine(strokes: s.strokes) == withSecond.recognizeLine(strokes: s.strokes))
    }

    /// The second network's file is optional: without it one network reads; with it (here a copy of
    /// the first, so the readings must not change) both do; a corrupt one is an error, not a crash.
    @Test func secondWeightsAreOptional() throws {
        let first = try #require(MathRecognizerAdapter.defaultWeightsURL())
        let dir = TempDir()
        let copy = dir.url.appendingPathComponent(MathRecognizer.defaultFileName)
        try FileManager.default.copyItem(at: first, to: copy)
        let sample = try MathFixture.sample("k-1")
        let alone = try MathRecognizer(contentsOf: copy)
        #expect(alone.secondModel == nil && MathRecognizer.secondModelURL(beside: copy) == nil)
        #expect(try MathRecognizerAdapter(modelURL: copy).recognizer().secondModel == nil)
        let single = try #require(alone.recognizeLine(strokes: sample.strokes))

        let second = dir.url.appendingPathComponent(MathRecognizer.secondFileName)
        try FileManager.default.copyItem(at: first, to: second)
        let both = try MathRecognizer(contentsOf: copy)
        #expect(both.secondModel != nil)
        #expect(try MathRecognizerAdapter(modelURL: copy).recognizer().secondModel != nil)
        let pair = try #require(both.recognizeLine(strokes: sample.strokes))
        #expect(pair.latex == single.latex && pair.symbols == single.symbols)

        try Data("QREC".utf8).write(to: second)
        #expect(throws: RecognitionModelError.self) { try MathRecognizer(contentsOf: copy) }
        expectCode(.recognitionError) { _ = try MathRecognizerAdapter(modelURL: copy).recognizer() }
        // Weights that read other classes cannot be the second network.
        let text = try #require(TextRecognizerAdapter.defaultWeightsURL())
        #expect(throws: MathRecognizerError.self) {
            try MathRecognizer(model: alone.model, secondModel: RecognitionModel(contentsOf: text))
        }
    }
}
