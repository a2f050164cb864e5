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
    /// Decorations applied by gestures ("underline", "surround").
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
    public static let types = ["Text", "Math", "Diagram", "Drawing", "Raw Content", "Image", "Container"]

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

    public init(id: String, type: String, box: Rect, parentId: String? = nil, childIds: [String] = [],
                text: String? = nil, conversion: String = "handwriting", words: [RecognizedWord] = [],
                image: ImageRef? = nil, properties: [String: String] = [:]) {
        self.id = id; self.type = type; self.box = box; self.parentId = parentId; self.childIds = childIds
        self.text = text; self.conversion = conversion; self.words = words; self.image = image; self.properties = properties
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
