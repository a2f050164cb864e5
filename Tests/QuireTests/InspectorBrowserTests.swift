import Foundation
import Testing
import InkRender
import QuireTestSupport
@testable import Quire
import QuireTools

/// The HTML report in a real browser: Debian's headless Chromium renders it (not blank, the
/// ink in its colours) and runs its script without error. Where Chromium is not installed the
/// test is off, except under CI (CI=true), where its absence is a failure: scripts/install-deps
/// installs it.
@Suite(.serialized) struct InspectorBrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let onCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Runs Chromium headless with `args` (a fresh profile in `dir`); its standard output.
    static func chromium(_ args: [String], dir: TempDir) throws -> String {
        let browser = try #require(chromium, "Chromium is missing: scripts/install-deps installs Debian's chromium")
        let p = Process()
        // A browser that hangs must not hang the suite.
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["180", browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                       "--user-data-dir=" + dir.path("profile")] + args
        p.environment = ProcessInfo.processInfo.environment.merging(["HOME": dir.path("home")]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "chromium exited with \(p.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: chromium != nil || onCI)) func chromiumRendersTheReportAndRunsItsScript() throws {
        let dir = TempDir()
        let engine = try Engine()
        let pkg = try engine.createPackage(dir.path("ink.iink"))
        defer { pkg.close() }
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 1000, height: 700)
        try editor.setPart(pkg.createPart(type: PartType.textDocument.rawValue))
        try Handwriting.writeLine(["unipen-4fe72e73a415", "unipen-2e05f671aedf"], editor: editor, x: 10, y: 12)
        let page = dir.path("report.html")
        try Data(try InspectorReport.html(editor: editor, title: "browser").utf8).write(to: URL(fileURLWithPath: page))
        let png = dir.path("shot.png")
        _ = try Self.chromium(["--window-size=1000,900", "--screenshot=" + png, URL(fileURLWithPath: page).absoluteString], dir: dir)
        let image = try ImageCodec.decodePNG(try Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(image.width == 1000 && image.height == 900)
        func rgb(_ v: UInt32) -> (Int, Int, Int) { (Int(v >> 16 & 0xff), Int(v >> 8 & 0xff), Int(v & 0xff)) }
        let dark = image.pixels.filter { let (r, g, b) = rgb($0); return r + g + b < 200 }.count
        // The palette's first two word colours (#1f77b4, #d62728): the words' ink was drawn.
        let blue = image.pixels.filter { let (r, g, b) = rgb($0); return abs(r - 0x1f) < 40 && abs(g - 0x77) < 40 && abs(b - 0xb4) < 40 }.count
        let red = image.pixels.filter { let (r, g, b) = rgb($0); return abs(r - 0xd6) < 40 && abs(g - 0x27) < 40 && abs(b - 0x28) < 40 }.count
        #expect(dark > 2000, "text and ink on the page: \(dark) dark pixels")
        #expect(blue > 100 && red > 100, "the words' ink in their colours: \(blue) blue, \(red) red pixels")
        // The script ran to its end in a real browser (it marks the body last).
        let dom = try Self.chromium(["--dump-dom", URL(fileURLWithPath: page).absoluteString], dir: dir)
        #expect(dom.contains("data-ready=\"1\""), "the report's script did not run to its end")
    }
}
