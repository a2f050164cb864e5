import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The entry point: owns configuration and opens content packages.
public final class Engine {
    public let configuration: Configuration

    /// Creates an engine; defaults come from Resources/configuration.json, overridden by `configuration`.
    public init(configuration: Configuration? = nil) throws {
        let url = try QuireResources.url("configuration.json")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw QuireError(.resourceMissing, "cannot read \(url.path)")
        }
        let defaults = Configuration()
        try defaults.inject(json: text)
        let config = configuration ?? Configuration()
        for (k, v) in defaults.snapshot() where !config.hasKey(k) { try config.store(v, forKey: k) }
        self.configuration = config
    }

    public var supportedPartTypes: [String] { PartModel.partTypes }

    /// Creates a new package; fails if the file exists.
    public func createPackage(_ path: String) throws -> ContentPackage {
        try openPackage(path, openOption: .createNew)
    }

    public func openPackage(_ path: String, openOption: PackageOpenOption = .existing) throws -> ContentPackage {
        try ContentPackage(path: path, configuration: configuration, option: openOption)
    }

    /// Deletes a package archive and its temp folder; fails if it is open anywhere.
    public func deletePackage(_ path: String) throws {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let temp = try ContentPackage.tempFolder(for: absolute, configuration: configuration)
        let kind = FileIO.kind(absolute)
        guard kind != .missing || FileIO.kind(temp) == .directory else {
            throw QuireError(.fileNotFound, "no such package: '\(absolute)'")
        }
        guard kind != .directory else { throw QuireError(.notAFile, "'\(absolute)' is a directory, not a package") }
        if FileIO.kind(temp) == .directory {
            let lock = try FileLock(path: temp + "/lock")
            defer { lock.release() }
            if kind == .file, unlink(absolute) != 0 { throw FileIO.errorFor(errno, "cannot delete", absolute) }
            do { try FileManager.default.removeItem(atPath: temp) } catch {
                throw QuireError(.ioError, "cannot delete temp folder '\(temp)': \(error.localizedDescription)")
            }
        } else if unlink(absolute) != 0 {
            throw FileIO.errorFor(errno, "cannot delete", absolute)
        }
    }
}
