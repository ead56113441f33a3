/* SCATTER_ND's random valid cases: distinct scatter targets, updates shaped by the rule. */
#include "builder.h"

#include <stdlib.h>
#include <string.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8), R = 1 + bld_rnd(r, N), Q = 1 + bld_rnd(r, N), T = 1 + bld_rnd(r, R);
    const uint32_t M = (Q - 1) + (R - T);
    if (M > N) return -1;
    uint32_t in[8], idx[8], upd[8], I[8], J[8];
    for (uint32_t d = 0; d < N; ++d) in[d] = idx[d] = upd[d] = 1;
    bld_rand_sizes(r, R, I, bld_cap(48));
    memcpy(in + (N - R), I, R * sizeof *I);
    bld_rand_sizes(r, Q - 1, J, bld_cap(8));
    J[Q - 1] = T;
    memcpy(idx + (N - Q), J, Q * sizeof *J);
    const uint64_t tuples = bld_product(J, Q - 1), room = bld_product(I, T);
    if (tuples > room) return -1;
    /* updates = J[0..Q-1) ++ I[T..R), right-aligned */
    uint32_t m = 0, u[8];
    for (uint32_t i = 0; i + 1 < Q; ++i) u[m++] = J[i];
    for (uint32_t i = T; i < R; ++i) u[m++] = I[i];
    memcpy(upd + (N - M), u, M * sizeof *u);
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 3;
    g->n_outputs = 1;
    bld_set_param(g, "InputDimensionCount", R);
    bld_set_param(g, "IndicesDimensionCount", Q);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->inputs[1], bld_pick(r, bld_index_types, 4), N, idx);
    bld_tensor_init(&g->inputs[2], dt, N, upd);
    bld_tensor_init(&g->outputs[0], dt, N, in);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 0); /* a broadcast index tensor would repeat targets */
    bld_layout(r, &g->inputs[2], 1);
    bld_layout(r, &g->outputs[0], 0);
    for (int k = 0; k < 3; ++k) bld_fill_random(r, &g->inputs[k]);
    if (bld_out_of_memory) return -1; /* a tensor without sizes or data: gen stops */
    /* distinct targets: the first `tuples` entries of a shuffled [0, room) */
    uint64_t *perm = malloc((size_t)room * sizeof *perm);
    if (!perm) {
        bld_out_of_memory = 1;
        return -1;
    }
    for (uint64_t i = 0; i < room; ++i) perm[i] = i;
    for (uint64_t i = 0; i < tuples; ++i) {
        const uint64_t j = i + prng_below(r, room - i), x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    uint32_t c[8] = {0};
    uint64_t b = 0;
    const uint32_t *isz = g->inputs[1].sizes;
    do {
        /* c[N-1] is the tuple component; the other coordinates enumerate tuples in row-major order */
        uint64_t flat = perm[b], rest = flat;
        uint32_t comp[8];
        for (uint32_t k = T; k-- > 0;) {
            comp[k] = (uint32_t)(rest % I[k]);
            rest /= I[k];
        }
        const uint32_t k = c[N - 1];
        int64_t v = comp[k];
        if (bld_is_signed_index(&g->inputs[1]) && bld_rnd(r, 3) == 0) v -= I[k];
        bld_store_index(&g->inputs[1], bld_slot_of(&g->inputs[1], c), v);
        if (k == T - 1) ++b;
    } while (bld_next_coord(isz, N, c));
    free(perm);
    return 0;
}

const builder scatter_nd_builder = {DMLREF_OPERATOR_SCATTER_ND, build};
