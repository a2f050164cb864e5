import Foundation
import Testing
@testable import InkMath

/// The joint ranking of readings: the prior's kind trigram and letter case, and readings with one
/// or two symbols swapped, all scored as they parse. The symbols are those the recognizer found in
/// composed expressions of validation writers (boxes in mm, the classifier's scores after the size
/// checks), which the bigram prior with single swaps read wrong.
@Suite struct MathRankingTests {
    let ctx = MathContext.standard

    static func symbol(_ cands: [(String, Double)], _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> MathSymbol {
        MathSymbol(label: cands[0].0, candidates: cands.map { MathSymbolCandidate(label: $0.0, score: $0.1) },
                   box: MathBox(x: x, y: y, width: w, height: h), strokeIndices: [])
    }

    func best(_ line: [MathSymbol]) -> String? {
        MathReadings.nBest(symbols: line, ticks: line.map { _ in nil }, limit: 5, context: ctx,
                           weight: MathRecognizer.defaultContextWeight).readings.first?.latex
    }

    @Test func kindTrigramWantsAnOperatorBetweenOperands() {
        // After a digit and an operator comes an operand; a digit, then a letter, then `(` is rare.
        #expect(ctx.logProbability(of: ["7", "+", "(", "4", ")"]) > ctx.logProbability(of: ["7", "t", "(", "4", ")"]) + 1)
        // A kind trigram never seen still has a finite cost.
        #expect(ctx.logProbability(of: ["?", "[", "√"]).isFinite)
        // Without trigram counts the prior is the bigram alone (plus the letters' case).
        let bigram = MathContext(counts: MathContext.trainingCounts)
        let toks = ["7", "t", "(", "4", ")"]
        let pairs = zip(["<s>"] + toks, toks + ["</s>"]).reduce(0.0) { $0 + bigram.logProbability($1.1, after: $1.0) }
        #expect(abs(bigram.logProbability(of: toks) - pairs - bigram.caseLogProbability("t")) < 1e-9)
    }

    @Test func twoPlusSignsReadAsLettersAreBothOperators() {
        // "7+(441+88)=": both `+` are one-stroke crosses the classifier calls `t` by 3.6 nats.
        let line = [Self.symbol([("7", 0), ("1", -9.14), (">", -9.23), ("3", -9.7)], 0, 1.53, 5.04, 6.63),
                    Self.symbol([("t", -0.03), ("+", -3.67), ("f", -7.43), ("H", -9.27)], 9.57, 2.89, 1.95, 4.33),
                    Self.symbol([("(", 0), ("l", -7.32), ("c", -7.99), ("/", -9.16)], 13.26, 0, 2.6, 9.22),
                    Self.symbol([("4", 0), ("y", -8.89), ("1", -10.05), ("Y", -10.28)], 17.09, 1.44, 3.17, 5.51),
                    Self.symbol([("4", 0), ("y", -8.86), ("1", -10.08), ("Y", -10.27)], 22.17, 1.3, 3.43, 5.97),
                    Self.symbol([("1", 0), ("2", -6.41), ("]", -7.49), ("I", -7.6)], 28.19, 1.64, 2.74, 6.32),
                    Self.symbol([("t", -0.03), ("+", -3.61), ("f", -7.38), ("H", -9.26)], 34.07, 2.9, 1.78, 3.95),
                    Self.symbol([("8", 0), ("g", -11.81), ("6", -12.23), ("o", -19.96)], 37.51, 1.09, 3.8, 6.5),
                    Self.symbol([("8", 0), ("g", -12.85), ("0", -13.22), ("9", -13.63)], 42.77, 1.26, 3.59, 6.66),
                    Self.symbol([(")", 0), (",", -6.7), (">", -9.3), ("2", -9.51)], 47.48, 1.44, 3.05, 8.66),
                    Self.symbol([("=", 0), ("≠", -11.2), ("-", -13.1), ("÷", -14.5)], 52.22, 4.88, 3.2, 1.88)]
        #expect(best(line) == "7+(441+88)=")
    }

    @Test func aPlusReadAsALetterWithASubscriptIsAPlus() {
        // "46+6×67": read `t`, the `+` makes the next 6 its subscript; read `+`, the line parses flat.
        let line = [Self.symbol([("4", 0), ("y", -7.11), ("Y", -8.7), ("1", -9.89)], 0, 0, 3.74, 6.21),
                    Self.symbol([("6", 0), ("G", -10.52), ("0", -11.3), ("b", -12.32)], 4.75, 0.16, 3.98, 5.97),
                    Self.symbol([("t", -0.03), ("+", -3.5), ("f", -7.34), ("H", -9.17)], 10.87, 1.85, 1.75, 3.86),
                    Self.symbol([("6", 0), ("0", -10.45), ("b", -10.56), ("G", -10.58)], 14.21, 0.08, 4.69, 7.03),
                    Self.symbol([("×", -0.01), ("x", -6.02), ("+", -6.13), ("t", -8.04)], 21.49, 2.62, 2.58, 2.61),
                    Self.symbol([("6", 0), ("G", -9.84), ("0", -10.24), ("b", -12.39)], 26.67, 0.07, 4.49, 6.22),
                    Self.symbol([("7", 0), ("1", -8.87), (">", -9.38), ("3", -9.67)], 32.74, 0.49, 4.8, 6.28)]
        #expect(best(line) == "46+6\\times67")
    }

    @Test func aLetterWhoseCaseTheClassifierCannotTellIsSmall() {
        // "k=": `K` and `k` 0.08 nats apart and nothing beside it to measure it by; capitals are
        // 2% of the k's in expressions.
        let line = [Self.symbol([("K", -0.66), ("k", -0.74), ("R", -6.23), ("<", -9.95)], 0, 0, 2.25, 4.06),
                    Self.symbol([("=", 0), ("≠", -8.21), ("÷", -8.43), ("z", -10.85)], 3.52, 1.97, 1.98, 0.94)]
        #expect(best(line) == "k=")
        #expect(ctx.caseLogProbability("K") < ctx.caseLogProbability("k") - 3)
        // A capital the classifier is sure of stays one.
        var sure = line
        sure[0].candidates[1].score = -4
        #expect(best(sure) == "K=")
    }
}
