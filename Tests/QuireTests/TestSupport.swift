import Foundation
import Quire

/// A fresh folder per test, removed when the value goes away.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The `quire` executable built beside the test bundle.
func quireBinary() throws -> URL {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for dir in [here, here.deletingLastPathComponent()] {
        let u = dir.appendingPathComponent("quire")
        if FileManager.default.isExecutableFile(atPath: u.path) { return u }
    }
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let u = repo.appendingPathComponent(".build/debug/quire")
    guard FileManager.default.isExecutableFile(atPath: u.path) else {
        throw QuireError(.resourceMissing, "the quire executable was not built (looked beside \(here.path) and in .build/debug)")
    }
    return u
}

/// Runs `quire` with arguments and returns (exit status, stdout, stderr).
@discardableResult
func runQuire(_ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = try quireBinary()
    p.arguments = args
    if let environment { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
