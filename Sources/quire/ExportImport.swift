import ArgumentParser
import Foundation
import Quire

/// Opens a package, attaches part `index` to a headless editor and runs `body`.
func withPart(_ file: String, index: Int, recovery: RecoveryOptions, save: Bool = false,
              _ body: (Editor, ContentPackage) throws -> Void) throws {
    if save, !recovery.recover, let s = RecoveryOptions.appSnapshot(for: URL(fileURLWithPath: file).standardizedFileURL.path) {
        // Saving now would make the app's newer snapshot look stale: it would never be recovered.
        throw QuireError(.invalidArgument, RecoveryOptions.describe(s, file: file) + " Nothing was written.")
    }
    let (engine, pkg) = try recovery.open(file)
    defer { pkg.close() }
    let part = try pkg.part(at: index)
    let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
    try editor.setViewSize(width: 794, height: 1123)
    try editor.setPart(part)
    try body(editor, pkg)
    if save { try pkg.save() }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export a part as text, JSON, InkML, LaTeX or MathML (math), PNG, JPEG, SVG or PDF, or the package as Xournal++ (xopp).")
    @Argument(help: "The package file.") var file: String
    @Option(help: "text, json, inkml, latex, mathml (Math blocks), png, jpeg, svg, pdf, or xopp (every part, one page each).") var format: String
    @Option(help: "Part index (0-based).") var part = 0
    @Option(help: "Block id to export instead of the whole part.") var block: String?
    @Option(help: "Resolution of PNG/JPEG output.") var dpi: Double = 150
    @Option(name: .shortAndLong, help: "Output file (default: standard output for textual formats).") var output: String?
    @Flag(help: "Export the whole notebook: --format pdf (a page per part), text or markdown (a heading per page).") var notebook = false
    @OptionGroup var recovery: RecoveryOptions

    func run() throws {
        try runReporting {
            if notebook { return try ExportNotebook.run(file, format: format, output: output, recovery: recovery) }
            if format.lowercased() == "xopp" { return try ExportXopp.run(file, output: output, recovery: recovery) }
            let types: [String: MimeType] = ["text": .text, "json": .json, "inkml": .inkml, "latex": .latex, "mathml": .mathml, "png": .png, "jpeg": .jpeg, "jpg": .jpeg, "svg": .svg, "pdf": .pdf]
            guard let mime = types[format.lowercased()] else {
                throw QuireError(.invalidArgument, "unknown format '\(format)'; use one of text, json, inkml, latex, mathml, png, jpeg, svg, pdf, xopp")
            }
            try withPart(file, index: part, recovery: recovery) { editor, _ in
                // Blocks saved without recognition results are read now, so the text is in the export.
                if [.text, .json, .inkml, .latex, .mathml].contains(mime) { try editor.waitForIdle() }
                let target = try block.map { id -> ContentBlock in
                    guard let b = editor.getBlockById(id) else { throw QuireError(.invalidBlock, "no block '\(id)' in part \(part)") }
                    return b
                }
                let data = (mime == .png || mime == .jpeg) ? try editor.exportImageData(target, mimeType: mime, dpi: dpi)
                                                          : try editor.exportData(target, mimeType: mime)
                if let output {
                    try FileIO.writeAtomically(data, to: URL(fileURLWithPath: output).standardizedFileURL.path)
                } else if [.text, .json, .inkml, .svg, .latex, .mathml].contains(mime) {
                    FileHandle.standardOutput.write(data)
                    if [.text, .latex, .mathml].contains(mime) { print() }
                } else {
                    throw QuireError(.invalidArgument, "\(format) output is binary: give -o FILE")
                }
            }
        }
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import",
        abstract: "Build a package from InkML, Xournal++ (.xopp, .xoj), Quire's own JSON export, or JSON lines in the shared handwriting-data format.")
    @Argument(help: "An .inkml, .xopp or .xoj file, or a .jsonl / .jsonl.gz file (one sample per line); the format is told by content.") var ink: String
    @Option(help: "The package to create.") var out: String
    @Option(help: "Import at most this many JSON-lines samples.") var limit = 50
    @Option(name: .customLong("as"), help: "raw-content: every stroke stays where it was (default); text-document: strokes become pen input of a Text Document, whose blocks flow and whose handwriting is read.")
    var layout = "raw-content"

    func run() throws {
        try runReporting { try ImportFile.run(ink, out: out, limit: limit, layout: layout) }
    }
}

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert",
        abstract: "Convert a part's (or a block's) handwriting to typeset text and save the package.")
    @Argument(help: "The package file.") var file: String
    @Option(help: "Part index (0-based).") var part = 0
    @Option(help: "Block id to convert instead of the whole part.") var block: String?
    @Option(help: "edit: typeset in place, still editable with the pen (digitalEdit); publish: reflowed to the block width (digitalPublish).")
    var to = "edit"
    @OptionGroup var recovery: RecoveryOptions

    func run() throws {
        try runReporting {
            let states: [String: ConversionState] = ["edit": .digitalEdit, "publish": .digitalPublish]
            guard let state = states[to.lowercased()] else { throw QuireError(.invalidArgument, "unknown target '\(to)'; use edit or publish") }
            try withPart(file, index: part, recovery: recovery, save: true) { editor, _ in
                try editor.waitForIdle()
                let target = try block.map { id -> ContentBlock in
                    guard let b = editor.getBlockById(id) else { throw QuireError(.invalidBlock, "no block '\(id)' in part \(part)") }
                    return b
                }
                try editor.convert(target, targetState: state)
                print(try editor.export(target, mimeType: .text))
            }
        }
    }
}
