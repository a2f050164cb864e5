import Foundation

/// One alternative for a recognized word.
public struct Candidate: Codable, Equatable, Sendable {
    public var label: String
    public var score: Double
    public init(label: String, score: Double) { self.label = label; self.score = score }
}

/// A recognized character with its box (model millimetres).
public struct RecognizedChar: Codable, Equatable, Sendable {
    public var label: String
    public var box: Rect
    public var strokeIds: [String]
    public init(label: String, box: Rect, strokeIds: [String] = []) { self.label = label; self.box = box; self.strokeIds = strokeIds }
}

/// A recognized (or typed) word of a Text block.
public struct RecognizedWord: Codable, Equatable, Sendable {
    public var label: String
    public var candidates: [Candidate]
    /// Index into `candidates` of the chosen one (the user may pick another).
    public var selected: Int
    public var box: Rect
    public var line: Int
    public var strokeIds: [String]
    public var chars: [RecognizedChar]
    /// Decorations applied by gestures ("underline", "surround") and by highlighter ink ("highlight").
    public var styles: [String]
    public init(label: String, candidates: [Candidate] = [], selected: Int = 0, box: Rect = .zero, line: Int = 0,
                strokeIds: [String] = [], chars: [RecognizedChar] = [], styles: [String] = []) {
        self.label = label; self.candidates = candidates; self.selected = selected; self.box = box
        self.line = line; self.strokeIds = strokeIds; self.chars = chars; self.styles = styles
    }
}

/// A reference from an Image block to image bytes stored in the package.
public struct ImageRef: Codable, Equatable, Sendable {
    public var entry: String
    public var mimeType: String
    public var pixelWidth: Int
    public var pixelHeight: Int
    public init(entry: String, mimeType: String, pixelWidth: Int, pixelHeight: Int) {
        self.entry = entry; self.mimeType = mimeType; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
    }
}

/// The stored state of one block (value type: undo records keep old copies).
public struct BlockData: Codable, Equatable, Sendable {
    public static let types = BlockType.allCases.map(\.rawValue)

    public var id: String
    public var type: String
    /// Model millimetres.
    public var box: Rect
    public var parentId: String?
    public var childIds: [String]
    /// Typed or converted text (Text blocks); nil while the block holds only ink.
    public var text: String?
    /// "handwriting", "digitalEdit" or "digitalPublish".
    public var conversion: String
    /// Recognition results (or words of converted text) in reading order.
    public var words: [RecognizedWord]
    public var image: ImageRef?
    /// Extension point for later features (kept through save/open).
    public var properties: [String: String]
    /// The font the block's typeset words (typed, published or converted in place) are laid out
    /// in: their boxes and their characters' boxes are that font's glyph cells, and the renderer
    /// draws them in it. Nil while no typeset word is laid out, and in packages written before
    /// words had their layout in the model (the editor lays those out when it attaches the part).
    public var textFont: FontSpec?

    public init(id: String, type: String, box: Rect, parentId: String? = nil, childIds: [String] = [],
                text: String? = nil, conversion: String = "handwriting", words: [RecognizedWord] = [],
                image: ImageRef? = nil, properties: [String: String] = [:], textFont: FontSpec? = nil) {
        self.id = id; self.type = type; self.box = box; self.parentId = parentId; self.childIds = childIds
        self.text = text; self.conversion = conversion; self.words = words; self.image = image; self.properties = properties
        self.textFont = textFont
    }
}

extension RecognizedWord {
    /// Where the word's letters sit: the lowest bottom of its characters that have no descender,
    /// else its box bottom raised by a third for a word with descenders (g, j, p, q, y). A word's
    /// box bottom alone puts a word like "secretary" a line too low when snapped to the guides.
    public var baselineEstimate: Double {
        let descenders: Set<Character> = ["g", "j", "p", "q", "y", ",", ";"]
        let sitting = chars.filter { !$0.box.isEmpty && !$0.label.contains(where: { descenders.contains($0) }) }
        if !sitting.isEmpty { return sitting.map(\.box.maxY).max()! }
        return label.contains(where: { descenders.contains($0) }) ? box.maxY - box.height / 3 : box.maxY
    }
}

extension BlockData {
    /// The farthest a box may reach, in millimetres: 50 times the farthest ink (coordinates are
    /// Int32 hundredths of a millimetre, about 21 km), far beyond any box the editor makes. Larger
    /// values, and non-finite ones, only come from damaged or crafted data, and would overflow the
    /// pixel and line counts computed from boxes.
    public static let maxBoxExtent = 1e9

    /// How deep blocks may nest below the root (the editor makes one level; pasted blocks keep theirs).
    public static let maxDepth = 32

    /// Why `blocks` are not a tree under `rootId` as the editor keeps them, or nil: each block
    /// reached from the root exactly once through `childIds`, each child pointing back with
    /// `parentId`, at most `maxDepth` levels down. A cycle, a child listed twice or a stray would
    /// send every walk of the tree (reading order, layout, export, recognition, save) round forever,
    /// into a stack overflow, or past blocks that save then drops. The root's `parentId` is the
    /// caller's to check.
    public static func treeProblem(_ blocks: [String: BlockData], rootId: String, maxDepth: Int = maxDepth) -> String? {
        guard blocks[rootId] != nil else { return "root block '\(rootId)' is missing" }
        var reached = Set<String>()
        var pending = [(id: rootId, depth: 0)]
        while let (id, depth) = pending.popLast() {
            guard reached.insert(id).inserted else { return "block '\(id)' is reached twice in the block tree (a cycle or a repeated child)" }
            guard depth <= maxDepth else { return "block '\(id)' is nested more than \(maxDepth) levels deep" }
            let b = blocks[id]!  // the root, or a child checked below
            for c in b.childIds {
                guard blocks[c]?.parentId == id else { return "block '\(id)' lists child '\(c)' that does not point back" }
                pending.append((c, depth + 1))
            }
        }
        if let stray = blocks.keys.sorted().first(where: { !reached.contains($0) }) {
            return "block '\(stray)' is not in the tree under the root (its parent chain is a cycle or leads nowhere)"
        }
        return nil
    }

    /// Which box of the block (its own, its words', its characters') is not finite within
    /// `maxBoxExtent`, or nil.
    public var boxProblem: String? {
        func bad(_ r: Rect) -> Double? {
            [r.x, r.y, r.width, r.height, r.maxX, r.maxY].first { !(abs($0) <= Self.maxBoxExtent) }
        }
        if let v = bad(box) { return "block '\(id)' has a coordinate or size out of range (\(v) mm)" }
        for (i, w) in words.enumerated() {
            if let v = bad(w.box) { return "word \(i) of block '\(id)' has a coordinate or size out of range (\(v) mm)" }
            for (j, c) in w.chars.enumerated() {
                if let v = bad(c.box) { return "character \(j) of word \(i) of block '\(id)' has a coordinate or size out of range (\(v) mm)" }
            }
        }
        return nil
    }
}
