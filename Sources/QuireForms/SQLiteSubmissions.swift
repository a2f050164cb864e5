import Foundation
import GRDB
import InkModel

/// Submissions in one SQLite file: the default store, and the outbox of a PostgreSQL store,
/// where each record also has a row in `outbox` (in submission order) until it is forwarded,
/// and then only its id stays, in `sent`.
final class SQLiteSubmissions: Sendable {
    let path: String
    private let db: DatabaseQueue

    /// Opens (creating when missing) the file at `path`; with `createFolder`, its folder too.
    init(path p: String, createFolder: Bool) throws {
        guard !p.isEmpty, !p.contains("\0") else { throw QuireError(.invalidArgument, "the store path must not be empty") }
        path = URL(fileURLWithPath: p).standardizedFileURL.path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if createFolder { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw QuireError(.fileNotFound, "cannot use store '\(path)': folder '\(folder)' does not exist")
        }
        guard !(FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue) else {
            throw QuireError(.notAFile, "store '\(path)' is a directory")
        }
        do {
            var config = GRDB.Configuration()
            config.busyMode = .timeout(10)
            // Write-ahead log: a commit is one fsync of the log (synchronous stays FULL, so an
            // acknowledged record survives a power cut), not the several of a rollback journal.
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            db = try DatabaseQueue(path: path, configuration: config)
            try db.write { db in
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS submission (
                        id TEXT PRIMARY KEY NOT NULL, form TEXT NOT NULL, version TEXT NOT NULL,
                        time TEXT NOT NULL, timeMs INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS field (
                        submission TEXT NOT NULL REFERENCES submission(id) ON DELETE CASCADE,
                        position INTEGER NOT NULL, id TEXT NOT NULL, value TEXT NOT NULL,
                        valid INTEGER NOT NULL, candidates TEXT NOT NULL, ink TEXT NOT NULL,
                        svg TEXT, png BLOB, PRIMARY KEY (submission, id));
                    CREATE INDEX IF NOT EXISTS submission_time ON submission(timeMs);
                    CREATE TABLE IF NOT EXISTS outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT, submission TEXT UNIQUE NOT NULL, target TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS sent (
                        submission TEXT PRIMARY KEY NOT NULL, target TEXT NOT NULL, sentMs INTEGER NOT NULL);
                    """)
            }
        } catch let e as DatabaseError {
            throw QuireError(.ioError, "cannot use store '\(path)': \(e.message ?? e.description)")
        }
    }

    private func fail(_ what: String, _ e: DatabaseError) -> QuireError {
        QuireError(.ioError, "cannot \(what) store '\(path)': \(e.message ?? e.description)")
    }

    /// Stores a record unless its id is there (or was forwarded from here). With `target`, the
    /// record is also queued for forwarding there, in the same transaction. True when written.
    func save(_ s: Submission, queueFor target: String? = nil) throws -> Bool {
        do {
            return try db.write { db in
                let id = s.id.uuidString.lowercased()
                if try Int.fetchOne(db, sql: "SELECT 1 FROM submission WHERE id = ? UNION ALL SELECT 1 FROM sent WHERE submission = ?",
                                    arguments: [id, id]) != nil { return false }
                let ms = Int64((s.time.timeIntervalSince1970 * 1000).rounded())
                try db.execute(sql: "INSERT INTO submission (id, form, version, time, timeMs) VALUES (?, ?, ?, ?, ?)",
                               arguments: [id, s.formId, s.formVersion, s.timeString, ms])
                for (i, f) in s.fields.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO field (submission, position, id, value, valid, candidates, ink, svg, png)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, i, f.fieldId, try f.value.serialized(), f.valid,
                                         try JSONValue.array(f.candidates.map { .string($0) }).serialized(),
                                         try f.ink.serialized(), f.svg, f.png])
                }
                if let target {
                    try db.execute(sql: "INSERT INTO outbox (submission, target) VALUES (?, ?)", arguments: [id, target])
                }
                return true
            }
        } catch let e as DatabaseError {
            throw fail("write to", e)
        }
    }

    /// True when a record with this id is stored here or was forwarded from here.
    func contains(_ id: UUID) throws -> Bool {
        do {
            return try db.read { db in
                let s = id.uuidString.lowercased()
                return try Int.fetchOne(db, sql: "SELECT 1 FROM submission WHERE id = ? UNION ALL SELECT 1 FROM sent WHERE submission = ?",
                                        arguments: [s, s]) != nil
            }
        } catch let e as DatabaseError {
            throw fail("read", e)
        }
    }

    /// The stored records, oldest first; with `since`, those submitted at or after it.
    func submissions(since: Date? = nil) throws -> [Submission] {
        let sinceMs = since.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) } ?? Int64.min
        return try records(sql: "SELECT id, form, version, timeMs FROM submission WHERE timeMs >= ? ORDER BY timeMs, id", [sinceMs])
    }

    /// The records waiting to be forwarded to `target`, in the order they were submitted.
    func queued(for target: String, limit: Int) throws -> [Submission] {
        try records(sql: """
            SELECT s.id, s.form, s.version, s.timeMs FROM outbox o JOIN submission s ON s.id = o.submission
            WHERE o.target = ? ORDER BY o.seq LIMIT ?
            """, [target, limit])
    }

    /// How many records wait to be forwarded: to `target`, and to any other target.
    func queuedCount(for target: String) throws -> (here: Int, elsewhere: Int) {
        do {
            return try db.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE target = ?", arguments: [target]) ?? 0,
                 try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE target <> ?", arguments: [target]) ?? 0)
            }
        } catch let e as DatabaseError {
            throw fail("read", e)
        }
    }

    /// The record reached its target: its body leaves the outbox, its id stays in `sent` (so a
    /// retry of the same submission is still recognised without asking the network).
    func markForwarded(_ id: UUID, target: String) throws {
        do {
            try db.write { db in
                let s = id.uuidString.lowercased()
                try db.execute(sql: "DELETE FROM outbox WHERE submission = ?", arguments: [s])
                try db.execute(sql: "DELETE FROM submission WHERE id = ?", arguments: [s])
                try db.execute(sql: "INSERT OR IGNORE INTO sent (submission, target, sentMs) VALUES (?, ?, ?)",
                               arguments: [s, target, Int64(Date().timeIntervalSince1970 * 1000)])
            }
        } catch let e as DatabaseError {
            throw fail("write to", e)
        }
    }

    private func records(sql: String, _ arguments: StatementArguments) throws -> [Submission] {
        do {
            return try db.read { db in
                try Row.fetchAll(db, sql: sql, arguments: arguments).map { r in
                    let id: String = r["id"]
                    let fields = try Row.fetchAll(db, sql: "SELECT * FROM field WHERE submission = ? ORDER BY position", arguments: [id]).map { f in
                        FieldValue(fieldId: f["id"], value: try JSONValue.parse(Data((f["value"] as String).utf8)), valid: f["valid"],
                                   error: nil,
                                   candidates: (try JSONValue.parse(Data((f["candidates"] as String).utf8))).arrayValue?.compactMap(\.stringValue) ?? [],
                                   ink: try JSONValue.parse(Data((f["ink"] as String).utf8)), svg: f["svg"], png: f["png"])
                    }
                    return Submission(id: UUID(uuidString: id) ?? UUID(), formId: r["form"], formVersion: r["version"],
                                      time: Date(timeIntervalSince1970: Double(r["timeMs"] as Int64) / 1000), fields: fields)
                }
            }
        } catch let e as DatabaseError {
            throw fail("read", e)
        }
    }
}
