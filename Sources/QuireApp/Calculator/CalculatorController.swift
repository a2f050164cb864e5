import Foundation
import Quire

/// The calculator's state without a window: a package with one Math part, its editor, and the
/// history of pushed expressions, kept in the part's metadata as LaTeX strings (the SDK's
/// storage pattern: `part.metadata`, key `calculator.history`, saved with the package).
public final class CalculatorController {
    /// The metadata key of the history: a string array of LaTeX, oldest first.
    public static let historyKey = "calculator.history"
    /// The most entries kept (the oldest go first).
    public static let historyLimit = 200

    public let package: ContentPackage
    public let part: ContentPart
    public let editor: Editor

    /// Opens `path` (creating it) and its first Math part (adding one), attached to `editor`.
    public init(path: String, engine: Engine, editor: Editor) throws {
        package = try engine.openPackage(path, openOption: .create)
        var found: ContentPart?
        for i in 0..<package.partCount where found == nil {
            let p = try package.part(at: i)
            if p.type == "Math" { found = p }
        }
        part = try found ?? package.createPart(type: "Math")
        self.editor = editor
        try editor.setPart(part)
    }

    /// The pushed expressions, oldest first (LaTeX; entries that are not strings are skipped).
    public var history: [String] {
        (try? part.metadata.getStringArray(Self.historyKey, default: [])) ?? []
    }

    /// The expression being written, solved: the last line of the part.
    public var current: MathLine? { (try? editor.mathLines())?.last }

    /// What the result area shows: the result, a diagnostic, or nothing yet.
    public var resultText: String {
        guard let c = current else { return "" }
        if let r = c.solution.result { return r.plainText }
        return c.solution.diagnostic?.message ?? ""
    }

    /// Pushes what is written onto the history (with its result when it has one) and clears the
    /// page for the next expression; saves. False when nothing is written.
    @discardableResult
    public func push() throws -> Bool {
        try editor.waitForIdle()
        guard let c = current else { return false }
        let latex = c.solution.solved.latex
        guard !latex.isEmpty else { return false }
        var h = history + [latex]
        if h.count > Self.historyLimit { h.removeFirst(h.count - Self.historyLimit) }
        try setHistory(h)
        editor.clear()
        try package.save()
        return true
    }

    /// Empties the history; saves.
    public func clearHistory() throws {
        try setHistory([])
        try package.save()
    }

    /// As the SDK's storage page does it: take the part's metadata, change it, set it back.
    private func setHistory(_ h: [String]) throws {
        let metadata = part.metadata
        try metadata.setStringArray(h, forKey: Self.historyKey)
        part.metadata = metadata
    }

    public func save() throws { try package.save() }
}
