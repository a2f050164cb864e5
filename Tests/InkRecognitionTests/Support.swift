import Foundation
@testable import InkRecognition
import QuireTestSupport

enum Fixtures {
    /// The repository root.
    static let root = repositoryRoot

    static let modelURL = root.appendingPathComponent("Resources/recognition/quire-rec.bin")
    static let parityURL = root.appendingPathComponent("Resources/recognition/parity.json")

    static let model: RecognitionModel = {
        do { return try RecognitionModel(contentsOf: modelURL) } catch { fatalError("cannot load \(modelURL.path): \(error)") }
    }()

    /// parity.json, parsed on each access (a [String: Any] cannot be a Sendable global).
    static var parity: [String: Any] {
        guard let data = try? Data(contentsOf: parityURL),
              let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            fatalError("cannot read \(parityURL.path)")
        }
        return obj
    }

    static func strokes(_ any: Any?) -> [[SIMD2<Double>]] {
        guard let arr = any as? [[[Double]]] else { return [] }
        return arr.map { s in s.map { SIMD2($0[0], $0[1]) } }
    }

    static let charset = Array((32 ... 126).map { Character(UnicodeScalar(UInt8($0))) })

    static func classIndex(_ c: Character) -> Int { charset.firstIndex(of: c)! + 1 }

    /// A hand-made matrix: each frame gives probabilities for some classes (by character, "_" is the
    /// blank); the rest of the mass is spread evenly over the other classes.
    static func matrix(_ frames: [[String: Double]]) -> LogProbMatrix {
        let classes = charset.count + 1
        var values: [Float] = []
        for f in frames {
            var p = [Double](repeating: 0, count: classes)
            var used = 0.0
            for (k, v) in f {
                let idx = k == "_" ? 0 : classIndex(Character(k))
                p[idx] = v
                used += v
            }
            let rest = max(1e-6, 1 - used) / Double(classes - f.count)
            for i in 0 ..< classes where p[i] == 0 { p[i] = rest }
            values += p.map { Float(log($0)) }
        }
        return LogProbMatrix(values: values, frames: frames.count, classes: classes)
    }
}
