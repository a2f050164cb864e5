import Foundation
import Testing
@testable import InkModel

/// A fresh folder per test, removed when the value goes away.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body`, expecting a QuireError with `code`; returns the error for further checks.
@discardableResult
func expectCode(_ code: QuireError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> QuireError? {
    let e = #expect(throws: QuireError.self, sourceLocation: sourceLocation) { try body() }
    #expect(e?.code == code, "got \(String(describing: e))", sourceLocation: sourceLocation)
    return e
}

func sampleStroke(_ part: PartModel, n: Int = 12, x: Double = 10, y: Double = 20, blockId: String? = nil) -> InkStroke {
    var samples: [InkSample] = []
    for i in 0..<n {
        let d = Double(i)
        let f = d / Double(max(1, n - 1))
        samples.append(InkSample(x: x + d * 0.37, y: y + sin(d) * 1.3, t: 1_700_000_000_000 + Int64(i) * 7, f: f))
    }
    return InkStroke(id: part.makeStrokeId(), pointerType: .pen, pointerId: 3, tool: "pen", blockId: blockId, seq: part.nextSeq(), samples: samples)
}
