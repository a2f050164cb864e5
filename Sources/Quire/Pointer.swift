import Foundation
import InkModel

/// The phase of a pointer event.
public enum PointerEventKind: Sendable, Equatable {
    case down, move, up, cancel
}

/// One pointer event in view pixels.
public struct PointerEvent: Sendable, Equatable {
    public var kind: PointerEventKind
    public var x: Double, y: Double
    /// Milliseconds since 1970; -1 means now.
    public var t: Int64
    /// Pressure 0...1 (0 if unknown).
    public var f: Double
    public var pointerType: PointerType
    /// -1 means the only pointer.
    public var pointerId: Int

    public init(kind: PointerEventKind, x: Double, y: Double, t: Int64 = -1, f: Double = 0, pointerType: PointerType = .pen, pointerId: Int = -1) {
        self.kind = kind; self.x = x; self.y = y; self.t = t; self.f = f; self.pointerType = pointerType; self.pointerId = pointerId
    }
    public static func down(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) -> PointerEvent {
        PointerEvent(kind: .down, x: x, y: y, t: t, f: f, pointerType: type, pointerId: pointerId)
    }
    public static func move(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) -> PointerEvent {
        PointerEvent(kind: .move, x: x, y: y, t: t, f: f, pointerType: type, pointerId: pointerId)
    }
    public static func up(x: Double, y: Double, t: Int64 = -1, f: Double = 0, type: PointerType = .pen, pointerId: Int = -1) -> PointerEvent {
        PointerEvent(kind: .up, x: x, y: y, t: t, f: f, pointerType: type, pointerId: pointerId)
    }
    public static func cancel(pointerId: Int = -1, type: PointerType = .pen) -> PointerEvent {
        PointerEvent(kind: .cancel, x: 0, y: 0, pointerType: type, pointerId: pointerId)
    }
}

/// What a pointer does.
public enum Tool: String, Sendable, CaseIterable {
    case pen, highlighter, eraser, selector, hand
}

/// Maps pointer types to tools, and holds each inking tool's style.
public final class ToolController {
    private var tools: [PointerType: Tool] = [.pen: .pen, .mouse: .pen, .eraser: .eraser, .touch: .hand]
    private var styles: [Tool: (color: String, width: Float)] = [:]

    public init() {}

    /// The tool a pointer type uses (pen for unmapped custom types).
    public func tool(for type: PointerType) -> Tool { tools[type] ?? .pen }

    /// Maps a pointer type to a tool (a kiosk maps `.touch` or `.mouse` to `.pen`).
    public func setTool(_ tool: Tool, for type: PointerType) { tools[type] = tool }

    /// Sets the colour ("#rrggbb[aa]", "" = theme) and width (mm, 0 = theme) of an inking tool.
    /// A width that is negative or not finite means the theme's: packages store only widths of
    /// 0 or more, and one stroke with another would make the saved package unreadable.
    public func setStyle(color: String, width: Float, for tool: Tool) {
        styles[tool] = (color, width.isFinite && width >= 0 ? width : 0)
    }

    public func style(for tool: Tool) -> (color: String, width: Float) { styles[tool] ?? ("", 0) }
}
