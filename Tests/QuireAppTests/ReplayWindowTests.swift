import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A session recorded in the real window with the inputtest pen (`quire edit --record`), played
/// back in a new window (`quire replay --window`): the two canvases look the same and the saved
/// packages hold the same strokes.
@Suite(.serialized)
struct ReplayWindowTests {
    private func shoot(_ image: CairoImage, _ name: String) {
        if let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try? image.writePNG("\(dir)/\(name).png")
        }
    }

    private func info(_ path: String) throws -> String {
        let r = try runTool(try quireBinary().path, ["export", path, "--format", "json"])
        try #require(r.exit == .exited(0), "quire export: \(r.output)")
        return r.output
    }

    /// Fraction of pixels whose colour differs by more than a little.
    private func difference(_ a: CairoImage, _ b: CairoImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        var n = 0
        for y in 0 ..< a.height {
            for x in 0 ..< a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                if abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b)) > 48 { n += 1 }
            }
        }
        return Double(n) / Double(a.width * a.height)
    }

    @Test func aRecordedPenSessionReplaysInTheWindow() throws {
        let tmp = TempDir()
        let file = tmp.path("notes.iink"), session = tmp.path("session.jsonl"), replayed = tmp.path("replayed.iink")
        let env = ["XDG_STATE_HOME": tmp.path("state"), "XDG_CONFIG_HOME": tmp.path("config"), "XDG_DATA_HOME": tmp.path("data")]
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }

        let app = try QuireAppProcess.edit(file, server: server, geometry: (800, 600), extraArguments: ["--record", session], environment: env)
        defer { app.kill() }
        let ready = try app.waitForReady(timeout: 60)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        let origin = try x.geometry(ready.canvas)
        let pen = try server.connect(.pen)
        let (w, h) = (Double(ready.width), Double(ready.height))
        for k in 0 ..< 3 {
            let points = (0 ... 30).map { i -> (x: Double, y: Double, pressure: Double) in
                let t = Double(i) / 30
                return (Double(origin.x) + w * (0.2 + 0.15 * Double(k) + 0.1 * t), Double(origin.y) + h * (0.3 + 0.05 * sin(t * 9)), 0.4 + 0.4 * t)
            }
            try pen.penStroke(points: points)
            usleep(150_000)
        }
        // Past the candidates bar's highlight of changed words (1.5 s).
        sleep(3)
        let recorded = try x.capture(ready.canvas)
        shoot(recorded, "replay-recorded")
        #expect(recorded.countDark() > 100, "the pen inked")
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 20) == .exited(0), "stderr: \(app.stderr)")

        let player = try QuireAppProcess(arguments: ["replay", session, "--window", "--speed", "2", "--out", replayed], server: server, environment: env)
        defer { player.kill() }
        let ready2 = try player.waitForReady(timeout: 60)
        #expect(ready2.width == ready.width && ready2.height == ready.height, "the replay window has the recorded view size")
        let done = try player.waitForLine(prefix: "quire: replay done", timeout: 60)
        #expect(!done.contains("divergences"), "\(done)\n\(player.stderr)")
        sleep(3)
        let x2 = try XClient(server: server)
        let played = try x2.capture(ready2.canvas)
        shoot(played, "replay-played")
        let diff = difference(recorded, played)
        #expect(diff < 0.002, "the replayed canvas differs from the recorded one in \(diff * 100)% of its pixels")
        x2.sendDeleteWindow(ready2.window)
        #expect(player.waitForExit(timeout: 20) == .exited(0), "stderr: \(player.stderr)")
        #expect(try info(replayed) == (try info(file)), "the same strokes, blocks and words")
    }

    /// `app.record` in the user's configuration records every session (a kiosk's); a path that
    /// cannot be written only warns: the window still opens.
    @Test func theConfigurationKeyRecordsAndABadPathOnlyWarns() throws {
        let tmp = TempDir()
        let server = try XServer.xvfb(width: 1024, height: 768)
        defer { server.stop() }
        for (i, target) in [tmp.path("kiosk.jsonl"), tmp.path("missing-folder/kiosk.jsonl")].enumerated() {
            let config = tmp.path("config\(i)")
            try FileManager.default.createDirectory(atPath: config + "/quire", withIntermediateDirectories: true)
            try "{\"app\": {\"record\": \"\(target)\"}}".write(toFile: config + "/quire/configuration.json", atomically: true, encoding: .utf8)
            let env = ["XDG_STATE_HOME": tmp.path("state"), "XDG_CONFIG_HOME": config, "XDG_DATA_HOME": tmp.path("data")]
            let app = try QuireAppProcess.edit(tmp.path("form\(i).iink"), server: server, geometry: (640, 480), environment: env)
            defer { app.kill() }
            let ready = try app.waitForReady(timeout: 60)
            let x = try XClient(server: server)
            x.sendDeleteWindow(ready.window)
            #expect(app.waitForExit(timeout: 20) == .exited(0), "stderr: \(app.stderr)")
            if i == 0 {
                let head = try String(contentsOfFile: target, encoding: .utf8).prefix(17)
                #expect(head == "{\"quire-session\":", "the session was recorded")
            } else {
                #expect(app.stderr.contains("not recording the session"), "\(app.stderr)")
            }
        }
    }
}
