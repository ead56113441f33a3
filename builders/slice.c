/* SLICE's random valid cases: a window of the input per dimension (offset, positive
 * stride, output size), sometimes a size-1 window with a huge stride; gapped, permuted
 * and broadcast inputs, gapped outputs. */
#include "builder.h"

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t in[8], out[8], off[8], stride[8];
    bld_rand_sizes(r, N, in, bld_cap(256));
    for (uint32_t d = 0; d < N; ++d) {
        const uint32_t k = bld_rnd(r, 10);
        stride[d] = k < 5 ? 1 : 1 + bld_rnd(r, in[d]); /* 1, or up to the input size */
        out[d] = 1 + bld_rnd(r, 1 + (in[d] - 1) / stride[d]);
        off[d] = bld_rnd(r, in[d] - (out[d] - 1) * stride[d]);
        if (out[d] == 1 && bld_rnd(r, 8) == 0) stride[d] = 0xFFFFFFFFu; /* never taken */
    }
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_set_array(g, "Offsets", off, N);
    bld_set_array(g, "Sizes", out, N);
    bld_set_array(g, "Strides", stride, N);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    return 0;
}

const builder slice_builder = {DMLREF_OPERATOR_SLICE, build};
