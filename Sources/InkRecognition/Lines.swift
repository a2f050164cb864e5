import Foundation

extension TextRecognizer {
    /// Groups strokes into text lines, top to bottom; each group lists stroke indices in writing order.
    /// With `lineSpacing` (ruled guides, mm) a stroke belongs to line `floor((centreY - originY) / lineSpacing)`;
    /// without it, strokes sorted by vertical centre start a new line when their centre lies more than
    /// 1.2 median stroke heights below the running mean centre of the current line.
    /// Strokes without a finite point are left out.
    public static func groupLines(strokes: [[SIMD2<Double>]], lineSpacing: Double? = nil, originY: Double = 0) -> [[Int]] {
        var centres: [(index: Int, cy: Double, h: Double)] = []
        for (i, s) in strokes.enumerated() {
            var lo = Double.infinity, hi = -Double.infinity
            for p in s where p.x.isFinite && p.y.isFinite {
                lo = min(lo, p.y)
                hi = max(hi, p.y)
            }
            if lo <= hi { centres.append((i, (lo + hi) / 2, hi - lo)) }
        }
        if centres.isEmpty { return [] }
        if let sp = lineSpacing, sp > 0, sp.isFinite {
            var byLine: [Int: [Int]] = [:]
            for c in centres {
                let v = ((c.cy - originY) / sp).rounded(.down)
                let line = v.isFinite ? Int(max(-1e9, min(1e9, v))) : 0
                byLine[line, default: []].append(c.index)
            }
            return byLine.keys.sorted().map { byLine[$0]!.sorted() }
        }
        let heights = centres.map(\.h).sorted()
        let h = max(heights[heights.count / 2], 1.0)
        let sorted = centres.sorted { $0.cy < $1.cy }
        var lines: [[Int]] = []
        var sum = 0.0, count = 0.0
        for c in sorted {
            if count > 0 && c.cy - sum / count > 1.2 * h {
                sum = 0
                count = 0
            }
            if count == 0 { lines.append([]) }
            lines[lines.count - 1].append(c.index)
            sum += c.cy
            count += 1
        }
        return lines.map { $0.sorted() }
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
