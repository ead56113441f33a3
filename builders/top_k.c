/* TOP_K's and TOP_K1's random valid cases: 1 to 8 dims, any Axis, K from 1 to the axis size
 * (1 and the whole size drawn often), any T10 data type with UINT32 or UINT64 indices (the
 * newest level; gen lowers it); the input packed, gapped, permuted or broadcast (a zero stride
 * along Axis: an all-equal sequence), the outputs packed or gapped.  Values come mostly from a
 * small palette per case, so that sequences are full of ties: the plain draws plus, for floats,
 * +0 and -0, +-Inf and NaN (under the bits flavour NaNs of several payloads and signs, a
 * signalling one among them); now and then a whole sequence of one value. */
#include "builder.h"

#include "case/value.h"

#include <string.h>

static const DMLREF_TENSOR_DATA_TYPE t10[10] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8,   DMLREF_TENSOR_DATA_TYPE_INT32,
    DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,    DMLREF_TENSOR_DATA_TYPE_UINT64,
    DMLREF_TENSOR_DATA_TYPE_INT64};
static const DMLREF_TENSOR_DATA_TYPE u2[2] = {DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_DATA_TYPE_UINT64};

/* A palette value: a plain draw, or for floats a special one (+-0, +-Inf, NaN). */
static void palette_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p) {
    const uint32_t es = dmlref_data_type_size(dt);
    const int is_float = dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32 || dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16;
    const uint32_t k = bld_rnd(r, 10);
    if (!is_float || k < 4) {
        bld_rand_value(r, dt, p);
        return;
    }
    const int mbits = es == 2 ? 10 : 23;
    const uint64_t sign = (uint64_t)bld_rnd(r, 2) << (es * 8 - 1), emax = es == 2 ? 0x1F : 0xFF;
    const uint64_t inf = emax << mbits, quiet = UINT64_C(1) << (mbits - 1);
    uint64_t v;
    if (k < 7) v = sign; /* +0 or -0 */
    else if (k < 8) v = sign | inf;
    else if (bld_opts.bits) v = sign | inf | (bld_rnd(r, 2) ? quiet : 0) | (1 + bld_rnd(r, (uint32_t)quiet - 1));
    else v = inf | quiet; /* the canonical quiet NaN */
    value_store_bits(p, es, v);
}

static int build_top_k(prng *r, dmlref_case *g, int has_direction) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8], out[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const uint32_t axis = bld_rnd(r, N), n = sizes[axis];
    const uint32_t w = bld_rnd(r, 4);
    const uint32_t k = w == 0 ? 1 : w == 1 ? n : 1 + bld_rnd(r, n);
    for (uint32_t d = 0; d < N; ++d) out[d] = d == axis ? k : sizes[d];
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, t10, 10);
    g->n_inputs = 1;
    g->n_outputs = 2;
    bld_tensor_init(&g->inputs[0], dt, N, sizes);
    bld_tensor_init(&g->outputs[0], dt, N, out);
    bld_tensor_init(&g->outputs[1], bld_pick(r, u2, 2), N, out);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_layout(r, &g->outputs[1], 0);
    bld_set_param(g, "Axis", axis);
    bld_set_param(g, "K", k);
    if (has_direction) bld_set_param(g, "AxisDirection", bld_rnd(r, 2));
    case_tensor *t = &g->inputs[0];
    bld_fill_random(r, t);
    if (!t->data) return 0; /* out of memory: the caller sees bld_out_of_memory */
    unsigned char palette[4][8];
    const uint32_t np = 1 + bld_rnd(r, 4), share = bld_rnd(r, 4); /* share of slots from the palette, in quarters */
    for (uint32_t i = 0; i < np; ++i) palette_value(r, dt, palette[i]);
    for (uint64_t s = 0; s < t->total_slots; ++s)
        if (bld_rnd(r, 4) < share) memcpy(t->data + s * t->esize, palette[bld_rnd(r, np)], t->esize);
    if (bld_rnd(r, 5) == 0) { /* a whole sequence of one value: the first one's slots */
        uint32_t c[8] = {0};
        for (uint32_t d = 0; d < N; ++d) c[d] = d == axis ? 0 : bld_rnd(r, sizes[d]);
        const uint32_t pick = bld_rnd(r, np);
        for (uint32_t j = 0; j < n; ++j) {
            c[axis] = j;
            memcpy(t->data + bld_slot_of(t, c) * t->esize, palette[pick], t->esize);
        }
    }
    return 0;
}

static int build(prng *r, dmlref_case *g) { return build_top_k(r, g, 0); }
static int build1(prng *r, dmlref_case *g) { return build_top_k(r, g, 1); }

const builder top_k_builder = {DMLREF_OPERATOR_TOP_K, build};
const builder top_k1_builder = {DMLREF_OPERATOR_TOP_K1, build1};
