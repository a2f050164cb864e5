import Foundation
import InkModel
import InkRender

extension Editor {
    /// Export options from this editor's configuration.
    var exportOptions: ExportOptions {
        ExportOptions(guides: configuration[.exportImageGuides],
                      guideSpacing: guideSpacing,
                      pressure: configuration[.rendererInkPressure])
    }

    /// Image and document exports (PNG, JPEG, SVG, PDF) through Cairo. Undecodable images are drawn as
    /// placeholders and reported through `onError`.
    func exportImage(_ block: ContentBlock?, mimeType: MimeType, dpi: Double? = nil) throws -> Data {
        let (m, b) = try exportTarget(block)
        let exporter = Exporter(fontMetrics: (fontMetricsProvider as? CairoFontMetrics) ?? CairoFontMetrics())
        var errors: [(String, QuireError)] = []
        exporter.onImageError = { errors.append(($0, $1)) }
        defer { for (id, e) in errors { notifyError(blockId: id, code: e.code, message: e.message) } }
        let blockId = b.id == m.rootId ? nil : b.id
        let d = dpi ?? configuration[.exportImageDPI]
        switch mimeType {
        case .png: return try exporter.exportPNG(part: m, block: blockId, dpi: d, options: exportOptions)
        case .jpeg: return try exporter.exportJPEG(part: m, block: blockId, dpi: d, options: exportOptions)
        case .svg: return try exporter.exportSVG(part: m, block: blockId, options: exportOptions)
        case .pdf: return try exporter.exportPDF(part: m, block: blockId, options: exportOptions)
        default: throw QuireError(.exportError, "export to \(mimeType.typeName) is not supported")
        }
    }

    /// Exports a PNG or JPEG at a chosen resolution.
    public func exportImageData(_ block: ContentBlock?, mimeType: MimeType, dpi: Double) throws -> Data {
        try exportImage(block, mimeType: mimeType, dpi: dpi)
    }
}
