/* CAST's random valid cases: an input of 1 to 8 dims (packed, gapped, permuted
 * or broadcast) and an output of the same sizes (packed or gapped), each of
 * any of the 11 data types (every pair; gen's feature-level filter redraws the
 * pairs a level lacks).  Values from the helpers (their bits flavour: NaN
 * payloads, signalling NaNs, -0, subnormals, edges); under the bits flavour
 * some float elements also become the values CAST's rules turn on: binary16
 * rounding ties and its overflow edge (65504, 65520), the binary16 subnormal
 * edges, integer saturation edges (+-2^31, 2^63, 2^64, 255.5, -1), NaN payloads
 * that narrow (0x7FC0BEEF).  Without the bits flavour a float input to an integer output holds
 * only values whose truncation is in the output's range (quarters in [-100, 100], [0, 100] for an
 * unsigned output): golden suites keep out of what ONNX and WebNN leave undefined (docs/operators.md
 * Q1.4); the saturation rules are the bits flavour's, the unit tests' and the numpy suite's. */
#include "builder.h"

#include <string.h>

static const uint32_t f32_special[] = {
    0x477FE000u, 0x477FF000u, 0x477FEFFFu, 0xC77FF000u, 0x33000000u, 0x33000001u, 0xB3000000u, 0x38800000u,
    0x387FC000u, 0x387FE000u, 0x3F801000u, 0x3F803000u, 0x3F801001u, 0x4F000000u, 0x4EFFFFFFu, 0xCF000000u,
    0xCF000001u, 0x5F000000u, 0x5F800000u, 0xDF000000u, 0x437F8000u, 0xBF800000u, 0xBF7FFFFFu, 0x7FC0BEEFu,
    0x7F800001u, 0xFFA00001u, 0x80000000u, 0x00000001u, 0x7F7FFFFFu, 0xFF800000u, 0x42CC50C0u, 0x4291F3B6u};
static const uint64_t f64_special[] = {
    UINT64_C(0x380B8157268FDAF3), /* about 1e-38: a binary32 subnormal after rounding   */
    UINT64_C(0x37E16B7AF0F1D3FC), /* about 1e-40                                       */
    UINT64_C(0x40EFFE0000000000), /* 65520                                             */
    UINT64_C(0x41E0000000000000), /* 2^31                                              */
    UINT64_C(0x43E0000000000000), /* 2^63                                              */
    UINT64_C(0x43F0000000000000), /* 2^64                                              */
    UINT64_C(0x3FF0000010000000), /* 1 + 2^-24: a binary32 tie                          */
    UINT64_C(0x7FF0000000000001), /* a signalling NaN, payload 1 (narrows to the quiet NaN) */
    UINT64_C(0xFFF8DEADBEEF0000), /* a quiet NaN with a payload that narrows            */
    UINT64_C(0x36A0000000000000), /* 2^-149: the smallest binary32 subnormal           */
};
static const uint16_t f16_special[] = {0x7C01u, 0xFE05u, 0x0001u, 0x83FFu, 0x7BFFu, 0xFC00u, 0x8000u, 0x5BF8u};

/* Some elements of a float input become CAST's edge values (bits flavour only). */
static void cast_special(prng *r, case_tensor *t) {
    if (!t->data) return;
    const uint32_t es = t->esize;
    const uint64_t slots = t->bytes / es;
    for (uint64_t k = 0; k < slots; ++k) {
        if (bld_rnd(r, 3) != 0) continue;
        unsigned char *p = t->data + k * es;
        if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
            const uint32_t v = f32_special[bld_rnd(r, (uint32_t)(sizeof f32_special / sizeof f32_special[0]))];
            memcpy(p, &v, 4);
        } else if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT64) {
            const uint64_t v = f64_special[bld_rnd(r, (uint32_t)(sizeof f64_special / sizeof f64_special[0]))];
            memcpy(p, &v, 8);
        } else if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT16) {
            const uint16_t v = f16_special[bld_rnd(r, (uint32_t)(sizeof f16_special / sizeof f16_special[0]))];
            memcpy(p, &v, 2);
        }
    }
}

/* n / 4 (|n| < 2^11) as the bits of a binary float of md mantissa bits and bias: exact. */
static uint64_t quarter_bits(int32_t n, uint32_t md, uint32_t ew, int32_t bias) {
    if (n == 0) return 0;
    const uint64_t sign = n < 0 ? UINT64_C(1) << (md + ew) : 0;
    const uint32_t a = (uint32_t)(n < 0 ? -n : n);
    uint32_t e = 0;
    while ((a >> e) > 1) ++e;
    return sign | ((uint64_t)((int32_t)e - 2 + bias) << md) | ((uint64_t)(a - (1u << e)) << (md - e));
}

static int is_int_type(DMLREF_TENSOR_DATA_TYPE t) {
    return t != DMLREF_TENSOR_DATA_TYPE_FLOAT32 && t != DMLREF_TENSOR_DATA_TYPE_FLOAT16 &&
           t != DMLREF_TENSOR_DATA_TYPE_FLOAT64;
}

/* Every slot of a float input: a quarter whose truncation an integer output of type ot holds. */
static void in_range(prng *r, case_tensor *t, DMLREF_TENSOR_DATA_TYPE ot) {
    if (!t->data) return;
    const int sgn = ot == DMLREF_TENSOR_DATA_TYPE_INT8 || ot == DMLREF_TENSOR_DATA_TYPE_INT16 ||
                    ot == DMLREF_TENSOR_DATA_TYPE_INT32 || ot == DMLREF_TENSOR_DATA_TYPE_INT64;
    const uint64_t slots = t->bytes / t->esize;
    for (uint64_t k = 0; k < slots; ++k) {
        const int32_t n = (int32_t)bld_rnd(r, sgn ? 801 : 401) - (sgn ? 400 : 0);
        unsigned char *p = t->data + k * t->esize;
        if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT16) {
            const uint16_t v = (uint16_t)quarter_bits(n, 10, 5, 15);
            memcpy(p, &v, 2);
        } else if (t->buf.DataType == DMLREF_TENSOR_DATA_TYPE_FLOAT32) {
            const uint32_t v = (uint32_t)quarter_bits(n, 23, 8, 127);
            memcpy(p, &v, 4);
        } else {
            const uint64_t v = quarter_bits(n, 52, 11, 1023);
            memcpy(p, &v, 8);
        }
    }
}

static int build(prng *r, dmlref_case *g) {
    const uint32_t N = 1 + bld_rnd(r, 8);
    uint32_t sizes[8];
    bld_rand_sizes(r, N, sizes, bld_cap(256));
    const DMLREF_TENSOR_DATA_TYPE it = bld_pick(r, bld_data_types, 11), ot = bld_pick(r, bld_data_types, 11);
    g->n_inputs = 1;
    g->n_outputs = 1;
    bld_tensor_init(&g->inputs[0], it, N, sizes);
    bld_tensor_init(&g->outputs[0], ot, N, sizes);
    bld_layout(r, &g->inputs[0], 1);
    bld_layout(r, &g->outputs[0], 0);
    bld_fill_random(r, &g->inputs[0]);
    if (bld_opts.bits) cast_special(r, &g->inputs[0]);
    else if (!is_int_type(it) && is_int_type(ot)) in_range(r, &g->inputs[0], ot);
    return 0;
}

const builder cast_builder = {DMLREF_OPERATOR_CAST, build};
