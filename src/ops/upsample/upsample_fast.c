/*
 * UPSAMPLE_2D's fast path (upsample_fast.h; the class, its rules and its oracle
 * are op_upsample_2d.c), bit-identical to the oracle and tested against it on
 * random cases.  TILE inverted: output dim H of size In.H * Height is the pair
 * (i, r) with h = i * Height + r: i at output stride Height * os and input stride
 * is, r at output stride os and input stride 0 (every repeat reads the same
 * element); W alike.  Size-1 dims dropped and adjacent ones merged by the
 * copy_plan, which runs over threads (upsample_2d.repeat).
 *
 * With W packed on both sides (stride one element) and Width > 1, the copy_plan's
 * innermost run would be one element: upsample_2d.rows instead takes one input
 * row (every dim but W) at a time, writes it with each element repeated Width
 * times into the first of its Height output rows (simd_repeat_row) and copies
 * that row into the other Height - 1; rows spread over threads.
 */
#include "ops/kernels.h"
#include "simd/simd.h"
#include "upsample_fast.h"

#include <string.h>

typedef struct up_plan {
    copy_plan copy;
    uint32_t nth;
    /* rows: */
    uint32_t n, es, height, width;
    uint64_t rows, w_in;                  /* input rows (all dims but W), W            */
    uint64_t isz[MAX_DIMS], ist[MAX_DIMS], ost[MAX_DIMS];
} up_plan;

typedef struct up_ctx {
    const up_plan *p;
    const exec_args *x;
} up_ctx;

static void up_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const up_ctx *c = vc;
    (void)part;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

static dmlref_status up_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const up_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->copy.units, up_range, &c);
    return DMLREF_OK;
}

/* Input rows [lo, hi) (row-major over the input's dims 0 .. n-2). */
static void up_rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const up_ctx *c = vc;
    const up_plan *p = c->p;
    const unsigned char *src = IN_DATA(c->x, 0);
    unsigned char *dst = OUT_DATA(c->x, 0);
    const uint32_t hd = p->n - 2;
    const size_t row = (size_t)(p->w_in * p->width * p->es);
    (void)part;
    for (uint64_t r = lo; r < hi; ++r) {
        uint64_t q = r, so = 0, dof = 0;
        for (uint32_t d = p->n - 1; d-- > 0;) {
            const uint64_t cd = coord_step(&q, p->isz[d]);
            so += cd * p->ist[d];
            dof += (d == hd ? cd * p->height : cd) * p->ost[d];
        }
        unsigned char *o = dst + dof;
        simd_repeat_row(o, src + so, (size_t)p->w_in, p->width, p->es);
        for (uint32_t k = 1; k < p->height; ++k) memcpy(o + k * p->ost[hd], o, row);
    }
}

static dmlref_status up_rows_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const up_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->rows, up_rows_range, &c);
    return DMLREF_OK;
}

static void up_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_upsample_2d(op_t *op, uint32_t height, uint32_t width, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t n = out->n; /* 4 or 5: at most 7 split dims */
    uint64_t sz[MAX_DIMS], os[MAX_DIMS], is[MAX_DIMS];
    uint32_t m = 0;
    for (uint32_t d = 0; d < n; ++d) {
        const uint64_t r = d == n - 2 ? height : d == n - 1 ? width : 1, i = in->sizes[d];
        if (i > 1) sz[m] = i, os[m] = r * out->bstrides[d], is[m] = in->bstrides[d], ++m;
        if (r > 1) sz[m] = r, os[m] = out->bstrides[d], is[m] = 0, ++m;
    }
    if (m == 0) sz[0] = 1, os[0] = is[0] = 0, m = 1; /* one element */
    up_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    copy_plan_init(&p->copy, m, sz, os, is, out->esize);
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = up_free;
    if (width > 1 && in->bstrides[n - 1] == in->esize && out->bstrides[n - 1] == out->esize) {
        p->n = n, p->es = out->esize, p->height = height, p->width = width;
        p->w_in = in->sizes[n - 1];
        p->rows = in->elements / p->w_in;
        for (uint32_t d = 0; d < n; ++d) p->isz[d] = in->sizes[d], p->ist[d] = in->bstrides[d], p->ost[d] = out->bstrides[d];
        op->kernel = up_rows_kernel;
        op->kernel_name = KERNEL_NAME(UPSAMPLE_2D_ROWS);
        return DMLREF_OK;
    }
    op->kernel = up_kernel;
    op->kernel_name = KERNEL_NAME(UPSAMPLE_2D_REPEAT);
    return DMLREF_OK;
}
