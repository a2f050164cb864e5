/// Layouts with one script as large as its base read on its base's line instead (`86.7` for the
/// `8^{6.7}` of digits written a little high, `18` for a `1_{8}` whose `8` sits a little low): the
/// parser decides a script by thresholds on where a symbol stands, and the reading that pays for it
/// (the prior's `<sup>` or `<sub>`, the baseline fit of the moved symbols) is never weighed against
/// the line read flat. Each alternative moves the script's symbols, for layout only, by the height
/// between their baseline and their base's; the reading is scored on the ink as written, so a raised
/// `n` read on the line pays for being raised. A reading with a subscript as large as its base pays
/// `largeSubscriptPenalty`.
extension MathReadings {
    /// Whether readings with a large script read flat are ranked too.
    static let flattenScripts = true
    /// How large a script's symbols must be (the digit height their classes imply, against their
    /// base's) to be read flat: real scripts are written at 0.5-0.75 of the size, and flattening
    /// those too broke 30 readings of 2,300 where it fixed 4.
    static let flatScriptSize = 0.8

    /// One set of layout boxes per script of `layout` as large as its base (`largeScripts`): the
    /// script's symbols moved onto the base's baseline. Subscripts too (stop 38): a `q` or `y` the
    /// classifier reads `9` or `4` stands a descender low and so became a subscript whatever its
    /// class, and a digit written a little low beside a tall `1` did too (docs/MATH-CHECKS.md, step 23).
    static func flattenedBoxes(_ layout: [LayoutToken], labels: [Character], boxes: [MathBox]) -> [[MathBox]] {
        let H = MathParser.lineHeight(labels.indices.map { MathParser.Item(cls: labels[$0], box: boxes[$0]) })
        func baseline(_ i: Int) -> Double { MathParser.lineMetrics(MathParser.Item(cls: labels[i], box: boxes[i]), H).baseline }
        return largeScripts(layout, labels: labels, boxes: boxes).map { script in
            let dy = baseline(script.base) - MathParser.median(sizedSources(script.inside, labels: labels).map(baseline))
            var b = boxes
            for i in sources(script.inside) { b[i].y += dy }
            return b
        }
    }

    /// Nats a reading pays per subscript as large as its base (`largeScripts`): a `g` read `9`
    /// below a `2` makes `2_{9}`, a subscript a writer would have made smaller. 1 nat while such a
    /// subscript had no flat reading to lose to (stop 33); with one, on sets A, B, C, H, I, T and
    /// 4,000 training writers' expressions, 1 / 2 / 3 / 4 / 6 nats read 6,735 / 6,737 / 6,741 /
    /// 6,739 / 6,741 right of 6,800 (6,732 before the flat readings): 3, the plateau's middle.
    static let largeSubscriptPenalty = 3.0

    /// How many subscripts of `layout` are as large as their base (`largeScripts`).
    static func largeSubscripts(_ layout: [LayoutToken], labels: [Character], boxes: [MathBox]) -> Int {
        largeScripts(layout, labels: labels, boxes: boxes).filter { !$0.superscript }.count
    }

    /// The scripts of `layout` whose base is a symbol and whose symbols are written as large as it:
    /// the digit height their classes imply at least `flatScriptSize` of the base's (scripts are
    /// written smaller).
    static func largeScripts(_ layout: [LayoutToken], labels: [Character], boxes: [MathBox])
        -> [(superscript: Bool, base: Int, inside: [LayoutToken])] {
        let H = MathParser.lineHeight(labels.indices.map { MathParser.Item(cls: labels[$0], box: boxes[$0]) })
        guard H > 0, H.isFinite else { return [] }
        func implied(_ i: Int) -> Double { MathParser.lineMetrics(MathParser.Item(cls: labels[i], box: boxes[i]), H).height }
        var out: [(superscript: Bool, base: Int, inside: [LayoutToken])] = []
        func walk(_ ts: [LayoutToken]) {
            for (k, t) in ts.enumerated() {
                switch t {
                case .symbol: break
                case let .fraction(n, d): walk(n); walk(d)
                case let .radical(inside): walk(inside)
                case let .script(superscript, inside):
                    walk(inside)
                    guard k > 0, case let .symbol(_, base) = ts[k - 1] else { continue }
                    let placed = sizedSources(inside, labels: labels)
                    if !placed.isEmpty, MathParser.median(placed.map(implied)) >= Self.flatScriptSize * implied(base) {
                        out.append((superscript, base, inside))
                    }
                }
            }
        }
        walk(layout)
        return out
    }

    /// The symbols of `tokens` (fraction parts, radicands and scripts included) placed by their box,
    /// brackets and commas left out: those whose box says how large they were written.
    static func sizedSources(_ tokens: [LayoutToken], labels: [Character]) -> [Int] {
        sources(tokens).filter { i in
            guard case .box = MathSymbols.placement(labels[i]) else { return false }
            return !"()[]{}|,".contains(labels[i])
        }
    }

    /// The symbols of `tokens`, fraction parts, radicands and scripts included.
    static func sources(_ tokens: [LayoutToken]) -> [Int] {
        tokens.flatMap { t -> [Int] in
            switch t {
            case let .symbol(_, s): return [s]
            case let .fraction(n, d): return sources(n) + sources(d)
            case let .radical(inside): return sources(inside)
            case let .script(_, inside): return sources(inside)
            }
        }
    }
}
