import ArgumentParser
import Foundation
import Quire
import QuireTools

/// `quire eval-search DATA.jsonl.gz`: how many handwritten words `quire search` finds. The words
/// of validation writers (never trained on) are imported as `quire import` does (a Text Document,
/// one sample under the other), read as `quire search` reads unrecognized ink, and each word is
/// searched by its label: found when a hit lies on that word's ink. Printed with and without
/// the recognizer's other candidates, to show what they add.
struct EvalSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval-search",
        abstract: "Measure how many handwritten words of validation writers quire search finds.")
    @Argument(help: "Samples in the shared handwriting-data format (.jsonl or .jsonl.gz), e.g. unipen-words.train.jsonl.gz.") var file: String
    @Option(help: "At most this many words, spread evenly over the validation writers' words in the file.") var limit = 300
    @Flag(help: "List every word not found and what was read there.") var verbose = false
    @OptionGroup var flags: RecognitionFlags

    func run() throws {
        try runReporting {
            guard limit > 0 else { throw QuireError(.invalidArgument, "--limit must be at least 1") }
            let lines = try Self.validationWords(file, limit: limit)
            guard !lines.isEmpty else { throw QuireError(.invalidArgument, "'\(file)' holds no one-word sample of a validation writer") }
            let records = try JSONLinesInk.parse(Data(lines.joined(separator: "\n").utf8), source: file)
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-eval-search-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let words = dir.appendingPathComponent("words.jsonl").path
            try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: words))
            let pkg = try ImportFile.build(words, out: dir.appendingPathComponent("words.iink").path, limit: .max, layout: "text-document").path
            let parts = try SearchCommand.read(pkg, adapter: try flags.adapter(), flags: flags)
            guard let page = parts.first else { throw QuireError(.importError, "the import made no part") }
            let strokes = page.model.orderedStrokes
            // Each sample's strokes, in import order, and the box where they ended up.
            var inks: [Rect?] = []
            var next = 0
            for r in records {
                let own = strokes[next ..< min(strokes.count, next + r.strokes.count)]
                next += r.strokes.count
                inks.append(own.first.map { f in own.dropFirst().reduce(f.bounds) { $0.union($1.bounds) } })
            }
            var found = 0, topOnly = 0, exact = 0, falseHits = 0, falseExact = 0, falseTop = 0
            for (r, ink) in zip(records, inks) {
                guard let ink else { continue }
                // Found: a hit on the word's own ink. A hit on ink of no word with that label is a false one.
                let same = zip(records, inks).compactMap { InkSearch.fold($0.0.label) == InkSearch.fold(r.label) ? $0.1 : nil }
                func finds(_ candidates: Bool, near: Bool = true) throws -> (Bool, Int) {
                    let hits = try InkSearch(r.label, candidates: candidates, nearMatches: near)
                        .hits(in: page.model, partIndex: 0, recognized: page.recognized)
                    return (hits.contains { $0.box.intersects(ink) }, hits.filter { h in !same.contains { h.box.intersects($0) } }.count)
                }
                let (withCandidates, wrong) = try finds(true)
                if withCandidates { found += 1 }
                falseHits += wrong
                let (alone, aloneWrong) = try finds(false, near: false)
                if alone { topOnly += 1 }
                falseTop += aloneWrong
                let (strict, strictWrong) = try finds(true, near: false)
                if strict { exact += 1 }
                falseExact += strictWrong
                if verbose && !withCandidates {
                    let read = page.recognized.values.joined().filter { $0.box.intersects(ink) }.map(\.chosenLabel)
                    print("missed \(r.label)  (read: \(read.joined(separator: " ")))")
                }
            }
            func pct(_ n: Int) -> String { String(format: "%.1f%%", 100 * Double(n) / Double(records.count)) }
            print("\(records.count) words of validation writers: quire search finds \(found) (\(pct(found))), with \(falseHits) hit(s) on other words")
            print("  by what each word reads as, exact: \(topOnly) (\(pct(topOnly))), with \(falseTop) hit(s) on other words")
            print("  with the recognizer's other candidates, exact: \(exact) (\(pct(exact))), with \(falseExact) hit(s) on other words")
            print("  with readings one letter off for words of \(InkSearch.nearMatchLength)+ letters: \(found) (\(pct(found)))")
        }
    }

    /// The raw lines of `limit` one-word samples of validation writers, spread evenly over the
    /// file (which is ordered by contributor: the first words alone would be one writer's).
    static func validationWords(_ path: String, limit: Int) throws -> [String] {
        var lines: [String] = []
        _ = try JSONLinesInk.read(path: path) { line in
            guard let w = JSONLinesInk.field("writer", in: line), RecognitionMetrics.isValidationWriter(w),
                  let label = JSONLinesInk.field("label", in: line), !label.contains(" "),
                  !InkSearch.fold(label).isEmpty else { return true }
            lines.append(String(decoding: line, as: UTF8.self))
            return true
        }
        guard lines.count > limit else { return lines }
        return (0 ..< limit).map { lines[$0 * lines.count / limit] }
    }
}
