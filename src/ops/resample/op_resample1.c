/*
 * RESAMPLE1 (docs/operators.md, Q11), NEAREST_NEIGHBOR: RESAMPLE2 with
 * RoundingDirection DECREASING and the input offset fl32(InputPixelOffsets[d]
 * - 0.5): i = floor(fl32(fl32(fl32(o - OutputPixelOffsets[d]) / Scales[d]) -
 * InOff)), nearest with halves up.  Rules RS1-RS6: resample.c.  The fast path
 * is resample_fast.c.
 */
#include "resample.h"

#define OP "RESAMPLE1"

static resample_desc resample1_desc(const DMLREF_RESAMPLE1_OPERATOR_DESC *d) {
    const resample_desc r = {OP,
                             d->InputTensor,
                             d->OutputTensor,
                             (uint32_t)d->InterpolationMode,
                             DMLREF_AXIS_DIRECTION_DECREASING,
                             "DimensionCount",
                             d->DimensionCount,
                             d->Scales,
                             d->InputPixelOffsets,
                             d->OutputPixelOffsets,
                             0,
                             RESAMPLE_V1};
    return r;
}

RESAMPLE_HOOKS(resample1, resample1_desc)

#define DT_RS4 (DT(FLOAT32) | DT(FLOAT16) | DT(INT8) | DT(UINT8))

#define D DMLREF_RESAMPLE1_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {
    PARAM_INTERPOLATION_MODE(D, InterpolationMode), PARAM_COUNT(D, DimensionCount),
    PARAM_FLOAT_ARRAY(D, Scales, DimensionCount), PARAM_FLOAT_ARRAY(D, InputPixelOffsets, DimensionCount),
    PARAM_FLOAT_ARRAY(D, OutputPixelOffsets, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_1, {4, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_5_1, {1, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_6_2, {1, 4, DT_RS4, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_RESAMPLE1, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class resample1_class = {&schema, support, N_OF(support), resample1_compile, PLAN_HOOK(resample_plan),
                                  resample1_output_sizes};
