import Foundation
import Testing
import InkModel
@testable import Quire

/// Holds every reading until `open()`, then labels each stroke as `CountingRecognizer` does.
final class GatedRecognizer: InkRecognizer, @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false

    func open() { condition.lock(); isOpen = true; condition.broadcast(); condition.unlock() }

    func recognize(_ r: RecognitionRequest) throws -> [RecognizedWord] {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
        return r.strokes.enumerated().map { i, s in
            RecognizedWord(label: "w\(i)", candidates: [Candidate(label: "w\(i)", score: 0.9)], box: s.bounds, strokeIds: [s.id])
        }
    }
}

@Suite struct RecognitionWorkerTests {
    /// A block pushed down by the flow while its reading is on the worker gets that reading, at
    /// the place it was pushed to, without being read again.
    @Test func aBlockMovedWhileItsReadingIsPendingGetsItsWordsWhereItIs() throws {
        let gate = GatedRecognizer()
        let f = try Fixture(recognizer: gate)
        let px = 96 / 25.4
        func stroke(_ pts: [(Double, Double)], t: Int64) throws {
            try f.editor.pointerDown(x: pts[0].0 * px, y: pts[0].1 * px, t: t, f: 0.5)
            for (i, p) in pts.enumerated().dropFirst() { try f.editor.pointerMove(x: p.0 * px, y: p.1 * px, t: t + Int64(i) * 10, f: 0.5) }
            try f.editor.pointerUp(x: pts[pts.count - 1].0 * px, y: pts[pts.count - 1].1 * px, t: t + 100, f: 0.5)
        }
        try stroke([(20, 26), (30, 26.5), (40, 26)], t: 1000)            // block A
        try stroke([(60, 30.6), (62, 32), (64, 33)], t: 3000)            // block B, overlapping A: pushed below it
        let m = f.part.model
        let b = try #require(m.root.childIds.compactMap { m.blocks[$0] }.first { $0.box.y > 30 }, "B was pushed below A")
        let ink = try #require(m.strokes(inBlock: b.id).first)
        #expect(f.editor.recognition.isPending(b.id))
        gate.open()
        try f.editor.waitForIdle()
        #expect(f.editor.recognition.submitted == 2, "one reading per block (\(f.editor.recognition.submitted) asked for)")
        let words = try #require(m.blocks[b.id]?.words)
        #expect(words.map(\.label) == ["w0"])
        let box = try #require(words.first?.box)
        #expect(abs(box.y - ink.bounds.y) < 0.01 && abs(box.x - ink.bounds.x) < 0.01, "the word is on the ink where it is now: \(box) vs \(ink.bounds)")
    }
}
