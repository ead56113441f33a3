/*
 * FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE: the fast path (fill.h's
 * fill_constant_plan and fill_sequence_plan, the classes' plan hooks),
 * bit-identical to the oracles and tested against them on random cases.
 *
 * The output is one collapsed loop nest (size-1 dims dropped, adjacent dims
 * merged); its points in row-major order are the logical indices in order, so a
 * row segment starting at point u holds the sequence's elements u, u + 1, ...
 * Threads take contiguous ranges of points.
 *   fill_value_constant.fill      contiguous rows: memset when the value's bytes
 *                                 are all equal, else a 16-byte pattern vector stored;
 *   fill_value_constant.fill_stream  the same with streaming stores (large outputs);
 *   fill_value_constant.strided   any other layout, element by element;
 *   fill_value_sequence.int32     INT32/UINT32 contiguous rows: a vector of four lane
 *                                 values Start + (u + k) * Delta (mod 2^32), advanced by
 *                                 4 * Delta per store;
 *   fill_value_sequence.int32_stream  the same with streaming stores (large outputs);
 *   fill_value_sequence.generic   every other type or layout: fill.h's formula per element.
 */
#include "ops/kernels.h"
#include "fill.h"

#include "engine/plan.h"
#include "simd/simd.h"

#include <string.h>

typedef struct fill_plan {
    nest_t nt;                /* the output: st[0]                          */
    uint32_t es, nth, stream, uniform;
    unsigned char pat[32];    /* constant: the value repeated (32 bytes)    */
    fill_sequence_params seq; /* sequence                                   */
} fill_plan;

#if DMLREF_SIMD
#define LD(p) simde_mm_loadu_si128((const simde__m128i *)(const void *)(p))
#define ST(p, v) simde_mm_storeu_si128((simde__m128i *)(void *)(p), (v))
#define STREAM(p, v) simde_mm_stream_si128((simde__m128i *)(void *)(p), (v))
#endif

/* n bytes (whole elements) of the pattern at d; stream: aligned streaming stores.  es is 1, 2,
 * 4 or 8: an offset modulo es is a mask. */
static void pattern_row(unsigned char *d, uint64_t n, const unsigned char *pat, uint32_t es, int stream) {
    uint64_t i = 0;
#if DMLREF_SIMD
    if (n >= 16) {
        if (stream && n >= 64) {
            const uint64_t head = (16 - ((uintptr_t)d & 15)) & 15;
            ST(d, LD(pat)); /* bytes [0, 16): [0, head) done, [head, 16) again below */
            const simde__m128i v = LD(pat + (head & (es - 1)));
            for (i = head; i + 16 <= n; i += 16) STREAM(d + i, v);
        } else {
            const simde__m128i v = LD(pat);
            for (; i + 16 <= n; i += 16) ST(d + i, v);
        }
        if (i < n) ST(d + n - 16, LD(pat + ((n - 16) & (es - 1))));
        return;
    }
#else
    (void)stream, (void)es;
#endif
    for (; i < n; ++i) d[i] = pat[i & 31]; /* pat repeats the value (es | 32): pat[i % es] */
}

typedef struct fill_ctx {
    const fill_plan *p;
    const exec_args *x;
} fill_ctx;

static void constant_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const fill_ctx *c = vc;
    const fill_plan *p = c->p;
    const uint32_t es = p->es;
    const uint64_t st = p->nt.st[0][p->nt.m - 1];
    unsigned char *out = OUT_DATA(c->x, 0);
    nest_it it;
    (void)part;
    for (int more = nest_rows_begin(&p->nt, &it, lo, hi); more; more = nest_rows_next(&p->nt, &it)) {
        unsigned char *d = out + it.off[0];
        if (st == es) {
            if (p->uniform && !p->stream) memset(d, p->pat[0], (size_t)(it.len * es));
            else pattern_row(d, it.len * es, p->pat, es, (int)p->stream);
        } else {
            for (uint64_t k = 0; k < it.len; ++k) memcpy(d + k * st, p->pat, es);
        }
    }
#if DMLREF_SIMD
    if (p->stream) simd_stream_fence();
#endif
}

/* n 4-byte integers at d: elements i0, i0 + 1, ... of Start + i * Delta mod 2^32. */
static void seq_int32_row(unsigned char *d, uint64_t n, uint32_t s, uint32_t dl, uint64_t i0, int stream) {
    const uint32_t first = s + (uint32_t)i0 * dl;
    uint64_t k = 0;
#if DMLREF_SIMD
    if (n >= 8) {
        if (stream && ((uintptr_t)d & 3) == 0)
            for (; k < n && ((uintptr_t)(d + 4 * k) & 15) != 0; ++k) {
                const uint32_t x = first + (uint32_t)k * dl;
                memcpy(d + 4 * k, &x, 4);
            }
        const uint32_t v0 = first + (uint32_t)k * dl;
        simde__m128i v = simde_mm_set_epi32((int32_t)(v0 + 3 * dl), (int32_t)(v0 + 2 * dl), (int32_t)(v0 + dl),
                                            (int32_t)v0);
        const simde__m128i step = simde_mm_set1_epi32((int32_t)(4 * dl));
        if (stream && ((uintptr_t)(d + 4 * k) & 15) == 0)
            for (; k + 4 <= n; k += 4, v = simde_mm_add_epi32(v, step)) STREAM(d + 4 * k, v);
        else
            for (; k + 4 <= n; k += 4, v = simde_mm_add_epi32(v, step)) ST(d + 4 * k, v);
    }
#else
    (void)stream;
#endif
    for (; k < n; ++k) {
        const uint32_t x = first + (uint32_t)k * dl;
        memcpy(d + 4 * k, &x, 4);
    }
}

static void sequence_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const fill_ctx *c = vc;
    const fill_plan *p = c->p;
    const uint64_t st = p->nt.st[0][p->nt.m - 1];
    const int int32 = p->seq.esize == 4 && p->seq.dtype != DMLREF_TENSOR_DATA_TYPE_FLOAT32 && st == 4;
    unsigned char *out = OUT_DATA(c->x, 0);
    uint64_t u = lo; /* the logical index of the segment's first element */
    nest_it it;
    (void)part;
    for (int more = nest_rows_begin(&p->nt, &it, lo, hi); more; more = nest_rows_next(&p->nt, &it)) {
        unsigned char *d = out + it.off[0];
        if (int32) seq_int32_row(d, it.len, (uint32_t)p->seq.start, (uint32_t)p->seq.delta, u, (int)p->stream);
        else
            for (uint64_t k = 0; k < it.len; ++k) fill_sequence_element(&p->seq, u + k, d + k * st);
        u += it.len;
    }
#if DMLREF_SIMD
    if (p->stream) simd_stream_fence();
#endif
}

static dmlref_status fill_kernel(const op_t *op, const exec_args *x, dmlref_error *err, range_fn fn) {
    const fill_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->nt.points, fn, &c);
    return DMLREF_OK;
}
static dmlref_status constant_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    return fill_kernel(op, x, err, constant_range);
}
static dmlref_status sequence_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    return fill_kernel(op, x, err, sequence_range);
}

static void fill_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

/* The plan's nest over the output; stream when contiguous rows would stream. */
static fill_plan *fill_plan_new(op_t *op) {
    const tensor_t *out = &op->outputs[0];
    fill_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return NULL;
    p->nt.m = out->n;
    for (uint32_t d = 0; d < out->n; ++d) {
        p->nt.sizes[d] = out->sizes[d];
        p->nt.st[0][d] = out->bstrides[d];
    }
    nest_collapse(&p->nt, 1);
    p->nt.points = out->elements;
    p->es = out->esize;
    p->nth = plan_threads(op, out->elements * out->esize);
    p->stream = p->nt.st[0][p->nt.m - 1] == p->es && plan_stream(out->elements * out->esize);
    op->plan = p;
    op->plan_free = fill_free;
    return p;
}

dmlref_status fill_constant_plan(op_t *op, dmlref_error *err) {
    fill_plan *p = fill_plan_new(op);
    if (!p) return plan_out_of_memory(op, err);
    const fill_constant_params *cp = OP_CPARAMS(op, fill_constant_params);
    fill_pattern(p->pat, sizeof p->pat, cp->value, p->es);
    p->uniform = 1;
    for (uint32_t i = 1; i < p->es; ++i) p->uniform &= cp->value[i] == cp->value[0];
    op->kernel = constant_kernel;
    op->kernel_name = p->nt.st[0][p->nt.m - 1] != p->es ? KERNEL_NAME(FILL_VALUE_CONSTANT_STRIDED)
                      : p->stream                       ? KERNEL_NAME(FILL_VALUE_CONSTANT_FILL_STREAM)
                                                        : KERNEL_NAME(FILL_VALUE_CONSTANT_FILL);
    return DMLREF_OK;
}

dmlref_status fill_sequence_plan(op_t *op, dmlref_error *err) {
    fill_plan *p = fill_plan_new(op);
    if (!p) return plan_out_of_memory(op, err);
    p->seq = *OP_CPARAMS(op, fill_sequence_params);
    const int int32 = p->seq.esize == 4 && p->seq.dtype != DMLREF_TENSOR_DATA_TYPE_FLOAT32 &&
                      p->nt.st[0][p->nt.m - 1] == 4;
    if (!int32) p->stream = 0;
    op->kernel = sequence_kernel;
    op->kernel_name = !int32 ? KERNEL_NAME(FILL_VALUE_SEQUENCE_GENERIC)
                      : p->stream ? KERNEL_NAME(FILL_VALUE_SEQUENCE_INT32_STREAM)
                                  : KERNEL_NAME(FILL_VALUE_SEQUENCE_INT32);
    return DMLREF_OK;
}
