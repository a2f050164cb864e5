import Foundation
import Testing
@testable import Quire

/// Exporting a whole notebook: one PDF with a page per page, its text as plain text or Markdown.
@Suite struct NotebookExportTests {
    /// Three pages: typed text, ink only, and text that looks like Markdown.
    private func notebook() throws -> (Fixture, Notebook) {
        let f = try Fixture()
        let nb = try Notebook(package: f.package, editor: f.editor)
        _ = try f.editor.typeText("First page", into: nil)
        try nb.addPage(type: .drawing)
        try f.write(x: 100, y: 100)
        try nb.addPage()
        _ = try f.editor.typeText("# not a heading *really*\n1. item", into: nil)
        try nb.goTo(0)
        return (f, nb)
    }

    @Test func pdfHasAPagePerNotebookPage() throws {
        let (_, nb) = try notebook()
        let pdf = String(decoding: try nb.export(mimeType: .pdf), as: UTF8.self)
        #expect(pdf.hasPrefix("%PDF-"))
        #expect(pdf.contains("/Count 3"))
        let pageObjects = pdf.components(separatedBy: "/Type /Page").count - pdf.components(separatedBy: "/Type /Pages").count
        #expect(pageObjects == 3)
    }

    @Test func plainTextSeparatesPagesWithAFormFeed() throws {
        let (_, nb) = try notebook()
        let text = String(decoding: try nb.export(mimeType: .text), as: UTF8.self)
        #expect(text == "First page\n\u{0C}\n\n\u{0C}\n# not a heading *really*\n1. item")
    }

    @Test func markdownHasAHeadingPerPageAndEscapesTheText() throws {
        let (_, nb) = try notebook()
        let md = String(decoding: try nb.export(mimeType: .markdown), as: UTF8.self)
        #expect(md == "# Page 1\n\nFirst page\n\n# Page 2\n\n# Page 3\n\n\\# not a heading \\*really\\*  \n1\\. item\n")
    }

    @Test func otherFormatsAreRefusedAndFilesAreWritten() throws {
        let (f, nb) = try notebook()
        expectCode(.exportError) { _ = try nb.export(mimeType: .inkml) }
        let path = f.dir.path("notes.md")
        try nb.export(to: path, mimeType: .markdown)
        #expect(FileManager.default.contents(atPath: path) == (try nb.export(mimeType: .markdown)))
    }

    @Test func theCommandLineExportsTheWholeNotebook() throws {
        let (f, nb) = try notebook()
        try f.package.save()
        let path = f.package.path
        f.package.close()
        let md = try runQuire(["export", path, "--notebook", "--format", "markdown"])
        #expect(md.status == 0, "\(md.err)")
        #expect(md.out == String(decoding: try nb.export(mimeType: .markdown), as: UTF8.self) + "\n")
        let pdf = f.dir.path("notes.pdf")
        #expect(try runQuire(["export", path, "--notebook", "--format", "pdf", "-o", pdf]).status == 0)
        let text = String(decoding: FileManager.default.contents(atPath: pdf) ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("%PDF-") && text.contains("/Count 3"))
        let bad = try runQuire(["export", path, "--notebook", "--format", "inkml"])
        #expect(bad.status != 0 && bad.err.contains("use pdf, text or markdown"))
        #expect(try runQuire(["export", path, "--notebook", "--format", "pdf"]).err.contains("give -o FILE"))
    }
}
