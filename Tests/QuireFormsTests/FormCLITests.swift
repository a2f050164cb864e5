import Foundation
import InkModel
import Testing
@testable import QuireForms

/// `quire form …`: the command names and JSON shapes are a contract (issue 21).
@Suite(.serialized) struct FormCLITests {
    @Test func newWriteValuesSubmitSubmissions() throws {
        let dir = TempDir(prefix: "quire-form-cli")
        let form = dir.path("parcel.iink"), store = dir.path("records.sqlite")
        let spec = repositoryRoot.appendingPathComponent("Resources/forms/parcel-pickup.json").path
        var r = try runQuire(["form", "new", form, "--spec", spec])
        #expect(r.status == 0, "\(r.err)")
        for (field, labels) in [("name", ["Karen"]), ("tracking", ["68532"]), ("date", ["0", "5", "-", "1", "2", "-", "2", "3"]),
                                ("signature", ["Karen"])] {
            for l in labels {
                r = try runQuire(["form", "write", form, "--field", field, "--ink", writerFile, "--sample", String(try sampleIndex(l))])
                #expect(r.status == 0, "\(r.err)")
            }
        }
        r = try runQuire(["form", "values", form, "--json"])
        #expect(r.status == 0, "\(r.err)")
        let v = try JSONValue.parse(Data(r.out.utf8))
        #expect(Set(v.objectValue?.keys.map { $0 } ?? []) == ["form", "complete", "fields"])
        #expect(v["form"] == .string("parcel-pickup") && v["complete"] == .bool(true))
        for (_, fv) in v["fields"]?.objectValue ?? [:] {
            #expect(Set(fv.objectValue?.keys.map { $0 } ?? []) == ["value", "valid", "error", "candidates"])
            #expect(fv["error"] == .null && fv["candidates"]?.arrayValue != nil)
        }
        #expect(v["fields"]?["name"]?["value"] == .string("Karen"))
        #expect(v["fields"]?["tracking"]?["value"] == .string("68532"))
        #expect(v["fields"]?["date"]?["value"] == .string("2023-12-05"))

        r = try runQuire(["form", "submit", form, "--store", store])
        #expect(r.status == 0, "\(r.err)")
        let id = try JSONValue.parse(Data(r.out.utf8))["submission"]?.stringValue
        #expect(id.flatMap(UUID.init(uuidString:)) != nil)
        // The form is empty now: a second submit is refused and stores nothing.
        r = try runQuire(["form", "submit", form, "--store", store])
        #expect(r.status != 0 && r.err.contains("field 'name': required"))

        r = try runQuire(["form", "submissions", "--store", store, "--json"])
        let list = try JSONValue.parse(Data(r.out.utf8)).arrayValue ?? []
        #expect(list.count == 1)
        #expect(list.first?["submission"]?.stringValue == id && list.first?["form"] == .string("parcel-pickup"))
        #expect(list.first?["time"]?.stringValue.flatMap(Submission.parseTime) != nil)
        #expect(list.first?["fields"]?["tracking"] == .object(["value": .string("68532"), "valid": .bool(true),
                                                              "candidates": list.first!["fields"]!["tracking"]!["candidates"]!]))
        r = try runQuire(["form", "submissions", "--store", store, "--csv"])
        let lines = r.out.split(separator: "\n")
        #expect(lines.first == "submission,form,version,time,name,tracking,date,signature")
        #expect(lines.count == 2 && lines[1].hasSuffix(",Karen,68532,2023-12-05,(ink)"))
        r = try runQuire(["form", "submissions", "--store", store, "--json", "--since", "2999-01-01"])
        #expect(try JSONValue.parse(Data(r.out.utf8)) == .array([]))
        r = try runQuire(["form", "submissions", "--store", store, "--since", "yesterday"])
        #expect(r.status != 0 && r.err.contains("--since 'yesterday' is not an ISO 8601 time"))
    }

    @Test func badInputGetsAClearMessage() throws {
        let dir = TempDir(prefix: "quire-form-cli")
        try Data(#"{"id": "x", "version": 1, "title": "X", "fields": [{"id": "a", "kind": "sketch"}]}"#.utf8).write(to: dir.url.appendingPathComponent("bad.json"))
        var r = try runQuire(["form", "new", dir.path("x.iink"), "--spec", dir.path("bad.json")])
        #expect(r.status == 2 && r.err.contains("field 'a': key 'kind': unknown kind 'sketch'"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.iink")))
        let spec = repositoryRoot.appendingPathComponent("Resources/forms/clinic-checkin.json").path
        r = try runQuire(["form", "new", dir.path("c.iink"), "--spec", spec])
        #expect(r.status == 0, "\(r.err)")
        try Data().write(to: dir.url.appendingPathComponent("empty.jsonl"))
        r = try runQuire(["form", "write", dir.path("c.iink"), "--field", "name", "--ink", dir.path("empty.jsonl")])
        #expect(r.status == 2 && r.err.contains("has 0 samples"))
        r = try runQuire(["form", "write", dir.path("c.iink"), "--field", "name", "--ink", writerFile, "--sample", String(Int.max)])
        #expect(r.status == 2 && r.err.contains("--sample must be from 0 to 100000000"))
        r = try runQuire(["form", "write", dir.path("c.iink"), "--field", "nope", "--ink", writerFile])
        #expect(r.status == 2 && r.err.contains("has no field 'nope'"))
        r = try runQuire(["form", "submit", dir.path("c.iink"), "--store", dir.path("no/such/dir/s.sqlite")])
        #expect(r.status == 2 && r.err.contains("does not exist"))
        r = try runQuire(["new", dir.path("plain.iink")])
        r = try runQuire(["form", "values", dir.path("plain.iink")])
        #expect(r.status == 2 && r.err.contains("is not a form (no quire.form.spec in its metadata)"))
        r = try runQuire(["form", "values", dir.path("c.iink")])
        #expect(r.status == 0 && r.out.contains("consent [checkbox]") && r.out.contains("INVALID: must be ticked"))
    }

    @Test func theBenchmarkRunsOnRealHandwriting() throws {
        let r = try runQuire(["bench", "forms", "--ink", writerFile, "--runs", "2"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 6 && lines.prefix(5).allSatisfy { $0.contains("p50") && $0.contains("p95") && $0.hasSuffix("(2 runs)") })
        #expect(lines.filter { $0.contains("value on the kiosk screen") }.count == 2, "the window's path, pen-up to the value painted")
        #expect(lines.last == "PostgreSQL: not measured (give --postgres postgresql://…)")
        let dir = TempDir(prefix: "quire-form-bench")
        let wordsOnly = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/handwriting.jsonl"), encoding: .utf8)
            .split(separator: "\n").prefix(2).joined(separator: "\n")
        try Data(wordsOnly.utf8).write(to: dir.url.appendingPathComponent("words.jsonl"))
        let none = try runQuire(["bench", "forms", "--ink", dir.path("words.jsonl"), "--runs", "1"])
        #expect(none.status == 2 && none.err.contains("needs samples of words (letters) and of numbers (digits)"))
    }
}
