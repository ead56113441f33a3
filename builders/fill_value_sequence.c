/* FILL_VALUE_SEQUENCE's random valid cases: an output of 1 to 8 dims (packed, gapped or
 * permuted: the sequence follows the logical row-major index, not memory) of any data type
 * but FLOAT64, ValueStart and ValueDelta elements of that type with ValueDataType the output's:
 * small integers (negative deltas included) most of the time, else any value of the type
 * (bld_rand_value: extremes, so integer sequences wrap modulo 2^bits; float values exact or
 * not, infinities, NaN). */
#include "builder.h"

#include "case/value.h"

#include <string.h>

static const DMLREF_TENSOR_DATA_TYPE seq_types[10] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_INT64,
    DMLREF_TENSOR_DATA_TYPE_INT32,   DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,
    DMLREF_TENSOR_DATA_TYPE_UINT64,  DMLREF_TENSOR_DATA_TYPE_UINT32,  DMLREF_TENSOR_DATA_TYPE_UINT16,
    DMLREF_TENSOR_DATA_TYPE_UINT8};

/* A small value of dt: an integer in [-8, 8] (an integer type's two's complement pattern),
 * a float a multiple of 1/4 in [-8, 8] (exact in every float type). */
static void small_value(prng *r, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p) {
    const int32_t v = (int32_t)bld_rnd(r, 17) - 8;
    const uint32_t es = dmlref_data_type_size(dt);
    if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
        const float f = (float)((double)((int32_t)bld_rnd(r, 65) - 32) / 4.0);
        memcpy(p, &f, 4);
    } else if (dt == DMLREF_TENSOR_DATA_TYPE_FLOAT16) {
        /* k / 4 for k in [-32, 32]: binary16 bits built exactly */
        const int32_t k = (int32_t)bld_rnd(r, 65) - 32;
        uint16_t h = 0;
        if (k != 0) {
            uint32_t a = (uint32_t)(k < 0 ? -k : k), e = 0;
            while (a >> (e + 1)) ++e; /* a in [2^e, 2^(e+1)) */
            h = (uint16_t)((k < 0 ? 0x8000u : 0u) | (e - 2 + 15) << 10 | ((a << (10 - e)) & 0x3FFu));
        }
        memcpy(p, &h, 2);
    } else {
        value_store_bits(p, es, (uint64_t)(int64_t)v);
    }
}

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const DMLREF_TENSOR_DATA_TYPE dt = bld_pick(r, seq_types, 10);
    const dmlref_param *pt = desc_param(g->schema, "ValueDataType"), *ps = desc_param(g->schema, "ValueStart"),
                       *pd = desc_param(g->schema, "ValueDelta");
    if (!pt || !ps || !pd) return -1;
    desc_set_u32(bld_desc(g), pt->offset, (uint32_t)dt);
    unsigned char *s = bld_desc(g) + ps->offset, *d = bld_desc(g) + pd->offset;
    memset(s, 0, 8);
    memset(d, 0, 8);
    if (bld_rnd(r, 4) != 0) small_value(r, dt, s);
    else bld_rand_value(r, dt, s);
    if (bld_rnd(r, 4) != 0) small_value(r, dt, d);
    else bld_rand_value(r, dt, d);
    g->n_inputs = 0;
    g->n_outputs = 1;
    bld_tensor_init(&g->outputs[0], dt, N, sizes);
    bld_layout(r, &g->outputs[0], 0);
    return 0;
}

const builder fill_value_sequence_builder = {DMLREF_OPERATOR_FILL_VALUE_SEQUENCE, build};
