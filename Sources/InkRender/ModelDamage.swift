import Foundation
import InkModel

/// Where a part's drawing changed since the last look. The part's own journal
/// (`PartModel.changes(since:)`) says which strokes, blocks and images changed, so the cost
/// follows the change, not the page. Where it cannot (the journal no longer reaches back that
/// far), the model is compared with a snapshot of what was drawn: blocks by value, ink per block
/// by its revision and then stroke by stroke, images by fingerprint. The window's tiles are
/// invalidated by this alone, so a redraw asked for without a model change (a view option, a word
/// highlight, `invalidate(nil)`) costs a copy of cached pixels, and a new stroke dirties only the
/// tiles it touches.
///
/// Confined to the thread that owns the model, like `PageRenderer`.
final class ModelDamage {
    enum Change: Equatable {
        case none
        /// Model rectangles (mm) whose pixels may differ now.
        case rects([Rect])
        /// Anything may differ (another part, a change with no bounded extent).
        case all
    }

    /// How the last change was found (for tests).
    enum Source: Equatable { case unchanged, journal, diff, fresh }
    private(set) var source = Source.fresh

    private weak var part: PartModel?
    private var revision = -1
    private var blocks: [String: BlockData] = [:]
    /// Per block holding ink: its ink revision and its strokes as drawn, in drawing order (the
    /// renderer's own arrays: strokes share their packed samples with the model, so keeping and
    /// comparing them is cheap).
    private var ink: [String: (revision: Int, strokes: [InkStroke])] = [:]
    private var imageFingerprints: [String: Int] = [:]
    private var pressure = true
    private var theme: Theme?

    /// Forgets the snapshot: the next `changes` reports `.all`.
    func reset() { part = nil; revision = -1 }

    /// What changed in `part` since the previous call, and takes the new snapshot.
    func changes(_ part: PartModel, renderer: PageRenderer, pressure: Bool) -> Change {
        if self.part === part, part.revision == revision, self.pressure == pressure, theme == renderer.theme {
            source = .unchanged
            return .none
        }
        let sameBase = self.part === part && self.pressure == pressure && theme == renderer.theme
        var rects: [Rect] = []
        if sameBase, let list = part.changes(since: revision) {
            source = .journal
            let all = journalDamage(list, part, renderer: renderer, pressure: pressure, into: &rects)
            blocks = part.blocks
            revision = part.revision
            return Self.result(all, rects)
        }
        source = sameBase ? .diff : .fresh
        var all = !sameBase
        if sameBase {
            all = diffBlocks(part, into: &rects) || all
            diffImages(part, into: &rects)
        }
        snapshotBlocks(part)
        if all { imageFingerprints = part.images.mapValues(Self.fingerprint) }
        diffInk(part, renderer: renderer, pressure: pressure, record: !all, into: &rects)
        self.part = part
        revision = part.revision
        self.pressure = pressure
        theme = renderer.theme
        return Self.result(all, rects)
    }

    private static func result(_ all: Bool, _ rects: [Rect]) -> Change {
        if all { return .all }
        if rects.count > 256 { return .rects([rects.dropFirst().reduce(rects[0]) { $0.union($1) }]) }
        return rects.isEmpty ? .none : .rects(rects)
    }

    // MARK: the journal

    /// Adds where the journal's changes show (each stroke, block and image named once, as it was
    /// drawn and as it is now) and brings the snapshot up to date with them; true when a change
    /// has no bounded extent.
    private func journalDamage(_ list: ArraySlice<PartChange>, _ part: PartModel, renderer: PageRenderer, pressure: Bool,
                               into rects: inout [Rect]) -> Bool {
        func bounds(_ s: InkStroke) -> Rect {
            renderer.strokeInkBounds(s, width: renderer.theme.width(tool: s.tool, width: s.width), pressure: pressure)
        }
        let root = part.rootId
        // Per block, how far its ink moved so far in this list: a stroke's entry holds it as it
        // was then, and where it was drawn is that less the moves before it.
        var shift: [String: (x: Int32, y: Int32)] = [:]
        var drawnStrokes: [String: InkStroke?] = [:]   // first seen: as drawn (nil: not drawn)
        var drawnBlocks: [String: BlockData?] = [:]
        var inkBlocks = Set<String>()
        var images = Set<String>()
        for change in list {
            switch change {
            case let .stroke(old, new):
                guard let id = old?.id ?? new?.id else { continue }
                if drawnStrokes.index(forKey: id) == nil {
                    drawnStrokes[id] = .some(old.map { s in
                        guard let d = shift[s.blockId ?? root] else { return s }
                        var t = s
                        t.translate(unitsX: 0 &- d.x, unitsY: 0 &- d.y)
                        return t
                    })
                }
                if let old { inkBlocks.insert(old.blockId ?? root) }
                if let new { inkBlocks.insert(new.blockId ?? root) }
            case let .inkMoved(block, x, y):
                let d = shift[block] ?? (0, 0)
                shift[block] = (d.x &+ x, d.y &+ y)
                inkBlocks.insert(block)
            case let .block(old, new):
                guard let id = old?.id ?? new?.id else { continue }
                if drawnBlocks.index(forKey: id) == nil { drawnBlocks[id] = .some(old) }
            case .image(let entry):
                images.insert(entry)
            case .other:
                break
            }
        }
        var all = false
        for (id, drawn) in drawnBlocks {
            let now = part.blocks[id]
            switch (drawn, now) {
            case (nil, nil):
                continue
            case (nil, let n?):
                guard let e = Self.extent(n) else { all = true; continue }
                rects.append(e)
            case (let o?, nil):
                guard let e = Self.extent(o) else { all = true; continue }
                rects.append(e)
            case (let o?, let n?):
                if o == n || (Self.sameOrder(o.childIds, n.childIds) && Self.drawnEqual(o, n)) { continue }
                guard Self.sameOrder(o.childIds, n.childIds), let a = Self.extent(o), let b = Self.extent(n) else { all = true; continue }
                rects.append(a)
                rects.append(b)
            }
        }
        let table = part.strokes
        for (id, drawn) in drawnStrokes {
            let now = table[id]
            if drawn == now { continue }
            if let drawn { rects.append(bounds(drawn)) }
            if let now { rects.append(bounds(now)) }
        }
        // Ink snapshot (for a later comparison) of every block whose ink changed; a block's ink
        // that moved also shows where its untouched strokes were.
        for id in inkBlocks {
            let now = renderer.strokes(part, inBlock: id)
            ink[id] = now.isEmpty ? nil : (part.inkRevision(ofBlock: id), now)
            guard let d = shift[id], d.x != 0 || d.y != 0, let first = now.first else { continue }
            let extent = now.dropFirst().reduce(bounds(first)) { $0.union(bounds($1)) }
            rects.append(extent)
            rects.append(extent.offsetBy(dx: -Double(d.x) / InkStroke.unitsPerMillimetre, dy: -Double(d.y) / InkStroke.unitsPerMillimetre))
        }
        if !images.isEmpty {
            var changed = Set<String>()
            for entry in images {
                let fp = part.images[entry].map(Self.fingerprint)
                if imageFingerprints[entry] != fp { changed.insert(entry) }
                imageFingerprints[entry] = fp
            }
            if !changed.isEmpty {
                for b in part.blocks.values where b.image.map({ changed.contains($0.entry) }) == true && !b.box.isEmpty {
                    rects.append(b.box)
                }
            }
        }
        return all
    }

    // MARK: blocks

    /// Adds the extent of every changed block; true when a change has no bounded extent.
    private func diffBlocks(_ part: PartModel, into rects: inout [Rect]) -> Bool {
        for (id, new) in part.blocks {
            guard let old = blocks[id] else {
                // A new block shows its own content; appended children do not change the others' order.
                guard let e = Self.extent(new) else { return true }
                rects.append(e)
                continue
            }
            if old == new { continue }
            if !Self.sameOrder(old.childIds, new.childIds) { return true }
            if Self.drawnEqual(old, new) { continue }
            guard let a = Self.extent(old), let b = Self.extent(new) else { return true }
            rects.append(a)
            rects.append(b)
        }
        for (id, old) in blocks where part.blocks[id] == nil {
            guard let e = Self.extent(old) else { return true }
            rects.append(e)
        }
        return false
    }

    private func snapshotBlocks(_ part: PartModel) { blocks = part.blocks }

    /// Children kept in the same relative order (insertions and removals draw only themselves).
    static func sameOrder(_ a: [String], _ b: [String]) -> Bool {
        let common = Set(a).intersection(b)
        return a.filter { common.contains($0) } == b.filter { common.contains($0) }
    }

    /// Equal in everything drawn (the tree links draw nothing themselves; properties hold typeset math).
    static func drawnEqual(_ a: BlockData, _ b: BlockData) -> Bool {
        a.type == b.type && a.box == b.box && a.text == b.text && a.conversion == b.conversion && a.words == b.words
            && a.image == b.image && a.textFont == b.textFont && a.properties == b.properties
    }

    /// Where a block draws its own content (guides, image, text, decorations; ink is diffed
    /// separately), or nil when that is unbounded: a box-less block with text or guides, whose
    /// layout and guides follow the page.
    static func extent(_ b: BlockData) -> Rect? {
        var r: Rect?
        func add(_ x: Rect) { r = r.map { $0.union(x) } ?? x }
        if !b.box.isEmpty {
            add(b.box)
        } else if b.kind == .text || b.text != nil || !b.properties.isEmpty {
            return nil
        }
        for w in b.words where !w.box.isEmpty {
            // Decorations sit up to 1.2 mm outside the box; glyphs (italics, a serif f) a little
            // past their cells: pad by a share of the height as well.
            let pad = 2 + w.box.height * 0.5
            add(w.box.insetBy(dx: -pad, dy: -pad))
        }
        return r ?? Rect(x: 0, y: 0, width: 0, height: 0)
    }

    // MARK: images

    private func diffImages(_ part: PartModel, into rects: inout [Rect]) {
        var changed = Set<String>()
        var now: [String: Int] = [:]
        for (entry, data) in part.images {
            let fp = Self.fingerprint(data)
            now[entry] = fp
            if imageFingerprints[entry] != fp { changed.insert(entry) }
        }
        for entry in imageFingerprints.keys where now[entry] == nil { changed.insert(entry) }
        imageFingerprints = now
        guard !changed.isEmpty else { return }
        for b in part.blocks.values where b.image.map({ changed.contains($0.entry) }) == true && !b.box.isEmpty {
            rects.append(b.box)
        }
    }

    /// A cheap identity for image bytes (size, head and tail): the renderer's decoded-image cache
    /// and the damage of a replaced image both key on it.
    static func fingerprint(_ d: Data) -> Int {
        var h = Hasher()
        h.combine(d.count)
        h.combine(d.prefix(256))
        h.combine(d.suffix(256))
        return h.finalize()
    }

    // MARK: ink

    /// Compares each block's strokes (only blocks whose ink revision moved) with the snapshot and
    /// adds the bounds of strokes added, removed or changed (moved, recoloured, reshaped).
    private func diffInk(_ part: PartModel, renderer: PageRenderer, pressure: Bool, record: Bool, into rects: inout [Rect]) {
        if !record {
            ink = [:]
            for id in part.blockIdsWithInk { ink[id] = (part.inkRevision(ofBlock: id), renderer.strokes(part, inBlock: id)) }
            return
        }
        func bounds(_ s: InkStroke) -> Rect {
            renderer.strokeInkBounds(s, width: renderer.theme.width(tool: s.tool, width: s.width), pressure: pressure)
        }
        var ids = Set(part.blockIdsWithInk)
        ids.formUnion(ink.keys)
        for id in ids {
            let rev = part.inkRevision(ofBlock: id)
            if let old = ink[id], old.revision == rev { continue }
            let now = renderer.strokes(part, inBlock: id)
            let before = ink[id]?.strokes ?? []
            // Both in drawing order (seq, then id): one walk finds what differs.
            var i = 0, j = 0
            while i < before.count || j < now.count {
                if j == now.count || (i < before.count && (before[i].seq, before[i].id) < (now[j].seq, now[j].id)) {
                    rects.append(bounds(before[i])); i += 1
                } else if i == before.count || (now[j].seq, now[j].id) < (before[i].seq, before[i].id) {
                    rects.append(bounds(now[j])); j += 1
                } else {
                    if before[i] != now[j] { rects.append(bounds(before[i])); rects.append(bounds(now[j])) }
                    i += 1; j += 1
                }
            }
            ink[id] = now.isEmpty ? nil : (rev, now)
        }
    }
}
