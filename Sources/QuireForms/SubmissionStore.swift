import Foundation
import InkModel

/// Where submitted forms are kept: an SQLite file, or a PostgreSQL server for a fleet of kiosks
/// (`postgresql://user:password@host:port/database`).
///
/// Either way each record is written in one transaction keyed by its submission id: writing the
/// same id again (a retry after a crash or a lost answer) leaves the one record there, never a
/// second. With PostgreSQL every record is first committed to a local SQLite outbox and then
/// forwarded in the background, so `save` never waits for the network: if the server is
/// unreachable the record waits in the outbox and is forwarded, in order and exactly once, at the
/// next save, by `sync()`, or by the store's own retries.
public final class SubmissionStore: Sendable {
    /// The SQLite file, or the PostgreSQL URL with its password masked.
    public let path: String
    /// The local outbox file of a PostgreSQL store; nil for an SQLite store.
    public let outboxPath: String?
    private let local: SQLiteSubmissions
    private let forwarder: OutboxForwarder?

    /// `$XDG_DATA_HOME/quire/submissions.sqlite` (`~/.local/share` when unset).
    public static var defaultPath: String { dataFolder.appendingPathComponent("submissions.sqlite").path }

    /// `$XDG_DATA_HOME/quire/outbox.sqlite`: the outbox of PostgreSQL stores.
    public static var defaultOutboxPath: String { dataFolder.appendingPathComponent("outbox.sqlite").path }

    private static var dataFolder: URL {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return URL(fileURLWithPath: base).appendingPathComponent("quire")
    }

    /// Opens (creating when missing) the store at `path`: an SQLite file, or a `postgresql://`
    /// URL. A PostgreSQL store is not contacted here; its outbox is opened.
    public convenience init(path: String? = nil) throws {
        try self.init(path: path, outbox: nil)
    }

    /// As `init(path:)`, with the outbox of a PostgreSQL store at `outbox` (default
    /// `defaultOutboxPath`; ignored for an SQLite store).
    public init(path: String?, outbox: String?) throws {
        let p = path ?? Self.defaultPath
        if PostgresAddress.isURL(p) {
            let address = try PostgresAddress(p)
            let o = outbox ?? Self.defaultOutboxPath
            local = try SQLiteSubmissions(path: o, createFolder: outbox == nil)
            self.path = address.masked
            outboxPath = local.path
            forwarder = OutboxForwarder(address: address, outbox: local)
        } else {
            guard !p.contains("://") else {
                throw QuireError(.invalidArgument, "store '\(PostgresAddress.mask(p))': a URL store must be postgresql://user:password@host:port/database")
            }
            local = try SQLiteSubmissions(path: p, createFolder: path == nil)
            self.path = local.path
            outboxPath = nil
            forwarder = nil
        }
    }

    /// True for a PostgreSQL store.
    public var isRemote: Bool { forwarder != nil }

    /// Stores a record unless one with its id is there; returns true when it wrote it. With
    /// PostgreSQL the record is committed to the outbox and forwarded in the background.
    @discardableResult
    public func save(_ s: Submission) throws -> Bool {
        guard let forwarder else { return try local.save(s) }
        let wrote = try local.save(s, queueFor: forwarder.address.masked)
        forwarder.forwardLater()
        return wrote
    }

    /// True when a record with this id is stored (for PostgreSQL: in the outbox, or forwarded
    /// from it; asks no server, so a retried submit never waits for the network).
    public func contains(_ id: UUID) throws -> Bool { try local.contains(id) }

    /// The stored records, oldest first; with `since`, those submitted at or after it. For
    /// PostgreSQL, the server's records (the outbox is forwarded first, so they are there too if
    /// the server is reachable); an unreachable server is an error.
    public func submissions(since: Date? = nil) throws -> [Submission] {
        guard let forwarder else { return try local.submissions(since: since) }
        _ = try? forwarder.forward()
        return try forwarder.withServer { try $0.submissions(since: since) }
    }

    /// Forwards the outbox to PostgreSQL now; returns how many records were sent. Throws (a
    /// message naming the URL, password masked) when the server cannot take them; nothing is
    /// lost then. An SQLite store has nothing to forward.
    @discardableResult
    public func sync() throws -> Int { try forwarder?.forward() ?? 0 }

    /// Records in the outbox waiting for this store's server.
    public func pendingCount() throws -> Int { try forwarder.map { try local.queuedCount(for: $0.address.masked).here } ?? 0 }

    /// Records in the outbox waiting for other PostgreSQL URLs (the kiosk was pointed elsewhere).
    public func pendingElsewhereCount() throws -> Int { try forwarder.map { try local.queuedCount(for: $0.address.masked).elsewhere } ?? 0 }

    /// Why the last forwarding failed (nil once one succeeded, or for SQLite).
    public var lastForwardingError: QuireError? { forwarder?.lastError }

    /// Waits for a background forwarding under way; bounded by the connect and statement
    /// timeouts. For a process about to exit.
    public func waitForForwarding() { forwarder?.waitUntilIdle() }
}
