import ArgumentParser
import Foundation
import InkMath
import Quire
import QuireTools

/// `quire bench math`: the math recognizer's time per expression on one core, and whether reading
/// costs memory that is never given back (resident size after each pass over the same expressions).
struct BenchMath: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "math",
        abstract: "Time per expression (thread CPU, p50/p95/max) and resident memory after each of several passes over composed expressions.")
    @Option(help: "Composed expressions (tools/recognition/math/compose.py --jsonl).") var jsonl: String
    @Option(help: "Passes over the expressions; the memory line after each shows growth, if any.") var passes = 5
    @Option(help: "Read at most this many expressions of the file.") var limit: Int?
    @OptionGroup var flags: MathFlags

    func run() throws {
        try runReporting {
            let recognizer = try flags.recognizer()
            let samples = try MathSample.read(path: jsonl, limit: limit ?? .max)
            guard !samples.isEmpty else { throw QuireError(.invalidArgument, "\(jsonl) holds no expressions") }
            #if DEBUG
            print("debug build: times are not the release figures (swift build -c release)")
            #endif
            print("\(samples.count) expressions, \(passes) passes, weights at training step \(recognizer.model.trainingStep)")
            print(String(format: "resident before reading: %7.1f MB", BenchMemory.residentMB()))
            var all: [Double] = []
            for pass in 1...max(1, passes) {
                var times: [Double] = []
                times.reserveCapacity(samples.count)
                for s in samples {
                    let c = threadCPUms()
                    _ = recognizer.recognize(strokes: s.strokes)
                    times.append(threadCPUms() - c)
                }
                all += times
                print(String(format: "pass %d: ms per expression p50 %.2f  p95 %.2f  max %.2f   resident %7.1f MB",
                             pass, median(times), percentile(times, 0.95), times.max() ?? 0, BenchMemory.residentMB()))
            }
            print(String(format: "all passes: p50 %.2f  p95 %.2f  max %.2f ms (aim: p95 <= 50 ms on one core, release)",
                         median(all), percentile(all, 0.95), all.max() ?? 0))
        }
    }
}
