/*
 * RESAMPLE3 (docs/operators.md, Q11), NEAREST_NEIGHBOR: RESAMPLE2 plus Antialiased,
 * which has no effect on NEAREST_NEIGHBOR (decision; any value accepted).  Per dimension d and
 * output coordinate o, the source index
 *   t = fl32(fl32(fl32(o - OutputPixelOffsets[d]) / Scales[d]) - InputPixelOffsets[d]),
 *   i = floor(t) (DECREASING) or ceil(t) (INCREASING), clamped to [0, In.Sizes[d] - 1];
 * out[o...] = in[i...] (a bit copy).  Rules RS1-RS6: resample.c.  Output.Sizes
 * are free (>= 1).  The fast path (resample.repeat, resample.rows, resample.gather) is
 * resample_fast.c.
 */
#include "resample.h"

#define OP "RESAMPLE3"

static resample_desc resample3_desc(const DMLREF_RESAMPLE3_OPERATOR_DESC *d) {
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

RESAMPLE_HOOKS(resample3, resample3_desc)

#define DT_RS4 (DT(FLOAT32) | DT(FLOAT16) | DT(INT8) | DT(UINT8))

#define D DMLREF_RESAMPLE3_OPERATOR_DESC
static const dmlref_tensor_slot slots[] = {SLOT_IN(D, InputTensor), SLOT_OUT(D, OutputTensor)};
static const dmlref_param params[] = {
    PARAM_INTERPOLATION_MODE(D, InterpolationMode), PARAM_AXIS_DIRECTION(D, RoundingDirection),
    PARAM_COUNT(D, DimensionCount), PARAM_FLOAT_ARRAY(D, Scales, DimensionCount),
    PARAM_FLOAT_ARRAY(D, InputPixelOffsets, DimensionCount), PARAM_FLOAT_ARRAY(D, OutputPixelOffsets, DimensionCount), PARAM_BOOL(D, Antialiased)};
static const support_row support[] = {
    {DMLREF_FEATURE_LEVEL_6_4, {1, 4, DT_RS4, 0}}, /* decision: the page's table is not readable */
};
static const dmlref_schema schema = {DMLREF_OPERATOR_RESAMPLE3, OP, sizeof(D), DMLREF_FEATURE_LEVEL_6_4, 0,
                                     N_OF(slots), slots, N_OF(params), params};
#undef D

const op_class resample3_class = {&schema, support, N_OF(support), resample3_compile, PLAN_HOOK(resample_plan),
                                  resample3_output_sizes};
