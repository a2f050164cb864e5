import Foundation
import Quire
import QuireTools

/// Structure-aware mutations of a clipboard envelope.
extension ClipboardFuzz {
    func mutated(_ seed: Data, _ rng: inout SplitMix) throws -> (Data, String) {
        var env = try JSONDecoder().decode(Envelope.self, from: seed)
        var what: [String] = []
        for _ in 0..<rng.pick([1, 1, 1, 2, 3]) {
            switch rng.int(20) {
            case 0..<8: what.append("blocks:" + mutateBlocks(&env.blocks, &rng))
            case 8..<16: what.append("strokes:" + mutateStrokes(&env, &rng))
            case 16..<19: what.append("images:" + mutateImages(&env, &rng))
            default:
                env.format = rng.chance(0.5) ? env.format : rng.pick(["", "quire-blocks", "QUIRE-BLOCK"])
                env.version = rng.chance(0.5) ? env.version : rng.pick([0, 2, -1, Int.max])
                what.append("envelope")
            }
        }
        var data = try JSONEncoder().encode(env)
        if rng.chance(0.12), var v = try? JSONValue.parse(data) {
            for _ in 0..<rng.int(in: 1...3) { v = JSONMutation.mutate(v, &rng) }
            data = Data(JSONMutation.text(v).utf8)
            what.append("json")
        }
        if rng.chance(0.05) {
            data = JSONMutation.damage(data, &rng)
            what.append("bytes")
        }
        return (data, what.joined(separator: "+"))
    }

    static func hostileBox(_ rng: inout SplitMix) -> Rect {
        Rect(x: rng.pick(Hostile.numbers), y: rng.pick(Hostile.numbers), width: rng.pick(Hostile.numbers), height: rng.pick(Hostile.numbers))
    }

    func mutateBlocks(_ blocks: inout [BlockData], _ rng: inout SplitMix) -> String {
        guard !blocks.isEmpty else { return "empty" }
        let i = rng.int(blocks.count)
        let ids = blocks.map(\.id)
        switch rng.int(18) {
        case 0: blocks[i].box = Self.hostileBox(&rng); return "box"
        case 1:
            blocks[i].box.y = rng.pick([1e9, -1e9, 9.9e8, 1e9 + 1, 5e8]); blocks[i].box.height = rng.pick([0, 1, 1e9])
            return "far box"
        case 2 where blocks.count >= 2:  // parent and child of each other
            let j = (i + 1) % blocks.count
            blocks[i].parentId = blocks[j].id; blocks[j].parentId = blocks[i].id
            blocks[i].childIds.append(blocks[j].id); blocks[j].childIds.append(blocks[i].id)
            return "cycle"
        case 3: blocks[i].parentId = blocks[i].id; blocks[i].childIds.append(blocks[i].id); return "self parent"
        case 4: blocks[i].parentId = rng.pick(["nope", "b0"] + ids); return "parent"
        case 5: blocks[i].type = rng.pick(BlockData.types + ["Bogus", ""]); return "type"
        case 6:
            let w = RecognizedWord(label: rng.pick(Hostile.strings), candidates: (0..<rng.int(3)).map { _ in Candidate(label: rng.pick(Hostile.strings), score: rng.pick(Hostile.numbers)) },
                                   selected: rng.pick([0, -1, 5, Int.max, Int.min]), box: Self.hostileBox(&rng), line: rng.pick([0, -1, Int.max, Int.min, 1_000_000]),
                                   strokeIds: rng.pick([[], ["nope"], ["s1", "s1"]]),
                                   chars: (0..<rng.int(4)).map { _ in RecognizedChar(label: rng.pick(Hostile.strings), box: Self.hostileBox(&rng)) },
                                   styles: rng.pick([[], ["underline"], ["surround", "underline", "bogus"]]))
            blocks[i].words.insert(w, at: rng.int(blocks[i].words.count + 1))
            return "word"
        case 7 where !blocks[i].words.isEmpty:
            let k = rng.int(blocks[i].words.count)
            blocks[i].words[k].selected = rng.pick([-1, blocks[i].words[k].candidates.count, Int.max])
            if rng.chance(0.5) { blocks[i].words[k].candidates = [] }
            if rng.chance(0.3) { blocks[i].words[k].box = rng.chance(0.5) ? .zero : Self.hostileBox(&rng) }
            return "word range"
        case 8:
            blocks[i].text = rng.pick(["", String(repeating: "x", count: 200_000), String(repeating: "word ", count: 20_000),
                                       String(repeating: "\n", count: 5000), "a\u{0}b", "ctl\u{1}\u{1b}"])
            blocks[i].conversion = rng.pick(["digitalEdit", "digitalPublish", "handwriting", "bogus"])
            return "text"
        case 9:
            blocks[i].type = "Image"
            blocks[i].image = ImageRef(entry: rng.pick(["images/a.png", "images/missing.png", "images/", "x.png", "images/../p.png"]),
                                       mimeType: rng.pick(["image/png", "image/jpeg", "text/plain", ""]),
                                       pixelWidth: rng.pick([0, -1, 1, 1 << 31, Int.max, 100_000]), pixelHeight: rng.pick([0, -1, 1, 1 << 31, Int.max]))
            return "image ref"
        case 10:
            let n = rng.pick([50, 500, 3000])
            for k in 0..<n {
                let id = "z\(k)"
                blocks[0].childIds.append(id)
                blocks.append(BlockData(id: id, type: "Text", box: Rect(x: 10, y: 10 + Double(k) * rng.pick([0, 1e-9, 20, 1e5]), width: rng.pick([0, 190, 1e-300]), height: 20),
                                        parentId: blocks[0].id))
            }
            return "many children"
        case 11:
            var parent = i
            for k in 0..<rng.pick([10, 31, 32, 40, 2000]) {
                let id = "d\(k)"
                blocks[parent].childIds.append(id)
                blocks.append(BlockData(id: id, type: rng.pick(["Text", "Container", "Drawing"]), box: Rect(x: 0, y: 0, width: 100, height: 10), parentId: blocks[parent].id))
                parent = blocks.count - 1
            }
            return "deep"
        case 12 where blocks.count > 1: blocks.remove(at: 1 + rng.int(blocks.count - 1)); return "drop"
        case 13:
            blocks[i].properties = rng.pick([["quire.join": "s1:s2 nope:x :"], ["quire.style.underline": "s1 s2 nope"], ["quire.style.surround": ""],
                                             [rng.pick(Hostile.strings): rng.pick(Hostile.strings)]])
            return "properties"
        case 14: blocks.shuffle(using: &rng); return "shuffle"
        case 15: blocks[0].parentId = rng.pick([nil, "b0", blocks[0].id, "x"]); return "top parent"
        case 16 where blocks.count > 1: blocks[1 + rng.int(blocks.count - 1)].id = blocks[0].id; return "duplicate id"
        default:
            blocks[i].childIds = rng.chance(0.5) ? [] : blocks[i].childIds + [rng.pick(ids + ["ghost"])]
            return "children"
        }
    }

    func mutateStrokes(_ env: inout Envelope, _ rng: inout SplitMix) -> String {
        if rng.chance(0.08) {
            var b = [UInt8](env.strokes)
            if !b.isEmpty && rng.chance(0.5) {
                for _ in 0..<rng.int(in: 1...4) { b[rng.int(b.count)] = UInt8(rng.int(256)) }
            } else {
                b = Array(b.prefix(rng.int(b.count + 1)))
            }
            env.strokes = Data(b)
            return "bytes"
        }
        // An earlier mutation of this case may have left strokes the decoder refuses.
        guard var strokes = try? StrokeCodec.decode(env.strokes, what: "seed") else { return "undecodable" }
        let blockIds = env.blocks.map(\.id)
        if strokes.isEmpty || rng.chance(0.1) {
            strokes.append(InkStroke(id: "x\(rng.int(1000))", blockId: rng.pick(blockIds + ["nope"]), seq: 1,
                                     samples: [InkSample(x: 10, y: 10, t: 0, f: 0.5), InkSample(x: 12, y: 11, t: 10, f: 0.5)]))
        }
        let i = rng.int(strokes.count)
        var what = ""
        switch rng.int(11) {
        case 0:
            strokes[i] = strokes[i].translated(dx: rng.pick([2e7, -2e7, 1e6, -1e5, 21_474_836]), dy: rng.pick([0, 2e7, -3e6]))
            what = "far"
        case 1: strokes[i].blockId = rng.pick([nil, "nope"] + blockIds); what = "block"
        case 2: strokes[i].id = strokes[(i + 1) % strokes.count].id; what = "duplicate id"
        case 3: strokes[i].seq = rng.pick([0, -1, Int64.max, Int64.min]); what = "seq"
        case 4: strokes[i].pointerType = rng.pick([.eraser, .touch, .custom(-1), .custom(Int.max), .mouse]); what = "pointer type"
        case 5:
            strokes[i].tool = rng.pick(["", "eraser", "highlighter", String(repeating: "x", count: 3000)])
            strokes[i].color = rng.pick(["", "#", "#GGGGGG", "red", "#00000000", String(repeating: "f", count: 3000)])
            what = "style"
        case 6: strokes[i].width = rng.pick([0, -1, .leastNonzeroMagnitude, 3.4e38, .infinity, .nan]); what = "width"
        case 7:
            let n = rng.pick([100, 2000])
            for k in 0..<n { var s = strokes[i]; s.id = "m\(k)"; strokes.append(s) }
            what = "many"
        case 8:
            let s = strokes[i]
            let n = rng.pick([5000, 60000])
            let samples = (0..<n).map { InkSample(x: s.bounds.x + Double($0 % 2) * rng.pick([0, 1, 1000]), y: s.bounds.y, t: Int64($0), f: 0.5) }
            strokes[i] = InkStroke(id: s.id, blockId: s.blockId, seq: s.seq, samples: samples)
            what = "long"
        case 9: strokes[i].startTime = rng.pick([0, -1, Int64.max, Int64.min]); what = "time"
        default: strokes.remove(at: i); what = "drop"
        }
        env.strokes = StrokeCodec.encode(strokes)
        return what
    }

    func mutateImages(_ env: inout Envelope, _ rng: inout SplitMix) -> String {
        switch rng.int(4) {
        case 0:
            if let k = env.images.keys.sorted().first { env.images[k] = nil }
            return "drop"
        case 1:
            env.images[rng.pick(["images/../x.png", "images/.hidden", "x.png", "images/a b.png", "images/é.png", "images/", "images/ok.png"])] = Data(SampleImages.png1x1)
            return "name"
        case 2:
            var png = SampleImages.png1x1
            png[16...23] = [0x7F, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x02]
            let bogus = rng.pick([Data(), Data(png), Data(SampleImages.png1x1.prefix(20)), Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 100))])
            for k in env.images.keys.sorted() { env.images[k] = bogus }
            return "bytes"
        default:
            for i in env.blocks.indices where env.blocks[i].image != nil {
                env.blocks[i].image!.mimeType = rng.pick(["image/png", "image/jpeg", "image/gif"])
                env.blocks[i].image!.pixelWidth = rng.pick([1, 0, 1 << 40])
            }
            return "refs"
        }
    }
}
