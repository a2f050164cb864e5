import Foundation
import InkFormats
import Quire

/// `quire edit` of ink written elsewhere (InkML, Xournal++, Quire JSON): the file is imported into
/// a new package beside it, which is what the window then edits; the original is left as it was.
/// The package takes the file's name with `.iink` ("notes.xopp" -> "notes.iink"), or the first free
/// "notes-2.iink", "notes-3.iink", ...: an existing package is never overwritten.
enum EditImport {
    /// The package to edit for `file`, with a sentence saying what was imported; nil when `file`
    /// is a package (or missing: the editor creates it) and is opened as it is.
    static func prepare(_ file: String) throws -> (path: String, note: String)? {
        var isDir: ObjCBool = false
        guard !file.hasSuffix(".iink"), FileManager.default.fileExists(atPath: file, isDirectory: &isDir), !isDir.boolValue else { return nil }
        switch try FormatDetector.detect(path: file) {
        case .inkml, .xournal, .quireJSON: break
        default: return nil
        }
        let out = freeName(for: file)
        let done = try ImportFile.build(file, out: out, limit: .max, layout: "raw-content")
        let name = URL(fileURLWithPath: file).lastPathComponent, pkgName = URL(fileURLWithPath: done.path).lastPathComponent
        return (done.path, "Imported \(name) into \(pkgName) (\(done.strokes) strokes, \(done.summary)); editing that package.")
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
