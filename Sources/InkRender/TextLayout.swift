import Foundation
import InkModel

/// A piece of typeset text on one baseline, in model millimetres: what one show-text call of Cairo draws.
struct TextRun: Equatable {
    var text: String
    var x: Double
    var baseline: Double
    var width: Double
    var font: FontSpec
}

/// The one layout of typeset text.
///
/// Typed and published text (`BlockData.text`) flows into its block: greedy breaking at spaces
/// within the block's width less the margins (a word longer than a line breaks between
/// characters), baselines on the guides. Words converted in place keep their place: each at its
/// ink's left edge on the guide its ink sat on, in one size per block taken from the ink's height,
/// pushed right where an earlier word on the line would overlap it.
///
/// The editor keeps the result in the model: each word's box and its characters' boxes, which are
/// glyph cells (pen position to pen position plus advance, ascent to descent), and the block's
/// `textFont`. The renderer draws typeset words from there (`runs(of:metrics:)`), so what pen
/// gestures and taps hit, what export reports and what is drawn are one layout. A block no
/// editor laid out (no `textFont`) is laid out by the renderer with this same code.
public struct TextLayout: Sendable {
    /// Font of typed and published text; words converted in place take its family and style at
    /// the size of their ink.
    public var font: FontSpec
    /// Space kept free at the left and right of a block, mm.
    public var margin: Double
    /// Millimetres between guides; baselines lie on multiples of it below a block's top. 0: none.
    public var guideSpacing: Double
    /// Width of the area of a block without a box (the root of a Text part), from x = 0, mm.
    public var pageWidth: Double
    /// Measures the text (the editor's `fontMetricsProvider`, or the renderer's Cairo metrics).
    public let metrics: FontMetricsProvider

    /// The page width the renderer lays out a box-less block in when no editor did.
    public static let defaultPageWidth = 180.0

    /// Non-finite or negative lengths count as none (margin, guides) or as the default page width.
    public init(font: FontSpec, margin: Double, guideSpacing: Double, pageWidth: Double, metrics: FontMetricsProvider) {
        self.font = font
        self.margin = margin.isFinite ? max(0, margin) : 0
        self.guideSpacing = guideSpacing.isFinite && guideSpacing > 0 ? guideSpacing : 0
        self.pageWidth = pageWidth.isFinite && pageWidth > 0 ? pageWidth : Self.defaultPageWidth
        self.metrics = metrics
    }

    /// A font text can be laid out and drawn in: a family, and a finite size of 0.1 to 500 mm
    /// (the theme's range). Anything else comes from damaged data and is not used.
    public static func isUsable(_ f: FontSpec) -> Bool { !f.family.isEmpty && f.size.isFinite && f.size >= 0.1 && f.size <= 500 }


    // MARK: words of typed text

    /// A word of typed text: its line (paragraph) and where its characters lie in the text.
    public struct Token: Equatable, Sendable {
        /// The line of the text it is on (lines end at newlines; wrapping is the layout's).
        public var line: Int
        /// Offsets in Characters (grapheme clusters): the word is `start..<end`.
        public var start: Int
        public var end: Int
        /// Its characters.
        public var label: String
    }

    /// Typed text as words: any newline starts a line, any other white space separates words.
    /// The editor's words of a text are these, in this order.
    public static func tokens(_ text: [Character]) -> [Token] {
        var out: [Token] = []
        var line = 0, start: Int?
        for i in 0...text.count {
            let c: Character? = i < text.count ? text[i] : nil
            let separates = c.map { $0.isWhitespace } ?? true
            if separates, let s = start {
                out.append(Token(line: line, start: s, end: i, label: String(text[s..<i])))
                start = nil
            } else if !separates, start == nil {
                start = i
            }
            if let c, c.isNewline { line += 1 }
        }
        return out
    }

    /// `tokens` of a string; offsets count its Characters.
    public static func tokens(_ text: String) -> [Token] { tokens(Array(text)) }

    // MARK: layout

    /// `b` with its typeset words laid out: typed or published text flowed into the block (the
    /// words are the text's, keeping the candidates and styles of words whose label and place
    /// in the text stay), words converted in place set at their places. A Text or Math block
    /// whose text reaches below its box grows to the next guide below the text. Words in `fresh`
    /// were just converted in place: their boxes are still their ink's.
    public func layout(_ b: BlockData, fresh: Set<Int> = []) -> BlockData {
        guard Self.isUsable(font) else { return b }
        var nb = b
        if let text = b.text {
            nb.words = Self.carry(from: b.words, to: flow(text, area: area(of: b)))
            nb.textFont = font
            grow(&nb)
            return nb
        }
        if b.words.contains(where: \.isTypesetInPlace) { return place(b, fresh: fresh) }
        if b.conversion != "handwriting", !b.words.isEmpty, b.words.allSatisfy({ $0.strokeIds.isEmpty }) {
            // Converted words that never had a place (a recognizer gave no boxes): flowed as text.
            let lines = Dictionary(grouping: b.words.indices, by: { b.words[$0].line }).sorted { $0.key < $1.key }
            let text = lines.map { $0.value.map { b.words[$0].chosenLabel }.joined(separator: " ") }.joined(separator: "\n")
            let old = lines.flatMap { $0.value.map { b.words[$0] } }
            nb.words = Self.carry(from: old, to: flow(text, area: area(of: b)))
            nb.textFont = font
            grow(&nb)
            return nb
        }
        nb.textFont = nil
        return nb
    }

    private func area(of b: BlockData) -> Rect {
        b.box.isEmpty ? Rect(x: 0, y: 0, width: pageWidth, height: 0) : b.box
    }

    /// A boxed block holds its text: its bottom moves down to the guide below the lowest word.
    private func grow(_ b: inout BlockData) {
        guard !b.box.isEmpty, let bottom = b.words.map(\.box.maxY).max(), bottom > b.box.maxY else { return }
        let top = b.box.y
        let lines = guideSpacing > 0 ? ((bottom - top) / guideSpacing).rounded(.up) * guideSpacing : bottom - top
        b.box.height = max(b.box.height, lines)
    }

    private struct Face {
        var ascent: Double
        var descent: Double
        var space: Double
    }

    private func face(_ f: FontSpec) -> Face {
        let probe = metrics.measure("Hg", font: f)
        let ok = { (v: Double) in v.isFinite ? max(0, v) : 0 }
        return Face(ascent: ok(probe.ascent), descent: ok(probe.descent), space: ok(metrics.measure(" ", font: f).width))
    }

    /// Glyph cells of `text` with its pen position at `x`, its cells from `top` down `height`.
    private func cells(_ text: String, _ m: TextMetrics, font: FontSpec, x: Double, top: Double, height: Double) -> [RecognizedChar] {
        let graphemes = Array(text)
        if m.glyphBoxes.count == graphemes.count {
            return zip(graphemes, m.glyphBoxes).map { g, r in
                RecognizedChar(label: String(g), box: Rect(x: x + r.x, y: top, width: r.width, height: height))
            }
        }
        // A provider without one box per character: advances one by one.
        var out: [RecognizedChar] = []
        var px = x
        for g in graphemes {
            let w = metrics.measure(String(g), font: font).width
            out.append(RecognizedChar(label: String(g), box: Rect(x: px, y: top, width: w, height: height)))
            px += w
        }
        return out
    }

    /// A word's box: its characters' cells and the ink of its glyphs (which may reach past them).
    private static func bounds(_ chars: [RecognizedChar], ink: [Rect], or fallback: Rect) -> Rect {
        let rects = chars.map(\.box) + ink
        guard let first = rects.first else { return fallback }
        var x0 = first.x, y0 = first.y, x1 = first.maxX, y1 = first.maxY
        for r in rects.dropFirst() {
            x0 = min(x0, r.x); y0 = min(y0, r.y); x1 = max(x1, r.maxX); y1 = max(y1, r.maxY)
        }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The ink of measured text set with its pen at `x` on `baseline`, if the metrics know it.
    private static func ink(_ m: TextMetrics, x: Double, baseline: Double) -> [Rect] {
        guard let r = m.inkBounds, [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite) else { return [] }
        return [r.offsetBy(dx: x, dy: baseline)]
    }

    /// Where a laid-out word starts: the top-left of its first character's cell (its box may
    /// reach further, with the ink of its glyphs).
    public static func origin(_ w: RecognizedWord) -> (x: Double, top: Double) {
        if let c = w.chars.first { return (c.box.x, c.box.y) }
        return (w.box.x, w.box.y)
    }

    /// The words of `text` flowed into `area` (its x, y and width). Each word's `line` is the
    /// line it starts on, counted from the top of the area.
    func flow(_ text: String, area: Rect) -> [RecognizedWord] {
        let f = face(font)
        let lineHeight = (f.ascent + f.descent) * 1.15
        var pitch = guideSpacing > 0 ? guideSpacing * max(1, (lineHeight / guideSpacing).rounded(.up)) : lineHeight
        if !(pitch.isFinite && pitch > 0) { pitch = font.size * 1.2 }
        let height = f.ascent + f.descent
        let left = area.x + margin
        let right = max(left + font.size * 2, area.maxX - margin)
        var out: [RecognizedWord] = []
        var line = 0, paragraph = 0
        var x = left
        var lineHasText = false
        func newLine() { line += 1; x = left; lineHasText = false }
        func top() -> Double { area.y + pitch * Double(line + 1) - f.ascent }
        for tok in Self.tokens(text) {
            if tok.line != paragraph {
                line += tok.line - paragraph
                x = left; lineHasText = false
                paragraph = tok.line
            }
            var rest = Array(tok.label)
            var m = metrics.measure(tok.label, font: font)
            if lineHasText, x + f.space + m.width > right { newLine() }
            if lineHasText { x += f.space }
            let first = line
            var chars: [RecognizedChar] = []
            var ink: [Rect] = []
            if m.glyphBoxes.count == rest.count, m.width > right - x, rest.count > 1 {
                // A word wider than a whole line, cut from its one measurement: measuring the rest
                // again after every cut made a hostile 200,000-letter word take minutes.
                var start = 0
                while start < rest.count {
                    let base = m.glyphBoxes[start].x
                    var end = start + 1
                    while end < rest.count, x + m.glyphBoxes[end].maxX - base <= right { end += 1 }
                    if end < rest.count, x + m.width - base <= right { end = rest.count }
                    for i in start..<end {
                        let g = m.glyphBoxes[i]
                        chars.append(RecognizedChar(label: String(rest[i]), box: Rect(x: x + g.x - base, y: top(), width: g.width, height: height)))
                    }
                    if end == rest.count {
                        x += m.width - base
                    } else {
                        newLine()
                    }
                    start = end
                }
                lineHasText = true
                let box = Self.bounds(chars, ink: [], or: Rect(x: x, y: top(), width: 0, height: height))
                out.append(RecognizedWord(label: tok.label, candidates: [Candidate(label: tok.label, score: 1)], box: box,
                                          line: first, chars: chars))
                continue
            }
            // The same for a provider without one box per character: measured cut by cut.
            while m.width > right - x, rest.count > 1 {
                var n = 0
                for (i, g) in m.glyphBoxes.enumerated() where x + g.maxX <= right { n = i + 1 }
                n = min(max(n, 1), rest.count - 1)
                let head = String(rest.prefix(n))
                let hm = metrics.measure(head, font: font)
                chars += cells(head, hm, font: font, x: x, top: top(), height: height)
                ink += Self.ink(hm, x: x, baseline: top() + f.ascent)
                newLine()
                rest.removeFirst(n)
                m = metrics.measure(String(rest), font: font)
            }
            chars += cells(String(rest), m, font: font, x: x, top: top(), height: height)
            ink += Self.ink(m, x: x, baseline: top() + f.ascent)
            x += m.width
            lineHasText = true
            let box = Self.bounds(chars, ink: ink, or: Rect(x: x - m.width, y: top(), width: m.width, height: height))
            out.append(RecognizedWord(label: tok.label, candidates: [Candidate(label: tok.label, score: 1)], box: box,
                                      line: first, chars: chars))
        }
        return out
    }

    /// Words converted in place, set at their places (other words are left as they are).
    private func place(_ b: BlockData, fresh: Set<Int>) -> BlockData {
        var nb = b
        let placed = b.words.indices.filter { b.words[$0].isTypesetInPlace && !b.words[$0].chosenLabel.isEmpty }
        let old = b.textFont.flatMap { Self.isUsable($0) ? $0 : nil }
        // Boxes still their ink's: all of them before the block was first laid out.
        let fromInk = old == nil ? Set(placed) : fresh.intersection(placed)
        var f = font
        if let old {
            f.size = old.size
        } else if !placed.isEmpty {
            // Ink height without descenders, which add about a third to a word that has them.
            let heights = placed.map { i -> Double in
                let w = b.words[i]
                return w.chosenLabel.contains(where: { "gjpqy".contains($0) }) ? w.box.height * 0.75 : w.box.height
            }.sorted()
            f.size = min(font.size * 3, max(font.size * 0.6, heights[heights.count / 2] * 0.75))
        }
        let face = self.face(f)
        let oldAscent = old.map { self.face($0).ascent } ?? face.ascent
        let origin = b.box.isEmpty ? 0 : b.box.y
        func inkBaseline(_ w: RecognizedWord) -> Double {
            let bottom = w.baselineEstimate
            if b.kind == .text, guideSpacing > 0 {
                let y = origin + ((bottom - origin) / guideSpacing).rounded() * guideSpacing
                if abs(y - bottom) < guideSpacing / 2 { return y }
            }
            return bottom
        }
        struct Anchor { var index: Int; var x: Double; var top: Double; var key: Int }
        var anchors: [Anchor] = []
        for i in placed {
            let w = b.words[i]
            let x: Double, top: Double
            if fromInk.contains(i) {
                x = w.box.x
                top = inkBaseline(w) - face.ascent
            } else {
                // Laid out before: the same pen position and baseline (kept exactly while the font stays).
                let o = Self.origin(w)
                x = o.x
                top = old == f ? o.top : o.top + oldAscent - face.ascent
            }
            anchors.append(Anchor(index: i, x: x, top: top, key: Int(((top + face.ascent) * 100).rounded())))
        }
        // By line, then left to right: a later word is only ever pushed right by earlier ones.
        anchors.sort { ($0.key, $0.x, $0.index) < ($1.key, $1.x, $1.index) }
        var lineEnd: [Int: Double] = [:]
        let height = face.ascent + face.descent
        for a in anchors {
            let label = b.words[a.index].chosenLabel
            let m = metrics.measure(label, font: f)
            let x = max(a.x, (lineEnd[a.key] ?? -.infinity) + face.space)
            let chars = cells(label, m, font: f, x: x, top: a.top, height: height)
            nb.words[a.index].chars = chars
            nb.words[a.index].box = Self.bounds(chars, ink: Self.ink(m, x: x, baseline: a.top + face.ascent),
                                                or: Rect(x: x, y: a.top, width: m.width, height: height))
            lineEnd[a.key] = x + m.width
        }
        nb.textFont = placed.isEmpty ? nil : f
        return nb
    }

    /// The words of a changed text with what the old words carried: a word whose label and place
    /// stay the same (the same words before it, or after it, up to it) keeps its candidates,
    /// choice and styles; words in the changed middle share the styles all replaced words had
    /// (a split underlined word gives two underlined words).
    public static func carry(from old: [RecognizedWord], to new: [RecognizedWord]) -> [RecognizedWord] {
        var out = new
        let o = old.map(\.label), n = new.map(\.label)
        var p = 0
        while p < o.count, p < n.count, o[p] == n[p] { p += 1 }
        var s = 0
        while s < o.count - p, s < n.count - p, o[o.count - 1 - s] == n[n.count - 1 - s] { s += 1 }
        func take(_ i: Int, _ w: RecognizedWord) {
            if w.candidates.indices.contains(w.selected), w.candidates[w.selected].label == out[i].label {
                out[i].candidates = w.candidates
                out[i].selected = w.selected
            }
            out[i].styles = w.styles
        }
        for i in 0..<p { take(i, old[i]) }
        for k in 0..<s { take(n.count - 1 - k, old[o.count - 1 - k]) }
        let replaced = old[p..<(o.count - s)]
        if let first = replaced.first {
            let shared = replaced.dropFirst().reduce(Set(first.styles)) { $0.intersection($1.styles) }
            for i in p..<(n.count - s) { out[i].styles = first.styles.filter { shared.contains($0) } }
        }
        return out
    }

    // MARK: drawing

    /// What a laid-out block draws: the characters of its typeset words, one run per word and
    /// line, each at its first character's cell on the baseline of its cells. Empty when the
    /// block has no usable `textFont`.
    static func runs(of b: BlockData, metrics: FontMetricsProvider) -> [TextRun] {
        guard let font = b.textFont, isUsable(font) else { return [] }
        let ascent = metrics.measure("Hg", font: font).ascent
        var out: [TextRun] = []
        for w in b.words where !w.box.isEmpty && (b.text != nil || w.isTypesetInPlace) {
            guard !w.chars.isEmpty else {
                out.append(TextRun(text: w.chosenLabel, x: w.box.x, baseline: w.box.y + ascent, width: w.box.width, font: font))
                continue
            }
            var i = 0
            while i < w.chars.count {
                var j = i + 1
                while j < w.chars.count, w.chars[j].box.y == w.chars[i].box.y { j += 1 }
                let a = w.chars[i].box, z = w.chars[j - 1].box
                out.append(TextRun(text: w.chars[i..<j].map(\.label).joined(), x: a.x, baseline: a.y + ascent,
                                   width: z.maxX - a.x, font: font))
                i = j
            }
        }
        return out
    }
}
