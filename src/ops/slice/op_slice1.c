/*
 * SLICE1 (docs/operators.md P3).
 *   start[i] = InputWindowOffsets[i] + (InputWindowStrides[i] < 0 ? InputWindowSizes[i] - 1 : 0)
 *   Output[o] = Input[start + InputWindowStrides (.) o]
 * A negative stride walks the window from its end: the input seen through a
 * view with negative byte strides (plan.h).
 *
 *   SL1  DimensionCount == Input.DimensionCount == Output.DimensionCount, allowed
 *        at the level (4-5 at 2_1, then 1-8); the arrays hold DimensionCount values
 *   SL2  Input.DataType == Output.DataType, allowed at the level
 *   SL5  InputWindowSizes[i] >= 1 and InputWindowOffsets[i] + InputWindowSizes[i]
 *        <= Input.Sizes[i] (64-bit)
 *   SL6  InputWindowStrides[i] != 0
 *   SL7  Output.Sizes[i] <= 1 + (InputWindowSizes[i] - 1) / |InputWindowStrides[i]|
 *        (|INT32_MIN| in 64 bits; Output.Sizes[i] >= 1 is T10)
 */
#include "slice.h"

#include <inttypes.h>

#define OP "SLICE1"

/* SL5 and SL6 over an input of in->n dimensions: shared by compile and output_sizes. */
static dmlref_status slice1_window_rules(const tensor_t *in, const DMLREF_SLICE1_OPERATOR_DESC *d, dmlref_error *err) {
    const uint32_t n = in->n;
    const uint32_t *off = d->InputWindowOffsets, *size = d->InputWindowSizes;
    const int32_t *stride = d->InputWindowStrides;
    for (uint32_t i = 0; i < n; ++i) {                                                             /* SL5 */
        if (size[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SL5", "InputWindowSizes", NULL,
                                  OP ": InputWindowSizes[%" PRIu32 "] is 0; the input window must not be empty (SL5)",
                                  i);
        const uint64_t end = (uint64_t)off[i] + size[i];
        if (end > in->sizes[i])
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SL5", "InputWindowOffsets", NULL,
                                  OP ": the window ends outside InputTensor in dimension %" PRIu32
                                  ": InputWindowOffsets[%" PRIu32 "] + InputWindowSizes[%" PRIu32 "] = %" PRIu32
                                  " + %" PRIu32 " = %" PRIu64 " exceeds InputTensor.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") (SL5)",
                                  i, i, i, off[i], size[i], end, i, in->sizes[i]);
    }
    for (uint32_t i = 0; i < n; ++i)                                                               /* SL6 */
        if (stride[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SL6", "InputWindowStrides", NULL,
                                  OP ": InputWindowStrides[%" PRIu32 "] is 0; strides may not be 0 (SL6)", i);
    return DMLREF_OK;
}

/* SL7: the most elements the window reaches along dimension i, 1 + (size - 1) / |stride|. */
static uint64_t slice1_most(const DMLREF_SLICE1_OPERATOR_DESC *d, uint32_t i, uint64_t *mag) {
    const int32_t st = d->InputWindowStrides[i];
    *mag = st < 0 ? (uint64_t)(-(int64_t)st) : (uint64_t)st;
    if (*mag == 1) return d->InputWindowSizes[i]; /* the common stride, without a division */
    return 1 + (uint64_t)(d->InputWindowSizes[i] - 1) / *mag;
}

static dmlref_status slice1_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SLICE1_OPERATOR_DESC *d = desc;
    static const char *const names[3] = {"InputWindowOffsets", "InputWindowSizes", "InputWindowStrides"};
    const void *const arrays[3] = {d->InputWindowOffsets, d->InputWindowSizes, d->InputWindowStrides};
    TRY(slice_check_common(op, desc, d->DimensionCount, 3, names, arrays, err));
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t n = in->n;
    const uint32_t *off = d->InputWindowOffsets, *size = d->InputWindowSizes;
    const int32_t *stride = d->InputWindowStrides;

    TRY(slice1_window_rules(in, d, err)); /* SL5, SL6 */
    for (uint32_t i = 0; i < n; ++i) {                                                             /* SL7 */
        uint64_t mag;
        const uint64_t most = slice1_most(d, i, &mag);
        if (out->sizes[i] > most)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "SL7", "OutputTensor", "Sizes",
                                  OP ": OutputTensor.Sizes[%" PRIu32 "] (%" PRIu32
                                  ") exceeds the elements the window reaches: 1 + (InputWindowSizes[%" PRIu32
                                  "] - 1) / |InputWindowStrides[%" PRIu32 "]| = 1 + %" PRIu32 " / %" PRIu64
                                  " = %" PRIu64 " (SL7)",
                                  i, out->sizes[i], i, i, size[i] - 1, mag, most);
    }

    slice_params *p = OP_PARAMS(op, slice_params);
    for (uint32_t i = 0; i < n; ++i) {
        p->start[i] = (int64_t)off[i] + (stride[i] < 0 ? (int64_t)size[i] - 1 : 0);
        p->step[i] = stride[i];
    }
    op->oracle = slice_oracle;
    return DMLREF_OK;
}

static dmlref_status slice1_plan_hook(op_t *op, dmlref_error *err) { return slice_plan(op, 1, err); }

/* SL7: the largest output the window allows (every element it reaches). */
static dmlref_status slice1_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                         uint32_t *sizes, dmlref_error *err) {
    const DMLREF_SLICE1_OPERATOR_DESC *d = desc;
    static const char *const names[3] = {"InputWindowOffsets", "InputWindowSizes", "InputWindowStrides"};
    const void *const arrays[3] = {d->InputWindowOffsets, d->InputWindowSizes, d->InputWindowStrides};
    tensor_t in;
    (void)output;
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "SL1", "SL2", &in, err)); /* SL1, SL2 */
    TRY(slice_check_arrays(OP, &in, d->DimensionCount, 3, names, arrays, err));    /* SL1 */
    TRY(slice1_window_rules(&in, d, err));                                         /* SL5, SL6 */
    for (uint32_t i = 0; i < in.n; ++i) {
        uint64_t mag;
        sizes[i] = (uint32_t)slice1_most(d, i, &mag); /* <= InputWindowSizes[i] */
    }
    *n = in.n;
    return DMLREF_OK;
}

#define D DMLREF_SLICE1_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_COUNT(D, DimensionCount),
                                      PARAM_UINT_ARRAY(D, InputWindowOffsets, DimensionCount),
                                      PARAM_UINT_ARRAY(D, InputWindowSizes, DimensionCount),
                                      PARAM_INT_ARRAY(D, InputWindowStrides, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 5, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SLICE1, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class slice1_class = {&schema, support, N_OF(support), slice1_compile, PLAN_HOOK(slice1_plan_hook), slice1_output_sizes};
