import Foundation
import InkModel
import Quire

/// A field's value as read from its ink, with its validity.
public struct FieldValue: Sendable, Equatable {
    public var fieldId: String
    /// A string, a Bool (checkbox) or null (nothing written).
    public var value: JSONValue
    public var valid: Bool
    /// Why the value is not valid, in words.
    public var error: String?
    /// The best readings of the whole field, best first (recognized kinds only).
    public var candidates: [String]
    /// The field's ink as the JSON export writes it.
    public var ink: JSONValue
    /// Signature and drawing fields: the ink as SVG and PNG (nil when empty or another kind).
    public var svg: String?
    public var png: Data?

    /// The `values` JSON of one field: `{"value", "valid", "error", "candidates"}`.
    public var json: JSONValue {
        .object(["value": value, "valid": .bool(valid), "error": error.map { .string($0) } ?? .null,
                 "candidates": .array(candidates.map { .string($0) })])
    }
}

/// How each kind turns ink or recognized text into a value, and how it is validated.
public enum FieldValues {
    /// What a number field's recognizer may read: digits, sign, decimal point (and comma).
    static let numberCharacters = "0123456789+-.,"
    /// How many whole-field candidates are kept.
    static let maxCandidates = 5

    /// `images` false: a signature's or drawing's value is not exported (SVG, PNG), only judged.
    static func value(of f: FieldSpec, editor e: Editor, images: Bool = true) throws -> FieldValue {
        let m = e.part!.model
        let ink = (try? JSONValue.parse(Data(try e.export(nil, mimeType: .json).utf8))) ?? .null
        var v = FieldValue(fieldId: f.id, value: .null, valid: true, error: nil, candidates: [], ink: ink)
        let hasInk = !m.strokes.isEmpty
        switch f.kind {
        case .checkbox:
            switch checkboxState(m, box: f.place) {
            case .some(let ticked): v.value = .bool(ticked)
            case .none: v.value = .null; v.error = "the mark is too small for a tick or cross"
            }
            if v.error == nil, f.required, v.value != .bool(true) { v.error = "must be ticked" }
        case .signature, .drawing:
            if hasInk, images {
                v.svg = String(decoding: try e.exportData(nil, mimeType: .svg), as: UTF8.self)
                v.png = try e.exportImageData(nil, mimeType: .png, dpi: 150)
                v.value = .string(v.svg!)
            }
            if f.required, !hasInk { v.error = "required" }
        case .text, .multiline, .number, .date, .choice:
            let root = e.rootBlock!
            let text = root.text.trimmingCharacters(in: .whitespacesAndNewlines)
            v.candidates = wholeCandidates(root.words, best: root.text)
            if text.isEmpty {
                if f.required { v.error = "required" }
                if hasInk, v.error == nil { v.error = "the writing could not be read" }
            } else {
                let (value, error) = interpret(text, kind: f.kind, field: f, configuration: e.configuration)
                v.value = .string(value)
                v.error = error
                if error == nil, let re = f.regex, value.range(of: "^(?:" + re + ")$", options: .regularExpression) == nil {
                    v.error = "does not match the pattern \(re)"
                }
            }
        }
        v.valid = v.error == nil
        return v
    }

    /// A recognized text as the kind's value, or why it is not one.
    static func interpret(_ text: String, kind: FieldKind, field f: FieldSpec, configuration c: Configuration) -> (String, String?) {
        switch kind {
        case .number:
            let s = text.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: ",", with: ".")
            guard s.range(of: #"^[+-]?(\d+(\.\d*)?|\.\d+)$"#, options: .regularExpression) != nil else {
                return (s, "'\(s)' is not a number")
            }
            return (s, nil)
        case .date:
            let order = (try? c.getString("forms.date.order", default: "DMY")) ?? "DMY"
            return date(text, order: order)
        case .choice:
            let t = text.lowercased()
            if f.options.isEmpty { return (text, nil) }  // the word-list file's lexicon-mode require is the check
            if let o = f.options.first(where: { $0.lowercased() == t || $0.lowercased().replacingOccurrences(of: " ", with: "") == t.replacingOccurrences(of: " ", with: "") }) {
                return (o, nil)
            }
            return (text, "'\(text)' is not one of: \(f.options.joined(separator: ", "))")
        default:
            return (text, nil)
        }
    }

    /// A written date in `order` (DMY, MDY or YMD; any non-digit separates, or 8 digits in a
    /// row) as ISO 8601 `YYYY-MM-DD`. A year has 4 digits, or 2 (2000–2069, 1970–1999).
    static func date(_ text: String, order: String) -> (String, String?) {
        let order = order.uppercased()
        guard ["DMY", "MDY", "YMD"].contains(order) else {
            return (text, "forms.date.order must be DMY, MDY or YMD, not '\(order)'")
        }
        var groups = text.split(whereSeparator: { !$0.isNumber }).map(String.init)
        let compact = text.filter(\.isNumber)
        if groups.count == 1, compact.count == 8 {
            groups = order == "YMD" ? [String(compact.prefix(4)), String(compact.dropFirst(4).prefix(2)), String(compact.suffix(2))]
                                    : [String(compact.prefix(2)), String(compact.dropFirst(2).prefix(2)), String(compact.suffix(4))]
        }
        guard groups.count == 3 else { return (text, "'\(text)' is not a date (\(order): day, month and year)") }
        let n = groups.map { Int($0) ?? -1 }
        var (d, mo, y) = (0, 0, 0)
        switch order {
        case "DMY": (d, mo, y) = (n[0], n[1], n[2])
        case "MDY": (mo, d, y) = (n[0], n[1], n[2])
        default: (y, mo, d) = (n[0], n[1], n[2])
        }
        let yearDigits = order == "YMD" ? groups[0].count : groups[2].count
        guard yearDigits == 2 || yearDigits == 4 else {
            return (text, "'\(text)' is not a date (\(order): the year has 2 or 4 digits)")
        }
        if yearDigits == 2 { y += y < 70 ? 2000 : 1900 }
        var comps = DateComponents(); comps.year = y; comps.month = mo; comps.day = d
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        guard (1...9999).contains(y), (1...12).contains(mo), (1...31).contains(d), let date = cal.date(from: comps),
              cal.component(.day, from: date) == d else {
            return (text, "'\(text)' is not a date (\(order): day, month and year)")
        }
        return (String(format: "%04d-%02d-%02d", y, mo, d), nil)
    }

    /// The best reading, then readings with one word replaced by one of its other candidates.
    static func wholeCandidates(_ words: [RecognizedWord], best: String) -> [String] {
        alternatives(words, best: best).map(\.text)
    }

    /// A reading of a whole field: its text and, for any but the best, the word whose candidate
    /// gives it (`Editor.selectCandidate` with these picks it).
    public struct Alternative: Equatable, Sendable {
        public var text: String
        /// The word's index in the field's words and the candidate's index in that word's candidates.
        public var word: Int?
        public var candidate: Int?
    }

    /// The best reading, then readings with one word replaced by one of its other candidates
    /// (at most five in all, no text twice).
    public static func alternatives(_ words: [RecognizedWord], best: String) -> [Alternative] {
        var out: [Alternative] = []
        func add(_ s: String, _ word: Int?, _ candidate: Int?) {
            let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
            if !t.isEmpty, !out.contains(where: { $0.text == t }) { out.append(Alternative(text: t, word: word, candidate: candidate)) }
        }
        add(best, nil, nil)
        let labels = words.map(\.label)
        for (i, w) in words.enumerated() {
            for (k, c) in w.candidates.enumerated() where c.label != w.label {
                var l = labels; l[i] = c.label
                add(l.joined(separator: " "), i, k)
                if out.count >= maxCandidates { return out }
            }
        }
        return out
    }

    /// A checkbox's state. The rule, simple on purpose: no ink is unticked; ink whose extent
    /// inside the box reaches a quarter of the box's side in width or height is a deliberate mark
    /// (a tick or a cross, both meaning yes); anything smaller (a dot, a slip) is neither: nil.
    static func checkboxState(_ m: PartModel, box: Rect) -> Bool? {
        guard let ext = m.inkExtent(inBlock: m.rootId), !m.strokes.isEmpty else { return false }
        let side = min(box.width, box.height)
        return max(ext.width, ext.height) >= side * 0.25 ? true : nil
    }
}
