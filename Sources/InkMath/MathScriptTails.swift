import Foundation

/// Layouts with the tail of a script that holds a relation read back on its base's line
/// (`p^{2}+x=4k` for the `p^{2+x=4k}` the parser made of a writer who came back down late): the
/// parser lets a script run while the next symbols stay near its line, and the reading that ends it
/// earlier is never weighed, though no calculation has a relation in an exponent or index (a fault
/// `MathWellFormed` counts). Each alternative moves the symbols from one of the script's operators
/// on, for layout only, onto the baseline of the base's row; the reading is scored on the ink as
/// written, so a tail really written high pays for being read on the line.
extension MathReadings {
    /// The symbols a script's tail may start at (a sign opening the script stays in it).
    static let tailStarts = Set("+-×÷·/=<>≤≥≠±")
    /// What no script of a calculation holds.
    static let relations = Set("=<>≤≥≠")

    /// One set of layout boxes per operator inside a script that holds a relation (not its first
    /// symbol) and follows a symbol: that operator and all after it in the script moved onto the
    /// baseline of its base's row (that row's sized symbols', brackets left out: they stretch).
    /// Only scripts with a relation: tried on every script, a real exponent's tail read flat
    /// (`(3\div29)^{1-0}` read `^{1}-0`) as often as a swallowed line came back.
    static func tailBoxes(_ layout: [LayoutToken], labels: [Character], boxes: [MathBox]) -> [[MathBox]] {
        let H = MathParser.lineHeight(labels.indices.map { MathParser.Item(cls: labels[$0], box: boxes[$0]) })
        guard H > 0, H.isFinite else { return [] }
        func baseline(_ i: Int) -> Double { MathParser.lineMetrics(MathParser.Item(cls: labels[i], box: boxes[i]), H).baseline }
        var out: [[MathBox]] = []
        func walk(_ ts: [LayoutToken]) {
            let row = ts.compactMap { t -> LayoutToken? in if case .symbol = t { return t } else { return nil } }
            let line = sizedSources(row, labels: labels)
            for (k, t) in ts.enumerated() {
                switch t {
                case .symbol: break
                case let .fraction(n, d): walk(n); walk(d)
                case let .radical(inside): walk(inside)
                case let .script(_, inside):
                    walk(inside)
                    guard k > 0, case .symbol = ts[k - 1], !line.isEmpty,
                          sources(inside).contains(where: { Self.relations.contains(labels[$0]) }) else { continue }
                    let sized = sizedSources(inside, labels: labels)
                    guard !sized.isEmpty else { continue }
                    let dy = MathParser.median(line.map(baseline)) - MathParser.median(sized.map(baseline))
                    for m in 1 ..< max(1, inside.count) {
                        guard case let .symbol(c, _) = inside[m], tailStarts.contains(c) else { continue }
                        var b = boxes
                        for i in sources(Array(inside[m...])) { b[i].y += dy }
                        out.append(b)
                    }
                }
            }
        }
        walk(layout)
        return out
    }
}
