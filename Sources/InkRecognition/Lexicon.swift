import Foundation

/// A word list stored as a case-insensitive trie over the model's characters (ASCII).
/// Words with characters outside printable ASCII are skipped.
public final class Lexicon: Sendable {
    // Trie in first-child / next-sibling form; node 0 is the root. Children are in ascending byte order.
    let firstChild: [Int32]
    let nextSibling: [Int32]
    let nodeByte: [UInt8]
    let terminal: [Bool]
    /// Number of distinct (lower-cased) words.
    public let count: Int

    /// Debian's word lists (package `wamerican` / `wbritish`), first one found.
    public static let systemWordListPaths = ["/usr/share/dict/american-english", "/usr/share/dict/british-english",
                                             "/usr/share/dict/words"]

    public convenience init<S: Sequence>(words: S) where S.Element == String {
        self.init(byteWords: words.map { Array($0.utf8) })
    }

    /// Words as UTF-8 bytes; ASCII letters are lower-cased, words with bytes outside 33...126 skipped.
    init(byteWords: [[UInt8]]) {
        var list: [[UInt8]] = []
        list.reserveCapacity(byteWords.count)
        for var bytes in byteWords {
            if bytes.isEmpty || bytes.count > 64 || !bytes.allSatisfy({ $0 > 32 && $0 < 127 }) { continue }
            for i in bytes.indices where bytes[i] >= 65 && bytes[i] <= 90 { bytes[i] += 32 }
            list.append(bytes)
        }
        list.sort { $0.lexicographicallyPrecedes($1) }
        var first: [Int32] = [-1], next: [Int32] = [-1], byte: [UInt8] = [0], term: [Bool] = [false]
        var lastChild: [Int32] = [-1]
        var path: [Int32] = [0]  // path[i] = node after i bytes of the previous word
        var previous: [UInt8] = []
        var n = 0
        for w in list {
            if w == previous { continue }
            var common = 0
            while common < w.count && common < previous.count && w[common] == previous[common] { common += 1 }
            path.removeSubrange((common + 1)...)
            var node = path[common]
            for b in w[common...] {
                let id = Int32(first.count)
                first.append(-1); next.append(-1); byte.append(b); term.append(false); lastChild.append(-1)
                if lastChild[Int(node)] >= 0 { next[Int(lastChild[Int(node)])] = id } else { first[Int(node)] = id }
                lastChild[Int(node)] = id
                node = id
                path.append(id)
            }
            term[Int(node)] = true
            n += 1
            previous = w
        }
        firstChild = first
        nextSibling = next
        nodeByte = byte
        terminal = term
        count = n
    }

    /// Reads a word list, one word per line (UTF-8).
    public convenience init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        for b in data {
            if b == 10 || b == 13 {
                if !current.isEmpty { words.append(current) }
                current.removeAll(keepingCapacity: true)
            } else if b != 32 && b != 9 {
                current.append(b)
            }
        }
        if !current.isEmpty { words.append(current) }
        self.init(byteWords: words)
    }

    /// The system word list (`/usr/share/dict/american-english` from Debian's `wamerican`), or nil.
    public static func system() -> Lexicon? {
        for p in systemWordListPaths where FileManager.default.fileExists(atPath: p) {
            if let l = try? Lexicon(contentsOf: URL(fileURLWithPath: p)), l.count > 0 { return l }
        }
        return nil
    }

    /// Case-insensitive membership.
    public func contains(_ word: String) -> Bool {
        var node: Int32 = 0
        for b in word.lowercased().utf8 {
            guard let next = child(node, b) else { return false }
            node = next
        }
        return terminal[Int(node)]
    }

    @inline(__always)
    func child(_ node: Int32, _ byte: UInt8) -> Int32? {
        var c = firstChild[Int(node)]
        while c >= 0 {
            let b = nodeByte[Int(c)]
            if b == byte { return c }
            if b > byte { return nil }
            c = nextSibling[Int(c)]
        }
        return nil
    }
}
