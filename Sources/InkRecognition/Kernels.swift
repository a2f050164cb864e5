import CInkKernels
import Foundation

/// Which build of the network's kernels runs: the baseline x86-64 one, or the AVX2 + FMA one when the
/// CPU has those units (Linux: the flags of /proc/cpuinfo). `QUIRE_RECOGNITION_KERNELS=baseline`
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

    /// The AVX2 kernels are compiled for Haswell, which may use AVX, AVX2, FMA, BMI1/2, F16C, MOVBE,
    /// LZCNT and POPCNT.
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

/// The network's inner loops (C, `Sources/CInkKernels`: one source built for baseline x86-64 and,
/// by a function attribute, for AVX2 + FMA) and the weight layout they read.
///
/// Weights are packed once, at model load, in panels of 16 rows: panel p holds rows 16p ..< 16p+16
/// of W (rows x cols) as cols consecutive groups of 16 floats (column j of the panel at offset 16 j).
/// The kernels stream each panel front to back and broadcast one input value per vector
/// multiply-add, so no horizontal sums are needed and every load is contiguous. Rows are padded with
/// zero weights to a multiple of 16; outputs use a row stride of the padded count.
enum LSTMKernels {
    static let panelWidth = 16

    /// Rows padded to a whole number of panels.
    static func paddedRows(_ rows: Int) -> Int { (rows + panelWidth - 1) / panelWidth * panelWidth }

    /// Packs W (rows x cols, row major) into zero-padded panels.
    static func pack(_ w: [Float], rows: Int, cols: Int) -> [Float] {
        precondition(w.count == rows * cols, "pack: w.count must equal rows * cols")
        var out = [Float](repeating: 0, count: paddedRows(rows) * cols)
        for r in 0 ..< rows {
            let base = (r / panelWidth) * cols * panelWidth + r % panelWidth
            for c in 0 ..< cols { out[base + c * panelWidth] = w[r * cols + c] }
        }
        return out
    }

    /// A bias vector zero-padded to `paddedRows(count)`.
    static func padBias(_ b: [Float]) -> [Float] { b + [Float](repeating: 0, count: paddedRows(b.count) - b.count) }

    /// Scratch floats `lstm` needs for a hidden size and a number of sequences.
    static func lstmScratchCount(hidden: Int, sequences: Int) -> Int {
        max(1, sequences) * (paddedRows(4 * hidden) + 2 * paddedRows(hidden)) + 32
    }

    /// Y (n x ldy) = X (n x cols, row stride ldx) W^T + bias, W packed by `pack` with `rows` rows
    /// (ldy >= paddedRows(rows); padded rows get 0 + padded bias). `bias` has paddedRows(rows) values.
    static func project(_ x: UnsafePointer<Float>, n: Int, ldx: Int, panels w: UnsafePointer<Float>,
                        bias: UnsafePointer<Float>, rows: Int, cols: Int, into y: UnsafeMutablePointer<Float>,
                        ldy: Int, kernels: RecognitionKernels) {
        switch kernels {
        case .baseline: quire_kernels_project_baseline(x, n, ldx, w, bias, rows, cols, y, ldy)
        case .avx2: quire_kernels_project_avx2(x, n, ldx, w, bias, rows, cols, y, ldy)
        }
    }

    /// One LSTM direction (PyTorch gate order i, f, g, o) over several independent sequences at once:
    /// sequence i's gate rows (input projections plus biases, stride `ldg` >= paddedRows(4 hidden))
    /// and output rows (h, stride `ldo`) are rows starts[i] ..< starts[i] + lengths[i]. Lengths must
    /// not grow with i (longest first), so the sequences still running at a step are a prefix and
    /// their recurrent products share each weight load. Each sequence's output is exactly what it
    /// gives alone. `whh` holds the packed recurrent weights (4 hidden rows, hidden cols); `reverse`
    /// runs from the last step to the first; `scratch` holds `lstmScratchCount(hidden:sequences:)` floats.
    static func lstm(gates: UnsafePointer<Float>, ldg: Int, starts: UnsafePointer<Int>, lengths: UnsafePointer<Int>,
                     sequences count: Int, hidden: Int, whh: UnsafePointer<Float>, reverse: Bool,
                     output: UnsafeMutablePointer<Float>, ldo: Int, scratch: UnsafeMutablePointer<Float>,
                     kernels: RecognitionKernels) {
        guard count > 0 else { return }
        for i in 1 ..< max(1, count) { precondition(lengths[i] <= lengths[i - 1], "lstm: sequences must come longest first") }
        switch kernels {
        case .baseline:
            quire_kernels_lstm_baseline(gates, ldg, starts, lengths, count, hidden, whh, reverse, output, ldo, scratch)
        case .avx2:
            quire_kernels_lstm_avx2(gates, ldg, starts, lengths, count, hidden, whh, reverse, output, ldo, scratch)
        }
    }

    /// Row-wise log-softmax of y (n rows of stride ldy, `classes` values each), copied into out (n x classes).
    static func logSoftmax(_ y: UnsafePointer<Float>, n: Int, ldy: Int, classes: Int, into out: UnsafeMutablePointer<Float>,
                           kernels: RecognitionKernels) {
        switch kernels {
        case .baseline: quire_kernels_log_softmax_baseline(y, n, ldy, classes, out)
        case .avx2: quire_kernels_log_softmax_avx2(y, n, ldy, classes, out)
        }
    }
}
