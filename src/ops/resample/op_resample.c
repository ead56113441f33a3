/*
 * RESAMPLE (docs/operators.md, Q11), NEAREST_NEIGHBOR: RESAMPLE1 with
 * InputPixelOffsets 0.5 and OutputPixelOffsets -0.5, so the source index is
 * i = floor(fl32(fl32(o + 0.5) / Scales[d])), clamped: the input pixel that
 * holds the output pixel's centre.  Rules RS1-RS6 (RS5 has no offsets to check,
 * ScaleCount is RS3's count): resample.c.  The fast path is resample_fast.c.
 */
#include "resample.h"

#define OP "RESAMPLE"

static resample_desc resample_desc_of(const DMLREF_RESAMPLE_OPERATOR_DESC *d) {
    const resample_desc r = {OP,   d->InputTensor, d->OutputTensor, (uint32_t)d->InterpolationMode,
                             DMLREF_AXIS_DIRECTION_DECREASING, "ScaleCount", d->ScaleCount, d->Scales,
                             NULL, NULL, 0, RESAMPLE_V0};
    return r;
}

RESAMPLE_HOOKS(resample_hook, resample_desc_of)

#define DT_RS4 (DT(FLOAT32) | DT(FLOAT16) | DT(INT8) | DT(UINT8))

#define D DMLREF_RESAMPLE_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {PARAM_INTERPOLATION_MODE(D, InterpolationMode), PARAM_COUNT(D, ScaleCount),
                                      PARAM_FLOAT_ARRAY(D, Scales, ScaleCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_2_0, {4, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_5_1, {1, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_6_2, {1, 4, DT_RS4, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_RESAMPLE, OP, sizeof(D), DMLREF_FEATURE_LEVEL_2_0, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class resample_class = {&schema, support, N_OF(support), resample_hook_compile, PLAN_HOOK(resample_plan),
                                 resample_hook_output_sizes};
