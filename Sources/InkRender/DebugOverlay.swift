import Foundation
import InkModel

/// The layers of the recognition debug overlay (`RenderState.debugLayers`), each drawn or not on
/// its own: F12 in the editor draws `editor`; the inspector window toggles each.
public struct DebugLayers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Block frames (dashed) with their type and id.
    public static let blocks = DebugLayers(rawValue: 1 << 0)
    /// Word boxes and baselines.
    public static let words = DebugLayers(rawValue: 1 << 1)
    /// Character boxes.
    public static let chars = DebugLayers(rawValue: 1 << 2)
    /// Each word's reading and its other candidates, laid out so that none covers another.
    public static let labels = DebugLayers(rawValue: 1 << 3)
    /// The recognizer's lines as coloured bands (`RenderState.debugLines`).
    public static let lines = DebugLayers(rawValue: 1 << 4)
    /// Under each line band, the network's best class per frame (`DebugLineBand.frames`).
    public static let frames = DebugLayers(rawValue: 1 << 5)
    /// Strokes taken for gestures (`RenderState.debugGestures`).
    public static let gestures = DebugLayers(rawValue: 1 << 6)

    /// What F12 shows in the editor.
    public static let editor: DebugLayers = [.blocks, .words, .chars, .labels]
    public static let all: DebugLayers = [.blocks, .words, .chars, .labels, .lines, .frames, .gestures]
}

/// The network's best class at one frame of a line, placed on the page.
public struct DebugFrame: Equatable, Sendable {
    /// Model millimetres: the middle of the frame's ink.
    public var x: Double
    /// nil: the blank class.
    public var character: Character?
    /// The class's probability, 0...1 (drawn darker when surer).
    public var probability: Double
    public init(x: Double, character: Character?, probability: Double) {
        self.x = x; self.character = character; self.probability = probability
    }
}

/// One line as the recognizer grouped the ink: drawn as a coloured band over its strokes, with
/// its per-frame strip under it.
public struct DebugLineBand: Equatable, Sendable {
    /// Model millimetres: the bounds of the line's strokes.
    public var box: Rect
    /// Drawn at the band's left ("2.1": block 2, line 1).
    public var label: String
    /// Picks the band's colour from the overlay's palette.
    public var colour: Int
    public var frames: [DebugFrame]
    public init(box: Rect, label: String, colour: Int, frames: [DebugFrame] = []) {
        self.box = box; self.label = label; self.colour = colour; self.frames = frames
    }
}

/// A stroke the gesture classifier took for a gesture (its ink is gone from the model once applied).
public struct DebugGestureMark: Equatable, Sendable {
    /// Model millimetres.
    public var points: [Point]
    /// What became of it ("scratchOut, applied").
    public var label: String
    public init(points: [Point], label: String) { self.points = points; self.label = label }
}

/// The overlay's band colours, also the legend's swatches.
public enum DebugPalette {
    public static let lines: [RGBA] = [
        RGBA(r: 0.16, g: 0.5, b: 0.73), RGBA(r: 0.9, g: 0.49, b: 0.13), RGBA(r: 0.15, g: 0.68, b: 0.38),
        RGBA(r: 0.61, g: 0.35, b: 0.71), RGBA(r: 0.75, g: 0.22, b: 0.17), RGBA(r: 0.09, g: 0.63, b: 0.52),
    ]
    public static func line(_ k: Int) -> RGBA { lines[((k % lines.count) + lines.count) % lines.count] }
    public static let gesture = RGBA(r: 0.85, g: 0.1, b: 0.1)
    public static let frames = RGBA(r: 0.2, g: 0.2, b: 0.25)
}
