import ArgumentParser
import Foundation
import InkFormats
import InkRecognition
import Quire
import QuireApp
import QuireTools

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Write a self-contained HTML report of how Quire reads the ink of a package, a session recording, an InkML or Xournal++ file, or labelled JSON-lines samples.",
        discussion: """
        For each block: the page with a timeline, segmentation layers, per-frame network output, CTC alignment, candidates with \
        score parts, configuration and timings; for a session, why each pen stroke was or was not a gesture. For JSON-lines \
        samples: CER and accuracy per category (as `quire eval` counts them), confusions, the worst errors as a gallery. \
        --compare reads the same ink again with other settings, side by side.
        """)
    @Argument(help: "A package (.iink), a session recorded with `quire edit --record`, an .inkml/.xopp file, or JSON-lines handwriting files (.jsonl, .jsonl.gz; several are read as one set, each thinned by --limit as `quire eval` does).")
    var inputs: [String]
    var input: String { inputs[0] }
    @Option(help: "The HTML file to write; without it, the inspector window opens (X display needed).") var html: String?
    @Option(help: "X display of the inspector window (default: $DISPLAY).") var display: String?
    @Option(help: "Size of the inspector window, WIDTHxHEIGHT.") var geometry: String?
    @Option(help: "Part index of a package (default: its first Text Document, else its first part).") var part: Int?
    @Option(help: "JSON-lines samples: at most this many samples per category, evenly spread over the file (as `quire eval --limit`).")
    var limit = 50
    @Flag(name: .customLong("validation-only"), help: "JSON-lines samples: only writers of the validation split.") var validationOnly = false
    @Option(help: "Read the ink a second time with these settings and show both: \"KEY=VALUE,…\" with text.configuration keys (lexicon-mode=off) or lm-weight, char-bonus, lexicon-bonus, beam-width, n-best, model, lm, char-model.")
    var compare: String?
    @Option(help: "JSON-lines samples: how many of the worst errors the gallery shows.") var gallery = 300
    @Option(help: "JSON-lines samples: how many of those in full detail (frame strip, alignment, candidates).") var detail = 40
    @OptionGroup var flags: RecognitionFlags

    func run() throws {
        try runReporting {
            guard limit > 0, gallery >= 0, detail >= 0 else { throw QuireError(.invalidArgument, "--limit must be positive, --gallery and --detail not negative") }
            guard !inputs.isEmpty else { throw QuireError(.invalidArgument, "give the ink to inspect") }
            guard let html else { return try openWindow() }
            let base = flags.readingSettings
            let other = try compare.map { try base.applying($0) }
            let report: String
            if SessionRecorder.isSession(path: input) || input.lowercased().hasSuffix(".iink") || Self.isOtherInk(input) {
                guard inputs.count == 1 else { throw QuireError(.invalidArgument, "give one package, session or ink file (several files only of JSON-lines samples)") }
                report = try editorReport(base: base, compare: other)
            } else {
                report = try samplesReport(base: base, compare: other)
            }
            try FileIO.writeAtomically(Data(report.utf8), to: html)
            print("wrote \(html) (\(report.utf8.count) bytes)")
        }
    }

    static func isOtherInk(_ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        switch try? FormatDetector.detect(path: path) {
        case .inkml?, .xournal?, .quireJSON?: return true
        default: return false
        }
    }

    /// The inspector window: the package (a copy: nothing it shows is changed), the replayed
    /// session or the imported ink in the editor window with the overlay, the panel and a timeline.
    private func openWindow() throws {
        guard inputs.count == 1, SessionRecorder.isSession(path: input) || input.lowercased().hasSuffix(".iink") || Self.isOtherInk(input) else {
            throw QuireError(.invalidArgument, "the inspector window shows one package, session or ink file; labelled samples have the HTML report (--html OUT.html)")
        }
        guard let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"], !name.isEmpty else {
            throw QuireError(.invalidArgument, "no X display for the inspector window: set DISPLAY, or write the report with --html OUT.html")
        }
        guard compare == nil else { throw QuireError(.invalidArgument, "--compare is shown in the HTML report (--html OUT.html)") }
        let temp = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temp) }
        let gestures = GestureLog()
        let path = try prepare(in: temp, gestures: gestures)
        var o = AppOptions()
        o.file = path
        o.inspect = true
        o.inspectGestures = gestures.all
        o.display = name
        o.openingNote = "Inspecting \(URL(fileURLWithPath: input).lastPathComponent)"
        if let geometry {
            let parts = geometry.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { throw QuireError(.invalidArgument, "--geometry must be WIDTHxHEIGHT") }
            (o.width, o.height) = (parts[0], parts[1])
        }
        let status = QuireDesktop.run(o)
        if status != 0 { throw ExitCode(status) }
    }

    static func temporaryFolder() throws -> URL {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("quire-inspect-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        return temp
    }

    /// The package to read: a copy of the input package, the replayed session (its gestures
    /// explained into `gestures`) or the imported ink, in `temp`.
    private func prepare(in temp: URL, gestures: GestureLog) throws -> String {
        let path = temp.appendingPathComponent("inspected.iink").path
        if SessionRecorder.isSession(path: input) {
            _ = try SessionReplay.run(sessionPath: input, outPath: path) { editor in
                editor.gestureObserver = { gestures.all.append($0) }
            }
        } else if Self.isOtherInk(input) {
            _ = try ImportFile.build(input, out: path, limit: .max, layout: "text-document")
        } else {
            guard FileManager.default.fileExists(atPath: input) else { throw QuireError(.fileNotFound, "\(input): no such package") }
            try FileManager.default.copyItem(atPath: input, toPath: path)
        }
        return path
    }

    /// A package, a replayed session or imported ink, read through an editor.
    private func editorReport(base: ReadingSettings, compare: ReadingSettings?) throws -> String {
        let adapter = try flags.adapter()
        let temp = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temp) }
        let gestures = GestureLog()
        let path = SessionRecorder.isSession(path: input) || Self.isOtherInk(input) ? try prepare(in: temp, gestures: gestures) : input
        let engine = try Engine()
        let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
        editor.recognizer = adapter
        try flags.apply(to: editor.configuration)
        try editor.setViewSize(width: 794, height: 1123)
        let pkg = try engine.openPackage(path)
        try editor.setPart(try Self.choosePart(pkg, part))
        defer { try? editor.setPart(nil); pkg.close() }
        return try InspectorReport.html(editor: editor, title: URL(fileURLWithPath: input).lastPathComponent, base: base,
                                        compare: compare, gestures: gestures.all)
    }

    /// Labelled samples, read as `quire eval` reads them.
    private func samplesReport(base: ReadingSettings, compare: ReadingSettings?) throws -> String {
        let adapter = try flags.adapter()
        let (recognizer, configured) = try adapter.configured(options: base.options)
        let a = InspectorSamples.Reader(recognizer: recognizer, options: base.decoderOptions(configured), name: "A",
                                        configuration: Self.describe(adapter, recognizer, base.decoderOptions(configured), base))
        var b: InspectorSamples.Reader?
        if let compare {
            let other = try compare.adapter(over: adapter)
            let (r, c) = try other.configured(options: compare.options)
            b = InspectorSamples.Reader(recognizer: r, options: compare.decoderOptions(c), name: "B",
                                        configuration: Self.describe(other, r, compare.decoderOptions(c), compare),
                                        detail: compare.differences(from: base).joined(separator: ", "))
        }
        // Each file thinned on its own, then the categories joined: `quire eval`'s "all files" rows.
        var byCategory: [String: [LabeledSample]] = [:]
        for path in inputs {
            for (cat, list) in SampleEvaluation.select(try SampleEvaluation.read(path, validationOnly: validationOnly), limit: limit) {
                byCategory[cat, default: []] += list
            }
        }
        let groups = SampleEvaluation.categories.compactMap { c in byCategory[c].map { (category: c, samples: $0) } }
        guard !groups.isEmpty else { throw QuireError(.importError, "\(inputs.joined(separator: ", ")): no labelled sample of a known category to read") }
        var limits = InspectorSamples.Limits()
        limits.gallery = gallery
        limits.detail = min(detail, gallery)
        return InspectorSamples.html(groups: groups, title: inputs.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", "), a: a, b: b, limits: limits)
    }

    /// The configuration in force for samples, as the report lists it.
    static func describe(_ adapter: TextRecognizerAdapter, _ r: TextRecognizer, _ o: RecognitionOptions, _ s: ReadingSettings) -> [String: String] {
        var c = s.options.filter { !$0.value.isEmpty }
        c["model"] = adapter.modelURL.path
        c["lexicon-mode.resolved"] = "\(o.lexiconMode)"
        c["lexicon"] = r.lexicon.map { "\($0.count) words" } ?? "none"
        c["language-model"] = r.languageModel != nil ? "on (weight \(o.languageModelWeight), bonus \(o.characterBonus))" : "off"
        c["character-model"] = r.characterModel != nil ? "on" : "off"
        c["beam-width"] = "\(o.beamWidth)"
        c["n-best"] = "\(o.nBest)"
        if let chars = o.allowedCharacters { c["allowed-characters"] = String(chars.sorted()) }
        if let re = o.regularExpression { c["regex"] = re }
        return c
    }

    static func choosePart(_ pkg: ContentPackage, _ index: Int?) throws -> ContentPart {
        if let index { return try pkg.part(at: index) }
        for i in 0..<pkg.partCount where try pkg.part(at: i).kind == .textDocument { return try pkg.part(at: i) }
        guard pkg.partCount > 0 else { throw QuireError(.partNotFound, "the package has no part") }
        return try pkg.part(at: 0)
    }
}

/// The gesture explanations of a replay, collected as the editor gives them.
private final class GestureLog {
    var all: [GestureExplanation] = []
}
