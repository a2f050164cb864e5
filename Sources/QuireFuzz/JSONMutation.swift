import Foundation
import Quire
import QuireTools

/// Mutations of a JSON tree (`JSONValue`): replace one node by an extreme or mistyped value,
/// empty, duplicate, nest or reverse an array, drop or add an object key.
enum JSONMutation {
    /// Paths to every node: object keys and array indices.
    enum Step: Hashable { case key(String), index(Int) }

    static func paths(_ v: JSONValue, _ prefix: [Step] = [], into out: inout [[Step]]) {
        out.append(prefix)
        switch v {
        case .object(let o): for k in o.keys.sorted() { paths(o[k]!, prefix + [.key(k)], into: &out) }
        case .array(let a): for (i, c) in a.enumerated() { paths(c, prefix + [.index(i)], into: &out) }
        default: break
        }
    }

    static func get(_ v: JSONValue, _ path: ArraySlice<Step>) -> JSONValue? {
        guard let s = path.first else { return v }
        switch (s, v) {
        case (.key(let k), .object(let o)): return o[k].flatMap { get($0, path.dropFirst()) }
        case (.index(let i), .array(let a)): return a.indices.contains(i) ? get(a[i], path.dropFirst()) : nil
        default: return nil
        }
    }

    static func set(_ v: JSONValue, _ path: ArraySlice<Step>, _ new: JSONValue?) -> JSONValue? {
        guard let s = path.first else { return new }
        switch (s, v) {
        case (.key(let k), .object(var o)):
            if path.count == 1 { o[k] = new } else if let c = o[k] { o[k] = set(c, path.dropFirst(), new) }
            return .object(o)
        case (.index(let i), .array(var a)) where a.indices.contains(i):
            if let n = set(a[i], path.dropFirst(), new) { a[i] = n } else { a.remove(at: i) }
            return .array(a)
        default: return v
        }
    }

    static func randomValue(_ rng: inout SplitMix) -> JSONValue {
        switch rng.int(9) {
        case 0: return .null
        case 1: return .bool(rng.chance(0.5))
        case 2, 3: return .number(rng.pick(Hostile.numbers))
        case 4, 5: return .string(rng.pick(Hostile.strings))
        case 6: return .array([])
        case 7: return .object([:])
        default: return .array([.number(rng.pick(Hostile.numbers))])
        }
    }

    /// One change somewhere in `root`.
    static func mutate(_ root: JSONValue, _ rng: inout SplitMix) -> JSONValue {
        var all: [[Step]] = []
        paths(root, into: &all)
        let path = rng.pick(all)
        guard let node = get(root, path[...]) else { return root }
        let new: JSONValue?
        switch node {
        case .number where rng.chance(0.7): new = .number(rng.pick(Hostile.numbers))
        case .string where rng.chance(0.7): new = .string(rng.pick(Hostile.strings))
        case .bool, .null: new = randomValue(&rng)
        case .array(let a) where rng.chance(0.6):
            switch rng.int(5) {
            case 0: new = .array([])
            case 1: new = .array(a.isEmpty ? [node, node] : a + a)
            case 2: new = .array([node])
            case 3: new = .array(a.reversed())
            default: new = .array(a.count < 20 ? Array(repeating: a, count: 30).flatMap { $0 } : a)
            }
        case .object(var o) where rng.chance(0.6) && !o.isEmpty:
            let k = rng.pick(o.keys.sorted())
            if rng.chance(0.6) { o[k] = nil } else { o[k] = randomValue(&rng) }
            new = .object(o)
        default:
            new = path.isEmpty ? root : (rng.chance(0.15) ? nil : randomValue(&rng))
        }
        return set(root, path[...], new) ?? .null
    }

    /// Text of a JSON value; a value holding a non-finite number (which the writer refuses) is
    /// written as `null`, itself a case worth feeding to a reader.
    static func text(_ v: JSONValue) -> String { (try? v.serialized()) ?? "null" }

    /// Byte-level damage: truncation, flipped or replaced bytes, a deep array, junk appended.
    static func damage(_ d: Data, _ rng: inout SplitMix) -> Data {
        var b = [UInt8](d)
        switch rng.int(5) {
        case 0: b = Array(b.prefix(rng.int(b.count + 1)))
        case 1: for _ in 0..<rng.int(in: 1...8) where !b.isEmpty { b[rng.int(b.count)] ^= UInt8(1 << rng.int(8)) }
        case 2: for _ in 0..<rng.int(in: 1...4) where !b.isEmpty { b[rng.int(b.count)] = rng.pick([0, 0x22, 0x5C, 0x7B, 0x5B, 0x2C, 0xFF, 0xC3]) }
        case 3:
            let depth = rng.pick([200, 600, 5000, 100_000])
            b = Array(String(repeating: "[", count: depth).utf8) + b + Array(String(repeating: "]", count: depth).utf8)
        default: b += Array(rng.pick(["x", "}", "\u{0}", " {\"a\":1}", "\u{FEFF}"]).utf8)
        }
        return Data(b)
    }
}
