/* MAX_UNPOOLING's random valid cases: a 4-D input {N, C, H, W} and the indices a max pooling
 * with a kh x kw window and stride would give (one target per window, in the window's own
 * rows and columns of the output {N, C, H*kh (+1), W*kw (+1)}: distinct and in range), FLOAT
 * and integer data (T10 with UINT32 or UINT64 indices: the newest level); now and then an
 * output whose N or C differs, with distinct indices drawn anywhere in [0, count).  Never a
 * repeated target or an index at or above the count (builder.h: gen checks its cases with
 * the checking option); the unit tests and tests/numpy/diff.py add those. */
#include "builder.h"

#include <stdint.h>
#include <stdlib.h>

static const DMLREF_TENSOR_DATA_TYPE t10[10] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8,   DMLREF_TENSOR_DATA_TYPE_INT32,
    DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,    DMLREF_TENSOR_DATA_TYPE_UINT64,
    DMLREF_TENSOR_DATA_TYPE_INT64};
static const DMLREF_TENSOR_DATA_TYPE u2[2] = {DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_DATA_TYPE_UINT64};

static int build(prng *r, dmlref_case *g) {
    uint32_t in[4], out[4];
    bld_rand_sizes(r, 4, in, bld_cap(32));
    const uint32_t kh = 1 + bld_rnd(r, 3), kw = 1 + bld_rnd(r, 3);
    const int pooled = bld_rnd(r, 6) != 0; /* else N or C of the output free, indices anywhere */
    out[0] = in[0];
    out[1] = in[1];
    out[2] = in[2] * kh + (bld_rnd(r, 4) == 0); /* now and then a row or column no window reaches */
    out[3] = in[3] * kw + (bld_rnd(r, 4) == 0);
    if (!pooled) {
        out[bld_rnd(r, 2)] = 1 + bld_rnd(r, 3);
    }
    const uint64_t count = bld_product(out, 4);
    if (count > bld_cap(256)) return -1;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, t10, 10);
    g->n_inputs = 2;
    g->n_outputs = 1;
    bld_tensor_init(&g->inputs[0], dt, 4, in);
    bld_tensor_init(&g->inputs[1], bld_pick(r, u2, 2), 4, in);
    bld_tensor_init(&g->outputs[0], dt, 4, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->inputs[1], 0); /* a broadcast index tensor would repeat targets */
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    bld_fill_random(r, &g->inputs[1]);
    if (!g->inputs[1].data) return 0; /* out of memory: the caller sees bld_out_of_memory */
    unsigned char *taken = NULL; /* the targets drawn so far (indices anywhere: distinct) */
    if (!pooled) {
        if (count < bld_product(in, 4)) return -1;
        taken = calloc((size_t)count, 1);
        if (!taken) {
            bld_out_of_memory = 1;
            return -1;
        }
    }
    uint32_t c[4] = {0, 0, 0, 0};
    do {
        uint64_t t;
        if (pooled) {
            const uint64_t y = (uint64_t)c[2] * kh + bld_rnd(r, kh), x = (uint64_t)c[3] * kw + bld_rnd(r, kw);
            t = (((uint64_t)c[0] * out[1] + c[1]) * out[2] + y) * out[3] + x;
        } else {
            t = bld_rnd(r, (uint32_t)count);
            while (taken[t]) t = (t + 1) % count;
            taken[t] = 1;
        }
        bld_store_index(&g->inputs[1], bld_slot_of(&g->inputs[1], c), (int64_t)t);
    } while (bld_next_coord(in, 4, c));
    free(taken);
    return 0;
}

const builder max_unpooling_builder = {DMLREF_OPERATOR_MAX_UNPOOLING, build};
