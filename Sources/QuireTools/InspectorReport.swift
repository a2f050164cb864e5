import Foundation
import InkRecognition
import Quire

/// The recognition inspector as one self-contained HTML file: for each block that holds ink, the
/// configuration and timings, and per line the ink with its segmentation (word bands, character
/// boxes), the network's best class per frame as a strip under the ink, the CTC alignment of the
/// reading, and each word's candidates with their score parts. Inline SVG and CSS only: no
/// script, no network, no other file, so it can be attached to a bug report.
public enum InspectorReport {
    /// Pixels per millimetre of ink in the report.
    static let scale = 8.0

    /// The report for every Text and Math block of the editor's part that holds ink.
    public static func html(editor: Editor, title: String) throws -> String {
        guard let model = editor.part?.model, let root = editor.rootBlock else {
            throw QuireError(.partNotAttached, "inspect: no part is attached to the editor")
        }
        try editor.waitForIdle()
        var body = ""
        var blocks = 0
        for block in [root] + root.children where ["Text", "Math"].contains(block.type) && !model.strokeIds(inBlock: block.id).isEmpty {
            let d = try editor.recognitionDiagnostics(block)
            body += section(d, model: model)
            blocks += 1
        }
        if blocks == 0 { body = "<p>No block with ink to read.</p>" }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <style>\(css)</style></head>
        <body><h1>Quire recognition inspector: \(escape(title))</h1>
        <p class="legend">Ink coloured by word; boxes: characters; strip: the network's best class per frame
        (· blank, darker: surer); bar: the CTC alignment of the reading. Scores: total (decoder's rank) =
        network (CTC log-likelihood) + language model + lexicon bonus, less what the beam did not sum.</p>
        \(body)
        </body></html>
        """
    }

    static func escape(_ s: String) -> String { XML.escape(s) }

    private static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]

    private static func ms(_ ns: UInt64) -> String { String(format: "%.2f ms", Double(ns) / 1e6) }
    private static func num(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "–" }

    private static func section(_ d: BlockDiagnostics, model: PartModel) -> String {
        var h = "<section><h2>Block \(escape(d.blockId)): \(escape(d.lines.map { $0.words.map(\.label).joined(separator: " ") }.joined(separator: " / ")))</h2>"
        h += "<p class=\"timings\">layout \(ms(d.layoutNanos)) · preprocess \(ms(d.timings.preprocess)) · network \(ms(d.timings.network)) · decode \(ms(d.timings.decode))</p>"
        h += "<details><summary>Configuration in force</summary><table>"
        for k in d.configuration.keys.sorted() { h += "<tr><th>\(escape(k))</th><td>\(escape(d.configuration[k]!))</td></tr>" }
        h += "</table></details>"
        for (i, line) in d.lines.enumerated() { h += lineView(i, line, model: model) }
        return h + "</section>"
    }

    private static func lineView(_ index: Int, _ line: BlockDiagnostics.Line, model: PartModel) -> String {
        let ld = line.diagnostics
        let strokes = line.strokeIds.compactMap { model.strokes[$0] }
        let pts = strokes.map { s in (0 ..< s.count).map { (Double(s.xs[$0]) / InkStroke.unitsPerMillimetre, Double(s.ys[$0]) / InkStroke.unitsPerMillimetre) } }
        let all = pts.flatMap { $0 }
        guard let minX = all.map(\.0).min(), let maxX = all.map(\.0).max(), let minY = all.map(\.1).min(), let maxY = all.map(\.1).max() else { return "" }
        let pad = 2.0, s = scale
        let inkH = (maxY - minY + 2 * pad) * s, w = (maxX - minX + 2 * pad) * s
        let strip = 18.0, height = inkH + 2 * strip + 6
        func X(_ x: Double) -> Double { (x - minX + pad) * s }
        func Y(_ y: Double) -> Double { (y - minY + pad) * s }
        var wordOf: [String: Int] = [:]
        for (wi, word) in line.words.enumerated() { for id in word.strokeIds { wordOf[id] = wi } }
        var svg = "<svg class=\"ink\" width=\"\(Int(w.rounded(.up)))\" height=\"\(Int(height.rounded(.up)))\" viewBox=\"0 0 \(num(w)) \(num(height))\">"
        for word in line.words {
            // Word band and character boxes.
            svg += "<rect class=\"word\" x=\"\(num(X(word.box.x)))\" y=\"\(num(Y(word.box.y)))\" width=\"\(num(word.box.width * s))\" height=\"\(num(word.box.height * s))\"><title>\(escape(word.label))</title></rect>"
            for c in word.chars {
                svg += "<rect class=\"char\" x=\"\(num(X(c.box.x)))\" y=\"\(num(Y(c.box.y)))\" width=\"\(num(c.box.width * s))\" height=\"\(num(c.box.height * s))\"><title>\(escape(c.label)): \(escape(c.strokeIds.joined(separator: " ")))</title></rect>"
            }
        }
        for (k, stroke) in strokes.enumerated() {
            let colour = wordOf[stroke.id].map { palette[$0 % palette.count] } ?? "#888"
            let d = pts[k].enumerated().map { "\($0.offset == 0 ? "M" : "L")\(num(X($0.element.0))) \(num(Y($0.element.1)))" }.joined(separator: " ")
            svg += "<path d=\"\(d)\" stroke=\"\(colour)\"><title>\(escape(stroke.id))</title></path>"
        }
        // Frame strip: each frame where its resampled points are, its best class as a letter.
        func frameX(_ f: Int) -> Double? {
            let a = 2 * f, b = min(2 * f + 1, ld.points.count - 1)
            guard a < ld.points.count else { return nil }
            return X((ld.points[a].x + ld.points[b].x) / 2)
        }
        let y0 = inkH + 2
        for f in 0 ..< ld.frames {
            guard let x = frameX(f) else { continue }
            let p = exp(Double(ld.bestLogProbabilities[f]))
            let label = ld.bestCharacters[f].map { String($0) } ?? "·"
            svg += "<text class=\"frame\" x=\"\(num(x))\" y=\"\(num(y0 + 12))\" fill-opacity=\"\(num(0.25 + 0.75 * p))\">\(escape(label))<title>frame \(f): \(escape(label)) p=\(num(p))</title></text>"
        }
        let y1 = y0 + strip
        for (k, a) in ld.alignment.enumerated() {
            guard let xa = frameX(a.frames.lowerBound), let xb = frameX(max(a.frames.lowerBound, a.frames.upperBound - 1)) else { continue }
            let colour = a.word.map { palette[$0 % palette.count] } ?? "#ccc"
            svg += "<rect x=\"\(num(xa))\" y=\"\(num(y1))\" width=\"\(num(max(2, xb - xa)))\" height=\"12\" fill=\"\(colour)\" fill-opacity=\"\(k % 2 == 0 ? "0.35" : "0.6")\"><title>\(escape(String(a.character))) frames \(a.frames.lowerBound)..<\(a.frames.upperBound)</title></rect>"
            svg += "<text class=\"align\" x=\"\(num(xa + 1))\" y=\"\(num(y1 + 10))\">\(escape(String(a.character)))</text>"
        }
        svg += "</svg>"
        var h = "<div class=\"line\"><h3>Line \(index + 1): \(escape(ld.result.text))\(ld.usedCharacterModel ? " (character model)" : "")</h3>"
        h += "<p class=\"timings\">\(ld.frames) frames · preprocess \(ms(ld.timings.preprocess)) · network \(ms(ld.timings.network)) · decode \(ms(ld.timings.decode))</p>"
        h += "<div class=\"scroll\">\(svg)</div><div class=\"words\">"
        for (wi, word) in ld.words.enumerated() {
            h += "<table class=\"cands\"><caption style=\"color:\(palette[wi % palette.count])\">\(escape(word.text)) <small>frames \(word.frames.lowerBound)..<\(word.frames.upperBound)</small></caption>"
            h += "<tr><th>candidate</th><th>total</th><th>network</th><th>LM</th><th>lexicon</th></tr>"
            for c in word.candidates {
                h += "<tr\(c.text == word.text ? " class=\"chosen\"" : "")><td>\(escape(c.text))\(c.fromLexicon ? " <small>lex</small>" : "")</td><td>\(num(c.score.total))</td><td>\(num(c.score.network))</td><td>\(num(c.score.languageModel))</td><td>\(num(c.score.lexicon))</td></tr>"
            }
            h += "</table>"
        }
        return h + "</div></div>"
    }

    private static let css = """
    body{font-family:sans-serif;margin:1.5em;color:#222;background:#fff}h1{font-size:1.4em}h2{font-size:1.15em;border-top:2px solid #ddd;padding-top:.6em}
    h3{font-size:1em;margin:.8em 0 .2em}.legend,.timings{color:#555;font-size:.85em}.scroll{overflow-x:auto}
    svg.ink path{fill:none;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
    svg.ink rect.word{fill:#fffbe0;stroke:#e0c000;stroke-width:1}svg.ink rect.char{fill:none;stroke:#999;stroke-width:.7;stroke-dasharray:3 2}
    svg.ink text{font-family:monospace;font-size:11px;text-anchor:middle}svg.ink text.align{text-anchor:start;font-size:9px}
    .words{display:flex;flex-wrap:wrap;gap:1em}table.cands{border-collapse:collapse;font-size:.8em}
    table.cands td,table.cands th{border:1px solid #ddd;padding:2px 6px;text-align:right}table.cands td:first-child{text-align:left}
    tr.chosen{background:#eef6ff;font-weight:bold}caption{font-weight:bold;text-align:left}details table th{text-align:left;padding-right:1em}
    """
}
