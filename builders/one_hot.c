/* ONE_HOT's random valid cases: an output of 1 to 8 dims (packed or gapped),
 * a random Axis whose size is the depth, Indices shaped like the output with a
 * 1 at Axis (strided, gapped or broadcast), Values of 2 to 8 elements of any
 * layout (broadcast included: off and on may then be one element), every data
 * type.  Indices are in [0, depth), counted from the end now and then for the
 * signed types, and now and then just past the depth (depth .. depth + 2):
 * ONE_HOT documents that case (the whole sequence is the off value), so unlike
 * the other operators' cases these may hold out-of-range indices; never below
 * -depth (dmlref's decision, not the page's) nor beyond the int32 range. */
#include "builder.h"

#include <string.h>

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8), a = bld_rnd(r, N);
    uint32_t out[8], idx[8], val[8];
    bld_rand_sizes(r, N, out, bld_cap(256));
    if (out[a] < 4 && bld_rnd(r, 4) == 0 && bld_product(out, N) / out[a] * 8 <= bld_cap(256)) out[a] = 5 + bld_rnd(r, 4);
    memcpy(idx, out, sizeof out);
    idx[a] = 1;
    bld_rand_sizes(r, N, val, bld_cap(8));
    if (bld_product(val, N) < 2) val[bld_rnd(r, N)] = 2;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 2;
    g->n_outputs = 1;
    bld_set_param(g, "Axis", a);
    bld_tensor_init(&g->inputs[0], bld_pick(r, bld_index_types, 4), N, idx);
    bld_tensor_init(&g->inputs[1], dt, N, val);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    bld_fill_random(r, &g->inputs[1]);
    const uint32_t depth = out[a];
    uint32_t c[8] = {0};
    do {
        int64_t v = bld_rand_index(r, &g->inputs[0], depth);
        if (bld_rnd(r, 8) == 0) v = (int64_t)depth + bld_rnd(r, 3); /* documented: the sequence is all off */
        bld_store_index(&g->inputs[0], bld_slot_of(&g->inputs[0], c), v);
    } while (bld_next_coord(idx, N, c));
    return 0;
}

const builder one_hot_builder = {DMLREF_OPERATOR_ONE_HOT, build};
