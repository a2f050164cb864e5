import Foundation

/// Archives of other programs' files (Xournal++'s zip-packaged `.xopp`), read with the same
/// checks as Quire's own packages: entry paths, sizes while inflating, CRCs.
public enum ZipEntries {
    /// True when `data` starts like a zip archive.
    public static func isZip(_ data: Data) -> Bool {
        data.count >= 4 && data.prefix(4).elementsEqual([0x50, 0x4B, 0x03, 0x04])
    }

    /// The file entries of the zip archive at `path` by name: all of them, or those in `only`.
    public static func read(path: String, only: Set<String>? = nil, limits: ArchiveLimits = ArchiveLimits()) throws -> [String: Data] {
        try PackageFormat.readEntries(path: path, limits: limits, only: only)
    }
}
