import Foundation
import InkModel

extension Engine {
    /// Creates an editor whose configuration reads through to this engine's.
    public func createEditor(renderer: Renderer? = nil, fontMetricsProvider: FontMetricsProvider? = nil) -> Editor {
        Editor(engine: self, renderer: renderer, fontMetricsProvider: fontMetricsProvider)
    }

    /// Creates an editor whose configuration reads through to `parent` (which should itself read
    /// through to this engine's): the SDK's cascade for forms, field over form over engine.
    public func createEditor(configurationParent parent: Configuration, renderer: Renderer? = nil,
                             fontMetricsProvider: FontMetricsProvider? = nil) -> Editor {
        Editor(engine: self, parent: parent, renderer: renderer, fontMetricsProvider: fontMetricsProvider)
    }
}

/// Receives pointer input, routes it through tools, changes the attached part with undo, and
/// manages its blocks. Confined to the thread that uses it; recognition runs on a worker.
///
/// A façade: the work is done by parts with one job each, whose state is their own: `Viewport`
/// (view transform), `History` (undo and redo), `StrokeIndex` (strokes by place), `PointerTable`
/// and the `PointerTool`s of `ToolRegistry` (input), `BlockFlow` (block layout),
/// `TextLayoutTracker` (typeset words), `RecognizerRegistry` and `RecognitionQueue` (recognition).
/// This file holds what ties them together: the attached part, the selection, delegates, and
/// the one path by which the model changes (`commit`, `apply`, undo, redo).
public final class Editor {
    public let engine: Engine
    public let configuration: Configuration
    public let renderer: Renderer?
    /// Measures typeset text: typed, published and converted words are laid out with it (see
    /// `textFont`). Replacing it lays them out again.
    public var fontMetricsProvider: FontMetricsProvider? {
        didSet { syncTextLayout() }
    }
    public let toolController = ToolController()
    /// Records what this editor receives to a session file (see `SessionRecorder`); nil: nothing is recorded.
    public var recorder: SessionRecorder?
    /// Told why each finished pen stroke was or was not taken for a gesture (the inspector); nil:
    /// the classifier explains nothing and costs nothing more.
    public var gestureObserver: ((GestureExplanation) -> Void)?
    /// The stroke the pen or highlighter wrote last on this part (nil before any): what follows
    /// the writing (the candidate bar) finds its block with `block(holdingStroke:)`, since the
    /// block flow may have moved that block away from where the pen lifted.
    public internal(set) var lastStrokeId: String?

    let viewport = Viewport()
    let history = History()
    let pointers = PointerTable()
    let tools = ToolRegistry.standard()
    let flow = BlockFlow()
    let doubleTap = DoubleTap()
    let typesetting = TextLayoutTracker()
    let recognizers = RecognizerRegistry()
    let recognition = RecognitionQueue()
    /// Kept in step with the model by `apply`, its only writer.
    private var strokeIndex = StrokeIndex()

    private(set) var attached: ContentPart?
    private var delegates: [WeakDelegate] = []
    private(set) var callbackDepth = 0
    /// Selected block ids (tap or lasso).
    public private(set) var selection: Set<String> = []
    /// Selected stroke ids (lasso).
    public private(set) var selectedStrokes: Set<String> = []
    /// True when the selection came from the lasso (drawn with its frame and handles).
    private(set) var selectionFramed = false
    private(set) var wordSelection: WordRef?
    /// False while a `pointerEvents` batch asked for no gesture processing.
    private(set) var gesturesAllowed = true
    private var batchDepth = 0
    private var pendingBlockIds: [String] = []

    init(engine: Engine, parent: Configuration? = nil, renderer: Renderer?, fontMetricsProvider: FontMetricsProvider?) {
        self.engine = engine
        self.configuration = Configuration(parent: parent ?? engine.configuration)
        self.renderer = renderer
        self.fontMetricsProvider = fontMetricsProvider
        if let r = TextRecognizerAdapter.shared { register(r) }
        // After the text recognizer, which reads Math blocks too until one of their own is set.
        if let r = MathRecognizerAdapter.shared { register(r) }
    }

    // MARK: setup

    public func setViewSize(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16 else {
            throw QuireError(.invalidArgument, "view size must be positive (got \(width)x\(height))")
        }
        recorder?.view(["e": .string("size"), "w": .number(Double(width)), "h": .number(Double(height))])
        viewport.setSize(width: width, height: height)
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
        history.clear()
        selection.removeAll(); selectedStrokes.removeAll(); wordSelection = nil; doubleTap.reset(); lastStrokeId = nil
        flow.forget()
        rebuildStrokeIndex()
        viewport.reset()
        // Typeset words follow this editor's font, metrics and page (a package from before words
        // had their layout in the model gets it now). Not undoable: nothing was done yet.
        typesetting.invalidate()
        syncTextLayout(notify: false)
        renderer?.invalidate(nil)
        notify { $0.partChanged(self) }
        if let m = newPart?.model {
            for b in m.blocks.values where Self.recognizable(b.type) && !m.strokeIds(inBlock: b.id).isEmpty && b.words.isEmpty {
                scheduleRecognition(blockId: b.id)
            }
        }
    }

    private func rebuildStrokeIndex() {
        strokeIndex.clear()
        guard let m = attached?.model else { return }
        for s in m.strokes.values { strokeIndex.insert(s) }
    }

    /// Ids of the strokes whose bounds may meet `r` (model millimetres): a superset.
    func strokeCandidates(_ r: Rect) -> Set<String> { strokeIndex.candidates(r) }

    func requirePart() throws -> PartModel {
        guard let p = attached else { throw QuireError(.partNotAttached, "no part is attached to the editor") }
        return p.model
    }

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

    // MARK: selection

    /// Selects blocks, and strokes unless `strokes` is nil (then the stroke selection stays);
    /// `framed`: a lasso selection, drawn with handles.
    func select(blocks: Set<String>, strokes: Set<String>? = nil, framed: Bool = false) {
        selection = blocks
        if let strokes { selectedStrokes = strokes }
        selectionFramed = framed && (!blocks.isEmpty || !selectedStrokes.isEmpty)
    }

    func selectWord(_ ref: WordRef?) { wordSelection = ref }

    // MARK: batches

    /// True inside `pointerEvents`: rendering and notifications wait for its end.
    var isBatching: Bool { batchDepth > 0 }

    /// Starts a batch (nested ones join it); returns what `endBatch` restores.
    func beginBatch(gestures: Bool) -> Bool {
        batchDepth += 1
        let before = gesturesAllowed
        gesturesAllowed = before && gestures
        return before
    }

    func endBatch(gestures before: Bool) {
        gesturesAllowed = before
        batchDepth -= 1
        flushBatch()
    }

    // MARK: model changes with undo

    /// Applies changes to the model as one undoable step and tells delegates and the renderer.
    func commit(_ t: Transaction, affecting blockIds: [String]) {
        guard !t.isEmpty, let m = attached?.model else { return }
        syncTextLayout()
        let erased = sealToolChanges(model: m)
        let t = layingOut(t.keepingWords(m))
        var dirty = Rect.zero
        for c in t.changes { dirty = dirty.union(apply(c, to: m)) }
        history.record(t)
        finishChange(blockIds: blockIds + erased, dirty: dirty, model: m)
    }

    /// Records changes a tool already applied to the model (an eraser pass) as one step.
    func recordApplied(_ t: Transaction, model m: PartModel) {
        history.record(t.keepingWords(m))
        finishChange(blockIds: t.affectedBlocks(rootId: m.rootId), dirty: .zero, model: m)
    }

    /// A tool still in use may have changed the model already (an eraser pass). Before another
    /// change lands, what it changed so far becomes its own undo step: undo then runs in the
    /// order things happened (otherwise undoing a later step could bring back a stroke the eraser
    /// removed). Returns the blocks it changed: the tool's up will no longer name them, so the
    /// caller does (they are read again and delegates told).
    private func sealToolChanges(model m: PartModel) -> [String] {
        var ids: [String] = []
        for p in pointers.all {
            let t = p.behaviour.takeAppliedChanges()
            guard !t.isEmpty else { continue }
            history.record(t.keepingWords(m))
            ids += t.affectedBlocks(rootId: m.rootId)
        }
        return ids
    }

    @discardableResult
    func apply(_ c: Change, to m: PartModel) -> Rect {
        switch c {
        case .stroke(let old, let new):
            var r = Rect.zero
            if let old { if let cur = m.removeStroke(id: old.id) { strokeIndex.remove(cur) }; r = r.union(old.bounds) }
            if let new { if let cur = m.strokes[new.id] { strokeIndex.remove(cur) }; m.insertStroke(new); strokeIndex.insert(new); r = r.union(new.bounds) }
            return r
        case .block(let old, let new):
            if let new { m.setBlock(new) } else if let old { m.removeBlock(id: old.id) }
            return (old?.box ?? .zero).union(new?.box ?? .zero)
        case .image(let entry, _, let new):
            m.setImage(new, entry: entry)
            return .zero
        case .shiftInk(let blockId, let dx, let dy):
            strokeIndex.shift(block: blockId, dx: dx, dy: dy)
            if blockId == m.rootId { strokeIndex.shift(block: "", dx: dx, dy: dy) }  // the root's strokes may have no block id
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
        if selection.isEmpty && selectedStrokes.isEmpty { selectionFramed = false }
        if let w = wordSelection, !(m.blocks[w.blockId]?.words.indices.contains(w.index) ?? false) { wordSelection = nil }
        if let r = renderer {
            r.invalidate(dirty.isEmpty && dirty == .zero ? nil : viewTransform.apply(dirty.insetBy(dx: -3, dy: -3)))
        }
        let ids = Array(Set(blockIds.filter { m.blocks[$0] != nil }))
        for id in ids where Self.recognizable(m.blocks[id]!.type) { scheduleRecognition(blockId: id) }
        notify { $0.contentChanged(self, blockIds: blockIds) }
    }

    private func flushBatch() {
        guard batchDepth == 0, !pendingBlockIds.isEmpty, let m = attached?.model else { return }
        let ids = pendingBlockIds
        pendingBlockIds = []
        finishChange(blockIds: Array(Set(ids)), dirty: .zero, model: m)
    }

    public var canUndo: Bool { history.canUndo }
    public var canRedo: Bool { history.canRedo }

    /// Undoes the last model change (a stroke, an erase, a block operation, a conversion...).
    /// Undo, redo and clear first roll back strokes in progress: an erase half done must not
    /// interleave with the history.
    func cancelActivePointers() {
        for id in pointers.ids { try? pointerCancel(pointerId: id) }
    }

    public func undo() {
        cancelActivePointers()
        syncTextLayout()
        guard let m = attached?.model, let t = history.takeUndo() else { return }
        var dirty = Rect.zero
        for c in t.changes.reversed() { dirty = dirty.union(apply(c.inverse, to: m)) }
        let ids = t.affectedBlocks(rootId: m.rootId)
        refreshTextLayout(ids, model: m)
        finishChange(blockIds: ids, dirty: dirty, model: m)
    }

    public func redo() {
        cancelActivePointers()
        syncTextLayout()
        guard let m = attached?.model, let t = history.takeRedo() else { return }
        var dirty = Rect.zero
        for c in t.changes { dirty = dirty.union(apply(c, to: m)) }
        let ids = t.affectedBlocks(rootId: m.rootId)
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
