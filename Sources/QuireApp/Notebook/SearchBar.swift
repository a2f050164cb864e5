import Foundation
import Quire

/// What the search bar does (Ctrl+F opens it; Enter and Shift+Enter go to the next and previous
/// hit, across pages; Esc closes it).
enum SearchCommand: Equatable, Sendable {
    case open, next, previous, close
}

/// The search bar's state without a window: the query, its hits across the notebook (`InkSearch`:
/// any candidate of a handwritten word, case and accents ignored), and the hit shown.
struct SearchState: Sendable {
    private(set) var query = ""
    private(set) var hits: [SearchHit] = []
    /// The hit shown (nil: none yet, or no hits).
    private(set) var current: Int?

    /// A new query: its hits, none shown yet.
    mutating func setQuery(_ q: String, in package: ContentPackage) {
        query = q
        current = nil
        hits = (try? InkSearch(q).hits(in: package)) ?? []
    }

    /// Reads the query again (pages or words changed).
    mutating func refresh(in package: ContentPackage) {
        let keep = current.map { hits[$0] }
        hits = (try? InkSearch(query).hits(in: package)) ?? []
        current = keep.flatMap { k in hits.firstIndex { $0.partIndex == k.partIndex && $0.blockId == k.blockId && $0.box == k.box } }
    }

    /// Steps to the next (or previous) hit, wrapping around; the hit to show, if any. From no hit
    /// shown, the first hit on or after `page` (going back: the last on or before it).
    mutating func step(forward: Bool, fromPage page: Int) -> SearchHit? {
        guard !hits.isEmpty else { current = nil; return nil }
        if let c = current {
            current = (c + (forward ? 1 : hits.count - 1)) % hits.count
        } else if forward {
            current = hits.firstIndex { $0.partIndex >= page } ?? 0
        } else {
            current = hits.lastIndex { $0.partIndex <= page } ?? hits.count - 1
        }
        return current.map { hits[$0] }
    }

    /// "3 of 7", "no match", or "" before a query.
    var status: String {
        if query.trimmingCharacters(in: .whitespaces).isEmpty { return "" }
        if hits.isEmpty { return "no match" }
        return current.map { "\($0 + 1) of \(hits.count)" } ?? "\(hits.count) found"
    }
}

/// The search bar over the top of the canvas: the query typed on the keyboard, the count, and
/// the hits of the page shown framed on it (the current one as the selected word).
final class SearchBarController {
    private let window: PaintedWindow
    private let view: EditorView
    let scale: Double
    private(set) var isOpen = false
    private(set) var state = SearchState()
    private var width: Double = 1
    var height: Double { (40 * scale).rounded() }

    init(window: PaintedWindow, view: EditorView, scale: Double) {
        self.window = window
        self.view = view
        self.scale = scale
    }

    func open(width: Double) {
        self.width = width
        window.setFrame(Rect(x: 0, y: 0, width: width, height: height))
        window.showRaised()
        isOpen = true
        paint()
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        window.hide()
        view.searchHighlights = []
        view.wordHighlight = nil
    }

    /// A key while open; the command it makes (a step between hits, closing), if any.
    func key(_ k: KeyInput, package: ContentPackage) -> SearchCommand? {
        switch k.key {
        case .escape: return .close
        case .enter: return k.shift ? .previous : .next
        case .backspace:
            guard !state.query.isEmpty else { return nil }
            state.setQuery(String(state.query.dropLast()), in: package)
        default:
            guard !k.ctrl, KeyMap.isPrintable(k.text) else { return nil }
            state.setQuery(state.query + k.text, in: package)
        }
        showHits(page: nil)
        paint()
        return nil
    }

    /// Steps to the next or previous hit; the hit to show.
    func step(forward: Bool, fromPage page: Int, package: ContentPackage) -> SearchHit? {
        state.refresh(in: package)
        let hit = state.step(forward: forward, fromPage: page)
        paint()
        return hit
    }

    /// Frames the hits of the page shown (`page`: its index, nil: the editor's current part).
    func showHits(page: Int?) {
        guard isOpen, let part = view.editor.part, let index = page ?? part.package?.index(of: part) else { return }
        view.searchHighlights = state.hits.filter { $0.partIndex == index }.map(\.box)
        view.wordHighlight = state.current.map { state.hits[$0] }.flatMap { $0.partIndex == index ? $0.box : nil }
    }

    func paint() {
        guard isOpen else { return }
        NotebookPainter.drawSearchBar(on: window.surface, width: width, height: height, scale: scale,
                                      query: state.query, status: state.status, theme: view.renderer.theme)
    }
}
