import Foundation
import InkRecognition
import Quire
import QuireTools

/// InkML and JSON-lines import, in process, on files tools/fuzz/fuzz_import.py generated
/// (`--files DIR` holds `case-<i>.inkml|.jsonl|.jsonl.gz|.json`). Each file goes the way of
/// `quire import`: parsed, placed, written into a Text Document through the editor, saved. Then:
/// the package opens again with the same model (else the import lost data), the model is
/// consistent, its InkML export reads back with a trace per stroke, text and JSON export work,
/// and sometimes the ink is recognized. JSON lines are also read as `quire recognize --jsonl`
/// reads them (`JSONLinesInk`, as `QuireTools.LabeledSample`) and recognized.
final class ImportFuzz: FuzzTarget {
    let context: FuzzContext
    let fonts = CairoFontMetrics()
    let files: String

    init(context: FuzzContext) throws {
        self.context = context
        guard let dir = context.options.files else { throw Violation("the import target needs --files DIR") }
        files = dir
    }

    func run(index: Int, rng: inout SplitMix) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: files)) ?? []
        guard let name = names.first(where: { $0.hasPrefix("case-\(index).") }) else { throw Violation("no file case-\(index).* in \(files)") }
        let file = files + "/" + name
        let jsonl = name.hasSuffix(".jsonl") || name.hasSuffix(".jsonl.gz") || name.hasSuffix(".json")
        let ws = try Workspace(base: context.work, name: "import-\(index)")
        defer { ws.remove() }
        if jsonl { try recognizeSamples(file, &rng) }

        let traces: [ImportedTrace]
        do {
            traces = jsonl ? JSONLinesInk.pageTraces(try JSONLinesInk.read(path: file, limit: 50))
                           : try InkMLReader.read(try FileIO.readFile(file, maxBytes: 256 << 20))
        } catch let e as QuireError {
            context.log("refused: \(e.message.prefix(160))")
            return
        }
        let engine = try Engine()
        let path = ws.file("imported.iink")
        var pkg = try engine.createPackage(path)
        defer { pkg.close() }
        let part = try pkg.createPart(type: PartType.textDocument.rawValue)
        let editor = engine.createEditor(fontMetricsProvider: fonts)
        editor.recognizer = nil
        try editor.setViewSize(width: 794, height: 1123)
        try editor.setPart(part)
        let empty = ModelSnapshot(part.model)
        do { try editor.importTraces(traces) } catch let e as QuireError {
            // One batch, checked before anything lands: a refusal leaves the part empty.
            if ModelSnapshot(part.model) != empty { throw Violation("importTraces threw (\(e.message)) but changed the part") }
            context.log("import refused: \(e.message.prefix(160))")
            return
        }
        context.log("imported \(traces.count) traces as \(part.model.strokes.count) strokes")
        if let p = Invariants.problem(part.model, idle: false) { throw Violation("after import: \(p)") }
        do { try pkg.save() } catch let e as QuireError { throw Violation("the imported package does not save: \(e.message)") }
        let saved = ModelSnapshot(part.model)
        pkg.close()
        do { pkg = try engine.openPackage(path) } catch let e as QuireError {
            throw Violation("the imported package does not open again (lost data): \(e.message)")
        }
        let reopened = try pkg.part(at: 0)
        if ModelSnapshot(reopened.model) != saved { throw Violation("the reopened import differs: \(saved.difference(to: ModelSnapshot(reopened.model)))") }
        let e = engine.createEditor(fontMetricsProvider: fonts)
        if rng.chance(0.8) { e.recognizer = nil }
        try e.setViewSize(width: 794, height: 1123)
        try e.setPart(reopened)
        try e.waitForIdle()
        if let p = Invariants.problem(reopened.model, idle: e.recognizer != nil) { throw Violation("after reopening: \(p)") }
        if let p = Invariants.exportProblem(e, reopened.model) { throw Violation("after reopening: \(p)") }
        if rng.chance(0.05), let p = Invariants.imageExportProblem(e, &rng) { throw Violation("after reopening: \(p)") }
    }

    /// As `quire recognize --jsonl` reads a file: each line a sample, each sample recognized.
    func recognizeSamples(_ file: String, _ rng: inout SplitMix) throws {
        guard rng.chance(0.5), let raw = try? FileIO.readFile(file, maxBytes: 64 << 20), let data = try? Gzip.decompress(raw, maxBytes: 256 << 20) else { return }
        guard let (recognizer, options) = try? TextRecognizerAdapter.shared?.configured(options: [:]) else { return }
        var n = 0
        for line in data.split(separator: UInt8(ascii: "\n")) where n < 20 {
            guard let s = try? LabeledSample(jsonLine: Data(line)) else { continue }
            n += 1
            var o = options
            o.inMillimetres = s.inMillimetres
            // Crashes and hangs are what this looks for; scores are `quire recognize`'s to check.
            _ = recognizer.recognize(strokes: s.strokes, options: o)
        }
    }
}
