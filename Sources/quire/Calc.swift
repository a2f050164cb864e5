import ArgumentParser
import Foundation
import QuireApp

/// `quire calc`: the calculator window (a Math part; history in its metadata).
struct CalcCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calc",
        abstract: "Open the calculator: write an expression, see its result; Enter keeps it in the history.",
        discussion: """
            Without FILE, uses $XDG_DATA_HOME/quire/calculator.iink. The history is kept in the Math part's \
            metadata (key calculator.history, LaTeX strings). Needs an X display (DISPLAY).
            """)
    @Argument(help: "The package holding the calculator's Math part (created if missing).") var file: String?
    @Option(help: "Window size, WIDTHxHEIGHT in pixels.") var geometry: String?
    @Option(help: "X display (default: $DISPLAY).") var display: String?

    func run() throws {
        var o = CalculatorOptions(file: file)
        o.display = display
        if let g = try geometry.map(EditCommand.size) { o.windowSize = g }
        let status = QuireCalculator.run(o)
        if status != 0 { throw ExitCode(status) }
    }
}
