import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Errors of the X test harness: the message says what to look at (usually a log path).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A one-way channel whose ends are close-on-exec from birth, so children spawned concurrently by
/// other tests never inherit (and keep open) an end that a reader is waiting to see closed.
/// A socket pair, because Glibc's `pipe2` is not visible to Swift; a child's write() works the same.
struct CloexecPipe {
    let read: Int32
    let write: Int32
    init() throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw HarnessError("socketpair failed: errno \(errno)")
        }
        read = fds[0]
        write = fds[1]
    }
}

/// What a spawned child's standard output or error is connected to.
enum ChildOutput {
    case inherit
    case devNull
    case file(String)
    case fd(Int32)
}

/// posix_spawn with an empty signal mask and default dispositions.
///
/// Why not Foundation.Process: a child started from a Swift Testing worker thread inherits that
/// thread's blocked signals, so it ignores SIGTERM and shutdown hangs (X11-NOTES.md). Here the
/// child always starts with a clean mask, which also makes SIGTERM tests of the app meaningful.
func spawnChild(_ executable: String, _ arguments: [String], environment: [String: String],
                stdout: ChildOutput = .inherit, stderr: ChildOutput = .inherit,
                extraFds: [(parent: Int32, child: Int32)] = []) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    func route(_ output: ChildOutput, to target: Int32) {
        switch output {
        case .inherit: break
        case .devNull: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        case .fd(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
        }
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    route(stdout, to: 1)
    route(stderr, to: 2)
    // dup2 clears close-on-exec on the target, which is exactly what passing an fd down needs.
    for (parent, child) in extraFds { posix_spawn_file_actions_adddup2(&actions, parent, child) }

    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attr, &empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attr, &all)
    // Own process group: a test can signal the child without touching the test runner.
    posix_spawnattr_setpgroup(&attr, 0)
    posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { envp.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, executable, &actions, &attr, argv, envp)
    guard rc == 0 else { throw HarnessError("could not start \(executable): \(String(cString: strerror(rc)))") }
    return pid
}

/// How a child ended.
enum ChildExit: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    var description: String {
        switch self {
        case .exited(let s): return "exit status \(s)"
        case .signaled(let s): return "killed by signal \(s)"
        }
    }
}

func decodeWaitStatus(_ status: Int32) -> ChildExit {
    // WIFEXITED/WEXITSTATUS are macros that Swift does not import.
    let sig = status & 0x7f
    return sig == 0 ? .exited((status >> 8) & 0xff) : .signaled(sig)
}

/// Waits for a child without blocking forever; nil when it is still running at the deadline.
func waitChild(_ pid: pid_t, timeout: Double) -> ChildExit? {
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
        let r = waitpid(pid, &status, WNOHANG)
        if r == pid { return decodeWaitStatus(status) }
        if r < 0 && errno != EINTR { return nil }
        if Date() >= deadline { return nil }
        usleep(5_000)
    }
}

/// Reads from `fd` until a newline, EOF or the deadline; returns the text read (without the newline).
func readLine(fd: Int32, timeout: Double) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
        let left = deadline.timeIntervalSinceNow
        if left <= 0 { return nil }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let n = poll(&p, 1, Int32(min(left * 1000, 1000)) + 1)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { continue }
        let r = Glibc.read(fd, &byte, 1)
        if r < 0 && errno == EINTR { continue }
        if r <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
}

/// Runs a short command to completion (tools such as xinput or desktop-file-validate).
@discardableResult
func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
             timeout: Double = 60) throws -> (exit: ChildExit, output: String) {
    let pipe = try CloexecPipe()
    let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pid: pid_t
    do {
        pid = try spawnChild(executable, arguments, environment: env, stdout: .fd(pipe.write), stderr: .fd(pipe.write))
    } catch {
        close(pipe.read); close(pipe.write)
        throw error
    }
    close(pipe.write)
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        var p = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 200) <= 0 { continue }
        let n = Glibc.read(pipe.read, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        data.append(contentsOf: buffer[0 ..< n])
    }
    close(pipe.read)
    guard let exit = waitChild(pid, timeout: max(1, deadline.timeIntervalSinceNow)) else {
        kill(pid, SIGKILL)
        _ = waitChild(pid, timeout: 5)
        throw HarnessError("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
    }
    return (exit, String(decoding: data, as: UTF8.self))
}

/// Finds an executable on PATH (nil when the tool is not installed).
func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let p = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}
