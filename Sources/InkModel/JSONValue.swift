import Foundation

/// A JSON value decoded strictly (booleans and numbers are never confused).
public enum JSONValue: Codable, Equatable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let n = try? c.decode(Double.self) { self = .number(n); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([JSONValue].self) { self = .array(a); return }
        if let o = try? c.decode([String: JSONValue].self) { self = .object(o); return }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "unsupported JSON value")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n): try c.encode(n)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Parses JSON text; errors become `QuireError.invalidJSON`.
    public static func parse(_ data: Data, what: String = "JSON") throws -> JSONValue {
        do { return try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw QuireError(.invalidJSON, "\(what) is not valid JSON: \(error.localizedDescription)")
        }
    }

    /// JSON text (keys sorted). JSON has no NaN or infinity: a value holding one is refused with
    /// `QuireError.exportError` naming where it sits (`candidates[2].score`), rather than written as
    /// something else (the encoder's failure once came out as a bare `null` in place of the record).
    public func serialized(pretty: Bool = false) throws -> String {
        if let (path, n) = firstNonFinite() {
            throw QuireError(.exportError, "cannot write \(n) as JSON (JSON numbers are finite) at '\(path.isEmpty ? "(top level)" : path)'")
        }
        let enc = JSONEncoder()
        enc.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do { return String(decoding: try enc.encode(self), as: UTF8.self) } catch {
            throw QuireError(.exportError, "cannot write JSON: \(error)")
        }
    }

    /// The key path (`a.b[3].c`, keys in sorted order) and value of the first number that is NaN or
    /// infinite, or nil when every number is finite.
    public func firstNonFinite() -> (path: String, value: Double)? {
        switch self {
        case .number(let n): return n.isFinite ? nil : ("", n)
        case .null, .bool, .string: return nil
        case .array(let a):
            for (i, v) in a.enumerated() {
                if let (p, n) = v.firstNonFinite() { return ("[\(i)]" + (p.isEmpty || p.hasPrefix("[") ? p : "." + p), n) }
            }
            return nil
        case .object(let o):
            for k in o.keys.sorted() {
                if let (p, n) = o[k]!.firstNonFinite() { return (k + (p.isEmpty || p.hasPrefix("[") ? p : "." + p), n) }
            }
            return nil
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var doubleValue: Double? { if case .number(let n) = self { return n }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    public var intValue: Int? {
        guard case .number(let n) = self, n.isFinite, n == n.rounded(), abs(n) < 9e15 else { return nil }
        return Int(n)
    }
}
