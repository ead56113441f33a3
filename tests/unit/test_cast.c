/*
 * CAST (docs/operators.md, CAST): the desc's layout and schema, every rule
 * (CA1-CA3) at the feature levels where it differs, every example of the
 * section (also tests/cases/cast_doc_*.json), the conversion of all 121 type
 * pairs against independent references, each SIMD kernel against the scalar
 * conversion on every special value and on random bit patterns (all 2^16
 * binary16 values for f16_f32) with odd lengths, and the fast path against the
 * oracle on random cases with 1 and 2 threads, reaching every cast.* kernel.
 */
#include <float.h>
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "core/scalar.h"
#include "simd/simd.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define F64 DMLREF_TENSOR_DATA_TYPE_FLOAT64
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define U16 DMLREF_TENSOR_DATA_TYPE_UINT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define I16 DMLREF_TENSOR_DATA_TYPE_INT16
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define FL DMLREF_FEATURE_LEVEL_6_4

static const DMLREF_TENSOR_DATA_TYPE all_types[11] = {F32, F16, F64, U8, U16, U32, U64, I8, I16, I32, I64};

typedef struct cfix {
    tdesc in, out;
    DMLREF_CAST_OPERATOR_DESC t;
    DMLREF_OPERATOR_DESC d;
} cfix;

static void cfix_init(cfix *f, DMLREF_TENSOR_DATA_TYPE it, DMLREF_TENSOR_DATA_TYPE ot, uint32_t n, const uint32_t *sizes,
                      const uint32_t *in_strides, const uint32_t *out_strides) {
    tdesc_init(&f->in, it, n, sizes, in_strides);
    tdesc_init(&f->out, ot, n, sizes, out_strides);
    f->t = (DMLREF_CAST_OPERATOR_DESC){&f->in.desc, &f->out.desc};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_CAST, &f->t};
}

static dmlref_status validate(const cfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(cast_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_CAST_OPERATOR_DESC), 2 * p); /* 16 on LP64, 8 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_CAST_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_CAST_OPERATOR_DESC, OutputTensor), p);
}

TEST(cast_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_CAST);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "CAST") == 0 && strcmp(dmlref_operator_name(DMLREF_OPERATOR_CAST), "CAST") == 0);
    CHECK_EQ_U64(sc->type, 61);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_CAST_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_1_0);
    CHECK_EQ_U64(sc->flags, 0); /* no in-place execution: the element sizes may differ */
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output);
    CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output);
    CHECK_EQ_U64(sc->slots[1].offset, offsetof(DMLREF_CAST_OPERATOR_DESC, OutputTensor));
    CHECK_EQ_U64(sc->n_params, 0);
}

TEST(cast_validation_rules) {
    cfix f;
    dmlref_error err;
    cfix_init(&f, F32, F16, DIMS(1, 1, 2, 3), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    /* CA1: same DimensionCount, same Sizes */
    tdesc_init(&f.out, F16, DIMS(1, 2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "CAST: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)", "CA1");
    tdesc_init(&f.out, F16, DIMS(1, 1, 3, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "CAST: OutputTensor.Sizes", "CA1");
    CHECK(strstr(err.message, "InputTensor.Sizes") != NULL);
    /* every pair, equal types included, at 4_1 */
    for (int a = 0; a < 11; ++a)
        for (int b = 0; b < 11; ++b) {
            cfix_init(&f, all_types[a], all_types[b], DIMS(2, 3), NULL);
            CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
        }
    /* the tensor rules: output elements may not share memory; input zero strides broadcast */
    cfix_init(&f, F32, I32, 2, SIZES(2, 3), SIZES(0, 1), SIZES(0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0", "T15");
    cfix_init(&f, F32, I32, 2, SIZES(2, 3), SIZES(0, 1), NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    f.t.InputTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "CAST: InputTensor is NULL", "T1");
    f.t.InputTensor = &f.in.desc;
    f.t.OutputTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "CAST: OutputTensor is NULL", "T1");
}

/* Q0.2: 1_0 4-D C6 = {F32, F16, I16, I8, U16, U8}; 3_0 4-D T10; 3_1 1-8 dims T10; 4_1 1-8 dims T11. */
TEST(cast_feature_levels) {
    cfix f;
    dmlref_error err;
    static const DMLREF_TENSOR_DATA_TYPE c6[6] = {F32, F16, I16, I8, U16, U8};
    for (int a = 0; a < 6; ++a)
        for (int b = 0; b < 6; ++b) {
            cfix_init(&f, c6[a], c6[b], DIMS(1, 2, 1, 3), NULL);
            CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
        }
    /* CA3: the 32-bit integers from 3_0 (the 1_0 row omits them: docs/operators.md CAST, doc item 45) */
    static const DMLREF_TENSOR_DATA_TYPE i32s[2] = {I32, U32};
    for (int k = 0; k < 2; ++k) {
        cfix_init(&f, i32s[k], F32, DIMS(1, 2, 1, 3), NULL);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                   "is not supported at feature level 1_0", "CA3");
        CHECK(strstr(err.message, "CAST: InputTensor.DataType") != NULL);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DATA_TYPE, "feature level 2_1", "CA3");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
        cfix_init(&f, F16, i32s[k], DIMS(1, 2, 1, 3), NULL);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                   "CAST: OutputTensor.DataType", "CA3");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    }
    /* the 64-bit types from 4_1 (T10 has the 64-bit integers, T11 FLOAT64 too) */
    cfix_init(&f, I64, F32, DIMS(1, 2, 1, 3), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DATA_TYPE, "INT64", "CA3");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    cfix_init(&f, F32, U64, DIMS(1, 2, 1, 3), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    cfix_init(&f, F64, F32, DIMS(1, 2, 1, 3), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE,
               "CAST: InputTensor.DataType (FLOAT64) is not supported at feature level 4_0", "CA3");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
    cfix_init(&f, F32, F64, DIMS(1, 2, 1, 3), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_ERROR_DATA_TYPE,
               "CAST: OutputTensor.DataType (FLOAT64)", "CA3");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
    /* CA2: exactly 4 dims until 3_1, then 1 to 8 */
    cfix_init(&f, F32, F16, DIMS(2, 3, 4), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "CAST: InputTensor.DimensionCount (3) must be in [4, 4] at feature level 1_0", "CA2");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "must be in [4, 4] at feature level 3_0", "CA2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    cfix_init(&f, F32, F16, DIMS(1, 1, 1, 1, 2), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "[4, 4]", "CA2");
    cfix_init(&f, F32, F16, DIMS(2, 1, 2, 1, 2, 1, 2, 1), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    cfix_init(&f, F32, F16, DIMS(5), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    /* the operator exists from 1_0: output_sizes gives the input's shape */
    uint32_t n = 0, sizes[8];
    cfix_init(&f, F32, I8, DIMS(3, 1, 4), NULL);
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_OK, NULL);
    CHECK(n == 3 && sizes[0] == 3 && sizes[1] == 1 && sizes[2] == 4);
}

/* ---- one element ------------------------------------------------------------------ */

static uint64_t conv(DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE st, uint64_t bits) {
    unsigned char s[8], d[8] = {0};
    const uint32_t ss = dmlref_data_type_size(st), ds = dmlref_data_type_size(dt);
    switch (ss) { /* host encoding */
    case 1: { const uint8_t v = (uint8_t)bits; memcpy(s, &v, 1); break; }
    case 2: { const uint16_t v = (uint16_t)bits; memcpy(s, &v, 2); break; }
    case 4: { const uint32_t v = (uint32_t)bits; memcpy(s, &v, 4); break; }
    default: memcpy(s, &bits, 8);
    }
    scalar_cast(dt, d, st, s);
    switch (ds) {
    case 1: { uint8_t v; memcpy(&v, d, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, d, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, d, 4); return v; }
    default: { uint64_t v; memcpy(&v, d, 8); return v; }
    }
}
static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t dbits(double f) { uint64_t b; memcpy(&b, &f, 8); return b; }

#define CONV(dt, st, v, want) CHECK_EQ_U64(conv(dt, st, (uint64_t)(v)), (uint64_t)(want))

/* Every example of docs/operators.md CAST (the spec's Q2 list), element by element. */
TEST(cast_spec_examples) {
    const float a[4] = {-43.5f, -2.5f, 83.5f, 102.1578369140625f};
    const int32_t want[4] = {-43, -2, 83, 102};
    for (int i = 0; i < 4; ++i) CONV(I32, F32, fbits(a[i]), (uint32_t)want[i]);
    CONV(F16, F32, fbits(102.1578369140625f), 0x5663); /* 102.1875 */
    CHECK_EQ_U64(scalar_f16_to_f32_bits(0x5663), fbits(102.1875f));
    CONV(F16, F32, fbits(72.9759750366211f), 0x5490); /* 73 */
    CHECK_EQ_U64(scalar_f16_to_f32_bits(0x5490), fbits(73.0f));
    CONV(U8, F32, fbits(-1.0f), 0);
    CONV(I8, F32, fbits(300.5f), 127);
    CONV(I32, F32, 0x7fc00000u, 0);
    CONV(U64, F32, fbits(3e38f), UINT64_MAX);
    CONV(I8, I32, 300u, 44);
    CONV(U32, I64, UINT64_MAX /* -1 */, 4294967295u);
    CONV(F16, U32, 70000u, 0x7c00);
    CONV(F32, I64, 16777217u, fbits(16777216.0f));
    CONV(F16, F64, dbits(1e-40), 0);
    CONV(F32, F64, dbits(1e-40), 0x000116c2u); /* a binary32 subnormal, kept */
    CONV(F16, F32, 0x7fc0beefu, 0x7e05);
    CONV(F32, F16, 0x7c01u, 0x7fc02000u);
}

/* The rules of each kind of pair, at their edges. */
TEST(cast_rules_by_pair_kind) {
    /* same type: the bits (a signalling NaN stays signalling) */
    CONV(F32, F32, 0x7f800001u, 0x7f800001u);
    CONV(F16, F16, 0xfc01u, 0xfc01u);
    CONV(F64, F64, UINT64_C(0x7ff0000000000001), UINT64_C(0x7ff0000000000001));
    CONV(I64, I64, UINT64_C(0x8000000000000000), UINT64_C(0x8000000000000000));
    /* int -> int: modulo 2^w */
    CONV(U8, I8, 0x80u, 0x80u);                              /* -128 -> 128 */
    CONV(I64, I8, 0x80u, UINT64_C(0xffffffffffffff80));      /* sign extension */
    CONV(U64, I32, 0xffffffffu, UINT64_MAX);                 /* -1 */
    CONV(I64, U32, 0xffffffffu, 0xffffffffu);                /* zero extension */
    CONV(I16, U64, UINT64_C(0x123456789abcdef0), 0xdef0u);
    CONV(U16, I64, UINT64_C(0x8000000000000000), 0);
    /* int -> float: one rounding to nearest even, from the exact integer */
    CONV(F32, U64, UINT64_MAX, 0x5f800000u);                 /* 2^64 */
    CONV(F64, U64, UINT64_MAX, UINT64_C(0x43f0000000000000));
    CONV(F64, I64, UINT64_C(0x8000000000000000), UINT64_C(0xc3e0000000000000)); /* -2^63 exact */
    CONV(F64, U64, UINT64_C(0x20000000000001), UINT64_C(0x4340000000000000)); /* 2^53 + 1: tie, to even */
    CONV(F64, U64, UINT64_C(0x20000000000003), UINT64_C(0x4340000000000002)); /* 2^53 + 3 -> 2^53 + 4 */
    CONV(F32, I64, UINT64_C(0x1000001), fbits(16777216.0f));
    CONV(F32, I64, UINT64_C(0x1000003), fbits(16777220.0f));
    CONV(F32, I64, UINT64_C(0x7fffff8000000000) + 1, 0x5effffffu); /* 2^63 - 2^39 + 1: down to 2^63 - 2^39 */
    CONV(F32, I64, UINT64_C(0x7fffffc000000000), 0x5f000000u);     /* the tie: to even, 2^63 */
    CONV(F32, I64, UINT64_C(0x7fffffbfffffffff), 0x5effffffu);     /* below the tie */
    CONV(F16, U16, 65519u, 0x7bff);                          /* below 65520: 65504 */
    CONV(F16, U16, 65520u, 0x7c00);                          /* the tie, to even: Inf */
    CONV(F16, I32, (uint32_t)-65520, 0xfc00);                /* -Inf */
    CONV(F16, I8, 0u, 0);                                    /* +0, never -0 */
    CONV(F16, I64, UINT64_MAX, 0xbc00);                      /* -1 */
    CONV(F16, I16, 2049u, 0x6800);                           /* 2048 (tie to even) */
    CONV(F16, I16, 2051u, 0x6802);                           /* 2052 */
    /* float -> float */
    CONV(F16, F32, 0x477fe000u, 0x7bff);                     /* 65504 */
    CONV(F16, F32, 0x477fefffu, 0x7bff);                     /* below the tie */
    CONV(F16, F32, 0x477ff000u, 0x7c00);                     /* 65520: Inf */
    CONV(F16, F32, 0xff800000u, 0xfc00);
    CONV(F16, F32, 0x80000000u, 0x8000);                     /* -0 kept */
    CONV(F16, F32, 0x33000000u, 0);                          /* 2^-25: tie with 0, to even */
    CONV(F16, F32, 0x33000001u, 1);                          /* just above: the smallest subnormal */
    CONV(F16, F32, 0x33c00000u, 2);                          /* 1.5 * 2^-24: tie, to even (2) */
    CONV(F16, F32, 0x387fc000u, 0x03ff);                     /* the largest subnormal */
    CONV(F16, F32, 0x387fe000u, 0x0400);                     /* the tie above it: the smallest normal */
    CONV(F16, F32, 0x3f801000u, 0x3c00);                     /* 1 + 2^-11: tie, to even */
    CONV(F16, F32, 0x3f803000u, 0x3c02);                     /* 1 + 3 * 2^-11: tie, to even (up) */
    CONV(F16, F32, 0x7f800001u, 0x7e00);                     /* a signalling NaN, payload below 10 bits */
    CONV(F16, F32, 0xffa00001u, 0xfe00 | 0x100);
    CONV(F32, F16, 0x0001u, 0x33800000u);                    /* 2^-24 exactly */
    CONV(F32, F16, 0x83ffu, 0xb87fc000u);
    CONV(F32, F16, 0xfe05u, 0xffc0a000u);
    CONV(F64, F16, 0x7c01u, UINT64_C(0x7ff8040000000000));   /* payload shifted up 42 bits, quiet bit */
    CONV(F64, F32, 0x7f800001u, UINT64_C(0x7ff8000020000000));
    CONV(F32, F64, UINT64_C(0x7ff0000000000001), 0x7fc00000u); /* payload below 23 bits: the quiet NaN */
    CONV(F32, F64, UINT64_C(0xfff8deadbeef0000), 0xffc6f56du);  /* 0x8deadbeef0000 >> 29 = 0x46f56d, quiet */
    CONV(F32, F64, dbits(DBL_MAX), 0x7f800000u);
    CONV(F32, F64, dbits(-3.4028235677973366e38), 0xff800000u); /* the tie above FLT_MAX: Inf */
    CONV(F32, F64, dbits(3.4028235677973362e38), 0x7f7fffffu);  /* just below it */
    CONV(F32, F64, UINT64_C(0x36a0000000000000), 1u);           /* 2^-149 */
    CONV(F32, F64, UINT64_C(0x3690000000000000), 0u);           /* 2^-150: tie, to even (0) */
    CONV(F32, F64, UINT64_C(0x3690000000000001), 1u);
    CONV(F32, F64, UINT64_C(0x8000000000000000), 0x80000000u);
    CONV(F16, F64, dbits(65519.99999), 0x7bff);
    CONV(F16, F64, dbits(-65520.0), 0xfc00);
    CONV(F16, F64, dbits(5.960464477539063e-08), 1);            /* 2^-24 */
    CONV(F64, F32, 1u, UINT64_C(0x36a0000000000000));           /* a subnormal becomes a normal */
    /* float -> int: NaN 0, +-Inf max / min, truncation, saturation */
    CONV(U8, F32, fbits(255.99f), 255);
    CONV(U8, F32, fbits(-0.99f), 0);
    CONV(U8, F32, 0x80000000u, 0);                             /* -0 -> 0 */
    CONV(I8, F32, fbits(-128.9f), 0x80);
    CONV(I8, F32, fbits(-129.0f), 0x80);
    CONV(I16, F16, 0x7c00u, 0x7fff);
    CONV(I16, F16, 0xfc00u, 0x8000);
    CONV(U16, F16, 0xfc00u, 0);
    CONV(U16, F16, 0x7bffu, 65504);
    CONV(I32, F32, 0x4f000000u, 0x7fffffffu);                  /* 2^31 */
    CONV(I32, F32, 0x4effffffu, 2147483520u);
    CONV(I32, F32, 0xcf000000u, 0x80000000u);                  /* -2^31 exact */
    CONV(I32, F32, 0xcf000001u, 0x80000000u);
    CONV(I32, F32, 0xff800001u, 0);                            /* any NaN */
    CONV(U32, F64, dbits(4294967295.9), 4294967295u);
    CONV(U32, F64, dbits(4294967296.0), 4294967295u);
    CONV(I64, F64, dbits(9223372036854774784.0), UINT64_C(9223372036854774784));
    CONV(I64, F64, dbits(9223372036854775808.0), INT64_MAX);
    CONV(I64, F64, dbits(-9223372036854775808.0), UINT64_C(0x8000000000000000));
    CONV(I64, F32, 0xff800000u, UINT64_C(0x8000000000000000));
    CONV(U64, F64, dbits(18446744073709549568.0), UINT64_C(18446744073709549568));
    CONV(U64, F64, dbits(1e300), UINT64_MAX);
    CONV(U64, F64, dbits(-1e300), 0);
    CONV(I64, F64, UINT64_C(1), 0);                            /* the smallest subnormal truncates to 0 */
    CONV(I8, F16, 0x0001u, 0);
}

/* ---- all 121 pairs against independent references ------------------------------------ */

static int is_float(DMLREF_TENSOR_DATA_TYPE t) { return t == F16 || t == F32 || t == F64; }
static int is_signed(DMLREF_TENSOR_DATA_TYPE t) { return t == I8 || t == I16 || t == I32 || t == I64; }

/* An integer element's value as (neg, magnitude). */
static void int_value(DMLREF_TENSOR_DATA_TYPE t, uint64_t bits, int *neg, uint64_t *mag) {
    const uint32_t w = 8 * dmlref_data_type_size(t);
    if (w < 64) bits &= (UINT64_C(1) << w) - 1;
    *neg = is_signed(t) && (bits >> (w - 1)) & 1u;
    *mag = *neg ? (w == 64 ? 0 - bits : (UINT64_C(1) << w) - bits) : bits;
}

/* The exact value of a finite float element as a long double is not portable; instead the
 * reference for float sources works through the formats' own decoders: binary16 via
 * scalar_f16_to_f32_bits (exact), binary32 and binary64 via the host's double, on the
 * classes and values that double holds exactly. */
static int f_class(DMLREF_TENSOR_DATA_TYPE t, uint64_t bits, double *v, int *neg) {
    uint32_t md = 52, ew = 11;
    if (t == F16) md = 10, ew = 5;
    if (t == F32) md = 23, ew = 8;
    const uint64_t em = (UINT64_C(1) << ew) - 1, e = (bits >> md) & em, m = bits & ((UINT64_C(1) << md) - 1);
    *neg = (int)((bits >> (md + ew)) & 1u);
    if (e == em) return m ? 2 : 1;
    if (t == F16) {
        const uint32_t b = scalar_f16_to_f32_bits((uint16_t)bits);
        float f;
        memcpy(&f, &b, 4);
        *v = f;
    } else if (t == F32) {
        const uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        *v = f;
    } else {
        memcpy(v, &bits, 8);
    }
    return 0;
}

/* 2^k and the floor of v >= 0, exactly, with no libm. */
static double ldexp_pow2(uint32_t k) {
    double d = 1.0;
    while (k--) d *= 2.0;
    return d;
}
static double floor_pos(double v) { return v >= 4503599627370496.0 ? v : (double)(uint64_t)v; }

/* float -> int and int -> int references (exact in double arithmetic: trunc and comparisons
 * with powers of two), for all 8 x 3 + 8 x 8 such pairs. */
TEST(cast_pairs_to_int_reference) {
    uint64_t s = test_seed(4242);
    for (int a = 0; a < 11; ++a)
        for (int b = 0; b < 11; ++b) {
            const DMLREF_TENSOR_DATA_TYPE st = all_types[a], dt = all_types[b];
            if (is_float(dt) || st == dt) continue;
            const uint32_t w = 8 * dmlref_data_type_size(dt);
            const uint64_t wmask = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
            for (int i = 0; i < 4000; ++i) {
                uint64_t bits = splitmix64(&s);
                if (st == F32 && i % 2) bits = (bits & 0x80000000u) | (0x3f000000u + (bits % 0x11000000u)); /* |v| in [0.5, 2^66) */
                if (st == F64 && i % 2) bits = (bits & UINT64_C(0x8000000000000000)) | (UINT64_C(0x3fe0000000000000) + (bits % UINT64_C(0x0440000000000000)));
                if (st == F16 && i % 2) bits = (bits & 0x8000u) | (0x3800u + (bits % 0x4400u));
                const uint32_t sw = 8 * dmlref_data_type_size(st);
                if (sw < 64) bits &= (UINT64_C(1) << sw) - 1;
                uint64_t want;
                if (!is_float(st)) {
                    int neg;
                    uint64_t mag;
                    int_value(st, bits, &neg, &mag);
                    want = (neg ? 0 - mag : mag) & wmask;
                } else {
                    double v = 0;
                    int neg;
                    const int k = f_class(st, bits, &v, &neg);
                    const double lo = is_signed(dt) ? -ldexp_pow2(w - 1) : 0.0;
                    const double hi = ldexp_pow2(is_signed(dt) ? w - 1 : w);
                    const uint64_t maxv = is_signed(dt) ? wmask >> 1 : wmask, minv = is_signed(dt) ? (maxv + 1) & wmask : 0;
                    if (k == 2) want = 0;
                    else if (k == 1) want = neg ? minv : maxv;
                    else {
                        const double t = v < 0 ? -floor_pos(-v) : floor_pos(v);
                        if (t >= hi) want = maxv;
                        else if (t < lo) want = minv;
                        else if (t < 0) want = (0 - (uint64_t)(-t)) & wmask;
                        else want = (uint64_t)t;
                    }
                }
                const uint64_t got = conv(dt, st, bits);
                if (got != want) {
                    test_fail(__FILE__, __LINE__, "%s -> %s of 0x%llx: 0x%llx, want 0x%llx",
                              dmlref_data_type_name(st), dmlref_data_type_name(dt), (unsigned long long)bits,
                              (unsigned long long)got, (unsigned long long)want);
                    return;
                }
            }
        }
}

/* int -> float: the reference rounds the integer's magnitude to p significant bits with
 * integer arithmetic (nearest even), then builds the float's bits; checked against
 * scalar_cast for every int type into each float type on random and edge integers. */
static uint64_t ref_int_to_float(int neg, uint64_t mag, uint32_t md, uint32_t ew, int32_t bias) {
    const uint64_t sign = (uint64_t)neg << (md + ew), inf = sign | (((UINT64_C(1) << ew) - 1) << md);
    if (mag == 0) return 0;
    uint32_t L = 0;
    for (uint64_t x = mag; x; x >>= 1) ++L;
    int32_t e = (int32_t)L - 1;
    uint64_t q = mag;
    if (L > md + 1) { /* round away L - (md + 1) bits */
        const uint32_t sh = L - (md + 1);
        const uint64_t rem = mag & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
        q = mag >> sh;
        if (rem > half || (rem == half && (q & 1u))) ++q;
        if (q >> (md + 1)) q >>= 1, ++e;
    } else {
        q = mag << (md + 1 - L);
    }
    if (e > bias) return inf;
    return sign | ((uint64_t)(e + bias) << md) | (q & ((UINT64_C(1) << md) - 1));
}

TEST(cast_pairs_int_to_float_reference) {
    uint64_t s = test_seed(777);
    static const DMLREF_TENSOR_DATA_TYPE fl[3] = {F16, F32, F64};
    static const uint32_t md[3] = {10, 23, 52}, ew[3] = {5, 8, 11};
    static const int32_t bias[3] = {15, 127, 1023};
    for (int a = 0; a < 11; ++a) {
        const DMLREF_TENSOR_DATA_TYPE st = all_types[a];
        if (is_float(st)) continue;
        for (int b = 0; b < 3; ++b)
            for (int i = 0; i < 5000; ++i) {
                uint64_t bits = splitmix64(&s);
                if (i % 3 == 1) bits >>= splitmix64(&s) % 64;                     /* every magnitude */
                if (i % 3 == 2) bits = (UINT64_C(1) << (splitmix64(&s) % 64)) + (splitmix64(&s) % 5) - 2; /* near powers of 2 */
                int neg;
                uint64_t mag;
                int_value(st, bits, &neg, &mag);
                const uint64_t want = ref_int_to_float(neg, mag, md[b], ew[b], bias[b]);
                const uint64_t got = conv(fl[b], st, bits);
                if (got != want) {
                    test_fail(__FILE__, __LINE__, "%s -> %s of 0x%llx: 0x%llx, want 0x%llx", dmlref_data_type_name(st),
                              dmlref_data_type_name(fl[b]), (unsigned long long)bits, (unsigned long long)got,
                              (unsigned long long)want);
                    return;
                }
            }
    }
}

/* float -> float: binary16 -> binary32 against scalar_f16_to_f32_bits (exhaustive), binary16
 * -> binary64 through binary32 (both exact), binary32 -> binary16 against
 * scalar_f32_bits_to_f16 (another implementation: scalar.c's fill-value rounding), and
 * binary64 -> binary32, binary32 -> binary64 against the host's conversions where the host
 * evaluates in the type's own precision (FLT_EVAL_METHOD 0), NaN excepted. */
TEST(cast_pairs_float_to_float_reference) {
    for (uint32_t h = 0; h < 65536; ++h) {
        uint32_t want = scalar_f16_to_f32_bits((uint16_t)h);
        const int nan = (h & 0x7fffu) > 0x7c00u;
        if (nan) want |= 0x00400000u;
        if (conv(F32, F16, h) != want) {
            test_fail(__FILE__, __LINE__, "FLOAT16 0x%04x -> FLOAT32 0x%08llx, want 0x%08x", h,
                      (unsigned long long)conv(F32, F16, h), want);
            return;
        }
        if (conv(F64, F16, h) != conv(F64, F32, want)) {
            test_fail(__FILE__, __LINE__, "FLOAT16 0x%04x -> FLOAT64 differs from through FLOAT32", h);
            return;
        }
        if (!nan && conv(F16, F32, want) != h) { /* every binary16 comes back */
            test_fail(__FILE__, __LINE__, "FLOAT16 0x%04x does not come back from FLOAT32", h);
            return;
        }
        if (!nan && conv(F16, F64, conv(F64, F16, h)) != h) {
            test_fail(__FILE__, __LINE__, "FLOAT16 0x%04x does not come back from FLOAT64", h);
            return;
        }
    }
    uint64_t s = test_seed(99);
    for (int i = 0; i < 300000; ++i) {
        uint32_t x = (uint32_t)splitmix64(&s);
        if (i % 2) x = (x & 0x80000000u) | (0x32000000u + x % 0x16000000u); /* the binary16 range and below */
        if (conv(F16, F32, x) != scalar_f32_bits_to_f16(x)) {
            test_fail(__FILE__, __LINE__, "FLOAT32 0x%08x -> FLOAT16 0x%04llx, scalar_f32_bits_to_f16 0x%04x", x,
                      (unsigned long long)conv(F16, F32, x), scalar_f32_bits_to_f16(x));
            return;
        }
    }
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    for (int i = 0; i < 300000; ++i) {
        uint64_t x = splitmix64(&s);
        if (i % 2) x = (x & UINT64_C(0x8000000000000000)) | (UINT64_C(0x3600000000000000) + x % UINT64_C(0x1200000000000000));
        double d;
        memcpy(&d, &x, 8);
        if (d != d) continue;
        volatile float f = (float)d;
        if (conv(F32, F64, x) != fbits(f)) {
            test_fail(__FILE__, __LINE__, "FLOAT64 0x%016llx -> FLOAT32 0x%08llx, the host 0x%08x", (unsigned long long)x,
                      (unsigned long long)conv(F32, F64, x), fbits(f));
            return;
        }
        const uint32_t y = (uint32_t)x;
        float g;
        memcpy(&g, &y, 4);
        if (g != g) continue;
        volatile double e = g;
        if (conv(F64, F32, y) != dbits(e)) {
            test_fail(__FILE__, __LINE__, "FLOAT32 0x%08x -> FLOAT64 differs from the host", y);
            return;
        }
    }
#endif
}

/* ---- running it ------------------------------------------------------------------------ */

static unsigned char *random_bytes(uint64_t *s, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    if (!p) abort();
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)splitmix64(s);
    return p;
}

/* Runs f through the oracle and the fast path (threads 1 and 2, and with 2 threads a tiny
 * grain and streaming stores from 64 bytes) into outputs prefilled with 0xA5; each must equal
 * `want` when given (else the oracle's output), byte for byte.  Returns 1 when a run used a
 * cast.* kernel; notes the kernels in seen. */
static int run_all_at(const char *file, int line, const cfix *f, const unsigned char *in, const unsigned char *want_in,
                      kernels_seen *seen) {
    const size_t in_bytes = (size_t)f->in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(out_bytes), *got = malloc(out_bytes);
    if (!want || !got) abort();
    int fast = 0;
    for (int mode = 0; mode < 5; ++mode) {
        /* mode 4: mode 3 with the baseline kernels only (no F16C, where the CPU has it) */
        const uint32_t flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : mode == 4 ? DMLREF_OPTION_BASELINE_ISA : 0;
        const dmlref_options o = {.flags = flags, .threads = mode < 2 ? 1u : 2u};
        if (mode == 3) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            setenv("DMLREF_STREAM_MIN", "64", 1);
            env_reload();
        }
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, FL, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (op) {
            const char *name = dmlref_kernel_name(op);
            if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
            if (mode > 0 && strncmp(name, "cast.", 5) == 0) fast = 1;
            if (mode == 4 && strstr(name, ".f16c")) test_fail(file, line, "DMLREF_OPTION_BASELINE_ISA ran %s", name);
            if (seen && mode > 0) kernels_note(seen, name);
            memset(got, 0xA5, out_bytes);
            dmlref_cbuffer ib[1] = {{in, in_bytes}};
            dmlref_buffer ob[1] = {{got, out_bytes}};
            check_status_at(file, line, dmlref_execute(op, ib, 1, ob, 1, &err), &err, DMLREF_OK, NULL);
            if (mode == 0) {
                if (want_in) {
                    if (memcmp(got, want_in, out_bytes) != 0) test_fail(file, line, "the oracle differs from the reference");
                }
                memcpy(want, got, out_bytes);
            } else if (memcmp(got, want, out_bytes) != 0) {
                size_t at = 0;
                while (got[at] == want[at]) ++at;
                test_fail(file, line, "%s (mode %d) differs from the oracle at byte %zu of %zu", name, mode, at, out_bytes);
            }
            dmlref_release(op);
        }
        if (mode == 4) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
    }
    free(want);
    free(got);
    return fast;
}
#define RUN_ALL(f, in, want, seen) run_all_at(__FILE__, __LINE__, (f), (in), (want), (seen))

/* A packed 1-D cast of n elements (bits as uint64 per element) through every mode; the
 * expected output is scalar_cast of each element; the kernel name must start with `kernel`. */
static void kernel_vs_scalar_at(const char *file, int line, DMLREF_TENSOR_DATA_TYPE st, DMLREF_TENSOR_DATA_TYPE dt,
                                const uint64_t *bits, uint32_t n, const char *kernel) {
    cfix f;
    cfix_init(&f, st, dt, 1, &n, NULL, NULL);
    const uint32_t ss = dmlref_data_type_size(st), ds = dmlref_data_type_size(dt);
    unsigned char *in = calloc((size_t)f.in.buf.TotalTensorSizeInBytes, 1);
    unsigned char *want = malloc((size_t)f.out.buf.TotalTensorSizeInBytes);
    if (!in || !want) abort();
    memset(want, 0xA5, (size_t)f.out.buf.TotalTensorSizeInBytes);
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t b = bits[i];
        switch (ss) {
        case 1: { const uint8_t v = (uint8_t)b; memcpy(in + i, &v, 1); break; }
        case 2: { const uint16_t v = (uint16_t)b; memcpy(in + 2 * i, &v, 2); break; }
        case 4: { const uint32_t v = (uint32_t)b; memcpy(in + 4 * i, &v, 4); break; }
        default: memcpy(in + 8 * i, &b, 8);
        }
        scalar_cast(dt, want + (size_t)i * ds, st, in + (size_t)i * ss);
    }
    dmlref_operator *op = NULL;
    dmlref_error err;
    check_status_at(file, line, dmlref_compile(&f.d, FL, NULL, &op, &err), &err, DMLREF_OK, NULL);
    if (op) {
        if (strncmp(dmlref_kernel_name(op), kernel, strlen(kernel)) != 0)
            test_fail(file, line, "kernel %s, want %s", dmlref_kernel_name(op), kernel);
        const int f16c_pair = !strcmp(kernel, "cast.f32_f16") || !strcmp(kernel, "cast.f16_f32");
        if (f16c_pair && simd_cpu_f16c() && !strstr(dmlref_kernel_name(op), ".f16c"))
            test_fail(file, line, "kernel %s on a CPU with F16C, want %s.f16c", dmlref_kernel_name(op), kernel);
        dmlref_release(op);
    }
    if (!run_all_at(file, line, &f, in, want, NULL)) test_fail(file, line, "no cast.* kernel ran");
    free(in);
    free(want);
}
#define KERNEL_VS_SCALAR(st, dt, bits, n, k) kernel_vs_scalar_at(__FILE__, __LINE__, (st), (dt), (bits), (n), (k))

/* The spec's examples through the API (packed, the fast path and the oracle). */
TEST(cast_spec_examples_run) {
    const uint64_t a[4] = {fbits(-43.5f), fbits(-2.5f), fbits(83.5f), fbits(102.1578369140625f)};
    KERNEL_VS_SCALAR(F32, I32, a, 4, "cast.f32_i32");
    cfix f;
    cfix_init(&f, F32, I32, DIMS(1, 1, 1, 4), NULL);
    const float in[4] = {-43.5f, -2.5f, 83.5f, 102.1578369140625f};
    const int32_t want[4] = {-43, -2, 83, 102};
    RUN_ALL(&f, (const unsigned char *)in, (const unsigned char *)want, NULL);
    cfix_init(&f, F32, F16, DIMS(1, 1, 1, 4), NULL);
    const uint32_t in2[4] = {fbits(102.1578369140625f), fbits(72.9759750366211f), 0x7fc0beefu, 0x80000000u};
    const uint16_t want2[4] = {0x5663, 0x5490, 0x7e05, 0x8000};
    RUN_ALL(&f, (const unsigned char *)in2, (const unsigned char *)want2, NULL);
    cfix_init(&f, F16, F32, DIMS(1, 1, 1, 2), NULL);
    const uint16_t in3[2] = {0x7c01, 0x0001};
    const uint32_t want3[2] = {0x7fc02000u, 0x33800000u};
    RUN_ALL(&f, (const unsigned char *)in3, (const unsigned char *)want3, NULL);
    cfix_init(&f, I64, F32, DIMS(2), NULL);
    const int64_t in4[2] = {16777217, -1};
    const float want4[2] = {16777216.0f, -1.0f};
    RUN_ALL(&f, (const unsigned char *)in4, (const unsigned char *)want4, NULL);
    cfix_init(&f, I32, I8, DIMS(1, 1, 1, 4), NULL);
    const int32_t in5[4] = {300, -129, 128, -1};
    const int8_t want5[4] = {44, 127, -128, -1};
    RUN_ALL(&f, (const unsigned char *)in5, (const unsigned char *)want5, NULL);
}

/* Each SIMD kernel on every special value, at every length 1..70 (vector tails) and at
 * every offset into the list (every lane position). */
static const uint32_t f32_specials[] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7fc0beefu, 0xffffffffu,
    0x7f800001u, 0xff800001u, 0x7fa00000u, 0x7f801fffu, 0x7f802000u, 0x00000001u, 0x807fffffu, 0x00400000u,
    0x00800000u, 0x33000000u, 0x33000001u, 0xb3000000u, 0x33800000u, 0x33c00000u, 0x34200000u, 0x387fc000u,
    0x387fe000u, 0x387fdfffu, 0x38800000u, 0xb8800000u, 0x3f801000u, 0x3f803000u, 0x3f801001u, 0x3f800fffu,
    0x477fe000u, 0x477fefffu, 0x477ff000u, 0xc77ff000u, 0x47800000u, 0x7f7fffffu, 0x4f000000u, 0x4effffffu,
    0xcf000000u, 0xcf000001u, 0x4f000001u, 0xbf7fffffu, 0x3f7fffffu, 0xbf800000u, 0x3f800000u, 0x42cc50c0u,
    0x4291f3b6u, 0x437f8000u, 0xc2fe0000u, 0x5f800000u, 0x3effffffu, 0x3f000000u, 0xbf000000u, 0x00000000u};
#define N_F32_SPECIALS ((uint32_t)(sizeof f32_specials / sizeof f32_specials[0]))

TEST(cast_kernels_special_values) {
    uint64_t b[200];
    for (uint32_t off = 0; off < N_F32_SPECIALS; off += 3)
        for (uint32_t n = 1; n <= 70; n += (n < 20 ? 1 : 7)) {
            for (uint32_t i = 0; i < n; ++i) b[i] = f32_specials[(off + i) % N_F32_SPECIALS];
            KERNEL_VS_SCALAR(F32, F16, b, n, "cast.f32_f16");
            KERNEL_VS_SCALAR(F32, I32, b, n, "cast.f32_i32");
            for (uint32_t i = 0; i < n; ++i) b[i] = scalar_f32_bits_to_f16(f32_specials[(off + i) % N_F32_SPECIALS]) ^ (i & 1 ? 0x0001u : 0);
            KERNEL_VS_SCALAR(F16, F32, b, n, "cast.f16_f32");
            for (uint32_t i = 0; i < n; ++i) b[i] = (off * 37 + i * 101) & 0xffu;
            KERNEL_VS_SCALAR(U8, F32, b, n, "cast.u8_f32");
        }
}

/* Random bit patterns: all 2^16 binary16 values (an odd count), all 256 bytes, and 2^18 + 3
 * random binary32 patterns (half of them in the binary16 range) for f32_f16 and f32_i32. */
TEST(cast_kernels_random_bits) {
    const uint32_t n16 = 65536 + 3, n32 = (1u << 18) + 3;
    uint64_t *b = malloc(sizeof *b * n32);
    if (!b) abort();
    for (uint32_t i = 0; i < n16; ++i) b[i] = (i * 40503u) & 0xffffu; /* a permutation of every value, 3 again */
    KERNEL_VS_SCALAR(F16, F32, b, n16, "cast.f16_f32");
    for (uint32_t i = 0; i < 259; ++i) b[i] = (i * 7u) & 0xffu;
    KERNEL_VS_SCALAR(U8, F32, b, 259, "cast.u8_f32");
    uint64_t s = test_seed(31337);
    for (uint32_t i = 0; i < n32; ++i) {
        uint32_t x = (uint32_t)splitmix64(&s);
        if (i % 2) x = (x & 0x80000000u) | (0x32800000u + x % 0x15800000u);
        b[i] = x;
    }
    KERNEL_VS_SCALAR(F32, F16, b, n32, "cast.f32_f16");
    for (uint32_t i = 0; i < n32; ++i) {
        uint32_t x = (uint32_t)splitmix64(&s);
        if (i % 2) x = (x & 0x80000000u) | (0x3e800000u + x % 0x11000000u); /* |v| in [0.25, 2^33) */
        b[i] = x;
    }
    KERNEL_VS_SCALAR(F32, I32, b, n32, "cast.f32_i32");
    free(b);
}

/* Gapped, permuted, broadcast layouts of every element size, against the oracle, and a
 * gapped output whose gaps keep their bytes. */
TEST(cast_data_layouts) {
    uint64_t s = 5;
    for (int a = 0; a < 11; ++a)
        for (int b = 0; b < 11; ++b) {
            cfix f;
            cfix_init(&f, all_types[a], all_types[b], 3, SIZES(2, 3, 2), SIZES(0, 3, 1), SIZES(1, 5, 16));
            unsigned char *in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
            CHECK(RUN_ALL(&f, in, NULL, NULL));
            free(in);
        }
    cfix f;
    cfix_init(&f, I16, F32, 2, SIZES(2, 2), NULL, SIZES(5, 1));
    const int16_t in[4] = {1, -2, 3, -32768};
    float out[10];
    for (int i = 0; i < 10; ++i) out[i] = 99.0f;
    dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[1] = {{out, sizeof out - sizeof(float)}}; /* 9 elements' span */
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    const float want[10] = {1, -2, 99, 99, 99, 3, -32768, 99, 99, 99};
    CHECK_MEM(out, want, sizeof want);
}

/* Binding: the output may not overlap the input (no in-place form). */
TEST(cast_no_aliasing) {
    cfix f;
    dmlref_error err;
    cfix_init(&f, F32, I32, DIMS(2), NULL);
    float buf[4] = {1, 2, 3, 4};
    dmlref_cbuffer ins[1] = {{buf, 2 * sizeof(float)}};
    dmlref_buffer outs[1] = {{buf, sizeof buf}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "CAST: the OutputTensor buffer overlaps the InputTensor buffer");
}

static int rand_strides(uint64_t *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_input) {
    const uint32_t mode = (uint32_t)(splitmix64(r) % 10);
    if (mode < 4) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 7)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = (uint32_t)(splitmix64(r) % d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = 1;
    for (uint32_t i = n; i-- > 0;) {
        st[order[i]] = (uint32_t)next;
        next = next * s[order[i]] + (splitmix64(r) % 3 == 0 ? splitmix64(r) % 3 : 0);
    }
    if (is_input && mode == 9)
        for (uint32_t d = 0; d < n; ++d)
            if (splitmix64(r) % 3 == 0) st[d] = 0;
    return 1;
}

KERNELS_CHECKED("cast.")

/* The fast path writes exactly the oracle's bytes on random cases: every pair (the four
 * vector pairs more often), 1-8 dims, random layouts, random bytes (every bit pattern). */
TEST(cast_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE vec[4][2] = {{F32, F16}, {F16, F32}, {F32, I32}, {U8, F32}};
    const uint64_t base_seed = test_seed(20261127);
    int reached = 0, failed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 700 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        uint64_t r = test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + (uint32_t)(splitmix64(&r) % 8);
        uint32_t sizes[8], ist[8], ost[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(splitmix64(&r) % (iter % 5 == 0 ? 70 : 5));
            if (total * sizes[d] > 30000) sizes[d] = 1;
            total *= sizes[d];
        }
        DMLREF_TENSOR_DATA_TYPE it = all_types[splitmix64(&r) % 11], ot = all_types[splitmix64(&r) % 11];
        if (splitmix64(&r) % 2) {
            const int k = (int)(splitmix64(&r) % 4);
            it = vec[k][0], ot = vec[k][1];
        }
        const int in_strided = rand_strides(&r, n, sizes, ist, 1), out_strided = rand_strides(&r, n, sizes, ost, 0);
        cfix f;
        cfix_init(&f, it, ot, n, sizes, in_strided ? ist : NULL, out_strided ? ost : NULL);
        if (splitmix64(&r) % 5 == 0) f.out.buf.TotalTensorSizeInBytes += 8;
        unsigned char *in = random_bytes(&r, (size_t)f.in.buf.TotalTensorSizeInBytes);
        const int before = test_failures();
        reached |= RUN_ALL(&f, in, NULL, &seen);
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u dims, %s -> %s\n", iter, n, dmlref_data_type_name(it), dmlref_data_type_name(ot));
        }
        free(in);
    }
    if (!test_cases_end()) return;
    CHECK(reached);
    /* every cast.* kernel of src/ops/kernels.def; the F16C ones where the CPU has F16C */
    static const char *const no_f16c[] = {"cast.f32_f16.f16c", "cast.f16_f32.f16c", NULL};
    CHECK_KERNELS_REACHED(&seen, "cast.", simd_cpu_f16c() ? NULL : no_f16c);
}
