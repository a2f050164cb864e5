import Foundation

/// One recognised symbol as the structure parser sees it: its class and its box (mm, y down).
public struct ParsedSymbolInput: Sendable, Hashable {
    public var label: Character
    public var box: MathBox
    /// For a radical: the x where its ink first comes within 30% of its top (the end of its tick).
    public var tick: Double?
    /// A fraction bar or radical known to be one (typeset math being edited by pen): it stays a
    /// fraction with one part empty, a radical with nothing under it, so that the pen can write
    /// into the empty slot.
    public var isStructure: Bool
    public init(label: Character, box: MathBox, tick: Double? = nil, isStructure: Bool = false) {
        self.label = label; self.box = box; self.tick = tick; self.isStructure = isStructure
    }
}

/// The 2-D structure parser (mirror of tools/recognition/math/parse.py): symbols with classes and
/// boxes become a `MathNode`.
///
/// 1. Radicals and fraction bars, widest first, take the symbols inside / above and below them.
/// 2. What is left is a baseline, left to right. Every symbol estimates its own baseline and digit
///    height H from where its class sits on a line; a symbol well above or below the previous base
///    starts a superscript or subscript, which runs on while the next symbols stay on its line.
///    A '.' over a quarter of H above the baseline (the mean of its neighbours') is a centred dot.
/// 3. Letter runs spelling sin, cos, tan, log, ln, exp (the first letter may be a capital) become
///    functions; digit runs numbers.
public enum MathParser {
    /// Parses one expression line; an empty list gives an empty row.
    public static func parse(_ symbols: [ParsedSymbolInput]) -> MathNode {
        MathTreeBuilder.node(layout(symbols))
    }

    /// The layout of a line before it becomes a tree; each symbol token keeps its input's index.
    static func layout(_ symbols: [ParsedSymbolInput]) -> [LayoutToken] {
        let items = symbols.enumerated().map { Item(cls: $1.label, box: $1.box, tick: $1.tick, source: $0, known: $1.isStructure) }
        return baseline(structures(items))
    }

    /// The x where a radical's ink first comes within 30% of its top.
    public static func radicalTick(_ strokes: [[SIMD2<Double>]]) -> Double? {
        let pts = strokes.joined()
        guard let y0 = pts.map(\.y).min(), let y1 = pts.map(\.y).max() else { return nil }
        return pts.filter { $0.y < y0 + 0.3 * (y1 - y0) }.map(\.x).min()
    }

    // MARK: - Items

    final class Item {
        enum Kind {
            case symbol
            case fraction(bar: Item, numerator: [Item], denominator: [Item], height: Double)
            case radical(sign: Item, inside: [Item], baseline: Double, height: Double)
        }
        let cls: Character
        let box: MathBox
        let kind: Kind
        let tick: Double?
        /// A structure known in advance (`ParsedSymbolInput.isStructure`).
        let known: Bool
        /// The index of the input symbol (-1 for a structure).
        let source: Int
        init(cls: Character, box: MathBox, kind: Kind = .symbol, tick: Double? = nil, source: Int = -1, known: Bool = false) {
            self.cls = cls; self.box = box; self.kind = kind; self.tick = tick; self.source = source; self.known = known
        }
        var isSymbol: Bool { if case .symbol = kind { return true } else { return false } }
        /// The class when the item is a plain symbol, nil for a structure.
        var symbol: Character? { isSymbol ? cls : nil }
        var w: Double { box.width }
        var h: Double { box.height }
        var cx: Double { box.x + box.width / 2 }
        var cy: Double { box.y + box.height / 2 }
        var x0: Double { box.x }
        var x1: Double { box.maxX }
        var y0: Double { box.y }
        var y1: Double { box.maxY }
    }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// (baseline y, digit height H) an item implies; operators and dots borrow the line's H.
    static func lineMetrics(_ it: Item, _ lineH: Double) -> (baseline: Double, height: Double) {
        switch it.kind {
        case let .fraction(bar, _, _, height): return (bar.cy - MathSymbols.axis * height, height)
        case let .radical(_, _, baseline, height): return (baseline, height)
        case .symbol: break
        }
        guard let p = MathSymbols.placement(it.cls) else { return (it.y1, max(it.h, 1e-3)) }
        switch p {
        case let .box(top, bottom):
            if it.cls == "," { return (it.y0 - top * lineH, lineH) }
            let H = max(it.h / (bottom - top), 1e-3)
            return (it.y1 - bottom * H, H)
        case .dot: return (it.y1, lineH)
        case let .centred(a): return (it.cy - a * lineH, lineH)
        }
    }

    static let unsized = MathSymbolSet(".,·()[]{}|")

    /// Whether an item's own size tells the line's digit height (not operators, dots, brackets).
    static func sizesLine(_ it: Item) -> Bool {
        guard let c = it.symbol else { return true }
        return !MathSymbols.operators.contains(c) && !unsized.contains(c)
    }

    static func lineHeight(_ items: [Item]) -> Double {
        let hs = items.filter(sizesLine).map { lineMetrics($0, 1).height }
        if !hs.isEmpty { return median(hs) }
        return items.isEmpty ? 1 : median(items.map { max($0.h, $0.w) })
    }

    static func union(_ items: [Item]) -> MathBox {
        items.dropFirst().reduce(items[0].box) { $0.union($1.box) }
    }

    /// How far (share of the typical symbol size) below a radical's box the centre of a symbol
    /// under it may lie: a decimal point on the line sits as low as the tick's foot (`\sqrt{69.7}`
    /// read `\sqrt{697}.`), as the top keeps a tenth for ink reaching the overbar.
    static let radicalFloor = 0.1

    /// Groups radicals and fraction bars, widest first, into compound items.
    static func structures(_ items: [Item]) -> [Item] {
        guard !items.isEmpty else { return [] }
        let typical = median(items.map { max($0.w, $0.h) })
        var used = Set<ObjectIdentifier>()
        var out: [Item] = []
        let order = items.indices.sorted { (-items[$0].w, $0) < (-items[$1].w, $1) }
        for k in order {
            let it = items[k]
            if used.contains(ObjectIdentifier(it)) { continue }
            let rest = items.filter { $0 !== it && !used.contains(ObjectIdentifier($0)) }
            if it.symbol == "√" {
                let tick = it.tick ?? it.x0 + min(0.2 * it.w, 0.25 * it.h, 0.6 * typical)
                let inside = rest.filter { tick < $0.cx && $0.cx < it.x1 + 0.1 * typical && it.y0 - 0.1 * it.h < $0.cy && $0.cy < it.y1 + radicalFloor * typical }
                if !inside.isEmpty || it.known {
                    for o in inside { used.insert(ObjectIdentifier(o)) }
                    used.insert(ObjectIdentifier(it))
                    let sub = structures(inside)
                    let H = sub.isEmpty ? it.h : lineHeight(sub)
                    let bl = sub.isEmpty ? it.y1 : median(sub.map { lineMetrics($0, H).baseline })
                    out.append(Item(cls: "√", box: union([it] + inside), kind: .radical(sign: it, inside: sub, baseline: bl, height: H)))
                    continue
                }
            }
            if it.symbol == "-" && (it.w > 0.5 * typical || it.known) {
                let span = rest.filter { it.x0 - 0.05 * it.w < $0.cx && $0.cx < it.x1 + 0.05 * it.w }
                let above = span.filter { $0.cy < it.cy && $0.y1 < it.cy + 0.3 * typical }
                let below = span.filter { $0.cy > it.cy && $0.y0 > it.cy - 0.3 * typical }
                if !above.isEmpty && !below.isEmpty || it.known && !(above.isEmpty && below.isEmpty) {
                    for o in above + below { used.insert(ObjectIdentifier(o)) }
                    used.insert(ObjectIdentifier(it))
                    let num = structures(above), den = structures(below)
                    let H = lineHeight(num + den) / 0.85
                    out.append(Item(cls: "—", box: union([it] + above + below),
                                    kind: .fraction(bar: it, numerator: num, denominator: den, height: H)))
                    continue
                }
            }
            out.append(it)
            used.insert(ObjectIdentifier(it))
        }
        return out
    }

    static func scriptable(_ it: Item) -> Bool {
        if case .radical = it.kind { return true }
        guard let c = it.symbol else { return false }
        return MathSymbols.digitSet.contains(c) || MathSymbols.isLetter(c) || ")]}!".contains(c)
    }

    enum Relation { case sup, sub }

    /// Whether a fraction or radical holds symbols written at the size of a line of digit height
    /// `bh` (their digit height at least 0.8 of it, the size gate of `MathReadings.flatScriptSize`):
    /// scripts are written smaller, so such a structure neither starts nor continues one (`7t-` then
    /// a fraction of full-size digits is no superscript of the `t`).
    static func isFullSize(_ it: Item, _ bh: Double) -> Bool {
        guard it.symbol == nil else { return false }
        return lineMetrics(it, bh).height >= MathReadings.flatScriptSize * bh
    }

    /// Reads items left to right into layout tokens (symbols, structures, scripts).
    static func baseline(_ unsorted: [Item]) -> [LayoutToken] {
        let items = unsorted.indices.sorted { (unsorted[$0].x0, $0) < (unsorted[$1].x0, $1) }.map { unsorted[$0] }
        guard !items.isEmpty else { return [] }
        let H = lineHeight(items)
        var toks: [LayoutToken] = []
        var base: (item: Item, height: Double)?
        var i = 0
        while i < items.count {
            let it = items[i]
            let next = i + 1 < items.count ? items[i + 1] : nil
            if let b = base, scriptable(b.item) {
                let (bl, bh) = lineMetrics(b.item, b.height)
                let first = it.symbol.map(MathSymbols.operators.contains) == true && next != nil ? next! : it
                // A superscript stands above its base's middle: a small letter written a little
                // high beside a large digit (`4n=`, its centre on the `=`'s axis) stays on the line.
                if let rel = relation(it, bl, bh, next), rel == .sub || first.cy < b.item.cy {
                    let (sbl, sH) = lineMetrics(first, bh * 0.65)
                    var script = [it]
                    var j = i + 1
                    while j < items.count && items[j].x0 < items[j - 1].x1 + 1.5 * sH {
                        let opened = script.filter { MathSymbols.openers.contains($0.cls) }.count
                            > script.filter { MathSymbols.closers.contains($0.cls) }.count
                        let after = j + 1 < items.count ? items[j + 1] : nil
                        if !(opened && MathSymbols.closers.contains(items[j].cls))
                            && !inScript(items[j], rel, bl, bh, sbl, sH, after) { break }
                        script.append(items[j])
                        j += 1
                    }
                    toks.append(.script(superscript: rel == .sup, baseline(script)))
                    i = j
                    continue
                }
            }
            if it.symbol == "." {
                // Measured against the line on both sides: a base set a little high (or a
                // fraction, whose baseline is the bar's) alone made a centred dot a point.
                var ref = base.map { lineMetrics($0.item, $0.height).baseline } ?? it.y1
                if let next, sizesLine(next) {
                    let after = lineMetrics(next, H).baseline
                    ref = base == nil ? after : (ref + after) / 2
                }
                toks.append(.symbol(ref - it.cy > 0.25 * H ? "·" : ".", source: it.source))
            } else {
                switch it.kind {
                case .symbol: toks.append(.symbol(it.cls, source: it.source))
                case let .fraction(_, num, den, _): toks.append(.fraction(baseline(num), baseline(den)))
                case let .radical(_, inside, _, _): toks.append(.radical(baseline(inside)))
                }
            }
            base = (it, H)
            i += 1
        }
        return toks
    }

    /// Does `it` continue a script whose line is (sbl, sH) over a base line (bl, bh)?
    static func inScript(_ it: Item, _ rel: Relation, _ bl: Double, _ bh: Double, _ sbl: Double, _ sH: Double, _ next: Item?) -> Bool {
        if let c = it.symbol {
            if ".,".contains(c) {
                guard let next else { return false }
                // A comma's head sits on the line and its tail hangs below (a writer's comma as
                // deep as the script is high ended `n^{4,5}` at the comma): judged by the baseline
                // its head implies at the script's size, a point by its foot.
                let foot = lineMetrics(it, sH).baseline
                return abs(foot - sbl) < abs(foot - bl) && inScript(next, rel, bl, bh, sbl, sH, nil)
            }
            if MathSymbols.closers.contains(c) { return false }
            if MathSymbols.operators.contains(c) {
                guard let next else { return false }
                let dScript = abs(it.cy - (sbl + MathSymbols.axis * sH)), dMain = abs(it.cy - (bl + MathSymbols.axis * bh))
                return dScript < dMain && inScript(next, rel, bl, bh, sbl, sH, nil)
            }
        }
        if isFullSize(it, bh) { return false }
        let nb = lineMetrics(it, sH).baseline
        if abs(nb - sbl) > abs(nb - bl) && abs(nb - bl) < 0.25 * bh { return false }
        return rel == .sup ? nb < sbl + 0.35 * sH : nb > sbl - 0.35 * sH
    }

    static func relation(_ it: Item, _ bl: Double, _ bh: Double, _ next: Item?) -> Relation? {
        if let c = it.symbol {
            if ".,·)]}".contains(c) { return nil }
            if MathSymbols.operators.contains(c) {
                if c == "-", let next, (bl + MathSymbols.axis * bh) - it.cy > 0.1 * bh {
                    return relation(next, bl, bh, nil) == .sup ? .sup : nil
                }
                return nil
            }
        }
        if isFullSize(it, bh) { return nil }
        let (ib, ih) = lineMetrics(it, bh)
        let d = (ib - bl) / bh
        let small = ih < 0.82 * bh
        // A bracket stretches around what it holds, so its box is no measure of where it stands: one
        // no smaller than its base opens a group on the line (`\ln(58)` after a flat `n`), not a script.
        if let c = it.symbol, MathSymbols.openers.contains(c), !small { return nil }
        if d < -0.4 || (small && d < -0.22) { return .sup }
        if d > 0.3 || (small && d > 0.08) { return .sub }
        return nil
    }
}
