import Foundation
import InkModel

/// The repository the tests were compiled from (#filePath is Tests/QuireTestSupport/<file>).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// Real handwriting shared by the test targets (UNIPEN train_r01_v07 words, CC BY 4.0; see
/// Tests/QuireTests/Fixtures/README.md), in the JSON-lines format of ../shared/data.
public let handwritingFixtureURL = repositoryRoot.appendingPathComponent("Tests/QuireTests/Fixtures/handwriting.jsonl")

/// The `quire` executable built beside the test bundle (`swift build --build-tests` builds it for
/// the test targets that depend on the executable target), else the one in .build/debug.
public func builtQuireBinary() throws -> URL {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for dir in [here, here.deletingLastPathComponent()] {
        let u = dir.appendingPathComponent("quire")
        if FileManager.default.isExecutableFile(atPath: u.path) { return u }
    }
    let u = repositoryRoot.appendingPathComponent(".build/debug/quire")
    guard FileManager.default.isExecutableFile(atPath: u.path) else {
        throw QuireError(.resourceMissing, "the quire executable was not built (looked beside \(here.path) and in .build/debug)")
    }
    return u
}

/// Runs the built `quire` with `args` (and extra environment variables) and returns its exit
/// status and output.
@discardableResult
public func runQuire(_ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = try builtQuireBinary()
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
