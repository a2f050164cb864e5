import Foundation
import InkModel

/// The public pointer API: checks every event, keeps the table of pointers that are down, and
/// hands each event to the tool object of its pointer (see `PointerTool`, `ToolRegistry`).
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
        recorder?.pointer(.down, x: x, y: y, t: t, f: f, type: type, id: pointerId, editor: self)
        let s = sample(x, y, t, f)
        let tool = toolController.tool(for: type)
        let p = ActivePointer(type: type, tool: tool, strokeId: m.makeStrokeId(), first: s, view: Point(x: x, y: y),
                              behaviour: tools.make(tool))
        p.behaviour.down(p, editor: self, model: m)
        pointers.begin(pointerId, p)
        if !isBatching, let r = renderer, !(r.drawsLiveInk && p.behaviour.drawnAsLiveInk) {
            r.invalidate(viewTransform.apply(Rect(x: s.x - 2, y: s.y - 2, width: 4, height: 4)))
        }
        return p.strokeId
    }

    public func pointerMove(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) throws {
        let m = try requirePart()
        try validate(x, y, t, f, "pointerMove")
        guard let p = pointers[pointerId] else {
            throw QuireError(.invalidPointerSequence, "pointerMove: pointer \(pointerId) is not down")
        }
        recorder?.pointer(.move, x: x, y: y, t: t, f: f, type: type, id: pointerId, editor: self)
        let s = sample(x, y, t, f)
        let prev = p.samples[p.samples.count - 1]
        p.samples.append(s)
        p.behaviour.move(p, from: prev, to: s, view: Point(x: x, y: y), editor: self, model: m)
        p.lastView = Point(x: x, y: y)
        if !isBatching, let r = renderer, !(r.drawsLiveInk && p.behaviour.drawnAsLiveInk) {
            let box = Rect(x: min(prev.x, s.x), y: min(prev.y, s.y), width: abs(prev.x - s.x), height: abs(prev.y - s.y))
            r.invalidate(viewTransform.apply(box.insetBy(dx: -3, dy: -3)))
        }
    }

    public func pointerUp(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) throws {
        let m = try requirePart()
        try validate(x, y, t, f, "pointerUp")
        guard let p = pointers.end(pointerId) else {
            throw QuireError(.invalidPointerSequence, "pointerUp: pointer \(pointerId) is not down")
        }
        recorder?.pointer(.up, x: x, y: y, t: t, f: f, type: type, id: pointerId, editor: self)
        let s = sample(x, y, t, f)
        let last = p.samples[p.samples.count - 1]
        if s != last { p.samples.append(s) }
        p.behaviour.up(p, from: last, to: s, view: Point(x: x, y: y), editor: self, model: m)
    }

    /// Abandons the pointer's stroke; an erase in progress is rolled back.
    public func pointerCancel(pointerId: Int = -1) throws {
        guard let p = pointers.end(pointerId) else {
            throw QuireError(.invalidPointerSequence, "pointerCancel: pointer \(pointerId) is not down")
        }
        recorder?.pointer(.cancel, x: 0, y: 0, t: 0, f: 0, type: p.type, id: pointerId, editor: self)
        p.behaviour.cancel(p, editor: self, model: part?.model)
        renderer?.invalidate(nil)
    }

    /// Ingests a batch of events. The whole batch is checked first: an inconsistent one throws and
    /// changes nothing. Rendering and notifications happen once, at the end.
    public func pointerEvents(_ events: [PointerEvent], processGestures: Bool = true) throws {
        _ = try requirePart()
        var down = Set(pointers.ids)
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
        let gesturesBefore = beginBatch(gestures: processGestures)
        defer { endBatch(gestures: gesturesBefore) }
        let rec = recorder
        rec?.batch(events, gestures: processGestures, editor: self)
        if let rec { try rec.suspended { try feed(events) } } else { try feed(events) }
    }

    private func feed(_ events: [PointerEvent]) throws {
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
        pointers.all.compactMap { p in p.behaviour.showsTrace ? (p.tool, p.samples) : nil }
    }
}
