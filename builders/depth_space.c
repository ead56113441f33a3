/* The random valid cases of DEPTH_TO_SPACE, SPACE_TO_DEPTH and their 1 forms
 * (one file for the four: they differ only in direction and the Order field).
 * The input's side drawn (space {N, C, H*B, W*B} or depth {N, C*B*B, H, W}, B
 * from 1 to 4), the output's sizes from dmlref_output_sizes; every data type,
 * inputs packed, permuted with gaps or broadcast, outputs packed or permuted
 * with gaps; Order either value. */
#include "builder.h"

static int build(prng *r, dmlref_case *g, int to_space, int has_order) {
    const uint32_t B = 1 + bld_rnd(r, 4);
    uint32_t s[4]; /* N, C (space side), H, W (depth side) */
    bld_rand_sizes(r, 4, s, bld_cap(256) / (B * B));
    const uint32_t depth[4] = {s[0], s[1] * B * B, s[2], s[3]}, space[4] = {s[0], s[1], s[2] * B, s[3] * B};
    /* the output's sizes (the other side): the library's rule (dmlref_output_sizes) */
    uint32_t out[4];
    bld_shape ts;
    const DMLREF_TENSOR_DESC *const sin =
        bld_shape_init(&ts, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 4, to_space ? depth : space);
    const DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC d2s = {sin, NULL, B};
    const DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC s2d = {sin, NULL, B};
    const DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC d2s1 = {sin, NULL, B, DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    const DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC s2d1 = {sin, NULL, B, DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW};
    const int bad = to_space ? (has_order ? bld_output_sizes(DMLREF_OPERATOR_DEPTH_TO_SPACE1, &d2s1, 4, out)
                                          : bld_output_sizes(DMLREF_OPERATOR_DEPTH_TO_SPACE, &d2s, 4, out))
                             : (has_order ? bld_output_sizes(DMLREF_OPERATOR_SPACE_TO_DEPTH1, &s2d1, 4, out)
                                          : bld_output_sizes(DMLREF_OPERATOR_SPACE_TO_DEPTH, &s2d, 4, out));
    if (bad) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_set_param(g, "BlockSize", B);
    if (has_order) bld_set_param(g, "Order", bld_rnd(r, 2));
    bld_tensor_init(&g->inputs[0], dt, 4, to_space ? depth : space);
    bld_tensor_init(&g->outputs[0], dt, 4, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    return 0;
}

static int build_d2s(prng *r, dmlref_case *g) { return build(r, g, 1, 0); }
static int build_s2d(prng *r, dmlref_case *g) { return build(r, g, 0, 0); }
static int build_d2s1(prng *r, dmlref_case *g) { return build(r, g, 1, 1); }
static int build_s2d1(prng *r, dmlref_case *g) { return build(r, g, 0, 1); }

const builder depth_to_space_builder = {DMLREF_OPERATOR_DEPTH_TO_SPACE, build_d2s};
const builder space_to_depth_builder = {DMLREF_OPERATOR_SPACE_TO_DEPTH, build_s2d};
const builder depth_to_space1_builder = {DMLREF_OPERATOR_DEPTH_TO_SPACE1, build_d2s1};
const builder space_to_depth1_builder = {DMLREF_OPERATOR_SPACE_TO_DEPTH1, build_s2d1};
