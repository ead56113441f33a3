/*
 * TOP_K1 (docs/operators.md, TOP_K): from 2_1.  Per sequence along Axis, the K first
 * elements in AxisDirection's order (DECREASING: the largest first; INCREASING: the
 * smallest first; NaN above +Inf, -0 == +0; ties by ascending index either way) into
 * OutputValueTensor (bit copies), their indices into OutputIndexTensor.  Rules TK1-TK7,
 * the oracle: topk.c; the fast path: topk_fast.c.
 */
#include "topk.h"

#define OP "TOP_K1"

static topk_desc top_k1_desc(const DMLREF_TOP_K1_OPERATOR_DESC *d) {
    const topk_desc r = {OP, d->InputTensor, d->OutputValueTensor, d->OutputIndexTensor, d->Axis, d->K,
                         (uint32_t)d->AxisDirection};
    return r;
}

TOPK_HOOKS(top_k1, DMLREF_TOP_K1_OPERATOR_DESC, top_k1_desc)

#define D DMLREF_TOP_K1_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputValueTensor),
                                           SLOT_OUT(D, OutputIndexTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis), PARAM_UINT(D, K), PARAM_AXIS_DIRECTION(D, AxisDirection)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, TOPK_T10, TOPK_U2}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_TOP_K1, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class top_k1_class = {&schema, support, N_OF(support), top_k1_compile, PLAN_HOOK(topk_plan),
                               top_k1_output_sizes};
