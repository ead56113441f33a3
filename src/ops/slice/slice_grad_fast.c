/*
 * SLICE_GRAD's fast path (slice.h's slice_grad_plan): bit-identical to the oracle in
 * op_slice_grad.c (every output element zero, then the input gradient written through the
 * window), tested against it on random cases.
 *
 *   slice_grad.rows       a packed output whose window rows (the input's innermost dimension,
 *                         stride 1) are contiguous and in increasing order (every step
 *                         positive): each thread takes a range of rows and writes, in address
 *                         order, the zeros between the previous row and this one, then the
 *                         row; the last range also zeros the tail.  Every output byte is
 *                         written once, and the ranges' bytes are disjoint.
 *   slice_grad.fill_copy  anything else: the output's elements zeroed (a nest over its
 *                         strides, blocks memset, threaded), then the window written by one
 *                         copy_plan with the window view as the destination (threaded), as
 *                         SLICE1 reads it.  The window's elements are written twice.
 */
#include "ops/kernels.h"
#include "slice.h"

#include <stdlib.h>

/* ---- the plan ----------------------------------------------------------------- */

typedef struct slice_grad_plan_t {
    int rows;              /* slice_grad.rows, else fill_copy */
    /* rows: the window's rows (nest over the input's outer dims; st[0] the output, st[1] the input) */
    nest_t nest;
    uint64_t base;         /* the output's byte offset of the window's first element */
    uint64_t row_bytes;    /* bytes per row (input and output) */
    uint64_t total;        /* the output's bytes, elements * esize (packed) */
    /* fill_copy */
    zero_plan zero;
    copy_plan copy;
    uint32_t nth;
} slice_grad_plan_t;

typedef struct slice_grad_ctx {
    const slice_grad_plan_t *p;
    const exec_args *x;
} slice_grad_ctx;

/* The rows [lo, hi): the zeros before each row, the row; after the last row, the tail. */
static void rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const slice_grad_ctx *c = vc;
    const slice_grad_plan_t *p = c->p;
    const nest_t *nt = &p->nest;
    unsigned char *dst = OUT_DATA(c->x, 0);
    const unsigned char *src = IN_DATA(c->x, 0);
    const uint64_t L = p->row_bytes, s0 = nt->st[0][nt->m - 1], s1 = nt->st[1][nt->m - 1];
    uint64_t end = 0; /* where the previous row ended */
    (void)part;
    if (lo > 0) {
        uint64_t off[NEST_K];
        nest_offsets(nt, lo - 1, off);
        end = p->base + off[0] + L;
    }
    nest_it it;
    if (nest_rows_begin(nt, &it, lo, hi)) do {
            for (uint64_t j = 0; j < it.len; ++j) {
                const uint64_t d = p->base + it.off[0] + j * s0;
                memset(dst + end, 0, (size_t)(d - end));
                memcpy(dst + d, src + it.off[1] + j * s1, (size_t)L);
                end = d + L;
            }
        } while (nest_rows_next(nt, &it));
    if (hi == nt->points) memset(dst + end, 0, (size_t)(p->total - end));
}

static void zero_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const slice_grad_ctx *c = vc;
    (void)part;
    zero_plan_run(&c->p->zero, OUT_DATA(c->x, 0), lo, hi);
}

static void copy_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const slice_grad_ctx *c = vc;
    (void)part;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

static dmlref_status slice_grad_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const slice_grad_ctx c = {op->plan, x};
    (void)err;
    if (c.p->rows) {
        run_ranges(op, c.p->nth, c.p->nest.points, rows_range, &c);
        return DMLREF_OK;
    }
    run_ranges(op, c.p->nth, c.p->zero.units, zero_range, &c);
    run_ranges(op, c.p->nth, c.p->copy.units, copy_range, &c);
    return DMLREF_OK;
}

static void slice_grad_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

/* 1 when t's elements are packed row-major (no gaps; t->n dims). */
static int packed(const tensor_t *t) {
    uint64_t want = t->esize;
    for (uint32_t d = t->n; d-- > 0;) {
        if (t->sizes[d] > 1 && t->bstrides[d] != want) return 0;
        want *= t->sizes[d];
    }
    return 1;
}

/* slice_grad.rows applies: a packed output, every step of a dimension the input spans
 * positive, the innermost one 1 and contiguous in the input. */
static int rows_apply(const tensor_t *in, const tensor_t *out, const slice_params *sp) {
    const uint32_t n = in->n, i = n - 1;
    if (!packed(out)) return 0;
    for (uint32_t d = 0; d < n; ++d)
        if (in->sizes[d] > 1 && sp->step[d] < 0) return 0;
    return in->sizes[i] == 1 || (sp->step[i] == 1 && in->bstrides[i] == in->esize);
}

dmlref_status slice_grad_plan(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const slice_params *sp = OP_CPARAMS(op, slice_params);
    view_t dst, src;
    if (!view_window(&dst, out, in->sizes, sp->start, sp->step)) return DMLREF_OK; /* unaddressable: the oracle */
    view_of_tensor(&src, in);
    slice_grad_plan_t *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    const uint64_t out_bytes = out->elements * out->esize;
    p->nth = plan_threads(op, out_bytes + in->elements * in->esize);
    if (rows_apply(in, out, sp)) {
        const uint32_t n = in->n;
        p->rows = 1;
        p->base = dst.base;
        p->row_bytes = in->sizes[n - 1] * in->esize;
        p->total = out_bytes;
        p->nest.m = n > 1 ? n - 1 : 1;
        p->nest.sizes[0] = 1;
        for (uint32_t d = 0; d + 1 < n; ++d) {
            p->nest.sizes[d] = in->sizes[d];
            p->nest.st[0][d] = (uint64_t)dst.st[d]; /* >= 0: the steps are positive */
            p->nest.st[1][d] = in->bstrides[d];
        }
        nest_collapse(&p->nest, 2);
        op->kernel_name = KERNEL_NAME(SLICE_GRAD_ROWS);
    } else {
        uint64_t sizes[MAX_DIMS];
        for (uint32_t d = 0; d < in->n; ++d) sizes[d] = in->sizes[d];
        zero_plan_init(&p->zero, out);
        copy_plan_init_view(&p->copy, in->n, sizes, &dst, &src, in->esize);
        op->kernel_name = KERNEL_NAME(SLICE_GRAD_FILL_COPY);
    }
    op->plan = p;
    op->plan_free = slice_grad_free;
    op->kernel = slice_grad_kernel;
    return DMLREF_OK;
}
