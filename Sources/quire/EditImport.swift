import Foundation
import InkFormats
import Quire

/// `quire edit` of ink written elsewhere (InkML, Xournal++, Quire JSON): the file is imported into
/// a new package beside it, which is what the window then edits; the original is left as it was.
/// The package takes the file's name with `.iink` ("notes.xopp" -> "notes.iink"), or the first free
/// "notes-2.iink", "notes-3.iink", ...: an existing package is never overwritten. When the window
/// then fails (no display, say) and the package is still exactly as imported, it is removed
/// again: a failed `quire edit` leaves nothing behind, and the original file holds all the ink.
enum EditImport {
    /// A package made for editing: where it is, what to tell the user, and its file's state just
    /// after the import (to tell whether the editor changed it).
    struct Imported {
        var path: String
        var note: String
        var stamp: Stamp?
    }

    /// Size and modification date of a file: enough to see that nothing was saved into it.
    struct Stamp: Equatable {
        var size: Int
        var modified: Date

        init?(_ path: String) {
            guard let a = try? FileManager.default.attributesOfItem(atPath: path),
                  let size = (a[.size] as? NSNumber)?.intValue, let modified = a[.modificationDate] as? Date else { return nil }
            self.size = size; self.modified = modified
        }
    }

    /// The package to edit for `file`, with a sentence saying what was imported; nil when `file`
    /// is a package (or missing: the editor creates it) and is opened as it is.
    static func prepare(_ file: String) throws -> Imported? {
        var isDir: ObjCBool = false
        guard !file.hasSuffix(".iink"), FileManager.default.fileExists(atPath: file, isDirectory: &isDir), !isDir.boolValue else { return nil }
        switch try FormatDetector.detect(path: file) {
        case .inkml, .xournal, .quireJSON: break
        default: return nil
        }
        let out = freeName(for: file)
        let done = try ImportFile.build(file, out: out, limit: .max, layout: "raw-content")
        let name = URL(fileURLWithPath: file).lastPathComponent, pkgName = URL(fileURLWithPath: done.path).lastPathComponent
        return Imported(path: done.path, note: "Imported \(name) into \(pkgName) (\(done.strokes) strokes, \(done.summary)); editing that package.",
                        stamp: Stamp(done.path))
    }

    /// After the editor exited with an error: removes the package `imported` made, and the
    /// working folder the editor may have begun beside it, when nothing was saved into it since
    /// the import. Returns whether it did.
    static func discardIfUntouched(_ imported: Imported) -> Bool {
        guard let before = imported.stamp, Stamp(imported.path) == before else { return false }
        let fm = FileManager.default
        do { try fm.removeItem(atPath: imported.path) } catch { return false }
        // The name was free of both before the import (`freeName`), so this folder is this run's.
        try? fm.removeItem(atPath: imported.path + "-files")
        return true
    }

    /// `notes.xopp` -> `notes.iink`, else `notes-2.iink`, `notes-3.iink`, ...: the first name with
    /// neither a file nor a package's working folder.
    static func freeName(for file: String) -> String {
        let url = URL(fileURLWithPath: file)
        var base = url.deletingPathExtension()
        // "notes.inkml.gz" -> "notes"
        if base.pathExtension == "inkml" || base.pathExtension == "xopp" { base = base.deletingPathExtension() }
        func taken(_ p: String) -> Bool {
            FileManager.default.fileExists(atPath: p) || FileManager.default.fileExists(atPath: p + "-files")
        }
        var candidate = base.path + ".iink"
        var n = 2
        while taken(candidate) {
            candidate = base.path + "-\(n).iink"
            n += 1
        }
        return candidate
    }
}
