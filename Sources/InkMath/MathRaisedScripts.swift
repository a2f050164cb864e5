import Foundation

/// Layouts with a run of symbols that stands off its row's baseline read as a script (`c8` for the
/// `c^{8}` of a writer who raised the `8` a little): the parser decides a script by thresholds on
/// where a symbol stands, and a reading whose row then pays for a symbol off its baseline
/// (`baselineMisfit`) is never weighed against the same symbols as a script, which the prior may
/// find far likelier (a digit after a letter is rare on a line, common as its power). The mirror of
/// `flattenedBoxes`: each alternative moves the run's symbols, for layout only, well above or below
/// the row; the reading is scored on the ink as written.
extension MathReadings {
    /// Digit heights a run must stand above or below its row's baseline (as its classes place it)
    /// to be read as a script too: just beyond `baselineSlack`, where the flat reading starts to
    /// pay. Sets A / B / C / training writers (800; 4,000 more): 452 / 454 / 455 / 738 (3,668)
    /// without; 452 / 455 / 456 / 741 (3,676) at 0.15, none broken; the same at 0.2, (3,675) at 0.25.
    /// With the signed runs (`y-5` -> `y^{-5}`): 452 / 455 / 456 / 742 (3,677: two fixed, `n-7=`
    /// read `n^{-7}=`).
    static let scriptRunOffset = 0.15

    /// One set of layout boxes per run of digits and letters (decimal points between digits kept
    /// with them, a minus before them that stands over the row's operators as their sign) that
    /// follows a letter of its row and stands `scriptRunOffset` or more off the
    /// baseline of the row's symbols before it: the run moved half a digit height further that way.
    /// Only after a letter: after a digit the prior finds a script as likely as the line, and
    /// with digits too it broke 20 readings of 2,300 (A 5, B 6, C 4, T 5: `95` read `9^{5}`, `7w`
    /// read `7^{w}`); a letter followed by a digit or letter on the line is rare (`c8`, `n4`).
    static func scriptedBoxes(_ layout: [LayoutToken], labels: [Character], boxes: [MathBox]) -> [[MathBox]] {
        var out: [[MathBox]] = []
        func placed(_ i: Int) -> Bool {
            guard case .box = MathSymbols.placement(labels[i]) else { return false }
            return !"()[]{}|,".contains(labels[i])
        }
        func runnable(_ i: Int) -> Bool { MathSymbols.digitSet.contains(labels[i]) || labels[i].isLetter }
        func walk(_ ts: [LayoutToken]) {
            let row = ts.compactMap { t -> Int? in if case let .symbol(_, s) = t { return s } else { return nil } }
            let sized = row.filter(placed)
            let H = MathParser.lineHeight(sized.map { MathParser.Item(cls: labels[$0], box: boxes[$0]) })
            func baseline(_ i: Int) -> Double { MathParser.lineMetrics(MathParser.Item(cls: labels[i], box: boxes[i]), H).baseline }
            for t in ts {
                switch t {
                case let .fraction(n, d): walk(n); walk(d)
                case let .radical(inside): walk(inside)
                case let .script(_, inside): walk(inside)
                case .symbol: break
                }
            }
            guard H > 0, H.isFinite else { return }
            for k in 1 ..< max(1, ts.count) {
                guard case let .symbol(_, first) = ts[k], case let .symbol(_, base) = ts[k - 1], labels[base].isLetter else { continue }
                // A minus before the run is its sign (`n^{-9}`), measured by the symbol after it.
                let signed = labels[first] == "-"
                guard runnable(first) || signed else { continue }
                guard !signed || k + 1 < ts.count, case let .symbol(_, lead) = ts[signed ? k + 1 : k], runnable(lead) else { continue }
                let before = ts[..<k].compactMap { t -> Int? in if case let .symbol(_, s) = t, placed(s) { return s } else { return nil } }
                guard !before.isEmpty else { continue }
                let ref = MathParser.median(before.map(baseline))
                let off = (ref - baseline(lead)) / H
                guard abs(off) >= scriptRunOffset, !signed || off > 0 else { continue }
                // ... and stands above the row's operators, as an exponent's sign does.
                if signed, boxes[first].y + boxes[first].height / 2 > ref + (MathSymbols.axis - 0.1) * H { continue }
                var run = signed ? [first, lead] : [first]
                var j = k + run.count
                while j < ts.count, case let .symbol(c, s) = ts[j] {
                    if ".,".contains(c) {
                        guard j + 1 < ts.count, case let .symbol(_, nxt) = ts[j + 1], MathSymbols.digitSet.contains(labels[nxt]) else { break }
                    } else if !runnable(s) || ((ref - baseline(s)) / H) * (off > 0 ? 1 : -1) < scriptRunOffset {
                        break
                    }
                    run.append(s)
                    j += 1
                }
                var b = boxes
                let dy = (off > 0 ? -0.5 : 0.5) * H
                for i in run { b[i].y += dy }
                out.append(b)
            }
        }
        walk(layout)
        return out
    }
}
