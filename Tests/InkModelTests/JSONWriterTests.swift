import Foundation
import Testing
@testable import InkModel

/// JSON has no NaN or infinity: the writer refuses them, naming where they sit, instead of writing
/// the whole value as `null` (what `quire recognize --json` printed for a -inf candidate score).
@Suite struct JSONWriterTests {
    static func record(score: Double) -> JSONValue {
        .object([
            "id": .string("s1"), "label": .string("B"),
            "candidates": .array([.object(["label": .string("B"), "score": .number(-0.002)]),
                                  .object(["label": .string("BB"), "score": .number(score)])]),
        ])
    }

    @Test func nonFiniteNumbersAreRefusedWithTheirKey() {
        for bad in [Double.nan, .infinity, -.infinity] {
            let e = expectCode(.exportError) { _ = try Self.record(score: bad).serialized() }
            #expect(e?.message.contains("'candidates[1].score'") == true, "\(String(describing: e))")
            #expect(e?.message.contains("\(bad)") == true, "\(String(describing: e))")
            let pretty = expectCode(.exportError) { _ = try Self.record(score: bad).serialized(pretty: true) }
            #expect(pretty?.message.contains("'candidates[1].score'") == true)
        }
        let nested: JSONValue = .object(["parts": .array([.object(["blocks": .array([.array([.number(1), .number(.nan)])])])])])
        #expect(nested.firstNonFinite()?.path == "parts[0].blocks[0][1]")
        let top = expectCode(.exportError) { _ = try JSONValue.number(.infinity).serialized() }
        #expect(top?.message.contains("top level") == true)
    }

    @Test func finiteValuesAreWrittenAndReadBack() throws {
        let v = Self.record(score: -7.25)
        #expect(v.firstNonFinite() == nil)
        let text = try v.serialized()
        #expect(!text.contains("null"))
        #expect(try JSONValue.parse(Data(text.utf8)) == v)
        #expect(try JSONValue.array([.null, .bool(true), .number(-0.0), .number(1e300)]).serialized() == "[null,true,-0,1e+300]")
    }

    /// Package files are written with the same check: a part or package metadata number is finite
    /// by construction (setNumber refuses others), so saving never meets one.
    @Test func metadataRefusesNonFiniteNumbers() {
        let p = ParameterSet()
        expectCode(.invalidArgument) { try p.setNumber(.nan, forKey: "a.b") }
        expectCode(.invalidJSON) { try p.inject(json: "{\"a\": 1e999}") }
        #expect(p.json == "{}")
    }
}
