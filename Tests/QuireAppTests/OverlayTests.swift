import Foundation
import InkModel
import Testing
@testable import QuireApp

/// The overlays' logic without an X server: which words the bar marks as just changed, where a
/// tap lands in the bar, and keyboard moves in a popup.
struct OverlayTests {
    private func word(_ label: String, strokes: [String], x: Double = 0) -> RecognizedWord {
        RecognizedWord(label: label, candidates: [Candidate(label: label, score: 0), Candidate(label: label + "s", score: -1)],
                       box: Rect(x: x, y: 0, width: 10, height: 6), strokeIds: strokes)
    }

    /// The bar showed a word's stored label where the page shows its chosen candidate.
    @Test func theBarShowsWhatTheWordReadsAs() {
        let w = RecognizedWord(label: "helo", candidates: [Candidate(label: "hello", score: 0), Candidate(label: "helo", score: -1)],
                               selected: 0, box: Rect(x: 0, y: 0, width: 10, height: 6), strokeIds: ["s1"])
        let bar = CandidateBar.layout(blockId: "b", words: [w], changed: [], selected: nil, scale: 1, maxWidth: 500)
        #expect(bar.items.map(\.label) == ["hello"])
        var picked = w
        picked.selected = 1
        #expect(CandidateBar.changedWords(old: [w], new: [picked]) == [0], "another choice is another reading")
    }

    @Test func changedWordsAreThoseReadDifferentlyFromTheirStrokes() {
        let old = [word("found", strokes: ["s1"]), word("bead", strokes: ["s2", "s3"])]
        // The second word got a stroke and a new reading; a third word appeared; the first is unchanged.
        let new = [word("found", strokes: ["s1"]), word("bread", strokes: ["s3", "s2", "s4"]), word("sugar", strokes: ["s5"])]
        #expect(CandidateBar.changedWords(old: old, new: new) == [1, 2])
        // Same strokes in another order, same label: not a change.
        #expect(CandidateBar.changedWords(old: old, new: [word("found", strokes: ["s1"]), word("bead", strokes: ["s3", "s2"])]).isEmpty)
        // A new block (no previous reading) highlights nothing.
        #expect(CandidateBar.changedWords(old: nil, new: new).isEmpty)
        // Typeset words (no strokes) are compared by place.
        let typed = [word("a", strokes: [], x: 0), word("b", strokes: [], x: 20)]
        #expect(CandidateBar.changedWords(old: typed, new: [word("a", strokes: [], x: 0), word("c", strokes: [], x: 20)]) == [1])
        // Converting in place (same label and box, strokes gone) is not a new reading.
        #expect(CandidateBar.changedWords(old: old, new: old.map { var w = $0; w.strokeIds = []; return w }).isEmpty)
    }

    @Test func barLayoutHitsWordsAndLeavesOutWhatDoesNotFit() {
        let words = (0 ..< 30).map { word("word\($0)", strokes: ["s\($0)"], x: Double($0) * 12) }
        let bar = CandidateBar.layout(blockId: "b1", words: words, changed: [2], selected: 1, scale: 1, maxWidth: 300)
        #expect(bar.width <= 300)
        #expect(!bar.items.isEmpty && bar.items.count < 30)
        #expect(bar.items[1].selected && bar.items[2].changed && !bar.items[0].changed)
        for it in bar.items {
            #expect(bar.item(at: Point(x: it.frame.midX, y: it.frame.midY))?.index == it.index)
            #expect(it.frame.maxX <= bar.width)
        }
        #expect(bar.item(at: Point(x: bar.width + 50, y: 10)) == nil)
        // Empty labels (nothing read) take no room.
        let sparse = CandidateBar.layout(blockId: "b1", words: [word("", strokes: ["a"]), word("ok", strokes: ["b"])], changed: [],
                                         selected: nil, scale: 1, maxWidth: 500)
        #expect(sparse.items.map(\.index) == [1])
    }

    @Test func popupKeyboardSkipsDisabledItemsAndWraps() {
        var menu = OverlayMenu(items: [
            .init(label: "Copy", action: .copy, enabled: true),
            .init(label: "Paste", action: .paste(at: nil), enabled: false),
            .init(label: "Remove", action: .removeBlock(nil), enabled: true),
        ], highlighted: nil, scale: 1, title: "Block")
        menu.move(1)
        #expect(menu.highlighted == 0)
        menu.move(1)
        #expect(menu.highlighted == 2)
        menu.move(1)
        #expect(menu.highlighted == 0)
        menu.move(-1)
        #expect(menu.highlighted == 2)
        // Pointer hits: rows below the title, disabled rows are not hit.
        let f0 = menu.frame(of: 0), f1 = menu.frame(of: 1)
        #expect(menu.item(at: Point(x: f0.midX, y: f0.midY)) == 0)
        #expect(menu.item(at: Point(x: f1.midX, y: f1.midY)) == nil)
        #expect(f0.y >= menu.titleHeight && menu.size.height >= f0.height * 3)
        var none = OverlayMenu(items: [.init(label: "Paste", action: .paste(at: nil), enabled: false)], highlighted: nil, scale: 1, title: "")
        none.move(1)
        #expect(none.highlighted == nil)
    }
}
