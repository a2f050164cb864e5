import Foundation

/// The n best readings of an expression line: the parse of the best classes, then readings where
/// symbols take a close runner-up class, best first, each parsed and scored.
enum MathReadings {
    /// Runner-up classes further than this (nats) below a symbol's best are not tried.
    static let margin = 4.0

    static func nBest(symbols: [MathSymbol], ticks: [Double?], limit: Int) -> [MathExpressionCandidate] {
        func reading(_ labels: [Character], _ score: Double) -> MathExpressionCandidate {
            let inputs = symbols.indices.map { ParsedSymbolInput(label: labels[$0], box: symbols[$0].box, tick: ticks[$0]) }
            let node = MathParser.parse(inputs)
            return MathExpressionCandidate(node: node, latex: node.latex, score: score)
        }
        let labels = symbols.map { Character($0.label) }
        let total = symbols.reduce(0) { $0 + ($1.candidates.first?.score ?? 0) }
        var out = [reading(labels, total)]
        guard limit > 1 else { return out }
        // Single substitutions, cheapest first.
        var swaps: [(symbol: Int, label: Character, cost: Double)] = []
        for (i, s) in symbols.enumerated() {
            guard let top = s.candidates.first?.score else { continue }
            for c in s.candidates.dropFirst() where top - c.score < margin && c.score.isFinite {
                swaps.append((i, Character(c.label), top - c.score))
            }
        }
        swaps.sort { ($0.cost, $0.symbol) < ($1.cost, $1.symbol) }
        var seen: Set<String> = [out[0].latex]
        for sw in swaps where out.count < limit {
            var l = labels
            l[sw.symbol] = sw.label
            let r = reading(l, total - sw.cost)
            if seen.insert(r.latex).inserted { out.append(r) }
        }
        return out
    }
}
