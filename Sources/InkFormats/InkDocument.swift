import Foundation
import InkModel

/// Ink read from another program's file, before it becomes a Quire part: geometry in
/// millimetres (y down), times in milliseconds since 1970, pressure 0...1. Readers fill it, the
/// importer turns each page into a part; nothing here is laid out or moved.
public struct InkDocument: Sendable {
    /// The format it was read from ("InkML", "Xournal++", "Xournal", "Quire JSON").
    public var format: String
    public var pages: [InkPage]
    /// Document-wide facts worth keeping (InkML `truth`, a creator), as part metadata keys.
    public var metadata: [String: String]
    /// Choices the reader made and things it dropped, in words (kept as part metadata, printed
    /// by `quire import`).
    public var notes: [String]

    public init(format: String, pages: [InkPage] = [], metadata: [String: String] = [:], notes: [String] = []) {
        self.format = format; self.pages = pages; self.metadata = metadata; self.notes = notes
    }

    public var strokeCount: Int { pages.reduce(0) { $0 + $1.strokes.count } }
}

/// One page (Xournal++) or the whole drawing (InkML): a part once imported.
public struct InkPage: Sendable {
    /// Page size in millimetres, when the file gives one.
    public var size: (width: Double, height: Double)?
    /// Background style: "plain", "ruled", "lined", "graph", "dotted", ... (Xournal++), with its colour.
    public var background: InkBackground?
    public var strokes: [InkTrace]
    /// Stroke groups (InkML traceGroup) with their labels, by index into `strokes`.
    public var groups: [InkGroup]
    public var texts: [InkText]
    public var images: [InkImage]
    public var metadata: [String: String]

    public init(size: (width: Double, height: Double)? = nil, background: InkBackground? = nil, strokes: [InkTrace] = [],
                groups: [InkGroup] = [], texts: [InkText] = [], images: [InkImage] = [], metadata: [String: String] = [:]) {
        self.size = size; self.background = background; self.strokes = strokes; self.groups = groups
        self.texts = texts; self.images = images; self.metadata = metadata
    }

    /// The rectangle holding every stroke's samples (nil without any).
    public var inkBounds: Rect? {
        var r: (x0: Double, y0: Double, x1: Double, y1: Double)?
        for s in strokes {
            for p in s.samples {
                r = r.map { (min($0.x0, p.x), min($0.y0, p.y), max($0.x1, p.x), max($0.y1, p.y)) } ?? (p.x, p.y, p.x, p.y)
            }
        }
        return r.map { Rect(x: $0.x0, y: $0.y0, width: $0.x1 - $0.x0, height: $0.y1 - $0.y0) }
    }
}

/// The look of a stroke: tool, colour and nominal width.
public struct InkBrush: Equatable, Sendable {
    /// "pen" or "highlighter".
    public var tool: String
    /// "#rrggbb" or "#rrggbbaa"; empty for the theme's colour.
    public var color: String
    /// Millimetres; 0 for the theme's width.
    public var width: Double
    public init(tool: String = "pen", color: String = "", width: Double = 0) {
        self.tool = tool; self.color = color; self.width = width
    }
}

/// One stroke: samples in millimetres with its brush and the InkML id it had, if any.
public struct InkTrace: Sendable {
    public var samples: [InkSample]
    public var brush: InkBrush
    public var sourceId: String?
    public init(samples: [InkSample], brush: InkBrush = InkBrush(), sourceId: String? = nil) {
        self.samples = samples; self.brush = brush; self.sourceId = sourceId
    }
}

/// A labelled group of strokes (InkML traceGroup), nested groups flattened with their path.
public struct InkGroup: Sendable, Equatable {
    public var id: String?
    /// Annotations by type ("truth" -> "a"); annotationXML kept as its XML text.
    public var labels: [String: String]
    /// Indices into the page's strokes.
    public var strokes: [Int]
    /// Nesting depth (0: directly under the document).
    public var depth: Int
    public init(id: String?, labels: [String: String], strokes: [Int], depth: Int) {
        self.id = id; self.labels = labels; self.strokes = strokes; self.depth = depth
    }
}

/// Typed text at a place (Xournal++ text element).
public struct InkText: Sendable, Equatable {
    public var text: String
    /// Top-left corner, millimetres.
    public var origin: Point
    /// Font family and size in millimetres.
    public var font: String
    public var size: Double
    public var color: String
    public init(text: String, origin: Point, font: String, size: Double, color: String) {
        self.text = text; self.origin = origin; self.font = font; self.size = size; self.color = color
    }
}

/// An image placed on the page (PNG or JPEG bytes).
public struct InkImage: Sendable, Equatable {
    public var data: Data
    public var mimeType: String
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Millimetres.
    public var box: Rect
    /// LaTeX source of a TeX image, if it was one.
    public var tex: String?
    public init(data: Data, mimeType: String, pixelWidth: Int, pixelHeight: Int, box: Rect, tex: String? = nil) {
        self.data = data; self.mimeType = mimeType; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
        self.box = box; self.tex = tex
    }
}

/// A page background.
public struct InkBackground: Sendable, Equatable {
    /// "plain", "ruled", "lined", "graph", "dotted", ... or "pdf" / "image" for backgrounds not imported.
    public var style: String
    public var color: String
    /// A PDF or image background's file and page, named in the part's metadata.
    public var source: String?
    public init(style: String, color: String = "", source: String? = nil) {
        self.style = style; self.color = color; self.source = source
    }
}
