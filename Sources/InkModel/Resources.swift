import Foundation

/// Finds Quire's read-only resources (default configuration, theme, model weights).
///
/// Search order: `$QUIRE_RESOURCES`, `<executable dir>/../share/quire` (installed layout),
/// `<executable dir>/Resources`, then the source tree this library was built from (development and tests).
public enum QuireResources {
    public static func directory() throws -> URL {
        let fm = FileManager.default
        var candidates: [URL] = []
        if let env = ProcessInfo.processInfo.environment["QUIRE_RESOURCES"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env))
        }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(exe.appendingPathComponent("../share/quire").standardizedFileURL)
        candidates.append(exe.appendingPathComponent("Resources"))
        // #filePath is Sources/InkModel/Resources.swift: the repository root is two levels up.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Resources")
        candidates.append(source)
        for c in candidates where fm.fileExists(atPath: c.appendingPathComponent("configuration.json").path) {
            return c
        }
        throw QuireError(.resourceMissing,
                         "Quire's resources (configuration.json) were not found; looked in: " +
                         candidates.map(\.path).joined(separator: ", ") + ". Set QUIRE_RESOURCES.")
    }

    public static func url(_ name: String) throws -> URL {
        let u = try directory().appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: u.path) else {
            throw QuireError(.resourceMissing, "resource '\(name)' is missing from \(u.deletingLastPathComponent().path)")
        }
        return u
    }
}
