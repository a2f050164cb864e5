import Foundation
import InkModel

/// One submitted form: what `SubmissionStore` keeps and `quire form submissions` lists.
public struct Submission: Sendable, Equatable {
    public var id: UUID
    public var formId: String
    public var formVersion: String
    /// When it was submitted (whole milliseconds).
    public var time: Date
    /// Field values in the form's order.
    public var fields: [FieldValue]

    public init(id: UUID, formId: String, formVersion: String, time: Date, fields: [FieldValue]) {
        self.id = id; self.formId = formId; self.formVersion = formVersion; self.time = time; self.fields = fields
    }

    /// ISO 8601 with milliseconds, UTC.
    public var timeString: String { Self.format(time) }

    static func format(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: d)
    }

    /// Reads an ISO 8601 time, with or without fractional seconds, or a date alone (midnight UTC).
    public static func parseTime(_ s: String) -> Date? {
        let f = ISO8601DateFormatter()
        for o: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate]] {
            f.formatOptions = o
            if let d = f.date(from: s) { return d }
        }
        return nil
    }

    /// The `submissions` JSON of one record.
    public var json: JSONValue {
        var fs: [String: JSONValue] = [:]
        for f in fields {
            fs[f.fieldId] = .object(["value": f.value, "valid": .bool(f.valid), "candidates": .array(f.candidates.map { .string($0) })])
        }
        return .object(["submission": .string(id.uuidString.lowercased()), "form": .string(formId),
                        "version": .string(formVersion), "time": .string(timeString), "fields": .object(fs)])
    }

    /// The whole record, for `forms.on-submit`: the `submissions` JSON with each field's
    /// `error`, its ink (`ink`: the JSON export's strokes) and, for signatures and drawings, `svg`.
    public var recordJSON: JSONValue {
        var fs: [String: JSONValue] = [:]
        for f in fields {
            var o: [String: JSONValue] = ["value": f.value, "valid": .bool(f.valid), "error": f.error.map { .string($0) } ?? .null,
                                          "candidates": .array(f.candidates.map { .string($0) }), "ink": f.ink]
            if let svg = f.svg { o["svg"] = .string(svg) }
            fs[f.fieldId] = .object(o)
        }
        return .object(["submission": .string(id.uuidString.lowercased()), "form": .string(formId),
                        "version": .string(formVersion), "time": .string(timeString), "fields": .object(fs)])
    }
}
