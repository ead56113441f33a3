/*
 * Fill values: a FLOAT or a DMLREF_SCALAR_UNION made into one element
 * (scalar.h; docs/operators.md, "Fill values").
 */
#include "scalar.h"

#include <string.h>

uint16_t scalar_f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return scalar_f32_bits_to_f16(x);
}

uint16_t scalar_f32_bits_to_f16(uint32_t x) {
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

/* A FLOAT fill value made into one element on its bits alone (no float or
 * double arithmetic, so that a target without a double-precision unit links
 * none; the results are C's conversions': FLOAT64 widens exactly, a NaN keeps
 * its sign and payload, quiet bit set, as every host's float-to-double does).
 * Integers: the magnitude truncated toward zero (*big: 2^64 or more, or an
 * infinity), NaN giving 0. */
static uint64_t float_bits_trunc(uint32_t x, int *big) {
    const uint32_t e = (x >> 23) & 0xffu, m = (x & 0x7fffffu) | 0x800000u;
    *big = e >= 127u + 64u; /* |v| >= 2^64 (infinities included; NaN is tested first) */
    if (*big || e < 127u) return 0;
    return e >= 150u ? (uint64_t)m << (e - 150u) : (uint64_t)(m >> (150u - e));
}

/* Into a signed type of `bits` bits: truncated, saturated to [-2^(bits-1), 2^(bits-1) - 1]. */
static int64_t trunc_sat_signed(uint32_t x, unsigned bits) {
    if ((x & 0x7fffffffu) > 0x7f800000u) return 0; /* NaN */
    int big;
    const uint64_t mag = float_bits_trunc(x, &big), lim = (uint64_t)1 << (bits - 1);
    if (x >> 31) return big || mag >= lim ? -(int64_t)(lim - 1) - 1 : -(int64_t)mag;
    return big || mag >= lim ? (int64_t)(lim - 1) : (int64_t)mag;
}

/* Into an unsigned type of `bits` bits: negatives (and -0.0, NaN) 0, saturated to 2^bits - 1. */
static uint64_t trunc_sat_unsigned(uint32_t x, unsigned bits) {
    if ((x >> 31) || x > 0x7f800000u) return 0; /* negative, or NaN */
    int big;
    const uint64_t mag = float_bits_trunc(x, &big), max = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return big || mag > max ? max : mag;
}

/* FLOAT32 bits widened to FLOAT64 bits, exactly. */
static uint64_t f32_bits_to_f64(uint32_t x) {
    const uint64_t sign = (uint64_t)(x >> 31) << 63;
    const uint32_t e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
    if (e == 0xffu) return sign | 0x7ff0000000000000ull | (uint64_t)m << 29 | (m ? 0x0008000000000000ull : 0);
    if (e != 0) return sign | (uint64_t)(e + 896u) << 52 | (uint64_t)m << 29;
    if (m == 0) return sign;
    uint32_t p = 22; /* subnormal: m * 2^-149, m's leading one at bit p */
    while (!(m >> p)) --p;
    return sign | (uint64_t)(p + 874u) << 52 | (((uint64_t)m << (52 - p)) & 0x000fffffffffffffull);
}

void scalar_from_float(DMLREF_TENSOR_DATA_TYPE dt, float v, unsigned char *out) {
    uint32_t x;
    memcpy(&x, &v, 4);
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: memcpy(out, &v, 4); return;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: { const uint64_t d = f32_bits_to_f64(x); memcpy(out, &d, 8); return; }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: { const uint16_t h = scalar_f32_bits_to_f16(x); memcpy(out, &h, 2); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT8: { const int8_t i = (int8_t)trunc_sat_signed(x, 8); memcpy(out, &i, 1); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT16: { const int16_t i = (int16_t)trunc_sat_signed(x, 16); memcpy(out, &i, 2); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT32: { const int32_t i = (int32_t)trunc_sat_signed(x, 32); memcpy(out, &i, 4); return; }
    case DMLREF_TENSOR_DATA_TYPE_INT64: { const int64_t i = trunc_sat_signed(x, 64); memcpy(out, &i, 8); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT8: { const uint8_t u = (uint8_t)trunc_sat_unsigned(x, 8); memcpy(out, &u, 1); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT16: { const uint16_t u = (uint16_t)trunc_sat_unsigned(x, 16); memcpy(out, &u, 2); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { const uint32_t u = (uint32_t)trunc_sat_unsigned(x, 32); memcpy(out, &u, 4); return; }
    case DMLREF_TENSOR_DATA_TYPE_UINT64: { const uint64_t u = trunc_sat_unsigned(x, 64); memcpy(out, &u, 8); return; }
    default: memset(out, 0, 8); return; /* not reached: validation admits no other type */
    }
}

void scalar_from_union(DMLREF_TENSOR_DATA_TYPE dt, const DMLREF_SCALAR_UNION *u, unsigned char *out) {
    const uint32_t n = dmlref_data_type_size(dt);
    memcpy(out, u->Bytes, n <= 8 ? n : 8);
}

/* ---- CAST: one element of any type into any type -------------------------- */

/* A value taken apart: an integer (neg, mag), a finite float (neg, mag * 2^exp;
 * mag 0 is a zero of sign neg), an infinity, or a NaN with its mantissa. */
enum { SV_FINITE, SV_INF, SV_NAN };
typedef struct sval {
    int kind, neg, is_int;
    uint64_t mag; /* SV_FINITE: the magnitude's significand; SV_NAN: the mantissa field */
    int32_t exp;  /* SV_FINITE: mag * 2^exp */
    uint32_t ms;  /* SV_NAN: the source's mantissa width */
} sval;

/* A binary format: mantissa bits, exponent bits, bias. */
typedef struct ffmt {
    uint32_t md, ew;
    int32_t bias;
} ffmt;

static int float_format(DMLREF_TENSOR_DATA_TYPE t, ffmt *f) {
    switch (t) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: *f = (ffmt){10, 5, 15}; return 1;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: *f = (ffmt){23, 8, 127}; return 1;
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: *f = (ffmt){52, 11, 1023}; return 1;
    default: return 0;
    }
}

static uint64_t load_bits(const void *src, uint32_t size) {
    switch (size) {
    case 1: { uint8_t v; memcpy(&v, src, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, src, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, src, 4); return v; }
    default: { uint64_t v; memcpy(&v, src, 8); return v; }
    }
}

static void store_bits(void *dst, uint32_t size, uint64_t v) {
    switch (size) {
    case 1: { const uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); return; }
    case 2: { const uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); return; }
    case 4: { const uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); return; }
    default: memcpy(dst, &v, 8); return;
    }
}

static int type_signed(DMLREF_TENSOR_DATA_TYPE t) {
    return t == DMLREF_TENSOR_DATA_TYPE_INT8 || t == DMLREF_TENSOR_DATA_TYPE_INT16 ||
           t == DMLREF_TENSOR_DATA_TYPE_INT32 || t == DMLREF_TENSOR_DATA_TYPE_INT64;
}

static sval decode(DMLREF_TENSOR_DATA_TYPE st, const void *src) {
    const uint32_t size = dmlref_data_type_size(st);
    const uint64_t b = load_bits(src, size);
    sval v = {SV_FINITE, 0, 0, 0, 0, 0};
    ffmt f;
    if (!float_format(st, &f)) { /* an integer: sign-extend a signed one */
        const uint32_t w = 8 * size;
        v.is_int = 1;
        if (type_signed(st) && (b >> (w - 1)) & 1u) {
            v.neg = 1;
            v.mag = (w == 64 ? 0 : (UINT64_C(1) << w)) - b; /* 2^w - b, exact modulo 2^64 for w = 64 */
        } else {
            v.mag = b;
        }
        return v;
    }
    const uint64_t mmask = (UINT64_C(1) << f.md) - 1, emask = (UINT64_C(1) << f.ew) - 1;
    const uint64_t e = (b >> f.md) & emask, m = b & mmask;
    v.neg = (int)((b >> (f.md + f.ew)) & 1u);
    if (e == emask) {
        v.kind = m ? SV_NAN : SV_INF;
        v.mag = m;
        v.ms = f.md;
    } else if (e == 0) {
        v.mag = m;
        v.exp = 1 - f.bias - (int32_t)f.md;
    } else {
        v.mag = m | (UINT64_C(1) << f.md);
        v.exp = (int32_t)e - f.bias - (int32_t)f.md;
    }
    return v;
}

/* mag / 2^shift (shift >= 1) rounded to nearest, ties to even. */
static uint64_t shift_rne(uint64_t mag, uint32_t shift) {
    if (shift > 64) return 0; /* below half the unit */
    const uint64_t q = shift == 64 ? 0 : mag >> shift;
    const uint64_t rem = shift == 64 ? mag : mag & ((UINT64_C(1) << shift) - 1);
    const uint64_t half = UINT64_C(1) << (shift - 1);
    return q + (rem > half || (rem == half && (q & 1u)));
}

static uint32_t bit_length(uint64_t x) {
    uint32_t n = 0;
    while (x) x >>= 1, ++n;
    return n;
}

/* The bits of v in the float format f (one rounding to nearest even). */
static uint64_t encode_float(const sval *v, const ffmt *f) {
    const uint64_t sign = (uint64_t)v->neg << (f->md + f->ew);
    const uint64_t emask = (UINT64_C(1) << f->ew) - 1, inf = sign | (emask << f->md);
    if (v->kind == SV_INF) return inf;
    if (v->kind == SV_NAN) {
        const uint64_t m = v->ms >= f->md ? v->mag >> (v->ms - f->md) : v->mag << (f->md - v->ms);
        return inf | m | (UINT64_C(1) << (f->md - 1));
    }
    if (v->mag == 0) return v->is_int ? 0 : sign; /* integer 0 is +0; -0.0 stays -0.0 */
    const int32_t emin = 1 - f->bias, emax = f->bias;
    const int32_t e = (int32_t)bit_length(v->mag) - 1 + v->exp; /* the value's binary exponent */
    if (e > emax) return inf;
    const int32_t unit = (e < emin ? emin : e) - (int32_t)f->md; /* the exponent of the result's last bit */
    const int32_t shift = unit - v->exp;
    const uint64_t q = shift > 0 ? shift_rne(v->mag, (uint32_t)shift) : v->mag << (uint32_t)(-shift);
    /* a normal q carries the hidden bit, which adds one to the exponent field; a carry out of
     * the rounding moves into the exponent (the largest finite number rounds up to Inf) */
    const uint64_t body = e < emin ? q : ((uint64_t)(e + f->bias - 1) << f->md) + q;
    return sign | body;
}

/* v (finite or infinite, not NaN) truncated toward zero and saturated into w bits. */
static uint64_t encode_int(const sval *v, uint32_t w, int is_signed) {
    const uint64_t umax = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    const uint64_t max = is_signed ? umax >> 1 : umax; /* min magnitude: max + 1 signed, 0 unsigned */
    if (v->kind == SV_NAN) return 0;
    if (v->is_int) return v->neg ? 0 - v->mag : v->mag; /* int -> int: modulo 2^64, then the low w bits */
    uint64_t t;
    int over = 0;
    if (v->kind == SV_INF) {
        over = 1, t = 0;
    } else if (v->exp >= 0) {
        if (!v->mag) t = 0;
        else if (bit_length(v->mag) + (uint32_t)v->exp > 64) over = 1, t = 0;
        else t = v->mag << (uint32_t)v->exp;
    } else {
        t = v->exp <= -64 ? 0 : v->mag >> (uint32_t)(-v->exp);
    }
    if (!v->neg) return over || t > max ? max : t;
    if (!is_signed) return 0;
    if (over || t > max) return 0 - (max + 1); /* min */
    return 0 - t;
}

void scalar_cast(DMLREF_TENSOR_DATA_TYPE dt, void *dst, DMLREF_TENSOR_DATA_TYPE st, const void *src) {
    const uint32_t dsize = dmlref_data_type_size(dt);
    if (dt == st) { /* a bit copy: a signalling NaN stays signalling */
        memcpy(dst, src, dsize);
        return;
    }
    const sval v = decode(st, src);
    ffmt f;
    if (float_format(dt, &f)) store_bits(dst, dsize, encode_float(&v, &f));
    else store_bits(dst, dsize, encode_int(&v, 8 * dsize, type_signed(dt)));
}

/* sign-magnitude float bits -> an unsigned key of the same order, -0 joined to +0 */
static uint64_t float_key(uint64_t b, uint64_t sign) {
    if (b == sign) b = 0; /* -0 == +0 */
    return (b & sign) ? ~b & (sign | (sign - 1)) : b | sign;
}

uint64_t scalar_order_key(DMLREF_TENSOR_DATA_TYPE dt, const void *src, int nan_low) {
    const uint64_t nan_key = nan_low ? 0 : UINT64_MAX;
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_FLOAT32: {
        uint32_t b;
        memcpy(&b, src, 4);
        return (b & 0x7FFFFFFFu) > 0x7F800000u ? nan_key : float_key(b, 0x80000000u);
    }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT16: {
        uint16_t b;
        memcpy(&b, src, 2);
        return (b & 0x7FFFu) > 0x7C00u ? nan_key : float_key(b, 0x8000u);
    }
    case DMLREF_TENSOR_DATA_TYPE_FLOAT64: {
        uint64_t b;
        memcpy(&b, src, 8);
        return (b & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull ? nan_key
                                                                     : float_key(b, 0x8000000000000000ull);
    }
    case DMLREF_TENSOR_DATA_TYPE_INT8: { int8_t x; memcpy(&x, src, 1); return (uint64_t)(int64_t)x ^ 0x8000000000000000ull; }
    case DMLREF_TENSOR_DATA_TYPE_INT16: { int16_t x; memcpy(&x, src, 2); return (uint64_t)(int64_t)x ^ 0x8000000000000000ull; }
    case DMLREF_TENSOR_DATA_TYPE_INT32: { int32_t x; memcpy(&x, src, 4); return (uint64_t)(int64_t)x ^ 0x8000000000000000ull; }
    case DMLREF_TENSOR_DATA_TYPE_INT64: { int64_t x; memcpy(&x, src, 8); return (uint64_t)x ^ 0x8000000000000000ull; }
    case DMLREF_TENSOR_DATA_TYPE_UINT8: { uint8_t x; memcpy(&x, src, 1); return x; }
    case DMLREF_TENSOR_DATA_TYPE_UINT16: { uint16_t x; memcpy(&x, src, 2); return x; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { uint32_t x; memcpy(&x, src, 4); return x; }
    case DMLREF_TENSOR_DATA_TYPE_UINT64: { uint64_t x; memcpy(&x, src, 8); return x; }
    default: return 0;
    }
}
