// The recognizer's inner loops. This one file is compiled twice: as `InkKernels` for the baseline
// x86-64 (SSE2) every Debian amd64 machine has, and, through a symlink, as `InkKernelsAVX2` with
// `-target-cpu haswell` (AVX2 + FMA) and `QUIRE_AVX2` defined. `InkRecognition` picks one at run time
// from the CPU's features, so one binary runs everywhere and uses the wide units where they exist
// (about twice the throughput: the page benchmark is mostly these loops).
//
// Weights are packed once, at model load, in panels of 16 rows: panel p holds rows 16p ..< 16p+16 of
// W (rows x cols) as cols consecutive SIMD16 vectors (column j of the panel at offset 16 j). The
// kernels then stream each panel front to back and broadcast one input value per vector
// multiply-add, so no horizontal sums are needed and every load is contiguous. Rows are padded with
// zero weights to a multiple of 16; outputs use a row stride of the padded count.

import Foundation

public enum LSTMKernels {
    public static let panelWidth = 16

    /// Rows padded to a whole number of panels.
    @inlinable public static func paddedRows(_ rows: Int) -> Int { (rows + panelWidth - 1) / panelWidth * panelWidth }

    /// Packs W (rows x cols, row major) into zero-padded panels.
    public static func pack(_ w: [Float], rows: Int, cols: Int) -> [Float] {
        precondition(w.count == rows * cols, "pack: w.count must equal rows * cols")
        var out = [Float](repeating: 0, count: paddedRows(rows) * cols)
        for r in 0 ..< rows {
            let base = (r / panelWidth) * cols * panelWidth + r % panelWidth
            for c in 0 ..< cols { out[base + c * panelWidth] = w[r * cols + c] }
        }
        return out
    }

    /// A bias vector zero-padded to `paddedRows(count)`.
    public static func padBias(_ b: [Float]) -> [Float] { b + [Float](repeating: 0, count: paddedRows(b.count) - b.count) }

    /// Y (n x ldy) = X (n x cols, row stride ldx) * W^T + bias, W packed by `pack` with `rows` rows
    /// (ldy >= paddedRows(rows); padded rows get 0 + padded bias). `bias` has paddedRows(rows) values.
    /// acc += x * w. The AVX2 build also has FMA (haswell): one fused multiply-add, half the
    /// instructions and one rounding. The baseline keeps multiply then add: SSE2 has no FMA, and
    /// addingProduct there would call fmaf once per lane. Every product kernel goes through this, so
    /// within one build batched and single-sequence outputs still match bit for bit.
    @inline(__always)
    static func multiplyAdd(_ acc: inout SIMD16<Float>, _ x: SIMD16<Float>, _ w: SIMD16<Float>) {
        #if QUIRE_AVX2
        acc = acc.addingProduct(x, w)
        #else
        acc += x * w
        #endif
    }

    public static func project(_ x: UnsafePointer<Float>, n: Int, ldx: Int, panels w: UnsafePointer<Float>,
                               bias: UnsafePointer<Float>, rows: Int, cols: Int,
                               into y: UnsafeMutablePointer<Float>, ldy: Int) {
        let rw = UnsafeRawPointer(w), rb = UnsafeRawPointer(bias), ry = UnsafeMutableRawPointer(y)
        let padded = paddedRows(rows)
        var t = 0
        #if QUIRE_AVX2
        // 4 time steps share each weight load: 4 SIMD16 accumulators fill half of the 16 AVX registers.
        while t + 4 <= n {
            let x0 = x + t * ldx, x1 = x0 + ldx, x2 = x1 + ldx, x3 = x2 + ldx
            var r = 0
            while r < padded {
                let b = rb.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
                var a0 = b, a1 = b, a2 = b, a3 = b
                var p = r * cols * 4
                for j in 0 ..< cols {
                    let wv = rw.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self)
                    multiplyAdd(&a0, SIMD16(repeating: x0[j]), wv)
                    multiplyAdd(&a1, SIMD16(repeating: x1[j]), wv)
                    multiplyAdd(&a2, SIMD16(repeating: x2[j]), wv)
                    multiplyAdd(&a3, SIMD16(repeating: x3[j]), wv)
                    p += 64
                }
                ry.storeBytes(of: a0, toByteOffset: (t * ldy + r) * 4, as: SIMD16<Float>.self)
                ry.storeBytes(of: a1, toByteOffset: ((t + 1) * ldy + r) * 4, as: SIMD16<Float>.self)
                ry.storeBytes(of: a2, toByteOffset: ((t + 2) * ldy + r) * 4, as: SIMD16<Float>.self)
                ry.storeBytes(of: a3, toByteOffset: ((t + 3) * ldy + r) * 4, as: SIMD16<Float>.self)
                r += 16
            }
            t += 4
        }
        #endif
        // SSE has 16 four-wide registers: two time steps (8 registers of accumulators) is the most that
        // does not spill.
        while t + 2 <= n {
            let x0 = x + t * ldx, x1 = x0 + ldx
            var r = 0
            while r < padded {
                let b = rb.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
                var a0 = b, a1 = b
                var p = r * cols * 4
                for j in 0 ..< cols {
                    let wv = rw.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self)
                    multiplyAdd(&a0, SIMD16(repeating: x0[j]), wv)
                    multiplyAdd(&a1, SIMD16(repeating: x1[j]), wv)
                    p += 64
                }
                ry.storeBytes(of: a0, toByteOffset: (t * ldy + r) * 4, as: SIMD16<Float>.self)
                ry.storeBytes(of: a1, toByteOffset: ((t + 1) * ldy + r) * 4, as: SIMD16<Float>.self)
                r += 16
            }
            t += 2
        }
        while t < n {
            let x0 = x + t * ldx
            var r = 0
            while r < padded {
                var a0 = rb.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
                var p = r * cols * 4
                for j in 0 ..< cols {
                    multiplyAdd(&a0, SIMD16(repeating: x0[j]), rw.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self))
                    p += 64
                }
                ry.storeBytes(of: a0, toByteOffset: (t * ldy + r) * 4, as: SIMD16<Float>.self)
                r += 16
            }
            t += 1
        }
    }

    /// y = g + W h for one recurrent step (W packed, `rows` padded to panels, `cols` = hidden size).
    @inline(__always)
    static func recurrent(_ w: UnsafeRawPointer, _ h: UnsafePointer<Float>, _ g: UnsafeRawPointer,
                          rows padded: Int, cols: Int, into y: UnsafeMutableRawPointer) {
        let s = cols * 64  // bytes between panels
        var r = 0
        // Several panels at once: independent accumulator chains hide the multiply-add latency.
        #if QUIRE_AVX2
        while r + 64 <= padded {
            var a0 = g.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var a1 = g.loadUnaligned(fromByteOffset: (r + 16) * 4, as: SIMD16<Float>.self)
            var a2 = g.loadUnaligned(fromByteOffset: (r + 32) * 4, as: SIMD16<Float>.self)
            var a3 = g.loadUnaligned(fromByteOffset: (r + 48) * 4, as: SIMD16<Float>.self)
            var p = r * cols * 4
            for j in 0 ..< cols {
                let hv = SIMD16<Float>(repeating: h[j])
                multiplyAdd(&a0, hv, w.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self))
                multiplyAdd(&a1, hv, w.loadUnaligned(fromByteOffset: p + s, as: SIMD16<Float>.self))
                multiplyAdd(&a2, hv, w.loadUnaligned(fromByteOffset: p + 2 * s, as: SIMD16<Float>.self))
                multiplyAdd(&a3, hv, w.loadUnaligned(fromByteOffset: p + 3 * s, as: SIMD16<Float>.self))
                p += 64
            }
            y.storeBytes(of: a0, toByteOffset: r * 4, as: SIMD16<Float>.self)
            y.storeBytes(of: a1, toByteOffset: (r + 16) * 4, as: SIMD16<Float>.self)
            y.storeBytes(of: a2, toByteOffset: (r + 32) * 4, as: SIMD16<Float>.self)
            y.storeBytes(of: a3, toByteOffset: (r + 48) * 4, as: SIMD16<Float>.self)
            r += 64
        }
        #endif
        while r + 32 <= padded {
            var a0 = g.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var a1 = g.loadUnaligned(fromByteOffset: (r + 16) * 4, as: SIMD16<Float>.self)
            var p = r * cols * 4
            for j in 0 ..< cols {
                let hv = SIMD16<Float>(repeating: h[j])
                multiplyAdd(&a0, hv, w.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self))
                multiplyAdd(&a1, hv, w.loadUnaligned(fromByteOffset: p + s, as: SIMD16<Float>.self))
                p += 64
            }
            y.storeBytes(of: a0, toByteOffset: r * 4, as: SIMD16<Float>.self)
            y.storeBytes(of: a1, toByteOffset: (r + 16) * 4, as: SIMD16<Float>.self)
            r += 32
        }
        while r < padded {
            var a0 = g.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var p = r * cols * 4
            for j in 0 ..< cols {
                multiplyAdd(&a0, SIMD16<Float>(repeating: h[j]), w.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self))
                p += 64
            }
            y.storeBytes(of: a0, toByteOffset: r * 4, as: SIMD16<Float>.self)
            r += 16
        }
    }

    /// y_i = g_i + W h_i for one recurrent step of several sequences at once (4 with AVX2, else 2):
    /// each weight vector is loaded once for all of them. A recurrent product of one sequence streams the
    /// whole of W (200 KB for 112 hidden units, beyond L1) per step to do one multiply-add per load;
    /// here one load feeds 4 (or 2). Each y_i gets the same operations in the same order as `recurrent`
    /// would give it alone, so batching does not change a single bit of the output.
    @inline(__always)
    static func recurrentGroup(_ w: UnsafeRawPointer, _ h: UnsafePointer<Float>, ldh: Int,
                               _ g: UnsafePointer<UnsafePointer<Float>>, rows padded: Int, cols: Int,
                               into y: UnsafeMutablePointer<Float>, ldy: Int) {
        let ry = UnsafeMutableRawPointer(y)
        #if QUIRE_AVX2
        // 4 SIMD16 accumulators: 8 of the 16 AVX registers, 8 independent chains of multiply-adds.
        let h0 = h, h1 = h + ldh, h2 = h1 + ldh, h3 = h2 + ldh
        let g0 = UnsafeRawPointer(g[0]), g1 = UnsafeRawPointer(g[1]), g2 = UnsafeRawPointer(g[2]), g3 = UnsafeRawPointer(g[3])
        var r = 0
        while r < padded {
            var a0 = g0.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var a1 = g1.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var a2 = g2.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var a3 = g3.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var p = r * cols * 4
            for j in 0 ..< cols {
                let wv = w.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self)
                multiplyAdd(&a0, SIMD16<Float>(repeating: h0[j]), wv)
                multiplyAdd(&a1, SIMD16<Float>(repeating: h1[j]), wv)
                multiplyAdd(&a2, SIMD16<Float>(repeating: h2[j]), wv)
                multiplyAdd(&a3, SIMD16<Float>(repeating: h3[j]), wv)
                p += 64
            }
            ry.storeBytes(of: a0, toByteOffset: r * 4, as: SIMD16<Float>.self)
            ry.storeBytes(of: a1, toByteOffset: (ldy + r) * 4, as: SIMD16<Float>.self)
            ry.storeBytes(of: a2, toByteOffset: (2 * ldy + r) * 4, as: SIMD16<Float>.self)
            ry.storeBytes(of: a3, toByteOffset: (3 * ldy + r) * 4, as: SIMD16<Float>.self)
            r += 16
        }
        #else
        // SSE: 2 SIMD16 accumulators are 8 of the 16 registers.
        let h0 = h, h1 = h + ldh
        let g0 = UnsafeRawPointer(g[0]), g1 = UnsafeRawPointer(g[1])
        var r = 0
        while r < padded {
            var a0 = g0.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var a1 = g1.loadUnaligned(fromByteOffset: r * 4, as: SIMD16<Float>.self)
            var p = r * cols * 4
            for j in 0 ..< cols {
                let wv = w.loadUnaligned(fromByteOffset: p, as: SIMD16<Float>.self)
                multiplyAdd(&a0, SIMD16<Float>(repeating: h0[j]), wv)
                multiplyAdd(&a1, SIMD16<Float>(repeating: h1[j]), wv)
                p += 64
            }
            ry.storeBytes(of: a0, toByteOffset: r * 4, as: SIMD16<Float>.self)
            ry.storeBytes(of: a1, toByteOffset: (ldy + r) * 4, as: SIMD16<Float>.self)
            r += 16
        }
        #endif
    }

    /// Sequences `recurrentGroup` serves at once in this build.
    #if QUIRE_AVX2
    public static let recurrentGroupSize = 4
    #else
    public static let recurrentGroupSize = 2
    #endif

    /// Scratch floats `lstm` needs for a hidden size.
    public static func lstmScratchCount(hidden: Int) -> Int { lstmScratchCount(hidden: hidden, sequences: 1) }

    /// Scratch floats `lstm(sequences...)` needs for a hidden size and a number of sequences.
    public static func lstmScratchCount(hidden: Int, sequences: Int) -> Int {
        max(1, sequences) * (paddedRows(4 * hidden) + 2 * paddedRows(hidden)) + 32
    }

    /// One LSTM direction over n steps (PyTorch gate order i, f, g, o). `gates` holds the input
    /// projections plus biases (n rows of stride `ldg` >= paddedRows(4 hidden), padded entries 0);
    /// `whh` the packed recurrent weights (4 hidden rows, hidden cols). Writes h of step t to
    /// `output + t * ldo` (hidden values). `reverse` runs from the last step to the first.
    public static func lstm(gates: UnsafePointer<Float>, ldg: Int, steps n: Int, hidden: Int,
                            whh: UnsafePointer<Float>, reverse: Bool,
                            output: UnsafeMutablePointer<Float>, ldo: Int, scratch: UnsafeMutablePointer<Float>) {
        var start = 0, length = n
        lstm(gates: gates, ldg: ldg, starts: &start, lengths: &length, sequences: 1, hidden: hidden, whh: whh,
             reverse: reverse, output: output, ldo: ldo, scratch: scratch)
    }

    /// `lstm` over several independent sequences at once: sequence i's gate rows (and output rows) are
    /// rows starts[i] ..< starts[i] + lengths[i] of `gates` (and `output`). Lengths must not grow with i
    /// (longest first), so the sequences still running at a step are always a prefix, and their
    /// recurrent products go through `recurrentGroup` together. Each sequence's output is exactly what
    /// `lstm` gives it alone. `scratch` holds `lstmScratchCount(hidden:sequences:)` floats.
    public static func lstm(gates: UnsafePointer<Float>, ldg: Int, starts: UnsafePointer<Int>, lengths: UnsafePointer<Int>,
                            sequences count: Int, hidden: Int, whh: UnsafePointer<Float>, reverse: Bool,
                            output: UnsafeMutablePointer<Float>, ldo: Int, scratch: UnsafeMutablePointer<Float>) {
        guard count > 0 else { return }
        for i in 1 ..< max(1, count) { precondition(lengths[i] <= lengths[i - 1], "lstm: sequences must come longest first") }
        let padded4 = paddedRows(4 * hidden), paddedH = paddedRows(hidden)
        let rec = scratch, hStates = scratch + count * padded4, cStates = hStates + count * paddedH
        hStates.initialize(repeating: 0, count: 2 * count * paddedH)
        let rw = UnsafeRawPointer(whh)
        let rows = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: count)
        defer { rows.deallocate() }
        let group = recurrentGroupSize
        var active = count
        for step in 0 ..< lengths[0] {
            while active > 0 && lengths[active - 1] <= step { active -= 1 }
            for i in 0 ..< active {
                let t = reverse ? lengths[i] - 1 - step : step
                rows[i] = gates + (starts[i] + t) * ldg
            }
            var i = 0
            while i + group <= active {
                recurrentGroup(rw, hStates + i * paddedH, ldh: paddedH, rows + i, rows: padded4, cols: hidden,
                               into: rec + i * padded4, ldy: padded4)
                i += group
            }
            while i < active {
                recurrent(rw, hStates + i * paddedH, UnsafeRawPointer(rows[i]), rows: padded4, cols: hidden,
                          into: UnsafeMutableRawPointer(rec + i * padded4))
                i += 1
            }
            for i in 0 ..< active {
                let hState = hStates + i * paddedH
                cell(UnsafeRawPointer(rec + i * padded4), hidden: hidden, h: UnsafeMutableRawPointer(hState),
                     c: UnsafeMutableRawPointer(cStates + i * paddedH))
                let t = reverse ? lengths[i] - 1 - step : step
                (output + (starts[i] + t) * ldo).update(from: hState, count: hidden)
            }
        }
    }

    /// The gates of one step: c = f c + i g, h = o tanh(c), 16 units at a time. Past `hidden`, a
    /// vector reads the next gate's (or the padding's) values: finite garbage that only lands in the
    /// padding of h and c, which no product reads.
    @inline(__always)
    static func cell(_ rr: UnsafeRawPointer, hidden: Int, h hr: UnsafeMutableRawPointer, c cr: UnsafeMutableRawPointer) {
        var u = 0
        while u < hidden {
            let ig = sigmoid(rr.loadUnaligned(fromByteOffset: u * 4, as: SIMD16<Float>.self))
            let fg = sigmoid(rr.loadUnaligned(fromByteOffset: (hidden + u) * 4, as: SIMD16<Float>.self))
            let gg = tanh(rr.loadUnaligned(fromByteOffset: (2 * hidden + u) * 4, as: SIMD16<Float>.self))
            let og = sigmoid(rr.loadUnaligned(fromByteOffset: (3 * hidden + u) * 4, as: SIMD16<Float>.self))
            let cv = fg * cr.loadUnaligned(fromByteOffset: u * 4, as: SIMD16<Float>.self) + ig * gg
            cr.storeBytes(of: cv, toByteOffset: u * 4, as: SIMD16<Float>.self)
            hr.storeBytes(of: og * tanh(cv), toByteOffset: u * 4, as: SIMD16<Float>.self)
            u += 16
        }
    }

    /// Row-wise log-softmax of y (n rows of stride ldy, `classes` values each), copied into out (n x classes).
    public static func logSoftmax(_ y: UnsafePointer<Float>, n: Int, ldy: Int, classes: Int, into out: UnsafeMutablePointer<Float>) {
        for t in 0 ..< n {
            let row = y + t * ldy, o = out + t * classes
            var mx = -Float.infinity
            for i in 0 ..< classes { mx = max(mx, row[i]) }
            var sum: Float = 0
            var i = 0
            let rr = UnsafeRawPointer(row)
            while i + 16 <= classes {
                sum += exp(rr.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self) - SIMD16(repeating: mx)).sum()
                i += 16
            }
            while i < classes {
                sum += exp(SIMD16(repeating: row[i] - mx))[0]
                i += 1
            }
            let lse = mx + logf(sum)
            for i in 0 ..< classes { o[i] = row[i] - lse }
        }
    }

    /// e^x, 16 lanes (Cephes expf: x = n ln2 + r, |r| <= ln2 / 2, a degree-6 polynomial for e^r, then
    /// 2^n through the exponent bits). Relative error about 2e-7 over the clamped range [-87, 88], where
    /// 2^n stays a normal float.
    @inline(__always)
    public static func exp(_ v: SIMD16<Float>) -> SIMD16<Float> {
        // Clamp with compare-and-select, not pointwiseMin/pointwiseMax: those are generic per-lane loops
        // that LLVM vectorizes only where it has blendvps (SSE4.1 and up); on baseline SSE2 they became a
        // scalar loop through the stack, 16 lanes one at a time, and made this build ~4x slower than AVX2.
        // Comparisons and `replacing` lower to cmpps + and/andn/or on SSE2. Same values for finite input.
        let hi = SIMD16<Float>(repeating: 88), lo = SIMD16<Float>(repeating: -87)
        let upper = v.replacing(with: hi, where: v .> hi)
        let x = upper.replacing(with: lo, where: upper .< lo)
        // Round x log2(e) to the nearest integer by adding 1.5 * 2^23: the sum's low mantissa bits are
        // then n itself (stdlib's vector float -> int conversion is a slow generic loop).
        let shifted = x * 1.442_695_04 + 12_582_912
        let n = shifted - 12_582_912
        let r = x - n * 0.693_359_375 + n * 2.121_944_4e-4
        var p = SIMD16<Float>(repeating: 1.987_569_15e-4)
        p = p * r + 1.398_199_95e-3
        p = p * r + 8.333_451_9e-3
        p = p * r + 4.166_579_59e-2
        p = p * r + 1.666_666_55e-1
        p = p * r + 5.000_000_1e-1
        p = p * (r * r) + r + 1
        let bits = (unsafeBitCast(shifted, to: SIMD16<Int32>.self) &- 0x4B40_0000 &+ 127) &<< 23
        return p * unsafeBitCast(bits, to: SIMD16<Float>.self)
    }

    @inline(__always)
    public static func sigmoid(_ x: SIMD16<Float>) -> SIMD16<Float> { 1 / (1 + exp(-x)) }

    /// tanh x = 2 sigmoid(2x) - 1 (absolute error ~1e-7, which is what the network needs).
    @inline(__always)
    public static func tanh(_ x: SIMD16<Float>) -> SIMD16<Float> { 2 / (1 + exp(-2 * x)) - 1 }
}
