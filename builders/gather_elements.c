/* GATHER_ELEMENTS's random valid cases: indices shaped like the input except on the axis. */
#include "builder.h"

#include <stdlib.h>
#include <string.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8), a = bld_rnd(r, N);
    uint32_t in[8], idx[8];
    bld_rand_sizes(r, N, in, bld_cap(48));
    memcpy(idx, in, sizeof in);
    idx[a] = 1 + bld_rnd(r, 4);
    if (bld_product(idx, N) > bld_cap(256)) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 2;
    g->n_outputs = 1;
    bld_set_param(g, "Axis", a);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->inputs[1], bld_pick(r, bld_index_types, 4), N, idx);
    bld_tensor_init(&g->outputs[0], dt, N, idx);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    bld_fill_random(r, &g->inputs[1]);
    uint32_t c[8] = {0};
    do bld_store_index(&g->inputs[1], bld_slot_of(&g->inputs[1], c), bld_rand_index(r, &g->inputs[1], in[a]));
    while (bld_next_coord(idx, N, c));
    return 0;
}

const builder gather_elements_builder = {DMLREF_OPERATOR_GATHER_ELEMENTS, build};
