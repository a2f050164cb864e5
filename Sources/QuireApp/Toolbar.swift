import Foundation
import Quire

/// The toolbar's commands.
public enum ToolbarCommand: String, CaseIterable, Sendable {
    case pen, highlighter, eraser, selector, undo, redo, clear, convert, text, image, save

    var label: String {
        switch self {
        case .pen: "Pen"
        case .highlighter: "Marker"
        case .eraser: "Eraser"
        case .selector: "Lasso"
        case .undo: "Undo"
        case .redo: "Redo"
        case .clear: "Clear"
        case .convert: "Convert"
        case .text: "Text"
        case .image: "Image"
        case .save: "Save"
        }
    }

    /// The tool a tool button selects.
    var tool: Tool? {
        switch self {
        case .pen: .pen
        case .highlighter: .highlighter
        case .eraser: .eraser
        case .selector: .selector
        default: nil
        }
    }
}

/// Lays out the toolbar: touch-sized buttons (at least 40 px at scale 1) left to right.
public struct ToolbarLayout: Sendable {
    public var commands: [ToolbarCommand]
    public var scale: Double

    public init(kiosk: Bool, scale: Double) {
        // A kiosk has no files to pick or save: it saves on its own.
        commands = ToolbarCommand.allCases.filter { !kiosk || ($0 != .image && $0 != .save) }
        self.scale = scale
    }

    /// Height of the toolbar in pixels.
    public var height: Int { Int((48 * scale).rounded()) }

    /// Button frames in toolbar pixels.
    public func frames() -> [(ToolbarCommand, Rect)] {
        var x = 6 * scale
        var out: [(ToolbarCommand, Rect)] = []
        for c in commands {
            let w = max(44 * scale, ChromePainter.labelWidth(c.label, scale: scale) + 20 * scale)
            out.append((c, Rect(x: x, y: 5 * scale, width: w, height: Double(height) - 10 * scale)))
            x += w + (c == .selector || c == .clear ? 14 : 5) * scale
        }
        return out
    }

    /// The command under a toolbar point.
    public func command(at p: Point) -> ToolbarCommand? {
        frames().first { $0.1.insetBy(dx: -2 * scale, dy: -4 * scale).contains(p) }?.0
    }
}
