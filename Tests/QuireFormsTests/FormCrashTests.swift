import Foundation
import InkModel
import Testing
@testable import QuireForms

/// `quire form submit` is killed with SIGKILL at random moments, then run again as a kiosk or a
/// script would; every submission acknowledged (its id printed, by either run) must be stored
/// exactly once, and nothing else. QUIRE_FORM_CRASH_ROUNDS sets the rounds (default 30; the issue's
/// figure is 200).
@Suite(.serialized) struct FormCrashTests {
    @Test func sigkillAtRandomMomentsStoresEveryAcknowledgedRecordExactlyOnce() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["QUIRE_FORM_CRASH_ROUNDS"] ?? "") ?? 30
        let dir = TempDir(prefix: "quire-form-crash")
        let template = dir.path("filled.iink"), path = dir.path("form.iink"), store = dir.path("s.sqlite")
        do {
            let form = try Form.create(path: template, spec: try FormSpec.parse(Data(FormSubmitTests.spec.utf8)), engine: try Engine())
            try FormSubmitTests().fill(form)
            try form.waitForIdle()
            try form.save()
            form.close()
        }
        func submit(killAfter microseconds: UInt32?) throws -> (id: String?, killed: Bool, seconds: Double) {
            let p = Process()
            p.executableURL = try builtQuireBinary()
            p.arguments = ["form", "submit", path, "--store", store]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            let start = Date()
            try p.run()
            if let microseconds {
                usleep(microseconds)
                if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let id = (try? JSONValue.parse(data))?["submission"]?.stringValue
            return (id, p.terminationReason == .uncaughtSignal, Date().timeIntervalSince(start))
        }
        var acknowledged: [String] = []
        var killed = 0, retried = 0
        var rng = SystemRandomNumberGenerator()
        var runTime = 0.5
        for round in 0..<rounds {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + "-files")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            // The first round runs whole, and every run that finishes updates the estimate, so the kills
            // stay spread over a whole run when the machine's load changes during the test.
            let first = try submit(killAfter: round == 0 ? nil : UInt32.random(in: 0...UInt32(runTime * 900_000), using: &rng))
            if round == 0 { runTime = first.seconds } else if !first.killed { runTime = 0.5 * runTime + 0.5 * first.seconds }
            if first.killed { killed += 1 }
            var id = first.id
            if id == nil {
                retried += 1
                let again = try submit(killAfter: nil)
                runTime = 0.5 * runTime + 0.5 * again.seconds
                #expect(!again.killed && again.id != nil, "round \(round): the retry must finish and acknowledge")
                id = again.id
            }
            if let id { acknowledged.append(id) }
        }
        let stored = try SubmissionStore(path: store).submissions().map { $0.id.uuidString.lowercased() }
        #expect(stored.count == rounds, "\(stored.count) records for \(rounds) rounds")
        #expect(Set(stored).count == stored.count, "a record was stored twice")
        #expect(Set(stored) == Set(acknowledged) && acknowledged.count == rounds)
        #expect(killed > rounds / 3, "only \(killed) of \(rounds) runs were really killed")
        #expect(retried > 0)
    }
}
