import Foundation
import Quire
import QuireTools

/// The steps of an editor session, each a few public calls a user's action makes.
extension Session {
    static let steps: [(String, Int)] = [
        ("write", 14), ("scribble", 4), ("gesture", 14), ("erase", 5), ("tap", 2), ("double-tap", 3), ("drag", 4),
        ("scroll-drag", 1), ("lasso", 3), ("multi-pointer", 3), ("invalid-input", 3), ("convert", 5), ("convert-word", 3),
        ("candidate", 4), ("remove-word", 2), ("remove-block", 2), ("move-block", 2), ("add-block", 3), ("type", 3),
        ("add-image", 2), ("copy-paste", 4), ("copy-data-paste", 2), ("undo", 8), ("redo", 4), ("clear", 1), ("view", 3),
        ("save", 2), ("reopen", 2), ("recover", 1), ("select", 1), ("style", 1),
    ]

    func randomStep(_ rng: inout SplitMix) -> String {
        let total = Self.steps.reduce(0) { $0 + $1.1 }
        var k = rng.int(total)
        for (name, w) in Self.steps {
            if k < w { return name }
            k -= w
        }
        return "write"
    }

    // MARK: targets

    var blockIds: [String] { model.blocks.keys.sorted() }
    var childIds: [String] { model.root.childIds }

    /// Words with a place on the page: (block, index, box).
    var placedWords: [(String, Int, RecognizedWord)] {
        blockIds.flatMap { id in model.blocks[id]!.words.enumerated().filter { !$0.element.box.isEmpty }.map { (id, $0.offset, $0.element) } }
    }

    func randomBlock(_ rng: inout SplitMix, includeRoot: Bool = true) -> ContentBlock? {
        let ids = includeRoot ? blockIds : childIds
        return ids.isEmpty ? nil : editor.getBlockById(rng.pick(ids))
    }

    func randomWord(_ rng: inout SplitMix) -> WordRef? {
        let all = blockIds.flatMap { id in model.blocks[id]!.words.indices.map { WordRef(blockId: id, index: $0) } }
        if all.isEmpty || rng.chance(0.05) { return WordRef(blockId: rng.pick(blockIds), index: rng.pick([0, 5, -1, 1000])) }
        return rng.pick(all)
    }

    /// A place on the page (mm): near content most of the time, sometimes far or odd.
    func randomPlace(_ rng: inout SplitMix) -> Point {
        let box = editor.contentBox
        switch rng.int(10) {
        case 0: return Point(x: rng.double(in: -30...250), y: rng.double(in: -30...(box.maxY + 300)))
        case 1: return Point(x: rng.pick([0, 5, 200, 209]), y: rng.pick([0, 2, box.maxY, box.maxY + 5]))
        default:
            if let w = placedWords.isEmpty ? nil : rng.pick(placedWords), rng.chance(0.5) {
                return Point(x: w.2.box.maxX + rng.double(in: -5...20), y: w.2.box.y + rng.double(in: -3...3))
            }
            return Point(x: rng.double(in: 8...150), y: rng.double(in: 5...(box.maxY + 40)))
        }
    }

    func view(_ p: Point) -> Point { editor.viewTransform.apply(p) }

    // MARK: steps

    func perform(_ step: String, _ rng: inout SplitMix) throws {
        switch step {
        case "write": try write(&rng)
        case "scribble":
            let o = randomPlace(&rng)
            let pts = (0..<rng.int(in: 1...12)).map { _ in Point(x: o.x + rng.double(in: -15...15), y: o.y + rng.double(in: -8...8)) }
            try pen.draw(editor, Pen.resample(pts, &rng), type: rng.pick([.pen, .pen, .mouse, .custom(7)]))
        case "gesture": try gesture(&rng)
        case "erase": try erase(&rng)
        case "tap": try tap(at: randomPlace(&rng))
        case "double-tap":
            let p = childIds.isEmpty || rng.chance(0.2) ? randomPlace(&rng) : model.blocks[rng.pick(childIds)].map { Point(x: $0.box.midX, y: $0.box.midY) }!
            try tap(at: p)
            _ = pen.tick(Int64(rng.pick([80, 150, 350, 500])))
            try tap(at: Point(x: p.x + rng.double(in: -1...1), y: p.y + rng.double(in: -1...1)))
        case "drag", "scroll-drag":
            var p = randomPlace(&rng)
            if step == "drag", let b = childIds.isEmpty ? nil : model.blocks[rng.pick(childIds)] { p = Point(x: b.box.x + 2, y: b.box.y + 2) }
            let d = Point(x: rng.double(in: -60...60), y: rng.double(in: -80...120))
            try pen.draw(editor, (0...10).map { Point(x: p.x + d.x * Double($0) / 10, y: p.y + d.y * Double($0) / 10) }, type: .touch, id: 2)
        case "lasso": try lasso(&rng)
        case "multi-pointer": try multiPointer(&rng)
        case "invalid-input": try invalidInput(&rng)
        case "convert":
            let target = rng.chance(0.3) ? nil : randomBlock(&rng)
            try editor.convert(target, targetState: rng.pick([.digitalEdit, .digitalEdit, .digitalPublish, .handwriting]))
        case "convert-word":
            if let w = randomWord(&rng) { try editor.convert(w, targetState: rng.pick([.digitalEdit, .digitalEdit, .digitalPublish, .handwriting])) }
        case "candidate":
            if let w = randomWord(&rng) {
                let n = (try? editor.candidates(w).count) ?? 0
                try editor.selectCandidate(w, candidateIndex: rng.chance(0.1) ? rng.pick([-1, n, 99]) : rng.int(max(1, n)))
            }
        case "remove-word": if let w = randomWord(&rng) { try editor.removeWord(w) }
        case "remove-block": if let b = randomBlock(&rng) { try editor.removeBlock(b) }
        case "move-block": if let b = randomBlock(&rng) { try editor.moveBlock(b, to: view(randomPlace(&rng))) }
        case "add-block":
            let type = rng.pick(["Text", "Text", "Math", "Drawing", "Diagram", "Raw Content", "Image", "Container", "text", ""])
            if rng.chance(0.5) {
                try editor.addBlock(at: view(randomPlace(&rng)), type: type)
            } else {
                try editor.addBlock(at: view(randomPlace(&rng)), type: type, mimeType: rng.chance(0.9) ? .text : .json, data: typedText(&rng))
            }
        case "type":
            let b = rng.chance(0.3) ? nil : randomBlock(&rng, includeRoot: false)
            try editor.typeText(typedText(&rng), into: b)
        case "add-image": try addImage(&rng)
        case "copy-paste":
            guard let b = randomBlock(&rng, includeRoot: rng.chance(0.1)) else { return }
            try editor.copy(b)
            try editor.paste(at: view(randomPlace(&rng)))
        case "copy-data-paste":
            guard let b = randomBlock(&rng, includeRoot: false) else { return }
            let d = try editor.copyData(b)
            try editor.paste(data: d, at: view(randomPlace(&rng)))
        case "undo": for _ in 0..<rng.int(in: 1...4) { editor.undo() }
        case "redo": for _ in 0..<rng.int(in: 1...3) { editor.redo() }
        case "clear": editor.clear()
        case "view":
            if rng.chance(0.5) {
                editor.zoom(by: rng.pick([0.5, 2, 1.3, 0.01, 100]), at: Point(x: rng.double(in: 0...794), y: rng.double(in: 0...1123)))
            } else {
                editor.scroll(by: Point(x: rng.double(in: -300...300), y: rng.double(in: -500...800)))
            }
        case "save": try package.save()
        case "reopen": try reopen("reopen step")
        case "recover": try reopen("recover step", viaTemp: true)
        case "style":
            // What an application may set from its own settings or a colour picker.
            editor.toolController.setStyle(color: rng.pick(["", "#ff0000", "#00ff0080", "red", "#", String(repeating: "f", count: 300)]),
                                           width: rng.pick([0, 0.3, 2, 50, -1, .nan, .infinity, .leastNonzeroMagnitude]),
                                           for: rng.pick([.pen, .highlighter]))
        default:
            editor.setSelection(Set(childIds.filter { _ in rng.chance(0.3) }))
            editor.selectedWord = randomWord(&rng)
        }
    }

    func typedText(_ rng: inout SplitMix) -> String {
        switch rng.int(8) {
        case 0: return rng.pick(["hello world", "a\nb\nc", "\u{8}\u{8}x", "  spaced   out  ", "tab\there", "x"])
        case 1: return rng.pick(Hostile.strings)
        case 2: return String(repeating: "word ", count: rng.pick([50, 400]))
        case 3: return "ctl\u{1}\u{2}\u{7f} \u{b}\u{c}<&>\"'"
        case 4: return String(repeating: "\n", count: rng.pick([1, 30]))
        default:
            let words = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "Quire", "ink", "42", "3.14", "é", "naïve"]
            return (0..<rng.int(in: 1...12)).map { _ in rng.pick(words) }.joined(separator: rng.chance(0.2) ? "\n" : " ")
        }
    }

    func write(_ rng: inout SplitMix) throws {
        let o = randomPlace(&rng)
        let strokes = context.handwriting.strokes(&rng, at: o, maxHeight: rng.pick([6, 8, 12, 30]))
        if rng.chance(0.3) {
            try pen.batch(editor, strokes, type: rng.pick([.pen, .mouse]), gestures: rng.chance(0.5))
        } else {
            for s in strokes { try pen.draw(editor, s, type: rng.chance(0.9) ? .pen : .mouse, pressure: rng.pick([0, 0.5, 1])) }
        }
    }

    func tap(at p: Point) throws {
        let v = view(p)
        try editor.pointerDown(x: v.x, y: v.y, t: pen.tick(30), f: 0, type: .touch, pointerId: 4)
        try editor.pointerUp(x: v.x, y: v.y, t: pen.tick(60), f: 0, type: .touch, pointerId: 4)
    }

    /// A pen gesture drawn over real words (strike-through, scratch-out, underline, surround,
    /// join, split) or between blocks (slice), or a random one.
    func gesture(_ rng: inout SplitMix) throws {
        let words = placedWords
        let lh = editor.guides.spacing
        var pts: [Point] = []
        if let target = words.isEmpty ? nil : rng.pick(words) {
            let (bid, i, w) = target
            let b = w.box
            switch rng.int(7) {
            case 0: pts = [Point(x: b.x - 0.5, y: b.y + b.height * 0.55), Point(x: b.maxX + 0.5, y: b.y + b.height * 0.5)]
            case 1: pts = [Point(x: b.x - 0.5, y: b.maxY + 1), Point(x: b.maxX + 0.5, y: b.maxY + 1.2)]
            case 2:
                let passes = rng.int(in: 4...9)
                pts = (0...passes).map { p in Point(x: p % 2 == 0 ? b.x : b.maxX, y: b.y + b.height * Double(p) / Double(passes)) }
            case 3:
                let rx = b.width / 2 * 1.25 + 1, ry = b.height / 2 * 1.4 + 1
                pts = (0...48).map { s in
                    let th = -Double(s) / 48 * 2 * .pi * 1.03
                    return Point(x: b.midX + rx * cos(th), y: b.midY + ry * sin(th))
                }
            case 4:
                let next = model.blocks[bid]!.words.indices.contains(i + 1) ? model.blocks[bid]!.words[i + 1] : nil
                let x = next.map { (b.maxX + $0.box.x) / 2 } ?? b.maxX + 1
                pts = [Point(x: x, y: b.maxY + lh * 0.1), Point(x: x + 0.2, y: b.maxY - lh * 0.6)]
            case 5: pts = [Point(x: b.midX, y: b.y - 1), Point(x: b.midX + 0.2, y: b.maxY + 1)]
            default:
                let y = (model.blocks[bid]?.box.maxY ?? b.maxY) + 2
                pts = [Point(x: 10, y: y), Point(x: 180, y: y + 0.5)]
            }
        } else {
            let o = randomPlace(&rng)
            pts = [o, Point(x: o.x + rng.double(in: 5...60), y: o.y + rng.double(in: -1...1))]
        }
        try pen.draw(editor, Pen.resample(pts, &rng))
    }

    func erase(_ rng: inout SplitMix) throws {
        var pts: [Point]
        if let w = placedWords.isEmpty || rng.chance(0.3) ? nil : rng.pick(placedWords) {
            pts = [Point(x: w.2.box.x - 1, y: w.2.box.midY), Point(x: w.2.box.maxX + 1, y: w.2.box.midY + 0.5)]
        } else {
            let o = randomPlace(&rng)
            pts = [o, Point(x: o.x + rng.double(in: -40...40), y: o.y + rng.double(in: -20...20))]
        }
        try pen.draw(editor, Pen.resample(pts, &rng, step: 1.5), type: .eraser, id: 5)
    }

    func lasso(_ rng: inout SplitMix) throws {
        let o = randomPlace(&rng)
        let w = rng.double(in: 10...150), h = rng.double(in: 10...80)
        let pts = [o, Point(x: o.x + w, y: o.y), Point(x: o.x + w, y: o.y + h), Point(x: o.x, y: o.y + h), o]
        let saved = editor.toolController.tool(for: .pen)
        editor.toolController.setTool(.selector, for: .pen)
        defer { editor.toolController.setTool(saved, for: .pen) }
        try pen.draw(editor, Pen.resample(pts, &rng, step: 3))
        if let id = editor.selection.sorted().first, let b = editor.getBlockById(id), rng.chance(0.5) {
            try editor.copy(b)
            try editor.paste(at: view(randomPlace(&rng)))
        }
    }

    /// Pen, touch and eraser down at once, interleaved, some cancelled; sometimes undo with a
    /// stroke in progress.
    func multiPointer(_ rng: inout SplitMix) throws {
        let kinds: [(PointerType, Int)] = [(.pen, 11), (.touch, 12), (.eraser, 13), (.mouse, 14)]
        var down: [(PointerType, Int, Point)] = []
        for (t, id) in kinds where rng.chance(0.6) {
            let p = randomPlace(&rng)
            let v = view(p)
            try editor.pointerDown(x: v.x, y: v.y, t: pen.tick(5), f: 0.5, type: t, pointerId: id)
            down.append((t, id, p))
        }
        for k in 0..<rng.int(in: 2...40) where !down.isEmpty {
            let j = rng.int(down.count)
            let (t, id, p) = down[j]
            let q = Point(x: p.x + rng.double(in: -2...2), y: p.y + rng.double(in: -1...1))
            down[j].2 = q
            let v = view(q)
            try editor.pointerMove(x: v.x, y: v.y, t: pen.tick(4), f: 0.5, type: t, pointerId: id)
            if k == 5 && rng.chance(0.2) { editor.undo(); down.removeAll() }
        }
        for (t, id, p) in down {
            let v = view(p)
            if rng.chance(0.3) { try editor.pointerCancel(pointerId: id) } else {
                try editor.pointerUp(x: v.x, y: v.y, t: pen.tick(4), f: 0.5, type: t, pointerId: id)
            }
        }
    }

    /// Input the API must refuse without changing anything.
    func invalidInput(_ rng: inout SplitMix) throws {
        let v = view(randomPlace(&rng))
        switch rng.int(8) {
        case 0: try editor.pointerMove(x: v.x, y: v.y, t: pen.tick(1), f: 0.5, type: .pen, pointerId: 77)
        case 1: try editor.pointerUp(x: v.x, y: v.y, t: pen.tick(1), f: 0.5, type: .pen, pointerId: 77)
        case 2: try editor.pointerDown(x: .nan, y: v.y, t: pen.tick(1), f: 0.5, type: .pen, pointerId: 78)
        case 3: try editor.pointerDown(x: v.x, y: v.y, t: -5, f: 0.5, type: .pen, pointerId: 78)
        case 4: try editor.pointerDown(x: 2e7, y: v.y, t: pen.tick(1), f: .infinity, type: .pen, pointerId: 78)
        case 5: try editor.pointerCancel(pointerId: 79)
        case 6:
            // A batch with one bad event in the middle: nothing of it may land.
            var ev: [PointerEvent] = [.down(x: v.x, y: v.y, t: pen.tick(1), pointerId: 80), .move(x: v.x + 30, y: v.y, t: pen.tick(5), pointerId: 80)]
            ev.append(rng.chance(0.5) ? .move(x: .nan, y: 0, pointerId: 80) : .up(x: v.x, y: v.y, pointerId: 81))
            ev.append(.up(x: v.x + 40, y: v.y, t: pen.tick(5), pointerId: 80))
            try editor.pointerEvents(ev)
        default:
            try editor.pointerDown(x: v.x, y: v.y, t: pen.tick(1), f: 0.5, type: .pen, pointerId: 82)
            defer { try? editor.pointerCancel(pointerId: 82) }
            try editor.pointerDown(x: v.x, y: v.y, t: pen.tick(1), f: 0.5, type: .pen, pointerId: 82)
        }
    }

    func addImage(_ rng: inout SplitMix) throws {
        let file = ws.file("image-\(rng.int(1000))")
        var mime = MimeType.png
        switch rng.int(6) {
        case 0, 1: try Data(SampleImages.png1x1).write(to: URL(fileURLWithPath: file))
        case 2:
            // A real JPEG: this part drawn small.
            let d = try editor.exportImageData(nil, mimeType: .jpeg, dpi: 10)
            try d.write(to: URL(fileURLWithPath: file))
            mime = .jpeg
        case 3:
            var b = SampleImages.png1x1
            b[16...23] = [0x7F, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF]  // 2^31-1 square
            try Data(b).write(to: URL(fileURLWithPath: file))
        case 4:
            try Data([0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10] + [UInt8](repeating: 0, count: 40)).write(to: URL(fileURLWithPath: file))
            mime = .jpeg
        default:
            try Data(SampleImages.png1x1.prefix(rng.int(40))).write(to: URL(fileURLWithPath: file))
            mime = rng.pick([.png, .jpeg, .svg])
        }
        try editor.addImage(at: view(randomPlace(&rng)), file: file, mimeType: mime)
    }
}
