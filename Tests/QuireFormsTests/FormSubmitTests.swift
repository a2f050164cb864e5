import Foundation
import InkModel
import Testing
@testable import QuireForms

/// Submissions: one record per submit in SQLite, never twice, nothing from an invalid form.
@Suite(.serialized) struct FormSubmitTests {
    static let spec = #"""
        {"id": "pickup", "version": 3, "title": "Pickup", "fields": [
          {"id": "name", "kind": "text", "required": true},
          {"id": "tracking", "kind": "number", "required": true, "regex": "[0-9]{4,}"},
          {"id": "signature", "kind": "signature", "required": true}]}
        """#

    func fill(_ form: Form) throws {  // also the crash test's form
        try write(["Karen"], into: "name", of: form)
        try write(["78901"], into: "tracking", of: form)
        try write(["Karen"], into: "signature", of: form)
    }

    @Test func submitStoresOneRecordAndClearsTheForm() throws {
        let f = try FormFixture(Self.spec)
        let store = try SubmissionStore(path: f.dir.path("s.sqlite"))
        try fill(f.form)
        let id = try f.form.submit(to: store, time: Date(timeIntervalSince1970: 1_790_000_000.25))
        let all = try store.submissions()
        #expect(all.count == 1)
        let s = try #require(all.first)
        #expect(s.id == id && s.formId == "pickup" && s.formVersion == "3" && s.timeString == "2026-09-21T14:13:20.250Z")
        #expect(s.fields.map(\.fieldId) == ["name", "tracking", "signature"])
        #expect(s.fields[0].value == .string("Karen") && s.fields[1].value == .string("78901") && s.fields.allSatisfy(\.valid))
        #expect(s.fields[1].candidates.first == "78901")
        #expect(s.fields[2].svg?.contains("<svg") == true && s.fields[2].png != nil)
        #expect(s.fields[0].ink["strokes"]?.arrayValue?.count == (try sample("Karen")).strokes.count)
        // Cleared, and saved so: reopened, the form is empty and holds no pending submission.
        #expect(f.form.editors.values.allSatisfy { $0.part!.model.strokes.isEmpty })
        try f.form.finishSubmission()
        let path = f.form.package.path
        f.form.close()
        let again = try Form.open(path: path, engine: try Engine())
        defer { again.close() }
        #expect(try again.values().allSatisfy { $0.value == .null })
        #expect(!again.package.metadata.hasKey(Form.pendingKey))
    }

    @Test func aRetryWithTheSameIdStoresNothingMore() throws {
        let f = try FormFixture(Self.spec)
        let store = try SubmissionStore(path: f.dir.path("s.sqlite"))
        try fill(f.form)
        let values = try f.form.values()
        let s = Submission(id: UUID(), formId: "pickup", formVersion: "3", time: Date(), fields: values)
        #expect(try store.save(s))
        #expect(try !store.save(s))
        // A second process on the same file sees the one record too.
        #expect(try SubmissionStore(path: store.path).submissions().map(\.id) == [s.id])
        // A submit cut off after it stored the record, before it cleared the form: run again, it
        // answers the same id, stores nothing and clears the form.
        try f.form.package.metadata.setString(s.id.uuidString.lowercased() + " " + Form.fingerprint(values), forKey: Form.pendingKey)
        #expect(try f.form.submit(to: store) == s.id)
        #expect(try store.submissions().count == 1)
        #expect(f.form.editors.values.allSatisfy { $0.part!.model.strokes.isEmpty })
        // … and after it cleared the form, before the id was handed on: the same again.
        #expect(try f.form.submit(to: store) == s.id)
        try f.form.finishSubmission()
        #expect(try store.submissions().count == 1)
    }

    @Test func aStaleMarkerDoesNotSwallowTheNextPersonsForm() throws {
        let f = try FormFixture(Self.spec)
        let store = try SubmissionStore(path: f.dir.path("s.sqlite"))
        try fill(f.form)
        let first = try f.form.submit(to: store)
        // Killed before finishSubmission: the marker stays. The next person fills the form anew.
        try write(["Dorothy"], into: "name", of: f.form)
        try write(["12345"], into: "tracking", of: f.form)
        try write(["Dorothy"], into: "signature", of: f.form)
        let second = try f.form.submit(to: store)
        #expect(second != first)
        #expect(try store.submissions().map(\.id).sorted { $0.uuidString < $1.uuidString } == [first, second].sorted { $0.uuidString < $1.uuidString })
        #expect(try store.submissions().first { $0.id == second }?.fields[1].value == .string("12345"))
    }

    @Test func anInvalidFormIsRefusedAndNothingIsStored() throws {
        let f = try FormFixture(Self.spec)
        let store = try SubmissionStore(path: f.dir.path("s.sqlite"))
        try write(["Karen"], into: "name", of: f.form)
        try write(["21"], into: "tracking", of: f.form)
        let e = expectCode(.invalidArgument) { try f.form.submit(to: store) }
        #expect(e?.message == "form 'pickup' is not valid: field 'tracking': does not match the pattern [0-9]{4,}; field 'signature': required")
        #expect(try store.submissions().isEmpty)
        #expect(f.form.editors["name"]!.part!.model.strokes.count == (try sample("Karen")).strokes.count, "the ink stays")
        #expect(!f.form.package.metadata.hasKey(Form.pendingKey))
    }

    @Test func aStoreThatCannotBeWrittenIsAClearError() throws {
        let dir = TempDir()
        expectCode(.fileNotFound) { _ = try SubmissionStore(path: dir.path("missing/s.sqlite")) }
        expectCode(.notAFile) { _ = try SubmissionStore(path: dir.path("")) }
        try Data("not a database at all, not at all".utf8).write(to: dir.url.appendingPathComponent("junk.sqlite"))
        expectCode(.ioError) { _ = try SubmissionStore(path: dir.path("junk.sqlite")) }
        expectCode(.invalidArgument) { _ = try SubmissionStore(path: "mysql://localhost/forms") }
        expectCode(.invalidArgument) { _ = try SubmissionStore(path: "postgresql://localhost:0/forms") }
    }
}
