import Foundation
import InkModel

// The recognition debug overlay on the page, one layer at a time (`DebugLayers`): the editor's
// F12 and the inspector window draw it here, in the page renderer, in model millimetres.
extension PageRenderer {
    func drawDebug(_ cr: CairoContext, part: PartModel, state: RenderState, dragged: Set<String>, canvas: Rect, only: Set<String>?) {
        let layers = state.debugLayers
        let px = 1 / max(state.transform.scale, 1e-9)
        CairoText.lock()
        defer { CairoText.unlock() }
        cr.save()
        cr.selectFont(theme.debugFont)
        cr.setFontSize(theme.debugFont.size)
        // Bands first: they tint the ink's background, boxes and labels go over them.
        if layers.contains(.lines) { drawLineBands(cr, state.debugLines, px: px) }
        if layers.contains(.frames) { drawFrameStrips(cr, state.debugLines) }
        var labels: [(text: String, anchor: Rect, width: Double)] = []
        for b in part.blocksInTreeOrder() {
            if let only, !only.contains(b.id) { continue }
            cr.save()
            let offset = dragged.contains(b.id) ? state.dragOffset : Point(x: 0, y: 0)
            cr.translate(offset.x, offset.y)
            if layers.contains(.blocks), !b.box.isEmpty {
                cr.setSource(theme.debugBlockColor)
                cr.setLineWidth(px)
                cr.setDash([4 * px, 3 * px])
                cr.rectangle(b.box)
                cr.stroke()
                cr.setDash([])
                cr.moveTo(b.box.x + 0.5, b.box.y - 0.6)
                cr.showText("\(b.type) \(b.id)")
            }
            for w in b.words where !w.box.isEmpty {
                if layers.contains(.chars) {
                    cr.setSource(theme.debugCharColor, alphaScale: 0.9)
                    cr.setLineWidth(px)
                    for ch in w.chars where !ch.box.isEmpty { cr.rectangle(ch.box) }
                    cr.stroke()
                }
                if layers.contains(.words) {
                    cr.setSource(theme.debugWordColor)
                    cr.setLineWidth(1.5 * px)
                    cr.rectangle(w.box)
                    cr.stroke()
                    let baseline = wordBaseline(w, block: b, state: state)
                    cr.setSource(theme.debugBaselineColor)
                    cr.moveTo(w.box.x - 1, baseline)
                    cr.lineTo(w.box.maxX + 1, baseline)
                    cr.stroke()
                }
                guard layers.contains(.labels) else { continue }
                var label = w.chosenLabel
                let others = w.candidates.map(\.label).filter { $0 != w.chosenLabel }.prefix(4)
                if !others.isEmpty { label += "  [" + others.joined(separator: " | ") + "]" }
                // Above the word and clear of a "surround" decoration.
                labels.append((label, w.box.offsetBy(dx: offset.x, dy: offset.y).insetBy(dx: 0, dy: -1), cr.textExtents(label).xAdvance))
            }
            cr.restore()
        }
        if layers.contains(.gestures) { drawGestures(cr, state.debugGestures, px: px) }
        drawLabels(cr, labels, px: px)
        cr.restore()
    }

    /// The labels of neighbouring words (with their candidates, often wider than the word) would
    /// overprint each other: each is placed clear of those before it.
    private func drawLabels(_ cr: CairoContext, _ labels: [(text: String, anchor: Rect, width: Double)], px: Double) {
        let fe = cr.fontExtents()
        let h = fe.ascent + fe.descent
        let frames = DebugLabelLayout.place(anchors: labels.map(\.anchor), sizes: labels.map { ($0.width, h) }, gap: 0.4)
        for (l, f) in zip(labels, frames) {
            if f.maxY < l.anchor.y - 0.5 {
                // Moved up: a thin line leads back to its word.
                cr.setSource(theme.debugLabelColor, alphaScale: 0.5)
                cr.setLineWidth(px)
                cr.moveTo(f.x + 0.5, f.maxY)
                cr.lineTo(l.anchor.x + 0.5, l.anchor.y)
                cr.stroke()
            }
            cr.setSource(theme.debugLabelColor)
            cr.moveTo(f.x, f.y + fe.ascent)
            cr.showText(l.text)
        }
    }

    /// Each line a translucent band of its colour with its number at the left.
    private func drawLineBands(_ cr: CairoContext, _ bands: [DebugLineBand], px: Double) {
        for band in bands {
            let c = DebugPalette.line(band.colour)
            let r = band.box.insetBy(dx: -0.8, dy: -0.8)
            cr.setSourceRGBA(c.r, c.g, c.b, 0.14)
            cr.rectangle(r)
            cr.fill()
            cr.setSourceRGBA(c.r, c.g, c.b, 0.9)
            cr.setLineWidth(3 * px)
            cr.moveTo(r.x, r.y)
            cr.lineTo(r.x, r.maxY)
            cr.stroke()
            let e = cr.textExtents(band.label)
            cr.moveTo(r.x - e.xAdvance - 0.6, r.y + (r.height + theme.debugFont.size * 0.7) / 2)
            cr.showText(band.label)
        }
    }

    /// Under each band, the best class of each frame at its ink (a dot for the blank), darker
    /// where the network was surer; a letter that would overprint the one before is left out.
    private func drawFrameStrips(_ cr: CairoContext, _ bands: [DebugLineBand]) {
        let size = theme.debugFont.size * 0.75
        cr.save()
        cr.setFontSize(size)
        let fe = cr.fontExtents()
        for band in bands where !band.frames.isEmpty {
            let top = band.box.maxY + 1
            let xs = band.frames.map(\.x)
            let strip = Rect(x: (xs.min() ?? band.box.x) - 0.5, y: top, width: (xs.max() ?? band.box.x) - (xs.min() ?? band.box.x) + 1.5,
                             height: fe.ascent + fe.descent + 0.4)
            // A light backing keeps the strip legible over ink or guides below the line.
            cr.setSourceRGBA(1, 1, 1, 0.75)
            cr.rectangle(strip)
            cr.fill()
            var lastRight = -Double.infinity
            for f in band.frames {
                let text = f.character.map { String($0) } ?? "·"
                let w = cr.textExtents(text).xAdvance
                let x = f.x - w / 2
                if x < lastRight { continue }
                lastRight = x + w * (f.character == nil ? 1.2 : 1.05)
                let ink = DebugPalette.frames
                cr.setSourceRGBA(ink.r, ink.g, ink.b, f.character == nil ? 0.3 : 0.25 + 0.75 * min(1, max(0, f.probability)))
                cr.moveTo(x, top + 0.2 + fe.ascent)
                cr.showText(text)
            }
        }
        cr.restore()
    }

    /// Gesture strokes dashed in red with what became of them.
    private func drawGestures(_ cr: CairoContext, _ marks: [DebugGestureMark], px: Double) {
        let c = DebugPalette.gesture
        for m in marks {
            guard let first = m.points.first else { continue }
            cr.setSourceRGBA(c.r, c.g, c.b, 0.85)
            cr.setLineWidth(2 * px)
            cr.setDash([5 * px, 3 * px])
            cr.moveTo(first.x, first.y)
            for p in m.points.dropFirst() { cr.lineTo(p.x, p.y) }
            cr.stroke()
            cr.setDash([])
            let top = m.points.min { $0.y < $1.y } ?? first
            cr.moveTo(m.points.map(\.x).min() ?? first.x, top.y - 0.8)
            cr.showText(m.label)
        }
    }
}
