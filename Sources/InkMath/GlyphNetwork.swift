import Foundation
import InkRecognition

/// The second symbol classifier: a small CNN over the group's `GlyphImage`, one log-probability per
/// class of the math alphabet (the "not one symbol" class included). It reads the ink as a picture,
/// so it errs where the sequence network does not (writing order, pen lifts); `MathRecognizer`
/// adds its scores to the sequence network's. Twin of tools/recognition/math/glyph_net.py; weights
/// `quire-glyph.bin` (`export_glyph.py`). Immutable and safe to share between threads.
public final class GlyphNetwork: Sendable {
    /// File name of the shipped weights (beside `quire-math.bin`).
    public static let defaultFileName = "quire-glyph.bin"

    /// Classes of the output, in order.
    public let charset: [Character]
    public let image: GlyphImage
    public let trainingStep: Int
    public let parameterCount: Int
    /// A 3x3 convolution as a product of its weights (output x 9 * input, taps in the order
    /// (row, column, channel)) with each pixel's patch.
    let convs: [PackedLinear]
    /// Per convolution, its output for a patch of background pixels, and whether its input's
    /// background is 0 (`backgroundRows`).
    let backgroundRows: [(row: [Float], zero: Bool)]
    let fc: PackedLinear
    let out: PackedLinear

    /// Loads a weight file. Throws `RecognitionModelError` for unreadable, corrupt or foreign files.
    public convenience init(contentsOf url: URL) throws {
        try self.init(data: try WeightFile.bytes(at: url))
    }

    public init(data: Data) throws {
        let file = try WeightFile(data: data)
        let h = file.header
        guard (h["role"] as? String) == "glyph" else { throw RecognitionModelError.corruptHeader("not a glyph network (role \(h["role"] ?? "none"))") }
        guard let cs = h["charset"] as? String, !cs.isEmpty else { throw RecognitionModelError.corruptHeader("charset missing") }
        guard let config = h["config"] as? [String: Any], let widths = config["widths"] as? [Int],
              let hidden = config["hidden"] as? Int, (1 ... 6).contains(widths.count),
              widths.allSatisfy({ (1 ... 1024).contains($0) }), (1 ... 4096).contains(hidden)
        else { throw RecognitionModelError.corruptHeader("config missing or invalid") }
        guard let im = h["image"] as? [String: Any], let grid = im["grid"] as? Int, let channels = im["channels"] as? Int,
              let fit = (im["fit"] as? NSNumber)?.doubleValue, let floorMM = (im["floor_mm"] as? NSNumber)?.doubleValue,
              let step = (im["step"] as? NSNumber)?.doubleValue, let cap = (im["max"] as? NSNumber)?.doubleValue,
              channels == 6, (4 ... 256).contains(grid), grid % (1 << widths.count) == 0,
              fit > 0, fit <= Double(grid), floorMM >= 0, floorMM.isFinite, step >= 0.05, step.isFinite, cap > 0, cap.isFinite
        else { throw RecognitionModelError.corruptHeader("image constants missing or invalid") }
        var image = GlyphImage()
        (image.grid, image.fit, image.floorMM, image.step, image.channels, image.maxValue) = (grid, fit, floorMM, step, channels, cap)
        var tensors: [[Float]] = []
        var convs: [PackedLinear] = []
        var input = channels
        for (i, w) in widths.enumerated() {
            let weight = try file.tensor("conv\(i).weight", [w, input, 3, 3]), bias = try file.tensor("conv\(i).bias", [w])
            tensors += [weight, bias]
            convs.append(PackedLinear(weight: Self.tapsChannelLast(weight, outputs: w, inputs: input), bias: bias, rows: w, cols: input * 9))
            input = w
        }
        let side = grid >> widths.count
        let classes = cs.count
        let fcWeight = try file.tensor("fc.weight", [hidden, input * side * side]), fcBias = try file.tensor("fc.bias", [hidden])
        let outWeight = try file.tensor("out.weight", [classes, hidden]), outBias = try file.tensor("out.bias", [classes])
        for t in tensors + [fcWeight, fcBias, outWeight, outBias] where !t.allSatisfy({ $0.isFinite }) {
            throw RecognitionModelError.corruptHeader("non-finite weights")
        }
        self.convs = convs
        backgroundRows = Self.backgroundRows(convs, channels: channels)
        fc = PackedLinear(weight: fcWeight, bias: fcBias, rows: hidden, cols: input * side * side)
        out = PackedLinear(weight: outWeight, bias: outBias, rows: classes, cols: hidden)
        self.charset = Array(cs)
        self.image = image
        self.trainingStep = ((h["training"] as? [String: Any])?["step"] as? Int) ?? 0
        self.parameterCount = file.parameterCount
    }

    /// Whether it reads into the same classes as `model` (the math sequence network), in the same order.
    public func isCompatible(with model: RecognitionModel) -> Bool { charset == model.charset }

    /// Log-probabilities, one per `charset` class, of a stroke group (millimetres); nil when it has
    /// no point.
    public func logProbabilities(strokes: [[SIMD2<Double>]]) -> [Float]? {
        image.render(strokes).map(logProbabilities(image:))
    }

    /// Log-probabilities of a rendered `GlyphImage` (`image.channels` x `grid` x `grid`).
    public func logProbabilities(image pixels: [Float]) -> [Float] {
        // Channels last from here on: each pixel's patch is then a few contiguous runs.
        var side = image.grid, depth = image.channels
        let area = side * side
        var x = [Float](repeating: 0, count: pixels.count)
        for c in 0 ..< depth { for p in 0 ..< area { x[p * depth + c] = pixels[c * area + p] } }
        var background = (0 ..< area).map { p in (0 ..< depth).allSatisfy { x[p * depth + $0] == 0 } }
        for (conv, b) in zip(convs, backgroundRows) {
            (x, background) = Self.convReluPool(x, conv, side: side, depth: depth, background: background, backgroundRow: b.row,
                                                zeroBackground: b.zero)
            side /= 2
            depth = conv.rows
        }
        // The dense layer was trained on channel-major features (PyTorch's flatten).
        let a = side * side
        var flat = [Float](repeating: 0, count: x.count)
        for c in 0 ..< depth { for p in 0 ..< a { flat[c * a + p] = x[p * depth + c] } }
        var h = [Float](repeating: 0, count: fc.outputStride)
        flat.withUnsafeBufferPointer { f in h.withUnsafeMutableBufferPointer { fc.apply(f.baseAddress!, n: 1, into: $0.baseAddress!) } }
        for i in h.indices { h[i] = max(h[i], 0) }
        var z = [Float](repeating: 0, count: out.outputStride)
        h.withUnsafeBufferPointer { hh in z.withUnsafeMutableBufferPointer { out.apply(hh.baseAddress!, n: 1, into: $0.baseAddress!) } }
        z.removeLast(z.count - charset.count)
        let m = z.max() ?? 0
        let lse = m + log(z.reduce(Float(0)) { $0 + exp($1 - m) })
        return z.map { $0 - lse }
    }

    /// PyTorch's (output, channel, row, column) weights reordered to (output, row, column,
    /// channel), so that a pixel's patch in a channels-last image is nine contiguous copies.
    static func tapsChannelLast(_ w: [Float], outputs: Int, inputs: Int) -> [Float] {
        var r = [Float](repeating: 0, count: w.count)
        for o in 0 ..< outputs {
            for c in 0 ..< inputs {
                for t in 0 ..< 9 { r[(o * 9 + t) * inputs + c] = w[(o * inputs + c) * 9 + t] }
            }
        }
        return r
    }

    /// Per convolution, its output for a patch of nine background pixels. A glyph is a few thin
    /// lines in an empty grid: the input's background is 0, and each layer's background is the
    /// ReLU of the previous layer's background row (pooling four equal values keeps the value).
    static func backgroundRows(_ convs: [PackedLinear], channels: Int) -> [(row: [Float], zero: Bool)] {
        var value = [Float](repeating: 0, count: channels)
        var rows: [(row: [Float], zero: Bool)] = []
        for conv in convs {
            let patch = Array([[Float]](repeating: value, count: 9).joined())
            var row = [Float](repeating: 0, count: conv.outputStride)
            patch.withUnsafeBufferPointer { p in row.withUnsafeMutableBufferPointer { conv.apply(p.baseAddress!, n: 1, into: $0.baseAddress!) } }
            rows.append((row, value.allSatisfy { $0 == 0 }))
            value = row.prefix(conv.rows).map { max($0, 0) }
        }
        return rows
    }

    /// 3x3 convolution (zero padding), ReLU and 2x2 max pooling of a channels-last image; the
    /// convolution is one product of the weights with the patches of the pixels that see ink.
    /// `background[p]` says pixel p holds the layer's background value; a pixel whose patch is all
    /// background (the zero padding counts only where the background is 0, as on the input) takes
    /// `backgroundRow`, the kernel's own output for that patch, so skipping it changes no bit. On
    /// the parity fixture's glyphs that is 62-98% of the first layer's pixels and 4-70% of the
    /// second's. Returns the pooled image and its background mask.
    static func convReluPool(_ x: [Float], _ conv: PackedLinear, side n: Int, depth: Int, background: [Bool],
                             backgroundRow: [Float], zeroBackground: Bool) -> ([Float], [Bool]) {
        let k = depth * 9, area = n * n
        var live: [Int] = []
        live.reserveCapacity(area)
        for y in 0 ..< n {
            for xx in 0 ..< n {
                let border = y == 0 || xx == 0 || y == n - 1 || xx == n - 1
                var quiet = zeroBackground || !border
                if quiet {
                    scan: for sy in max(y - 1, 0) ... min(y + 1, n - 1) {
                        for sx in max(xx - 1, 0) ... min(xx + 1, n - 1) where !background[sy * n + sx] { quiet = false; break scan }
                    }
                }
                if !quiet { live.append(y * n + xx) }
            }
        }
        var patches = [Float](repeating: 0, count: max(1, live.count) * k)
        x.withUnsafeBufferPointer { src in
            patches.withUnsafeMutableBufferPointer { dst in
                let from = src.baseAddress!, to = dst.baseAddress!
                for (r, p) in live.enumerated() {
                    let y = p / n, xx = p % n
                    let row = r * k
                    for ky in 0 ..< 3 {
                        let sy = y + ky - 1
                        guard sy >= 0, sy < n else { continue }
                        for kx in 0 ..< 3 {
                            let sx = xx + kx - 1
                            guard sx >= 0, sx < n else { continue }
                            (to + row + (ky * 3 + kx) * depth).update(from: from + (sy * n + sx) * depth, count: depth)
                        }
                    }
                }
            }
        }
        let stride = conv.outputStride, outC = conv.rows
        var computed = [Float](repeating: 0, count: max(1, live.count) * stride)
        if !live.isEmpty {
            patches.withUnsafeBufferPointer { p in computed.withUnsafeMutableBufferPointer { conv.apply(p.baseAddress!, n: live.count, into: $0.baseAddress!) } }
        }
        var y = [Float](repeating: 0, count: area * stride)
        var isBackground = [Bool](repeating: true, count: area)
        y.withUnsafeMutableBufferPointer { out in
            backgroundRow.withUnsafeBufferPointer { b in
                for p in 0 ..< area { (out.baseAddress! + p * stride).update(from: b.baseAddress!, count: stride) }
            }
            computed.withUnsafeBufferPointer { c in
                for (r, p) in live.enumerated() {
                    (out.baseAddress! + p * stride).update(from: c.baseAddress! + r * stride, count: stride)
                    isBackground[p] = false
                }
            }
        }
        let m = n / 2
        var pooled = [Float](repeating: 0, count: m * m * outC)
        var pooledBackground = [Bool](repeating: false, count: m * m)
        for py in 0 ..< m {
            for px in 0 ..< m {
                let q = 2 * py * n + 2 * px
                let b = q * stride, o = (py * m + px) * outC
                pooledBackground[py * m + px] = isBackground[q] && isBackground[q + 1] && isBackground[q + n] && isBackground[q + n + 1]
                for c in 0 ..< outC {
                    let v = max(max(y[b + c], y[b + stride + c]), max(y[b + n * stride + c], y[b + (n + 1) * stride + c]))
                    pooled[o + c] = max(v, 0)
                }
            }
        }
        return (pooled, pooledBackground)
    }
}
