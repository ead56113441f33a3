/* RESAMPLE1's random valid cases (resample_common.h): NEAREST_NEIGHBOR, 1 to 4 dims,
 * InputPixelOffsets = the drawn input offset + 0.5 (so that the effective offset
 * fl32(InputPixelOffsets - 0.5) is the drawn one: ONNX-like pairs stay ONNX-like). */
#include "resample_common.h"

static int build(prng *r, dmlref_case *g) {
    uint32_t n;
    float scale[4], in_off[4], out_off[4], ipo[4];
    if (resample_draw(r, g, 1, &n, scale, in_off, out_off)) return -1;
    for (uint32_t d = 0; d < n; ++d) {
        volatile float a = in_off[d];
        a = a + 0.5f;
        ipo[d] = a;
    }
    bld_set_param(g, "InterpolationMode", DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR);
    bld_set_float_array(g, "Scales", scale, n);
    bld_set_float_array(g, "InputPixelOffsets", ipo, n);
    bld_set_float_array(g, "OutputPixelOffsets", out_off, n);
    return 0;
}

const builder resample1_builder = {DMLREF_OPERATOR_RESAMPLE1, build};
