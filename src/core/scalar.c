/*
 * Fill values: a FLOAT or a DMLREF_SCALAR_UNION made into one element
 * (scalar.h; docs/operators.md, "Fill values").
 */
#include "scalar.h"

#include <string.h>

uint16_t scalar_f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* NaN, quieted   */
    if (ax >= 0x47800000u) return (uint16_t)(sign | 0x7c00u);                         /* >= 2^16, inf  */
    if (ax < 0x38800000u) {                                   /* below 2^-14: a binary16 subnormal or 0 */
        const uint32_t e = ax >> 23;
        if (e < 102) return sign;                             /* below 2^-25: rounds to 0              */
        const uint32_t m = (ax & 0x7fffffu) | 0x800000u, shift = 126 - e; /* 14..24                   */
        uint32_t k = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (k & 1u))) ++k;     /* may carry into the smallest normal    */
        return (uint16_t)(sign | k);
    }
    uint32_t h = (ax - 0x38000000u) >> 13;                    /* rebias 127 -> 15, drop 13 bits         */
    const uint32_t rem = ax & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;   /* may carry into the exponent, up to inf */
    return (uint16_t)(sign | h);
}

uint32_t scalar_f16_to_f32_bits(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu) return sign | 0x7f800000u | (m << 13);       /* inf, NaN: payload kept  */
    if (e != 0) return sign | ((e + 112u) << 23) | (m << 13);      /* normal: rebias 15 -> 127 */
    if (m == 0) return sign;                                       /* +-0                     */
    uint32_t k = 0, mm = m;                                        /* subnormal: m * 2^-24    */
    while (!(mm & 0x400u)) mm <<= 1, ++k;                          /* k = 1..10 shifts        */
    return sign | ((113u - k) << 23) | ((mm & 0x3ffu) << 13);
}

/* Truncate toward zero and saturate into [lo, hi] (given as floats exactly
 * representable: -2^k and 2^k, compared with >=); NaN gives 0. */
static int64_t trunc_sat_signed(float v, float lo, float hi_excl, int64_t min, int64_t max) {
    if (v != v) return 0;
    if (v <= lo) return min;
    if (v >= hi_excl) return max;
    return (int64_t)v; /* C's conversion truncates toward zero; in range here */
}

static uint64_t trunc_sat_unsigned(float v, float hi_excl, uint64_t max) {
    if (v != v || v <= 0.0f) return 0; /* NaN, negatives and -0.0 truncate or saturate to 0 */
    if (v >= hi_excl) return max;
    return (uint64_t)v;
}

void scalar_from_float(DMLREF_TENSOR_DATA_TYPE dt, float v, unsigned char *out) {
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: memcpy(out, &v, 4); return;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: { const double d = v; memcpy(out, &d, 8); return; }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: { const uint16_t h = scalar_f32_to_f16(v); memcpy(out, &h, 2); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT8: { const int8_t i = (int8_t)trunc_sat_signed(v, -128.0f, 128.0f, INT8_MIN, INT8_MAX); memcpy(out, &i, 1); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT16: { const int16_t i = (int16_t)trunc_sat_signed(v, -32768.0f, 32768.0f, INT16_MIN, INT16_MAX); memcpy(out, &i, 2); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT32: { const int32_t i = (int32_t)trunc_sat_signed(v, -2147483648.0f, 2147483648.0f, INT32_MIN, INT32_MAX); memcpy(out, &i, 4); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT64: { const int64_t i = trunc_sat_signed(v, -9223372036854775808.0f, 9223372036854775808.0f, INT64_MIN, INT64_MAX); memcpy(out, &i, 8); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT8: { const uint8_t u = (uint8_t)trunc_sat_unsigned(v, 256.0f, UINT8_MAX); memcpy(out, &u, 1); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT16: { const uint16_t u = (uint16_t)trunc_sat_unsigned(v, 65536.0f, UINT16_MAX); memcpy(out, &u, 2); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { const uint32_t u = (uint32_t)trunc_sat_unsigned(v, 4294967296.0f, UINT32_MAX); memcpy(out, &u, 4); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT64: { const uint64_t u = trunc_sat_unsigned(v, 18446744073709551616.0f, UINT64_MAX); memcpy(out, &u, 8); return; }
    default: memset(out, 0, 8); return; /* not reached: validation admits no other type */
    }
}

void scalar_from_union(DMLREF_TENSOR_DATA_TYPE dt, const DMLREF_SCALAR_UNION *u, unsigned char *out) {
    const uint32_t n = dmlref_data_type_size(dt);
    memcpy(out, u->Bytes, n <= 8 ? n : 8);
}
