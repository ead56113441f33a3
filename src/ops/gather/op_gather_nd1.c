/*
 * GATHER_ND1 (docs/operators.md P1).  output[batch, ...] = input[batch, indices[batch, ...], ...]:
 * GATHER_ND with BatchDimensionCount leading dimensions gathered independently.
 * The one implementation is src/ops/gather/gather_nd.c (rules GN1-GN8, the oracle, the
 * checking pre-pass) and its fast path plan_gather_nd (gather_fast.c).
 */
#include "gather_nd.h"
#include "core/registry.h"

static dmlref_status gather_nd1_class_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_GATHER_ND1_OPERATOR_DESC *g = desc;
    const gather_nd_desc d = {g->InputTensor,         g->IndicesTensor,         g->OutputTensor,
                              g->InputDimensionCount, g->IndicesDimensionCount, g->BatchDimensionCount, 1};
    return gather_nd_compile(op, desc, &d, err);
}

static dmlref_status gather_nd1_class_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                                    uint32_t *sizes, dmlref_error *err) {
    const DMLREF_GATHER_ND1_OPERATOR_DESC *g = desc;
    const gather_nd_desc d = {g->InputTensor,         g->IndicesTensor,         g->OutputTensor,
                              g->InputDimensionCount, g->IndicesDimensionCount, g->BatchDimensionCount, 1};
    (void)output;
    return gather_nd_output_sizes(op, desc, &d, n, sizes, err);
}

#define D DMLREF_GATHER_ND1_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_INDICES(D, IndicesTensor),
                                           SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, InputDimensionCount), PARAM_UINT(D, IndicesDimensionCount),
                                      PARAM_UINT(D, BatchDimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_3_0, {1, 8, DT_T8, DT_IDX4}},
    {DMLREF_FEATURE_LEVEL_4_1, {1, 8, DT_T11, DT_IDX4}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_GATHER_ND1, "GATHER_ND1", sizeof(D), DMLREF_FEATURE_LEVEL_3_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class gather_nd1_class = {&schema, support, N_OF(support), gather_nd1_class_compile, PLAN_HOOK(gather_nd_plan),
                                  gather_nd1_class_output_sizes};
