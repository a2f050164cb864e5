import Foundation

/// A matrix of per-frame log-probabilities (frames x classes, row major); class 0 is the CTC blank.
public struct LogProbMatrix: Sendable {
    public var values: [Float]
    public var frames: Int
    public var classes: Int
    public init(values: [Float], frames: Int, classes: Int) {
        precondition(values.count == frames * classes, "values.count must equal frames * classes")
        self.values = values
        self.frames = frames
        self.classes = classes
    }
    @inline(__always) func at(_ t: Int, _ c: Int) -> Float { values[t * classes + c] }
}

/// One decoded hypothesis: class indices, the frame where each was first emitted, the log score.
public struct DecodedPath: Sendable, Equatable {
    public var classes: [Int]
    public var frames: [Int]
    public var score: Double
}

/// How a lexicon constrains the beam search.
struct WordConstraint {
    let lexicon: Lexicon
    let spaceClass: Int
    let classByte: [UInt8]  // class -> ASCII byte (lower-cased), 0 for blank
    let numeric: Set<UInt8>

    let classCase: [Int8]   // class -> 1 upper-case letter, -1 lower-case letter, 0 other

    // State encoding: node << 3 | phase. Phases: 0 before a word (root), 1 inside a lower-case word
    // (or after a capital first letter), 2 after a single upper-case first letter, 5 inside an ALL-CAPS
    // word, 3 trailing symbols after a complete word, 4 a number token, 6 symbols only so far (leading
    // punctuation or a symbol token). Words match the lexicon case-insensitively but must be lower case,
    // Capitalised or ALL CAPS; a token is a lexicon word with optional symbols around it, a number, or
    // symbols only.
    static let initial = 0

    init(lexicon: Lexicon, charset: [Character]) {
        self.lexicon = lexicon
        spaceClass = (charset.firstIndex(of: " ") ?? -1) + 1
        classByte = [0] + charset.map { c in
            let l = c.lowercased()
            return l.utf8.count == 1 ? l.utf8.first! : 0
        }
        classCase = [0] + charset.map { c in c.isUppercase ? 1 : (c.isLowercase ? -1 : 0) }
        numeric = Set("0123456789.,-/:$%+#".utf8)
    }

    /// Printable ASCII that is neither a letter, a digit nor a space.
    @inline(__always)
    func isSymbol(_ b: UInt8) -> Bool {
        b > 32 && b < 127 && !(b >= 48 && b <= 57) && !(b >= 97 && b <= 122) && !(b >= 65 && b <= 90)
    }

    func isAccepting(_ s: Int) -> Bool {
        switch s & 7 {
        case 1, 2, 5: return lexicon.terminal[s >> 3]
        case 3, 4, 6: return true
        default: return false
        }
    }

    func advance(_ s: Int, _ cls: Int) -> Int? {
        if cls == spaceClass { return isAccepting(s) ? 0 : nil }
        let b = classByte[cls]
        if b == 0 { return nil }
        let phase = s & 7, node = Int32(s >> 3)
        let letterCase = classCase[cls]
        switch phase {
        case 0, 6:
            if let nx = lexicon.child(0, b) { return Int(nx) << 3 | (letterCase == 1 ? 2 : 1) }
            if b >= 48 && b <= 57 { return 4 }
            if isSymbol(b) { return 6 }  // leading punctuation, or a token of symbols only ("-", "&", "?!")
            return nil
        case 1, 2, 5:
            if let nx = lexicon.child(node, b) {
                var next = phase
                if phase == 2 && letterCase != 0 { next = letterCase == 1 ? 5 : 1 }
                if next == 1 && letterCase == 1 { return nil }
                if next == 5 && letterCase == -1 { return nil }
                return Int(nx) << 3 | next
            }
            if lexicon.terminal[Int(node)] && isSymbol(b) { return 3 }
            return nil
        case 3:
            return isSymbol(b) ? 3 : nil
        default:
            return numeric.contains(b) ? 4 : nil
        }
    }
}

@inline(__always)
func logAdd(_ a: Double, _ b: Double) -> Double {
    // Terms more than 30 nats apart change the sum by less than 1e-13: skip exp and log1p.
    let d = a - b
    if d > 30 || b == -.infinity { return a }
    if d < -30 || a == -.infinity { return b }
    return d > 0 ? a + log1p(exp(-d)) : b + log1p(exp(d))
}

enum CTCDecoder {
    /// Best path: argmax per frame, repeats collapsed, blanks removed.
    static func greedy(_ m: LogProbMatrix, frames range: Range<Int>? = nil) -> DecodedPath {
        let r = range ?? 0 ..< m.frames
        var classes: [Int] = [], frames: [Int] = []
        var last = 0
        var score = 0.0
        for t in r {
            var best = 0
            var bv = m.at(t, 0)
            for c in 1 ..< m.classes where m.at(t, c) > bv {
                bv = m.at(t, c)
                best = c
            }
            score += Double(bv)
            if best != 0 && best != last {
                classes.append(best)
                frames.append(t)
            }
            last = best
        }
        return DecodedPath(classes: classes, frames: frames, score: score)
    }

    private struct Node {
        var parent: Int32
        var cls: Int32
        var frame: Int32
        var depth: Int32
        var state: Int
        var firstChild: Int32 = -1   // children as a linked list: a node has few
        var nextSibling: Int32 = -1
        var slot: Int32 = -1         // index of this node's entry in the next frame's beams, -1 if none
        var inBeams: Int32 = -1      // last frame this node was among the beams extended
        var beamChildren: Int32 = 0  // children of this node among the beams being extended
        var lmContext: UInt64 = 0
        var lmScore: Double = 0      // weighted language-model log probability plus bonuses of the prefix
    }

    private struct Beam {
        var node: Int
        var pb: Double
        var pnb: Double
        var total: Double = -.infinity
        var rank: Double = -.infinity  // total plus the prefix's language-model score
    }

    /// CTC prefix beam search. `allowed[c]` masks classes; `constraint` (optional) restricts words to a
    /// lexicon; `lm` (optional) adds a character language model's weighted log probability and a
    /// per-character bonus to each prefix (shallow fusion), and its end-of-text or next-word term to
    /// each finished path. Per frame only the `maxCandidates` most likely allowed classes within `prune`
    /// nats of the frame's best allowed class are extended. Returns up to `nBest` paths, best first; with a
    /// constraint only complete words end a path. Scores include the language-model terms.
    /// `lmCache` (optional) remembers language-model scores across the searches of one line.
    /// `boundPruning` false extends every candidate, even one whose bound says it cannot enter the beam
    /// (the reference the pruned search is tested against: without a language model both return the
    /// same paths; with it, 6 of the 917 validation lines read differently, a cause not yet found).
    static func beamSearch(_ m: LogProbMatrix, frames range: Range<Int>? = nil, beamWidth: Int, nBest: Int,
                           allowed: [Bool]?, constraint: WordConstraint?, allowSpace: Bool = true,
                           lm: LMFusion? = nil, lmCache: LMScoreCache? = nil, prune: Float? = nil,
                           maxCandidates: Int? = nil, boundPruning: Bool = true) -> [DecodedPath] {
        // Free decoding needs only the few likeliest classes of a frame (6 within 8 nats gave the same
        // validation figures as 10 within 12, at half the cost). A lexicon may have to follow letters the
        // network ranks far lower (a required word list), so constrained searches keep the wide setting.
        let wide = constraint != nil
        return m.values.withUnsafeBufferPointer { values in
            beamSearch(values.baseAddress!, m: m, frames: range ?? 0 ..< m.frames, beamWidth: beamWidth, nBest: nBest,
                       allowed: allowed, constraint: constraint, allowSpace: allowSpace, lm: lm,
                       lmCache: lmCache ?? LMScoreCache(), prune: prune ?? (wide ? 12 : 8),
                       maxCandidates: maxCandidates ?? (wide ? 10 : 6), boundPruning: boundPruning)
        }
    }

    private static func beamSearch(_ values: UnsafePointer<Float>, m: LogProbMatrix, frames r: Range<Int>, beamWidth: Int,
                                   nBest: Int, allowed: [Bool]?, constraint: WordConstraint?, allowSpace: Bool,
                                   lm: LMFusion?, lmCache: LMScoreCache, prune: Float, maxCandidates: Int,
                                   boundPruning: Bool) -> [DecodedPath] {
        let width = max(1, beamWidth)
        let classes = m.classes
        var nodes: [Node] = [Node(parent: -1, cls: 0, frame: -1, depth: 0, state: WordConstraint.initial,
                                  lmContext: lm?.initialContext ?? 0)]
        var beams = [Beam(node: 0, pb: 0, pnb: -.infinity, total: 0, rank: 0)]
        var next: [Beam] = []
        var candidates: [Int] = []
        let spaceClass = constraint?.spaceClass ?? 1
        // A new prefix's rank is at most its parent's rank plus the class's log probability plus this
        // (the most a character's language-model term can add); nil: no such bound.
        let maxCharacterGain: Double? = !boundPruning ? nil
            : lm.map { $0.weight >= 0 ? $0.bonus + $0.weight * Double(max(0, $0.model.maxLogProbability)) : nil } ?? 0
        for t in r {
            let row = values + t * classes
            next.removeAll(keepingCapacity: true)
            // candidate classes at this frame, likeliest first
            // The prune window hangs from the best class the mask allows: a capital field's E must
            // stay a candidate where the network is sure of a small e.
            var best: Float = -.infinity
            if let a = allowed {
                for c in 0 ..< classes where a[c] { best = max(best, row[c]) }
            } else {
                for c in 0 ..< classes { best = max(best, row[c]) }
            }
            candidates.removeAll(keepingCapacity: true)
            for c in 1 ..< classes where row[c] >= best - prune {
                if let a = allowed, !a[c] { continue }
                if !allowSpace && c == spaceClass { continue }
                candidates.append(c)
            }
            if candidates.count > 1 { candidates.sort { row[$0] > row[$1] } }
            if candidates.count > maxCandidates { candidates.removeSubrange(maxCandidates...) }
            let blank = Double(row[0])
            // Every beam keeps its own prefix (a blank, or a repeat of its last class, collapsed): these
            // entries come first, next[i] for beams[i].
            var floor = Double.infinity
            for b in beams {
                let cls = Int(nodes[b.node].cls)
                nodes[b.node].inBeams = Int32(t)
                nodes[b.node].slot = Int32(next.count)
                let parent = Int(nodes[b.node].parent)
                if parent >= 0 { nodes[parent].beamChildren += 1 }
                let pnb = cls != 0 ? b.pnb + Double(row[cls]) : -.infinity
                let total = logAdd(b.total + blank, pnb)
                floor = min(floor, total + nodes[b.node].lmScore)
                next.append(Beam(node: b.node, pb: b.total + blank, pnb: pnb))
            }
            // With a full beam, a new prefix ranked below all of these entries is cut at the end of the
            // frame whatever else happens (adding paths only raises an entry's rank): skip making it.
            // Candidates are sorted, so the first that misses this bar ends a beam's extensions, unless
            // one of its children is itself a beam (those still gain the paths through this frame).
            let bar = maxCharacterGain != nil && beams.count >= width ? floor : -Double.infinity
            let gain = maxCharacterGain ?? 0
            for b in beams {
                let total = b.total
                let node = nodes[b.node]
                let bound = total + node.lmScore + gain
                for c in candidates {
                    let lp = Double(row[c])
                    if bound + lp < bar && node.beamChildren == 0 { break }
                    // A repeat needs a blank between: a prefix that has only ever ended in its last class
                    // (pb = -inf) cannot repeat it at this frame. Such a path has probability 0 and must
                    // not enter the beam, where its -inf score came out as a candidate (lone characters'
                    // "BB" once made the CLI's JSON record null).
                    guard (c == Int(node.cls) ? b.pb : total) + lp > -.infinity else { continue }
                    // Find or make the child for class c (read the list from `nodes`: `node` is a copy taken
                    // before this loop added children).
                    var child = Int(nodes[b.node].firstChild)
                    while child >= 0 && Int(nodes[child].cls) != c { child = Int(nodes[child].nextSibling) }
                    if bound + lp < bar && (child < 0 || nodes[child].slot < 0) { continue }
                    if child < 0 {
                        var state = node.state
                        if let con = constraint {
                            guard let s = con.advance(node.state, c) else { continue }
                            state = s
                        } else if c == spaceClass && (node.depth == 0 || Int(node.cls) == spaceClass) {
                            continue  // no leading or double spaces
                        }
                        var n = Node(parent: Int32(b.node), cls: Int32(c), frame: Int32(t), depth: node.depth + 1, state: state)
                        if let lm {
                            n.lmContext = lm.model.extend(node.lmContext, lm.symbol(ofClass: c))
                            n.lmScore = node.lmScore + lmCache.score(lm, context: node.lmContext, cls: c)
                        }
                        n.nextSibling = nodes[b.node].firstChild
                        nodes.append(n)
                        child = nodes.count - 1
                        nodes[b.node].firstChild = Int32(child)
                    }
                    // A prefix that re-enters the beam starts its character here: the frame of its first
                    // creation may belong to an alignment pruned long ago, and word and character boxes
                    // follow these frames.
                    var e = Int(nodes[child].slot)
                    if e < 0 {
                        if nodes[child].inBeams != Int32(t) { nodes[child].frame = Int32(t) }
                        next.append(Beam(node: child, pb: -.infinity, pnb: -.infinity))
                        e = next.count - 1
                        nodes[child].slot = Int32(e)
                    }
                    next[e].pnb = logAdd(next[e].pnb, (c == Int(node.cls) ? b.pb : total) + lp)
                }
            }
            for b in beams {
                let parent = Int(nodes[b.node].parent)
                if parent >= 0 { nodes[parent].beamChildren = 0 }
            }
            for i in next.indices {
                next[i].total = logAdd(next[i].pb, next[i].pnb)
                next[i].rank = next[i].total + nodes[next[i].node].lmScore
                nodes[next[i].node].slot = -1
            }
            // Only a matrix holding -inf or NaN (a caller's: the network's output is checked finite) can
            // leave an entry without a finite score; it cannot become possible again.
            next.removeAll { !$0.total.isFinite }
            if next.count > width {
                next.sort { $0.rank > $1.rank }
                next.removeSubrange(width...)
            }

            swap(&beams, &next)
        }
        var finals: [(Int, Double)] = []
        for b in beams {
            var n = b.node
            // a trailing space is dropped: score the path of its parent
            if Int(nodes[n].cls) == spaceClass && nodes[n].parent >= 0 { n = Int(nodes[n].parent) }
            if let con = constraint, !con.isAccepting(nodes[n].state), nodes[n].depth > 0 { continue }
            if let i = finals.firstIndex(where: { $0.0 == n }) {
                finals[i].1 = logAdd(finals[i].1, b.total)
            } else {
                finals.append((n, b.total))
            }
        }
        for i in finals.indices {
            let node = nodes[finals[i].0]
            finals[i].1 += node.lmScore + (lm?.endScore(context: node.lmContext) ?? 0)
        }
        finals.sort { $0.1 > $1.1 }
        return finals.prefix(max(1, nBest)).map { (n, score) in
            var classes: [Int] = [], frames: [Int] = []
            var k = n
            while k > 0 {
                classes.append(Int(nodes[k].cls))
                frames.append(Int(nodes[k].frame))
                k = Int(nodes[k].parent)
            }
            return DecodedPath(classes: classes.reversed(), frames: frames.reversed(), score: score)
        }
    }
}
