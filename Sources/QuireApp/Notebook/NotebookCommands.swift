import Foundation
import Quire

/// What the window does with the notebook's pages (toolbar, PgUp/PgDn, the page strip, a
/// two-finger swipe). Carried out by `NotebookController`.
enum PageCommand: Equatable, Sendable {
    case next, previous
    case goTo(Int)
    /// Adds a page of a kind after the current one; nil asks which kind (a menu).
    case add(PartType?)
    /// Duplicates the current page (`clonePart`).
    case duplicate
    /// Deletes the current page; `restore` brings it back until the notebook is saved.
    case delete, restore
    case move(from: Int, to: Int)
    /// Shows or hides the page strip.
    case toggleStrip
}

/// What can be exported from the window, beside the package.
enum ExportChoice: String, CaseIterable, Sendable {
    case notebookPDF, pagePNG, pageSVG, notebookText, notebookMarkdown

    var label: String {
        switch self {
        case .notebookPDF: "Export notebook as PDF"
        case .pagePNG: "Export page as PNG"
        case .pageSVG: "Export page as SVG"
        case .notebookText: "Export text"
        case .notebookMarkdown: "Export Markdown"
        }
    }
}

/// The window's file commands (the File button's menu, Ctrl+N, Ctrl+O, Ctrl+Shift+S).
enum FileCommand: Equatable, Sendable {
    /// The File menu.
    case menu
    /// Saves this notebook and starts a new one beside it.
    case new
    /// Opens a notebook, or imports another program's ink; nil shows the file chooser.
    case open(String?)
    /// Saves the notebook under another name; nil shows the file chooser.
    case saveAs(String?)
    /// Saves the notebook over an existing file, once the user answered Replace.
    case replace(String)
    case export(ExportChoice)
}
