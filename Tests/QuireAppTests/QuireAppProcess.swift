import Foundation
#if canImport(Glibc)
import Glibc
#endif
// Shared test helpers (TempDir, the repository, the built quire) for every file of this target.
@_exported import QuireTestSupport

/// The `quire` the app tests run: `$QUIRE_BINARY` when set (e.g. a stand-in while the window app
/// is being written), else the one built beside the test bundle.
func quireBinary() throws -> URL {
    if let env = ProcessInfo.processInfo.environment["QUIRE_BINARY"], !env.isEmpty {
        return URL(fileURLWithPath: env)
    }
    return try builtQuireBinary()
}

/// What `quire edit` prints once its first frame is on screen:
/// `quire: ready window=0x<hex> canvas=0x<hex> x=<int> y=<int> width=<int> height=<int> scale=<double>`
/// (x/y: the canvas in its top-level window).
struct ReadyLine: Equatable, Sendable {
    let window: UInt
    let canvas: UInt
    let x: Int
    let y: Int
    let width: Int
    let height: Int
    let scale: Double

    static let prefix = "quire: ready "

    init?(_ line: String) {
        guard line.hasPrefix(Self.prefix) else { return nil }
        var fields: [String: String] = [:]
        for token in line.dropFirst(Self.prefix.count).split(separator: " ") {
            let kv = token.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { return nil }
            fields[kv[0]] = kv[1]
        }
        func hex(_ key: String) -> UInt? {
            guard let v = fields[key], v.hasPrefix("0x") else { return nil }
            return UInt(v.dropFirst(2), radix: 16)
        }
        guard let window = hex("window"), let canvas = hex("canvas"),
              let x = fields["x"].flatMap({ Int($0) }), let y = fields["y"].flatMap({ Int($0) }),
              let width = fields["width"].flatMap({ Int($0) }), let height = fields["height"].flatMap({ Int($0) }),
              let scale = fields["scale"].flatMap({ Double($0) }) else { return nil }
        (self.window, self.canvas, self.x, self.y, self.width, self.height, self.scale) = (window, canvas, x, y, width, height, scale)
    }
}

/// Lines of a child's stdout, collected by a reader thread; waiters block on a condition.
final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var finished = false

    func append(_ line: String) { condition.lock(); lines.append(line); condition.broadcast(); condition.unlock() }
    func finish() { condition.lock(); finished = true; condition.broadcast(); condition.unlock() }

    var all: [String] { condition.lock(); defer { condition.unlock() }; return lines }

    /// The first line (from index `from` on) that matches, waiting until the deadline or EOF.
    func wait(from: Int = 0, timeout: Double, _ match: (String) -> Bool) -> (index: Int, line: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        var i = from
        while true {
            while i < lines.count {
                if match(lines[i]) { return (i, lines[i]) }
                i += 1
            }
            if finished || !condition.wait(until: deadline) { return nil }
        }
    }
}

/// A running `quire` (normally `quire edit FILE`) on a test X server.
final class QuireAppProcess {
    let pid: pid_t
    let arguments: [String]
    let stderrPath: String
    private let collector = LineCollector()
    private let server: XServer?
    private var exitStatus: ChildExit?
    private let logDir: TempDir

    /// `quire edit FILE [--kiosk] [--geometry WxH] [--latency-log PATH]` on `server`.
    static func edit(_ file: String, server: XServer, kiosk: Bool = false, geometry: (Int, Int)? = nil,
                     latencyLog: String? = nil, extraArguments: [String] = [],
                     environment: [String: String] = [:]) throws -> QuireAppProcess {
        var args = ["edit", file]
        if kiosk { args.append("--kiosk") }
        if let geometry { args += ["--geometry", "\(geometry.0)x\(geometry.1)"] }
        if let latencyLog { args += ["--latency-log", latencyLog] }
        return try QuireAppProcess(arguments: args + extraArguments, server: server, environment: environment)
    }

    init(arguments: [String], server: XServer?, display: String? = nil, environment: [String: String] = [:],
         binary: URL? = nil) throws {
        self.arguments = arguments
        self.server = server
        logDir = TempDir()
        stderrPath = logDir.path("stderr.txt")
        var env = ProcessInfo.processInfo.environment
        if let d = display ?? server?.display { env["DISPLAY"] = d }
        env.merge(environment) { $1 }
        let exe = try binary ?? quireBinary()
        let pipe = try CloexecPipe()
        do {
            pid = try spawnChild(exe.path, arguments, environment: env, stdout: .fd(pipe.write), stderr: .file(stderrPath))
        } catch {
            close(pipe.read); close(pipe.write)
            throw error
        }
        close(pipe.write)
        let fd = pipe.read
        let collector = self.collector
        let thread = Thread {
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let nl = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    collector.append(String(decoding: pending[pending.startIndex ..< nl], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex ... nl)
                }
            }
            if !pending.isEmpty { collector.append(String(decoding: pending, as: UTF8.self)) }
            collector.finish()
        }
        thread.start()
    }

    deinit {
        if exitStatus == nil {
            Glibc.kill(pid, SIGKILL)
            _ = waitChild(pid, timeout: 5)
        }
    }

    var stdoutLines: [String] { collector.all }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// The first stdout line that starts with `prefix`. Fails early if the app exits first.
    func waitForLine(prefix: String, timeout: Double = 30) throws -> String {
        if let hit = collector.wait(timeout: timeout, { $0.hasPrefix(prefix) }) { return hit.line }
        let state = exitStatus.map { "\($0)" } ?? (waitChild(pid, timeout: 0.5).map { exitStatus = $0; return "\($0)" } ?? "still running")
        throw HarnessError("quire \(arguments.joined(separator: " ")) printed no line starting with '\(prefix)' "
                           + "in \(timeout) s (\(state)).\nstdout:\n\(stdoutLines.joined(separator: "\n"))\nstderr:\n\(stderr.suffix(4000))")
    }

    /// The first stdout line after line `index` (0-based; -1: any) that `match` accepts, with its
    /// index. Fails early if the app exits first.
    func waitForLine(after index: Int, timeout: Double = 30, what: String, _ match: @escaping (String) -> Bool) throws -> (index: Int, line: String) {
        if let hit = collector.wait(from: index + 1, timeout: timeout, match) { return hit }
        throw HarnessError("quire \(arguments.joined(separator: " ")) printed no line with \(what) in \(timeout) s.\nstdout:\n"
                           + "\(stdoutLines.suffix(40).joined(separator: "\n"))\nstderr:\n\(stderr.suffix(4000))")
    }

    /// Waits for the ready line and parses it.
    func waitForReady(timeout: Double = 30) throws -> ReadyLine {
        let line = try waitForLine(prefix: ReadyLine.prefix, timeout: timeout)
        guard let ready = ReadyLine(line) else { throw HarnessError("malformed ready line: \(line)") }
        return ready
    }

    func signal(_ sig: Int32) { Glibc.kill(pid, sig) }
    func terminate() { signal(SIGTERM) }
    func kill() { signal(SIGKILL) }

    /// Exit status, or nil if it is still running after `timeout` seconds.
    @discardableResult
    func waitForExit(timeout: Double = 30) -> ChildExit? {
        if let exitStatus { return exitStatus }
        exitStatus = waitChild(pid, timeout: timeout)
        return exitStatus
    }

    var isRunning: Bool { waitForExit(timeout: 0) == nil }
}
