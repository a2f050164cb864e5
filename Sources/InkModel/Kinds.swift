/// The kind of a content part. The raw value is the SDK's part type string, which the public API
/// keeps taking and returning (`ContentPackage.createPart(type:)`, `ContentPart.type`); code inside
/// Quire names kinds through this type so that a misspelt kind fails to compile.
public enum PartType: String, CaseIterable, Sendable {
    // Declaration order is the order listed in error messages and `supportedPartTypes`.
    case text = "Text"
    case math = "Math"
    case drawing = "Drawing"
    case diagram = "Diagram"
    case rawContent = "Raw Content"
    case textDocument = "Text Document"

    /// The type of the part's root block: a Text Document's root is a container of blocks; every
    /// other part is one block of its own kind.
    public var rootBlockType: BlockType {
        switch self {
        case .text: .text
        case .math: .math
        case .drawing: .drawing
        case .diagram: .diagram
        case .rawContent: .rawContent
        case .textDocument: .container
        }
    }

    /// The configuration key prefix for the part type ("Text Document" -> "text-document").
    public var configPrefix: String { rawValue.lowercased().replacingOccurrences(of: " ", with: "-") }
}

/// The kind of a block. The raw value is the SDK's block type string (`ContentBlock.type`,
/// `Editor.addBlock(at:type:)`).
public enum BlockType: String, CaseIterable, Sendable {
    // Declaration order is the order of `BlockData.types`.
    case text = "Text"
    case math = "Math"
    case diagram = "Diagram"
    case drawing = "Drawing"
    case rawContent = "Raw Content"
    case image = "Image"
    case container = "Container"

    /// Blocks whose ink the editor sends to a recognizer (Math is read as text for now).
    public var isRecognized: Bool { self == .text || self == .math }

    /// Block types a user may add to a Text Document (`Editor.addBlock(at:type:)`); images and
    /// containers come from their own calls.
    public static let addable: [BlockType] = [.text, .math, .drawing, .diagram, .rawContent]
}

extension BlockData {
    /// The block's kind; nil for a type string Quire does not know (a package or clipboard read
    /// such a block is refused before it reaches the model).
    public var kind: BlockType? { BlockType(rawValue: type) }
}
