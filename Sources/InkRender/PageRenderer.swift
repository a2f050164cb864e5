import Foundation
import InkMath
import InkModel

/// What `PageRenderer.draw` includes besides the model.
struct DrawOptions {
    var background = true
    var selection = true
    /// Live strokes and lasso (the window renderer draws these on its overlay instead).
    var overlay = true
    var debug = true
    /// Model rectangle standing in for blocks without a box (the root of a Text part): the visible
    /// area on screen, the exported area in exports.
    var canvas: Rect?
    /// Only these blocks (and their strokes) are drawn; nil draws all.
    var onlyBlocks: Set<String>?
    /// Thinnest ink in device units, so hairlines stay visible when zoomed out; 0 in exports.
    var minInkWidthDevice = 0.75
    /// Typeset text is left to the caller (SVG writes it as <text>).
    var skipText = false
    /// Ink edges with Cairo's fast anti-aliasing (a 4x4 sub-pixel grid instead of 256x15): on
    /// screen at ink sizes it looks the same and fills in half the time; exports keep the best.
    var fastInk = false
    /// Level of detail of ink, in device pixels (0: every point): centre lines are simplified
    /// within this tolerance (`InkPath.simplify`). On screen it is well under half a pixel, so the
    /// ink looks the same; exports keep every point.
    var inkDetail = 0.0
}

/// Draws a `PartModel` with a `RenderState` using Cairo: ink, guides, typeset text, images,
/// selection, lasso, live strokes and the recognition debug overlay.
///
/// Confined to one thread (it reads the model, which is not thread-safe). Decoded images are cached
/// by entry name, and a failure to decode one is reported once through `onImageError`.
public final class PageRenderer {
    public var theme: Theme
    public let fontMetrics: CairoFontMetrics
    /// Cap on decoded pixels per image (`image.max-pixels`).
    public var maxImagePixels: Int
    /// Called with the block id and the error when an image cannot be shown (a placeholder is drawn).
    public var onImageError: ((String, QuireError) -> Void)?

    private struct CachedImage {
        var fingerprint: Int
        var surface: CairoSurface?
        var error: QuireError?
    }
    private var images: [String: CachedImage] = [:]
    private var reported: Set<String> = []
    /// Each block's strokes in drawing order, kept until its ink changes: a redraw of a strip or a
    /// damaged rectangle then visits bounds only, instead of gathering and sorting every stroke.
    private var inkCache: [String: (revision: Int, strokes: [InkStroke])] = [:]
    private weak var inkCachePart: PartModel?
    /// The blocks in tree order at a revision of `inkCachePart`: a window draws the page a tile
    /// (or a damaged rectangle) at a time, and walking the tree for each cost more than the tile.
    private var treeOrder: (revision: Int, blocks: [BlockData])?

    public init(theme: Theme = .default, fontMetrics: CairoFontMetrics = CairoFontMetrics(),
                maxImagePixels: Int = ImageCodec.defaultMaxPixels) {
        self.theme = theme; self.fontMetrics = fontMetrics; self.maxImagePixels = maxImagePixels
    }

    /// Renders the whole view into a new ARGB image surface of the view size.
    public func render(part: PartModel, state: RenderState) throws -> CairoSurface {
        try render(part: part, state: state, options: DrawOptions())
    }

    func render(part: PartModel, state: RenderState, options: DrawOptions) throws -> CairoSurface {
        let s = try CairoSurface(width: max(1, state.viewWidth), height: max(1, state.viewHeight))
        let cr = CairoContext(s)
        draw(cr, part: part, state: state, clip: nil, options: options)
        s.flush()
        return s
    }

    /// `render(part:state:)` encoded as PNG.
    public func renderPNG(part: PartModel, state: RenderState) throws -> Data {
        try render(part: part, state: state).pngData()
    }

    // MARK: drawing

    /// The strokes of a block in creation order (cached per block, see `inkCache`).
    func strokes(_ part: PartModel, inBlock id: String) -> [InkStroke] {
        cachesFollow(part)
        let rev = part.inkRevision(ofBlock: id)
        if let c = inkCache[id], c.revision == rev { return c.strokes }
        let strokes = part.strokes(inBlock: id)
        inkCache[id] = (rev, strokes)
        return strokes
    }

    /// The per-part caches belong to `part` from now on.
    private func cachesFollow(_ part: PartModel) {
        guard inkCachePart !== part else { return }
        inkCache.removeAll()
        treeOrder = nil
        inkCachePart = part
    }

    /// `part.blocksInTreeOrder()`, kept until the part changes.
    func blocksInTreeOrder(_ part: PartModel) -> [BlockData] {
        cachesFollow(part)
        if let t = treeOrder, t.revision == part.revision { return t.blocks }
        let blocks = part.blocksInTreeOrder()
        treeOrder = (part.revision, blocks)
        return blocks
    }

    /// Draws into `cr` whose current matrix maps view pixels to the device. `clip` is in view pixels.
    func draw(_ cr: CairoContext, part: PartModel, state: RenderState, clip: Rect?, options: DrawOptions) {
        cr.save()
        defer { cr.restore() }
        let viewClip = clip ?? state.viewRect
        if let clip { cr.clip(to: clip) }
        cr.applyFontOptions()
        cr.setAntialias(.default)
        if options.background {
            cr.setSource(state.background ?? theme.background)
            cr.paint()
        }
        let t = state.transform
        let scale = max(t.scale, 1e-9)
        let visibleModel = t.inverted().apply(viewClip)
        let canvas = options.canvas ?? t.inverted().apply(state.viewRect)
        let dragged = draggedIds(part, state)
        let drag = state.dragOffset
        let deviceScale = max(cr.matrixScale, 1e-9)
        let minInk = options.minInkWidthDevice / (scale * deviceScale)

        cr.save()
        cr.transform(t)
        var visited = Set<String>()
        for b in blocksInTreeOrder(part) {
            visited.insert(b.id)
            if let only = options.onlyBlocks, !only.contains(b.id) { continue }
            let isDragged = dragged.contains(b.id)
            let offset = isDragged ? drag : Point(x: 0, y: 0)
            let cull = visibleModel.offsetBy(dx: -offset.x, dy: -offset.y)
            cr.save()
            if isDragged { cr.translate(drag.x, drag.y) }
            let area = b.box.isEmpty ? canvas : b.box
            if b.kind == .text, state.guides, state.guideSpacing > 0, area.intersects(cull) || b.box.isEmpty {
                drawGuides(cr, block: b, area: area, spacing: state.guideSpacing, visible: cull, scale: scale * deviceScale)
            }
            if b.kind == .image, !b.box.isEmpty, b.box.intersects(cull) { drawImage(cr, block: b, part: part) }
            if !options.skipText {
                drawText(cr, block: b, spacing: state.guideSpacing)
                if b.properties[TypesetMath.propertyKey] != nil { MathPainter(theme: theme, metrics: fontMetrics).draw(cr, block: b) }
            }
            drawDecorations(cr, block: b, scale: scale * deviceScale)
            if options.fastInk { cr.setAntialias(.fast) }
            drawStrokes(cr, strokes(part, inBlock: b.id), cull: cull, pressure: state.pressure, scale: scale * deviceScale, minWidth: minInk,
                        upTo: state.strokeLimit, detail: options.inkDetail)
            cr.restore()
        }
        if options.onlyBlocks == nil {
            // Strokes whose block is gone still belong to the document: draw them rather than hide them.
            let orphanBlocks = part.blockIdsWithInk.filter { !visited.contains($0) }
            if !orphanBlocks.isEmpty {
                let orphans = orphanBlocks.flatMap { strokes(part, inBlock: $0) }.sorted { $0.seq < $1.seq }
                cr.save()
                if options.fastInk { cr.setAntialias(.fast) }
                drawStrokes(cr, orphans, cull: visibleModel, pressure: state.pressure, scale: scale * deviceScale, minWidth: minInk,
                            upTo: state.strokeLimit, detail: options.inkDetail)
                cr.restore()
            }
        }
        if state.debugBoxes, options.debug {
            drawDebug(cr, part: part, state: state, dragged: dragged, canvas: canvas, only: options.onlyBlocks)
        }
        if options.overlay {
            for live in state.liveStrokes {
                let pts = InkPath.points(of: live.samples)
                InkPath.draw(cr, points: pts, tool: live.tool, color: theme.color(tool: live.tool, color: live.color),
                             width: theme.width(tool: live.tool, width: live.width), pressure: state.pressure,
                             scale: scale * deviceScale, highlighterAlpha: theme.highlighterAlpha, minWidth: minInk)
            }
        }
        cr.restore()
        if options.selection {
            if let f = state.selectionFrame {
                drawSelectionFrame(cr, f)
            } else {
                for r in selectionRects(part: part, state: state) { drawSelection(cr, r) }
            }
        }
        if options.overlay { drawLasso(cr, state.lasso) }
    }

    /// The selection alone, over a page drawn without it (the window's tiles hold no selection).
    /// `clip` is in view pixels; the matrix maps view pixels to the device.
    func drawSelectionLayer(_ cr: CairoContext, part: PartModel, state: RenderState, clip: Rect) {
        cr.save()
        defer { cr.restore() }
        cr.clip(to: clip)
        cr.setAntialias(.default)
        if let f = state.selectionFrame {
            drawSelectionFrame(cr, f)
        } else {
            for r in selectionRects(part: part, state: state) where r.intersects(clip) { drawSelection(cr, r) }
        }
    }

    /// The dragged block and its descendants.
    func draggedIds(_ part: PartModel, _ state: RenderState) -> Set<String> {
        guard let id = state.dragBlockId, part.blocks[id] != nil else { return [] }
        var out = Set<String>(), stack = [id]
        while let x = stack.popLast() {
            guard out.insert(x).inserted, let b = part.blocks[x] else { continue }
            stack.append(contentsOf: b.childIds)
        }
        return out
    }

    private func drawStrokes(_ cr: CairoContext, _ strokes: [InkStroke], cull: Rect, pressure: Bool, scale: Double, minWidth: Double,
                             upTo limit: Int64?, detail: Double = 0) {
        // Highlighter under pen ink, as on paper: it tints the writing instead of covering it.
        for pass in 0..<2 {
            for s in strokes where (s.tool == "highlighter") == (pass == 0) && (limit == nil || s.seq <= limit!) {
                let w = theme.width(tool: s.tool, width: s.width)
                guard strokeInkBounds(s, width: w, pressure: pressure).intersects(cull) else { continue }
                InkPath.draw(cr, points: InkPath.points(of: s), tool: s.tool, color: theme.color(of: s), width: w,
                             pressure: pressure, scale: scale, highlighterAlpha: theme.highlighterAlpha, minWidth: minWidth, detail: detail)
            }
        }
    }

    /// Ink bounds in model units, with room for spline overshoot.
    func strokeInkBounds(_ s: InkStroke, width: Double, pressure: Bool) -> Rect {
        InkPath.inkBounds(s.bounds, width: width, pressure: pressure).insetBy(dx: -0.5, dy: -0.5)
    }

    /// Everything a block shows, in model units (box, strokes, decorations), without drag offset.
    func blockExtent(_ part: PartModel, _ b: BlockData, pressure: Bool) -> Rect? {
        var r: Rect? = b.box.isEmpty ? nil : b.box
        for s in strokes(part, inBlock: b.id) {
            let e = strokeInkBounds(s, width: theme.width(tool: s.tool, width: s.width), pressure: pressure)
            r = r.map { $0.union(e) } ?? e
        }
        for w in b.words where !w.box.isEmpty {
            let e = w.box.insetBy(dx: -1.5, dy: -1.5)
            r = r.map { $0.union(e) } ?? e
        }
        return r
    }

    /// Extent of a block and its descendants.
    func subtreeExtent(_ part: PartModel, _ id: String, pressure: Bool) -> Rect? {
        var r: Rect?, stack = [id], seen = Set<String>()
        while let x = stack.popLast() {
            guard seen.insert(x).inserted, let b = part.blocks[x] else { continue }
            if let e = blockExtent(part, b, pressure: pressure) { r = r.map { $0.union(e) } ?? e }
            stack.append(contentsOf: b.childIds)
        }
        return r
    }

    /// View-pixel rectangles of the selection highlight (including its outline).
    func selectionRects(part: PartModel, state: RenderState) -> [Rect] {
        let dragged = draggedIds(part, state)
        let frame = state.selectionFrame.map { [$0.drawnRect] } ?? []
        return frame + state.selectedBlockIds.sorted().compactMap { id in
            guard let b = part.blocks[id], var e = subtreeExtent(part, id, pressure: state.pressure) else { return nil }
            if id == part.rootId, !b.box.isEmpty { e = b.box }
            if dragged.contains(id) { e = e.offsetBy(dx: state.dragOffset.x, dy: state.dragOffset.y) }
            return state.transform.apply(e).insetBy(dx: -4, dy: -4)
        }
    }

    private func drawSelection(_ cr: CairoContext, _ r: Rect) {
        let sel = theme.selectionColor
        cr.setSource(sel, alphaScale: theme.selectionFillAlpha)
        cr.rectangle(r)
        cr.fill()
        if theme.selectionWidth > 0 {
            cr.setSource(sel)
            cr.setLineWidth(theme.selectionWidth)
            // Half-pixel aligned so a 1-2 px outline stays crisp.
            cr.rectangle(r.x.rounded() + 0.5, r.y.rounded() + 0.5, r.width.rounded() - 1, r.height.rounded() - 1)
            cr.stroke()
            let h = 6.0
            for (x, y) in [(r.x, r.y), (r.maxX, r.y), (r.x, r.maxY), (r.maxX, r.maxY)] {
                cr.rectangle((x - h / 2).rounded(), (y - h / 2).rounded(), h, h)
            }
            cr.fill()
        }
    }

    /// A lasso selection: dashed outline, square corner handles and the round rotate handle
    /// on a stem, white-filled so they show on ink.
    private func drawSelectionFrame(_ cr: CairoContext, _ f: SelectionFrame) {
        let sel = theme.selectionColor
        let r = f.box
        cr.save()
        cr.setSource(sel, alphaScale: theme.selectionFillAlpha * 0.5)
        cr.rectangle(r)
        cr.fill()
        cr.setSource(sel)
        cr.setLineWidth(max(theme.selectionWidth, 1))
        cr.setDash([5, 3])
        cr.rectangle(r.x.rounded() + 0.5, r.y.rounded() + 0.5, r.width.rounded(), r.height.rounded())
        cr.stroke()
        cr.setDash([])
        let h = f.handleSize, top = Point(x: r.midX, y: r.y), knob = f.rotateHandle
        cr.moveTo(top.x, top.y)
        cr.lineTo(knob.x, knob.y + h / 2)
        cr.stroke()
        for c in f.corners { cr.rectangle((c.x - h / 2).rounded(), (c.y - h / 2).rounded(), h, h) }
        cr.newSubPath()
        cr.arc(knob.x, knob.y, radius: h / 2, from: 0, to: 2 * Double.pi)
        cr.setSourceRGB(1, 1, 1)
        cr.fillPreserve()
        cr.setSource(sel)
        cr.setLineWidth(1.5)
        cr.stroke()
        cr.restore()
    }

    /// Draws the lasso polygon (view pixels) with the identity-to-view matrix current.
    func drawLasso(_ cr: CairoContext, _ lasso: [Point]) {
        guard lasso.count >= 2 else { return }
        cr.save()
        cr.moveTo(lasso[0].x, lasso[0].y)
        for p in lasso.dropFirst() { cr.lineTo(p.x, p.y) }
        cr.closePath()
        cr.setSource(theme.lassoColor, alphaScale: theme.lassoFillAlpha)
        cr.fillPreserve()
        cr.setSource(theme.lassoColor)
        cr.setLineWidth(max(theme.lassoWidth, 0.5))
        cr.setDash([6, 4])
        cr.stroke()
        cr.restore()
    }

    /// Bounding box of a lasso as drawn, in view pixels.
    func lassoRect(_ lasso: [Point]) -> Rect? {
        guard lasso.count >= 2 else { return nil }
        let xs = lasso.map(\.x), ys = lasso.map(\.y)
        let pad = theme.lassoWidth + 2
        return Rect(x: xs.min()! - pad, y: ys.min()! - pad, width: xs.max()! - xs.min()! + 2 * pad,
                    height: ys.max()! - ys.min()! + 2 * pad)
    }

    // MARK: guides and text

    private func drawGuides(_ cr: CairoContext, block b: BlockData, area: Rect, spacing: Double, visible: Rect, scale: Double) {
        cr.save()
        cr.clip(to: area)
        // A hairline at least one device pixel wide keeps guides visible but quiet at any zoom.
        cr.setLineWidth(max(theme.guideWidth, 1 / scale))
        cr.setSource(theme.guideColor)
        let originY = b.box.isEmpty ? 0 : area.y
        let top = max(area.y, visible.y), bottom = min(area.maxY, visible.maxY)
        var k = max(1, ((top - originY) / spacing).rounded(.down))
        let x0 = max(area.x, visible.x), x1 = min(area.maxX, visible.maxX)
        var lines = 0
        while originY + k * spacing <= bottom, lines < 10_000 {
            let y = originY + k * spacing
            if y >= area.y {
                cr.moveTo(x0, y)
                cr.lineTo(x1, y)
            }
            k += 1; lines += 1
        }
        cr.stroke()
        if theme.margin > 0 {
            let mx = (b.box.isEmpty ? 0 : area.x) + theme.margin
            if mx >= visible.x, mx <= visible.maxX {
                cr.setSource(theme.marginColor)
                cr.moveTo(mx, max(area.y, visible.y))
                cr.lineTo(mx, min(area.maxY, visible.maxY))
                cr.stroke()
            }
        }
        cr.restore()
    }

    /// The typeset text of a block as drawn: its words where the editor laid them out (the
    /// model's boxes, in the block's `textFont`), else laid out here by the same `TextLayout` with
    /// the theme's font and margin (a model no editor attached, or one written before words
    /// had their layout in the model; a block without a box then takes `TextLayout.defaultPageWidth`).
    func textRuns(_ b: BlockData, spacing: Double) -> [TextRun] {
        if let f = b.textFont, TextLayout.isUsable(f) { return TextLayout.runs(of: b, metrics: fontMetrics) }
        guard b.text != nil || !b.words.isEmpty else { return [] }
        let layout = TextLayout(font: theme.textFont, margin: theme.margin, guideSpacing: spacing,
                                pageWidth: TextLayout.defaultPageWidth, metrics: fontMetrics)
        return TextLayout.runs(of: layout.layout(b), metrics: fontMetrics)
    }

    private func drawText(_ cr: CairoContext, block b: BlockData, spacing: Double) {
        let runs = textRuns(b, spacing: spacing)
        guard !runs.isEmpty else { return }
        CairoText.lock()
        defer { CairoText.unlock() }
        cr.save()
        cr.setSource(theme.textColor)
        var current: FontSpec?
        for r in runs {
            if r.font != current {
                cr.selectFont(r.font)
                cr.setFontSize(r.font.size)
                current = r.font
            }
            cr.moveTo(r.x, r.baseline)
            cr.showText(r.text)
        }
        cr.restore()
    }

    /// Gesture styles on handwritten words: underline and surround.
    private func drawDecorations(_ cr: CairoContext, block b: BlockData, scale: Double) {
        for w in b.words where !w.styles.isEmpty && !w.box.isEmpty {
            cr.save()
            cr.setSource(theme.penColor)
            cr.setLineWidth(max(theme.penWidth * 0.8, 1 / scale))
            cr.setLineCap(.round)
            if w.styles.contains("underline") {
                cr.moveTo(w.box.x, w.box.maxY + 0.8)
                cr.lineTo(w.box.maxX, w.box.maxY + 0.8)
                cr.stroke()
            }
            if w.styles.contains("surround") {
                cr.roundedRect(w.box.insetBy(dx: -1.2, dy: -1.2), radius: 1.5)
                cr.stroke()
            }
            cr.restore()
        }
    }

    // MARK: images

    /// The decoded image of a block, or the reason there is none.
    func image(for b: BlockData, part: PartModel) -> Result<CairoSurface, QuireError> {
        guard let ref = b.image else { return .failure(QuireError(.imageError, "image block \(b.id) has no image")) }
        guard let data = part.images[ref.entry] else {
            return .failure(QuireError(.imageError, "image data '\(ref.entry)' of block \(b.id) is missing"))
        }
        let fp = ModelDamage.fingerprint(data)
        if let c = images[ref.entry], c.fingerprint == fp {
            if let s = c.surface { return .success(s) }
            return .failure(c.error ?? QuireError(.imageError, "image '\(ref.entry)' cannot be decoded"))
        }
        do {
            let s = try ImageCodec.decodeSurface(data, maxPixels: maxImagePixels)
            images[ref.entry] = CachedImage(fingerprint: fp, surface: s, error: nil)
            return .success(s)
        } catch {
            let q = (error as? QuireError) ?? QuireError(.imageError, "\(error)")
            let e = QuireError(q.code, "image '\(ref.entry)' of block \(b.id): \(q.message)")
            images[ref.entry] = CachedImage(fingerprint: fp, surface: nil, error: e)
            return .failure(e)
        }
    }

    private func drawImage(_ cr: CairoContext, block b: BlockData, part: PartModel) {
        switch image(for: b, part: part) {
        case .success(let s):
            cr.save()
            cr.clip(to: b.box)
            cr.translate(b.box.x, b.box.y)
            cr.scale(b.box.width / Double(s.width), b.box.height / Double(s.height))
            cr.setSource(s, filter: .good)
            cr.paint()
            cr.restore()
        case .failure(let e):
            drawPlaceholder(cr, b.box)
            let key = "\(b.id)|\(e.message)"
            if !reported.contains(key) {
                reported.insert(key)
                onImageError?(b.id, e)
            }
        }
    }

    /// A grey box with a cross: visibly "an image belongs here", never an empty gap.
    private func drawPlaceholder(_ cr: CairoContext, _ r: Rect) {
        cr.save()
        cr.setSource(theme.placeholderColor)
        cr.rectangle(r)
        cr.fill()
        cr.setSource(theme.placeholderCrossColor)
        cr.setLineWidth(max(0.3, min(r.width, r.height) * 0.015))
        cr.moveTo(r.x, r.y); cr.lineTo(r.maxX, r.maxY)
        cr.moveTo(r.maxX, r.y); cr.lineTo(r.x, r.maxY)
        cr.rectangle(r)
        cr.stroke()
        cr.restore()
    }

    /// Words carry no baseline: in Text blocks it is the guide nearest the word's bottom, else the bottom.
    func wordBaseline(_ w: RecognizedWord, block b: BlockData, state: RenderState) -> Double {
        guard b.kind == .text, state.guideSpacing > 0 else { return w.box.maxY }
        let origin = b.box.isEmpty ? 0 : b.box.y
        let k = ((w.box.maxY - origin) / state.guideSpacing).rounded()
        let y = origin + k * state.guideSpacing
        return abs(y - w.box.maxY) < state.guideSpacing / 2 ? y : w.box.maxY
    }
}
