import Foundation
import InkModel
import InkRender
import Testing

@Suite struct ImageTests {
    func part(with data: Data?, mime: String) throws -> PartModel {
        let p = try PartModel(id: "img", type: "Text Document")
        if let data { p.setImage(data, entry: "images/x") }
        Fixtures.addChild(p, BlockData(id: "b1", type: "Image", box: Rect(x: 10, y: 10, width: 40, height: 30),
                                       image: ImageRef(entry: "images/x", mimeType: mime, pixelWidth: 10, pixelHeight: 10)))
        return p
    }

    /// Renders the image block; returns the pixel at its centre and the reported errors.
    func render(_ p: PartModel) throws -> (center: UInt32, errors: [QuireError], image: DecodedImage) {
        let r = PageRenderer(theme: .builtIn)
        var errors: [QuireError] = []
        r.onImageError = { id, e in
            #expect(id == "b1")
            errors.append(e)
        }
        let st = RenderState(transform: Transform(scale: 4, tx: 0, ty: 0), viewWidth: 240, viewHeight: 180, guides: false)
        let img = try ImageCodec.decodePNG(r.renderPNG(part: p, state: st))
        // Rendering again does not report the same failure again.
        _ = try r.renderPNG(part: p, state: st)
        return (img[120, 100], errors, img)
    }

    static let placeholderGrey: UInt32 = 0xFFC8_C8C8

    func expectPlaceholder(_ data: Data?, mime: String, _ what: Comment) throws {
        let (center, errors, img) = try render(part(with: data, mime: mime))
        #expect(errors.count == 1, what)
        #expect(errors.first?.code == .imageError, what)
        // Grey box with a cross through it: the corner-to-corner line passes through the centre.
        #expect(img[60, 60] == Self.placeholderGrey, what)
        #expect(center != Self.placeholderGrey && center != 0xFFFF_FFFF, what)
    }

    @Test func pngAndJPEGDraw() throws {
        let png = try ImageCodec.encodePNG(Fixtures.gradientPixels(20, 20))
        let (c1, e1, _) = try render(part(with: png, mime: "image/png"))
        #expect(e1.isEmpty)
        #expect(c1 != Self.placeholderGrey && c1 != 0xFFFF_FFFF)
        let jpg = try ImageCodec.encodeJPEG(Fixtures.gradientPixels(20, 20))
        let (c2, e2, _) = try render(part(with: jpg, mime: "image/jpeg"))
        #expect(e2.isEmpty)
        #expect(c2 != Self.placeholderGrey && c2 != 0xFFFF_FFFF)
    }

    @Test func missingBytes() throws {
        try expectPlaceholder(nil, mime: "image/png", "no data in the package")
        try expectPlaceholder(Data(), mime: "image/png", "zero bytes")
    }

    @Test func truncatedPNG() throws {
        let png = try ImageCodec.encodePNG(Fixtures.gradientPixels(30, 30))
        try expectPlaceholder(png.prefix(png.count / 2), mime: "image/png", "half a PNG")
        try expectPlaceholder(png.prefix(20), mime: "image/png", "PNG cut inside IHDR")
    }

    @Test func garbageJPEG() throws {
        var junk = Data([0xFF, 0xD8, 0xFF, 0xE0])
        var g = UInt32(7)
        for _ in 0..<2000 { g = g &* 1_103_515_245 &+ 12345; junk.append(UInt8(truncatingIfNeeded: g >> 16)) }
        try expectPlaceholder(junk, mime: "image/jpeg", "random bytes after a JPEG signature")
        try expectPlaceholder(Data("not an image at all".utf8), mime: "image/jpeg", "text")
        // A valid header with the scan data cut off is still drawn (libjpeg fills in) or refused, never a crash.
        let jpg = try ImageCodec.encodeJPEG(Fixtures.gradientPixels(64, 64))
        _ = try render(part(with: jpg.prefix(jpg.count / 2), mime: "image/jpeg"))
        try expectPlaceholder(jpg.prefix(30), mime: "image/jpeg", "JPEG cut in its header")
    }

    /// Rewrites the frame size of a JPEG; returns nil if no SOF marker was found.
    func withFrameSize(_ jpg: Data, width: Int, height: Int) -> Data? {
        var b = [UInt8](jpg)
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let m = b[i + 1]
            let len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if m == 0xC0 || m == 0xC2 {
                b[i + 5] = UInt8(height >> 8); b[i + 6] = UInt8(height & 0xff)
                b[i + 7] = UInt8(width >> 8); b[i + 8] = UInt8(width & 0xff)
                return Data(b)
            }
            i += 2 + len
        }
        return nil
    }

    @Test func hugeJPEGIsRefusedBeforeDecoding() throws {
        let jpg = try ImageCodec.encodeJPEG(Fixtures.gradientPixels(16, 16))
        // The frame header holds 16-bit sizes: 65535 x 65535 is the largest a JPEG can claim
        // (100000 x 100000 cannot be written); 4.3 gigapixels is far over the cap either way.
        let huge = try #require(withFrameSize(jpg, width: 65535, height: 65535))
        #expect(ImageCodec.headerSize(huge)! == (65535, 65535))
        try expectPlaceholder(huge, mime: "image/jpeg", "65535x65535 JPEG")
        #expect(throws: QuireError.self) { try ImageCodec.decodeJPEG(huge) }
        // Under the cap of a smaller configuration too.
        let mid = try #require(withFrameSize(jpg, width: 3000, height: 3000))
        #expect(throws: QuireError.self) { try ImageCodec.decodeJPEG(mid, maxPixels: 1_000_000) }
    }

    @Test func hugePNGIsRefusedBeforeDecoding() throws {
        var png = [UInt8](try ImageCodec.encodePNG(Fixtures.gradientPixels(8, 8)))
        // IHDR width/height at bytes 16...23 (the CRC no longer matches either).
        for i in 16..<24 { png[i] = 0 }
        png[17] = 0x01; png[18] = 0x86; png[19] = 0xA0   // 100000
        png[21] = 0x01; png[22] = 0x86; png[23] = 0xA0
        let data = Data(png)
        #expect(ImageCodec.headerSize(data)! == (100000, 100000))
        try expectPlaceholder(data, mime: "image/png", "PNG claiming 100000x100000")
    }

    @Test func decodeRoundTrips() throws {
        let src = Fixtures.gradientPixels(9, 7)
        let back = try ImageCodec.decodePNG(ImageCodec.encodePNG(src))
        #expect(back == src)
        let j = try ImageCodec.decodeJPEG(ImageCodec.encodeJPEG(src, quality: 100))
        #expect(j.width == 9 && j.height == 7)
        #expect(throws: QuireError.self) { try ImageCodec.decodePNG(Data([1, 2, 3])) }
    }

    /// Many failing decodes on the libjpeg thread must neither leak threads nor crash.
    @Test func repeatedFailuresAreStable() throws {
        for i in 0..<200 {
            let bad = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(i & 0xff)] + [UInt8](repeating: 0xAA, count: 40))
            #expect(throws: QuireError.self) { try ImageCodec.decodeJPEG(bad) }
        }
    }
}
