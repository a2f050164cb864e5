import Foundation
import InkModel
import InkRecognition
import Quire

/// One stroke to classify with its context and the expected answer (nil: it is ink).
public struct GestureExample: Sendable {
    public var expected: GestureKind?
    public var stroke: [InkSample]
    public var context: GestureContext
    /// What it is: the gesture, or the handwriting label and placement it comes from.
    public var label: String
}

/// Evaluation data for `GestureClassifier`: synthetic gestures with random variation over
/// synthetic lines of words, and real handwriting (../shared/data) that must stay ink.
public enum GestureData {
    public static let lineHeight = 10.0

    // MARK: synthetic gestures

    /// `perKind` gestures of every kind, reproducible from `seed`.
    public static func synthetic(perKind: Int, seed: UInt64) -> [GestureExample] {
        var rng = SplitMix(seed: seed)
        var out: [GestureExample] = []
        for kind in GestureKind.allCases {
            for _ in 0 ..< perKind { out.append(make(kind, &rng)) }
        }
        return out
    }

    /// A line of word boxes at `baseline`, from x = 15 mm to about 180 mm.
    static func wordLine(baseline: Double, _ rng: inout SplitMix, minGap: Double = 0.2) -> [Rect] {
        let lh = lineHeight
        var x = 15 + rng.unit() * 10
        var boxes: [Rect] = []
        let xHeight = lh * (0.3 + rng.unit() * 0.15)
        while x < 170 {
            let w = lh * (0.4 + rng.unit() * 2.6)
            let ascender = rng.unit() < 0.6, descender = rng.unit() < 0.35
            let top = baseline - xHeight * (ascender ? 1.6 + rng.unit() * 0.3 : 0.9 + rng.unit() * 0.2)
            let bottom = baseline + (descender ? lh * (0.2 + rng.unit() * 0.1) : 0)
            boxes.append(Rect(x: x, y: top, width: w, height: bottom - top))
            x += w + lh * (minGap + rng.unit() * 0.35)
        }
        return boxes
    }

    /// A hand-drawn polyline through `pts`: resampled every 0.4–0.9 mm, with a slow wobble
    /// (the arm) and jitter (the digitizer), timed at 5 ms a sample.
    static func draw(_ pts: [Point], _ rng: inout SplitMix) -> [InkSample] {
        let step = 0.4 + rng.unit() * 0.5
        let wobbleAmp = rng.unit() * 0.4, wobbleFreq = 0.05 + rng.unit() * 0.15, phase = rng.unit() * 6.28
        var out: [InkSample] = []
        var t: Int64 = 1_700_000_000_000, dist = 0.0
        for i in 0 ..< pts.count - 1 {
            let a = pts[i], b = pts[i + 1]
            let len = hypot(b.x - a.x, b.y - a.y)
            let k = max(1, Int(len / step))
            let nx = len > 0 ? -(b.y - a.y) / len : 0, ny = len > 0 ? (b.x - a.x) / len : 0
            for j in 0 ..< k {
                let u = Double(j) / Double(k)
                let d = dist + u * len
                let wob = wobbleAmp * sin(d * wobbleFreq + phase)
                out.append(InkSample(x: a.x + (b.x - a.x) * u + nx * wob + (rng.unit() - 0.5) * 0.2,
                                              y: a.y + (b.y - a.y) * u + ny * wob + (rng.unit() - 0.5) * 0.2, t: t, f: 0.5))
                t += 5
            }
            dist += len
        }
        let e = pts[pts.count - 1]
        out.append(InkSample(x: e.x, y: e.y, t: t, f: 0.5))
        return out
    }

    static func make(_ kind: GestureKind, _ rng: inout SplitMix) -> GestureExample {
        let lh = lineHeight
        let baseline = 60 + Double(Int(rng.unit() * 10)) * lh
        var boxes = wordLine(baseline: baseline, &rng, minGap: kind == .join ? 0.3 : 0.2)
        // Neighbouring lines, for clutter.
        boxes += wordLine(baseline: baseline - lh, &rng) + wordLine(baseline: baseline + lh, &rng)
        let line = boxes.filter { abs($0.maxY - baseline) < 0.5 * lh }
        let xHeight = line.filter { $0.maxY == baseline }.map { baseline - $0.y }.min() ?? 0.4 * lh
        func pick(_ m: Int) -> (Int, Int) {
            let n = min(m, line.count)
            let first = Int(rng.unit() * Double(line.count - n + 1))
            return (first, first + n - 1)
        }
        let slope = (rng.unit() - 0.5) * 0.12 // up to ±3.4°
        var pts: [Point] = []
        var betweenBlocks = false
        switch kind {
        case .strikeThrough, .underline:
            let (i, j) = pick(1 + Int(rng.unit() * 3))
            let a = line[i], b = line[j]
            let x0 = a.x - lh * rng.unit() * 0.2, x1 = b.maxX + lh * rng.unit() * 0.2
            let y = kind == .strikeThrough
                ? baseline - xHeight * (0.3 + rng.unit() * 0.4)
                : baseline + lh * (0.05 + rng.unit() * 0.25)
            let dy = slope * (x1 - x0) / 2
            pts = [Point(x: x0, y: y - dy), Point(x: x1, y: y + dy)]
            if rng.unit() < 0.5 { pts.reverse() } // some draw right to left
        case .scratchOut:
            let (i, j) = pick(1 + Int(rng.unit() * 2))
            let a = line[i], b = line[j]
            let x0 = a.x - lh * 0.1 * rng.unit(), x1 = b.maxX + lh * 0.1 * rng.unit()
            let top = min(a.y, b.y) + lh * 0.1 * rng.unit(), bottom = max(a.maxY, b.maxY) - lh * 0.1 * rng.unit()
            let passes = 4 + Int(rng.unit() * 6)
            for p in 0 ... passes {
                let x = p % 2 == 0 ? x0 + rng.unit() * 0.1 * (x1 - x0) : x1 - rng.unit() * 0.1 * (x1 - x0)
                pts.append(Point(x: x, y: top + (bottom - top) * Double(p) / Double(passes)))
            }
        case .surround:
            let (i, j) = pick(1 + Int(rng.unit() * 2))
            let a = line[i], b = line[j]
            let cx = (a.x + b.maxX) / 2, cy = (min(a.y, b.y) + max(a.maxY, b.maxY)) / 2
            let rx = (b.maxX - a.x) / 2 * (1.15 + rng.unit() * 0.2) + lh * 0.1
            let ry = (max(a.maxY, b.maxY) - min(a.y, b.y)) / 2 * (1.25 + rng.unit() * 0.3) + lh * 0.1
            let start = rng.unit() * 2 * .pi, span = 2 * .pi * (0.97 + rng.unit() * 0.15)
            let dir = rng.unit() < 0.7 ? -1.0 : 1.0
            let k = 48
            for s in 0 ... k {
                let th = start + dir * span * Double(s) / Double(k)
                let r = 1 + 0.04 * sin(th * 3 + start)
                pts.append(Point(x: cx + rx * r * cos(th), y: cy + ry * r * sin(th)))
            }
        case .join:
            let (i, _) = pick(2)
            let a = line[i], b = line[min(i + 1, line.count - 1)]
            let x = (a.maxX + b.x) / 2 + (rng.unit() - 0.5) * 0.2 * (b.x - a.maxX)
            let y0 = baseline + lh * (0.05 + rng.unit() * 0.15), y1 = baseline - lh * (0.5 + rng.unit() * 0.3)
            let lean = (rng.unit() - 0.5) * 0.1 * (y0 - y1)
            pts = [Point(x: x - lean / 2, y: y0), Point(x: x + lean / 2, y: y1)]
        case .split where rng.unit() < 0.3 && line.count >= 2:
            // A line break: down through the gap between two words, past both ends of them.
            let (i, _) = pick(2)
            let a = line[i], b = line[min(i + 1, line.count - 1)]
            let x = (a.maxX + b.x) / 2 + (rng.unit() - 0.5) * 0.2 * (b.x - a.maxX)
            let y0 = min(a.y, b.y) - lh * (0.1 + rng.unit() * 0.2), y1 = max(a.maxY, b.maxY) + lh * (0.05 + rng.unit() * 0.15)
            let lean = (rng.unit() - 0.5) * 0.1 * (y1 - y0)
            pts = [Point(x: x - lean / 2, y: y0), Point(x: x + lean / 2, y: y1)]
        case .split:
            var (i, _) = pick(1)
            // Split long enough words (a short one has no inside to split).
            if let k = line.firstIndex(where: { $0.width >= lh }) { i = rng.unit() < 0.5 ? k : (line.lastIndex(where: { $0.width >= lh }) ?? k) }
            let a = line[i]
            let x = a.x + a.width * (0.25 + rng.unit() * 0.5)
            let y0 = a.y - lh * (0.05 + rng.unit() * 0.2), y1 = a.maxY + lh * (0.05 + rng.unit() * 0.2)
            let lean = (rng.unit() - 0.5) * 0.15 * (y1 - y0)
            pts = [Point(x: x - lean / 2, y: y0), Point(x: x + lean / 2, y: y1)]
        case .slice:
            // Two paragraphs (blocks) with a gap of 1.5–3 lines; the slice runs in the gap.
            betweenBlocks = true
            let gap = lh * (1.5 + rng.unit() * 1.5)
            let above = wordLine(baseline: baseline - lh, &rng) + wordLine(baseline: baseline - 2 * lh, &rng)
            let below = wordLine(baseline: baseline + gap, &rng)
            boxes = above + below
            let y = baseline + (gap - lh * 0.6) * (0.35 + rng.unit() * 0.3)
            let x0 = 10 + rng.unit() * 25, x1 = 150 + rng.unit() * 45
            let dy = slope * (x1 - x0) / 2
            pts = [Point(x: x0, y: y - dy), Point(x: x1, y: y + dy)]
            if rng.unit() < 0.3 { pts.reverse() }
        }
        // Bow long lines slightly (an arm pivots at the elbow).
        if pts.count == 2 {
            let a = pts[0], b = pts[1]
            let bow = (rng.unit() - 0.5) * 0.04 * hypot(b.x - a.x, b.y - a.y)
            let len = hypot(b.x - a.x, b.y - a.y)
            let m = Point(x: (a.x + b.x) / 2 - (b.y - a.y) / len * bow, y: (a.y + b.y) / 2 + (b.x - a.x) / len * bow)
            pts = [a, m, b]
        }
        return GestureExample(expected: kind, stroke: draw(pts, &rng),
                              context: GestureContext(boxes: boxes, lineHeight: lh, betweenBlocks: betweenBlocks, guideY: baseline),
                              label: kind.rawValue)
    }

    // MARK: handwriting that must stay ink

    /// Where a handwritten sample is placed for the near-miss evaluation.
    public enum Placement: String, CaseIterable, Sendable {
        /// On an empty page: the only content is the sample's own earlier strokes.
        case alone
        /// In running text: a word before it on its line and a line of words above.
        case inText
    }

    /// A handwritten sample in millimetres (y down) with its writer.
    public struct Handwriting: Sendable {
        public var label: String
        public var writer: String
        public var strokes: [[InkSample]]
    }

    /// Which writers of the fixed writer-disjoint split to read.
    public enum Writers: String, Sendable { case validation, training, all }

    /// Reads handwriting samples from a shared-data file, by default only the writers of the
    /// validation split (the thresholds were set on the training writers).
    public static func readHandwriting(path: String, limit: Int = .max, writers: Writers = .validation, every: Int = 1,
                                       accept: (String) -> Bool = { _ in true }) throws -> [Handwriting] {
        var taken = 0
        // Writer, sampling and label are decided on the raw line, before its (slow) JSON parse;
        // lines without a writer, or whose label holds an escape, are left out.
        let records = try JSONLinesInk.read(path: path, limit: limit) { line in
            guard let writer = JSONLinesInk.field("writer", in: line) else { return true }
            if writers != .all && (writers == .validation) != RecognitionMetrics.isValidationWriter(writer) { return true }
            taken += 1
            if (taken - 1) % max(1, every) != 0 { return true }
            guard let label = JSONLinesInk.field("label", in: line), accept(label) else { return true }
            return false
        }
        return records.map { r in
            Handwriting(label: r.label, writer: r.writer,
                        strokes: r.millimetreStrokes.map { s in s.map { InkSample(x: $0.x, y: $0.y, t: 1_700_000_000_000 + $0.t, f: 0.5) } })
        }
    }

    /// The sample's strokes as written on a page with guide lines `lineHeight` apart, each with
    /// the context the editor would give: the boxes of the sample's earlier strokes and, in text,
    /// of the words around it. Sizes outside what people write on 10 mm lines (some devices'
    /// resolutions are wrong) are brought back to a plausible size.
    public static func place(_ h: Handwriting, _ placement: Placement, character: Bool, _ rng: inout SplitMix) -> [GestureExample] {
        let lh = lineHeight
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for s in h.strokes { for p in s { minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y) } }
        guard minX.isFinite else { return [] }
        let size = character ? max(maxX - minX, maxY - minY) : maxY - minY
        let lo = character ? 0.2 * lh : 0.3 * lh, hi = character ? 0.9 * lh : 1.3 * lh
        var scale = 1.0
        if size > hi { scale = hi / size } else if size < lo, size > 0 { scale = lo / size }
        let baseline = 60 + Double(Int(rng.unit() * 10)) * lh
        let x0 = 40 + rng.unit() * 60
        let y0 = baseline + 0.05 * lh - (maxY - minY) * scale
        var around: [Rect] = []
        if placement == .inText {
            around = wordLine(baseline: baseline - lh, &rng)
            let w = lh * (0.5 + rng.unit() * 2.5), top = baseline - lh * (0.35 + rng.unit() * 0.4)
            around.append(Rect(x: x0 - lh * (0.25 + rng.unit() * 0.35) - w, y: top, width: w, height: baseline - top))
        }
        var out: [GestureExample] = []
        var own: [Rect] = []
        for s in h.strokes {
            let pts = s.map { InkSample(x: x0 + ($0.x - minX) * scale, y: y0 + ($0.y - minY) * scale, t: $0.t, f: $0.f) }
            out.append(GestureExample(expected: nil, stroke: pts, context: GestureContext(boxes: around + own, lineHeight: lh, guideY: baseline),
                                      label: "\(h.label) [\(placement.rawValue)]"))
            var r = Rect(x: pts[0].x, y: pts[0].y, width: 0, height: 0)
            for p in pts {
                let nx = min(r.x, p.x), ny = min(r.y, p.y)
                r = Rect(x: nx, y: ny, width: max(r.maxX, p.x) - nx, height: max(r.maxY, p.y) - ny)
            }
            own.append(r)
        }
        return out
    }
}
