import Foundation
import InkFormats
import Quire

/// `quire recognize` on ink written elsewhere: an InkML or Xournal++ file (or Quire JSON) is
/// imported into a temporary package (removed afterwards), and the Raw Content parts imports make are read like
/// Text blocks. The recognizer groups their strokes into lines by the gaps between lines (no
/// guides: the ink was not written on Quire's) and reads each line; nothing is moved or saved,
/// so a page that mixes drawings and writing keeps its layout and the drawings read as what
/// the recognizer makes of them. Highlighter strokes are marks over writing, not writing: left out.
enum RecognizeImported {
    /// A temporary package holding `file`'s pages when it is ink Quire imports, else nil (a
    /// package, or a file the open refuses with its own message).
    static func temporaryPackage(for file: String) throws -> String? {
        switch try FormatDetector.detect(path: file) {
        case .inkml, .xournal, .quireJSON: break
        default: return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-recognize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        do {
            return try ImportFile.build(file, out: dir.appendingPathComponent("imported.iink").path, limit: .max, layout: "raw-content").path
        } catch {
            try? FileManager.default.removeItem(at: dir)
            throw error
        }
    }

    /// Removes what `temporaryPackage` made.
    static func remove(_ package: String) {
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: package).deletingLastPathComponent())
    }

    /// Whether a part is read: Text and Text Document parts by their Text blocks, Raw Content
    /// parts (imported pages) as one block of writing.
    static func isRead(_ kind: PartType) -> Bool { kind == .text || kind == .textDocument || kind == .rawContent || kind == .math }

    /// The blocks of a part to read, in reading order: Text and Math blocks, or the root of a Raw Content part.
    static func blocks(_ root: ContentBlock?) -> [ContentBlock] {
        guard let root else { return [] }
        if root.kind == .rawContent { return [root] }
        func walk(_ b: ContentBlock) -> [ContentBlock] {
            let kids = b.children.sorted { ($0.box.y, $0.box.x) < ($1.box.y, $1.box.x) }
            return (b.kind == .text || b.kind == .math ? [b] : []) + kids.flatMap(walk)
        }
        return walk(root)
    }

    /// The editor's request for a block; a Raw Content block's ink is read as text, in lines told
    /// by their gaps, without its highlighter strokes.
    static func request(_ editor: Editor, for block: ContentBlock) throws -> RecognitionRequest {
        var r = try editor.recognitionRequest(for: block)
        guard block.kind == .rawContent else { return r }
        r.blockType = BlockType.text.rawValue
        r.guideSpacing = nil
        r.strokes = r.strokes.filter { $0.tool != "highlighter" }
        return r
    }
}
