import Foundation
import InkModel

/// A package seen as a notebook: its parts are the pages, in package order, and one editor shows
/// one page at a time. Each page keeps its own view (zoom, scroll) and undo history while the
/// notebook is open, and a deleted page can be brought back until the package is saved.
///
/// Confined to the editor's thread, like the editor.
public final class Notebook {
    public let package: ContentPackage
    public let editor: Editor
    /// The page the editor shows.
    public private(set) var currentIndex: Int
    /// Each page's view and undo history when it was last left, by part id.
    private var views: [String: ViewState] = [:]
    private var histories: [String: History.Saved] = [:]
    /// Deleted pages and where they were, newest last: restorable until the next save.
    private var deleted: [(part: ContentPart, index: Int)] = []
    /// The page shown right after the latest deletion and its undo depth then: while both hold,
    /// the deletion is the latest step.
    private var afterDelete: (part: ContentPart, undoCount: Int)?

    /// The kinds a new page may have, the default (Text Document) first.
    public static let pageTypes: [PartType] = [.textDocument, .math, .drawing, .diagram, .rawContent, .text]

    /// Opens `package` as a notebook on `editor`, at page `page` (nil: the first Text Document,
    /// else the first page). An empty package gets a Text Document page. The editor's view size and
    /// font metrics must be set (as for `Editor.setPart`).
    public init(package: ContentPackage, editor: Editor, page: Int? = nil) throws {
        self.package = package
        self.editor = editor
        if package.partCount == 0 { _ = try package.createPart(type: PartType.textDocument.rawValue) }
        if let page {
            guard (0..<package.partCount).contains(page) else {
                throw QuireError(.indexOutOfRange, "page \(page + 1) is out of range (the notebook has \(package.partCount) pages)")
            }
            currentIndex = page
        } else {
            currentIndex = try Self.firstTextDocument(package) ?? 0
        }
        let part = try package.part(at: currentIndex)
        if editor.part !== part { try editor.setPart(part) }
    }

    /// The index of the first Text Document of a package, if it has one.
    public static func firstTextDocument(_ package: ContentPackage) throws -> Int? {
        for i in 0..<package.partCount where try package.part(at: i).kind == .textDocument { return i }
        return nil
    }

    public var pageCount: Int { package.partCount }
    /// The page the editor shows.
    public var currentPage: ContentPart { (try? package.part(at: currentIndex)) ?? editor.part! }
    public var pages: [ContentPart] { (0..<package.partCount).compactMap { try? package.part(at: $0) } }

    // MARK: moving between pages

    /// Shows page `index`. The page left keeps its view, and recognition under way on it finishes
    /// first (its results belong to it).
    public func goTo(_ index: Int) throws {
        guard (0..<pageCount).contains(index) else {
            throw QuireError(.indexOutOfRange, "page \(index + 1) is out of range (the notebook has \(pageCount) pages)")
        }
        let target = try package.part(at: index)
        if target === editor.part { currentIndex = index; return }
        leaveCurrentPage()
        try show(target)
        currentIndex = index
    }

    /// Shows the next page; false on the last one.
    @discardableResult public func next() throws -> Bool {
        guard currentIndex + 1 < pageCount else { return false }
        try goTo(currentIndex + 1)
        return true
    }

    /// Shows the previous page; false on the first one.
    @discardableResult public func previous() throws -> Bool {
        guard currentIndex > 0 else { return false }
        try goTo(currentIndex - 1)
        return true
    }

    private func leaveCurrentPage() {
        guard let part = editor.part else { return }
        // A page's recognition is cancelled when another is attached: let it finish.
        try? editor.waitForIdle()
        views[part.id] = editor.viewState
        histories[part.id] = editor.history.saved()
    }

    /// Attaches a page with the view and the undo history it had when it was left.
    private func show(_ part: ContentPart) throws {
        try editor.setPart(part)
        if let v = views[part.id] { editor.restoreView(v) }
        if let h = histories[part.id] { editor.history.restore(h) }
    }

    // MARK: adding, duplicating, deleting, reordering

    /// Adds an empty page of a kind after the current one and shows it.
    @discardableResult public func addPage(type: PartType = .textDocument) throws -> ContentPart {
        let part = try package.createPart(type: type.rawValue)
        return try placeAfterCurrent(part)
    }

    /// Adds a copy of a page (`clonePart`: same content, new id) after the current one and shows it.
    @discardableResult public func duplicatePage(at index: Int? = nil) throws -> ContentPart {
        let source = try package.part(at: index ?? currentIndex)
        if source === editor.part { try? editor.waitForIdle() }
        let part = try package.clonePart(source)
        if source === editor.part { views[part.id] = editor.viewState } else if let v = views[source.id] { views[part.id] = v }
        return try placeAfterCurrent(part)
    }

    private func placeAfterCurrent(_ part: ContentPart) throws -> ContentPart {
        let at = min(currentIndex + 1, pageCount - 1)
        do { try package.movePart(part, to: at) } catch {
            try? package.removePart(part)
            throw error
        }
        currentIndex = try indexOfCurrent()
        try goTo(at)
        return part
    }

    /// Deletes a page (the current one by default); `restoreDeletedPage` brings it back until the
    /// next save. The only page cannot be deleted (clear it instead). When the current page goes,
    /// the one after it is shown (the one before, at the end).
    public func deletePage(at index: Int? = nil) throws {
        let i = index ?? currentIndex
        guard (0..<pageCount).contains(i) else {
            throw QuireError(.indexOutOfRange, "page \(i + 1) is out of range (the notebook has \(pageCount) pages)")
        }
        guard pageCount > 1 else { throw QuireError(.invalidArgument, "a notebook keeps at least one page; clear this one instead") }
        let part = try package.part(at: i)
        if part === editor.part {
            leaveCurrentPage()
            try show(try package.part(at: i + 1 < pageCount ? i + 1 : i - 1))
        }
        try package.removePart(part)
        deleted.append((part, i))
        currentIndex = try indexOfCurrent()
        if let shown = editor.part { afterDelete = (shown, editor.history.undoCount) }
    }

    /// True while a deleted page can be restored.
    public var canRestoreDeletedPage: Bool { !deleted.isEmpty }

    /// True when deleting a page was the latest thing done (nothing written or undone since, no
    /// other page shown): Undo should restore it rather than undo the page's own latest step.
    public var deletionIsLatestStep: Bool {
        guard !deleted.isEmpty, let a = afterDelete else { return false }
        return a.part === editor.part && a.undoCount == editor.history.undoCount
    }

    /// Puts the latest deleted page back where it was and shows it; false when there is none.
    @discardableResult public func restoreDeletedPage() throws -> Bool {
        guard let (part, index) = deleted.last else { return false }
        try package.restorePart(part, at: min(index, pageCount))
        deleted.removeLast()
        afterDelete = nil
        currentIndex = try indexOfCurrent()
        try goTo(try indexOf(part))
        return true
    }

    /// The package was saved: deleted pages are gone for good.
    public func saved() {
        for (part, _) in deleted {
            views[part.id] = nil
            histories[part.id] = nil
        }
        deleted.removeAll()
        afterDelete = nil
    }

    /// Moves page `from` to position `to`; the page shown stays shown.
    public func movePage(from: Int, to: Int) throws {
        guard (0..<pageCount).contains(from) else {
            throw QuireError(.indexOutOfRange, "page \(from + 1) is out of range (the notebook has \(pageCount) pages)")
        }
        try package.movePart(try package.part(at: from), to: to)
        currentIndex = try indexOfCurrent()
    }

    private func indexOf(_ part: ContentPart) throws -> Int {
        guard let i = package.index(of: part) else { throw QuireError(.partNotFound, "part '\(part.id)' is not in the notebook") }
        return i
    }

    private func indexOfCurrent() throws -> Int {
        guard let part = editor.part else { throw QuireError(.partNotAttached, "the notebook's editor shows no page") }
        return try indexOf(part)
    }
}
