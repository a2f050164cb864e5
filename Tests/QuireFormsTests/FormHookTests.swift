import Foundation
import InkModel
import Testing
@testable import QuireForms

/// `forms.on-submit`: each stored record goes to a command as JSON on its standard input; a
/// command that fails, hangs or is missing is logged and loses nothing.
@Suite(.serialized) struct FormHookTests {
    /// Collects a hook's log lines.
    final class Log: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var write: @Sendable (String) -> Void { { [lines] m in lines.withLock { $0.append(m) } } }
    }

    @Test func theCommandReceivesEachRecordAsJSON() throws {
        let dir = TempDir(prefix: "quire-forms-hook")
        let out = dir.path("records.jsonl")
        // cp (found in PATH, run without a shell) copies its input to the file.
        let spec = FormSubmitTests.spec.replacingOccurrences(of: #""title": "Pickup","#,
                                                             with: #""title": "Pickup", "configuration": {"forms.on-submit": ["cp", "/dev/stdin", "\#(out)"]},"#)
        let f = try FormFixture(spec)
        let store = try SubmissionStore(path: dir.path("s.sqlite"))
        try FormSubmitTests().fill(f.form)
        let id = try f.form.submit(to: store)
        try f.form.finishSubmission()
        f.form.close()  // waits for the command
        let json = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(json["submission"]?.stringValue == id.uuidString.lowercased() && json["form"]?.stringValue == "pickup")
        #expect(json["fields"]?["name"]?["value"] == .string("Karen") && json["fields"]?["tracking"]?["value"] == .string("78901"))
        #expect(json["fields"]?["tracking"]?["valid"] == .bool(true))
        #expect(json["fields"]?["signature"]?["svg"]?.stringValue?.contains("<svg") == true)
        #expect(json["fields"]?["name"]?["ink"]?["strokes"]?.arrayValue?.count == (try sample("Karen")).strokes.count)
        #expect(try store.submissions().map(\.id) == [id])
    }

    @Test func aFailingMissingOrHangingCommandIsLoggedAndLosesNothing() throws {
        let record = JSONValue.object(["submission": .string("x")])
        let log = Log()
        let failing = SubmitHook(command: ["false"], timeout: 10, log: log.write)
        failing.send(record); failing.wait()
        let missing = SubmitHook(command: ["/nonexistent/quire-hook"], timeout: 10, log: log.write)
        missing.send(record); missing.wait()
        let hanging = SubmitHook(command: ["sleep", "600"], timeout: 0.3, log: log.write)
        hanging.send(record); hanging.wait()
        // A command that reads nothing and exits at once: the unread record must not kill us.
        let deaf = SubmitHook(command: ["true"], timeout: 10, log: log.write)
        deaf.send(.object(["big": .string(String(repeating: "x", count: 1 << 20))])); deaf.wait()
        let lines = log.all
        #expect(lines.count == 3, "\(lines)")
        #expect(lines[0].contains("forms.on-submit 'false': exited with status 1; the record is stored"))
        #expect(lines[1].contains("no such program"))
        #expect(lines[2].contains("stopped after") && lines[2].contains("forms.on-submit-timeout-seconds"))
    }

    @Test func theHookIsReadFromTheConfiguration() throws {
        let c = Configuration()
        #expect(try SubmitHook.configured(in: c) == nil)
        try c.inject(json: #"{"forms": {"on-submit": "/usr/bin/logger", "on-submit-timeout-seconds": 2}}"#)
        let h = try #require(try SubmitHook.configured(in: c))
        #expect(h.command == ["/usr/bin/logger"] && h.timeout == 2)
        try c.inject(json: #"{"forms": {"on-submit": 42}}"#)
        #expect(throws: QuireError.self) { _ = try SubmitHook.configured(in: c) }
    }
}
