import Foundation
import Testing
@testable import Quire

/// The editor names kinds through `PartType`/`BlockType` while its API keeps the SDK's strings.
@Suite struct KindsEditorTests {
    @Test func addBlockTakesAndReturnsTheSDKStrings() throws {
        let f = try Fixture()
        #expect(f.editor.supportedAddBlockTypes == ["Text", "Math", "Drawing", "Diagram", "Raw Content"])
        #expect(f.editor.rootBlock?.kind == .container && f.editor.rootBlock?.type == "Container")
        for t in BlockType.addable {
            let b = try f.editor.addBlock(at: Point(x: 20, y: 20), type: t.rawValue)
            #expect(b.type == t.rawValue && b.kind == t)
        }
        for bad in ["Image", "Container", "text", "", "Bogus"] {
            do {
                try f.editor.addBlock(at: Point(x: 1, y: 1), type: bad)
                Issue.record("'\(bad)' was accepted")
            } catch let e as QuireError {
                #expect(e.code == .invalidBlockType)
                #expect(e.message == "cannot add a block of type '\(bad)'; supported: Text, Math, Drawing, Diagram, Raw Content")
            }
        }
        let typed = try f.editor.addBlock(at: Point(x: 20, y: 20), type: "Math", mimeType: .text, data: "x+1")
        #expect(typed.kind == .math)
        expectCode(.invalidBlockType) { try f.editor.addBlock(at: Point(x: 1, y: 1), type: "Drawing", mimeType: .text, data: "x") }
        let removed = try f.editor.addBlock(at: Point(x: 20, y: 20), type: "Text")
        try f.editor.removeBlock(removed)
        #expect(removed.kind == nil && removed.type == "", "an invalid block has no kind, as its type is empty")
    }

    @Test func onlyTextDocumentsTakeBlocks() throws {
        for t in PartType.allCases where t != .textDocument {
            let f = try Fixture(type: t.rawValue)
            #expect(f.part.kind == t && f.editor.supportedAddBlockTypes.isEmpty)
            #expect(f.editor.rootBlock?.kind == t.rootBlockType)
        }
    }
}
