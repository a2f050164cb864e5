import Foundation
import InkModel

/// What the editor asks a recognizer to read: one block's ink (values, safe to send to a worker).
public struct RecognitionRequest: Sendable {
    public var blockId: String
    public var blockType: String
    public var box: Rect
    public var strokes: [InkStroke]
    /// Baseline spacing in mm when guides are on (lines sit on multiples of it from the block top).
    public var guideSpacing: Double?
    /// `text.configuration.*` values of the editor at the time of the request.
    public var options: [String: String]

    public init(blockId: String, blockType: String = BlockType.text.rawValue, box: Rect, strokes: [InkStroke],
                guideSpacing: Double? = nil, options: [String: String] = [:]) {
        self.blockId = blockId; self.blockType = blockType; self.box = box; self.strokes = strokes
        self.guideSpacing = guideSpacing; self.options = options
    }
}

/// Turns a block's ink into words with candidates and character boxes. Called on a worker thread.
public protocol InkRecognizer: AnyObject, Sendable {
    func recognize(_ request: RecognitionRequest) throws -> [RecognizedWord]
}

/// A recognizer for some types of block. Recognizers plug in per block type (see
/// `Editor.setRecognizer(_:forBlockType:)`): Math and Diagram recognizers sit beside Text.
public protocol BlockRecognizer: InkRecognizer {
    /// The block types it reads ("Text", "Math", ...).
    var blockTypes: [String] { get }
}

/// A recognizer whose reading also sets properties of the block (the math recognizer stores its
/// expression trees there, `MathBlockResult`). The editor applies both together.
public protocol BlockPropertiesRecognizer: BlockRecognizer {
    /// The words and the block properties to set (a key with an empty value is removed).
    func recognizeWithProperties(_ request: RecognitionRequest) throws -> (words: [RecognizedWord], properties: [String: String])
}

/// Which recognizer reads which type of block: the editor's recognition dispatch.
final class RecognizerRegistry {
    private var byType: [String: InkRecognizer] = [:]

    /// The block types the editor's single `recognizer` reads: every block type that is
    /// recognized, until a recognizer of its own is set for one of them.
    static let defaultTypes = BlockType.allCases.filter(\.isRecognized).map(\.rawValue)

    func recognizer(for blockType: String) -> InkRecognizer? { byType[blockType] }

    func set(_ recognizer: InkRecognizer?, for blockType: String) { byType[blockType] = recognizer }
}

extension TextRecognizerAdapter: BlockRecognizer {
    /// Text, and Math as text until a math recognizer is set for Math blocks.
    public var blockTypes: [String] { RecognizerRegistry.defaultTypes }
}

extension Editor {
    /// Recognizes Text blocks' ink (and Math blocks' unless `setRecognizer(_:forBlockType:)` gave
    /// them their own); nil disables recognition of both. Defaults to
    /// `TextRecognizerAdapter.shared` (the bundled weights) when they are found.
    public var recognizer: InkRecognizer? {
        get { recognizers.recognizer(for: BlockType.text.rawValue) }
        set { for t in RecognizerRegistry.defaultTypes { recognizers.set(newValue, for: t) } }
    }

    /// Sets the recognizer of one block type; nil leaves that type unrecognized.
    public func setRecognizer(_ recognizer: InkRecognizer?, forBlockType type: String) {
        recognizers.set(recognizer, for: type)
    }

    /// Sets a recognizer for every block type it declares.
    public func register(_ recognizer: BlockRecognizer) {
        for t in recognizer.blockTypes { recognizers.set(recognizer, for: t) }
    }

    /// The recognizer that reads blocks of a type, nil when none does.
    public func recognizer(forBlockType type: String) -> InkRecognizer? { recognizers.recognizer(for: type) }
}
