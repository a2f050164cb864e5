import Foundation
import InkKernels
import InkKernelsAVX2

/// Which build of `LSTMKernels` runs the network: the baseline x86-64 one, or the AVX2 + FMA one when
/// the CPU has those units (Linux: the flags of /proc/cpuinfo). `QUIRE_RECOGNITION_KERNELS=baseline`
/// forces the baseline build (to compare the two); asking for avx2 on a CPU without it is ignored,
/// since running those instructions would kill the process.
public enum RecognitionKernels: String, Sendable, CaseIterable {
    case baseline
    case avx2

    /// The build used by default on this machine.
    public static let current: RecognitionKernels = {
        let supported = cpuSupportsAVX2()
        switch ProcessInfo.processInfo.environment["QUIRE_RECOGNITION_KERNELS"]?.lowercased() {
        case "baseline": return .baseline
        default: return supported ? .avx2 : .baseline
        }
    }()

    /// Builds that can run here (the baseline one always can).
    public static var available: [RecognitionKernels] { cpuSupportsAVX2() ? [.baseline, .avx2] : [.baseline] }

    /// `-target-cpu haswell` may use AVX, AVX2, FMA, BMI1/2, F16C, MOVBE, LZCNT and POPCNT.
    static func cpuSupportsAVX2() -> Bool {
        #if arch(x86_64) && os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return false }
        let flags = Set(line.split(separator: " ").map(String.init))
        return ["avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "abm", "popcnt"].allSatisfy(flags.contains)
        #else
        return false
        #endif
    }
}

enum Network {
    /// Forward pass of one feature sequence (`count` x 4): see `forward(model:batch:kernels:)`.
    static func forward(model m: RecognitionModel, features: UnsafeBufferPointer<Float>, count n: Int,
                        kernels: RecognitionKernels = .current) -> [Float] {
        forward(model: m, batch: [(features, n)], kernels: kernels)[0]
    }

    /// Forward pass of several feature sequences (lines) together: conv + ReLU, BiLSTM stack, linear,
    /// log-softmax, through `LSTMKernels`. The sequences' frames are stacked one after another, so the
    /// convolution, input projections and output layer run over all of them at once, and each
    /// recurrent step multiplies the weights with the states of every sequence still running (one
    /// weight load serves several lines). Each sequence's output equals what it gives alone, bit for bit.
    /// Returns one (T' x classes) log-probability matrix per sequence, in the order given; an empty
    /// sequence gives an empty matrix. Scratch is allocated once per call; the loops over time steps
    /// allocate nothing.
    static func forward(model m: RecognitionModel, batch: [(features: UnsafeBufferPointer<Float>, count: Int)],
                        kernels: RecognitionKernels = .current) -> [[Float]] {
        let f = m.numFeatures, c = m.convChannels, k = m.convKernel, hdim = m.hidden
        let classes = m.numClasses
        var results = [[Float]](repeating: [], count: batch.count)
        // Longest first (the kernels' order); empty sequences take no part.
        let order = batch.indices.filter { batch[$0].count > 0 }.sorted {
            (batch[$0].count, $1) > (batch[$1].count, $0)
        }
        guard !order.isEmpty else { return results }
        let lengths = order.map { (batch[$0].count - 1) / 2 + 1 }
        var starts = [Int](repeating: 0, count: order.count)
        for i in 1 ..< max(1, order.count) { starts[i] = starts[i - 1] + lengths[i - 1] }
        let rows = starts[order.count - 1] + lengths[order.count - 1]  // frames of all sequences
        let pad = k / 2
        let windowWidth = f * k
        let ld = max(InkKernels.LSTMKernels.paddedRows(c), 2 * hdim)  // row stride of the layer sequences
        let ldg = InkKernels.LSTMKernels.paddedRows(4 * hdim)
        let ldOut = InkKernels.LSTMKernels.paddedRows(classes)
        let windows = UnsafeMutablePointer<Float>.allocate(capacity: rows * windowWidth)
        let seqA = UnsafeMutablePointer<Float>.allocate(capacity: rows * ld)
        let seqB = UnsafeMutablePointer<Float>.allocate(capacity: rows * ld)
        let gates = UnsafeMutablePointer<Float>.allocate(capacity: rows * max(ldg, ldOut))
        let scratchCount = InkKernels.LSTMKernels.lstmScratchCount(hidden: hdim, sequences: order.count)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: scratchCount)
        defer {
            windows.deallocate(); seqA.deallocate(); seqB.deallocate(); gates.deallocate(); scratch.deallocate()
        }
        // The stride-2 convolution (C, F, K), zero padding k/2 within each sequence, as one product:
        // row t of `windows` holds the input window of output step t in the weight's (feature, tap) order.
        for (i, index) in order.enumerated() {
            let features = batch[index].features, n = batch[index].count
            for t in 0 ..< lengths[i] {
                let w = windows + (starts[i] + t) * windowWidth
                for fi in 0 ..< f {
                    for j in 0 ..< k {
                        let src = 2 * t + j - pad
                        w[fi * k + j] = src >= 0 && src < n ? features[src * f + fi] : 0
                    }
                }
            }
        }
        func project(_ x: UnsafePointer<Float>, ldx: Int, _ w: [Float], _ b: [Float], rows r: Int, cols: Int,
                     into y: UnsafeMutablePointer<Float>, ldy: Int) {
            w.withUnsafeBufferPointer { wb in
                b.withUnsafeBufferPointer { bb in
                    switch kernels {
                    case .baseline:
                        InkKernels.LSTMKernels.project(x, n: rows, ldx: ldx, panels: wb.baseAddress!, bias: bb.baseAddress!,
                                                       rows: r, cols: cols, into: y, ldy: ldy)
                    case .avx2:
                        InkKernelsAVX2.LSTMKernels.project(x, n: rows, ldx: ldx, panels: wb.baseAddress!, bias: bb.baseAddress!,
                                                           rows: r, cols: cols, into: y, ldy: ldy)
                    }
                }
            }
        }
        project(windows, ldx: windowWidth, m.convWeight, m.convBias, rows: c, cols: windowWidth, into: seqA, ldy: ld)
        for t in 0 ..< rows {
            for ch in 0 ..< c { seqA[t * ld + ch] = max(seqA[t * ld + ch], 0) }
        }
        var input = seqA, output = seqB
        var width = c
        for layer in m.layers {
            for (dirIndex, dir) in [layer.fwd, layer.bwd].enumerated() {
                project(input, ldx: ld, dir.wih, dir.bias, rows: 4 * hdim, cols: width, into: gates, ldy: ldg)
                dir.whh.withUnsafeBufferPointer { whh in
                    switch kernels {
                    case .baseline:
                        InkKernels.LSTMKernels.lstm(gates: gates, ldg: ldg, starts: starts, lengths: lengths, sequences: order.count,
                                                    hidden: hdim, whh: whh.baseAddress!, reverse: dirIndex == 1,
                                                    output: output + dirIndex * hdim, ldo: ld, scratch: scratch)
                    case .avx2:
                        InkKernelsAVX2.LSTMKernels.lstm(gates: gates, ldg: ldg, starts: starts, lengths: lengths, sequences: order.count,
                                                        hidden: hdim, whh: whh.baseAddress!, reverse: dirIndex == 1,
                                                        output: output + dirIndex * hdim, ldo: ld, scratch: scratch)
                    }
                }
            }
            swap(&input, &output)
            width = 2 * hdim
        }
        project(input, ldx: ld, m.outWeight, m.outBias, rows: classes, cols: width, into: gates, ldy: ldOut)
        for (i, index) in order.enumerated() {
            var result = [Float](repeating: 0, count: lengths[i] * classes)
            result.withUnsafeMutableBufferPointer { rb in
                let y = gates + starts[i] * ldOut
                switch kernels {
                case .baseline: InkKernels.LSTMKernels.logSoftmax(y, n: lengths[i], ldy: ldOut, classes: classes, into: rb.baseAddress!)
                case .avx2: InkKernelsAVX2.LSTMKernels.logSoftmax(y, n: lengths[i], ldy: ldOut, classes: classes, into: rb.baseAddress!)
                }
            }
            results[index] = result
        }
        return results
    }
}
