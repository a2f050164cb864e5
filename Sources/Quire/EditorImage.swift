import Foundation
import InkModel

extension Editor {
    /// Image and document exports (PNG, SVG, PDF) through the Cairo renderer.
    func exportImage(_ block: ContentBlock?, mimeType: MimeType) throws -> Data {
        _ = try exportTarget(block)
        throw QuireError(.exportError, "\(mimeType.typeName) export is not available in this build")
    }
}
