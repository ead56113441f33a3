/*
 * What SLICE and SLICE1 share (docs/operators.md P3): the common rules, the
 * oracle and the fast path.  Both are one strided view of the input (a base
 * offset and one signed step per dimension), copied into the output.
 */
#include "ops/kernels.h"
#include "slice.h"
#include "simd/simd.h"

#include <inttypes.h>
#include <stdlib.h>

dmlref_status slice_check_arrays(const char *O, const tensor_t *in, uint32_t dimension_count, uint32_t n_arrays,
                                 const char *const *names, const void *const *arrays, dmlref_error *err) {
    if (dimension_count != in->n)                                                                  /* SL1 */
        return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SL1", "DimensionCount", NULL,
                              "%s: DimensionCount (%" PRIu32 ") must equal InputTensor.DimensionCount (%" PRIu32
                              ") (SL1)",
                              O, dimension_count, in->n);
    for (uint32_t k = 0; k < n_arrays; ++k)                                                        /* SL1 */
        if (!arrays[k])
            return set_rule_error(err, DMLREF_ERROR_NULL_POINTER, "SL1", names[k], NULL,
                                  "%s: %s is NULL; it must point to DimensionCount (%" PRIu32 ") values (SL1)", O,
                                  names[k], dimension_count);
    return DMLREF_OK;
}

dmlref_status slice_check_common(op_t *op, const DMLREF_TENSOR_DESC *in_desc, const DMLREF_TENSOR_DESC *out_desc,
                                 uint32_t dimension_count, uint32_t n_arrays, const char *const *names,
                                 const void *const *arrays, dmlref_error *err) {
    const char *O = op->name;
    TRY(op_alloc_tensors(op, 1, 1, err));
    tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    support_t s;
    support_lookup(op->cls, op->feature_level, &s);

    TRY(tensor_check(O, "InputTensor", in_desc, 0, in, err));
    TRY(tensor_check(O, "OutputTensor", out_desc, 1, out, err));
    TRY(check_same_dims(O, "SL1", "OutputTensor", out, "InputTensor", in, err));                  /* SL1 */
    TRY(check_support(O, "SL1", "SL2", "InputTensor", in, &s, 0, op->feature_level, err));         /* SL1, SL2 */
    TRY(check_same_type(O, "SL2", "OutputTensor", out, "InputTensor", in, err));                  /* SL2 */
    return slice_check_arrays(O, in, dimension_count, n_arrays, names, arrays, err); /* SL1 */
}

dmlref_status slice_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const slice_params *p = OP_CPARAMS(op, slice_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    const uint64_t *bs[1] = {out->bstrides};
    uint32_t ic[MAX_DIMS];
    nd_iter it;
    (void)err;
    for (nd_iter_init(&it, out->n, out->sizes, 1, bs); !it.done; nd_iter_next(&it)) {
        for (uint32_t d = 0; d < out->n; ++d) /* in [0, Input.Sizes[d]) by SL4 / SL5, SL7 */
            ic[d] = (uint32_t)(p->start[d] + p->step[d] * (int64_t)it.coord[d]);
        memcpy(dst + it.offset[0], src + tensor_offset(in, ic), in->esize);
    }
    return DMLREF_OK;
}

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
    run_ranges(c.p->nth, c.p->copy.units, slice_range, &c);
    return DMLREF_OK;
}

static void slice_free(void *p) { free(p); }

/* One name per copy kind (plan.h's enum order), and the instruction set. */
#define SLICE_NAMES(P)                                                                                           \
    {KERNEL_##P##_BLOCK,   KERNEL_##P##_X1,     KERNEL_##P##_X2,        KERNEL_##P##_X4,     KERNEL_##P##_X8,        \
     KERNEL_##P##_B16,     KERNEL_##P##_SMALL,  KERNEL_##P##_REV_X1,    KERNEL_##P##_REV_X2, KERNEL_##P##_REV_X4,    \
     KERNEL_##P##_REV_X8,  KERNEL_##P##_REV_B16, KERNEL_##P##_REV_SMALL, KERNEL_##P##_REV_BLOCK}
static const kernel_id slice_kernels[2][COPY_REV_BLOCK + 1] = {SLICE_NAMES(SLICE), SLICE_NAMES(SLICE1)};
/* COPY_SMALL rows of a large output, written with streaming stores (copy_plan's stream) */
static const kernel_id small_stream_kernels[2] = {KERNEL_SLICE_SMALL_STREAM, KERNEL_SLICE1_SMALL_STREAM};

dmlref_status slice_plan(op_t *op, int v1, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const slice_params *sp = OP_CPARAMS(op, slice_params);
    (void)err;
    view_t src, dst;
    if (!view_window(&src, in, out->sizes, sp->start, sp->step)) return DMLREF_OK; /* unaddressable: the oracle */
    view_of_tensor(&dst, out);
    slice_plan_t *p = calloc(1, sizeof *p);
    if (!p) return DMLREF_OK; /* no memory for a plan: the oracle stays */
    uint64_t sizes[MAX_DIMS];
    for (uint32_t d = 0; d < out->n; ++d) sizes[d] = out->sizes[d];
    copy_plan_init_view(&p->copy, out->n, sizes, &dst, &src, out->esize);
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = slice_free;
    op->kernel = slice_kernel;
    op->kernel_name = kernel_names[p->copy.stream ? small_stream_kernels[v1 ? 1 : 0] : slice_kernels[v1 ? 1 : 0][p->copy.kind]];
    return DMLREF_OK;
}
