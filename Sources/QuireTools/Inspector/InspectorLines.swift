import Foundation
import InkModel
import InkRecognition
import Quire

/// One line of the report in detail: its reading, timings, ink with the segmentation and the
/// frame strip, and each word's candidates with their score parts; with a comparison, the other
/// reading's words and candidates beside them, what changed highlighted.
enum InspectorLines {
    static func ms(_ ns: UInt64) -> String { String(format: "%.2f ms", Double(ns) / 1e6) }
    static func score(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "–" }

    static func timings(_ t: StageTimings, frames: Int? = nil, layout: UInt64? = nil) -> String {
        var parts: [String] = []
        if let frames { parts.append("\(frames) frames") }
        if let layout { parts.append("layout \(ms(layout))") }
        parts += ["preprocess \(ms(t.preprocess))", "network \(ms(t.network))", "decode \(ms(t.decode))"]
        return "<p class=\"timings\">" + parts.joined(separator: " · ") + "</p>"
    }

    /// `reference` and `reading` with their differences marked: what the reading lost or read
    /// otherwise struck in the first, what it read otherwise or added highlighted in the second.
    static func diff(reference: String, reading: String) -> (reference: String, reading: String) {
        var a = "", b = ""
        for step in TextAlignment.steps(reference: reference, reading: reading) {
            switch step {
            case .same(let c): a += XML.escape(String(c)); b += XML.escape(String(c))
            case .substituted(let r, let h): a += "<del>\(XML.escape(String(r)))</del>"; b += "<mark>\(XML.escape(String(h)))</mark>"
            case .deleted(let r): a += "<del>\(XML.escape(String(r)))</del>"
            case .inserted(let h): b += "<mark>\(XML.escape(String(h)))</mark>"
            }
        }
        return (a, b)
    }

    /// Each word's candidates with total, network, language-model and lexicon parts; words whose
    /// reading differs from `other`'s (same position) are marked changed.
    static func candidates(_ ld: LineDiagnostics, other: LineDiagnostics? = nil) -> String {
        var h = "<div class=\"words\">"
        for (wi, word) in ld.words.enumerated() {
            let changed = other.map { wi >= $0.words.count || $0.words[wi].text != word.text } ?? false
            h += "<table class=\"cands\(changed ? " chg" : "")\"><caption style=\"color:\(InspectorInk.colour(wi))\">\(XML.escape(word.text)) <small>frames \(word.frames.lowerBound)..<\(word.frames.upperBound)</small></caption>"
            h += "<tr><th>candidate</th><th>total</th><th>network</th><th>LM</th><th>lexicon</th></tr>"
            for c in word.candidates {
                h += "<tr\(c.text == word.text ? " class=\"chosen\"" : "")><td>\(XML.escape(c.text))\(c.fromLexicon ? " <small>lex</small>" : "")</td><td>\(score(c.score.total))</td><td>\(score(c.score.network))</td><td>\(score(c.score.languageModel))</td><td>\(score(c.score.lexicon))</td></tr>"
            }
            h += "</table>"
        }
        return h + "</div>"
    }

    /// Candidates of the base reading and of the compared one side by side.
    static func comparedCandidates(_ a: LineDiagnostics, _ b: LineDiagnostics, labels: (String, String)) -> String {
        let d = diff(reference: a.result.text, reading: b.result.text)
        return "<div class=\"cmp\"><div class=\"side\"><h4>\(XML.escape(labels.0)): \(d.reference)</h4>\(timings(a.timings))\(candidates(a, other: b))</div>"
            + "<div class=\"side\"><h4>\(XML.escape(labels.1)): \(d.reading)</h4>\(timings(b.timings))\(candidates(b, other: a))</div></div>"
    }

    /// A line of an editor's block: strokes coloured by word, word and character boxes.
    static func editorLine(_ index: Int, _ line: BlockDiagnostics.Line, model: PartModel, anchor: String,
                           compare: (line: BlockDiagnostics.Line, labels: (String, String))?) -> String {
        let ld = line.diagnostics
        var wordOf: [String: Int] = [:]
        for (wi, word) in line.words.enumerated() { for id in word.strokeIds { wordOf[id] = wi } }
        let strokes = line.strokeIds.compactMap { model.strokes[$0] }.sorted { $0.seq < $1.seq }.map { s in
            InspectorInk.Stroke(id: s.id, points: (0 ..< s.count).map { SIMD2(Double(s.xs[$0]), Double(s.ys[$0])) / InkStroke.unitsPerMillimetre },
                                colour: wordOf[s.id].map(InspectorInk.colour) ?? "#888")
        }
        var boxes: [InspectorInk.Box] = []
        for word in line.words {
            boxes.append(.init(cls: "L-word", rect: word.box, title: "\(word.label): \(word.strokeIds.count) strokes"))
            for c in word.chars { boxes.append(.init(cls: "L-char", rect: c.box, title: "\(c.label): \(c.strokeIds.joined(separator: " "))")) }
        }
        let changed = compare.map { $0.line.diagnostics.result.text != ld.result.text } ?? false
        var h = "<div class=\"line\(changed ? " chg" : "")\" id=\"\(anchor)\"><h3>Line \(index + 1): \(XML.escape(ld.result.text))"
        if let compare, changed { h += " <span class=\"arrow\">→</span> " + diff(reference: ld.result.text, reading: compare.line.diagnostics.result.text).reading }
        h += "\(ld.usedCharacterModel ? " <small>(character model)</small>" : "")</h3>"
        h += timings(ld.timings, frames: ld.frames)
        h += "<figure>\(InspectorInk.timeline(count: strokes.count))<div class=\"scroll\">\(InspectorInk.svg(strokes: strokes, boxes: boxes, line: ld, scale: 8))</div></figure>"
        if let compare {
            h += comparedCandidates(ld, compare.line.diagnostics, labels: compare.labels)
        } else {
            h += candidates(ld)
        }
        return h + "</div>"
    }

    /// A line of a sample (its own units, drawn `scale` pixels a unit).
    static func sampleLine(_ strokes: [[SIMD2<Double>]], _ ld: LineDiagnostics, scale: Double, compare: (LineDiagnostics, (String, String))?) -> String {
        let seg = InspectorInk.sampleSegmentation(ld, strokeCount: strokes.count)
        let ink = strokes.enumerated().map { k, pts in
            InspectorInk.Stroke(id: "stroke \(k + 1)", points: pts, colour: seg.strokeWord[k].map(InspectorInk.colour) ?? "#888")
        }
        var h = "<figure>\(InspectorInk.timeline(count: ink.count))<div class=\"scroll\">\(InspectorInk.svg(strokes: ink, boxes: seg.boxes, line: ld, scale: scale))</div></figure>"
        h += timings(ld.timings, frames: ld.frames)
        if let (other, labels) = compare { h += comparedCandidates(ld, other, labels: labels) } else { h += candidates(ld) }
        return h
    }
}
