import Foundation

/// A word list stored as a case-insensitive trie over the model's characters (ASCII).
/// Words with characters outside printable ASCII are skipped.
public final class Lexicon: Sendable {
    // CSR trie: the edges of node i are edgeChar/edgeTarget[edgeStart[i] ..< edgeStart[i + 1]].
    let edgeStart: [Int32]
    let edgeChar: [UInt8]
    let edgeTarget: [Int32]
    let terminal: [Bool]
    /// Number of distinct (lower-cased) words.
    public let count: Int

    /// Debian's word lists (package `wamerican` / `wbritish`), first one found.
    public static let systemWordListPaths = ["/usr/share/dict/american-english", "/usr/share/dict/british-english",
                                             "/usr/share/dict/words"]

    public init<S: Sequence>(words: S) where S.Element == String {
        var children: [[(UInt8, Int32)]] = [[]]
        var term: [Bool] = [false]
        var n = 0
        for w in words {
            let lower = w.lowercased()
            let bytes = Array(lower.utf8)
            if bytes.isEmpty || bytes.count > 64 || !bytes.allSatisfy({ $0 > 32 && $0 < 127 }) { continue }
            var node = 0
            for b in bytes {
                if let e = children[node].first(where: { $0.0 == b }) {
                    node = Int(e.1)
                } else {
                    children.append([])
                    term.append(false)
                    let id = Int32(children.count - 1)
                    children[node].append((b, id))
                    node = Int(id)
                }
            }
            if !term[node] {
                term[node] = true
                n += 1
            }
        }
        var starts: [Int32] = [0]
        var chars: [UInt8] = []
        var targets: [Int32] = []
        starts.reserveCapacity(children.count + 1)
        for c in children {
            for (b, t) in c.sorted(by: { $0.0 < $1.0 }) {
                chars.append(b)
                targets.append(t)
            }
            starts.append(Int32(chars.count))
        }
        edgeStart = starts
        edgeChar = chars
        edgeTarget = targets
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
        let lo = Int(edgeStart[Int(node)]), hi = Int(edgeStart[Int(node) + 1])
        var i = lo
        while i < hi {
            if edgeChar[i] == byte { return edgeTarget[i] }
            i += 1
        }
        return nil
    }
}
