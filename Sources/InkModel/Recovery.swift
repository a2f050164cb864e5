import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A crash-recovery snapshot (written by `saveToTemp`) that is newer than its package's archive:
/// changes that were never saved into the package file.
public struct RecoverySnapshot: Sendable, Equatable {
    /// The snapshot file.
    public var path: String
    /// The snapshot's revision, and the archive's (always lower).
    public var revision: Int
    public var archiveRevision: Int
    /// When the snapshot was written.
    public var modified: Date
    /// A process holds the package open right now (its temp folder is locked): the snapshot is
    /// that process's latest autosave, not necessarily left behind by a crash.
    public var inUse: Bool
}

extension ContentPackage {
    /// Looks for a snapshot newer than the archive at `path`, in the temp folder `configuration`
    /// gives that path (`content-package.temp-folder`, else `<path>-files`). Reads only the two
    /// manifests; opens, locks and changes nothing, so it is safe while another process edits the
    /// package. Nil when there is none, or when either file cannot be read as a package.
    public static func recoverySnapshot(forPackage path: String, configuration: Configuration) -> RecoverySnapshot? {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let folder = try? tempFolder(for: absolute, configuration: configuration) else { return nil }
        let snap = folder + "/" + snapshotName
        guard FileIO.kind(absolute) == .file, FileIO.kind(snap) == .file else { return nil }
        let limits = Self.limits(configuration)
        let manifest: Set<String> = ["manifest.json"]
        guard let a = try? PackageFormat.readEntries(path: absolute, limits: limits, only: manifest),
              let archive = try? PackageFormat.manifestInfo(a, source: "'\(absolute)'"),
              let t = try? PackageFormat.readEntries(path: snap, limits: limits, only: manifest),
              let temp = try? PackageFormat.manifestInfo(t, source: "temp snapshot"),
              temp.packageId == archive.packageId, temp.revision > archive.revision else { return nil }
        return RecoverySnapshot(path: snap, revision: temp.revision, archiveRevision: archive.revision,
                                modified: Date(timeIntervalSince1970: FileIO.mtime(snap) ?? 0),
                                inUse: isLocked(folder + "/lock"))
    }

    /// True when another process holds the package lock (a shared lock cannot be had).
    private static func isLocked(_ lockPath: String) -> Bool {
        let fd = Glibc.open(lockPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
        return errno == EWOULDBLOCK
    }
}
