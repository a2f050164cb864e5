import Foundation

/// A linear layer (Y = X W^T + b) run by the recognizer's kernels (`LSTMKernels.project`, AVX2
/// where the CPU has it), for networks outside this module: the math glyph network runs its
/// convolutions as such products over image patches. Immutable and safe to share between threads.
public struct PackedLinear: Sendable {
    public let rows: Int
    public let cols: Int
    let panels: [Float]
    let bias: [Float]

    /// `weight` is rows x cols, row major; `bias` has `rows` values.
    public init(weight: [Float], bias: [Float], rows: Int, cols: Int) {
        precondition(weight.count == rows * cols && bias.count == rows, "PackedLinear: shapes do not match")
        self.rows = rows
        self.cols = cols
        panels = LSTMKernels.pack(weight, rows: rows, cols: cols)
        self.bias = LSTMKernels.padBias(bias)
    }

    /// Row stride of the output: `rows` padded to the kernels' panel width (extra columns hold 0).
    public var outputStride: Int { LSTMKernels.paddedRows(rows) }

    /// Y (n x outputStride) for X (n x cols, row major).
    public func apply(_ x: UnsafePointer<Float>, n: Int, into y: UnsafeMutablePointer<Float>) {
        panels.withUnsafeBufferPointer { w in
            bias.withUnsafeBufferPointer { b in
                LSTMKernels.project(x, n: n, ldx: cols, panels: w.baseAddress!, bias: b.baseAddress!, rows: rows, cols: cols,
                                    into: y, ldy: outputStride, kernels: RecognitionKernels.current)
            }
        }
    }
}
