import Foundation
import InkModel

/// The guide lines of Text blocks, as a value: what the renderer draws, recognition aligns words
/// on, and JSON export lists.
public struct Guides: Equatable, Sendable {
    /// `text.guides.enable`.
    public var enabled: Bool
    /// `text.guides.spacing`, millimetres between baselines (values under 0.5 or over 1000 mean the default 10).
    public var spacing: Double
}

extension Editor {
    /// The editor's guide settings, read live from its configuration.
    public var guides: Guides {
        Guides(enabled: configuration[.textGuidesEnable], spacing: guideSpacing)
    }

    /// The baselines of a Text block, in model millimetres from the top of the part, top to bottom:
    /// one every `guides.spacing` below the block's top edge, the first a spacing below it, down to
    /// its bottom edge. A Text block without a box (the root of a Text part) spans the page: from
    /// y = 0 down to the end of the content or of the page (`contentBox`), whichever is lower.
    /// Other block types, and any block while guides are off, have none.
    public func baselines(of block: ContentBlock) throws -> [Double] {
        let b = try block.checkValid()
        return baselines(of: b)
    }

    func baselines(of b: BlockData) -> [Double] {
        let g = guides
        guard g.enabled, b.kind == .text else { return [] }
        let top = b.box.isEmpty ? 0 : b.box.y
        let bottom = b.box.isEmpty ? contentBox.maxY : b.box.maxY
        // The renderer's rule, in integers of spacing so rounding never adds or drops a line.
        let lines = ((bottom - top) / g.spacing + 1e-9).rounded(.down)
        // Checked before converting: a huge box gives a count past Int's range.
        guard lines >= 1, lines <= 100_000 else { return [] }
        let n = Int(lines)
        return (1...n).map { top + Double($0) * g.spacing }
    }
}

extension Editor {
    /// `"guides": {"spacing", "baselines"}` of a Text block in JSON export; nil when it has none.
    func guidesJSON(_ b: BlockData) -> JSONValue? {
        let lines = baselines(of: b)
        guard !lines.isEmpty else { return nil }
        return .object(["spacing": .number(guides.spacing), "baselines": .array(lines.map { .number($0) })])
    }
}

extension ContentBlock {
    /// The block's baselines (see `Editor.baselines(of:)`); empty once the block is invalid.
    public var baselines: [Double] { (try? editor?.baselines(of: self)) ?? [] }
}
