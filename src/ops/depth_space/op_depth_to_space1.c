/*
 * DEPTH_TO_SPACE1 (docs/operators.md, P6).  Output {N, C/(B*B), H*B, W*B} from input {N, C, H, W}:
 * the channels' blocks of B*B spread into B x B squares of space.
 * Order: DEPTH_COLUMN_ROW (ONNX "DCR") or COLUMN_ROW_DEPTH (ONNX "CRD").
 * The oracle and the rules DS1-DS6 are depth_space.c's, the fast path
 * depth_space_fast.c's, shared with DEPTH_TO_SPACE, SPACE_TO_DEPTH, SPACE_TO_DEPTH1.
 */
#include "depth_space.h"
#include "core/registry.h"

#define OP "DEPTH_TO_SPACE1"

static dmlref_status depth_to_space1_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC *d = desc;
    return depth_space_compile(op, 1, d->InputTensor, d->OutputTensor, d->BlockSize, 1, (uint32_t)d->Order,
                               err);
}

static dmlref_status depth_to_space1_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                          uint32_t *sizes, dmlref_error *err) {
    const DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC *d = desc;
    (void)output;
    return depth_space_output_sizes(op, 1, d->InputTensor, d->BlockSize, 1, (uint32_t)d->Order, n, sizes, err);
}

#define D DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, BlockSize), PARAM_ENUM(D, Order, depth_space_order_names)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_5_0, {4, 4, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_DEPTH_TO_SPACE1, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class depth_to_space1_class = {&schema, support, N_OF(support), depth_to_space1_compile, PLAN_HOOK(depth_space_plan),
                                      depth_to_space1_output_sizes};
