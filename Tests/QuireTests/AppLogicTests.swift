import Foundation
import Testing
@testable import Quire
@testable import QuireApp

/// The window's input logic (device classification, routing, palm rejection, pinch) and the
/// editor features it relies on (typing, cross-process clipboard data), without an X server.
@Suite struct DeviceClassifierTests {
    @Test func classifiesByWacomTypeTouchPressureAndName() {
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Wacom Intuos Pen eraser", wacomToolType: "ERASER", hasPressure: true)) == .eraser)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Wacom Intuos Pen stylus", wacomToolType: "STYLUS", hasPressure: true)) == .pen)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Wacom Intuos Pad pad", wacomToolType: "PAD")) == .ignore)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "ELAN Touchscreen", hasDirectTouch: true)) == .touch)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Quire Test Pen eraser", hasPressure: true)) == .eraser)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Some Digitizer", hasPressure: true)) == .pen)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Logitech USB Optical Mouse")) == .mouse)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Power Button", isPointer: false)) == .ignore)
    }

    @Test func configurationOverridesWin() {
        let o = DeviceClassifier.overrides(["logitech=pen", "weird tablet = eraser", "broken", "x=nonsense"])
        #expect(o.count == 2)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Logitech USB Optical Mouse"), overrides: o) == .pen)
        #expect(DeviceClassifier.classify(DeviceTraits(name: "Weird Tablet stylus", hasPressure: true), overrides: o) == .eraser)
    }

    @Test func pressureIsNormalisedFromTheAxisRange() {
        let d = InputDevice(id: 6, name: "pen", kind: .pen, pressureAxis: 2, pressureMin: 0, pressureMax: 2048)
        #expect(d.normalizedPressure(1024) == 0.5)
        #expect(d.normalizedPressure(4096) == 1)
        #expect(d.normalizedPressure(-5) == 0)
        #expect(d.normalizedPressure(.nan) == 0)
    }
}

@Suite struct InputRouterTests {
    func ev(_ phase: InputEvent.Phase, _ kind: DeviceKind, _ x: Double, _ y: Double, t: Int64, device: Int = 6, touch: Int? = nil, f: Double = 0.5) -> InputEvent {
        InputEvent(phase: phase, device: device, kind: kind, touchId: touch, x: x, y: y, time: t, pressure: f)
    }

    @Test func penWritesWithPressureInOrder() throws {
        let fx = try Fixture()
        let r = InputRouter(editor: fx.editor)
        r.handle(ev(.down, .pen, 100, 100, t: 1000, f: 0.1))
        for i in 1...8 { r.handle(ev(.move, .pen, 100 + Double(i) * 10, 100, t: 1000 + Int64(i) * 8, f: 0.1 + Double(i) * 0.1)) }
        r.handle(ev(.up, .pen, 190, 100, t: 1080, f: 0.9))
        let strokes = Array(fx.part.model.strokes.values)
        #expect(strokes.count == 1)
        let f = strokes[0].samples.map(\.f)
        #expect(f == f.sorted() && f.last! > f.first! + 0.5)
        #expect(strokes[0].pointerType == .pen)
    }

    @Test func eraserEndErasesAndMouseWritesAsPen() throws {
        let fx = try Fixture()
        let r = InputRouter(editor: fx.editor)
        r.handle(ev(.down, .mouse, 100, 100, t: 1000, device: 4))
        r.handle(ev(.move, .mouse, 200, 100, t: 1010, device: 4))
        r.handle(ev(.up, .mouse, 200, 100, t: 1020, device: 4))
        #expect(fx.part.model.strokes.count == 1)
        r.handle(ev(.down, .eraser, 150, 90, t: 2000, device: 7))
        r.handle(ev(.move, .eraser, 150, 110, t: 2010, device: 7))
        r.handle(ev(.up, .eraser, 150, 110, t: 2020, device: 7))
        #expect(fx.part.model.strokes.isEmpty)
    }

    @Test func oneFingerScrollsAndWritesNothing() throws {
        let fx = try Fixture()
        try fx.write(x: 50, y: 1500, length: 100)  // content below the view, so there is room to scroll
        let before = fx.editor.viewTransform.ty
        let r = InputRouter(editor: fx.editor)
        r.handle(ev(.down, .touch, 400, 500, t: 1000, device: 8, touch: 1))
        for i in 1...10 { r.handle(ev(.move, .touch, 400, 500 - Double(i) * 20, t: 1000 + Int64(i) * 10, device: 8, touch: 1)) }
        r.handle(ev(.up, .touch, 400, 300, t: 1200, device: 8, touch: 1))
        #expect(fx.part.model.strokes.count == 1)
        #expect(fx.editor.viewTransform.ty < before - 100)
    }

    @Test func palmIsIgnoredWhileThePenIsNearAndCancelledWhenThePenLands() throws {
        let fx = try Fixture()
        try fx.write(x: 50, y: 1500, length: 100)
        let r = InputRouter(editor: fx.editor)
        r.palmTimeoutMs = 600
        // The pen hovers, then a palm lands: ignored.
        r.handle(ev(.hover, .pen, 300, 300, t: 5000))
        r.handle(ev(.down, .touch, 500, 500, t: 5100, device: 8, touch: 3))
        #expect(r.lastDropReason?.contains("palm") == true)
        r.handle(ev(.move, .touch, 500, 300, t: 5150, device: 8, touch: 3))
        #expect(fx.editor.activePointerIds.isEmpty)
        r.handle(ev(.up, .touch, 500, 300, t: 5200, device: 8, touch: 3))
        // Long after the pen left, a touch works again; a pen landing cancels it.
        let ty = fx.editor.viewTransform.ty
        r.handle(ev(.down, .touch, 500, 500, t: 9000, device: 8, touch: 4))
        #expect(fx.editor.activePointerIds.count == 1)
        r.handle(ev(.down, .pen, 100, 100, t: 9010))
        #expect(fx.editor.activePointerIds == [6])
        r.handle(ev(.move, .touch, 500, 200, t: 9020, device: 8, touch: 4))
        #expect(fx.editor.viewTransform.ty == ty)
        r.handle(ev(.move, .pen, 150, 100, t: 9030))
        r.handle(ev(.up, .pen, 150, 100, t: 9040))
        r.handle(ev(.up, .touch, 500, 200, t: 9050, device: 8, touch: 4))
        #expect(fx.part.model.strokes.count == 2)
    }

    /// A kiosk form's fields each have a router: a palm on one field while the pen writes in
    /// another is still a palm, because the routers share one `PalmState`.
    @Test func routersSharingPalmStateRejectAPalmOnAnotherField() throws {
        let a = try Fixture(), b = try Fixture()
        let ra = InputRouter(editor: a.editor), rb = InputRouter(editor: b.editor)
        rb.palm = ra.palm
        b.editor.toolController.setTool(.pen, for: .touch)
        ra.handle(ev(.down, .pen, 100, 100, t: 5000))
        rb.handle(ev(.down, .touch, 300, 300, t: 5010, device: 8, touch: 1))
        #expect(rb.lastDropReason?.contains("palm") == true && b.editor.activePointerIds.isEmpty)
        rb.handle(ev(.up, .touch, 300, 300, t: 5020, device: 8, touch: 1))
        ra.handle(ev(.move, .pen, 150, 100, t: 5030))
        ra.handle(ev(.up, .pen, 150, 100, t: 5040))
        // Just after the pen left, still a palm; long after, the finger writes (touch-tool pen).
        rb.handle(ev(.down, .touch, 300, 300, t: 5300, device: 8, touch: 2))
        #expect(rb.lastDropReason?.contains("palm") == true)
        rb.handle(ev(.up, .touch, 300, 300, t: 5310, device: 8, touch: 2))
        rb.handle(ev(.down, .touch, 300, 300, t: 9000, device: 8, touch: 3))
        rb.handle(ev(.move, .touch, 360, 300, t: 9010, device: 8, touch: 3))
        rb.handle(ev(.up, .touch, 360, 300, t: 9020, device: 8, touch: 3))
        #expect(a.part.model.strokes.count == 1 && b.part.model.strokes.count == 1)
    }

    @Test func twoFingersPinchZoomAboutTheirMidpoint() throws {
        let fx = try Fixture()
        let r = InputRouter(editor: fx.editor)
        let z0 = fx.editor.zoomLevel
        r.handle(ev(.down, .touch, 300, 300, t: 1000, device: 8, touch: 1))
        r.handle(ev(.down, .touch, 400, 300, t: 1001, device: 8, touch: 2))
        #expect(fx.editor.activePointerIds.isEmpty)  // the first finger's scroll was cancelled
        for i in 1...5 {
            r.handle(ev(.move, .touch, 300 - Double(i) * 10, 300, t: 1000 + Int64(i) * 10, device: 8, touch: 1))
            r.handle(ev(.move, .touch, 400 + Double(i) * 10, 300, t: 1000 + Int64(i) * 10, device: 8, touch: 2))
        }
        #expect(abs(fx.editor.zoomLevel / z0 - 2) < 0.05)
        r.handle(ev(.up, .touch, 250, 300, t: 1100, device: 8, touch: 1))
        r.handle(ev(.up, .touch, 450, 300, t: 1100, device: 8, touch: 2))
        #expect(fx.part.model.strokes.isEmpty)
    }

    @Test func lostDeviceAndLostFocusCancelStrokesCleanly() throws {
        let fx = try Fixture()
        let r = InputRouter(editor: fx.editor)
        r.handle(ev(.down, .pen, 100, 100, t: 1000))
        r.handle(ev(.move, .pen, 150, 100, t: 1010))
        r.deviceLost(6)
        #expect(fx.editor.activePointerIds.isEmpty)
        // The device's later events (after a replug) are a fresh, consistent sequence.
        r.handle(ev(.move, .pen, 160, 100, t: 1020))
        r.handle(ev(.up, .pen, 170, 100, t: 1030))
        #expect(fx.part.model.strokes.isEmpty)
        r.handle(ev(.down, .pen, 100, 100, t: 2000))
        r.handle(ev(.down, .touch, 400, 400, t: 9000, device: 8, touch: 9))
        r.cancelAll()
        #expect(fx.editor.activePointerIds.isEmpty)
        #expect(fx.part.model.strokes.isEmpty)
    }

    @Test func impossibleSequencesAreDroppedNotCrashing() throws {
        let fx = try Fixture()
        let r = InputRouter(editor: fx.editor)
        var errors: [String] = []
        r.onError = { errors.append($0) }
        #expect(!r.handle(ev(.up, .pen, 1, 1, t: 1)))
        #expect(!r.handle(ev(.move, .touch, 1, 1, t: 1, device: 8, touch: 77)))
        #expect(!r.handle(ev(.down, .pen, .nan, 1, t: 1)))
        r.handle(ev(.down, .pen, 10, 10, t: 2))
        r.handle(ev(.down, .pen, 20, 10, t: 3))  // a lost release: the old stroke is cancelled, a new one starts
        r.handle(ev(.up, .pen, 30, 10, t: 4))
        #expect(errors.isEmpty)
        #expect(fx.part.model.strokes.count == 1)
    }
}

@Suite struct AppEditorFeatureTests {
    @Test func typingBuildsATypedBlockWithBackspaceAndUndo() throws {
        let fx = try Fixture()
        var b = try fx.editor.typeText("Hi", into: nil)
        b = try fx.editor.typeText(" there\u{8}\u{8}", into: b)
        #expect(b.text == "Hi the")
        b = try fx.editor.typeText("\nnext", into: b)
        #expect(try fx.editor.export(nil, mimeType: .text).contains("Hi the\nnext"))
        fx.editor.undo()
        #expect(fx.editor.getBlockById(b.id)?.text == "Hi the")
        // An empty Text block (the toolbar's Text button) takes typing.
        let empty = try fx.editor.addBlock(at: Point(x: 20, y: 500), type: "Text")
        #expect(try fx.editor.typeText("ok", into: empty).id == empty.id)
        #expect(fx.editor.getBlockById(empty.id)?.text == "ok")
        // Typing with an ink block selected starts a new typed block below it.
        try fx.write(x: 50, y: 400)
        let ink = try #require(fx.editor.rootBlock?.children.first { !$0.strokeIds.isEmpty })
        let t = try fx.editor.typeText("x", into: ink)
        #expect(t.id != ink.id && t.box.y >= ink.box.maxY)
    }

    @Test func clipboardDataPastesIntoAnotherPackage() throws {
        let a = try Fixture(), b = try Fixture()
        try a.write(x: 60, y: 80)
        let block = try #require(a.editor.rootBlock?.children.first)
        let data = try a.editor.copyData(block)
        try b.editor.paste(data: data, at: Point(x: 100, y: 300))
        let pasted = try #require(b.editor.rootBlock?.children.first)
        #expect(pasted.strokeIds.count == 1)
        #expect(b.part.model.strokes.values.first?.samples.count == a.part.model.strokes.values.first?.samples.count)
    }

    @Test func hostileClipboardDataIsRejected() throws {
        let fx = try Fixture()
        for bad in [Data("not json".utf8), Data(#"{"format":"quire-block","version":9,"blocks":[],"strokes":"","images":{}}"#.utf8),
                    Data(#"{"format":"quire-block","version":1,"blocks":[],"strokes":"","images":{}}"#.utf8)] {
            expectCode(.importError) { try fx.editor.paste(data: bad, at: Point(x: 10, y: 10)) }
        }
        // An image entry that would escape the package's images/ folder.
        let a = try Fixture()
        try a.write(x: 60, y: 80)
        let first = try #require(a.editor.rootBlock?.children.first)
        var json = try #require(try JSONSerialization.jsonObject(with: a.editor.copyData(first)) as? [String: Any])
        json["images"] = ["../../etc/passwd": Data([1, 2, 3]).base64EncodedString()]
        expectCode(.importError) { try fx.editor.paste(data: try JSONSerialization.data(withJSONObject: json), at: Point(x: 10, y: 10)) }
        #expect(fx.part.model.blocks.count == 1)
    }

    @Test func clipboardBlocksMustBeATreeWithinRange() throws {
        // Pasted, a cycle or a stray among another process's blocks looped the editor's tree
        // walks, and a box out of range saved a package that would not open again.
        let a = try Fixture(), fx = try Fixture()
        try a.write(x: 60, y: 80)
        let first = try #require(a.editor.rootBlock?.children.first)
        let good = try #require(try JSONSerialization.jsonObject(with: a.editor.copyData(first)) as? [String: Any])
        let top = try #require((good["blocks"] as? [[String: Any]])?.first)
        let topId = try #require(top["id"] as? String)
        func with(_ blocks: [[String: Any]]) throws -> Data {
            var j = good
            j["blocks"] = blocks
            return try JSONSerialization.data(withJSONObject: j)
        }
        func child(_ id: String, parent: String, children: [String] = []) -> [String: Any] {
            var c = top
            c["id"] = id; c["parentId"] = parent; c["childIds"] = children; c["words"] = []
            return c
        }
        var cyclic = top
        cyclic["childIds"] = ["x"]
        var far = top
        far["box"] = ["x": 10, "y": 10, "width": 1e300, "height": 10]
        var bigWord = top
        bigWord["words"] = [["label": "a", "candidates": [], "selected": 0, "line": 0, "strokeIds": [], "chars": [], "styles": [],
                             "box": ["x": 0, "y": 0, "width": 1, "height": -1e20]]]
        let variants: [[[String: Any]]] = [
            [cyclic, child("x", parent: topId, children: ["y"]), child("y", parent: "x", children: ["x"])],
            [top, child("stray", parent: "nowhere")],
            [far],
            [bigWord],
        ]
        for blocks in variants {
            let err = #expect(throws: QuireError.self) { try fx.editor.paste(data: try with(blocks), at: Point(x: 10, y: 10)) }
            #expect(err?.code == .importError && err?.message.contains("clipboard data:") == true, "\(err?.message ?? "")")
        }
        // Each box in range, but moving the top block to the paste point takes its child out of it.
        var left = top
        left["box"] = ["x": -9e8, "y": 0, "width": 10, "height": 10]
        left["childIds"] = ["r"]
        var right = child("r", parent: topId)
        right["box"] = ["x": 9e8, "y": 0, "width": 10, "height": 10]
        let err = #expect(throws: QuireError.self) { try fx.editor.paste(data: try with([left, right]), at: Point(x: 10, y: 10)) }
        #expect(err?.message.contains("cannot paste there") == true)
        #expect(fx.part.model.blocks.count == 1, "nothing was pasted")
        try fx.editor.paste(data: try with([top]), at: Point(x: 10, y: 10))
        #expect(fx.part.model.blocks.count == 2)
    }

    @Test func renderStateShowsLiveStrokeAndDrag() throws {
        let fx = try Fixture()
        try fx.editor.pointerDown(x: 100, y: 100, t: 1, f: 0.5, type: .pen, pointerId: 3)
        try fx.editor.pointerMove(x: 140, y: 100, t: 2, f: 0.5, type: .pen, pointerId: 3)
        let s = fx.editor.renderState
        #expect(s.liveStrokes.count == 1 && s.liveStrokes[0].samples.count == 2)
        #expect(fx.editor.liveStroke(pointerId: 3)?.id == s.liveStrokes[0].id)
        try fx.editor.pointerUp(x: 140, y: 100, t: 3, f: 0.5, type: .pen, pointerId: 3)
        #expect(fx.editor.renderState.liveStrokes.isEmpty)
    }
}
