/* UNFOLD's random valid cases: 1 to 6 spatial dims (D = 3 .. 8), N and C of 1 to 3, spatial
 * sizes 1 to 6, WindowSizes 1 to 3, Strides 1 to 3, Dilations 1 to 2, StartPadding and
 * EndPadding 0 to 2 each (windows that would not fit shrunk to 1), the output
 * {1 x (D-3), N, C * prod(W), prod(B)} from the library's rule (dmlref_output_sizes); every data
 * type (T11); packed, gapped, permuted or broadcast inputs, packed or gapped outputs; the data
 * bld_fill_random's (NaN payloads, -0, subnormals in the bits flavour). */
#include "builder.h"

static int build(prng *r, dmlref_case *g) {
    const uint32_t K = 1 + bld_rnd(r, bld_rnd(r, 2) ? 2 : 6), D = K + 2;
    uint32_t in[8], out[8], w[6], st[6], dil[6], p0[6], p1[6];
    in[0] = 1 + bld_rnd(r, 3);
    in[1] = 1 + bld_rnd(r, 3);
    bld_rand_dims(r, K, in + 2, K <= 2 ? 6 : 3, bld_cap(K <= 2 ? 48 : 32));
    for (uint32_t d = 0; d < K; ++d) {
        w[d] = 1 + bld_rnd(r, K <= 2 ? 3 : 2);
        st[d] = 1 + bld_rnd(r, 3);
        dil[d] = 1 + bld_rnd(r, 2);
        p0[d] = bld_rnd(r, 3);
        p1[d] = bld_rnd(r, 3);
        if ((uint64_t)in[2 + d] + p0[d] + p1[d] < (uint64_t)dil[d] * (w[d] - 1) + 1) w[d] = 1; /* UF5 */
    }
    bld_shape ts; /* the output's sizes: the library's rule (dmlref_output_sizes) */
    const DMLREF_UNFOLD_OPERATOR_DESC sd = {bld_shape_init(&ts, DMLREF_TENSOR_DATA_TYPE_FLOAT32, D, in), NULL, K, w, st,
                                            dil, p0, p1};
    for (uint32_t d = 0;; ++d) { /* windows shrunk to 1, one dim at a time, until the output is small */
        if (bld_output_sizes(DMLREF_OPERATOR_UNFOLD, &sd, D, out) != 0) return -1;
        if (bld_product(out, D) <= bld_cap(BLD_SMALL_CAP)) break;
        if (d == K) return -1;
        w[d] = 1;
    }
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_set_array(g, "WindowSizes", w, K);
    bld_set_array(g, "Strides", st, K);
    bld_set_array(g, "Dilations", dil, K);
    bld_set_array(g, "StartPadding", p0, K);
    bld_set_array(g, "EndPadding", p1, K);
    bld_set_param(g, "DimensionCount", K);
    bld_tensor_init(&g->inputs[0], dt, D, in);
    bld_tensor_init(&g->outputs[0], dt, D, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    return 0;
}

const builder unfold_builder = {DMLREF_OPERATOR_UNFOLD, build};
