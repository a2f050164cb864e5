import Foundation
import Testing
import InkModel
@testable import InkRender

/// "Is this word typeset in place" and "its chosen label" have one definition (InkModel's
/// `RecognizedWord`), which the editor's layout and the renderer's drawing share.
@Suite struct WordChoiceTests {
    /// A word converted in place whose label disagrees with its selected candidate (a package
    /// written elsewhere, or a word whose out-of-range choice was reset to the first candidate).
    func block(laidOut: Bool) -> BlockData {
        let w = RecognizedWord(label: "helo", candidates: [Candidate(label: "hello", score: 0.8), Candidate(label: "helo", score: 0.2)],
                               selected: 0, box: Rect(x: 10, y: 12, width: 14, height: 6), line: 0)
        var b = BlockData(id: "b1", type: "Text", box: Rect(x: 0, y: 0, width: 100, height: 40), words: [w])
        b.textFont = FontSpec(family: "DejaVu Sans", size: 5)
        guard laidOut else { return b }
        let layout = TextLayout(font: FontSpec(family: "DejaVu Sans", size: 5), margin: 0, guideSpacing: 10,
                                pageWidth: 180, metrics: CairoFontMetrics())
        return layout.layout(b, fresh: [0])
    }

    @Test func definitions() {
        var w = RecognizedWord(label: "a", candidates: [Candidate(label: "b", score: 1)], selected: 0, box: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(w.isTypesetInPlace && w.chosenLabel == "b")
        w.selected = 3
        #expect(w.chosenLabel == "a")
        w.strokeIds = ["s1"]
        #expect(!w.isTypesetInPlace)
        w.strokeIds = []; w.box = .zero
        #expect(!w.isTypesetInPlace)
    }

    /// The renderer drew `label` for a placed word it had no character cells for, while the
    /// layout (and the editor) set the chosen candidate: the same word read "helo" before its
    /// layout and "hello" after. Both now draw the chosen label.
    @Test func placedWordDrawsItsChosenLabelWithOrWithoutLayout() {
        let metrics = CairoFontMetrics()
        let before = TextLayout.runs(of: block(laidOut: false), metrics: metrics).map(\.text)
        let after = TextLayout.runs(of: block(laidOut: true), metrics: metrics).map(\.text)
        #expect(before == ["hello"])
        #expect(after.joined() == "hello")
    }

    /// The font of a block converted in place follows its words' ink height, less descenders:
    /// whether a word has descenders was read from its stored label ("gy") instead of what it
    /// reads as ("aa"), giving a font a quarter too small.
    @Test func convertedFontSizeReadsTheChosenLabel() {
        let w = RecognizedWord(label: "gy", candidates: [Candidate(label: "aa", score: 1)], selected: 0,
                               box: Rect(x: 10, y: 12, width: 14, height: 8), line: 0)
        let b = BlockData(id: "b1", type: "Text", box: Rect(x: 0, y: 0, width: 100, height: 40), words: [w])
        let layout = TextLayout(font: FontSpec(family: "DejaVu Sans", size: 5), margin: 0, guideSpacing: 10,
                                pageWidth: 180, metrics: CairoFontMetrics())
        #expect(layout.layout(b, fresh: [0]).textFont?.size == 6, "8 mm of ink without descenders: a 6 mm font")
    }
}
