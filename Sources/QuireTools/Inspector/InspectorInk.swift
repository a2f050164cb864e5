import Foundation
import InkModel
import InkRecognition

/// Ink as inline SVG for the report: strokes in writing order (for the timeline), the
/// segmentation layers (line bands, word and character boxes, gestures), and under a line the
/// network's best class per frame and the CTC alignment of the reading. Each layer has a class
/// (`L-…`) the report's toggles hide.
enum InspectorInk {
    struct Stroke {
        var id: String
        /// In the figure's units (millimetres for a page, the sample's units for a sample).
        var points: [SIMD2<Double>]
        var colour: String
        /// Drawn dashed in the gesture layer (a stroke taken for a gesture, not ink).
        var gesture: String? = nil
    }

    /// A box of a layer (`cls`: `L-line`, `L-word`, `L-char`), in the figure's units.
    struct Box {
        var cls: String
        var rect: Rect
        var title: String
        var colour: String? = nil
        var label: String? = nil
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
    static func colour(_ i: Int) -> String { palette[i % palette.count] }

    static func num(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(format: "%.1f", r)
    }

    /// Play, pause, step and scrub over the `count` strokes of the SVG that follows in the same figure.
    static func timeline(count: Int) -> String {
        "<div class=\"tl\"><button type=\"button\" data-a=\"play\" title=\"play / pause\">&#9654;</button>"
            + "<button type=\"button\" data-a=\"back\" title=\"one stroke back\">&#8249;</button>"
            + "<button type=\"button\" data-a=\"fwd\" title=\"one stroke on\">&#8250;</button>"
            + "<input type=\"range\" min=\"0\" max=\"\(count)\" value=\"\(count)\" aria-label=\"strokes shown\">"
            + "<span class=\"tlc\">\(count) / \(count) strokes</span></div>"
    }

    /// The bounds of points.
    static func bounds(_ pts: [SIMD2<Double>]) -> Rect? {
        guard let f = pts.first else { return nil }
        var lo = f, hi = f
        for p in pts { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    /// An SVG of `strokes` (in writing order: the timeline shows the first k) over the `boxes`,
    /// `scale` pixels a unit; with `line`, the frame strip and the alignment bar under the ink.
    /// `maxWidth` scales a wide figure down (a thumbnail).
    static func svg(strokes: [Stroke], boxes: [Box] = [], line: LineDiagnostics? = nil, scale: Double,
                    maxWidth: Double? = nil, cls: String = "ink") -> String {
        let all = strokes.flatMap(\.points) + boxes.flatMap { [SIMD2($0.rect.x, $0.rect.y), SIMD2($0.rect.maxX, $0.rect.maxY)] }
        guard let b = bounds(all) else { return "" }
        var s = scale
        let pad = 4.0 / s
        if let maxWidth, (b.width + 2 * pad) * s > maxWidth { s = maxWidth / (b.width + 2 * pad) }
        let inkH = (b.height + 2 * pad) * s, w = (b.width + 2 * pad) * s
        let strip = line == nil ? 0.0 : 34.0
        let height = inkH + strip
        func X(_ x: Double) -> Double { (x - b.x + pad) * s }
        func Y(_ y: Double) -> Double { (y - b.y + pad) * s }
        var svg = "<svg class=\"\(cls)\" width=\"\(Int(w.rounded(.up)))\" height=\"\(Int(height.rounded(.up)))\" viewBox=\"0 0 \(num(w)) \(num(height))\">"
        for box in boxes {
            let fill = box.colour.map { " style=\"fill:\($0)\"" } ?? ""
            svg += "<rect class=\"\(box.cls)\" x=\"\(num(X(box.rect.x)))\" y=\"\(num(Y(box.rect.y)))\" width=\"\(num(max(1, box.rect.width * s)))\" height=\"\(num(max(1, box.rect.height * s)))\"\(fill)><title>\(XML.escape(box.title))</title></rect>"
            if let label = box.label {
                svg += "<text class=\"\(box.cls) lbl\" x=\"\(num(X(box.rect.x) + 2))\" y=\"\(num(Y(box.rect.y) + 10))\">\(XML.escape(label))</text>"
            }
        }
        let width = max(1.2, min(2.2, s * 0.35))
        for (k, stroke) in strokes.enumerated() {
            var d = ""
            var last: (Double, Double)?
            for (i, p) in stroke.points.enumerated() {
                let x = X(p.x), y = Y(p.y)
                // Points closer than half a pixel add nothing to the picture.
                if let l = last, i < stroke.points.count - 1, abs(l.0 - x) < 0.5, abs(l.1 - y) < 0.5 { continue }
                d += (i == 0 ? "M" : "L") + num(x) + " " + num(y)
                last = (x, y)
            }
            if stroke.points.count == 1 { d += "h0.1" }
            let gesture = stroke.gesture.map { " class=\"L-gesture\" data-g=\"\(XML.escape($0))\"" } ?? ""
            svg += "<path data-i=\"\(k)\"\(gesture) d=\"\(d)\" stroke=\"\(stroke.colour)\" stroke-width=\"\(num(width))\"><title>\(XML.escape(stroke.id))\(stroke.gesture.map { ": " + XML.escape($0) } ?? "")</title></path>"
        }
        if let ld = line { svg += frameStrip(ld, X: X, y0: inkH) }
        return svg + "</svg>"
    }

    /// The network's best class per frame (a letter where its points are, darker: surer; `·` a
    /// blank) and under it the CTC alignment of the reading (a bar per character over its frames).
    private static func frameStrip(_ ld: LineDiagnostics, X: (Double) -> Double, y0: Double) -> String {
        func frameX(_ f: Int) -> Double? {
            let a = 2 * f, b = min(2 * f + 1, ld.points.count - 1)
            guard a < ld.points.count else { return nil }
            return X((ld.points[a].x + ld.points[b].x) / 2)
        }
        var svg = "<g class=\"L-strip\">"
        var lastX = -10.0
        for f in 0 ..< ld.frames {
            guard let x = frameX(f) else { continue }
            let p = exp(Double(ld.bestLogProbabilities[f]))
            let label = ld.bestCharacters[f].map { String($0) } ?? "·"
            // A blank that would overprint its neighbour is left out (its frame keeps its title
            // in the alignment); a character never is.
            if ld.bestCharacters[f] == nil, x - lastX < 5 { continue }
            lastX = x
            svg += "<text x=\"\(num(x))\" y=\"\(num(y0 + 12))\" fill-opacity=\"\(String(format: "%.2f", 0.25 + 0.75 * p))\">\(XML.escape(label))<title>frame \(f): \(XML.escape(label)) p=\(String(format: "%.3f", p))</title></text>"
        }
        svg += "</g><g class=\"L-align\">"
        let y1 = y0 + 18
        for (k, a) in ld.alignment.enumerated() {
            guard let xa = frameX(a.frames.lowerBound), let xb = frameX(max(a.frames.lowerBound, a.frames.upperBound - 1)) else { continue }
            let c = a.word.map(colour) ?? "#ccc"
            svg += "<rect x=\"\(num(xa))\" y=\"\(num(y1))\" width=\"\(num(max(2, xb - xa)))\" height=\"12\" fill=\"\(c)\" fill-opacity=\"\(k % 2 == 0 ? "0.35" : "0.6")\"><title>\(XML.escape(String(a.character))) frames \(a.frames.lowerBound)..<\(a.frames.upperBound)</title></rect>"
            svg += "<text x=\"\(num(xa + 1))\" y=\"\(num(y1 + 10))\">\(XML.escape(String(a.character)))</text>"
        }
        return svg + "</g>"
    }

    /// Word and character boxes of a line read outside the editor (a sample), from the frames
    /// the alignment gives each character; and each stroke's word (most of its points' frames).
    static func sampleSegmentation(_ ld: LineDiagnostics, strokeCount: Int) -> (boxes: [Box], strokeWord: [Int?]) {
        var boxes: [Box] = []
        func rect(_ frames: Range<Int>) -> Rect? {
            let lo = max(0, 2 * frames.lowerBound), hi = min(ld.points.count, 2 * frames.upperBound)
            return lo < hi ? bounds(Array(ld.points[lo ..< hi])) : nil
        }
        for w in ld.words {
            if let r = rect(w.frames) { boxes.append(Box(cls: "L-word", rect: r, title: "\(w.text): frames \(w.frames.lowerBound)..<\(w.frames.upperBound)")) }
        }
        for a in ld.alignment where a.word != nil {
            if let r = rect(a.frames) { boxes.append(Box(cls: "L-char", rect: r, title: "\(a.character): frames \(a.frames.lowerBound)..<\(a.frames.upperBound)")) }
        }
        var votes = [[Int: Int]](repeating: [:], count: strokeCount)
        for a in ld.alignment {
            guard let w = a.word else { continue }
            for f in a.frames {
                for p in [2 * f, 2 * f + 1] where p < ld.pointStrokes.count && ld.pointStrokes[p] < strokeCount {
                    votes[ld.pointStrokes[p]][w, default: 0] += 1
                }
            }
        }
        return (boxes, votes.map { v in v.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key })
    }
}
