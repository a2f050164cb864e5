import Foundation
import InkModel

/// Join, split and slice: gestures that move content rather than remove or decorate it.
extension Editor {
    /// Something on a text line that moves as a whole: an ink stroke or a typeset word.
    private struct LineItem {
        var box: Rect
        var strokeId: String?
        var wordIndex: Int?
    }

    /// Band (line) index of a y in a block: band k lies between baselines k and k + 1 (band 0 is
    /// above the first baseline).
    private func band(_ y: Double, top: Double) -> Int { Int(((y - top) / guideSpacing).rounded(.down)) }

    /// The band of a typeset word: the guide its glyphs sit on (rounded to the nearest
    /// baseline, so descenders do not push it a line down).
    private func wordBand(_ w: RecognizedWord, in b: BlockData, top: Double) -> Int {
        Int(((wordBaseline(w, in: b) - top) / guideSpacing).rounded()) - 1
    }

    /// The band of a stroke: where its middle sample lies by height (dots, descenders and
    /// ascenders stay with their letters).
    private func strokeBand(_ s: InkStroke, top: Double) -> Int {
        guard s.count > 0 else { return 0 }
        var ys = (0..<s.count).map { s[$0].y }
        ys.sort()
        return band(ys[ys.count / 2], top: top)
    }

    private func lineItems(_ b: BlockData, model m: PartModel) -> [Int: [LineItem]] {
        let top = b.box.isEmpty ? 0 : b.box.y
        var out: [Int: [LineItem]] = [:]
        for s in m.strokes(inBlock: b.id) { out[strokeBand(s, top: top), default: []].append(LineItem(box: s.bounds, strokeId: s.id)) }
        for (i, w) in b.words.enumerated() where w.isTypesetInPlace {
            out[wordBand(w, in: b, top: top), default: []].append(LineItem(box: w.box, wordIndex: i))
        }
        return out
    }

    /// Join (an upward line in a gap: close the gap, or pull the line up behind the previous
    /// one) and split (a downward line: through a word splits it, in a gap breaks the line).
    func spaceChanges(_ g: inout Gesture, block b: BlockData, units: [GestureUnit], model m: PartModel) -> Transaction? {
        let lh = guideSpacing
        let top = b.box.isEmpty ? 0 : b.box.y
        let x = g.box.midX
        let line = band(g.box.midY, top: top)
        let lines = lineItems(b, model: m)
        let items = lines[line] ?? []
        guard !items.isEmpty else { return nil }
        var moves: [String: (dx: Double, dy: Double)] = [:]     // stroke id -> offset
        var wordMoves: [Int: (dx: Double, dy: Double)] = [:]    // typeset word index -> offset
        var nb = b
        var cuts: [(InkStroke, [InkStroke])] = []
        func move(_ it: LineItem, _ dx: Double, _ dy: Double) {
            if let id = it.strokeId { moves[id] = (dx, dy) }
            if let w = it.wordIndex { wordMoves[w] = (dx, dy) }
        }
        let left = items.filter { $0.box.midX < x }, right = items.filter { $0.box.midX >= x }
        if g.kind == .join {
            if !left.isEmpty, !right.isEmpty {
                let gap = right.map(\.box.x).min()! - left.map(\.box.maxX).max()!
                guard gap > lh * 0.05 else { return nil }
                let dx = -(gap - lh * 0.03)
                for it in right { move(it, dx, 0) }
                // The ink either side of the gap reads as one word from now on (see joinHinted).
                let l = left.filter { $0.strokeId != nil }.max { $0.box.maxX < $1.box.maxX }?.strokeId
                let r = right.filter { $0.strokeId != nil }.min { $0.box.x < $1.box.x }?.strokeId
                if let l, let r {
                    let pairs = (b.properties["quire.join"] ?? "").split(separator: " ").map(String.init) + ["\(l):\(r)"]
                    nb.properties["quire.join"] = pairs.suffix(200).joined(separator: " ")
                }
                // Two typeset words side by side become one word.
                let lw = left.filter { $0.wordIndex != nil }.max { $0.box.maxX < $1.box.maxX }
                let rw = right.filter { $0.wordIndex != nil }.min { $0.box.x < $1.box.x }
                if let li = lw?.wordIndex, let ri = rw?.wordIndex,
                   lw!.box.maxX >= left.map(\.box.maxX).max()!, rw!.box.x <= right.map(\.box.x).min()! {
                    let a = b.words[li], c = b.words[ri]
                    let label = a.chosenLabel + c.chosenLabel
                    var joined = a
                    joined.label = label
                    joined.candidates = [Candidate(label: label, score: 1)]
                    joined.selected = 0
                    joined.box = a.box.union(c.box.offsetBy(dx: dx, dy: 0))
                    joined.chars = a.chars + c.chars.map { var ch = $0; ch.box = ch.box.offsetBy(dx: dx, dy: 0); return ch }
                    joined.styles = Array(Set(a.styles).intersection(c.styles)).sorted()
                    nb.words[li] = joined
                    nb.words[ri].label = ""   // removed below
                    wordMoves[ri] = nil
                    g.words = [WordRef(blockId: b.id, index: li), WordRef(blockId: b.id, index: ri)]
                }
            } else if left.isEmpty, let prevLine = lines.keys.filter({ $0 < line }).max(), let prev = lines[prevLine] {
                // At the start of a line: it moves up behind the previous line, the rest follows.
                let end = prev.map(\.box.maxX).max()!
                let dx = end + lh * 0.4 - items.map(\.box.x).min()!
                let dy = Double(prevLine - line) * lh
                for it in items { move(it, dx, dy) }
                for (k, its) in lines where k > line { for it in its { move(it, 0, dy) } }
            } else {
                return nil
            }
        } else {
            let space = lh * 0.4
            // Through a word (as the classifier saw it: a recognized word, typeset word or cluster
            // of ink) splits it; elsewhere on the line it breaks the line.
            let gy = g.box
            let throughWord = units.contains { u in
                u.box.x + 0.15 * u.box.width < x && x < u.box.maxX - 0.15 * u.box.width
                    && min(gy.maxY, u.box.maxY) - max(gy.y, u.box.y) > 0.5 * u.box.height
            }
            if throughWord {
                // What lies right of the line moves right by a space; a stroke across it (cursive)
                // is cut there and its right part moves.
                let spans = items.filter { $0.box.x < x - 0.2 && $0.box.maxX > x + 0.2 }
                let spanning = Set(spans.compactMap(\.strokeId))
                for it in right where it.strokeId.map({ !spanning.contains($0) }) ?? true { move(it, space, 0) }
                for it in spans {
                    if let id = it.strokeId, let s = m.strokes[id] {
                        // A stroke across the cut (cursive) is cut there: its right part moves.
                        var pieces: [InkStroke] = []
                        var start = 0
                        for i in 1...s.count {
                            if i == s.count || (s[i].x >= x) != (s[start].x >= x) {
                                if i - start >= 2 {
                                    var piece = s.slice(start..<i, id: m.makeStrokeId())
                                    piece.seq = s.seq
                                    if s[start].x >= x { piece = piece.translated(dx: space, dy: 0) }
                                    pieces.append(piece)
                                }
                                start = i
                            }
                        }
                        moves[id] = nil
                        cuts.append((s, pieces))
                    } else if let wi = it.wordIndex {
                        let w = b.words[wi]
                        let label = Array(w.chosenLabel)
                        guard label.count >= 2 else { continue }
                        var n = w.chars.count == label.count && w.chars.allSatisfy({ !$0.box.isEmpty })
                            ? w.chars.filter { $0.box.midX < x }.count
                            : Int((Double(label.count) * (x - w.box.x) / w.box.width).rounded())
                        n = min(label.count - 1, max(1, n))
                        var a = w, c = w
                        a.label = String(label[..<n]); a.candidates = [Candidate(label: a.label, score: 1)]; a.selected = 0
                        c.label = String(label[n...]); c.candidates = [Candidate(label: c.label, score: 1)]; c.selected = 0
                        a.box = Rect(x: w.box.x, y: w.box.y, width: x - w.box.x, height: w.box.height)
                        c.box = Rect(x: x + space, y: w.box.y, width: w.box.maxX - x, height: w.box.height)
                        if w.chars.count == label.count {
                            a.chars = Array(w.chars[..<n])
                            c.chars = w.chars[n...].map { var ch = $0; ch.box = ch.box.offsetBy(dx: space, dy: 0); return ch }
                        } else { a.chars = []; c.chars = [] }
                        nb.words[wi] = a
                        nb.words.append(c)
                        wordMoves[wi] = nil
                    }
                }
            } else {
                // In a gap: a line break. Lines below move down one line, then the words right
                // of the gap start the next line at the line's left edge.
                guard !right.isEmpty else { return nil }
                let lineStart = items.map(\.box.x).min()!
                let dx = lineStart - right.map(\.box.x).min()!
                for (k, its) in lines where k > line { for it in its { move(it, 0, lh) } }
                for it in right { move(it, dx, lh) }
            }
        }
        guard !moves.isEmpty || !wordMoves.isEmpty || !cuts.isEmpty || nb != b else { return nil }
        if g.kind == .split, let v = nb.properties["quire.join"] {
            // A split undoes the joins it cuts through: one side moves, the other stays.
            let cut = Set(cuts.map(\.0.id))
            let kept = v.split(separator: " ").filter { p in
                let ids = p.split(separator: ":").map(String.init)
                guard ids.count == 2 else { return false }
                let moved = ids.map { moves[$0] != nil || cut.contains($0) }
                return moved[0] == moved[1] && !cut.contains(ids[0])
            }
            nb.properties["quire.join"] = kept.isEmpty ? nil : kept.joined(separator: " ")
        }
        var t = Transaction()
        var extent = Rect.zero
        for (id, d) in moves.sorted(by: { $0.key < $1.key }) {
            guard let s = m.strokes[id] else { continue }
            let n = s.translated(dx: d.dx, dy: d.dy)
            t.changes.append(.stroke(old: s, new: n))
            extent = extent.union(n.bounds)
        }
        for (s, pieces) in cuts {
            t.changes.append(.stroke(old: s, new: nil))
            for p in pieces { t.changes.append(.stroke(old: nil, new: p)); extent = extent.union(p.bounds) }
        }
        for (i, d) in wordMoves {
            nb.words[i].box = nb.words[i].box.offsetBy(dx: d.dx, dy: d.dy)
            nb.words[i].chars = nb.words[i].chars.map { var c = $0; c.box = c.box.offsetBy(dx: d.dx, dy: d.dy); return c }
            extent = extent.union(nb.words[i].box)
        }
        nb.words.removeAll { $0.isTypesetInPlace && $0.label.isEmpty }
        // Typeset words are read by line number: number them by the guide they now sit on.
        for i in nb.words.indices where nb.words[i].isTypesetInPlace { nb.words[i].line = wordBand(nb.words[i], in: b, top: top) }
        if !b.box.isEmpty, extent != .zero {
            let grown = nb.box.union(extent)
            let bottom = ((grown.maxY - top) / lh).rounded(.up) * lh + top
            nb.box = Rect(x: b.box.x, y: b.box.y, width: max(b.box.width, grown.maxX - b.box.x), height: max(b.box.height, bottom - top))
        }
        if nb != b { t.changes.append(.block(old: b, new: nb)) }
        if g.words.isEmpty { g.words = wordMoves.keys.sorted().map { WordRef(blockId: b.id, index: $0) } }
        g.strokeIds = moves.keys.sorted() + cuts.map(\.0.id)
        return t
    }

    /// Slice across the page between blocks of a Text Document: drawn left to right it opens two
    /// lines of space below it (the blocks below move down); right to left it closes up to two
    /// lines of the empty space below it.
    func sliceChanges(_ g: inout Gesture, model m: PartModel) -> Transaction? {
        guard m.kind == .textDocument else { return nil }
        let y = g.box.midY
        let kids = m.root.childIds.compactMap { m.blocks[$0] }
        let below = kids.filter { $0.box.y >= y }
        guard !below.isEmpty else { return nil }
        let opening = (g.samples.last?.x ?? 0) >= (g.samples.first?.x ?? 0)
        var dy = 2 * guideSpacing
        if !opening {
            let gap = blockSpacing
            let above = kids.filter { $0.box.y < y }.map(\.box.maxY).max() ?? 0
            let free = below.map(\.box.y).min()! - max(above + gap, 0)
            guard free > 0.01 else { return nil }
            dy = -min(free, dy)
        }
        var t = Transaction()
        for b in below { t.changes += Self.moveChanges(b, to: b.box.offsetBy(dx: 0, dy: dy)) }
        g.strokeIds = []
        g.words = []
        return t
    }
}
