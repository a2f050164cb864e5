import Foundation
import InkModel

/// What an application decides for a gesture the editor recognized (see
/// `EditorDelegate.gestureAction`).
public enum GestureAction: Sendable {
    /// Apply the gesture's effect (the default).
    case apply
    /// Keep the stroke as ordinary ink instead.
    case addStroke
    /// Drop the stroke: neither ink nor an effect.
    case ignore
}

/// A pen gesture recognized on a stroke, before its effect is applied.
public struct Gesture: Sendable {
    public var kind: GestureKind
    /// The block it applies to (the part's root for a slice, or outside any block).
    public var blockId: String
    /// The gesture stroke's box, model millimetres.
    public var box: Rect
    /// The gesture stroke's samples (model millimetres).
    public var samples: [InkSample]
    /// Words it applies to (erased, struck, decorated, joined or split).
    public var words: [WordRef]
    /// Ink strokes it applies to.
    public var strokeIds: [String]
}

/// Configuration names of the gestures in `*.pen.gestures` lists.
extension GestureKind {
    public var configName: String {
        switch self {
        case .scratchOut: "scratch-out"
        case .strikeThrough: "strike-through"
        case .underline: "underline"
        case .surround: "surround"
        case .join: "join"
        case .split: "split"
        case .slice: "slice"
        }
    }
}

/// A piece of a block's content a gesture can act on: a recognized word (ink or typeset), or a
/// cluster of ink not recognized yet.
struct GestureUnit {
    var box: Rect
    var wordIndex: Int?
    var strokeIds: [String]
}

extension Editor {
    /// The gesture kinds enabled for the attached part's type: `gesture.enable` and the
    /// `<part type>.pen.gestures` list.
    func enabledGestures(_ m: PartModel) -> Set<GestureKind> {
        guard gesturesAllowed, configuration[.gestureEnable] else { return [] }
        let names = configuration[.penGestures(m.kind)]
        return Set(GestureKind.allCases.filter { names.contains($0.configName) })
    }

    /// Checks a finished pen stroke for a gesture; returns true when it was handled as one (its
    /// effect applied, or dropped by a delegate) and must not become ink.
    func handleGesture(_ samples: [InkSample], model m: PartModel) -> Bool {
        guard samples.count >= 2 else {
            gestureObserver?(GestureExplanation(samples: samples, kind: nil, applied: false, outcome: "a dot: ink", checks: []))
            return false
        }
        syncTextLayout()
        let kinds = enabledGestures(m)
        guard !kinds.isEmpty else {
            gestureObserver?(GestureExplanation(samples: samples, kind: nil, applied: false, outcome: "no gesture is enabled for this part: ink", checks: []))
            return false
        }
        var bbox = Rect(x: samples[0].x, y: samples[0].y, width: 0, height: 0)
        for s in samples {
            let nx = min(bbox.x, s.x), ny = min(bbox.y, s.y)
            bbox = Rect(x: nx, y: ny, width: max(bbox.maxX, s.x) - nx, height: max(bbox.maxY, s.y) - ny)
        }
        let block = gestureBlock(bbox, model: m)
        let lh = guideSpacing
        let units = block.map { gestureUnits($0, near: bbox.insetBy(dx: -lh, dy: -lh), model: m) } ?? []
        var guideY: Double?
        if let b = block, b.kind == .text, guides.enabled { guideY = (b.box.isEmpty ? 0 : b.box.y) + lh }
        let context = GestureContext(boxes: units.map(\.box), lineHeight: lh,
                                     betweenBlocks: m.kind == .textDocument && block == nil, guideY: guideY)
        var checks: [GestureExplanation.Check] = []
        let note: ((String, Bool, String) -> Void)? = gestureObserver == nil ? nil : { checks.append(.init(rule: $0, passed: $1, detail: $2)) }
        let seen = GestureClassifier().classify(samples, context: context, note: note)
        func explain(_ applied: Bool, _ outcome: String) {
            gestureObserver?(GestureExplanation(samples: samples, kind: seen, applied: applied, outcome: outcome, checks: checks))
        }
        guard let kind = seen, kinds.contains(kind) else {
            explain(false, seen.map { "\($0.rawValue), but not enabled for this part (\(ConfigKey<[String]>.penGestures(m.kind).name)): ink" } ?? "ink")
            return false
        }
        let blockId = block?.id ?? m.rootId
        var g = Gesture(kind: kind, blockId: blockId, box: bbox, samples: samples, words: [], strokeIds: [])
        guard let t = gestureChanges(&g, block: block, units: units, model: m) else {
            explain(false, "\(kind.rawValue), but it found nothing to act on: ink")
            return false
        }
        var action = GestureAction.apply
        notify { d in
            if action == .apply { action = d.gestureAction(self, gesture: g) }
        }
        switch action {
        case .addStroke:
            explain(false, "\(kind.rawValue), but a delegate made it ink")
            return false
        case .ignore:
            explain(false, "\(kind.rawValue), dropped by a delegate")
            renderer?.invalidate(viewTransform.apply(bbox.insetBy(dx: -3, dy: -3)))
            return true
        case .apply:
            explain(true, "\(kind.rawValue), applied")
            commit(t, affecting: t.affectedBlocks(rootId: m.rootId))
            if m.kind == .textDocument { relayout(anchor: block?.id, model: m) }
            renderer?.invalidate(viewTransform.apply(bbox.insetBy(dx: -3, dy: -3)))
            notify { $0.gestureApplied(self, gesture: g) }
            return true
        }
    }

    /// The block a gesture stroke lies on: the root's child under its middle, else the one it
    /// overlaps most; in a part other than a Text Document, the root.
    func gestureBlock(_ bbox: Rect, model m: PartModel) -> BlockData? {
        guard m.kind == .textDocument else { return m.root }
        if let b = topBlock(atModel: Point(x: bbox.midX, y: bbox.midY), model: m) { return b }
        // The blocks it meets, from the flow's index when it has one (topBlock brought it up to
        // date): a stroke between blocks must not look at every block of a long page.
        let index = flow.index
        let met = index.usable ? index.intersecting(bbox).compactMap { m.blocks[$0.id] }
                               : m.root.childIds.compactMap { m.blocks[$0] }.filter { $0.box.intersects(bbox) }
        var best: (BlockData, Double)?
        for b in met {
            let w = min(b.box.maxX, bbox.maxX) - max(b.box.x, bbox.x), h = min(b.box.maxY, bbox.maxY) - max(b.box.y, bbox.y)
            if best == nil || w * h > best!.1 { best = (b, w * h) }
        }
        return best?.0
    }

    /// The words of a block and clusters of its not-yet-recognized ink near `area`.
    func gestureUnits(_ b: BlockData, near area: Rect, model m: PartModel) -> [GestureUnit] {
        var units: [GestureUnit] = []
        var covered = Set<String>()
        for (i, w) in b.words.enumerated() where !w.box.isEmpty {
            covered.formUnion(w.strokeIds)
            if w.box.intersects(area) { units.append(GestureUnit(box: w.box, wordIndex: i, strokeIds: w.strokeIds)) }
        }
        let loose = strokeCandidates(area).compactMap { id -> InkStroke? in
            guard !covered.contains(id), let s = m.strokes[id], (s.blockId ?? m.rootId) == b.id else { return nil }
            return s
        }
        units += Self.inkClusters(loose, lineHeight: guideSpacing)
        // Typeset math is content too: a scratch-out over converted symbols removes them.
        if b.kind == .math, let metrics = fontMetricsProvider {
            for box in MathEditing.gestureBoxes(b, metrics: metrics) where box.intersects(area) {
                units.append(GestureUnit(box: box, wordIndex: nil, strokeIds: []))
            }
        }
        return units
    }

    /// Groups strokes into word-like clusters: same line band, horizontal gaps under a quarter
    /// of a line. Before recognition has read them, these stand for the words.
    static func inkClusters(_ strokes: [InkStroke], lineHeight lh: Double) -> [GestureUnit] {
        var out: [GestureUnit] = []
        for s in strokes.sorted(by: { $0.bounds.x < $1.bounds.x }) {
            let b = s.bounds
            if let i = out.lastIndex(where: { u in
                b.x - u.box.maxX < lh * 0.25 && min(u.box.maxY, b.maxY) - max(u.box.y, b.y) > -lh * 0.1
                    && abs(u.box.midY - b.midY) < lh * 0.5
            }) {
                out[i].box = out[i].box.union(b)
                out[i].strokeIds.append(s.id)
            } else {
                out.append(GestureUnit(box: b, wordIndex: nil, strokeIds: [s.id]))
            }
        }
        return out
    }

    /// Fraction of `r`'s width that lies between x0 and x1.
    static func horizontalCoverage(_ r: Rect, _ x0: Double, _ x1: Double) -> Double {
        guard r.width > 0 else { return r.x >= x0 && r.x <= x1 ? 1 : 0 }
        return max(0, min(r.maxX, x1) - max(r.x, x0)) / r.width
    }

    /// The changes a gesture makes, filling in what it applies to; nil when it applies to
    /// nothing (then the stroke is ink).
    func gestureChanges(_ g: inout Gesture, block: BlockData?, units: [GestureUnit], model m: PartModel) -> Transaction? {
        let box = g.box
        switch g.kind {
        case .slice:
            return sliceChanges(&g, model: m)
        case .scratchOut:
            guard let b = block else { return nil }
            let area = box.insetBy(dx: -0.5, dy: -0.5)
            let hit = units.filter { u in
                let w = min(u.box.maxX, area.maxX) - max(u.box.x, area.x), h = min(u.box.maxY, area.maxY) - max(u.box.y, area.y)
                return w > 0 && h > 0 && w * h >= 0.5 * max(u.box.width * u.box.height, 1e-6)
            }
            var removeStrokes = Set(hit.flatMap(\.strokeIds))
            let removeWords = Set(hit.compactMap(\.wordIndex))
            // Strokes partly under the scratch (a neighbour's tail, a long stroke) are cut.
            var cuts: [(InkStroke, [InkStroke])] = []
            for id in strokeCandidates(area) where !removeStrokes.contains(id) {
                guard let s = m.strokes[id], (s.blockId ?? m.rootId) == b.id, s.bounds.intersects(area) else { continue }
                var pieces: [InkStroke] = []
                var start: Int?
                var inside = 0
                for i in 0...s.count {
                    let isIn = i < s.count && area.contains(Point(x: s[i].x, y: s[i].y))
                    if isIn { inside += 1 }
                    if i < s.count, !isIn { if start == nil { start = i } } else if let st = start {
                        if i - st >= 2 { var piece = s.slice(st..<i, id: m.makeStrokeId()); piece.seq = s.seq; pieces.append(piece) }
                        start = nil
                    }
                }
                guard inside > 0 else { continue }
                if Double(inside) >= 0.6 * Double(s.count) { removeStrokes.insert(id) } else { cuts.append((s, pieces)) }
            }
            // Typeset math loses the symbols the scratch covers (MathEditing).
            var mathEdits: [Int: MathEditing.LineEdit] = [:]
            if b.kind == .math, let metrics = fontMetricsProvider { mathEdits = MathEditing.scratchEdits(b, area: area, metrics: metrics) }
            guard !removeStrokes.isEmpty || !removeWords.isEmpty || !cuts.isEmpty || !mathEdits.isEmpty else { return nil }
            var t = Transaction()
            for id in removeStrokes.sorted() { if let s = m.strokes[id] { t.changes.append(.stroke(old: s, new: nil)) } }
            for (s, pieces) in cuts {
                t.changes.append(.stroke(old: s, new: nil))
                for p in pieces { t.changes.append(.stroke(old: nil, new: p)) }
            }
            var nb = Self.removingWords(removeWords, from: b)
            if !mathEdits.isEmpty { nb = MathBlocks.editing(mathEdits, in: nb, options: mathSolverOptions, metrics: fontMetricsProvider) }
            if nb != b { t.changes.append(.block(old: b, new: nb)) }
            g.words = removeWords.sorted().map { WordRef(blockId: b.id, index: $0) }
            g.strokeIds = removeStrokes.sorted() + cuts.map(\.0.id)
            return t
        case .strikeThrough:
            guard let b = block else { return nil }
            let y = box.midY
            let hit = units.filter { Self.horizontalCoverage($0.box, box.x, box.maxX) >= 0.5 && y >= $0.box.y - 0.5 && y <= $0.box.maxY + 0.5 }
            return removeUnits(hit, g: &g, block: b, model: m)
        case .underline, .surround:
            guard let b = block else { return nil }
            let style = g.kind == .underline ? "underline" : "surround"
            let hit: [GestureUnit]
            if g.kind == .underline {
                let y = box.midY
                hit = units.filter { Self.horizontalCoverage($0.box, box.x, box.maxX) >= 0.5 && y >= $0.box.midY && y - $0.box.maxY < guideSpacing * 0.6 }
            } else {
                // At most 256 corners for the containment tests: a long loop around many words
                // must not cost samples x words on the pen-up.
                let step = max(1, g.samples.count / 256)
                let loop = stride(from: 0, to: g.samples.count, by: step).map { g.samples[$0] }
                hit = units.filter { GestureClassifier.contains(loop, Point(x: $0.box.midX, y: $0.box.midY)) }
            }
            guard !hit.isEmpty else { return nil }
            var nb = b
            // Toggle: decorating words that all carry the style already takes it off.
            let allHave = hit.allSatisfy { u in u.wordIndex.map { b.words[$0].styles.contains(style) } ?? false }
            let key = "quire.style." + style
            var pending = Set((b.properties[key] ?? "").split(separator: " ").map(String.init))
            for u in hit {
                if let i = u.wordIndex {
                    var st = Set(nb.words[i].styles)
                    if allHave { st.remove(style) } else { st.insert(style) }
                    nb.words[i].styles = Self.wordStyles.filter { st.contains($0) }
                }
                if allHave { pending.subtract(u.strokeIds) } else if u.wordIndex == nil { pending.formUnion(u.strokeIds) }
            }
            nb.properties[key] = pending.isEmpty ? nil : pending.sorted().joined(separator: " ")
            g.words = hit.compactMap(\.wordIndex).map { WordRef(blockId: b.id, index: $0) }
            g.strokeIds = hit.flatMap(\.strokeIds)
            guard nb != b else { return nil }
            return Transaction(changes: [.block(old: b, new: nb)])
        case .join, .split:
            guard let b = block else { return nil }
            if b.text != nil { return textSpaceChanges(&g, block: b, units: units) }
            return spaceChanges(&g, block: b, units: units, model: m)
        }
    }

    /// Deletes units: ink strokes go, typeset words leave the block (typed words its text).
    func removeUnits(_ hit: [GestureUnit], g: inout Gesture, block b: BlockData, model m: PartModel) -> Transaction? {
        guard !hit.isEmpty else { return nil }
        var t = Transaction()
        let strokeIds = Set(hit.flatMap(\.strokeIds))
        for id in strokeIds.sorted() { if let s = m.strokes[id] { t.changes.append(.stroke(old: s, new: nil)) } }
        let nb = Self.removingWords(Set(hit.compactMap(\.wordIndex)), from: b)
        if nb != b { t.changes.append(.block(old: b, new: nb)) }
        g.words = hit.compactMap(\.wordIndex).sorted().map { WordRef(blockId: b.id, index: $0) }
        g.strokeIds = strokeIds.sorted()
        return t.isEmpty ? nil : t
    }
}
