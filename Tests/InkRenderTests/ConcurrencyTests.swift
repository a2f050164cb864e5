import Foundation
import InkModel
import InkRender
import Testing

/// Renderers and exporters on several threads at once (the tests themselves run in parallel, and a
/// host application may export in the background). Cairo shares its fonts between all of them.
@Suite struct ConcurrencyTests {
    @Test func pdfAndPNGExportsWithTextOnSeveralThreads() throws {
        let reference = try Exporter(theme: .builtIn).exportPNG(part: Fixtures.textDocument(images: false), dpi: 100)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { t in
            let ex = Exporter(theme: .builtIn)
            for i in 0 ..< 15 {
                do {
                    let part = try Fixtures.textDocument(images: false)  // models are confined to a thread
                    if (t + i) % 2 == 0 {
                        let pdf = try ex.exportPDF(part: part)
                        if !pdf.starts(with: Data("%PDF-".utf8)) { failures.add("thread \(t): not a PDF") }
                    } else if try ex.exportPNG(part: part, dpi: 100) != reference {
                        failures.add("thread \(t): PNG differs from the one made alone")
                    }
                } catch {
                    failures.add("thread \(t): \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.withLock { list.append(s) } }
    var all: [String] { lock.withLock { list } }
}
