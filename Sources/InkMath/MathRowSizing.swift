import Foundation

/// Where a row of an expression's layout (`MathReadings.rows`) with no sized symbol of its own
/// takes its digit height from, for the size checks (`MathReadings.sizeChecked`): a symbol alone
/// in a numerator, a denominator or under a radical has only its own (perhaps wrong) class to
/// say how large a digit would be beside it. Also which symbols measure nothing outside their
/// row: those of scripts (`scripted`).
enum MathRowSizing: Equatable {
    /// A fraction part's other part: the two are written at one size (`\frac{o}{554}`).
    case otherPart(Int)
    /// A radicand's enclosing row, where the radical stands on that row's baseline
    /// (`radicalStands`): a radicand is written at its line's size (`\sqrt{z}` beside `7+`).
    case enclosing(Int)

    /// How far (share of the row's digit height) the foot of a radical may be from its row's
    /// baseline and still stand on it. A small `\sqrt{0}` that is a script, laid out on the line
    /// by the classifier's classes, ends well above the line: sized by the line's digits its `0`
    /// was read `o` (`^{\sqrt{0}}`, twice in the training writers' 4,000). The one value tried
    /// (MATH-CHECKS step 34).
    static let radicalFoot = 0.25

    /// For each row of `rows(tokens)` (same order), where it takes its size; nil for the main line
    /// and scripts (a script alone is smaller than its line by the writer's own measure).
    static func rows(_ tokens: [LayoutToken]) -> [MathRowSizing?] {
        var out: [MathRowSizing?] = []
        func walk(_ ts: [LayoutToken]) -> Int {
            let k = out.count
            out.append(nil)
            for t in ts {
                switch t {
                case .symbol: break
                case let .fraction(n, d):
                    let a = walk(n), b = walk(d)
                    out[a] = .otherPart(b)
                    out[b] = .otherPart(a)
                case let .radical(inside): out[walk(inside)] = .enclosing(k)
                case let .script(_, inside): _ = walk(inside)
                }
            }
            return k
        }
        _ = walk(tokens)
        return out
    }

    /// The symbols inside a script, at any depth: written smaller than the line, they give no
    /// digit height to a symbol outside it (`MathReadings.sizeChecked`).
    static func scripted(_ tokens: [LayoutToken]) -> Set<Int> {
        var out = Set<Int>()
        func walk(_ ts: [LayoutToken], _ inside: Bool) {
            for t in ts {
                switch t {
                case let .symbol(_, source): if inside { out.insert(source) }
                case let .fraction(n, d): walk(n, inside); walk(d, inside)
                case let .radical(r): walk(r, inside)
                case let .script(_, r): walk(r, true)
                }
            }
        }
        walk(tokens, false)
        return out
    }

    /// The symbols (indices into `items`) that size a symbol at `box` of a row sized this way, or
    /// nil where they do not: a radicand's enclosing row whose radical does not stand on it.
    func row(for box: MathBox, rows: [[Int]], items: [MathParser.Item]) -> [Int]? {
        switch self {
        case let .otherPart(r): return rows[r]
        case let .enclosing(r):
            return Self.radicalStands(over: box, on: rows[r], items: items) ? rows[r] : nil
        }
    }

    /// Whether the narrowest radical whose box spans the centre of `box` ends within
    /// `radicalFoot` of the baseline of the row `row`'s sized symbols imply.
    static func radicalStands(over box: MathBox, on row: [Int], items: [MathParser.Item]) -> Bool {
        let cx = box.x + box.width / 2
        let radical = items.filter { $0.cls == "√" && $0.box.x <= cx && cx <= $0.box.maxX }
            .min { $0.box.width < $1.box.width }
        let sized = row.map { items[$0] }.filter(MathParser.sizesLine)
        guard let radical, !sized.isEmpty else { return false }
        let H = MathParser.lineHeight(sized)
        let baseline = MathParser.median(sized.map { MathParser.lineMetrics($0, H).baseline })
        return abs(radical.box.maxY - baseline) < radicalFoot * H
    }
}
