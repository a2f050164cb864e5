import Foundation
import InkModel

/// A throwaway PostgreSQL server from Debian's `postgresql` package (scripts/install-deps):
/// initdb into a temporary folder, started with pg_ctl on a free port of 127.0.0.1, password
/// (SCRAM) logins, stopped and removed when the test process ends. Missing binaries are a test
/// failure with the fix in words, never a silent skip.
final class PostgresServer: Sendable {
    static let user = "quire", password = "s3cret-pw"
    let bin: String
    let folder: String
    let port: Int

    /// The one server of the test process, started on first use.
    static let shared = Result { try PostgresServer() }

    var data: String { folder + "/data" }

    /// A URL for `database` (default: the server's `postgres` database).
    func url(_ database: String = "postgres", password: String = PostgresServer.password) -> String {
        "postgresql://\(Self.user):\(password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    private init() throws {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        guard let v = versions.first else {
            throw QuireError(.resourceMissing, "PostgreSQL's server binaries are not installed (no \(root)/*/bin/initdb): run scripts/install-deps (Debian package postgresql)")
        }
        bin = "\(root)/\(v)/bin"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data((Self.password + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/pw"))
        port = try Self.freePort()
        // initdb refuses to run as root (CI is root): the server then runs as Debian's postgres user.
        if getuid() == 0 { try Self.run("/bin/chown", ["-R", "postgres:postgres", folder]) }
        try pg("initdb", ["-D", data, "-U", Self.user, "--pwfile=\(folder)/pw", "--auth=scram-sha-256", "-E", "UTF8", "--no-sync", "--no-instructions"])
        try start()
        atexit { if case .success(let s) = PostgresServer.shared { s.stopAndRemove() } }
    }

    func start() throws {
        // No pipes: the server pg_ctl leaves running would hold them open, and reading them to
        // their end would wait for the server to stop.
        try pg("pg_ctl", detached: true, ["-D", data, "-l", folder + "/log", "-w", "-t", "60", "-o",
                          "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off", "start"])
    }

    func stop() throws { try pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]) }

    private func stopAndRemove() {
        try? stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs SQL with psql as the server's user; returns the unaligned output.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        try Self.run("/usr/bin/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-d", database, "-c", sql],
                     environment: ["PGPASSWORD": Self.password])
    }

    /// A new, empty database for one test.
    func freshDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql("CREATE DATABASE \(name)")
        return name
    }

    private func pg(_ tool: String, detached: Bool = false, _ args: [String]) throws {
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", "\(bin)/\(tool)"] + args, detached: detached)
        } else {
            try Self.run("\(bin)/\(tool)", args, detached: detached)
        }
    }

    /// Runs a program and returns its output; `detached`: its output goes to nowhere (for
    /// programs that leave a daemon behind).
    @discardableResult
    static func run(_ exe: String, _ args: [String], environment: [String: String] = [:], detached: Bool = false) throws -> String {
        if detached { try spawnAndWait(exe, args); return "" }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = detached ? FileHandle.nullDevice : out
        p.standardError = detached ? FileHandle.nullDevice : err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        if detached { try? out.fileHandleForWriting.close(); try? err.fileHandleForWriting.close() }
        let o = detached ? Data() : out.fileHandleForReading.readDataToEndOfFile()
        let e = detached ? Data() : err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw QuireError(.ioError, "\(exe) \(args.joined(separator: " ")) failed (\(p.terminationStatus)): \(String(decoding: e + o, as: UTF8.self))")
        }
        return String(decoding: o, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// posix_spawn and waitpid: Foundation's Process sees its child end only when every process
    /// holding its watch descriptor has, and the server that pg_ctl leaves running holds it.
    static func spawnAndWait(_ exe: String, _ args: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv = ([exe] + args).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, exe, &actions, nil, argv, environ)
        guard rc == 0 else { throw QuireError(.ioError, "cannot start \(exe): error \(rc)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw QuireError(.ioError, "\(exe) \(args.joined(separator: " ")) failed (wait status \(status))") }
    }

    /// A port of 127.0.0.1 that nothing listens on (the kernel's pick for a socket bound to 0).
    static func freePort() throws -> Int {
        let listener = try LoopbackListener()
        defer { listener.close() }
        return listener.port
    }
}

/// A TCP socket listening on 127.0.0.1 that accepts nothing and answers nothing: a server that
/// hangs after the connection is made.
final class LoopbackListener: Sendable {
    let fd: Int32
    let port: Int

    init() throws {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw QuireError(.ioError, "socket() failed") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(s, sa, len) == 0 && listen(s, 8) == 0 && getsockname(s, sa, &len) == 0
            }
        }
        guard ok else { Glibc.close(s); throw QuireError(.ioError, "cannot listen on 127.0.0.1") }
        fd = s
        port = Int(UInt16(bigEndian: addr.sin_port))
    }

    func close() { Glibc.close(fd) }
}
