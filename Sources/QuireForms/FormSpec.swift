import Foundation
import InkModel

/// What a form field holds and how its ink is read.
public enum FieldKind: String, CaseIterable, Sendable {
    case text, multiline, number, date, choice, checkbox, signature, drawing

    /// Kinds whose ink goes to the handwriting recognizer (the others keep ink only).
    public var isRecognized: Bool {
        switch self {
        case .text, .multiline, .number, .date, .choice: true
        case .checkbox, .signature, .drawing: false
        }
    }

    /// The part type of the field's own part.
    public var partType: PartType { isRecognized ? .text : .drawing }

    /// Box size (millimetres) when the spec gives no `place`.
    var defaultSize: (width: Double, height: Double) {
        switch self {
        case .text, .number, .date, .choice: (170, 16)
        case .multiline: (170, 42)
        case .checkbox: (14, 14)
        case .signature: (120, 36)
        case .drawing: (170, 70)
        }
    }
}

/// One field of a form spec.
public struct FieldSpec: Sendable, Equatable {
    public var id: String
    public var label: String
    public var kind: FieldKind
    /// The field's box on the form page, millimetres (laid out top to bottom when the spec gives none).
    public var place: Rect
    public var required: Bool
    /// A regular expression the whole value must match (nil: any).
    public var regex: String?
    /// The choices of a `choice` field (empty when it reads a word-list file instead).
    public var options: [String]
    /// The field's own configuration keys (flat, dotted), over the form's and the engine's.
    public var configuration: [String: JSONValue]
}

/// A form: its identity, title and fields, read from JSON and validated whole.
public struct FormSpec: Sendable, Equatable {
    public var id: String
    public var version: String
    public var title: String
    /// Configuration keys for every field's editor (flat, dotted), over the engine's.
    public var configuration: [String: JSONValue]
    public var fields: [FieldSpec]

    static let fieldKeys: Set<String> = ["id", "label", "kind", "place", "required", "regex", "options", "configuration"]
    static let formKeys: Set<String> = ["id", "version", "title", "fields", "configuration"]

    /// Parses and validates a spec; every error names the field and the key at fault.
    public static func parse(_ data: Data, source: String = "form spec") throws -> FormSpec {
        let root = try JSONValue.parse(data, what: source)
        guard let o = root.objectValue else { throw specError(source, nil, nil, "must be a JSON object") }
        for k in o.keys.sorted() where !formKeys.contains(k) {
            throw specError(source, nil, k, "unknown key (a form has \(formKeys.sorted().joined(separator: ", ")))")
        }
        guard let id = o["id"]?.stringValue, isIdentifier(id) else {
            throw specError(source, nil, "id", "must be a string of letters, digits, '-', '_' or '.'")
        }
        let version: String
        switch o["version"] {
        case .string(let s)? where !s.isEmpty: version = s
        case .number(let n)? where n.isFinite && n >= 0 && n == n.rounded(): version = String(Int(n))
        default: throw specError(source, nil, "version", "must be a whole number or a non-empty string")
        }
        guard let title = o["title"]?.stringValue else { throw specError(source, nil, "title", "must be a string") }
        let formConfig = try configuration(o["configuration"], source: source, field: nil)
        guard let list = o["fields"]?.arrayValue, !list.isEmpty else {
            throw specError(source, nil, "fields", "must be a non-empty array")
        }
        guard list.count <= 200 else { throw specError(source, nil, "fields", "holds \(list.count) fields; at most 200") }
        var fields: [FieldSpec] = []
        var seen: Set<String> = []
        for (i, v) in list.enumerated() {
            let f = try field(v, index: i, source: source)
            guard seen.insert(f.id).inserted else { throw specError(source, f.id, "id", "is used by more than one field") }
            fields.append(f)
        }
        return FormSpec(id: id, version: version, title: title, configuration: formConfig, fields: layOut(fields))
    }

    private static func field(_ v: JSONValue, index: Int, source: String) throws -> FieldSpec {
        guard let o = v.objectValue else { throw specError(source, "#\(index)", nil, "must be a JSON object") }
        guard let id = o["id"]?.stringValue, isIdentifier(id) else {
            throw specError(source, "#\(index)", "id", "must be a string of letters, digits, '-', '_' or '.'")
        }
        for k in o.keys.sorted() where !fieldKeys.contains(k) {
            throw specError(source, id, k, "unknown key (a field has \(fieldKeys.sorted().joined(separator: ", ")))")
        }
        guard let kindName = o["kind"]?.stringValue else { throw specError(source, id, "kind", "is missing or not a string") }
        guard let kind = FieldKind(rawValue: kindName) else {
            throw specError(source, id, "kind", "unknown kind '\(kindName)' (one of \(FieldKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let label: String
        switch o["label"] {
        case nil: label = id
        case .string(let s)?: label = s
        default: throw specError(source, id, "label", "must be a string")
        }
        var required = false
        if let r = o["required"] {
            guard let b = r.boolValue else { throw specError(source, id, "required", "must be true or false") }
            required = b
        }
        var regex: String?
        if let r = o["regex"] {
            guard let s = r.stringValue else { throw specError(source, id, "regex", "must be a string") }
            do { _ = try NSRegularExpression(pattern: "^(?:" + s + ")$") } catch {
                throw specError(source, id, "regex", "'\(s)' is not a valid regular expression")
            }
            regex = s
        }
        var options: [String] = []
        if let a = o["options"] {
            guard kind == .choice else { throw specError(source, id, "options", "only a choice field has options") }
            guard let arr = a.arrayValue, !arr.isEmpty else { throw specError(source, id, "options", "must be a non-empty array of strings") }
            for e in arr {
                guard let s = e.stringValue, !s.trimmingCharacters(in: .whitespaces).isEmpty, !s.contains("\n") else {
                    throw specError(source, id, "options", "must hold non-empty one-line strings")
                }
                options.append(s)
            }
        }
        let config = try configuration(o["configuration"], source: source, field: id)
        if kind == .choice, options.isEmpty, (config["text.configuration.lexicon"]?.stringValue ?? "").isEmpty {
            throw specError(source, id, "options", "a choice field needs options or a word-list file in configuration 'text.configuration.lexicon'")
        }
        var place = Rect.zero
        if let p = o["place"] {
            guard let po = p.objectValue else { throw specError(source, id, "place", "must be an object {x, y, width, height} in millimetres") }
            var n: [Double] = []
            for k in ["x", "y", "width", "height"] {
                guard let d = po[k]?.doubleValue, d.isFinite, d >= 0, d <= 10_000 else {
                    throw specError(source, id, "place.\(k)", "must be a number from 0 to 10000 (millimetres)")
                }
                n.append(d)
            }
            guard n[2] >= 5, n[3] >= 5 else { throw specError(source, id, "place", "a box must be at least 5 mm wide and high") }
            place = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        return FieldSpec(id: id, label: label, kind: kind, place: place, required: required, regex: regex,
                         options: options, configuration: config)
    }

    /// A `configuration` object, flattened to dotted keys and checked the way the engine reads it.
    private static func configuration(_ v: JSONValue?, source: String, field: String?) throws -> [String: JSONValue] {
        guard let v else { return [:] }
        guard v.objectValue != nil else { throw specError(source, field, "configuration", "must be a JSON object") }
        let set = ParameterSet()
        do { try set.inject(json: try v.serialized()) } catch let e as QuireError {
            throw specError(source, field, "configuration", e.message)
        }
        guard case .object(let flat)? = try? JSONValue.parse(Data(set.json.utf8)) else { return [:] }
        return flat
    }

    /// Fields without a place go below the title and the placed fields, one under another, each
    /// with room above for its label.
    private static func layOut(_ fields: [FieldSpec]) -> [FieldSpec] {
        var y = fields.filter { !$0.place.isEmpty }.map { $0.place.y + $0.place.height }.max() ?? 20
        return fields.map { f in
            guard f.place.isEmpty else { return f }
            var f = f
            let size = f.kind.defaultSize
            y += 10  // the label's line
            f.place = Rect(x: 20, y: y, width: size.width, height: size.height)
            y += size.height + 4
            return f
        }
    }

    static func isIdentifier(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64 && s.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "-_.".unicodeScalars.contains($0) }
    }

    static func specError(_ source: String, _ field: String?, _ key: String?, _ message: String) -> QuireError {
        var at = source
        if let field { at += ": field '\(field)'" }
        if let key { at += ": key '\(key)'" }
        return QuireError(.invalidArgument, "\(at): \(message)")
    }

    /// The spec as JSON (what a form package keeps in its metadata); `parse` reads it back equal.
    public var json: JSONValue {
        .object([
            "id": .string(id), "version": .string(version), "title": .string(title),
            "configuration": .object(configuration),
            "fields": .array(fields.map { f in
                var o: [String: JSONValue] = [
                    "id": .string(f.id), "label": .string(f.label), "kind": .string(f.kind.rawValue),
                    "place": .object(["x": .number(f.place.x), "y": .number(f.place.y),
                                      "width": .number(f.place.width), "height": .number(f.place.height)]),
                    "required": .bool(f.required), "configuration": .object(f.configuration),
                ]
                if let r = f.regex { o["regex"] = .string(r) }
                if !f.options.isEmpty { o["options"] = .array(f.options.map { .string($0) }) }
                return .object(o)
            }),
        ])
    }
}
