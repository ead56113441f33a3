/*
 * SPLIT (docs/operators.md section 5).
 *   base = 0; for each output k: out_k[c] = in[c + base along Axis]; base += Out_k.Sizes[Axis]
 */
#include "concat.h"

static dmlref_status split_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    (void)err;
    return concat_oracle(op, x, 1);
}

static dmlref_status split_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SPLIT_OPERATOR_DESC *d = desc;
    TRY(concat_compile(op, "InputTensor", d->InputTensor, "OutputCount", d->OutputCount, "OutputTensors",
                       d->OutputTensors, d->Axis, 1, err));
    op->oracle = split_oracle;
    return DMLREF_OK;
}

static dmlref_status split_plan(op_t *op, dmlref_error *err) { return concat_plan(op, 1, err); }

static dmlref_status split_output_sizes_hook(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                             uint32_t *sizes, dmlref_error *err) {
    return split_output_sizes(op, desc, output, n, sizes, err);
}

#define D DMLREF_SPLIT_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_ARRAY(D, OutputTensors, 1, OutputCount)};
static const dmlref_param params[] = {PARAM_COUNT(D, OutputCount), PARAM_UINT(D, Axis)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_T6, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SPLIT, "SPLIT", sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                              N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class split_class = {&schema, support, N_OF(support), split_compile, PLAN_HOOK(split_plan), split_output_sizes_hook};
