/* NONZERO_COORDINATES's random valid cases: an input of 1 to 8 dims (T8; now and then with
 * leading 1s), N drawn from its effective rank up to its DimensionCount, the count {1, ..., 1}
 * of 1 to 8 dims and the coordinates {1, ..., 1, M, N} of 2 to 8 (UINT32; packed or gapped);
 * the data all zero, all nonzero, -0 only (floats), sparse or random, with +-0, NaN payloads
 * and subnormals (nonzero!) mixed in.  The input packed, gapped, permuted or broadcast. */
#include "builder.h"

#include <string.h>

static const DMLREF_TENSOR_DATA_TYPE t8[8] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8,   DMLREF_TENSOR_DATA_TYPE_INT32,
    DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8};

/* A special element of dt at p: +-0, a NaN with a payload, a subnormal (floats; integers 0 or 1). */
static void special(prng *r, DMLREF_TENSOR_DATA_TYPE dt, uint32_t es, unsigned char *p) {
    const uint32_t k = bld_rnd(r, 4);
    uint32_t v32;
    uint16_t v16;
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
        v32 = k == 0 ? 0u : k == 1 ? 0x80000000u : k == 2 ? 0x7fc00000u | bld_rnd(r, 0x400000) : 1u + bld_rnd(r, 0x7fffff);
        if (bld_rnd(r, 2) && k >= 2) v32 |= 0x80000000u;
        memcpy(p, &v32, 4);
    } else if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) {
        v16 = (uint16_t)(k == 0 ? 0u : k == 1 ? 0x8000u : k == 2 ? 0x7e00u | bld_rnd(r, 0x200) : 1u + bld_rnd(r, 0x3ff));
        if (bld_rnd(r, 2) && k >= 2) v16 |= 0x8000u;
        memcpy(p, &v16, 2);
    } else {
        memset(p, 0, es);
        if (k >= 2) p[bld_rnd(r, es)] = 1;
    }
}

static int build(prng *r, dmlref_case *g) {
    const uint32_t D = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, D, sizes, bld_cap(256 / D)); /* the coordinates' M x N <= M x D stays in the cap */
    if (bld_rnd(r, 3) == 0) /* leading 1s */
        for (uint32_t d = 0, lead = bld_rnd(r, D); d < lead; ++d) sizes[d] = 1;
    uint32_t lead = 0;
    while (lead < D && sizes[lead] == 1) ++lead;
    const uint32_t eff = D - lead, lo = eff ? eff : 1;
    const uint32_t N = lo + bld_rnd(r, D - lo + 1);
    const uint64_t M = bld_product(sizes, D);
    const uint32_t cn = 1 + bld_rnd(r, 8), cdims = 2 + bld_rnd(r, 7);
    uint32_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1}, cs[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    cs[cdims - 2] = (uint32_t)M;
    cs[cdims - 1] = N;
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, t8, 8);
    g->n_inputs = 1;
    g->n_outputs = 2;
    bld_tensor_init(&g->inputs[0], dt, D, sizes);
    bld_tensor_init(&g->outputs[0], DMLREF_TENSOR_DATA_TYPE_UINT32, cn, ones);
    bld_tensor_init(&g->outputs[1], DMLREF_TENSOR_DATA_TYPE_UINT32, cdims, cs);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_layout(r, &g->outputs[1], 0);
    case_tensor *in = &g->inputs[0];
    bld_fill_random(r, in);
    if (!in->data) return 0;
    const uint32_t es = dmlref_data_type_size(dt);
    /* 0 all zero, 1 all nonzero, 2 -0 only (the bits flavour; else +0), 3 sparse, else random; the
     * special values (+-0, NaN payloads, subnormals) only in the bits flavour */
    const uint32_t mode = bld_rnd(r, 6);
    static const uint32_t one32[3] = {0x3f800000u, 1u, 0x3c00u}; /* FLOAT32 1.0, an integer 1, FLOAT16 1.0 */
    for (uint64_t i = 0; i < in->total_slots; ++i) {
        unsigned char *p = in->data + i * es;
        if (mode == 0 || mode == 2 || (mode == 3 && bld_rnd(r, 10) != 0)) {
            memset(p, 0, es);
            if (bld_opts.bits && mode == 2 && dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32)
                memcpy(p, &(uint32_t){0x80000000u}, 4);
            if (bld_opts.bits && mode == 2 && dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) memcpy(p, &(uint16_t){0x8000u}, 2);
        } else if (mode == 1) {
            int zero = 1;
            for (uint32_t k = 0; k < es; ++k) zero &= p[k] == 0;
            if (zero || (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 && memcmp(p, &(uint32_t){0x80000000u}, 4) == 0) ||
                (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 && memcmp(p, &(uint16_t){0x8000u}, 2) == 0)) {
                const uint32_t v = one32[dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 ? 0 : dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16 ? 2 : 1];
                if (es == 4) memcpy(p, &v, 4);
                else if (es == 2) memcpy(p, &(uint16_t){(uint16_t)v}, 2);
                else *p = 1;
            }
        } else if (bld_opts.bits && bld_rnd(r, 4) == 0) {
            special(r, dt, es, p);
        }
    }
    return 0;
}

const builder nonzero_coordinates_builder = {DMLREF_OPERATOR_NONZERO_COORDINATES, build};
