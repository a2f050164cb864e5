import Foundation
import Testing
@testable import Quire

/// A package as a notebook: pages in order, moving between them, each page's own view, adding,
/// duplicating, deleting (restorable until save) and reordering.
@Suite struct NotebookTests {
    /// A fixture whose package has `extra` more Text Document pages after the first.
    private func notebook(extra: Int = 0) throws -> (Fixture, Notebook) {
        let f = try Fixture()
        for _ in 0..<extra { _ = try f.package.createPart(type: PartType.textDocument.rawValue) }
        return (f, try Notebook(package: f.package, editor: f.editor))
    }

    @Test func movesBetweenPagesAndKeepsEachPagesInk() throws {
        let (f, nb) = try notebook(extra: 1)
        #expect(nb.pageCount == 2 && nb.currentIndex == 0)
        try f.write(x: 100, y: 100)
        #expect(try nb.next())
        let second = try f.package.part(at: 1)
        #expect(nb.currentIndex == 1 && f.editor.part === second)
        #expect(f.editor.part?.model.strokes.isEmpty == true)
        try f.write(x: 100, y: 200)
        try f.write(x: 100, y: 260)
        #expect(try !nb.next())
        #expect(try nb.previous())
        #expect(f.editor.part?.model.strokes.count == 1)
        #expect(try !nb.previous())
        try nb.goTo(1)
        #expect(f.editor.part?.model.strokes.count == 2)
        #expect(throws: QuireError.self) { try nb.goTo(2) }
    }

    @Test func eachPageKeepsItsOwnZoomAndScroll() throws {
        let (f, nb) = try notebook(extra: 1)
        for y in stride(from: 100.0, through: 1500, by: 200) { try f.write(x: 100, y: y) }
        f.editor.zoom(by: 2, at: Point(x: 400, y: 300))
        f.editor.scroll(by: Point(x: 0, y: 300))
        let first = f.editor.viewState
        #expect(first.zoom == 2 && first.offset.y < -300)
        try nb.next()
        #expect(f.editor.viewState == ViewState(zoom: 1, offset: Point(x: 0, y: 0)))
        f.editor.zoom(by: 0.8, at: Point(x: 0, y: 0))
        let second = f.editor.viewState
        try nb.previous()
        #expect(f.editor.viewState == first)
        try nb.next()
        #expect(f.editor.viewState == second)
    }

    @Test func eachPageKeepsItsOwnUndoHistory() throws {
        let (f, nb) = try notebook(extra: 1)
        try f.write(x: 100, y: 100)
        try f.write(x: 100, y: 200)
        f.editor.undo()
        #expect(f.editor.canRedo)
        try nb.next()
        #expect(!f.editor.canUndo && !f.editor.canRedo)
        try f.write(x: 100, y: 300)
        try nb.previous()
        // Page 1's steps are back: redo the undone stroke, undo both.
        #expect(f.editor.canUndo && f.editor.canRedo)
        f.editor.redo()
        #expect(f.editor.part?.model.strokes.count == 2)
        f.editor.undo()
        f.editor.undo()
        #expect(f.editor.part?.model.strokes.isEmpty == true && !f.editor.canUndo)
        try nb.next()
        f.editor.undo()
        #expect(f.editor.part?.model.strokes.isEmpty == true)
    }

    @Test func newPagesGoAfterTheCurrentOneWithTheirType() throws {
        let (f, nb) = try notebook(extra: 1)
        #expect(Notebook.pageTypes.first == .textDocument && Set(Notebook.pageTypes) == Set(PartType.allCases))
        let math = try nb.addPage(type: .math)
        #expect(nb.currentIndex == 1 && nb.pageCount == 3 && math.kind == .math)
        #expect(f.editor.part === math)
        #expect(try f.package.part(at: 2).kind == PartType.textDocument)
        let text = try nb.addPage()
        #expect(text.kind == .textDocument && nb.currentIndex == 2 && nb.pages.map(\.kind) == [.textDocument, .math, .textDocument, .textDocument])
    }

    @Test func duplicateCopiesTheContentUnderANewId() throws {
        let (f, nb) = try notebook()
        try f.write(x: 100, y: 100)
        try f.write(x: 200, y: 100)
        let original = f.editor.part!
        let copy = try nb.duplicatePage()
        #expect(copy.id != original.id && nb.pageCount == 2 && nb.currentIndex == 1 && f.editor.part === copy)
        #expect(Set(copy.model.strokes.keys) == Set(original.model.strokes.keys))
        try f.write(x: 100, y: 300)
        #expect(copy.model.strokes.count == 3 && original.model.strokes.count == 2)
    }

    @Test func deletedPagesComeBackUntilSave() throws {
        let (f, nb) = try notebook(extra: 2)
        try f.write(x: 100, y: 100)
        let first = f.editor.part!
        try nb.deletePage()
        #expect(nb.pageCount == 2 && nb.currentIndex == 0 && f.editor.part !== first)
        #expect(nb.canRestoreDeletedPage)
        #expect(try nb.restoreDeletedPage())
        #expect(nb.pageCount == 3 && nb.currentIndex == 0 && f.editor.part === first && first.model.strokes.count == 1)
        #expect(!nb.canRestoreDeletedPage)
        // The last page: its neighbour before it is shown.
        try nb.goTo(2)
        try nb.deletePage()
        #expect(nb.currentIndex == 1 && nb.pageCount == 2)
        // Deleting another page than the current one keeps the current one shown.
        let shown = f.editor.part!
        try nb.deletePage(at: 0)
        #expect(f.editor.part === shown && nb.currentIndex == 0 && nb.pageCount == 1)
        #expect(throws: QuireError.self) { try nb.deletePage() }
        try f.package.save()
        nb.saved()
        #expect(!nb.canRestoreDeletedPage)
        #expect(try !nb.restoreDeletedPage())
    }

    @Test func reorderingKeepsThePageShown() throws {
        let (f, nb) = try notebook(extra: 2)
        let ids = nb.pages.map(\.id)
        try nb.goTo(1)
        try nb.movePage(from: 1, to: 2)
        #expect(nb.pages.map(\.id) == [ids[0], ids[2], ids[1]] && nb.currentIndex == 2 && f.editor.part?.id == ids[1])
        try nb.movePage(from: 0, to: 2)
        #expect(nb.pages.map(\.id) == [ids[2], ids[1], ids[0]] && nb.currentIndex == 1)
        #expect(throws: QuireError.self) { try nb.movePage(from: 0, to: 3) }
        #expect(throws: QuireError.self) { try nb.movePage(from: -1, to: 0) }
    }

    @Test func pageOrderAndRestoredPagesAreSaved() throws {
        let (f, nb) = try notebook(extra: 1)
        try f.write(x: 100, y: 100)
        _ = try nb.addPage(type: .drawing)
        try nb.movePage(from: 1, to: 0)
        try nb.deletePage(at: 2)
        try nb.restoreDeletedPage()
        let kinds = nb.pages.map(\.kind), ids = nb.pages.map(\.id)
        try f.package.save()
        let path = f.package.path
        f.package.close()
        let again = try f.engine.openPackage(path, openOption: .existing)
        defer { again.close() }
        let reread = try (0..<again.partCount).map { try again.part(at: $0) }
        #expect(reread.map(\.kind) == kinds && reread.map(\.id) == ids)
        #expect(reread.map(\.model.strokes.count) == [0, 1, 0])
    }

    @Test func restoringIsOnlyForTheSamePackage() throws {
        let f = try Fixture()
        let other = try f.engine.createPackage(f.dir.path("other.iink"))
        defer { other.close() }
        let p = try f.package.createPart(type: PartType.text.rawValue)
        try f.package.removePart(p)
        #expect(throws: QuireError.self) { try other.restorePart(p, at: 0) }
        #expect(throws: QuireError.self) { try f.package.restorePart(p, at: 5) }
        try f.package.restorePart(p, at: 0)
        let first = try f.package.part(at: 0)
        #expect(first === p && p.package === f.package)
        #expect(throws: QuireError.self) { try f.package.restorePart(p, at: 0) }
    }
}
