import ArgumentParser
import Foundation
import Quire
import QuireTools

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bench", abstract: "Print performance figures.",
                                                    subcommands: [BenchPackages.self, BenchEditor.self, BenchRender.self, BenchMemory.self, BenchForms.self, BenchMath.self])
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

/// CPU time of the calling thread, ms: unlike wall time it leaves out the moments the scheduler
/// gives the core to another process (4 ms ticks on a busy machine), so a maximum means Quire's work.
func threadCPUms() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

/// Wall and thread-CPU milliseconds of `body`.
func timed(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let c = threadCPUms()
    let w = try ms(body)
    return (w, threadCPUms() - c)
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
            let part = try pkg!.createPart(type: PartType.drawing.rawValue)
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

struct BenchEditor: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "editor",
        abstract: "Per-event ingest cost on a part already holding 10,000 strokes, and batch throughput.")
    /// `grid`: long strokes in 40 columns of 60 rows (few, tall blocks); `latency`: the page of
    /// `quire new --fill-strokes` that scripts/bench-latency writes on (rows of short strokes, one
    /// Text block a row or more: about 1,700 blocks at 10,000 strokes).
    enum Layout: String, ExpressibleByArgument, CaseIterable { case grid, latency }
    @Option var strokes = 10_000
    @Option(help: "The filled page: grid (few tall blocks) or latency (the page of scripts/bench-latency, ~1,700 blocks).")
    var layout = Layout.grid
    /// `rows`: short strokes in one row part way down the page; `window`: what scripts/bench-latency's
    /// window test writes (strokes of 50 points 12 pixels apart, in rows 45 pixels apart from the
    /// top), on the page reopened as the app opens it (every unread block waiting for recognition):
    /// a pen-up that grows a block pushes the whole page below it.
    enum Pen: String, ExpressibleByArgument, CaseIterable { case rows, window }
    @Option(help: "The pen strokes timed: rows (short strokes in one row) or window (long strokes at the top of the page, which push the page below, with every block waiting for recognition).")
    var pen = Pen.rows

    func run() throws {
        try runReporting {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bench-\(getpid())")
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let engine = try Engine()
            let pkg = try engine.createPackage(dir.appendingPathComponent("e.iink").path)
            defer { pkg.close() }
            let part = try pkg.createPart(type: PartType.textDocument.rawValue)
            let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
            try editor.setViewSize(width: layout == .latency ? 1000 : 1600, height: layout == .latency ? 700 : 1200)
            try editor.setPart(part)
            // Fill the page with strokes through the batch API (also measures its throughput).
            switch layout {
            case .grid:
                var events: [PointerEvent] = []
                for i in 0..<strokes {
                    let x = Double(i % 40) * 38 + 10, y = Double((i / 40) % 60) * 19 + 10
                    events.append(.down(x: x, y: y, t: Int64(i * 1000), f: 0.5))
                    for k in 1..<99 { events.append(.move(x: x + Double(k) * 0.3, y: y + sin(Double(k) / 5) * 4, t: Int64(i * 1000 + k), f: 0.5)) }
                    events.append(.up(x: x + 30, y: y, t: Int64(i * 1000 + 99), f: 0.5))
                }
                let batchMs = try ms { try editor.pointerEvents(events, processGestures: false) }
                print(String(format: "batch ingest: %d events in %.0f ms = %.0f events/s", events.count, batchMs, Double(events.count) / batchMs * 1000))
            case .latency:
                // Written without recognition, as `quire new` does; the pen strokes below are read.
                let recognizer = editor.recognizer
                editor.recognizer = nil
                let fillMs = try ms { try FillStrokes.write(strokes, into: editor) }
                editor.recognizer = recognizer
                print(String(format: "fill (quire new --fill-strokes %d): %.0f ms", strokes, fillMs))
            }
            if pen == .window {
                // Attached again, as the app opens the saved page: every unread block is queued.
                try editor.setPart(nil)
                try editor.setPart(part)
            }
            let lowest = { part.model.root.childIds.compactMap { part.model.blocks[$0]?.box.maxY }.max() ?? 0 }
            let bottomBefore = lowest()
            // Pen strokes over the filled page; the pen-up runs block flow (a block that grows pushes
            // those below it, with all their ink).
            var down: [(wall: Double, cpu: Double)] = [], move = down, up = down, pushing = down
            for r in 0..<200 {
                // The down at point 0, moves, the up at point `last`.
                let x: Double, y: Double, last: Int
                let point: (Int) -> (x: Double, y: Double)
                switch pen {
                case .rows:
                    x = Double(r % 20) * 60 + 20; y = 300; last = 50
                    point = { k in (x + Double(k) * 0.5, k == last ? y : y + Double(k % 5)) }
                case .window:
                    x = 60; y = 120 + Double(r % 8) * 45; last = 49
                    point = { k in (x + Double(k) * 12, y + sin(Double(k) / 2) * 8) }
                }
                down.append(try timed { try editor.pointerDown(x: x, y: y, t: -1, f: 0.5, type: .pen, pointerId: 7) })
                for k in 1..<last { let p = point(k); move.append(try timed { try editor.pointerMove(x: p.x, y: p.y, t: -1, f: 0.5, type: .pen, pointerId: 7) }) }
                let end = point(last)
                let before = lowest()
                up.append(try timed { try editor.pointerUp(x: end.x, y: end.y, t: -1, f: 0.5, type: .pen, pointerId: 7) })
                if lowest() > before { pushing.append(up[up.count - 1]) }
            }
            let blocks = part.model.root.childIds.count
            print("part: \(part.model.strokes.count) strokes, \(part.model.pointCount) points, \(blocks) blocks; "
                  + String(format: "the lowest block moved %.0f mm", lowest() - bottomBefore))
            func line(_ name: String, _ xs: [(wall: Double, cpu: Double)]) {
                let w = xs.map(\.wall), c = xs.map(\.cpu)
                print(name + String(format: " p50 %.1f us, p95 %.1f us, p99 %.1f us, max %.1f us; thread CPU p50 %.1f us, p99 %.1f us, max %.1f us (%d events)",
                                    percentile(w, 0.5) * 1000, percentile(w, 0.95) * 1000, percentile(w, 0.99) * 1000, w.max()! * 1000,
                                    percentile(c, 0.5) * 1000, percentile(c, 0.99) * 1000, c.max()! * 1000, xs.count))
            }
            line("per event (down/move/up):", down + move + up)
            line("  down:", down)
            line("  move:", move)
            line("  up:  ", up)
            if !pushing.isEmpty { line("  up that pushed the page below:", pushing) }
        }
    }
}

struct BenchRender: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render",
        abstract: "Redraw, scroll, live ink and export times for a 1920x1080 view over 10,000 strokes.")
    @Option var strokes = 10_000
    @Option var points = 100
    @Flag(help: "Leave out the PNG and PDF exports (the slowest part).") var noExport = false

    func run() throws {
        try runReporting {
            try RenderBenchmark.run(strokes: strokes, pointsPerStroke: points, exports: !noExport)
        }
    }
}

struct BenchMemory: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "memory",
        abstract: "Resident memory of a 100,000-stroke document, bare and with an editor attached.")
    @Option var strokes = 100_000
    @Option var points = 100

    /// VmRSS (or another field, e.g. VmHWM, the peak) of this process from /proc/self/status, in MB.
    static func residentMB(_ field: String = "VmRSS") -> Double {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kb = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return .nan }
        return kb / 1024
    }

    func run() throws {
        try runReporting {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bench-\(getpid())")
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let base = Self.residentMB()
            print(String(format: "process at start:          %7.1f MB", base))
            let engine = try Engine()
            let pkg = try engine.createPackage(dir.appendingPathComponent("m.iink").path)
            defer { pkg.close() }
            let part = try pkg.createPart(type: PartType.drawing.rawValue)
            for i in 0..<strokes {
                part.model.insertStroke(Synthetic.stroke(id: part.model.makeStrokeId(), seq: Int64(i + 1), points: points, seed: UInt64(i)))
            }
            let points = part.model.pointCount
            let built = Self.residentMB()
            print(String(format: "document of %d strokes, %d points: %7.1f MB resident (%.1f bytes per point over the start)",
                         part.model.strokes.count, points, built, (built - base) * 1024 * 1024 / Double(points)))
            let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
            try editor.setViewSize(width: 1920, height: 1080)
            try editor.setPart(part)
            print(String(format: "with an editor attached:   %7.1f MB (peak so far %.1f MB)", Self.residentMB(), Self.residentMB("VmHWM")))
            try pkg.save()
            // save() streams the archive to disk; its peak holds one part's encoded strokes.bin.
            print(String(format: "after save:                %7.1f MB (peak %.1f MB)", Self.residentMB(), Self.residentMB("VmHWM")))
            print("target: a 100,000-stroke document under 200 MB")
        }
    }
}
