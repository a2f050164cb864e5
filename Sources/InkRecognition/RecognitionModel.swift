import Foundation

/// Errors thrown while loading a recognizer weight file (`quire-rec.bin`).
public enum RecognitionModelError: Error, Equatable, CustomStringConvertible, Sendable {
    case fileUnreadable(path: String, reason: String)
    case truncated(expected: Int, actual: Int)
    case badMagic
    case unsupportedVersion(Int)
    case corruptHeader(String)
    case missingTensor(String)
    case shapeMismatch(name: String, expected: [Int], actual: [Int])

    public var description: String {
        switch self {
        case let .fileUnreadable(path, reason): return "cannot read recognizer model at \(path): \(reason)"
        case let .truncated(expected, actual): return "recognizer model truncated: need \(expected) bytes, file has \(actual)"
        case .badMagic: return "not a Quire recognizer model (magic \"QREC\" missing)"
        case let .unsupportedVersion(v): return "unsupported recognizer model format version \(v) (supported: \(RecognitionModel.formatVersion))"
        case let .corruptHeader(why): return "corrupt recognizer model header: \(why)"
        case let .missingTensor(name): return "recognizer model lacks tensor \(name)"
        case let .shapeMismatch(name, expected, actual): return "tensor \(name) has shape \(actual), expected \(expected)"
        }
    }
}

/// Preprocessing constants stored in the model header (must equal tools/recognition/data.py).
public struct PreprocessConfig: Sendable, Equatable {
    public var minHeightMM: Double
    public var spacing: Double
    public var clip: Double
    public var maxPoints: Int
    public init(minHeightMM: Double = 4.0, spacing: Double = 0.1, clip: Double = 4.0, maxPoints: Int = 6000) {
        self.minHeightMM = minHeightMM
        self.spacing = spacing
        self.clip = clip
        self.maxPoints = maxPoints
    }
}

/// Weights of one LSTM direction, packed for `LSTMKernels` (panels of 16 rows, rows padded with zeros).
struct LSTMDirection: Sendable {
    let wih: [Float]   // packed (4H, in)
    let whh: [Float]   // packed (4H, H)
    let bias: [Float]  // (4H) padded

    init(wih: [Float], whh: [Float], bias: [Float], input: Int, hidden: Int) {
        self.wih = LSTMKernels.pack(wih, rows: 4 * hidden, cols: input)
        self.whh = LSTMKernels.pack(whh, rows: 4 * hidden, cols: hidden)
        self.bias = LSTMKernels.padBias(bias)
    }
}

struct LSTMLayer: Sendable {
    let input: Int
    let fwd: LSTMDirection
    let bwd: LSTMDirection
}

/// A loaded recognizer network (immutable, shareable between threads).
public final class RecognitionModel: Sendable {
    public static let formatVersion = 1

    /// Characters of output classes 1...n (class 0 is the CTC blank).
    public let charset: [Character]
    public let preprocess: PreprocessConfig
    /// Training step the weights come from (from the header).
    public let trainingStep: Int
    public let parameterCount: Int
    let numFeatures: Int
    let convChannels: Int
    let convKernel: Int
    let convWeight: [Float]  // packed (C, F * K): the convolution runs as a product with the ink's windows
    let convBias: [Float]    // padded
    let hidden: Int
    let layers: [LSTMLayer]
    let outWeight: [Float]  // packed (classes, 2H)
    let outBias: [Float]    // padded
    var numClasses: Int { charset.count + 1 }

    /// Loads a `quire-rec.bin` file. Throws `RecognitionModelError` for missing, truncated, corrupt or
    /// wrong-version files.
    public convenience init(contentsOf url: URL) throws {
        try self.init(data: try WeightFile.bytes(at: url))
    }

    public init(data: Data) throws {
        let file = try WeightFile(data: data)
        let header = file.header
        func tensor(_ name: String, _ shape: [Int]) throws -> [Float] { try file.tensor(name, shape) }
        guard let charsetString = header["charset"] as? String, !charsetString.isEmpty else {
            throw RecognitionModelError.corruptHeader("charset missing")
        }
        guard let config = header["config"] as? [String: Any],
              let channels = config["conv_channels"] as? Int, let kernel = config["conv_kernel"] as? Int,
              let hidden = config["hidden"] as? Int, let layerCount = config["layers"] as? Int,
              (1 ... 4096).contains(channels), (1 ... 31).contains(kernel), kernel % 2 == 1,
              (1 ... 4096).contains(hidden), (1 ... 8).contains(layerCount)
        else { throw RecognitionModelError.corruptHeader("config missing or invalid") }
        guard let pre = header["preprocess"] as? [String: Any],
              let minH = (pre["min_height_mm"] as? NSNumber)?.doubleValue,
              let spacing = (pre["spacing"] as? NSNumber)?.doubleValue,
              let clip = (pre["clip"] as? NSNumber)?.doubleValue,
              let nf = pre["num_features"] as? Int, let maxPoints = pre["max_points"] as? Int,
              spacing > 1e-4, spacing.isFinite, minH >= 0, minH.isFinite, clip > 0, clip.isFinite, nf == 4,
              (1 ... 1_000_000).contains(maxPoints)
        else { throw RecognitionModelError.corruptHeader("preprocess constants missing or invalid") }
        let classes = charsetString.count + 1
        self.charset = Array(charsetString)
        self.preprocess = PreprocessConfig(minHeightMM: minH, spacing: spacing, clip: clip, maxPoints: maxPoints)
        self.trainingStep = ((header["training"] as? [String: Any])?["step"] as? Int) ?? 0
        self.numFeatures = nf
        self.convChannels = channels
        self.convKernel = kernel
        let convWeight = try tensor("conv.weight", [channels, nf, kernel])
        let convBias = try tensor("conv.bias", [channels])
        self.hidden = hidden
        var layers: [LSTMLayer] = []
        var input = channels
        for l in 0 ..< layerCount {
            func dir(_ d: String) throws -> LSTMDirection {
                LSTMDirection(wih: try tensor("lstm\(l).\(d).w_ih", [4 * hidden, input]),
                              whh: try tensor("lstm\(l).\(d).w_hh", [4 * hidden, hidden]),
                              bias: try tensor("lstm\(l).\(d).bias", [4 * hidden]), input: input, hidden: hidden)
            }
            layers.append(LSTMLayer(input: input, fwd: try dir("fwd"), bwd: try dir("bwd")))
            input = 2 * hidden
        }
        self.layers = layers
        let outWeight = try tensor("out.weight", [classes, 2 * hidden])
        let outBias = try tensor("out.bias", [classes])
        self.parameterCount = file.parameterCount
        for w in [convWeight, convBias, outWeight, outBias] where !w.allSatisfy({ $0.isFinite }) {
            throw RecognitionModelError.corruptHeader("non-finite weights")
        }
        self.convWeight = LSTMKernels.pack(convWeight, rows: channels, cols: nf * kernel)
        self.convBias = LSTMKernels.padBias(convBias)
        self.outWeight = LSTMKernels.pack(outWeight, rows: classes, cols: 2 * hidden)
        self.outBias = LSTMKernels.padBias(outBias)
    }

    /// Runs the network on a feature sequence (`count` x 4, row major: dx, dy, pen_up, y).
    /// Returns log-probabilities, (T' x classes) row major, T' = (count - 1) / 2 + 1.
    public func logProbabilities(features: [Float], count: Int) -> [Float] {
        guard count > 0, features.count >= count * numFeatures else { return [] }
        return features.withUnsafeBufferPointer { Network.forward(model: self, features: $0, count: count) }
    }

    /// Most sequences one batched forward pass takes: enough to fill the recurrent kernels' groups
    /// twice over, while the scratch of a pass stays a few megabytes (a page's 50 lines at once would
    /// need about 90 MB).
    public static let maxBatch = 8

    /// `logProbabilities(features:count:)` for several sequences (lines) at once, in the order given;
    /// the same values as one at a time, faster (see `Network.forward(model:batch:)`). Sequences of
    /// similar length should be neighbours: they run in passes of at most `maxBatch` in the order given,
    /// and a pass lasts as long as its longest sequence. A sequence with no points or too few features
    /// gives [].
    public func logProbabilities(batch: [(features: [Float], count: Int)]) -> [[Float]] {
        var results = [[Float]](repeating: [], count: batch.count)
        let usable = batch.indices.filter { batch[$0].count > 0 && batch[$0].features.count >= batch[$0].count * numFeatures }
        var from = 0
        while from < usable.count {
            let pass = Array(usable[from ..< min(usable.count, from + Self.maxBatch)])
            from += pass.count
            // Borrow every sequence's buffer for the pass (nested closures, one per sequence).
            func run(_ k: Int, _ buffers: [(features: UnsafeBufferPointer<Float>, count: Int)]) {
                if k == pass.count {
                    for (i, r) in Network.forward(model: self, batch: buffers).enumerated() { results[pass[i]] = r }
                    return
                }
                batch[pass[k]].features.withUnsafeBufferPointer { run(k + 1, buffers + [($0, batch[pass[k]].count)]) }
            }
            run(0, [])
        }
        return results
    }

    public func outputLength(forInputLength n: Int) -> Int { n <= 0 ? 0 : (n - 1) / 2 + 1 }

    /// Whether this network reads the same preprocessed ink into the same classes as `other`, so one
    /// can stand in for the other on the same features.
    public func isCompatible(with other: RecognitionModel) -> Bool {
        charset == other.charset && preprocess == other.preprocess && numFeatures == other.numFeatures
    }
}

/// IEEE 754 binary16 -> Float.
@inline(__always)
func halfToFloat(_ h: UInt16) -> Float {
    let sign = UInt32(h & 0x8000) << 16
    let exp = Int((h >> 10) & 0x1F)
    let frac = UInt32(h & 0x3FF)
    if exp == 0 {
        if frac == 0 { return Float(bitPattern: sign) }
        let v = Float(frac) * Float(bitPattern: 0x3380_0000)  // 2^-24
        return sign != 0 ? -v : v
    }
    if exp == 31 { return Float(bitPattern: sign | 0x7F80_0000 | frac << 13) }
    return Float(bitPattern: sign | UInt32(exp - 15 + 127) << 23 | frac << 13)
}

extension RecognitionModel {
    /// The file name of the shipped weights.
    public static let defaultFileName = "quire-rec.bin"
    /// The file name of the shipped character model (beside the weights; see `TextRecognizer.characterModel`).
    public static let characterFileName = "quire-rec-chars.bin"

    /// Where to find the shipped weights: `$QUIRE_RECOGNITION_MODEL`, then
    /// `<executable>/../share/quire/recognition/quire-rec.bin`, then `Resources/recognition/quire-rec.bin`
    /// in the current directory or any parent of it or of the executable. Nil if none exists.
    public static func defaultModelURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fm = FileManager.default
        if let p = environment["QUIRE_RECOGNITION_MODEL"], !p.isEmpty { return URL(fileURLWithPath: p) }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        let share = exe.deletingLastPathComponent().appendingPathComponent("share/quire/recognition/\(defaultFileName)")
        if fm.fileExists(atPath: share.path) { return share }
        for start in [URL(fileURLWithPath: fm.currentDirectoryPath), exe] {
            var dir = start
            for _ in 0 ..< 10 {
                let candidate = dir.appendingPathComponent("Resources/recognition/\(defaultFileName)")
                if fm.fileExists(atPath: candidate.path) { return candidate }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
        }
        return nil
    }
}
