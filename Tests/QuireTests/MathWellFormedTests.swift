import Foundation
import InkRecognition
import Testing
@testable import InkMath
@testable import Quire
import QuireTools

/// Readings no written calculation could be (`MathWellFormed.swift`) and what they cost in ranking.
@Suite struct MathWellFormedTests {
    /// A row of single symbols, as the parser lays out a line (sources numbered left to right).
    static func row(_ s: String, from first: Int = 0) -> [LayoutToken] {
        s.enumerated().map { .symbol($1, source: first + $0) }
    }

    @Test func calculationsAsWrittenHaveNoFault() {
        for s in ["9.1=", "3+(4-2)!", "x=-5", "-3+2", "2(x+1)", "58,8·30", "45%+1", "12+7=", "2×-3", "|x|+1", "7≠8", "a"] {
            #expect(MathWellFormed.faults(Self.row(s)) == 0, "\(s)")
        }
        let fraction: [LayoutToken] = [.fraction(Self.row("1+x"), Self.row("2", from: 3))] + Self.row("=", from: 4)
        #expect(MathWellFormed.faults(fraction) == 0)
        let power: [LayoutToken] = Self.row("(x+1)") + [.script(superscript: true, Self.row("-2", from: 5))]
        #expect(MathWellFormed.faults(power) == 0)
        let root: [LayoutToken] = [.radical(Self.row("4.5"))] + Self.row("÷3", from: 3)
        #expect(MathWellFormed.faults(root) == 0)
    }

    @Test func eachFaultCounts() {
        let faults: [(String, Int)] = [
            ("9./=", 2),     // a point with no digit after it, a relation right after an operator
            ("/18", 1),      // an operator with nothing before it
            ("8+3-", 1),     // an operator with nothing after it
            ("14)-x", 1),    // a bracket nothing opened
            ("7u+(48", 1),   // a bracket never closed
            ("()", 1),       // nothing inside
            // A sign after a sign (`3+-4`) is far more often a misread than written.
            ("5!!", 0), ("!5", 1), ("=3", 1), ("3+=4", 1), ("3+-4", 1), ("3--4", 1), (".5", 1),
        ]
        for (s, n) in faults { #expect(MathWellFormed.faults(Self.row(s)) == n, "\(s)") }
        // A relation inside an exponent, an empty fraction part, a script with nothing to carry it.
        #expect(MathWellFormed.faults(Self.row("x") + [.script(superscript: true, Self.row("2=3", from: 1))]) == 1)
        #expect(MathWellFormed.faults([.fraction([], Self.row("3"))]) == 1)
        #expect(MathWellFormed.faults(Self.row("+") + [.script(superscript: true, Self.row("2", from: 1))]) == 2)
    }

    /// Real ink of training writers (Fixtures/README.md) whose best reading without the check has a
    /// bracket nothing opened; with it, each reads exactly.
    @Test func faultyReadingsLoseToWellFormedOnes() throws {
        guard let (model, glyph) = try MathFixture.weights() else { Issue.record("no math weights"); return }
        let on = try MathRecognizer(model: model, glyphNetwork: glyph)
        let off = try MathRecognizer(model: model, glyphNetwork: glyph, syntaxWeight: 0)
        #expect(on.syntaxWeight == MathRecognizer.defaultSyntaxWeight && MathRecognizer.defaultSyntaxWeight > 0)
        let samples = try MathFixture.read("math-well-formed.jsonl")
        #expect(samples.count == 4)
        for s in samples {
            let right = MathEvaluation.run(s, recognizer: on), wrong = MathEvaluation.run(s, recognizer: off)
            #expect(right.latex == s.latex)
            #expect(wrong.latex != s.latex)
            #expect(wrong.latex.contains(")") && !wrong.latex.contains("("), "\(wrong.latex)")
        }
    }
}
