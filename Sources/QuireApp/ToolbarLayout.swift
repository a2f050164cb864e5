import Foundation
import Quire

/// Lays out the toolbar in the window's width: touch-sized buttons (at least 44 px wide at scale 1,
/// 46 px high with their hit margin) left to right. When they do not fit, the spacing tightens
/// first; then the least-used buttons fold, in `foldOrder`, into a More (⋯) button whose menu
/// holds them. ◀ Pages ▶ never fold. Whatever width is left at the right end is the message's.
public struct ToolbarLayout: Sendable {
    public private(set) var commands: [ToolbarCommand]
    public let scale: Double
    /// The toolbar's (the window's) width in pixels; setting it lays the buttons out again.
    public var width: Double { didSet { if width != oldValue { arrange() } } }
    /// The visible buttons' frames in toolbar pixels (folded ones have none).
    public private(set) var buttons: [(ToolbarCommand, Rect)] = []
    /// The More button (nil: everything fits).
    public private(set) var moreFrame: Rect?
    /// The commands in the More menu, in toolbar order.
    public private(set) var folded: [ToolbarCommand] = []
    /// True when the spacing was tightened to fit.
    public private(set) var compact = false
    private let labelWidths: [ToolbarCommand: Double]

    /// The order buttons fold into More, least used first: inserting things before writing
    /// tools, Undo and File last; ◀ Pages ▶ stay.
    public static let foldOrder: [ToolbarCommand] = [
        .image, .math, .text, .clear, .save, .convert, .pens, .selector, .redo, .highlighter, .eraser, .undo, .file, .pen,
    ]

    /// The More button's label.
    public static let moreLabel = "\u{22EF}"

    public init(kiosk: Bool, scale: Double, width: Double) {
        // A kiosk has no files to pick or save: it saves on its own.
        commands = ToolbarCommand.allCases.filter { !kiosk || ($0 != .image && $0 != .save && $0 != .file) }
        self.scale = scale
        self.width = width
        labelWidths = Dictionary(uniqueKeysWithValues: ToolbarCommand.allCases.map { ($0, ChromePainter.labelWidth($0.label, scale: scale)) })
        arrange()
    }

    /// Height of the toolbar in pixels.
    public var height: Int { Int((48 * scale).rounded()) }

    /// Button frames in toolbar pixels (the visible ones; see `moreFrame` and `folded`).
    public func frames() -> [(ToolbarCommand, Rect)] { buttons }

    /// The command under a toolbar point (nil on the More button and between buttons).
    public func command(at p: Point) -> ToolbarCommand? {
        buttons.first { hitRect($0.1).contains(p) }?.0
    }

    /// True when a toolbar point is on the More button.
    public func isMore(at p: Point) -> Bool { moreFrame.map { hitRect($0).contains(p) } ?? false }

    /// Where the message goes: right of the last button to the right edge (its width may be 0).
    public var messageFrame: Rect {
        let right = (buttons.map(\.1.maxX) + [moreFrame?.maxX ?? 0]).max()! + 12 * scale
        return Rect(x: right, y: 0, width: max(0, width - right - 6 * scale), height: Double(height))
    }

    private func hitRect(_ r: Rect) -> Rect { r.insetBy(dx: -2 * scale, dy: -4 * scale) }

    /// Natural spacing, then tight spacing, then folding one more button at a time until it fits.
    private mutating func arrange() {
        for tight in [false, true] {
            if place(shown: commands, more: false, tight: tight) { return }
        }
        var shown = commands
        for c in Self.foldOrder where shown.contains(c) {
            shown.removeAll { $0 == c }
            if place(shown: shown, more: true, tight: true) { return }
        }
        // Narrower than ◀ Pages ▶ and More: they stay, clipped at the right edge.
        _ = place(shown: shown, more: true, tight: true)
    }

    /// Places `shown` (More before the page buttons); true when it fits in the width.
    private mutating func place(shown: [ToolbarCommand], more: Bool, tight: Bool) -> Bool {
        let pad = (tight ? 12 : 20) * scale, gap = (tight ? 3 : 5) * scale, groupGap = (tight ? 8 : 14) * scale
        let y = 5 * scale, h = Double(height) - 10 * scale
        var x = 6 * scale
        var out: [(ToolbarCommand, Rect)] = []
        var moreRect: Rect?
        for c in shown {
            if more, moreRect == nil, c == .previousPage {
                moreRect = Rect(x: x, y: y, width: 44 * scale, height: h)
                x += 44 * scale + groupGap
            }
            let w = max(44 * scale, labelWidths[c]! + pad)
            out.append((c, Rect(x: x, y: y, width: w, height: h)))
            x += w + (c == .file || c == .pens || c == .clear || c == .save ? groupGap : gap)
        }
        buttons = out
        moreFrame = moreRect
        folded = commands.filter { !shown.contains($0) }
        compact = tight
        return x - gap + 6 * scale <= width
    }
}
