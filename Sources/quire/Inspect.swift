import ArgumentParser
import Foundation
import Quire
import QuireApp
import QuireTools

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Write a self-contained HTML report of how Quire reads the ink of a package, a session recording or JSON-lines samples.",
        discussion: "For each block: segmentation, per-frame network output, CTC alignment, candidates with score parts, configuration and timings.")
    @Argument(help: "A package (.iink), a session recorded with `quire edit --record`, or a JSON-lines handwriting file.") var input: String
    @Option(help: "The HTML file to write.") var html: String
    @Option(help: "Part index of a package (default: its first Text Document, else its first part).") var part: Int?
    @Option(help: "Most samples read from a JSON-lines file.") var limit = 50

    func run() throws {
        try runReporting {
            guard limit > 0 else { throw QuireError(.invalidArgument, "--limit must be positive") }
            let temp = FileManager.default.temporaryDirectory.appendingPathComponent("quire-inspect-\(getpid())-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: temp) }
            var path = input
            let engine = try Engine()
            var fromSamples = false
            if SessionRecorder.isSession(path: input) {
                path = temp.appendingPathComponent("replayed.iink").path
                _ = try SessionReplay.run(sessionPath: input, outPath: path)
            } else if !input.lowercased().hasSuffix(".iink") {
                fromSamples = true
            }
            let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
            try editor.setViewSize(width: 794, height: 1123)
            let pkg: ContentPackage
            if fromSamples {
                pkg = try engine.createPackage(temp.appendingPathComponent("samples.iink").path)
                try editor.setPart(pkg.createPart(type: PartType.textDocument.rawValue))
                try editor.importTraces(JSONLinesInk.pageTraces(try JSONLinesInk.read(path: input, limit: limit)))
            } else {
                pkg = try engine.openPackage(path)
                try editor.setPart(try Self.choosePart(pkg, part))
            }
            defer { try? editor.setPart(nil); pkg.close() }
            let report = try InspectorReport.html(editor: editor, title: URL(fileURLWithPath: input).lastPathComponent)
            try FileIO.writeAtomically(Data(report.utf8), to: html)
            print("wrote \(html) (\(report.utf8.count) bytes)")
        }
    }

    static func choosePart(_ pkg: ContentPackage, _ index: Int?) throws -> ContentPart {
        if let index { return try pkg.part(at: index) }
        for i in 0..<pkg.partCount where try pkg.part(at: i).kind == .textDocument { return try pkg.part(at: i) }
        guard pkg.partCount > 0 else { throw QuireError(.partNotFound, "the package has no part") }
        return try pkg.part(at: 0)
    }
}
