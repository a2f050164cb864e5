import Foundation
import Quire

/// `quire export FILE --notebook --format pdf|text|markdown`: the whole package as one file, as
/// the window's File menu exports it (`Notebook.export`). Every page is read first, so pages
/// saved without recognition results have their text in the export.
enum ExportNotebook {
    static func run(_ file: String, format: String, output: String?, recovery: RecoveryOptions) throws {
        let types: [String: MimeType] = ["pdf": .pdf, "text": .text, "markdown": .markdown, "md": .markdown]
        guard let mime = types[format.lowercased()] else {
            throw QuireError(.invalidArgument, "unknown notebook format '\(format)'; use pdf, text or markdown")
        }
        try withPart(file, index: 0, recovery: recovery) { editor, pkg in
            let notebook = try Notebook(package: pkg, editor: editor, page: 0)
            if mime != .pdf {
                for i in 0..<notebook.pageCount {
                    try notebook.goTo(i)
                    try editor.waitForIdle()
                }
            }
            let data = try notebook.export(mimeType: mime)
            if let output {
                try FileIO.writeAtomically(data, to: URL(fileURLWithPath: output).standardizedFileURL.path)
            } else if mime != .pdf {
                FileHandle.standardOutput.write(data)
                print()
            } else {
                throw QuireError(.invalidArgument, "pdf output is binary: give -o FILE")
            }
        }
    }
}
