// Builds the kernels of KernelBody.h twice: for baseline x86-64 and for Haswell (AVX2 + FMA).
//
// Why C: InkRecognition picks a build at run time from the CPU, so the AVX2 code must be compiled
// for AVX2 inside a binary built for baseline x86-64. Swift has no per-function target attribute;
// the only way there is a per-target `-target-cpu` flag, an unsafeFlag, which SwiftPM refuses in a
// package that others depend on by version. C has `__attribute__((target))`, and clang's vector
// extensions give the same 16-lane code the Swift kernels had (SIMD16<Float>).

#include "CInkKernels.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

// No contraction of a * b + c into fused multiply-adds: the products use FMA explicitly in the AVX2
// build and nowhere else (the Swift kernels' numerics, which the parity and batch tests pin down).
#pragma STDC FP_CONTRACT OFF
// The helpers that take and return 16-float vectors are always inlined, so no call ever passes one
// by value and the calling convention the warning is about never applies.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float qv16 __attribute__((vector_size(64)));
// Unaligned, aliasing access to 16 floats (Swift's loadUnaligned/storeBytes).
typedef float qv16u __attribute__((vector_size(64), aligned(4), may_alias));
typedef uint32_t qu16 __attribute__((vector_size(64)));

#define QUIRE_LOAD(p) (*(const qv16u *)(const void *)(p))
#define QUIRE_STORE(p, v) (*(qv16u *)(void *)(p) = (v))
#define QUIRE_SPLAT(s) ((qv16){(s), (s), (s), (s), (s), (s), (s), (s), (s), (s), (s), (s), (s), (s), (s), (s)})
#define QUIRE_CAT2(a, b) a##_##b
#define QUIRE_CAT(a, b) QUIRE_CAT2(a, b)
#define K(name) QUIRE_CAT(name, KERNEL_SUFFIX)

static inline ptrdiff_t quire_padded_rows(ptrdiff_t rows) { return (rows + 15) / 16 * 16; }

// Baseline: multiply then add (SSE2 has no FMA; a fused multiply-add there would call fmaf per lane).
#define KERNEL_SUFFIX baseline
#define KERNEL_TARGET
#define KERNEL_WIDE 0
#define KERNEL_MULADD(acc, x, w) ((acc) = (acc) + (x) * (w))
#include "KernelBody.h"
#undef KERNEL_SUFFIX
#undef KERNEL_TARGET
#undef KERNEL_WIDE
#undef KERNEL_MULADD

#if defined(__x86_64__) || defined(__i386__)
// What `-target-cpu haswell` gave the Swift kernels (the CPU check in InkRecognition asks for exactly
// Haswell's features). One fused multiply-add per product step: half the instructions, one rounding.
#define KERNEL_SUFFIX avx2
#define KERNEL_TARGET __attribute__((target("arch=haswell")))
#define KERNEL_WIDE 1
#define KERNEL_MULADD(acc, x, w) ((acc) = __builtin_elementwise_fma((x), (w), (acc)))
#include "KernelBody.h"
#else
// No AVX2 elsewhere: the name exists (InkRecognition links it) but is the portable code.
#define KERNEL_SUFFIX avx2
#define KERNEL_TARGET
#define KERNEL_WIDE 0
#define KERNEL_MULADD(acc, x, w) ((acc) = (acc) + (x) * (w))
#include "KernelBody.h"
#endif
