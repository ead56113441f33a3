/*
 * SLICE (docs/operators.md P3).
 *   Output[o] = Input[Offsets + Strides (.) o]
 *
 *   SL1  DimensionCount == Input.DimensionCount == Output.DimensionCount, allowed
 *        at the level (4-5 before 3_0, then 1-8); the arrays hold DimensionCount values
 *   SL2  Input.DataType == Output.DataType, allowed at the level
 *   SL3  Sizes[i] == Output.Sizes[i]
 *   SL4  Strides[i] >= 1 (dmlref's decision) and
 *        Offsets[i] + (Sizes[i] - 1) * Strides[i] < Input.Sizes[i] (64-bit)
 */
#include "slice.h"

#include <inttypes.h>

#define OP "SLICE"

/* SL4 over an input of in->n dimensions: shared by compile and output_sizes. */
static dmlref_status slice_window_rules(const tensor_t *in, const DMLREF_SLICE_OPERATOR_DESC *d, dmlref_error *err) {
    const uint32_t n = in->n;
    for (uint32_t i = 0; i < n; ++i) {                                                             /* SL4 */
        if (d->Strides[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SL4", "Strides", NULL,
                                  OP ": Strides[%" PRIu32 "] is 0; every stride must be >= 1 (SL4, dmlref's "
                                  "decision: SLICE1 forbids 0 too)",
                                  i);
        /* < 2^32 + 2^32 * 2^32: no overflow in 64 bits (Sizes[i] >= 1 by SL3 and T10) */
        const uint64_t last = (uint64_t)d->Offsets[i] + (uint64_t)(d->Sizes[i] - 1) * d->Strides[i];
        if (last >= in->sizes[i])
            return set_rule_error(err, DMLREF_ERROR_PARAMETER, "SL4", "Offsets", NULL,
                                  OP ": the window reads outside InputTensor in dimension %" PRIu32
                                  ": Offsets[%" PRIu32 "] + (Sizes[%" PRIu32 "] - 1) * Strides[%" PRIu32
                                  "] = %" PRIu32 " + %" PRIu32 " * %" PRIu32 " = %" PRIu64
                                  " must be < InputTensor.Sizes[%" PRIu32 "] (%" PRIu32 ") (SL4)",
                                  i, i, i, i, d->Offsets[i], d->Sizes[i] - 1, d->Strides[i], last, i, in->sizes[i]);
    }
    return DMLREF_OK;
}

static dmlref_status slice_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SLICE_OPERATOR_DESC *d = desc;
    static const char *const names[3] = {"Offsets", "Sizes", "Strides"};
    const void *const arrays[3] = {d->Offsets, d->Sizes, d->Strides};
    TRY(slice_check_common(op, desc, d->DimensionCount, 3, names, arrays, err));
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t n = in->n;

    for (uint32_t i = 0; i < n; ++i)                                                               /* SL3 */
        if (d->Sizes[i] != out->sizes[i])
            return set_rule_error(err, DMLREF_ERROR_SIZES, "SL3", "Sizes", NULL,
                                  OP ": Sizes[%" PRIu32 "] (%" PRIu32 ") must equal OutputTensor.Sizes[%" PRIu32
                                  "] (%" PRIu32 ") (SL3)",
                                  i, d->Sizes[i], i, out->sizes[i]);
    TRY(slice_window_rules(in, d, err)); /* SL4 */

    slice_params *p = OP_PARAMS(op, slice_params);
    for (uint32_t i = 0; i < n; ++i) {
        p->start[i] = d->Offsets[i];
        p->step[i] = d->Strides[i];
    }
    op->oracle = slice_oracle;
    return DMLREF_OK;
}

static dmlref_status slice_plan_hook(op_t *op, dmlref_error *err) { return slice_plan(op, 0, err); }

/* SL3: the output's Sizes are the parameter Sizes (checked: SL1, the window SL4). */
static dmlref_status slice_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n, uint32_t *sizes,
                                        dmlref_error *err) {
    const DMLREF_SLICE_OPERATOR_DESC *d = desc;
    static const char *const names[3] = {"Offsets", "Sizes", "Strides"};
    const void *const arrays[3] = {d->Offsets, d->Sizes, d->Strides};
    tensor_t in;
    (void)output;
    TRY(shape_input(op, "InputTensor", d->InputTensor, 0, "SL1", "SL2", &in, err)); /* SL1, SL2 */
    TRY(slice_check_arrays(OP, &in, d->DimensionCount, 3, names, arrays, err));    /* SL1 */
    for (uint32_t i = 0; i < in.n; ++i)                                           /* SL3, T10 */
        if (d->Sizes[i] == 0)
            return set_rule_error(err, DMLREF_ERROR_SIZES, "SL3", "Sizes", NULL,
                                  OP ": Sizes[%" PRIu32 "] is 0; every output size must be >= 1 (SL3)", i);
    TRY(slice_window_rules(&in, d, err)); /* SL4 */
    *n = in.n;
    for (uint32_t i = 0; i < in.n; ++i) sizes[i] = d->Sizes[i];
    return DMLREF_OK;
}

#define D DMLREF_SLICE_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_COUNT(D, DimensionCount), PARAM_UINT_ARRAY(D, Offsets, DimensionCount),
                                      PARAM_UINT_ARRAY(D, Sizes, DimensionCount),
                                      PARAM_UINT_ARRAY(D, Strides, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 5, DT_T6, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 5, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SLICE, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class slice_class = {&schema, support, N_OF(support), slice_compile, PLAN_HOOK(slice_plan_hook), slice_output_sizes};
