import Foundation
import InkModel

/// A handle on a block of the editor's part. It becomes invalid when the block is removed,
/// replaced or its part detached; operations given an invalid block throw `invalidBlock`.
public final class ContentBlock {
    public let id: String
    weak var editor: Editor?
    let model: PartModel

    init(id: String, editor: Editor, model: PartModel) {
        self.id = id; self.editor = editor; self.model = model
    }

    var data: BlockData? {
        guard let editor, editor.part?.model === model else { return nil }
        return model.blocks[id]
    }

    public var isValid: Bool { data != nil }
    /// "Text", "Math", "Diagram", "Drawing", "Raw Content", "Image" or "Container".
    public var type: String { data?.type ?? "" }
    /// The block's kind; nil once the block is invalid.
    public var kind: BlockType? { data?.kind }
    /// The block's box in model millimetres.
    public var box: Rect { data?.box ?? .zero }
    public var children: [ContentBlock] {
        guard let d = data, let editor else { return [] }
        return d.childIds.compactMap { editor.getBlockById($0) }
    }
    public var parent: ContentBlock? {
        guard let p = data?.parentId else { return nil }
        return editor?.getBlockById(p)
    }
    /// Recognized or typed words of a Text block, in reading order.
    public var words: [RecognizedWord] { data?.words ?? [] }
    /// The block's text: typed/converted text, else the recognized words.
    public var text: String { data.map { Editor.plainText(of: $0) } ?? "" }
    /// Ids of the strokes the block holds.
    public var strokeIds: [String] { model.strokes(inBlock: id).map(\.id) }

    func checkValid() throws -> BlockData {
        guard let d = data else { throw QuireError(.invalidBlock, "block '\(id)' is no longer valid (removed, replaced or detached)") }
        return d
    }
}

/// A MIME type Quire can export or import.
public struct MimeType: Hashable, Sendable, CustomStringConvertible {
    public let typeName: String
    public init(_ typeName: String) { self.typeName = typeName }
    public static let text = MimeType("text/plain")
    public static let json = MimeType("application/vnd.quire+json")
    public static let inkml = MimeType("application/inkml+xml")
    public static let latex = MimeType("application/x-latex")
    public static let mathml = MimeType("application/mathml+xml")
    public static let svg = MimeType("image/svg+xml")
    public static let png = MimeType("image/png")
    public static let jpeg = MimeType("image/jpeg")
    public static let pdf = MimeType("application/pdf")
    public static let html = MimeType("text/html")
    /// Markdown: a notebook's text with a heading per page.
    public static let markdown = MimeType("text/markdown")
    public var description: String { typeName }
}

/// Target state of `Editor.convert`.
public enum ConversionState: String, Sendable {
    case handwriting, digitalEdit, digitalPublish
}

/// Receives notifications from an editor. All methods have empty default implementations.
public protocol EditorDelegate: AnyObject {
    func partChanged(_ editor: Editor)
    func contentChanged(_ editor: Editor, blockIds: [String])
    func onError(_ editor: Editor, blockId: String, code: QuireError.Code, message: String)
    /// Asked before a recognized pen gesture takes effect; the first delegate that does not
    /// answer `.apply` decides. Called on the editor's thread, inside the pen-up.
    func gestureAction(_ editor: Editor, gesture: Gesture) -> GestureAction
    /// Told after a gesture's effect was applied (one undoable step).
    func gestureApplied(_ editor: Editor, gesture: Gesture)
}

public extension EditorDelegate {
    func partChanged(_ editor: Editor) {}
    func contentChanged(_ editor: Editor, blockIds: [String]) {}
    func onError(_ editor: Editor, blockId: String, code: QuireError.Code, message: String) {}
    func gestureAction(_ editor: Editor, gesture: Gesture) -> GestureAction { .apply }
    func gestureApplied(_ editor: Editor, gesture: Gesture) {}
}
