import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How `Engine.openPackage` treats an existing or missing file.
public enum PackageOpenOption: Sendable {
    /// Open an existing package; fails if the file is missing.
    case existing
    /// Open the package, creating it if missing.
    case create
    /// Create a new package; fails if the file exists.
    case createNew
    /// Create a new package, replacing any existing one.
    case truncateExisting
}

/// A package file (zip archive) and its parts; working state lives in its temp folder.
public final class ContentPackage {
    public private(set) var path: String
    /// The folder holding the package's working state and crash-recovery snapshot.
    public private(set) var tempFolder: String
    /// True when opening recovered newer content from the temp folder (after an unclean exit).
    public private(set) var recoveredFromTemp: Bool = false

    let configuration: Configuration
    private var lock: FileLock?
    private var packageId: String
    /// Highest revision written to the archive / to the temp folder.
    private var archiveRevision: Int
    private var tempRevision: Int
    private var parts: [ContentPart] = []
    private var _metadata: ParameterSet

    static let snapshotName = "snapshot.qtmp"

    init(path: String, configuration: Configuration, option: PackageOpenOption) throws {
        guard !path.isEmpty, !path.contains("\0") else { throw QuireError(.invalidArgument, "package path must not be empty") }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        self.path = absolute
        self.configuration = configuration
        self.tempFolder = try Self.tempFolder(for: absolute, configuration: configuration)
        self.packageId = UUID().uuidString.lowercased()
        self.archiveRevision = 0
        self.tempRevision = 0
        self._metadata = ParameterSet()

        let kind = FileIO.kind(absolute)
        var create = false
        switch option {
        case .existing:
            guard kind != .missing else { throw QuireError(.fileNotFound, "no such package: '\(absolute)' (open option .existing)") }
        case .createNew:
            guard kind == .missing else { throw QuireError(.fileExists, "'\(absolute)' already exists (open option .createNew)") }
            create = true
        case .create:
            create = kind == .missing
        case .truncateExisting:
            guard kind != .directory else { throw QuireError(.notAFile, "'\(absolute)' is a directory, not a package") }
            create = true
        }
        if !create {
            switch kind {
            case .directory: throw QuireError(.notAFile, "'\(absolute)' is a directory, not a package")
            case .other: throw QuireError(.notAFile, "'\(absolute)' is not a regular file")
            default: break
            }
        }
        let parent = URL(fileURLWithPath: absolute).deletingLastPathComponent().path
        guard FileIO.kind(parent) == .directory else {
            throw QuireError(.fileNotFound, "cannot use '\(absolute)': folder '\(parent)' does not exist")
        }
        let createdTemp = FileIO.kind(tempFolder) == .missing
        try FileIO.makeDirectory(tempFolder)
        do {
            lock = try FileLock(path: tempFolder + "/lock")
            if create {
                if option == .truncateExisting { try? FileManager.default.removeItem(atPath: tempFolder + "/" + Self.snapshotName) }
                try writeArchive(to: absolute, revision: 1)
                archiveRevision = 1
            } else {
                try load()
            }
        } catch {
            lock?.release()
            lock = nil
            if createdTemp { try? FileManager.default.removeItem(atPath: tempFolder) }
            throw error
        }
    }

    static func tempFolder(for path: String, configuration: Configuration) throws -> String {
        let custom = try ConfigKey<String>.packageTempFolder.read(configuration)
        let base = URL(fileURLWithPath: path).lastPathComponent
        if custom.isEmpty { return path + "-files" }
        // Packages with the same name in different folders share the custom folder: the path's
        // hash keeps their working state (and crash recovery) apart.
        var h: UInt64 = 0xcbf29ce484222325
        for b in path.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        let tag = String(h, radix: 16).leftPadding(to: 16)
        return URL(fileURLWithPath: custom).appendingPathComponent("\(base)-\(tag.prefix(12))-files").path
    }

    var limits: ArchiveLimits { Self.limits(configuration) }

    static func limits(_ configuration: Configuration) -> ArchiveLimits {
        ArchiveLimits(
            maxEntries: configuration[.packageMaxEntries],
            maxTotalSize: configuration[.packageMaxUncompressedSize],
            maxEntrySize: configuration[.packageMaxEntrySize])
    }

    private func load() throws {
        let entries = try PackageFormat.readEntries(path: path, limits: limits)
        let info = try PackageFormat.manifestInfo(entries, source: "'\(path)'")
        var content = try PackageFormat.decode(entries, source: "'\(path)'")
        archiveRevision = info.revision
        tempRevision = 0
        let snap = tempFolder + "/" + Self.snapshotName
        if FileIO.kind(snap) == .file,
           let tEntries = try? PackageFormat.readEntries(path: snap, limits: limits),
           let tInfo = try? PackageFormat.manifestInfo(tEntries, source: "temp snapshot"),
           tInfo.packageId == info.packageId, tInfo.revision > info.revision,
           let tContent = try? PackageFormat.decode(tEntries, source: "temp snapshot") {
            content = tContent
            tempRevision = tInfo.revision
            recoveredFromTemp = true
        }
        packageId = content.packageId
        _metadata = content.metadata
        parts = content.parts.map { ContentPart(model: $0, package: self) }
    }

    private func content(revision: Int) -> PackageContent {
        PackageContent(packageId: packageId, revision: revision, metadata: _metadata, parts: parts.map(\.model))
    }

    /// The package as it is in memory, as the bytes of a package file (a session recording
    /// embeds its starting point this way); nothing is written.
    public func archiveData() throws -> Data {
        try PackageFormat.makeArchive(PackageFormat.encode(content(revision: max(archiveRevision, tempRevision))), compress: true)
    }

    private func writeArchive(to target: String, revision: Int) throws {
        try PackageFormat.writeArchive(content(revision: revision), to: target, compress: true)
    }

    private func checkOpen() throws {
        guard lock != nil else { throw QuireError(.invalidArgument, "package '\(path)' is closed") }
    }

    // MARK: parts

    public var partCount: Int { parts.count }

    public func part(at index: Int) throws -> ContentPart {
        guard parts.indices.contains(index) else {
            throw QuireError(.indexOutOfRange, "part index \(index) is out of range (package has \(parts.count) parts)")
        }
        return parts[index]
    }

    private func newPartId() -> String {
        while true {
            let id = "p" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
            if !parts.contains(where: { $0.id == id }) { return id }
        }
    }

    public func createPart(type: String) throws -> ContentPart {
        try checkOpen()
        let p = ContentPart(model: try PartModel(id: newPartId(), type: type), package: self)
        parts.append(p)
        return p
    }

    public func clonePart(_ part: ContentPart) throws -> ContentPart {
        try checkOpen()
        guard part.package != nil else { throw QuireError(.partNotFound, "cannot clone a part that was removed from its package") }
        let p = ContentPart(model: part.model.clone(newId: newPartId()), package: self)
        parts.append(p)
        return p
    }

    public func removePart(_ part: ContentPart) throws {
        try checkOpen()
        guard let i = index(of: part) else { throw QuireError(.partNotFound, "part '\(part.id)' is not in package '\(path)'") }
        parts.remove(at: i)
        part.package = nil
        part.removedFrom = packageId
    }

    public func index(of part: ContentPart) -> Int? { parts.firstIndex { $0 === part } }

    /// Moves a part to `index` (0...partCount-1): a notebook's pages are its parts, in order.
    public func movePart(_ part: ContentPart, to index: Int) throws {
        try checkOpen()
        guard let from = self.index(of: part) else { throw QuireError(.partNotFound, "part '\(part.id)' is not in package '\(path)'") }
        guard parts.indices.contains(index) else {
            throw QuireError(.indexOutOfRange, "part index \(index) is out of range (package has \(parts.count) parts)")
        }
        parts.insert(parts.remove(at: from), at: index)
    }

    /// Puts a part that `removePart` took out of this package back at `index` (0...partCount),
    /// with its content and id: undoing a page's deletion.
    public func restorePart(_ part: ContentPart, at index: Int) throws {
        try checkOpen()
        guard part.package == nil, part.removedFrom == packageId else {
            throw QuireError(.invalidArgument, "part '\(part.id)' was not removed from package '\(path)'")
        }
        guard !parts.contains(where: { $0.id == part.id }) else {
            throw QuireError(.invalidArgument, "package '\(path)' already has a part '\(part.id)'")
        }
        guard (0...parts.count).contains(index) else {
            throw QuireError(.indexOutOfRange, "part index \(index) is out of range (package has \(parts.count) parts)")
        }
        parts.insert(part, at: index)
        part.package = self
        part.removedFrom = nil
    }

    /// Package metadata, persisted with the package. The getter returns the live set; assigning
    /// copies the new set's values in (the SDK's `let md = p.metadata; …; p.metadata = md` included).
    public var metadata: ParameterSet {
        get { _metadata }
        set { _metadata.replaceContents(with: newValue) }
    }

    // MARK: saving

    /// Writes a self-contained archive at `path` atomically (sibling file, fsync, rename).
    public func save() throws {
        try checkOpen()
        let rev = max(archiveRevision, tempRevision) + 1
        try writeArchive(to: path, revision: rev)
        archiveRevision = rev
    }

    /// Saves to another path; the package then lives there.
    public func saveAs(_ newPath: String) throws {
        try checkOpen()
        let absolute = URL(fileURLWithPath: newPath).standardizedFileURL.path
        if absolute == path { return try save() }
        guard FileIO.kind(absolute) != .directory else { throw QuireError(.notAFile, "'\(absolute)' is a directory") }
        let newTemp = try Self.tempFolder(for: absolute, configuration: configuration)
        let createdTemp = FileIO.kind(newTemp) == .missing
        try FileIO.makeDirectory(newTemp)
        let newLock: FileLock
        do { newLock = try FileLock(path: newTemp + "/lock") } catch {
            if createdTemp { try? FileManager.default.removeItem(atPath: newTemp) }
            throw error
        }
        let rev = max(archiveRevision, tempRevision) + 1
        do {
            try? FileManager.default.removeItem(atPath: newTemp + "/" + Self.snapshotName)
            try writeArchive(to: absolute, revision: rev)
        } catch {
            newLock.release()
            if createdTemp { try? FileManager.default.removeItem(atPath: newTemp) }
            throw error
        }
        releaseTempFolder()
        lock = newLock
        path = absolute
        tempFolder = newTemp
        archiveRevision = rev
        tempRevision = 0
    }

    /// Writes the in-memory content, uncompressed, into the temp folder (fast; used for autosave).
    /// If the process dies, the next open recovers it.
    public func saveToTemp() throws {
        try checkOpen()
        let rev = max(archiveRevision, tempRevision) + 1
        try PackageFormat.writeArchive(content(revision: rev), to: tempFolder + "/" + Self.snapshotName, compress: false)
        tempRevision = rev
    }

    /// True when the temp folder holds content newer than the archive.
    public var hasUnsavedTempContent: Bool { tempRevision > archiveRevision }

    private func releaseTempFolder() {
        // A temp snapshot newer than the archive is kept: it is what recovery needs.
        if !hasUnsavedTempContent {
            try? FileManager.default.removeItem(atPath: tempFolder + "/" + Self.snapshotName)
            try? FileManager.default.removeItem(atPath: tempFolder + "/lock")
            rmdir(tempFolder)
        }
        lock?.release()
        lock = nil
    }

    /// Releases the package (its lock and, if nothing unsaved is there, its temp folder).
    public func close() {
        guard lock != nil else { return }
        releaseTempFolder()
    }

    public var isClosed: Bool { lock == nil }

    deinit { close() }
}

extension String {
    func leftPadding(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
