import Foundation
import Quire

/// The gestures section: for each finished pen stroke of a replayed session, what the gesture
/// classifier decided and why (each rule it checked, what it measured, passed or not).
enum InspectorGestures {
    static func section(_ explanations: [GestureExplanation]) -> String {
        guard !explanations.isEmpty else { return "" }
        let taken = explanations.filter { $0.kind != nil }.count
        var h = "<section id=\"gestures\"><h2>Gestures</h2><p class=\"legend\">\(explanations.count) pen strokes checked, \(taken) looked like a gesture"
            + " (drawn dashed red on the page). Each row: what became of the stroke and the rules in the order the classifier checked them"
            + " (<span class=\"ok\">✔</span> met, <span class=\"bad\">✘</span> not: the last one decided).</p><table class=\"gestures\">"
            + "<tr><th>#</th><th>time</th><th>outcome</th><th>why</th></tr>"
        let t0 = explanations.first?.samples.first?.t ?? 0
        for (i, e) in explanations.enumerated() {
            let why = e.checks.map { c in
                "<span class=\"\(c.passed ? "ok" : "bad")\" title=\"\(XML.escape(c.detail))\">\(c.passed ? "✔" : "✘") \(XML.escape(c.rule))</span> <small>\(XML.escape(c.detail))</small>"
            }.joined(separator: "<br>")
            let t = Double((e.samples.first?.t ?? t0) - t0) / 1000
            h += "<tr\(e.kind != nil ? " class=\"chosen\"" : "")><td>\(i + 1)</td><td>\(String(format: "%.1f s", t))</td><td class=\"t\">\(XML.escape(e.outcome))</td><td class=\"t\">\(why.isEmpty ? "–" : why)</td></tr>"
        }
        return h + "</table></section>"
    }
}
