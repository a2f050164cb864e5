import Foundation
import InkModel
import InkRecognition
import Quire

/// The inspector's report of labelled samples (JSON lines): CER and accuracy per category,
/// counted by `SampleEvaluation` exactly as `quire eval` counts them; the most frequent character
/// substitutions; the worst errors as a gallery (ink beside reading, sortable by category and
/// writer, the worst in detail: frame strip, alignment, candidates); every sample's reference
/// against its reading with the differences marked; with a comparison, both readings side by side.
public enum InspectorSamples {
    /// A way of reading samples: the recognizer, the decoder options and a name for headings.
    public struct Reader {
        public var recognizer: TextRecognizer
        public var options: RecognitionOptions
        public var name: String
        /// The settings as the report states them (configuration in force).
        public var configuration: [String: String]
        /// What sets this reader apart, for the summary ("lexicon-mode=off").
        public var detail: String
        public init(recognizer: TextRecognizer, options: RecognitionOptions, name: String, configuration: [String: String], detail: String = "") {
            self.recognizer = recognizer; self.options = options; self.name = name; self.configuration = configuration; self.detail = detail
        }
    }

    /// How many of the worst errors the gallery shows, and how many of those in full detail.
    public struct Limits: Sendable {
        public var gallery = 300
        public var detail = 40
        public init() {}
    }

    struct Read {
        var sample: LabeledSample
        var a: SampleEvaluation.Outcome
        var b: SampleEvaluation.Outcome?
        var errors: Int
        var errorsB: Int?
    }

    /// The report of `groups` (samples per category, as `SampleEvaluation.select` gives them)
    /// read by `a` and, to compare, by `b`.
    public static func html(groups: [(category: String, samples: [LabeledSample])], title: String, a: Reader, b: Reader? = nil,
                            limits: Limits = Limits()) -> String {
        var reads: [(category: String, reads: [Read])] = []
        for (cat, list) in groups {
            reads.append((cat, list.map { s in
                let ra = SampleEvaluation.recognize(s, recognizer: a.recognizer, options: a.options)
                let rb = b.map { SampleEvaluation.recognize(s, recognizer: $0.recognizer, options: $0.options) }
                return Read(sample: s, a: ra, b: rb, errors: RecognitionMetrics.editDistance(ra.text, s.normalizedLabel),
                            errorsB: rb.map { RecognitionMetrics.editDistance($0.text, s.normalizedLabel) })
            }))
        }
        let flat = reads.flatMap(\.reads)
        var body = figures(reads, a: a, b: b) + configuration(a, b)
        if let b { body += changed(flat, a: a, b: b) }
        body += confusions(flat) + gallery(flat, a: a, b: b, limits: limits) + table(flat, b: b)
        let summary = "<p class=\"timings\">\(flat.count) samples in \(reads.count) categories, read as <code>quire eval</code> reads them"
            + " (lines split by the gaps between them, each line read, joined with spaces).</p>"
            + (b.map { "<p class=\"compare\"><b>Compare</b> \(XML.escape(a.name)) (as configured) with \(XML.escape($0.name)): \(XML.escape($0.detail))</p>" } ?? "")
        return InspectorPage.document(title: title, summary: summary, body: body)
    }

    private static func pct(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// CER and accuracy per category, formatted as `quire eval` prints them.
    private static func figures(_ reads: [(category: String, reads: [Read])], a: Reader, b: Reader?) -> String {
        var h = "<section id=\"figures\"><h2>Figures</h2><table class=\"figures\"><tr><th>category</th><th>n</th><th>CER</th><th>acc</th><th>errors / chars</th><th>ms p50</th><th>net</th>"
        if let b { h += "<th>CER \(XML.escape(b.name))</th><th>acc \(XML.escape(b.name))</th><th>Δ CER</th>" }
        h += "</tr>"
        var all = SampleEvaluation.Score(), allB = SampleEvaluation.Score()
        for (cat, list) in reads {
            var s = SampleEvaluation.Score(), sb = SampleEvaluation.Score()
            for r in list {
                s.add(reference: r.sample.normalizedLabel, reading: r.a.text)
                if let o = r.b { sb.add(reference: r.sample.normalizedLabel, reading: o.text) }
            }
            all.add(s); allB.add(sb)
            let ms = list.map(\.a.ms).sorted(), net = 100 * list.reduce(0) { $0 + $1.a.networkMs } / max(1e-9, ms.reduce(0, +))
            h += "<tr data-cat=\"\(cat)\"><td>\(cat)</td><td class=\"n\">\(s.n)</td><td class=\"cer\">\(String(format: "%.3f", s.characterErrorRate))</td>"
                + "<td class=\"acc\">\(String(format: "%.3f", s.accuracy))</td><td>\(s.errors) / \(s.chars)</td><td>\(String(format: "%.1f", pct(ms, 0.5)))</td><td>\(String(format: "%.0f%%", net))</td>"
            if b != nil { h += delta(s, sb) }
            h += "</tr>"
        }
        h += "<tr data-cat=\"all\"><td>all</td><td class=\"n\">\(all.n)</td><td class=\"cer\">\(String(format: "%.3f", all.characterErrorRate))</td>"
            + "<td class=\"acc\">\(String(format: "%.3f", all.accuracy))</td><td>\(all.errors) / \(all.chars)</td><td></td><td></td>"
        if b != nil { h += delta(all, allB) }
        return h + "</tr></table><p class=\"legend\">CER: edit distance summed over the samples / reference characters; acc: share read exactly;"
            + " ms p50: median time a sample; net: share of that time in preprocessing and the network.</p></section>"
    }

    private static func delta(_ a: SampleEvaluation.Score, _ b: SampleEvaluation.Score) -> String {
        let d = b.characterErrorRate - a.characterErrorRate
        let cls = d < -0.0005 ? "better" : d > 0.0005 ? "worse" : ""
        return "<td>\(String(format: "%.3f", b.characterErrorRate))</td><td>\(String(format: "%.3f", b.accuracy))</td><td class=\"d \(cls)\">\(String(format: "%+.3f", d))</td>"
    }

    private static func configuration(_ a: Reader, _ b: Reader?) -> String {
        var h = "<details><summary>Configuration in force</summary><table><tr><th>setting</th><th>\(XML.escape(a.name))</th>\(b.map { "<th>\(XML.escape($0.name))</th>" } ?? "")</tr>"
        for k in Set(a.configuration.keys).union(b.map { Array($0.configuration.keys) } ?? []).sorted() {
            let va = a.configuration[k] ?? "–"
            h += "<tr><th>\(XML.escape(k))</th><td class=\"t\">\(XML.escape(va))</td>"
            if let b {
                let vb = b.configuration[k] ?? "–"
                h += "<td class=\"t\">\(vb == va ? XML.escape(vb) : "<mark>\(XML.escape(vb))</mark>")</td>"
            }
            h += "</tr>"
        }
        return h + "</table></details>"
    }

    /// The most frequent substitutions (reference character read as another), and what was
    /// most often lost or added.
    private static func confusions(_ reads: [Read]) -> String {
        var subs: [String: Int] = [:], dels: [Character: Int] = [:], ins: [Character: Int] = [:]
        for r in reads where r.errors > 0 {
            for step in TextAlignment.steps(reference: r.sample.normalizedLabel, reading: r.a.text) {
                switch step {
                case .substituted(let x, let y): subs["\(x)\u{1}\(y)", default: 0] += 1
                case .deleted(let x): dels[x, default: 0] += 1
                case .inserted(let y): ins[y, default: 0] += 1
                case .same: break
                }
            }
        }
        func shown(_ c: Character) -> String { c == " " ? "␣" : XML.escape(String(c)) }
        var h = "<section id=\"confusions\"><h2>Confusions</h2><div class=\"words\"><table><caption>Most frequent substitutions</caption><tr><th>reference</th><th>read as</th><th>times</th></tr>"
        for (k, n) in subs.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(30) {
            let parts = k.split(separator: "\u{1}", omittingEmptySubsequences: false)
            h += "<tr><td class=\"t\">\(shown(Character(String(parts[0]))))</td><td class=\"t\">\(shown(Character(String(parts[1]))))</td><td>\(n)</td></tr>"
        }
        h += "</table>"
        for (name, table) in [("Most often lost", dels), ("Most often added", ins)] {
            h += "<table><caption>\(name)</caption><tr><th>character</th><th>times</th></tr>"
            for (c, n) in table.sorted(by: { ($0.value, String($1.key)) > ($1.value, String($0.key)) }).prefix(12) {
                h += "<tr><td class=\"t\">\(shown(c))</td><td>\(n)</td></tr>"
            }
            h += "</table>"
        }
        return h + "</div></section>"
    }

    /// The ink of a sample, small.
    private static func thumbnail(_ s: LabeledSample) -> String {
        let pts = s.strokes.flatMap { $0 }
        guard let b = InspectorInk.bounds(pts) else { return "" }
        let scale = 70 / max(b.height, b.width / 5, 1e-9)
        let strokes = s.strokes.enumerated().map { InspectorInk.Stroke(id: "stroke \($0.offset + 1)", points: $0.element, colour: "#223") }
        return InspectorInk.svg(strokes: strokes, scale: scale, maxWidth: 420, cls: "thumb")
    }

    /// Each line of a sample read again with the diagnostics: strip, alignment, candidates.
    private static func detail(_ s: LabeledSample, a: Reader, b: Reader?) -> String {
        var h = ""
        for (i, g) in TextRecognizer.groupLines(strokes: s.strokes).enumerated() {
            let strokes = g.map { s.strokes[$0] }
            var oa = a.options; oa.inMillimetres = s.inMillimetres
            guard let d = a.recognizer.diagnose(strokes: strokes, options: oa), let box = InspectorInk.bounds(strokes.flatMap { $0 }) else { continue }
            var other: LineDiagnostics?
            if let b {
                var ob = b.options; ob.inMillimetres = s.inMillimetres
                other = b.recognizer.diagnose(strokes: strokes, options: ob)
            }
            h += "<h4>Line \(i + 1): \(XML.escape(d.result.text))</h4>"
            h += InspectorLines.sampleLine(strokes, d, scale: 90 / max(box.height, 1e-9), compare: other.map { ($0, (a.name, b!.name)) })
        }
        return h
    }

    /// The worst errors, worst first: ink beside reference and reading; the first ones in detail.
    private static func gallery(_ reads: [Read], a: Reader, b: Reader?, limits: Limits) -> String {
        let wrong = reads.filter { $0.errors > 0 }.sorted {
            ($0.errors, Double($0.errors) / Double(max(1, $0.sample.normalizedLabel.count)), $1.sample.id)
                > ($1.errors, Double($1.errors) / Double(max(1, $1.sample.normalizedLabel.count)), $0.sample.id)
        }
        var h = "<section id=\"errors\"><h2>Worst errors</h2><p class=\"legend\">\(wrong.count) of \(reads.count) samples misread; the worst \(min(wrong.count, limits.gallery)) shown,"
            + " the first \(min(wrong.count, limits.detail)) with their lines in detail.</p>"
        h += InspectorPage.sortBar(for: "gallery", categories: SampleEvaluation.categories) + "<div class=\"gallery\" id=\"gallery\">"
        for (k, r) in wrong.prefix(limits.gallery).enumerated() {
            let s = r.sample
            let d = InspectorLines.diff(reference: s.normalizedLabel, reading: r.a.text)
            h += "<div class=\"card\" data-err=\"\(r.errors)\" data-cat=\"\(s.category)\" data-writer=\"\(XML.escape(s.writer))\">\(thumbnail(s))"
                + "<p>reference <b>\(d.reference)</b></p><p>read <b>\(d.reading)</b> <span class=\"bad\">\(r.errors) error\(r.errors == 1 ? "" : "s")</span></p>"
            if let o = r.b { h += "<p>\(XML.escape(b!.name)) <b>\(InspectorLines.diff(reference: s.normalizedLabel, reading: o.text).reading)</b></p>" }
            h += "<p><small>\(s.category) · \(XML.escape(s.writer)) · \(XML.escape(s.id))</small></p>"
            if k < limits.detail { h += "<details><summary>lines in detail</summary>\(detail(s, a: a, b: b))</details>" }
            h += "</div>"
        }
        return h + "</div></section>"
    }

    /// Samples whose reading changed between the two readers, better or worse.
    private static func changed(_ reads: [Read], a: Reader, b: Reader) -> String {
        let diff = reads.filter { $0.b != nil && $0.b!.text != $0.a.text }
        let better = diff.filter { $0.errorsB! < $0.errors }.count, worse = diff.filter { $0.errorsB! > $0.errors }.count
        var h = "<section id=\"compare\"><h2>Compare: \(XML.escape(a.name)) and \(XML.escape(b.name))</h2><p>\(diff.count) of \(reads.count) readings changed:"
            + " <span class=\"better\">\(better) fewer errors</span>, <span class=\"worse\">\(worse) more</span>, \(diff.count - better - worse) as many.</p>"
        h += "<table class=\"sortable\"><tr><th>sample</th><th>reference</th><th>\(XML.escape(a.name))</th><th>\(XML.escape(b.name))</th><th>errors</th></tr>"
        for r in diff.prefix(500) {
            let ref = r.sample.normalizedLabel
            let cls = r.errorsB! < r.errors ? "better" : r.errorsB! > r.errors ? "worse" : ""
            h += "<tr><td class=\"t\"><small>\(r.sample.category) \(XML.escape(r.sample.id))</small></td><td class=\"t\">\(XML.escape(ref))</td>"
                + "<td class=\"t\">\(InspectorLines.diff(reference: ref, reading: r.a.text).reading)</td><td class=\"t\">\(InspectorLines.diff(reference: ref, reading: r.b!.text).reading)</td>"
                + "<td class=\"\(cls)\">\(r.errors) → \(r.errorsB!)</td></tr>"
        }
        return h + "</table></section>"
    }

    /// Every sample: reference against reading, differences marked.
    private static func table(_ reads: [Read], b: Reader?) -> String {
        var h = "<details id=\"samples-table\"><summary>All \(reads.count) samples, reference against reading</summary>"
            + InspectorPage.sortBar(for: "samples", categories: SampleEvaluation.categories)
            + "<table><thead><tr><th>category</th><th>writer</th><th>reference</th><th>reading</th>\(b == nil ? "" : "<th>\(XML.escape(b!.name))</th>")<th>errors</th></tr></thead><tbody id=\"samples\">"
        for r in reads {
            let s = r.sample, d = InspectorLines.diff(reference: s.normalizedLabel, reading: r.a.text)
            h += "<tr data-err=\"\(r.errors)\" data-cat=\"\(s.category)\" data-writer=\"\(XML.escape(s.writer))\" title=\"\(XML.escape(s.id))\"><td>\(s.category)</td><td>\(XML.escape(s.writer))</td>"
                + "<td class=\"t\">\(d.reference)</td><td class=\"t\">\(d.reading)</td>"
            if let o = r.b { h += "<td class=\"t\">\(InspectorLines.diff(reference: s.normalizedLabel, reading: o.text).reading)</td>" }
            h += "<td class=\"\(r.errors == 0 ? "ok" : "bad")\">\(r.errors)</td></tr>"
        }
        return h + "</tbody></table></details>"
    }
}
