/*
 * RESAMPLE2 (docs/operators.md, Q11), NEAREST_NEIGHBOR.  Per dimension d and
 * output coordinate o, the source index
 *   t = fl32(fl32(fl32(o - OutputPixelOffsets[d]) / Scales[d]) - InputPixelOffsets[d]),
 *   i = floor(t) (DECREASING) or ceil(t) (INCREASING), clamped to [0, In.Sizes[d] - 1];
 * out[o...] = in[i...] (a bit copy).  Rules RS1-RS6: resample.c.  Output.Sizes
 * are free (>= 1).  The fast path (resample.repeat, resample.rows, resample.gather) is
 * resample_fast.c.
 */
#include "resample.h"

#define OP "RESAMPLE2"

static resample_desc resample2_desc(const DMLREF_RESAMPLE2_OPERATOR_DESC *d) {
    const resample_desc r = {OP,
                             d->InputTensor,
                             d->OutputTensor,
                             (uint32_t)d->InterpolationMode,
                             (uint32_t)d->RoundingDirection,
                             "DimensionCount",
                             d->DimensionCount,
                             d->Scales,
                             d->InputPixelOffsets,
                             d->OutputPixelOffsets,
                             1,
                             RESAMPLE_V2};
    return r;
}

RESAMPLE_HOOKS(resample2, resample2_desc)

#define DT_RS4 (DT(FLOAT32) | DT(FLOAT16) | DT(INT8) | DT(UINT8))

#define D DMLREF_RESAMPLE2_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {
    PARAM_INTERPOLATION_MODE(D, InterpolationMode), PARAM_AXIS_DIRECTION(D, RoundingDirection),
    PARAM_COUNT(D, DimensionCount), PARAM_FLOAT_ARRAY(D, Scales, DimensionCount),
    PARAM_FLOAT_ARRAY(D, InputPixelOffsets, DimensionCount), PARAM_FLOAT_ARRAY(D, OutputPixelOffsets, DimensionCount)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_5_1, {1, 4, DT_F32F16, 0}},
    {DMLREF_FEATURE_LEVEL_6_2, {1, 4, DT_RS4, 0}},
};
static const dmlref_schema schema = {DMLREF_OPERATOR_RESAMPLE2, OP, sizeof(D), DMLREF_FEATURE_LEVEL_5_1, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class resample2_class = {&schema, support, N_OF(support), resample2_compile, PLAN_HOOK(resample_plan),
                                  resample2_output_sizes};
