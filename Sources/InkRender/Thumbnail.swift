import Foundation
import InkModel

/// Small pictures of parts (a notebook's page strip): the top of the page as the screen shows it
/// at zoom 1, scaled into a few pixels. Confined to one thread, like the model.
public final class Thumbnailer {
    private let renderer: PageRenderer

    public init(theme: Theme = .default, fontMetrics: CairoFontMetrics = CairoFontMetrics()) {
        renderer = PageRenderer(theme: theme, fontMetrics: fontMetrics)
    }

    /// Draws the part's page — `pageWidth` millimetres wide from the origin, as tall as the
    /// picture's proportions allow — into a new `width` x `height` image.
    public func render(part: PartModel, pageWidth: Double, width: Int, height: Int, guideSpacing: Double = 10) throws -> CairoSurface {
        let s = try CairoSurface(width: max(1, width), height: max(1, height))
        let k = Double(max(1, width)) / max(1, pageWidth)
        let area = Rect(x: 0, y: 0, width: pageWidth, height: Double(height) / k)
        let state = RenderState(transform: Transform(scale: k, tx: 0, ty: 0), viewWidth: width, viewHeight: height,
                                guides: false, guideSpacing: guideSpacing, pressure: true, debugBoxes: false)
        var o = DrawOptions()
        o.selection = false; o.overlay = false; o.debug = false
        o.canvas = area
        // Hairlines stay visible at a fifth of the size (a pixel at least).
        o.minInkWidthDevice = 1
        renderer.draw(CairoContext(s), part: part, state: state, clip: nil, options: o)
        s.flush()
        return s
    }
}
