import Foundation
import InkModel

/// One place where a search found its words: a word (or, for a query of several words, a run of
/// consecutive words) of one block of one part.
public struct SearchHit: Equatable, Sendable {
    /// The part's index in its package (a notebook's page number, from 0).
    public var partIndex: Int
    public var blockId: String
    /// What the words read as on the page (chosen candidates), joined by spaces.
    public var word: String
    /// The readings that matched, where a word matched by one of its other candidates (the
    /// recognizer's second guess) rather than by what it reads as; empty otherwise.
    public var candidates: [String]
    /// The words' box, model millimetres.
    public var box: Rect

    public init(partIndex: Int, blockId: String, word: String, candidates: [String] = [], box: Rect) {
        self.partIndex = partIndex; self.blockId = blockId; self.word = word; self.candidates = candidates; self.box = box
    }
}

/// Finds words in recognized handwriting and typed text, across the parts of a package.
///
/// Handwriting is uncertain, so a word matches when any of its candidates does, not only the
/// one it reads as. Matching ignores case, accents and width ("Café" finds "cafe"), and the
/// punctuation at a word's ends ("bread," is found by "bread"); a term ending in `*` matches
/// words that start with it. A query of several words finds them in a row, in reading order,
/// within one block; a handwritten word split in two by a wide gap is found as one. Typed text that has no word layout yet is found too, with its block's box.
public struct InkSearch: Sendable {
    /// The query as given.
    public let query: String
    /// Its words, folded.
    let terms: [(text: String, prefix: Bool)]
    /// Whether a word's other candidates count (true), or only what it reads as.
    public let usesCandidates: Bool
    /// Whether a long handwritten word also matches a reading one letter off.
    public let nearMatches: Bool

    /// A search for `query`, which must hold at least one word. `candidates: false` matches a
    /// handwritten word only by what it reads as (to measure what the candidates add).
    public init(_ query: String, candidates: Bool = true, nearMatches: Bool = true) throws {
        self.query = query
        usesCandidates = candidates
        self.nearMatches = nearMatches
        terms = query.split(whereSeparator: \.isWhitespace).compactMap { raw in
            let prefix = raw.count > 1 && raw.hasSuffix("*")
            let t = Self.fold(String(prefix ? raw.dropLast() : raw[...]))
            return t.isEmpty ? nil : (t, prefix)
        }
        guard !terms.isEmpty else { throw QuireError(.invalidArgument, "the search '\(query)' holds no word to look for") }
    }

    /// `s` as searches compare it: lower case, without accents, compatibility forms folded,
    /// typographic quotes as plain ones, and punctuation trimmed at both ends (kept when the
    /// word is nothing else, so "?" still finds "?").
    public static func fold(_ s: String) -> String {
        let folded = s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
            .replacingOccurrences(of: "\u{201C}", with: "\"").replacingOccurrences(of: "\u{201D}", with: "\"")
            .replacingOccurrences(of: "ß", with: "ss")
        let edge = CharacterSet.punctuationCharacters.union(.symbols).union(.whitespaces)
        let trimmed = folded.trimmingCharacters(in: edge)
        return trimmed.isEmpty ? folded.trimmingCharacters(in: .whitespaces) : trimmed
    }

    /// What `word` may read as: what it reads as first, then (with candidates) its other candidates.
    func readings(_ word: RecognizedWord) -> [String] {
        let all = usesCandidates ? [word.chosenLabel, word.label] + word.candidates.map(\.label) : [word.chosenLabel]
        var seen = Set<String>()
        return all.filter { seen.insert($0).inserted }
    }

    func matches(_ folded: String, _ term: (text: String, prefix: Bool)) -> Bool {
        term.prefix ? folded.hasPrefix(term.text) : folded == term.text
    }

    /// The shortest term a reading one letter off may match: shorter words have too many
    /// neighbours ("found", "round", "sound").
    public static let nearMatchLength = 6

    /// Whether `a` and `b` differ by at most one inserted, deleted or replaced letter.
    static func oneEditApart(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count && j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }

    /// How `term` matches at `words[i]`: the number of words it takes (one, or two on one line
    /// when a wide gap split a handwritten word: "white throat" is found by "whitethroat") and the
    /// reading that matched when it is not what the words read as. Nil when it does not match.
    func match(_ term: (text: String, prefix: Bool), at i: Int, in words: [RecognizedWord]) -> (count: Int, other: String?)? {
        let w = words[i]
        let own = readings(w).filter { matches(Self.fold($0), term) }
        if let first = own.first { return (1, own.contains(w.chosenLabel) ? nil : first) }
        if nearMatches, !term.prefix, !w.strokeIds.isEmpty, term.text.count >= Self.nearMatchLength,
           let near = readings(w).first(where: { Self.oneEditApart(Self.fold($0), term.text) }) {
            return (1, near == w.chosenLabel ? nil : near)
        }
        guard i + 1 < words.count, words[i + 1].line == w.line, !w.strokeIds.isEmpty, !words[i + 1].strokeIds.isEmpty else { return nil }
        for a in readings(w) {
            for b in readings(words[i + 1]) where matches(Self.fold(a) + Self.fold(b), term) {
                return (2, a == w.chosenLabel && b == words[i + 1].chosenLabel ? nil : a + b)
            }
        }
        return nil
    }

    /// The hits among one block's words, given in reading order.
    public func hits(in words: [RecognizedWord], blockId: String, partIndex: Int) -> [SearchHit] {
        var out: [SearchHit] = []
        for start in words.indices {
            var other: [String] = []
            var i = start
            var ok = true
            for term in terms {
                guard i < words.count, let m = match(term, at: i, in: words) else { ok = false; break }
                if let o = m.other { other.append(o) }
                i += m.count
            }
            guard ok else { continue }
            let run = words[start ..< i]
            let box = run.dropFirst().reduce(run.first!.box) { $1.box.isEmpty ? $0 : ($0.isEmpty ? $1.box : $0.union($1.box)) }
            out.append(SearchHit(partIndex: partIndex, blockId: blockId, word: run.map(\.chosenLabel).joined(separator: " "),
                                 candidates: other, box: box))
        }
        return out
    }

    /// The hits in one part, block by block in tree order. `recognized` supplies words for blocks
    /// whose ink has none stored (read by the caller's recognizer); typed text without a word
    /// layout is split at spaces, each word with its block's box.
    public func hits(in model: PartModel, partIndex: Int, recognized: [String: [RecognizedWord]] = [:]) -> [SearchHit] {
        model.blocksInTreeOrder().flatMap { b -> [SearchHit] in
            var words = b.words
            if words.isEmpty, let r = recognized[b.id] { words = r }
            if words.isEmpty, let text = b.text {
                words = text.split(whereSeparator: \.isWhitespace).map { RecognizedWord(label: String($0), box: b.box) }
            }
            return hits(in: words, blockId: b.id, partIndex: partIndex)
        }
    }

    /// The hits in every part of `package`, in part order, from the words it holds.
    public func hits(in package: ContentPackage) throws -> [SearchHit] {
        try (0 ..< package.partCount).flatMap { try hits(in: package.part(at: $0).model, partIndex: $0) }
    }
}

extension PartModel {
    /// Blocks holding ink that no stored word reads (never recognized): a search reads them
    /// only through a recognizer.
    public var unreadInkBlockIds: [String] {
        blockIdsWithInk.filter { id in blocks[id].map { $0.words.isEmpty } ?? false }.sorted()
    }
}
