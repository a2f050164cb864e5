import Foundation
import InkModel
@testable import QuireForms
@_exported import QuireTestSupport

/// One writer's real handwriting (see Fixtures/README.md).
let writerFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/writer-apple-fbf3215eb1.jsonl.gz").path

/// The writer's samples, read once.
let writerSamples: [InkSampleRecord] = (try? JSONLinesInk.read(path: writerFile)) ?? []

/// The index of the writer's first sample labelled `label` (for `quire form write --sample`).
func sampleIndex(_ label: String) throws -> Int {
    guard let i = writerSamples.firstIndex(where: { $0.label == label }) else {
        throw QuireError(.invalidArgument, "the fixture has no sample '\(label)'")
    }
    return i
}

func sample(_ label: String) throws -> InkSampleRecord { writerSamples[try sampleIndex(label)] }

/// Writes the samples labelled `labels`, one after another, into a field.
func write(_ labels: [String], into field: String, of form: Form) throws {
    for l in labels { try form.write(try sample(l), into: field) }
}

/// A form created from `spec` (JSON text) in a temporary folder.
struct FormFixture {
    let dir = TempDir(prefix: "quire-forms")
    let form: Form

    init(_ spec: String) throws {
        let parsed = try FormSpec.parse(Data(spec.utf8))
        form = try Form.create(path: dir.path("form.iink"), spec: parsed, engine: try Engine())
    }

    func values() throws -> [String: FieldValue] {
        Dictionary(uniqueKeysWithValues: try form.values().map { ($0.fieldId, $0) })
    }
}

