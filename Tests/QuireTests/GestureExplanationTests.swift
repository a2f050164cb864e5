import Foundation
import Testing
@testable import Quire
import QuireTools

/// Why a stroke was or was not a gesture: the explanation agrees with the classifier, names the
/// rule that decided, and the editor reports every finished pen stroke when asked.
@Suite struct GestureExplanationTests {
    @Test func theExplanationAgreesWithTheClassifierAndEndsAtTheDecidingRule() {
        let examples = GestureData.synthetic(perKind: 20, seed: 7)
        for e in examples {
            let c = GestureClassifier()
            let (kind, checks) = c.explain(e.stroke, context: e.context)
            #expect(kind == c.classify(e.stroke, context: e.context), "\(e.label)")
            #expect(!checks.isEmpty, "\(e.label): some rule was checked")
            if kind != nil {
                #expect(checks.last?.passed == true, "\(e.label): a gesture ends at a rule it met: \(checks)")
            } else {
                #expect(checks.last?.passed == false, "\(e.label): ink ends at a rule it failed: \(checks)")
            }
        }
        // A short tick: ink, and the reason says why.
        let tick = [InkSample(x: 0, y: 0, t: 0, f: 0.5), InkSample(x: 0.5, y: 0.5, t: 10, f: 0.5)]
        let (kind, checks) = GestureClassifier().explain(tick, context: GestureContext(lineHeight: 10))
        #expect(kind == nil && checks.map(\.rule) == ["longer than a dot"] && checks[0].detail.contains("2.0 mm"))
    }

    @Test func theEditorExplainsEachPenStrokeWhenAsked() throws {
        var p = try WordPage()
        try p.write("one", x: 20, baseline: 30)
        try p.write("two", x: 45, baseline: 30)
        try p.editor.waitForIdle()
        var seen: [GestureExplanation] = []
        p.editor.gestureObserver = { seen.append($0) }
        let two = try #require(p.word("two")).box
        try p.stroke([(two.x - 1, two.midY), (two.maxX + 1, two.midY)])
        try p.write("a", x: 80, baseline: 30)
        #expect(seen.count == 2, "the strike-through and the letter")
        #expect(seen.first?.kind == .strikeThrough && seen.first?.applied == true && seen.first?.outcome == "strikeThrough, applied")
        #expect(seen.last?.kind == nil && seen.last?.applied == false && seen.last?.outcome == "ink")
        #expect(seen.first?.checks.contains { $0.rule.contains("strike-through") && $0.passed } == true)
    }
}

