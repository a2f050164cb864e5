import Foundation
import InkModel
import InkRender

/// Pen gestures and word edits on typed and published text. Such a block's text is what it holds;
/// its words are the text's (`TextLayout.tokens`), placed by the layout. A gesture therefore edits
/// the text (a word, a space or a line break out or in), and the commit lays the words out again.
extension Editor {
    /// The text with words removed: each with the spaces before it (after it when it starts its
    /// line); a word alone on its line takes the line with it. `indices` are token indices.
    static func removing(_ indices: Set<Int>, from text: String) -> String {
        var chars = Array(text)
        let tokens = TextLayout.tokens(chars)
        for i in indices.filter({ tokens.indices.contains($0) }).sorted(by: >) {
            let t = tokens[i]
            // Earlier words are untouched by the removals so far (they lie at or after t.end).
            var lineStart = t.start
            while lineStart > 0, !chars[lineStart - 1].isNewline { lineStart -= 1 }
            var lineEnd = t.end
            while lineEnd < chars.count, !chars[lineEnd].isNewline { lineEnd += 1 }
            var before = t.start
            while before > lineStart, chars[before - 1].isWhitespace { before -= 1 }
            var after = t.end
            while after < lineEnd, chars[after].isWhitespace { after += 1 }
            if before > lineStart {
                chars.removeSubrange(before..<t.end)
            } else if after < lineEnd {
                chars.removeSubrange(t.start..<after)
            } else if lineEnd < chars.count {
                chars.removeSubrange(lineStart..<(lineEnd + 1))
            } else {
                chars.removeSubrange(max(0, lineStart - 1)..<lineEnd)
            }
        }
        return String(chars)
    }

    /// A block without some of its words: typed text loses them from its text; words typeset in
    /// place leave the block's words. Ink words are left alone (their strokes go instead).
    static func removingWords(_ indices: Set<Int>, from b: BlockData) -> BlockData {
        var nb = b
        if let text = b.text {
            nb.text = removing(indices, from: text)
        } else {
            let typeset = indices.filter { b.words.indices.contains($0) && b.words[$0].isTypesetInPlace }
            nb.words = b.words.enumerated().filter { !typeset.contains($0.offset) }.map(\.element)
        }
        return nb
    }

    /// Picks a candidate of a word of typed or published text: the word is replaced in the text.
    func selectTextCandidate(_ ref: WordRef, _ k: Int, block b: BlockData, text: String) throws {
        var chars = Array(text)
        let tokens = TextLayout.tokens(chars)
        guard tokens.count == b.words.count, tokens.indices.contains(ref.index) else {
            throw QuireError(.invalidArgument, "word \(ref) does not match its block's text; take a fresh reference from hitWord")
        }
        let w = b.words[ref.index], label = w.candidates[k].label
        var nb = b
        chars.replaceSubrange(tokens[ref.index].start..<tokens[ref.index].end, with: Array(label))
        nb.text = String(chars)
        nb.words[ref.index].label = label
        nb.words[ref.index].selected = k
        guard nb != b else { return }
        let m = try requirePart()
        commit(Transaction(changes: [.block(old: b, new: nb)]), affecting: [b.id])
        if m.kind == .textDocument { relayout(anchor: b.id, model: m) }
    }

    /// Join and split on typed or published text. Join (upward in a gap): the space between the
    /// two words goes, or, before the first word of a line that follows a line break, the break
    /// becomes a space. Split (downward): through a word, a space goes in between the characters
    /// either side of the line; in a gap, the space becomes a line break (before a line's first
    /// word, an empty line opens above it).
    func textSpaceChanges(_ g: inout Gesture, block b: BlockData, units: [GestureUnit]) -> Transaction? {
        guard let text = b.text else { return nil }
        var chars = Array(text)
        let tokens = TextLayout.tokens(chars)
        guard tokens.count == b.words.count, !tokens.isEmpty, let font = b.textFont, let fm = fontMetricsProvider else { return nil }
        let lh = guideSpacing
        let top = b.box.isEmpty ? 0 : b.box.y
        let ascent = fm.measure("Hg", font: font).ascent
        let x = g.box.midX
        // Band k lies between baselines k and k + 1: the glyphs of a line sit in the band above
        // its baseline. Cells of one line share their top.
        func band(cellTop: Double) -> Int { Int(((cellTop + ascent - top) / lh).rounded()) - 1 }
        let line = Int(((g.box.midY - top) / lh).rounded(.down))
        let onLine = b.words.indices.filter { !b.words[$0].box.isEmpty && band(cellTop: TextLayout.origin(b.words[$0]).top) == line }
        guard !onLine.isEmpty else { return nil }
        let left = onLine.filter { b.words[$0].box.midX < x }, right = onLine.filter { b.words[$0].box.midX >= x }
        func separator(_ a: Int, _ c: Int) -> Range<Int> { tokens[a].end..<tokens[c].start }
        if g.kind == .join {
            if let a = left.max(), let c = right.min() {
                guard c == a + 1 else { return nil }
                chars.removeSubrange(separator(a, c))
                g.words = [a, c].map { WordRef(blockId: b.id, index: $0) }
            } else if left.isEmpty, let c = right.min(), c > 0 {
                // A soft line end (the line was full) has no break to take out.
                let sep = separator(c - 1, c)
                guard chars[sep].contains(where: \.isNewline) else { return nil }
                chars.replaceSubrange(sep, with: [" "])
                g.words = [c - 1, c].map { WordRef(blockId: b.id, index: $0) }
            } else {
                return nil
            }
        } else {
            let gy = g.box
            let throughWord = units.contains { u in
                u.box.x + 0.15 * u.box.width < x && x < u.box.maxX - 0.15 * u.box.width
                    && min(gy.maxY, u.box.maxY) - max(gy.y, u.box.y) > 0.5 * u.box.height
            }
            if throughWord, let i = onLine.first(where: { b.words[$0].box.x < x && x < b.words[$0].box.maxX }) {
                let w = b.words[i], n = tokens[i].end - tokens[i].start
                guard n >= 2 else { return nil }
                // Characters before the line: those on earlier lines, and those left of it on its line.
                let before = w.chars.count == n
                    ? w.chars.filter { c in band(cellTop: c.box.y) < line || (band(cellTop: c.box.y) == line && c.box.midX < x) }.count
                    : Int((Double(n) * (x - w.box.x) / w.box.width).rounded())
                chars.insert(" ", at: tokens[i].start + min(n - 1, max(1, before)))
                g.words = [WordRef(blockId: b.id, index: i)]
            } else {
                guard let c = right.min() else { return nil }
                if let a = left.max() {
                    guard c == a + 1 else { return nil }
                    chars.replaceSubrange(separator(a, c), with: ["\n"])
                } else if c > 0 {
                    let sep = separator(c - 1, c)
                    chars.replaceSubrange(sep, with: chars[sep].contains(where: \.isNewline) ? Array(chars[sep]) + ["\n"] : ["\n", "\n"])
                } else {
                    chars.insert("\n", at: tokens[c].start)
                }
                g.words = [WordRef(blockId: b.id, index: c)]
            }
        }
        var nb = b
        nb.text = String(chars)
        guard nb != b else { return nil }
        g.strokeIds = []
        return Transaction(changes: [.block(old: b, new: nb)])
    }
}
