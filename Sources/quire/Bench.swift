import ArgumentParser
import Foundation
import Quire

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Print performance figures.",
                                                    subcommands: [BenchPackages.self])
}

func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }
func percentile(_ xs: [Double], _ p: Double) -> Double {
    let s = xs.sorted(); return s[min(s.count - 1, Int(Double(s.count) * p))]
}
func ms(_ body: () throws -> Void) rethrows -> Double {
    let t = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
}

struct BenchPackages: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "packages",
        abstract: "save / saveToTemp / open times and bytes per point for a generated 10,000-stroke package.")
    @Option var strokes = 10_000
    @Option var points = 100
    @Option var runs = 5

    func run() throws {
        try runReporting {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bench-\(getpid())")
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let path = dir.appendingPathComponent("bench.iink").path
            let engine = try Engine()
            var pkg: ContentPackage? = try engine.createPackage(path)
            let part = try pkg!.createPart(type: "Drawing")
            for i in 0..<strokes {
                part.model.insertStroke(Synthetic.stroke(id: part.model.makeStrokeId(), seq: Int64(i + 1), points: points, seed: UInt64(i)))
            }
            var save: [Double] = [], temp: [Double] = [], open: [Double] = []
            for _ in 0..<runs {
                save.append(try ms { try pkg!.save() })
                temp.append(try ms { try pkg!.saveToTemp() })
            }
            try pkg!.save()
            pkg!.close()
            pkg = nil
            for _ in 0..<runs {
                var p: ContentPackage?
                open.append(try ms { p = try engine.openPackage(path) })
                p?.close()
            }
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            let totalPoints = strokes * points
            print("package: \(strokes) strokes x \(points) points = \(totalPoints) points, \(runs) runs (median)")
            print(String(format: "save:        %8.1f ms", median(save)))
            print(String(format: "saveToTemp:  %8.1f ms  (%.1fx faster than save)", median(temp), median(save) / median(temp)))
            print(String(format: "open:        %8.1f ms", median(open)))
            print(String(format: "archive:     %8d bytes, %.2f bytes per point", size, Double(size) / Double(totalPoints)))
        }
    }
}
