/* RESAMPLE's random valid cases (resample_common.h): NEAREST_NEIGHBOR, 1 to 4 dims, the
 * per-dimension scales of every kind (its offsets are fixed: 0.5 and -0.5). */
#include "resample_common.h"

static int build(prng *r, dmlref_case *g) {
    uint32_t n;
    float scale[4], in_off[4], out_off[4];
    if (resample_draw(r, g, 1, &n, scale, in_off, out_off)) return -1;
    bld_set_param(g, "InterpolationMode", DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR);
    bld_set_float_array(g, "Scales", scale, n);
    return 0;
}

const builder resample_builder = {DMLREF_OPERATOR_RESAMPLE, build};
