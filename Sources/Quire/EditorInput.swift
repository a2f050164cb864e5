import Foundation
import InkModel

/// The state of a pointer between its down and its up.
struct ActivePointer {
    var type: PointerType
    var tool: Tool
    var strokeId: String
    var samples: [InkSample] = []
    var startView: Point
    var lastView: Point
    var startTime: Int64
    /// Eraser changes already applied to the model (undone on cancel).
    var erased = Transaction()
    /// Touch drag of a block (hand tool).
    var dragBlock: String?
    var moved = false
}

extension Editor {
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    func validate(_ x: Double, _ y: Double, _ t: Int64, _ f: Double, _ what: String) throws {
        guard x.isFinite, y.isFinite, f.isFinite else {
            throw QuireError(.invalidPointerSequence, "\(what): coordinates and pressure must be finite (x=\(x), y=\(y), f=\(f))")
        }
        guard t >= -1 else { throw QuireError(.invalidPointerSequence, "\(what): time \(t) is negative (use -1 for now)") }
        guard abs(x) < 1e7, abs(y) < 1e7 else { throw QuireError(.invalidPointerSequence, "\(what): coordinates out of range") }
    }

    func sample(_ x: Double, _ y: Double, _ t: Int64, _ f: Double) -> InkSample {
        let p = toModel(x, y)
        return InkSample(x: p.x, y: p.y, t: t == -1 ? Self.now() : t, f: min(1, max(0, f)))
    }

    // MARK: the public pointer API

    /// Starts a stroke (or an erase, lasso, drag) for `pointerId`; returns the stroke id it will have.
    @discardableResult
    public func pointerDown(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) throws -> String {
        let m = try requirePart()
        try validate(x, y, t, f, "pointerDown")
        guard pointers[pointerId] == nil else {
            throw QuireError(.invalidPointerSequence, "pointerDown: pointer \(pointerId) is already down")
        }
        let s = sample(x, y, t, f)
        var p = ActivePointer(type: type, tool: toolController.tool(for: type), strokeId: m.makeStrokeId(),
                              startView: Point(x: x, y: y), lastView: Point(x: x, y: y), startTime: s.t)
        p.samples.append(s)
        if p.tool == .hand, m.kind == .textDocument, let b = topBlock(atModel: Point(x: s.x, y: s.y), model: m) {
            p.dragBlock = b.id
        }
        if p.tool == .eraser { erase(&p, from: s, to: s, model: m) }
        pointers[pointerId] = p
        if batchDepth == 0, let r = renderer, !(r.drawsLiveInk && p.tool != .eraser) {
            r.invalidate(viewTransform.apply(Rect(x: s.x - 2, y: s.y - 2, width: 4, height: 4)))
        }
        return p.strokeId
    }

    public func pointerMove(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) throws {
        let m = try requirePart()
        try validate(x, y, t, f, "pointerMove")
        // Taken out of the table while it changes: a copy left in it would share the samples
        // buffer, and every append would then copy the whole stroke (quadratic in its length).
        guard var p = pointers.removeValue(forKey: pointerId) else {
            throw QuireError(.invalidPointerSequence, "pointerMove: pointer \(pointerId) is not down")
        }
        let s = sample(x, y, t, f)
        let prev = p.samples[p.samples.count - 1]
        switch p.tool {
        case .pen, .highlighter, .selector:
            p.samples.append(s)
        case .eraser:
            p.samples.append(s)
            erase(&p, from: prev, to: s, model: m)
        case .hand:
            p.samples.append(s)
            let d = Point(x: x - p.lastView.x, y: y - p.lastView.y)
            if abs(x - p.startView.x) + abs(y - p.startView.y) > 8 { p.moved = true }
            if p.dragBlock == nil, p.moved { scroll(by: Point(x: -d.x, y: -d.y)) }
        }
        p.lastView = Point(x: x, y: y)
        pointers[pointerId] = p
        if batchDepth == 0, let r = renderer, !(r.drawsLiveInk && p.tool != .eraser) {
            let box = Rect(x: min(prev.x, s.x), y: min(prev.y, s.y), width: abs(prev.x - s.x), height: abs(prev.y - s.y))
            r.invalidate(viewTransform.apply(box.insetBy(dx: -3, dy: -3)))
        }
    }

    public func pointerUp(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) throws {
        let m = try requirePart()
        try validate(x, y, t, f, "pointerUp")
        guard var p = pointers.removeValue(forKey: pointerId) else {
            throw QuireError(.invalidPointerSequence, "pointerUp: pointer \(pointerId) is not down")
        }
        let s = sample(x, y, t, f)
        let last = p.samples[p.samples.count - 1]
        if s != last { p.samples.append(s) }
        switch p.tool {
        case .pen, .highlighter:
            if !handleGesture(p, model: m) { commitInk(p, model: m) }
        case .eraser:
            if p.samples.count >= 2 { erase(&p, from: last, to: s, model: m) }
            if !p.erased.isEmpty {
                undoStack.append(keepingWords(p.erased, model: m))
                redoStack.removeAll()
                finishChange(blockIds: Self.affectedBlocks(p.erased, rootId: m.rootId), dirty: .zero, model: m)
            }
        case .selector:
            lassoSelect(p.samples, model: m)
        case .hand:
            let tap = !p.moved && abs(x - p.startView.x) + abs(y - p.startView.y) <= 8
            if tap {
                let hit = topBlock(atModel: Point(x: s.x, y: s.y), model: m)
                selection = hit.map { [$0.id] } ?? []
                wordSelection = hitWord(at: Point(x: x, y: y))
                renderer?.invalidate(nil)
                handleDoubleTap(at: Point(x: s.x, y: s.y), time: s.t, blockId: hit?.id, model: m)
            } else if let id = p.dragBlock, let first = p.samples.first {
                try? moveBlock(id: id, dx: s.x - first.x, dy: s.y - first.y, model: m)
            }
        }
    }

    /// Abandons the pointer's stroke; an erase in progress is rolled back.
    public func pointerCancel(pointerId: Int = -1) throws {
        guard let p = pointers.removeValue(forKey: pointerId) else {
            throw QuireError(.invalidPointerSequence, "pointerCancel: pointer \(pointerId) is not down")
        }
        if let m = attached?.model, !p.erased.isEmpty {
            for c in p.erased.changes.reversed() { apply(c.inverse, to: m) }
        }
        renderer?.invalidate(nil)
    }

    /// Ingests a batch of events. The whole batch is checked first: an inconsistent one throws and
    /// changes nothing. Rendering and notifications happen once, at the end.
    public func pointerEvents(_ events: [PointerEvent], processGestures: Bool = true) throws {
        _ = try requirePart()
        var down = Set(pointers.keys)
        for (i, e) in events.enumerated() {
            let what = "pointerEvents[\(i)]"
            switch e.kind {
            case .down:
                try validate(e.x, e.y, e.t, e.f, what)
                guard down.insert(e.pointerId).inserted else { throw QuireError(.invalidPointerSequence, "\(what): pointer \(e.pointerId) is already down") }
            case .move, .up:
                try validate(e.x, e.y, e.t, e.f, what)
                guard down.contains(e.pointerId) else { throw QuireError(.invalidPointerSequence, "\(what): pointer \(e.pointerId) is not down") }
                if e.kind == .up { down.remove(e.pointerId) }
            case .cancel:
                guard down.remove(e.pointerId) != nil else { throw QuireError(.invalidPointerSequence, "\(what): pointer \(e.pointerId) is not down") }
            }
        }
        batchDepth += 1
        let gesturesBefore = gesturesAllowed
        gesturesAllowed = gesturesBefore && processGestures
        defer {
            gesturesAllowed = gesturesBefore
            batchDepth -= 1
            flushBatch()
        }
        for e in events {
            switch e.kind {
            case .down: try pointerDown(x: e.x, y: e.y, t: e.t, f: e.f, type: e.pointerType, pointerId: e.pointerId)
            case .move: try pointerMove(x: e.x, y: e.y, t: e.t, f: e.f, type: e.pointerType, pointerId: e.pointerId)
            case .up: try pointerUp(x: e.x, y: e.y, t: e.t, f: e.f, type: e.pointerType, pointerId: e.pointerId)
            case .cancel: try pointerCancel(pointerId: e.pointerId)
            }
        }
    }

    /// The samples of the strokes in progress (for the renderer's live layer).
    public var liveStrokes: [(tool: Tool, samples: [InkSample])] {
        pointers.keys.sorted().compactMap { k in
            let p = pointers[k]!
            return (p.tool == .pen || p.tool == .highlighter || p.tool == .selector) ? (p.tool, p.samples) : nil
        }
    }

    // MARK: ink

    func commitInk(_ p: ActivePointer, model m: PartModel) {
        let style = toolController.style(for: p.tool)
        var stroke = InkStroke(id: p.strokeId, pointerType: p.type, pointerId: -1, tool: p.tool.rawValue, color: style.color,
                               width: style.width, seq: m.nextSeq(), samples: p.samples)
        var t = Transaction()
        var affected: [String] = [m.rootId]
        if m.kind == .textDocument {
            let (blockId, changes) = placeInk(stroke.bounds, start: Point(x: p.samples[0].x, y: p.samples[0].y), model: m)
            stroke.blockId = blockId
            t.changes = changes
            affected = [blockId]
        }
        t.changes.insert(.stroke(old: nil, new: stroke), at: 0)
        commit(t, affecting: affected)
        if m.kind == .textDocument { relayout(anchor: stroke.blockId, model: m) }
    }

    /// Chooses the block for new ink in a Text Document: the block under it, else a new Text block.
    func placeInk(_ bounds: Rect, start: Point, model m: PartModel) -> (String, [Change]) {
        let spacing = guideSpacing
        let center = Point(x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2)
        if let hit = topBlock(atModel: start, model: m) ?? topBlock(atModel: center, model: m) {
            var nb = hit
            if hit.kind == .text {
                let grown = hit.box.union(bounds)
                let bottom = (grown.maxY / spacing).rounded(.up) * spacing
                nb.box = Rect(x: hit.box.x, y: hit.box.y, width: max(hit.box.width, grown.maxX - hit.box.x), height: bottom - hit.box.y)
            }
            return (hit.id, nb == hit ? [] : [.block(old: hit, new: nb)])
        }
        let margin = 5.0
        let x = max(margin, bounds.x - 2)
        let top = max(0, ((bounds.y - 1) / spacing).rounded(.down) * spacing)
        let bottom = max(top + spacing, ((bounds.maxY + 1) / spacing).rounded(.up) * spacing)
        let width = max(pageWidth - x - margin, bounds.maxX - x + 2)
        let block = BlockData(id: m.makeBlockId(), type: BlockType.text.rawValue, box: Rect(x: x, y: top, width: width, height: bottom - top), parentId: m.rootId)
        var root = m.root
        let oldRoot = root
        root.childIds.append(block.id)
        return (block.id, [.block(old: nil, new: block), .block(old: oldRoot, new: root)])
    }

    /// `text.guides.spacing`; under 0.5 mm or over a metre (block boxes would leave the range a
    /// package holds, and areas around a gesture overflow) the default 10.
    var guideSpacing: Double {
        let s = configuration[.textGuidesSpacing]
        return s > 0.5 && s <= 1000 ? s : 10
    }

    /// `text-document.block-spacing`, kept within 0...1000 mm: a negative gap would make the flow
    /// push a block down onto the one above it forever.
    var blockSpacing: Double {
        let g = configuration[.textDocumentBlockSpacing]
        return g.isNaN ? 4 : max(0, min(1000, g))
    }

    /// The top-most child block of the root containing a model point.
    func topBlock(atModel p: Point, model m: PartModel) -> BlockData? {
        for id in m.root.childIds.reversed() {
            if let b = m.blocks[id], b.box.insetBy(dx: -0.5, dy: -0.5).contains(p) { return b }
        }
        return nil
    }

    // MARK: eraser

    func erase(_ p: inout ActivePointer, from a: InkSample, to b: InkSample, model m: PartModel) {
        let radius = max(0.5, 4 / viewTransform.scale * pixelsPerMillimetre / 3.78)
        let seg = Rect(x: min(a.x, b.x) - radius, y: min(a.y, b.y) - radius, width: abs(a.x - b.x) + 2 * radius, height: abs(a.y - b.y) + 2 * radius)
        let precise = configuration[.erasePrecisely(m.kind)]
        for id in grid.candidates(seg) {
            guard let s = m.strokes[id], s.bounds.insetBy(dx: -radius, dy: -radius).intersects(seg) else { continue }
            var hit = [Bool](repeating: false, count: s.count)
            var any = false
            let pa = Point(x: a.x, y: a.y), pb = Point(x: b.x, y: b.y)
            for i in 0..<s.count {
                let q = s[i]
                if Self.distance(Point(x: q.x, y: q.y), pa, pb) <= radius { hit[i] = true; any = true }
            }
            // Sparse samples (a fast mouse line): the eraser may cross a segment far from both ends.
            if s.count > 1 {
                for i in 0..<(s.count - 1) where !hit[i] && !hit[i + 1] {
                    let q0 = s[i], q1 = s[i + 1]
                    if Self.segmentDistance(Point(x: q0.x, y: q0.y), Point(x: q1.x, y: q1.y), pa, pb) <= radius {
                        hit[i] = true; hit[i + 1] = true; any = true
                    }
                }
            }
            guard any else { continue }
            var changes: [Change] = [.stroke(old: s, new: nil)]
            if precise {
                var start: Int?
                for i in 0...s.count {
                    if i < s.count, !hit[i] { if start == nil { start = i } } else if let st = start {
                        if i - st >= 2 {
                            var piece = s.slice(st..<i, id: m.makeStrokeId())
                            piece.seq = s.seq
                            changes.append(.stroke(old: nil, new: piece))
                        }
                        start = nil
                    }
                }
            }
            for c in changes { apply(c, to: m); p.erased.changes.append(c) }
            if batchDepth == 0 { renderer?.invalidate(viewTransform.apply(s.bounds.insetBy(dx: -2, dy: -2))) }
        }
    }

    /// Distance between segments ab and cd (0 when they cross).
    static func segmentDistance(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Double {
        func cross(_ o: Point, _ p: Point, _ q: Point) -> Double { (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x) }
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if (d1 > 0) != (d2 > 0), (d3 > 0) != (d4 > 0), d1 != 0, d2 != 0, d3 != 0, d4 != 0 { return 0 }
        return min(distance(a, c, d), distance(b, c, d), distance(c, a, b), distance(d, a, b))
    }

    /// Distance from p to the segment ab.
    static func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let cx = a.x + t * dx - p.x, cy = a.y + t * dy - p.y
        return (cx * cx + cy * cy).squareRoot()
    }

    // MARK: lasso

    func lassoSelect(_ poly: [InkSample], model m: PartModel) {
        let pts = poly.map { Point(x: $0.x, y: $0.y) }
        guard pts.count >= 3 else { selection = []; selectedStrokes = []; return }
        func inside(_ p: Point) -> Bool {
            var c = false
            var j = pts.count - 1
            for i in 0..<pts.count {
                let a = pts[i], b = pts[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { c.toggle() }
                j = i
            }
            return c
        }
        selectedStrokes = Set(m.strokes.values.filter { inside(Point(x: $0.bounds.x + $0.bounds.width / 2, y: $0.bounds.y + $0.bounds.height / 2)) }.map(\.id))
        selection = Set(m.root.childIds.filter { id in
            guard let b = m.blocks[id] else { return false }
            return inside(Point(x: b.box.x + b.box.width / 2, y: b.box.y + b.box.height / 2))
        })
        renderer?.invalidate(nil)
    }
}

extension Editor {
    /// A second tap close in time and place to the first converts the block under it
    /// (`convert.convert-on-double-tap`), in place so it stays editable by pen.
    func handleDoubleTap(at p: Point, time: Int64, blockId: String?, model m: PartModel) {
        if let last = lastTap, time - last.t <= 400, time >= last.t, hypot(p.x - last.p.x, p.y - last.p.y) * viewTransform.scale <= 24,
           last.blockId == blockId {
            lastTap = nil
            guard configuration[.convertOnDoubleTap] else { return }
            let target = blockId.flatMap { getBlockById($0) } ?? (m.kind == .textDocument ? nil : rootBlock)
            guard let target, Self.recognizable(target.type) else { return }
            do { try convert(target, targetState: .digitalEdit) } catch let e as QuireError {
                notifyError(blockId: target.id, code: e.code, message: e.message)
            } catch {
                notifyError(blockId: target.id, code: .invalidArgument, message: "\(error)")
            }
        } else {
            lastTap = (time, p, blockId)
        }
    }
}
