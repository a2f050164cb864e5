import Foundation
import InkModel
import InkRender

/// The lasso selection and what can be done with it: move, resize, rotate, delete, recolour and
/// convert, each one undoable step, in every part type. A selection is blocks (whole, with their
/// descendants and ink) and strokes (loose ink: a few words of a paragraph, part of a drawing).
/// Copy, cut and paste are in `SelectionClipboard.swift`.
extension Editor {
    /// True when blocks or strokes are selected.
    public var hasSelection: Bool { !selection.isEmpty || !selectedStrokes.isEmpty }

    /// Selects blocks and strokes of the attached part (unknown ids and the root are ignored), as
    /// the lasso does: the selection is drawn with its frame and handles.
    public func setSelection(blocks: Set<String>, strokes: Set<String>) {
        guard let m = attached?.model else { return }
        let b = blocks.filter { m.blocks[$0] != nil && $0 != m.rootId }
        let s = strokes.filter { m.strokes[$0] != nil }
        // Recorded, so a replayed cut or recolour acts on the same ink (a lasso drawn with a
        // pointer replays to the same selection too; the record then repeats it harmlessly).
        recorder?.view(["e": .string("select"), "blocks": .array(b.sorted().map { .string($0) }),
                        "strokes": .array(s.sorted().map { .string($0) })])
        select(blocks: b, strokes: s, framed: true)
        renderer?.invalidate(nil)
    }

    /// Selects what a closed lasso (view pixels) surrounds: each stroke and child block whose
    /// middle is inside it. Fewer than three points select nothing. Returns whether anything
    /// was selected.
    @discardableResult
    public func select(lasso: [Point]) -> Bool {
        guard let m = attached?.model else { return false }
        let pts = lasso.filter { $0.x.isFinite && $0.y.isFinite }.map { toModel($0.x, $0.y) }
        guard pts.count >= 3 else { setSelection(blocks: [], strokes: []); return false }
        let area = pts.dropFirst().reduce(Rect(x: pts[0].x, y: pts[0].y, width: 0, height: 0)) {
            $0.union(Rect(x: $1.x, y: $1.y, width: 0.001, height: 0.001))
        }
        let loop = pts.map { InkSample(x: $0.x, y: $0.y, t: 0, f: 0) }
        let strokes = strokeCandidates(area).filter { id in
            guard let s = m.strokes[id] else { return false }
            return GestureClassifier.contains(loop, Point(x: s.bounds.midX, y: s.bounds.midY))
        }
        let blocks = m.root.childIds.filter { id in
            guard let b = m.blocks[id], !b.box.isEmpty else { return false }
            return GestureClassifier.contains(loop, Point(x: b.box.midX, y: b.box.midY))
        }
        setSelection(blocks: Set(blocks), strokes: Set(strokes))
        return hasSelection
    }

    /// The selected blocks that no selected block holds, and the selected strokes outside them:
    /// what a selection action acts on, each thing once.
    func selectionItems(_ m: PartModel) -> (blocks: [BlockData], strokes: [InkStroke]) {
        var covered = Set<String>()
        var tops: [BlockData] = []
        for b in m.blocksInTreeOrder() where selection.contains(b.id) && b.id != m.rootId {
            var up = b.parentId, nested = false
            while let p = up { if selection.contains(p) { nested = true; break }; up = m.blocks[p]?.parentId }
            if !nested { tops.append(b) }
            covered.insert(b.id)
        }
        for t in tops { for id in subtree(t.id, m) { covered.insert(id) } }
        let strokes = selectedStrokes.compactMap { m.strokes[$0] }
            .filter { !covered.contains($0.blockId ?? m.rootId) }
            .sorted { ($0.seq, $0.id) < ($1.seq, $1.id) }
        return (tops, strokes)
    }

    /// A block and its descendants, parents first.
    func subtree(_ id: String, _ m: PartModel) -> [String] {
        var out: [String] = [], stack = [id], seen = Set<String>()
        while let x = stack.popLast() {
            guard seen.insert(x).inserted, let b = m.blocks[x] else { continue }
            out.append(x)
            stack.append(contentsOf: b.childIds.reversed())
        }
        return out
    }

    /// Extent of the selection in model millimetres (ink, block boxes, placed words); nil when
    /// nothing is selected.
    public var selectionBounds: Rect? {
        guard let m = attached?.model else { return nil }
        let (blocks, strokes) = selectionItems(m)
        var r: Rect?
        func add(_ e: Rect) { r = r.map { $0.union(e) } ?? e }
        for s in strokes { add(s.bounds) }
        for t in blocks {
            for id in subtree(t.id, m) {
                guard let b = m.blocks[id] else { continue }
                if !b.box.isEmpty { add(b.box) }
                if let e = m.inkExtent(inBlock: id) { add(e) }
            }
        }
        return r
    }

    /// The frame drawn around a lasso selection, view pixels.
    var selectionFrame: SelectionFrame? {
        guard selectionFramed, let r = selectionBounds else { return nil }
        return SelectionFrame(extent: viewTransform.apply(r))
    }

    /// "#rrggbb" or "#rrggbbaa", the colours a stroke stores.
    static func isInkColor(_ c: String) -> Bool {
        (c.count == 7 || c.count == 9) && c.first == "#" && c.dropFirst().allSatisfy(\.isHexDigit)
    }

    // MARK: actions

    /// Moves the selection by model millimetres (rounded to 1/100 mm, the unit ink is stored in);
    /// it stops at the page's top and left edges. Loose ink in a Text Document joins the block
    /// it lands in (one that grows to hold it), else a new Text block. One undoable step.
    public func moveSelection(dx: Double, dy: Double) throws {
        guard dx.isFinite, dy.isFinite, abs(dx) < 1e6, abs(dy) < 1e6 else {
            throw QuireError(.invalidArgument, "moveSelection: offset must be finite and under 1 km (got \(dx), \(dy))")
        }
        try transformSelection(Transform(a: 1, d: 1, tx: dx, ty: dy), what: "moveSelection")
    }

    /// Resizes the selection by `factor` about `anchor` (model millimetres; nil: the selection's
    /// top-left corner), ink, boxes and placed words alike; stroke widths stay. One undoable step.
    public func scaleSelection(by factor: Double, anchor: Point? = nil) throws {
        guard factor.isFinite, factor >= 0.01, factor <= 100 else {
            throw QuireError(.invalidArgument, "scaleSelection: factor must be within 0.01...100 (got \(factor))")
        }
        guard let r = selectionBounds else { throw QuireError(.unsupportedOperation, "scaleSelection: nothing is selected") }
        let a = anchor ?? Point(x: r.x, y: r.y)
        guard a.x.isFinite, a.y.isFinite else { throw QuireError(.invalidArgument, "scaleSelection: anchor must be finite") }
        try transformSelection(Transform(a: factor, d: factor, tx: a.x - factor * a.x, ty: a.y - factor * a.y), what: "scaleSelection")
    }

    /// Rotates the selection's ink by `radians` (clockwise on screen) about `center` (model
    /// millimetres; nil: the selection's middle). Blocks keep their size and turn about their
    /// middles; their ink is read again. One undoable step.
    public func rotateSelection(by radians: Double, center: Point? = nil) throws {
        guard radians.isFinite else { throw QuireError(.invalidArgument, "rotateSelection: angle must be finite") }
        guard let r = selectionBounds else { throw QuireError(.unsupportedOperation, "rotateSelection: nothing is selected") }
        let c = center ?? Point(x: r.midX, y: r.midY)
        guard c.x.isFinite, c.y.isFinite else { throw QuireError(.invalidArgument, "rotateSelection: center must be finite") }
        let cs = cos(radians), sn = sin(radians)
        try transformSelection(Transform(a: cs, b: sn, c: -sn, d: cs, tx: c.x - cs * c.x + sn * c.y, ty: c.y - sn * c.x - cs * c.y),
                               what: "rotateSelection")
    }

    /// Applies a transform to the selection as one step, and keeps it selected.
    func transformSelection(_ t: Transform, what: String) throws {
        let m = try requirePart()
        guard hasSelection else { throw QuireError(.unsupportedOperation, "\(what): nothing is selected") }
        cancelActivePointers()
        let t = keptOnPage(t, model: m)
        let (changes, affected) = try selectionTransformChanges(t, model: m, rehome: true)
        guard !changes.isEmpty else { return }
        let keep = (selection, selectedStrokes)
        commit(Transaction(changes: changes), affecting: affected)
        if m.kind == .textDocument { relayout(anchor: keep.0.first, model: m) }
        select(blocks: keep.0.filter { m.blocks[$0] != nil }, strokes: keep.1.filter { m.strokes[$0] != nil }, framed: true)
    }

    /// `t` followed by the shift that keeps the result off negative coordinates (the page
    /// starts at 0, 0 and a package holds no box before it).
    func keptOnPage(_ t: Transform, model m: PartModel) -> Transform {
        guard let r = selectionBounds else { return t }
        let moved = SelectionGeometry.box(r, t)
        var out = t
        if moved.x < 0 { out.tx -= moved.x }
        if moved.y < 0 { out.ty -= moved.y }
        return out
    }

    /// The changes that apply `t` to the selection, and the blocks whose ink they change.
    /// `rehome`: loose ink of a Text Document moves into the block it lands in (false while a
    /// drag previews the move).
    func selectionTransformChanges(_ t: Transform, model m: PartModel, rehome: Bool) throws -> ([Change], [String]) {
        let (blocks, strokes) = selectionItems(m)
        let translation = t.a == 1 && t.b == 0 && t.c == 0 && t.d == 1
        var changes: [Change] = []
        var affected: [String] = []
        for top in blocks {
            for id in subtree(top.id, m) {
                guard let b = m.blocks[id] else { continue }
                affected.append(id)
                if translation {
                    changes += Self.moveChanges(b, to: b.box.offsetBy(dx: t.tx, dy: t.ty))
                    continue
                }
                var ink = Rect.zero
                for s in m.strokes(inBlock: id) {
                    let n = SelectionGeometry.stroke(s, t)
                    ink = ink.union(n.bounds)
                    changes.append(.stroke(old: s, new: n))
                }
                var nb = SelectionGeometry.block(b, t)
                if nb.kind == .text, !nb.box.isEmpty, ink != .zero { nb.box = nb.box.union(ink) }
                if let p = nb.boxProblem { throw QuireError(.invalidArgument, "cannot transform the selection: \(p)") }
                if nb != b { changes.append(.block(old: b, new: nb)) }
            }
        }
        var moved = strokes.map { translation ? $0.translated(dx: t.tx, dy: t.ty) : SelectionGeometry.stroke($0, t) }
        for s in strokes { affected.append(s.blockId ?? m.rootId) }
        var extra: [Change] = []
        if rehome, m.kind == .textDocument, !moved.isEmpty {
            let skip = Set(blocks.flatMap { subtree($0.id, m) })
            extra = placeLoose(&moved, skipping: skip, model: m)
            affected += moved.compactMap(\.blockId)
        }
        for (old, new) in zip(strokes, moved) { changes.append(.stroke(old: old, new: new)) }
        return (changes + extra, affected)
    }

    /// Loose ink moved in a Text Document joins the block under its middle (a Text block grows to
    /// hold it); what lands on no block goes into one new Text block together.
    func placeLoose(_ strokes: inout [InkStroke], skipping: Set<String>, model m: PartModel) -> [Change] {
        var grown: [String: BlockData] = [:]
        var orphans: [Int] = []
        for i in strokes.indices {
            let r = strokes[i].bounds
            let hit = topBlock(atModel: Point(x: r.midX, y: r.midY), model: m)
            guard let hit, !skipping.contains(hit.id) else { orphans.append(i); continue }
            strokes[i].blockId = hit.id
            if hit.kind == .text {
                var b = grown[hit.id] ?? hit
                b.box = Self.textBox(b.box, holding: r, spacing: guideSpacing)
                grown[hit.id] = b
            }
        }
        var out: [Change] = grown.keys.sorted().compactMap { id in
            guard let old = m.blocks[id], let new = grown[id], new != old else { return nil }
            return .block(old: old, new: new)
        }
        if let first = orphans.first {
            let all = orphans.dropFirst().reduce(strokes[first].bounds) { $0.union(strokes[$1].bounds) }
            // No block under the ink's middle (checked above): a new Text block holds it all.
            let (id, changes) = placeInk(all, start: Point(x: all.midX, y: all.midY), model: m)
            for i in orphans { strokes[i].blockId = id }
            out += changes
        }
        return out
    }

    /// Removes the selected blocks (with their ink and images) and strokes. One undoable step.
    public func deleteSelection() throws {
        let m = try requirePart()
        guard hasSelection else { throw QuireError(.unsupportedOperation, "deleteSelection: nothing is selected") }
        cancelActivePointers()
        commit(Transaction(changes: deletionChanges(m)), affecting: deletionAffected(m))
        select(blocks: [], strokes: [])
        if m.kind == .textDocument { relayout(anchor: nil, model: m) }
    }

    func deletionChanges(_ m: PartModel) -> [Change] {
        let (blocks, strokes) = selectionItems(m)
        var changes = strokes.map { Change.stroke(old: $0, new: nil) }
        var parents: [String: BlockData] = [:]
        for b in blocks {
            changes += removalChanges(b.id, model: m)
            if let pid = b.parentId, var p = parents[pid] ?? m.blocks[pid] {
                p.childIds.removeAll { $0 == b.id }
                parents[pid] = p
            }
        }
        for (id, p) in parents.sorted(by: { $0.key < $1.key }) { if let old = m.blocks[id] { changes.append(.block(old: old, new: p)) } }
        return changes
    }

    func deletionAffected(_ m: PartModel) -> [String] {
        let (blocks, strokes) = selectionItems(m)
        return strokes.map { $0.blockId ?? m.rootId } + blocks.compactMap(\.parentId)
    }

    /// Gives the selected ink (loose and in selected blocks) a colour: "#rrggbb" or "#rrggbbaa",
    /// "" for the theme's. One undoable step.
    public func recolorSelection(_ color: String) throws {
        let m = try requirePart()
        guard color.isEmpty || Self.isInkColor(color) else {
            throw QuireError(.invalidArgument, "recolorSelection: '\(color)' is not #rrggbb or #rrggbbaa")
        }
        guard hasSelection else { throw QuireError(.unsupportedOperation, "recolorSelection: nothing is selected") }
        let (blocks, strokes) = selectionItems(m)
        var all = strokes
        for b in blocks { for id in subtree(b.id, m) { all += m.strokes(inBlock: id) } }
        let changes: [Change] = all.compactMap { s in
            guard s.color != color else { return nil }
            var n = s
            n.color = color
            return .stroke(old: s, new: n)
        }
        guard !changes.isEmpty else { return }
        // A colour is no reason to read the ink again: the blocks are not named.
        commit(Transaction(changes: changes), affecting: [])
    }

    /// Converts the selection: selected blocks whole, and each recognized word whose ink is all
    /// selected, typeset in place (`digitalEdit`) or, for whole blocks, `digitalPublish`. One
    /// undoable step; strokes that form no word stay ink.
    public func convertSelection(targetState: ConversionState = .digitalEdit) throws {
        let m = try requirePart()
        guard hasSelection else { throw QuireError(.unsupportedOperation, "convertSelection: nothing is selected") }
        guard targetState != .handwriting else { return }
        try waitForIdle()
        let (blocks, strokes) = selectionItems(m)
        var t = Transaction()
        var ids: [String] = []
        for b in blocks {
            for id in subtree(b.id, m) {
                guard let d = m.blocks[id], let c = conversionChanges(d, targetState: targetState, model: m) else { continue }
                t.changes += c
                ids.append(id)
            }
        }
        let loose = Set(strokes.map(\.id))
        for id in Set(strokes.map { $0.blockId ?? m.rootId }).sorted() {
            guard let b = m.blocks[id], Self.recognizable(b.type) else { continue }
            let words = b.words.indices.filter { i in
                let w = b.words[i]
                return !w.strokeIds.isEmpty && w.strokeIds.allSatisfy(loose.contains)
            }
            guard !words.isEmpty else { continue }
            var nb = b
            for i in words {
                nb.words[i] = Self.typeset(b.words[i])
                for sid in b.words[i].strokeIds { if let s = m.strokes[sid] { t.changes.append(.stroke(old: s, new: nil)) } }
            }
            nb = laidOut(nb, fresh: Set(words))
            if nb.conversion == ConversionState.handwriting.rawValue { nb.conversion = ConversionState.digitalEdit.rawValue }
            t.changes.append(.block(old: b, new: nb))
            ids.append(id)
        }
        guard !t.isEmpty else { throw QuireError(.unsupportedOperation, "convertSelection: the selection holds no recognized words") }
        commit(t, affecting: ids)
        select(blocks: selection.filter { m.blocks[$0] != nil }, strokes: [], framed: true)
        if m.kind == .textDocument { relayout(anchor: nil, model: m) }
    }
}
