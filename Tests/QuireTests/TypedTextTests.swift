import Foundation
import Testing
@testable import InkRender
@testable import Quire

/// Pen gestures, taps and export on typed text (`addBlock` with text/plain) and on published text
/// (`convert(.digitalPublish)`): their words are laid out in the model like ink words have boxes.
@Suite(.serialized) struct TypedTextTests {
    static let sentence = "buy fresh bread today"
    let px = WordPage.px

    /// A page holding the sentence typed, or handwritten and then published; the block's id.
    func page(published: Bool) throws -> (WordPage, String) {
        var p = try WordPage()
        guard published else {
            let b = try p.editor.addBlock(at: Point(x: 10 * px, y: 20 * px), type: "Text", mimeType: .text, data: Self.sentence)
            return (p, b.id)
        }
        for (w, x) in [("buy", 20.0), ("fresh", 40.0), ("bread", 70.0), ("today", 100.0)] { try p.write(w, x: x, baseline: 30) }
        try p.editor.waitForIdle()
        let b = try #require(p.blocks.first)
        #expect(b.text == Self.sentence)
        try p.editor.convert(b, targetState: .digitalPublish)
        #expect(p.strokeCount == 0 && p.f.part.model.blocks[b.id]?.text == Self.sentence)
        return (p, b.id)
    }

    func block(_ p: WordPage, _ id: String) throws -> BlockData { try #require(p.f.part.model.blocks[id]) }
    func text(_ p: WordPage, _ id: String) throws -> String? { try block(p, id).text }
    func word(_ p: WordPage, _ id: String, _ label: String) throws -> RecognizedWord {
        try #require(try block(p, id).words.first { $0.label == label })
    }

    /// Every word has a box inside its block, and its characters' cells make up the word.
    func expectLaidOut(_ p: WordPage, _ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let b = try block(p, id)
        #expect(b.textFont != nil, sourceLocation: sourceLocation)
        #expect(b.words.map(\.label) == (b.text ?? "").split(whereSeparator: \.isWhitespace).map(String.init), sourceLocation: sourceLocation)
        // A block without a box (the root of a Text part) has the page.
        let area = b.box.isEmpty ? Rect(x: 0, y: 0, width: p.editor.pageWidth, height: 1e6) : b.box
        for w in b.words {
            #expect(!w.box.isEmpty && w.box.x >= area.x && w.box.maxX <= area.maxX && w.box.y >= area.y && w.box.maxY <= area.maxY,
                    "\(w.label) at \(w.box) in \(area)", sourceLocation: sourceLocation)
            #expect(w.chars.map(\.label).joined() == w.label, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [false, true]) func strikeThroughDeletesATypedWordInOneUndoStep(published: Bool) throws {
        var (p, id) = try page(published: published)
        try expectLaidOut(p, id)
        let rec = GestureRecorder()
        p.editor.addDelegate(rec)
        let bread = try word(p, id, "bread").box
        try p.stroke([(bread.x - 1, bread.midY), (bread.maxX + 1, bread.midY)])
        #expect(rec.applied.map(\.kind) == [.strikeThrough])
        #expect(try text(p, id) == "buy fresh today")
        #expect(p.strokeCount == 0, "the gesture is not kept as ink")
        try expectLaidOut(p, id)
        #expect(try word(p, id, "today").box.x < bread.x + 1, "the rest of the line moved up into the gap")
        p.editor.undo()
        #expect(try text(p, id) == Self.sentence)
        #expect(try word(p, id, "bread").box == bread)
        p.editor.redo()
        #expect(try text(p, id) == "buy fresh today")
    }

    @Test(arguments: [false, true]) func scratchOutErasesATypedWord(published: Bool) throws {
        var (p, id) = try page(published: published)
        let bread = try word(p, id, "bread").box
        try p.stroke(WordPage.scratch(bread))
        #expect(try text(p, id) == "buy fresh today")
        #expect(p.strokeCount == 0)
        p.editor.undo()
        #expect(try text(p, id) == Self.sentence)
    }

    @Test(arguments: [false, true]) func underlineAndSurroundStyleTypedWords(published: Bool) throws {
        var (p, id) = try page(published: published)
        let bread = try word(p, id, "bread").box
        try p.stroke([(bread.x - 0.5, bread.maxY + 0.5), (bread.maxX + 0.5, bread.maxY + 0.6)])
        #expect(try word(p, id, "bread").styles == ["underline"])
        #expect(try word(p, id, "fresh").styles == [])
        #expect(try text(p, id) == Self.sentence)
        let today = try word(p, id, "today").box
        var loop: [(Double, Double)] = []
        for i in 0...40 {
            let a = Double(i) / 40 * 2.1 * .pi
            loop.append((today.midX + cos(a) * (today.width / 2 + 3), today.midY + sin(a) * (today.height / 2 + 3)))
        }
        try p.stroke(loop)
        #expect(try word(p, id, "today").styles == ["surround"])
        #expect(p.strokeCount == 0)
        let json = try p.editor.export(nil, mimeType: .json)
        #expect(json.contains("\"underline\"") && json.contains("\"surround\""))
        // Styles stay on their words when the text changes around them.
        try p.editor.typeText(" now", into: p.editor.getBlockById(id))
        #expect(try word(p, id, "bread").styles == ["underline"])
        #expect(try word(p, id, "today").styles == ["surround"])
        p.editor.undo()
        p.editor.undo()
        #expect(try word(p, id, "today").styles == [])
        #expect(try word(p, id, "bread").styles == ["underline"])
        p.editor.undo()
        #expect(try word(p, id, "bread").styles == [])
    }

    @Test(arguments: [false, true]) func joinAndSplitEditTheText(published: Bool) throws {
        var (p, id) = try page(published: published)
        let fresh = try word(p, id, "fresh").box, bread = try word(p, id, "bread").box
        let gap = (fresh.maxX + bread.x) / 2
        // Upward in the gap: the space goes.
        try p.stroke([(gap, bread.maxY), (gap, bread.maxY - 7)])
        #expect(try text(p, id) == "buy freshbread today")
        try expectLaidOut(p, id)
        p.editor.undo()
        #expect(try text(p, id) == Self.sentence)
        // Downward through a word, between its second and third letters: a space goes in there.
        let cells = try word(p, id, "bread").chars
        try #require(cells.count == 5)
        let cut = (cells[1].box.maxX + cells[2].box.x) / 2
        try p.stroke([(cut, bread.y - 2), (cut, bread.maxY + 2)])
        #expect(try text(p, id) == "buy fresh br ead today")
        try expectLaidOut(p, id)
        p.editor.undo()
        #expect(try text(p, id) == Self.sentence)
        // Downward in a gap: a line break; the rest goes to the next line.
        try p.stroke([(gap, bread.y - 3), (gap, bread.maxY + 3)])
        #expect(try text(p, id) == "buy fresh\nbread today")
        try expectLaidOut(p, id)
        let moved = try word(p, id, "bread")
        #expect(moved.line == 1 && moved.box.y > bread.maxY && moved.box.x < fresh.x, "bread starts the next line: \(moved.box)")
        p.editor.undo()
        #expect(try text(p, id) == Self.sentence)
        #expect(try word(p, id, "bread").box == bread)
    }

    @Test(arguments: [false, true]) func hitWordCandidatesAndExportBoxesOfTypedWords(published: Bool) throws {
        let (p, id) = try page(published: published)
        let bread = try word(p, id, "bread").box
        let ref = try #require(p.editor.hitWord(at: Point(x: bread.midX * px, y: bread.midY * px)))
        #expect(ref.blockId == id)
        #expect(try block(p, id).words[ref.index].label == "bread")
        let cands = try p.editor.candidates(ref).map(\.label)
        #expect(cands == (published ? ["bread", "BREAD"] : ["bread"]), "published words keep what recognition read")
        if published {
            try p.editor.selectCandidate(ref, candidateIndex: 1)
            #expect(try text(p, id) == "buy fresh BREAD today")
            #expect(try word(p, id, "BREAD").selected == 1)
            p.editor.undo()
            #expect(try text(p, id) == Self.sentence)
        } else {
            try p.editor.selectCandidate(ref, candidateIndex: 0)
            #expect(try text(p, id) == Self.sentence, "the only candidate is the word itself")
        }
        // JSON export: every typed word has a box inside its block.
        let json = try p.editor.export(p.editor.getBlockById(id), mimeType: .json)
        let o = try JSONValue.parse(Data(json.utf8))
        func rect(_ v: JSONValue?) throws -> Rect {
            func n(_ k: String) throws -> Double { try #require(v?[k]?.doubleValue) }
            return Rect(x: try n("x"), y: try n("y"), width: try n("width"), height: try n("height"))
        }
        let box = try rect(o["box"])
        let words = try #require(o["words"]?.arrayValue)
        #expect(words.compactMap { $0["label"]?.stringValue } == ["buy", "fresh", "bread", "today"])
        for w in words {
            let r = try rect(w["box"])
            #expect(!r.isEmpty && r.x >= box.x && r.maxX <= box.maxX && r.y >= box.y && r.maxY <= box.maxY, "\(r) in \(box)")
            #expect(w["chars"]?.arrayValue?.count == w["label"]?.stringValue?.count)
        }
        // Removing a typed word through the API edits the text too.
        try p.editor.removeWord(ref)
        #expect(try text(p, id) == "buy fresh today")
    }

    @Test func layoutFollowsTextFontAndPageWidth() throws {
        var p = try WordPage(fixture: try Fixture(type: "Text"))
        for (w, x) in [("one", 20.0), ("two", 40.0), ("six", 60.0), ("ten", 80.0)] { try p.write(w, x: x, baseline: 30) }
        try p.editor.waitForIdle()
        try p.editor.convert(nil, targetState: .digitalPublish)
        let root = try #require(p.editor.rootBlock?.id)
        try expectLaidOut(p, root)
        #expect(try block(p, root).words.allSatisfy { $0.line == 0 })
        // A narrow page: the text wraps (the root of a Text part has the page's width).
        try p.editor.setViewSize(width: 120, height: 600)
        let narrow = try block(p, root)
        #expect(narrow.words.map(\.line).max()! >= 1 && narrow.words.allSatisfy { $0.box.maxX <= p.editor.pageWidth })
        // A larger font: the boxes follow and the block records it.
        let before = try word(p, root, "one").box
        try p.editor.setTextFont(FontSpec(family: "DejaVu Sans", size: 8))
        let after = try block(p, root)
        #expect(after.textFont?.size == 8 && after.words[0].box.height > before.height * 1.5)
        // An undo after the change shows the text in the current font.
        try p.editor.setViewSize(width: 800, height: 600)
        p.editor.undo()
        #expect(try block(p, root).words.isEmpty == false, "undo brings the ink back")
        p.editor.redo()
        #expect(try block(p, root).textFont?.size == 8)
        try expectLaidOut(p, root)
        expectCode(.invalidArgument) { try p.editor.setTextFont(FontSpec(family: "DejaVu Sans", size: .nan)) }
    }

    @Test func layoutIsStableThroughFlowEditsAndUndo() throws {
        var p = try WordPage()
        let a = try p.editor.addBlock(at: Point(x: 10 * px, y: 20 * px), type: "Text", mimeType: .text, data: "one two")
        let b = try p.editor.addBlock(at: Point(x: 10 * px, y: 45 * px), type: "Text", mimeType: .text, data: Self.sentence)
        let start = p.f.part.model.blocks
        func expectStable(_ when: String) {
            for blk in p.f.part.model.blocks.values { #expect(p.editor.laidOut(blk) == blk, "\(blk.id) \(when): laying out again changes it") }
        }
        expectStable("at first")
        let y0 = try block(p, b.id).box.y
        // Lines typed into the block above push this one down: its words move with it.
        try p.editor.typeText("\nmore\nlines", into: a)
        let moved = try block(p, b.id)
        #expect(moved.box.y > y0)
        expectStable("after the flow")
        let bread = try word(p, b.id, "bread").box
        #expect(bread.y > y0 + 10)
        try p.stroke([(bread.x - 1, bread.midY), (bread.maxX + 1, bread.midY)])
        #expect(try text(p, b.id) == "buy fresh today")
        expectStable("after the gesture")
        p.editor.undo()
        p.editor.undo()
        expectStable("after undo")
        #expect(p.f.part.model.blocks == start, "undo of everything returns to the start exactly")
    }

    @Test func aPackageFromBeforeLayoutGetsItWhenAttached() throws {
        // blocks.json as written before words had boxes and blocks a textFont.
        let old = #"{"id":"b2","type":"Text","box":{"x":10,"y":20,"width":150,"height":20},"parentId":"b0","childIds":[],"#
            + #""text":"buy fresh bread today","conversion":"digitalEdit","words":[{"label":"buy","candidates":[{"label":"buy","score":1}],"#
            + #""selected":0,"box":{"x":0,"y":0,"width":0,"height":0},"line":0,"strokeIds":[],"chars":[],"styles":["underline"]}],"properties":{}}"#
        let b = try JSONDecoder().decode(BlockData.self, from: Data(old.utf8))
        #expect(b.textFont == nil && b.words.count == 1)
        let f = try Fixture()
        f.editor.part = nil
        var root = f.part.model.root
        root.childIds.append(b.id)
        f.part.model.setBlock(root)
        f.part.model.setBlock(b)
        try f.editor.setPart(f.part)
        let laid = try #require(f.part.model.blocks[b.id])
        #expect(laid.textFont != nil && laid.words.map(\.label) == ["buy", "fresh", "bread", "today"])
        #expect(laid.words.allSatisfy { !$0.box.isEmpty } && laid.words[0].styles == ["underline"])
        #expect(!f.editor.canUndo, "laying out on attach is no edit")
        let json = try JSONEncoder().encode(laid)
        #expect(try JSONDecoder().decode(BlockData.self, from: json) == laid, "the layout is kept through save")
    }

    @Test func wordBoxesHoldTheGlyphsTheRendererDraws() throws {
        let f = try Fixture()
        f.editor.fontMetricsProvider = CairoFontMetrics()
        let text = Self.sentence + "\nA second paragraph long enough to wrap over the width of its block, then "
            + "averyveryveryverylongwordthatbreaksbetweenitscharactersbecauseitiswiderthanawholelineofthisblock end"
        let typed = try f.editor.addBlock(at: Point(x: 10 * px, y: 20 * px), type: "Text", mimeType: .text, data: text)
        var b = try #require(f.part.model.blocks[typed.id])
        #expect(b.words.map(\.line).max()! >= 3, "wrapped, and the long word broken")
        #expect(b.words.contains { w in Set(w.chars.map(\.box.y)).count > 1 }, "a word on two lines")
        // The theme's font, then fonts whose glyphs reach past their advance (the hook of a serif
        // or italic f, slanted letters): the boxes take in their ink.
        for (pass, font) in [nil, FontSpec(family: "DejaVu Serif", size: 6.5, bold: true), FontSpec(family: "DejaVu Serif", size: 5.5, italic: true)].enumerated() {
            if let font {
                try f.editor.setTextFont(font)
                b = try #require(f.part.model.blocks[typed.id])
                #expect(b.textFont == font)
            }
            // Drawn by the renderer (which knows nothing of the editor) at 6 px/mm, guides off.
            let k = 6.0
            let state = RenderState(transform: Transform(scale: k, tx: 0, ty: 0), viewWidth: Int(b.box.maxX * k) + 10,
                                    viewHeight: Int(b.box.maxY * k) + 10, guides: false, guideSpacing: f.editor.guideSpacing)
            let img = try ImageCodec.decodePNG(try PageRenderer(theme: .builtIn).renderPNG(part: f.part.model, state: state))
            let view = Transform(scale: k, tx: 0, ty: 0)
            let cells = b.words.flatMap(\.chars).map { view.apply($0.box) }, boxes = b.words.map { view.apply($0.box) }
            var dark = 0, outside: [(Int, Int)] = []
            var hit = [Bool](repeating: false, count: cells.count)
            for y in 0..<img.height {
                for x in 0..<img.width {
                    let v = img[x, y]
                    guard Int((v >> 16) & 0xff) + Int((v >> 8) & 0xff) + Int(v & 0xff) < 450 else { continue }
                    dark += 1
                    let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    if let i = cells.firstIndex(where: { $0.contains(p) }) { hit[i] = true }
                    // A glyph's pixel lies in its word's box (anti-aliasing may reach a pixel past it).
                    if !boxes.contains(where: { $0.insetBy(dx: -1, dy: -1).contains(p) }) { outside.append((x, y)) }
                }
            }
            #expect(dark > 1000)
            #expect(outside.isEmpty, "pass \(pass): \(outside.count) glyph pixels outside every word's box, e.g. \(outside.prefix(5))")
            let blank = zip(b.words.flatMap(\.chars), hit).filter { $0.1 == false && $0.0.label != "." && $0.0.label != "," }.map(\.0.label)
            #expect(blank.isEmpty, "cells with no glyph drawn in them: \(blank)")
            // And the runs it draws are the words' characters, on their cells.
            let runs = PageRenderer(theme: .builtIn).textRuns(b, spacing: f.editor.guideSpacing)
            #expect(runs.map(\.text).joined() == b.words.map(\.label).joined())
        }
    }
}
