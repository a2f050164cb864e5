import Foundation
import InkModel

extension Engine {
    /// Creates an editor whose configuration reads through to this engine's.
    public func createEditor(renderer: Renderer? = nil, fontMetricsProvider: FontMetricsProvider? = nil) -> Editor {
        Editor(engine: self, renderer: renderer, fontMetricsProvider: fontMetricsProvider)
    }
}

/// Receives pointer input, routes it through tools, changes the attached part with undo, and
/// manages its blocks. Confined to the thread that uses it; recognition runs on a worker.
public final class Editor {
    public let engine: Engine
    public let configuration: Configuration
    public let renderer: Renderer?
    /// Measures typeset text: typed, published and converted words are laid out with it (see
    /// `textFont`). Replacing it lays them out again.
    public var fontMetricsProvider: FontMetricsProvider? {
        didSet { syncTextLayout() }
    }
    /// The font of typed and published text (the theme's text font unless `setTextFont` changed
    /// it); words converted in place take its family at the size of their ink.
    public internal(set) var textFont: FontSpec = Editor.defaultTextFont
    public let toolController = ToolController()
    /// Model millimetres -> view pixels.
    public private(set) var viewTransform: Transform
    /// View pixels per model millimetre at zoom 1 (96 dpi by default; the window sets the screen's).
    public var pixelsPerMillimetre: Double = 96 / 25.4 {
        didSet {
            viewTransform = Transform(scale: pixelsPerMillimetre * zoomLevel, tx: viewTransform.tx, ty: viewTransform.ty)
            syncTextLayout()  // the page width changed
        }
    }
    public private(set) var zoomLevel: Double = 1
    public private(set) var viewSize: (width: Int, height: Int)?
    /// Recognizes Text blocks' ink; nil disables recognition. Defaults to
    /// `TextRecognizerAdapter.shared` (the bundled weights) when they are found.
    public var recognizer: InkRecognizer? = TextRecognizerAdapter.shared

    private(set) var attached: ContentPart?
    var undoStack: [Transaction] = []
    var redoStack: [Transaction] = []
    var grid = StrokeGrid()
    /// Boxes of the root's children as the last block flow left them (see `relayout`).
    var flowBoxes: [String: Rect] = [:]
    var pointers: [Int: ActivePointer] = [:]
    private var delegates: [WeakDelegate] = []
    var callbackDepth = 0
    /// Selected block ids (tap or lasso).
    public internal(set) var selection: Set<String> = []
    /// Selected stroke ids (lasso).
    public internal(set) var selectedStrokes: Set<String> = []
    var wordSelection: WordRef?
    /// The last touch tap (time ms, model point, block id) for double-tap detection.
    var lastTap: (t: Int64, p: Point, blockId: String?)?
    /// False while a `pointerEvents` batch asked for no gesture processing.
    var gesturesAllowed = true
    let recognition = RecognitionQueue()
    var batchDepth = 0
    var pendingBlockIds: [String] = []
    /// What the model's text layout was last made with (see `syncTextLayout`).
    var textLayoutInputs: TextLayoutInputs?

    init(engine: Engine, renderer: Renderer?, fontMetricsProvider: FontMetricsProvider?) {
        self.engine = engine
        self.configuration = Configuration(parent: engine.configuration)
        self.renderer = renderer
        self.fontMetricsProvider = fontMetricsProvider
        self.viewTransform = Transform(scale: 96 / 25.4, tx: 0, ty: 0)
    }

    // MARK: setup

    public func setViewSize(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw QuireError(.invalidArgument, "view size must be positive (got \(width)x\(height))")
        }
        viewSize = (width, height)
        syncTextLayout()  // the page width changed
        clampView()
        renderer?.invalidate(nil)
    }

    /// The attached part. Setting it reports failures through `onError`; use `setPart` to get them thrown.
    public var part: ContentPart? {
        get { attached }
        set {
            do { try setPart(newValue) } catch let e as QuireError {
                notifyError(blockId: "", code: e.code, message: e.message)
            } catch {
                notifyError(blockId: "", code: .invalidArgument, message: "\(error)")
            }
        }
    }

    /// Attaches a part (or detaches with nil). The view size and font metrics must be set first.
    public func setPart(_ newPart: ContentPart?) throws {
        if let p = newPart {
            guard viewSize != nil else { throw QuireError(.partNotAttached, "call setViewSize before attaching a part") }
            guard fontMetricsProvider != nil else { throw QuireError(.partNotAttached, "set fontMetricsProvider before attaching a part") }
            guard p.package != nil else { throw QuireError(.partNotFound, "part '\(p.id)' was removed from its package") }
            // The recognition configuration is fixed once a part is first attached.
            // A value of another type (a user's configuration file) means the default, as for
            // every other key: it must not keep the part from opening.
            if !p.model.metadata.hasKey("quire.text.configuration.name") {
                try p.model.metadata.setString(configuration[.textConfigurationName], forKey: "quire.text.configuration.name")
                try p.model.metadata.setString(configuration[.textConfigurationBundle], forKey: "quire.text.configuration.bundle")
            }
        }
        pointers.removeAll()
        recognition.cancelAll()
        attached = newPart
        undoStack.removeAll(); redoStack.removeAll()
        selection.removeAll(); selectedStrokes.removeAll(); wordSelection = nil; lastTap = nil
        flowBoxes.removeAll()
        rebuildGrid()
        zoomLevel = 1
        viewTransform = Transform(scale: pixelsPerMillimetre, tx: 0, ty: 0)
        // Typeset words follow this editor's font, metrics and page (a package from before words
        // had their layout in the model gets it now). Not undoable: nothing was done yet.
        textLayoutInputs = nil
        syncTextLayout(notify: false)
        renderer?.invalidate(nil)
        notify { $0.partChanged(self) }
        if let m = newPart?.model {
            for b in m.blocks.values where Self.recognizable(b.type) && !m.strokeIds(inBlock: b.id).isEmpty && b.words.isEmpty {
                scheduleRecognition(blockId: b.id)
            }
        }
    }

    func rebuildGrid() {
        grid.clear()
        guard let m = attached?.model else { return }
        for s in m.strokes.values { grid.insert(s) }
    }

    func requirePart() throws -> PartModel {
        guard let p = attached else { throw QuireError(.partNotAttached, "no part is attached to the editor") }
        return p.model
    }

    // MARK: view transform

    /// Scrolls the view by a delta in view pixels (clamped to the content).
    public func scroll(by delta: Point) {
        guard delta.x.isFinite, delta.y.isFinite else { return }
        viewTransform.tx -= delta.x
        viewTransform.ty -= delta.y
        clampView()
        renderer?.invalidate(nil)
    }

    /// Zooms by `factor` keeping the model point under `point` (view pixels) in place.
    public func zoom(by factor: Double, at point: Point) {
        guard factor.isFinite, factor > 0, point.x.isFinite, point.y.isFinite else { return }
        let newZoom = min(8, max(0.25, zoomLevel * factor))
        let anchor = viewTransform.inverted().apply(point)
        zoomLevel = newZoom
        let s = pixelsPerMillimetre * zoomLevel
        viewTransform = Transform(scale: s, tx: point.x - anchor.x * s, ty: point.y - anchor.y * s)
        clampView()
        renderer?.invalidate(nil)
    }

    /// The extent of the content in model millimetres (at least the page at zoom 1).
    public var contentBox: Rect {
        var box = Rect(x: 0, y: 0, width: Double(viewSize?.width ?? 800) / pixelsPerMillimetre, height: Double(viewSize?.height ?? 600) / pixelsPerMillimetre)
        if let m = attached?.model {
            for b in m.blocks.values where b.id != m.rootId { box = box.union(b.box) }
            for s in m.strokes.values where s.blockId == nil { box = box.union(s.bounds) }
            // Text laid out in a root without a box (a Text part) reaches as far as it goes.
            for w in m.root.words where !w.box.isEmpty { box = box.union(w.box) }
        }
        return box
    }

    /// Keeps the view over the content: no scrolling above/left of the page or far past its end.
    func clampView() {
        guard let size = viewSize else { return }
        let s = viewTransform.scale
        let content = contentBox
        let maxTx = 0.0, maxTy = 0.0
        let minTx = min(0, Double(size.width) - (content.maxX + 20) * s)
        let minTy = min(0, Double(size.height) - (content.maxY + 60) * s)
        viewTransform.tx = min(maxTx, max(minTx, viewTransform.tx))
        viewTransform.ty = min(maxTy, max(minTy, viewTransform.ty))
    }

    func toModel(_ x: Double, _ y: Double) -> Point { viewTransform.inverted().apply(Point(x: x, y: y)) }

    /// Width of the page in model millimetres (the view width at zoom 1).
    var pageWidth: Double { Double(viewSize?.width ?? 800) / pixelsPerMillimetre }

    // MARK: delegates

    public func addDelegate(_ delegate: EditorDelegate) {
        delegates.removeAll { $0.value == nil || $0.value === delegate }
        delegates.append(WeakDelegate(value: delegate))
    }

    public func removeDelegate(_ delegate: EditorDelegate) {
        delegates.removeAll { $0.value == nil || $0.value === delegate }
    }

    func notify(_ body: (EditorDelegate) -> Void) {
        callbackDepth += 1
        defer { callbackDepth -= 1 }
        for d in delegates { if let v = d.value { body(v) } }
    }

    func notifyError(blockId: String, code: QuireError.Code, message: String) {
        notify { $0.onError(self, blockId: blockId, code: code, message: message) }
    }

    // MARK: model changes with undo

    /// Applies changes to the model as one undoable step and tells delegates and the renderer.
    func commit(_ t: Transaction, affecting blockIds: [String]) {
        guard !t.isEmpty, let m = attached?.model else { return }
        syncTextLayout()
        let erased = sealActiveErasures(model: m)
        let t = layingOut(keepingWords(t, model: m))
        var dirty = Rect.zero
        for c in t.changes { dirty = dirty.union(apply(c, to: m)) }
        undoStack.append(t)
        redoStack.removeAll()
        finishChange(blockIds: blockIds + erased, dirty: dirty, model: m)
    }

    /// An eraser pass still in progress has changed the model already. Before another change
    /// lands, what it erased so far becomes its own undo step: undo then runs in the order things
    /// happened (otherwise undoing a later step could bring back a stroke the eraser removed).
    /// Returns the blocks it changed: the eraser's pen-up will no longer name them, so the
    /// caller does (they are read again and delegates told).
    func sealActiveErasures(model m: PartModel) -> [String] {
        var ids: [String] = []
        for (k, p) in pointers where !p.erased.isEmpty {
            undoStack.append(keepingWords(p.erased, model: m))
            ids += Self.affectedBlocks(p.erased, rootId: m.rootId)
            pointers[k]?.erased = Transaction()
        }
        return ids
    }

    /// Recognition rewrites a block's words outside the history, when its results come in. A
    /// step that changes the ink of a block holding words therefore also records the block as it
    /// is (first, so undo restores it last): undo then gives back its words with the user's
    /// candidate picks and styles, which the reading that follows keeps, instead of leaving words
    /// of the step's ink that a fresh reading replaces without them.
    func keepingWords(_ t: Transaction, model m: PartModel) -> Transaction {
        var inked: [String] = []
        var recorded = Set<String>()
        for c in t.changes {
            switch c {
            case .stroke(let o, let n):
                for s in [o, n].compactMap({ $0 }) where !inked.contains(s.blockId ?? m.rootId) { inked.append(s.blockId ?? m.rootId) }
            case .block(let o, let n):
                if let b = o ?? n { recorded.insert(b.id) }
            case .image, .shiftInk:
                break
            }
        }
        let kept: [Change] = inked.compactMap { id in
            guard !recorded.contains(id), let b = m.blocks[id], !b.words.isEmpty else { return nil }
            return .block(old: b, new: b)
        }
        return kept.isEmpty ? t : Transaction(changes: kept + t.changes)
    }

    @discardableResult
    func apply(_ c: Change, to m: PartModel) -> Rect {
        switch c {
        case .stroke(let old, let new):
            var r = Rect.zero
            if let old { if let cur = m.removeStroke(id: old.id) { grid.remove(cur) }; r = r.union(old.bounds) }
            if let new { if let cur = m.strokes[new.id] { grid.remove(cur) }; m.insertStroke(new); grid.insert(new); r = r.union(new.bounds) }
            return r
        case .block(let old, let new):
            if let new { m.setBlock(new) } else if let old { m.removeBlock(id: old.id) }
            return (old?.box ?? .zero).union(new?.box ?? .zero)
        case .image(let entry, _, let new):
            m.setImage(new, entry: entry)
            return .zero
        case .shiftInk(let blockId, let dx, let dy):
            grid.shift(block: blockId, dx: dx, dy: dy)
            if blockId == m.rootId { grid.shift(block: "", dx: dx, dy: dy) }  // the root's strokes may have no block id
            let before = m.inkExtent(inBlock: blockId)
            m.translateStrokes(inBlock: blockId, unitsX: dx, unitsY: dy)
            return (before ?? .zero).union(m.inkExtent(inBlock: blockId) ?? .zero)
        }
    }

    func finishChange(blockIds: [String], dirty: Rect, model m: PartModel) {
        if batchDepth > 0 {
            pendingBlockIds.append(contentsOf: blockIds)
            return
        }
        selection = selection.filter { m.blocks[$0] != nil }
        selectedStrokes = selectedStrokes.filter { m.strokes[$0] != nil }
        if let w = wordSelection, !(m.blocks[w.blockId]?.words.indices.contains(w.index) ?? false) { wordSelection = nil }
        if let r = renderer {
            r.invalidate(dirty.isEmpty && dirty == .zero ? nil : viewTransform.apply(dirty.insetBy(dx: -3, dy: -3)))
        }
        let ids = Array(Set(blockIds.filter { m.blocks[$0] != nil }))
        for id in ids where Self.recognizable(m.blocks[id]!.type) { scheduleRecognition(blockId: id) }
        notify { $0.contentChanged(self, blockIds: blockIds) }
    }

    static func affectedBlocks(_ t: Transaction, rootId: String) -> [String] {
        var ids: [String] = []
        for c in t.changes {
            switch c {
            case .stroke(let o, let n): ids.append(o?.blockId ?? n?.blockId ?? rootId); if let n { ids.append(n.blockId ?? rootId) }
            case .block(let o, let n): ids.append((o ?? n)!.id)
            case .image: break
            case .shiftInk(let b, _, _): ids.append(b)
            }
        }
        return Array(Set(ids))
    }

    func flushBatch() {
        guard batchDepth == 0, !pendingBlockIds.isEmpty, let m = attached?.model else { return }
        let ids = pendingBlockIds
        pendingBlockIds = []
        finishChange(blockIds: Array(Set(ids)), dirty: .zero, model: m)
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Undoes the last model change (a stroke, an erase, a block operation, a conversion...).
    /// Undo, redo and clear first roll back strokes in progress: an erase half done must not
    /// interleave with the history.
    func cancelActivePointers() {
        for id in Array(pointers.keys) { try? pointerCancel(pointerId: id) }
    }

    public func undo() {
        cancelActivePointers()
        syncTextLayout()
        guard let m = attached?.model, let t = undoStack.popLast() else { return }
        var dirty = Rect.zero
        for c in t.changes.reversed() { dirty = dirty.union(apply(c.inverse, to: m)) }
        redoStack.append(t)
        let ids = Self.affectedBlocks(t, rootId: m.rootId)
        refreshTextLayout(ids, model: m)
        finishChange(blockIds: ids, dirty: dirty, model: m)
    }

    public func redo() {
        cancelActivePointers()
        syncTextLayout()
        guard let m = attached?.model, let t = redoStack.popLast() else { return }
        var dirty = Rect.zero
        for c in t.changes { dirty = dirty.union(apply(c, to: m)) }
        undoStack.append(t)
        let ids = Self.affectedBlocks(t, rootId: m.rootId)
        refreshTextLayout(ids, model: m)
        finishChange(blockIds: ids, dirty: dirty, model: m)
    }

    /// Removes all content of the part (one undoable step).
    public func clear() {
        cancelActivePointers()
        guard let m = attached?.model else { return }
        var t = Transaction()
        for s in m.orderedStrokes { t.changes.append(.stroke(old: s, new: nil)) }
        for b in m.blocksInTreeOrder().reversed() where b.id != m.rootId {
            t.changes.append(.block(old: b, new: nil))
            if let img = b.image { t.changes.append(.image(entry: img.entry, old: m.images[img.entry], new: nil)) }
        }
        var root = m.root
        if !root.childIds.isEmpty || root.text != nil || !root.words.isEmpty {
            let old = root
            root.childIds = []; root.text = nil; root.words = []; root.conversion = "handwriting"
            t.changes.append(.block(old: old, new: root))
        }
        commit(t, affecting: [m.rootId])
    }

    // MARK: blocks

    public var rootBlock: ContentBlock? {
        guard let m = attached?.model else { return nil }
        return ContentBlock(id: m.rootId, editor: self, model: m)
    }

    public func getBlockById(_ id: String) -> ContentBlock? {
        guard let m = attached?.model, m.blocks[id] != nil else { return nil }
        return ContentBlock(id: id, editor: self, model: m)
    }
}

private struct WeakDelegate {
    weak var value: EditorDelegate?
}
