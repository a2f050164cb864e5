import ArgumentParser
import Foundation
import InkMath
import InkModel
import InkRecognition
import Quire
import QuireTools

/// `--math` of `recognize` and `eval`: composed expressions (tools/recognition/math/compose.py
/// `--jsonl`) read by the math recognizer.
struct MathFlags: ParsableArguments {
    @Flag(help: "Read math: FILE holds expressions (tools/recognition/math/compose.py --jsonl; strokes in mm).") var math = false
    @Option(name: .customLong("math-model"), help: "Math recognizer weights (default: the bundled quire-math.bin).") var mathModel: String?
    @Flag(name: .customLong("no-math-pruning"), help: "Score every stroke group, as the Python reference does (slower).") var noPruning = false
    @Option(name: .customLong("math-context-weight"), help: "Weight of the symbol-sequence prior (0: off; default \(MathRecognizer.defaultContextWeight)).")
    var contextWeight: Double = MathRecognizer.defaultContextWeight
    @Option(name: .customLong("math-variants"), help: "Shapes each stroke group is also read under, comma-separated (slant+10, aspect0.85, rot-5, joined by / to combine; none: off; default: \(MathRecognizer.defaultVariants.isEmpty ? "none" : MathRecognizer.defaultVariants.map(\.description).joined(separator: ","))).")
    var variants: String?
    @Flag(name: .customLong("no-math-tta"), help: "Read each stroke group only as written (same as --math-variants none).") var noVariants = false
    @Option(name: .customLong("math-combine"), help: "How a group's readings combine: log (mean log-probability) or prob (mean probability; default \(MathRecognizer.defaultCombination.rawValue)).")
    var combine: String?
    @Option(name: .customLong("math-second-model"), help: "Second math weights read beside the first (an ensemble; default: \(MathRecognizer.secondFileName) beside the first weights, when it exists).")
    var secondModel: String?
    @Flag(name: .customLong("no-math-ensemble"), help: "Read with the first weights only.") var noEnsemble = false
    @Option(name: .customLong("math-glyph-model"), help: "Glyph image network weights (default: \(GlyphNetwork.defaultFileName) beside the math weights, when it exists).")
    var glyphModel: String?
    @Flag(name: .customLong("no-math-glyph"), help: "Read without the glyph image network.") var noGlyph = false
    @Option(name: .customLong("math-glyph-weight"), help: "Weight of the glyph image network's scores (default \(MathRecognizer.defaultGlyphWeight)).")
    var glyphWeight: Double = MathRecognizer.defaultGlyphWeight
    @Option(name: .customLong("math-glyph-junk"), help: "Weight of the glyph image network's doubt that a group of several strokes is one symbol, in segmentation (0: off; default \(MathRecognizer.defaultGlyphJunkWeight)).")
    var glyphJunkWeight: Double = MathRecognizer.defaultGlyphJunkWeight
    @Flag(name: .customLong("no-math-glyph-repartition"), help: "The glyph image network reads the chosen groups only, never splitting one it doubts.")
    var noGlyphRepartition = false
    @Option(name: .customLong("math-glyph-split-doubt"), help: "How sure the glyph image network must be that a chosen group of several strokes is not one symbol before it may be split (default \(MathRecognizer.defaultGlyphSplitDoubt)).")
    var glyphSplitDoubt: Double = MathRecognizer.defaultGlyphSplitDoubt
    @Flag(name: .customLong("no-math-dot-letters"), help: "Never read a stem and a dot the partition left apart as one i or j.")
    var noDotLetters = false
    @Flag(name: .customLong("no-math-local-alternatives"), help: "Never read the partitions one merge or one split away from the chosen one.")
    var noLocalAlternatives = false
    @Flag(name: .customLong("no-math-loose-pairs"), help: "Never offer the partition alternatives two chosen groups a little too far apart to be one hypothesis.")
    var noLoosePairs = false
    @Flag(name: .customLong("no-math-glyph-screen"), help: "Let the sequence network read every stroke group, also those the glyph image network is sure are not one symbol (slower).")
    var noGlyphScreen = false
    @Option(name: .customLong("math-alternative-margin"), help: "How much better (nats) a line must read for a merge or split to be kept (default \(MathRecognizer.defaultAlternativeMargin)).")
    var alternativeMargin: Double = MathRecognizer.defaultAlternativeMargin
    @Option(name: .customLong("math-syntax-weight"), help: "Nats a reading pays per fault no written calculation has (an operator ending a line, a bracket never closed; 0: off; default \(MathRecognizer.defaultSyntaxWeight)).")
    var syntaxWeight: Double = MathRecognizer.defaultSyntaxWeight
    @Flag(name: .customLong("no-math-stroke-shape"), help: "Never let a symbol's pen path rule out a class (a one-stroke zigzag read as = rather than -).")
    var noStrokeShape = false
    @Option(name: .customLong("math-crossing-penalty"), help: "Nats a partition pays, when whole lines are compared, per pair of strokes of different symbols that cross or touch (0: off; default \(MathRecognizer.defaultCrossingPenalty)).")
    var crossingPenalty: Double = MathRecognizer.defaultCrossingPenalty
    @Option(name: .customLong("math-partition-crossing-bonus"), help: "Nats the first partition pays per pair of crossing strokes it puts in different groups (0: off; default \(MathRecognizer.defaultPartitionCrossingBonus)).")
    var partitionCrossingBonus: Double = MathRecognizer.defaultPartitionCrossingBonus
    @Flag(name: .customLong("math-segments"), help: "With --jsonl --json: add each symbol's class, strokes and candidates (\"symbols\") and every stroke group the segmenter scored (\"hypotheses\": strokes, best class, score; the sample read as one line).")
    var segments = false

    /// The editor's adapter over the weights of `--math-model` or the bundled ones (loaded now).
    func adapter() throws -> MathRecognizerAdapter {
        let a: MathRecognizerAdapter
        if let mathModel {
            a = MathRecognizerAdapter(modelURL: URL(fileURLWithPath: mathModel))
        } else {
            guard let shared = MathRecognizerAdapter.shared else {
                throw QuireError(.resourceMissing, "no math recognizer weights found: install Resources/recognition/\(MathRecognizer.defaultFileName), set QUIRE_MATH_MODEL or pass --math-model")
            }
            a = shared
        }
        _ = try a.recognizer()
        return a
    }

    func recognizer() throws -> MathRecognizer {
        let url: URL
        if let mathModel {
            url = URL(fileURLWithPath: mathModel)
        } else {
            guard let u = MathRecognizer.defaultModelURL() else {
                throw QuireError(.resourceMissing, "no math recognizer weights found: install Resources/recognition/\(MathRecognizer.defaultFileName), set QUIRE_MATH_MODEL or pass --math-model")
            }
            url = u
        }
        var shapes = MathRecognizer.defaultVariants
        if let variants {
            let (list, bad) = MathInkVariant.list(variants)
            if let bad { throw QuireError(.invalidArgument, "--math-variants: \"\(bad)\" is not a variant (slant+10, aspect0.85, rot-5; slant and rotation within 30 degrees, aspect 0.5-2)") }
            shapes = list
        }
        if noVariants { shapes = [] }
        var combination = MathRecognizer.defaultCombination
        if let combine {
            guard let c = MathScoreCombination(rawValue: combine) else { throw QuireError(.invalidArgument, "--math-combine must be log or prob") }
            combination = c
        }
        let secondURL = noEnsemble ? nil : secondModel.map { URL(fileURLWithPath: $0) } ?? MathRecognizer.secondModelURL(beside: url)
        let glyphURL = noGlyph ? nil : glyphModel.map { URL(fileURLWithPath: $0) } ?? MathRecognizer.glyphModelURL(beside: url)
        let model: RecognitionModel, second: RecognitionModel?, glyph: GlyphNetwork?
        do {
            model = try RecognitionModel(contentsOf: url)
            second = try secondURL.map { try RecognitionModel(contentsOf: $0) }
            glyph = try glyphURL.map { try GlyphNetwork(contentsOf: $0) }
        } catch {
            throw QuireError(.resourceMissing, "math recognizer weights: \(error)")
        }
        do {
            return try MathRecognizer(model: model, pruneHypotheses: !noPruning, contextWeight: contextWeight,
                                      secondModel: second, variants: shapes, combination: combination,
                                      glyphNetwork: glyph, glyphWeight: glyphWeight, glyphJunkWeight: glyphJunkWeight,
                                      glyphRepartition: !noGlyphRepartition, glyphSplitDoubt: glyphSplitDoubt,
                                      dotLetters: !noDotLetters, localAlternatives: !noLocalAlternatives, loosePairs: !noLoosePairs,
                                      glyphScreen: !noGlyphScreen,
                                      alternativeMargin: alternativeMargin, syntaxWeight: syntaxWeight,
                                      strokeShapes: !noStrokeShape, crossingPenalty: crossingPenalty,
                                      partitionCrossingBonus: partitionCrossingBonus)
        } catch {
            throw QuireError(.resourceMissing, "math recognizer weights \(url.path): \(error)")
        }
    }
}

enum RecognizeMath {
    /// A Math block in `recognize --json`: its LaTeX (`latex`: what its ink reads, with the typeset
    /// math it is written into), and per expression of its ink alone the n-best readings and the
    /// symbols with their candidates, boxes and stroke ids.
    static func json(block b: ContentBlock, result: MathRecognitionResult, latex: String) -> JSONValue {
        func r(_ v: Double, _ q: Double = 100) -> JSONValue { .number(v.isFinite ? (v * q).rounded() / q : -1e9) }
        func box(_ b: MathBox) -> JSONValue { .object(["x": r(b.x), "y": r(b.y), "width": r(b.width), "height": r(b.height)]) }
        let expressions: [JSONValue] = result.expressions.map { e in
            .object([
                "latex": .string(e.latex), "box": box(e.box),
                "candidates": .array(e.candidates.map { .object(["latex": .string($0.latex), "score": r($0.score, 1000)]) }),
                "symbols": .array(e.symbols.map { s in
                    .object(["label": .string(s.label), "box": box(s.box), "strokeIds": .array(s.strokeIds.map(JSONValue.string)),
                             "candidates": .array(s.candidates.map { .object(["label": .string($0.label), "score": r($0.score, 1000)]) })])
                }),
            ])
        }
        return .object(["id": .string(b.id), "type": .string(b.type), "text": .string(latex), "latex": .string(latex),
                        "expressions": .array(expressions)])
    }

    /// One line per sample: JSON (`{"id","latex","mathml","text","value","candidates","ms"}`) or
    /// `ok`/`ERR`, the reference and the reading.
    static func samples(path: String, limit: Int?, json: Bool, recognizer: MathRecognizer, segments: Bool = false) throws {
        let samples = try MathSample.read(path: path, limit: limit ?? .max)
        var ok = 0
        for s in samples {
            let o = MathEvaluation.run(s, recognizer: recognizer)
            ok += o.exact ? 1 : 0
            if json {
                let nodes = o.expressions.map(\.node)
                // The solver's result: of the last line that asks for one (`=` at the end, `?`).
                let value = MathSolver.solve(lines: nodes).last { $0.result != nil }?.result?.plainText
                var fields: [String: JSONValue] = [
                    "id": .string(s.id), "latex": .string(o.latex),
                    "mathml": nodes.isEmpty ? .null : .string(MathNode.mathML(lines: nodes)),
                    "text": nodes.isEmpty ? .null : .string(nodes.map(\.plainText).joined(separator: "\n")),
                    "value": value.map(JSONValue.string) ?? .null,
                    "candidates": .array(o.candidates.map(JSONValue.string)), "ms": .number((o.ms * 100).rounded() / 100),
                ]
                if segments {
                    // Each symbol's class, strokes (indices into the sample's) and candidates, so a wrong grouping or a close runner-up shows.
                    fields["symbols"] = .array(o.expressions.flatMap(\.symbols).map {
                        .object(["label": .string($0.label), "strokes": .array($0.strokeIndices.map { .number(Double($0)) }),
                                 "candidates": .array($0.candidates.map { .object(["label": .string($0.label), "score": .number(($0.score * 100).rounded() / 100)]) })])
                    })
                    fields["hypotheses"] = .array(recognizer.hypothesisScores(strokes: s.strokes).map {
                        .object(["strokes": .array($0.strokeIndices.map { .number(Double($0)) }), "label": .string($0.label),
                                 "score": .number($0.score.isFinite ? ($0.score * 1000).rounded() / 1000 : -1e9)])
                    })
                }
                print(try JSONValue.object(fields).serialized())
            } else {
                print("\(o.exact ? "ok " : "ERR") \(s.id)  \(s.latex)  ->  \(o.latex)")
            }
        }
        if !json { print("\(ok) of \(samples.count) read exactly") }
    }

    /// Per structure class: expressions, expression rate (canonical LaTeX exact), symbol accuracy
    /// (exact stroke set and class), ms p50 / p95; then the most frequent symbol confusions.
    static func evaluate(paths: [String], limit: Int?, cpuClock: Bool, errors: Int, recognizer: MathRecognizer) throws {
        let second = recognizer.secondModel.map { " + step \($0.trainingStep)" } ?? ""
        let glyph = recognizer.glyphNetwork.map { ", glyph network step \($0.trainingStep) x \(recognizer.glyphWeight)" } ?? ", no glyph network"
        let shapes = recognizer.variants.isEmpty ? "none" : recognizer.variants.map(\.description).joined(separator: ",") + " (\(recognizer.combination.rawValue))"
        print("math weights: training step \(recognizer.model.trainingStep)\(second)\(glyph), variants: \(shapes), kernels: \(RecognitionKernels.current.rawValue), clock: \(cpuClock ? "cpu" : "wall")")
        var tallies: [String: MathEvaluation.Tally] = [:]
        var confusions: [String: Int] = [:]
        var wrong: [(String, String)] = []
        for path in paths {
            for s in try MathSample.read(path: path, limit: limit ?? .max) {
                let o = MathEvaluation.run(s, recognizer: recognizer, cpuClock: cpuClock)
                tallies[s.structureClass.isEmpty ? "other" : s.structureClass, default: .init()].add(o)
                tallies["all", default: .init()].add(o)
                if !o.exact { wrong.append((s.latex, o.latex)) }
                var got: [[Int]: String] = [:]
                for e in o.expressions { for sym in e.symbols { got[sym.strokeIndices.sorted()] = sym.label } }
                for t in s.symbols {
                    if let g = got[t.strokes.sorted()] {
                        if g != t.label { confusions["\(t.label) -> \(g)", default: 0] += 1 }
                    } else {
                        confusions["\(t.label) -> (split or merged)", default: 0] += 1
                    }
                }
            }
        }
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(0, w - s.count)) + s }
        print("class        n    expr  symbols  ms p50  ms p95")
        for k in MathEvaluation.classes + ["other", "all"] {
            guard let t = tallies[k] else { continue }
            print(k.padding(toLength: 8, withPad: " ", startingAt: 0) + pad("\(t.n)", 5)
                  + String(format: " %7.3f %8.3f %7.1f %7.1f", t.expressionRate, t.symbolAccuracy, t.percentile(0.5), t.percentile(0.95)))
        }
        guard errors > 0 else { return }
        print("\nsymbol confusions (true -> read), most frequent:")
        for (k, n) in confusions.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }).prefix(errors) { print("  \(pad("\(n)", 4))  \(k)") }
        print("\nexpressions read wrong (first \(min(errors, wrong.count)) of \(wrong.count)):")
        for (t, g) in wrong.prefix(errors) { print("  want \(t)\n  got  \(g)") }
    }
}
