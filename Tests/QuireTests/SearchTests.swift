import Foundation
import Testing
import Quire

/// `InkSearch`: words in recognized handwriting (by any candidate) and typed text, across parts.
@Suite struct SearchTests {
    /// A handwritten word (it has strokes) with the candidates a recognizer gave, best first.
    func ink(_ label: String, _ others: [String] = [], x: Double, line: Int = 0) -> RecognizedWord {
        RecognizedWord(label: label, candidates: ([label] + others).map { Candidate(label: $0, score: 0) },
                       box: Rect(x: x, y: 10 + Double(line) * 10, width: 8, height: 5), line: line, strokeIds: ["s\(Int(x))"])
    }

    /// A Text Document part whose one Text block holds `words` (and `text`).
    func part(_ words: [RecognizedWord], text: String? = nil, id: String = "b1") throws -> PartModel {
        let m = try PartModel(id: "p", type: "Text Document")
        m.setBlock(BlockData(id: id, type: "Text", box: Rect(x: 5, y: 5, width: 100, height: 40), parentId: m.root.id, text: text, words: words))
        var root = m.root
        root.childIds.append(id)
        m.setBlock(root)
        return m
    }

    func words(_ query: String, in m: PartModel, candidates: Bool = true, near: Bool = true) throws -> [String] {
        try InkSearch(query, candidates: candidates, nearMatches: near).hits(in: m, partIndex: 0).map(\.word)
    }

    @Test func caseAccentsAndPunctuationAreIgnored() throws {
        let m = try part([ink("Café", x: 0), ink("bread,", x: 10), ink("Straße", x: 20), ink("don\u{2019}t", x: 30)])
        #expect(try words("cafe", in: m) == ["Café"])
        #expect(try words("CAFÉ", in: m) == ["Café"])
        #expect(try words("bread", in: m) == ["bread,"])
        #expect(try words("strasse", in: m) == ["Straße"])
        #expect(try words("don't", in: m) == ["don\u{2019}t"])
        #expect(try words("tea", in: m).isEmpty)
    }

    @Test func anyCandidateMatchesAndSaysWhich() throws {
        let m = try part([ink("brad", ["bread", "broad"], x: 0)])
        let hits = try InkSearch("Bread").hits(in: m, partIndex: 0)
        #expect(hits == [SearchHit(partIndex: 0, blockId: "b1", word: "brad", candidates: ["bread"], box: Rect(x: 0, y: 10, width: 8, height: 5))])
        #expect(try words("bread", in: m, candidates: false).isEmpty, "by what it reads as alone, 'brad' is not 'bread'")
        #expect(try words("brad", in: m, candidates: false) == ["brad"])
    }

    @Test func severalWordsInARowAndWordsSplitByAGap() throws {
        let m = try part([ink("sister", x: 0), ink("found", ["fond"], x: 10), ink("white", x: 20, line: 1), ink("throat", x: 30, line: 1)])
        let phrase = try InkSearch("sister fond").hits(in: m, partIndex: 0)
        #expect(phrase.map(\.word) == ["sister found"] && phrase[0].candidates == ["fond"])
        #expect(phrase[0].box == Rect(x: 0, y: 10, width: 18, height: 5))
        #expect(try words("found sister", in: m).isEmpty, "order matters")
        // Written with a wide gap, read as two words: found as one; not across lines.
        #expect(try words("whitethroat", in: m) == ["white throat"])
        #expect(try words("foundwhite", in: m).isEmpty)
    }

    @Test func prefixAndNearMatchesForLongHandwrittenWords() throws {
        let m = try part([ink("rganization", x: 0), ink("round", x: 10), ink("organs", x: 20)])
        #expect(try words("organ*", in: m) == ["organs"])
        // One letter off: a long handwritten word is still found; short words are not ("found" is not "round").
        #expect(try words("organization", in: m) == ["rganization"])
        #expect(try words("organization", in: m, near: false).isEmpty)
        #expect(try words("found", in: m).isEmpty)
        // Typed text is what was typed: no near matches.
        let typed = try part([RecognizedWord(label: "rganization", box: Rect(x: 0, y: 0, width: 9, height: 4))])
        #expect(try words("organization", in: typed).isEmpty)
    }

    @Test func typedTextWithoutWordLayoutIsFoundInItsBlock() throws {
        let m = try part([], text: "Hello wörld,\nsecond line")
        let hits = try InkSearch("WORLD").hits(in: m, partIndex: 0)
        #expect(hits == [SearchHit(partIndex: 0, blockId: "b1", word: "wörld,", box: Rect(x: 5, y: 5, width: 100, height: 40))])
        #expect(try words("second line", in: m) == ["second line"])
    }

    @Test func everyPartOfAPackageIsSearched() throws {
        let dir = TempDir()
        let engine = try Engine()
        let pkg = try engine.createPackage(dir.path("notes.iink"))
        defer { pkg.close() }
        for words in [[ink("apple", x: 0)], [ink("pear", x: 0), ink("apple", ["apply"], x: 10)]] {
            let p = try pkg.createPart(type: "Text Document")
            let filled = try part(words)
            for b in filled.blocksInTreeOrder() { p.model.setBlock(b) }
        }
        let hits = try InkSearch("apple").hits(in: pkg)
        #expect(hits.map(\.partIndex) == [0, 1] && hits.map(\.blockId) == ["b1", "b1"])
        #expect(try InkSearch("apply").hits(in: pkg).map(\.partIndex) == [1])
    }

    @Test func aQueryWithoutWordsIsRefused() {
        let e = #expect(throws: QuireError.self) { _ = try InkSearch("  \n ") }
        #expect(e?.code == .invalidArgument && e?.message.contains("no word") == true)
    }

    @Test func inkNeverRecognizedIsReportedForARecognizer() throws {
        let m = try PartModel(id: "p", type: "Raw Content")
        #expect(m.unreadInkBlockIds.isEmpty)
        m.insertStroke(InkStroke(id: "s1", blockId: m.root.id, seq: 1, samples: [InkSample(x: 0, y: 0, t: 0, f: 0.5), InkSample(x: 5, y: 5, t: 8, f: 0.5)]))
        #expect(m.unreadInkBlockIds == [m.root.id])
        let read = try InkSearch("tree").hits(in: m, partIndex: 3, recognized: [m.root.id: [ink("tree", x: 0)]])
        #expect(read.map(\.partIndex) == [3] && read.map(\.word) == ["tree"])
    }
}
