import Foundation
import Quire
// Shared test helpers (TempDir, expectCode, the repository) for every file of this target.
@_exported import QuireTestSupport

/// The `quire` executable built beside the test bundle.
func quireBinary() throws -> URL { try builtQuireBinary() }

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
