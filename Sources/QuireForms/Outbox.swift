import Foundation
import InkModel

/// Forwards the records waiting in a local SQLite outbox to PostgreSQL, oldest first, one at a
/// time, each removed from the outbox only once the server has committed it. A record whose
/// commit succeeded but whose removal was lost (a crash in between) is sent again and the
/// server's `ON CONFLICT DO NOTHING` keeps it once: forwarded in order, exactly once.
///
/// All forwarding runs on one serial queue, so a background attempt and `forward()` never
/// interleave. After a failure it tries again by itself (30 s, doubling up to 5 min) while the
/// process lives, and at every new record.
final class OutboxForwarder: Sendable {
    let address: PostgresAddress
    let outbox: SQLiteSubmissions
    private let queue = DispatchQueue(label: "quire.forms.outbox")
    private let state = Locked(State())

    private struct State {
        var server: PostgresSubmissions?
        var lastError: QuireError?
        var retryScheduled = false
        var retryDelay = 30.0
    }

    init(address: PostgresAddress, outbox: SQLiteSubmissions) {
        self.address = address; self.outbox = outbox
    }

    deinit { state.withLock { $0.server?.close() } }

    /// Why the last attempt failed; nil once one succeeded.
    var lastError: QuireError? { state.withLock { $0.lastError } }

    /// Forwards in the background; returns at once.
    func forwardLater() {
        queue.async { [weak self] in _ = try? self?.forwardOnQueue() }
    }

    /// Forwards now, on the caller's thread's behalf; returns how many records were sent.
    func forward() throws -> Int { try queue.sync { try forwardOnQueue() } }

    /// Waits for a background attempt under way (bounded by the connect and statement timeouts).
    func waitUntilIdle() { queue.sync {} }

    /// A connection to the server for `body`; a fresh one if the last failed or was closed.
    func withServer<T>(_ body: (PostgresSubmissions) throws -> T) throws -> T {
        try queue.sync {
            let pg = try server()
            do { return try body(pg) } catch { drop(pg); throw error }
        }
    }

    private func server() throws -> PostgresSubmissions {
        if let s = state.withLock({ $0.server }), !s.isClosed { return s }
        let s = try PostgresSubmissions.connect(address)
        state.withLock { $0.server = s }
        return s
    }

    private func drop(_ pg: PostgresSubmissions) {
        pg.close()
        state.withLock { if $0.server === pg { $0.server = nil } }
    }

    private func forwardOnQueue() throws -> Int {
        var sent = 0
        do {
            while true {
                let batch = try outbox.queued(for: address.masked, limit: 32)
                if batch.isEmpty { break }
                let pg = try server()
                for s in batch {
                    do { _ = try pg.save(s) } catch { drop(pg); throw error }
                    try outbox.markForwarded(s.id, target: address.masked)
                    sent += 1
                }
            }
        } catch {
            let e = error as? QuireError ?? QuireError(.ioError, "\(error)")
            state.withLock { $0.lastError = e }
            scheduleRetry()
            throw e
        }
        state.withLock { $0.lastError = nil; $0.retryDelay = 30 }
        return sent
    }

    private func scheduleRetry() {
        let delay: Double? = state.withLock { s in
            guard !s.retryScheduled else { return nil }
            s.retryScheduled = true
            defer { s.retryDelay = min(300, s.retryDelay * 2) }
            return s.retryDelay
        }
        guard let delay else { return }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.retryScheduled = false }
            _ = try? self.forwardOnQueue()
        }
    }
}

/// A value behind a lock, for state shared with the forwarding queue.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
