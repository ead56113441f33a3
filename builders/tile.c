/* TILE's random valid cases: an input of 1 to 8 dims (packed, gapped, permuted
 * or broadcast), Repeats of 1 to 4 per dim, the output Input.Sizes * Repeats (dmlref_output_sizes)
 * (packed or gapped); every data type but FLOAT64, which TILE never accepts. */
#include "builder.h"

#include <string.h>

static const DMLREF_TENSOR_DATA_TYPE tile_types[10] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_INT64,
    DMLREF_TENSOR_DATA_TYPE_INT32,   DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,
    DMLREF_TENSOR_DATA_TYPE_UINT64,  DMLREF_TENSOR_DATA_TYPE_UINT32,  DMLREF_TENSOR_DATA_TYPE_UINT16,
    DMLREF_TENSOR_DATA_TYPE_UINT8};

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t in[8], rep[8], out[8];
    bld_rand_sizes(r, N, in, bld_cap(48));
    uint64_t p = bld_product(in, N);
    for (uint32_t d = 0; d < N; ++d) {
        const uint32_t v = 1 + bld_rnd(r, 4);
        rep[d] = p * v <= bld_cap(256) ? v : 1;
        p *= rep[d];
    }
    bld_shape ts; /* the output's sizes: the library's rule (dmlref_output_sizes), Input.Sizes * Repeats */
    const DMLREF_TILE_OPERATOR_DESC sd = {bld_shape_init(&ts, DMLREF_TENSOR_DATA_TYPE_FLOAT32, N, in), NULL, N, rep};
    if (bld_output_sizes(DMLREF_OPERATOR_TILE, &sd, N, out) != 0) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, tile_types, 10);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_set_array(g, "Repeats", rep, N);
    bld_set_param(g, "RepeatsCount", N);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    return 0;
}

const builder tile_builder = {DMLREF_OPERATOR_TILE, build};
