import Foundation
import InkRecognition
import Quire

/// The recognition inspector as one self-contained HTML file (inline SVG, CSS and a little
/// script; no network, no other file, so it can be attached to a bug report).
///
/// For an editor's part (a package or a replayed session): the whole page with a timeline and
/// the segmentation as layers, the gestures (why each pen stroke was or was not one), and per
/// block the configuration in force and the timings, per line the ink with word and character
/// boxes, the per-frame best classes, the CTC alignment and each word's candidates with their
/// score parts. With a comparison, the same ink read with other settings beside it, what changed
/// highlighted. Labelled samples have their own report (`InspectorSamples`).
public enum InspectorReport {
    /// The report of every Text and Math block of the editor's part that holds ink, read with the
    /// editor's recognizer and configuration and `base`'s decoder settings; with `compare`, read
    /// again with those settings. `gestures`: what the gesture classifier said about each pen
    /// stroke (a replayed session's, see `Editor.gestureObserver`).
    public static func html(editor: Editor, title: String, base: ReadingSettings = ReadingSettings(),
                            compare: ReadingSettings? = nil, gestures: [GestureExplanation] = []) throws -> String {
        guard let model = editor.part?.model, let root = editor.rootBlock else {
            throw QuireError(.partNotAttached, "inspect: no part is attached to the editor")
        }
        try editor.waitForIdle()
        var other: TextRecognizerAdapter?
        if let compare, compare.model != nil || compare.languageModel != nil || compare.characterModel != nil {
            guard let mine = editor.recognizer as? TextRecognizerAdapter else {
                throw QuireError(.recognitionError, "inspect --compare: the editor's recognizer is not Quire's, no other files can replace it")
            }
            other = try compare.adapter(over: mine)
        }
        let labels = ("A", "B: " + (compare.map { $0.differences(from: base).joined(separator: ", ") } ?? ""))
        var sections = ""
        var all: [(block: BlockDiagnostics, other: BlockDiagnostics?)] = []
        for block in [root] + root.children where ["Text", "Math"].contains(block.type) && !model.strokeIds(inBlock: block.id).isEmpty {
            let d = try editor.recognitionDiagnostics(block, options: base.options) { $0 = base.decoderOptions($0) }
            var e: BlockDiagnostics?
            if let compare {
                e = try editor.recognitionDiagnostics(block, recognizer: other, options: compare.options) { $0 = compare.decoderOptions($0) }
            }
            all.append((d, e))
            sections += section(d, ordinal: all.count, model: model, compare: e.map { ($0, labels) })
        }
        if all.isEmpty { sections = "<p>No block with ink to read.</p>" }
        let summary = summary(all, compare: compare == nil ? nil : labels) + overview(model: model, blocks: all.map(\.block), gestures: gestures)
            + InspectorGestures.section(gestures)
        return InspectorPage.document(title: title, summary: summary, body: sections)
    }

    private static func summary(_ all: [(block: BlockDiagnostics, other: BlockDiagnostics?)], compare labels: (String, String)?) -> String {
        let lines = all.reduce(0) { $0 + $1.block.lines.count }
        let words = all.reduce(0) { $0 + $1.block.lines.reduce(0) { $0 + $1.words.count } }
        var t = StageTimings()
        var layout: UInt64 = 0
        for (b, _) in all {
            t.preprocess += b.timings.preprocess; t.network += b.timings.network; t.decode += b.timings.decode
            layout += b.layoutNanos
        }
        var h = "<p class=\"timings\">\(all.count) blocks · \(lines) lines · \(words) words</p>"
            + InspectorLines.timings(t, layout: layout)
        if let labels {
            var changed: [String] = []
            for (b, o) in all {
                guard let o else { continue }
                for (i, l) in b.lines.enumerated() where i >= o.lines.count || o.lines[i].diagnostics.result.text != l.diagnostics.result.text {
                    changed.append("<span title=\"block \(XML.escape(b.blockId))\">line \(i + 1)</span>")
                }
            }
            h += "<p class=\"compare\"><b>Compare</b> A (as configured) with \(XML.escape(labels.1)): \(changed.count) of \(lines) lines read differently"
                + (changed.isEmpty ? "" : " (" + changed.joined(separator: ", ") + "), highlighted below") + ".</p>"
        }
        return h
    }

    /// The whole part: every stroke in writing order (the page's timeline), each block's lines as
    /// coloured bands, the words, and the strokes taken for gestures.
    private static func overview(model: PartModel, blocks: [BlockDiagnostics], gestures: [GestureExplanation]) -> String {
        var items: [(t: Int64, stroke: InspectorInk.Stroke)] = []
        for s in model.orderedStrokes {
            let pts = (0 ..< s.count).map { SIMD2(Double(s.xs[$0]), Double(s.ys[$0])) / InkStroke.unitsPerMillimetre }
            items.append((s.count > 0 ? s[0].t : 0, .init(id: s.id, points: pts, colour: "#333")))
        }
        for g in gestures where g.kind != nil {
            items.append((g.samples.first?.t ?? 0, .init(id: "gesture", points: g.samples.map { SIMD2($0.x, $0.y) }, colour: "#c00",
                                                         gesture: "\(g.kind!.rawValue)\(g.applied ? "" : " (not applied)")")))
        }
        items.sort { $0.t < $1.t }
        guard !items.isEmpty else { return "" }
        var boxes: [InspectorInk.Box] = []
        var k = 0
        for (bi, b) in blocks.enumerated() {
            for (li, line) in b.lines.enumerated() {
                let pts = line.strokeIds.compactMap { model.strokes[$0] }.flatMap { s in
                    (0 ..< s.count).map { SIMD2(Double(s.xs[$0]), Double(s.ys[$0])) / InkStroke.unitsPerMillimetre }
                }
                if let r = InspectorInk.bounds(pts) {
                    boxes.append(.init(cls: "L-line", rect: r.insetBy(dx: -1, dy: -1), title: "block \(bi + 1) line \(li + 1): \(line.diagnostics.result.text)",
                                       colour: InspectorInk.colour(k), label: "\(bi + 1).\(li + 1)"))
                }
                k += 1
                for w in line.words { boxes.append(.init(cls: "L-word", rect: w.box, title: w.label)) }
            }
        }
        return "<section id=\"page\"><h2>The page</h2><figure>\(InspectorInk.timeline(count: items.count))<div class=\"scroll\">"
            + InspectorInk.svg(strokes: items.map(\.stroke), boxes: boxes, scale: 4, maxWidth: 1400) + "</div></figure></section>"
    }

    /// Block `ordinal` (1-based); its lines are anchored `line-<ordinal>-<n>`.
    private static func section(_ d: BlockDiagnostics, ordinal: Int, model: PartModel, compare: (BlockDiagnostics, (String, String))?) -> String {
        var h = "<section id=\"block-\(XML.escape(d.blockId))\"><h2>Block \(XML.escape(d.blockId)): \(XML.escape(d.lines.map { $0.words.map(\.label).joined(separator: " ") }.joined(separator: " / ")))</h2>"
        h += InspectorLines.timings(d.timings, layout: d.layoutNanos)
        h += "<details><summary>Configuration in force</summary><table>"
        for k in d.configuration.keys.sorted() {
            let changed = compare.map { $0.0.configuration[k] != d.configuration[k] } ?? false
            h += "<tr><th>\(XML.escape(k))</th><td class=\"t\">\(XML.escape(d.configuration[k]!))</td>"
            if let compare { h += "<td class=\"t\">\(changed ? "<mark>" : "")\(XML.escape(compare.0.configuration[k] ?? "–"))\(changed ? "</mark>" : "")</td>" }
            h += "</tr>"
        }
        h += "</table></details>"
        for (i, line) in d.lines.enumerated() {
            let other = compare.flatMap { c in i < c.0.lines.count ? (c.0.lines[i], c.1) : nil }
            h += InspectorLines.editorLine(i, line, model: model, anchor: "line-\(ordinal)-\(i + 1)", compare: other.map { (line: $0.0, labels: $0.1) })
        }
        return h + "</section>"
    }
}
