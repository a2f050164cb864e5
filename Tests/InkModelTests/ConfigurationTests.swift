import Foundation
import Testing
@testable import InkModel

@Suite struct ParameterSetTests {
    @Test func typedValuesAndDefaults() throws {
        let p = ParameterSet()
        try p.setString("en_US", forKey: "text.configuration.bundle")
        try p.setNumber(12.5, forKey: "text.guides.spacing")
        try p.setBoolean(true, forKey: "gesture.enable")
        try p.setStringArray(["a", "b"], forKey: "x.list")
        #expect(try p.getString("text.configuration.bundle") == "en_US")
        #expect(try p.getNumber("text.guides.spacing") == 12.5)
        #expect(try p.getBoolean("gesture.enable"))
        #expect(try p.getStringArray("x.list") == ["a", "b"])
        #expect(try p.getNumber("missing.key", default: 3) == 3)
        #expect(p.hasKey("x.list"))
        p.removeKey("x.list")
        #expect(!p.hasKey("x.list"))
    }

    @Test func missingKeyAndWrongTypeNameTheKey() {
        let p = ParameterSet()
        try? p.setString("abc", forKey: "a.b")
        let missing = expectCode(.keyNotFound) { _ = try p.getString("no.such.key") }
        #expect(missing?.message.contains("no.such.key") == true)
        let wrong = expectCode(.typeMismatch) { _ = try p.getNumber("a.b") }
        #expect(wrong?.message.contains("a.b") == true)
        expectCode(.typeMismatch) { _ = try p.getBoolean("a.b", default: true) }
        expectCode(.invalidArgument) { try p.setString("x", forKey: "bad..key") }
        expectCode(.invalidArgument) { try p.setNumber(.nan, forKey: "n") }
    }

    @Test func injectFlattensNestedObjectsAndJSONRoundTrips() throws {
        let p = ParameterSet()
        try p.inject(json: #"{"text": {"guides": {"enable": false, "spacing": 8}}, "lex": ["x", "y"], "name": "n", "flag": true}"#)
        #expect(try p.getBoolean("text.guides.enable") == false)
        #expect(try p.getNumber("text.guides.spacing") == 8)
        #expect(try p.getStringArray("lex") == ["x", "y"])
        #expect(try p.getBoolean("flag"))
        let q = ParameterSet()
        try q.inject(json: p.json)
        #expect(q.snapshot() == p.snapshot())
    }

    @Test func injectRejectsBadJSONAtomically() throws {
        let p = ParameterSet()
        try p.setNumber(1, forKey: "keep")
        expectCode(.invalidJSON) { try p.inject(json: "{not json") }
        expectCode(.invalidJSON) { try p.inject(json: "[1, 2]") }
        expectCode(.typeMismatch) { try p.inject(json: #"{"ok": 1, "arr": [1, 2]}"#) }
        expectCode(.typeMismatch) { try p.inject(json: #"{"n": null}"#) }
        #expect(!p.hasKey("ok"))
        #expect(try p.getNumber("keep") == 1)
    }

    @Test func configurationCascadesLive() throws {
        let engine = Configuration()
        try engine.setNumber(10, forKey: "text.guides.spacing")
        let editor = Configuration(parent: engine)
        #expect(editor.parent === engine)
        #expect(try editor.getNumber("text.guides.spacing") == 10)
        try engine.setNumber(12, forKey: "text.guides.spacing")
        #expect(try editor.getNumber("text.guides.spacing") == 12, "engine changes are visible live")
        try editor.setNumber(7, forKey: "text.guides.spacing")
        #expect(try editor.getNumber("text.guides.spacing") == 7)
        #expect(try engine.getNumber("text.guides.spacing") == 12, "editor values never leak up")
        editor.removeKey("text.guides.spacing")
        #expect(try editor.getNumber("text.guides.spacing") == 12)
        #expect(!editor.json.contains("spacing"), "json holds the set's own values only")
    }

    @Test func engineLoadsDocumentedDefaults() throws {
        let engine = try Engine()
        let c = engine.configuration
        #expect(try c.getBoolean("text.guides.enable"))
        #expect(try c.getNumber("text.guides.spacing") > 0)
        #expect(try c.getString("text.configuration.bundle") == "en_US")
        #expect(try c.getBoolean("gesture.enable"))
        #expect(try c.getBoolean("export.image.guides") == false)
        #expect(try c.getBoolean("renderer.ink.pressure"))
        #expect(try c.getBoolean("renderer.debug.boxes") == false)
        #expect(try c.getString("content-package.temp-folder") == "")
        // The README documents every key of Resources/configuration.json.
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        for key in c.keys { #expect(readme.contains("`\(key)`"), "README.md must document \(key)") }
        // A configuration handed to the engine overrides the defaults.
        let mine = Configuration()
        try mine.setBoolean(false, forKey: "text.guides.enable")
        let e2 = try Engine(configuration: mine)
        #expect(try e2.configuration.getBoolean("text.guides.enable") == false)
        #expect(try e2.configuration.getBoolean("gesture.enable"))
        #expect(e2.supportedPartTypes == ["Text", "Math", "Drawing", "Diagram", "Raw Content", "Text Document"])
    }
}
