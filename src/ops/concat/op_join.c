/*
 * JOIN (docs/operators.md section 6).
 *   base = 0; for each input k: out[c + base along Axis] = in_k[c]; base += In_k.Sizes[Axis]
 */
#include "concat.h"

static dmlref_status join_oracle(const op_t *op, const exec_args *x, dmlref_error *err) {
    (void)err;
    return concat_oracle(op, x, 0);
}

static dmlref_status join_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_JOIN_OPERATOR_DESC *d = desc;
    TRY(concat_compile(op, "OutputTensor", d->OutputTensor, "InputCount", d->InputCount, "InputTensors",
                       d->InputTensors, d->Axis, 0, err));
    op->oracle = join_oracle;
    return DMLREF_OK;
}

static dmlref_status join_plan(op_t *op, dmlref_error *err) { return concat_plan(op, 0, err); }

static dmlref_status join_output_sizes_hook(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                            uint32_t *sizes, dmlref_error *err) {
    (void)output;
    return join_output_sizes(op, desc, n, sizes, err);
}

#define D DMLREF_JOIN_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_ARRAY(D, InputTensors, 0, InputCount), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_COUNT(D, InputCount), PARAM_UINT(D, Axis)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_T6, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_3_0, {4, 5, DT_T8, 0}}, /* the Join page's 3_0 row */
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T8, 0}}, /* FL history: 8D from 3_1 */
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_JOIN, "JOIN", sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                              N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class join_class = {&schema, support, N_OF(support), join_compile, PLAN_HOOK(join_plan), join_output_sizes_hook};
