import Foundation
import InkModel

extension Form {
    /// True when every field's value is valid.
    public func isComplete(_ values: [FieldValue]) -> Bool { values.allSatisfy(\.valid) }

    /// Validates the form, stores it as one record and clears the form. A form that is not valid
    /// is refused with every failing field's error, and nothing is stored. Call
    /// `finishSubmission()` once the id has been handed on (printed, shown): it saves the cleared
    /// form and forgets the id in one package save.
    ///
    /// Crash safety: before the record is written, its id and a fingerprint of the form's ink are
    /// saved in the package. A submit killed at any moment and run again finds them: if the store
    /// holds that id and the form still holds the same ink (or none: it was cleared), it is the
    /// same submission and its id is returned again without writing anything; otherwise the
    /// marker is stale (the form was filled anew) and a new id is used. The store keeps one record
    /// per id, so no record is ever written twice.
    @discardableResult
    public func submit(to store: SubmissionStore, time: Date = Date()) throws -> UUID {
        let values = try values()
        let fingerprint = Self.fingerprint(values)
        let empty = values.allSatisfy { $0.ink["strokes"]?.arrayValue?.isEmpty ?? true }
        if let p = pendingSubmission, try store.contains(p.id), p.fingerprint == fingerprint || empty {
            try clearAndSave()
            return p.id
        }
        let bad = values.filter { !$0.valid }
        guard bad.isEmpty else {
            throw QuireError(.invalidArgument, "form '\(spec.id)' is not valid: " + bad.map { "field '\($0.fieldId)': \($0.error ?? "invalid")" }.joined(separator: "; "))
        }
        var id = UUID()
        if let p = pendingSubmission, p.fingerprint == fingerprint {
            id = p.id  // chosen by a submit that was cut off before it stored anything
        } else {
            try package.metadata.setString(id.uuidString.lowercased() + " " + fingerprint, forKey: Self.pendingKey)
            try package.save()
        }
        let ms = (time.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        let record = Submission(id: id, formId: spec.id, formVersion: spec.version, time: Date(timeIntervalSince1970: ms), fields: values)
        if try store.save(record) { submitHook?.send(record.recordJSON) }
        // Cleared here, saved by finishSubmission: one package save fewer per submit. A crash
        // before that save leaves the ink and the marker on disk, which the next submit
        // recognises as this stored submission (above).
        clear()
        return id
    }

    /// The form's `forms.on-submit` command (form or engine configuration), read once; a bad
    /// value is logged and no command runs: it must not stop the submit, whose record is stored.
    public var submitHook: SubmitHook? {
        if let cached = submitHookCache { return cached }
        let hook: SubmitHook?
        do { hook = try SubmitHook.configured(in: configuration) } catch {
            SubmitHook.logToStandardError("\(error)")
            hook = nil
        }
        submitHookCache = .some(hook)
        return hook
    }

    /// Forgets the last submission's id and saves the cleared form (see `submit`); the form is
    /// then ready for the next one.
    public func finishSubmission() throws {
        guard package.metadata.hasKey(Self.pendingKey) else { return }
        package.metadata.removeKey(Self.pendingKey)
        try package.save()
    }

    private func clearAndSave() throws {
        clear()
        try package.save()
    }

    /// The id and ink fingerprint a submit saved in the package, if any.
    var pendingSubmission: (id: UUID, fingerprint: String)? {
        guard let s = try? package.metadata.getString(Self.pendingKey) else { return nil }
        let parts = s.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = UUID(uuidString: parts[0]) else { return nil }
        return (id, parts[1])
    }

    /// FNV-1a over every field's ink, in spec order: equal exactly when the ink is.
    static func fingerprint(_ values: [FieldValue]) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for v in values {
            for b in v.fieldId.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
            for b in ((try? v.ink["strokes"]?.serialized()) ?? "").utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        }
        return String(h, radix: 16)
    }
}
