import Foundation

/// A fresh folder per test, removed when the value goes away.
public final class TempDir {
    public let url: URL

    /// `prefix` names the folder in the system's temporary directory, so leftovers are traceable.
    public init(prefix: String = "quire-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
