import Foundation
import InkModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A kiosk form end to end, under Xorg with the inputtest pen and touchscreen: `quire form run`
/// full screen; one writer's real handwriting written into the fields with the pen and with a
/// finger; a field that fails its pattern shows why and keeps Submit off; Clear; a reading picked
/// from the value's candidates; Submit; the thank-you screen; the record in SQLite holds what
/// the screen showed. `QUIRE_TEST_SHOTS=DIR` keeps the screenshots (docs/screenshots/ has them).
@Suite(.serialized)
struct KioskWindowTests {
    static let spec = #"""
        {"id": "parcel-pickup", "version": 1, "title": "Parcel pickup", "fields": [
          {"id": "name", "label": "Your name", "kind": "text", "required": true},
          {"id": "tracking", "label": "Tracking number", "kind": "number", "required": true, "regex": "[0-9]{4,20}"},
          {"id": "signature", "label": "Signature", "kind": "signature", "required": true}]}
        """#

    /// One writer's samples (the forms' fixture: UNIPEN, see its README).
    static let samples: [InkSampleRecord] = (try? JSONLinesInk.read(
        path: repositoryRoot.appendingPathComponent("Tests/QuireFormsTests/Fixtures/writer-apple-fbf3215eb1.jsonl.gz").path)) ?? []

    func sample(_ label: String) throws -> InkSampleRecord {
        try #require(Self.samples.first { $0.label == label }, "the fixture has '\(label)'")
    }

    /// A sample's strokes in screen pixels, inside `box` (its height 60% of the box's, left margin).
    func strokes(_ s: InkSampleRecord, in box: Rect) -> [[(x: Double, y: Double)]] {
        let b = s.bounds
        let k = min(box.height * 0.6 / max(b.height, 1), (box.width - 24) / max(b.width, 1))
        let x0 = box.x + 12, y0 = box.y + (box.height - b.height * k) / 2
        return s.strokes.map { $0.map { (x0 + ($0.x - b.x) * k, y0 + ($0.y - b.y) * k) } }
    }

    func shoot(_ x: XClient, _ name: String) throws {
        guard let dir = ProcessInfo.processInfo.environment["QUIRE_TEST_SHOTS"], !dir.isEmpty else { return }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try x.captureScreen().writePNG("\(dir)/\(name).png")
    }

    static func json(_ line: String, after prefix: String) -> [String: Any] {
        let text = line.dropFirst(prefix.count)
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func rect(_ v: Any?) -> Rect {
        let a = (v as? [Double]) ?? [0, 0, 0, 0]
        return Rect(x: a[0], y: a[1], width: a[2], height: a[3])
    }

    @Test func aFormIsFilledWithPenAndFingerCorrectedAndSubmitted() throws {
        let tmp = TempDir()
        let form = tmp.path("pickup.iink"), specFile = tmp.path("spec.json"), store = tmp.path("submissions.sqlite")
        try Self.spec.write(toFile: specFile, atomically: true, encoding: .utf8)
        let quire = try quireBinary().path
        let made = try runTool(quire, ["form", "new", form, "--spec", specFile])
        try #require(made.exit == .exited(0), "\(made.output)")
        let env = ["XDG_STATE_HOME": tmp.path("state"), "XDG_CONFIG_HOME": tmp.path("config"), "XDG_DATA_HOME": tmp.path("data"), "QUIRE_TRACE": "1"]
        let server = try XServer.xorg(width: 1024, height: 768)
        defer { server.stop() }
        let app = try QuireAppProcess(arguments: ["form", "run", form, "--store", store], server: server, environment: env)
        defer { app.kill() }
        let ready = try app.waitForReady(timeout: 60)
        #expect(ready.width == 1024 && ready.height == 768, "full screen")
        let layoutLine = try app.waitForLine(prefix: "quire: kiosk ")
        let layout = Self.json(layoutLine, after: "quire: kiosk ")
        var boxes: [String: (box: Rect, value: Rect, clear: Rect)] = [:]
        for f in (layout["fields"] as? [[String: Any]]) ?? [] {
            boxes[f["id"] as? String ?? ""] = (Self.rect(f["box"]), Self.rect(f["value"]), Self.rect(f["clear"]))
        }
        let submit = Self.rect(layout["submit"])
        try #require(boxes.count == 3)
        let x = try XClient(server: server)
        try x.waitUntilViewable(ready.window)
        usleep(300_000)
        try shoot(x, "kiosk-form-empty")

        let pen = try server.connect(.pen)
        let finger = try server.connect(.touch)
        var touchId: UInt32 = 10
        func tap(_ r: Rect) throws {
            touchId += 1
            try finger.tap(id: touchId, x: r.midX, y: r.midY)
        }
        /// The next `field` trace line of `id` with `status` (and `value`, if given) after line `from`
        /// (a field is read again after each stroke: the first readings may be of part of the ink).
        func field(_ id: String, _ status: String, _ value: String? = nil, caseInsensitive: Bool = false,
                   after from: Int) throws -> (index: Int, json: [String: Any]) {
            let hit = try app.waitForLine(after: from, timeout: 60, what: "field \(id) \(status) \(value ?? "")") { line in
                guard line.hasPrefix("quire: field ") else { return false }
                let j = Self.json(line, after: "quire: field ")
                let v = j["value"] as? String
                let same = value == nil || (caseInsensitive ? v?.lowercased() == value?.lowercased() : v == value)
                return j["id"] as? String == id && j["status"] as? String == status && same
            }
            return (hit.index, Self.json(hit.line, after: "quire: field "))
        }
        var mark = layoutLine.isEmpty ? -1 : (app.stdoutLines.firstIndex(of: layoutLine) ?? -1)

        // The name with the pen, in this writer's capitals: read "HELEN" (corrected below).
        for s in strokes(try sample("Helen"), in: boxes["name"]!.box) { try pen.penStroke(points: s.map { ($0.x, $0.y, 0.5) }) }
        let firstReading = try field("name", "valid", "helen", caseInsensitive: true, after: mark).json["value"] as? String
        // One digit with a finger: a number, but not the pattern's 4 to 20 digits.
        usleep(700_000)  // past palm rejection's 600 ms after the pen
        for s in strokes(try sample("5"), in: boxes["tracking"]!.box) {
            touchId += 1
            try finger.touchDrag(id: touchId, points: s)
        }
        let bad = try field("tracking", "invalid", "5", after: mark)
        #expect((bad.json["error"] as? String)?.contains("does not match the pattern") == true, "\(bad.json)")
        mark = bad.index
        usleep(300_000)
        try shoot(x, "kiosk-form-half-filled")
        // Submit is off: a tap on it stores nothing.
        try tap(submit)
        // Clear the field, then write the tracking number with the finger.
        try tap(boxes["tracking"]!.clear)
        mark = try field("tracking", "empty", after: mark).index
        for s in strokes(try sample("78901"), in: boxes["tracking"]!.box) {
            touchId += 1
            try finger.touchDrag(id: touchId, points: s)
        }
        let tracking = try field("tracking", "valid", "78901", after: mark)
        // The signature with the pen.
        for s in strokes(try sample("Helen"), in: boxes["signature"]!.box) { try pen.penStroke(points: s.map { ($0.x, $0.y, 0.5) }) }
        mark = try field("signature", "valid", after: tracking.index).index

        // A tap on the name's value shows its readings; a finger picks "Helen".
        usleep(700_000)
        try tap(boxes["name"]!.value)
        let popupHit = try app.waitForLine(after: mark, timeout: 20, what: "the candidates popup") { $0.hasPrefix("quire: popup ") }
        let items = (Self.json(popupHit.line, after: "quire: popup ")["items"] as? [[String: Any]]) ?? []
        let right = try #require(items.firstIndex { $0["label"] as? String == "Helen" }, "a reading 'Helen': \(popupHit.line)")
        #expect(right > 0 && firstReading != "Helen", "the first reading is wrong (\(firstReading ?? "-")); the right one is a candidate")
        let picked = "Helen"
        try tap(Self.rect(items[right]["frame"]))
        let corrected = try app.waitForLine(after: popupHit.index, timeout: 20, what: "the picked reading") { line in
            line.hasPrefix("quire: field ") && Self.json(line, after: "quire: field ")["value"] as? String == picked
        }

        usleep(300_000)
        try shoot(x, "kiosk-form-complete")
        try tap(submit)
        let sent = try app.waitForLine(after: corrected.index, timeout: 30, what: "submitted") { $0.hasPrefix("quire: submitted ") }
        let id = Self.json(sent.line, after: "quire: submitted ")["submission"] as? String ?? ""
        usleep(300_000)
        try shoot(x, "kiosk-form-submitted")
        #expect(!app.stdoutLines.contains { $0.hasPrefix("quire: submit-failed") }, "\(app.stdoutLines)")

        // The record holds what the screen showed: one submission, the picked name.
        let listed = try runTool(quire, ["form", "submissions", "--store", store, "--json"])
        try #require(listed.exit == .exited(0), "\(listed.output)")
        let records = (try JSONSerialization.jsonObject(with: Data(listed.output.utf8))) as? [[String: Any]] ?? []
        #expect(records.count == 1, "\(listed.output)")
        let fields = records.first?["fields"] as? [String: [String: Any]] ?? [:]
        #expect(records.first?["submission"] as? String == id)
        #expect(fields["name"]?["value"] as? String == picked)
        #expect(fields["tracking"]?["value"] as? String == "78901")
        #expect((fields["signature"]?["value"] as? String)?.contains("<svg") == true)
        #expect(fields.values.allSatisfy { $0["valid"] as? Bool == true })

        // The thanks end with a tap: the empty form is back, ready for the next person.
        try tap(Rect(x: 500, y: 300, width: 10, height: 10))
        _ = try app.waitForLine(after: sent.index, timeout: 20, what: "ready for the next") { $0.hasPrefix("quire: ready-for-next") }
        // Only the exit chord leaves; closing the window does not.
        x.sendDeleteWindow(ready.window)
        #expect(app.waitForExit(timeout: 1) == nil, "the kiosk stays on a close request")
        try server.connect(.keyboard).keyChord(try x.keycodes("ctrl+alt+shift+q"))
        #expect(app.waitForExit(timeout: 20) == .exited(0), "stderr: \(app.stderr)")
        #expect(!app.stderr.contains("Fatal") && !app.stderr.contains("error:"), "\(app.stderr)")
    }
}
