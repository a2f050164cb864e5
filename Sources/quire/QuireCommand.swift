import ArgumentParser
import Foundation
import Quire
import QuireApp
import QuireTools

@main
struct QuireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Quire: write with a pen, recognize handwriting offline, keep it in a Text Document.",
        version: QuireVersion.string,
        subcommands: [EditCommand.self, InfoCommand.self, NewCommand.self, ExportCommand.self, ImportCommand.self, ConvertCommand.self, RecognizeCommand.self, RecoverCommand.self,
                      EvalCommand.self, EvalGesturesCommand.self, BenchCommand.self, StressSaveCommand.self, ScreenshotCommand.self,
                      FormCommand.self, ReplayCommand.self, InspectCommand.self, SearchCommand.self, EvalSearchCommand.self, CalcCommand.self],
        defaultSubcommand: EditCommand.self
    )
}

/// Turns a QuireError into a clean exit with a message instead of a stack of Swift errors.
func runReporting(_ body: () throws -> Void) throws {
    do { try body() } catch let e as QuireError {
        FileHandle.standardError.write(Data("quire: error: \(e.message) [\(e.code.rawValue)]\n".utf8))
        throw ExitCode(2)
    }
}

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Show the parts and metadata of a package.")
    @Argument(help: "The package file.") var file: String
    @Flag(help: "Machine-readable JSON output.") var json = false
    @OptionGroup var recovery: RecoveryOptions

    func run() throws {
        try runReporting {
            let (_, pkg) = try recovery.open(file)
            defer { pkg.close() }
            let snapshot = recovery.recover ? nil : RecoveryOptions.appSnapshot(for: pkg.path)
            var parts: [JSONValue] = []
            for i in 0..<pkg.partCount {
                let p = try pkg.part(at: i)
                parts.append(.object([
                    "index": .number(Double(i)), "id": .string(p.id), "type": .string(p.type),
                    "strokes": .number(Double(p.model.strokes.count)), "points": .number(Double(p.model.pointCount)),
                    "blocks": .number(Double(p.model.blocks.count)),
                    "metadata": (try? JSONValue.parse(Data(p.metadata.json.utf8))) ?? .object([:]),
                ]))
            }
            let meta = (try? JSONValue.parse(Data(pkg.metadata.json.utf8))) ?? .object([:])
            if json {
                print(try JSONValue.object(["path": .string(pkg.path), "parts": .array(parts), "metadata": meta,
                                            "recoveredFromTemp": .bool(pkg.recoveredFromTemp),
                                            "recoverySnapshot": RecoveryOptions.json(snapshot)]).serialized(pretty: true))
            } else {
                print("package: \(pkg.path)")
                if pkg.recoveredFromTemp { print("recovered: newer content from the temp folder (unclean exit)") }
                if let snapshot { print("unsaved: a newer recovery snapshot exists (revision \(snapshot.revision) > \(snapshot.archiveRevision)): see the note above") }
                print("metadata: \(pkg.metadata.json)")
                print("parts: \(pkg.partCount)")
                for case .object(let o) in parts {
                    print("  [\(o["index"]!.intValue!)] id=\(o["id"]!.stringValue!) type=\"\(o["type"]!.stringValue!)\" strokes=\(o["strokes"]!.intValue!) points=\(o["points"]!.intValue!)")
                }
            }
        }
    }
}

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a new package holding one empty part.")
    @Argument(help: "The package file to create (must not exist).") var file: String
    @Option(name: .customLong("part-type"), help: "Text, Math, Drawing, Diagram, Raw Content or Text Document.")
    var partType = PartType.textDocument.rawValue
    @Option(name: .customLong("fill-strokes"), help: "Write this many synthetic strokes (for benchmarks).")
    var fillStrokes = 0

    func run() throws {
        try runReporting {
            guard (0...1_000_000).contains(fillStrokes) else { throw QuireError(.invalidArgument, "--fill-strokes must be 0...1000000") }
            let engine = try Engine()
            let pkg = try engine.createPackage(file)
            defer { pkg.close() }
            let part = try pkg.createPart(type: partType)
            if fillStrokes > 0 {
                // Short wavy strokes in rows across a long page, written through the editor like a pen would.
                let editor = engine.createEditor(fontMetricsProvider: CairoFontMetrics())
                editor.recognizer = nil  // synthetic squiggles: nothing to recognize
                try editor.setViewSize(width: 1000, height: 700)
                try editor.setPart(part)
                try FillStrokes.write(fillStrokes, into: editor)
                try editor.setPart(nil)
            }
            try pkg.save()
            print("created \(pkg.path) with part \(part.id) (\(partType))")
        }
    }
}

struct StressSaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress-save",
        abstract: "Grow a package in a loop, alternating save() and saveToTemp(); prints what each reported written (used by the crash test).",
        shouldDisplay: false)
    @Argument var file: String
    @Option var strokesPerRound = 20
    @Option var rounds = 1_000_000

    func run() throws {
        try runReporting {
            let engine = try Engine()
            let pkg = try engine.openPackage(file, openOption: .create)
            let part = pkg.partCount > 0 ? try pkg.part(at: 0) : try pkg.createPart(type: PartType.drawing.rawValue)
            var round = 0
            while round < rounds {
                for _ in 0..<strokesPerRound {
                    part.model.insertStroke(Synthetic.stroke(id: part.model.makeStrokeId(), seq: part.model.nextSeq(), points: 30, seed: UInt64(part.model.strokes.count)))
                }
                let n = part.model.strokes.count
                // Written with write(2), unbuffered: the parent must see each line the moment the save returned.
                if round % 3 == 2 {
                    try pkg.save()
                    FileHandle.standardOutput.write(Data("saved \(n)\n".utf8))
                } else {
                    try pkg.saveToTemp()
                    FileHandle.standardOutput.write(Data("temp \(n)\n".utf8))
                }
                round += 1
            }
        }
    }
}

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Open the editor window (the default: `quire` alone opens your notebook).",
        discussion: "Without FILE, edits $XDG_DATA_HOME/quire/notes.iink. Needs an X display (DISPLAY).")
    @Argument(help: "The package to edit (created if missing); an .inkml, .xopp or .xoj file is imported into a new package beside it.") var file: String?
    @Flag(help: "Full screen with no way out except the configured exit chord (app.kiosk.exit-chord).") var kiosk = false
    @Option(help: "Window size, WIDTHxHEIGHT in pixels.") var geometry: String?
    @Option(name: .customLong("latency-log"), help: "Write per-event latency figures (JSON) to this file on exit.") var latencyLog: String?
    @Option(help: "X display (default: $DISPLAY).") var display: String?
    @Option(help: "Record the session (pointer events, commands, view changes) to this JSON-lines file for `quire replay`.") var record: String?

    func run() throws {
        if kiosk, let file, FormCommand.isForm(file) {
            // A form's kiosk is the form window (`quire form run`).
            var k = KioskOptions(file: file)
            k.display = display
            k.windowSize = try geometry.map(Self.size)
            let status = QuireKiosk.run(k)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var o = AppOptions()
        o.record = record
        o.file = file
        o.importer = { try EditImport.prepare($0).map { ($0.path, $0.note) } }
        var imported: EditImport.Imported?
        if let file {
            // Ink from elsewhere: edited as a new package beside it, said in the terminal and the window.
            try runReporting { imported = try EditImport.prepare(file) }
            if let imported {
                print("quire: \(imported.note)")
                o.file = imported.path
                o.openingNote = imported.note
            }
        }
        o.kiosk = kiosk
        o.latencyLog = latencyLog
        o.display = display
        if let g = geometry { (o.width, o.height) = try Self.size(g) }
        let status = QuireDesktop.run(o)
        if status != 0 {
            if let imported, EditImport.discardIfUntouched(imported) {
                let name = URL(fileURLWithPath: imported.path).lastPathComponent
                FileHandle.standardError.write(Data("quire: removed \(name) again: the editor did not open it, and \(URL(fileURLWithPath: file ?? "").lastPathComponent) still holds the ink\n".utf8))
            }
            throw ExitCode(status)
        }
    }
}

extension EditCommand {
    /// `--geometry WIDTHxHEIGHT`.
    static func size(_ g: String) throws -> (width: Int, height: Int) {
        let parts = g.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw ValidationError("--geometry must be WIDTHxHEIGHT, e.g. 1000x720") }
        return (parts[0], parts[1])
    }
}

struct ScreenshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot", abstract: "Save an X window (default: the whole screen) as PNG, e.g. to document or debug the editor.")
    @Option(help: "Window id (decimal or 0x hex), as printed by `quire edit` when ready.") var window: String?
    @Option(help: "X display (default: $DISPLAY).") var display: String?
    @Option(name: .shortAndLong, help: "Output PNG file.") var output: String

    func run() throws {
        try runReporting {
            var id: UInt?
            if let w = window {
                id = w.hasPrefix("0x") ? UInt(w.dropFirst(2), radix: 16) : UInt(w)
                guard id != nil else { throw QuireError(.invalidArgument, "--window must be a number, e.g. 0x200001") }
            }
            let png = try XScreenshot.capture(display: display, window: id)
            try FileIO.writeAtomically(png, to: output)
        }
    }
}

/// The synthetic page of `quire new --fill-strokes` (and so of scripts/bench-latency), shared with
/// `quire bench editor --layout latency` so that both measure the same page.
enum FillStrokes {
    /// Short wavy strokes, 30 to a row, rows 19 apart down a long page, written through the
    /// editor like a pen would (in a Text Document each row becomes Text blocks).
    static func write(_ count: Int, into editor: Editor) throws {
        var events: [PointerEvent] = []
        for i in 0..<count {
            let x = Double(i % 30) * 32 + 10, y = Double(i / 30) * 19 + 10
            events.append(.down(x: x, y: y, t: Int64(i * 1000), f: 0.5))
            for k in 1..<40 { events.append(.move(x: x + Double(k) * 0.6, y: y + sin(Double(k) / 4) * 5, t: Int64(i * 1000 + k * 5), f: 0.5)) }
            events.append(.up(x: x + 24, y: y, t: Int64(i * 1000 + 200), f: 0.5))
            if events.count > 200_000 { try editor.pointerEvents(events, processGestures: false); events = [] }
        }
        try editor.pointerEvents(events, processGestures: false)
    }
}
