import ArgumentParser
import Foundation
import Quire
import QuireApp

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a session recorded with `quire edit --record` into a fresh editor; print the text, write the package.",
        discussion: "With --window the session plays in the editor window at the recorded pace (or --speed times faster); the window stays open afterwards and saves to --out when closed.")
    @Argument(help: "The session file (JSON lines).") var session: String
    @Option(help: "Write the resulting package here (default: a temporary file, removed).") var out: String?
    @Flag(help: "Play in the editor window (needs an X display).") var window = false
    @Option(help: "Pace of --window playback: 1 as recorded, 4 four times as fast.") var speed = 1.0
    @Option(help: "X display for --window (default: $DISPLAY).") var display: String?

    func run() throws {
        try runReporting {
            guard speed.isFinite, speed > 0, speed <= 1000 else { throw QuireError(.invalidArgument, "--speed must be a number in (0, 1000]") }
            guard window || (speed == 1 && display == nil) else { throw QuireError(.invalidArgument, "--speed and --display need --window") }
            let temp = out == nil ? FileManager.default.temporaryDirectory.appendingPathComponent("quire-replay-\(getpid()).iink").path : nil
            defer { if let temp { try? FileManager.default.removeItem(atPath: temp) } }
            if window {
                var o = AppOptions()
                o.file = out ?? temp
                o.replay = session
                o.replaySpeed = speed
                o.display = display
                let status = QuireDesktop.run(o)
                if status != 0 { throw ExitCode(status) }
                return
            }
            let outcome = try SessionReplay.run(sessionPath: session, outPath: out ?? temp!)
            for d in outcome.divergences { FileHandle.standardError.write(Data("quire: warning: replay differs: \(d)\n".utf8)) }
            print(outcome.text)
            if out != nil { FileHandle.standardError.write(Data("wrote \(outcome.packagePath)\n".utf8)) }
        }
    }
}
