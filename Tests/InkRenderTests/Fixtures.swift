import Foundation
import InkModel
import InkRender

/// Documents and helpers shared by the rendering tests.
enum Fixtures {
    static func stroke(_ id: String, block: String? = nil, tool: String = "pen", color: String = "", width: Float = 0,
                       seq: Int64, _ pts: [(Double, Double, Double)]) -> InkStroke {
        InkStroke(id: id, tool: tool, color: color, width: width, blockId: block, seq: seq,
                  samples: pts.enumerated().map { InkSample(x: $0.element.0, y: $0.element.1, t: Int64($0.offset * 10), f: $0.element.2) })
    }

    /// A wave with pressure rising then falling.
    static func wave(x0: Double, y0: Double, length: Double, amplitude: Double, n: Int = 60) -> [(Double, Double, Double)] {
        (0..<n).map { i in
            let t = Double(i) / Double(n - 1)
            return (x0 + length * t, y0 + amplitude * sin(t * 4 * Double.pi), 0.1 + 0.9 * sin(t * Double.pi))
        }
    }

    static func spiral(cx: Double, cy: Double, n: Int = 80) -> [(Double, Double, Double)] {
        (0..<n).map { i in
            let a = Double(i) * 0.22, r = 1 + Double(i) * 0.12
            return (cx + r * cos(a), cy + r * sin(a), Double(i) / Double(n))
        }
    }

    /// Handwriting-like loops, as a word would be, from x0 on baseline y0.
    static func loops(x0: Double, y0: Double, count: Int = 4) -> [(Double, Double, Double)] {
        (0..<(count * 20)).map { i in
            let a = Double(i) / 20 * 2 * Double.pi
            return (x0 + Double(i) * 0.25 + 1.5 * sin(a), y0 - 2.5 - 2.5 * cos(a), 0.4 + 0.3 * sin(a / 2))
        }
    }

    static func addChild(_ part: PartModel, _ b: BlockData) {
        var child = b
        child.parentId = part.rootId
        part.setBlock(child)
        var root = part.root
        root.childIds.append(b.id)
        part.setBlock(root)
    }

    /// Ink with pressure, a dot, a highlighter crossing ink, a coloured and a constant-width stroke.
    static func inkDocument() -> PartModel {
        let p = try! PartModel(id: "ink", type: "Drawing")
        p.insertStroke(stroke("s1", seq: 1, wave(x0: 5, y0: 12, length: 60, amplitude: 5)))
        p.insertStroke(stroke("s2", seq: 2, spiral(cx: 20, cy: 35)))
        p.insertStroke(stroke("s3", seq: 3, [(45, 35, 0.8)]))
        p.insertStroke(stroke("s4", tool: "highlighter", seq: 4, [(5, 28, 0), (30, 30, 0), (70, 26, 0)]))
        p.insertStroke(stroke("s5", color: "#d03030", width: 1.2, seq: 5, wave(x0: 40, y0: 40, length: 30, amplitude: 3)))
        // No pressure: constant width.
        p.insertStroke(stroke("s6", color: "#2060c0", seq: 6, wave(x0: 50, y0: 22, length: 25, amplitude: 2).map { ($0.0, $0.1, 0) }))
        return p
    }

    static func inkState() -> RenderState {
        RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 320, viewHeight: 200, guides: false)
    }

    /// A small RGB gradient image with a dark frame.
    static func gradientPixels(_ w: Int, _ h: Int) -> DecodedImage {
        var px = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let r = UInt32(255 * x / max(w - 1, 1)), g = UInt32(255 * y / max(h - 1, 1)), b: UInt32 = 160
                let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1
                px[y * w + x] = edge ? 0xFF20_2020 : (0xFF00_0000 | r << 16 | g << 8 | b)
            }
        }
        return DecodedImage(width: w, height: h, pixels: px)
    }

    /// Text Document: handwritten Text block with guides, a converted Text block (wrapped text),
    /// PNG and JPEG image blocks, a Drawing block; selection and a lasso.
    static func textDocument(images: Bool = true) throws -> PartModel {
        let p = try PartModel(id: "doc", type: "Text Document")
        addChild(p, BlockData(id: "b1", type: "Text", box: Rect(x: 5, y: 5, width: 90, height: 30)))
        p.insertStroke(stroke("h1", block: "b1", seq: 1, loops(x0: 12, y0: 15)))
        p.insertStroke(stroke("h2", block: "b1", seq: 2, loops(x0: 40, y0: 15, count: 3)))
        p.insertStroke(stroke("h3", block: "b1", seq: 3, loops(x0: 12, y0: 25, count: 5)))
        addChild(p, BlockData(id: "b2", type: "Text", box: Rect(x: 5, y: 40, width: 90, height: 30),
                              text: "The quick brown fox jumps over the lazy dog. Quire typesets converted text on the guides.",
                              conversion: "digitalEdit"))
        if images {
            let png = try ImageCodec.encodePNG(gradientPixels(40, 30))
            p.setImage(png, entry: "images/g.png")
            addChild(p, BlockData(id: "b3", type: "Image", box: Rect(x: 100, y: 5, width: 40, height: 30),
                                  image: ImageRef(entry: "images/g.png", mimeType: "image/png", pixelWidth: 40, pixelHeight: 30)))
            let jpg = try ImageCodec.encodeJPEG(gradientPixels(32, 32), quality: 85)
            p.setImage(jpg, entry: "images/g.jpg")
            addChild(p, BlockData(id: "b4", type: "Image", box: Rect(x: 100, y: 40, width: 30, height: 30),
                                  image: ImageRef(entry: "images/g.jpg", mimeType: "image/jpeg", pixelWidth: 32, pixelHeight: 32)))
        }
        addChild(p, BlockData(id: "b5", type: "Drawing", box: Rect(x: 5, y: 75, width: 135, height: 20)))
        p.insertStroke(stroke("d1", block: "b5", seq: 4, wave(x0: 10, y0: 85, length: 120, amplitude: 6, n: 90)))
        p.insertStroke(stroke("d2", block: "b5", tool: "highlighter", seq: 5, [(10, 88, 0), (130, 82, 0)]))
        return p
    }

    static func textState() -> RenderState {
        RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 580, viewHeight: 400,
                    selectedBlockIds: ["b5"],
                    lasso: [Point(x: 420, y: 300), Point(x: 560, y: 310), Point(x: 540, y: 380), Point(x: 430, y: 370)],
                    guides: true, guideSpacing: 10)
    }

    /// A Text block with recognition results for the debug overlay.
    static func debugDocument() throws -> PartModel {
        let p = try PartModel(id: "dbg", type: "Text Document")
        addChild(p, BlockData(id: "b1", type: "Text", box: Rect(x: 5, y: 5, width: 90, height: 30)))
        p.insertStroke(stroke("h1", block: "b1", seq: 1, loops(x0: 12, y0: 25)))
        p.insertStroke(stroke("h2", block: "b1", seq: 2, loops(x0: 40, y0: 25, count: 3)))
        var b = p.blocks["b1"]!
        func chars(_ x0: Double, _ n: Int) -> [RecognizedChar] {
            (0..<n).map { RecognizedChar(label: "x", box: Rect(x: x0 + Double($0) * 5, y: 19.5, width: 4.6, height: 6)) }
        }
        b.words = [
            RecognizedWord(label: "hello", candidates: [Candidate(label: "hello", score: 0.9), Candidate(label: "hallo", score: 0.05),
                                                         Candidate(label: "bello", score: 0.03)],
                           box: Rect(x: 10, y: 19, width: 24, height: 7), line: 0, strokeIds: ["h1"], chars: chars(10, 4), styles: ["underline"]),
            RecognizedWord(label: "world", candidates: [Candidate(label: "world", score: 0.7), Candidate(label: "word", score: 0.2)],
                           box: Rect(x: 38, y: 19, width: 18, height: 7), line: 0, strokeIds: ["h2"], chars: chars(38, 3), styles: ["surround"]),
        ]
        p.setBlock(b)
        return p
    }

    static func debugState() -> RenderState {
        RenderState(transform: Transform(scale: 5, tx: 0, ty: 0), viewWidth: 500, viewHeight: 200, guides: true,
                    guideSpacing: 10, debugBoxes: true)
    }

    /// Counts pixels darker than `threshold` (sum of RGB) in a rectangle.
    static func inkPixels(_ img: DecodedImage, _ r: (x: Int, y: Int, w: Int, h: Int), threshold: Int = 600) -> Int {
        var n = 0
        for y in r.y..<min(img.height, r.y + r.h) {
            for x in r.x..<min(img.width, r.x + r.w) {
                let p = img[x, y]
                let sum = Int((p >> 16) & 0xff) + Int((p >> 8) & 0xff) + Int(p & 0xff)
                if sum < threshold { n += 1 }
            }
        }
        return n
    }
}
