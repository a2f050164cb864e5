import Foundation
import Quire

/// Set from signal handlers (on a dispatch queue) and read by the event loop.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A pipe that other threads write to so that the event loop's poll() wakes up.
final class WakePipe: @unchecked Sendable {
    let readFD: Int32
    let writeFD: Int32
    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw QuireError(.ioError, "cannot create a pipe: \(String(cString: strerror(errno)))") }
        readFD = fds[0]; writeFD = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    func wake() { var b: UInt8 = 1; _ = write(writeFD, &b, 1) }
    func drain() { var buf = [UInt8](repeating: 0, count: 256); while read(readFD, &buf, 256) > 0 {} }
    deinit { close(readFD); close(writeFD) }
}

/// SIGTERM, SIGINT and SIGHUP set a flag and wake the loop, which then saves and exits.
final class StopSignals {
    let flag = Flag()
    private var sources: [DispatchSourceSignal] = []

    func install(waking wake: WakePipe) {
        let flag = self.flag
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler { flag.set(); wake.wake() }
            src.resume()
            sources.append(src)
        }
    }
}
