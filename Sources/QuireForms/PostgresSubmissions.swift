import Foundation
import InkModel
import Logging
import PostgresNIO

/// A `postgresql://user:password@host:port/database?sslmode=…&connect_timeout=…` store address.
struct PostgresAddress: Sendable, Equatable {
    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    /// `disable`, `prefer` (default), `require` (TLS, certificate not checked, as libpq does) or
    /// `verify-full` (TLS, certificate and host name checked).
    var sslMode: String
    /// Seconds for the TCP connection and the login, together.
    var connectTimeout: Double
    /// The address without its password: for messages and the outbox's target column.
    var masked: String

    static func isURL(_ s: String) -> Bool {
        let l = s.lowercased()
        return l.hasPrefix("postgresql://") || l.hasPrefix("postgres://")
    }

    init(_ url: String) throws {
        // The message never repeats the URL as given: it may hold the password.
        func bad(_ why: String) -> QuireError {
            QuireError(.invalidArgument, "PostgreSQL store URL \(Self.mask(url)): \(why) (postgresql://user:password@host:port/database)")
        }
        guard Self.isURL(url), let c = URLComponents(string: url) else { throw bad("not a valid URL") }
        guard let h = c.host, !h.isEmpty else { throw bad("no host") }
        host = h.hasPrefix("[") && h.hasSuffix("]") ? String(h.dropFirst().dropLast()) : h
        port = c.port ?? 5432
        guard (1...65535).contains(port) else { throw bad("port \(port) is out of range") }
        let env = ProcessInfo.processInfo.environment
        user = c.percentEncodedUser?.removingPercentEncoding ?? env["USER"] ?? "postgres"
        password = c.percentEncodedPassword?.removingPercentEncoding
        let db = String(c.path.drop { $0 == "/" })
        database = db.isEmpty ? user : (db.removingPercentEncoding ?? db)
        sslMode = "prefer"
        connectTimeout = 3
        for q in c.queryItems ?? [] {
            switch q.name {
            case "sslmode":
                guard let v = q.value, ["disable", "prefer", "require", "verify-full"].contains(v) else {
                    throw bad("sslmode must be disable, prefer, require or verify-full")
                }
                sslMode = v
            case "connect_timeout":
                guard let v = q.value.flatMap(Double.init), v > 0, v <= 600 else { throw bad("connect_timeout must be seconds, 0 to 600") }
                connectTimeout = v
            default: throw bad("unknown parameter '\(q.name)' (sslmode, connect_timeout)")
            }
        }
        masked = Self.mask(url)
    }

    /// The URL with its password, if any, replaced by `***`.
    static func mask(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@") else { return url }
        let userinfo = url[scheme.upperBound..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }
}

/// Submissions in PostgreSQL, over one connection. Each record is one transaction keyed by its
/// submission id (`INSERT … ON CONFLICT DO NOTHING`): sending it again writes nothing. The tables
/// (`quire_submission`, `quire_field`) are created on first use.
final class PostgresSubmissions: Sendable {
    let address: PostgresAddress
    private let connection: PostgresConnection
    private let logger: Logger
    /// Seconds any one statement may take before the connection is given up.
    static let statementTimeout = 15.0

    private init(address: PostgresAddress, connection: PostgresConnection, logger: Logger) {
        self.address = address; self.connection = connection; self.logger = logger
    }

    /// Connects and logs in, within the address's connect timeout, and creates the tables if needed.
    static func connect(_ a: PostgresAddress) throws -> PostgresSubmissions {
        let logger = Logger(label: "quire.forms.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch a.sslMode {
            case "disable": tls = .disable
            case "verify-full": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            default:
                var t = TLSConfiguration.makeClientConfiguration()
                t.certificateVerification = .none
                let ctx = try NIOSSLContext(configuration: t)
                tls = a.sslMode == "require" ? .require(ctx) : .prefer(ctx)
            }
        } catch {
            throw QuireError(.ioError, "PostgreSQL store \(a.masked): cannot set up TLS: \(error)")
        }
        var config = PostgresConnection.Configuration(host: a.host, port: a.port, username: a.user, password: a.password,
                                                      database: a.database, tls: tls)
        config.options.connectTimeout = .milliseconds(Int64(a.connectTimeout * 1000))
        let future = PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.any(), configuration: config, id: 1, logger: logger)
        let conn: PostgresConnection
        do {
            // The login too is bounded: a server that accepts the connection and then says
            // nothing must not hold the caller.
            conn = try Self.wait(future, seconds: a.connectTimeout + 0.5) {
                future.whenSuccess { late in
                    // Kept until closed: an open connection must not go away.
                    let closing: EventLoopFuture<Void> = late.close()
                    closing.whenComplete { _ in withExtendedLifetime(late) {} }
                }
            }
        } catch {
            throw Self.describe(error, "cannot connect to PostgreSQL at \(a.masked)")
        }
        let store = PostgresSubmissions(address: a, connection: conn, logger: logger)
        do {
            try store.createTables()
        } catch {
            store.close()
            throw error
        }
        return store
    }

    /// Closes the connection and waits (boundedly) until it is closed: a connection must not
    /// go away while still open.
    func close() {
        let closing: EventLoopFuture<Void> = connection.close()
        _ = try? Self.wait(closing, seconds: 5) {}
    }

    var isClosed: Bool { connection.isClosed }

    private func createTables() throws {
        // Under an advisory lock: kiosks starting together must not race on CREATE TABLE.
        try transaction {
            try run("SELECT pg_advisory_xact_lock(727021)")
            try run("""
                CREATE TABLE IF NOT EXISTS quire_submission (
                    id UUID PRIMARY KEY, form TEXT NOT NULL, version TEXT NOT NULL, time TIMESTAMPTZ NOT NULL,
                    time_ms BIGINT NOT NULL, arrival BIGSERIAL NOT NULL, received TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
            try run("""
                CREATE TABLE IF NOT EXISTS quire_field (
                    submission UUID NOT NULL REFERENCES quire_submission(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL, id TEXT NOT NULL, value JSONB NOT NULL, valid BOOLEAN NOT NULL,
                    candidates JSONB NOT NULL, ink JSONB NOT NULL, svg TEXT, png BYTEA, PRIMARY KEY (submission, id))
                """)
            try run("CREATE INDEX IF NOT EXISTS quire_submission_time ON quire_submission (time_ms, arrival)")
        }
    }

    /// Stores a record unless its id is there. True when it wrote it.
    func save(_ s: Submission) throws -> Bool {
        let ms = Int64((s.time.timeIntervalSince1970 * 1000).rounded())
        return try transaction {
            let r = try run("""
                INSERT INTO quire_submission (id, form, version, time, time_ms)
                VALUES (\(s.id), \(s.formId), \(s.formVersion), \(s.time), \(ms)) ON CONFLICT (id) DO NOTHING
                """)
            guard r.metadata.rows == 1 else { return false }
            for (i, f) in s.fields.enumerated() {
                let value = try f.value.serialized(), ink = try f.ink.serialized()
                let candidates = try JSONValue.array(f.candidates.map { .string($0) }).serialized()
                try run("""
                    INSERT INTO quire_field (submission, position, id, value, valid, candidates, ink, svg, png)
                    VALUES (\(s.id), \(i), \(f.fieldId), \(value)::jsonb, \(f.valid), \(candidates)::jsonb, \(ink)::jsonb, \(f.svg), \(f.png))
                    """)
            }
            return true
        }
    }

    func contains(_ id: UUID) throws -> Bool {
        try !run("SELECT 1 FROM quire_submission WHERE id = \(id)").rows.isEmpty
    }

    /// The stored records, oldest first (then in order of arrival); with `since`, at or after it.
    func submissions(since: Date? = nil) throws -> [Submission] {
        let sinceMs = since.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) } ?? Int64.min
        var fields: [UUID: [FieldValue]] = [:]
        for row in try run("""
            SELECT f.submission, f.id, f.value::text, f.valid, f.candidates::text, f.ink::text, f.svg, f.png
            FROM quire_field f JOIN quire_submission s ON s.id = f.submission
            WHERE s.time_ms >= \(sinceMs) ORDER BY f.submission, f.position
            """).rows {
            let (sid, id, value, valid, candidates, ink, svg, png) = try row.decode((UUID, String, String, Bool, String, String, String?, Data?).self)
            fields[sid, default: []].append(FieldValue(
                fieldId: id, value: try JSONValue.parse(Data(value.utf8)), valid: valid, error: nil,
                candidates: try JSONValue.parse(Data(candidates.utf8)).arrayValue?.compactMap(\.stringValue) ?? [],
                ink: try JSONValue.parse(Data(ink.utf8)), svg: svg, png: png))
        }
        return try run("SELECT id, form, version, time_ms FROM quire_submission WHERE time_ms >= \(sinceMs) ORDER BY time_ms, arrival").rows.map { row in
            let (id, form, version, ms) = try row.decode((UUID, String, String, Int64).self)
            return Submission(id: id, formId: form, formVersion: version, time: Date(timeIntervalSince1970: Double(ms) / 1000),
                              fields: fields[id] ?? [])
        }
    }

    private func transaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN")
        do {
            let r = try body()
            try run("COMMIT")
            return r
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    @discardableResult
    private func run(_ q: PostgresQuery) throws -> PostgresQueryResult {
        do {
            let c = connection
            return try Self.wait(connection.query(q, logger: logger), seconds: Self.statementTimeout) {
                let closing: EventLoopFuture<Void> = c.close()
                closing.whenComplete { _ in withExtendedLifetime(c) {} }
            }
        } catch {
            throw Self.describe(error, "PostgreSQL store \(address.masked)")
        }
    }

    /// Waits for a future at most `seconds`; past that, calls `onTimeout` and throws.
    private static func wait<T: Sendable>(_ f: EventLoopFuture<T>, seconds: Double, onTimeout: @Sendable () -> Void) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        f.whenComplete { box.set($0); done.signal() }
        guard done.wait(timeout: .now() + seconds) == .success else {
            onTimeout()
            throw QuireError(.ioError, String(format: "no answer within %.1f s", seconds))
        }
        return try box.get()
    }

    /// A clear message: the server's own words (e.g. "password authentication failed for user
    /// …") and SQLSTATE, or the network's; PSQLError's own description says nothing on purpose.
    static func describe(_ error: any Error, _ context: String) -> QuireError {
        if let q = error as? QuireError { return q.message.hasPrefix(context) ? q : QuireError(q.code, "\(context): \(q.message)") }
        guard let p = error as? PSQLError else { return QuireError(.ioError, "\(context): \(error)") }
        if let info = p.serverInfo, let message = info[.message] {
            return QuireError(.ioError, "\(context): \(message)" + (info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""))
        }
        let why = p.underlying.map { "\($0)" } ?? "\(p.code)"
        return QuireError(.ioError, "\(context): \(why)")
    }
}

/// One result handed from an event loop to the waiting thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ r: Result<T, any Error>) { lock.withLock { result = r } }

    func get() throws -> T {
        guard let r = lock.withLock({ result }) else { throw QuireError(.ioError, "no result") }
        return try r.get()
    }
}
