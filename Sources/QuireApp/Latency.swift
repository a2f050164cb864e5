import Foundation
import Quire

/// Quire's own share of each pen event's latency: from reading the event off the X connection to
/// the flush of its pixels, plus the X server timestamp to flush (millisecond resolution).
///
/// With a log to write (`--latency-log`) it also keeps what the window's loop was doing (named
/// steps, `step(_:_:)`), so the log says where a pen point that waited to be read spent its wait:
/// measured, not guessed, when a full page makes points late.
final class LatencyRecorder {
    private var workUs: [Double] = []
    private var serverMs: [Double] = []
    private var readMs: [Double] = []
    /// Server time to flush per stroke (a pen-down starts the next).
    private var strokes: [[Double]] = []
    /// The loop's latest steps (name, start, end in monotonic ns), the oldest half dropped past twice `maxSteps`.
    private var steps: [(name: String, start: UInt64, end: UInt64)] = []
    private static let maxSteps = 4096
    /// A point read this much after the server stamped it counts as late (ms).
    static let lateMs = 4.0
    private var lateCount = 0
    private var lateWaitMs: [String: Double] = [:]
    /// Per step: how many segments, their total and longest time, and the CPU time in them (ms).
    private var stepTotals: [String: (count: Int, ms: Double, max: Double, cpu: Double)] = [:]
    /// Whether steps are kept (only when a log will be written).
    var enabled = false

    /// What runs now, since when: steps nest (a render inside input handling), and the timeline
    /// is flat, each moment counted for the innermost step.
    private var current = "(outside steps)"
    private var currentStart: UInt64 = 0
    private var currentCPU: UInt64 = 0

    /// Runs one step of the loop under `name`, kept for the breakdown of late points.
    @inline(__always)
    func step<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let outer = switchTo(name)
        defer { _ = switchTo(outer) }
        return try body()
    }

    /// Ends the running segment and starts one named `name`; returns the name it ended.
    private func switchTo(_ name: String) -> String {
        let now = monotonicNs(), cpu = Self.threadCPUNs()
        let was = current
        if currentStart > 0, now > currentStart { keep(current, currentStart, now, cpu: cpu &- currentCPU) }
        current = name
        currentStart = now
        currentCPU = cpu
        return was
    }

    /// This thread's CPU time: a step's wall time minus this is time the thread waited for a
    /// core (a loaded machine), not work.
    private static func threadCPUNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    private func keep(_ name: String, _ start: UInt64, _ end: UInt64, cpu: UInt64) {
        if steps.count >= 2 * Self.maxSteps { steps.removeFirst(Self.maxSteps) }
        steps.append((name, start, end))
        let ms = Double(end - start) / 1e6
        var t = stepTotals[name, default: (0, 0, 0, 0)]
        t = (t.count + 1, t.ms + ms, max(t.max, ms), t.cpu + Double(cpu) / 1e6)
        stepTotals[name] = t
    }

    /// A pen went down: the points that follow belong to a new stroke.
    func strokeBegan() { strokes.append([]) }

    /// One pen point drawn and flushed: `received` when it was read off the connection.
    func record(received: UInt64, serverTime: UInt64) {
        let now = monotonicNs()
        workUs.append(Double(now - received) / 1000)
        let nowMs = (now / 1_000_000) & 0xFFFF_FFFF
        guard nowMs >= serverTime, nowMs - serverTime < 60_000 else { return }
        let toFlush = Double(nowMs - serverTime)
        serverMs.append(toFlush)
        if strokes.isEmpty { strokes.append([]) }
        strokes[strokes.count - 1].append(toFlush)
        // The server's stamp in this clock (to its millisecond): the wait is stamp to read.
        // A stamp after the read (the server's clock a millisecond ahead) counts as no wait.
        let readMs32 = (received / 1_000_000) & 0xFFFF_FFFF
        let waitedMs = readMs32 >= serverTime ? min(readMs32 - serverTime, 60_000) : 0
        let stamped = received - min(received, waitedMs * 1_000_000)
        let wait = Double(received - stamped) / 1e6
        readMs.append(wait)
        guard enabled, wait >= Self.lateMs else { return }
        lateCount += 1
        var covered = 0.0
        for s in steps + [(current, currentStart, received)] where s.end > stamped && s.start < received {
            let ms = Double(min(s.end, received) - max(s.start, stamped)) / 1e6
            lateWaitMs[s.name, default: 0] += ms
            covered += ms
        }
        lateWaitMs["(outside steps)", default: 0] += max(0, wait - covered)
    }

    static func percentile(_ v: [Double], _ p: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    private static func figures(_ v: [Double]) -> JSONValue {
        .object(["p50": .number(percentile(v, 0.5)), "p95": .number(percentile(v, 0.95)), "p99": .number(percentile(v, 0.99)),
                 "max": .number(v.max() ?? 0), "count": .number(Double(v.count))])
    }

    func write(to path: String?) {
        guard let path else { return }
        let o: JSONValue = .object([
            "events": .number(Double(workUs.count)),
            "work_us": .object(["p50": .number(Self.percentile(workUs, 0.5)), "p99": .number(Self.percentile(workUs, 0.99)),
                                "max": .number(workUs.max() ?? 0)]),
            "server_to_flush_ms": Self.figures(serverMs),
            "server_to_read_ms": Self.figures(readMs),
            "strokes_server_to_flush_ms": .array(strokes.filter { !$0.isEmpty }.map(Self.figures)),
            "late_points": .object(["threshold_ms": .number(Self.lateMs), "count": .number(Double(lateCount)),
                                    "wait_ms_during": .object(lateWaitMs.mapValues { .number(($0 * 10).rounded() / 10) })]),
            "steps_ms": .object(stepTotals.mapValues { t in
                .object(["count": .number(Double(t.count)), "total": .number((t.ms * 10).rounded() / 10), "max": .number((t.max * 10).rounded() / 10),
                         "cpu": .number((t.cpu * 10).rounded() / 10)])
            }),
        ])
        try? FileIO.writeAtomically(Data(o.serialized(pretty: true).utf8), to: path)
    }
}
