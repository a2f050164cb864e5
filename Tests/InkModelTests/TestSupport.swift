import Foundation
import Testing
@testable import InkModel
// Shared test helpers (TempDir, expectCode) for every file of this target.
@_exported import QuireTestSupport

func sampleStroke(_ part: PartModel, n: Int = 12, x: Double = 10, y: Double = 20, blockId: String? = nil) -> InkStroke {
    var samples: [InkSample] = []
    for i in 0..<n {
        let d = Double(i)
        let f = d / Double(max(1, n - 1))
        samples.append(InkSample(x: x + d * 0.37, y: y + sin(d) * 1.3, t: 1_700_000_000_000 + Int64(i) * 7, f: f))
    }
    return InkStroke(id: part.makeStrokeId(), pointerType: .pen, pointerId: 3, tool: "pen", blockId: blockId, seq: part.nextSeq(), samples: samples)
}
