import Foundation
import InkModel

/// Options of PNG, JPEG, SVG and PDF export.
public struct ExportOptions: Sendable, Equatable {
    /// Baselines of Text blocks in the output (`export.image.guides`, off by default).
    public var guides: Bool
    /// Baseline spacing in millimetres (`text.guides.spacing`); also positions typeset text.
    public var guideSpacing: Double
    /// Pressure-varying ink width (`renderer.ink.pressure`).
    public var pressure: Bool
    /// Page colour; nil uses the theme's. Ignored when `transparent`.
    public var background: RGBA?
    /// PNG and vector output without a page colour.
    public var transparent: Bool
    /// Space around the content, in millimetres.
    public var margin: Double
    /// Cap on the pixels of a raster export.
    public var maxPixels: Int
    /// JPEG quality 1...100.
    public var jpegQuality: Int
    public init(guides: Bool = false, guideSpacing: Double = 10, pressure: Bool = true, background: RGBA? = nil,
                transparent: Bool = false, margin: Double = 5, maxPixels: Int = 100_000_000, jpegQuality: Int = 90) {
        self.guides = guides; self.guideSpacing = guideSpacing; self.pressure = pressure; self.background = background
        self.transparent = transparent; self.margin = margin; self.maxPixels = maxPixels; self.jpegQuality = jpegQuality
    }
}

/// Exports a part, or one block of it, as PNG/JPEG (raster, chosen DPI) or SVG/PDF (vector: ink
/// as paths, typeset text as text). One page per export. Confined to one thread, like the model.
public final class Exporter {
    private let renderer: PageRenderer

    /// Called when an image block is exported as a placeholder because its image cannot be decoded.
    public var onImageError: ((String, QuireError) -> Void)? {
        get { renderer.onImageError }
        set { renderer.onImageError = newValue }
    }

    public init(theme: Theme = .default, fontMetrics: CairoFontMetrics = CairoFontMetrics(),
                maxImagePixels: Int = ImageCodec.defaultMaxPixels) {
        renderer = PageRenderer(theme: theme, fontMetrics: fontMetrics, maxImagePixels: maxImagePixels)
    }

    /// The exported area in model millimetres: the content of the part (or of block `block` and its
    /// children) grown by the margin. Throws `invalidBlock` for an unknown block id.
    public func exportBounds(part: PartModel, block: String? = nil, options: ExportOptions = ExportOptions()) throws -> Rect {
        let id = block ?? part.rootId
        guard part.blocks[id] != nil else { throw QuireError(.invalidBlock, "no block '\(id)' in part \(part.id)") }
        var r = renderer.subtreeExtent(part, id, pressure: options.pressure)
        if block == nil {
            // Strokes of deleted blocks are still drawn, so they count.
            for s in part.strokes.values where s.blockId.map({ part.blocks[$0] == nil }) ?? false {
                let e = renderer.strokeInkBounds(s, width: renderer.theme.width(tool: s.tool, width: s.width), pressure: options.pressure)
                r = r.map { $0.union(e) } ?? e
            }
        }
        // Typeset text of a box-less root block lies where its layout put it.
        let root = part.blocks[id]!
        if root.box.isEmpty {
            for t in renderer.textRuns(root, spacing: options.guideSpacing) {
                let e = Rect(x: t.x, y: t.baseline - t.font.size, width: t.width, height: t.font.size * 1.3)
                r = r.map { $0.union(e) } ?? e
            }
        }
        let content = r ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let m = max(0, options.margin.isFinite ? options.margin : 0)
        let area = Rect(x: content.x - m, y: content.y - m, width: max(content.width + 2 * m, 1), height: max(content.height + 2 * m, 1))
        // Page sizes are turned into integer pixel counts: a box set far out (or to infinity)
        // through the API would trap there instead of failing.
        guard [area.x, area.y, area.maxX, area.maxY].allSatisfy({ abs($0) <= Self.maxExtent }) else {
            throw QuireError(.exportError, "the content reaches \(area.x), \(area.y) to \(area.maxX), \(area.maxY) mm, beyond what can be exported (\(Self.maxExtent) mm)")
        }
        return area
    }

    /// Ten times the farthest box a package may hold: room for margins and ink widths.
    static let maxExtent = 10 * BlockData.maxBoxExtent

    private func only(_ part: PartModel, _ block: String?) -> Set<String>? {
        guard let block else { return nil }
        return renderer.draggedIds(part, RenderState(dragBlockId: block))
    }

    /// The "view" of an export is the output page: culling and canvas use it.
    private func state(_ options: ExportOptions, _ transform: Transform, _ area: Rect) -> RenderState {
        let page = transform.apply(area)
        return RenderState(transform: transform, viewWidth: Int(page.maxX.rounded(.up)) + 1, viewHeight: Int(page.maxY.rounded(.up)) + 1,
                    guides: options.guides,
                    guideSpacing: options.guideSpacing, pressure: options.pressure, debugBoxes: false,
                    background: options.background)
    }

    private func drawOptions(_ part: PartModel, _ block: String?, _ area: Rect, _ options: ExportOptions) -> DrawOptions {
        var o = DrawOptions()
        o.background = !options.transparent
        o.selection = false; o.overlay = false; o.debug = false
        o.canvas = area
        o.onlyBlocks = only(part, block)
        o.minInkWidthDevice = 0
        return o
    }

    /// Raster export as an image surface; `dpi` pixels per inch of model millimetres.
    private func rasterSurface(part: PartModel, block: String?, dpi: Double, options: ExportOptions) throws -> CairoSurface {
        guard dpi.isFinite, dpi > 0, dpi <= 9600 else { throw QuireError(.invalidArgument, "dpi must be in 1...9600, not \(dpi)") }
        let area = try exportBounds(part: part, block: block, options: options)
        let k = dpi / 25.4
        // Compared as Double: a size past Int's range must fail the check, not trap converting.
        let wd = (area.width * k).rounded(.up), hd = (area.height * k).rounded(.up)
        guard wd <= 32767, hd <= 32767, wd * hd <= Double(options.maxPixels) else {
            throw QuireError(.exportError, "export would be \(String(format: "%.0f", wd))x\(String(format: "%.0f", hd)) pixels, over the limit (\(options.maxPixels) pixels, 32767 a side); lower the DPI")
        }
        let w = Int(wd), h = Int(hd)
        let s = try CairoSurface(width: max(w, 1), height: max(h, 1))
        let cr = CairoContext(s)
        let t = Transform(scale: k, tx: -area.x * k, ty: -area.y * k)
        renderer.draw(cr, part: part, state: state(options, t, area), clip: nil, options: drawOptions(part, block, area, options))
        s.flush()
        return s
    }

    /// PNG of the part (or of one block) at `dpi`.
    public func exportPNG(part: PartModel, block: String? = nil, dpi: Double = 150, options: ExportOptions = ExportOptions()) throws -> Data {
        try rasterSurface(part: part, block: block, dpi: dpi, options: options).pngData()
    }

    /// JPEG of the part (or of one block) at `dpi`, on the page colour.
    public func exportJPEG(part: PartModel, block: String? = nil, dpi: Double = 150, options: ExportOptions = ExportOptions()) throws -> Data {
        var o = options
        o.transparent = false
        return try ImageCodec.encodeJPEG(rasterSurface(part: part, block: block, dpi: dpi, options: o), quality: o.jpegQuality)
    }

    /// PDF (one page, size of the content) with ink as paths and typeset text as real text.
    public func exportPDF(part: PartModel, block: String? = nil, options: ExportOptions = ExportOptions()) throws -> Data {
        let area = try exportBounds(part: part, block: block, options: options)
        let k = 72 / 25.4
        try checkVectorPage(area, k, "PDF")
        let s = try CairoSurface.pdf(width: area.width * k, height: area.height * k, creator: "Quire")
        do {
            let cr = CairoContext(s)
            let t = Transform(scale: k, tx: -area.x * k, ty: -area.y * k)
            renderer.draw(cr, part: part, state: state(options, t, area), clip: nil, options: drawOptions(part, block, area, options))
            // The PDF surface emits the page's text here, through the shared scaled fonts.
            cr.showPage()
            try check(cr.errorMessage, "PDF")
        }
        s.finish()
        try check(s.errorMessage, "PDF")
        return s.output
    }

    /// One PDF of several parts, a page each (a notebook). A page is the part's content, and at
    /// least `minimumPage` (model millimetres from the origin, e.g. the screen page at zoom 1), so
    /// that pages read like the pages on screen rather than each cropped to its ink.
    public func exportPDF(parts: [PartModel], minimumPage: Rect? = nil, options: ExportOptions = ExportOptions()) throws -> Data {
        guard !parts.isEmpty else { throw QuireError(.exportError, "a PDF needs at least one page") }
        let k = 72 / 25.4
        var areas: [Rect] = []
        for part in parts {
            var area = try exportBounds(part: part, options: options)
            if let page = minimumPage, page.width > 0, page.height > 0 { area = area.union(page) }
            try checkVectorPage(area, k, "PDF")
            areas.append(area)
        }
        let s = try CairoSurface.pdf(width: areas[0].width * k, height: areas[0].height * k, creator: "Quire")
        for (part, area) in zip(parts, areas) {
            s.setPDFPageSize(width: area.width * k, height: area.height * k)
            let cr = CairoContext(s)
            let t = Transform(scale: k, tx: -area.x * k, ty: -area.y * k)
            renderer.draw(cr, part: part, state: state(options, t, area), clip: nil, options: drawOptions(part, nil, area, options))
            cr.showPage()
            try check(cr.errorMessage, "PDF")
        }
        s.finish()
        try check(s.errorMessage, "PDF")
        return s.output
    }

    /// SVG (size of the content, in points) with ink as paths and typeset text as `<text>` elements.
    public func exportSVG(part: PartModel, block: String? = nil, options: ExportOptions = ExportOptions()) throws -> Data {
        let area = try exportBounds(part: part, block: block, options: options)
        let k = 72 / 25.4
        try checkVectorPage(area, k, "SVG")
        let s = try CairoSurface.svg(width: area.width * k, height: area.height * k)
        let t = Transform(scale: k, tx: -area.x * k, ty: -area.y * k)
        var o = drawOptions(part, block, area, options)
        // Cairo's SVG surface writes glyphs as outlines; text is added below as <text> instead.
        o.skipText = true
        do {
            let cr = CairoContext(s)
            renderer.draw(cr, part: part, state: state(options, t, area), clip: nil, options: o)
            try check(cr.errorMessage, "SVG")
        }
        s.finish()
        try check(s.errorMessage, "SVG")
        var svg = String(decoding: s.output, as: UTF8.self)
        let texts = textElements(part: part, block: block, area: area, options: options, transform: t)
        if !texts.isEmpty, let end = svg.range(of: "</svg>", options: .backwards) {
            svg.replaceSubrange(end, with: texts + "</svg>")
        }
        return Data(svg.utf8)
    }

    /// Cairo keeps vector coordinates in 24.8 fixed point, so a page side past 2^23 points (about
    /// 3 km) overflows it: cairo then fails, or spins for minutes in `show_page`. Half of that is
    /// allowed, leaving room for ink widths and text reaching past the content bounds.
    static let maxVectorPagePoints = Double(1 << 22)

    private func checkVectorPage(_ area: Rect, _ k: Double, _ what: String) throws {
        guard area.width * k <= Self.maxVectorPagePoints, area.height * k <= Self.maxVectorPagePoints else {
            throw QuireError(.exportError, "\(what) export would be \(String(format: "%.0f", area.width)) x \(String(format: "%.0f", area.height)) mm, "
                + "over the limit of \(String(format: "%.0f", Self.maxVectorPagePoints / k)) mm a side; export a block instead")
        }
    }

    private func textElements(part: PartModel, block: String?, area: Rect, options: ExportOptions, transform t: Transform) -> String {
        let theme = renderer.theme
        let allowed = only(part, block)
        let f = theme.textFont
        func style(_ font: FontSpec) -> String {
            "font-family=\"\(XML.escape(font.family)), sans-serif\" font-weight=\"\(font.bold ? "bold" : "normal")\" "
                + "font-style=\"\(font.italic ? "italic" : "normal")\""
        }
        var out = ""
        for b in part.blocksInTreeOrder() {
            if let allowed, !allowed.contains(b.id) { continue }
            for r in renderer.textRuns(b, spacing: options.guideSpacing) {
                let p = t.apply(Point(x: r.x, y: r.baseline))
                // A block laid out in another font than the theme's names it.
                let own = r.font.family != f.family || r.font.bold != f.bold || r.font.italic != f.italic ? " " + style(r.font) : ""
                out += "<text x=\"\(fmt(p.x))\" y=\"\(fmt(p.y))\" font-size=\"\(fmt(r.font.size * t.scale))\"\(own)>\(XML.escape(r.text))</text>\n"
            }
        }
        guard !out.isEmpty else { return "" }
        let c = theme.textColor
        let fill = String(format: "rgb(%d,%d,%d)", Int(c.r * 255), Int(c.g * 255), Int(c.b * 255))
        return "<g \(style(f)) fill=\"\(fill)\" xml:space=\"preserve\">\n" + out + "</g>\n"
    }

    private func fmt(_ v: Double) -> String { String(format: "%.3f", v) }

    /// Throws Cairo's error (a surface's or a context's) as an export error.
    private func check(_ cairoError: String?, _ what: String) throws {
        if let cairoError { throw QuireError(.exportError, "\(what) export failed: \(cairoError)") }
    }
}
