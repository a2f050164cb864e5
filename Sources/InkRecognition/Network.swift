import Foundation

/// The small matrix interface the network uses. All loops run over unsafe buffers with `SIMD16<Float>`
/// accumulators, on the calling thread.
enum Kernels {
    /// sum_i a[i] * b[i]
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc0 = SIMD16<Float>(repeating: 0)
        var acc1 = SIMD16<Float>(repeating: 0)
        var i = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while i + 32 <= n {
            acc0 += ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self)
            acc1 += ra.loadUnaligned(fromByteOffset: (i + 16) * 4, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: (i + 16) * 4, as: SIMD16<Float>.self)
            i += 32
        }
        if i + 16 <= n {
            acc0 += ra.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self)
                * rb.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self)
            i += 16
        }
        var s = (acc0 + acc1).sum()
        while i < n {
            s += a[i] * b[i]
            i += 1
        }
        return s
    }

    /// y[r] = bias[r] + dot(W[r, :], x) for r in 0..<rows, W row major (rows x cols).
    @inline(__always)
    static func matVec(_ w: UnsafePointer<Float>, _ x: UnsafePointer<Float>, _ bias: UnsafePointer<Float>?,
                       rows: Int, cols: Int, into y: UnsafeMutablePointer<Float>) {
        for r in 0 ..< rows {
            y[r] = (bias?[r] ?? 0) + dot(w + r * cols, x, cols)
        }
    }

    /// Y (n x rows) = X (n x cols) * W^T + bias, W row major (rows x cols). Four rows of X share each
    /// load of a W row.
    static func matMulTransposed(_ x: UnsafePointer<Float>, n: Int, _ w: UnsafePointer<Float>,
                                 _ bias: UnsafePointer<Float>?, rows: Int, cols: Int,
                                 into y: UnsafeMutablePointer<Float>) {
        var t = 0
        let rx = UnsafeRawPointer(x), rw = UnsafeRawPointer(w)
        let vecCols = cols / 16 * 16
        while t + 4 <= n {
            for r in 0 ..< rows {
                var a0 = SIMD16<Float>(repeating: 0), a1 = a0, a2 = a0, a3 = a0
                let wRow = r * cols * 4
                var i = 0
                while i < vecCols {
                    let wv = rw.loadUnaligned(fromByteOffset: wRow + i * 4, as: SIMD16<Float>.self)
                    a0 += wv * rx.loadUnaligned(fromByteOffset: (t * cols + i) * 4, as: SIMD16<Float>.self)
                    a1 += wv * rx.loadUnaligned(fromByteOffset: ((t + 1) * cols + i) * 4, as: SIMD16<Float>.self)
                    a2 += wv * rx.loadUnaligned(fromByteOffset: ((t + 2) * cols + i) * 4, as: SIMD16<Float>.self)
                    a3 += wv * rx.loadUnaligned(fromByteOffset: ((t + 3) * cols + i) * 4, as: SIMD16<Float>.self)
                    i += 16
                }
                var s0 = a0.sum(), s1 = a1.sum(), s2 = a2.sum(), s3 = a3.sum()
                while i < cols {
                    let wv = w[r * cols + i]
                    s0 += wv * x[t * cols + i]
                    s1 += wv * x[(t + 1) * cols + i]
                    s2 += wv * x[(t + 2) * cols + i]
                    s3 += wv * x[(t + 3) * cols + i]
                    i += 1
                }
                let b = bias?[r] ?? 0
                y[t * rows + r] = s0 + b
                y[(t + 1) * rows + r] = s1 + b
                y[(t + 2) * rows + r] = s2 + b
                y[(t + 3) * rows + r] = s3 + b
            }
            t += 4
        }
        while t < n {
            matVec(w, x + t * cols, bias, rows: rows, cols: cols, into: y + t * rows)
            t += 1
        }
    }

    @inline(__always)
    static func sigmoid(_ v: Float) -> Float { 1 / (1 + expf(-v)) }
}

enum Network {
    /// Forward pass: conv + ReLU, BiLSTM stack, linear, log-softmax. Scratch is allocated once per call.
    static func forward(model m: RecognitionModel, features: UnsafeBufferPointer<Float>, count n: Int) -> [Float] {
        let f = m.numFeatures, c = m.convChannels, k = m.convKernel, hdim = m.hidden
        let t2 = (n - 1) / 2 + 1
        let pad = k / 2
        let maxWidth = max(c, 2 * hdim)
        let seqA = UnsafeMutablePointer<Float>.allocate(capacity: t2 * maxWidth)
        let seqB = UnsafeMutablePointer<Float>.allocate(capacity: t2 * maxWidth)
        let gates = UnsafeMutablePointer<Float>.allocate(capacity: t2 * 4 * hdim)
        let rec = UnsafeMutablePointer<Float>.allocate(capacity: 4 * hdim)
        let hState = UnsafeMutablePointer<Float>.allocate(capacity: hdim)
        let cState = UnsafeMutablePointer<Float>.allocate(capacity: hdim)
        defer {
            seqA.deallocate(); seqB.deallocate(); gates.deallocate(); rec.deallocate()
            hState.deallocate(); cState.deallocate()
        }
        // Convolution (C, F, K), stride 2, zero padding k/2, then ReLU -> seqA (t2 x c)
        m.convWeight.withUnsafeBufferPointer { wb in
            let w = wb.baseAddress!
            for t in 0 ..< t2 {
                for ch in 0 ..< c {
                    var s = m.convBias[ch]
                    for j in 0 ..< k {
                        let src = 2 * t + j - pad
                        if src < 0 || src >= n { continue }
                        for fi in 0 ..< f {
                            s += w[(ch * f + fi) * k + j] * features[src * f + fi]
                        }
                    }
                    seqA[t * c + ch] = max(s, 0)
                }
            }
        }
        var input = seqA, output = seqB
        var width = c
        for layer in m.layers {
            for (dirIndex, dir) in [layer.fwd, layer.bwd].enumerated() {
                dir.wih.withUnsafeBufferPointer { wih in
                    dir.bias.withUnsafeBufferPointer { b in
                        Kernels.matMulTransposed(input, n: t2, wih.baseAddress!, b.baseAddress!,
                                                 rows: 4 * hdim, cols: width, into: gates)
                    }
                }
                hState.initialize(repeating: 0, count: hdim)
                cState.initialize(repeating: 0, count: hdim)
                dir.whh.withUnsafeBufferPointer { whh in
                    let wp = whh.baseAddress!
                    for step in 0 ..< t2 {
                        let t = dirIndex == 0 ? step : t2 - 1 - step
                        let g = gates + t * 4 * hdim
                        Kernels.matVec(wp, hState, g, rows: 4 * hdim, cols: hdim, into: rec)
                        let out = output + t * 2 * hdim + dirIndex * hdim
                        for u in 0 ..< hdim {
                            let ig = Kernels.sigmoid(rec[u])
                            let fg = Kernels.sigmoid(rec[hdim + u])
                            let gg = tanhf(rec[2 * hdim + u])
                            let og = Kernels.sigmoid(rec[3 * hdim + u])
                            let cv = fg * cState[u] + ig * gg
                            cState[u] = cv
                            let hv = og * tanhf(cv)
                            hState[u] = hv
                            out[u] = hv
                        }
                    }
                }
            }
            swap(&input, &output)
            width = 2 * hdim
        }
        let classes = m.numClasses
        var result = [Float](repeating: 0, count: t2 * classes)
        result.withUnsafeMutableBufferPointer { rb in
            let r = rb.baseAddress!
            m.outWeight.withUnsafeBufferPointer { w in
                m.outBias.withUnsafeBufferPointer { b in
                    Kernels.matMulTransposed(input, n: t2, w.baseAddress!, b.baseAddress!, rows: classes,
                                             cols: width, into: r)
                }
            }
            for t in 0 ..< t2 {
                let row = r + t * classes
                var mx = -Float.infinity
                for i in 0 ..< classes { mx = max(mx, row[i]) }
                var s: Float = 0
                for i in 0 ..< classes { s += expf(row[i] - mx) }
                let lse = mx + logf(s)
                for i in 0 ..< classes { row[i] -= lse }
            }
        }
        return result
    }
}
