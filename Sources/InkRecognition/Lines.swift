import Foundation

extension TextRecognizer {
    /// Groups strokes into text lines, top to bottom; each group lists stroke indices in writing order.
    /// With `lineSpacing` (ruled guides, mm, first baseline band starting at `originY`) see `guidedLines`.
    /// Without it (same rule as tools/recognition/data.py `group_lines`): strokes sorted by their top edge
    /// join the current line while their top lies at most 0.6 h below the line's bottom (h = median stroke
    /// height, at least 1 mm); then lines shorter than 0.5 h merge into the nearer neighbour, and so do
    /// marks within 2 s of it (or anywhere when the ink holds nothing but marks): lines shorter than
    /// 0.5 s, or under s tall and made only of strokes under 0.6 s each way (dots, commas, bars), where
    /// s = h but at least 3 mm. Without that floor, ink made mostly of marks (a colon, an i, an `=`, a
    /// cursive word and its dots) has a mark's median height and each mark passed for a line. Strokes
    /// without a finite point are left out.
    public static func groupLines(strokes: [[SIMD2<Double>]], lineSpacing: Double? = nil, originY: Double = 0) -> [[Int]] {
        var spans: [(index: Int, top: Double, bottom: Double, size: Double)] = []
        for (i, s) in strokes.enumerated() {
            var lo = Double.infinity, hi = -Double.infinity, left = Double.infinity, right = -Double.infinity
            for p in s where p.x.isFinite && p.y.isFinite {
                lo = min(lo, p.y)
                hi = max(hi, p.y)
                left = min(left, p.x)
                right = max(right, p.x)
            }
            if lo <= hi { spans.append((i, lo, hi, max(hi - lo, right - left))) }
        }
        if spans.isEmpty { return [] }
        if let sp = lineSpacing, sp > 0, sp.isFinite { return guidedLines(strokes, spacing: sp, originY: originY) }
        let heights = spans.map { $0.bottom - $0.top }.sorted()
        let h = max(heights[heights.count / 2], 1.0)
        let scale = max(h, 3.0)
        // `largest`: the largest extent (width or height) of a member stroke.
        var groups: [(members: [Int], top: Double, bottom: Double, largest: Double)] = []
        for c in spans.sorted(by: { ($0.top, $0.index) < ($1.top, $1.index) }) {
            if let last = groups.last, c.top <= last.bottom + 0.6 * h {
                groups[groups.count - 1].members.append(c.index)
                groups[groups.count - 1].bottom = max(last.bottom, c.bottom)
                groups[groups.count - 1].largest = max(last.largest, c.size)
            } else {
                groups.append(([c.index], c.top, c.bottom, c.size))
            }
        }
        func tiny(_ g: (members: [Int], top: Double, bottom: Double, largest: Double)) -> Bool { g.bottom - g.top < 0.5 * h }
        func mark(_ g: (members: [Int], top: Double, bottom: Double, largest: Double)) -> Bool {
            let height = g.bottom - g.top
            return height < 0.5 * scale || (g.largest < 0.6 * scale && height < scale)
        }
        var changed = true
        while changed && groups.count > 1 {
            changed = false
            let onlyMarks = groups.allSatisfy(mark)
            for j in groups.indices where tiny(groups[j]) || mark(groups[j]) {
                let g = groups[j]
                let nb: Int
                if j == groups.count - 1 {
                    nb = j - 1
                } else if j == 0 {
                    nb = 1
                } else {
                    nb = g.top - groups[j - 1].bottom <= groups[j + 1].top - g.bottom ? j - 1 : j + 1
                }
                // A mark far from any line (a comma written alone under a line of code) is a line of its
                // own, unless the ink holds nothing else (a colon written large).
                let gap = nb < j ? g.top - groups[nb].bottom : groups[nb].top - g.bottom
                guard tiny(g) || gap <= 2 * scale || onlyMarks else { continue }
                groups[nb].members += g.members
                groups[nb].top = min(groups[nb].top, g.top)
                groups[nb].bottom = max(groups[nb].bottom, g.bottom)
                groups[nb].largest = max(groups[nb].largest, g.largest)
                groups.remove(at: j)
                changed = true
                break
            }
        }
        return groups.map { $0.members.sorted() }
    }

    /// Lines by ruled guides: a stroke belongs to the band between two baselines holding its median
    /// point, so descenders (g, y) and dots stay with their line where the box centre would not.
    /// Ink written larger than the guides straddles them: neighbouring bands whose ink overlaps by
    /// more than half the smaller band's height are one line, and a lone mark (a dot, a bar) close
    /// to a band joins it. Strokes without a finite point are left out.
    static func guidedLines(_ strokes: [[SIMD2<Double>]], spacing: Double, originY: Double) -> [[Int]] {
        var bands: [Int: (members: [Int], top: Double, bottom: Double)] = [:]
        for (i, s) in strokes.enumerated() {
            let ys = s.filter { $0.x.isFinite && $0.y.isFinite }.map(\.y).sorted()
            guard let lo = ys.first, let hi = ys.last else { continue }
            let v = ((ys[ys.count / 2] - originY) / spacing).rounded(.down)
            let k = v.isFinite ? Int(max(-1e9, min(1e9, v))) : 0
            if let b = bands[k] {
                bands[k] = (b.members + [i], min(b.top, lo), max(b.bottom, hi))
            } else {
                bands[k] = ([i], lo, hi)
            }
        }
        var groups = bands.keys.sorted().map { bands[$0]! }
        func merge(_ i: Int, _ j: Int) {
            groups[i] = (groups[i].members + groups[j].members, min(groups[i].top, groups[j].top), max(groups[i].bottom, groups[j].bottom))
            groups.remove(at: j)
        }
        var i = 0
        while i + 1 < groups.count {
            let a = groups[i], b = groups[i + 1]
            let overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
            let small = min(a.bottom - a.top, b.bottom - b.top)
            if small >= 0.15 * spacing && overlap > 0.5 * small { merge(i, i + 1) } else { i += 1 }
        }
        i = 0
        while groups.count > 1 && i < groups.count {
            let g = groups[i]
            guard g.bottom - g.top < 0.15 * spacing else { i += 1; continue }
            let up = i > 0 ? g.top - groups[i - 1].bottom : .infinity
            let down = i + 1 < groups.count ? groups[i + 1].top - g.bottom : .infinity
            if min(up, down) < 0.3 * spacing {
                if up <= down { merge(i - 1, i) } else { merge(i, i + 1) }
                i = 0
            } else {
                i += 1
            }
        }
        return groups.map { $0.members.sorted() }
    }

    /// Recognizes a block that may hold several lines: one result per line (top to bottom); word stroke
    /// indices refer to `strokes`.
    public func recognizeLines(strokes: [[SIMD2<Double>]], lineSpacing: Double? = nil, originY: Double = 0,
                               options: RecognitionOptions = RecognitionOptions()) -> [RecognitionResult] {
        var results: [RecognitionResult] = []
        for group in Self.groupLines(strokes: strokes, lineSpacing: lineSpacing, originY: originY) {
            var r = recognize(strokes: group.map { strokes[$0] }, options: options)
            if r.text.isEmpty && r.words.isEmpty { continue }
            for w in r.words.indices {
                r.words[w].strokeIndices = r.words[w].strokeIndices.map { group[$0] }
            }
            results.append(r)
        }
        return results
    }
}
