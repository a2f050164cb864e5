import Foundation
import InkModel

/// `forms.on-submit`: a command that receives each stored record as JSON on its standard input,
/// for integration with anything else. The command is a program and its arguments (a JSON array
/// of strings, or one string naming the program alone), run without a shell; a bare name is
/// looked up in `PATH`. It runs after the record is stored, off the caller's thread, one at a
/// time in submission order, with `forms.on-submit-timeout-seconds` (default 10) before it is
/// stopped. Its failure (not found, non-zero exit, killed, timed out) is logged and changes
/// nothing: the record is already stored.
public final class SubmitHook: Sendable {
    public let command: [String]
    public let timeout: Double
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "quire.forms.on-submit")

    /// The hook configured in `configuration`, or nil when `forms.on-submit` is unset or empty.
    /// `log` receives each failure in words (default: standard error).
    public static func configured(in configuration: ParameterSet,
                                  log: @escaping @Sendable (String) -> Void = SubmitHook.logToStandardError) throws -> SubmitHook? {
        var command: [String]
        if let a = try? configuration.getStringArray("forms.on-submit", default: []) {
            command = a
        } else {
            do { command = [try configuration.getString("forms.on-submit", default: "")] } catch {
                throw QuireError(.typeMismatch, "forms.on-submit must be a command: a string or an array of strings")
            }
        }
        command = command.first?.isEmpty == true && command.count == 1 ? [] : command
        guard let program = command.first else { return nil }
        guard !program.isEmpty, !command.contains(where: { $0.contains("\0") }) else {
            throw QuireError(.invalidArgument, "forms.on-submit: the program name must not be empty")
        }
        let t = try configuration.getNumber("forms.on-submit-timeout-seconds", default: 10)
        guard t > 0, t <= 3600 else { throw QuireError(.invalidArgument, "forms.on-submit-timeout-seconds must be from 0 to 3600") }
        return SubmitHook(command: command, timeout: t, log: log)
    }

    public init(command: [String], timeout: Double, log: @escaping @Sendable (String) -> Void = SubmitHook.logToStandardError) {
        self.command = command; self.timeout = timeout; self.log = log
    }

    @Sendable public static func logToStandardError(_ message: String) {
        FileHandle.standardError.write(Data("quire: \(message)\n".utf8))
    }

    /// Runs the command for `record` in the background; returns at once.
    public func send(_ record: JSONValue) {
        queue.async { self.run(record) }
    }

    /// Waits until every record sent so far has been handed to the command (each bounded by
    /// the timeout).
    public func wait() { queue.sync {} }

    private func run(_ record: JSONValue) {
        let name = "forms.on-submit '\(command[0])'"
        guard let data = try? Data(record.serialized().utf8) else { return log("\(name): the record could not be written as JSON") }
        guard let exe = Self.resolve(command[0]) else { return log("\(name): no such program (not found in PATH or not executable)") }
        // A command that exits without reading its input must not take this process with it.
        signal(SIGPIPE, SIG_IGN)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = Array(command.dropFirst())
        let input = Pipe()
        p.standardInput = input
        // Its output is the kiosk's log, never the CLI's answer on standard output.
        p.standardOutput = FileHandle.standardError
        p.standardError = FileHandle.standardError
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        do { try p.run() } catch {
            return log("\(name): cannot start: \(error.localizedDescription)")
        }
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async {
            try? writer.write(contentsOf: data)
            try? writer.close()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            if exited.wait(timeout: .now() + 2) == .timedOut { kill(p.processIdentifier, SIGKILL); exited.wait() }
            return log(String(format: "%@: stopped after %.0f s (forms.on-submit-timeout-seconds); the record is stored", name, timeout))
        }
        if p.terminationReason == .uncaughtSignal {
            log("\(name): killed by signal \(p.terminationStatus); the record is stored")
        } else if p.terminationStatus != 0 {
            log("\(name): exited with status \(p.terminationStatus); the record is stored")
        }
    }

    /// The program's path: as given when it names a path, else the first executable in `PATH`.
    static func resolve(_ program: String) -> String? {
        let fm = FileManager.default
        if program.contains("/") { return fm.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(program)"
            var isDir: ObjCBool = false
            if fm.isExecutableFile(atPath: candidate), fm.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue { return candidate }
        }
        return nil
    }
}
