/*
 * Fill values (src/core/scalar.c): FLOAT -> element (truncate, saturate, NaN -> 0;
 * FLOAT16 round to nearest even) and DMLREF_SCALAR_UNION -> element (bytes).
 */
#include <math.h>

#include "check.h"
#include "core/scalar.h"

static int64_t as_i64(DMLREF_TENSOR_DATA_TYPE dt, float v) {
    unsigned char b[8];
    scalar_from_float(dt, v, b);
    switch (dt) {
    case DMLREF_TENSOR_DATA_TYPE_INT8: { int8_t x; memcpy(&x, b, 1); return x; }
    case DMLREF_TENSOR_DATA_TYPE_INT16: { int16_t x; memcpy(&x, b, 2); return x; }
    case DMLREF_TENSOR_DATA_TYPE_INT32: { int32_t x; memcpy(&x, b, 4); return x; }
    case DMLREF_TENSOR_DATA_TYPE_INT64: { int64_t x; memcpy(&x, b, 8); return x; }
    case DMLREF_TENSOR_DATA_TYPE_UINT8: { uint8_t x; memcpy(&x, b, 1); return x; }
    case DMLREF_TENSOR_DATA_TYPE_UINT16: { uint16_t x; memcpy(&x, b, 2); return x; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { uint32_t x; memcpy(&x, b, 4); return x; }
    default: return -999;
    }
}

TEST(scalar_float_to_integers_truncates_and_saturates) {
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT32, 10.6f), 10);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT32, -10.6f), -10);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT8, 127.9f), 127);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT8, 128.0f), 127);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT8, -128.5f), -128);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT8, -1e30f), -128);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_UINT8, -0.9f), 0);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_UINT8, 255.99f), 255);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_UINT16, INFINITY), 65535);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT16, -INFINITY), -32768);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT32, NAN), 0);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_UINT32, 4294967296.0f), 4294967295);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_UINT32, 4294967040.0f), 4294967040);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT32, 2147483520.0f), 2147483520);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT32, 2147483648.0f), INT32_MAX);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT64, 9.3e18f), INT64_MAX);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT64, -9223372036854775808.0f), INT64_MIN);
    CHECK_EQ_I64(as_i64(DMLREF_TENSOR_DATA_TYPE_INT64, -4611686018427387904.0f), -4611686018427387904LL);
    unsigned char b[8];
    uint64_t u;
    scalar_from_float(DMLREF_TENSOR_DATA_TYPE_UINT64, 1e30f, b);
    memcpy(&u, b, 8);
    CHECK_EQ_U64(u, UINT64_MAX);
    scalar_from_float(DMLREF_TENSOR_DATA_TYPE_UINT64, 9223372036854775808.0f, b);
    memcpy(&u, b, 8);
    CHECK_EQ_U64(u, 9223372036854775808ull);
}

TEST(scalar_float_to_floats) {
    unsigned char b[8];
    double d;
    float f;
    /* through a volatile float: under FLT_EVAL_METHOD 2 (i386's x87) the constant
     * 0.1f itself may carry long-double precision */
    volatile float tenth = 0.1f;
    const float tenth_f = tenth;
    scalar_from_float(DMLREF_TENSOR_DATA_TYPE_FLOAT64, tenth_f, b);
    memcpy(&d, b, 8);
    CHECK(d == (double)tenth_f && d != 0.1);
    scalar_from_float(DMLREF_TENSOR_DATA_TYPE_FLOAT32, -0.0f, b);
    memcpy(&f, b, 4);
    CHECK(f == 0.0f && signbit(f));
    /* binary16 round to nearest even, subnormals, overflow, NaN, -0 */
    CHECK_EQ_U64(scalar_f32_to_f16(1.0f), 0x3c00);
    CHECK_EQ_U64(scalar_f32_to_f16(-2.0f), 0xc000);
    CHECK_EQ_U64(scalar_f32_to_f16(-0.0f), 0x8000);
    CHECK_EQ_U64(scalar_f32_to_f16(65504.0f), 0x7bff);
    CHECK_EQ_U64(scalar_f32_to_f16(65519.0f), 0x7bff);
    CHECK_EQ_U64(scalar_f32_to_f16(65520.0f), 0x7c00);
    CHECK_EQ_U64(scalar_f32_to_f16(1e9f), 0x7c00);
    CHECK_EQ_U64(scalar_f32_to_f16(-INFINITY), 0xfc00);
    CHECK_EQ_U64(scalar_f32_to_f16(1.0f + 1.0f / 2048), 0x3c00);            /* tie, to even     */
    CHECK_EQ_U64(scalar_f32_to_f16(1.0f + 3.0f / 2048), 0x3c02);            /* tie, to even     */
    CHECK_EQ_U64(scalar_f32_to_f16(5.9604645e-8f), 0x0001);                 /* 2^-24            */
    CHECK_EQ_U64(scalar_f32_to_f16(2.9802322e-8f), 0x0000);                 /* 2^-25 ties to 0  */
    CHECK_EQ_U64(scalar_f32_to_f16(4.4703484e-8f), 0x0001);                 /* 1.5 * 2^-25      */
    CHECK_EQ_U64(scalar_f32_to_f16(6.1035156e-5f), 0x0400);                 /* 2^-14            */
    CHECK_EQ_U64(scalar_f32_to_f16(6.1032176e-5f), 0x0400);                 /* rounds up to it  */
    CHECK_EQ_U64(scalar_f32_to_f16(57.875f), 0x533c);
    CHECK_EQ_U64(scalar_f32_to_f16(NAN) & 0x7e00, 0x7e00);
    /* every binary16 value round-trips through binary32 */
    for (uint32_t h = 0; h < 0x10000; ++h) {
        if ((h & 0x7c00) == 0x7c00) continue;
        const uint32_t s = (h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
        float v;
        if (e == 0) {
            v = ldexpf((float)m, -24);
            if (s) v = -v;
        } else {
            const uint32_t bits = s | ((e + 112) << 23) | (m << 13);
            memcpy(&v, &bits, 4);
        }
        if (scalar_f32_to_f16(v) != h) {
            test_fail(__FILE__, __LINE__, "binary16 0x%04x does not round-trip (got 0x%04x)", (unsigned)h,
                      (unsigned)scalar_f32_to_f16(v));
            return;
        }
    }
}

TEST(scalar_union_copies_bytes) {
    DMLREF_SCALAR_UNION u;
    memset(&u, 0xEE, sizeof u);
    u.Int64 = INT64_MIN;
    unsigned char b[8] = {0};
    scalar_from_union(DMLREF_TENSOR_DATA_TYPE_INT64, &u, b);
    CHECK(memcmp(b, &u.Int64, 8) == 0);
    const uint16_t h = 0x7d01; /* a signalling-NaN binary16 pattern, kept as is */
    memcpy(u.Bytes, &h, 2);
    memset(b, 0, sizeof b);
    scalar_from_union(DMLREF_TENSOR_DATA_TYPE_FLOAT16, &u, b);
    CHECK(memcmp(b, &h, 2) == 0 && b[2] == 0);
    CHECK_EQ_U64(sizeof(DMLREF_SCALAR_UNION), 8);
    CHECK_EQ_U64(_Alignof(DMLREF_SCALAR_UNION), _Alignof(uint64_t));
}

/* scalar_order_key: the total order of TOP_K and ARGMIN/ARGMAX, on bit patterns */
static uint64_t key32(uint32_t bits, int nan_low) { return scalar_order_key(DMLREF_TENSOR_DATA_TYPE_FLOAT32, &bits, nan_low); }
static uint64_t key16(uint16_t bits, int nan_low) { return scalar_order_key(DMLREF_TENSOR_DATA_TYPE_FLOAT16, &bits, nan_low); }
static uint64_t key64(uint64_t bits, int nan_low) { return scalar_order_key(DMLREF_TENSOR_DATA_TYPE_FLOAT64, &bits, nan_low); }

TEST(scalar_order_key_floats) {
    /* ascending: -Inf, -max, -1, -min subnormal, -0 == +0, +min subnormal, 1, max, +Inf, then NaN */
    const uint32_t f32[] = {0xFF800000u, 0xFF7FFFFFu, 0xBF800000u, 0x80000001u, 0x00000000u,
                            0x00000001u, 0x3F800000u, 0x7F7FFFFFu, 0x7F800000u};
    for (size_t i = 0; i + 1 < sizeof f32 / sizeof *f32; ++i) CHECK(key32(f32[i], 0) < key32(f32[i + 1], 0));
    CHECK_EQ_U64(key32(0x80000000u, 0), key32(0, 0));
    CHECK(key32(0xFF800000u, 0) > 0 && key32(0x7F800000u, 0) < UINT64_MAX);
    const uint32_t nans[] = {0x7FC00000u, 0x7F800001u, 0xFFFFFFFFu, 0xFFC00000u, 0x7FBFFFFFu};
    for (size_t i = 0; i < 5; ++i) {
        CHECK_EQ_U64(key32(nans[i], 0), UINT64_MAX);
        CHECK_EQ_U64(key32(nans[i], 1), 0);
    }
    const uint16_t f16[] = {0xFC00u, 0xFBFFu, 0xBC00u, 0x8001u, 0x0000u, 0x0001u, 0x3C00u, 0x7BFFu, 0x7C00u};
    for (size_t i = 0; i + 1 < sizeof f16 / sizeof *f16; ++i) CHECK(key16(f16[i], 0) < key16(f16[i + 1], 0));
    CHECK_EQ_U64(key16(0x8000u, 1), key16(0, 1));
    CHECK_EQ_U64(key16(0x7E01u, 0), UINT64_MAX);
    CHECK_EQ_U64(key16(0xFD00u, 1), 0);
    CHECK(key64(0xFFF0000000000000ull, 0) > 0 && key64(0x7FF0000000000000ull, 0) < UINT64_MAX);
    CHECK(key64(0xBFF0000000000000ull, 0) < key64(0x8000000000000000ull, 0));
    CHECK_EQ_U64(key64(0x8000000000000000ull, 0), key64(0, 0));
    CHECK(key64(0, 0) < key64(1, 0));
    CHECK_EQ_U64(key64(0x7FF0000000000001ull, 0), UINT64_MAX);
    CHECK_EQ_U64(key64(0xFFF8000000000000ull, 1), 0);
}

TEST(scalar_order_key_integers) {
    const int8_t a = -128, b = -1, c = 0, d = 127;
    CHECK(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT8, &a, 0) < scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT8, &b, 0));
    CHECK(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT8, &b, 0) < scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT8, &c, 0));
    CHECK(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT8, &c, 0) < scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT8, &d, 0));
    const int64_t lo = INT64_MIN, hi = INT64_MAX;
    CHECK_EQ_U64(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT64, &lo, 1), 0);
    CHECK_EQ_U64(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT64, &hi, 1), UINT64_MAX);
    const uint16_t u = 65535;
    CHECK_EQ_U64(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_UINT16, &u, 0), 65535);
    const uint64_t big = UINT64_MAX;
    CHECK_EQ_U64(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_UINT64, &big, 0), UINT64_MAX);
    const int32_t m = -5;
    CHECK_EQ_U64(scalar_order_key(DMLREF_TENSOR_DATA_TYPE_INT32, &m, 0), 0x8000000000000000ull - 5);
}
