import ArgumentParser
import Foundation
import Quire

/// `quire search FILE|DIR "query"`: every place the words are written or typed, in a package, an
/// InkML or Xournal++ file, or every package under a folder. Ink that no stored word reads (a
/// package made by `quire import`, imported pages) is recognized for the search, as `quire
/// recognize` reads it; nothing is saved.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find words in the handwriting and typed text of a package, an ink file, or every package under a folder.",
        discussion: """
        Case, accents and the punctuation around words are ignored; a handwritten word matches when any of its \
        recognition candidates does; a word ending in * matches words starting with it; several words are found \
        in a row. Output: one line per hit; with --json one JSON object per line: \
        {"file", "part", "block", "word", "box": {"x", "y", "width", "height"}} (millimetres). \
        Exit status 0 when something was found, 1 when nothing was, 2 on an error.
        """)
    @Argument(help: "A package (.iink), an .inkml/.xopp/.xoj file, or a folder searched recursively for packages.") var path: String
    @Argument(help: "The word or words to find.") var query: String
    @Flag(help: "One JSON object per hit and line.") var json = false
    @Flag(name: .customLong("stored-only"), help: "Search only the words stored in the packages; ink never recognized is skipped (fast).")
    var storedOnly = false
    @OptionGroup var flags: RecognitionFlags

    func run() throws {
        var found = 0
        try runReporting {
            let search = try InkSearch(query)
            let files = try Self.files(path)
            let adapter = storedOnly ? nil : try flags.adapter()
            for file in files {
                let hits: [SearchHit]
                do {
                    hits = try Self.hits(search, in: file, adapter: adapter, flags: flags)
                } catch let e as QuireError where file != path {
                    // One unreadable package does not end a search of a folder: said, and skipped.
                    FileHandle.standardError.write(Data("quire: warning: skipped \(file): \(e.message)\n".utf8))
                    continue
                }
                for hit in hits {
                    found += 1
                    print(json ? try Self.json(hit, file: file) : Self.line(hit, file: file))
                }
            }
        }
        if found == 0 { throw ExitCode(1) }
    }

    /// `path` itself, or the packages under the folder `path`, sorted (a package's working
    /// folder, `NAME.iink-files`, is not a package).
    static func files(_ path: String) throws -> [String] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw QuireError(.fileNotFound, "'\(path)' does not exist")
        }
        guard isDir.boolValue else { return [path] }
        guard let walk = FileManager.default.enumerator(atPath: path) else {
            throw QuireError(.ioError, "cannot list the folder '\(path)'")
        }
        var out: [String] = []
        while let rel = walk.nextObject() as? String {
            if rel.hasSuffix(".iink-files") { walk.skipDescendants(); continue }
            if rel.hasSuffix(".iink") { out.append(URL(fileURLWithPath: path).appendingPathComponent(rel).path) }
        }
        return out.sorted()
    }

    /// The hits in one file; unread ink recognized with `adapter` (nil: stored words only).
    static func hits(_ search: InkSearch, in file: String, adapter: TextRecognizerAdapter?, flags: RecognitionFlags) throws -> [SearchHit] {
        try read(file, adapter: adapter, flags: flags).flatMap { search.hits(in: $0.model, partIndex: $0.index, recognized: $0.recognized) }
    }

    /// What a search reads in one file: each part's model, with the words recognized for its
    /// blocks of ink that hold none (when `adapter` is given). Nothing is saved.
    static func read(_ file: String, adapter: TextRecognizerAdapter?, flags: RecognitionFlags) throws
        -> [(index: Int, model: PartModel, recognized: [String: [RecognizedWord]])] {
        let imported = try RecognizeImported.temporaryPackage(for: file)
        defer { imported.map(RecognizeImported.remove) }
        let engine = try Engine()
        let pkg = try engine.openPackage(imported ?? file)
        defer { pkg.close() }
        var out: [(index: Int, model: PartModel, recognized: [String: [RecognizedWord]])] = []
        for i in 0 ..< pkg.partCount {
            let part = try pkg.part(at: i)
            var recognized: [String: [RecognizedWord]] = [:]
            let unread = Set(part.model.unreadInkBlockIds)
            if let adapter, !unread.isEmpty, RecognizeImported.isRead(part.kind) {
                let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
                // Read here, synchronously, as `quire recognize` does; the package is not changed.
                editor.recognizer = nil
                try flags.apply(to: editor.configuration)
                try editor.setViewSize(width: 794, height: 1123)
                try editor.setPart(part)
                for b in RecognizeImported.blocks(editor.rootBlock) where unread.contains(b.id) {
                    recognized[b.id] = try adapter.recognize(try RecognizeImported.request(editor, for: b))
                }
            }
            out.append((i, part.model, recognized))
        }
        return out
    }

    static func json(_ hit: SearchHit, file: String) throws -> String {
        func r(_ v: Double) -> JSONValue { .number((v * 100).rounded() / 100) }
        return try JSONValue.object([
            "file": .string(file), "part": .number(Double(hit.partIndex)), "block": .string(hit.blockId), "word": .string(hit.word),
            "box": .object(["x": r(hit.box.x), "y": r(hit.box.y), "width": r(hit.box.width), "height": r(hit.box.height)]),
        ]).serialized()
    }

    static func line(_ hit: SearchHit, file: String) -> String {
        let at = String(format: "(%.1f, %.1f) mm", hit.box.x, hit.box.y)
        let also = hit.candidates.isEmpty ? "" : " (candidate \(hit.candidates.map { "\"\($0)\"" }.joined(separator: ", ")))"
        return "\(file): part \(hit.partIndex), block \(hit.blockId): \"\(hit.word)\"\(also) at \(at)"
    }
}
