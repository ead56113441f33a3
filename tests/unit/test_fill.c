/*
 * FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE (Q4): the descs' layouts and
 * schemas, every rule (FV1-FV3) at the feature levels where it differs, the
 * pages' examples, the value's bits (NaN payloads, -0, FLOAT16 patterns), the
 * sequence's formula (the logical index, integers modulo 2^bits for every width,
 * negative deltas, FLOAT32's two roundings with fl32(i) rounding from 2^24 on,
 * FLOAT16 overflow to infinity, NaN results canonical) against an independent
 * reference, and the fast paths against the oracles on random cases with 1 and 2
 * threads (every fill_value_constant and fill_value_sequence kernel reached).
 */
#include <stddef.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "ops/fill/fill.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define F64 DMLREF_TENSOR_DATA_TYPE_FLOAT64
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define U16 DMLREF_TENSOR_DATA_TYPE_UINT16
#define I16 DMLREF_TENSOR_DATA_TYPE_INT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define FL DMLREF_FEATURE_LEVEL_6_4

/* One fixture for both: seq selects FILL_VALUE_SEQUENCE. */
typedef struct ffix {
    tdesc out;
    int seq;
    DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC c;
    DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC s;
    DMLREF_OPERATOR_DESC d;
} ffix;

/* The output (strides NULL = packed); v0 = Value or ValueStart, v1 = ValueDelta (bit patterns). */
static void ffix_init(ffix *f, int seq, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                      const uint32_t *strides, uint64_t v0, uint64_t v1) {
    memset(f, 0, sizeof *f);
    tdesc_init(&f->out, dt, n, sizes, strides);
    f->seq = seq;
    DMLREF_SCALAR_UNION u0, u1;
    memset(&u0, 0, sizeof u0);
    memset(&u1, 0, sizeof u1);
    switch (dmlref_data_type_size(dt)) { /* host-order element bits at byte 0 */
    case 1: u0.UInt8 = (uint8_t)v0, u1.UInt8 = (uint8_t)v1; break;
    case 2: u0.UInt16 = (uint16_t)v0, u1.UInt16 = (uint16_t)v1; break;
    case 4: u0.UInt32 = (uint32_t)v0, u1.UInt32 = (uint32_t)v1; break;
    default: u0.UInt64 = v0, u1.UInt64 = v1; break;
    }
    f->c = (DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC){&f->out.desc, dt, u0};
    f->s = (DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC){&f->out.desc, dt, u0, u1};
    f->d = seq ? (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_FILL_VALUE_SEQUENCE, &f->s}
               : (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_FILL_VALUE_CONSTANT, &f->c};
}

static dmlref_status validate(const ffix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(fill_desc_layout) {
    const size_t p = sizeof(void *);
    /* LP64: 24 and 32 (Value at 16; ValueStart 16, ValueDelta 24), ILP32: 16 and 24 (the union is 8-aligned) */
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC, OutputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC, ValueDataType), p);
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC, Value), p == 8 ? 16 : 8);
    CHECK_EQ_U64(sizeof(DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC), p == 8 ? 24 : 16);
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC, OutputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDataType), p);
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueStart), p == 8 ? 16 : 8);
    CHECK_EQ_U64(offsetof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDelta), p == 8 ? 24 : 16);
    CHECK_EQ_U64(sizeof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC), p == 8 ? 32 : 24);
}

TEST(fill_schema) {
    const dmlref_schema *c = dmlref_operator_schema(DMLREF_OPERATOR_FILL_VALUE_CONSTANT);
    const dmlref_schema *s = dmlref_operator_schema(DMLREF_OPERATOR_FILL_VALUE_SEQUENCE);
    CHECK(c && s);
    if (!c || !s) return;
    CHECK(strcmp(c->name, "FILL_VALUE_CONSTANT") == 0 && strcmp(s->name, "FILL_VALUE_SEQUENCE") == 0);
    CHECK_EQ_U64(c->type, 103);
    CHECK_EQ_U64(s->type, 104);
    CHECK_EQ_U64(c->introduced, DMLREF_FEATURE_LEVEL_2_1);
    CHECK_EQ_U64(s->introduced, DMLREF_FEATURE_LEVEL_2_1);
    CHECK_EQ_U64(c->n_slots, 1);
    CHECK_EQ_U64(s->n_slots, 1);
    CHECK(strcmp(c->slots[0].name, "OutputTensor") == 0 && c->slots[0].is_output);
    CHECK_EQ_U64(c->n_params, 2);
    CHECK_EQ_U64(s->n_params, 3);
    CHECK(strcmp(c->params[0].name, "ValueDataType") == 0 && c->params[0].kind == DMLREF_PARAM_ENUM);
    CHECK(strcmp(c->params[1].name, "Value") == 0 && c->params[1].kind == DMLREF_PARAM_SCALAR_UNION);
    CHECK_EQ_U64(c->params[1].offset, offsetof(DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC, Value));
    CHECK_EQ_U64(c->params[1].type_offset, offsetof(DMLREF_FILL_VALUE_CONSTANT_OPERATOR_DESC, ValueDataType));
    CHECK(strcmp(s->params[1].name, "ValueStart") == 0 && s->params[1].kind == DMLREF_PARAM_SCALAR_UNION);
    CHECK(strcmp(s->params[2].name, "ValueDelta") == 0 && s->params[2].kind == DMLREF_PARAM_SCALAR_UNION);
    CHECK_EQ_U64(s->params[2].offset, offsetof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDelta));
    CHECK_EQ_U64(s->params[2].type_offset, offsetof(DMLREF_FILL_VALUE_SEQUENCE_OPERATOR_DESC, ValueDataType));
}

TEST(fill_validation_rules_and_feature_levels) {
    ffix f;
    dmlref_error err;
    for (int seq = 0; seq < 2; ++seq) {
        const char *op = seq ? "FILL_VALUE_SEQUENCE" : "FILL_VALUE_CONSTANT";
        char want[200];
        ffix_init(&f, seq, F32, 4, SIZES(1, 1, 2, 4), NULL, 0, 0);
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, NULL);
        /* FV3 */
        f.c.ValueDataType = f.s.ValueDataType = F16;
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "ValueDataType (FLOAT16)", "FV3");
        /* FV1: 4-D until 4_0, then 1 to 8 */
        ffix_init(&f, seq, F32, 2, SIZES(2, 4), NULL, 0, 0);
        snprintf(want, sizeof want, "%s: OutputTensor.DimensionCount (2) must be in [4, 4] at feature level 3_1", op);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT, want, "FV1");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
        /* FV2: T8; 64-bit integers from 4_1 (CONSTANT) or 5_0 (SEQUENCE); FLOAT64 CONSTANT only */
        ffix_init(&f, seq, I64, 1, SIZES(3), NULL, 0, 0);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "feature level 4_0", "FV2");
        if (seq) CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE, "4_1", "FV2");
        else CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
        ffix_init(&f, seq, F64, 1, SIZES(3), NULL, 0, 0);
        if (seq) CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64", "FV2");
        else CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
        ffix_init(&f, seq, I8, 4, SIZES(1, 1, 1, 3), NULL, 0, 0);
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
        /* the tensor rules: elements sharing memory */
        ffix_init(&f, seq, F32, 2, SIZES(2, 3), SIZES(0, 1), 0, 0);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0", "T15");
    }
}

/* ---- running it ---------------------------------------------------------------------- */

/* binary16 -> binary32 bits (normal, subnormal, inf, NaN), written independently of the library. */
static uint32_t h2f(uint16_t h) {
    const uint32_t s = (uint32_t)(h >> 15) << 31, e = h >> 10 & 31u, m = h & 0x3FFu;
    if (e == 31) return s | 0x7F800000u | m << 13;
    if (e) return s | (e + 112) << 23 | m << 13;
    if (!m) return s;
    float v = (float)m / 16777216.0f; /* m * 2^-24, exact */
    uint32_t b;
    memcpy(&b, &v, 4);
    return s | b;
}

/* binary32 -> binary16, nearest even, overflow to infinity (finite, non-NaN input). */
static uint16_t f2h(uint32_t b) {
    const uint16_t s = (uint16_t)(b >> 16 & 0x8000u);
    const uint32_t a = b & 0x7FFFFFFFu;
    if (a >= 0x7F800000u) return (uint16_t)(s | 0x7C00u);
    float x;
    memcpy(&x, &a, 4);
    if (x >= 65520.0f) return (uint16_t)(s | 0x7C00u);
    /* scale to units of the result's last place, round to nearest even by hand */
    int e = (int)(a >> 23) - 127;
    if (e < -14) e = -14;
    const double ulp = ldexp(1.0, e - 10), q = (double)x / ulp, fl = floor(q);
    double r = q - fl > 0.5 || (q - fl == 0.5 && fmod(fl, 2.0) != 0) ? fl + 1 : fl;
    const double v = r * ulp; /* exact */
    if (v == 0) return s;
    int ee;
    const double mant = frexp(v, &ee); /* v = mant * 2^ee, mant in [0.5, 1) */
    if (ee - 1 < -14) return (uint16_t)(s | (uint16_t)(v / ldexp(1.0, -24)));
    return (uint16_t)(s | (uint16_t)((ee - 1 + 15) << 10) | (uint16_t)((mant * 2 - 1) * 1024));
}

/* The reference element i: integers modulo 2^bits; floats with each step stored through a
 * volatile float (rounded to float32 on every host, x87 included). */
static uint64_t ref_element(DMLREF_TENSOR_DATA_TYPE dt, uint64_t v0, uint64_t v1, uint64_t i) {
    const uint32_t es = dmlref_data_type_size(dt);
    if (dt == F32 || dt == F16) {
        const uint32_t sb = dt == F16 ? h2f((uint16_t)v0) : (uint32_t)v0, db = dt == F16 ? h2f((uint16_t)v1) : (uint32_t)v1;
        float s, d;
        memcpy(&s, &sb, 4);
        memcpy(&d, &db, 4);
        volatile float fi = (float)i;
        volatile float p = fi * d;
        volatile float v = s + p;
        const float vv = v;
        uint32_t b;
        memcpy(&b, &vv, 4);
        if (vv != vv) return dt == F16 ? 0x7E00u : 0x7FC00000u;
        return dt == F16 ? f2h(b) : b;
    }
    const uint64_t v = v0 + i * v1;
    return es == 8 ? v : v & ((UINT64_C(1) << (8 * es)) - 1);
}

/* The output's expected bytes (gaps untouched) into want. */
static void ref_fill(const ffix *f, uint64_t v0, uint64_t v1, unsigned char *want) {
    const DMLREF_BUFFER_TENSOR_DESC *b = &f->out.buf;
    const uint32_t n = b->DimensionCount, es = dmlref_data_type_size(b->DataType);
    uint64_t st[8], count = 1;
    for (uint32_t d = n, a = 1; d-- > 0;) {
        st[d] = b->Strides ? b->Strides[d] : a;
        a *= b->Sizes[d];
        count *= b->Sizes[d];
    }
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t q = e, off = 0;
        for (uint32_t d = n; d-- > 0;) {
            off += (q % b->Sizes[d]) * st[d];
            q /= b->Sizes[d];
        }
        const uint64_t bits = f->seq ? ref_element(b->DataType, v0, v1, e) : v0;
        switch (es) {
        case 1: { const uint8_t x = (uint8_t)bits; memcpy(want + off, &x, 1); break; }
        case 2: { const uint16_t x = (uint16_t)bits; memcpy(want + off * 2, &x, 2); break; }
        case 4: { const uint32_t x = (uint32_t)bits; memcpy(want + off * 4, &x, 4); break; }
        default: memcpy(want + off * 8, &bits, 8); break;
        }
    }
}

/* The oracle and the fast path (threads 1 and 2) against the reference, byte for byte,
 * outputs prefilled with 0xA5 (at byte offset `shift` inside a larger buffer). */
static void run_all_at(const char *file, int line, const ffix *f, uint64_t v0, uint64_t v1, size_t shift,
                       const char **kernel) {
    const size_t ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *mem = malloc(ob + shift), *got = mem + shift;
    if (!want || !mem) abort();
    memset(want, 0xA5, ob);
    ref_fill(f, v0, v1, want);
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0,
                                  .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, FL, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (mode > 0 && kernel) *kernel = name;
        memset(got, 0xA5, ob);
        dmlref_buffer outs[1] = {{got, ob}};
        check_status_at(file, line, dmlref_execute(op, NULL, 0, outs, 1, &err), &err, DMLREF_OK, NULL);
        if (memcmp(got, want, ob) != 0) {
            size_t at = 0;
            while (got[at] == want[at]) ++at;
            test_fail(file, line, "%s (threads %d) differs from the reference at byte %zu of %zu (got %02x want %02x)",
                      name, mode ? mode : 1, at, ob, got[at], want[at]);
        }
        dmlref_release(op);
    }
    free(want);
    free(mem);
}
#define RUN_ALL(f, v0, v1, kernel) run_all_at(__FILE__, __LINE__, (f), (v0), (v1), 0, (kernel))

static uint32_t f32_bits(float x) {
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

/* The pages' examples (tests/cases/fill_value_*_doc*.json). */
TEST(fill_doc_examples) {
    ffix f;
    dmlref_error err;
    ffix_init(&f, 0, F32, 4, SIZES(1, 1, 2, 4), NULL, f32_bits(13.0f), 0);
    float out[8];
    dmlref_buffer outs[1] = {{out, sizeof out}};
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_2_1, NULL, NULL, 0, outs, 1, &err), err, DMLREF_OK, NULL);
    for (int i = 0; i < 8; ++i) CHECK(out[i] == 13.0f);
    ffix_init(&f, 1, F32, 4, SIZES(1, 1, 1, 3), NULL, f32_bits(3.0f), f32_bits(2.0f));
    dmlref_buffer o3[1] = {{out, 3 * sizeof(float)}};
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_2_1, NULL, NULL, 0, o3, 1, &err), err, DMLREF_OK, NULL);
    CHECK(out[0] == 3.0f && out[1] == 5.0f && out[2] == 7.0f);
    /* Example 2: ValueDelta -2 in a UINT8 union is 254 (Q13 item 47) */
    ffix_init(&f, 1, U8, 4, SIZES(1, 1, 2, 2), NULL, 10, 254);
    unsigned char b[4];
    dmlref_buffer ob[1] = {{b, sizeof b}};
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_2_1, NULL, NULL, 0, ob, 1, &err), err, DMLREF_OK, NULL);
    const unsigned char wb[4] = {10, 8, 6, 4};
    CHECK_MEM(b, wb, 4);
    /* Start 0.1, Delta 0.1: element 7 is fl32(0.1 + fl32(7 * 0.1)), not 7 accumulations */
    ffix_init(&f, 1, F32, 1, SIZES(10), NULL, f32_bits(0.1f), f32_bits(0.1f));
    float t[10];
    dmlref_buffer ot[1] = {{t, sizeof t}};
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, NULL, 0, ot, 1, &err), err, DMLREF_OK, NULL);
        CHECK_EQ_U64(f32_bits(t[7]), f32_bits(0.800000011920929f));
        CHECK(f32_bits(t[7]) != f32_bits(0.8000000715255737f));
    }
}

/* The value's bits: NaN payloads (quiet, signalling, negative), -0.0, FLOAT16 patterns,
 * FLOAT64 and the 64-bit integers, through packed and gapped outputs. */
TEST(fill_constant_bits) {
    static const struct { DMLREF_TENSOR_DATA_TYPE dt; uint64_t v; } cases[] = {
        {F32, 0x7fc01234u}, {F32, 0x7f800001u}, {F32, 0xffc00001u}, {F32, 0x80000000u}, {F16, 0x7e01u},
        {F16, 0x7c01u},     {F16, 0x8000u},     {F16, 0x3c00u},     {F64, UINT64_C(0x7ff0000000000123)},
        {F64, UINT64_C(0x8000000000000000)},    {I64, UINT64_C(0x8000000000000001)}, {U8, 0xA5}, {I16, 0x1234},
        {U32, 0x01020304u}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ffix f;
        ffix_init(&f, 0, cases[k].dt, 2, SIZES(3, 33), NULL, cases[k].v, 0);
        RUN_ALL(&f, cases[k].v, 0, NULL);
        ffix_init(&f, 0, cases[k].dt, 2, SIZES(3, 33), SIZES(40, 1), cases[k].v, 0);
        RUN_ALL(&f, cases[k].v, 0, NULL);
        ffix_init(&f, 0, cases[k].dt, 2, SIZES(3, 33), SIZES(1, 4), cases[k].v, 0);
        RUN_ALL(&f, cases[k].v, 0, NULL);
    }
}

/* Integers modulo 2^bits for every width (signed: two's complement), negative deltas, the
 * logical index through permuted and gapped outputs. */
TEST(fill_sequence_integers_wrap) {
    static const struct { DMLREF_TENSOR_DATA_TYPE dt; uint64_t s, d; } cases[] = {
        {I8, 120, 3},           {I8, 0x80, 0xFF},       {U8, 250, 1},         {U8, 10, 254},
        {I16, 32760, 1},        {U16, 0, 0xFFFF},       {I32, 0x7FFFFFF0u, 5}, {I32, 0, 0x80000000u},
        {U32, 0xFFFFFFF0u, 1},  {U32, 5, 0xFFFFFFFFu},  {I64, UINT64_C(0x7FFFFFFFFFFFFFFA), 3},
        {U64, UINT64_MAX - 2, 1}, {I64, 7, UINT64_MAX - 1}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        ffix f;
        ffix_init(&f, 1, cases[k].dt, 1, SIZES(37), NULL, cases[k].s, cases[k].d);
        RUN_ALL(&f, cases[k].s, cases[k].d, NULL);
        ffix_init(&f, 1, cases[k].dt, 3, SIZES(2, 3, 7), SIZES(1, 2, 6), cases[k].s, cases[k].d); /* permuted */
        RUN_ALL(&f, cases[k].s, cases[k].d, NULL);
        ffix_init(&f, 1, cases[k].dt, 2, SIZES(3, 19), SIZES(21, 1), cases[k].s, cases[k].d); /* gapped rows */
        RUN_ALL(&f, cases[k].s, cases[k].d, NULL);
    }
    /* exact values: INT8 120 + 3i wraps at 128 to -128 */
    ffix f;
    dmlref_error err;
    ffix_init(&f, 1, I8, 1, SIZES(4), NULL, 120, 3);
    int8_t o[4];
    dmlref_buffer ob[1] = {{o, sizeof o}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, NULL, 0, ob, 1, &err), err, DMLREF_OK, NULL);
    CHECK(o[0] == 120 && o[1] == 123 && o[2] == 126 && o[3] == -127);
}

/* FLOAT32: fl32(i) rounds from 2^24 on (2^24 + 1 -> 2^24), the product and the sum each
 * rounded, never fused; NaN results canonical; FLOAT16: overflow to infinity. */
TEST(fill_sequence_float_rounding) {
    const uint64_t big[5] = {(UINT64_C(1) << 24) - 1, UINT64_C(1) << 24, (UINT64_C(1) << 24) + 1,
                             (UINT64_C(1) << 24) + 3, UINT64_C(4294967295)};
    const uint32_t one = f32_bits(1.0f), third = f32_bits(1.0f / 3.0f), neg = f32_bits(-0.7f);
    CHECK_EQ_U64(fill_sequence_f32(0, one, big[2]), f32_bits(16777216.0f)); /* fl32(2^24 + 1) = 2^24 */
    CHECK_EQ_U64(fill_sequence_f32(0, one, big[3]), f32_bits(16777220.0f)); /* 2^24 + 3 -> 2^24 + 4 (even) */
    for (int k = 0; k < 5; ++k) {
        CHECK_EQ_U64(fill_sequence_f32(third, neg, big[k]), ref_element(F32, third, neg, big[k]));
        CHECK_EQ_U64(fill_sequence_f32(neg, third, big[k]), ref_element(F32, neg, third, big[k]));
    }
    /* two roundings: fl32(3 * fl32(1/3)) = 1 exactly, then 1 + 1 */
    CHECK_EQ_U64(fill_sequence_f32(f32_bits(1.0f), f32_bits(1.0f / 3.0f), 3), f32_bits(2.0f));
    /* where a fused multiply-add differs: i = 2^23 + 1, Delta = 1 + 2^-23: the exact product
     * 2^23 + 2 + 2^-23 rounds to 2^23 + 2, so Start -(2^23 + 2) gives 0 (fused: 2^-23) */
    const uint32_t d1 = f32_bits(1.0f + 1.0f / 8388608.0f);
    CHECK_EQ_U64(fill_sequence_f32(f32_bits(-8388610.0f), d1, 8388609), 0); /* fused: 2^-23 */
    /* NaN results: Inf - Inf, 0 * Inf, NaN inputs with payloads: the canonical quiet NaN */
    CHECK_EQ_U64(fill_sequence_f32(f32_bits(-INFINITY), f32_bits(INFINITY), 1), 0x7FC00000u);
    CHECK_EQ_U64(fill_sequence_f32(0, f32_bits(INFINITY), 0), 0x7FC00000u);
    CHECK_EQ_U64(fill_sequence_f32(0xFFC01234u, one, 2), 0x7FC00000u);
    CHECK_EQ_U64(fill_sequence_f32(one, 0x7F800001u, 2), 0x7FC00000u);
    CHECK_EQ_U64(fill_sequence_f32(f32_bits(-0.0f), f32_bits(-1.0f), 0), 0x80000000u); /* -0 + 0 * -1 = -0 + -0 = -0 */
    CHECK_EQ_U64(fill_sequence_f32(f32_bits(-0.0f), f32_bits(1.0f), 0), 0); /* -0 + +0 = +0 */
    /* FLOAT16: 65504 + 16 = 65520 in float32, a tie rounded to even: infinity; -65504 - 16: -infinity */
    ffix f;
    ffix_init(&f, 1, F16, 1, SIZES(4), NULL, 0x7BFFu, 0x4C00u);
    RUN_ALL(&f, 0x7BFFu, 0x4C00u, NULL);
    uint16_t h[4];
    dmlref_buffer ob[1] = {{h, sizeof h}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, NULL, 0, ob, 1, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(h[0], 0x7BFFu);
    CHECK_EQ_U64(h[1], 0x7C00u);
    ffix_init(&f, 1, F16, 1, SIZES(3), NULL, 0xFBFFu, 0xCC00u);
    RUN_ALL(&f, 0xFBFFu, 0xCC00u, NULL);
    /* FLOAT16 Start 0.1 (0x2E66), Delta 0.1: widened, float32 formula, one rounding to binary16 */
    ffix_init(&f, 1, F16, 1, SIZES(40), NULL, 0x2E66u, 0x2E66u);
    RUN_ALL(&f, 0x2E66u, 0x2E66u, NULL);
    /* NaN Start in FLOAT16: the canonical 0x7E00 */
    ffix_init(&f, 1, F16, 1, SIZES(3), NULL, 0xFE01u, 0x3C00u);
    RUN_ALL(&f, 0xFE01u, 0x3C00u, NULL);
}

/* The benchmark's shape (bench fill_sequence: INT32 [16777216]) compiles to the int32 kernel
 * (streaming in SIMD builds); a misaligned output matches the reference on 1 and 2 threads. */
TEST(fill_sequence_benchmark_shape) {
    ffix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    ffix_init(&f, 1, I32, 1, SIZES(16777216), NULL, 0, 1);
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
#if DMLREF_SIMD
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "fill_value_sequence.int32_stream.", 33) == 0);
#else
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "fill_value_sequence.int32.", 26) == 0);
#endif
    dmlref_release(op);
    setenv("DMLREF_PAR_GRAIN", "64", 1);
    setenv("DMLREF_STREAM_MIN", "0", 1);
    env_reload();
    for (size_t shift = 0; shift < 8; ++shift) {
        ffix_init(&f, 1, I32, 1, SIZES(1029), NULL, UINT32_C(0xFFFFFF00), 0xFFFFFFFDu);
        run_all_at(__FILE__, __LINE__, &f, UINT32_C(0xFFFFFF00), 0xFFFFFFFDu, shift, NULL);
        ffix_init(&f, 0, F32, 1, SIZES(1029), NULL, 0x7fc01234u, 0);
        run_all_at(__FILE__, __LINE__, &f, 0x7fc01234u, 0, shift, NULL);
        ffix_init(&f, 0, F16, 1, SIZES(1029), NULL, 0x3c00u, 0);
        run_all_at(__FILE__, __LINE__, &f, 0x3c00u, 0, shift, NULL);
    }
    unsetenv("DMLREF_PAR_GRAIN");
    unsetenv("DMLREF_STREAM_MIN");
    env_reload();
}

/* A random output layout: packed, gapped rows, or permuted with gaps. */
static const uint32_t *rand_strides(uint64_t *r, uint32_t n, const uint32_t *s, uint32_t *st) {
    const uint32_t mode = (uint32_t)(splitmix64(r) % 10);
    if (mode < 4) return NULL;
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
    return st;
}

/* A random value of dt's size: small, extreme, or any bits (floats: special values too). */
static uint64_t rand_value(uint64_t *r, DMLREF_TENSOR_DATA_TYPE dt) {
    const uint32_t es = dmlref_data_type_size(dt), k = (uint32_t)(splitmix64(r) % 8);
    const uint64_t mask = es == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * es)) - 1;
    if (dt == F32) {
        static const float fs[8] = {0.1f, -0.7f, 3.0f, 1e30f, -2.5e-3f, 16777216.0f, 1.0f / 3.0f, -0.0f};
        return k < 6 ? f32_bits(fs[splitmix64(r) % 8]) : (uint32_t)splitmix64(r);
    }
    if (dt == F16) {
        static const uint16_t hs[8] = {0x2E66, 0xB800, 0x4200, 0x7BFF, 0x0001, 0x3555, 0x8000, 0x6400};
        return k < 6 ? hs[splitmix64(r) % 8] : (uint16_t)splitmix64(r);
    }
    if (k < 5) return (uint64_t)((int64_t)(splitmix64(r) % 17) - 8) & mask;
    return splitmix64(r) & mask;
}

KERNELS_CHECKED("fill_value_constant.")
KERNELS_CHECKED("fill_value_sequence.")

/* The fast paths write exactly the oracles' (and the reference's) bytes on random cases:
 * both operators, every type, 1-8 dims, random layouts, the int32 kernels' lane offsets at
 * any start index (threads split the rows anywhere); half of them with a tiny
 * DMLREF_PAR_GRAIN and DMLREF_STREAM_MIN so that small outputs split and stream. */
TEST(fill_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[11] = {F32, F16, F64, U8, I8, U16, I16, U32, I32, U64, I64};
    const uint64_t base_seed = test_seed(20261128);
    uint64_t r = 0;
    int failed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 600 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const int seq = (int)(splitmix64(&r) % 2);
        DMLREF_TENSOR_DATA_TYPE dt = types[splitmix64(&r) % 11];
        if (seq && dt == F64) dt = I32;
        if (seq && splitmix64(&r) % 3 == 0) dt = splitmix64(&r) % 2 ? I32 : U32; /* the int32 kernels more often */
        const uint32_t n = 1 + (uint32_t)(splitmix64(&r) % 8);
        uint32_t sizes[8], st[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(splitmix64(&r) % (iter % 4 == 0 ? 300 : 6));
            if (total * sizes[d] > 30000) sizes[d] = 1;
            total *= sizes[d];
        }
        const uint64_t v0 = rand_value(&r, dt), v1 = rand_value(&r, dt);
        ffix f;
        ffix_init(&f, seq, dt, n, sizes, rand_strides(&r, n, sizes, st), v0, v1);
        const int tiny = (int)(splitmix64(&r) % 2);
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            setenv("DMLREF_STREAM_MIN", "0", 1);
            env_reload();
        }
        const int before = test_failures();
        const char *k = NULL;
        run_all_at(__FILE__, __LINE__, &f, v0, v1, (size_t)(splitmix64(&r) % 3) * 4, &k);
        if (k) kernels_note(&seen, k);
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %s %s, %u dims, %s\n", iter, seq ? "sequence" : "constant",
                    dmlref_data_type_name(dt), n, tiny ? "tiny grain" : "default grain");
        }
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return;
    CHECK_KERNELS_REACHED(&seen, "fill_value_constant.", NULL);
    CHECK_KERNELS_REACHED(&seen, "fill_value_sequence.", NULL);
}
