import ArgumentParser
import Foundation
import Quire
import QuireApp
import QuireForms

/// `quire bench forms`: headless figures for kiosk forms, on real handwriting.
struct BenchForms: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "forms",
        abstract: "Time from a field's last pen-up to its value and to its value on the kiosk screen (p50/p95), and submit time to SQLite and PostgreSQL, on real handwriting.",
        discussion: """
            --ink: JSON lines of the shared format with words and numbers, e.g. Tests/QuireFormsTests/Fixtures/writer-apple-fbf3215eb1.jsonl.gz.
            --postgres: a server to submit to as well (records go into its quire_submission table), e.g. a local one (docs/FORMS.md).
            """)
    @Option(help: "Handwriting samples (.jsonl or .jsonl.gz) with words and numbers.") var ink: String
    @Option(help: "Forms filled and submitted.") var runs = 50
    @Option(help: "Also submit to this PostgreSQL store (postgresql://user:password@host:port/database).") var postgres: String?

    static let spec = #"""
        {"id": "bench", "version": 1, "title": "Bench", "fields": [
          {"id": "name", "kind": "text"}, {"id": "tracking", "kind": "number"}, {"id": "signature", "kind": "signature"}]}
        """#

    func run() throws {
        try runReporting {
            guard (1...100_000).contains(runs) else { throw QuireError(.invalidArgument, "--runs must be 1...100000") }
            let records = try JSONLinesInk.read(path: ink, limit: 100_000)
            let words = records.filter { $0.label.count > 1 && $0.label.allSatisfy(\.isLetter) }
            let numbers = records.filter { !$0.label.isEmpty && $0.label.allSatisfy(\.isNumber) }
            guard !words.isEmpty, !numbers.isEmpty else {
                throw QuireError(.invalidArgument, "'\(ink)' needs samples of words (letters) and of numbers (digits)")
            }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bench-forms-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let form = try Form.create(path: dir.appendingPathComponent("bench.iink").path,
                                       spec: try FormSpec.parse(Data(Self.spec.utf8)), engine: try Engine())
            defer { form.close() }
            let store = try SubmissionStore(path: dir.appendingPathComponent("bench.sqlite").path)
            let remote = try postgres.map { try SubmissionStore(path: $0, outbox: dir.appendingPathComponent("outbox.sqlite").path) }
            if let remote { try remote.sync() }  // connects, creates the tables: not part of a submit
            var text: [Double] = [], number: [Double] = [], submit: [Double] = [], remoteSubmit: [Double] = [], forwarded: [Double] = []
            for i in 0..<runs {
                // Each write ends with the sample's last pen-up; the clock starts there.
                try form.write(words[i % words.count], into: "name")
                text.append(try ms { _ = try form.value("name") })
                try form.write(numbers[i % numbers.count], into: "tracking")
                number.append(try ms { _ = try form.value("tracking") })
                try form.write(words[(i + 1) % words.count], into: "signature")
                try form.waitForIdle()
                guard let remote, i % 2 == 1 else {
                    submit.append(try ms { try form.submit(to: store); try form.finishSubmission() })
                    continue
                }
                // The kiosk's submit returns once the outbox holds the record; the forwarding
                // goes on in the background, and is timed until the server has committed it.
                let start = DispatchTime.now()
                try form.submit(to: remote); try form.finishSubmission()
                remoteSubmit.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
                remote.waitForForwarding()
                forwarded.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
                if let e = remote.lastForwardingError { throw e }
            }
            // The kiosk window's path: results applied as they arrive, the value read, the screen painted.
            let screen = try KioskScreenBenchmark(form: form)
            var textScreen: [Double] = [], numberScreen: [Double] = []
            for i in 0..<runs {
                form.clear()
                try form.waitForIdle()
                _ = try screen.msToScreen("name")
                try form.write(words[i % words.count], into: "name")
                textScreen.append(try screen.msToScreen("name"))
                try form.write(numbers[i % numbers.count], into: "tracking")
                numberScreen.append(try screen.msToScreen("tracking"))
            }
            func line(_ what: String, _ xs: [Double]) {
                print(String(format: "%@: p50 %.1f ms, p95 %.1f ms (%d runs)", what, median(xs), percentile(xs, 0.95), xs.count))
            }
            line("text field, last pen-up to value", text)
            line("number field, last pen-up to value", number)
            line("text field, last pen-up to value on the kiosk screen", textScreen)
            line("number field, last pen-up to value on the kiosk screen", numberScreen)
            line("submit to SQLite (values, SVG/PNG, record, clear, package save)", submit)
            if postgres != nil {
                line("submit to PostgreSQL, until the outbox holds it (what the kiosk waits for)", remoteSubmit)
                line("submit to PostgreSQL, until the server committed it", forwarded)
            } else {
                print("PostgreSQL: not measured (give --postgres postgresql://…)")
            }
        }
    }
}
