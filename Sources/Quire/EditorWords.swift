import Foundation
import InkModel

/// One word of a block: the block's id and the word's index in `ContentBlock.words`.
/// Indices change when the block's words change (recognition, gestures, undo); take a fresh
/// reference from `hitWord(at:)` or the block's words after a `contentChanged`.
public struct WordRef: Hashable, Sendable, CustomStringConvertible {
    public var blockId: String
    public var index: Int
    public init(blockId: String, index: Int) { self.blockId = blockId; self.index = index }
    public var description: String { "\(blockId)#\(index)" }
}

extension Editor {
    func word(_ ref: WordRef, model m: PartModel) throws -> (BlockData, RecognizedWord) {
        guard let b = m.blocks[ref.blockId] else { throw QuireError(.invalidBlock, "no block '\(ref.blockId)'") }
        guard b.words.indices.contains(ref.index) else {
            throw QuireError(.invalidArgument, "block '\(ref.blockId)' has no word \(ref.index) (it has \(b.words.count))")
        }
        return (b, b.words[ref.index])
    }

    /// The word under a point in view pixels (a recognized ink word or a typeset word placed on
    /// the page), top-most block first; nil when there is none.
    public func hitWord(at point: Point) -> WordRef? {
        syncTextLayout()
        guard let m = attached?.model, point.x.isFinite, point.y.isFinite else { return nil }
        let p = toModel(point.x, point.y)
        // A little slack: a finger or pen tip rarely lands inside a word's tight ink box.
        let slack = max(0.8, 6 / viewTransform.scale)
        var ids = m.root.childIds.reversed().map { $0 }
        ids.append(m.rootId)
        var best: (WordRef, Double)?
        for id in ids {
            guard let b = m.blocks[id], b.box.isEmpty || b.box.insetBy(dx: -slack, dy: -slack).contains(p) else { continue }
            for (i, w) in b.words.enumerated() where !w.box.isEmpty && w.box.insetBy(dx: -slack, dy: -slack).contains(p) {
                let d = hypot(p.x - w.box.midX, p.y - w.box.midY)
                if best == nil || d < best!.1 { best = (WordRef(blockId: id, index: i), d) }
            }
            if best != nil { return best!.0 }
        }
        return nil
    }

    /// The candidates of a word, best first as the recognizer ranked them.
    public func candidates(_ word: WordRef) throws -> [Candidate] {
        try self.word(word, model: try requirePart()).1.candidates
    }

    /// Picks another candidate for a word: its label, the block's text and every export change;
    /// the ink does not. One undoable step. The choice survives later re-recognition of the
    /// block as long as the word keeps the same strokes. In typed or published text the word is
    /// replaced in the text.
    public func selectCandidate(_ word: WordRef, candidateIndex: Int) throws {
        let m = try requirePart()
        let (b, w) = try self.word(word, model: m)
        guard w.candidates.indices.contains(candidateIndex) else {
            throw QuireError(.invalidArgument, "word \(word) has no candidate \(candidateIndex) (it has \(w.candidates.count))")
        }
        if let text = b.text { return try selectTextCandidate(word, candidateIndex, block: b, text: text) }
        var nb = b
        nb.words[word.index].selected = candidateIndex
        nb.words[word.index].label = w.candidates[candidateIndex].label
        guard nb != b else { return }
        commit(Transaction(changes: [.block(old: b, new: nb)]), affecting: [b.id])
    }

    /// The word chosen by a touch tap (or set by the application), nil when none.
    public var selectedWord: WordRef? {
        get { wordSelection }
        set {
            guard newValue != wordSelection else { return }
            if let w = newValue, let m = attached?.model, (try? word(w, model: m)) == nil { return }
            selectWord(newValue)
            renderer?.invalidate(nil)
        }
    }

    /// Converts one recognized word in place (digitalEdit: typeset at its ink's place and size;
    /// its strokes go). The rest of the block stays ink. One undoable step.
    public func convert(_ word: WordRef, targetState: ConversionState) throws {
        let m = try requirePart()
        _ = try self.word(word, model: m)
        guard targetState != .handwriting else { return }
        guard targetState == .digitalEdit else {
            throw QuireError(.invalidArgument, "a single word converts in place (digitalEdit); convert its block to publish it")
        }
        try waitForIdle()
        // Recognition may have renumbered the words: find the word again by its strokes.
        let (b, w) = try self.word(word, model: m)
        guard !w.strokeIds.isEmpty else { return }
        var t = Transaction()
        var nb = b
        nb.words[word.index] = Self.typeset(w)
        nb = laidOut(nb, fresh: [word.index])
        if nb.conversion == ConversionState.handwriting.rawValue { nb.conversion = ConversionState.digitalEdit.rawValue }
        for id in w.strokeIds { if let s = m.strokes[id] { t.changes.append(.stroke(old: s, new: nil)) } }
        t.changes.append(.block(old: b, new: nb))
        commit(t, affecting: [b.id])
    }

    /// A word turned into typeset text at its place: its ink references go, the rest stays.
    static func typeset(_ w: RecognizedWord) -> RecognizedWord {
        var w = w
        w.strokeIds = []
        w.chars = w.chars.map { var c = $0; c.strokeIds = []; return c }
        return w
    }

    /// New recognition results for a block, merged with what the block holds: typeset words stay
    /// (recognition reads only the ink), a word read from the same strokes as before keeps the
    /// candidate the user picked, and gesture styles stay on the words holding the styled strokes.
    /// Words under highlighter ink (`highlights`) get the "highlight" style; the others lose it.
    static func merge(recognized found: [RecognizedWord], into b: BlockData, strokeBounds: (String) -> Rect? = { _ in nil },
                      highlights: [Rect] = []) -> [RecognizedWord] {
        let new = joinHinted(found.map { tightened($0, strokeBounds) }, b)
        var byStrokes: [Set<String>: RecognizedWord] = [:]
        var styleOfStroke: [String: Set<String>] = [:]
        for w in b.words where !w.strokeIds.isEmpty {
            byStrokes[Set(w.strokeIds)] = w
            for s in w.strokeIds { styleOfStroke[s, default: []].formUnion(w.styles) }
        }
        // Styles given to ink before it was recognized are kept on the block (see gestures).
        for (style, ids) in pendingStyles(b) { for s in ids { styleOfStroke[s, default: []].insert(style) } }
        var out = b.words.filter(\.isTypesetInPlace)
        for var w in new {
            if let old = byStrokes[Set(w.strokeIds)], old.selected != 0 || old.label != old.candidates.first?.label {
                let chosen = old.chosenLabel
                if let i = w.candidates.firstIndex(where: { $0.label == chosen }) {
                    w.selected = i
                } else {
                    // Added last and selected there, not first: a choice at index 0 would read as
                    // the recognizer's own, and the next reading of the block would drop it.
                    w.candidates.append(Candidate(label: chosen, score: old.candidates.indices.contains(old.selected) ? old.candidates[old.selected].score : 0))
                    w.selected = w.candidates.count - 1
                }
                w.label = chosen
            }
            var styles = Set<String>()
            for s in w.strokeIds { styles.formUnion(styleOfStroke[s] ?? []) }
            w.styles = ["underline", "surround"].filter { styles.contains($0) }
            out.append(w)
        }
        return out.map { highlighted($0, highlights) }
    }

    /// The styles words carry, in the order a word lists them.
    static let wordStyles = ["underline", "surround", "highlight"]

    /// A word with the "highlight" style when highlighter ink covers at least half its width at
    /// its middle height, and without it otherwise.
    static func highlighted(_ w: RecognizedWord, _ areas: [Rect]) -> RecognizedWord {
        guard !w.box.isEmpty || w.styles.contains("highlight") else { return w }
        let on = !w.box.isEmpty && areas.contains { a in
            a.y <= w.box.midY && a.maxY >= w.box.midY && horizontalCoverage(w.box, a.x, a.maxX) >= 0.5
        }
        var st = Set(w.styles)
        if on { st.insert("highlight") } else { st.remove("highlight") }
        var out = w
        out.styles = wordStyles.filter { st.contains($0) }
        return out
    }

    /// Styles a gesture put on ink that had no recognized word yet: property "quire.style.NAME"
    /// holds the stroke ids, space separated.
    static func pendingStyles(_ b: BlockData) -> [(String, [String])] {
        ["underline", "surround"].compactMap { name in
            guard let v = b.properties["quire.style." + name], !v.isEmpty else { return nil }
            return (name, v.split(separator: " ").map(String.init))
        }
    }

    /// A word's box kept to its ink: a recognizer's alignment may give a word the gap before it
    /// (the space is read with the next letter), which would put taps, gestures and in-place
    /// text beside the word. Chars keep their own boxes.
    static func tightened(_ w: RecognizedWord, _ strokeBounds: (String) -> Rect?) -> RecognizedWord {
        guard !w.box.isEmpty else { return w }
        var ink = Rect.zero
        for id in w.strokeIds { if let r = strokeBounds(id) { ink = ink.union(r) } }
        guard ink != .zero else { return w }
        // Only a box reaching past its ink by more than rounding changes.
        let e = 0.005
        guard w.box.x < ink.x - e || w.box.maxX > ink.maxX + e || w.box.y < ink.y - e || w.box.maxY > ink.maxY + e else { return w }
        let x0 = max(w.box.x, ink.x), x1 = min(w.box.maxX, ink.maxX)
        let y0 = max(w.box.y, ink.y), y1 = min(w.box.maxY, ink.maxY)
        guard x1 > x0, y1 > y0 else { return w }
        var t = w
        t.box = Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        // Characters stay inside their word (the first one had the gap too).
        t.chars = w.chars.map { c in
            guard !c.box.isEmpty else { return c }
            var c = c
            let cx0 = min(max(c.box.x, x0), x1), cx1 = max(min(c.box.maxX, x1), cx0)
            let cy0 = min(max(c.box.y, y0), y1), cy1 = max(min(c.box.maxY, y1), cy0)
            c.box = Rect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0)
            return c
        }
        return t
    }

    /// Join gestures leave pairs of strokes ("quire.join": "left:right ...") that must read as one
    /// word: a recognizer may still see a space in a closed gap. Adjacent words holding the two
    /// strokes of a pair are merged.
    static func joinHinted(_ words: [RecognizedWord], _ b: BlockData) -> [RecognizedWord] {
        guard let v = b.properties["quire.join"], !v.isEmpty, words.count > 1 else { return words }
        let pairs = v.split(separator: " ").compactMap { p -> (String, String)? in
            let parts = p.split(separator: ":")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
        var out = words
        var i = 0
        while i + 1 < out.count {
            let a = out[i], c = out[i + 1]
            let sa = Set(a.strokeIds), sc = Set(c.strokeIds)
            if a.line == c.line, pairs.contains(where: { sa.contains($0.0) && sc.contains($0.1) }) {
                var j = a
                j.label = a.label + c.label
                j.candidates = joinedCandidates(a, c)
                j.selected = j.candidates.firstIndex { $0.label == j.label } ?? 0
                j.box = a.box.union(c.box)
                j.strokeIds = a.strokeIds + c.strokeIds
                j.chars = a.chars + c.chars
                j.styles = Array(Set(a.styles).intersection(c.styles)).sorted()
                out[i] = j
                out.remove(at: i + 1)
            } else {
                i += 1
            }
        }
        return out
    }

    /// Candidates of two words read as one: each pair of their best three, best first. Scores
    /// are log probabilities (`TextRecognizer`), so a pair's score is the sum of its two: the
    /// product of two negative numbers would rank the least likely pair first. A label reached by
    /// two pairs keeps its better score; the pair of the words' chosen labels is always there.
    static func joinedCandidates(_ a: RecognizedWord, _ c: RecognizedWord) -> [Candidate] {
        func score(_ w: RecognizedWord) -> Double { w.candidates.indices.contains(w.selected) ? w.candidates[w.selected].score : 0 }
        var cands = [Candidate(label: a.label + c.label, score: score(a) + score(c))]
        for x in a.candidates.prefix(3) { for y in c.candidates.prefix(3) { cands.append(Candidate(label: x.label + y.label, score: x.score + y.score)) } }
        var seen = Set<String>()
        return cands.sorted { $0.score > $1.score }.filter { seen.insert($0.label).inserted }
    }

    /// Removes one word: its ink, the typeset word, or the word of typed text. One undoable step.
    public func removeWord(_ word: WordRef) throws {
        let m = try requirePart()
        let (b, w) = try self.word(word, model: m)
        var t = Transaction()
        for id in w.strokeIds { if let s = m.strokes[id] { t.changes.append(.stroke(old: s, new: nil)) } }
        var nb = b
        if b.text != nil {
            nb = Self.removingWords([word.index], from: b)
        } else {
            nb.words.remove(at: word.index)
        }
        t.changes.append(.block(old: b, new: nb))
        commit(t, affecting: [b.id])
    }
}
