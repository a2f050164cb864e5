import Foundation
import InkModel
import Testing
@testable import QuireForms

/// A spec is validated whole on load; every error names the field and the key at fault.
@Suite struct FormSpecTests {
    func error(_ json: String) -> String {
        do { _ = try FormSpec.parse(Data(json.utf8), source: "spec.json"); return "accepted" } catch let e as QuireError {
            #expect(e.code == .invalidArgument || e.code == .invalidJSON, "\(e)")
            return e.message
        } catch { return "\(error)" }
    }

    func form(_ fields: String, extra: String = "") -> String {
        #"{"id": "f", "version": 1, "title": "T", \#(extra) "fields": [\#(fields)]}"#
    }

    @Test func errorsNameTheFieldAndTheKey() {
        #expect(error(form(#"{"id": "a", "kind": "numbr"}"#))
                == "spec.json: field 'a': key 'kind': unknown kind 'numbr' (one of text, multiline, number, date, choice, checkbox, signature, drawing)")
        #expect(error(form(#"{"id": "a", "kind": "text", "regex": "[0-9"}"#))
                == "spec.json: field 'a': key 'regex': '[0-9' is not a valid regular expression")
        #expect(error(form(#"{"id": "a", "kind": "text"}, {"id": "a", "kind": "number"}"#))
                == "spec.json: field 'a': key 'id': is used by more than one field")
        #expect(error(form(#"{"id": "a", "kind": "text", "reqired": true}"#)).hasPrefix("spec.json: field 'a': key 'reqired': unknown key"))
        #expect(error(form(#"{"id": "a", "kind": "choice"}"#)).hasPrefix("spec.json: field 'a': key 'options': a choice field needs options"))
        #expect(error(form(#"{"id": "a", "kind": "text", "options": ["x"]}"#)) == "spec.json: field 'a': key 'options': only a choice field has options")
        #expect(error(form(#"{"id": "a", "kind": "text", "required": "yes"}"#)) == "spec.json: field 'a': key 'required': must be true or false")
        #expect(error(form(#"{"id": "a", "kind": "text", "place": {"x": 0, "y": 0, "width": -3, "height": 10}}"#))
                == "spec.json: field 'a': key 'place.width': must be a number from 0 to 10000 (millimetres)")
        #expect(error(form(#"{"id": "a", "kind": "text", "configuration": {"text": {"guides": {"spacing": null}}}}"#))
                == "spec.json: field 'a': key 'configuration': key 'text.guides.spacing': null is not a supported value")
        #expect(error(form(#"{"kind": "text"}"#)) == "spec.json: field '#0': key 'id': must be a string of letters, digits, '-', '_' or '.'")
        #expect(error(form(#"{"id": "a b", "kind": "text"}"#)) == "spec.json: field '#0': key 'id': must be a string of letters, digits, '-', '_' or '.'")
        #expect(error(form("")) == "spec.json: key 'fields': must be a non-empty array")
        #expect(error(#"{"id": "f", "title": "T", "fields": [{"id": "a", "kind": "text"}]}"#)
                == "spec.json: key 'version': must be a whole number or a non-empty string")
        #expect(error(form(#"{"id": "a", "kind": "text"}"#, extra: #""configuration": [1],"#)) == "spec.json: key 'configuration': must be a JSON object")
        #expect(error("[1]") == "spec.json: must be a JSON object")
        #expect(error("{").contains("spec.json"))
    }

    @Test func aSpecReadsBackEqualAndFieldsWithoutPlaceDoNotOverlap() throws {
        let spec = try FormSpec.parse(Data(form(#"""
            {"id": "a", "kind": "text", "label": "A", "required": true, "regex": "[A-Z]+", "configuration": {"text": {"configuration": {"upper-case-only": true}}}},
            {"id": "b", "kind": "choice", "options": ["x", "y"]}, {"id": "c", "kind": "checkbox"},
            {"id": "d", "kind": "signature", "place": {"x": 10, "y": 200, "width": 100, "height": 30}}
            """#).utf8))
        #expect(spec.version == "1")
        #expect(spec.fields[0].configuration == ["text.configuration.upper-case-only": .bool(true)])
        let back = try FormSpec.parse(Data(try spec.json.serialized().utf8))
        #expect(back == spec)
        let boxes = spec.fields.map(\.place)
        #expect(boxes[3] == Rect(x: 10, y: 200, width: 100, height: 30))
        for i in boxes.indices { for j in boxes.indices where i < j { #expect(!boxes[i].intersects(boxes[j]), "\(i) and \(j) overlap") } }
    }

    @Test func theExampleFormsAreValid() throws {
        for name in ["parcel-pickup", "clinic-checkin"] {
            let url = repositoryRoot.appendingPathComponent("Resources/forms/\(name).json")
            let spec = try FormSpec.parse(try Data(contentsOf: url), source: url.path)
            #expect(spec.id == name)
        }
    }
}
