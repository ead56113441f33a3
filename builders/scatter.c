/* SCATTER's random valid cases: indices shaped like the input except on the axis,
 * where each line (every coordinate but the axis) holds distinct targets (a
 * shuffled prefix of [0, Input.Sizes[Axis]), negative now and then for signed
 * types), so no two updates write one element. */
#include "builder.h"

#include <stdlib.h>
#include <string.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8), a = bld_rnd(r, N);
    uint32_t in[8], idx[8];
    bld_rand_sizes(r, N, in, bld_cap(48));
    memcpy(idx, in, sizeof in);
    idx[a] = 1 + bld_rnd(r, in[a]); /* at most the axis size: room for distinct targets */
    if (bld_product(idx, N) > bld_cap(256)) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 3;
    g->n_outputs = 1;
    bld_set_param(g, "Axis", a);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->inputs[1], bld_pick(r, bld_index_types, 4), N, idx);
    bld_tensor_init(&g->inputs[2], dt, N, idx);
    bld_tensor_init(&g->outputs[0], dt, N, in);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 0); /* a broadcast index tensor would repeat targets */
    bld_layout(r, &g->inputs[2], 1);
    bld_layout(r, &g->outputs[0], 0);
    for (int k = 0; k < 3; ++k) bld_fill_random(r, &g->inputs[k]);
    /* each line: the first idx[a] entries of a shuffled [0, in[a]) */
    uint32_t *perm = malloc((size_t)in[a] * sizeof *perm);
    if (!perm) {
        bld_out_of_memory = 1;
        return -1;
    }
    uint32_t lines[8], c[8] = {0};
    memcpy(lines, idx, sizeof lines);
    lines[a] = 1;
    do {
        for (uint32_t i = 0; i < in[a]; ++i) perm[i] = i;
        for (uint32_t k = 0; k < idx[a]; ++k) {
            const uint32_t j = k + bld_rnd(r, in[a] - k), t = perm[k];
            perm[k] = perm[j];
            perm[j] = t;
            int64_t v = perm[k];
            if (bld_is_signed_index(&g->inputs[1]) && bld_rnd(r, 3) == 0) v -= in[a];
            c[a] = k;
            bld_store_index(&g->inputs[1], bld_slot_of(&g->inputs[1], c), v);
        }
        c[a] = 0;
    } while (bld_next_coord(lines, N, c));
    free(perm);
    return 0;
}

const builder scatter_builder = {DMLREF_OPERATOR_SCATTER, build};
