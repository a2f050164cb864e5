import Foundation

/// Layouts with the tail of a script read back on its base's line (`p^{2}+x=4k` for the
/// `p^{2+x=4k}` the parser made of a writer who came back down late): the parser lets a script run
/// while the next symbols stay near its line, and the reading that ends it earlier is never weighed.
/// Two tails are offered: one in a script that holds a relation, which no calculation has in an
/// exponent or index (a fault `MathWellFormed` counts), and one written larger than the script
/// before it (`a^{5G/x}\div332`: the `332` is a row's size, not a script's). Each alternative moves
/// the symbols from one of the script's operators on, for layout only, onto the baseline of the
/// base's row; the reading is scored on the ink as written, so a tail really written high pays for
/// being read on the line.
extension MathReadings {
    /// The symbols a script's tail may start at (a sign opening the script stays in it).
    static let tailStarts = MathSymbolSet("+-×÷·/=<>≤≥≠±")
    /// What no script of a calculation holds.
    static let relations = MathSymbolSet("=<>≤≥≠")
    /// How much larger than the script before it (median digit height its classes imply, symbols of
    /// the script's own row) a tail without a relation must be written to be read on the line too.
    /// Sets A, B, C, H, I, T 800 and 4,000 training writers read alike from 1.2 to 1.3; 1.1 read
    /// `a^{1\div I}` as `a^{1}\div I` (its `I` 1.15 times the `1`), 1.4 lost `1^{27-89}\times3` (1.35).
    static let tailScriptSize = 1.25

    /// One set of layout boxes per operator inside a script that follows a symbol (not the script's
    /// first symbol), where the script holds a relation or the tail from that operator on is written
    /// `tailScriptSize` times as large as the script before it: that operator and all after it in
    /// the script moved onto the baseline of its base's row (that row's sized symbols', brackets left
    /// out: they stretch). Tried on every script, a real exponent's tail read flat
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
                    guard k > 0, case .symbol = ts[k - 1], !line.isEmpty else { continue }
                    let relation = sources(inside).contains(where: { Self.relations.contains(labels[$0]) })
                    let sized = sizedSources(inside, labels: labels)
                    guard !sized.isEmpty else { continue }
                    let dy = MathParser.median(line.map(baseline)) - MathParser.median(sized.map(baseline))
                    for m in 1 ..< max(1, inside.count) {
                        guard case let .symbol(c, _) = inside[m], tailStarts.contains(c),
                              relation || writtenLarger(inside[m...], than: inside[..<m]) else { continue }
                        var b = boxes
                        for i in sources(Array(inside[m...])) { b[i].y += dy }
                        out.append(b)
                    }
                }
            }
        }
        // The implied digit heights of a run's own sized symbols (not those of its fractions,
        // radicands or scripts), so that a letter and a digit compare.
        func heights(_ run: ArraySlice<LayoutToken>) -> [Double] {
            run.compactMap { t -> Double? in
                guard case let .symbol(l, i) = t, case .box = MathSymbols.placement(l), !"()[]{}|,".contains(l) else { return nil }
                return MathParser.lineMetrics(MathParser.Item(cls: labels[i], box: boxes[i]), H).height
            }
        }
        func writtenLarger(_ tail: ArraySlice<LayoutToken>, than head: ArraySlice<LayoutToken>) -> Bool {
            let t = heights(tail), h = heights(head)
            return !t.isEmpty && !h.isEmpty && MathParser.median(t) >= tailScriptSize * MathParser.median(h)
        }
        walk(layout)
        return out
    }
}
