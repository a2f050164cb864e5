import Foundation
import Quire

/// Quire's own share of each pen event's latency: from reading the event off the X connection to
/// the flush of its pixels, plus the X server timestamp to flush (millisecond resolution).
final class LatencyRecorder {
    private var workUs: [Double] = []
    private var serverMs: [Double] = []

    func record(workNs: UInt64, serverTime: UInt64) {
        workUs.append(Double(workNs) / 1000)
        let nowMs = (monotonicNs() / 1_000_000) & 0xFFFF_FFFF
        if nowMs >= serverTime, nowMs - serverTime < 60_000 { serverMs.append(Double(nowMs - serverTime)) }
    }

    static func percentile(_ v: [Double], _ p: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    func write(to path: String?) {
        guard let path else { return }
        let o: JSONValue = .object([
            "events": .number(Double(workUs.count)),
            "work_us": .object(["p50": .number(Self.percentile(workUs, 0.5)), "p99": .number(Self.percentile(workUs, 0.99)),
                                "max": .number(workUs.max() ?? 0)]),
            "server_to_flush_ms": .object(["p50": .number(Self.percentile(serverMs, 0.5)), "p99": .number(Self.percentile(serverMs, 0.99)),
                                           "count": .number(Double(serverMs.count))]),
        ])
        try? FileIO.writeAtomically(Data(o.serialized(pretty: true).utf8), to: path)
    }
}
