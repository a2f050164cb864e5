import Foundation
import Quire

/// Everything the window can be asked to do: the toolbar, the keyboard and the context menu all
/// name one of these, and `CommandDispatcher.perform(_:)` is the one place that does it.
enum AppCommand: Equatable, Sendable {
    /// The pen's (and, when it writes with the pen's tool, the mouse's) tool.
    case tool(Tool)
    case undo, redo
    /// Removes all content.
    case clear
    /// Converts the selected block, or everything when nothing is selected.
    case convert
    /// Converts one block (the context menu's target).
    case convertBlock(String)
    case convertWord(WordRef)
    /// Adds an empty Text block below the content and selects it.
    case addTextBlock
    /// Adds an empty Math block below the content and selects it: writing in it reads math.
    case addMathBlock
    /// Asks for an image file's path (typed in the toolbar) to insert.
    case insertImage
    case save
    /// Copies the lasso selection, else the selected block, to the CLIPBOARD.
    case copy
    /// Copies the lasso selection to the CLIPBOARD and deletes it.
    case cut
    /// Converts the lasso selection (its blocks, and the words whose ink is all selected).
    case convertSelection
    /// The current tool's colour and/or width (nil: kept); a colour also recolours the lasso
    /// selection. Kept across sessions (`PenSettings`).
    case penStyle(color: String?, width: Float?)
    /// Opens the pens' palette (colours and widths of the current tool).
    case pens(at: Point?)
    /// Opens the custom colour chooser: a grid of hues by lightness, and greys.
    case colourGrid(at: Point?)
    /// Pastes the CLIPBOARD at a point of the canvas (nil: where the pointer last was).
    case paste(at: Point?)
    /// Removes a block (nil: the selected one).
    case removeBlock(String?)
    case removeWord(WordRef)
    /// Writes a block beside the package as PNG, and as text when it has any.
    case exportBlock(String)
    /// Opens a word's candidates at a point of the canvas.
    case showCandidates(WordRef, at: Point)
    case selectCandidate(WordRef, Int)
    case zoomIn, zoomOut
    case toggleFullscreen
    /// Shows or hides the recognition debug overlay and the inspector panel (F12).
    case toggleInspector
    /// Saves and closes the window.
    case quit
    /// Clears the selection and the selected word.
    case clearSelection
    /// Opens the context menu (nil: where the pointer last was).
    case contextMenu(at: Point?)
    /// Types text into the selected Text block (or a new one); "\u{8}" deletes backwards.
    case typeText(String)
    /// The notebook's pages (`QuireApp/Notebook/`).
    case page(PageCommand)
    /// New, Open, Save As, exports (`QuireApp/Notebook/`).
    case file(FileCommand)
    /// The search bar (`QuireApp/Notebook/SearchBar.swift`).
    case search(SearchCommand)
}

extension ToolbarCommand {
    /// What pressing the button does.
    var command: AppCommand {
        switch self {
        case .pen: .tool(.pen)
        case .highlighter: .tool(.highlighter)
        case .eraser: .tool(.eraser)
        case .selector: .tool(.selector)
        case .undo: .undo
        case .redo: .redo
        case .clear: .clear
        case .convert: .convert
        case .text: .addTextBlock
        case .math: .addMathBlock
        case .image: .insertImage
        case .save: .save
        case .pens: .pens(at: nil)
        case .file: .file(.menu)
        case .previousPage: .page(.previous)
        case .pages: .page(.toggleStrip)
        case .nextPage: .page(.next)
        }
    }
}

/// The keyboard's shortcuts, and the text plain keys type.
struct KeyMap: Sendable {
    /// A kiosk has no way out but its exit chord: no Ctrl+Q, no F11.
    var kiosk: Bool
    /// `app.kiosk.exit-chord`, lower case ("ctrl+alt+shift+q").
    var exitChord: String

    init(kiosk: Bool, exitChord: String = "ctrl+alt+shift+q") {
        self.kiosk = kiosk
        self.exitChord = exitChord.lowercased()
    }

    /// True for the kiosk's exit chord (modifiers in the order ctrl, alt, shift, then the key).
    func isExitChord(_ k: KeyInput) -> Bool {
        guard kiosk else { return false }
        var chord: [String] = []
        if k.ctrl { chord.append("ctrl") }
        if k.alt { chord.append("alt") }
        if k.shift { chord.append("shift") }
        if let name = k.name { chord.append(name) }
        return chord.joined(separator: "+") == exitChord
    }

    /// The command of a key press outside popups and prompts; nil: the key does nothing.
    func command(for k: KeyInput) -> AppCommand? {
        if k.key == .menu { return .contextMenu(at: nil) }
        if k.ctrl {
            switch k.key {
            case .character(let c):
                switch c.lowercased() {
                case "z": return k.shift ? .redo : .undo
                case "y": return .redo
                case "s": return kiosk ? .save : k.shift ? .file(.saveAs(nil)) : .save
                case "n": return kiosk ? nil : .file(.new)
                case "o": return kiosk ? nil : .file(.open(nil))
                case "f": return .search(.open)
                case "c": return .copy
                case "x": return .cut
                case "v": return .paste(at: nil)
                case "+", "=": return .zoomIn
                case "-": return .zoomOut
                case "q": return kiosk ? nil : .quit
                default: return nil
                }
            case .keypadPlus: return .zoomIn
            case .keypadMinus: return .zoomOut
            case .enter: return .convert
            default: return nil
            }
        }
        switch k.key {
        case .f11: return kiosk ? nil : .toggleFullscreen
        case .f12: return kiosk ? nil : .toggleInspector
        case .pageUp: return .page(.previous)
        case .pageDown: return .page(.next)
        case .delete: return .removeBlock(nil)
        case .escape: return .clearSelection
        case .backspace: return .typeText("\u{8}")
        case .enter: return .typeText("\n")
        case .character(let c): return .typeText(String(c))
        default: return Self.isPrintable(k.text) ? .typeText(k.text) : nil
        }
    }

    /// Text a key may type: something, and no control characters (Ctrl+letter, Delete).
    static func isPrintable(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7f...0x9f).contains($0.value) }
    }
}
