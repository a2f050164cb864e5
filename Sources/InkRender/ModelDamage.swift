import Foundation
import InkModel

/// Where a part's drawing changed since the last look, found by comparing the model with a
/// snapshot of what was drawn: blocks by value, ink per block by its revision and then stroke by
/// stroke, images by fingerprint. The window's tiles are invalidated by this alone, so a redraw
/// asked for without a model change (a view option, a word highlight, `invalidate(nil)`) costs a
/// copy of cached pixels, and a new stroke dirties only the tiles it touches.
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
        if self.part === part, part.revision == revision, self.pressure == pressure, theme == renderer.theme { return .none }
        let sameBase = self.part === part && self.pressure == pressure && theme == renderer.theme
        var rects: [Rect] = []
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
        if all { return .all }
        if rects.count > 256 { return .rects([rects.dropFirst().reduce(rects[0]) { $0.union($1) }]) }
        return rects.isEmpty ? .none : .rects(rects)
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
