// The recognizer's inner loops (InkRecognition's `LSTMKernels` calls them). Pointers in, pointers
// out: nothing here allocates, keeps state or checks arguments (the Swift side does).
//
// Every kernel exists twice, from one body (KernelBody.h): `_baseline` for the x86-64 every amd64
// machine has (SSE2), and `_avx2`, compiled for Haswell (AVX2 + FMA) by a function attribute, so
// no per-target compiler flag is needed. Call an `_avx2` kernel only where the CPU has those units
// (InkRecognition checks /proc/cpuinfo); elsewhere it would die on an illegal instruction. On other
// architectures both names are the same portable code.
//
// Weights are packed in panels of 16 rows: panel p holds rows 16p ..< 16p+16 of W (rows x cols) as
// cols consecutive groups of 16 floats (column j of the panel at offset 16 j), rows zero-padded to a
// multiple of 16. Outputs use a row stride of at least the padded row count.

#ifndef QUIRE_C_INK_KERNELS_H
#define QUIRE_C_INK_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Y (n x ldy) = X (n x cols, row stride ldx) W^T + bias; W packed with `rows` rows, bias padded.
void quire_kernels_project_baseline(const float *x, ptrdiff_t n, ptrdiff_t ldx, const float *panels,
                                    const float *bias, ptrdiff_t rows, ptrdiff_t cols, float *y, ptrdiff_t ldy);
void quire_kernels_project_avx2(const float *x, ptrdiff_t n, ptrdiff_t ldx, const float *panels,
                                const float *bias, ptrdiff_t rows, ptrdiff_t cols, float *y, ptrdiff_t ldy);

/// One LSTM direction over `count` sequences (lengths non-increasing), PyTorch gate order i, f, g, o.
/// Sequence i reads gate rows and writes output rows starts[i] ..< starts[i] + lengths[i];
/// `scratch` holds count * (padded(4 hidden) + 2 padded(hidden)) floats.
void quire_kernels_lstm_baseline(const float *gates, ptrdiff_t ldg, const ptrdiff_t *starts,
                                 const ptrdiff_t *lengths, ptrdiff_t count, ptrdiff_t hidden,
                                 const float *whh, bool reverse, float *output, ptrdiff_t ldo, float *scratch);
void quire_kernels_lstm_avx2(const float *gates, ptrdiff_t ldg, const ptrdiff_t *starts,
                             const ptrdiff_t *lengths, ptrdiff_t count, ptrdiff_t hidden,
                             const float *whh, bool reverse, float *output, ptrdiff_t ldo, float *scratch);

/// Row-wise log-softmax of y (n rows of stride ldy, `classes` values each) into out (n x classes).
void quire_kernels_log_softmax_baseline(const float *y, ptrdiff_t n, ptrdiff_t ldy, ptrdiff_t classes, float *out);
void quire_kernels_log_softmax_avx2(const float *y, ptrdiff_t n, ptrdiff_t ldy, ptrdiff_t classes, float *out);

#ifdef __cplusplus
}
#endif

#endif
