import Foundation
import InkModel

/// A stroke being drawn (not yet committed to the model).
public struct LiveStroke: Equatable, Sendable {
    /// Identifies the stroke across frames (the editor's stroke id); the renderer tracks how much of
    /// each live stroke it has drawn by this id.
    public var id: String
    /// "pen" or "highlighter".
    public var tool: String
    /// "#rrggbb(aa)" or "" for the theme's colour.
    public var color: String
    /// Millimetres, 0 for the theme's width.
    public var width: Float
    /// Samples in model millimetres.
    public var samples: [InkSample]
    public init(id: String, tool: String = "pen", color: String = "", width: Float = 0, samples: [InkSample]) {
        self.id = id; self.tool = tool; self.color = color; self.width = width; self.samples = samples
    }
}

/// Everything the renderer needs besides the model: view, selection, live input and options.
public struct RenderState: Equatable, Sendable {
    /// Model millimetres -> view pixels.
    public var transform: Transform
    /// View size in pixels.
    public var viewWidth: Int
    public var viewHeight: Int
    /// Blocks drawn with the selection highlight.
    public var selectedBlockIds: Set<String>
    /// Lasso polygon in view pixels (empty: none).
    public var lasso: [Point]
    /// The lasso selection's outline and handles (nil: no lasso selection).
    public var selectionFrame: SelectionFrame?
    /// Strokes in progress, drawn above everything else.
    public var liveStrokes: [LiveStroke]
    /// Draws baselines in Text blocks (`text.guides.enable`).
    public var guides: Bool
    /// Baseline spacing in millimetres (`text.guides.spacing`).
    public var guideSpacing: Double
    /// Varies ink width with pressure (`renderer.ink.pressure`).
    public var pressure: Bool
    /// Recognition debug overlay (`renderer.debug.boxes`).
    public var debugBoxes: Bool
    /// A block being dragged and its offset in millimetres; drawn moved, model unchanged.
    public var dragBlockId: String?
    public var dragOffset: Point
    /// Page colour; nil uses the theme's.
    public var background: RGBA?
    /// Draw a short predicted continuation of each live stroke (`renderer.prediction.enable`).
    public var prediction: Bool = false
    /// Only strokes whose `seq` is at most this are drawn (the inspector window's timeline); nil: all.
    public var strokeLimit: Int64?
    /// Which layers the debug overlay draws when `debugBoxes` is on.
    public var debugLayers: DebugLayers = .editor
    /// The recognizer's lines, for the `lines` and `frames` layers (the caller reads them).
    public var debugLines: [DebugLineBand] = []
    /// Gesture strokes, for the `gestures` layer.
    public var debugGestures: [DebugGestureMark] = []

    public init(transform: Transform = .identity, viewWidth: Int = 800, viewHeight: Int = 600,
                selectedBlockIds: Set<String> = [], lasso: [Point] = [], liveStrokes: [LiveStroke] = [],
                guides: Bool = true, guideSpacing: Double = 10, pressure: Bool = true, debugBoxes: Bool = false,
                dragBlockId: String? = nil, dragOffset: Point = Point(x: 0, y: 0), background: RGBA? = nil) {
        self.transform = transform; self.viewWidth = viewWidth; self.viewHeight = viewHeight
        self.selectedBlockIds = selectedBlockIds; self.lasso = lasso; self.liveStrokes = liveStrokes
        self.guides = guides; self.guideSpacing = guideSpacing; self.pressure = pressure
        self.debugBoxes = debugBoxes; self.dragBlockId = dragBlockId; self.dragOffset = dragOffset
        self.background = background
    }

    /// The whole view in pixels.
    public var viewRect: Rect { Rect(x: 0, y: 0, width: Double(viewWidth), height: Double(viewHeight)) }
}
