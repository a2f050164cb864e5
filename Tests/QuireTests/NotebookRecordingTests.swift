import Foundation
import Testing
@testable import Quire
@testable import QuireApp

/// A session recorded while the notebook's pages change: page commands are recorded and a replay
/// turns the same pages; opening another notebook ends the recording with a note.
@Suite struct NotebookRecordingTests {
    /// A stroke of the pen straight to the editor, as the window's router gives it (recorded).
    private func stroke(_ s: NotebookSession, from a: Point, to b: Point, t: Int64) throws {
        _ = try s.editor.pointerDown(x: a.x, y: a.y, t: t, f: 0.5, type: .pen, pointerId: 1)
        for k in 1...8 {
            let u = Double(k) / 8
            try s.editor.pointerMove(x: a.x + (b.x - a.x) * u, y: a.y + (b.y - a.y) * u, t: t + Int64(k) * 10, f: 0.5, type: .pen, pointerId: 1)
        }
        try s.editor.pointerUp(x: b.x, y: b.y, t: t + 100, f: 0.5, type: .pen, pointerId: 1)
    }

    @Test func pageChangesAreRecordedAndReplayed() throws {
        let s = try NotebookSession()
        let rec = try SessionRecorder(path: s.dir.path("rec.jsonl"), editor: s.editor)
        s.dispatcher.perform(.typeText("first"))
        s.dispatcher.perform(.page(.add(.textDocument)))
        s.dispatcher.perform(.typeText("second"))
        s.dispatcher.perform(.page(.add(.drawing)))
        try stroke(s, from: Point(x: 60, y: 80), to: Point(x: 300, y: 200), t: 1000)
        s.dispatcher.perform(.page(.move(from: 2, to: 0)))
        s.dispatcher.perform(.page(.next))
        s.dispatcher.perform(.typeText(" again"))
        s.dispatcher.perform(.page(.goTo(2)))
        s.dispatcher.perform(.page(.duplicate))
        s.dispatcher.perform(.page(.delete))
        s.dispatcher.perform(.undo)
        s.dispatcher.perform(.page(.previous))
        try stroke(s, from: Point(x: 80, y: 300), to: Point(x: 400, y: 320), t: 3000)
        try s.editor.waitForIdle()
        rec.flush()
        let pages = try #require(s.session.notebook?.pages)
        #expect(pages.map(\.kind) == [.drawing, .textDocument, .textDocument, .textDocument] && s.session.notebook?.currentIndex == 2)

        let outcome = try SessionReplay.run(sessionPath: rec.path, outPath: s.dir.path("replayed.iink"), recognizer: .some(nil))
        #expect(outcome.divergences.isEmpty, "\(outcome.divergences)")
        let pkg = try Engine().openPackage(s.dir.path("replayed.iink"), openOption: .existing)
        defer { pkg.close() }
        #expect(pkg.partCount == pages.count)
        for (i, page) in pages.enumerated() {
            let replayed = try pkg.part(at: i).model
            #expect(replayed.kind == page.model.kind, "page \(i + 1)")
            #expect(replayed.strokes == page.model.strokes, "page \(i + 1)")
            #expect(replayed.blocks == page.model.blocks, "page \(i + 1)")
        }
        #expect(try pkg.part(at: 1).model.blocks.values.contains { $0.text?.contains("again") == true })
    }

    @Test func aSearchThatTurnsThePageIsReplayedAsThatPage() throws {
        let s = try NotebookSession()
        _ = try s.editor.typeText("alpha", into: nil)
        s.dispatcher.perform(.page(.add(.textDocument)))
        _ = try s.editor.typeText("beta", into: nil)
        s.dispatcher.perform(.page(.goTo(0)))
        let bar = SearchBarController(window: ImageWindow(width: 800, height: 40), view: s.view, scale: 1)
        s.notebook.search = bar
        let rec = try SessionRecorder(path: s.dir.path("rec.jsonl"), editor: s.editor)
        s.dispatcher.perform(.search(.open))
        for ch in "beta" { _ = bar.key(KeyInput(key: .character(ch), text: String(ch)), package: s.session.package) }
        s.dispatcher.perform(.search(.next))
        #expect(s.session.notebook?.currentIndex == 1)
        s.dispatcher.perform(.typeText(" found"))
        rec.flush()
        let lines = try String(contentsOfFile: rec.path, encoding: .utf8)
        #expect(lines.contains(#""c":"page""#) && lines.contains(#""op":"goTo""#))
        let outcome = try SessionReplay.run(sessionPath: rec.path, outPath: s.dir.path("replayed.iink"), recognizer: .some(nil))
        #expect(outcome.text.contains("beta") && outcome.text.contains("found"))
        #expect(outcome.text == (try s.editor.export(nil, mimeType: .text)))
    }

    @Test func openingAnotherNotebookEndsTheRecordingWithANote() throws {
        let s = try NotebookSession()
        let rec = try SessionRecorder(path: s.dir.path("rec.jsonl"), editor: s.editor)
        s.dispatcher.perform(.typeText("kept"))
        // Save As keeps recording: the notebook is the same, under another name.
        s.dispatcher.perform(.file(.saveAs(s.dir.path("renamed"))))
        #expect(s.editor.recorder === rec && s.session.path == s.dir.path("renamed.iink"))
        // A file that cannot be opened changes nothing, the recording included.
        s.dispatcher.perform(.file(.open(s.dir.path("missing.iink"))))
        #expect(s.editor.recorder === rec)
        s.dispatcher.perform(.file(.new))
        #expect(s.editor.recorder == nil && s.session.path == s.dir.path("Notebook.iink"))
        #expect(s.host.messages.last?.contains("Recording stopped: rec.jsonl holds the session up to here") == true, "\(s.host.messages)")
        // What the new notebook gets is not in the recording, which still replays the first one.
        s.dispatcher.perform(.typeText("elsewhere"))
        let outcome = try SessionReplay.run(sessionPath: rec.path, outPath: s.dir.path("replayed.iink"), recognizer: .some(nil))
        #expect(outcome.text.contains("kept") && !outcome.text.contains("elsewhere"))
    }

    @Test func pageRecordsReadBackAndBadOnesAreClearErrors() throws {
        let commands: [PageCommand] = [.next, .previous, .goTo(3), .add(.math), .duplicate, .delete, .restore, .move(from: 2, to: 0)]
        for c in commands {
            let record = try #require(AppCommand.page(c).sessionRecord(lastPoint: Point(x: 0, y: 0)))
            #expect(try AppCommand(sessionRecord: record) == .page(c))
        }
        #expect(AppCommand.page(.add(nil)).sessionRecord(lastPoint: Point(x: 0, y: 0)) == nil)
        #expect(AppCommand.page(.toggleStrip).sessionRecord(lastPoint: Point(x: 0, y: 0)) == nil)
        let bad: [JSONValue] = [.object(["c": .string("page")]), .object(["c": .string("page"), "op": .string("goTo"), "page": .number(-1)]),
                                .object(["c": .string("page"), "op": .string("add"), "type": .string("Poem")])]
        for r in bad {
            let e = #expect(throws: QuireError.self) { _ = try AppCommand(sessionRecord: r) }
            #expect(e?.message.hasPrefix("command page:") == true)
        }
    }
}
