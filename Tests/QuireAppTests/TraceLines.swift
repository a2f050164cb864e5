import Foundation
import Testing

/// Real handwriting for the window tests: UNIPEN train_r01_v07 words (CC BY 4.0) from the
/// QuireTests fixture, as strokes of (x, y) in the sample's own units.
struct HandwrittenWord {
    let label: String
    let strokes: [[(x: Double, y: Double)]]
    var bounds: (x: Double, y: Double, width: Double, height: Double) {
        let pts = strokes.flatMap { $0 }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        return (xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!)
    }

    /// Stroke `i` as pen points (pixels, pressure 0.6), the word scaled to `height` pixels with
    /// its top-left at `origin`.
    func points(_ i: Int, origin: (x: Double, y: Double), height: Double) -> [(Double, Double, Double)] {
        let b = bounds, k = height / max(b.height, 1)
        return strokes[i].map { (origin.x + ($0.x - b.x) * k, origin.y + ($0.y - b.y) * k, 0.6) }
    }

    static func load(_ ids: [String]) throws -> [HandwrittenWord] {
        let url = handwritingFixtureURL
        var byId: [String: HandwrittenWord] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let id = o["id"] as? String, let label = o["label"] as? String,
                  let strokes = o["strokes"] as? [[[Double]]] else { continue }
            byId[id] = HandwrittenWord(label: label, strokes: strokes.map { $0.map { (x: $0[0], y: $0[1]) } })
        }
        return try ids.map { id in try #require(byId[id], "fixture sample \(id) missing from \(url.path)") }
    }
}

/// One `quire: bar {...}` trace line of the app (`QUIRE_TRACE=1`): what the candidates bar shows.
struct BarState {
    struct Word {
        let index: Int
        let label: String
        let changed: Bool
        let selected: Bool
        let styles: [String]
        let ink: Bool
        let candidates: Int
        /// The word's box on the page and its place in the bar, canvas pixels.
        let box: (x: Double, y: Double, width: Double, height: Double)
        let frame: (x: Double, y: Double, width: Double, height: Double)
        /// The recognizer's box of the word (what gestures measure against).
        let rbox: (x: Double, y: Double, width: Double, height: Double)
        var center: (x: Double, y: Double) { (box.x + box.width / 2, box.y + box.height / 2) }
    }
    let block: String?
    let words: [Word]
    /// The bar window's frame, canvas pixels (nil while hidden).
    let frame: (x: Double, y: Double, width: Double, height: Double)?

    init?(_ line: String) {
        guard line.hasPrefix("quire: bar "),
              let o = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(11).utf8)) as? [String: Any] else { return nil }
        block = o["block"] as? String
        func rect(_ v: Any?) -> (Double, Double, Double, Double) {
            let a = (v as? [Double]) ?? [0, 0, 0, 0]
            return (a[0], a[1], a[2], a[3])
        }
        frame = (o["frame"] as? [Double]).flatMap { $0.count == 4 ? ($0[0], $0[1], $0[2], $0[3]) : nil }
        words = ((o["words"] as? [[String: Any]]) ?? []).map { w in
            Word(index: (w["index"] as? Int) ?? -1, label: (w["label"] as? String) ?? "", changed: (w["changed"] as? Bool) ?? false,
                 selected: (w["selected"] as? Bool) ?? false, styles: (w["styles"] as? [String]) ?? [], ink: (w["ink"] as? Bool) ?? false,
                 candidates: (w["candidates"] as? Int) ?? 0, box: rect(w["box"]), frame: rect(w["frame"]), rbox: rect(w["rbox"]))
        }
    }

    var labels: [String] { words.map(\.label) }
}
