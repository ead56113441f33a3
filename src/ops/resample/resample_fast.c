/*
 * The RESAMPLE family's fast path (resample.h; the rules and the oracle are
 * resample.c), bit-identical to the oracle and tested against it on random
 * cases.  At compile time each dimension's source indices are computed once
 * (resample_source_index, the oracle's function) into a table of input byte
 * offsets; execute only gathers.
 *
 *   resample.repeat  every dimension's table is "input index k repeated r times"
 *                    (idx[o] = o / r, the output size a multiple of r: an integer
 *                    upscale, or r = 1): output dim d is the pair (k, r) with r at
 *                    input stride 0, one strided copy (copy_plan) over the split
 *                    output, as TILE inverted
 *                    and the innermost repeat r = 1 (rows are whole copies)
 *   resample.rows    the innermost table a repeat (idx[o] = o / r) and the innermost
 *                    dim packed on both sides: per output row, its input row with
 *                    each element repeated r times (simd_repeat_row), or, when the
 *                    row before it in the thread's range read the same input row
 *                    (a repeat of an outer dim), a copy of that output row
 *   resample.gather  otherwise: per output row (every dim but the last), the row's
 *                    input base from the outer tables, then the innermost table
 *                    gathered element by element; rows spread over threads
 */
#include "ops/kernels.h"
#include "resample.h"
#include "engine/plan.h"
#include "simd/simd.h"

#include <string.h>

/* Table entries (the sum of the output's sizes) above which no plan is made and the oracle
 * runs: each entry takes 12 bytes while planning (8 kept), which for one long output dim of
 * 1-byte elements would be 12 times the output itself (2^22 entries: at most 48 MiB). */
#define RESAMPLE_TABLE_MAX (UINT64_C(1) << 22)

typedef struct rs_plan {
    uint32_t n, es, nth;
    uint64_t rows;                        /* gather: output rows (all dims but the last) */
    uint64_t osz[RESAMPLE_MAX_DIMS];      /* output sizes                             */
    uint64_t ost[RESAMPLE_MAX_DIMS];      /* output byte strides                      */
    uint64_t *tab[RESAMPLE_MAX_DIMS];     /* input byte offset per output coordinate  */
    uint64_t *mem;                        /* the tables' one block                    */
    uint64_t inner_r;                     /* rows: the innermost repeat               */
    copy_plan copy;                       /* repeat                                   */
} rs_plan;

typedef struct rs_ctx {
    const rs_plan *p;
    const exec_args *x;
} rs_ctx;

static void rs_repeat_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const rs_ctx *c = vc;
    (void)part;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

static dmlref_status rs_repeat_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const rs_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->copy.units, rs_repeat_range, &c);
    return DMLREF_OK;
}

/* The coordinates c (dims 0 .. n-2), input byte offset and output byte offset of output
 * row r: divisions only while r's remaining part is not 0. */
static void rs_row(const rs_plan *p, uint64_t r, uint64_t *c, uint64_t *so, uint64_t *dof) {
    uint64_t q = r;
    *so = *dof = 0;
    for (uint32_t d = p->n - 1; d-- > 0;) {
        const uint64_t cd = coord_step(&q, p->osz[d]);
        c[d] = cd;
        *so += p->tab[d][cd];
        *dof += cd * p->ost[d];
    }
}

/* The next row after (c, so, dof): an odometer over dims 0 .. n-2. */
static void rs_next(const rs_plan *p, uint64_t *c, uint64_t *so, uint64_t *dof) {
    for (uint32_t d = p->n - 1; d-- > 0;) {
        *so -= p->tab[d][c[d]];
        if (++c[d] < p->osz[d]) {
            *so += p->tab[d][c[d]];
            *dof += p->ost[d];
            return;
        }
        c[d] = 0;
        *so += p->tab[d][0];
        *dof -= (p->osz[d] - 1) * p->ost[d];
    }
}

/* Rows [lo, hi) of the output (row-major over dims 0 .. n-2). */
static void rs_gather_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const rs_ctx *c = vc;
    const rs_plan *p = c->p;
    const unsigned char *src = IN_DATA(c->x, 0);
    unsigned char *dst = OUT_DATA(c->x, 0);
    const uint32_t last = p->n - 1;
    const uint64_t w = p->osz[last], os = p->ost[last];
    const uint64_t *tl = p->tab[last];
    (void)part;
    uint64_t co[RESAMPLE_MAX_DIMS], so = 0, dof = 0;
    if (lo < hi) rs_row(p, lo, co, &so, &dof);
    for (uint64_t r = lo; r < hi; ++r) {
        if (r > lo) rs_next(p, co, &so, &dof);
        const unsigned char *s = src + so;
        unsigned char *o = dst + dof;
        switch (p->es) {
        case 1:
            for (uint64_t j = 0; j < w; ++j) o[j * os] = s[tl[j]];
            break;
        case 2:
            for (uint64_t j = 0; j < w; ++j) memcpy(o + j * os, s + tl[j], 2);
            break;
        case 4:
            for (uint64_t j = 0; j < w; ++j) memcpy(o + j * os, s + tl[j], 4);
            break;
        default:
            for (uint64_t j = 0; j < w; ++j) memcpy(o + j * os, s + tl[j], p->es);
            break;
        }
    }
}

/* Rows [lo, hi): each its input row repeated (resample.rows), or the previous row copied. */
static void rs_rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const rs_ctx *c = vc;
    const rs_plan *p = c->p;
    const unsigned char *src = IN_DATA(c->x, 0);
    unsigned char *dst = OUT_DATA(c->x, 0);
    const uint64_t w = p->osz[p->n - 1], r = p->inner_r, in_w = w / r; /* once, not per row */
    const size_t bytes = (size_t)(w * p->es);
    const unsigned char *prev = NULL;
    uint64_t prev_so = 0;
    (void)part;
    uint64_t co[RESAMPLE_MAX_DIMS], so = 0, dof = 0;
    if (lo < hi) rs_row(p, lo, co, &so, &dof);
    for (uint64_t row = lo; row < hi; ++row) {
        if (row > lo) rs_next(p, co, &so, &dof);
        unsigned char *o = dst + dof;
        if (prev && so == prev_so) memcpy(o, prev, bytes);
        else if (r == 1) memcpy(o, src + so, bytes);
        else simd_repeat_row(o, src + so, (size_t)in_w, (size_t)r, p->es);
        prev = o, prev_so = so;
    }
}

static dmlref_status rs_rows_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const rs_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->rows, rs_rows_range, &c);
    return DMLREF_OK;
}

static dmlref_status rs_gather_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const rs_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->rows, rs_gather_range, &c);
    return DMLREF_OK;
}

static void rs_free(const dmlref_allocator *al, void *vp) {
    rs_plan *p = vp;
    if (!p) return;
    mem_free(al, p->mem);
    mem_free(al, p);
}

/* The repeat count r when idx[o] == o / r for every o < size and r divides size; else 0. */
static uint64_t repeat_of(const uint32_t *idx, uint64_t size) {
    uint64_t r = 1;
    while (r < size && idx[r] == 0) ++r;
    if (r > 1 && size % r) return 0;
    uint64_t q = 0, c = 0; /* o / r and o % r, counted */
    for (uint64_t o = 0; o < size; ++o) {
        if (idx[o] != q) return 0;
        if (++c == r) c = 0, ++q;
    }
    return r;
}

dmlref_status resample_plan(op_t *op, dmlref_error *err) {
    const resample_params *rp = OP_CPARAMS(op, resample_params);
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t n = out->n;
    uint64_t total = 0;
    for (uint32_t d = 0; d < n; ++d) total += out->sizes[d]; /* <= 4 * (2^32 - 1) */
    if (total > RESAMPLE_TABLE_MAX) return DMLREF_OK;           /* the oracle */
    rs_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->mem = mem_array(&op->alloc, total, sizeof(uint64_t));
    uint32_t *idx = mem_array(&op->alloc, total, sizeof(uint32_t));
    if (!p->mem || !idx) {
        mem_free(&op->alloc, idx);
        rs_free(&op->alloc, p);
        return plan_out_of_memory(op, err);
    }
    p->n = n;
    p->es = out->esize;
    uint64_t at = 0, sz[2 * RESAMPLE_MAX_DIMS], os[2 * RESAMPLE_MAX_DIMS], is[2 * RESAMPLE_MAX_DIMS];
    uint32_t m = 0;
    int repeat = 1;
    uint64_t inner_r = 0;
    for (uint32_t d = 0; d < n; ++d) {
        uint32_t *id = idx + at;
        p->tab[d] = p->mem + at;
        p->osz[d] = out->sizes[d];
        p->ost[d] = out->bstrides[d];
        /* resample_source_index without the call where its answer is plain: 0 from an input
         * size of 1 (the clamp), min(o, size - 1) with scale 1 and no offsets (every step
         * exact: o < 2^22 < 2^24) */
        const uint32_t last = in->sizes[d] - 1;
        const int plain = last == 0 || (rp->scale[d] == 1.0f && rp->in_off[d] == 0.0f && rp->out_off[d] == 0.0f);
        for (uint32_t o = 0; o < out->sizes[d]; ++o) {
            id[o] = plain ? (o < last ? o : last)
                          : resample_source_index(o, rp->scale[d], rp->in_off[d], rp->out_off[d], (int)rp->decreasing,
                                                  in->sizes[d]);
            p->tab[d][o] = (uint64_t)id[o] * in->bstrides[d];
        }
        at += out->sizes[d];
        const uint64_t r = repeat || d == n - 1 ? repeat_of(id, out->sizes[d]) : 0;
        if (d == n - 1) inner_r = r;
        if (!r || !repeat) {
            repeat = 0;
            continue;
        }
        const uint64_t k = r == 1 ? out->sizes[d] : out->sizes[d] / r;
        if (k > 1) sz[m] = k, os[m] = r * out->bstrides[d], is[m] = in->bstrides[d], ++m;
        if (r > 1) sz[m] = r, os[m] = out->bstrides[d], is[m] = 0, ++m;
    }
    mem_free(&op->alloc, idx);
    const uint64_t work = 2 * out->elements * out->esize;
    p->nth = plan_threads(op, work);
    op->plan = p;
    op->plan_free = rs_free;
    if (repeat && inner_r == 1) {
        if (m == 0) sz[0] = 1, os[0] = is[0] = 0, m = 1; /* one element */
        copy_plan_init(&p->copy, m, sz, os, is, out->esize);
        op->kernel = rs_repeat_kernel;
        op->kernel_name = KERNEL_NAME(RESAMPLE_REPEAT);
        return DMLREF_OK;
    }
    p->rows = out->elements / out->sizes[n - 1];
    if (inner_r && in->bstrides[n - 1] == in->esize && out->bstrides[n - 1] == out->esize) {
        p->inner_r = inner_r;
        op->kernel = rs_rows_kernel;
        op->kernel_name = KERNEL_NAME(RESAMPLE_ROWS);
        return DMLREF_OK;
    }
    op->kernel = rs_gather_kernel;
    op->kernel_name = KERNEL_NAME(RESAMPLE_GATHER);
    return DMLREF_OK;
}
