/* RESAMPLE3's random valid cases: RESAMPLE2's (resample_common.h) plus Antialiased,
 * true or false (no effect on NEAREST_NEIGHBOR). */
#include "resample_common.h"

static int build(prng *r, dmlref_case *g) {
    uint32_t n;
    float scale[4], in_off[4], out_off[4];
    if (resample_draw(r, g, 1, &n, scale, in_off, out_off)) return -1;
    bld_set_param(g, "InterpolationMode", DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR);
    bld_set_param(g, "RoundingDirection", bld_rnd(r, 2));
    bld_set_float_array(g, "Scales", scale, n);
    bld_set_float_array(g, "InputPixelOffsets", in_off, n);
    bld_set_float_array(g, "OutputPixelOffsets", out_off, n);
    bld_set_param(g, "Antialiased", bld_rnd(r, 2));
    return 0;
}

const builder resample3_builder = {DMLREF_OPERATOR_RESAMPLE3, build};
