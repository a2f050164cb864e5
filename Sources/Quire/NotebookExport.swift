import Foundation
import InkModel
import InkRender

extension Notebook {
    /// The formats a whole notebook exports to: PDF (a page per page), plain text, Markdown.
    public static let exportMimeTypes: [MimeType] = [.pdf, .text, .markdown]

    /// The whole notebook as one file:
    /// - PDF: a page per notebook page, each at least the size of the screen's page at zoom 1;
    /// - plain text: each page's recognized and typed text, pages separated by a form feed line;
    /// - Markdown: a `# Page n` heading per page, then its text (Markdown's markup escaped).
    /// Recognition under way on the page shown finishes first.
    public func export(mimeType: MimeType) throws -> Data {
        try? editor.waitForIdle()
        switch mimeType {
        case .pdf:
            let width = editor.pageWidth
            let exporter = Exporter(fontMetrics: (editor.fontMetricsProvider as? CairoFontMetrics) ?? CairoFontMetrics())
            editor.syncTextLayout()
            return try exporter.exportPDF(parts: pages.map(\.model), minimumPage: Rect(x: 0, y: 0, width: width, height: width * 297 / 210),
                                          options: editor.exportOptions)
        case .text:
            return Data(pageTexts().joined(separator: "\n\u{0C}\n").utf8)
        case .markdown:
            let sections = pageTexts().enumerated().map { i, text in
                "# Page \(i + 1)\n" + (text.isEmpty ? "" : "\n" + Self.markdownEscaped(text) + "\n")
            }
            return Data(sections.joined(separator: "\n").utf8)
        default:
            throw QuireError(.exportError, "a notebook exports to PDF, plain text or Markdown, not \(mimeType.typeName)")
        }
    }

    /// Writes `export(mimeType:)` to a file, atomically.
    public func export(to path: String, mimeType: MimeType) throws {
        try FileIO.writeAtomically(try export(mimeType: mimeType), to: URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// Each page's text, as `Editor.export(nil, mimeType: .text)` gives it for the page shown.
    private func pageTexts() -> [String] {
        pages.map { part in
            let m = part.model
            return editor.readingOrder(m.rootId, model: m).filter { Editor.recognizable($0.type) }
                .map { Editor.plainText(of: $0) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
    }

    /// Text that Markdown shows as written: markup characters get a backslash, and a line that
    /// would open a heading, quote, list or rule starts escaped. Line breaks stay line breaks.
    static func markdownEscaped(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var out = ""
            for c in line {
                if "\\`*_[]<>|~".contains(c) { out.append("\\") }
                out.append(c)
            }
            if let first = out.first, "#>+-=".contains(first) {
                out.insert("\\", at: out.startIndex)
            } else if let dot = out.firstIndex(where: { !$0.isNumber }), dot != out.startIndex, ".)".contains(out[dot]) {
                out.insert("\\", at: dot)
            }
            return out
        }
        // Hard line breaks: a page's lines stay lines.
        return lines.joined(separator: "  \n")
    }
}
