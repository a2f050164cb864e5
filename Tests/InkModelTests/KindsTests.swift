import Foundation
import Testing
@testable import InkModel

/// Part and block kinds as Swift types: the SDK's strings go in and come out unchanged.
@Suite struct KindsTests {
    @Test func partTypeStringsAreTheSDKs() {
        #expect(PartType.allCases.map(\.rawValue) == ["Text", "Math", "Drawing", "Diagram", "Raw Content", "Text Document"])
        #expect(PartModel.partTypes == ["Text", "Math", "Drawing", "Diagram", "Raw Content", "Text Document"])
        #expect(PartModel.rootBlockType == ["Text": "Text", "Math": "Math", "Drawing": "Drawing", "Diagram": "Diagram",
                                            "Raw Content": "Raw Content", "Text Document": "Container"])
        for t in PartType.allCases {
            #expect(PartType(rawValue: t.rawValue) == t)
            #expect(t.configPrefix == PartModel.configPrefix(t.rawValue))
        }
        #expect(PartType.textDocument.configPrefix == "text-document")
        #expect(PartType.rawContent.configPrefix == "raw-content")
    }

    @Test func blockTypeStringsAreTheSDKs() {
        #expect(BlockData.types == ["Text", "Math", "Diagram", "Drawing", "Raw Content", "Image", "Container"])
        #expect(BlockType.addable.map(\.rawValue) == ["Text", "Math", "Drawing", "Diagram", "Raw Content"])
        #expect(BlockType.allCases.filter(\.isRecognized) == [.text, .math])
        for t in BlockType.allCases { #expect(BlockType(rawValue: t.rawValue) == t) }
        #expect(BlockData(id: "b1", type: "Raw Content", box: .zero).kind == .rawContent)
        // A block read from elsewhere may carry any string; it has no kind and keeps its string.
        let odd = BlockData(id: "b2", type: "Bogus", box: .zero)
        #expect(odd.kind == nil && odd.type == "Bogus")
    }

    @Test func partsKeepTheirTypeStringThroughSaveAndOpen() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("k.iink"))
        for t in PartType.allCases {
            let part = try pkg.createPart(type: t.rawValue)
            #expect(part.type == t.rawValue && part.kind == t)
            #expect(part.model.root.type == t.rootBlockType.rawValue)
        }
        try pkg.save()
        pkg.close()
        let back = try engine.openPackage(dir.path("k.iink"))
        #expect((0..<back.partCount).map { (try? back.part(at: $0).type) ?? "" } == PartType.allCases.map(\.rawValue))
        #expect(try back.part(at: 5).kind == .textDocument)
        back.close()
    }

    @Test func unknownPartTypesAreRefusedAsBefore() throws {
        let dir = TempDir(), engine = try Engine()
        let pkg = try engine.createPackage(dir.path("u.iink"))
        for bad in ["text", "Spreadsheet", "", "Text Document ", "Container", "Image"] {
            #expect(PartType(rawValue: bad) == nil)
            do {
                _ = try pkg.createPart(type: bad)
                Issue.record("'\(bad)' was accepted")
            } catch let e as QuireError {
                #expect(e.code == .invalidPartType)
                #expect(e.message == "unknown part type '\(bad)'; supported: Text, Math, Drawing, Diagram, Raw Content, Text Document")
            }
        }
        #expect(pkg.partCount == 0)
        pkg.close()
    }
}
