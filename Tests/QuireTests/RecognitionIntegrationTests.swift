import Foundation
import Testing
@testable import Quire

/// Real handwriting (UNIPEN train_r01_v07, CC BY 4.0; see Fixtures/README.md) written through the
/// editor's pointer API and read by the bundled recognizer.
enum Handwriting {
    static let fixtureURL = handwritingFixtureURL

    static let samples: [String: InkSampleRecord] = {
        guard let recs = try? JSONLinesInk.read(path: fixtureURL.path) else { return [:] }
        return Dictionary(recs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }()

    static func sample(_ id: String) throws -> InkSampleRecord {
        try #require(samples[id], "fixture sample \(id) missing from \(fixtureURL.path)")
    }

    /// Pointer events that write a sample scaled to `height` mm (nil: its own size) with its top-left
    /// corner at (x, y) mm.
    static func events(_ s: InkSampleRecord, editor: Editor, x: Double, y: Double, height: Double? = 6) -> [PointerEvent] {
        let b = s.bounds
        let k = height.map { $0 / max(b.height, 0.5) } ?? 1
        var out: [PointerEvent] = []
        var t: Int64 = 1_700_000_000_000
        for stroke in s.millimetreStrokes where !stroke.isEmpty {
            for (i, p) in stroke.enumerated() {
                let v = editor.viewTransform.apply(Point(x: x + (p.x - b.x) * k, y: y + (p.y - b.y) * k))
                t += 8
                out.append(i == 0 ? .down(x: v.x, y: v.y, t: t, f: 0.5) : .move(x: v.x, y: v.y, t: t, f: 0.5))
            }
            let last = editor.viewTransform.apply(Point(x: x + (stroke.last!.x - b.x) * k, y: y + (stroke.last!.y - b.y) * k))
            out.append(.up(x: last.x, y: last.y, t: t + 4, f: 0.5))
        }
        return out
    }

    /// Width in mm of a sample written at `height`.
    static func width(_ s: InkSampleRecord, height: Double? = 6) -> Double { s.bounds.width * (height.map { $0 / max(s.bounds.height, 0.5) } ?? 1) }

    /// Writes samples left to right on one line from (x, y) mm with 4 mm between them, in one
    /// `pointerEvents` call (so the block is read once).
    static func writeLine(_ ids: [String], editor: Editor, x: Double, y: Double, height: Double? = 6) throws {
        var cx = x
        var all: [PointerEvent] = []
        for id in ids {
            let s = try sample(id)
            all += events(s, editor: editor, x: cx, y: y, height: height)
            cx += width(s, height: height) + 4
        }
        try editor.pointerEvents(all, processGestures: false)
    }

    /// Words joined by line, as the text export does.
    static func text(_ words: [RecognizedWord]) -> String {
        var lines: [Int: [String]] = [:]
        for w in words { lines[w.line, default: []].append(w.label) }
        return lines.keys.sorted().map { lines[$0]!.joined(separator: " ") }.joined(separator: "\n")
    }

    static var weightsURL: URL {
        get throws { try #require(TextRecognizerAdapter.defaultWeightsURL(), "the bundled recognizer weights were not found") }
    }
}

// Fixture ids (validation writers) and their labels; chosen because the shipped weights read them.
private let line1 = [("unipen-4fe72e73a415", "found"), ("unipen-2e05f671aedf", "bread"), ("unipen-f2043b9bb547", "sugar")]
private let line2 = [("unipen-b0f24618f5b3", "island"), ("unipen-db47d8bec17f", "orange")]
/// Characters the free reading gets wrong ('z', 'a', 'S', 'u', 's') and a constrained one gets right.
private let constrained: [(id: String, truth: String, option: String, value: String)] = [
    ("unipen-3bd1906bf2de", "2", "digits-only", "true"), ("unipen-b9365f2c38ea", "9", "regex", "[0-9]"),
    ("unipen-5872e700068b", "5", "charset", "0123456789"),
    ("unipen-54f3a3b3f3ea", "U", "upper-case-only", "true"), ("unipen-0c0ca443838a", "S", "upper-case-only", "true"),
]

// Serialized: these read real ink with the debug-built network, which is CPU-heavy; one at a time
// leaves room for the timing-sensitive suites (the crash test) running beside them.
@Suite(.serialized) struct RecognitionIntegrationTests {
    @Test func editorsUseTheBundledRecognizerByDefault() throws {
        let editor = try Engine().createEditor()
        let adapter = try #require(editor.recognizer as? TextRecognizerAdapter)
        #expect(adapter === TextRecognizerAdapter.shared)
        #expect(try adapter.model().trainingStep > 0)
    }

    @Test func handwrittenWordsBecomeTextThroughTheEditor() throws {
        let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
        let rec = Recorder()
        f.editor.addDelegate(rec)
        let block = try f.editor.addBlock(at: f.editor.viewTransform.apply(Point(x: 12, y: 31)), type: "Text")
        #expect(block.box.y == 30 && block.box.height == 20)
        try Handwriting.writeLine(line1.map(\.0), editor: f.editor, x: 15, y: 32)
        try Handwriting.writeLine(line2.map(\.0), editor: f.editor, x: 15, y: 42)
        try f.editor.waitForIdle()
        #expect(rec.errors.isEmpty, "\(rec.errors)")
        let expected = line1.map(\.1).joined(separator: " ") + "\n" + line2.map(\.1).joined(separator: " ")
        #expect(block.text == expected)
        #expect(try f.editor.export(nil, mimeType: .text) == expected)

        let words = block.words
        let strokeIds = Set(block.strokeIds)
        #expect(Set(words.flatMap(\.strokeIds)) == strokeIds, "every stroke belongs to one word")
        #expect(words.flatMap(\.strokeIds).count == strokeIds.count)
        #expect(words.map(\.line) == line1.map { _ in 0 } + line2.map { _ in 1 })
        for w in words {
            #expect(w.candidates.first?.label == w.label)
            #expect(w.candidates.count > 1)
            #expect(zip(w.candidates, w.candidates.dropFirst()).allSatisfy { $0.score >= $1.score }, "candidates best first")
            #expect(w.chars.map(\.label).joined() == w.label)
            #expect(w.box.width > 0 && w.box.height > 0)
            #expect(w.box.x >= block.box.x && w.box.maxX <= block.box.maxX && w.box.y >= block.box.y - 1 && w.box.maxY <= block.box.maxY + 1)
            for c in w.chars {
                #expect(c.box.x >= w.box.x - 0.01 && c.box.maxX <= w.box.maxX + 0.01)
                #expect(Set(c.strokeIds).isSubset(of: Set(w.strokeIds)))
            }
            #expect(Set(w.chars.flatMap(\.strokeIds)) == Set(w.strokeIds), "each stroke of a word is given to one of its characters")
        }
        // Words of the first line lie left to right, above the second line.
        #expect(zip(words, words.dropFirst()).allSatisfy { $0.line < $1.line || $0.box.x < $1.box.x })
        let json = try JSONValue.parse(Data(try f.editor.export(nil, mimeType: .json).utf8))
        let jw = try #require(json["children"]?.arrayValue?.first?["words"]?.arrayValue)
        #expect(jw.count == words.count)
    }

    @Test func onlyLinesWhoseInkChangedAreReadAgain() throws {
        let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
        let adapter = TextRecognizerAdapter(modelURL: try Handwriting.weightsURL)
        f.editor.recognizer = adapter
        let block = try f.editor.addBlock(at: f.editor.viewTransform.apply(Point(x: 12, y: 31)), type: "Text")
        try Handwriting.writeLine(line1.map(\.0), editor: f.editor, x: 15, y: 32)
        try Handwriting.writeLine([line2[0].0], editor: f.editor, x: 15, y: 42)
        try f.editor.waitForIdle()
        let before = block.text
        let runs = adapter.linesRecognized
        // A word more on the second line: that line alone is read again.
        try Handwriting.writeLine([line1[0].0], editor: f.editor, x: 120, y: 42)
        try f.editor.waitForIdle()
        #expect(adapter.linesRecognized == runs + 1)
        #expect(block.text.hasPrefix(before.split(separator: "\n")[0] + "\n"))
        // Undoing the word stroke by stroke: the last undo restores ink already read, which is not read again.
        let strokes = try Handwriting.sample(line1[0].0).strokes.filter { !$0.isEmpty }.count
        for _ in 1 ..< strokes { f.editor.undo() }
        try f.editor.waitForIdle()
        let partial = adapter.linesRecognized
        f.editor.undo()
        try f.editor.waitForIdle()
        #expect(adapter.linesRecognized == partial)
        #expect(block.text == before)
        // Same request twice: the same words, from the cache.
        let req = try f.editor.recognitionRequest(for: block)
        // (The editor keeps word boxes to their ink; words, candidates and strokes are the same.)
        let again = try adapter.recognize(req)
        #expect(again.map(\.label) == block.words.map(\.label) && again.map(\.candidates) == block.words.map(\.candidates)
                && again.map(\.strokeIds) == block.words.map(\.strokeIds))
        #expect(adapter.linesRecognized == partial)
    }

    @Test func constrainedFieldsFollowTheConfiguration() throws {
        let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
        let adapter = try #require(f.editor.recognizer as? TextRecognizerAdapter)
        // Flags are booleans in the configuration; the rest strings.
        func read(_ block: ContentBlock, _ settings: [String: String]) throws -> String {
            for (k, v) in settings {
                if v == "true" || v == "false" {
                    try f.editor.configuration.setBoolean(v == "true", forKey: "text.configuration." + k)
                } else {
                    try f.editor.configuration.setString(v, forKey: "text.configuration." + k)
                }
            }
            defer { for k in settings.keys { f.editor.configuration.removeKey("text.configuration." + k) } }
            return Handwriting.text(try adapter.recognize(try f.editor.recognitionRequest(for: block)))
        }
        var blocks: [ContentBlock] = []
        for (i, c) in constrained.enumerated() {
            let y = 31.0 + 30 * Double(i)
            let block = try f.editor.addBlock(at: f.editor.viewTransform.apply(Point(x: 12, y: y)), type: "Text")
            try Handwriting.writeLine([c.id], editor: f.editor, x: 15, y: y + 1, height: nil)
            #expect(try read(block, [c.option: c.value]) == c.truth, "\(c.option) on \(c.id)")
            blocks.append(block)
        }
        let word = try f.editor.addBlock(at: f.editor.viewTransform.apply(Point(x: 12, y: 181)), type: "Text")
        try Handwriting.writeLine([line1[0].0], editor: f.editor, x: 15, y: 182)
        #expect(try read(word, [:]) == line1[0].1)
        // The constraint is really applied (whatever the weights): letters forced to digits give
        // digits or nothing, and an upper-case field never holds lower case.
        #expect(try read(word, ["digits-only": "true"]).allSatisfy(\.isNumber))
        #expect(try !read(word, ["upper-case-only": "true"]).contains { $0.isLowercase })
        #expect(try read(word, ["regex": "[A-Z]+"]).isEmpty, "no reading matches: no text")
        // A custom word list alone, required: the word becomes the nearest of its words.
        let dir = TempDir()
        let list = dir.path("words.txt")
        try "pound\nzebra\n".write(toFile: list, atomically: true, encoding: .utf8)
        #expect(try read(word, ["lexicon": list, "system-lexicon": "false", "lexicon-mode": "require"]) == "pound")

        // Through the worker: a block's words follow the editor's configuration.
        try f.editor.waitForIdle()
        let field = blocks[0]
        try f.editor.configuration.setBoolean(true, forKey: "text.configuration.digits-only")
        try Handwriting.writeLine([constrained[1].id], editor: f.editor, x: 40, y: 32, height: nil)
        try f.editor.waitForIdle()
        #expect(field.text == "29", "got '\(field.text)'")
    }

    @Test func badSettingsAreReportedNotCrashed() throws {
        let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
        let rec = Recorder()
        f.editor.addDelegate(rec)
        let adapter = try #require(f.editor.recognizer as? TextRecognizerAdapter)
        for (key, value) in [("regex", "(["), ("lexicon-mode", "sometimes"), ("charset", "\u{00e9}\u{00e8}"), ("lexicon", "/nonexistent/words.txt")] {
            let e = #expect(throws: QuireError.self) { _ = try adapter.configured(options: [key: value]) }
            #expect(e?.message.contains("text.configuration.\(key)") == true, "\(String(describing: e))")
        }
        expectCode(.invalidArgument) { _ = try adapter.configured(options: ["digits-only": "true", "upper-case-only": "true"]) }
        try f.editor.configuration.setString("([", forKey: "text.configuration.regex")
        try Handwriting.writeLine([line1[0].0], editor: f.editor, x: 15, y: 32)
        try f.editor.waitForIdle()
        #expect(rec.errors.contains { $0.1 == .invalidArgument && !$0.0.isEmpty })
        #expect(f.editor.rootBlock?.children.first?.words.isEmpty == true)
    }

    @Test func degenerateInkGivesNoCrash() throws {
        let adapter = TextRecognizerAdapter(modelURL: try Handwriting.weightsURL)
        let box = Rect(x: 0, y: 0, width: 100, height: 20)
        func req(_ strokes: [InkStroke]) -> RecognitionRequest {
            RecognitionRequest(blockId: "b", box: box, strokes: strokes, guideSpacing: 10)
        }
        let empty = InkStroke(id: "e", samples: [])
        #expect(try adapter.recognize(req([])).isEmpty)
        #expect(try adapter.recognize(req([empty])).isEmpty)
        let dot = InkStroke(id: "d", samples: [InkSample(x: 5, y: 5, t: 0, f: 0.5)])
        let words = try adapter.recognize(req([empty, dot]))
        #expect(words.allSatisfy { $0.strokeIds == ["d"] })
        // A scribble far too long to read is refused with a clear error.
        let huge = InkStroke(id: "h", samples: (0 ..< 20_000).map { InkSample(x: Double($0 % 200) * 0.5, y: $0 % 2 == 0 ? 2 : 9, t: Int64($0), f: 0.5) })
        let e = #expect(throws: QuireError.self) { _ = try adapter.recognize(req([huge])) }
        #expect(e?.code == .recognitionError && e?.message.contains("too much ink") == true)

        // Through the editor: a single-point stroke is fine, NaN is refused before it reaches the model.
        let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
        let rec = Recorder()
        f.editor.addDelegate(rec)
        try f.editor.pointerEvents([.down(x: 100, y: 100, t: 1000, f: 0.5), .up(x: 100, y: 100, t: 1001, f: 0.5)])
        try f.editor.waitForIdle()
        #expect(rec.errors.isEmpty)
        #expect(f.part.model.strokes.count == 1)
        expectCode(.invalidPointerSequence) {
            try f.editor.pointerEvents([.down(x: 200, y: 100, t: 1000), .move(x: .nan, y: 100, t: 1010), .up(x: 210, y: 100, t: 1020)])
        }
        expectCode(.invalidPointerSequence) { try f.editor.pointerDown(x: .infinity, y: 3, t: 1, f: 0, type: .pen, pointerId: 7) }
        #expect(f.part.model.strokes.count == 1)
        var big: [PointerEvent] = [.down(x: 50, y: 300, t: 2000)]
        for i in 1 ..< 20_000 { big.append(.move(x: 50 + Double(i % 200) * 2, y: i % 2 == 0 ? 300 : 330, t: 2000 + Int64(i))) }
        big.append(.up(x: 60, y: 300, t: 40_000))
        try f.editor.pointerEvents(big, processGestures: false)
        try f.editor.waitForIdle()
        #expect(rec.errors.contains { $0.1 == .recognitionError })
    }

    @Test func missingOrCorruptWeightsGiveAClearError() throws {
        let dir = TempDir()
        let missing = URL(fileURLWithPath: dir.path("none.bin"))
        expectCode(.resourceMissing) { _ = try TextRecognizerAdapter.load(modelURL: missing) }
        let garbage = URL(fileURLWithPath: dir.path("garbage.bin"))
        try Data("QREC not really a model".utf8).write(to: garbage)
        expectCode(.recognitionError) { _ = try TextRecognizerAdapter.load(modelURL: garbage) }
        let truncated = URL(fileURLWithPath: dir.path("truncated.bin"))
        try Data(try Data(contentsOf: try Handwriting.weightsURL).prefix(4096)).write(to: truncated)
        let e = #expect(throws: QuireError.self) { _ = try TextRecognizerAdapter.load(modelURL: truncated) }
        #expect(e?.code == .recognitionError && e?.message.contains(truncated.path) == true)

        for (url, code) in [(missing, QuireError.Code.resourceMissing), (truncated, .recognitionError)] {
            let f = try Fixture(recognizer: TextRecognizerAdapter.shared)
            let rec = Recorder()
            f.editor.addDelegate(rec)
            f.editor.recognizer = TextRecognizerAdapter(modelURL: url)
            try Handwriting.writeLine([line1[0].0], editor: f.editor, x: 15, y: 32)
            try f.editor.waitForIdle()
            let block = try #require(f.editor.rootBlock?.children.first)
            #expect(rec.errors.contains { $0.0 == block.id && $0.1 == code }, "\(rec.errors)")
            #expect(block.words.isEmpty)
        }
    }

    @Test func missingOrCorruptLanguageModelIsAnErrorOrLeftOut() throws {
        let dir = TempDir()
        let weights = try Handwriting.weightsURL
        // Asked for by path: a missing or corrupt file is an error that names it.
        let missing = URL(fileURLWithPath: dir.path("none-lm.bin"))
        expectCode(.resourceMissing) { _ = try TextRecognizerAdapter(modelURL: weights, languageModel: .file(missing)).configured(options: [:]) }
        let garbage = URL(fileURLWithPath: dir.path("garbage-lm.bin"))
        try Data("QCLM\u{1}\0\0\0 not really a model".utf8).write(to: garbage)
        let e = #expect(throws: QuireError.self) {
            _ = try TextRecognizerAdapter(modelURL: weights, languageModel: .file(garbage)).configured(options: [:])
        }
        #expect(e?.code == .recognitionError && e?.message.contains(garbage.path) == true)
        // Beside weights that have no model next to them: recognition runs without one.
        let lonely = URL(fileURLWithPath: dir.path("quire-rec.bin"))
        try FileManager.default.copyItem(at: weights, to: lonely)
        let adapter = TextRecognizerAdapter(modelURL: lonely)
        #expect(try adapter.loadedLanguageModel() == nil)
        #expect(try adapter.configured(options: [:]).recognizer.languageModel == nil)
        // ... and a corrupt one there is reported, not ignored.
        try FileManager.default.copyItem(at: garbage, to: URL(fileURLWithPath: dir.path("quire-lm.bin")))
        expectCode(.recognitionError) { _ = try TextRecognizerAdapter(modelURL: lonely).configured(options: [:]) }
        // Turned off: no model even where one exists.
        #expect(try TextRecognizerAdapter(modelURL: lonely, languageModel: .none).loadedLanguageModel() == nil)
    }

    @Test func characterModelIsFoundBesideTheWeightsOrReported() throws {
        let dir = TempDir()
        let weights = try Handwriting.weightsURL
        #expect(try TextRecognizerAdapter(modelURL: weights).loadedCharacterModel() != nil, "the shipped one beside the weights")
        let lonely = URL(fileURLWithPath: dir.path("quire-rec.bin"))
        try FileManager.default.copyItem(at: weights, to: lonely)
        #expect(try TextRecognizerAdapter(modelURL: lonely).loadedCharacterModel() == nil)
        // Any compatible network serves (here the general one itself), beside the weights or by path.
        try FileManager.default.copyItem(at: weights, to: URL(fileURLWithPath: dir.path("quire-rec-chars.bin")))
        #expect(try TextRecognizerAdapter(modelURL: lonely).configured(options: [:]).recognizer.characterModel != nil)
        #expect(try TextRecognizerAdapter(modelURL: weights, characterModel: .file(lonely)).loadedCharacterModel() != nil)
        #expect(try TextRecognizerAdapter(modelURL: lonely, characterModel: .none).configured(options: [:]).recognizer.characterModel == nil)
        // Missing, corrupt, or made for other preprocessing: an error that names the file.
        expectCode(.resourceMissing) {
            _ = try TextRecognizerAdapter(modelURL: weights, characterModel: .file(URL(fileURLWithPath: dir.path("none.bin")))).configured(options: [:])
        }
        let garbage = URL(fileURLWithPath: dir.path("garbage.bin"))
        try Data("QREC not really a model".utf8).write(to: garbage)
        expectCode(.recognitionError) { _ = try TextRecognizerAdapter(modelURL: weights, characterModel: .file(garbage)).configured(options: [:]) }
        var bytes = [UInt8](try Data(contentsOf: weights))
        let key = Array(#""spacing":0.1"#.utf8)
        let at = try #require((0 ... bytes.count - key.count).first { bytes[$0 ..< $0 + key.count].elementsEqual(key) })
        bytes[at + key.count - 1] = UInt8(ascii: "2")
        let spaced = URL(fileURLWithPath: dir.path("spaced.bin"))
        try Data(bytes).write(to: spaced)
        let e = #expect(throws: QuireError.self) {
            _ = try TextRecognizerAdapter(modelURL: weights, characterModel: .file(spaced)).configured(options: [:])
        }
        #expect(e?.code == .recognitionError && e?.message.contains(spaced.path) == true && e?.message.contains("does not match") == true)
    }

    @Test func cliRecognizesPackagesAndSamples() throws {
        let dir = TempDir()
        let pkg = dir.path("words.iink")
        let imported = try runQuire(["import", Handwriting.fixtureURL.path, "--out", pkg, "--limit", "3"])
        #expect(imported.status == 0, "\(imported.err)")
        let labels = try JSONLinesInk.read(path: Handwriting.fixtureURL.path, limit: 3).map(\.label)
        let text = try runQuire(["recognize", pkg])
        #expect(text.status == 0, "\(text.err)")
        #expect(text.out.split(separator: "\n").map(String.init) == labels)
        let exported = try runQuire(["export", pkg, "--format", "text"])
        #expect(exported.out.split(separator: "\n").map(String.init) == labels, "export waits for recognition")
        // Converted in place: the same text, no ink left, each word keeps its place.
        let copy = dir.path("converted.iink")
        try FileManager.default.copyItem(atPath: pkg, toPath: copy)
        let converted = try runQuire(["convert", copy])
        #expect(converted.status == 0 && converted.out.split(separator: "\n").map(String.init) == labels, "\(converted.err)")
        #expect(try runQuire(["info", copy]).out.contains("strokes=0"))
        let placed = try runQuire(["export", copy, "--format", "json"]).out
        let blocks = try JSONValue.parse(Data(placed.utf8))["children"]?.arrayValue ?? []
        let widths = blocks.flatMap { $0["words"]?.arrayValue ?? [] }.compactMap { (w: JSONValue) in w["box"]?["width"]?.doubleValue }
        #expect(placed.contains("\"digitalEdit\"") && widths.count == labels.count && widths.allSatisfy { $0 > 0 }, "typeset words keep their boxes: \(widths)")
        #expect(try runQuire(["convert", copy, "--to", "sideways"]).status == 2)
        let json = try runQuire(["recognize", pkg, "--json", "--lexicon-mode", "off"])
        let parsed = try JSONValue.parse(Data(json.out.utf8))
        let words = try #require(parsed["parts"]?.arrayValue?.first?["blocks"]?.arrayValue?.first?["words"]?.arrayValue)
        #expect(words.first?["candidates"]?.arrayValue?.isEmpty == false)
        #expect(words.first?["chars"]?.arrayValue?.isEmpty == false)
        let digits = try runQuire(["recognize", pkg, "--digits-only"])  // digits-only skips the word list
        #expect(digits.status == 0 && digits.out.allSatisfy { $0.isNumber || $0 == "\n" })

        let samples = try runQuire(["recognize", "--jsonl", Handwriting.fixtureURL.path, "--json", "--limit", "2", "--lexicon-mode", "off"])
        let lines = samples.out.split(separator: "\n").map { try? JSONValue.parse(Data($0.utf8)) }
        #expect(lines.count == 2 && lines.allSatisfy { $0?["label"]?.stringValue == $0?["reference"]?.stringValue })

        let eval = try runQuire(["eval", "--jsonl", Handwriting.fixtureURL.path, "--limit", "1", "--page-words", "4", "--lexicon-mode", "off"])
        #expect(eval.status == 0, "\(eval.err)")
        #expect(eval.out.contains("words") && eval.out.contains("digits") && eval.out.contains("CER") && eval.out.contains("page: 4 words on 1 lines"))
        // Isolated characters are also read as a field of their kind; other categories have no field figure.
        let rows = eval.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let digitRow = try #require(rows.first { $0.first == "digits" })
        let wordRow = try #require(rows.first { $0.first == "words" })
        #expect(Double(digitRow.last.map(String.init) ?? "").map { (0 ... 1).contains($0) } == true, "\(digitRow)")
        #expect(wordRow.last == "-", "\(wordRow)")

        let bad = try runQuire(["recognize", "--jsonl", Handwriting.fixtureURL.path], environment: ["QUIRE_RECOGNITION_MODEL": dir.path("none.bin")])
        #expect(bad.status == 2 && bad.err.contains("[resourceMissing]"), "\(bad.err)")
        let badRegex = try runQuire(["recognize", pkg, "--regex", "(["])
        #expect(badRegex.status == 2 && badRegex.err.contains("[invalidArgument]"))
    }
}
