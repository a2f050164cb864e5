import Foundation

/// Receives the editor's requests to redraw. Implementations must accept calls from any thread
/// (recognition results arrive on a worker) and should coalesce them.
public protocol Renderer: AnyObject, Sendable {
    /// Marks a view-pixel rectangle as needing a redraw; nil means everything.
    func invalidate(_ rect: Rect?)
    /// True when the renderer draws strokes in progress on its own layer (from the editor's
    /// `renderState`), so pen moves need not invalidate the page under them.
    var drawsLiveInk: Bool { get }
}

extension Renderer {
    public var drawsLiveInk: Bool { false }
}

/// A font request: family and size in millimetres (model units).
public struct FontSpec: Hashable, Sendable, Codable {
    public var family: String
    public var size: Double
    public var bold: Bool
    public var italic: Bool
    public init(family: String = "DejaVu Sans", size: Double = 5, bold: Bool = false, italic: Bool = false) {
        self.family = family; self.size = size; self.bold = bold; self.italic = italic
    }
}

/// Measured text: advance width and per-glyph boxes, all in millimetres relative to the baseline origin.
public struct TextMetrics: Sendable, Equatable {
    public var width: Double
    public var ascent: Double
    public var descent: Double
    /// One box per character (grapheme) of the measured string, y relative to the baseline (negative is up).
    public var glyphBoxes: [Rect]
    /// Where the glyphs put ink, relative to the pen's start on the baseline, when the provider
    /// knows it (nil otherwise, and for a string without ink). A glyph may reach past its box:
    /// the hook of an italic or serif f, an accent above the ascent.
    public var inkBounds: Rect?
    public init(width: Double, ascent: Double, descent: Double, glyphBoxes: [Rect], inkBounds: Rect? = nil) {
        self.width = width; self.ascent = ascent; self.descent = descent; self.glyphBoxes = glyphBoxes; self.inkBounds = inkBounds
    }
}

/// Measures text for layout of typeset (converted or typed) text.
public protocol FontMetricsProvider: AnyObject, Sendable {
    func measure(_ text: String, font: FontSpec) -> TextMetrics
}
