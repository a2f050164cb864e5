import Foundation
import InkModel

/// One primitive model change; undo applies the inverse.
enum Change {
    case stroke(old: InkStroke?, new: InkStroke?)
    case block(old: BlockData?, new: BlockData?)
    case image(entry: String, old: Data?, new: Data?)

    var inverse: Change {
        switch self {
        case .stroke(let o, let n): .stroke(old: n, new: o)
        case .block(let o, let n): .block(old: n, new: o)
        case .image(let e, let o, let n): .image(entry: e, old: n, new: o)
        }
    }
}

/// A group of changes undone and redone as one step.
struct Transaction {
    var changes: [Change] = []
    var isEmpty: Bool { changes.isEmpty }
}

/// A uniform grid over stroke bounds, so erasing and hit testing touch only nearby strokes and
/// per-event cost stays flat as the document grows.
struct StrokeGrid {
    let cell = 10.0
    private var cells: [Int64: Set<String>] = [:]

    private func keys(_ r: Rect) -> [Int64] {
        let x0 = Int64((r.x / cell).rounded(.down)), x1 = Int64((r.maxX / cell).rounded(.down))
        let y0 = Int64((r.y / cell).rounded(.down)), y1 = Int64((r.maxY / cell).rounded(.down))
        guard x1 - x0 < 2000, y1 - y0 < 2000 else { return [Int64.min] }  // huge strokes share one bucket
        var out: [Int64] = []
        for x in x0...x1 { for y in y0...y1 { out.append((x << 32) ^ (y & 0xFFFF_FFFF)) } }
        return out
    }

    mutating func insert(_ s: InkStroke) { for k in keys(s.bounds) { cells[k, default: []].insert(s.id) } }
    mutating func remove(_ s: InkStroke) { for k in keys(s.bounds) { cells[k]?.remove(s.id) } }
    mutating func clear() { cells.removeAll() }

    func candidates(_ r: Rect) -> Set<String> {
        var out = cells[Int64.min] ?? []
        for k in keys(r) { if let c = cells[k] { out.formUnion(c) } }
        return out
    }
}
