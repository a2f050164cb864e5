import Foundation
import GRDB
import InkModel

/// One submitted form: what `SubmissionStore` keeps and `quire form submissions` lists.
public struct Submission: Sendable, Equatable {
    public var id: UUID
    public var formId: String
    public var formVersion: String
    /// When it was submitted (whole milliseconds).
    public var time: Date
    /// Field values in the form's order.
    public var fields: [FieldValue]

    public init(id: UUID, formId: String, formVersion: String, time: Date, fields: [FieldValue]) {
        self.id = id; self.formId = formId; self.formVersion = formVersion; self.time = time; self.fields = fields
    }

    /// ISO 8601 with milliseconds, UTC.
    public var timeString: String { Self.format(time) }

    static func format(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: d)
    }

    /// Reads an ISO 8601 time, with or without fractional seconds, or a date alone (midnight UTC).
    public static func parseTime(_ s: String) -> Date? {
        let f = ISO8601DateFormatter()
        for o: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate]] {
            f.formatOptions = o
            if let d = f.date(from: s) { return d }
        }
        return nil
    }

    /// The `submissions` JSON of one record.
    public var json: JSONValue {
        var fs: [String: JSONValue] = [:]
        for f in fields {
            fs[f.fieldId] = .object(["value": f.value, "valid": .bool(f.valid), "candidates": .array(f.candidates.map { .string($0) })])
        }
        return .object(["submission": .string(id.uuidString.lowercased()), "form": .string(formId),
                        "version": .string(formVersion), "time": .string(timeString), "fields": .object(fs)])
    }
}

/// Submitted forms in an SQLite file. Each record is written in one transaction keyed by its
/// submission id: writing the same id again (a retry after a crash or a lost answer) leaves the
/// one record there, never a second.
public final class SubmissionStore {
    public let path: String
    private let db: DatabaseQueue

    /// `$XDG_DATA_HOME/quire/submissions.sqlite` (`~/.local/share` when unset).
    public static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return (base as NSString).appendingPathComponent("quire/submissions.sqlite")
    }

    /// Opens (creating when missing) the store at `path`; its folder is created for the default path.
    public init(path: String? = nil) throws {
        let p = path ?? Self.defaultPath
        guard !p.isEmpty, !p.contains("\0") else { throw QuireError(.invalidArgument, "the store path must not be empty") }
        guard !p.contains("://") else {
            throw QuireError(.invalidArgument, "store '\(p)': only an SQLite file path is supported so far (no URL)")
        }
        self.path = URL(fileURLWithPath: p).standardizedFileURL.path
        let folder = URL(fileURLWithPath: self.path).deletingLastPathComponent().path
        if path == nil { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw QuireError(.fileNotFound, "cannot use store '\(self.path)': folder '\(folder)' does not exist")
        }
        guard !(FileManager.default.fileExists(atPath: self.path, isDirectory: &isDir) && isDir.boolValue) else { throw QuireError(.notAFile, "store '\(self.path)' is a directory") }
        do {
            var config = GRDB.Configuration()
            config.busyMode = .timeout(10)
            // Write-ahead log: a commit is one fsync of the log (synchronous stays FULL, so an
            // acknowledged record survives a power cut), not the several of a rollback journal.
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            db = try DatabaseQueue(path: self.path, configuration: config)
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
                    """)
            }
        } catch let e as DatabaseError {
            throw QuireError(.ioError, "cannot use store '\(self.path)': \(e.message ?? e.description)")
        }
    }

    /// Stores a record unless one with its id is there. Returns true when it wrote it.
    @discardableResult
    public func save(_ s: Submission) throws -> Bool {
        do {
            return try db.write { db in
                let id = s.id.uuidString.lowercased()
                if try Int.fetchOne(db, sql: "SELECT 1 FROM submission WHERE id = ?", arguments: [id]) != nil { return false }
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
                return true
            }
        } catch let e as DatabaseError {
            throw QuireError(.ioError, "cannot write to store '\(path)': \(e.message ?? e.description)")
        }
    }

    /// True when a record with this id is stored.
    public func contains(_ id: UUID) throws -> Bool {
        do {
            return try db.read { db in
                try Int.fetchOne(db, sql: "SELECT 1 FROM submission WHERE id = ?", arguments: [id.uuidString.lowercased()]) != nil
            }
        } catch let e as DatabaseError {
            throw QuireError(.ioError, "cannot read store '\(path)': \(e.message ?? e.description)")
        }
    }

    /// The stored records, oldest first; with `since`, those submitted at or after it.
    public func submissions(since: Date? = nil) throws -> [Submission] {
        do {
            return try db.read { db in
                let sinceMs = since.map { Int64(($0.timeIntervalSince1970 * 1000).rounded(.down)) } ?? Int64.min
                let rows = try Row.fetchAll(db, sql: "SELECT id, form, version, timeMs FROM submission WHERE timeMs >= ? ORDER BY timeMs, id",
                                            arguments: [sinceMs])
                return try rows.map { r in
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
            throw QuireError(.ioError, "cannot read store '\(path)': \(e.message ?? e.description)")
        }
    }
}
