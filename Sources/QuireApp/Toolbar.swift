import Foundation
import Quire

/// The toolbar's commands.
public enum ToolbarCommand: String, CaseIterable, Sendable {
    case file, pen, highlighter, eraser, selector, pens, undo, redo, clear, convert, text, math, image, save, previousPage, pages, nextPage

    var label: String {
        switch self {
        case .pen: "Pen"
        case .highlighter: "Marker"
        case .eraser: "Eraser"
        case .selector: "Lasso"
        case .pens: "Colour"
        case .undo: "Undo"
        case .redo: "Redo"
        case .clear: "Clear"
        case .convert: "Convert"
        case .text: "Text"
        case .math: "Math"
        case .image: "Image"
        case .save: "Save"
        case .file: "File"
        case .previousPage: "\u{25C0}"
        case .pages: "Pages"
        case .nextPage: "\u{25B6}"
        }
    }

    /// The tool a tool button selects.
    var tool: Tool? {
        switch self {
        case .pen: .pen
        case .highlighter: .highlighter
        case .eraser: .eraser
        case .selector: .selector
        default: nil
        }
    }
}

/// Lays out the toolbar: touch-sized buttons (at least 40 px at scale 1) left to right.
public struct ToolbarLayout: Sendable {
    public var commands: [ToolbarCommand]
    public var scale: Double

    public init(kiosk: Bool, scale: Double) {
        // A kiosk has no files to pick or save: it saves on its own.
        commands = ToolbarCommand.allCases.filter { !kiosk || ($0 != .image && $0 != .save && $0 != .file) }
        self.scale = scale
    }

    /// Height of the toolbar in pixels.
    public var height: Int { Int((48 * scale).rounded()) }

    /// Button frames in toolbar pixels.
    public func frames() -> [(ToolbarCommand, Rect)] {
        var x = 6 * scale
        var out: [(ToolbarCommand, Rect)] = []
        for c in commands {
            let w = max(44 * scale, ChromePainter.labelWidth(c.label, scale: scale) + 20 * scale)
            out.append((c, Rect(x: x, y: 5 * scale, width: w, height: Double(height) - 10 * scale)))
            x += w + (c == .file || c == .pens || c == .clear || c == .save ? 14 : 5) * scale
        }
        return out
    }

    /// The command under a toolbar point.
    public func command(at p: Point) -> ToolbarCommand? {
        frames().first { $0.1.insetBy(dx: -2 * scale, dy: -4 * scale).contains(p) }?.0
    }
}

/// The toolbar's state and painting: which button is held down, the status message at its right
/// end, and the image path being typed there.
final class ToolbarController {
    let layout: ToolbarLayout
    private let window: PaintedWindow
    private var pressed: ToolbarCommand?
    private var signature = ""
    private(set) var message = ""
    private var messageUntil: Date?
    /// The image path being typed (nil: no prompt).
    private(set) var prompt: String?

    init(layout: ToolbarLayout, window: PaintedWindow) {
        self.layout = layout
        self.window = window
    }

    /// Shows a message for a while (also on stderr).
    func show(_ text: String, seconds: TimeInterval = 5) {
        message = text
        messageUntil = Date().addingTimeInterval(seconds)
        FileHandle.standardError.write(Data("quire: \(text)\n".utf8))
    }

    /// A message shown from the start, not echoed (the caller reports it its own way).
    func showQuietly(_ text: String, seconds: TimeInterval) {
        message = text
        if !text.isEmpty { messageUntil = Date().addingTimeInterval(seconds) }
    }

    /// True while a message waits to be taken down (the loop wakes for it).
    var hasTimedMessage: Bool { messageUntil != nil }

    func expireMessage(now: Date = Date()) {
        if let until = messageUntil, now > until { message = ""; messageUntil = nil }
    }

    /// A press (pixels of the toolbar): remembers the button under it.
    func press(at p: Point) { pressed = layout.command(at: p) }

    /// A release: the button's command when it is the one pressed.
    func release(at p: Point) -> AppCommand? {
        let c = layout.command(at: p)
        defer { pressed = nil }
        guard let c, c == pressed else { return nil }
        return c.command
    }

    // MARK: the image path prompt

    func beginPrompt() { prompt = "" }

    /// A key while the prompt is open; returns the path when Enter submits it.
    func promptKey(_ k: KeyInput) -> String? {
        guard var p = prompt else { return nil }
        switch k.key {
        case .escape: prompt = nil
        case .enter:
            prompt = nil
            return p
        case .backspace:
            if !p.isEmpty { p.removeLast() }
            prompt = p
        default:
            if !k.ctrl, KeyMap.isPrintable(k.text) { prompt = p + k.text }
        }
        return nil
    }

    /// Repaints when what the toolbar shows changed (or always with `force`).
    /// Buttons drawn held down (Pages while the page strip shows) and greyed out (◀ on the first page).
    var latched: Set<ToolbarCommand> = []
    var disabled: Set<ToolbarCommand> = []

    func paint(width: Int, scale: Double, tool: Tool, canUndo: Bool, canRedo: Bool, theme: Theme, force: Bool = false) {
        let sig = "\(tool)|\(canUndo)|\(canRedo)|\(message)|\(prompt ?? "-")|\(pressed?.rawValue ?? "")|\(width)|"
            + "\(latched.map(\.rawValue).sorted())|\(disabled.map(\.rawValue).sorted())"
        guard force || sig != signature else { return }
        signature = sig
        let buttons = layout.frames().map { c, f in
            ChromeButton(id: c.rawValue, label: c.label, frame: f, active: c.tool == tool || c == pressed || latched.contains(c),
                         enabled: c == .undo ? canUndo : c == .redo ? canRedo : !disabled.contains(c))
        }
        let text = prompt.map { "Image file: \($0)_  (Enter to insert, Esc to cancel)" } ?? message
        ChromePainter.drawToolbar(on: window.surface, width: width, height: layout.height, scale: scale, buttons: buttons,
                                  message: text, theme: theme)
    }
}
