import Foundation

/// How a reading differs from its reference, character by character: a minimal alignment
/// (Levenshtein, the same cost as `RecognitionMetrics.editDistance`), for marking differences
/// and counting substitutions.
public enum TextAlignment {
    public enum Step: Equatable, Sendable {
        case same(Character)
        /// The reference's character read as another.
        case substituted(reference: Character, reading: Character)
        /// A reference character missing from the reading.
        case deleted(Character)
        /// A character in the reading that the reference lacks.
        case inserted(Character)
    }

    /// The steps turning `reference` into `reading`, in order; the number of steps other than
    /// `.same` is their edit distance.
    public static func steps(reference: String, reading: String) -> [Step] {
        let x = Array(reference), y = Array(reading)
        let w = y.count + 1
        var d = [Int](repeating: 0, count: (x.count + 1) * w)
        for j in 0 ... y.count { d[j] = j }
        if !x.isEmpty {
            for i in 1 ... x.count {
                d[i * w] = i
                if y.isEmpty { continue }
                for j in 1 ... y.count {
                    d[i * w + j] = min(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                }
            }
        }
        var out: [Step] = []
        var i = x.count, j = y.count
        while i > 0 || j > 0 {
            if i > 0, j > 0, d[i * w + j] == d[(i - 1) * w + j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1) {
                out.append(x[i - 1] == y[j - 1] ? .same(x[i - 1]) : .substituted(reference: x[i - 1], reading: y[j - 1]))
                i -= 1; j -= 1
            } else if i > 0, d[i * w + j] == d[(i - 1) * w + j] + 1 {
                out.append(.deleted(x[i - 1])); i -= 1
            } else {
                out.append(.inserted(y[j - 1])); j -= 1
            }
        }
        return out.reversed()
    }

    /// The edit distance the steps stand for.
    public static func cost(_ steps: [Step]) -> Int { steps.filter { if case .same = $0 { false } else { true } }.count }
}
