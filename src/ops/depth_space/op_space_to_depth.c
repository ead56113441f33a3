/*
 * SPACE_TO_DEPTH (docs/operators.md, P6): SPACE_TO_DEPTH1 with Order = DEPTH_COLUMN_ROW
 * ("equivalent", the page's Remarks).  Output {N, C*B*B, H/B, W/B} from input {N, C, H, W}:
 * each B x B square of space folds into B*B channels; the exact inverse of DEPTH_TO_SPACE.
 * The oracle and the rules DS1-DS5 are depth_space.c's, the fast path
 * depth_space_fast.c's, shared with DEPTH_TO_SPACE, DEPTH_TO_SPACE1, SPACE_TO_DEPTH1.
 */
#include "depth_space.h"
#include "core/registry.h"

#define OP "SPACE_TO_DEPTH"

static dmlref_status space_to_depth_compile(op_t *op, const void *desc, dmlref_error *err) {
    const DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC *d = desc;
    return depth_space_compile(op, 0, d->InputTensor, d->OutputTensor, d->BlockSize, 0, 0, err);
}

static dmlref_status space_to_depth_output_sizes(const op_t *op, const void *desc, uint32_t output, uint32_t *n,
                                          uint32_t *sizes, dmlref_error *err) {
    const DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC *d = desc;
    (void)output;
    return depth_space_output_sizes(op, 0, d->InputTensor, d->BlockSize, 0, 0, n, sizes, err);
}

#define D DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_UINT(D, BlockSize)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_1_0, {4, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_T8, 0}},
    {DMLREF_FEATURE_LEVEL_5_0, {4, 4, DT_T11, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_SPACE_TO_DEPTH, OP, sizeof(D), DMLREF_FEATURE_LEVEL_1_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class space_to_depth_class = {&schema, support, N_OF(support), space_to_depth_compile, PLAN_HOOK(depth_space_plan),
                                      space_to_depth_output_sizes};
