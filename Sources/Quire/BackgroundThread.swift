import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own running jobs one after another, at a lowered OS priority: recognition
/// must never take a core from the thread that reads the pen (on a 2-core machine the worker
/// took one while the window's pen-up waited for the other). A dedicated thread, because the
/// priority of a Dispatch pool thread would follow it into other work. The only place in
/// `Quire` that calls the OS directly.
final class BackgroundThread: @unchecked Sendable {
    /// The worker's niceness on Linux: below the input thread (0), above idle (19).
    static let niceness: Int32 = 10

    private let name: String
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var started = false
    private var stopping = false

    /// The thread holds this object until `stop`: its owner calls that when it goes away.
    init(name: String) { self.name = name }

    /// Runs `job` on the thread after the jobs already given; starts the thread on first use.
    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        if !started {
            started = true
            let t = Thread { self.run() }
            t.name = name
            // The recognizer's network runs here: the main thread's size, not a small default.
            t.stackSize = 8 << 20
            t.start()
        }
        condition.signal()
    }

    /// Lets the thread end once the jobs already given are done.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting for one; nil when the thread should end. Under `condition`.
    private func next() -> (@Sendable () -> Void)? {
        while head == jobs.count && !stopping { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count { jobs.removeAll(keepingCapacity: true); head = 0 }
        return job
    }

    private func run() {
        Self.lowerPriority()
        while true {
            condition.lock()
            let job = next()
            condition.unlock()
            guard let job else { return }
            job()
        }
    }

    /// Lowers the calling thread's priority. Linux keeps a niceness per thread (PRIO_PROCESS
    /// with a thread id sets that thread's alone); the id comes from /proc/thread-self, as
    /// Swift's Glibc does not export gettid. Failing leaves the thread as it was: recognition
    /// still runs, only without yielding.
    private static func lowerPriority() {
        #if os(Linux)
        var buf = [CChar](repeating: 0, count: 64)
        let n = readlink("/proc/thread-self", &buf, buf.count - 1)
        guard n > 0 else { return }
        let link = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let last = link.split(separator: "/").last, let tid = id_t(last) else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), tid, niceness)
        #endif
    }
}
