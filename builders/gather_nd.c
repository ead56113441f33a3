/* GATHER_ND's and GATHER_ND1's random valid cases (both builders: one shape rule,
 * GATHER_ND being GATHER_ND1 with BatchDimensionCount 0).  R, Q, B and the tuple
 * length T drawn in range, the batch sizes shared by Input and Indices, the output
 * shaped by rule GN8, every component in range for its own input dimension
 * (negative for signed types now and then). */
#include "builder.h"

#include <string.h>

static int build(prng *r, dmlref_case *g, int nd1) {
    const uint32_t N = 1 + bld_rnd(r, 8), R = 1 + bld_rnd(r, N), Q = 1 + bld_rnd(r, N);
    const uint32_t B = nd1 ? bld_rnd(r, R < Q ? R : Q) : 0; /* GN5: B < R, B < Q */
    const uint32_t T = 1 + bld_rnd(r, R - B);              /* GN6 */
    const uint32_t M = (Q - 1) + (R - B - T);
    if (M > N) return -1;                                  /* GN8 */
    uint32_t in[8], idx[8], out[8], I[8], J[8];
    for (uint32_t d = 0; d < N; ++d) in[d] = idx[d] = out[d] = 1;
    bld_rand_sizes(r, R, I, bld_cap(48));
    memcpy(J, I, B * sizeof *I); /* GN7: the batch sizes */
    bld_rand_sizes(r, Q - 1 - B, J + B, bld_cap(12));
    J[Q - 1] = T;
    memcpy(in + (N - R), I, R * sizeof *I);
    memcpy(idx + (N - Q), J, Q * sizeof *J);
    bld_shape ts, tx; /* the output's sizes: the library's rule GN8 (dmlref_output_sizes) */
    const DMLREF_GATHER_ND1_OPERATOR_DESC sd = {bld_shape_init(&ts, DMLREF_TENSOR_DATA_TYPE_FLOAT32, N, in),
                                                bld_shape_init(&tx, DMLREF_TENSOR_DATA_TYPE_UINT32, N, idx), NULL,
                                                R, Q, B};
    if (bld_output_sizes(DMLREF_OPERATOR_GATHER_ND1, &sd, N, out) != 0) return -1;
    if (bld_product(out, N) > bld_cap(256)) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 2;
    g->n_outputs = 1;
    bld_set_param(g, "InputDimensionCount", R);
    bld_set_param(g, "IndicesDimensionCount", Q);
    if (nd1) bld_set_param(g, "BatchDimensionCount", B);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->inputs[1], bld_pick(r, bld_index_types, 4), N, idx);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    bld_fill_random(r, &g->inputs[1]);
    if (bld_out_of_memory) return -1; /* a tensor without strides or data: gen stops */
    /* component c indexes input dim N-R+B+c; when the components share one slot
     * (a broadcast last dim) every value must suit the smallest of their sizes */
    uint32_t least = I[B];
    for (uint32_t c = 1; c < T; ++c)
        if (I[B + c] < least) least = I[B + c];
    const int shared = T > 1 && g->inputs[1].strides[N - 1] == 0;
    uint32_t c[8] = {0};
    do {
        const uint32_t bound = shared ? least : I[B + c[N - 1]];
        bld_store_index(&g->inputs[1], bld_slot_of(&g->inputs[1], c), bld_rand_index(r, &g->inputs[1], bound));
    } while (bld_next_coord(idx, N, c));
    return 0;
}

static int build_nd(prng *r, dmlref_case *g) { return build(r, g, 0); }
static int build_nd1(prng *r, dmlref_case *g) { return build(r, g, 1); }

const builder gather_nd_builder = {DMLREF_OPERATOR_GATHER_ND, build_nd};
const builder gather_nd1_builder = {DMLREF_OPERATOR_GATHER_ND1, build_nd1};
