import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Small POSIX helpers with Quire errors: atomic writes with fsync, file locks.
public enum FileIO {
    static func errorFor(_ err: Int32, _ what: String, _ path: String) -> QuireError {
        let msg = String(cString: strerror(err))
        switch err {
        case EACCES, EPERM, EROFS: return QuireError(.readOnly, "\(what) '\(path)': location is not writable (\(msg))")
        case ENOENT: return QuireError(.fileNotFound, "\(what) '\(path)': \(msg)")
        case EISDIR: return QuireError(.notAFile, "\(what) '\(path)' is a directory")
        case ENOTDIR: return QuireError(.ioError, "\(what) '\(path)': a parent is not a directory")
        default: return QuireError(.ioError, "\(what) '\(path)': \(msg)")
        }
    }

    /// Writes `data` to a sibling temporary file, fsyncs it, renames it over `path` and fsyncs the
    /// directory: a crash at any instant leaves the old file or the new one, never a mix.
    public static func writeAtomically(_ data: Data, to path: String) throws {
        try writeAtomically(to: path) { fd, _ in try writeAll(fd, data, path: path) }
    }

    /// Creates a sibling temporary file, lets `fill` write it (through the descriptor or its path),
    /// then fsyncs it, renames it over `path` and fsyncs the directory. If anything throws, the
    /// temporary file is removed and `path` is untouched.
    static func writeAtomically(to path: String, _ fill: (_ fd: Int32, _ temporaryPath: String) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let tmp = dir + "/." + url.lastPathComponent + ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw errorFor(errno, "cannot write", path) }
        var ok = false
        defer {
            if !ok { close(fd); unlink(tmp) }
        }
        try fill(fd, tmp)
        guard fsync(fd) == 0 else { throw errorFor(errno, "cannot sync", path) }
        ok = true
        close(fd)
        guard rename(tmp, path) == 0 else {
            let e = errno
            unlink(tmp)
            throw errorFor(e, "cannot replace", path)
        }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { fsync(dfd); close(dfd) }
    }

    /// Writes all of `data` at the descriptor's position, retrying short writes and EINTR.
    static func writeAll(_ fd: Int32, _ data: Data, path: String) throws {
        try data.withUnsafeBytes { (buf: UnsafeRawBufferPointer) in
            var off = 0
            while off < buf.count {
                let n = write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw errorFor(errno, "cannot write", path)
                }
                off += n
            }
        }
    }

    enum Kind { case missing, file, directory, other }

    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    static func mtime(_ path: String) -> Double? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
    }

    public static func readFile(_ path: String, maxBytes: Int) throws -> Data {
        switch kind(path) {
        case .missing: throw QuireError(.fileNotFound, "no such file: '\(path)'")
        case .directory: throw QuireError(.notAFile, "'\(path)' is a directory, not a file")
        case .other: throw QuireError(.notAFile, "'\(path)' is not a regular file")
        case .file: break
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw errorFor(errno, "cannot read", path) }
        defer { close(fd) }
        var out = Data()
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw errorFor(errno, "cannot read", path) }
            if n == 0 { break }
            out.append(contentsOf: buf[0..<n])
            guard out.count <= maxBytes else { throw QuireError(.archiveTooLarge, "'\(path)' is larger than \(maxBytes) bytes") }
        }
        return out
    }

    static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let ns = error as NSError
            let code = (ns.userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? Int(EACCES)
            throw errorFor(Int32(code), "cannot create folder", path)
        }
        guard kind(path) == .directory else { throw QuireError(.ioError, "'\(path)' exists and is not a folder") }
    }
}

/// An exclusive advisory lock on a file (flock); released when closed or when the process dies,
/// so a crash never leaves a package locked.
final class FileLock: @unchecked Sendable {
    private var fd: Int32

    init(path: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileIO.errorFor(errno, "cannot create lock", path) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let e = errno
            close(fd)
            fd = -1
            if e == EWOULDBLOCK {
                throw QuireError(.packageLocked, "the package is already open in another engine or process (lock '\(path)')")
            }
            throw FileIO.errorFor(e, "cannot lock", path)
        }
    }

    func release() {
        if fd >= 0 { flock(fd, LOCK_UN); close(fd); fd = -1 }
    }

    deinit { release() }
}
