/*
 * SLICE and SLICE1 (P3): the descs' layout, the schemas, every rule (message,
 * rule id, field) at the feature levels where it differs, the page's examples,
 * data of every element size through strided, broadcast and gapped layouts
 * (NaN payloads and -0.0 as bits), reversed windows, the benchmark shapes'
 * kernels, and the fast path against the oracle on random windows with 1 and
 * 2 threads, requiring the fast kernels (forward and reversed) are reached.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define FL DMLREF_FEATURE_LEVEL_6_4

/* One fixture for both operators: v1 picks SLICE1. */
typedef struct sfix {
    tdesc in, out;
    uint32_t n, off[8], size[8];
    uint32_t stride[8]; /* SLICE: Strides; SLICE1: InputWindowStrides' bits */
    DMLREF_SLICE_OPERATOR_DESC s;
    DMLREF_SLICE1_OPERATOR_DESC s1;
    DMLREF_OPERATOR_DESC d;
} sfix;

/* in: input sizes (packed unless in_st), out: output sizes (packed unless out_st). */
static void sfix_init(sfix *f, int v1, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *in, const uint32_t *in_st,
                      const uint32_t *out, const uint32_t *out_st, const uint32_t *off, const uint32_t *size,
                      const int32_t *stride) {
    memset(f, 0, sizeof *f);
    tdesc_init(&f->in, dt, n, in, in_st);
    tdesc_init(&f->out, dt, n, out, out_st);
    f->n = n;
    memcpy(f->off, off, n * sizeof *off);
    memcpy(f->size, size, n * sizeof *size);
    memcpy(f->stride, stride, n * sizeof *stride);
    f->s = (DMLREF_SLICE_OPERATOR_DESC){&f->in.desc, &f->out.desc, n, f->off, f->size, f->stride};
    f->s1 = (DMLREF_SLICE1_OPERATOR_DESC){&f->in.desc, &f->out.desc, n, f->off, f->size, (const int32_t *)f->stride};
    f->d = v1 ? (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SLICE1, &f->s1} : (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SLICE, &f->s};
}

#define ISTRIDES(...) ((const int32_t[]){__VA_ARGS__})

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *rule, const char *field, const char *needle) {
    check_status_at(file, line, st, err, want, needle);
    if (strcmp(err->rule, rule) != 0 || strcmp(err->field, field) != 0)
        test_fail(file, line, "rule \"%s\" field \"%s\", want \"%s\" \"%s\" (%s)", err->rule, err->field, rule, field,
                  err->message);
}
#define CHECK_RULE(f, fl, want, rule, field, needle)                                                              \
    do {                                                                                                      \
        dmlref_error e_;                                                                                      \
        memset(&e_, 0, sizeof e_);                                                                            \
        check_rule_at(__FILE__, __LINE__, dmlref_validate(&(f)->d, (fl), &e_), &e_, (want), (rule), (field),  \
                      (needle));                                                                              \
    } while (0)
#define CHECK_VALID(f, fl)                                                                                    \
    do {                                                                                                      \
        dmlref_error e_;                                                                                      \
        CHECK_STATUS(dmlref_validate(&(f)->d, (fl), &e_), e_, DMLREF_OK, NULL);                                 \
    } while (0)

TEST(slice_desc_layout) {
    const size_t p = sizeof(void *);
    /* InputTensor, OutputTensor, UINT DimensionCount (+4 padding on LP64), three array pointers */
    CHECK_EQ_U64(sizeof(DMLREF_SLICE_OPERATOR_DESC), 6 * p); /* 48 on LP64, 24 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_OPERATOR_DESC, DimensionCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_OPERATOR_DESC, Offsets), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_OPERATOR_DESC, Sizes), 4 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_OPERATOR_DESC, Strides), 5 * p);
    CHECK_EQ_U64(sizeof(DMLREF_SLICE1_OPERATOR_DESC), 6 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE1_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE1_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE1_OPERATOR_DESC, DimensionCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE1_OPERATOR_DESC, InputWindowOffsets), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE1_OPERATOR_DESC, InputWindowSizes), 4 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE1_OPERATOR_DESC, InputWindowStrides), 5 * p);
}

TEST(slice_schemas) {
    static const char *const names[2][4] = {{"DimensionCount", "Offsets", "Sizes", "Strides"},
                                            {"DimensionCount", "InputWindowOffsets", "InputWindowSizes",
                                             "InputWindowStrides"}};
    for (int v1 = 0; v1 < 2; ++v1) {
        const DMLREF_OPERATOR_TYPE type = v1 ? DMLREF_OPERATOR_SLICE1 : DMLREF_OPERATOR_SLICE;
        const dmlref_schema *sc = dmlref_operator_schema(type);
        if (!sc) {
            TEST_SKIP("SLICE / SLICE1 not built (make OPS=...)");
            return;
        }
        CHECK(strcmp(sc->name, v1 ? "SLICE1" : "SLICE") == 0);
        CHECK_EQ_U64(sc->desc_size, v1 ? sizeof(DMLREF_SLICE1_OPERATOR_DESC) : sizeof(DMLREF_SLICE_OPERATOR_DESC));
        CHECK_EQ_U64(sc->introduced, v1 ? DMLREF_FEATURE_LEVEL_2_1 : DMLREF_FEATURE_LEVEL_1_0);
        CHECK_EQ_U64(sc->flags, 0);
        CHECK_EQ_U64(sc->n_slots, 2);
        CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output);
        CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output);
        CHECK_EQ_U64(sc->n_params, 4);
        for (uint32_t k = 0; k < 4 && k < sc->n_params; ++k) CHECK(strcmp(sc->params[k].name, names[v1][k]) == 0);
        CHECK(sc->params[0].kind == DMLREF_PARAM_UINT && sc->params[0].is_count);
        CHECK_EQ_U64(sc->params[0].offset, 2 * sizeof(void *));
        for (uint32_t k = 1; k < 4; ++k) {
            const dmlref_param *pm = &sc->params[k];
            const int is_int = v1 && k == 3;
            CHECK(pm->kind == (is_int ? DMLREF_PARAM_INT_ARRAY : DMLREF_PARAM_UINT_ARRAY));
            CHECK_EQ_U64(pm->offset, (2 + k) * sizeof(void *));
            CHECK(strcmp(pm->count_name, "DimensionCount") == 0);
            CHECK_EQ_U64(pm->count_offset, 2 * sizeof(void *));
        }
    }
}

/* SL1, SL2 (shared), SL3, SL4 (SLICE) at the levels where they differ. */
TEST(slice_rules) {
    sfix f;
    const uint32_t *in4 = SIZES(1, 1, 4, 4);
    sfix_init(&f, 0, F32, 4, in4, NULL, SIZES(1, 1, 3, 2), NULL, SIZES(0, 0, 1, 2), SIZES(1, 1, 3, 2),
              ISTRIDES(1, 1, 1, 1));
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_1_0);
    CHECK_VALID(&f, FL);

    /* SL1: DimensionCount, Output's DimensionCount, the level's dimension counts */
    f.s.DimensionCount = 3;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL1", "DimensionCount",
               "SLICE: DimensionCount (3) must equal InputTensor.DimensionCount (4) (SL1)");
    f.s.DimensionCount = 4;
    tdesc_init(&f.out, F32, DIMS(1, 3, 2));
    CHECK_RULE(&f, FL, DMLREF_ERROR_DIMENSION_COUNT, "SL1", "OutputTensor.DimensionCount",
               "SLICE: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    sfix_init(&f, 0, F32, 3, SIZES(1, 4, 4), NULL, SIZES(1, 3, 2), NULL, SIZES(0, 1, 2), SIZES(1, 3, 2),
              ISTRIDES(1, 1, 1));
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_1, DMLREF_ERROR_DIMENSION_COUNT, "SL1", "InputTensor.DimensionCount",
               "SLICE: InputTensor.DimensionCount (3) must be in [4, 5] at feature level 2_1");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_3_0);
    sfix_init(&f, 0, F32, 5, SIZES(1, 1, 1, 4, 4), NULL, SIZES(1, 1, 1, 3, 2), NULL, SIZES(0, 0, 0, 1, 2),
              SIZES(1, 1, 1, 3, 2), ISTRIDES(1, 1, 1, 1, 1));
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_1_0);
    sfix_init(&f, 0, F32, 8, SIZES(1, 1, 1, 1, 1, 1, 4, 4), NULL, SIZES(1, 1, 1, 1, 1, 1, 3, 2), NULL,
              SIZES(0, 0, 0, 0, 0, 0, 1, 2), SIZES(1, 1, 1, 1, 1, 1, 3, 2), ISTRIDES(1, 1, 1, 1, 1, 1, 1, 1));
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_1, DMLREF_ERROR_DIMENSION_COUNT, "SL1", "InputTensor.DimensionCount",
               "(8) must be in [4, 5]");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_3_0);

    /* SL2: T6 at 1_0, T8 from 2_1, T11 from 4_1; equal types */
    sfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_INT8, 4, in4, NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 0),
              SIZES(1, 1, 2, 2), ISTRIDES(1, 1, 1, 1));
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_0, DMLREF_ERROR_DATA_TYPE, "SL2", "InputTensor.DataType",
               "SLICE: InputTensor.DataType (INT8) is not supported at feature level 2_0");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_2_1);
    sfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_UINT16, 4, in4, NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 0),
              SIZES(1, 1, 2, 2), ISTRIDES(1, 1, 1, 1));
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_1_0);
    sfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 4, in4, NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 0),
              SIZES(1, 1, 2, 2), ISTRIDES(1, 1, 1, 1));
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_4_0, DMLREF_ERROR_DATA_TYPE, "SL2", "InputTensor.DataType", "FLOAT64");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_4_1);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(1, 1, 2, 2));
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "SL2", "OutputTensor.DataType",
               "SLICE: OutputTensor.DataType (INT64) must equal InputTensor.DataType (FLOAT64)");

    /* SL1: the arrays are required */
    sfix_init(&f, 0, F32, 4, in4, NULL, SIZES(1, 1, 3, 2), NULL, SIZES(0, 0, 1, 2), SIZES(1, 1, 3, 2),
              ISTRIDES(1, 1, 1, 1));
    f.s.Offsets = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "SL1", "Offsets",
               "SLICE: Offsets is NULL; it must point to DimensionCount (4) values (SL1)");
    f.s.Offsets = f.off;
    f.s.Sizes = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "SL1", "Sizes", "SLICE: Sizes is NULL");
    f.s.Sizes = f.size;
    f.s.Strides = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "SL1", "Strides", "SLICE: Strides is NULL");
    f.s.Strides = f.stride;

    /* SL3: Sizes == Output.Sizes */
    f.size[3] = 1;
    CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "SL3", "Sizes",
               "SLICE: Sizes[3] (1) must equal OutputTensor.Sizes[3] (2) (SL3)");
    f.size[3] = 2;

    /* SL4: strides >= 1 (the decision), and the window inside the input */
    f.stride[2] = 0;
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_1_0, DMLREF_ERROR_PARAMETER, "SL4", "Strides",
               "SLICE: Strides[2] is 0; every stride must be >= 1 (SL4, dmlref's decision");
    f.stride[2] = 1;
    f.off[2] = 2; /* 2 + 2 * 1 = 4 */
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL4", "Offsets",
               "SLICE: the window reads outside InputTensor in dimension 2: Offsets[2] + (Sizes[2] - 1) * Strides[2] "
               "= 2 + 2 * 1 = 4 must be < InputTensor.Sizes[2] (4) (SL4)");
    f.off[2] = 0;
    f.stride[3] = 3; /* 2 + 1 * 3 = 5 */
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL4", "Offsets", "= 2 + 1 * 3 = 5 must be < InputTensor.Sizes[3] (4)");
    f.off[3] = 0; /* 0 + 3 = 3: the last element */
    CHECK_VALID(&f, FL);
    /* 64-bit window arithmetic: 0xFFFFFFFF + 2 * 0xFFFFFFFF does not wrap */
    f.off[2] = 0xFFFFFFFFu;
    f.stride[2] = 0xFFFFFFFFu;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL4", "Offsets", "= 4294967295 + 2 * 4294967295 = 12884901885");
    /* a size-1 window: its stride is never taken, any value >= 1 is fine */
    sfix_init(&f, 0, F32, 4, in4, NULL, SIZES(1, 1, 1, 2), NULL, SIZES(0, 0, 3, 2), SIZES(1, 1, 1, 2),
              ISTRIDES(1, 1, -1, 1));
    CHECK_VALID(&f, FL);
}

/* SL1, SL2 at SLICE1's levels; SL5, SL6, SL7. */
TEST(slice1_rules) {
    sfix f;
    const uint32_t *in4 = SIZES(1, 1, 4, 4);
    sfix_init(&f, 1, F32, 4, in4, NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 1), SIZES(1, 1, 4, 3),
              ISTRIDES(1, 1, -2, 2));
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_2_1);
    dmlref_error err;
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, "SLICE1");

    /* SL1 / SL2 per level: 4-5 dims T8 at 2_1, 1-8 at 3_0, T11 at 4_1 */
    f.s1.DimensionCount = 5;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL1", "DimensionCount",
               "SLICE1: DimensionCount (5) must equal InputTensor.DimensionCount (4) (SL1)");
    f.s1.DimensionCount = 4;
    f.s1.InputWindowStrides = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "SL1", "InputWindowStrides",
               "SLICE1: InputWindowStrides is NULL; it must point to DimensionCount (4) values (SL1)");
    f.s1.InputWindowStrides = (const int32_t *)f.stride;
    f.s1.InputWindowOffsets = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "SL1", "InputWindowOffsets", "InputWindowOffsets is NULL");
    f.s1.InputWindowOffsets = f.off;
    f.s1.InputWindowSizes = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "SL1", "InputWindowSizes", "InputWindowSizes is NULL");
    sfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(4, 4), NULL, SIZES(4, 4), NULL, SIZES(0, 0),
              SIZES(4, 4), ISTRIDES(1, -1));
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_1, DMLREF_ERROR_DIMENSION_COUNT, "SL1", "InputTensor.DimensionCount",
               "SLICE1: InputTensor.DimensionCount (2) must be in [4, 5] at feature level 2_1");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_3_0);
    sfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT64, 2, SIZES(4, 4), NULL, SIZES(4, 4), NULL, SIZES(0, 0),
              SIZES(4, 4), ISTRIDES(1, -1));
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_3_0, DMLREF_ERROR_DATA_TYPE, "SL2", "InputTensor.DataType", "UINT64");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_4_1);

    /* SL5: a non-empty window inside the input (64-bit sum) */
    sfix_init(&f, 1, F32, 4, in4, NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 1), SIZES(1, 1, 4, 3),
              ISTRIDES(1, 1, -2, 2));
    f.size[3] = 0;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL5", "InputWindowSizes",
               "SLICE1: InputWindowSizes[3] is 0; the input window must not be empty (SL5)");
    f.size[3] = 4;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL5", "InputWindowOffsets",
               "SLICE1: the window ends outside InputTensor in dimension 3: InputWindowOffsets[3] + "
               "InputWindowSizes[3] = 1 + 4 = 5 exceeds InputTensor.Sizes[3] (4) (SL5)");
    f.size[3] = 3; /* 1 + 3 = 4: up to the last element */
    CHECK_VALID(&f, FL);
    f.off[2] = 0xFFFFFFFFu;
    f.size[2] = 0xFFFFFFFFu;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL5", "InputWindowOffsets", "= 4294967295 + 4294967295 = 8589934590");
    f.off[2] = 0;
    f.size[2] = 4;

    /* SL6: no zero stride */
    f.stride[1] = 0;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "SL6", "InputWindowStrides",
               "SLICE1: InputWindowStrides[1] is 0; strides may not be 0 (SL6)");
    f.stride[1] = (uint32_t)-7; /* any non-zero stride over a size-1 window */
    CHECK_VALID(&f, FL);

    /* SL7: at most 1 + (size - 1) / |stride| outputs, the absolute value taken (page error 21) */
    tdesc_init(&f.out, F32, DIMS(1, 1, 3, 2));
    CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "SL7", "OutputTensor.Sizes",
               "SLICE1: OutputTensor.Sizes[2] (3) exceeds the elements the window reaches: 1 + "
               "(InputWindowSizes[2] - 1) / |InputWindowStrides[2]| = 1 + 3 / 2 = 2 (SL7)");
    tdesc_init(&f.out, F32, DIMS(1, 1, 1, 2)); /* fewer than the window holds: the first ones */
    CHECK_VALID(&f, FL);
    /* |INT32_MIN| = 2^31 in 64 bits: a window of 2^31 + 1 reaches 2 elements at stride INT32_MIN */
    sfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(0x80000001u), NULL, SIZES(2), NULL, SIZES(0),
              SIZES(0x80000001u), ISTRIDES(INT32_MIN));
    CHECK_VALID(&f, FL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(3));
    CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "SL7", "OutputTensor.Sizes", "= 1 + 2147483648 / 2147483648 = 2 (SL7)");
    sfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(0x80000001u), NULL, SIZES(2), NULL, SIZES(0),
              SIZES(0x80000001u), ISTRIDES(INT32_MAX));
    CHECK_VALID(&f, FL);
}

/* Runs f into out (out_bytes, prefilled with 0xCD) through the oracle and the fast path with
 * 1 and 2 threads: every run must write `want` (want_bytes at the start of out, the rest
 * 0xCD); returns the fast path's kernel name. */
static const char *run_all_ways(const sfix *f, DMLREF_FEATURE_LEVEL fl, const void *in, size_t in_bytes,
                                const void *want, size_t out_bytes) {
    static char kernel[64];
    unsigned char *got = malloc(out_bytes);
    if (!got) abort();
    kernel[0] = 0;
    for (int k = 0; k < 3; ++k) {
        const dmlref_options o = {.flags = k == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = (uint32_t)(k == 0 ? 1 : k)};
        dmlref_operator *op = NULL;
        dmlref_error err;
        memset(got, 0xCD, out_bytes);
        CHECK_STATUS(dmlref_compile(&f->d, fl, &o, &op, &err), err, DMLREF_OK, NULL);
        if (!op) continue;
        if (k == 0) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
        else snprintf(kernel, sizeof kernel, "%s", dmlref_kernel_name(op));
        const dmlref_cbuffer ib[1] = {{in, in_bytes}};
        const dmlref_buffer ob[1] = {{got, out_bytes}};
        CHECK_STATUS(dmlref_execute(op, ib, 1, ob, 1, &err), err, DMLREF_OK, NULL);
        if (memcmp(got, want, out_bytes) != 0)
            test_fail(__FILE__, __LINE__, "%s (%s, %d): output differs", f->d.Type == DMLREF_OPERATOR_SLICE1 ? "SLICE1" : "SLICE",
                      dmlref_kernel_name(op), k);
        dmlref_release(op);
    }
    free(got);
    return kernel;
}

/* The page's examples (P3.4; tests/cases/slice_doc*.json, slice1_doc*.json). */
TEST(slice_doc_examples) {
    const float in[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    sfix f;
    /* SLICE Ex 1: Offsets {0,0,1,2}, Sizes {1,1,3,2}, Strides 1 */
    sfix_init(&f, 0, F32, 4, SIZES(1, 1, 4, 4), NULL, SIZES(1, 1, 3, 2), NULL, SIZES(0, 0, 1, 2), SIZES(1, 1, 3, 2),
              ISTRIDES(1, 1, 1, 1));
    const float w1[6] = {7, 8, 11, 12, 15, 16};
    run_all_ways(&f, DMLREF_FEATURE_LEVEL_1_0, in, sizeof in, w1, sizeof w1);
    /* SLICE Ex 2: Offsets {0,0,1,0}, Sizes {1,1,2,2}, Strides {1,1,2,3} */
    sfix_init(&f, 0, F32, 4, SIZES(1, 1, 4, 4), NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 1, 0), SIZES(1, 1, 2, 2),
              ISTRIDES(1, 1, 2, 3));
    const float w2[4] = {5, 8, 13, 16};
    run_all_ways(&f, DMLREF_FEATURE_LEVEL_1_0, in, sizeof in, w2, sizeof w2);
    /* SLICE1 Ex 1: Offsets {0,0,0,1}, Sizes {1,1,4,3}, Strides {1,1,2,2} */
    sfix_init(&f, 1, F32, 4, SIZES(1, 1, 4, 4), NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 1), SIZES(1, 1, 4, 3),
              ISTRIDES(1, 1, 2, 2));
    const float w3[4] = {2, 4, 10, 12};
    run_all_ways(&f, DMLREF_FEATURE_LEVEL_2_1, in, sizeof in, w3, sizeof w3);
    /* SLICE1 Ex 2: Strides {1,1,-2,2}: start {0,0,3,1} (the page's text writes InputWindowSizes[0], §9 item 22) */
    sfix_init(&f, 1, F32, 4, SIZES(1, 1, 4, 4), NULL, SIZES(1, 1, 2, 2), NULL, SIZES(0, 0, 0, 1), SIZES(1, 1, 4, 3),
              ISTRIDES(1, 1, -2, 2));
    const float w4[4] = {14, 16, 6, 8};
    run_all_ways(&f, DMLREF_FEATURE_LEVEL_2_1, in, sizeof in, w4, sizeof w4);
}

/* Every element size, a gapped permuted input and a gapped output, reversed and strided
 * windows, NaN payloads and -0.0 moved as bits; a broadcast input. */
TEST(slice_data_every_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_INT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    for (int ti = 0; ti < 4; ++ti) {
        const uint32_t es = ti == 0 ? 1 : ti == 1 ? 2 : ti == 2 ? 4 : 8;
        /* input {3,5}, column-major with a gap: element [r][c] at slot r + 4c (strides {1,4}) */
        unsigned char in[20 * 8];
        for (uint32_t i = 0; i < 20; ++i)
            for (uint32_t b = 0; b < es; ++b) in[i * es + b] = (unsigned char)(i * 16 + b);
        if (es >= 2) { /* slot 9 ([1][2]): a signalling NaN with a payload; slot 10 ([2][2]): -0.0 */
            const uint64_t nan = es == 2 ? 0x7d5au : es == 4 ? 0x7fa5a5a5u : UINT64_C(0x7ff5a5a5a5a5a5a5);
            const uint64_t nz = UINT64_C(1) << (8 * es - 1);
            for (uint32_t b = 0; b < es; ++b) { /* little-endian bytes, whatever the host */
                in[9 * es + b] = (unsigned char)(nan >> (8 * b));
                in[10 * es + b] = (unsigned char)(nz >> (8 * b));
            }
        }
        sfix f;
        /* SLICE1: rows 2..0 (stride -1 over the window [0,3)), columns 4, 2 (stride -2 over [1,5)) */
        sfix_init(&f, 1, types[ti], 2, SIZES(3, 5), SIZES(1, 4), SIZES(3, 2), SIZES(3, 1), SIZES(0, 1), SIZES(3, 4),
                  ISTRIDES(-1, -2));
        /* output {3,2} with rows padded to 3 slots: [i][j] at slot 3i + j */
        unsigned char want[9 * 8];
        memset(want, 0xCD, sizeof want);
        const uint32_t rows[3] = {2, 1, 0}, cols[2] = {4, 2};
        for (uint32_t i = 0; i < 3; ++i)
            for (uint32_t j = 0; j < 2; ++j) memcpy(want + (3 * i + j) * es, in + (rows[i] + 4 * cols[j]) * es, es);
        const size_t out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        CHECK(out_bytes <= sizeof want);
        run_all_ways(&f, FL, in, (size_t)f.in.buf.TotalTensorSizeInBytes, want, out_bytes);
        /* SLICE of the same input: rows 0, 2 (stride 2), columns 1..3 */
        sfix_init(&f, 0, types[ti], 2, SIZES(3, 5), SIZES(1, 4), SIZES(2, 3), NULL, SIZES(0, 1), SIZES(2, 3),
                  ISTRIDES(2, 1));
        memset(want, 0xCD, sizeof want);
        for (uint32_t i = 0; i < 2; ++i)
            for (uint32_t j = 0; j < 3; ++j) memcpy(want + (3 * i + j) * es, in + (2 * i + 4 * (1 + j)) * es, es);
        run_all_ways(&f, FL, in, (size_t)f.in.buf.TotalTensorSizeInBytes, want, (size_t)f.out.buf.TotalTensorSizeInBytes);
    }
    /* a broadcast input (stride 0 in dim 0) reversed along dim 1 */
    const uint32_t row[4] = {10, 20, 30, 40};
    sfix f;
    sfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT32, 2, SIZES(3, 4), SIZES(0, 1), SIZES(2, 4), NULL, SIZES(1, 0),
              SIZES(2, 4), ISTRIDES(1, -1));
    const uint32_t want[8] = {40, 30, 20, 10, 40, 30, 20, 10};
    run_all_ways(&f, FL, row, sizeof row, want, sizeof want);
}

/* The benchmark shapes' kernels (compiled only: no buffers) and smaller copies of them run:
 * a window of contiguous rows is a block copy, a reversed last dim the SIMD reverse. */
TEST(slice_benchmark_shapes_kernels) {
    sfix f;
    dmlref_operator *op = NULL;
    dmlref_error err;
    const dmlref_options o = {.flags = 0, .threads = 0};
    sfix_init(&f, 1, F32, 4, SIZES(64, 64, 64, 64), NULL, SIZES(64, 48, 48, 48), NULL, SIZES(0, 8, 8, 8),
              SIZES(64, 48, 48, 48), ISTRIDES(1, 1, 1, 1));
    CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
    /* rows of 48 floats (192 bytes) of a 27 MiB output: streaming stores where SIMD is built in */
    if (op) CHECK(strncmp(dmlref_kernel_name(op), DMLREF_SIMD ? "slice1.small_stream." : "slice1.small.", DMLREF_SIMD ? 20 : 13) == 0);
    dmlref_release(op);
    sfix_init(&f, 1, F32, 2, SIZES(4096, 4096), NULL, SIZES(4096, 4096), NULL, SIZES(0, 0), SIZES(4096, 4096),
              ISTRIDES(1, -1));
    CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "slice1.rev_x4.", 14) == 0);
    dmlref_release(op);

    /* {8,16,16,16} window {8,12,12,12} at {0,2,2,2}; {64, 257} reversed in the last dim */
    float *in = malloc(8 * 16 * 16 * 16 * sizeof *in), *want = malloc(64 * 257 * sizeof *want); /* >= 8 * 12 * 12 * 12 */
    if (!in || !want) abort();
    for (uint32_t i = 0; i < 8 * 16 * 16 * 16; ++i) in[i] = (float)i;
    uint32_t k = 0;
    for (uint32_t a = 0; a < 8; ++a)
        for (uint32_t b = 0; b < 12; ++b)
            for (uint32_t c = 0; c < 12; ++c)
                for (uint32_t d = 0; d < 12; ++d) want[k++] = in[((a * 16 + b + 2) * 16 + c + 2) * 16 + d + 2];
    sfix_init(&f, 1, F32, 4, SIZES(8, 16, 16, 16), NULL, SIZES(8, 12, 12, 12), NULL, SIZES(0, 2, 2, 2),
              SIZES(8, 12, 12, 12), ISTRIDES(1, 1, 1, 1));
    CHECK(strncmp(run_all_ways(&f, FL, in, 8 * 16 * 16 * 16 * 4, want, 8 * 12 * 12 * 12 * 4), "slice1.small.", 13) == 0);
    k = 0;
    for (uint32_t r = 0; r < 64; ++r)
        for (uint32_t c = 0; c < 257; ++c) want[k++] = in[r * 257 + 256 - c];
    sfix_init(&f, 1, F32, 2, SIZES(64, 257), NULL, SIZES(64, 257), NULL, SIZES(0, 0), SIZES(64, 257), ISTRIDES(1, -1));
    CHECK(strncmp(run_all_ways(&f, FL, in, 64 * 257 * 4, want, 64 * 257 * 4), "slice1.rev_x4.", 14) == 0);
    /* reversed in both dims: one reversed run */
    k = 0;
    for (uint32_t r = 0; r < 64; ++r)
        for (uint32_t c = 0; c < 257; ++c) want[k++] = in[(63 - r) * 257 + 256 - c];
    sfix_init(&f, 1, F32, 2, SIZES(64, 257), NULL, SIZES(64, 257), NULL, SIZES(0, 0), SIZES(64, 257), ISTRIDES(-1, -1));
    CHECK(strncmp(run_all_ways(&f, FL, in, 64 * 257 * 4, want, 64 * 257 * 4), "slice1.rev_x4.", 14) == 0);
    free(in);
    free(want);
}

/* ---- the fast path against the oracle on random windows ------------------------------- */

static uint32_t rnd(uint64_t *s, uint32_t n) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*s >> 33) % n);
}

/* A random valid case: 1-6 dims, windows with steps of either sign (SLICE: positive),
 * permuted gapped or broadcast inputs, gapped outputs, every element size. */
static void random_case(uint64_t *s, sfix *f, int v1, int big) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_INT16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64};
    const uint32_t n = 1 + rnd(s, 6);
    uint32_t in[8], out[8], off[8], size[8], in_st[8], out_st[8];
    int32_t stride[8];
    uint64_t elems = 1;
    for (uint32_t d = 0; d < n; ++d) {
        in[d] = 1 + rnd(s, d + 1 == n && big ? 300 : 6);
        if (elems * in[d] > 20000) in[d] = 1;
        elems *= in[d];
        off[d] = rnd(s, in[d]);
        size[d] = 1 + rnd(s, in[d] - off[d]);
        if (rnd(s, 3) == 0) { /* the whole dim */
            off[d] = 0;
            size[d] = in[d];
        }
        const uint32_t k = rnd(s, 10), mag = k < 7 ? 1 : 1 + rnd(s, size[d]);
        stride[d] = v1 && rnd(s, 2) ? -(int32_t)mag : (int32_t)mag;
        out[d] = 1 + (size[d] - 1) / mag;
        if (rnd(s, 4) == 0) out[d] = 1 + rnd(s, out[d]);
        if (!v1 && stride[d] < 0) stride[d] = -stride[d];
        if (!v1) size[d] = out[d]; /* SLICE: Sizes is the output's */
    }
    /* input: packed, permuted with gaps, or broadcast in some dims; output: packed or gapped */
    const uint32_t mode = rnd(s, 4);
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 2)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = rnd(s, d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t acc = 1;
    for (uint32_t i = n; i-- > 0;) {
        in_st[order[i]] = (uint32_t)acc;
        acc = acc * in[order[i]] + (mode >= 2 ? rnd(s, 3) : 0);
    }
    if (mode == 3)
        for (uint32_t d = 0; d < n; ++d)
            if (rnd(s, 3) == 0) in_st[d] = 0;
    acc = 1;
    for (uint32_t d = n; d-- > 0;) {
        out_st[d] = (uint32_t)acc;
        acc = acc * out[d] + (rnd(s, 4) == 0 ? 1 : 0);
    }
    /* drawn one by one (as arguments their order is unspecified: the cases differed between
     * compilers); the order gcc evaluated them in, right to left */
    const int out_gapped = rnd(s, 2) != 0;
    const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(s, 4)];
    sfix_init(f, v1, dt, n, in, mode ? in_st : NULL, out, out_gapped ? out_st : NULL, off, size, stride);
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("slice.")
KERNELS_CHECKED("slice1.")

TEST(slice_fast_path_matches_oracle) {
    const uint64_t base_seed = test_seed(777);
    uint64_t seed = 0;
    int streamed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 1200; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const int v1 = iter % 3 != 0, big = iter % 25 == 0, tiny_grain = iter % 2 == 0;
        sfix f;
        random_case(&seed, &f, v1, big);
        dmlref_error err;
        const size_t in_bytes = (size_t)f.in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in = malloc(in_bytes), *ref = malloc(out_bytes), *got = malloc(out_bytes);
        if (!in || !ref || !got) abort();
        for (size_t i = 0; i < in_bytes; ++i) in[i] = (unsigned char)rnd(&seed, 256);
        memset(ref, 0xCD, out_bytes);
        const dmlref_cbuffer ib[1] = {{in, in_bytes}};
        const dmlref_buffer rb[1] = {{ref, out_bytes}}, gb[1] = {{got, out_bytes}};
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ib, 1, rb, 1, &err), err, DMLREF_OK, NULL);
        for (uint32_t threads = 1; threads <= 2; ++threads) {
            const dmlref_options fast = {.flags = 0, .threads = threads};
            dmlref_operator *op = NULL;
            if (tiny_grain) { /* split even small copies over the threads, stream small rows */
                setenv("DMLREF_PAR_GRAIN", "64", 1);
                setenv("DMLREF_STREAM_MIN", "0", 1);
                env_reload();
            }
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (tiny_grain) {
                unsetenv("DMLREF_PAR_GRAIN");
                unsetenv("DMLREF_STREAM_MIN");
                env_reload();
            }
            if (!op) continue;
            const char *k = dmlref_kernel_name(op);
            kernels_note(&seen, k);
            if (strstr(k, ".small_stream.")) ++streamed;
            memset(got, 0xCD, out_bytes);
            CHECK_STATUS(dmlref_execute(op, ib, 1, gb, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u dims, %u threads): fast path differs from the oracle",
                          iter, k, f.n, threads);
            dmlref_release(op);
        }
        free(in);
        free(ref);
        free(got);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    /* every kernel of src/ops/kernels.def of the two operators, but: SLICE's rev_* (its
     * InputWindowStrides are unsigned: only SLICE1 steps backwards; the names are there
     * because both share one table, SLICE_NAMES of src/ops/slice/slice.c) and
     * slice1.rev_block (reversed runs of 256 B and more, longer than the random
     * windows draw; no test reaches it yet) */
    static const char *const slice[] = {"slice.rev_x1", "slice.rev_x2",    "slice.rev_x4",    "slice.rev_x8",
                                        "slice.rev_b16", "slice.rev_small", "slice.rev_block", NULL};
    static const char *const slice1[] = {"slice1.rev_block", NULL};
    CHECK_KERNELS_REACHED(&seen, "slice.", slice);
    CHECK_KERNELS_REACHED(&seen, "slice1.", slice1);
#if DMLREF_SIMD
    CHECK(streamed >= 20); /* rows of 17 to 255 bytes, streamed (plan_stream needs SIMD) */
#endif
    (void)streamed;
}
