import Foundation
import Testing
@testable import Quire

/// The clipboard is one per engine: editors of one engine share it, separate engines (tests
/// running side by side, a form beside a notebook) never paste each other's copies.
@Suite struct ClipboardIsolationTests {
    @Test func editorsOfOneEngineShareItOthersDoNot() throws {
        let a = try Fixture(), b = try Fixture()
        try a.write(x: 100, y: 100)
        let block = try #require(a.editor.rootBlock?.children.first)
        try a.editor.copy(block)
        #expect(a.editor.canPaste && !b.editor.canPaste)
        #expect(throws: QuireError.self) { try b.editor.paste(at: Point(x: 100, y: 300)) }
        #expect(b.editor.rootBlock?.children.isEmpty == true)

        // Another editor (and part) of the same engine pastes the copy.
        let other = try a.package.createPart(type: "Text Document")
        let second = a.engine.createEditor(fontMetricsProvider: FixedMetrics())
        try second.setViewSize(width: 800, height: 600)
        try second.setPart(other)
        #expect(second.canPaste)
        try second.paste(at: Point(x: 100, y: 300))
        #expect(second.rootBlock?.children.count == 1)

        // A lasso selection copied in b stays b's: a still pastes its block.
        try b.write(x: 100, y: 100)
        b.editor.setSelection(blocks: [], strokes: Set(try #require(b.editor.part?.model.strokes.keys)))
        try b.editor.copySelection()
        #expect(a.editor.clipboard.selection == nil && a.editor.clipboard.value != nil && b.editor.clipboard.selection != nil)
    }

    @Test func anEngineGoneTakesItsClipboardAlong() throws {
        var store: ClipboardStore?
        do {
            let f = try Fixture()
            try f.write(x: 100, y: 100)
            try f.editor.copy(try #require(f.editor.rootBlock?.children.first))
            store = f.editor.clipboard
            #expect(store?.value != nil)
        }
        // A new engine gets an empty clipboard, even where its address is the old one's.
        for _ in 0 ..< 20 {
            let f = try Fixture()
            #expect(!f.editor.canPaste && f.editor.clipboard !== store)
        }
    }
}
