import Foundation

/// The symbol-sequence prior of the math recognizer: how likely one symbol class follows another
/// in a written expression (a digit after a digit, an operator between operands, `×` before an
/// operand but `x` before `+` or a script). The classifier alone cannot tell look-alikes apart
/// (`2`/`z`, `1`/`/`, `x`/`×`, `t`/`+`); their neighbours can.
///
/// An expression is linearized as the parser lays it out: symbols left to right, a fraction as
/// `<frac>` numerator `<over>` denominator `<end>`, a radical `<sqrt> … <end>`, scripts
/// `<sup> … <end>` and `<sub> … <end>`, between `<s>` and `</s>`. The bigram counts come from composed expressions of training writers
/// (`tools/recognition/math/build_context.py`, `MathContextCounts.swift`); they are smoothed by
/// absolute discounting towards a bigram of symbol kinds (digit, letter, operator, relation,
/// bracket…) times the class's share of its kind, so that a pair the training never showed
/// (a `?`, a `[`) keeps a fair probability instead of none.
///
/// Two corrections ride on the bigram: a trigram of kinds (an operator between two operands, not
/// after one: `2+3` but not `2+-`; a digit after a digit and a letter: `2x3` is rarer than `2x+`)
/// multiplies in P(kind | two kinds before) / P(kind | kind before), and a letter's case costs its
/// share of the letter's count (capitals are rare in expressions; the bigram folds case away).
public struct MathContext: Sendable {
    /// The shipped prior (from `MathContextCounts.swift`).
    public static let standard = MathContext(counts: trainingCounts, kindTrigrams: kindTrigramCounts)

    static let start = "<s>", end = "</s>"
    static let markers = ["<s>", "</s>", "<frac>", "<over>", "<sqrt>", "<sup>", "<sub>", "<end>"]
    /// Every symbol class the classifier has (but `∅`), and `·`, the parser's centred dot.
    static let classes = Array("0123456789abcdefghijklmnopqrstuvwxyz+-=()[]{}|.,!%/<>?×÷±πθαβ≤≥≠√·").map(String.init)
    static let discount = 0.75

    let ids: [String: Int]
    let size: Int
    /// log P(next | previous), `ids.count` squared, row = previous.
    let table: [Float]
    /// Each token id's kind (an index into the kind trigram).
    let kindOf: [Int]
    let kindCount: Int
    /// log P3(kind | two kinds before) - log P(kind | kind before), `kindCount` cubed (0 where the
    /// two kinds before were never seen together).
    let kindTrigram: [Float]
    /// log of a letter's share of its letter's count, both cases (`a` and `A` for `A`).
    let caseShare: [Character: Double]

    /// A prior from bigram counts written "previous next count;" (whitespace and newlines between
    /// entries are ignored; malformed entries are skipped), and optionally trigram counts of kinds
    /// "first second next count;" (`kind`'s names; none: no trigram correction).
    public init(counts text: String, kindTrigrams: String = "") {
        var vocab = Self.markers + Self.classes
        var ids: [String: Int] = [:]
        for (i, t) in vocab.enumerated() { ids[t] = i }
        var pairs: [(Int, Int, Double)] = []
        var letters: [Character: Double] = [:]
        for entry in text.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let f = entry.split(separator: " ")
            guard f.count == 3, let c = Double(f[2]), c > 0 else { continue }
            if f[1].count == 1, let l = f[1].first, l.isASCII, l.isLetter { letters[l, default: 0] += c }
            var k: [Int] = []
            for t in f.prefix(2).map({ Self.fold(String($0)) }) {
                if ids[t] == nil { ids[t] = vocab.count; vocab.append(t) }
                k.append(ids[t]!)
            }
            pairs.append((k[0], k[1], c))
        }
        let n = vocab.count
        let kinds = vocab.map(Self.kind)
        let kindNames = Array(Set(kinds)).sorted()
        let kindId = Dictionary(uniqueKeysWithValues: kindNames.enumerated().map { ($1, $0) })
        let K = kindNames.count
        var big = [Double](repeating: 0, count: n * n), kindBig = [Double](repeating: 0, count: K * K)
        var uni = [Double](repeating: 0, count: n)
        for (a, b, c) in pairs {
            big[a * n + b] += c
            kindBig[kindId[kinds[a]]! * K + kindId[kinds[b]]!] += c
            uni[b] += c
        }
        // P(class | its kind): add-one over the kind's members.
        var kindTotal = [Double](repeating: 0, count: K), kindSize = [Double](repeating: 0, count: K)
        for i in 0 ..< n { kindTotal[kindId[kinds[i]]!] += uni[i]; kindSize[kindId[kinds[i]]!] += 1 }
        let member = (0 ..< n).map { i -> Double in
            let k = kindId[kinds[i]]!
            return (uni[i] + 1) / (kindTotal[k] + kindSize[k])
        }
        let D = Self.discount
        func discounted(_ row: ArraySlice<Double>, _ backoff: (Int) -> Double) -> [Double] {
            let total = row.reduce(0, +), seen = Double(row.filter { $0 > 0 }.count)
            guard total > 0 else { return row.indices.map { backoff($0 - row.startIndex) } }
            return row.enumerated().map { j, c in max(c - D, 0) / total + D * seen / total * backoff(j) }
        }
        var kindP = [Double](repeating: 0, count: K * K)
        for a in 0 ..< K {
            let r = discounted(kindBig[a * K ..< (a + 1) * K]) { _ in 1 / Double(K) }
            for b in 0 ..< K { kindP[a * K + b] = r[b] }
        }
        var table = [Float](repeating: 0, count: n * n)
        for a in 0 ..< n {
            let ka = kindId[kinds[a]]!
            let r = discounted(big[a * n ..< (a + 1) * n]) { b in kindP[ka * K + kindId[kinds[b]]!] * member[b] }
            for b in 0 ..< n { table[a * n + b] = Float(Foundation.log(max(r[b], 1e-12))) }
        }
        self.ids = ids
        self.size = n
        self.table = table
        kindOf = kinds.map { kindId[$0]! }
        kindCount = K
        var tri = [Double](repeating: 0, count: K * K * K)
        for entry in kindTrigrams.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let f = entry.split(separator: " ")
            guard f.count == 4, let c = Double(f[3]), c > 0 else { continue }
            let k = f.prefix(3).compactMap { kindId[Self.kind(Self.fold(String($0)))] }
            if k.count == 3 { tri[(k[0] * K + k[1]) * K + k[2]] += c }
        }
        var kindTrigram = [Float](repeating: 0, count: K * K * K)
        for ab in 0 ..< K * K {
            let b = ab % K
            let r = discounted(tri[ab * K ..< (ab + 1) * K]) { c in kindP[b * K + c] }
            guard tri[ab * K ..< (ab + 1) * K].contains(where: { $0 > 0 }) else { continue }
            for c in 0 ..< K { kindTrigram[ab * K + c] = Float(Foundation.log(max(r[c], 1e-12) / max(kindP[b * K + c], 1e-12))) }
        }
        self.kindTrigram = kindTrigram
        var share: [Character: Double] = [:]
        for (l, c) in letters {
            let both = (letters[Character(l.lowercased())] ?? 0) + (letters[Character(l.uppercased())] ?? 0)
            share[l] = Foundation.log((c + 1) / (both + 2))
        }
        caseShare = share
    }

    /// What a letter's case costs (log of its share of the letter's count, both cases); 0 for
    /// anything else and for letters the counts never showed.
    func caseLogProbability(_ c: Character) -> Double {
        caseShare[c] ?? (c.isASCII && c.isUppercase ? Foundation.log(0.5) : 0)
    }

    /// The kind a token backs off to: markers stand for themselves.
    static func kind(_ t: String) -> String {
        guard t.count == 1, let c = t.first else { return t }
        if MathSymbols.digitSet.contains(c) { return "digit" }
        if c.isASCII && c.isLowercase { return "lower" }
        if MathSymbols.greek.contains(c) { return "greek" }
        if "+-×÷±·/".contains(c) { return "operator" }
        if "=<>≤≥≠".contains(c) { return "relation" }
        if MathSymbols.openers.contains(c) { return "open" }
        if MathSymbols.closers.contains(c) { return "close" }
        return t
    }

    /// Capitals count as their small letters: whether a letter is a capital is a matter of its size,
    /// which the classifier sees and its neighbours do not tell (and the training expressions, with
    /// few capitals, would push every `W` to `w`).
    static func fold(_ t: String) -> String {
        guard t.count == 1, let c = t.first, c.isASCII, c.isUppercase else { return t }
        return t.lowercased()
    }

    /// log P(next | previous); tokens the prior does not know get a small flat probability.
    public func logProbability(_ next: String, after previous: String) -> Double {
        guard let a = ids[Self.fold(previous)], let b = ids[Self.fold(next)] else { return Foundation.log(1e-4) }
        return Double(table[a * size + b])
    }

    /// The log-probability of a whole token sequence (without `<s>` and `</s>`, which are added):
    /// the bigram, the kind trigram's correction and the letters' case.
    public func logProbability(of tokens: [String]) -> Double {
        // Each token's id is looked up once (a string hash), not once per bigram it is part of.
        let id = ([Self.start] + tokens + [Self.end]).map { ids[Self.fold($0)] }
        var total = 0.0
        for i in 1 ..< id.count {
            guard let a = id[i - 1], let b = id[i] else { total += Foundation.log(1e-4); continue }
            total += Double(table[a * size + b])
        }
        let k = id.map { $0.map { kindOf[$0] } }
        for i in 2 ..< max(2, k.count) {
            guard let a = k[i - 2], let b = k[i - 1], let c = k[i] else { continue }
            total += Double(kindTrigram[(a * kindCount + b) * kindCount + c])
        }
        for s in tokens where s.count == 1 { total += caseLogProbability(s.first!) }
        return total
    }

    // MARK: - Layouts

    /// One position of a linearized layout: a structure marker, or one of the parser's input symbols.
    enum Slot: Equatable {
        case marker(String)
        /// An input symbol and the token the layout gave it (`·` for a raised `.`).
        case symbol(Int, token: String)
    }

    static func slots(_ tokens: [LayoutToken]) -> [Slot] {
        var out: [Slot] = []
        func walk(_ ts: [LayoutToken]) {
            for t in ts {
                switch t {
                case let .symbol(c, source): out.append(.symbol(source, token: String(c)))
                case let .fraction(n, d):
                    out.append(.marker("<frac>")); walk(n); out.append(.marker("<over>")); walk(d); out.append(.marker("<end>"))
                case let .radical(inside): out.append(.marker("<sqrt>")); walk(inside); out.append(.marker("<end>"))
                case let .script(sup, inside): out.append(.marker(sup ? "<sup>" : "<sub>")); walk(inside); out.append(.marker("<end>"))
                }
            }
        }
        walk(tokens)
        return out
    }

    /// The tokens of a layout (what `logProbability(of:)` scores).
    static func tokens(_ slots: [Slot]) -> [String] {
        slots.map { s in
            switch s {
            case let .marker(m): return m
            case let .symbol(_, token): return token
            }
        }
    }

    /// The labels that maximise the symbols' scores plus `weight` times the log-prior of the layout's
    /// token sequence (Viterbi over the slots; markers are fixed). `options[i]` lists symbol i's
    /// candidate labels and scores; a symbol missing from `slots` keeps its first option.
    func decode(slots: [Slot], options: [[(label: Character, score: Double)]], weight: Double) -> [Character] {
        var labels = options.map { $0.first?.label ?? "." }
        // Each layer: (token, total, back pointer, label) per state.
        typealias State = (token: String, total: Double, back: Int, label: Character?)
        var layers: [[State]] = [[(Self.start, 0, -1, nil)]]
        var owners: [Int] = [-1]
        for slot in slots + [.marker(Self.end)] {
            let prev = layers[layers.count - 1]
            var states: [(String, Double, Character?)] = []
            switch slot {
            case let .marker(m): states = [(m, 0, nil)]; owners.append(-1)
            case let .symbol(i, token):
                owners.append(i)
                let opts = options.indices.contains(i) && !options[i].isEmpty ? options[i] : [(labels.indices.contains(i) ? labels[i] : ".", 0)]
                // A '.' keeps the parser's reading of its height (`·` when raised).
                states = opts.map { o in (o.label == "." && token == "·" ? "·" : String(o.label), o.score, o.label) }
            }
            var layer: [State] = []
            for (tok, score, label) in states {
                var best = (v: -Double.infinity, k: 0)
                for (k, p) in prev.enumerated() {
                    let v = p.total + weight * logProbability(tok, after: p.token)
                    if v > best.v { best = (v, k) }
                }
                layer.append((tok, best.v + score, best.k, label))
            }
            layers.append(layer)
        }
        var k = layers[layers.count - 1].indices.max { layers[layers.count - 1][$0].total < layers[layers.count - 1][$1].total } ?? 0
        for l in stride(from: layers.count - 1, to: 0, by: -1) {
            let s = layers[l][k]
            if owners[l] >= 0, let label = s.label, labels.indices.contains(owners[l]) { labels[owners[l]] = label }
            k = s.back
        }
        return labels
    }
}
