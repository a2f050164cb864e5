import Foundation
import Quire

/// `QUIRE_TRACE=1`: one stdout line per overlay change and applied gesture (for tests and debugging).
final class Tracer {
    let enabled = !(ProcessInfo.processInfo.environment["QUIRE_TRACE"] ?? "").isEmpty
    /// Waits until the window system has drawn everything requested so far.
    var sync: () -> Void = {}

    func emit(_ what: String, _ v: JSONValue) {
        // What the line reports is on the screen by the time anyone reads it.
        sync()
        let text: String
        do { text = try v.serialized(pretty: false) } catch { text = "(not written: \(error))" }
        FileHandle.standardOutput.write(Data("quire: \(what) \(text)\n".utf8))
    }

    static func rect(_ r: Rect) -> JSONValue { .array([r.x, r.y, r.width, r.height].map { .number($0) }) }
}
