/*
 * ARGMIN's and ARGMAX's fast path (argminmax.h; the rules and the oracle are
 * argminmax.c), bit-identical to the oracle and tested against it on random cases.
 *
 * The reduced axes (increasing) must merge into one strided run: each nonsingular
 * reduced dim adjacent to the next one (stride = next stride * next size), so that
 * candidate j sits at j * rs bytes from the run's start; else the oracle runs.  The
 * kept dims are one loop nest (output and input strides, collapsed).
 *
 *   argminmax.rows_x4     the run contiguous, FLOAT32 / INT32 / UINT32: per output
 *                         element, two passes over its row (it stays in cache): the
 *                         largest 32-bit key (4 lanes a step), then its first
 *                         (INCREASING) or last (DECREASING) position (cmpeq, movemask)
 *   argminmax.rows_x2     the same for FLOAT16 / INT16 / UINT16 (16-bit keys, 8 lanes)
 *   argminmax.rows        any other type or a strided run: scalar_order_key per element
 *   argminmax.columns_x4  the run strided (the reduced axis outer) and the innermost kept
 *                         dim contiguous in the input, FLOAT32 / INT32 / UINT32: a chunk of
 *                         ARGMINMAX_CW columns at a time, the running best key and index per
 *                         column updated row by row (4 lanes a step: cmpgt, blend), one pass
 *   argminmax.columns     the same for every other type, scalar_order_key per element
 *
 * Keys: a signed 32-bit (16-bit) key whose order is ARGMAX's order of the values
 * (floats: sign-magnitude made two's complement, so -0 and +0 are both 0; integers
 * their value, unsigned ones offset), bit-inverted for ARGMIN (the largest key is then
 * the smallest value), and every NaN the largest key of all, INT32_MAX (INT16_MAX): a
 * NaN wins in both operators.  The strict or non-strict comparison of INCREASING or
 * DECREASING is the oracle's.  Threads take contiguous ranges of output elements (rows)
 * or of (outer point, column chunk) units.
 */
#include "argminmax.h"
#include "core/scalar.h"
#include "ops/kernels.h"

#include "simd/simd.h"

#include <string.h>

#define ARGMINMAX_CW 512u /* columns per unit of the columns kernels */

enum { K_FLOAT, K_SIGNED, K_UNSIGNED };
enum { M_ROWS_X4, M_ROWS_X2, M_ROWS, M_COLS_X4, M_COLS };

typedef struct am_plan {
    nest_t kept;        /* rows: the kept dims; columns: the kept dims but the innermost */
    uint64_t count, rs; /* reduced elements, their byte stride                          */
    uint64_t inner, ost, chunks, units;
    uint32_t mode, es, oes, dt, kind, nth;
    uint32_t flip, last, nan_low;
    argminmax_params prm;
} am_plan;

typedef struct am_ctx {
    const am_plan *p;
    const exec_args *x;
} am_ctx;

/* ---- keys --------------------------------------------------------------------- */

static inline int32_t key32(uint32_t x, uint32_t kind, uint32_t flip) {
    if (kind == K_FLOAT) {
        const uint32_t a = x & 0x7FFFFFFFu, s = 0u - (x >> 31);
        if (a > 0x7F800000u) return INT32_MAX;
        return (int32_t)(((a ^ s) - s) ^ flip);
    }
    if (kind == K_UNSIGNED) x ^= 0x80000000u;
    return (int32_t)(x ^ flip);
}

static inline int16_t key16(uint16_t x, uint32_t kind, uint32_t flip) {
    if (kind == K_FLOAT) {
        const uint32_t a = x & 0x7FFFu, s = 0u - (uint32_t)(x >> 15);
        if (a > 0x7C00u) return INT16_MAX;
        return (int16_t)(uint16_t)(((a ^ s) - s) ^ flip);
    }
    if (kind == K_UNSIGNED) x ^= 0x8000u;
    return (int16_t)(uint16_t)(x ^ flip);
}

static inline uint32_t load32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline uint16_t load16(const unsigned char *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

#if DMLREF_SIMD
#define LD(p) simde_mm_loadu_si128((const simde__m128i *)(const void *)(p))
#define BLEND(m, a, b) simde_mm_or_si128(simde_mm_and_si128((m), (a)), simde_mm_andnot_si128((m), (b)))

static inline simde__m128i vkey32(simde__m128i x, uint32_t kind, simde__m128i flip) {
    if (kind == K_FLOAT) {
        const simde__m128i a = simde_mm_and_si128(x, simde_mm_set1_epi32(0x7FFFFFFF));
        const simde__m128i s = simde_mm_srai_epi32(x, 31);
        const simde__m128i k = simde_mm_xor_si128(simde_mm_sub_epi32(simde_mm_xor_si128(a, s), s), flip);
        const simde__m128i nan = simde_mm_cmpgt_epi32(a, simde_mm_set1_epi32(0x7F800000));
        return BLEND(nan, simde_mm_set1_epi32(INT32_MAX), k);
    }
    if (kind == K_UNSIGNED) x = simde_mm_xor_si128(x, simde_mm_set1_epi32(INT32_MIN));
    return simde_mm_xor_si128(x, flip);
}

static inline simde__m128i vkey16(simde__m128i x, uint32_t kind, simde__m128i flip) {
    if (kind == K_FLOAT) {
        const simde__m128i a = simde_mm_and_si128(x, simde_mm_set1_epi16(0x7FFF));
        const simde__m128i s = simde_mm_srai_epi16(x, 15);
        const simde__m128i k = simde_mm_xor_si128(simde_mm_sub_epi16(simde_mm_xor_si128(a, s), s), flip);
        const simde__m128i nan = simde_mm_cmpgt_epi16(a, simde_mm_set1_epi16(0x7C00));
        return BLEND(nan, simde_mm_set1_epi16(INT16_MAX), k);
    }
    if (kind == K_UNSIGNED) x = simde_mm_xor_si128(x, simde_mm_set1_epi16(INT16_MIN));
    return simde_mm_xor_si128(x, flip);
}

static inline simde__m128i vmax32(simde__m128i a, simde__m128i b) {
    return BLEND(simde_mm_cmpgt_epi32(a, b), a, b);
}
#endif

/* The lowest / highest lane set in a movemask_epi8 mask of lanes of w bytes. */
static inline uint32_t lane_low(uint32_t mask, uint32_t w) {
    uint32_t i = 0;
    while (!(mask >> (i * w) & 1u)) ++i;
    return i;
}
static inline uint32_t lane_high(uint32_t mask, uint32_t w) {
    uint32_t i = 16 / w - 1;
    while (!(mask >> (i * w) & 1u)) --i;
    return i;
}

/* ---- rows ---------------------------------------------------------------------- */

/* The best position of n >= 1 contiguous 4-byte elements. */
static uint64_t row_x4(const am_plan *p, const unsigned char *row, uint64_t n) {
    const uint32_t kind = p->kind, flip = p->flip;
    int32_t best = INT32_MIN;
    uint64_t i = 0;
#if DMLREF_SIMD
    const simde__m128i vf = simde_mm_set1_epi32((int32_t)flip);
    if (n >= 8) {
        simde__m128i m0 = vkey32(LD(row), kind, vf), m1 = m0;
        for (i = 0; i + 8 <= n; i += 8) {
            m0 = vmax32(m0, vkey32(LD(row + 4 * i), kind, vf));
            m1 = vmax32(m1, vkey32(LD(row + 4 * i + 16), kind, vf));
        }
        int32_t l[4];
        simde_mm_storeu_si128((simde__m128i *)(void *)l, vmax32(m0, m1));
        for (int k = 0; k < 4; ++k)
            if (l[k] > best) best = l[k];
    }
#endif
    for (; i < n; ++i) {
        const int32_t k = key32(load32(row + 4 * i), kind, flip);
        if (k > best) best = k;
    }
    /* the first or last position of the best key */
    if (!p->last) {
        i = 0;
#if DMLREF_SIMD
        const simde__m128i t = simde_mm_set1_epi32(best);
        for (; i + 4 <= n; i += 4) {
            const uint32_t m = (uint32_t)simde_mm_movemask_epi8(simde_mm_cmpeq_epi32(vkey32(LD(row + 4 * i), kind, vf), t));
            if (m) return i + lane_low(m, 4);
        }
#endif
        for (; i < n; ++i)
            if (key32(load32(row + 4 * i), kind, flip) == best) return i;
        return 0; /* not reached: best is some element's key */
    }
    i = n;
#if DMLREF_SIMD
    const simde__m128i t = simde_mm_set1_epi32(best);
    for (; i % 4; --i)
        if (key32(load32(row + 4 * (i - 1)), kind, flip) == best) return i - 1;
    for (; i >= 4; i -= 4) {
        const uint32_t m =
            (uint32_t)simde_mm_movemask_epi8(simde_mm_cmpeq_epi32(vkey32(LD(row + 4 * (i - 4)), kind, vf), t));
        if (m) return i - 4 + lane_high(m, 4);
    }
#endif
    for (; i > 0; --i)
        if (key32(load32(row + 4 * (i - 1)), kind, flip) == best) return i - 1;
    return 0;
}

/* The same for 2-byte elements. */
static uint64_t row_x2(const am_plan *p, const unsigned char *row, uint64_t n) {
    const uint32_t kind = p->kind, flip = p->flip;
    int16_t best = INT16_MIN;
    uint64_t i = 0;
#if DMLREF_SIMD
    const simde__m128i vf = simde_mm_set1_epi16((int16_t)(uint16_t)flip);
    if (n >= 16) {
        simde__m128i m0 = vkey16(LD(row), kind, vf), m1 = m0;
        for (i = 0; i + 16 <= n; i += 16) {
            m0 = simde_mm_max_epi16(m0, vkey16(LD(row + 2 * i), kind, vf));
            m1 = simde_mm_max_epi16(m1, vkey16(LD(row + 2 * i + 16), kind, vf));
        }
        int16_t l[8];
        simde_mm_storeu_si128((simde__m128i *)(void *)l, simde_mm_max_epi16(m0, m1));
        for (int k = 0; k < 8; ++k)
            if (l[k] > best) best = l[k];
    }
#endif
    for (; i < n; ++i) {
        const int16_t k = key16(load16(row + 2 * i), kind, flip);
        if (k > best) best = k;
    }
    if (!p->last) {
        i = 0;
#if DMLREF_SIMD
        const simde__m128i t = simde_mm_set1_epi16(best);
        for (; i + 8 <= n; i += 8) {
            const uint32_t m = (uint32_t)simde_mm_movemask_epi8(simde_mm_cmpeq_epi16(vkey16(LD(row + 2 * i), kind, vf), t));
            if (m) return i + lane_low(m, 2);
        }
#endif
        for (; i < n; ++i)
            if (key16(load16(row + 2 * i), kind, flip) == best) return i;
        return 0;
    }
    i = n;
#if DMLREF_SIMD
    const simde__m128i t = simde_mm_set1_epi16(best);
    for (; i % 8; --i)
        if (key16(load16(row + 2 * (i - 1)), kind, flip) == best) return i - 1;
    for (; i >= 8; i -= 8) {
        const uint32_t m =
            (uint32_t)simde_mm_movemask_epi8(simde_mm_cmpeq_epi16(vkey16(LD(row + 2 * (i - 8)), kind, vf), t));
        if (m) return i - 8 + lane_high(m, 2);
    }
#endif
    for (; i > 0; --i)
        if (key16(load16(row + 2 * (i - 1)), kind, flip) == best) return i - 1;
    return 0;
}

/* Any type, any stride: the oracle's comparison on scalar_order_key. */
static uint64_t row_generic(const am_plan *p, const unsigned char *row, uint64_t n) {
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)p->dt;
    uint64_t best = scalar_order_key(dt, row, (int)p->nan_low), at = 0;
    for (uint64_t j = 1; j < n; ++j) {
        const uint64_t k = scalar_order_key(dt, row + j * p->rs, (int)p->nan_low);
        if (argminmax_better(&p->prm, k, best)) {
            best = k;
            at = j;
        }
    }
    return at;
}

static void rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const am_ctx *cx = vc;
    const am_plan *p = cx->p;
    const unsigned char *src = IN_DATA(cx->x, 0);
    unsigned char *dst = OUT_DATA(cx->x, 0);
    (void)part;
    nest_it it;
    if (!nest_rows_begin(&p->kept, &it, lo, hi)) return;
    const uint64_t sin = p->kept.st[1][p->kept.m - 1], sout = p->kept.st[0][p->kept.m - 1];
    do {
        for (uint64_t q = 0; q < it.len; ++q) {
            const unsigned char *row = src + it.off[1] + q * sin;
            const uint64_t j = p->mode == M_ROWS_X4   ? row_x4(p, row, p->count)
                               : p->mode == M_ROWS_X2 ? row_x2(p, row, p->count)
                                                      : row_generic(p, row, p->count);
            argminmax_store(dst + it.off[0] + q * sout, p->oes, j);
        }
    } while (nest_rows_next(&p->kept, &it));
}

/* ---- columns ------------------------------------------------------------------- */

/* Columns [c0, c0 + w) of one outer point: in points at the first column of row 0, out at
 * its output element. */
static void cols_x4(const am_plan *p, const unsigned char *in, unsigned char *out, uint64_t w) {
    int32_t best[ARGMINMAX_CW];
    uint32_t idx[ARGMINMAX_CW];
    const uint32_t kind = p->kind, flip = p->flip;
    for (uint64_t i = 0; i < w; ++i) {
        best[i] = key32(load32(in + 4 * i), kind, flip);
        idx[i] = 0;
    }
    for (uint64_t j = 1; j < p->count; ++j) {
        const unsigned char *row = in + j * p->rs;
        uint64_t i = 0;
#if DMLREF_SIMD
        const simde__m128i vf = simde_mm_set1_epi32((int32_t)flip), vj = simde_mm_set1_epi32((int32_t)(uint32_t)j);
        const simde__m128i ones = simde_mm_set1_epi32(-1);
        for (; i + 4 <= w; i += 4) {
            const simde__m128i k = vkey32(LD(row + 4 * i), kind, vf), b = LD(best + i);
            const simde__m128i m = p->last ? simde_mm_xor_si128(simde_mm_cmpgt_epi32(b, k), ones)
                                           : simde_mm_cmpgt_epi32(k, b);
            simde_mm_storeu_si128((simde__m128i *)(void *)(best + i), BLEND(m, k, b));
            simde_mm_storeu_si128((simde__m128i *)(void *)(idx + i), BLEND(m, vj, LD(idx + i)));
        }
#endif
        for (; i < w; ++i) {
            const int32_t k = key32(load32(row + 4 * i), kind, flip);
            if (p->last ? k >= best[i] : k > best[i]) {
                best[i] = k;
                idx[i] = (uint32_t)j;
            }
        }
    }
    for (uint64_t i = 0; i < w; ++i) argminmax_store(out + i * p->ost, p->oes, idx[i]);
}

static void cols_generic(const am_plan *p, const unsigned char *in, unsigned char *out, uint64_t w) {
    uint64_t best[ARGMINMAX_CW];
    uint32_t idx[ARGMINMAX_CW];
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)p->dt;
    for (uint64_t i = 0; i < w; ++i) {
        best[i] = scalar_order_key(dt, in + i * p->es, (int)p->nan_low);
        idx[i] = 0;
    }
    for (uint64_t j = 1; j < p->count; ++j)
        for (uint64_t i = 0; i < w; ++i) {
            const uint64_t k = scalar_order_key(dt, in + j * p->rs + i * p->es, (int)p->nan_low);
            if (argminmax_better(&p->prm, k, best[i])) {
                best[i] = k;
                idx[i] = (uint32_t)j;
            }
        }
    for (uint64_t i = 0; i < w; ++i) argminmax_store(out + i * p->ost, p->oes, idx[i]);
}

static void cols_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const am_ctx *cx = vc;
    const am_plan *p = cx->p;
    const unsigned char *src = IN_DATA(cx->x, 0);
    unsigned char *dst = OUT_DATA(cx->x, 0);
    (void)part;
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t o = u / p->chunks, c0 = (u % p->chunks) * ARGMINMAX_CW;
        const uint64_t w = p->inner - c0 < ARGMINMAX_CW ? p->inner - c0 : ARGMINMAX_CW;
        uint64_t off[NEST_K];
        nest_offsets(&p->kept, o, off);
        const unsigned char *in = src + off[1] + c0 * p->es;
        unsigned char *out = dst + off[0] + c0 * p->ost;
        if (p->mode == M_COLS_X4) cols_x4(p, in, out, w);
        else cols_generic(p, in, out, w);
    }
}

static dmlref_status am_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const am_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->units, c.p->mode >= M_COLS_X4 ? cols_range : rows_range, &c);
    return DMLREF_OK;
}

static void am_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

static uint32_t kind_of(uint32_t dt) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32:
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: return K_FLOAT;
    case DMLREF_TENSOR_DATA_TYPE_INT32:
    case DMLREF_TENSOR_DATA_TYPE_INT16: return K_SIGNED;
    default: return K_UNSIGNED;
    }
}

static int simd_type(uint32_t dt, uint32_t es) {
    return (es == 4 || es == 2) && dt != DMLREF_TENSOR_DATA_TYPE_FLOAT64;
}

dmlref_status plan_argminmax(op_t *op, const argminmax_params *prm, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    (void)err;
    /* the reduced dims must merge into one run of stride rs */
    uint64_t rs = in->esize;
    int have = 0;
    uint32_t prev = 0;
    for (uint32_t k = 0; k < prm->n_red; ++k) {
        const uint32_t d = prm->red[k];
        if (in->sizes[d] == 1) continue;
        if (have && !stride_adjacent(in->bstrides[prev], in->bstrides[d], in->sizes[d])) return DMLREF_OK;
        prev = d;
        have = 1;
        rs = in->bstrides[d];
    }
    am_plan *p = mem_alloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    memset(p, 0, sizeof *p);
    p->prm = *prm;
    p->count = prm->count;
    p->rs = rs;
    p->es = in->esize;
    p->oes = out->esize;
    p->dt = in->dtype;
    p->kind = kind_of(in->dtype);
    p->flip = prm->is_max ? 0u : (in->esize == 2 ? 0xFFFFu : 0xFFFFFFFFu);
    p->last = prm->last;
    p->nan_low = !prm->is_max;
    nest_t *nt = &p->kept;
    nt->m = 0;
    for (uint32_t d = 0; d < in->n; ++d) {
        if (prm->reduced[d]) continue;
        nt->sizes[nt->m] = in->sizes[d];
        nt->st[0][nt->m] = out->bstrides[d];
        nt->st[1][nt->m] = in->bstrides[d];
        ++nt->m;
    }
    if (nt->m == 0) {
        nt->m = 1;
        nt->sizes[0] = 1;
    }
    nest_collapse(nt, 2);
    const uint32_t L = nt->m - 1;
    const int simd = simd_type(in->dtype, in->esize);
    if (p->count > 1 && rs != in->esize && nt->sizes[L] > 1 && nt->st[1][L] == in->esize) {
        /* columns: the innermost kept dim contiguous, split into chunks per outer point */
        p->mode = simd && in->esize == 4 ? M_COLS_X4 : M_COLS;
        p->inner = nt->sizes[L];
        p->ost = nt->st[0][L];
        p->chunks = (p->inner + ARGMINMAX_CW - 1) / ARGMINMAX_CW;
        nt->sizes[L] = 1; /* the outer points only */
        nt->st[0][L] = nt->st[1][L] = 0;
        nest_collapse(nt, 2);
        p->units = nt->points * p->chunks;
    } else {
        p->mode = p->count > 1 && rs == in->esize && simd ? (in->esize == 4 ? M_ROWS_X4 : M_ROWS_X2) : M_ROWS;
        p->units = nt->points;
    }
    p->nth = plan_threads(op, in->elements * in->esize);
    static const kernel_id ids[] = {KERNEL_ARGMINMAX_ROWS_X4, KERNEL_ARGMINMAX_ROWS_X2, KERNEL_ARGMINMAX_ROWS,
                                    KERNEL_ARGMINMAX_COLUMNS_X4, KERNEL_ARGMINMAX_COLUMNS};
    op->plan = p;
    op->plan_free = am_free;
    op->kernel = am_kernel;
    op->kernel_name = kernel_names[ids[p->mode]];
    return DMLREF_OK;
}
