import ArgumentParser
import Foundation
import Quire
import QuireApp

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a session recorded with `quire edit --record` into a fresh editor; print the text, write the package.")
    @Argument(help: "The session file (JSON lines).") var session: String
    @Option(help: "Write the resulting package here (default: a temporary file, removed).") var out: String?

    func run() throws {
        try runReporting {
            let temp = out == nil ? FileManager.default.temporaryDirectory.appendingPathComponent("quire-replay-\(getpid()).iink").path : nil
            defer { if let temp { try? FileManager.default.removeItem(atPath: temp) } }
            let outcome = try SessionReplay.run(sessionPath: session, outPath: out ?? temp!)
            for d in outcome.divergences { FileHandle.standardError.write(Data("quire: warning: replay differs: \(d)\n".utf8)) }
            print(outcome.text)
            if out != nil { FileHandle.standardError.write(Data("wrote \(outcome.packagePath)\n".utf8)) }
        }
    }
}
