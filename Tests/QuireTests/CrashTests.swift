import Foundation
import Testing
import Quire

/// A child process grows a package, alternating save() and saveToTemp(), and is killed with SIGKILL
/// at random moments. After every kill the package must open and hold at least everything either
/// call reported written (saveToTemp content through recovery).
@Suite(.serialized) struct CrashTests {
    @Test func sigkillAtRandomMomentsLosesNothingReported() throws {
        let dir = TempDir()
        let engine = try Engine()
        var rng = SystemRandomNumberGenerator()
        var recoveries = 0, killedMidRun = 0, checkedWithContent = 0
        var path = dir.path("crash-0.iink")
        for round in 0..<200 {
            if round % 25 == 0 { path = dir.path("crash-\(round).iink") }  // bound the package size
            let p = Process()
            p.executableURL = try quireBinary()
            p.arguments = ["stress-save", path, "--strokes-per-round", "10"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Three rounds in four are killed at a random moment after the child's first report, so
            // that a slow start (a loaded machine, a sanitizer build) does not end them before
            // anything is written; the fourth from the start, which covers dying while the package
            // is being created.
            let head = round % 4 == 0 ? Data() : firstOutput(out.fileHandleForReading, timeout: 60)
            usleep(UInt32.random(in: 20_000...250_000, using: &rng))
            kill(p.processIdentifier, SIGKILL)
            let data = head + out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            if p.terminationReason == .uncaughtSignal { killedMidRun += 1 }
            var reported = 0
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let f = line.split(separator: " ")
                if f.count == 2, let n = Int(f[1]) { reported = max(reported, n) }
            }
            guard FileManager.default.fileExists(atPath: path) else {
                #expect(reported == 0, "round \(round): nothing reported written, so no file is fine")
                continue
            }
            let pkg = try engine.openPackage(path)
            let count = pkg.partCount > 0 ? try pkg.part(at: 0).model.strokes.count : 0
            #expect(count >= reported, "round \(round): package holds \(count) strokes, child reported \(reported)")
            if pkg.recoveredFromTemp { recoveries += 1 }
            if count > 0 { checkedWithContent += 1 }
            pkg.close()
        }
        #expect(killedMidRun > 150, "the child was really killed while running")
        #expect(recoveries > 20, "recovery from the temp folder was exercised (\(recoveries) times)")
        // A loaded machine starts the child slowly, so some rounds die before writing anything.
        #expect(checkedWithContent > 100, "only \(checkedWithContent) rounds had content to check")
    }

    /// The first bytes a child writes (empty if it writes nothing in `timeout` seconds or exits).
    private func firstOutput(_ handle: FileHandle, timeout: Double) -> Data {
        var p = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return Data() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(handle.fileDescriptor, &buffer, buffer.count)
        return n > 0 ? Data(buffer[0 ..< n]) : Data()
    }
}
