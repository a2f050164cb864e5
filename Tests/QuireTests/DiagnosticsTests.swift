import Foundation
import Testing
import InkRecognition
@testable import Quire

/// The recognition diagnostics over real handwriting (UNIPEN, see Fixtures/README.md): they must
/// describe the reading the editor stored, and agree with themselves.
@Suite(.serialized) struct DiagnosticsTests {
    private func page(_ lines: [[String]]) throws -> (Editor, ContentBlock) {
        let editor = try Engine().createEditor(fontMetricsProvider: CairoFontMetrics())
        try editor.setViewSize(width: 1000, height: 700)
        let pkg = try Engine().createPackage(FileManager.default.temporaryDirectory.appendingPathComponent("diag-\(UUID().uuidString).iink").path)
        try editor.setPart(pkg.createPart(type: PartType.text.rawValue))
        for (i, ids) in lines.enumerated() { try Handwriting.writeLine(ids, editor: editor, x: 10, y: 12 + Double(i) * 14) }
        try editor.waitForIdle()
        return (editor, try #require(editor.rootBlock))
    }

    @Test func diagnosticsDescribeTheStoredReading() throws {
        let (editor, block) = try page([["unipen-4fe72e73a415", "unipen-2e05f671aedf", "unipen-f2043b9bb547"],
                                        ["unipen-b0f24618f5b3", "unipen-db47d8bec17f"]])
        let d = try editor.recognitionDiagnostics(block)
        #expect(d.lines.count == 2)
        // The same words as the editor stored, with the same strokes.
        #expect(d.lines.flatMap(\.words).map(\.label) == block.words.map(\.label))
        #expect(d.lines.flatMap(\.words).map(\.strokeIds) == block.words.map(\.strokeIds))
        #expect(block.words.map(\.label) == ["found", "bread", "sugar", "island", "orange"])
        // Lines partition the block's strokes.
        let all = d.lines.flatMap(\.strokeIds)
        #expect(Set(all).count == all.count)
        #expect(Set(all) == Set(editor.part!.model.strokeIds(inBlock: block.id)))
        for line in d.lines {
            let ld = line.diagnostics
            #expect(ld.bestClasses.count == ld.frames && ld.bestCharacters.count == ld.frames)
            #expect(ld.points.count == ld.pointStrokes.count && ld.points.count >= 2 * (ld.frames - 1))
            // Each word's strokes are the line's; each character's strokes are its word's.
            for w in line.words {
                #expect(Set(w.strokeIds).isSubset(of: Set(line.strokeIds)))
                for c in w.chars { #expect(Set(c.strokeIds).isSubset(of: Set(w.strokeIds)), "\(c.label) of \(w.label)") }
                #expect(w.chars.map(\.label).joined() == w.label)
            }
            // The alignment spells the best path; characters follow each other and sit in their word's frames.
            #expect(String(ld.alignment.map(\.character)) == ld.result.text)
            for (a, b) in zip(ld.alignment, ld.alignment.dropFirst()) { #expect(a.frames.upperBound <= b.frames.lowerBound + 1 && a.frames.lowerBound < b.frames.lowerBound) }
            #expect(ld.alignment.allSatisfy { $0.frames.upperBound <= ld.frames })
            #expect(ld.words.map(\.text) == line.words.map(\.label))
            for (wi, w) in ld.words.enumerated() {
                let chars = ld.alignment.filter { $0.word == wi }
                #expect(String(chars.map(\.character)) == w.text, "the best path's word is the chosen one here")
                for c in chars { #expect(w.frames.contains(c.frames.lowerBound) && c.frames.upperBound <= w.frames.upperBound) }
                // Score parts: the exact CTC sum covers at least the alignments the beam kept.
                let top = try #require(w.candidates.first)
                #expect(top.text == w.text)
                #expect(top.score.network.isFinite && top.score.network <= 0)
                #expect(top.score.network + top.score.languageModel + top.score.lexicon >= top.score.total - 1e-6)
                #expect(w.candidates.count > 1)
                #expect(zip(w.candidates, w.candidates.dropFirst()).allSatisfy { $0.score.total >= $1.score.total })
            }
            #expect(ld.timings.network > 0 && ld.timings.decode > 0)
        }
        #expect(d.configuration["model"]?.hasSuffix(".bin") == true)
        #expect(d.configuration["lexicon-mode.resolved"]?.hasPrefix("prefer") == true)
        #expect(d.layoutNanos > 0 || d.timings.preprocess > 0)
    }

    @Test func lexiconReadingsCarryTheirBonus() throws {
        let (editor, block) = try page([["unipen-2e05f671aedf"]])
        let d = try editor.recognitionDiagnostics(block)
        let w = try #require(d.lines.first?.diagnostics.words.first)
        let lexicon = w.candidates.filter(\.fromLexicon)
        #expect(!lexicon.isEmpty, "\"bread\" is a dictionary word")
        #expect(lexicon.allSatisfy { $0.score.lexicon == RecognitionOptions.defaultLexiconBonus })
        #expect(w.candidates.filter { !$0.fromLexicon }.allSatisfy { $0.score.lexicon == 0 })
        // With the lexicon off, no candidate has a lexicon part and the configuration says so.
        try editor.configuration.setString("off", forKey: "text.configuration.lexicon-mode")
        let off = try editor.recognitionDiagnostics(block)
        #expect(off.configuration["lexicon-mode"] == "off" && off.configuration["lexicon-mode.resolved"] == "off")
        #expect(off.lines.flatMap(\.diagnostics.words).flatMap(\.candidates).allSatisfy { !$0.fromLexicon && $0.score.lexicon == 0 })
    }

    @Test func blocksWithoutInkOrAnotherRecognizerAreClearErrors() throws {
        let (editor, block) = try page([["unipen-2e05f671aedf"]])
        editor.recognizer = LetterRecognizer()
        let e = #expect(throws: QuireError.self) { try editor.recognitionDiagnostics(block) }
        #expect(e?.code == .recognitionError)
    }
}
