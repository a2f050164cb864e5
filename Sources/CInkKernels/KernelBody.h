// The kernels' body, included twice by Kernels.c, which defines before each inclusion:
//   KERNEL_SUFFIX  the names' suffix (baseline, avx2)
//   KERNEL_TARGET  the function attribute that selects the instruction set (empty for baseline)
//   KERNEL_WIDE    1 where 16 vector registers of 8 floats allow 4 rows or sequences per weight load
//   KERNEL_MULADD  acc += x * w (fused or not)
// The loops stream each weight panel front to back and broadcast one input value per vector
// multiply-add: no horizontal sums, every load contiguous. Within one build every product, batched
// or not, goes through KERNEL_MULADD in the same order, so batched and single-sequence outputs match
// bit for bit.

#if KERNEL_WIDE
// 4 SIMD16 accumulators: 8 of the 16 AVX registers, 8 independent chains of multiply-adds.
#define KERNEL_GROUP 4
#else
// SSE: 2 SIMD16 accumulators are 8 of the 16 registers.
#define KERNEL_GROUP 2
#endif

KERNEL_TARGET void K(quire_kernels_project)(const float *x, ptrdiff_t n, ptrdiff_t ldx, const float *w,
                                            const float *bias, ptrdiff_t rows, ptrdiff_t cols, float *y,
                                            ptrdiff_t ldy) {
    const ptrdiff_t padded = quire_padded_rows(rows);
    ptrdiff_t t = 0;
#if KERNEL_WIDE
    // 4 time steps share each weight load.
    for (; t + 4 <= n; t += 4) {
        const float *x0 = x + t * ldx, *x1 = x0 + ldx, *x2 = x1 + ldx, *x3 = x2 + ldx;
        for (ptrdiff_t r = 0; r < padded; r += 16) {
            const qv16 b = QUIRE_LOAD(bias + r);
            qv16 a0 = b, a1 = b, a2 = b, a3 = b;
            const float *p = w + r * cols;
            for (ptrdiff_t j = 0; j < cols; j++, p += 16) {
                const qv16 wv = QUIRE_LOAD(p);
                KERNEL_MULADD(a0, QUIRE_SPLAT(x0[j]), wv);
                KERNEL_MULADD(a1, QUIRE_SPLAT(x1[j]), wv);
                KERNEL_MULADD(a2, QUIRE_SPLAT(x2[j]), wv);
                KERNEL_MULADD(a3, QUIRE_SPLAT(x3[j]), wv);
            }
            QUIRE_STORE(y + t * ldy + r, a0);
            QUIRE_STORE(y + (t + 1) * ldy + r, a1);
            QUIRE_STORE(y + (t + 2) * ldy + r, a2);
            QUIRE_STORE(y + (t + 3) * ldy + r, a3);
        }
    }
#endif
    // Two time steps (8 registers of accumulators) is the most SSE holds without spilling.
    for (; t + 2 <= n; t += 2) {
        const float *x0 = x + t * ldx, *x1 = x0 + ldx;
        for (ptrdiff_t r = 0; r < padded; r += 16) {
            const qv16 b = QUIRE_LOAD(bias + r);
            qv16 a0 = b, a1 = b;
            const float *p = w + r * cols;
            for (ptrdiff_t j = 0; j < cols; j++, p += 16) {
                const qv16 wv = QUIRE_LOAD(p);
                KERNEL_MULADD(a0, QUIRE_SPLAT(x0[j]), wv);
                KERNEL_MULADD(a1, QUIRE_SPLAT(x1[j]), wv);
            }
            QUIRE_STORE(y + t * ldy + r, a0);
            QUIRE_STORE(y + (t + 1) * ldy + r, a1);
        }
    }
    for (; t < n; t++) {
        const float *x0 = x + t * ldx;
        for (ptrdiff_t r = 0; r < padded; r += 16) {
            qv16 a0 = QUIRE_LOAD(bias + r);
            const float *p = w + r * cols;
            for (ptrdiff_t j = 0; j < cols; j++, p += 16) KERNEL_MULADD(a0, QUIRE_SPLAT(x0[j]), QUIRE_LOAD(p));
            QUIRE_STORE(y + t * ldy + r, a0);
        }
    }
}

/// y = g + W h for one recurrent step (W packed, `padded` rows, `cols` = hidden size).
KERNEL_TARGET static inline __attribute__((always_inline)) void
K(quire_recurrent)(const float *w, const float *h, const float *g, ptrdiff_t padded, ptrdiff_t cols, float *y) {
    const ptrdiff_t s = cols * 16;  // floats between panels
    ptrdiff_t r = 0;
    // Several panels at once: independent accumulator chains hide the multiply-add latency.
#if KERNEL_WIDE
    for (; r + 64 <= padded; r += 64) {
        qv16 a0 = QUIRE_LOAD(g + r), a1 = QUIRE_LOAD(g + r + 16), a2 = QUIRE_LOAD(g + r + 32), a3 = QUIRE_LOAD(g + r + 48);
        const float *p = w + r * cols;
        for (ptrdiff_t j = 0; j < cols; j++, p += 16) {
            const qv16 hv = QUIRE_SPLAT(h[j]);
            KERNEL_MULADD(a0, hv, QUIRE_LOAD(p));
            KERNEL_MULADD(a1, hv, QUIRE_LOAD(p + s));
            KERNEL_MULADD(a2, hv, QUIRE_LOAD(p + 2 * s));
            KERNEL_MULADD(a3, hv, QUIRE_LOAD(p + 3 * s));
        }
        QUIRE_STORE(y + r, a0);
        QUIRE_STORE(y + r + 16, a1);
        QUIRE_STORE(y + r + 32, a2);
        QUIRE_STORE(y + r + 48, a3);
    }
#endif
    for (; r + 32 <= padded; r += 32) {
        qv16 a0 = QUIRE_LOAD(g + r), a1 = QUIRE_LOAD(g + r + 16);
        const float *p = w + r * cols;
        for (ptrdiff_t j = 0; j < cols; j++, p += 16) {
            const qv16 hv = QUIRE_SPLAT(h[j]);
            KERNEL_MULADD(a0, hv, QUIRE_LOAD(p));
            KERNEL_MULADD(a1, hv, QUIRE_LOAD(p + s));
        }
        QUIRE_STORE(y + r, a0);
        QUIRE_STORE(y + r + 16, a1);
    }
    for (; r < padded; r += 16) {
        qv16 a0 = QUIRE_LOAD(g + r);
        const float *p = w + r * cols;
        for (ptrdiff_t j = 0; j < cols; j++, p += 16) KERNEL_MULADD(a0, QUIRE_SPLAT(h[j]), QUIRE_LOAD(p));
        QUIRE_STORE(y + r, a0);
    }
}

/// y_i = g_i + W h_i for KERNEL_GROUP sequences at once (h_i at stride ldh, y_i at stride ldy): each
/// weight vector is loaded once for all of them. One sequence alone streams the whole of W (200 KB for
/// 112 hidden units, beyond L1) per step for one multiply-add per load; here one load feeds 4 (or 2).
/// Each y_i gets the same operations in the same order as `recurrent` would give it alone.
KERNEL_TARGET static inline __attribute__((always_inline)) void
K(quire_recurrent_group)(const float *w, const float *h, ptrdiff_t ldh, const float *const *g, ptrdiff_t padded,
                         ptrdiff_t cols, float *y, ptrdiff_t ldy) {
    for (ptrdiff_t r = 0; r < padded; r += 16) {
        qv16 a0 = QUIRE_LOAD(g[0] + r), a1 = QUIRE_LOAD(g[1] + r);
#if KERNEL_WIDE
        qv16 a2 = QUIRE_LOAD(g[2] + r), a3 = QUIRE_LOAD(g[3] + r);
#endif
        const float *p = w + r * cols;
        for (ptrdiff_t j = 0; j < cols; j++, p += 16) {
            const qv16 wv = QUIRE_LOAD(p);
            KERNEL_MULADD(a0, QUIRE_SPLAT(h[j]), wv);
            KERNEL_MULADD(a1, QUIRE_SPLAT(h[ldh + j]), wv);
#if KERNEL_WIDE
            KERNEL_MULADD(a2, QUIRE_SPLAT(h[2 * ldh + j]), wv);
            KERNEL_MULADD(a3, QUIRE_SPLAT(h[3 * ldh + j]), wv);
#endif
        }
        QUIRE_STORE(y + r, a0);
        QUIRE_STORE(y + ldy + r, a1);
#if KERNEL_WIDE
        QUIRE_STORE(y + 2 * ldy + r, a2);
        QUIRE_STORE(y + 3 * ldy + r, a3);
#endif
    }
}

/// e^x, 16 lanes (Cephes expf: x = n ln2 + r, |r| <= ln2 / 2, a degree-6 polynomial for e^r, then
/// 2^n through the exponent bits). Relative error about 2e-7 over the clamped range [-87, 88], where
/// 2^n stays a normal float.
KERNEL_TARGET static inline __attribute__((always_inline)) qv16 K(quire_exp)(qv16 v) {
    // Clamp with compare-and-select (cmpps + and/andn/or even on SSE2; a min/max per lane is not
    // one instruction there without SSE4.1).
    const qv16 hi = QUIRE_SPLAT(88.0f), lo = QUIRE_SPLAT(-87.0f);
    const qu16 above = (qu16)(v > hi);
    const qv16 upper = (qv16)(((qu16)hi & above) | ((qu16)v & ~above));
    const qu16 below = (qu16)(upper < lo);
    const qv16 x = (qv16)(((qu16)lo & below) | ((qu16)upper & ~below));
    // Round x log2(e) to the nearest integer by adding 1.5 * 2^23: the sum's low mantissa bits are
    // then n itself.
    const qv16 shifted = x * 1.44269504f + 12582912.0f;
    const qv16 n = shifted - 12582912.0f;
    const qv16 r = x - n * 0.693359375f + n * 2.12194440e-4f;
    qv16 p = QUIRE_SPLAT(1.98756915e-4f);
    p = p * r + 1.39819995e-3f;
    p = p * r + 8.3334519e-3f;
    p = p * r + 4.16657959e-2f;
    p = p * r + 1.66666655e-1f;
    p = p * r + 5.0000001e-1f;
    p = p * (r * r) + r + 1.0f;
    const qu16 bits = ((qu16)shifted - 0x4B400000u + 127u) << 23;
    return p * (qv16)bits;
}

KERNEL_TARGET static inline __attribute__((always_inline)) qv16 K(quire_sigmoid)(qv16 x) {
    return 1.0f / (1.0f + K(quire_exp)(-x));
}

/// tanh x = 2 sigmoid(2x) - 1 (absolute error ~1e-7, which is what the network needs).
KERNEL_TARGET static inline __attribute__((always_inline)) qv16 K(quire_tanh)(qv16 x) {
    return 2.0f / (1.0f + K(quire_exp)(-2.0f * x)) - 1.0f;
}

/// The gates of one step: c = f c + i g, h = o tanh(c), 16 units at a time. Past `hidden`, a vector
/// reads the next gate's (or the padding's) values: finite garbage that only lands in the padding of
/// h and c, which no product reads.
KERNEL_TARGET static inline __attribute__((always_inline)) void
K(quire_cell)(const float *rec, ptrdiff_t hidden, float *h, float *c) {
    for (ptrdiff_t u = 0; u < hidden; u += 16) {
        const qv16 ig = K(quire_sigmoid)(QUIRE_LOAD(rec + u));
        const qv16 fg = K(quire_sigmoid)(QUIRE_LOAD(rec + hidden + u));
        const qv16 gg = K(quire_tanh)(QUIRE_LOAD(rec + 2 * hidden + u));
        const qv16 og = K(quire_sigmoid)(QUIRE_LOAD(rec + 3 * hidden + u));
        const qv16 cv = fg * QUIRE_LOAD(c + u) + ig * gg;
        QUIRE_STORE(c + u, cv);
        QUIRE_STORE(h + u, og * K(quire_tanh)(cv));
    }
}

KERNEL_TARGET void K(quire_kernels_lstm)(const float *gates, ptrdiff_t ldg, const ptrdiff_t *starts,
                                         const ptrdiff_t *lengths, ptrdiff_t count, ptrdiff_t hidden,
                                         const float *whh, bool reverse, float *output, ptrdiff_t ldo,
                                         float *scratch) {
    if (count <= 0) return;
    const ptrdiff_t padded4 = quire_padded_rows(4 * hidden), paddedH = quire_padded_rows(hidden);
    float *rec = scratch, *hStates = scratch + count * padded4, *cStates = hStates + count * paddedH;
    memset(hStates, 0, (size_t)(2 * count * paddedH) * sizeof(float));
    ptrdiff_t active = count;
    // The sequences still running at a step are a prefix (lengths do not grow), so their recurrent
    // products go through recurrent_group together.
    for (ptrdiff_t step = 0; step < lengths[0]; step++) {
        while (active > 0 && lengths[active - 1] <= step) active--;
        ptrdiff_t i = 0;
        for (; i + KERNEL_GROUP <= active; i += KERNEL_GROUP) {
            const float *g[KERNEL_GROUP];
            for (ptrdiff_t k = 0; k < KERNEL_GROUP; k++) {
                const ptrdiff_t t = reverse ? lengths[i + k] - 1 - step : step;
                g[k] = gates + (starts[i + k] + t) * ldg;
            }
            K(quire_recurrent_group)(whh, hStates + i * paddedH, paddedH, g, padded4, hidden, rec + i * padded4, padded4);
        }
        for (; i < active; i++) {
            const ptrdiff_t t = reverse ? lengths[i] - 1 - step : step;
            K(quire_recurrent)(whh, hStates + i * paddedH, gates + (starts[i] + t) * ldg, padded4, hidden,
                               rec + i * padded4);
        }
        for (i = 0; i < active; i++) {
            float *h = hStates + i * paddedH;
            K(quire_cell)(rec + i * padded4, hidden, h, cStates + i * paddedH);
            const ptrdiff_t t = reverse ? lengths[i] - 1 - step : step;
            memcpy(output + (starts[i] + t) * ldo, h, (size_t)hidden * sizeof(float));
        }
    }
}

KERNEL_TARGET void K(quire_kernels_log_softmax)(const float *y, ptrdiff_t n, ptrdiff_t ldy, ptrdiff_t classes,
                                                float *out) {
    for (ptrdiff_t t = 0; t < n; t++) {
        const float *row = y + t * ldy;
        float *o = out + t * classes;
        float mx = -INFINITY;
        for (ptrdiff_t i = 0; i < classes; i++) mx = row[i] >= mx ? row[i] : mx;
        float sum = 0;
        ptrdiff_t i = 0;
        for (; i + 16 <= classes; i += 16) {
            const qv16 e = K(quire_exp)(QUIRE_LOAD(row + i) - QUIRE_SPLAT(mx));
            // Lane by lane, from -0 (the order Swift's SIMD sum() used).
            float s = -0.0f;
            for (int k = 0; k < 16; k++) s += e[k];
            sum += s;
        }
        for (; i < classes; i++) sum += K(quire_exp)(QUIRE_SPLAT(row[i] - mx))[0];
        const float lse = mx + logf(sum);
        for (ptrdiff_t k = 0; k < classes; k++) o[k] = row[k] - lse;
    }
}

#undef KERNEL_GROUP
