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

    public init<S: Sequence>(words: S) where S.Element == String {
        var list: [[UInt8]] = []
        for w in words {
            let bytes = Array(w.lowercased().utf8)
            if bytes.isEmpty || bytes.count > 64 || !bytes.allSatisfy({ $0 > 32 && $0 < 127 }) { continue }
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
        let text = try String(contentsOf: url, encoding: .utf8)
        self.init(words: text.split(whereSeparator: \.isNewline).map { String($0).trimmingCharacters(in: .whitespaces) })
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
