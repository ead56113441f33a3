/*
 * SLICE_GRAD (docs/operators.md Q5): SLICE1's gradient, its exact inverse.
 *   start[i] = InputWindowOffsets[i] + (InputWindowStrides[i] < 0 ? InputWindowSizes[i] - 1 : 0)
 *   OutputGradient = 0 (all-zero bits: dmlref's decision for the elements no input reaches)
 *   OutputGradient[start + InputWindowStrides (.) c] = InputGradient[c]   for every c
 * The targets are distinct (a nonzero stride per dimension), so the order is irrelevant.
 * The window is SLICE1's, over OutputGradientTensor: the same checks (slice.c's
 * slice_check_roles) with the tensors' roles swapped.
 *
 *   SG1  DimensionCount == InputGradient.DimensionCount == OutputGradient.DimensionCount,
 *        allowed at the level (4-5 at 3_0, then 1-8); the arrays hold DimensionCount values
 *   SG2  InputGradient.DataType == OutputGradient.DataType, allowed at the level
 *        (T8, T11 from 4_1)
 *   SG3  InputWindowSizes[i] >= 1 and InputWindowOffsets[i] + InputWindowSizes[i]
 *        <= OutputGradient.Sizes[i] (64-bit)
 *   SG4  InputWindowStrides[i] != 0
 *   SG5  InputGradient.Sizes[i] <= 1 + (InputWindowSizes[i] - 1) / |InputWindowStrides[i]|
 *        (|INT32_MIN| in 64 bits; InputGradient.Sizes[i] >= 1 is T10)
 *
 * The fast path is slice_grad_fast.c.
 */
#include "slice.h"

#include <inttypes.h>

#define OP "SLICE_GRAD"

static const slice_roles roles = {"InputGradientTensor", "OutputGradientTensor", "SG1", "SG2"};

/* ---- the oracle ------------------------------------------------------------------ */

static dmlref_status slice_grad_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const slice_params *p = OP_CPARAMS(op, slice_params);
    const unsigned char *src = IN_DATA(x, 0);
    unsigned char *dst = OUT_DATA(x, 0);
    static const unsigned char zero[16] = {0};
    uint32_t oc[MAX_DIMS];
    nd_iter it;
    (void)err;
    const uint64_t *obs[1] = {out->bstrides};
    for (nd_iter_init(&it, out->n, out->sizes, 1, obs); !it.done; nd_iter_next(&it))
        memcpy(dst + it.offset[0], zero, out->esize); /* every element: all-zero bits */
    const uint64_t *ibs[1] = {in->bstrides};
    for (nd_iter_init(&it, in->n, in->sizes, 1, ibs); !it.done; nd_iter_next(&it)) {
        for (uint32_t d = 0; d < in->n; ++d) /* in [0, OutputGradient.Sizes[d]) by SG3, SG5 */
            oc[d] = (uint32_t)(p->start[d] + p->step[d] * (int64_t)it.coord[d]);
        memcpy(dst + tensor_offset(out, oc), src + it.offset[0], in->esize);
    }
    return DMLREF_OK;
}

/* ---- validation -------------------------------------------------------------------- */

/* SG3 and SG4 over an output gradient of `sizes` (n dimensions): compile and output_sizes. */
static dmlref_status slice_grad_window_rules(uint32_t n, const uint32_t *sizes, const DMLREF_SLICE_GRAD_OPERATOR_DESC *d,
                                             dmlref_error *err) {
    const uint32_t *off = d->InputWindowOffsets, *size = d->InputWindowSizes;
    const int32_t *stride = d->InputWindowStrides;
    for (uint32_t i = 0; i < n; ++i) {                                                             /* SG3 */
        if (size[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SG3", "InputWindowSizes", NULL,
                                  OP ": InputWindowSizes[%" PRIu32 "] is 0; the window must not be empty (SG3)", i);
        const uint64_t end = (uint64_t)off[i] + size[i];
        if (end > sizes[i])
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SG3", "InputWindowOffsets", NULL,
                                  OP ": the window ends outside OutputGradientTensor in dimension %" PRIu32
                                  ": InputWindowOffsets[%" PRIu32 "] + InputWindowSizes[%" PRIu32 "] = %" PRIu32
                                  " + %" PRIu32 " = %" PRIu64 " exceeds OutputGradientTensor.Sizes[%" PRIu32
                                  "] (%" PRIu32 ") (SG3)",
                                  i, i, i, off[i], size[i], end, i, sizes[i]);
    }
    for (uint32_t i = 0; i < n; ++i)                                                               /* SG4 */
        if (stride[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SG4", "InputWindowStrides", NULL,
                                  OP ": InputWindowStrides[%" PRIu32 "] is 0; strides may not be 0 (SG4)", i);
    return DMLREF_OK;
}

/* SG5 for every dimension of the input gradient `in`. */
static dmlref_status slice_grad_reach_rule(const tensor_t *in, const DMLREF_SLICE_GRAD_OPERATOR_DESC *d,
                                           dmlref_error *err) {
    for (uint32_t i = 0; i < in->n; ++i) {                                                         /* SG5 */
        const int32_t st = d->InputWindowStrides[i];
        const uint64_t mag = st < 0 ? (uint64_t)(-(int64_t)st) : (uint64_t)st;
        const uint64_t most = 1 + (uint64_t)(d->InputWindowSizes[i] - 1) / mag;
        if (in->sizes[i] > most)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "SG5", "InputGradientTensor", "Sizes",
                                  OP ": InputGradientTensor.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") exceeds the elements the window reaches: 1 + (InputWindowSizes[%" PRIu32
                                  "] - 1) / |InputWindowStrides[%" PRIu32 "]| = 1 + %" PRIu32 " / %" PRIu64
                                  " = %" PRIu64 " (SG5)",
                                  i, in->sizes[i], i, i, d->InputWindowSizes[i] - 1, mag, most);
    }
    return DMLREF_OK;
}

static const char *const array_names[3] = {"InputWindowOffsets", "InputWindowSizes", "InputWindowStrides"};

static dmlref_status slice_grad_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SLICE_GRAD_OPERATOR_DESC *d = desc;
    const void *const arrays[3] = {d->InputWindowOffsets, d->InputWindowSizes, d->InputWindowStrides};
    TRY(slice_check_roles(op, &roles, desc, d->DimensionCount, 3, array_names, arrays, err)); /* SG1, SG2 */
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    TRY(slice_grad_window_rules(out->n, out->sizes, d, err)); /* SG3, SG4 */
    TRY(slice_grad_reach_rule(in, d, err));                   /* SG5 */

    slice_params *p = OP_PARAMS(op, slice_params);
    for (uint32_t i = 0; i < in->n; ++i) {
        p->start[i] = (int64_t)d->InputWindowOffsets[i] + (d->InputWindowStrides[i] < 0 ? (int64_t)d->InputWindowSizes[i] - 1 : 0);
        p->step[i] = d->InputWindowStrides[i];
    }
    op->oracle = slice_grad_oracle;
    return DMLREF_OK;
}

/* The output's Sizes are the forward SLICE1's input's, which neither the input gradient nor
 * the window gives: they are read from OutputGradientTensor (shape_given) and checked
 * against the window (SG1, SG3-SG5). */
static dmlref_status slice_grad_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                             uint32_t *sizes, dmlref_error *err) {
    const DMLREF_SLICE_GRAD_OPERATOR_DESC *d = desc;
    const void *const arrays[3] = {d->InputWindowOffsets, d->InputWindowSizes, d->InputWindowStrides};
    tensor_t in;
    uint32_t gn, given[MAX_DIMS];
    (void)output;
    TRY(shape_input(op, "InputGradientTensor", d->InputGradientTensor, 0, "SG1", "SG2", &in, err)); /* SG1, SG2 */
    TRY(slice_check_arrays_roles(OP, &roles, &in, d->DimensionCount, 3, array_names, arrays, err)); /* SG1 */
    TRY(shape_given(op, "OutputGradientTensor", d->OutputGradientTensor, "the forward input's shape", &gn, given,
                    err));
    if (gn != in.n)                                                                                  /* SG1 */
        return set_rule_error(err, DMLREF_ERROR_DIMENSION_COUNT, "SG1", "OutputGradientTensor", "DimensionCount",
                              OP ": OutputGradientTensor.DimensionCount (%" PRIu32
                              ") must equal InputGradientTensor.DimensionCount (%" PRIu32 ")",
                              gn, in.n);
    TRY(slice_grad_window_rules(in.n, given, d, err)); /* SG3, SG4 */
    TRY(slice_grad_reach_rule(&in, d, err));           /* SG5 */
    *n = in.n;
    for (uint32_t i = 0; i < in.n; ++i) sizes[i] = given[i];
    return DMLREF_OK;
}

#define D DMLREF_SLICE_GRAD_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputGradientTensor), SLOT_OUT(D, OutputGradientTensor)};
static const dmlref_param params[] = {PARAM_COUNT(D, DimensionCount),
                                      PARAM_UINT_ARRAY(D, InputWindowOffsets, DimensionCount),
                                      PARAM_UINT_ARRAY(D, InputWindowSizes, DimensionCount),
                                      PARAM_INT_ARRAY(D, InputWindowStrides, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_3_0, {4, 5, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SLICE_GRAD, OP, sizeof(D), DMLREF_FEATURE_LEVEL_3_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class slice_grad_class = {&schema, support, N_OF(support), slice_grad_compile, PLAN_HOOK(slice_grad_plan),
                                   slice_grad_output_sizes};
