import Foundation
import InkModel

/// The frame drawn around a lasso selection, in view pixels: its outline, four corner handles
/// that resize it and a round handle above it that rotates it. The editor hit-tests the same
/// geometry the renderer draws, so a handle is grabbed exactly where it shows.
public struct SelectionFrame: Equatable, Sendable {
    /// What a point of the view grabs.
    public enum Part: Equatable, Sendable {
        /// A corner handle: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
        case corner(Int)
        case rotate
        /// Inside the outline: a drag moves the selection.
        case inside
    }

    /// The outline, view pixels.
    public var box: Rect
    /// Side of a square corner handle and diameter of the rotate handle, view pixels.
    public var handleSize: Double

    /// `box` is the selection's extent in view pixels; the outline keeps a small margin from the ink.
    public init(extent: Rect, handleSize: Double = 12) {
        box = extent.insetBy(dx: -6, dy: -6)
        self.handleSize = handleSize
    }

    /// Corners in the order of `Part.corner`.
    public var corners: [Point] {
        [Point(x: box.x, y: box.y), Point(x: box.maxX, y: box.y), Point(x: box.maxX, y: box.maxY), Point(x: box.x, y: box.maxY)]
    }

    /// Centre of the rotate handle, above the middle of the top edge.
    public var rotateHandle: Point { Point(x: box.midX, y: box.y - 3 * handleSize) }

    /// Everything drawn, for damage tracking.
    public var drawnRect: Rect {
        box.union(Rect(x: rotateHandle.x, y: rotateHandle.y, width: 0.01, height: 0.01))
            .insetBy(dx: -handleSize - 2, dy: -handleSize - 2)
    }

    /// What `p` (view pixels) grabs; `slop` widens the handles for a finger. Handles win over
    /// the inside, so a small selection can still be resized.
    public func hit(_ p: Point, slop: Double = 6) -> Part? {
        let r = handleSize / 2 + slop
        if hypot(p.x - rotateHandle.x, p.y - rotateHandle.y) <= r { return .rotate }
        for (i, c) in corners.enumerated() where abs(p.x - c.x) <= r && abs(p.y - c.y) <= r { return .corner(i) }
        return box.contains(p) ? .inside : nil
    }
}
