import Foundation
import InkMath
import InkModel

extension Editor {
    /// Identifies a block's ink cheaply (it runs on the input thread at every pen-up): stroke
    /// ids, sizes and where each lies relative to the first, so a block that only moved (pushed
    /// down by the flow, all its ink with it) keeps its version, and `origin`, the first stroke's
    /// top-left, says how far it moved. In 1/100 mm, the unit strokes are stored and moved in,
    /// so the offsets are exact. Compared within this process only.
    static func inkVersion(_ strokes: [InkStroke]) -> (version: String, origin: Point) {
        var h = Hasher()
        let first = strokes.first?.unitBounds ?? (minX: 0, minY: 0, maxX: 0, maxY: 0)
        for s in strokes {
            let u = s.unitBounds
            h.combine(s.id)
            h.combine(s.count)
            h.combine(Int64(u.minX) - Int64(first.minX))
            h.combine(Int64(u.minY) - Int64(first.minY))
        }
        let unit = InkStroke.unitsPerMillimetre
        return ("\(strokes.count):\(h.finalize())", Point(x: Double(first.minX) / unit, y: Double(first.minY) / unit))
    }

    func scheduleRecognition(blockId: String) {
        guard let m = part?.model, let type = m.blocks[blockId]?.type, let recognizer = recognizers.recognizer(for: type),
              let req = makeRequest(blockId: blockId, model: m) else { return }
        let v = Self.inkVersion(req.strokes)
        recognition.submit(req, version: v.version, origin: v.origin, recognizer: recognizer)
    }

    /// The ink a block's recognizer reads: highlighter strokes mark the words they cover, they
    /// are never letters.
    func recognitionInk(_ blockId: String, model m: PartModel) -> [InkStroke] {
        m.strokes(inBlock: blockId).filter { $0.tool != Tool.highlighter.rawValue }
    }

    /// Where a block's highlighter strokes lie, widened by half their width (a highlighter's
    /// ink is broad; its bounds are those of the pen's path).
    func highlightAreas(_ blockId: String, model m: PartModel) -> [Rect] {
        m.strokes(inBlock: blockId).filter { $0.tool == Tool.highlighter.rawValue }.map { s in
            let half = max(2, Double(s.width) / 2)
            return s.bounds.insetBy(dx: -half / 2, dy: -half)
        }
    }

    func makeRequest(blockId: String, model m: PartModel) -> RecognitionRequest? {
        guard let b = m.blocks[blockId] else { return nil }
        var options: [String: String] = [:]
        for k in TextRecognizerAdapter.optionKeys {
            // Flags are booleans in the configuration; a recognizer reads them as "true"/"false".
            // One lookup per key, no thrown type mismatches: this runs at every pen-up.
            switch configuration.value(forKey: "text.configuration." + k) {
            case .string(let s)?: options[k] = s
            case .boolean(let b)?: options[k] = b ? "true" : "false"
            case .number(let n)?: options[k] = "\(n)"
            case .stringArray, nil: options[k] = ""
            }
        }
        let guides = configuration[.textGuidesEnable]
        return RecognitionRequest(blockId: blockId, blockType: b.type, box: b.box, strokes: recognitionInk(blockId, model: m),
                                  guideSpacing: guides ? guideSpacing : nil, options: options)
    }

    /// What the editor would ask its recognizer to read for a block now (its ink, guides and
    /// `text.configuration.*` values), for running a recognizer directly (the CLI, tools).
    public func recognitionRequest(for block: ContentBlock) throws -> RecognitionRequest {
        let m = try requirePart()
        _ = try block.checkValid()
        guard let req = makeRequest(blockId: block.id, model: m) else {
            throw QuireError(.invalidBlock, "block '\(block.id)' is no longer valid")
        }
        return req
    }

    /// A callback run on the recognition worker whenever a result is ready; the application
    /// then calls `processPendingResults()` on the editor's thread.
    public var onRecognitionResult: (@Sendable () -> Void)? {
        get { recognition.onResult }
        set { recognition.onResult = newValue }
    }

    /// Applies finished recognition results to the model (on the caller's, i.e. the editor's, thread).
    public func processPendingResults() {
        guard let m = attached?.model else { _ = recognition.drain(); return }
        var changed: [String] = []
        var dirty = Rect.zero
        let results = recognition.drain()
        for r in results {
            guard var b = m.blocks[r.blockId] else { continue }
            let now = Self.inkVersion(recognitionInk(r.blockId, model: m))
            guard now.version == r.version else {
                // Read from ink that changed since: the change asked for a new reading (it may be
                // in this very batch), unless the ink only moved with properties that cannot
                // follow it (below).
                let current = results.contains { $0.blockId == r.blockId && $0.version == now.version }
                if !current && !recognition.isPending(r.blockId) { scheduleRecognition(blockId: r.blockId) }
                continue
            }
            if var words = r.words?.map(Self.sanitized) {
                guard b.text == nil else { continue }
                // The block moved while it was read (the flow pushed it down): its words go where
                // its ink is now. Properties are the recognizer's own (a Math block's expressions
                // hold their boxes): those are read again where the ink is.
                let dx = now.origin.x - r.origin.x, dy = now.origin.y - r.origin.y
                if dx != 0 || dy != 0 {
                    guard r.properties.isEmpty else { scheduleRecognition(blockId: r.blockId); continue }
                    words = words.map { Self.shifted($0, dx: dx, dy: dy) }
                }
                let merged = Self.merge(recognized: words, into: b, strokeBounds: { m.strokes[$0]?.bounds },
                                        highlights: highlightAreas(b.id, model: m))
                var properties = b.properties
                for (k, v) in r.properties { properties[k] = v.isEmpty ? nil : v }
                guard merged != b.words || properties != b.properties else { continue }
                b.properties = properties
                if b.kind == .math {
                    // The solver's results beside the ink follow what was read.
                    if let r = MathBlocks.extent(b) { dirty = dirty.union(r) }
                    b = MathBlocks.refreshed(b, options: MathSolverOptions(configuration: configuration), metrics: fontMetricsProvider)
                    if let r = MathBlocks.extent(b) { dirty = dirty.union(r) }
                }
                // Only where words (their decorations, typeset text, debug boxes) were or are now:
                // a full repaint of a large page after every result would hold up the pen.
                for w in b.words + merged where !w.box.isEmpty { dirty = dirty.union(w.box) }
                if !b.box.isEmpty { dirty = dirty.union(b.box) }
                b.words = merged
                m.setBlock(b)
                changed.append(b.id)
            } else if let e = r.error {
                notifyError(blockId: r.blockId, code: r.code ?? .recognitionError, message: e)
            }
        }
        if !changed.isEmpty {
            recorder?.resultsApplied(changed)
            renderer?.invalidate(dirty == .zero ? nil : viewTransform.apply(dirty.insetBy(dx: -4, dy: -4)))
            notify { $0.contentChanged(self, blockIds: changed) }
        }
    }

    /// A word moved with its block's ink; a zero box (no place on the page) stays.
    static func shifted(_ w: RecognizedWord, dx: Double, dy: Double) -> RecognizedWord {
        var w = w
        if w.box != .zero { w.box = w.box.offsetBy(dx: dx, dy: dy) }
        for i in w.chars.indices where w.chars[i].box != .zero { w.chars[i].box = w.chars[i].box.offsetBy(dx: dx, dy: dy) }
        return w
    }

    /// A recognizer's word with its numbers made usable: the recognizer is the application's to
    /// choose, and the model must always save and export (JSON refuses NaN and infinities). A
    /// non-finite score becomes the lowest finite one (the candidate stays, ranked last by score),
    /// a box that is not finite becomes empty, and `selected` is kept within the candidates.
    static func sanitized(_ w: RecognizedWord) -> RecognizedWord {
        func finite(_ r: Rect) -> Rect {
            [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite) ? r : .zero
        }
        var w = w
        for i in w.candidates.indices where !w.candidates[i].score.isFinite {
            w.candidates[i].score = -Double.greatestFiniteMagnitude
        }
        w.box = finite(w.box)
        for i in w.chars.indices { w.chars[i].box = finite(w.chars[i].box) }
        if !w.candidates.indices.contains(w.selected) { w.selected = 0 }
        return w
    }

    /// True when no recognition is running or waiting to be applied. Always false inside a
    /// delegate notification (as the SDK specifies): the model is then in the middle of a change,
    /// even when the notification delivers the last pending result.
    public var isIdle: Bool { callbackDepth == 0 && recognition.isIdle }

    /// Waits for background recognition and applies its results. Throws if called from a delegate
    /// callback (it would deadlock the editor's thread).
    public func waitForIdle() throws {
        guard callbackDepth == 0 else {
            throw QuireError(.busy, "waitForIdle() cannot be called from inside an editor delegate callback")
        }
        // Applying results may ask again (a Math block that moved while it was read): wait for
        // those too, a few rounds at most.
        for _ in 0 ..< 4 {
            recognition.waitIdle()
            processPendingResults()
            if recognition.isIdle { break }
        }
    }

    /// Replaces the ink of a block (nil = every Text and Math block of the part) by typeset text
    /// built from its recognition results, as one undoable step.
    public func convert(_ block: ContentBlock?, targetState: ConversionState) throws {
        let m = try requirePart()
        if let block { _ = try block.checkValid() }
        guard targetState != .handwriting else { return }
        try waitForIdle()
        var targets: [BlockData] = []
        if let block, let b = block.data {
            func collect(_ d: BlockData) {
                if Self.recognizable(d.type) { targets.append(d) }
                d.childIds.compactMap { m.blocks[$0] }.forEach(collect)
            }
            collect(b)
        } else {
            targets = m.blocksInTreeOrder().filter { Self.recognizable($0.type) }
        }
        var t = Transaction()
        var ids: [String] = []
        for b in targets {
            guard let c = conversionChanges(b, targetState: targetState, model: m) else { continue }
            t.changes += c
            ids.append(b.id)
        }
        commit(t, affecting: ids)
        // Reflowed text may need more lines than the ink did.
        if m.kind == .textDocument, !ids.isEmpty { relayout(anchor: nil, model: m) }
    }

    /// The changes that convert one recognizable block (its ink goes, its words are typeset in
    /// place or reflowed as text); nil when there is nothing to convert.
    func conversionChanges(_ b: BlockData, targetState: ConversionState, model m: PartModel) -> [Change]? {
        guard Self.recognizable(b.type) else { return nil }
        let strokes = m.strokes(inBlock: b.id)
        // Typeset math with places a scratch-out kept open converts too: they close up.
        let scratched = b.kind == .math && TypesetMath.decode(b.properties)?.lines.contains { $0.scratched != nil } == true
        guard !strokes.isEmpty || b.text != nil || !b.words.isEmpty || scratched else { return nil }
        var nb = b
        nb.conversion = targetState.rawValue
        if b.kind == .math {
            // Typeset math in place of the ink, at its place and size (MathBlocks).
            guard !strokes.isEmpty || scratched else { return nil }
            nb = MathBlocks.converted(nb, options: MathSolverOptions(configuration: configuration), metrics: fontMetricsProvider)
        } else if targetState == .digitalPublish || b.text != nil {
            // Reflowed to the block's width (laid out in the commit): the words leave their
            // places on the page and keep their candidates and styles.
            nb.text = Self.plainText(of: b)
            if b.text == nil { nb.words = Self.textLines(of: b.words).flatMap { $0.map { b.words[$0] } } }
        } else {
            // In place: each word is typeset where its ink was and stays editable by pen.
            nb.words = b.words.map(Self.typeset)
            nb.properties = nb.properties.filter { !$0.key.hasPrefix("quire.style.") }
            nb = laidOut(nb, fresh: Set(b.words.indices.filter { !b.words[$0].strokeIds.isEmpty }))
        }
        guard nb != b || !strokes.isEmpty else { return nil }
        return strokes.map { .stroke(old: $0, new: nil) } + [.block(old: b, new: nb)]
    }

    /// The words a block shows, with the chosen candidate of each.
    public func candidates(blockId: String, wordIndex: Int) throws -> [Candidate] {
        let m = try requirePart()
        guard let b = m.blocks[blockId], b.words.indices.contains(wordIndex) else {
            throw QuireError(.invalidArgument, "no word \(wordIndex) in block '\(blockId)'")
        }
        return b.words[wordIndex].candidates
    }
}
