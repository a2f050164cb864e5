import Foundation
import Testing
@testable import InkRecognition

@Suite struct DecoderTests {
    let recognizer = TextRecognizer(model: Fixtures.model)

    @Test func greedyCollapsesRepeatsAndBlanks() {
        let m = Fixtures.matrix([["a": 0.9], ["a": 0.9], ["_": 0.9], ["a": 0.9], ["b": 0.9], ["_": 0.9]])
        let p = CTCDecoder.greedy(m)
        #expect(p.classes == [Fixtures.classIndex("a"), Fixtures.classIndex("a"), Fixtures.classIndex("b")])
        #expect(p.frames == [0, 3, 4])
    }

    @Test func beamSearchSumsPathsThatGreedyMisses() {
        // Best single path is blank-blank (""), but "a" has the larger total probability:
        // P("") = 0.4*0.4 = 0.16, P("a") = 0.3*0.3 + 0.3*0.4 + 0.4*0.3 = 0.33 (the same for "b").
        let m = Fixtures.matrix([["_": 0.4, "a": 0.3, "b": 0.3], ["_": 0.4, "a": 0.3, "b": 0.3]])
        #expect(CTCDecoder.greedy(m).classes.isEmpty)
        let paths = CTCDecoder.beamSearch(m, beamWidth: 8, nBest: 3, allowed: nil, constraint: nil)
        #expect(paths.first?.classes.count == 1)
        let first = paths.first?.classes.first
        #expect(first == Fixtures.classIndex("a") || first == Fixtures.classIndex("b"))
        let pa = paths.first.map { exp($0.score) } ?? 0
        #expect(abs(pa - 0.33) < 0.01)
    }

    @Test func recognizerDecodesWordsAndSpaces() {
        let m = Fixtures.matrix([["h": 0.9], ["i": 0.9], ["_": 0.9], [" ": 0.9], ["y": 0.9], ["o": 0.9], ["u": 0.9]])
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off))
        #expect(r.text == "hi you")
        #expect(r.words.map(\.text) == ["hi", "you"])
        #expect(r.words.allSatisfy { $0.candidates.first?.text == $0.text })
    }

    /// A capital field where the network saw a small c: masking c leaves the blank ahead of every
    /// allowed path, yet something was written, so the field reads the best allowed letter.
    @Test func maskedReadingStillGivesTheBestAllowedCharacter() {
        let m = Fixtures.matrix([["_": 0.35, "c": 0.55, "C": 0.08], ["_": 0.5, "c": 0.4, "C": 0.08], ["_": 0.9]])
        var upper = RecognitionOptions(lexiconMode: .off)
        upper.allowedCharacters = RecognitionOptions.upperCase
        #expect(CTCDecoder.beamSearch(m, beamWidth: 16, nBest: 2, allowed: [true] + Fixtures.charset.map { $0.isUppercase },
                                      constraint: nil).first?.classes.isEmpty == true, "the blank wins the masked search")
        let r = recognizer.decode(m, ink: nil, options: upper)
        #expect(r.text == "C")
        #expect(r.candidates.first?.text == "C")
        // Ink the network reads as nothing stays empty under a constraint too.
        let blank = Fixtures.matrix([["_": 0.9], ["_": 0.9]])
        #expect(recognizer.decode(blank, ink: nil, options: upper).text.isEmpty)
    }

    /// The network is all but certain of a small e (E is 11 nats below it): a capital field still
    /// considers E, since the search prunes against the best class the field allows.
    @Test func maskedSearchPrunesAgainstTheBestAllowedClass() {
        let m = Fixtures.matrix([["e": 0.99995, "E": 2e-5], ["_": 0.9]])
        var upper = RecognitionOptions(lexiconMode: .off)
        upper.allowedCharacters = RecognitionOptions.upperCase
        let paths = CTCDecoder.beamSearch(m, beamWidth: 16, nBest: 3, allowed: [true] + Fixtures.charset.map { $0.isUppercase },
                                          constraint: nil)
        #expect(paths.first?.classes == [Fixtures.classIndex("E")])
        #expect(recognizer.decode(m, ink: nil, options: upper).text == "E")
    }

    @Test func lexiconConstraintPicksDictionaryWord() {
        // "cet" is the best path; "cat" is second best per frame and in the word list.
        let m = Fixtures.matrix([["c": 0.9], ["e": 0.5, "a": 0.4], ["t": 0.9]])
        let free = recognizer.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off))
        #expect(free.text == "cet")
        let req = recognizer.decode(m, ink: nil, options: RecognitionOptions(wordList: ["cat", "dog"], lexiconMode: .require))
        #expect(req.text == "cat")
        let pref = recognizer.decode(m, ink: nil, options: RecognitionOptions(wordList: ["cat", "dog"],
                                                                              lexiconMode: .prefer(tolerancePerWord: 1.0)))
        #expect(pref.text == "cat")
        #expect(pref.candidates.map(\.text).contains("cet"))
        // With zero tolerance the more likely free reading wins.
        let strict = recognizer.decode(m, ink: nil, options: RecognitionOptions(wordList: ["cat"], lexiconMode: .prefer(tolerancePerWord: 0)))
        #expect(strict.text == "cet")
    }

    @Test func lexiconPreferenceIsDecidedPerWord() {
        // "cet qzx": the first word snaps to the lexicon word "cat", the out-of-lexicon "qzx" stays.
        let m = Fixtures.matrix([["c": 0.9], ["e": 0.5, "a": 0.4], ["t": 0.9], [" ": 0.9],
                                 ["q": 0.9], ["z": 0.9], ["x": 0.9]])
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(wordList: ["cat", "dog"],
                                                                           lexiconMode: .prefer(tolerancePerWord: 1.0)))
        #expect(r.text == "cat qzx")
        #expect(r.words.map(\.text) == ["cat", "qzx"])
        #expect(r.words.first?.candidates.map(\.text).contains("cet") == true)
        #expect(r.candidates.first?.text == "cat qzx")
        #expect(r.candidates.map(\.text).contains("cet qzx"))
    }

    @Test func lexiconAllowsCapitalsPunctuationAndNumbers() {
        let m = Fixtures.matrix([["C": 0.9], ["a": 0.9], ["t": 0.9], [".": 0.9], [" ": 0.9], ["4": 0.9], ["2": 0.9]])
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(wordList: ["cat"], lexiconMode: .require))
        #expect(r.text == "Cat. 42")
    }

    @Test func digitsOnlyConstraint() {
        // Frames look like "lO" (letters) but digits-only must read them as "10".
        let m = Fixtures.matrix([["l": 0.6, "1": 0.3], ["O": 0.6, "0": 0.3]])
        #expect(recognizer.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off)).text == "lO")
        let r = recognizer.decode(m, ink: nil, options: .digitsOnly)
        #expect(r.text == "10")
        #expect(r.candidates.allSatisfy { $0.text.allSatisfy(\.isNumber) })
    }

    @Test func regularExpressionFiltersCandidates() {
        let m = Fixtures.matrix([["A": 0.5, "4": 0.4], ["B": 0.5, "8": 0.4]])
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(regularExpression: "[0-9]+", lexiconMode: .off))
        #expect(r.text == "48")
        let none = recognizer.decode(m, ink: nil, options: RecognitionOptions(regularExpression: "x{5}", lexiconMode: .off))
        #expect(none.text.isEmpty)
        let bad = recognizer.decode(m, ink: nil, options: RecognitionOptions(regularExpression: "([", lexiconMode: .off))
        #expect(bad.text.isEmpty)
    }

    @Test func nBestIsSortedAndDistinct() {
        let m = Fixtures.matrix([["a": 0.5, "o": 0.4], ["n": 0.6, "m": 0.3]])
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off, nBest: 4))
        #expect(r.candidates.count == 4)
        #expect(Set(r.candidates.map(\.text)).count == r.candidates.count)
        #expect(zip(r.candidates, r.candidates.dropFirst()).allSatisfy { $0.score >= $1.score })
        #expect(r.candidates.first?.text == "an")
    }

    /// Two frames sure of "B": "BB" needs a blank between them, so its probability is 0. It used to
    /// enter a beam that had room and come out as a candidate scored -inf (11-20% of lone characters,
    /// whose record `quire recognize --json` then wrote as null).
    @Test func impossibleRepeatIsNoCandidate() {
        let m = Fixtures.matrix([["B": 0.999], ["B": 0.999]])
        let b = Fixtures.classIndex("B")
        let paths = CTCDecoder.beamSearch(m, beamWidth: 16, nBest: 5, allowed: nil, constraint: nil)
        #expect(paths.first?.classes == [b])
        #expect(paths.allSatisfy { $0.score.isFinite }, "\(paths.map(\.score))")
        #expect(!paths.contains { $0.classes == [b, b] })
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off))
        #expect(r.text == "B")
        #expect(r.candidates.allSatisfy { $0.score.isFinite }, "\(r.candidates)")
        #expect(r.words.flatMap(\.candidates).allSatisfy { $0.score.isFinite })
        // With a blank between them the repeat is possible and scored.
        let twice = CTCDecoder.beamSearch(Fixtures.matrix([["B": 0.999], ["_": 0.999], ["B": 0.999]]), beamWidth: 16, nBest: 5,
                                          allowed: nil, constraint: nil)
        #expect(twice.first?.classes == [b, b] && twice.allSatisfy { $0.score.isFinite })
    }

    /// A caller's matrix may hold probabilities of exactly 0 (-inf) or NaN: no candidate comes out
    /// without a finite score.
    @Test func zeroAndNaNProbabilitiesGiveFiniteScores() {
        var m = Fixtures.matrix([["a": 0.9], ["a": 0.9], ["b": 0.9]])
        for t in 0 ..< 2 { m.values[t * m.classes] = -.infinity }  // no blank in the first two frames
        let r = recognizer.decode(m, ink: nil, options: RecognitionOptions(lexiconMode: .off))
        #expect(r.text == "ab")
        #expect(r.candidates.allSatisfy { $0.score.isFinite }, "\(r.candidates)")
        #expect(r.words.flatMap(\.candidates).allSatisfy { $0.score.isFinite })
        var bad = m
        bad.values = bad.values.map { _ in Float.nan }
        let none = recognizer.decode(bad, ink: nil, options: RecognitionOptions(lexiconMode: .off))
        #expect(none.text.isEmpty && none.candidates.allSatisfy { $0.score.isFinite })
    }

    @Test func lexiconTrie() {
        let l = Lexicon(words: ["Hello", "help", "it's", "naïve", ""])
        #expect(l.count == 3)
        #expect(l.contains("hello") && l.contains("HELP") && l.contains("it's"))
        #expect(!l.contains("hel") && !l.contains("naïve"))
    }
}
