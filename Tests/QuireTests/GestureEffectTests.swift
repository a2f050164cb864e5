import Foundation
import Testing
@testable import Quire

/// Reads each cluster of strokes (same guide line, gaps under 3 mm) as a word spelled by the
/// letters the test gave its strokes; candidates: the word, then the word in capitals.
final class LetterRecognizer: InkRecognizer, @unchecked Sendable {
    private let lock = NSLock()
    private var letters: [String: String] = [:]
    func name(_ strokeId: String, _ letter: String) { lock.withLock { letters[strokeId] = letter } }
    func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
        let known = lock.withLock { letters }
        let spacing = r.guideSpacing ?? 10
        var lines: [Int: [InkStroke]] = [:]
        for s in r.strokes { lines[Int(((s.bounds.midY - r.box.y) / spacing).rounded(.down)), default: []].append(s) }
        var out: [RecognizedWord] = []
        for (li, key) in lines.keys.sorted().enumerated() {
            var groups: [[InkStroke]] = []
            for s in lines[key]!.sorted(by: { $0.bounds.x < $1.bounds.x }) {
                if let last = groups.last?.last, s.bounds.x - last.bounds.maxX < 3 { groups[groups.count - 1].append(s) } else { groups.append([s]) }
            }
            for g in groups {
                let label = g.map { known[$0.id] ?? "?" }.joined()
                let box = g.dropFirst().reduce(g[0].bounds) { $0.union($1.bounds) }
                out.append(RecognizedWord(label: label, candidates: [Candidate(label: label, score: 0.8), Candidate(label: label.uppercased(), score: 0.2)],
                                          box: box, line: li, strokeIds: g.map(\.id)))
            }
        }
        return out
    }
}

/// Records gestures and answers with a fixed action.
final class GestureRecorder: EditorDelegate {
    var action: GestureAction = .apply
    var asked: [GestureKind] = []
    var applied: [Gesture] = []
    func gestureAction(_ editor: Editor, gesture: Gesture) -> GestureAction { asked.append(gesture.kind); return action }
    func gestureApplied(_ editor: Editor, gesture: Gesture) { applied.append(gesture) }
}

/// A Text Document with words written in letters of 4 x 4 mm on the guides (10 mm apart).
struct WordPage {
    let f: Fixture
    let rec = LetterRecognizer()
    var editor: Editor { f.editor }
    static let px = 96 / 25.4
    var t: Int64 = 10_000

    init(fixture: Fixture? = nil) throws {
        f = try fixture ?? Fixture(recognizer: nil)
        f.editor.recognizer = rec
    }

    /// Writes `word` with its first letter at x (mm) on the baseline y (mm); one stroke a letter.
    @discardableResult
    mutating func write(_ word: String, x: Double, baseline y: Double) throws -> [String] {
        var ids: [String] = []
        for (i, ch) in word.enumerated() {
            let x0 = x + Double(i) * 5
            let pts = [(x0, y), (x0 + 0.5, y - 2.5), (x0 + 1.2, y - 4), (x0 + 2.8, y - 4), (x0 + 3.5, y - 2.5), (x0 + 4, y)]
            ids.append(try stroke(pts, letter: String(ch)))
        }
        return ids
    }

    /// Draws a stroke through points given in mm; returns the stroke id it had.
    @discardableResult
    mutating func stroke(_ pts: [(Double, Double)], type: PointerType = .pen, letter: String? = nil) throws -> String {
        var dense: [(Double, Double)] = [pts[0]]
        for (a, b) in zip(pts, pts.dropFirst()) {
            for k in 1...6 { let u = Double(k) / 6; dense.append((a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u)) }
        }
        t += 1000
        let id = try editor.pointerDown(x: dense[0].0 * Self.px, y: dense[0].1 * Self.px, t: t, f: 0.5, type: type)
        // Named before the pen-up: recognition of the block starts there, on the worker.
        if let letter { rec.name(id, letter) }
        for (i, p) in dense.enumerated().dropFirst().dropLast() { try editor.pointerMove(x: p.0 * Self.px, y: p.1 * Self.px, t: t + Int64(i) * 8, f: 0.5, type: type) }
        let e = dense[dense.count - 1]
        try editor.pointerUp(x: e.0 * Self.px, y: e.1 * Self.px, t: t + Int64(dense.count) * 8, f: 0.5, type: type)
        return id
    }

    func text() throws -> String {
        try editor.waitForIdle()
        return try editor.export(nil, mimeType: .text)
    }

    var strokeCount: Int { f.part.model.strokes.count }
    var blocks: [ContentBlock] { editor.rootBlock?.children ?? [] }
    func word(_ label: String) -> RecognizedWord? { ((editor.rootBlock.map { [$0] } ?? []) + blocks).flatMap(\.words).first { $0.label == label } }

    /// A zig-zag over a box (mm): five passes sideways.
    static func scratch(_ b: Rect) -> [(Double, Double)] {
        (0...6).map { i in (i % 2 == 0 ? b.x - 0.5 : b.maxX + 0.5, b.y + b.height * Double(i) / 6) }
    }
}

@Suite(.serialized) struct GestureEffectTests {
    func page(_ words: [(String, Double)], baseline: Double = 30) throws -> WordPage {
        var p = try WordPage()
        for (w, x) in words { try p.write(w, x: x, baseline: baseline) }
        try p.editor.waitForIdle()
        return p
    }

    @Test func strikeThroughDeletesTheWordAndUndoBringsItBack() throws {
        var p = try page([("one", 20), ("two", 45), ("six", 70)])
        #expect(try p.text() == "one two six")
        let before = p.strokeCount
        let rec = GestureRecorder()
        p.editor.addDelegate(rec)
        let two = try #require(p.word("two")).box
        try p.stroke([(two.x - 1, two.midY), (two.maxX + 1, two.midY)])
        #expect(rec.applied.map(\.kind) == [.strikeThrough])
        #expect(rec.applied.first?.strokeIds.count == 3, "the three letters of the word")
        #expect(try p.text() == "one six")
        #expect(p.strokeCount == before - 3, "the gesture stroke is not kept as ink")
        p.editor.undo()
        #expect(try p.text() == "one two six")
        #expect(p.strokeCount == before)
        p.editor.redo()
        #expect(try p.text() == "one six")
    }

    @Test func scratchOutErasesWordsAndCutsPartlyCoveredStrokes() throws {
        var p = try page([("abc", 20), ("def", 45)])
        let abc = try #require(p.word("abc")).box
        // Over all of "abc" and the left quarter of "d".
        let area = Rect(x: abc.x, y: abc.y, width: 45.5 - abc.x, height: abc.height)
        let before = p.f.part.model.strokes.values.map(\.id)
        try p.stroke(WordPage.scratch(area))
        let text = try p.text()
        #expect(!text.contains("abc"))
        let after = Set(p.f.part.model.strokes.values.map(\.id))
        #expect(after.count == 3, "d is cut into a piece (a new stroke), e and f stay: \(after)")
        #expect(after.subtracting(before).count == 1, "the cut piece of d is a new stroke")
        let piece = try #require(p.f.part.model.strokes.values.first { !before.contains($0.id) })
        #expect(piece.bounds.x >= area.maxX, "the piece lies right of the scratch")
        p.editor.undo()
        #expect(Set(p.f.part.model.strokes.values.map(\.id)) == Set(before))
        #expect(try p.text() == "abc def")
    }

    @Test func underlineAndSurroundStyleWordsInTheModelAndTheJSON() throws {
        var p = try page([("ink", 20), ("pen", 45)])
        let ink = try #require(p.word("ink")).box
        try p.stroke([(ink.x - 0.5, 31.5), (ink.maxX + 0.5, 31.6)])
        try p.editor.waitForIdle()
        #expect(p.word("ink")?.styles == ["underline"])
        #expect(p.word("pen")?.styles == [])
        let pen = try #require(p.word("pen")).box
        var loop: [(Double, Double)] = []
        for i in 0...40 {
            let a = Double(i) / 40 * 2.1 * .pi
            loop.append((pen.midX + cos(a) * (pen.width / 2 + 3), pen.midY + sin(a) * (pen.height / 2 + 3)))
        }
        try p.stroke(loop)
        try p.editor.waitForIdle()
        #expect(p.word("pen")?.styles == ["surround"])
        let json = try p.editor.export(nil, mimeType: .json)
        #expect(json.contains("\"underline\"") && json.contains("\"surround\""))
        #expect(try p.text() == "ink pen", "decorations change no text")
        // Styles survive re-recognition of the block (more ink written) ...
        try p.write("cat", x: 70, baseline: 30)
        try p.editor.waitForIdle()
        #expect(p.word("ink")?.styles == ["underline"] && p.word("pen")?.styles == ["surround"])
        // ... and undoing the surround takes it off.
        for _ in 0..<4 { p.editor.undo() }   // the three letters of cat, then the surround
        try p.editor.waitForIdle()
        #expect(p.word("pen")?.styles == [])
        #expect(p.word("ink")?.styles == ["underline"])
    }

    @Test func underlineGivenBeforeRecognitionLandsOnTheWord() throws {
        var p = try WordPage()
        p.editor.recognizer = nil
        try p.write("word", x: 20, baseline: 30)
        try p.stroke([(19.5, 31.5), (39.5, 31.6)])
        #expect(p.strokeCount == 4, "taken as a gesture on unrecognized ink")
        p.editor.recognizer = p.rec
        try p.write("x", x: 60, baseline: 30)
        try p.editor.waitForIdle()
        #expect(p.word("word")?.styles == ["underline"])
    }

    @Test func joinClosesTheGapAndSplitOpensOne() throws {
        var p = try page([("some", 20), ("thing", 50)])
        #expect(try p.text() == "some thing")
        // Upward in the gap between the words (some ends at 39, thing starts at 50).
        try p.stroke([(44.5, 31), (44.5, 24)])
        #expect(try p.text() == "something")
        p.editor.undo()
        #expect(try p.text() == "some thing")
        p.editor.redo()
        #expect(try p.text() == "something")
        // Downward through the word between "some" and "thing": split again.
        let letters = p.f.part.model.strokes.values.map(\.bounds).sorted { $0.x < $1.x }
        let x = (letters[3].maxX + letters[4].x) / 2   // between the e and the t, now 0.3 mm apart
        try p.stroke([(x, 24), (x, 31)])
        #expect(try p.text() == "some thing")
        p.editor.undo()
        #expect(try p.text() == "something")
        p.editor.redo()
        #expect(try p.text() == "some thing")
        // Downward in the gap: the rest of the line goes to the next line.
        let thing = try #require(p.word("thing")).box
        let some = try #require(p.word("some")).box
        try p.stroke([((some.maxX + thing.x) / 2, 24), ((some.maxX + thing.x) / 2, 31)])
        #expect(try p.text() == "some\nthing")
        let moved = try #require(p.word("thing")).box
        #expect(abs(moved.x - some.x) < 0.5 && abs(moved.maxY - 40) < 0.5, "thing starts the next line: \(moved)")
    }

    @Test func sliceOpensAndClosesSpaceBetweenBlocks() throws {
        var p = try page([("top", 20)])
        try p.write("low", x: 20, baseline: 100)
        try p.editor.waitForIdle()
        #expect(p.blocks.count == 2)
        let y0 = p.blocks.map(\.box.y).max()!
        try p.stroke([(10, 70), (150, 70)])
        let y1 = p.blocks.map(\.box.y).max()!
        #expect(abs(y1 - y0 - 20) < 0.01, "left to right opens two lines: \(y0) -> \(y1)")
        #expect(try p.text() == "top\nlow")
        try p.stroke([(150, 70), (10, 70)])
        #expect(abs(p.blocks.map(\.box.y).max()! - y0) < 0.01)
        p.editor.undo()
        #expect(abs(p.blocks.map(\.box.y).max()! - y1) < 0.01)
    }

    @Test func delegatesInterceptGatesAndOrdinaryStrokesStayInk() throws {
        var p = try page([("one", 20), ("two", 45)])
        let rec = GestureRecorder()
        p.editor.addDelegate(rec)
        let one = try #require(p.word("one")).box
        let strike = [(one.x - 1, one.midY), (one.maxX + 1, one.midY)]
        let n = p.strokeCount
        rec.action = .ignore
        try p.stroke(strike)
        #expect(rec.asked == [.strikeThrough] && rec.applied.isEmpty)
        let ignoredText = try p.text()
        #expect(p.strokeCount == n && ignoredText == "one two", "ignored: no effect, no ink")
        rec.action = .addStroke
        try p.stroke(strike)
        #expect(p.strokeCount == n + 1 && rec.applied.isEmpty, "kept as ink")
        p.editor.undo()
        rec.action = .apply
        // Off by configuration: globally, per part type, or for one batch.
        try p.editor.configuration.setBoolean(false, forKey: "gesture.enable")
        try p.stroke(strike)
        #expect(p.strokeCount == n + 1); p.editor.undo()
        p.editor.configuration.removeKey("gesture.enable")
        try p.editor.configuration.setStringArray(["scratch-out"], forKey: "text-document.pen.gestures")
        try p.stroke(strike)
        #expect(p.strokeCount == n + 1); p.editor.undo()
        p.editor.configuration.removeKey("text-document.pen.gestures")
        let px = WordPage.px
        try p.editor.pointerEvents([.down(x: strike[0].0 * px, y: strike[0].1 * px), .move(x: one.midX * px, y: strike[0].1 * px),
                                    .up(x: strike[1].0 * px, y: strike[1].1 * px)], processGestures: false)
        #expect(p.strokeCount == n + 1, "processGestures: false writes ink")
        p.editor.undo()
        #expect(rec.applied.isEmpty)
        // Letters next to words are not gestures.
        try p.write("l", x: 70, baseline: 30)
        try p.stroke([(80, 28), (84, 28)])   // a dash beside the words
        try p.stroke([(91, 24), (91, 30)])   // a stroke like an l or a 1, downward, alone
        #expect(rec.asked == [.strikeThrough, .strikeThrough] && p.strokeCount == n + 3)
    }

    @Test func candidatePickReachesTheExportAndSurvivesRerecognition() throws {
        var p = try page([("hello", 20), ("world", 55)])
        let block = try #require(p.blocks.first)
        let ref = try #require(p.editor.hitWord(at: Point(x: 60 * WordPage.px, y: 28 * WordPage.px)))
        #expect(block.words[ref.index].label == "world")
        #expect(try p.editor.candidates(ref).map(\.label) == ["world", "WORLD"])
        try p.editor.selectCandidate(ref, candidateIndex: 1)
        #expect(try p.text() == "hello WORLD")
        #expect(try p.editor.export(nil, mimeType: .json).contains("\"selected\" : 1"))
        try p.write("again", x: 90, baseline: 30)
        #expect(try p.text() == "hello WORLD again", "the choice stays when the block is read again")
        for _ in 0..<6 { p.editor.undo() }   // the five letters of again, then the pick
        #expect(try p.text() == "hello world")
        expectCode(.invalidArgument) { try p.editor.selectCandidate(ref, candidateIndex: 7) }
        expectCode(.invalidArgument) { try p.editor.selectCandidate(WordRef(blockId: block.id, index: 99), candidateIndex: 0) }
    }

    @Test func convertAWordABlockAndThePart() throws {
        var p = try page([("red", 20), ("fox", 45)])
        try p.write("ran", x: 20, baseline: 60)
        try p.editor.waitForIdle()
        let first = try #require(p.blocks.first { $0.text == "red fox" })
        let n = p.strokeCount
        // One word: typeset where its ink was, the rest stays ink.
        let fox = try #require(first.words.firstIndex { $0.label == "fox" })
        let foxBox = first.words[fox].box
        try p.editor.convert(WordRef(blockId: first.id, index: fox), targetState: .digitalEdit)
        #expect(p.strokeCount == n - 3)
        let typeset = try #require(p.word("fox"))
        // Typeset at its ink's left edge, its glyph cells (FixedMetrics: ascent 0.8 of the size)
        // on the guide the ink sat on.
        let size = try #require(p.f.part.model.blocks[first.id]?.textFont?.size)
        #expect(typeset.strokeIds.isEmpty && typeset.box.x == foxBox.x && abs(typeset.box.y + 0.8 * size - 30) < 1e-9)
        #expect(typeset.chars.map(\.label) == ["f", "o", "x"] && abs(typeset.box.width - 3 * 0.6 * size) < 1e-9)
        #expect(try p.text() == "red fox\nran")
        // Writing into a block with typeset words: the new ink joins them in reading order.
        try p.write("a", x: 39.5, baseline: 30)
        let inserted = try p.text()
        #expect(inserted == "red a fox\nran", "ink written between typeset words is read in its place: \(inserted)")
        p.editor.undo()
        // Scratching out a typeset word removes it.
        try p.stroke(WordPage.scratch(foxBox))
        #expect(try p.text() == "red\nran")
        p.editor.undo()
        // The block, in place.
        try p.editor.convert(first, targetState: .digitalEdit)
        #expect(p.strokeCount == n - 6)
        #expect(first.words.allSatisfy { $0.strokeIds.isEmpty && !$0.box.isEmpty })
        #expect(try p.text() == "red fox\nran")
        // The whole part, reflowed.
        try p.editor.convert(nil, targetState: .digitalPublish)
        #expect(p.strokeCount == 0)
        #expect(try p.text() == "red fox\nran")
        #expect(p.blocks.allSatisfy { b in !b.words.isEmpty && b.words.allSatisfy { !$0.box.isEmpty && b.box.contains(Point(x: $0.box.x, y: $0.box.y)) && b.box.contains(Point(x: $0.box.maxX, y: $0.box.maxY)) } },
                "published text is reflowed into its block, each word laid out")
        p.editor.undo(); p.editor.undo(); p.editor.undo()
        #expect(p.strokeCount == n)
        #expect(try p.text() == "red fox\nran")
    }

    @Test func doubleTapWithTheFingerConvertsTheBlock() throws {
        let p = try page([("tap", 20)])
        let px = WordPage.px
        let x = 25 * px, y = 28 * px
        try p.editor.pointerDown(x: x, y: y, t: 50_000, type: .touch)
        try p.editor.pointerUp(x: x, y: y, t: 50_060, type: .touch)
        #expect(p.editor.selectedWord != nil && p.strokeCount == 3, "one tap selects the word")
        try p.editor.pointerDown(x: x + 2, y: y, t: 50_200, type: .touch)
        try p.editor.pointerUp(x: x + 2, y: y, t: 50_260, type: .touch)
        #expect(p.strokeCount == 0)
        #expect(try p.text() == "tap")
        #expect(p.blocks.first?.words.first?.strokeIds.isEmpty == true)
        // Slow taps do not convert.
        p.editor.undo()
        try p.editor.pointerDown(x: x, y: y, t: 60_000, type: .touch)
        try p.editor.pointerUp(x: x, y: y, t: 60_050, type: .touch)
        try p.editor.pointerDown(x: x, y: y, t: 61_000, type: .touch)
        try p.editor.pointerUp(x: x, y: y, t: 61_050, type: .touch)
        #expect(p.strokeCount == 3)
    }

    @Test func gesturesWorkOnTheRootOfATextPart() throws {
        let f = try Fixture(type: "Text")
        var p = try WordPage(fixture: f)
        try p.write("alpha", x: 20, baseline: 30)
        try p.write("beta", x: 50, baseline: 30)
        let json = try p.editor.export(nil, mimeType: .json)
        #expect(try p.text() == "alpha beta", "\(json)")
        let beta = try #require(p.word("beta")).box
        try p.stroke([(beta.x - 1, beta.midY), (beta.maxX + 1, beta.midY)])
        #expect(try p.text() == "alpha")
        // No slice in a Text part: a long line below the words is ink.
        let n = p.strokeCount
        try p.stroke([(10, 70), (150, 70)])
        #expect(p.strokeCount == n + 1)
    }

    @Test func joinedInkReadsAsOneWordAndBoxesKeepToTheInk() {
        var b = BlockData(id: "b", type: "Text", box: Rect(x: 0, y: 0, width: 100, height: 20))
        b.properties["quire.join"] = "s2:s3"
        let found = [
            RecognizedWord(label: "is", candidates: [Candidate(label: "is", score: 0.9), Candidate(label: "in", score: 0.1)],
                           box: Rect(x: 10, y: 2, width: 10, height: 5), strokeIds: ["s1", "s2"]),
            // The aligner gave this word the gap before it: its box starts 6 mm left of its ink.
            RecognizedWord(label: "land", candidates: [Candidate(label: "land", score: 0.8)],
                           box: Rect(x: 14, y: 2, width: 17, height: 5), strokeIds: ["s3"]),
            RecognizedWord(label: "now", box: Rect(x: 40, y: 2, width: 10, height: 5), strokeIds: ["s4"]),
        ]
        let ink: [String: Rect] = ["s1": Rect(x: 10, y: 2, width: 4, height: 5), "s2": Rect(x: 15, y: 2, width: 5, height: 5),
                                   "s3": Rect(x: 20.3, y: 2, width: 10.7, height: 5), "s4": Rect(x: 40, y: 2, width: 10, height: 5)]
        let words = Editor.merge(recognized: found, into: b, strokeBounds: { ink[$0] })
        #expect(words.map(\.label) == ["island", "now"])
        #expect(words[0].candidates.first?.label == "island" && words[0].candidates.contains { $0.label == "inland" })
        #expect(words[0].strokeIds == ["s1", "s2", "s3"] && words[0].box == Rect(x: 10, y: 2, width: 21, height: 5))
        let alone = Editor.merge(recognized: [found[1]], into: BlockData(id: "c", type: "Text", box: .zero), strokeBounds: { ink[$0] })
        #expect(alone[0].box.x == 20.3, "the gap before the word is not part of its box")
    }

    @Test func joinedWordsRankCandidatesByTheSumOfTheirLogProbabilities() {
        var b = BlockData(id: "b", type: "Text", box: Rect(x: 0, y: 0, width: 100, height: 20))
        b.properties["quire.join"] = "s1:s2"
        let found = [
            RecognizedWord(label: "is", candidates: [Candidate(label: "is", score: log(0.9)), Candidate(label: "in", score: log(0.1))],
                           box: Rect(x: 10, y: 2, width: 10, height: 5), strokeIds: ["s1"]),
            RecognizedWord(label: "land", candidates: [Candidate(label: "land", score: log(0.8)), Candidate(label: "lend", score: log(0.2))],
                           box: Rect(x: 21, y: 2, width: 10, height: 5), strokeIds: ["s2"]),
        ]
        let words = Editor.merge(recognized: found, into: b)
        #expect(words.count == 1 && words[0].label == "island" && words[0].selected == 0)
        #expect(words[0].candidates.map(\.label) == ["island", "islend", "inland", "inlend"])
        for (c, s) in zip(words[0].candidates, [log(0.9 * 0.8), log(0.9 * 0.2), log(0.1 * 0.8), log(0.1 * 0.2)]) {
            #expect(abs(c.score - s) < 1e-9, "\(c.label): \(c.score) is the sum of its parts' log probabilities")
        }
    }

    @Test func removeWordTakesItsInkOrTheTypesetWord() throws {
        let p = try page([("big", 20), ("cat", 45)])
        let block = try #require(p.blocks.first)
        try p.editor.removeWord(WordRef(blockId: block.id, index: 0))
        #expect(try p.text() == "cat" && p.strokeCount == 3)
        p.editor.undo()
        #expect(try p.text() == "big cat")
        try p.editor.convert(block, targetState: .digitalEdit)
        try p.editor.removeWord(WordRef(blockId: block.id, index: 1))
        #expect(try p.text() == "big")
        expectCode(.invalidArgument) { try p.editor.removeWord(WordRef(blockId: block.id, index: 5)) }
    }
}
