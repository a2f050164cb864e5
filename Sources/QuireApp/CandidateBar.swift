import Foundation
import Quire

// The candidates bar ("smart guide") above the active Text block: its layout, and the controller
// that keeps it, in its own child window of the canvas, in step with the editor. The X server
// clips the page's repaints around the window, so drawing ink costs nothing extra while it is
// shown, and the bar is redrawn only when what it shows changes.

/// What the candidates bar shows: the words of one block, laid out left to right, in pixels of
/// the bar's own window.
struct CandidateBar: Equatable {
    struct Item: Equatable {
        /// Index in the block's words (a `WordRef` index).
        var index: Int
        var label: String
        var frame: Rect
        /// Changed by the latest recognition (drawn in another colour for a moment).
        var changed: Bool
        /// The editor's selected word.
        var selected: Bool
        var styles: [String]
        /// Still ink (false once converted to typeset text).
        var ink: Bool
        var candidateCount: Int
    }

    var blockId: String
    var items: [Item]
    var width: Double
    var height: Double
    var scale: Double

    static func height(scale: Double) -> Double { (26 * scale).rounded() }
    static func fontSize(scale: Double) -> Double { 13 * scale }

    /// Lays out a block's words; `maxWidth` is the room on screen (words past it are left out).
    static func layout(blockId: String, words: [RecognizedWord], changed: Set<Int>, selected: Int?,
                       scale: Double, maxWidth: Double) -> CandidateBar {
        let pad = 6 * scale, gap = 4 * scale, h = height(scale: scale)
        var x = pad
        var items: [Item] = []
        for (i, w) in words.enumerated() where !w.chosenLabel.isEmpty {
            let tw = OverlayPainter.textWidth(w.chosenLabel, size: fontSize(scale: scale)) + 12 * scale
            if x + tw + pad > maxWidth, !items.isEmpty { break }
            items.append(Item(index: i, label: w.chosenLabel, frame: Rect(x: x, y: 3 * scale, width: tw, height: h - 6 * scale),
                              changed: changed.contains(i), selected: selected == i, styles: w.styles,
                              ink: !w.strokeIds.isEmpty, candidateCount: w.candidates.count))
            x += tw + gap
        }
        return CandidateBar(blockId: blockId, items: items, width: min(maxWidth, max(x - gap + pad, 40 * scale)), height: h, scale: scale)
    }

    /// The word under a point of the bar (a little slack for fingers).
    func item(at p: Point) -> Item? {
        items.first { $0.frame.insetBy(dx: -2 * scale, dy: -3 * scale).contains(p) }
    }

    /// Indices of the words that differ from the previous reading of the same block: a word is
    /// unchanged when the previous reading read the same (chosen label) for the same strokes, or at the same
    /// place (a word converted in place keeps its box and loses its strokes, but reads the same).
    static func changedWords(old: [RecognizedWord]?, new: [RecognizedWord]) -> Set<Int> {
        guard let old else { return [] }
        var before = Set<String>()
        for w in old {
            if !w.strokeIds.isEmpty { before.insert(strokesKey(w)) }
            before.insert(boxKey(w))
        }
        var out = Set<Int>()
        for (i, w) in new.enumerated() {
            let same = (!w.strokeIds.isEmpty && before.contains(strokesKey(w))) || before.contains(boxKey(w))
            if !same { out.insert(i) }
        }
        return out
    }

    private static func strokesKey(_ w: RecognizedWord) -> String { w.chosenLabel + "|s:" + w.strokeIds.sorted().joined(separator: ",") }
    private static func boxKey(_ w: RecognizedWord) -> String {
        let b = w.box
        return w.chosenLabel + "|b:" + [b.x, b.y, b.width, b.height].map { String(Int(($0 * 100).rounded())) }.joined(separator: ",")
    }

    func draw(on s: CairoSurface, theme: Theme) {
        let looks = items.map {
            OverlayBarItem(label: $0.label, frame: $0.frame, selected: $0.selected, changed: $0.changed,
                           underline: $0.styles.contains("underline"), surround: $0.styles.contains("surround"))
        }
        OverlayPainter.drawCandidateBar(on: s, width: width, height: height, scale: scale, items: looks,
                                        fontSize: Self.fontSize(scale: scale), theme: theme)
    }
}
