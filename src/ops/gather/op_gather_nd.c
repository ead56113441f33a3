/*
 * GATHER_ND (docs/operators.md P1).  output[...] = input[indices[...], ...]:
 * GATHER_ND1 with BatchDimensionCount 0; the one implementation is
 * src/ops/gather/gather_nd.c (rules GN1-GN8, the oracle, the checking pre-pass) and its
 * fast path plan_gather_nd (gather_fast.c).
 */
#include "gather_nd.h"
#include "core/registry.h"

static dmlref_status gather_nd_class_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_GATHER_ND_OPERATOR_DESC *g = desc;
    const gather_nd_desc d = {g->InputTensor, g->IndicesTensor, g->OutputTensor,
                              g->InputDimensionCount, g->IndicesDimensionCount, 0, 0};
    return gather_nd_compile(op, desc, &d, err);
}

static dmlref_status gather_nd_class_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                    uint32_t *sizes, dmlref_error *err) {
    const DMLREF_GATHER_ND_OPERATOR_DESC *g = desc;
    const gather_nd_desc d = {g->InputTensor, g->IndicesTensor, g->OutputTensor, g->InputDimensionCount,
                              g->IndicesDimensionCount, 0, 0};
    (void)output;
    return gather_nd_output_sizes(op, desc, &d, n, sizes, err);
}

#define D DMLREF_GATHER_ND_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, InputDimensionCount), PARAM_UINT(D, IndicesDimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, DT_IDXU32}},
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_GATHER_ND, "GATHER_ND", sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class gather_nd_class = {&schema, support, N_OF(support), gather_nd_class_compile, PLAN_HOOK(gather_nd_plan),
                                  gather_nd_class_output_sizes};
