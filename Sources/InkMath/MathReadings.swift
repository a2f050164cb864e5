import Foundation

/// The n best readings of an expression line. Each symbol's classes are chosen jointly with the
/// symbol-sequence prior (`MathContext`): the layout of the classifier's best classes fixes the
/// structure, a Viterbi pass over its symbols picks the classes that maximise their scores plus
/// `weight` times the prior, and that reading is parsed again. Runner-up readings swap one symbol
/// to a close candidate class; all are ranked by the same joint score.
enum MathReadings {
    /// Runner-up classes further than this (nats) below a symbol's best are not tried for n-best readings.
    static let margin = 6.0
    /// The cheapest this many substitutions are also tried two at a time.
    static let pairedSwaps = 12
    /// The prior may pick a class at most this far (nats) below a symbol's best.
    static let contextMargin = 6.0

    /// The widest a `.` may be, in digit heights (see `sizeChecked`).
    static let dotWidth = 0.2

    /// Candidates that a symbol's size rules out lose `sizePenalty` nats: a `.` wider than
    /// `dotWidth` of its row's digit height is a short minus (on composed expressions of training
    /// writers dots are at most 0.16 H wide, minus signs, scripts' included, at least 0.29 H), and
    /// a `-` narrower than 0.6 of that is a dot. A letter whose other case is also a candidate
    /// loses `casePenalty` when its height says the other case, and so do a digit and a small letter
    /// (`2`/`z`) beside other symbols of its row. Candidates are re-sorted.
    static func sizeChecked(_ symbols: [MathSymbol], ticks: [Double?]? = nil) -> [MathSymbol] {
        let items = symbols.map { MathParser.Item(cls: Character($0.label), box: $0.box) }
        // Each symbol is measured against the height the others imply, so that its own (perhaps
        // wrong) class does not set the scale it is judged by (a `7` read `z` beside a `9`): the
        // others of its own row (a fraction's numerator, a script, a radicand) where they give a
        // height, since scripts and fraction parts are written smaller than the line; else the line's.
        func height(_ others: [Int]) -> Double? {
            let sized = others.filter { MathParser.sizesLine(items[$0]) }
            return sized.isEmpty ? nil : MathParser.lineHeight(sized.map { items[$0] })
        }
        let inputs = symbols.indices.map { ParsedSymbolInput(label: Character(symbols[$0].label), box: symbols[$0].box, tick: ticks?[$0]) }
        let layout = MathParser.layout(inputs)
        var rowOf: [Int: [Int]] = [:], sizingOf: [Int: MathRowSizing] = [:]
        let allRows = rows(layout), sizing = MathRowSizing.rows(layout)
        for (r, row) in allRows.enumerated() {
            for i in row {
                rowOf[i] = row
                sizingOf[i] = sizing[r]
            }
        }
        let onLine = Set(allRows.first ?? [])
        let scripted = MathRowSizing.scripted(layout)
        func betweenDigits(_ i: Int) -> Bool {
            i > 0 && i + 1 < symbols.count && MathSymbols.digitSet.contains(Character(symbols[i - 1].label))
                && MathSymbols.digitSet.contains(Character(symbols[i + 1].label))
        }
        return symbols.enumerated().map { i, s in
            var s = s
            var rowH = height((rowOf[i] ?? []).filter { $0 != i })
            // A fraction part alone (`\frac{o}{554}`) is as large as the other part, a radicand
            // alone as its radical's row where the radical stands on it (`MathRowSizing`); where
            // it stands, that row does not say.
            if rowH == nil, let by = sizingOf[i]?.row(for: symbols[i].box, rows: allRows, items: items) {
                rowH = height(by)
            }
            // Outside the main line, with no sized neighbour in its row or sizing row, only the line's height is known.
            let local = onLine.contains(i) || rowH != nil
            // Scripts are written smaller than the line (the composer: 0.5-0.75 of it), so they do
            // not measure a symbol outside them: `z^{4}` is no `Z` by its own `4`.
            let measuring = items.indices.filter { $0 != i && (scripted.contains(i) || !scripted.contains($0)) }
            let lineH = items.count > 1 ? MathParser.lineHeight(measuring.map { items[$0] }) : MathParser.lineHeight(items)
            let H = rowH ?? lineH
            guard H > 0, H.isFinite else { return s }
            // A row of operators alone (`x=`) gives no measure of a digit's height: the width of
            // an `=` is not one, so the classifier's case stands.
            if rowH == nil, !measuring.contains(where: { MathParser.sizesLine(items[$0]) || "/()[]{}|".contains(items[$0].cls) }) {
                return s
            }
            let w = s.box.width / H, h = s.box.height / H
            // How far its top stands above its row's baseline, where the row's sized symbols give one.
            let sizedRow = (rowOf[i] ?? []).filter { $0 != i && MathParser.sizesLine(items[$0]) }
            let above = sizedRow.isEmpty ? nil
                : (MathParser.median(sizedRow.map { MathParser.lineMetrics(items[$0], H).baseline }) - s.box.y) / H
            let foot = footBelowNeighbours(i, of: symbols, items: items, row: sizedRow, H: H)
            let tall = { (c: Character) in MathSymbols.digitSet.contains(c) || (c.isASCII && c.isUppercase) }
            var changed = false
            // Whether the other kind is among the five best, as when these checks were tuned: the
            // symbols keep more candidates (`MathRecognizer.candidateCount`), far-fetched ones.
            let near = s.candidates.prefix(5)
            for k in s.candidates.indices {
                let c = Character(s.candidates[k].label)
                var penalty = 0.0
                if (c == "." && w > dotWidth) || (c == "-" && w < 0.6 * dotWidth) { penalty = sizePenalty }
                // A capital is a digit's height, a small letter without ascender 0.62 of it.
                if c.isASCII && c.isUppercase && h < 0.72 && near.contains(where: { $0.label == c.lowercased() }) { penalty = casePenalty }
                if xHeightLetters.contains(c) && h > (rowH != nil ? capitalHeightInRow : 0.95)
                    && near.contains(where: { $0.label == c.uppercased() }) { penalty = casePenalty }
                // Beside a row's other symbols a small letter is not a digit's height, a digit not a
                // small letter's (`z`/`2`, `s`/`5`, `o`/`0`).
                if local {
                    if tall(c) && h < 0.7 && near.contains(where: { xHeightLetters.contains(Character($0.label)) }) { penalty = casePenalty }
                    // Nor is a small letter an ascender letter's height (`e`/`b`, `c`/`k`).
                    if xHeightLetters.contains(c) && h > 0.95
                        && near.contains(where: { tall(Character($0.label)) || ascenderLetters.contains(Character($0.label)) }) { penalty = casePenalty }
                    // A comma is a third of a digit's height, a slash more than one (composed
                    // training expressions: `,` 0.26-0.43 H, `/` 0.83-2.2 H).
                    if c == "/" && h < 0.6 && near.contains(where: { $0.label == "," }) { penalty = sizePenalty }
                    if c == "," && h > 0.65 && near.contains(where: { $0.label == "/" }) { penalty = sizePenalty }
                    // A comma hangs below the line, a point sits on it, whatever its pen made of it.
                    if let foot, c == "," && foot < commaFoot && near.contains(where: { $0.label == "." }) {
                        penalty = max(penalty, commaFootPenalty)
                    }
                    if let foot, c == "." && foot > commaFoot && near.contains(where: { $0.label == "," }) {
                        penalty = max(penalty, commaFootPenalty)
                    }
                    // A descender letter is as tall as a digit, but stands lower: one whose top is
                    // at a capital's height is the capital (`Y`/`y`, `P`/`p`).
                    if let above, descenderLetters.contains(c) && above > descenderTop
                        && near.contains(where: { $0.label == c.uppercased() }) { penalty = casePenalty }
                    // A descender letter hangs below the line and a digit or a capital stands on it,
                    // whatever shape the writer gives them (`y`/`4`, `g`/`9`, `q`/`9`, `p`/`P`).
                    if let foot, standsOnLine(c), foot > descenderFoot
                        && near.contains(where: { descenderLetters.contains(Character($0.label)) }) {
                        penalty = max(penalty, descenderFootPenalty)
                    }
                    if let foot, descenderLetters.contains(c), foot < onLineFoot
                        && near.contains(where: { standsOnLine(Character($0.label)) }) {
                        penalty = max(penalty, descenderFootPenalty)
                    }
                    // Between two digits a `/` shorter than a digit is more likely a `1` (`517` read `5/7`).
                    if c == "/" && h < 1 && near.contains(where: { $0.label == "1" }) && betweenDigits(i) {
                        penalty = max(penalty, shortSlashPenalty)
                    }
                }
                if penalty > 0 {
                    s.candidates[k].score -= penalty
                    changed = true
                }
            }
            if changed {
                s.candidates.sort { $0.score > $1.score }
                s.label = s.candidates[0].label
            }
            return s
        }
    }
    /// `sizeChecked` with each symbol measured as `labels` classes it (a reading's classes, where
    /// the symbols' own are the classifier's best): which neighbours give a row its digit height
    /// and its baseline, and which row each symbol is in, follow from the classes. A symbol no
    /// check changes keeps its own class.
    static func sizeChecked(_ symbols: [MathSymbol], ticks: [Double?]? = nil, as labels: [Character]) -> [MathSymbol] {
        var relabeled = symbols
        for i in relabeled.indices where labels.indices.contains(i) { relabeled[i].label = String(labels[i]) }
        var out = sizeChecked(relabeled, ticks: ticks)
        for i in out.indices where out[i].candidates == symbols[i].candidates { out[i].label = symbols[i].label }
        return out
    }

    /// Digit heights below the baseline of its row's nearest sized symbols on either side (their
    /// mean) that a mark's foot reaches as a comma, not a point. On 4,000 composed expressions of
    /// training writers (a mark between two digits, centred dots left out) 99% of 438 points end
    /// at most 0.10 below, 99% of 93 commas at least 0.09 (95%: 0.08 and 0.14); on sets A, B, C, H
    /// and I alike (0.11, 0.15). Writers whose point is a short tick are read `,` by the classifier.
    static let commaFoot = 0.11
    /// Nats a `,` pays whose foot is above `commaFoot` and a `.` whose foot is below it, where the
    /// other is among its five best. Sets A / B / C / H / I / T 800 / T 4,000 right: 452 / 456 / 458
    /// / 446 / 457 / 744 / 3,744 without; 453 / 456 / 458 / 446 / 457 / 745 / 3,752 at 2; 453 / 456
    /// / 458 / 445 / 457 / 745 / 3,754 at 3 and at 4 (H: a close `8`/`g` in a script turned); at 8
    /// A 452, I 456, the 4,000 3,752 (`6,3` read `6)^{3}`). Measured against the row's median
    /// baseline instead of the nearest neighbours, 4 nats broke four validation commas.
    static let commaFootPenalty = 3.0

    /// How far (digit heights `H`) symbol `i`'s foot lies below the mean baseline of the nearest
    /// of `row` on each side (`nil` with none): measured locally, as the line's baseline drifts.
    static func footBelowNeighbours(_ i: Int, of symbols: [MathSymbol], items: [MathParser.Item], row: [Int], H: Double) -> Double? {
        let box = symbols[i].box, mid = box.x + box.width / 2
        let left = row.filter { symbols[$0].box.maxX <= mid }.max { symbols[$0].box.x < symbols[$1].box.x }
        let right = row.filter { symbols[$0].box.x >= mid }.min { symbols[$0].box.x < symbols[$1].box.x }
        let sides = [left, right].compactMap { $0 }
        guard !sides.isEmpty else { return nil }
        let baseline = sides.map { MathParser.lineMetrics(items[$0], H).baseline }.reduce(0, +) / Double(sides.count)
        return (box.maxY - baseline) / H
    }

    /// (4 / 8 / 12 nats: set A 0.782 / 0.784 / 0.784, set B 0.752 / 0.754 / 0.754: a script's
    /// short minus the classifier, seeing it alone, calls a dot by 6-7 nats.)
    static let sizePenalty = 8.0
    /// Nats a `/` between two digits pays when it is shorter than its row's digit height and `1` is
    /// among its candidates: the log of how much likelier that height is for a `1` (on 4,800 composed
    /// expressions of training writers, under a digit's height: 51% of the 97 `1`s between digits,
    /// 5.6% of the 248 `/`s). Sets A / B / C / training writers: 451 / 449 / 451 / 736 without it;
    /// 452 / 450 / 452 / 736 at 2, 3 or 4 nats; at 6 and 8 real short slashes broke (`316/35`).
    static let shortSlashPenalty = 2.2
    /// Small letters that reach below the line, their tops at the x-height.
    static let descenderLetters = MathSymbolSet("gpqy")
    /// Digit heights over which a small letter without ascender is its capital when its own row's
    /// neighbours give the digit height (measured against the whole line, a base beside only its
    /// smaller scripts, it stays 0.95: `n^{3t}` read `N` at 0.9). On 4,000 composed expressions of
    /// training writers, on the line: 99% of 730 small letters under 0.75, 90% of 30 capitals over
    /// 0.96. At 0.95 / 0.9 / 0.85: sets A / B / C / training writers 452 / 453 / 453 / 738,
    /// 452 / 454 / 455 / 738 (none broken), 452 / 454 / 455 / 738 (A +1 -1: `c^{5}` read `C^{5}`).
    static let capitalHeightInRow = 0.9
    /// Digit heights above its row's baseline beyond which a descender letter's top is a capital's:
    /// between the two on 4,000 composed expressions of training writers (`y`, `p`, `g`, `q` on the
    /// line: 95% under 0.78; `Y`, `P`, `Q`, `J`: 0.9 and over but for two odd glyphs). Sets A / B /
    /// C / training writers: 452 / 450 / 452 / 736 without it; at 0.85 452 / 453 / 453 / 738, at
    /// 0.9 452 / 451 / 453 / 738, at 0.8 452 / 452 / 452 / 738, none broken at any.
    static let descenderTop = 0.85
    /// Digits and capitals, whose foot is on the line (a `J` may hang below it).
    static func standsOnLine(_ c: Character) -> Bool {
        MathSymbols.digitSet.contains(c) || (c.isASCII && c.isUppercase && c != "J")
    }
    /// Digit heights below the baseline of its row's nearest sized neighbours (`footBelowNeighbours`)
    /// past which a digit's or a capital's foot is a descender's. On 4,000 composed expressions of
    /// training writers, of the symbols with both kinds among their five best: 1.7% of 3,239 digits
    /// and capitals end more than 0.2 below (95% at most 0.13), 92% of 404 `g p q y` (median 0.35).
    static let descenderFoot = 0.2
    /// Digit heights below those neighbours' baseline under which a descender letter's foot is on
    /// the line: 2.5% of those `g p q y` end so high, 90% of the digits and capitals.
    static let onLineFoot = 0.1
    /// Nats a digit or capital pays whose foot is past `descenderFoot`, and a descender letter whose
    /// foot is above `onLineFoot`, where the other kind is among its five best. Sets A / B / C / H / I
    /// / T 800 right: 453 / 456 / 458 / 446 / 457 / 747 without; 455 / 456 / 458 / 447 / 457 / 747 at
    /// 2; 455 / 456 / 458 / 447 / 458 / 748 at 3; at 5 (the digits' side alone) C lost a `Y` with a
    /// script read `y`. The 4,000 training writers' expressions: 3,755 -> 3,759 at 3.
    static let descenderFootPenalty = 3.0

    /// Nats a reading pays per digit height by which a symbol's baseline, as its class places it,
    /// lies off its row's (beyond `baselineSlack`): a `g` read `9` sits a descender below the line.
    /// Chosen on validation set A (4 / 8 / 16 / 32: 0.774 / 0.778 / 0.774 / 0.774 exact), confirmed on
    /// set B (0.750 / 0.752 / 0.750 / 0.746).
    static let baselineWeight = 8.0
    /// Handwriting's own baseline wobble, in digit heights, that costs nothing.
    /// (Composed expressions: baseline drift 0.025 H a symbol, position noise 0.03-0.04 H; set A
    /// 0.1 / 0.15 / 0.25: 0.780 / 0.778 / 0.774, set B 0.752 / 0.752 / 0.750.)
    static let baselineSlack = 0.1

    /// How far, in digit heights summed over the symbols, the symbols of each row of a layout lie
    /// off the baseline the others of their row agree on (each symbol's baseline and height from
    /// where its class sits on a line: `MathSymbols.placement`). Only classes placed by their box
    /// count (not operators, dots, brackets, which stretch).
    static func baselineMisfit(_ layout: [LayoutToken], labels: [Character], boxes: [MathBox], only: Int? = nil) -> Double {
        var total = 0.0
        for row in rows(layout) where only.map(row.contains) ?? true {
            let placed = row.filter { i in
                guard case .box = MathSymbols.placement(labels[i]) else { return false }
                return !"()[]{}|,".contains(labels[i])
            }
            guard placed.count >= 2 else { continue }
            let items = placed.map { MathParser.Item(cls: labels[$0], box: boxes[$0]) }
            let H = MathParser.lineHeight(items)
            guard H > 0, H.isFinite else { continue }
            let lines = items.map { MathParser.lineMetrics($0, H).baseline }
            for k in items.indices where only.map({ placed[k] == $0 }) ?? true {
                let ref = MathParser.median(lines.indices.filter { $0 != k }.map { lines[$0] })
                total += max(0, abs(lines[k] - ref) / H - baselineSlack)
            }
        }
        return total
    }

    /// The symbol indices of each row of a layout (the main line first, then every fraction part,
    /// radicand and script), left to right.
    static func rows(_ tokens: [LayoutToken]) -> [[Int]] {
        var out: [[Int]] = []
        func walk(_ ts: [LayoutToken]) {
            let k = out.count
            out.append([])
            for t in ts {
                switch t {
                case let .symbol(_, source): out[k].append(source)
                case let .fraction(n, d): walk(n); walk(d)
                case let .radical(inside): walk(inside)
                case let .script(_, inside): walk(inside)
                }
            }
        }
        walk(tokens)
        return out
    }
    /// What a letter's case (or a digit / small letter) costs when its height says the other
    /// (composed training expressions: small x-height letters 0.39-0.89 H (1st-95th percentile),
    /// capitals 0.67-1.56 H (5th-95th)). Chosen on validation set A (2: 0.754, 4: 0.756, 8: 0.758
    /// exact), confirmed on set B (0.732, 0.738, 0.740): a writer whose small `a` has an `A`'s shape.
    static let casePenalty = 8.0
    static let xHeightLetters = MathSymbolSet("acemnorsuvwxz")
    /// Small letters as tall as a digit.
    static let ascenderLetters = MathSymbolSet("bdfhklt")

    /// The readings, best first, and the symbols' classes in the best one.
    static func nBest(symbols: [MathSymbol], ticks: [Double?], limit: Int,
                      context: MathContext? = nil, weight: Double = 0, syntaxWeight: Double = 0,
                      swaps trySwaps: Bool = true)
        -> (readings: [MathExpressionCandidate], labels: [Character]) {
        let scores = symbols.map { s in
            Dictionary(s.candidates.map { (Character($0.label), $0.score) }, uniquingKeysWith: max)
        }
        func reading(_ labels: [Character], layoutBoxes: [MathBox]? = nil) -> (MathExpressionCandidate, faults: Int) {
            let inputs = symbols.indices.map { ParsedSymbolInput(label: labels[$0], box: layoutBoxes?[$0] ?? symbols[$0].box, tick: ticks[$0]) }
            let layout = MathParser.layout(inputs)
            let node = MathTreeBuilder.node(layout)
            var score = labels.indices.reduce(0) { $0 + (scores[$1][labels[$1]] ?? -1e9) }
            score -= baselineWeight * baselineMisfit(layout, labels: labels, boxes: symbols.map(\.box))
            score -= largeSubscriptPenalty * Double(largeSubscripts(layout, labels: labels, boxes: symbols.map(\.box)))
            let faults = syntaxWeight > 0 ? MathWellFormed.faults(layout) : 0
            score -= syntaxWeight * Double(faults)
            if let context, weight > 0 {
                score += weight * context.logProbability(of: MathContext.tokens(MathContext.slots(layout)))
            }
            return (MathExpressionCandidate(node: node, latex: node.latex, score: score), faults)
        }
        let best = symbols.map { Character($0.label) }
        var start = best
        if let context, weight > 0, !symbols.isEmpty {
            let inputs = symbols.indices.map { ParsedSymbolInput(label: best[$0], box: symbols[$0].box, tick: ticks[$0]) }
            let layout = MathParser.layout(inputs)
            let boxes = symbols.map(\.box)
            // Each class also pays for where it puts its symbol against its row's baseline (the
            // others keep their best classes), so the prior does not pull a `g` below the line to `9`.
            let options = symbols.indices.map { i -> [(label: Character, score: Double)] in
                let s = symbols[i]
                guard let top = s.candidates.first?.score else { return [(Character(s.label), 0)] }
                return s.candidates.filter { top - $0.score < contextMargin && $0.score.isFinite }.map { c in
                    let l = Character(c.label)
                    var mine = best
                    mine[i] = l
                    return (l, c.score - baselineWeight * baselineMisfit(layout, labels: mine, boxes: boxes, only: i)
                        + weight * context.caseLogProbability(l))
                }
            }
            start = context.decode(slots: MathContext.slots(layout), options: options, weight: weight)
        }
        var out: [String: (reading: MathExpressionCandidate, labels: [Character])] = [:]
        @discardableResult func add(_ l: [Character], layoutBoxes: [MathBox]? = nil) -> Int {
            let (r, faults) = reading(l, layoutBoxes: layoutBoxes)
            if let old = out[r.latex], old.reading.score >= r.score { return faults }
            out[r.latex] = (r, l)
            return faults
        }
        let startFaults = add(start)
        if start != best { add(best) }
        // Substitutions of the chosen reading, one symbol and two at once, all ranked by the whole
        // reading's score (the Viterbi pass saw neither the parse of its own classes nor the kind
        // trigram): a `1` read `/` may need its neighbour's class changed too to parse as a number.
        var swaps: [(symbol: Int, label: Character, cost: Double)] = []
        // A reading no calculation could be (`9./=`) may be mended by a class the classifier put
        // far below: a writer whose `1` is a `/` gives it no doubt at all. Each is the line read
        // again, so only on lines of calculator length (a 400-stroke line took 6 times as long).
        let short = symbols.count <= MathRecognizer.maxSymbolsForAlternatives
        var reach = margin
        if startFaults > 0 && short { reach = .infinity }
        for (i, s) in symbols.enumerated() where trySwaps {
            guard let top = s.candidates.first?.score else { continue }
            for c in s.candidates where Character(c.label) != start[i] && top - c.score < reach && c.score.isFinite {
                swaps.append((i, Character(c.label), top - c.score))
            }
        }
        swaps.sort { ($0.cost, $0.symbol) < ($1.cost, $1.symbol) }
        for sw in swaps {
            var l = start
            l[sw.symbol] = sw.label
            add(l)
        }
        let paired = swaps.prefix(pairedSwaps)
        for (a, x) in paired.enumerated() {
            for y in paired.dropFirst(a + 1) where y.symbol != x.symbol {
                var l = start
                l[x.symbol] = x.label
                l[y.symbol] = y.label
                add(l)
            }
        }
        if flattenScripts && trySwaps && short, let top = out.values.max(by: { $0.reading.score < $1.reading.score }) {
            let inputs = symbols.indices.map { ParsedSymbolInput(label: top.labels[$0], box: symbols[$0].box, tick: ticks[$0]) }
            let layout = MathParser.layout(inputs), boxes = symbols.map(\.box)
            // Its scripts as large as their base flat, runs a little off a letter's line as its
            // scripts, the tails of scripts holding a relation on the line.
            for b in flattenedBoxes(layout, labels: top.labels, boxes: boxes) + scriptedBoxes(layout, labels: top.labels, boxes: boxes)
                + tailBoxes(layout, labels: top.labels, boxes: boxes) {
                add(top.labels, layoutBoxes: b)
            }
            // The context's own reading, when it lays out as no calculation could (`3^{-n\neq2}`):
            // its scripts flat may be what was written, though a class swap (`-` read `\cdot`)
            // mended the layout better than the misplaced script did.
            if start != top.labels, startFaults > 0 {
                let inputs = symbols.indices.map { ParsedSymbolInput(label: start[$0], box: symbols[$0].box, tick: ticks[$0]) }
                for b in flattenedBoxes(MathParser.layout(inputs), labels: start, boxes: symbols.map(\.box)) {
                    add(start, layoutBoxes: b)
                }
            }
        }
        let ranked = out.values.sorted { ($0.reading.score, $1.reading.latex) > ($1.reading.score, $0.reading.latex) }
        return (ranked.prefix(limit).map(\.reading), ranked.first?.labels ?? best)
    }
}
