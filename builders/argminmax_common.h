/* ARGMIN's and ARGMAX's random valid cases (builders/argmin.c, builders/argmax.c): 1 to 8
 * dims, 1 to 4 distinct reduced axes listed in a random order (sometimes every axis),
 * AxisDirection either way, the input T10 (the newest level), the output INT64, INT32,
 * UINT64 or UINT32 with 1 on the reduced axes; packed, gapped, permuted or broadcast inputs,
 * packed or gapped outputs.  The data has many ties: each element one of a small pool of
 * values (bld_rand_value's: edges, specials, NaNs -- several payloads and either sign in the
 * bits flavour --, +-Inf), for floats +0 and -0 often both in the pool, now and then a pool
 * of one value (every row all equal). */
#ifndef DMLREF_BUILDERS_ARGMINMAX_COMMON_H
#define DMLREF_BUILDERS_ARGMINMAX_COMMON_H

#include "builder.h"

#include <string.h>

static const DMLREF_TENSOR_DATA_TYPE argminmax_t10[10] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8,   DMLREF_TENSOR_DATA_TYPE_INT32,
    DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,    DMLREF_TENSOR_DATA_TYPE_UINT64,
    DMLREF_TENSOR_DATA_TYPE_INT64};

static int argminmax_build(prng *r, dmlref_case *g) {
    const uint32_t D = 1 + bld_rnd(r, bld_rnd(r, 2) ? 3 : 8);
    uint32_t in[8], out[8], axes[8], order[8];
    bld_rand_sizes(r, D, in, bld_cap(96));
    /* a random permutation of the axes; its first k are reduced, listed in that order */
    for (uint32_t d = 0; d < D; ++d) order[d] = d;
    for (uint32_t d = D; d > 1; --d) {
        const uint32_t j = bld_rnd(r, d), t = order[d - 1];
        order[d - 1] = order[j];
        order[j] = t;
    }
    const uint32_t k = bld_rnd(r, 4) == 0 ? D : 1 + bld_rnd(r, D < 4 ? D : 4);
    memcpy(out, in, sizeof out);
    for (uint32_t i = 0; i < k; ++i) {
        axes[i] = order[i];
        out[order[i]] = 1;
    }
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, argminmax_t10, 10);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_set_array(g, "Axes", axes, k);
    bld_set_param(g, "AxisDirection", bld_rnd(r, 2));
    bld_tensor_init(&g->inputs[0], dt, D, in);
    bld_tensor_init(&g->outputs[0], bld_pick(r, bld_index_types, 4), D, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    case_tensor *t = &g->inputs[0];
    if (!t->data) return 0;
    /* the pool: 1 to 5 values; floats often with +0 and -0 */
    unsigned char pool[8][8];
    uint32_t n = bld_rnd(r, 6) == 0 ? 1 : 2 + bld_rnd(r, 4);
    for (uint32_t i = 0; i < n; ++i) bld_rand_value(r, dt, pool[i]);
    const int fl = dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16;
    if (fl && n > 1 && bld_rnd(r, 2)) { /* +0 and -0 */
        memset(pool[n], 0, 8);
        memset(pool[n + 1], 0, 8);
        if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
            const uint32_t m = 0x80000000u;
            memcpy(pool[n + 1], &m, 4);
        } else {
            const uint16_t m = 0x8000u;
            memcpy(pool[n + 1], &m, 2);
        }
        n += 2;
    }
    for (uint64_t i = 0; i < t->total_slots; ++i) memcpy(t->data + i * t->esize, pool[bld_rnd(r, n)], t->esize);
    return 0;
}

#endif
