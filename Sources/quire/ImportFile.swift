import Foundation
import InkFormats
import Quire

/// `quire import`: tells the file's format by its content, reads it whole, then builds the
/// package. Reading comes first so that a refused file creates nothing; a failure while building
/// removes the package it created.
enum ImportFile {
    /// "keep" puts each page into a Raw Content part, every stroke where it was; "text-document"
    /// writes the strokes as pen input into a Text Document (blocks flow, handwriting is read).
    static let layouts = ["keep", "raw-content", "text-document"]

    static func run(_ ink: String, out: String, limit: Int, layout: String) throws {
        let done = try build(ink, out: out, limit: limit, layout: layout)
        print("imported \(done.strokes) strokes into \(done.path) (\(done.summary))")
        for note in done.notes { print("note: \(note)") }
    }

    /// What an import made: the package's path, its stroke count, a summary and the reader's notes.
    struct Result {
        var path: String
        var strokes: Int
        var summary: String
        var notes: [String]
    }

    /// Builds the package without printing (`quire recognize` imports into a temporary one).
    static func build(_ ink: String, out: String, limit: Int, layout: String) throws -> Result {
        guard layouts.contains(layout) else {
            throw QuireError(.invalidArgument, "unknown layout '\(layout)' for --as; use raw-content (the default) or text-document")
        }
        let format = try FormatDetector.detect(path: ink)
        var doc: InkDocument?
        var traces: [ImportedTrace] = []
        var asText = layout == "text-document"
        switch format {
        case .inkml: doc = try InkMLFormat.read(try FileIO.readFile(ink, maxBytes: 256 << 20))
        case .xournal: doc = try XournalFormat.read(path: ink)
        case .jsonLines:
            // Samples of the handwriting data have no page: they are laid out on lines, as text.
            traces = JSONLinesInk.pageTraces(try JSONLinesInk.read(path: ink, limit: limit))
            asText = true
        case .quireJSON:
            return try importJSON(QuireJSONFormat.read(try FileIO.readFile(ink, maxBytes: 512 << 20)), out: out)
        case .quirePackage:
            throw QuireError(.invalidArgument, "'\(ink)' is already a Quire package: open it with quire edit, info or export")
        case .unsupported(let name):
            throw QuireError(.importError, "'\(ink)' is \(name): not supported (quire imports InkML, Xournal++ .xopp and .xoj, and JSON lines)")
        case .unknown:
            throw QuireError(.importError, "'\(ink)' is in no format quire knows (it imports InkML, Xournal++ .xopp and .xoj, Quire JSON, and JSON lines)")
        }
        if let doc { traces = InkImporter.traces(doc) }
        let engine = try Engine()
        let pkg = try engine.createPackage(out)
        var summary = ""
        do {
            defer { pkg.close() }
            if asText {
                let part = try pkg.createPart(type: PartType.textDocument.rawValue)
                let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
                // Ink only: the package is saved before a background read could finish (export reads it).
                editor.recognizer = nil
                try editor.setViewSize(width: 794, height: 1123)
                try editor.setPart(part)
                try editor.importTraces(traces)
                summary = "\(part.model.root.childIds.count) blocks"
            } else if let doc {
                let parts = try InkImporter.addPages(doc, to: pkg, source: URL(fileURLWithPath: ink).lastPathComponent)
                summary = "\(parts.count) \(InkImporter.partType) part\(parts.count == 1 ? "" : "s") from \(doc.format)"
            }
            try pkg.save()
        } catch {
            try? engine.deletePackage(out)
            throw error
        }
        return Result(path: pkg.path, strokes: traces.count, summary: summary, notes: doc?.notes ?? [])
    }

    /// Quire's own JSON comes back as the part it was exported from, ids and words included.
    static func importJSON(_ part: QuireJSONFormat.Part, out: String) throws -> Result {
        let engine = try Engine()
        let pkg = try engine.createPackage(out)
        do {
            defer { pkg.close() }
            try QuireJSONFormat.add(part, to: pkg)
            try pkg.save()
        } catch {
            try? engine.deletePackage(out)
            throw error
        }
        return Result(path: pkg.path, strokes: part.strokes.count,
                      summary: "1 \(part.type.rawValue) part, \(part.blocks.count) blocks, from Quire JSON", notes: part.notes)
    }
}
