import Foundation
import InkModel
import Testing
@testable import QuireForms

/// PostgreSQL stores, against a real server started by the test (`PostgresServer`): records
/// stored and read back, retries that never duplicate, the outbox forwarding in order and once
/// after the server comes back, bad credentials, and a server that cannot be reached.
@Suite(.serialized) struct FormPostgresTests {
    let server: PostgresServer
    let dir = TempDir(prefix: "quire-forms-pg")
    let database: String

    init() throws {
        server = try PostgresServer.shared.get()
        database = try server.freshDatabase()
    }

    func store(_ url: String? = nil) throws -> SubmissionStore {
        try SubmissionStore(path: url ?? server.url(database), outbox: dir.path("outbox.sqlite"))
    }

    /// Submissions with the one writer's real values, `count` of them a second apart.
    static func records(_ count: Int) throws -> [Submission] {
        let f = try FormFixture(FormSubmitTests.spec)
        defer { f.form.close() }
        try FormSubmitTests().fill(f.form)
        let values = try f.form.values()
        return (0..<count).map { i in
            Submission(id: UUID(), formId: "pickup", formVersion: "3", time: Date(timeIntervalSince1970: 1_790_000_000 + Double(i)), fields: values)
        }
    }

    func idsOnServer() throws -> [String] {
        try server.psql("SELECT id FROM quire_submission ORDER BY arrival", database: database)
            .split(separator: "\n").map(String.init)
    }

    @Test func aSubmitIsStoredInPostgreSQLAndReadBack() throws {
        let f = try FormFixture(FormSubmitTests.spec)
        defer { f.form.close() }
        let db = try store()
        #expect(db.isRemote && db.path.contains(":***@") && !db.path.contains(PostgresServer.password))
        try FormSubmitTests().fill(f.form)
        let id = try f.form.submit(to: db, time: Date(timeIntervalSince1970: 1_790_000_000.25))
        try f.form.finishSubmission()
        db.waitForForwarding()
        #expect(try db.pendingCount() == 0)
        #expect(try idsOnServer() == [id.uuidString.lowercased()])
        // The server holds real JSON (queryable by the fleet's own tools), not opaque text.
        #expect(try server.psql("SELECT value #>> '{}' FROM quire_field WHERE id = 'tracking'", database: database) == "78901")
        let all = try db.submissions()
        let s = try #require(all.first)
        #expect(all.count == 1 && s.id == id && s.formId == "pickup" && s.formVersion == "3" && s.timeString == "2026-09-21T14:13:20.250Z")
        #expect(s.fields.map(\.fieldId) == ["name", "tracking", "signature"])
        #expect(s.fields[0].value == .string("Karen") && s.fields[1].value == .string("78901") && s.fields.allSatisfy(\.valid))
        #expect(s.fields[1].candidates.first == "78901")
        #expect(s.fields[2].svg?.contains("<svg") == true && s.fields[2].png?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(s.fields[0].ink["strokes"]?.arrayValue?.count == (try sample("Karen")).strokes.count)
        // The forwarded body left the outbox; its id stays there, so a retry is still recognised.
        #expect(try db.contains(id))
        #expect(try SQLiteSubmissions(path: dir.path("outbox.sqlite"), createFolder: false).submissions().isEmpty)
    }

    @Test func aRetryNeverDuplicatesARecord() throws {
        let s = try Self.records(1)[0]
        let db = try store()
        #expect(try db.save(s))
        #expect(try !db.save(s))
        try db.sync()
        // The server's own transaction is keyed by the id too: sending the record again (a
        // forward whose removal from the outbox was lost in a crash) writes nothing.
        let pg = try PostgresSubmissions.connect(try PostgresAddress(server.url(database)))
        defer { pg.close() }
        #expect(try !pg.save(s))
        let second = try SubmissionStore(path: server.url(database), outbox: dir.path("other-outbox.sqlite"))
        #expect(try second.save(s))
        second.waitForForwarding()
        #expect(try second.pendingCount() == 0 && second.lastForwardingError == nil)
        #expect(try idsOnServer() == [s.id.uuidString.lowercased()])
        #expect(try server.psql("SELECT count(*) FROM quire_field", database: database) == "3")
    }

    @Test func theOutboxForwardsInOrderAndOnceWhenTheServerIsBack() throws {
        let records = try Self.records(3)
        let db = try store()
        try server.stop()
        var restarted = false
        defer { if !restarted { try? server.start() } }
        for r in records { #expect(try db.save(r)) }
        db.waitForForwarding()
        #expect(try db.pendingCount() == 3)
        #expect(db.lastForwardingError?.message.contains("cannot connect to PostgreSQL at postgresql://quire:***@127.0.0.1") == true)
        let down = #expect(throws: QuireError.self) { try db.sync() }
        #expect(down?.message.contains(PostgresServer.password) == false)
        #expect(try db.pendingCount() == 3, "nothing is lost while the server is down")
        try server.start()
        restarted = true
        #expect(try db.sync() == 3)
        #expect(try db.pendingCount() == 0)
        #expect(try db.sync() == 0)
        #expect(try idsOnServer() == records.map { $0.id.uuidString.lowercased() })
        #expect(try db.submissions().map(\.id) == records.map(\.id))
    }

    @Test func badCredentialsAreAClearErrorNamingTheURL() throws {
        let db = try store(server.url(database, password: "wrong-pw"))
        let e = #expect(throws: QuireError.self) { try db.submissions() }
        let message = e?.message ?? ""
        #expect(message.contains("password authentication failed for user \"quire\""), "\(message)")
        #expect(message.contains("postgresql://quire:***@127.0.0.1:\(server.port)/\(database)"), "\(message)")
        #expect(!message.contains("wrong-pw"))
        // The CLI says the same, masked, and exits with an error, not a crash.
        let r = try runQuire(["form", "submissions", "--store", server.url(database, password: "wrong-pw")],
                             environment: ["XDG_DATA_HOME": dir.path("xdg")])
        #expect(r.status != 0 && r.err.contains("password authentication failed") && r.err.contains(":***@") && !r.err.contains("wrong-pw"), "\(r.err)")
    }

    @Test func anUnreachableServerLeavesTheSubmitStoredLocally() throws {
        // A port where nothing listens (refused at once), and a listener that never answers
        // (held only by the connect timeout, here one second).
        let silent = try LoopbackListener()
        defer { silent.close() }
        let refused = try PostgresServer.freePort()
        for url in ["postgresql://quire:pw@127.0.0.1:\(refused)/forms", "postgresql://quire:pw@127.0.0.1:\(silent.port)/forms?connect_timeout=1"] {
            let d = TempDir(prefix: "quire-forms-unreachable")
            try Data(FormSubmitTests.spec.utf8).write(to: d.url.appendingPathComponent("spec.json"))
            #expect(try runQuire(["form", "new", d.path("f.iink"), "--spec", d.path("spec.json")]).status == 0)
            for (field, label) in [("name", "Karen"), ("tracking", "78901"), ("signature", "Karen")] {
                #expect(try runQuire(["form", "write", d.path("f.iink"), "--field", field, "--ink", writerFile, "--sample", "\(try sampleIndex(label))"]).status == 0)
            }
            let r = try runQuire(["form", "submit", d.path("f.iink"), "--store", url], environment: ["XDG_DATA_HOME": d.path("xdg")])
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains("\"submission\""))
            #expect(r.err.contains("stored locally; 1 record waits in the outbox") && r.err.contains("quire:***@") && !r.err.contains(":pw@"), "\(r.err)")
            let outbox = try SubmissionStore(path: url, outbox: d.path("xdg/quire/outbox.sqlite"))
            #expect(try outbox.pendingCount() == 1)
        }
    }

    @Test func theBenchmarkSubmitsToPostgreSQLToo() throws {
        let r = try runQuire(["bench", "forms", "--ink", writerFile, "--runs", "4", "--postgres", server.url(database)])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 7 && lines.allSatisfy { $0.contains("p50") && $0.contains("p95") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("submit to PostgreSQL, until the outbox holds it") && $0.hasSuffix("(2 runs)") })
        #expect(lines.contains { $0.hasPrefix("submit to PostgreSQL, until the server committed it") && $0.hasSuffix("(2 runs)") })
        #expect(try server.psql("SELECT count(*) FROM quire_submission", database: database) == "2")
    }

    @Test func storeURLsAreCheckedWithoutRepeatingThePassword() {
        let e = #expect(throws: QuireError.self) { _ = try SubmissionStore(path: "postgresql://u:topsecret@127.0.0.1:99999/db", outbox: dir.path("o.sqlite")) }
        #expect(e?.message.contains("port 99999") == true && e?.message.contains("topsecret") == false)
        #expect(throws: QuireError.self) { _ = try SubmissionStore(path: "postgresql://u@127.0.0.1/db?sslmode=sometimes", outbox: dir.path("o.sqlite")) }
        #expect(throws: QuireError.self) { _ = try SubmissionStore(path: "mysql://u:pw@127.0.0.1/db") }
        #expect(PostgresAddress.mask("postgresql://u:p@ss@h:1/d") == "postgresql://u:***@h:1/d")
    }
}
