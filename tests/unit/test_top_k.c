/*
 * TOP_K and TOP_K1 (docs/operators.md, TOP_K): the descs' layouts and schemas, every rule
 * (TK1-TK7) at the feature levels where it differs, the four documented examples, the order
 * (NaN above +Inf with its payload kept, -0 == +0, ties by ascending index in both
 * directions), bit copies, strided and broadcast layouts, a hostile long sequence, and the
 * fast path against an independent reference (a stable sort of each sequence) on random cases
 * full of ties, NaNs, +-0, +-Inf, all-equal sequences, K = 1 and K = the axis size, with 1
 * and 2 threads, every kernel reached.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "core/scalar.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define FL DMLREF_FEATURE_LEVEL_6_4
/* kfix_init(..., KD(2, 5), axis, k, ...): a DimensionCount and its Sizes */
#define KD(...) NDIMS(__VA_ARGS__), SIZES(__VA_ARGS__)

typedef struct kfix {
    tdesc in, val, ix;
    DMLREF_TOP_K_OPERATOR_DESC k;
    DMLREF_TOP_K1_OPERATOR_DESC k1;
    DMLREF_OPERATOR_DESC d;
} kfix;

/* TOP_K1 (dir 0 or 1), or TOP_K (dir -1); strides NULL: packed. */
static void kfix_init(kfix *f, int dir, DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE it, uint32_t n,
                      const uint32_t *sizes, uint32_t axis, uint32_t k, const uint32_t *in_st, const uint32_t *val_st,
                      const uint32_t *ix_st) {
    uint32_t out[8];
    for (uint32_t d = 0; d < n; ++d) out[d] = d == axis ? k : sizes[d];
    tdesc_init(&f->in, dt, n, sizes, in_st);
    tdesc_init(&f->val, dt, n, out, val_st);
    tdesc_init(&f->ix, it, n, out, ix_st);
    f->k = (DMLREF_TOP_K_OPERATOR_DESC){&f->in.desc, &f->val.desc, &f->ix.desc, axis, k};
    f->k1 = (DMLREF_TOP_K1_OPERATOR_DESC){&f->in.desc, &f->val.desc, &f->ix.desc, axis, k,
                                          dir == 0 ? DMLREF_AXIS_DIRECTION_INCREASING : DMLREF_AXIS_DIRECTION_DECREASING};
    f->d = dir < 0 ? (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_TOP_K, &f->k}
                   : (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_TOP_K1, &f->k1};
}

static dmlref_status validate(const kfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(top_k_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_TOP_K_OPERATOR_DESC), 3 * p + 8); /* 32 on LP64, 20 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K_OPERATOR_DESC, OutputValueTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K_OPERATOR_DESC, OutputIndexTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K_OPERATOR_DESC, Axis), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K_OPERATOR_DESC, K), 3 * p + 4);
    CHECK_EQ_U64(sizeof(DMLREF_TOP_K1_OPERATOR_DESC), p == 8 ? 40 : 24); /* Q0.1: 40 on x64 */
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K1_OPERATOR_DESC, Axis), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K1_OPERATOR_DESC, K), 3 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_TOP_K1_OPERATOR_DESC, AxisDirection), 3 * p + 8); /* 32 on x64 */
    CHECK_EQ_U64(DMLREF_OPERATOR_TOP_K, 71);
    CHECK_EQ_U64(DMLREF_OPERATOR_TOP_K1, 112);
}

TEST(top_k_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_TOP_K);
    const dmlref_schema *sc1 = dmlref_operator_schema(DMLREF_OPERATOR_TOP_K1);
    CHECK(sc != NULL && sc1 != NULL);
    if (!sc || !sc1) return;
    CHECK(strcmp(sc->name, "TOP_K") == 0 && strcmp(sc1->name, "TOP_K1") == 0);
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_1_0); /* the header's base block (decision) */
    CHECK_EQ_U64(sc1->introduced, DMLREF_FEATURE_LEVEL_2_1);
    CHECK_EQ_U64(sc->n_slots, 3);
    CHECK(strcmp(sc->slots[1].name, "OutputValueTensor") == 0 && sc->slots[1].is_output);
    CHECK(strcmp(sc->slots[2].name, "OutputIndexTensor") == 0 && sc->slots[2].is_output);
    CHECK_EQ_U64(sc->n_params, 2);
    CHECK_EQ_U64(sc1->n_params, 3);
    CHECK(strcmp(sc1->params[2].name, "AxisDirection") == 0 && sc1->params[2].kind == DMLREF_PARAM_ENUM);
}

TEST(top_k_validation_rules) {
    kfix f;
    dmlref_error err;
    /* TOP_K at 1_0 (decision): 4-D FLOAT32/FLOAT16, UINT32 indices */
    kfix_init(&f, -1, F32, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    kfix_init(&f, 1, F32, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "TOP_K1: not available at feature level 2_0 (introduced in 2_1)", "");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);

    /* TK2: T2 before 2_1, T8 from 2_1, T10 from 5_0, never FLOAT64 */
    kfix_init(&f, -1, DMLREF_TENSOR_DATA_TYPE_INT8, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE,
               "TOP_K: InputTensor.DataType (INT8) is not supported at feature level 2_0", "TK2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
    kfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_INT64, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE, "INT64", "TK2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
    kfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_FLOAT64, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64", "TK2");
    kfix_init(&f, 0, F32, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    tdesc_init(&f.val, F16, DIMS(1, 1, 3, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "OutputValueTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)", "TK2");

    /* TK3: UINT32 before 5_0; UINT64 too from 5_0; never signed */
    kfix_init(&f, 0, F32, U64, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE,
               "OutputIndexTensor.DataType (UINT64) is not supported at feature level 4_1", "TK3");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
    kfix_init(&f, 0, F32, DMLREF_TENSOR_DATA_TYPE_INT64, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "INT64", "TK3");

    /* TK1: 4-D before 3_1, 1-8 from 3_1; the three the same DimensionCount */
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 3, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "InputTensor.DimensionCount (2) must be in [4, 4] at feature level 3_0", "TK1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    tdesc_init(&f.ix, U32, DIMS(1, 2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "OutputIndexTensor.DimensionCount (3) must equal InputTensor.DimensionCount (2)", "TK1");

    /* TK4: Axis < DimensionCount */
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 3, NULL, NULL, NULL);
    f.k1.Axis = 2;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "TOP_K1: Axis (2) must be less than InputTensor.DimensionCount (2)", "TK4");

    /* TK5: 1 <= K <= Sizes[Axis] (K = the size is valid: Q13 item 50) */
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 5, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 6, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "TOP_K1: K (6) must be in [1, InputTensor.Sizes[Axis]] = [1, 5]", "TK5");
    kfix_init(&f, -1, F32, U32, KD(1, 1, 2, 5), 3, 1, NULL, NULL, NULL);
    f.k.K = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "TOP_K: K (0) must be in [1, ", "TK5");

    /* TK6: both outputs Input.Sizes with [Axis] = K */
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 3, NULL, NULL, NULL);
    tdesc_init(&f.val, F32, DIMS(2, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "OutputValueTensor.Sizes {2,4} must equal InputTensor.Sizes with [Axis] = K {2,3}", "TK6");
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 3, NULL, NULL, NULL);
    tdesc_init(&f.ix, U32, DIMS(1, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "OutputIndexTensor.Sizes {1,3}", "TK6");

    /* TK7: AxisDirection INCREASING or DECREASING */
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 3, NULL, NULL, NULL);
    f.k1.AxisDirection = (DMLREF_AXIS_DIRECTION)2;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "TOP_K1: AxisDirection (2) must be INCREASING (0) or DECREASING (1)", "TK7");

    /* output_sizes: both outputs; there is no third */
    kfix_init(&f, 1, F32, U32, KD(2, 5, 7), 1, 3, NULL, NULL, NULL);
    for (uint32_t o = 0; o < 2; ++o) {
        uint32_t n = 0, sizes[8] = {0};
        CHECK_STATUS(dmlref_output_sizes(&f.d, FL, o, &n, sizes, &err), err, DMLREF_OK, NULL);
        CHECK(n == 3 && sizes[0] == 2 && sizes[1] == 3 && sizes[2] == 7);
    }
    uint32_t n = 0, sizes[8] = {0};
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 2, &n, sizes, &err), err, DMLREF_ERROR_PARAMETER, "no output 2");

    /* the tensor rules: output elements may not share memory */
    kfix_init(&f, 1, F32, U32, KD(2, 5), 1, 3, NULL, NULL, SIZES(3, 0));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputIndexTensor.Strides[1] is 0", "T15");
}

/* ---- data ------------------------------------------------------------------------------ */

/* Runs f on in (oracle, and fast with 1 and 2 threads and a tiny grain); compares both
 * outputs (whole buffers, 0xCD gaps included) with want_v / want_i when given, else with the
 * oracle's; notes the fast kernel in seen. */
static int run_all(const kfix *f, const void *in, const void *want_v, const void *want_i, kernels_seen *seen) {
    const size_t ib = (size_t)f->in.buf.TotalTensorSizeInBytes, vb = (size_t)f->val.buf.TotalTensorSizeInBytes,
                 xb = (size_t)f->ix.buf.TotalTensorSizeInBytes;
    unsigned char *wv = malloc(vb), *wi = malloc(xb), *gv = malloc(vb), *gi = malloc(xb);
    if (!wv || !wi || !gv || !gi) abort();
    int ok = 1;
    for (int mode = 0; mode < 4; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0,
                                  .threads = (uint32_t)(mode == 3 ? 2 : 1)};
        if (mode >= 2) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        dmlref_operator *op = NULL;
        dmlref_error err;
        const dmlref_status st = dmlref_compile(&f->d, FL, &o, &op, &err);
        if (mode >= 2) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
        if (st != DMLREF_OK) {
            test_fail(__FILE__, __LINE__, "compile: %s", err.message);
            ok = 0;
            break;
        }
        if (seen && mode) kernels_note(seen, dmlref_kernel_name(op));
        memset(gv, 0xCD, vb);
        memset(gi, 0xCD, xb);
        const dmlref_cbuffer ins[1] = {{in, ib}};
        const dmlref_buffer outs[2] = {{gv, vb}, {gi, xb}};
        if (dmlref_execute(op, ins, 1, outs, 2, &err) != DMLREF_OK) {
            test_fail(__FILE__, __LINE__, "execute: %s", err.message);
            ok = 0;
        } else if (mode == 0 && !want_v) {
            memcpy(wv, gv, vb);
            memcpy(wi, gi, xb);
        } else if (memcmp(want_v ? want_v : wv, gv, vb) != 0 || memcmp(want_i ? want_i : wi, gi, xb) != 0) {
            test_fail(__FILE__, __LINE__, "mode %d (%s): differs from the %s", mode, dmlref_kernel_name(op),
                      want_v ? "expected bytes" : "oracle");
            ok = 0;
        }
        dmlref_release(op);
    }
    free(wv), free(wi), free(gv), free(gi);
    return ok;
}

/* The four examples of the pages (tests/cases/top_k_doc*.json, top_k1_doc*.json). */
TEST(top_k_doc_examples) {
    kfix f;
    const float in[12] = {0, 1, 10, 11, 3, 2, 9, 8, 4, 5, 6, 7};
    {
        kfix_init(&f, -1, F32, U32, KD(1, 1, 3, 4), 3, 2, NULL, NULL, NULL);
        const float v[6] = {11, 10, 9, 8, 7, 6};
        const uint32_t i[6] = {3, 2, 2, 3, 3, 2};
        CHECK(run_all(&f, in, v, i, NULL));
    }
    {
        kfix_init(&f, -1, F32, U32, KD(1, 1, 3, 4), 2, 2, NULL, NULL, NULL);
        const float v[8] = {4, 5, 10, 11, 3, 2, 9, 8};
        const uint32_t i[8] = {2, 2, 0, 0, 1, 1, 1, 1};
        CHECK(run_all(&f, in, v, i, NULL));
    }
    const float tied[12] = {1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 6, 6};
    {
        kfix_init(&f, 1, F32, U32, KD(1, 1, 3, 4), 3, 3, NULL, NULL, NULL);
        const float v[9] = {3, 2, 2, 5, 5, 4, 6, 6, 6};
        const uint32_t i[9] = {3, 1, 2, 2, 3, 1, 0, 1, 2};
        CHECK(run_all(&f, tied, v, i, NULL));
    }
    {
        kfix_init(&f, 0, F32, U32, KD(1, 1, 3, 4), 3, 3, NULL, NULL, NULL);
        const float v[9] = {1, 2, 2, 3, 4, 5, 6, 6, 6};
        const uint32_t i[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
        CHECK(run_all(&f, tied, v, i, NULL));
    }
}

/* The order: NaN above +Inf (payloads kept, all NaNs equal: by index), -0 == +0 (by index,
 * each keeping its sign), both directions; FLOAT32 (list_f32), FLOAT16 (list), and K = n
 * (heap when n > 16). */
TEST(top_k_order_nan_zero_bits) {
    kfix f;
    /* index:            0 -0          1 NaN+p     2 +1        3 +0        4 -NaN      5 +Inf      6 -Inf      7 sNaN */
    const uint32_t in[8] = {0x80000000u, 0x7FC00001u, 0x3F800000u, 0x00000000u, 0xFFC00000u, 0x7F800000u, 0xFF800000u, 0x7F800005u};
    {
        kfix_init(&f, 1, F32, U32, KD(8), 0, 8, NULL, NULL, NULL);
        const uint32_t v[8] = {0x7FC00001u, 0xFFC00000u, 0x7F800005u, 0x7F800000u, 0x3F800000u, 0x80000000u, 0x00000000u, 0xFF800000u};
        const uint32_t i[8] = {1, 4, 7, 5, 2, 0, 3, 6};
        CHECK(run_all(&f, in, v, i, NULL));
    }
    {
        kfix_init(&f, 0, F32, U64, KD(8), 0, 8, NULL, NULL, NULL);
        const uint32_t v[8] = {0xFF800000u, 0x80000000u, 0x00000000u, 0x3F800000u, 0x7F800000u, 0x7FC00001u, 0xFFC00000u, 0x7F800005u};
        const uint64_t i[8] = {6, 0, 3, 2, 5, 1, 4, 7};
        CHECK(run_all(&f, in, v, i, NULL));
    }
    {
        kfix_init(&f, 0, F32, U32, KD(8), 0, 3, NULL, NULL, NULL);
        const uint32_t v[3] = {0xFF800000u, 0x80000000u, 0x00000000u};
        const uint32_t i[3] = {6, 0, 3};
        CHECK(run_all(&f, in, v, i, NULL));
    }
    /* FLOAT16: -0, NaN, +0, 1, -NaN payload */
    const uint16_t h[5] = {0x8000u, 0x7E01u, 0x0000u, 0x3C00u, 0xFE07u};
    {
        kfix_init(&f, -1, F16, U32, KD(1, 1, 1, 5), 3, 4, NULL, NULL, NULL);
        const uint16_t v[4] = {0x7E01u, 0xFE07u, 0x3C00u, 0x8000u};
        const uint32_t i[4] = {1, 4, 3, 0};
        CHECK(run_all(&f, h, v, i, NULL));
    }
    /* 40 elements, K 40 (top_k.heap): all NaNs of several payloads, then all zeros of both signs */
    uint32_t big[40], bv[40], bi[40];
    for (uint32_t j = 0; j < 40; ++j) big[j] = j < 20 ? (j % 2 ? 0xFFC00000u + j : 0x7F800001u + j) : (j % 3 ? 0x80000000u : 0);
    for (uint32_t j = 0; j < 40; ++j) bv[j] = big[j], bi[j] = j; /* DECREASING: NaNs first, then zeros, by index */
    kfix_init(&f, 1, F32, U32, KD(40), 0, 40, NULL, NULL, NULL);
    CHECK(run_all(&f, big, bv, bi, NULL));
    for (uint32_t j = 0; j < 40; ++j) bv[j] = big[(j + 20) % 40], bi[j] = (j + 20) % 40; /* INCREASING: zeros first */
    kfix_init(&f, 0, F32, U32, KD(40), 0, 40, NULL, NULL, NULL);
    CHECK(run_all(&f, big, bv, bi, NULL));
}

/* Long FLOAT32 rows through top_k.list_f32's two passes (n >= 32): all NaN (payloads and signs
 * kept, ties by index), all zeros of both signs, and one NaN among finite values, in both
 * directions; and the same rows with K = n (top_k.heap). */
TEST(top_k_list_f32_special_rows) {
    enum { N = 64 };
    uint32_t in[3 * N], v[3 * N], ix[3 * N];
    for (uint32_t j = 0; j < N; ++j) {
        in[j] = j % 3 ? 0x7FC00000u + j : 0xFF800000u + 1 + j; /* row 0: NaNs only */
        in[N + j] = j % 2 ? 0x80000000u : 0;                    /* row 1: -0 and +0 */
        in[2 * N + j] = 0x3F800000u + (j * 7919u % N);          /* row 2: distinct finite, one NaN */
    }
    in[2 * N + 40] = 0xFFC00009u;
    for (int dir = 0; dir < 2; ++dir) {
        for (uint32_t k = 5; k <= N; k += N - 5) { /* 5 (list_f32) and N (heap) */
            kfix f;
            kfix_init(&f, dir, F32, U32, KD(3, N), 1, k, NULL, NULL, NULL);
            for (uint32_t r = 0; r < 2; ++r) /* rows 0 and 1: every element ties: by index */
                for (uint32_t q = 0; q < k; ++q) v[r * k + q] = in[r * N + q], ix[r * k + q] = q;
            /* row 2: the NaN first (DECREASING) or last (INCREASING), the others by value */
            uint32_t order[N], m = 0;
            if (dir) order[m++] = 40;
            for (uint32_t t = 0; t < N; ++t) { /* values 1 + t ulp: position j with j * 7919 % N == t */
                const uint32_t want = dir ? N - 1 - t : t;
                for (uint32_t j = 0; j < N; ++j)
                    if (j != 40 && j * 7919u % N == want) order[m++] = j;
            }
            if (!dir) order[m++] = 40;
            for (uint32_t q = 0; q < k; ++q) v[2 * k + q] = in[2 * N + order[q]], ix[2 * k + q] = order[q];
            CHECK(run_all(&f, in, v, ix, NULL));
        }
    }
}

/* Strided and broadcast: a gapped, permuted input whose Axis is not innermost, a broadcast
 * (stride 0) along Axis (every sequence all-equal: indices 0..K-1), gapped outputs. */
TEST(top_k_strided_broadcast) {
    kfix f;
    int32_t in[64];
    for (int j = 0; j < 64; ++j) in[j] = (j * 37) % 11 - 5;
    /* Input {3, 4} with strides {1, 5}: element [r, c] at r + 5c; Axis 1 (stride 5) */
    kfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_INT32, U32, KD(3, 4), 1, 2, SIZES(1, 5), SIZES(3, 1), NULL);
    int32_t v[6] = {0};
    uint32_t ix[6] = {0};
    for (uint32_t r = 0; r < 3; ++r) { /* the reference by hand: the two largest, ties by index */
        int32_t best = INT32_MIN, second = INT32_MIN;
        uint32_t bj = 0, sj = 0;
        for (uint32_t c = 0; c < 4; ++c) {
            const int32_t x = in[r + 5 * c];
            if (x > best) second = best, sj = bj, best = x, bj = c;
            else if (x > second) second = x, sj = c;
        }
        v[2 * r] = best, v[2 * r + 1] = second, ix[2 * r] = bj, ix[2 * r + 1] = sj;
    }
    int32_t wv[8];
    memset(wv, 0xCD, sizeof wv);
    for (uint32_t r = 0; r < 3; ++r) wv[3 * r] = v[2 * r], wv[3 * r + 1] = v[2 * r + 1]; /* strides {3, 1}: 8 slots */
    CHECK(run_all(&f, in, wv, ix, NULL));
    /* broadcast along Axis: every sequence one value */
    kfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_INT32, U32, KD(2, 30), 1, 20, SIZES(1, 0), NULL, NULL);
    int32_t bv[40];
    uint32_t bi[40];
    for (uint32_t j = 0; j < 40; ++j) bv[j] = in[j / 20], bi[j] = j % 20;
    CHECK(run_all(&f, in, bv, bi, NULL));
}

/* A hostile sequence: 2^18 elements, K = n, sorted the wrong way for a list (every element
 * enters), and all equal: O(n log n) in the oracle and the fast path (a quadratic one, 2^35
 * steps a pass, would take minutes here where this takes a second, and hours emulated). */
TEST(top_k_long_sequence) {
    const uint32_t n = 1u << 18;
    float *in = malloc((size_t)n * 4);
    if (!in) abort();
    for (uint32_t j = 0; j < n; ++j) in[j] = (float)j;
    for (int pass = 0; pass < 2; ++pass) {
        kfix f;
        kfix_init(&f, 1, F32, U32, KD(n), 0, n, NULL, NULL, NULL);
        float *v = malloc((size_t)n * 4);
        uint32_t *ix = malloc((size_t)n * 4);
        if (!v || !ix) abort();
        for (uint32_t j = 0; j < n; ++j) {
            ix[j] = pass ? j : n - 1 - j;
            v[j] = in[ix[j]];
        }
        CHECK(run_all(&f, in, v, ix, NULL));
        free(v), free(ix);
        for (uint32_t j = 0; j < n; ++j) in[j] = 2.5f; /* pass 1: all equal */
    }
    free(in);
}

/* ---- the fast path against a reference ---------------------------------------------------- */

static uint64_t rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

typedef struct ref_item {
    uint64_t key;
    uint32_t j;
} ref_item;

/* A stable insertion sort of one sequence (the reference; sequences are short here). */
static void ref_sort(ref_item *it, uint32_t n, int decreasing) {
    for (uint32_t a = 1; a < n; ++a) {
        const ref_item x = it[a];
        uint32_t b = a;
        while (b > 0 && (decreasing ? it[b - 1].key < x.key : it[b - 1].key > x.key)) {
            it[b] = it[b - 1];
            --b;
        }
        it[b] = x;
    }
}

/* Element offset of coordinate c through tdesc t's strides (packed when it has none). */
static uint64_t slot_of(const tdesc *t, uint32_t n, const uint32_t *c) {
    uint64_t off = 0, acc = 1;
    for (uint32_t d = n; d-- > 0;) {
        off += (uint64_t)c[d] * (t->buf.Strides ? t->buf.Strides[d] : acc);
        acc *= t->sizes[d];
    }
    return off;
}

static void reference(const kfix *f, uint32_t n, uint32_t axis, uint32_t k, int decreasing, const unsigned char *in,
                      unsigned char *val, unsigned char *ix) {
    const DMLREF_TENSOR_DATA_TYPE dt = f->in.buf.DataType;
    const uint32_t es = dmlref_data_type_size(dt), is = dmlref_data_type_size(f->ix.buf.DataType);
    const uint32_t len = f->in.sizes[axis];
    ref_item *items = malloc(len * sizeof *items);
    if (!items) abort();
    uint32_t outer[8], c[8] = {0};
    for (uint32_t d = 0; d < n; ++d) outer[d] = d == axis ? 1 : f->in.sizes[d];
    for (;;) {
        for (uint32_t j = 0; j < len; ++j) {
            c[axis] = j;
            items[j].key = scalar_order_key(dt, in + slot_of(&f->in, n, c) * es, 0);
            items[j].j = j;
        }
        ref_sort(items, len, decreasing);
        for (uint32_t r = 0; r < k; ++r) {
            c[axis] = items[r].j;
            const uint64_t src = slot_of(&f->in, n, c);
            c[axis] = r;
            memcpy(val + slot_of(&f->val, n, c) * es, in + src * es, es);
            const uint64_t j64 = items[r].j;
            const uint32_t j32 = items[r].j;
            memcpy(ix + slot_of(&f->ix, n, c) * is, is == 8 ? (const void *)&j64 : (const void *)&j32, is);
        }
        c[axis] = 0;
        uint32_t d = n;
        while (d-- > 0) {
            if (++c[d] < outer[d]) break;
            c[d] = 0;
        }
        if (d == UINT32_MAX) break;
    }
    free(items);
}

/* Strides for t (packed, gapped or permuted); 0 for packed (NULL). */
static int rand_strides(uint64_t *r, uint32_t n, const uint32_t *sizes, uint32_t *st, int allow_broadcast) {
    const uint32_t mode = (uint32_t)(rnd(r) % 4);
    if (mode == 0) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode == 3)
        for (uint32_t i = n; i > 1; --i) {
            const uint32_t j = (uint32_t)(rnd(r) % i), x = order[i - 1];
            order[i - 1] = order[j];
            order[j] = x;
        }
    uint64_t cur = 1;
    for (uint32_t k = n; k-- > 0;) {
        const uint32_t d = order[k];
        st[d] = (uint32_t)cur;
        cur = cur * sizes[d] + (mode >= 2 ? rnd(r) % 3 : 0);
    }
    if (allow_broadcast && rnd(r) % 5 == 0)
        for (uint32_t d = 0; d < n; ++d)
            if (rnd(r) % 3 == 0) st[d] = 0;
    return 1;
}

/* An element: from a small palette (ties), or any bits; floats get +-0, +-Inf, NaNs of
 * several payloads and signs. */
static void rand_value(uint64_t *r, DMLREF_TENSOR_DATA_TYPE dt, const uint64_t *palette, uint32_t np,
                       unsigned char *p) {
    const uint32_t es = dmlref_data_type_size(dt);
    uint64_t v = rnd(r) % 4 ? palette[rnd(r) % np] : (rnd(r) << 32 | rnd(r));
    if (es == 8) memcpy(p, &v, 8);
    else if (es == 4) { const uint32_t x = (uint32_t)v; memcpy(p, &x, 4); }
    else if (es == 2) { const uint16_t x = (uint16_t)v; memcpy(p, &x, 2); }
    else { const uint8_t x = (uint8_t)v; memcpy(p, &x, 1); }
}

static uint64_t special(uint64_t *r, DMLREF_TENSOR_DATA_TYPE dt) {
    const uint64_t s = rnd(r) % 2;
    if (dt == F32) {
        static const uint32_t v[8] = {0, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00123u, 0x7F800001u, 0x3F800000u};
        return v[rnd(r) % 8] ^ (s && rnd(r) % 4 == 0 ? 0x80000000u : 0);
    }
    if (dt == F16) {
        static const uint16_t v[8] = {0, 0x8000u, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE11u, 0x7C01u, 0x3C00u};
        return v[rnd(r) % 8];
    }
    return rnd(r) % 3 == 0 ? 0 : rnd(r) % 7;
}

KERNELS_CHECKED("top_k.")

TEST(top_k_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[6] = {F32, F32, F16, DMLREF_TENSOR_DATA_TYPE_INT8,
                                                     DMLREF_TENSOR_DATA_TYPE_UINT64, DMLREF_TENSOR_DATA_TYPE_INT32};
    const uint64_t base_seed = test_seed(20261127);
    int failed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 400 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        uint64_t r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + (uint32_t)(rnd(&r) % 4);
        uint32_t sizes[8], st[3][8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(rnd(&r) % (iter % 3 == 0 ? 70 : 9));
            if (total * sizes[d] > 6000) sizes[d] = 1;
            total *= sizes[d];
        }
        const uint32_t axis = (uint32_t)(rnd(&r) % n), len = sizes[axis], w = (uint32_t)(rnd(&r) % 5);
        const uint32_t k = w == 0 ? 1 : w == 1 ? len : w == 2 && len > 16 ? 17 + (uint32_t)(rnd(&r) % (len - 16))
                                                                            : 1 + (uint32_t)(rnd(&r) % (len < 16 ? len : 16));
        const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(&r) % 6];
        const DMLREF_TENSOR_DATA_TYPE it = rnd(&r) % 2 ? U32 : U64;
        const int dir = (int)(rnd(&r) % 3) - 1; /* -1: TOP_K */
        uint32_t out[8];
        for (uint32_t d = 0; d < n; ++d) out[d] = d == axis ? k : sizes[d];
        int has[3];
        has[0] = rand_strides(&r, n, sizes, st[0], 1);
        has[1] = rand_strides(&r, n, out, st[1], 0);
        has[2] = rand_strides(&r, n, out, st[2], 0);
        if (dt == F32 && rnd(&r) % 2) has[0] = 0; /* list_f32 wants a packed Axis (often) */
        kfix f;
        kfix_init(&f, dir, dt, it, n, sizes, axis, k, has[0] ? st[0] : NULL, has[1] ? st[1] : NULL,
                  has[2] ? st[2] : NULL);
        const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, es = dmlref_data_type_size(dt);
        unsigned char *in = malloc(ib ? ib : 1);
        if (!in) abort();
        uint64_t palette[4];
        const uint32_t np = 1 + (uint32_t)(rnd(&r) % 4);
        for (uint32_t i = 0; i < np; ++i) palette[i] = special(&r, dt);
        const int all_equal = rnd(&r) % 8 == 0;
        for (size_t s = 0; s + es <= ib; s += es) rand_value(&r, dt, palette, all_equal ? 1 : np, in + s);
        const size_t vb = (size_t)f.val.buf.TotalTensorSizeInBytes, xb = (size_t)f.ix.buf.TotalTensorSizeInBytes;
        unsigned char *wv = malloc(vb), *wi = malloc(xb);
        if (!wv || !wi) abort();
        memset(wv, 0xCD, vb);
        memset(wi, 0xCD, xb);
        reference(&f, n, axis, k, dir != 0, in, wv, wi);
        const int before = test_failures();
        run_all(&f, in, wv, wi, &seen);
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u dims, axis %u (size %u), K %u, %s, dir %d\n", iter, n, axis, len, k,
                    dmlref_data_type_name(dt), dir);
        }
        free(in), free(wv), free(wi);
    }
    if (!test_cases_end()) return;
    CHECK_KERNELS_REACHED(&seen, "top_k.", NULL);
}

/* top_k.list_f32's bounded selection (rows of 16 elements and more) against the reference on
 * long packed FLOAT32 rows: K 1..16, lengths 16..600 (partial last groups), both directions, and
 * values distinct (the candidates ranked: 8..12 and 13..16 of them), with ties copied from
 * earlier positions (ties among the candidates), from a palette of 1 to 3 (more candidates than
 * ranked: the list), with NaNs of several payloads, +-0 and +-Inf sprinkled, or sorted either
 * way. */
TEST(top_k_list_f32_bounded) {
    const uint64_t base_seed = test_seed(20261128);
    int failed = 0;
    for (int iter = 0; iter < 300 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        uint64_t r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t rows = 1 + (uint32_t)(rnd(&r) % 5);
        const uint32_t len = 16 + (uint32_t)(rnd(&r) % (iter % 2 ? 40 : 585));
        const uint32_t k = 1 + (uint32_t)(rnd(&r) % 16), mode = (uint32_t)(rnd(&r) % 5);
        const int dir = (int)(rnd(&r) % 3) - 1;
        const DMLREF_TENSOR_DATA_TYPE it = rnd(&r) % 2 ? U32 : U64;
        uint32_t *in = malloc((size_t)rows * len * 4);
        if (!in) abort();
        uint32_t palette[3];
        for (uint32_t i = 0; i < 3; ++i) palette[i] = (uint32_t)special(&r, F32);
        const uint32_t np = 1 + (uint32_t)(rnd(&r) % 3);
        for (uint32_t q = 0; q < rows; ++q)
            for (uint32_t j = 0; j < len; ++j) {
                uint32_t *x = in + (size_t)q * len + j;
                *x = (uint32_t)(rnd(&r) & 0x807FFFFFu) | (uint32_t)(100 + rnd(&r) % 50) << 23; /* finite, nonzero */
                if (mode == 1) *x = palette[rnd(&r) % np];
                else if (mode == 2 && j > 0 && rnd(&r) % 6 == 0) *x = x[-1 - (int64_t)(rnd(&r) % j)];
                else if (mode == 3 && rnd(&r) % 12 == 0) *x = (uint32_t)special(&r, F32);
                else if (mode == 4) *x = 0x3F800000u + (q % 2 ? j : len - j) / (1 + (uint32_t)(rnd(&r) % 2));
            }
        kfix f;
        kfix_init(&f, dir, F32, it, KD(rows, len), 1, k, NULL, NULL, NULL);
        const size_t vb = (size_t)f.val.buf.TotalTensorSizeInBytes, xb = (size_t)f.ix.buf.TotalTensorSizeInBytes;
        unsigned char *wv = malloc(vb), *wi = malloc(xb);
        if (!wv || !wi) abort();
        reference(&f, 2, 1, k, dir != 0, (const unsigned char *)in, wv, wi);
        const int before = test_failures();
        run_all(&f, in, wv, wi, NULL);
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u rows of %u, K %u, mode %u, dir %d\n", iter, rows, len, k, mode, dir);
        }
        free(in), free(wv), free(wi);
    }
    test_cases_end();
}

/* list_f32's 32-bit key agrees with scalar_order_key on FLOAT32 patterns, one pair at a time
 * through a 2-element sequence (every special and neighbours). */
TEST(top_k_f32_key_agrees) {
    static const uint32_t pats[] = {0, 0x80000000u, 1, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, 0x00800000u,
                                    0x3F800000u, 0xBF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u,
                                    0x7F800001u, 0xFF800001u, 0x7FC00000u, 0xFFC00000u, 0x7FFFFFFFu, 0xFFFFFFFFu};
    const size_t np = sizeof pats / sizeof pats[0];
    for (size_t a = 0; a < np; ++a)
        for (size_t b = 0; b < np; ++b) {
            uint32_t in[5] = {pats[a], pats[b], pats[a], pats[b], pats[a]}; /* 5: the SIMD screen reads 4 at once */
            const uint64_t ka = scalar_order_key(F32, &pats[a], 0), kb = scalar_order_key(F32, &pats[b], 0);
            for (int dir = 0; dir < 2; ++dir) {
                kfix f;
                kfix_init(&f, dir, F32, U32, KD(5), 0, 1, NULL, NULL, NULL);
                const int b_first = dir ? kb > ka : kb < ka;
                const uint32_t wv = b_first ? pats[b] : pats[a], wi = b_first ? 1 : 0;
                if (!run_all(&f, in, &wv, &wi, NULL)) {
                    fprintf(stderr, "  0x%08x vs 0x%08x, dir %d\n", pats[a], pats[b], dir);
                    return;
                }
            }
        }
}
