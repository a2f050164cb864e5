import ArgumentParser
import Foundation
import Quire

@main
struct QuireCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire",
        abstract: "Quire: write with a pen, recognize handwriting offline, keep it in a Text Document.",
        version: QuireVersion.string,
        subcommands: [InfoCommand.self, NewCommand.self, ExportCommand.self, ImportCommand.self, RecognizeCommand.self, EvalCommand.self,
                      BenchCommand.self, StressSaveCommand.self]
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

    func run() throws {
        try runReporting {
            let engine = try Engine()
            let pkg = try engine.openPackage(file)
            defer { pkg.close() }
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
                print(JSONValue.object(["path": .string(pkg.path), "parts": .array(parts), "metadata": meta,
                                        "recoveredFromTemp": .bool(pkg.recoveredFromTemp)]).serialized(pretty: true))
            } else {
                print("package: \(pkg.path)")
                if pkg.recoveredFromTemp { print("recovered: newer content from the temp folder (unclean exit)") }
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
    var partType = "Text Document"

    func run() throws {
        try runReporting {
            let engine = try Engine()
            let pkg = try engine.createPackage(file)
            defer { pkg.close() }
            let part = try pkg.createPart(type: partType)
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
            let part = pkg.partCount > 0 ? try pkg.part(at: 0) : try pkg.createPart(type: "Drawing")
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
