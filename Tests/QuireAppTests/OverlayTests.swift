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

    /// The custom colour chooser: twelve hues at five lightnesses and twelve greys, all distinct
    /// colours a stroke may store, laid out as a grid of pen-sized cells where a tap picks its cell.
    @Test func colourGridIsAGridOfDistinctColours() {
        let pen = PenPalette.gridColors(tool: .pen), marker = PenPalette.gridColors(tool: .highlighter)
        #expect(pen.count == 72 && Set(pen.map(\.color)).count == 72)
        #expect(pen.allSatisfy { PenPalette.isColor($0.color) && $0.color.count == 7 })
        #expect(marker.allSatisfy { PenPalette.isColor($0.color) && $0.color.hasSuffix("80") }, "marker colours are translucent")
        #expect(pen[24].color == "#ec1313" && pen[28].color == "#13ec13" && pen[32].color == "#1313ec", "red, green, blue hues at 50 %")
        #expect(pen[60].color == "#000000" && pen[71].color == "#ffffff")
        let menu = OverlayMenu(items: PenPalette.gridItems(tool: .pen, current: pen[13].color), highlighted: nil, scale: 1,
                               title: "Custom colour", columns: PenPalette.gridColumns)
        #expect(menu.items.filter(\.current).map(\.label) == [pen[13].name])
        #expect(menu.cellSize >= 32)
        #expect(menu.size.width == 12 * menu.cellSize + 8 && menu.size.height == menu.titleHeight + 6 * menu.cellSize + 8)
        for i in [0, 13, 35, 71] {
            let f = menu.frame(of: i)
            #expect(menu.item(at: Point(x: f.midX, y: f.midY)) == i)
        }
        #expect(menu.frame(of: 13).x == menu.frame(of: 1).x && menu.frame(of: 13).y == menu.frame(of: 1).y + menu.cellSize)
    }

    /// The palette shows each colour's swatch, and offers the chooser.
    @Test func paletteItemsCarryTheirSwatches() {
        let items = PenPalette.menuItems(tool: .pen, style: (color: "#336699", width: 0.6), theme: .default, custom: "#336699")
        let colours = items.filter { $0.swatch != nil }
        #expect(colours.map(\.label).suffix(2) == ["Orange", "Custom #336699"])
        #expect(colours.allSatisfy { $0.action == .penStyle(color: $0.swatch, width: nil) })
        #expect(colours.filter(\.current).map(\.label) == ["Custom #336699"])
        #expect(items.contains { $0.action == .colourGrid(at: nil) })
    }
}
