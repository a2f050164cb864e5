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

/// The toolbar's state and painting: which button is held down, the More menu of the buttons that
/// do not fit, the status message at its right end (over the canvas when there is no room), and
/// the image path being typed there.
final class ToolbarController {
    private(set) var layout: ToolbarLayout
    private let window: PaintedWindow
    /// Shows the message over the canvas when the toolbar has no room for it (nil: clipped).
    private let overlay: MessageOverlay?
    private var pressed: ToolbarCommand?
    private var pressedMore = false
    private var tool: Tool?
    private var canUndo = false, canRedo = false
    private var signature = ""
    private(set) var message = ""
    private var messageUntil: Date?
    /// The image path being typed (nil: no prompt).
    private(set) var prompt: String?
    /// Opens a menu at a point of the canvas (the More button's; the window's popup menu).
    var openMenu: (String, [OverlayMenu.Item], Point) -> Void = { _, _, _ in }

    init(layout: ToolbarLayout, window: PaintedWindow, overlay: PaintedWindow? = nil) {
        self.layout = layout
        self.window = window
        self.overlay = overlay.map { MessageOverlay(window: $0, scale: layout.scale) }
    }

    /// The More menu: the folded buttons' commands, the current tool marked.
    var moreItems: [OverlayMenu.Item] {
        layout.folded.map { c in
            OverlayMenu.Item(label: c.menuLabel, action: c.command, enabled: c == .undo ? canUndo : c == .redo ? canRedo : !disabled.contains(c), current: c.tool != nil && c.tool == tool)
        }
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
    func press(at p: Point) {
        pressed = layout.command(at: p)
        pressedMore = layout.isMore(at: p)
    }

    /// A release: the button's command when it is the one pressed; on More, opens its menu
    /// under the button.
    func release(at p: Point) -> AppCommand? {
        let c = layout.command(at: p)
        defer { pressed = nil; pressedMore = false }
        if pressedMore, layout.isMore(at: p), let f = layout.moreFrame {
            openMenu("More", moreItems, Point(x: f.x, y: 0))
            return nil
        }
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
        let sig = "\(tool)|\(canUndo)|\(canRedo)|\(message)|\(prompt ?? "-")|\(pressed?.rawValue ?? "")|\(pressedMore)|\(width)|"
            + "\(latched.map(\.rawValue).sorted())|\(disabled.map(\.rawValue).sorted())"
        guard force || sig != signature else { return }
        signature = sig
        (self.tool, self.canUndo, self.canRedo) = (tool, canUndo, canRedo)
        layout.width = Double(width)
        var buttons = layout.frames().map { c, f in
            ChromeButton(id: c.rawValue, label: c.label, frame: f, active: c.tool == tool || c == pressed || latched.contains(c),
                         enabled: c == .undo ? canUndo : c == .redo ? canRedo : !disabled.contains(c))
        }
        if let f = layout.moreFrame {
            // Held down while it hides the current tool, so the pen's state stays visible.
            let hidesTool = layout.folded.contains { $0.tool == tool }
            buttons.append(ChromeButton(id: "more", label: ToolbarLayout.moreLabel, frame: f, active: pressedMore || hidesTool, enabled: true))
        }
        let text = prompt.map { "Image file: \($0)_  (Enter to insert, Esc to cancel)" } ?? message
        let fits = ChromePainter.labelWidth(text, scale: scale) <= layout.messageFrame.width
        ChromePainter.drawToolbar(on: window.surface, width: width, height: layout.height, scale: scale, buttons: buttons,
                                  message: fits || overlay == nil ? text : "", theme: theme)
        overlay?.show(fits ? "" : text, width: Double(width), theme: theme, force: force)
    }
}

extension ToolbarCommand {
    /// The label in the More menu (the page arrows never fold).
    var menuLabel: String {
        switch self {
        case .pens: "Colour\u{2026}"
        case .file: "File\u{2026}"
        case .image: "Image\u{2026}"
        default: label
        }
    }
}

/// The status message in a strip over the top of the canvas, for when the toolbar has no room.
final class MessageOverlay {
    private let window: PaintedWindow
    private let scale: Double
    private var shown = ""
    private var shownWidth = 0.0

    init(window: PaintedWindow, scale: Double) {
        self.window = window
        self.scale = scale
    }

    /// Shows `text` across the canvas's width; "" hides it.
    func show(_ text: String, width: Double, theme: Theme, force: Bool) {
        guard text != shown || (!text.isEmpty && (force || width != shownWidth)) else { return }
        (shown, shownWidth) = (text, width)
        guard !text.isEmpty else { window.hide(); return }
        let h = (30 * scale).rounded()
        window.setFrame(Rect(x: 0, y: 0, width: width, height: h))
        window.showRaised()
        ChromePainter.drawToolbar(on: window.surface, width: Int(width), height: Int(h), scale: scale, buttons: [], message: text,
                                  theme: theme)
    }
}
