import Foundation
import Testing
import InkModel
@testable import Quire
import QuireTools

/// The incremental block flow and the index behind it against their definitions, on pages of
/// many blocks: after every random edit the flow moves the same blocks to the same places as a
/// flow placing every block against every other, and the index finds the block a linear scan
/// of the root's children finds.
@Suite struct FlowIndexTests {
    /// A Text Document model with `count` Text blocks in two columns of rows, like a written page.
    func page(_ count: Int) throws -> PartModel {
        let m = try PartModel(id: "p", type: "Text Document")
        var root = m.root
        for i in 0..<count {
            let id = m.makeBlockId()
            let x = i % 3 == 2 ? 110.0 : 5, y = Double(i / 3 * 2 + (i % 3 == 1 ? 1 : 0)) * 14
            m.setBlock(BlockData(id: id, type: "Text", box: Rect(x: x, y: y, width: i % 3 == 0 ? 100 : 90, height: 10), parentId: m.rootId))
            root.childIds.append(id)
        }
        m.setBlock(root)
        return m
    }

    /// What a flow with no memory of earlier flows does: every block against every earlier one.
    func full(_ m: PartModel, gap: Double) -> (boxes: [String: Rect], moved: [String]) {
        let r = BlockFlow().placeAll(m.root.childIds.compactMap { m.blocks[$0] }, gap: gap)
        return (targets(r.changes), r.moved.map(\.id))
    }

    func targets(_ changes: [Change]) -> [String: Rect] {
        var out: [String: Rect] = [:]
        for c in changes { if case .block(_, let b?) = c { out[b.id] = b.box } }
        return out
    }

    func apply(_ changes: [Change], to m: PartModel) {
        for c in changes { if case .block(_, let b?) = c { m.setBlock(b) } }
    }

    func linearTopmost(_ m: PartModel, _ p: Point) -> String? {
        m.root.childIds.reversed().first { m.blocks[$0].map { $0.box.insetBy(dx: -0.5, dy: -0.5).contains(p) } ?? false }
    }

    /// One random edit of the kinds a session makes (ink growing a block, a block dragged, added,
    /// removed, put back in the middle of the children, a block on another's exact corner, a
    /// flat or a very tall block, an id without its block), straight on the model.
    func edit(_ m: PartModel, _ rng: inout SplitMix, step: Int) {
        var root = m.root
        let kids = root.childIds
        let pick = kids.isEmpty ? nil : kids[Int(rng.next() % UInt64(kids.count))]
        switch rng.next() % 12 {
        case 0, 1, 2:
            // Ink grows a block down and to the right, by whole guide lines.
            guard let id = pick, var b = m.blocks[id] else { return }
            b.box.height += Double(1 + rng.next() % 3) * 10
            b.box.width = max(b.box.width, rng.unit() * 180)
            m.setBlock(b)
        case 3:
            guard let id = pick, var b = m.blocks[id] else { return }
            b.box.x = (rng.unit() * 150).rounded()
            b.box.y = max(0, b.box.y + (rng.unit() * 200 - 100).rounded())
            m.setBlock(b)
        case 4, 5:
            let id = m.makeBlockId()
            var box = Rect(x: (rng.unit() * 150).rounded(), y: (rng.unit() * 1500).rounded(), width: 20 + rng.unit() * 100, height: 10)
            if let other = pick.flatMap({ m.blocks[$0] }), rng.next() % 3 == 0 { box.x = other.box.x; box.y = other.box.y }
            if rng.next() % 8 == 0 { box.height = 0 }
            if rng.next() % 16 == 0 { box.height = 400 }
            m.setBlock(BlockData(id: id, type: "Text", box: box, parentId: m.rootId))
            root.childIds.append(id)
            m.setBlock(root)
        case 6:
            guard let id = pick else { return }
            root.childIds.removeAll { $0 == id }
            m.setBlock(root)
            m.removeBlock(id: id)
        case 7:
            // A block taken out and put back where it was (undo of a removal), or elsewhere.
            guard let id = pick, kids.count > 2 else { return }
            root.childIds.removeAll { $0 == id }
            root.childIds.insert(id, at: Int(rng.next() % UInt64(root.childIds.count)))
            m.setBlock(root)
        case 8:
            // An id among the children whose block comes later (a package's tree in pieces).
            let id = m.makeBlockId()
            root.childIds.append(id)
            m.setBlock(root)
            if rng.next() % 2 == 0 {
                m.setBlock(BlockData(id: id, type: "Math", box: Rect(x: 30, y: rng.unit() * 800, width: 50, height: 20), parentId: m.rootId))
            }
        case 9:
            // A child's words change, not its box: nothing moves.
            guard let id = pick, var b = m.blocks[id] else { return }
            b.text = "step \(step)"
            m.setBlock(b)
        case 10:
            // Many children go at once (a selection deleted).
            let gone = Set(kids.filter { _ in rng.next() % 10 == 0 })
            root.childIds.removeAll { gone.contains($0) }
            m.setBlock(root)
            for id in gone { m.removeBlock(id: id) }
        default:
            // Dangling ids get their block.
            for id in kids where m.blocks[id] == nil {
                m.setBlock(BlockData(id: id, type: "Text", box: Rect(x: 5, y: rng.unit() * 900, width: 60, height: 10), parentId: m.rootId))
            }
        }
    }

    @Test func incrementalFlowMatchesTheFullFlowAfterEveryRandomEdit() throws {
        for seed in [UInt64(7), 8, 9] {
            let m = try page(600)
            let flow = BlockFlow()
            var rng = SplitMix(seed: seed)
            let gap = 4.0
            var moves = 0, incremental = 0
            var last: [Change] = []
            for step in 0..<400 {
                if rng.next() % 8 == 0 {
                    // The last flow undone: its blocks back where they were, unseen by the index.
                    for c in last.reversed() { if case .block(let old?, _) = c { m.setBlock(old) } }
                } else {
                    for _ in 0...(rng.next() % 3) { edit(m, &rng, step: step) }
                }
                let expected = full(m, gap: gap)
                let got = flow.place(model: m, gap: gap)
                if flow.lastExamined * 2 < m.root.childIds.count { incremental += 1 }
                #expect(targets(got.changes) == expected.boxes, "seed \(seed) step \(step): same places")
                #expect(got.moved.map(\.id) == expected.moved, "seed \(seed) step \(step): same blocks moved, same order")
                moves += got.moved.count
                apply(got.changes, to: m)
                last = got.changes
                guard step % 3 == 0 else { continue }
                flow.index.sync(m)
                for _ in 0..<4 {
                    let p = Point(x: rng.unit() * 200, y: rng.unit() * 1600)
                    #expect(flow.index.topmost(at: p, margin: 0.5) == linearTopmost(m, p) || !flow.index.usable,
                            "seed \(seed) step \(step): the block at \(p)")
                }
                let r = Rect(x: rng.unit() * 200, y: rng.unit() * 1600, width: rng.unit() * 40, height: rng.unit() * 30)
                if flow.index.usable {
                    #expect(flow.index.intersecting(r).map(\.id) == m.root.childIds.filter { m.blocks[$0]?.box.intersects(r) ?? false },
                            "seed \(seed) step \(step): the blocks meeting \(r)")
                }
                if step % 50 == 0 {
                    // No overlap left among the children.
                    let kids = m.root.childIds.compactMap { m.blocks[$0] }.filter { $0.box.height > 0 }
                    for (i, a) in kids.enumerated() { for b in kids[(i + 1)...] where a.id != b.id { #expect(!a.box.intersects(b.box)) } }
                }
            }
            #expect(moves > 100, "the edits pushed blocks")
            #expect(incremental > 200, "most flows looked at few blocks (\(incremental) of 400)")
        }
    }

    @Test func indexFollowsALogThatOutranItAndTheAttachedPart() throws {
        let m = try page(50), other = try page(10)
        let flow = BlockFlow()
        _ = flow.place(model: m, gap: 4)
        // More block changes than the model keeps in its log: the index reads everything again.
        var b = try #require(m.blocks[m.root.childIds[0]])
        for i in 0..<10_000 { b.text = "\(i)"; m.setBlock(b) }
        b.box.height = 30
        m.setBlock(b)
        let r = flow.place(model: m, gap: 4)
        #expect(targets(r.changes) == full(m, gap: 4).boxes && !r.moved.isEmpty)
        apply(r.changes, to: m)
        let p = Point(x: 50, y: 5)
        #expect(flow.index.topmost(at: p, margin: 0.5) == linearTopmost(m, p))
        flow.index.sync(other)
        #expect(flow.index.topmost(at: p, margin: 0.5) == linearTopmost(other, p))
    }

    @Test func aChildListedTwiceIsFlowedAsDefined() throws {
        let m = try page(20)
        var root = m.root
        root.childIds.append(root.childIds[3])
        m.setBlock(root)
        let flow = BlockFlow()
        #expect(flow.place(model: m, gap: 4).moved.map(\.id) == full(m, gap: 4).moved)
        #expect(!flow.index.usable)
        var b = try #require(m.blocks[root.childIds[0]])
        b.box.height = 40
        m.setBlock(b)
        #expect(targets(flow.place(model: m, gap: 4).changes) == full(m, gap: 4).boxes)
    }

    /// The point of the index: a pen-up on a page of thousands of blocks looks at the blocks near
    /// the change, not at every block.
    @Test func aPenUpOnALongPageLooksOnlyNearItsBlock() throws {
        let f = try Fixture()
        try f.editor.withFlowHeld {
            for i in 0..<2_000 { try f.write(x: 20 + Double(i % 3) * 250, y: 20 + Double(i / 3) * 60, length: 40) }
        }
        let m = f.part.model
        #expect(m.root.childIds.count > 600)
        let before = m.root.childIds.compactMap { m.blocks[$0] }.map(\.box)
        // A stroke in a block near the top, in its row: the block does not grow, nothing moves.
        try f.write(x: 100, y: 80, length: 20)
        #expect(f.editor.flow.lastExamined < 20, "examined \(f.editor.flow.lastExamined) of \(m.root.childIds.count) blocks")
        #expect(m.root.childIds.compactMap { m.blocks[$0] }.map(\.box) == before)
    }

    /// A block at the top of a full page growing pushes every block below it: each is checked
    /// against the boxes beside it, not against every block pushed before it nor every block a
    /// box's height above it (a tall block on the page makes that height large).
    @Test func pushingTheWholePageCostsTheBlocksMovedTimesTheirNeighbours() throws {
        // Two thirds of a page's blocks are in its left column, packed: all of those move.
        let m = try page(3_000)
        var root = m.root
        let tall = m.makeBlockId()
        m.setBlock(BlockData(id: tall, type: "Text", box: Rect(x: 5, y: 30_000, width: 40, height: 400), parentId: m.rootId))
        root.childIds.append(tall)
        m.setBlock(root)
        let flow = BlockFlow()
        _ = flow.place(model: m, gap: 4)
        var first = try #require(m.blocks[root.childIds[0]])
        first.box.width = 200
        first.box.height += 30
        m.setBlock(first)
        let expected = full(m, gap: 4)
        let got = flow.place(model: m, gap: 4)
        #expect(targets(got.changes) == expected.boxes)
        #expect(got.moved.map(\.id) == expected.moved)
        #expect(got.moved.count >= 2_000, "the whole page moved (\(got.moved.count) blocks)")
        #expect(flow.lastExamined < 8 * got.moved.count, "examined \(flow.lastExamined) for \(got.moved.count) blocks moved")
        // The index takes the moves in at once, not one shift of the page's entries per block.
        apply(got.changes, to: m)
        flow.index.sync(m)
        #expect(flow.index.shifted <= m.root.childIds.count, "\(flow.index.shifted) entries shifted")
        let fresh = BlockIndex()
        fresh.sync(m)
        #expect(flow.index.entries.map(\.id) == fresh.entries.map(\.id))
    }
}
