import Foundation

/// The notebooks opened or saved lately, newest first, kept in a small text file (one path a
/// line) under $XDG_STATE_HOME/quire. Files that are gone are skipped when read.
final class RecentFiles {
    let path: String
    /// How many are remembered.
    let limit: Int

    init(path: String, limit: Int = 12) {
        self.path = path
        self.limit = limit
    }

    /// The remembered files that still exist, newest first.
    var files: [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var seen = Set<String>()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("/") && FileManager.default.fileExists(atPath: $0) && seen.insert($0).inserted }
    }

    /// Remembers a file as the newest. A file that cannot be written is no reason to fail the
    /// open or save it follows: the list is a convenience.
    func add(_ file: String) {
        let list = [file] + files.filter { $0 != file }
        let text = list.prefix(limit).joined(separator: "\n") + "\n"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
