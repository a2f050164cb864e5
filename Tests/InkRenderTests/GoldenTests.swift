import Foundation
import InkModel
import InkRender
import Testing

/// Compares rendered images with reference PNGs under Golden/. Run with QUIRE_UPDATE_GOLDEN=1 to
/// (re)write the references, then look at them before committing.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["QUIRE_UPDATE_GOLDEN"] == "1" }

    struct Diff: CustomStringConvertible {
        var meanAbs: Double
        var fractionOff: Double
        var sizeMatches: Bool
        /// The tolerance: anti-aliasing and font rasterisation may differ a little between machines.
        var passes: Bool { sizeMatches && meanAbs < 1.5 && fractionOff < 0.005 }
        var description: String {
            sizeMatches ? String(format: "mean abs diff %.3f, %.3f%% pixels off by > 40", meanAbs, fractionOff * 100) : "size differs"
        }
    }

    static func diff(_ a: DecodedImage, _ b: DecodedImage) -> Diff {
        guard a.width == b.width, a.height == b.height else { return Diff(meanAbs: .infinity, fractionOff: 1, sizeMatches: false) }
        var total = 0, off = 0
        for i in 0..<a.pixels.count {
            let p = a.pixels[i], q = b.pixels[i]
            var worst = 0
            for shift in [0, 8, 16, 24] as [UInt32] {
                let d = abs(Int((p >> shift) & 0xff) - Int((q >> shift) & 0xff))
                total += d
                worst = max(worst, d)
            }
            if worst > 40 { off += 1 }
        }
        return Diff(meanAbs: Double(total) / Double(a.pixels.count * 4), fractionOff: Double(off) / Double(a.pixels.count), sizeMatches: true)
    }

    /// Checks `png` against Golden/<name>.png (or records it when updating).
    static func check(_ name: String, _ png: Data) throws {
        let url = directory.appendingPathComponent("\(name).png")
        if updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try png.write(to: url)
            return
        }
        guard let refData = try? Data(contentsOf: url) else {
            Issue.record("missing reference \(url.path); run with QUIRE_UPDATE_GOLDEN=1")
            return
        }
        let d = diff(try ImageCodec.decodePNG(png), try ImageCodec.decodePNG(refData))
        if !d.passes {
            let failed = FileManager.default.temporaryDirectory.appendingPathComponent("quire-golden-\(name)-actual.png")
            try? png.write(to: failed)
            Issue.record("\(name) differs from its reference: \(d); actual written to \(failed.path)")
        }
    }
}

@Suite struct GoldenTests {
    @Test func inkWithPressure() throws {
        let r = PageRenderer(theme: .builtIn)
        try Golden.check("ink-pressure", r.renderPNG(part: Fixtures.inkDocument(), state: Fixtures.inkState()))
    }

    @Test func inkWithoutPressure() throws {
        let r = PageRenderer(theme: .builtIn)
        var st = Fixtures.inkState()
        st.pressure = false
        try Golden.check("ink-constant", r.renderPNG(part: Fixtures.inkDocument(), state: st))
    }

    @Test func textDocumentWithGuidesTextImagesSelection() throws {
        let r = PageRenderer(theme: .builtIn)
        var errors: [String] = []
        r.onImageError = { id, e in errors.append("\(id): \(e)") }
        try Golden.check("text-document", r.renderPNG(part: Fixtures.textDocument(), state: Fixtures.textState()))
        #expect(errors.isEmpty)
    }

    @Test func debugOverlay() throws {
        let r = PageRenderer(theme: .builtIn)
        try Golden.check("debug-overlay", r.renderPNG(part: Fixtures.debugDocument(), state: Fixtures.debugState()))
    }

    @Test func draggedBlockAndLiveStroke() throws {
        let r = PageRenderer(theme: .builtIn)
        var st = Fixtures.textState()
        st.lasso = []
        st.selectedBlockIds = ["b1"]
        st.dragBlockId = "b1"
        st.dragOffset = Point(x: 8, y: 50)
        st.liveStrokes = [LiveStroke(id: "live", samples: Fixtures.wave(x0: 60, y0: 20, length: 30, amplitude: 4)
            .enumerated().map { InkSample(x: $0.element.0, y: $0.element.1, t: Int64($0.offset), f: $0.element.2) })]
        try Golden.check("drag-live", r.renderPNG(part: Fixtures.textDocument(images: false), state: st))
    }

    /// The comparison is strict enough to catch a visible change: thicker pen ink fails it.
    @Test func strokeWidthChangeIsDetected() throws {
        guard !Golden.updating else { return }
        var theme = Theme.builtIn
        theme.penWidth *= 1.5
        let png = try PageRenderer(theme: theme).renderPNG(part: Fixtures.inkDocument(), state: Fixtures.inkState())
        let ref = try ImageCodec.decodePNG(Data(contentsOf: Golden.directory.appendingPathComponent("ink-pressure.png")))
        let d = Golden.diff(try ImageCodec.decodePNG(png), ref)
        #expect(!d.passes, "a 1.5x pen width went unnoticed: \(d)")
        // And the unchanged rendering passes, so the failure is due to the width alone.
        let same = try PageRenderer(theme: .builtIn).renderPNG(part: Fixtures.inkDocument(), state: Fixtures.inkState())
        #expect(Golden.diff(try ImageCodec.decodePNG(same), ref).passes)
    }
}
