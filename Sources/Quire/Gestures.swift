import Foundation
import InkModel

/// An editing gesture drawn with the pen (issue 8).
public enum GestureKind: String, CaseIterable, Sendable {
    /// A zig-zag over ink or words: erase them.
    case scratchOut
    /// A horizontal line through words near their mid-height: delete them.
    case strikeThrough
    /// A horizontal line just below words: underline them.
    case underline
    /// A closed loop around words: decorate (surround) them.
    case surround
    /// A vertical line drawn upward in a gap between words or lines: remove the space or line break.
    case join
    /// A vertical line drawn downward through a word: split it (or break the line).
    case split
    /// A long horizontal line across the page between blocks of a Text Document: make or remove space.
    case slice
}

/// What lies under (and around) a candidate gesture stroke.
public struct GestureContext: Sendable {
    /// Boxes (mm, y down) of the words, typeset words and ink strokes near the stroke. The
    /// classifier decides itself which of them the stroke overlaps, so a caller may pass every box
    /// of the block (or the neighbourhood of the stroke) without filtering.
    public var boxes: [Rect]
    /// The typical line height (guide spacing), mm. Lengths that separate a gesture from writing
    /// are relative to it, because people write (and gesture) to the size of the lines.
    public var lineHeight: Double
    /// The stroke lies in a Text Document between blocks, where a slice gesture makes sense.
    public var betweenBlocks: Bool
    /// The y (mm) of one guide line where the block has guides (the others lie `lineHeight`
    /// apart), or nil. Words sit on the guides, so this gives their baseline: without it, a line
    /// just under a word with descenders and one through a word without them look alike.
    public var guideY: Double?

    public init(boxes: [Rect] = [], lineHeight: Double = 10, betweenBlocks: Bool = false, guideY: Double? = nil) {
        self.boxes = boxes
        self.guideY = guideY.flatMap { $0.isFinite ? $0 : nil }
        self.lineHeight = lineHeight.isFinite && lineHeight > 0 ? lineHeight : 10
        self.betweenBlocks = betweenBlocks
    }
}

/// Recognizes edit gestures from the geometry of one stroke and what lies under it.
///
/// It is a deterministic, rule-based classifier: a gesture is a deliberately simple shape (a
/// straight line, a zig-zag, a loop) drawn in a specific relation to existing content, while
/// handwriting is made of short curved strokes whose relation to earlier content is "beside",
/// not "across". Every rule therefore needs both a shape and a relation to the boxes; a stroke
/// matching neither is ink and `classify` returns nil. It walks the samples a few times and
/// allocates nothing.
///
/// The thresholds (see `Thresholds`) were set on synthetic gestures and on the training
/// writers of ../shared/data (every 12th word and gesture-like character); `quire eval-gestures`
/// reports the validation writers: recall 97.6–100% a kind on 1,000 synthetic gestures each, and
/// 0.7% of 14,510 placed handwritten words (7,255 words, alone and in text) mistaken for a gesture.
/// Callers should give word boxes (recognized or typeset words) where they have them: a line
/// gesture refuses narrow, tall boxes (letter strokes), so a single stroke-box of a short word
/// like "it" cannot be struck through on its own.
public struct GestureClassifier: Sendable {
    /// The thresholds, with the reason for each value.
    public struct Thresholds: Sendable {
        /// Minimum length (chord) of a line gesture, × line height. Letter parts (the bar of a t
        /// or f, a hyphen) are under a third of a line; a strike-through of even a short word is
        /// drawn longer than that.
        public var minLineLength = 0.4
        /// A straight stroke's path may be at most this many times its chord (a hand-drawn line
        /// wobbles a few percent; a hook or a letter goes well beyond).
        public var maxStraightRatio = 1.15
        /// ... and stay within this fraction of its chord from the chord (a bowed line is fine,
        /// an arc or a letter is not).
        public var maxDeviation = 0.12
        /// Largest angle from the axis for a horizontal line (degrees). Lines drawn fast drift;
        /// 15° is already a visible slant over a word.
        public var horizontalTolerance = 15.0
        /// Largest angle from the axis for a vertical line (degrees); handwriting slants, so
        /// vertical gestures get a little more room.
        public var verticalTolerance = 20.0
        /// A line must cover at least this fraction of a box's width to count as crossing it
        /// (a t-bar over a word covers only its letter).
        public var minCoverage = 0.85
        /// Width of the smallest box a strike-through or underline applies to, × line height: a
        /// short word is about a third of a line wide; strokes of letters (stems) are narrower.
        public var minWordWidth = 0.3
        /// Scratch-out: minimum reversals along its main axis (3 reversals = 4 passes; a Z has 2).
        public var minScratchReversals = 3
        /// Scratch-out: a pass must span this fraction of the stroke's extent along the axis
        /// (the loops of cursive letters are small against the word; scratch passes are not).
        public var scratchPassFraction = 0.4
        /// Scratch-out: path length / extent along its axis (4 passes of 40% give at least 1.6;
        /// real scratches are denser).
        public var minScratchPathRatio = 2.5
        /// Surround: an end must come back within this fraction of the loop's larger side.
        public var maxLoopGap = 0.3
        /// Slice: minimum length, × line height (a slice goes across the page).
        public var minSliceLength = 4.0
        public init() {}
    }

    public var thresholds: Thresholds

    public init(thresholds: Thresholds = Thresholds()) { self.thresholds = thresholds }

    /// The gesture `stroke` (samples in mm) stands for in `context`, or nil when it is ink.
    public func classify(_ stroke: [InkSample], context: GestureContext) -> GestureKind? {
        classify(stroke, context: context, note: nil)
    }

    /// Told each rule checked: its name, whether the stroke met it, what was measured (`explain`).
    typealias Note = (String, Bool, String) -> Void

    private static func mm(_ v: Double) -> String { String(format: "%.1f mm", v) }
    private static func f(_ v: Double) -> String { String(format: "%.2f", v) }

    /// `classify`, telling `note` (when given) each check; without one nothing is formatted.
    func classify(_ stroke: [InkSample], context: GestureContext, note: Note?) -> GestureKind? {
        let n = stroke.count
        guard n >= 2 else { return nil }
        let lh = context.lineHeight
        // Extent and path length; any non-finite coordinate makes the stroke ink.
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var length = 0.0
        for i in 0 ..< n {
            let s = stroke[i]
            guard s.x.isFinite, s.y.isFinite else { return nil }
            minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
            if i > 0 { length += hypot(s.x - stroke[i - 1].x, s.y - stroke[i - 1].y) }
        }
        let w = maxX - minX, h = maxY - minY
        // Anything shorter than a fifth of a line is a dot or a tick: ink.
        let big = length >= 0.2 * lh && max(w, h) >= 0.2 * lh
        note?("longer than a dot", big, "path \(Self.mm(length)), extent \(Self.mm(max(w, h))); both need \(Self.mm(0.2 * lh)) (a fifth of the \(Self.mm(lh)) line)")
        guard big else { return nil }
        let bbox = Rect(x: minX, y: minY, width: w, height: h)

        if isScratch(stroke, bbox: bbox, length: length, note: note) {
            let over = overlapsInk(bbox, context)
            note?("ink under the zig-zag", over, "covers half of one of \(context.boxes.count) boxes nearby: \(over ? "yes" : "no")")
            if over { return .scratchOut }
        }

        let first = stroke[0], last = stroke[n - 1]
        let dx = last.x - first.x, dy = last.y - first.y
        let chord = hypot(dx, dy)

        if let k = loopGesture(stroke, bbox: bbox, length: length, chord: chord, context: context, note: note) { return k }

        let long = chord >= thresholds.minLineLength * lh
        note?("long enough for a line", long, "end to end \(Self.mm(chord)), need \(Self.mm(thresholds.minLineLength * lh))")
        guard long else { return nil }
        let straight = length <= thresholds.maxStraightRatio * chord
        note?("straight", straight, "path / chord \(Self.f(length / chord)), at most \(Self.f(thresholds.maxStraightRatio))")
        guard straight else { return nil }
        let dev = maxDeviation(stroke, chord: chord)
        note?("not bowed", dev <= thresholds.maxDeviation * chord, "strays \(Self.f(dev / chord)) of its chord, at most \(Self.f(thresholds.maxDeviation))")
        guard dev <= thresholds.maxDeviation * chord else { return nil }
        let angle = atan2(abs(dy), abs(dx)) * 180 / .pi
        if angle <= thresholds.horizontalTolerance {
            note?("horizontal", true, String(format: "%.0f° from the horizontal, at most %.0f°", angle, thresholds.horizontalTolerance))
            return horizontalGesture(stroke, bbox: bbox, chord: chord, context: context, note: note)
        }
        if angle >= 90 - thresholds.verticalTolerance {
            note?("vertical", true, String(format: "%.0f° from the vertical, at most %.0f°", 90 - angle, thresholds.verticalTolerance))
            return verticalGesture(bbox: bbox, upward: dy < 0, context: context, note: note)
        }
        note?("horizontal or vertical", false, String(format: "%.0f° from the horizontal: neither within %.0f° of it nor within %.0f° of the vertical",
                                                      angle, thresholds.horizontalTolerance, thresholds.verticalTolerance))
        return nil
    }

    // MARK: shapes

    /// Largest distance of a sample from the chord first-last.
    private func maxDeviation(_ s: [InkSample], chord: Double) -> Double {
        let a = s[0], b = s[s.count - 1]
        let ux = (b.x - a.x) / chord, uy = (b.y - a.y) / chord
        var m = 0.0
        for p in s { m = max(m, abs((p.x - a.x) * uy - (p.y - a.y) * ux)) }
        return m
    }

    /// A zig-zag along the stroke's main axis: enough large back-and-forth passes and a path
    /// much longer than the extent. Passes are counted with hysteresis (a reversal only counts once
    /// the pen went back by `scratchPassFraction` of the extent), so jitter and small loops do not.
    private func isScratch(_ s: [InkSample], bbox: Rect, length: Double, note: Note?) -> Bool {
        // People scratch sideways, even over a narrow word (whose scratch is then taller than
        // wide); only a clearly tall scratch is taken along y.
        let horizontal = bbox.width >= 0.6 * bbox.height
        let extent = horizontal ? bbox.width : bbox.height
        guard extent > 0, length >= thresholds.minScratchPathRatio * extent else {
            note?("zig-zag (scratch-out)", false, "path / extent \(Self.f(extent > 0 ? length / extent : 0)), need \(Self.f(thresholds.minScratchPathRatio))")
            return false
        }
        let hysteresis = thresholds.scratchPassFraction * extent
        var dir = 0, reversals = 0
        var ext = horizontal ? s[0].x : s[0].y
        for p in s {
            let v = horizontal ? p.x : p.y
            switch dir {
            case 0:
                if v - ext >= hysteresis { dir = 1; ext = v } else if ext - v >= hysteresis { dir = -1; ext = v }
            case 1:
                if v > ext { ext = v } else if ext - v >= hysteresis { dir = -1; ext = v; reversals += 1 }
            default:
                if v < ext { ext = v } else if v - ext >= hysteresis { dir = 1; ext = v; reversals += 1 }
            }
        }
        note?("zig-zag (scratch-out)", reversals >= thresholds.minScratchReversals,
              "\(reversals) reversals \(horizontal ? "across" : "up and down"), need \(thresholds.minScratchReversals); path / extent \(Self.f(length / extent))")
        return reversals >= thresholds.minScratchReversals
    }

    /// A scratch-out needs ink under it: some box of which it covers at least half. (A zig-zag
    /// inside a larger box, as the letters of a cursive word within the word's earlier strokes, is
    /// writing.)
    private func overlapsInk(_ r: Rect, _ c: GestureContext) -> Bool {
        for b in c.boxes {
            let ix = min(r.maxX, b.maxX) - max(r.x, b.x), iy = min(r.maxY, b.maxY) - max(r.y, b.y)
            guard ix > 0, iy > 0 else { continue }
            let a = ix * iy
            if a >= 0.5 * max(b.width * b.height, 1e-6) { return true }
        }
        return false
    }

    /// A closed loop (an end comes back to the stroke, about one turn) that fully encloses at least one box. An "o" is
    /// the same shape, but it encloses nothing: the content relation decides.
    private func loopGesture(_ s: [InkSample], bbox: Rect, length: Double, chord: Double, context: GestureContext, note: Note?) -> GestureKind? {
        let side = max(bbox.width, bbox.height)
        let round = length >= 1.4 * (bbox.width + bbox.height) && side >= 0.5 * context.lineHeight
        note?("goes round (surround)", round, "path \(Self.f(length / max(1e-9, bbox.width + bbox.height))) × (width + height), need 1.4; side \(Self.mm(side)), need \(Self.mm(0.5 * context.lineHeight))")
        guard round else { return nil }
        // Closed: an end comes back near the other part of the stroke's other half (a loop may
        // overshoot its start, so the ends themselves can be apart).
        let n = s.count, a = s[0], z = s[n - 1]
        var gap = chord
        for i in 0 ..< n {
            let p = s[i]
            gap = min(gap, i >= n / 2 ? hypot(p.x - a.x, p.y - a.y) : hypot(p.x - z.x, p.y - z.y))
        }
        note?("closed", gap <= thresholds.maxLoopGap * side, "gap \(Self.f(gap / side)) of its side, at most \(Self.f(thresholds.maxLoopGap))")
        guard gap <= thresholds.maxLoopGap * side else { return nil }
        // Total turning: a loop turns about once (1 turn); a scribble turns many times.
        var turn = 0.0
        var px = s[1].x - s[0].x, py = s[1].y - s[0].y
        for i in 2 ..< max(2, s.count) {
            let qx = s[i].x - s[i - 1].x, qy = s[i].y - s[i - 1].y
            if qx == 0 && qy == 0 { continue }
            if px != 0 || py != 0 { turn += atan2(px * qy - py * qx, px * qx + py * qy) }
            px = qx; py = qy
        }
        let turns = abs(turn) / (2 * .pi)
        note?("turns once", turns >= 0.75 && turns <= 1.5, "\(Self.f(turns)) turns, need 0.75 to 1.5")
        guard turns >= 0.75, turns <= 1.5 else { return nil }
        for b in context.boxes where b.width > 0 || b.height > 0 {
            // The box's centre and the middles of its sides, 10% in (for the pen's sloppiness and
            // because an oval cuts a rectangle's corners), must lie inside the loop.
            let mx = 0.1 * b.width, my = 0.1 * b.height, cx = b.x + b.width / 2, cy = b.y + b.height / 2
            let inside = Self.contains(s, Point(x: cx, y: cy)) && Self.contains(s, Point(x: b.x + mx, y: cy))
                && Self.contains(s, Point(x: b.maxX - mx, y: cy)) && Self.contains(s, Point(x: cx, y: b.y + my))
                && Self.contains(s, Point(x: cx, y: b.maxY - my))
            if inside {
                note?("encloses a word", true, "around the box at \(Self.mm(b.x)), \(Self.mm(b.y))")
                return .surround
            }
        }
        note?("encloses a word", false, "none of \(context.boxes.count) boxes nearby lies inside")
        return nil
    }

    /// Even-odd point-in-polygon test on the stroke closed by its chord.
    static func contains(_ s: [InkSample], _ p: Point) -> Bool {
        var inside = false
        var j = s.count - 1
        for i in 0 ..< s.count {
            let a = s[i], b = s[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// A straight horizontal line: slice when nothing lies under it in a Text Document between
    /// blocks; strike-through when it crosses a word's middle; underline when it runs just below one.
    private func horizontalGesture(_ s: [InkSample], bbox: Rect, chord: Double, context: GestureContext, note: Note?) -> GestureKind? {
        let lh = context.lineHeight
        let y = (bbox.y + bbox.maxY) / 2
        // Between blocks, a long line that crosses no content is a slice, even close below a
        // block's last line (there it would also pass for an underline).
        var crossesContent = false
        for b in context.boxes where bbox.x < b.maxX && bbox.maxX > b.x && y >= b.y && y <= b.maxY { crossesContent = true }
        if context.betweenBlocks {
            let slice = !crossesContent && chord >= thresholds.minSliceLength * lh
            note?("slice between blocks", slice, "crosses content: \(crossesContent ? "yes" : "no"); \(Self.mm(chord)) long, need \(Self.mm(thresholds.minSliceLength * lh))")
            if slice { return .slice }
        }
        var strike = false, under = false
        for b in context.boxes {
            let ix = min(bbox.maxX, b.maxX) - max(bbox.x, b.x)
            // Only a word-sized box counts (a letter's stem or the bar of a t is not a word), and
            // the line must span most of it: the bar of a t or of a crossed Z covers only a part.
            guard ix > 0, isWordLike(b, lh), ix >= thresholds.minCoverage * b.width else { continue }
            if let g = context.guideY {
                // The word's baseline: the guide line nearest above its bottom (descenders hang
                // under it by up to 0.4 lines).
                let baseline = g + ((b.maxY - 0.4 * lh - g) / lh).rounded(.up) * lh
                if y < baseline - 0.05 * lh { if y > b.y + 0.15 * b.height { strike = true } }
                // Under the letters: below the box, or through its descenders (a bar drawn at the
                // foot of a letter, as in I, Z or a 4, is level with the box bottom, not below it).
                else if y <= baseline + 0.45 * lh, y >= (b.maxY < baseline + 0.15 * lh ? b.maxY - 0.02 * lh : baseline + 0.02 * lh) {
                    under = true
                }
            } else {
                let r = (y - b.y) / b.height
                if r >= 0.2 && r < 0.75 { strike = true }
                // Below the baseline (the box bottom, or above it when the box holds descenders),
                // by at most a third of a line: further down, it is nearer the next line's words.
                else if r >= 0.75 && y <= b.maxY + 0.35 * lh { under = true }
            }
        }
        note?("through a word's middle (strike-through)", strike, "over a word-sized box it spans \(Int(thresholds.minCoverage * 100))% of")
        if strike { return .strikeThrough }
        note?("just under a word (underline)", under, "under a word-sized box it spans \(Int(thresholds.minCoverage * 100))% of")
        if under { return .underline }
        return nil
    }

    /// A box a line gesture can apply to: word-sized (a short word is a third of a line wide and
    /// its x-height is over a sixth of a line) and not taller than wide. The strokes of a letter
    /// (the stem of a t, the bar of an = or a T) are narrow or flat, and a line across them is
    /// the letter's next stroke, not a gesture.
    private func isWordLike(_ b: Rect, _ lh: Double) -> Bool {
        b.width >= thresholds.minWordWidth * lh && b.height >= 0.15 * lh && b.width >= 0.8 * b.height
    }

    /// A straight vertical line: split when drawn downward through a word (well inside it, over
    /// most of its height); join when drawn upward in a gap, with content beside it and none under it.
    private func verticalGesture(bbox: Rect, upward: Bool, context: GestureContext, note: Note?) -> GestureKind? {
        let lh = context.lineHeight
        let x = (bbox.x + bbox.maxX) / 2
        var crosses = false, left = false, right = false
        var neighbourHeight = 0.0
        for b in context.boxes {
            let iy = min(bbox.maxY, b.maxY) - max(bbox.y, b.y)
            guard iy > 0 else { continue }
            // A word to split is at least two letters wide (the stem of a 4 or a t crosses its
            // own letter, near the middle); the line runs through most of its height.
            if isWordLike(b, lh), b.width >= 0.5 * lh, x > b.x + 0.15 * b.width, x < b.maxX - 0.15 * b.width, iy >= 0.9 * b.height { crosses = true }
            // Neighbours of a gap: a box ending just left of the line, one starting just right of it.
            if b.maxX <= x && x - b.maxX <= 0.8 * lh { left = true; neighbourHeight = max(neighbourHeight, b.height) }
            if b.x >= x && b.x - x <= 0.8 * lh { right = true; neighbourHeight = max(neighbourHeight, b.height) }
        }
        // A gesture must not run through content beside the gap.
        // (A line break reaches past the words beside it, into the lines above and below, so
        // downward only boxes it crosses over half their height count.)
        var through = false
        let share = upward ? 0.25 : 0.5
        for b in context.boxes where bbox.x < b.maxX - 0.05 * lh && bbox.maxX > b.x + 0.05 * lh
            && min(bbox.maxY, b.maxY) - max(bbox.y, b.y) > share * b.height {
            through = true
        }
        note?("in a gap", left && right && !through, "word on the left: \(left ? "yes" : "no"), on the right: \(right ? "yes" : "no"), runs through content: \(through ? "yes" : "no")")
        if !upward {
            note?("drawn down through a word (split)", crosses, "well inside a word over 90% of its height: \(crosses ? "yes" : "no")")
            if crosses { return .split }
            // Downward in a gap: a line break. A letter written into the gap (an l, a 1, an I)
            // is drawn downward too, but no taller than the words beside it; the gesture is drawn
            // across the whole line.
            let tall = bbox.height >= max(0.6 * lh, 1.15 * neighbourHeight)
            note?("drawn down across the line (line break)", tall, "\(Self.mm(bbox.height)) tall, need \(Self.mm(max(0.6 * lh, 1.15 * neighbourHeight)))")
            return left && right && !through && tall ? .split : nil
        }
        note?("drawn up in a gap (join)", left && right && !through, "upward")
        return left && right && !through ? .join : nil
    }
}
