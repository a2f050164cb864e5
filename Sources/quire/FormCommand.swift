import ArgumentParser
import Foundation
import Quire
import QuireApp
import QuireForms

/// `quire form …`: kiosk forms without a window (create, write ink, read values, submit, list).
/// The names and JSON shapes are a contract (issue 21): scripts outside the project use them.
struct FormCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "form", abstract: "Kiosk forms: create one from a spec, write ink into fields, read values, submit, list submissions.",
        subcommands: [FormNewCommand.self, FormWriteCommand.self, FormValuesCommand.self, FormSubmitCommand.self, FormSubmissionsCommand.self,
                      FormRunCommand.self, FormSyncCommand.self])

    /// Whether `path` is a form package (read with the window's engine, so its working state goes
    /// where the window's does).
    static func isForm(_ path: String) -> Bool {
        guard let engine = try? makeAppEngine(warn: { _ in }) else { return false }
        return Form.isForm(path: path, engine: engine)
    }
}

struct FormRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Open the form full screen for people to fill in (a kiosk); only app.kiosk.exit-chord leaves.",
        discussion: "Needs an X display (DISPLAY). Each submission is stored as one record (see `quire form submissions`).")
    @Argument(help: "The form package.") var file: String
    @OptionGroup var store: StoreOption
    @Option(help: "A window of WIDTHxHEIGHT pixels instead of the whole screen (to try a form on a desktop).") var geometry: String?
    @Option(help: "X display (default: $DISPLAY).") var display: String?

    func run() throws {
        guard FormCommand.isForm(file) else {
            throw ValidationError("'\(file)' is not a form package; create one with quire form new FORM.iink --spec SPEC.json")
        }
        var k = KioskOptions(file: file)
        k.store = store.store
        k.display = display
        k.windowSize = try geometry.map(EditCommand.size)
        let status = QuireKiosk.run(k)
        if status != 0 { throw ExitCode(status) }
    }
}

struct FormNewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a form package from a JSON spec.")
    @Argument(help: "The form package to create (must not exist).") var file: String
    @Option(help: "The form's JSON spec.") var spec: String

    func run() throws {
        try runReporting {
            let parsed = try FormSpec.parse(try FileIO.readFile(spec, maxBytes: 4 << 20), source: spec)
            let form = try Form.create(path: file, spec: parsed, engine: try Engine())
            defer { form.close() }
            print("created form '\(parsed.id)' (version \(parsed.version), \(parsed.fields.count) fields) in \(form.package.path)")
        }
    }
}

struct FormWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write", abstract: "Write one handwriting sample into a field, after what is there, as pen input.")
    @Argument(help: "The form package.") var file: String
    @Option(help: "The field's id.") var field: String
    @Option(help: "A file of the shared JSON-lines handwriting format (.jsonl or .jsonl.gz).") var ink: String
    @Option(help: "The sample's 0-based line in the file.") var sample = 0

    func run() throws {
        try runReporting {
            guard (0...100_000_000).contains(sample) else { throw QuireError(.invalidArgument, "--sample must be from 0 to 100000000") }
            let records = try JSONLinesInk.read(path: ink, limit: sample + 1)
            guard sample < records.count else {
                throw QuireError(.invalidArgument, "'\(ink)' has \(records.count) sample\(records.count == 1 ? "" : "s"); --sample \(sample) is not one of them")
            }
            let form = try Form.open(path: file, engine: try Engine())
            defer { form.close() }
            try form.write(records[sample], into: field)
            try form.waitForIdle()
            try form.save()
            let v = try form.values().first { $0.fieldId == field }!
            print("wrote sample \(sample) ('\(records[sample].label)') into field '\(field)': \(FormValuesCommand.show(v))")
        }
    }
}

struct FormValuesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "values", abstract: "Each field's value, validity and candidates.")
    @Argument(help: "The form package.") var file: String
    @Flag(help: "JSON: {\"form\", \"complete\", \"fields\": {ID: {\"value\", \"valid\", \"error\", \"candidates\"}}}.") var json = false

    static func show(_ v: FieldValue) -> String {
        var s: String
        switch v.value {
        case .null: s = "(empty)"
        case .bool(let b): s = b ? "ticked" : "not ticked"
        case .string(let t): s = v.svg != nil ? "(ink, \(v.ink["strokes"]?.arrayValue?.count ?? 0) strokes)" : "\"\(t)\""
        default: s = "\(v.value)"
        }
        if let e = v.error { s += "  INVALID: \(e)" }
        return s
    }

    func run() throws {
        try runReporting {
            let form = try Form.open(path: file, engine: try Engine())
            defer { form.close() }
            let values = try form.values()
            if json {
                var fields: [String: JSONValue] = [:]
                for v in values { fields[v.fieldId] = v.json }
                print(try JSONValue.object(["form": .string(form.spec.id), "complete": .bool(form.isComplete(values)),
                                            "fields": .object(fields)]).serialized(pretty: true))
            } else {
                print("\(form.spec.title) (\(form.spec.id), version \(form.spec.version)): \(form.isComplete(values) ? "complete" : "not complete")")
                for (f, v) in zip(form.spec.fields, values) { print("  \(f.id) [\(f.kind.rawValue)] \(f.label): \(Self.show(v))") }
            }
        }
    }
}

struct StoreOption: ParsableArguments {
    @Option(help: ArgumentHelp("The SQLite file of submissions (default: $XDG_DATA_HOME/quire/submissions.sqlite), or postgresql://user:password@host:port/database.",
                               discussion: "With PostgreSQL each record is first committed to the local outbox ($XDG_DATA_HOME/quire/outbox.sqlite) and then forwarded."))
    var store: String?
    func open() throws -> SubmissionStore { try SubmissionStore(path: store) }

    /// After a submit to PostgreSQL: waits for the forwarding under way and says, on standard
    /// error, if the record had to stay in the outbox.
    static func reportForwarding(_ db: SubmissionStore) {
        guard db.isRemote else { return }
        db.waitForForwarding()
        guard let pending = try? db.pendingCount(), pending > 0 else { return }
        let why = db.lastForwardingError.map { $0.message } ?? "not forwarded yet"
        FileHandle.standardError.write(Data(("quire: stored locally; \(pending) record\(pending == 1 ? "" : "s") wait\(pending == 1 ? "s" : "") in the outbox \(db.outboxPath ?? "") "
            + "for \(db.path) (\(why)); forwarded at the next submit or by quire form sync\n").utf8))
    }
}

struct FormSubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Validate the form, store it as one record, print {\"submission\": UUID}, clear the form.")
    @Argument(help: "The form package.") var file: String
    @OptionGroup var store: StoreOption

    func run() throws {
        try runReporting {
            let db = try store.open()
            let form = try Form.open(path: file, engine: try Engine())
            defer { form.close() }
            let id = try form.submit(to: db)
            // Written unbuffered before the id is forgotten: a submit killed in between, run
            // again, prints the same id (see Form.submit).
            FileHandle.standardOutput.write(Data((try JSONValue.object(["submission": .string(id.uuidString.lowercased())]).serialized() + "\n").utf8))
            try form.finishSubmission()
            StoreOption.reportForwarding(db)
        }
    }
}

struct FormSubmissionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "submissions", abstract: "List the stored submissions.")
    @OptionGroup var store: StoreOption
    @Flag(help: "A JSON array of {\"submission\", \"form\", \"time\", \"fields\"}.") var json = false
    @Flag(help: "CSV: one row per submission, one column per field id.") var csv = false
    @Option(help: "Only submissions at or after this ISO 8601 time (or date).") var since: String?

    func run() throws {
        try runReporting {
            guard !(json && csv) else { throw QuireError(.invalidArgument, "--json and --csv exclude each other") }
            var from: Date?
            if let since {
                guard let d = Submission.parseTime(since) else {
                    throw QuireError(.invalidArgument, "--since '\(since)' is not an ISO 8601 time, e.g. 2026-11-23T09:00:00Z or 2026-11-23")
                }
                from = d
            }
            let all = try store.open().submissions(since: from)
            if json {
                print(try JSONValue.array(all.map(\.json)).serialized(pretty: true))
            } else if csv {
                var columns: [String] = []
                for s in all { for f in s.fields where !columns.contains(f.fieldId) { columns.append(f.fieldId) } }
                print((["submission", "form", "version", "time"] + columns).map(Self.csvField).joined(separator: ","))
                for s in all {
                    let byId = Dictionary(s.fields.map { ($0.fieldId, $0) }, uniquingKeysWith: { a, _ in a })
                    let cells = columns.map { c -> String in
                        switch byId[c]?.value {
                        case .string(let t)?: byId[c]?.svg != nil ? "(ink)" : t
                        case .bool(let b)?: b ? "true" : "false"
                        default: ""
                        }
                    }
                    print(([s.id.uuidString.lowercased(), s.formId, s.formVersion, s.timeString] + cells).map(Self.csvField).joined(separator: ","))
                }
            } else {
                for s in all {
                    let summary = s.fields.map { "\($0.fieldId)=\(FormValuesCommand.show($0))" }.joined(separator: ", ")
                    print("\(s.timeString) \(s.id.uuidString.lowercased()) \(s.formId) v\(s.formVersion): \(summary)")
                }
                if all.isEmpty { print("no submissions") }
            }
        }
    }

    static func csvField(_ s: String) -> String {
        s.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
}

struct FormSyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Forward the records waiting in the outbox to the PostgreSQL store, in order.")
    @OptionGroup var store: StoreOption

    func run() throws {
        try runReporting {
            let db = try store.open()
            guard db.isRemote else { print("\(db.path) is an SQLite store: nothing to forward"); return }
            let sent = try db.sync()
            print("forwarded \(sent) record\(sent == 1 ? "" : "s") to \(db.path); none waiting")
            let elsewhere = try db.pendingElsewhereCount()
            if elsewhere > 0 {
                print("\(elsewhere) other record\(elsewhere == 1 ? "" : "s") in \(db.outboxPath ?? "the outbox") wait for another PostgreSQL URL")
            }
        }
    }
}
