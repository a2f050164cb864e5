import Foundation
import InkRecognition

/// Errors of loading or using the math recognizer.
public enum MathRecognizerError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The weights are not a math model (their alphabet lacks the math symbols or the "not one symbol" class).
    case notAMathModel(String)
    public var description: String {
        switch self {
        case let .notAMathModel(why): return "not a math recognizer model: \(why)"
        }
    }
}

/// Reads handwritten math: ink (millimetres, y down) to expressions, one per line, each with its
/// tree (`MathNode`), canonical LaTeX, symbols (class, candidates, box, strokes) and n-best readings.
///
/// Symbols are found order-free (stroke-group hypotheses scored by the classifier, then the best
/// partition: `MathSegmenter`), the layout by `MathParser`. Immutable and safe to share between threads.
public final class MathRecognizer: Sendable {
    /// File name of the shipped math weights (beside `quire-rec.bin`).
    public static let defaultFileName = "quire-math.bin"

    /// The symbol classifier (the text network with the math alphabet).
    public let model: RecognitionModel
    /// Score a partition pays per symbol (see `MathSegmenter.defaultGroupPenalty`).
    public let groupPenalty: Double
    /// Most readings in `MathExpression.candidates`.
    public let maxCandidates: Int
    /// Most strokes read in one line; beyond, the rest of the line is left unread (bounded time).
    public let maxStrokesPerLine: Int
    /// Whether stroke groups too large to be one symbol are skipped (`MathSegmenter.hypotheses`).
    public let pruneHypotheses: Bool
    /// Weight of the symbol-sequence prior (`MathContext.standard`) against the classifier's scores
    /// when symbols' classes are chosen; 0 reads every symbol on its own.
    public let contextWeight: Double
    /// The default `contextWeight`, chosen on composed validation expressions (docs/MATH-MODEL.md).
    public static let defaultContextWeight = 0.5
    /// A second classifier, trained apart, that reads every hypothesis too (an ensemble); nil: one network.
    public let secondModel: RecognitionModel?
    /// Shapes every hypothesis is read under besides the ink as written (test-time augmentation);
    /// empty: only as written.
    public let variants: [MathInkVariant]
    /// How the readings of one hypothesis (variants, networks) are combined.
    public let combination: MathScoreCombination
    /// The default `variants`, chosen on composed validation expressions (docs/MATH-EXPERIMENTS.md).
    public static let defaultVariants: [MathInkVariant] = []
    /// The default `combination`.
    public static let defaultCombination = MathScoreCombination.meanLog
    /// The glyph image network (`GlyphNetwork`), whose log-probabilities, times `glyphWeight`, are
    /// added to the class scores of the groups the partition chose; nil: the sequence network alone.
    public let glyphNetwork: GlyphNetwork?
    /// Weight of the glyph network's log-probabilities against the sequence network's scores.
    public let glyphWeight: Double
    /// The default `glyphWeight`, chosen on composed validation expressions (docs/MATH-MODEL.md).
    public static let defaultGlyphWeight = 0.25
    /// Weight of the glyph network's doubt that a group of several strokes is one symbol: such a
    /// group's scores gain this times log(1 - P(not one symbol)), so a digit with the dot beside it
    /// loses to the two apart. 0: the partition uses the sequence network alone.
    public let glyphJunkWeight: Double
    /// The default `glyphJunkWeight`.
    public static let defaultGlyphJunkWeight = 0.0
    /// Whether a chosen group of several strokes that the glyph network doubts (`glyphSplitDoubt`)
    /// may be split into the hypotheses inside it (`glyphRescored`).
    public let glyphRepartition: Bool
    /// The default `glyphRepartition`.
    public static let defaultGlyphRepartition = true
    /// How sure the glyph network must be that a chosen group of several strokes is not one symbol
    /// (its probability of "not one symbol") before the repartition may split that group.
    public let glyphSplitDoubt: Double
    /// The default `glyphSplitDoubt`, chosen on composed validation expressions (docs/MATH-MODEL.md).
    public static let defaultGlyphSplitDoubt = 0.5
    /// Whether a stem and a dot (or short dash) above it that the partition read apart are also
    /// read as one `i` or `j`, the reading with the better whole score kept (`dotLetterMerges`).
    public let dotLetters: Bool
    /// The default `dotLetters`.
    public static let defaultDotLetters = true
    /// Whether partitions one merge or one split away from the chosen one are read too
    /// (`partitionAlternatives`), one kept where the whole line's score is `alternativeMargin` better.
    public let localAlternatives: Bool
    /// The default `localAlternatives`.
    public static let defaultLocalAlternatives = true
    /// Whether pairs of chosen groups a little further apart than the hypotheses reach (`MathSegmenter.loosePair`)
    /// are read as one symbol too, for the partition alternatives to weigh (`looseUnions`).
    public let loosePairs: Bool
    /// The default `loosePairs`.
    public static let defaultLoosePairs = true
    /// Whether hypotheses of several strokes the glyph network is sure are not one symbol are left
    /// unread by the sequence network (`screened`; a speed step).
    public let glyphScreen: Bool
    /// The default `glyphScreen`.
    public static let defaultGlyphScreen = true
    /// How much better (nats) the whole line must read for a merge or split to be kept.
    public let alternativeMargin: Double
    /// How far below `alternativeMargin` an alternative's quick reading (no swaps) may fall and
    /// still be read whole: swaps can only raise a line's best score.
    static let alternativeSlack = 1.0
    /// Most symbols a line may have for the dot letters and the partition alternatives to be read.
    public static let maxSymbolsForAlternatives = 40
    /// The default `alternativeMargin`, chosen on composed validation expressions (docs/MATH-MODEL.md).
    public static let defaultAlternativeMargin = 2.0

    /// Nats a partition pays, when lines are compared (the partition alternatives, dot letters),
    /// per pair of strokes of different symbols that cross or touch (`MathStrokeCrossings`).
    public let crossingPenalty: Double
    /// The default `crossingPenalty`, chosen on composed validation expressions (docs/MATH-MODEL.md).
    public static let defaultCrossingPenalty = 4.0
    /// Nats the first partition pays per pair of crossing strokes it puts in different groups (as a
    /// bonus to the groups that keep theirs; touching strokes do not count, `insidePairs`). Lower
    /// than `crossingPenalty`: here every hypothesis competes, and at 4 a digit merged with a
    /// crossing neighbour (training writers -1). At 1 (docs/MATH-CHECKS.md, step 16): set C +1 (a
    /// fraction bar had merged with the `t` stem above it and the `l` below), none broken.
    public let partitionCrossingBonus: Double
    /// The default `partitionCrossingBonus`.
    public static let defaultPartitionCrossingBonus = 1.0
    /// Whether a symbol's pen path may rule out a candidate its box allows (`MathStrokeShape`: a
    /// one-stroke zigzag is a `=`, not a `-`).
    public let strokeShapes: Bool
    /// The default `strokeShapes`.
    public static let defaultStrokeShapes = true
    /// Nats a reading pays per fault that no written calculation has (`MathWellFormed`: `/=`, a
    /// bracket never closed, an operator ending a line); 0 ranks readings without looking.
    public let syntaxWeight: Double
    /// The default `syntaxWeight`, chosen on composed validation expressions (docs/MATH-MODEL.md).
    public static let defaultSyntaxWeight = 4.0

    let junkClass: Int
    let symbolClasses: [Int]

    /// A recognizer over loaded weights. Throws `MathRecognizerError.notAMathModel` for other weights
    /// and for a `secondModel` that does not read the same features into the same classes.
    public init(model: RecognitionModel, groupPenalty: Double = MathSegmenter.defaultGroupPenalty,
                maxCandidates: Int = 5, maxStrokesPerLine: Int = 400, pruneHypotheses: Bool = true,
                contextWeight: Double = defaultContextWeight, secondModel: RecognitionModel? = nil,
                variants: [MathInkVariant] = defaultVariants, combination: MathScoreCombination = defaultCombination,
                glyphNetwork: GlyphNetwork? = nil, glyphWeight: Double = defaultGlyphWeight,
                glyphJunkWeight: Double = defaultGlyphJunkWeight,
                glyphRepartition: Bool = defaultGlyphRepartition,
                glyphSplitDoubt: Double = defaultGlyphSplitDoubt, dotLetters: Bool = defaultDotLetters,
                localAlternatives: Bool = defaultLocalAlternatives, loosePairs: Bool = defaultLoosePairs,
                glyphScreen: Bool = defaultGlyphScreen, alternativeMargin: Double = defaultAlternativeMargin,
                syntaxWeight: Double = defaultSyntaxWeight, strokeShapes: Bool = defaultStrokeShapes,
                crossingPenalty: Double = defaultCrossingPenalty,
                partitionCrossingBonus: Double = defaultPartitionCrossingBonus) throws {
        guard let junk = model.charset.firstIndex(of: MathSymbols.junk) else {
            throw MathRecognizerError.notAMathModel("no \"\(MathSymbols.junk)\" class")
        }
        for c in "0123456789+-=√" where !model.charset.contains(c) {
            throw MathRecognizerError.notAMathModel("no \"\(c)\" class")
        }
        if let secondModel, !secondModel.isCompatible(with: model) {
            throw MathRecognizerError.notAMathModel("the second network's alphabet or preprocessing differs from the first's")
        }
        if let glyphNetwork, !glyphNetwork.isCompatible(with: model) {
            throw MathRecognizerError.notAMathModel("the glyph network's classes differ from the sequence network's")
        }
        self.secondModel = secondModel
        self.glyphNetwork = glyphNetwork
        self.glyphWeight = glyphWeight.isFinite ? max(0, glyphWeight) : 0
        self.glyphJunkWeight = glyphJunkWeight.isFinite ? max(0, glyphJunkWeight) : 0
        self.glyphRepartition = glyphRepartition
        self.dotLetters = dotLetters
        self.localAlternatives = localAlternatives
        self.loosePairs = loosePairs
        self.glyphScreen = glyphScreen
        self.strokeShapes = strokeShapes
        self.crossingPenalty = crossingPenalty.isFinite ? max(0, crossingPenalty) : 0
        self.partitionCrossingBonus = partitionCrossingBonus.isFinite ? max(0, partitionCrossingBonus) : 0
        self.syntaxWeight = syntaxWeight.isFinite ? max(0, syntaxWeight) : 0
        self.alternativeMargin = alternativeMargin.isFinite ? max(0, alternativeMargin) : .infinity
        self.glyphSplitDoubt = glyphSplitDoubt.isFinite ? min(1, max(0, glyphSplitDoubt)) : 1
        self.variants = variants.filter { !$0.isIdentity }
        self.combination = combination
        self.model = model
        self.groupPenalty = groupPenalty
        self.maxCandidates = max(1, maxCandidates)
        self.maxStrokesPerLine = max(1, maxStrokesPerLine)
        self.pruneHypotheses = pruneHypotheses
        self.contextWeight = contextWeight.isFinite ? max(0, contextWeight) : 0
        junkClass = junk + 1
        symbolClasses = Array(1 ... model.charset.count).filter { $0 != junk + 1 }
    }

    /// Loads weights from a file (`RecognitionModelError` for unreadable or corrupt files), the
    /// second network of the ensemble from `secondModelURL(beside:)` and the glyph network from
    /// `glyphModelURL(beside:)` when those files exist.
    public convenience init(contentsOf url: URL) throws {
        let second = try Self.secondModelURL(beside: url).map { try RecognitionModel(contentsOf: $0) }
        let glyph = try Self.glyphModelURL(beside: url).map { try GlyphNetwork(contentsOf: $0) }
        try self.init(model: try RecognitionModel(contentsOf: url), secondModel: second, glyphNetwork: glyph)
    }

    /// The glyph network's weights beside the math weights (`GlyphNetwork.defaultFileName` in the
    /// same folder), nil when there is none.
    public static func glyphModelURL(beside url: URL) -> URL? {
        let u = url.deletingLastPathComponent().appendingPathComponent(GlyphNetwork.defaultFileName)
        return FileManager.default.fileExists(atPath: u.path) ? u : nil
    }

    /// File name of the ensemble's second weights (beside `quire-math.bin`; optional).
    public static let secondFileName = "quire-math-2.bin"

    /// The second network's weights beside the first's (`secondFileName` in the same folder), nil
    /// when there is none: the recognizer then reads with one network.
    public static func secondModelURL(beside url: URL) -> URL? {
        let u = url.deletingLastPathComponent().appendingPathComponent(secondFileName)
        return u.standardizedFileURL != url.standardizedFileURL && FileManager.default.fileExists(atPath: u.path) ? u : nil
    }

    /// `$QUIRE_MATH_MODEL`, else `quire-math.bin` beside the text weights (`RecognitionModel.defaultModelURL`).
    public static func defaultModelURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let p = environment["QUIRE_MATH_MODEL"], !p.isEmpty { return URL(fileURLWithPath: p) }
        guard let text = RecognitionModel.defaultModelURL(environment: [:]) else { return nil }
        let u = text.deletingLastPathComponent().appendingPathComponent(defaultFileName)
        return FileManager.default.fileExists(atPath: u.path) ? u : nil
    }

    /// Reads ink: lines are split as `MathLines.group` splits them (or by guides when `lineSpacing`
    /// is given), one expression per line, top to bottom. `strokeIds`, when given
    /// (one per stroke), are copied onto the symbols.
    public func recognize(strokes: [[SIMD2<Double>]], strokeIds: [String]? = nil,
                          lineSpacing: Double? = nil, originY: Double = 0) -> MathRecognitionResult {
        let lines = lineSpacing == nil ? MathLines.group(strokes: strokes)
            : TextRecognizer.groupLines(strokes: strokes, lineSpacing: lineSpacing, originY: originY)
        return MathRecognitionResult(expressions: lines.compactMap { recognizeLine(strokes: strokes, indices: $0, strokeIds: strokeIds) })
    }

    /// Reads the given strokes as one expression line (nil when none has a finite point).
    public func recognizeLine(strokes all: [[SIMD2<Double>]], indices: [Int]? = nil, strokeIds: [String]? = nil) -> MathExpression? {
        var index = (indices ?? Array(all.indices)).filter { all.indices.contains($0) && all[$0].contains { $0.x.isFinite && $0.y.isFinite } }
        if index.count > maxStrokesPerLine { index = Array(index.prefix(maxStrokesPerLine)) }
        guard !index.isEmpty else { return nil }
        let strokes = index.map { all[$0].filter { $0.x.isFinite && $0.y.isFinite && abs($0.x) < 1e9 && abs($0.y) < 1e9 } }
        var scored = scoreHypotheses(strokes)
        // A group gains for the crossings it keeps, which is the partition paying for those it cuts.
        let kept = partitionCrossingBonus > 0 ? MathStrokeCrossings.insidePairs(groups: scored.groups, strokes: strokes) : scored.groups.map { _ in 0 }
        let first = MathSegmenter.bestPartition(strokeCount: strokes.count, groups: scored.groups,
                                                scores: scored.groups.indices.map { scored.best[$0].score + partitionCrossingBonus * Double(kept[$0]) },
                                                penalty: groupPenalty)
        var chosen = glyphRescored(&scored, chosen: first, strokes: strokes)
        var line = read(chosen, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds)
        // Each alternative is a whole line read again: on long lines (hundreds of symbols) that
        // would cost seconds, and calculator lines are short.
        let fewSymbols = chosen.count <= Self.maxSymbolsForAlternatives
        if dotLetters, fewSymbols {
            // An `i` or `j` whose dot the partition left apart: the whole reading decides, the
            // neighbours' context included (`s`, stem, dot, `n` is `\sin`).
            for m in dotLetterMerges(&scored, chosen: chosen, strokes: strokes) where m.parts.allSatisfy(chosen.contains) {
                let alt = chosen.filter { !m.parts.contains($0) } + [m.merged]
                let other = read(alt, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds)
                if other.score > line.score { (chosen, line) = (alt, other) }
            }
        }
        if localAlternatives, fewSymbols {
            // One merge or one split at a time, each kept only where the whole line reads better by
            // `alternativeMargin`: the partition's local scores cannot see the neighbours.
            if loosePairs { looseUnions(&scored, chosen: chosen, strokes: strokes) }
            for _ in 0 ..< 3 {
                // Screened by the quick reading (no swaps), the two best read whole.
                let base = read(chosen, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds, quick: true).score
                let screened = partitionAlternatives(&scored, chosen: chosen, strokes: strokes)
                    .map { ($0, read($0, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds, quick: true).score) }
                    .filter { $0.1 > base + alternativeMargin - Self.alternativeSlack }
                    .sorted { $0.1 > $1.1 }.prefix(2)
                var best: (chosen: [Int], line: (symbols: [MathSymbol], readings: [MathExpressionCandidate], score: Double))?
                for (alt, _) in screened {
                    let other = read(alt, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds)
                    if other.score > (best?.line.score ?? line.score + alternativeMargin) { best = (alt, other) }
                }
                guard let best else { break }
                (chosen, line) = best
            }
        }
        if let again = remeasured(chosen, line: line.symbols, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds) {
            (line.symbols, line.readings) = again
        }
        let box = line.symbols.dropFirst().reduce(line.symbols[0].box) { $0.union($1.box) }
        return MathExpression(node: line.readings[0].node, latex: line.readings[0].latex, symbols: line.symbols,
                              candidates: line.readings, box: box, strokeIndices: index)
    }

    /// The symbols of the chosen groups, their classes chosen in context, and the n-best readings;
    /// `score` is the best reading's, less the group penalty per symbol, so partitions compare.
    /// `quick`: the context's reading and the classifier's only, no swapped readings (to screen partitions).
    func read(_ chosen: [Int], scored: Scored, strokes: [[SIMD2<Double>]], index: [Int], strokeIds: [String]?, quick: Bool = false)
        -> (symbols: [MathSymbol], readings: [MathExpressionCandidate], score: Double) {
        let (raw, ticks) = symbols(of: chosen, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds)
        let (symbols, readings) = classified(MathReadings.sizeChecked(raw, ticks: ticks), ticks: ticks, quick: quick)
        let crossings = crossingPenalty > 0 ? MathStrokeCrossings.count(groups: chosen.map { scored.groups[$0] }, strokes: strokes) : 0
        return (symbols, readings, readings[0].score - groupPenalty * Double(symbols.count) - crossingPenalty * Double(crossings))
    }

    /// The chosen partition's line read again with its size checks measured against the classes its
    /// reading gave the symbols (`MathReadings.sizeChecked(_:ticks:as:)`), nil where that changes
    /// no candidate's score. The first checks measure with the classifier's best classes, whose
    /// layout may differ from the reading's: a `1` the classifier calls `/` is no digit to size a
    /// row by, and a `7` it calls `z` no script. The partition is not chosen again.
    func remeasured(_ chosen: [Int], line: [MathSymbol], scored: Scored, strokes: [[SIMD2<Double>]], index: [Int], strokeIds: [String]?)
        -> (symbols: [MathSymbol], readings: [MathExpressionCandidate])? {
        let (raw, ticks) = symbols(of: chosen, scored: scored, strokes: strokes, index: index, strokeIds: strokeIds)
        let first = MathReadings.sizeChecked(raw, ticks: ticks)
        guard line.count == raw.count, line.map(\.label) != first.map(\.label) else { return nil }
        let again = MathReadings.sizeChecked(raw, ticks: ticks, as: line.map { Character($0.label) })
        guard zip(again, first).contains(where: { $0.candidates != $1.candidates }) else { return nil }
        return classified(again, ticks: ticks, quick: false)
    }

    /// The symbols of the chosen groups, left to right, with the classifier's classes (the stroke
    /// shapes checked), and each `√`'s tick.
    func symbols(of chosen: [Int], scored: Scored, strokes: [[SIMD2<Double>]], index: [Int], strokeIds: [String]?)
        -> (symbols: [MathSymbol], ticks: [Double?]) {
        var symbols: [MathSymbol] = []
        var ticks: [Double?] = []
        for k in chosen {
            let g = scored.groups[k]
            let box = MathBox(enclosing: g.flatMap { strokes[$0] })
            let ids = strokeIds.map { ids in g.compactMap { ids.indices.contains(index[$0]) ? ids[index[$0]] : nil } } ?? []
            let symbol = MathSymbol(label: String(scored.best[k].label), candidates: scored.candidates[k], box: box,
                                    strokeIndices: g.map { index[$0] }, strokeIds: ids)
            symbols.append(strokeShapes ? MathStrokeShape.checked(symbol, strokes: g.map { strokes[$0] }) : symbol)
            ticks.append(scored.best[k].label == "√" ? MathParser.radicalTick(g.map { strokes[$0] }) : nil)
        }
        let order = symbols.indices.sorted { (symbols[$0].box.x, $0) < (symbols[$1].box.x, $1) }
        return (order.map { symbols[$0] }, order.map { ticks[$0] })
    }

    /// The n-best readings of size-checked symbols, and the symbols with their classes in the best.
    /// `quick`: the context's reading and the classifier's only, no swapped readings.
    func classified(_ checked: [MathSymbol], ticks: [Double?], quick: Bool) -> (symbols: [MathSymbol], readings: [MathExpressionCandidate]) {
        var symbols = checked
        let (readings, labels) = MathReadings.nBest(symbols: symbols, ticks: ticks, limit: maxCandidates,
                                                    context: MathContext.standard, weight: contextWeight,
                                                    syntaxWeight: syntaxWeight, swaps: !quick)
        for i in symbols.indices where symbols[i].label != String(labels[i]) {
            // The chosen class first, as `MathSymbol.candidates` promises.
            symbols[i].label = String(labels[i])
            if let k = symbols[i].candidates.firstIndex(where: { $0.label == symbols[i].label }) {
                symbols[i].candidates.insert(symbols[i].candidates.remove(at: k), at: 0)
            }
        }
        return (symbols, readings)
    }

    /// Every stroke-group hypothesis of `strokes` read as one line, with its best symbol class and
    /// score (nats), in the partition's order: what segmentation chose among, for error analysis
    /// (`quire recognize --jsonl F --math --json --math-segments`). Stroke indices are into `strokes`.
    public func hypothesisScores(strokes: [[SIMD2<Double>]]) -> [MathHypothesis] {
        let s = scoreHypotheses(strokes)
        return s.groups.indices.map { MathHypothesis(strokeIndices: s.groups[$0], label: String(s.best[$0].label), score: s.best[$0].score) }
    }

    struct Scored {
        var groups: [[Int]]
        var best: [(label: Character, score: Double)]
        var candidates: [[MathSymbolCandidate]]
        /// Every class's score (index 0 the CTC blank); nil for a stroke the network could not read.
        var scores: [[Double]?]
        /// The glyph network's log-probabilities of each group it has read (nil: no image), by strokes.
        var glyph: [[Int]: [Float]?] = [:]

        mutating func append(_ group: [Int], _ cs: [Double], _ r: (label: Character, score: Double, candidates: [MathSymbolCandidate])) {
            groups.append(group)
            best.append((r.label, r.score))
            candidates.append(r.candidates)
            scores.append(cs)
        }
    }

    /// How many classes each symbol keeps as candidates: beyond the five a user picks from, so that
    /// a reading no calculation could be (`MathWellFormed`) can reach a class the classifier put far
    /// down (one writer's `1` is a `/` to it, with `l`, `)` and `,` before the `1`).
    static let candidateCount = 8

    /// The best symbol class (never "not one symbol") and the `candidateCount` best as candidates.
    func rank(_ cs: [Double]) -> (label: Character, score: Double, candidates: [MathSymbolCandidate]) {
        let ranked = symbolClasses.sorted { (cs[$0], -$0) > (cs[$1], -$1) }
        return (model.charset[ranked[0] - 1], max(cs[ranked[0]], -1e9),
                ranked.prefix(Self.candidateCount).map { MathSymbolCandidate(label: String(model.charset[$0 - 1]), score: max(cs[$0], -1e9)) })
    }

    /// Every hypothesis but those the glyph network screens out (`screened`) with its best symbol
    /// class and the runners-up; strokes the network could not read (too long, no points) keep a
    /// singleton at a very low score. Each hypothesis is read as
    /// written and under every variant, by each network, all in one batch per network; the class
    /// scores of its readings are combined (`combination`).
    func scoreHypotheses(_ strokes: [[SIMD2<Double>]]) -> Scored {
        var s = Scored(groups: [], best: [], candidates: [], scores: [])
        let hyps = screened(MathSegmenter.hypotheses(strokes, prune: pruneHypotheses), scored: &s, strokes: strokes)
        let all = classScores(of: hyps, strokes: strokes)
        // Hypothesis order, as the partition's tie-breaking expects.
        var have = Set<Int>()
        for (k, cs) in all.enumerated() {
            guard let cs else { continue }
            s.append(hyps[k], cs, rank(cs))
            if hyps[k].count == 1 { have.insert(hyps[k][0]) }
        }
        for i in strokes.indices where !have.contains(i) {
            s.groups.append([i])
            s.best.append((".", -50))
            s.candidates.append([MathSymbolCandidate(label: ".", score: -50)])
            s.scores.append(nil)
        }
        return s
    }

    /// Each group's class scores (index 0 the CTC blank), nil for one the network could not read.
    func classScores(of hyps: [[Int]], strokes: [[SIMD2<Double>]]) -> [[Double]?] {
        let shapes = [MathInkVariant.identity] + variants
        var feats: [(k: Int, ink: PreprocessedInk)] = []
        for (k, g) in hyps.enumerated() {
            let ink = g.map { strokes[$0] }
            for v in shapes {
                if let p = Preprocessor.prepare(strokes: v.apply(ink), config: model.preprocess, inMillimetres: true),
                   p.count > 0 { feats.append((k, p)) }
            }
        }
        // Similar lengths side by side (a batch pass lasts as long as its longest sequence); stable
        // for equal lengths, so the readings of a hypothesis keep the order of `shapes`.
        feats = feats.enumerated().sorted { ($0.element.ink.count, $0.offset) < ($1.element.ink.count, $1.offset) }.map(\.element)
        let batch = feats.map { ($0.ink.features, $0.ink.count) }
        let C = model.charset.count + 1
        var readings = [[[Double]]](repeating: [], count: hyps.count)
        for net in [model] + (secondModel.map { [$0] } ?? []) {
            for (f, lp) in zip(feats, net.logProbabilities(batch: batch)) where !lp.isEmpty {
                readings[f.k].append(MathSegmenter.classScores(lp, frames: lp.count / C, classes: C))
            }
        }
        let glyphJunk = glyphNetwork?.charset.firstIndex(of: MathSymbols.junk)
        return hyps.indices.map { k in
            guard !readings[k].isEmpty else { return nil }
            var cs = combination.combine(readings[k])
            if hyps[k].count > 1, glyphJunkWeight > 0, let glyphNetwork, let glyphJunk,
               let lp = glyphNetwork.logProbabilities(strokes: hyps[k].map { strokes[$0] }) {
                let doubt = glyphJunkWeight * log(max(1e-6, 1 - exp(Double(lp[glyphJunk]))))
                for i in cs.indices { cs[i] += doubt }
            }
            return cs
        }
    }
}
