import Foundation

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
        let ld = max(LSTMKernels.paddedRows(c), 2 * hdim)  // row stride of the layer sequences
        let ldg = LSTMKernels.paddedRows(4 * hdim)
        let ldOut = LSTMKernels.paddedRows(classes)
        let windows = UnsafeMutablePointer<Float>.allocate(capacity: rows * windowWidth)
        let seqA = UnsafeMutablePointer<Float>.allocate(capacity: rows * ld)
        let seqB = UnsafeMutablePointer<Float>.allocate(capacity: rows * ld)
        let gates = UnsafeMutablePointer<Float>.allocate(capacity: rows * max(ldg, ldOut))
        let scratchCount = LSTMKernels.lstmScratchCount(hidden: hdim, sequences: order.count)
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
                    LSTMKernels.project(x, n: rows, ldx: ldx, panels: wb.baseAddress!, bias: bb.baseAddress!,
                                        rows: r, cols: cols, into: y, ldy: ldy, kernels: kernels)
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
                    LSTMKernels.lstm(gates: gates, ldg: ldg, starts: starts, lengths: lengths, sequences: order.count,
                                     hidden: hdim, whh: whh.baseAddress!, reverse: dirIndex == 1,
                                     output: output + dirIndex * hdim, ldo: ld, scratch: scratch, kernels: kernels)
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
                LSTMKernels.logSoftmax(y, n: lengths[i], ldy: ldOut, classes: classes, into: rb.baseAddress!, kernels: kernels)
            }
            results[index] = result
        }
        return results
    }
}
