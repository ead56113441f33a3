/* REVERSE_SUBSEQUENCES's random valid cases: an input of 1 to 8 dims (packed, gapped,
 * permuted or broadcast) of any data type, a random Axis (its size up to 8), a
 * SequenceLengthsTensor (UINT32 or UINT64) shaped like the input with 1 along Axis,
 * itself gapped, permuted or broadcast, holding lengths in [0, Input.Sizes[Axis]]
 * and now and then above it (clamped: n + 1 .. n + 3, or the type's largest value);
 * the output packed or gapped. */
#include "builder.h"

#include <stdint.h>

static const DMLREF_TENSOR_DATA_TYPE length_types[2] = {DMLREF_TENSOR_DATA_TYPE_UINT64,
                                                        DMLREF_TENSOR_DATA_TYPE_UINT32};

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8), a = bld_rnd(r, N);
    uint32_t in[8], len[8];
    bld_rand_sizes(r, N, in, bld_cap(64));
    const uint32_t longer = 1 + bld_rnd(r, 8); /* a longer axis now and then */
    if (longer > in[a] && bld_product(in, N) / in[a] * longer <= bld_cap(256)) in[a] = longer;
    for (uint32_t d = 0; d < N; ++d) len[d] = d == a ? 1 : in[d];
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 2;
    g->n_outputs = 1;
    bld_set_param(g, "Axis", a);
    bld_tensor_init(&g->inputs[0], dt, N, in);
    bld_tensor_init(&g->inputs[1], bld_pick(r, length_types, 2), N, len);
    bld_tensor_init(&g->outputs[0], dt, N, in);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    bld_fill_random(r, &g->inputs[1]);
    const uint32_t n = in[a];
    uint32_t c[8] = {0};
    do {
        const uint32_t k = bld_rnd(r, 10);
        int64_t v = (int64_t)bld_rnd(r, n + 1);                    /* [0, n] */
        if (k == 0) v = (int64_t)n + 1 + (int64_t)bld_rnd(r, 3);    /* above the axis: clamped */
        else if (k == 1) v = g->inputs[1].esize == 8 ? -1 : (int64_t)UINT32_MAX; /* the type's largest value */
        bld_store_index(&g->inputs[1], bld_slot_of(&g->inputs[1], c), v);
    } while (bld_next_coord(len, N, c));
    return 0;
}

const builder reverse_subsequences_builder = {DMLREF_OPERATOR_REVERSE_SUBSEQUENCES, build};
