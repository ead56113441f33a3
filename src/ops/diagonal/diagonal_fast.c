/*
 * DIAGONAL_MATRIX and DIAGONAL_MATRIX1: the row-wise fast path they share
 * (diagonal.h's diagonal_plan, both classes' plan hook), bit-identical to the
 * oracle in diagonal.c and tested against it on random cases.
 */
#include "ops/kernels.h"
#include "diagonal.h"
#include "engine/plan.h"
#include "simd/simd.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fast path: row by row ----------------------------------------------
 *
 * Output row [..., y, :] of W elements is three runs, [0, lo), [lo, hi) and
 * [hi, W), with lo and hi the band's ends clipped to [0, W):
 *   End >= Begin:  [lo, hi) = [y + Begin, y + End) takes the value, the outer runs are "rest";
 *   End <  Begin:  [lo, hi) = [y + End, y + Begin) is "rest", the outer runs take the value;
 * "rest" is zero bytes, or the input row's elements.  Runs along a packed row
 * are memset / a replicated pattern / memcpy; strided rows store element by
 * element.  Threads take contiguous ranges of rows. */

#define PATTERN_BYTES 256u /* a multiple of every element size */

typedef struct diagonal_plan_t {
    nest_t batch;      /* the dims before y (collapsed): st[0] = output, st[1] = input */
    uint64_t H, W;     /* rows per matrix, elements per row                           */
    uint64_t rows;     /* batch.points * H                                            */
    uint64_t osy, isy; /* byte strides along y                                        */
    uint64_t osx, isx; /* byte strides along x                                        */
    int64_t begin, end;
    uint32_t es, has_input, fill_zero, nth;
    unsigned char fill[8];
    unsigned char pattern[PATTERN_BYTES]; /* the value, repeated */
} diagonal_plan_t;

/* n elements of the value at dst, stride bytes apart. */
static void fill_run(const diagonal_plan_t *p, unsigned char *dst, uint64_t n, uint64_t stride) {
    if (!n) return;
    const uint32_t es = p->es;
    if (stride == es) {
        uint64_t bytes = n * es;
        if (p->fill_zero) {
            zero_bytes(dst, (size_t)bytes);
            return;
        }
        while (bytes) {
            const uint64_t k = bytes < PATTERN_BYTES ? bytes : PATTERN_BYTES;
            simd_copy_block(dst, p->pattern, (size_t)k);
            dst += k;
            bytes -= k;
        }
        return;
    }
    switch (es) {
    case 1: {
        const unsigned char v = p->fill[0];
        for (uint64_t i = 0; i < n; ++i) dst[i * stride] = v;
        return;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, p->fill, 2);
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * stride, &v, 2);
        return;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p->fill, 4);
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * stride, &v, 4);
        return;
    }
    default: {
        uint64_t v;
        memcpy(&v, p->fill, 8);
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * stride, &v, 8);
        return;
    }
    }
}

/* n zero elements at dst, stride bytes apart. */
static void zero_run(uint32_t es, unsigned char *dst, uint64_t n, uint64_t stride) {
    if (!n) return;
    if (stride == es) {
        zero_bytes(dst, (size_t)(n * es));
        return;
    }
    for (uint64_t i = 0; i < n; ++i) memset(dst + i * stride, 0, es);
}

/* n elements from src (stride is apart; 0 repeats one) to dst (stride os apart). */
static void copy_run(uint32_t es, unsigned char *dst, uint64_t os, const unsigned char *src, uint64_t is, uint64_t n) {
    if (!n) return;
    if (os == es && is == es) {
        simd_copy_block(dst, src, (size_t)(n * es));
        return;
    }
    switch (es) {
    case 1:
        for (uint64_t i = 0; i < n; ++i) dst[i * os] = src[i * is];
        return;
    case 2:
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * os, src + i * is, 2);
        return;
    case 4:
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * os, src + i * is, 4);
        return;
    default:
        for (uint64_t i = 0; i < n; ++i) memcpy(dst + i * os, src + i * is, 8);
        return;
    }
}

/* The run [from, to) of a row that does not take the value. */
static void rest_run(const diagonal_plan_t *p, unsigned char *dst, const unsigned char *src, uint64_t from,
                     uint64_t to) {
    if (to <= from) return;
    if (p->has_input) copy_run(p->es, dst + from * p->osx, p->osx, src + from * p->isx, p->isx, to - from);
    else zero_run(p->es, dst + from * p->osx, to - from, p->osx);
}

static uint64_t clip(int64_t v, uint64_t w) { return v <= 0 ? 0 : (uint64_t)v >= w ? w : (uint64_t)v; }

static void diagonal_row(const diagonal_plan_t *p, unsigned char *dst, const unsigned char *src, uint64_t y) {
    const uint64_t W = p->W;
    /* |y| < 2^32 and |begin|, |end| <= 2^31: no overflow in 64 bits */
    if (p->end >= p->begin) {
        const uint64_t lo = clip((int64_t)y + p->begin, W), hi = clip((int64_t)y + p->end, W);
        rest_run(p, dst, src, 0, lo);
        fill_run(p, dst + lo * p->osx, hi - lo, p->osx);
        rest_run(p, dst, src, hi, W);
    } else {
        const uint64_t lo = clip((int64_t)y + p->end, W), hi = clip((int64_t)y + p->begin, W);
        fill_run(p, dst, lo, p->osx);
        rest_run(p, dst, src, lo, hi);
        fill_run(p, dst + hi * p->osx, W - hi, p->osx);
    }
}

typedef struct diagonal_ctx {
    const diagonal_plan_t *p;
    const exec_args *x;
} diagonal_ctx;

/* Rows [lo, hi): row r is row r % H of matrix r / H. */
static void diagonal_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const diagonal_ctx *c = vc;
    const diagonal_plan_t *p = c->p;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = p->has_input ? IN_DATA(c->x, 0) : NULL;
    (void)part;
    for (uint64_t r = lo; r < hi;) {
        uint64_t off[NEST_K];
        nest_offsets(&p->batch, r / p->H, off);
        for (uint64_t y = r % p->H; y < p->H && r < hi; ++y, ++r)
            diagonal_row(p, out + off[0] + y * p->osy, in ? in + off[1] + y * p->isy : NULL, y);
    }
}

static dmlref_status diagonal_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const diagonal_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->rows, diagonal_range, &c);
    return DMLREF_OK;
}

static void diagonal_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status diagonal_plan(op_t *op, dmlref_error *err) {
    const diagonal_params *dp = OP_CPARAMS(op, diagonal_params);
    const tensor_t *out = &op->outputs[0], *in = dp->has_input ? &op->inputs[0] : NULL;
    const uint32_t n = out->n;
    (void)err;
    diagonal_plan_t *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    /* the batch dims (0 .. n-3), collapsed where both tensors allow */
    p->batch.m = n > 2 ? n - 2 : 1;
    p->batch.sizes[0] = 1;
    for (uint32_t d = 0; d + 2 < n; ++d) {
        p->batch.sizes[d] = out->sizes[d];
        p->batch.st[0][d] = out->bstrides[d];
        p->batch.st[1][d] = in ? in->bstrides[d] : 0;
    }
    nest_collapse(&p->batch, 2);
    p->batch.points = 1;
    for (uint32_t d = 0; d < p->batch.m; ++d) p->batch.points *= p->batch.sizes[d];
    p->H = out->sizes[n - 2];
    p->W = out->sizes[n - 1];
    p->rows = p->batch.points * p->H; /* <= the output's elements */
    p->osy = out->bstrides[n - 2];
    p->osx = out->bstrides[n - 1];
    p->isy = in ? in->bstrides[n - 2] : 0;
    p->isx = in ? in->bstrides[n - 1] : 0;
    p->begin = dp->begin;
    p->end = dp->end;
    p->es = out->esize;
    p->has_input = dp->has_input;
    memcpy(p->fill, dp->fill, sizeof p->fill);
    p->fill_zero = 1;
    for (uint32_t i = 0; i < p->es; ++i) p->fill_zero &= p->fill[i] == 0;
    if (!p->fill_zero) fill_pattern(p->pattern, PATTERN_BYTES, p->fill, p->es); /* zero: as mem_zalloc left it */
    p->nth = plan_threads(op, (dp->has_input ? 2 : 1) * out->elements * out->esize);
    op->plan = p;
    op->plan_free = diagonal_free;
    op->kernel = diagonal_kernel;
    op->kernel_name = dp->has_input ? KERNEL_NAME(DIAGONAL_COPY) : KERNEL_NAME(DIAGONAL_FILL);
    return DMLREF_OK;
}
