/*
 * SLICE and SLICE1's fast path (slice.h's slice_plan, both classes' plan hook):
 * the strided view of the input, one copy_plan, bit-identical to the oracle in
 * slice.c and tested against it on random cases.
 */
#include "ops/kernels.h"
#include "slice.h"

#include <stdlib.h>

/* ---- the fast path: the view, copied ------------------------------------- */

typedef struct slice_plan_t {
    copy_plan copy;
    uint32_t nth;
} slice_plan_t;

typedef struct slice_ctx {
    const slice_plan_t *p;
    const exec_args *x;
} slice_ctx;

static void slice_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const slice_ctx *c = vc;
    (void)part;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

static dmlref_status slice_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const slice_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->copy.units, slice_range, &c);
    return DMLREF_OK;
}

static void slice_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

/* One name per copy kind (plan.h's enum order), and the instruction set. */
#define SLICE_NAMES(P)                                                                                           \
    {kernel_name_##P##_BLOCK,   kernel_name_##P##_X1,     kernel_name_##P##_X2,        kernel_name_##P##_X4,     kernel_name_##P##_X8,        \
     kernel_name_##P##_B16,     kernel_name_##P##_SMALL,  kernel_name_##P##_REV_X1,    kernel_name_##P##_REV_X2, kernel_name_##P##_REV_X4,    \
     kernel_name_##P##_REV_X8,  kernel_name_##P##_REV_B16, kernel_name_##P##_REV_SMALL, kernel_name_##P##_REV_BLOCK}
static const char *const slice_kernels[2][COPY_REV_BLOCK + 1] = {SLICE_NAMES(SLICE), SLICE_NAMES(SLICE1)};
/* COPY_SMALL rows of a large output, written with streaming stores (copy_plan's stream) */
static const char *const small_stream_kernels[2] = {KERNEL_STREAM_NAME(SLICE_SMALL_STREAM), KERNEL_STREAM_NAME(SLICE1_SMALL_STREAM)};

dmlref_status slice_plan(op_t *op, int v1, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const slice_params *sp = OP_CPARAMS(op, slice_params);
    (void)err;
    view_t src, dst;
    if (!view_window(&src, in, out->sizes, sp->start, sp->step)) return DMLREF_OK; /* unaddressable: the oracle */
    view_of_tensor(&dst, out);
    slice_plan_t *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    uint64_t sizes[MAX_DIMS];
    for (uint32_t d = 0; d < out->n; ++d) sizes[d] = out->sizes[d];
    copy_plan_init_view(&p->copy, out->n, sizes, &dst, &src, out->esize);
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = slice_free;
    op->kernel = slice_kernel;
    op->kernel_name = p->copy.stream && p->copy.kind == COPY_SMALL ? small_stream_kernels[v1 ? 1 : 0]
                                                    : slice_kernels[v1 ? 1 : 0][p->copy.kind];
    return DMLREF_OK;
}
