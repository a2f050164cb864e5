import Foundation
import InkModel
import InkRender

/// What the model's text layout depends on besides the blocks themselves.
struct TextLayoutInputs: Equatable {
    var font: FontSpec
    var margin: Double
    var spacing: Double
    var pageWidth: Double
    var metrics: ObjectIdentifier
}

/// Typeset words in the model: typed and published text, and words converted in place, have
/// boxes laid out by `TextLayout` with this editor's font metrics, kept up to date when their
/// text, their block's width, the font, the metrics, the guides or the page change. Gestures,
/// `hitWord`, selection, export and the renderer all read these boxes.
extension Editor {
    static var defaultTextFont: FontSpec { Theme.default.textFont }

    /// Space kept free left and right of typeset text: the theme's margin, where its margin line is.
    static var textMargin: Double { Theme.default.margin }

    /// Sets the font of typed and published text (and the family of words converted in place).
    /// Their layout in the model changes at once; it is a setting, not an undoable edit.
    public func setTextFont(_ font: FontSpec) throws {
        guard TextLayout.isUsable(font) else {
            throw QuireError(.invalidArgument, "text font needs a family and a size of 0.1 to 500 mm (got '\(font.family)', \(font.size))")
        }
        textFont = font
        syncTextLayout()
    }

    /// The layout typeset words get now; nil without font metrics.
    var textLayout: TextLayout? {
        guard let fm = fontMetricsProvider else { return nil }
        return TextLayout(font: textFont, margin: Self.textMargin, guideSpacing: guideSpacing, pageWidth: pageWidth, metrics: fm)
    }

    /// `b` with its typeset words laid out now (`fresh`: words just converted in place, whose
    /// boxes are still their ink's).
    func laidOut(_ b: BlockData, fresh: Set<Int> = []) -> BlockData {
        textLayout?.layout(b, fresh: fresh) ?? b
    }

    /// A transaction whose new block states have their typeset words laid out, so that undo and
    /// redo bring back text and layout together.
    func layingOut(_ t: Transaction) -> Transaction {
        guard let layout = textLayout else { return t }
        var t = t
        for (k, c) in t.changes.enumerated() {
            if case .block(let old, let new?) = c {
                let laid = layout.layout(new)
                if laid != new { t.changes[k] = .block(old: old, new: laid) }
            }
        }
        return t
    }

    /// Lays out blocks again where their stored layout no longer matches (after undo or redo of a
    /// step made before the font or page changed). Not an undoable change: layout follows.
    @discardableResult
    func refreshTextLayout(_ ids: [String], model m: PartModel) -> [String] {
        guard let layout = textLayout else { return [] }
        var changed: [String] = []
        for id in ids {
            guard let b = m.blocks[id], b.text != nil || b.textFont != nil || b.words.contains(where: \.isTypesetInPlace) else { continue }
            let nb = layout.layout(b)
            if nb != b {
                m.setBlock(nb)
                changed.append(id)
            }
        }
        return changed
    }

    /// Lays out every block again when what layout depends on (font, metrics, guide spacing,
    /// page width) changed since the last time; blocks whose text grew push the blocks below
    /// down. `notify` tells delegates which blocks changed.
    func syncTextLayout(notify: Bool = true) {
        guard let m = attached?.model, let layout = textLayout, let fm = fontMetricsProvider else { return }
        let inputs = TextLayoutInputs(font: layout.font, margin: layout.margin, spacing: layout.guideSpacing,
                                      pageWidth: layout.pageWidth, metrics: ObjectIdentifier(fm))
        guard inputs != textLayoutInputs else { return }
        textLayoutInputs = inputs
        let grownBefore = m.root.childIds.compactMap { m.blocks[$0] }.map(\.box)
        let changed = refreshTextLayout(m.blocksInTreeOrder().map(\.id), model: m)
        guard !changed.isEmpty else { return }
        if m.kind == .textDocument, grownBefore != m.root.childIds.compactMap({ m.blocks[$0] }).map(\.box) {
            relayout(anchor: nil, model: m, record: false)
        }
        renderer?.invalidate(nil)
        if notify { self.notify { $0.contentChanged(self, blockIds: changed) } }
    }

    /// The baseline of a word: of its typeset glyphs once laid out, else estimated from its ink.
    func wordBaseline(_ w: RecognizedWord, in b: BlockData) -> Double {
        if w.isTypesetInPlace, let f = b.textFont, TextLayout.isUsable(f), let fm = fontMetricsProvider {
            return TextLayout.origin(w).top + fm.measure("Hg", font: f).ascent
        }
        return w.baselineEstimate
    }
}
