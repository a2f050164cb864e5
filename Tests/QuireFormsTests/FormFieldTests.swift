import Foundation
import InkModel
import Quire
import Testing
@testable import QuireForms

/// Each field is its own part and editor, configured field over form over engine, and read by its
/// kind. Ink: one real writer's samples, composed into values.
@Suite(.serialized) struct FormFieldTests {
    @Test func eachFieldsConfigurationCascadesOverTheFormsAndTheEngines() throws {
        let f = try FormFixture(#"""
            {"id": "c", "version": 1, "title": "C", "configuration": {"text.guides.spacing": 12, "text.configuration.lexicon-mode": "require"},
             "fields": [{"id": "a", "kind": "text"}, {"id": "b", "kind": "text", "configuration": {"text.guides.spacing": 8}},
                        {"id": "n", "kind": "number"}]}
            """#)
        let a = try f.form.editor("a"), b = try f.form.editor("b"), n = try f.form.editor("n")
        #expect(a.configuration.parent === f.form.configuration && f.form.configuration.parent === f.form.engine.configuration)
        #expect(a.configuration[.textGuidesSpacing] == 12 && b.configuration[.textGuidesSpacing] == 8)
        #expect(f.form.engine.configuration[.textGuidesSpacing] == 10)
        #expect(try a.configuration.getString("text.configuration.lexicon-mode") == "require")
        // A number field's own defaults win over the form's: no dictionary word is made of digits.
        #expect(try n.configuration.getString("text.configuration.lexicon-mode") == "off")
        #expect(a.part !== b.part && f.form.package.partCount == 3)
    }

    @Test func theSameInkReadsDifferentlyInANumberAndATextField() throws {
        let f = try FormFixture(#"{"id": "p", "version": 1, "title": "P", "fields": [{"id": "t", "kind": "text"}, {"id": "n", "kind": "number"}]}"#)
        try write(["O", "S"], into: "t", of: f.form)
        try write(["O", "S"], into: "n", of: f.form)
        #expect(f.form.editors["t"]!.part!.model.strokes.count == f.form.editors["n"]!.part!.model.strokes.count)
        let v = try f.values()
        #expect(v["n"]?.value == .string("05"))
        let text = v["t"]?.value.stringValue ?? ""
        #expect(text != "05" && text.lowercased().hasSuffix("s"), "text field read '\(text)'")
        #expect(v["n"]!.candidates.allSatisfy { $0.allSatisfy { FieldValues.numberCharacters.contains($0) } })
    }

    @Test func numbersDatesAndChoicesFromOneWritersHand() throws {
        let f = try FormFixture(#"""
            {"id": "k", "version": 1, "title": "K", "fields": [
              {"id": "tracking", "kind": "number", "regex": "[0-9]{4,}", "required": true},
              {"id": "short", "kind": "number", "regex": "[0-9]{4,}"},
              {"id": "day", "kind": "date"},
              {"id": "us", "kind": "date", "configuration": {"forms.date.order": "MDY"}},
              {"id": "city", "kind": "choice", "options": ["Sunnyvale", "Cupertino", "Paris"]},
              {"id": "name", "kind": "text", "required": true}]}
            """#)
        try write(["12345"], into: "tracking", of: f.form)
        try write(["21"], into: "short", of: f.form)
        try write(["1", "2", "-", "0", "5", "-", "2", "0", "2", "3"], into: "day", of: f.form)
        try write(["0", "5", "-", "1", "2", "-", "2", "3"], into: "us", of: f.form)
        try write(["Cupertino"], into: "city", of: f.form)
        let v = try f.values()
        #expect(v["tracking"]?.value == .string("12345") && v["tracking"]?.valid == true)
        #expect(v["short"]?.value == .string("21") && v["short"]?.error == "does not match the pattern [0-9]{4,}")
        #expect(v["day"]?.value == .string("2023-05-12") && v["day"]?.valid == true)
        #expect(v["us"]?.value == .string("2023-05-12"))
        #expect(v["city"]?.value == .string("Cupertino") && v["city"]?.valid == true)
        #expect(v["name"]?.value == .null && v["name"]?.error == "required")
        #expect(!f.form.isComplete(Array(v.values)))
    }

    @Test func datesAreCheckedAgainstTheCalendarAndTheOrder() {
        #expect(FieldValues.date("31-12-99", order: "DMY") == ("1999-12-31", nil))
        #expect(FieldValues.date("2024/02/29", order: "YMD") == ("2024-02-29", nil))
        #expect(FieldValues.date("29022023", order: "DMY").1 != nil)  // no 29 February in 2023
        #expect(FieldValues.date("12-05-202", order: "DMY").1 == "'12-05-202' is not a date (DMY: the year has 2 or 4 digits)")
        #expect(FieldValues.date("13-05-2023", order: "MDY").1 != nil)
        #expect(FieldValues.date("1-2-2023", order: "XYZ").1 == "forms.date.order must be DMY, MDY or YMD, not 'XYZ'")
    }

    @Test func aCheckboxIsTickedByAMarkAndNotByADot() throws {
        let f = try FormFixture(#"{"id": "c", "version": 1, "title": "C", "fields": [{"id": "yes", "kind": "checkbox", "required": true}, {"id": "dot", "kind": "checkbox"}]}"#)
        var v = try f.values()
        #expect(v["yes"]?.value == .bool(false) && v["yes"]?.error == "must be ticked")
        #expect(v["dot"]?.value == .bool(false) && v["dot"]?.valid == true)
        try write(["1"], into: "yes", of: f.form)  // a stroke across most of the box
        let dot = ImportedTrace(samples: [InkSample(x: 5, y: 5, t: 0, f: 0.5), InkSample(x: 5.4, y: 5.3, t: 10, f: 0.5)], pointerType: .pen, tool: "pen")
        try f.form.editors["dot"]!.importTraces([dot])
        v = try f.values()
        #expect(v["yes"]?.value == .bool(true) && v["yes"]?.valid == true)
        #expect(v["dot"]?.value == .null && v["dot"]?.error == "the mark is too small for a tick or cross")
    }

    @Test func aSignatureKeepsItsInkAsSVGAndPNG() throws {
        let f = try FormFixture(#"{"id": "s", "version": 1, "title": "S", "fields": [{"id": "sig", "kind": "signature", "required": true}]}"#)
        #expect(try f.values()["sig"]?.error == "required")
        try write(["Dorothy"], into: "sig", of: f.form)
        let v = try f.values()["sig"]!
        #expect(v.valid && v.candidates.isEmpty)
        #expect(v.svg?.contains("<svg") == true && v.value == .string(v.svg!))
        #expect(v.png?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(v.ink["strokes"]?.arrayValue?.count == (try sample("Dorothy")).strokes.count)
    }

    @Test func writingPastAFullFieldIsRefusedWithoutChangingIt() throws {
        let f = try FormFixture(#"{"id": "w", "version": 1, "title": "W", "fields": [{"id": "n", "kind": "number", "place": {"x": 0, "y": 0, "width": 30, "height": 15}}]}"#)
        try write(["12345"], into: "n", of: f.form)
        let before = f.form.editors["n"]!.part!.model.strokes.count
        let e = expectCode(.invalidArgument) { try write(["78901"], into: "n", of: f.form) }
        #expect(e?.message.hasPrefix("no room left in field 'n'") == true)
        #expect(f.form.editors["n"]!.part!.model.strokes.count == before)
        expectCode(.invalidArgument) { try f.form.write(try sample("1"), into: "nope") }
    }

    @Test func aMultilineFieldWritesOnItsGuidesAndGoesOnToTheNextLine() throws {
        let f = try FormFixture(#"{"id": "m", "version": 1, "title": "M", "fields": [{"id": "notes", "kind": "multiline", "place": {"x": 0, "y": 0, "width": 60, "height": 30}}]}"#)
        let words = ["Fresh", "Clean", "Family", "Florist", "Budget"]
        try write(words, into: "notes", of: f.form)
        let m = f.form.editors["notes"]!.part!.model
        let tops = Set(m.strokes.values.map { Int(($0.bounds.midY / 10).rounded(.down)) })
        #expect(tops.count >= 2, "the words should fill more than one 10 mm line")
        let v = try f.values()["notes"]!
        let read = (v.value.stringValue ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(read.map { $0.lowercased() } == words.map { $0.lowercased() }, "read \(v.value)")
        #expect((v.value.stringValue ?? "").contains("\n"))
    }

    @Test func aChoiceFieldsWordListGoesAwayWithTheForm() throws {
        let f = try FormFixture(#"{"id": "c", "version": 1, "title": "C", "fields": [{"id": "city", "kind": "choice", "options": ["Paris", "Munich"]}]}"#)
        try write(["Munich"], into: "city", of: f.form)
        #expect(try f.values()["city"]?.value == .string("Munich"))
        let temp = f.form.package.tempFolder
        f.form.close()
        #expect(!FileManager.default.fileExists(atPath: temp), "left behind: \((try? FileManager.default.contentsOfDirectory(atPath: temp)) ?? [])")
    }

    @Test func aChoiceCanReadItsWordsFromAWordListFile() throws {
        let dir = TempDir(prefix: "quire-forms-words")
        try Data("Paris\nMunich\nOregon\n".utf8).write(to: dir.url.appendingPathComponent("cities.txt"))
        let f = try FormFixture(#"{"id": "w", "version": 1, "title": "W", "fields": [{"id": "city", "kind": "choice", "configuration": {"text.configuration.lexicon": "\#(dir.path("cities.txt"))"}}]}"#)
        try write(["Oregon"], into: "city", of: f.form)
        let v = try f.values()["city"]!
        #expect(v.value == .string("Oregon") && v.valid)
    }
}
