import Foundation
import InkModel

extension Form {
    /// True when every field's value is valid.
    public func isComplete(_ values: [FieldValue]) -> Bool { values.allSatisfy(\.valid) }

    /// Validates the form, stores it as one record, then clears and saves the form. A form that is
    /// not valid is refused with every failing field's error, and nothing is stored.
    ///
    /// The submission id is saved in the package before the record is written and removed after
    /// the form is cleared: a submit killed between the two, run again, stores the same id, which
    /// the store keeps once.
    @discardableResult
    public func submit(to store: SubmissionStore, time: Date = Date()) throws -> UUID {
        let values = try values()
        let bad = values.filter { !$0.valid }
        guard bad.isEmpty else {
            throw QuireError(.invalidArgument, "form '\(spec.id)' is not valid: " + bad.map { "field '\($0.fieldId)': \($0.error ?? "invalid")" }.joined(separator: "; "))
        }
        let id: UUID
        if let s = try? package.metadata.getString(Self.pendingKey), let u = UUID(uuidString: s) {
            id = u
        } else {
            id = UUID()
            try package.metadata.setString(id.uuidString.lowercased(), forKey: Self.pendingKey)
            try package.save()
        }
        let ms = (time.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        try store.save(Submission(id: id, formId: spec.id, formVersion: spec.version,
                                  time: Date(timeIntervalSince1970: ms), fields: values))
        clear()
        package.metadata.removeKey(Self.pendingKey)
        try package.save()
        return id
    }
}
