/* UPSAMPLE_2D's random valid cases: 4 or 5 dims (NCHW / NCDHW), FLOAT32 or FLOAT16,
 * ScaleSize Width and Height 1 to 4 each, the output In.Sizes with H and W scaled
 * (dmlref_output_sizes), random layouts. */
#include "builder.h"

static const DMLREF_TENSOR_DATA_TYPE upsample_types[2] = {DMLREF_TENSOR_DATA_TYPE_FLOAT32,
                                                          DMLREF_TENSOR_DATA_TYPE_FLOAT16};

static int build(prng *r, dmlref_case *g) {
    const uint32_t n = 4 + bld_rnd(r, 2);
    uint32_t in[5], out[5];
    bld_rand_sizes(r, n, in, bld_cap(32));
    const uint64_t p = bld_product(in, n);
    uint32_t w = 1 + bld_rnd(r, 4), h = 1 + bld_rnd(r, 4);
    if (p * w * h > bld_cap(256)) w = h = 1;
    bld_shape ts;
    const DMLREF_UPSAMPLE_2D_OPERATOR_DESC sd = {bld_shape_init(&ts, DMLREF_TENSOR_DATA_TYPE_FLOAT32, n, in), NULL,
                                                 {w, h}, DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR};
    if (bld_output_sizes(DMLREF_OPERATOR_UPSAMPLE_2D, &sd, n, out) != 0) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, upsample_types, 2);
    g->n_inputs = 1;
    g->n_outputs = 1;
    const dmlref_param *ss = desc_param(g->schema, "ScaleSize");
    if (ss) {
        desc_set_u32(g->desc_mem, ss->offset, w);
        desc_set_u32(g->desc_mem, ss->offset + 4, h);
    }
    bld_set_param(g, "InterpolationMode", DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR);
    bld_tensor_init(&g->inputs[0], dt, n, in);
    bld_tensor_init(&g->outputs[0], dt, n, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    return 0;
}

const builder upsample_2d_builder = {DMLREF_OPERATOR_UPSAMPLE_2D, build};
