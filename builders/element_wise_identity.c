/* ELEMENT_WISE_IDENTITY's random valid cases: one tensor copied into another
 * layout (permuted, padded, or from a broadcast input); ScaleBias stays NULL. */
#include "builder.h"

static int build(prng *r, gcase *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_in = 1;
    g->n_out = 1;
    bld_tensor_init(&g->in[0], dt, N, sizes);
    bld_tensor_init(&g->out[0], dt, N, sizes);
    bld_layout(r, &g->in[0], 1);
    bld_layout(r, &g->out[0], 0);
    bld_fill_random(r, &g->in[0]);
    return 0;
}

const builder element_wise_identity_builder = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, build};
