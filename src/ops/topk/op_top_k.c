/*
 * TOP_K (docs/operators.md, TOP_K): TOP_K1 with AxisDirection DECREASING, from 1_0 (the
 * header's base block; the page says 2_0 and its 2_0 table applies at 1_0).  Per sequence
 * along Axis, the K largest elements (NaN above +Inf, -0 == +0; ties by ascending index)
 * into OutputValueTensor (bit copies), their indices into OutputIndexTensor.  Rules TK1-TK6,
 * the oracle: topk.c; the fast path: topk_fast.c.
 */
#include "topk.h"

#define OP "TOP_K"

static topk_desc top_k_desc(const DMLREF_TOP_K_OPERATOR_DESC *d) {
    const topk_desc r = {OP, d->InputTensor, d->OutputValueTensor, d->OutputIndexTensor, d->Axis, d->K,
                         DMLREF_AXIS_DIRECTION_DECREASING};
    return r;
}

TOPK_HOOKS(top_k, DMLREF_TOP_K_OPERATOR_DESC, top_k_desc)

#define D DMLREF_TOP_K_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputValueTensor),
                                           SLOT_OUT(D, OutputIndexTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, Axis), PARAM_UINT(D, K)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_F32F16, DT_IDXU32}}, /* the page's 2_0 row, from 1_0 (decision) */
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_1, {1, 8, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_5_0, {1, 8, TOPK_T10, TOPK_U2}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_TOP_K, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class top_k_class = {&schema, support, N_OF(support), top_k_compile, PLAN_HOOK(topk_plan),
                              top_k_output_sizes};
