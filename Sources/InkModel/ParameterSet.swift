import Foundation

/// A typed value held by a `ParameterSet`.
public enum ParameterValue: Equatable, Sendable {
    case string(String), number(Double), boolean(Bool), stringArray([String])

    var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .boolean: "boolean"
        case .stringArray: "string array"
        }
    }

    var json: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .number(n)
        case .boolean(let b): .bool(b)
        case .stringArray(let a): .array(a.map { .string($0) })
        }
    }
}

/// A set of typed values under dotted keys (`text.guides.enable`).
///
/// Thread-safe: the recognition worker and the renderer read configuration off the main thread.
public class ParameterSet: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: ParameterValue] = [:]
    /// Called after every change; packages use it to know their metadata is dirty.
    var onChange: (@Sendable () -> Void)?

    public init() {}

    /// A copy of this set's own values (without any parent).
    public func copy() -> ParameterSet {
        let p = ParameterSet()
        p.values = snapshot()
        return p
    }

    func snapshot() -> [String: ParameterValue] { lock.withLock { values } }

    /// Every value visible from this set, inherited ones included (what its getters return).
    func visibleValues() -> [String: ParameterValue] {
        var out: [String: ParameterValue] = [:]
        for k in keys { if let v = lookup(k) { out[k] = v } }
        return out
    }

    /// Makes this set hold exactly `source`'s visible values. The values are read before anything
    /// is cleared, so `set.replaceContents(with: set)` (the SDK's get, modify, set back) keeps them.
    func replaceContents(with source: ParameterSet) {
        let new = source.visibleValues()
        lock.withLock { values = new }
        onChange?()
    }

    /// The value this set (or, for a configuration, its parents) holds for `key`.
    func lookup(_ key: String) -> ParameterValue? { lock.withLock { values[key] } }

    func store(_ value: ParameterValue?, forKey key: String) throws {
        try Self.validate(key)
        lock.withLock { values[key] = value }
        onChange?()
    }

    static func validate(_ key: String) throws {
        guard !key.isEmpty, !key.hasPrefix("."), !key.hasSuffix("."), !key.contains("..") else {
            throw QuireError(.invalidArgument, "invalid configuration key '\(key)'")
        }
    }

    private func get<T>(_ key: String, _ def: T?, _ expected: String, _ extract: (ParameterValue) -> T?) throws -> T {
        if let v = lookup(key) {
            guard let t = extract(v) else {
                throw QuireError(.typeMismatch, "key '\(key)' holds a \(v.typeName), not a \(expected)")
            }
            return t
        }
        if let def { return def }
        throw QuireError(.keyNotFound, "no value for key '\(key)' and no default given")
    }

    public func getString(_ key: String, default def: String? = nil) throws -> String {
        try get(key, def, "string") { if case .string(let s) = $0 { s } else { nil } }
    }
    public func setString(_ value: String, forKey key: String) throws { try store(.string(value), forKey: key) }

    public func getNumber(_ key: String, default def: Double? = nil) throws -> Double {
        try get(key, def, "number") { if case .number(let n) = $0 { n } else { nil } }
    }
    public func setNumber(_ value: Double, forKey key: String) throws {
        guard value.isFinite else { throw QuireError(.invalidArgument, "key '\(key)': number must be finite") }
        try store(.number(value), forKey: key)
    }

    /// A number used as a count, size or time: rounded down and clamped to `range`, so that a
    /// file's 1e300 or -5 gives a bound instead of trapping when converted to Int; NaN gives
    /// `def`. Throws, as `getNumber` does, when the key holds another type.
    public func getInteger(_ key: String, default def: Int, in range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        let v = try getNumber(key, default: Double(def))
        if v.isNaN { return def }
        if v <= Double(range.lowerBound) { return range.lowerBound }
        if v >= Double(range.upperBound) { return range.upperBound }
        return Int(v)
    }

    public func getBoolean(_ key: String, default def: Bool? = nil) throws -> Bool {
        try get(key, def, "boolean") { if case .boolean(let b) = $0 { b } else { nil } }
    }
    public func setBoolean(_ value: Bool, forKey key: String) throws { try store(.boolean(value), forKey: key) }

    public func getStringArray(_ key: String, default def: [String]? = nil) throws -> [String] {
        try get(key, def, "string array") { if case .stringArray(let a) = $0 { a } else { nil } }
    }
    public func setStringArray(_ value: [String], forKey key: String) throws { try store(.stringArray(value), forKey: key) }

    public func hasKey(_ key: String) -> Bool { lookup(key) != nil }

    /// The value for `key` whatever its type (nil when unset); never throws.
    public func value(forKey key: String) -> ParameterValue? { lookup(key) }

    public func removeKey(_ key: String) {
        lock.withLock { _ = values.removeValue(forKey: key) }
        onChange?()
    }

    /// All keys visible from this set (own and inherited), sorted.
    public var keys: [String] { lock.withLock { values.keys.sorted() } }

    /// Merges a JSON object: nested objects become dotted keys; all-or-nothing on error.
    public func inject(json: String) throws {
        let root = try JSONValue.parse(Data(json.utf8), what: "configuration")
        guard case .object(let obj) = root else {
            throw QuireError(.invalidJSON, "configuration JSON must be an object")
        }
        var flat: [String: ParameterValue] = [:]
        try Self.flatten(obj, prefix: "", into: &flat)
        for k in flat.keys { try Self.validate(k) }
        lock.withLock { values.merge(flat) { _, new in new } }
        onChange?()
    }

    private static func flatten(_ obj: [String: JSONValue], prefix: String, into out: inout [String: ParameterValue]) throws {
        for (k, v) in obj {
            let key = prefix.isEmpty ? k : prefix + "." + k
            switch v {
            case .object(let o): try flatten(o, prefix: key, into: &out)
            case .string(let s): out[key] = .string(s)
            case .number(let n): out[key] = .number(n)
            case .bool(let b): out[key] = .boolean(b)
            case .array(let a):
                var strings: [String] = []
                for e in a {
                    guard case .string(let s) = e else {
                        throw QuireError(.typeMismatch, "key '\(key)': arrays may hold strings only")
                    }
                    strings.append(s)
                }
                out[key] = .stringArray(strings)
            case .null:
                throw QuireError(.typeMismatch, "key '\(key)': null is not a supported value")
            }
        }
    }

    /// This set's own values as a JSON object with flat, dotted keys (sorted).
    public var json: String {
        // Cannot fail: setNumber refuses numbers that are not finite, and parsed JSON holds none.
        (try? JSONValue.object(snapshot().mapValues(\.json)).serialized()) ?? "{}"
    }
}

/// A parameter set that reads through to a parent for every key it does not set itself.
public final class Configuration: ParameterSet, @unchecked Sendable {
    /// The configuration this one falls back to (an editor's parent is its engine's).
    public let parent: Configuration?

    public init(parent: Configuration?) {
        self.parent = parent
        super.init()
    }

    public override convenience init() { self.init(parent: nil) }

    override func lookup(_ key: String) -> ParameterValue? {
        super.lookup(key) ?? parent?.lookup(key)
    }

    /// Own and inherited keys.
    public override var keys: [String] {
        Array(Set(super.keys).union(parent?.keys ?? [])).sorted()
    }

    /// True when this configuration itself (not a parent) sets `key`.
    public func setsOwnKey(_ key: String) -> Bool { super.snapshot()[key] != nil }
}
