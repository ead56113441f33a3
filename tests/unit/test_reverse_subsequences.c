/*
 * REVERSE_SUBSEQUENCES (P9): the desc's layout and schema, every rule (RS1-RS5,
 * message, rule id, field) at the feature levels where it differs and their
 * order, the page's two examples, lengths above the axis size (clamped, never
 * reported by the checking option), lengths 0 and 1, every element size through
 * strided, gapped and broadcast layouts (NaN payloads and -0.0 as bits), UINT64
 * lengths, the kernels of the two modes on shapes that reach each copy of the
 * fast path, and the fast path against the oracle on random cases with 1 and 2
 * threads, requiring both kernels are reached.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct rfix {
    tdesc in, len, out;
    DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC r;
    DMLREF_OPERATOR_DESC d;
} rfix;

/* Input sizes (strides: NULL = packed), the lengths shaped like the input with 1
 * along axis, the output like the input. */
static void rfix_init(rfix *f, DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE lt, uint32_t n,
                      const uint32_t *sizes, uint32_t axis, const uint32_t *in_st, const uint32_t *len_st,
                      const uint32_t *out_st) {
    uint32_t ls[8];
    for (uint32_t d = 0; d < n; ++d) ls[d] = d == axis ? 1 : sizes[d];
    tdesc_init(&f->in, dt, n, sizes, in_st);
    tdesc_init(&f->len, lt, n, ls, len_st);
    tdesc_init(&f->out, dt, n, sizes, out_st);
    f->r = (DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC){&f->in.desc, &f->len.desc, &f->out.desc, axis};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_REVERSE_SUBSEQUENCES, &f->r};
}

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

TEST(reverse_subsequences_desc_layout) {
    const size_t p = sizeof(void *);
    /* three tensor pointers, UINT Axis (+4 padding on LP64) */
    CHECK_EQ_U64(sizeof(DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC), 4 * p); /* 32 on LP64, 16 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC, SequenceLengthsTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC, OutputTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC, Axis), 3 * p);
    CHECK_EQ_U64(DMLREF_OPERATOR_REVERSE_SUBSEQUENCES, 106);
}

TEST(reverse_subsequences_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_REVERSE_SUBSEQUENCES);
    if (!sc) {
        TEST_SKIP("REVERSE_SUBSEQUENCES not built (make OPS=...)");
        return;
    }
    CHECK(strcmp(sc->name, "REVERSE_SUBSEQUENCES") == 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_REVERSE_SUBSEQUENCES), "REVERSE_SUBSEQUENCES") == 0);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_REVERSE_SUBSEQUENCES_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_2_1);
    CHECK_EQ_U64(sc->flags, 0); /* no in-place form */
    CHECK_EQ_U64(sc->n_slots, 3);
    if (sc->n_slots == 3) {
        CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output && !sc->slots[0].is_index);
        CHECK(strcmp(sc->slots[1].name, "SequenceLengthsTensor") == 0 && !sc->slots[1].is_output &&
              sc->slots[1].is_index);
        CHECK(strcmp(sc->slots[2].name, "OutputTensor") == 0 && sc->slots[2].is_output);
        CHECK_EQ_U64(sc->slots[1].offset, sizeof(void *));
    }
    CHECK_EQ_U64(sc->n_params, 1);
    if (sc->n_params == 1) {
        CHECK(strcmp(sc->params[0].name, "Axis") == 0 && sc->params[0].kind == DMLREF_PARAM_UINT);
        CHECK_EQ_U64(sc->params[0].offset, 3 * sizeof(void *));
    }
}

/* RS1-RS5 at the levels where they differ, with their statuses, ids, fields and order. */
TEST(reverse_subsequences_rules) {
    rfix f;
    dmlref_error err;
    const uint32_t *s4 = SIZES(1, 2, 3, 4);
    rfix_init(&f, F32, U32, 4, s4, 3, NULL, NULL, NULL);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
                 "REVERSE_SUBSEQUENCES");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_2_1);
    CHECK_VALID(&f, FL);

    /* the tensor rules first: a NULL lengths tensor */
    f.r.SequenceLengthsTensor = NULL;
    CHECK_RULE(&f, FL, DMLREF_ERROR_NULL_POINTER, "T1", "SequenceLengthsTensor",
               "REVERSE_SUBSEQUENCES: SequenceLengthsTensor is NULL");
    f.r.SequenceLengthsTensor = &f.len.desc;

    /* RS1: equal DimensionCounts (lengths, then output), then the level's: 4 at 2_1, 4-5 at 3_0, 1-8 from 4_0 */
    tdesc_init(&f.len, U32, DIMS(2, 3, 1));
    CHECK_RULE(&f, FL, DMLREF_ERROR_DIMENSION_COUNT, "RS1", "SequenceLengthsTensor.DimensionCount",
               "REVERSE_SUBSEQUENCES: SequenceLengthsTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    rfix_init(&f, F32, U32, 4, s4, 3, NULL, NULL, NULL);
    tdesc_init(&f.out, F32, DIMS(2, 3, 4));
    CHECK_RULE(&f, FL, DMLREF_ERROR_DIMENSION_COUNT, "RS1", "OutputTensor.DimensionCount",
               "REVERSE_SUBSEQUENCES: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    rfix_init(&f, F32, U32, 5, SIZES(1, 1, 2, 3, 4), 4, NULL, NULL, NULL);
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_1, DMLREF_ERROR_DIMENSION_COUNT, "RS1", "InputTensor.DimensionCount",
               "REVERSE_SUBSEQUENCES: InputTensor.DimensionCount (5) must be in [4, 4] at feature level 2_1");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_3_0);
    rfix_init(&f, F32, U32, 3, SIZES(2, 3, 4), 2, NULL, NULL, NULL);
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_3_1, DMLREF_ERROR_DIMENSION_COUNT, "RS1", "InputTensor.DimensionCount",
               "REVERSE_SUBSEQUENCES: InputTensor.DimensionCount (3) must be in [4, 5] at feature level 3_1");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_4_0);
    rfix_init(&f, F32, U32, 1, SIZES(5), 0, NULL, NULL, NULL);
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_4_0);
    rfix_init(&f, F32, U32, 8, SIZES(1, 2, 1, 2, 1, 2, 1, 3), 5, NULL, NULL, NULL);
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_4_0);

    /* RS2: T8 from 2_1, T11 from 5_0; equal types; equal sizes */
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, U32, 4, s4, 1, NULL, NULL, NULL);
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_2_1);
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, U32, 4, s4, 1, NULL, NULL, NULL);
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_4_1, DMLREF_ERROR_DATA_TYPE, "RS2", "InputTensor.DataType",
               "REVERSE_SUBSEQUENCES: InputTensor.DataType (FLOAT64) is not supported at feature level 4_1");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_5_0);
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT64, U32, 4, s4, 1, NULL, NULL, NULL);
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_4_0, DMLREF_ERROR_DATA_TYPE, "RS2", "InputTensor.DataType", "INT64");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_5_0);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT64, DIMS(1, 2, 3, 4));
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "RS2", "OutputTensor.DataType",
               "REVERSE_SUBSEQUENCES: OutputTensor.DataType (UINT64) must equal InputTensor.DataType (INT64)");
    rfix_init(&f, F32, U32, 4, s4, 3, NULL, NULL, NULL);
    tdesc_init(&f.out, F32, DIMS(1, 2, 4, 3));
    CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "RS2", "OutputTensor.Sizes",
               "REVERSE_SUBSEQUENCES: OutputTensor.Sizes {1,2,4,3} must equal InputTensor.Sizes {1,2,3,4} (they "
               "differ at dimension 2)");

    /* RS4: UINT32 until 5_0, then UINT64 too; never a signed type */
    rfix_init(&f, F32, U64, 4, s4, 3, NULL, NULL, NULL);
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_4_1, DMLREF_ERROR_DATA_TYPE, "RS4", "SequenceLengthsTensor.DataType",
               "REVERSE_SUBSEQUENCES: SequenceLengthsTensor.DataType (UINT64) is not supported at feature level 4_1 "
               "(allowed: UINT32)");
    CHECK_VALID(&f, DMLREF_FEATURE_LEVEL_5_0);
    rfix_init(&f, F32, DMLREF_TENSOR_DATA_TYPE_INT32, 4, s4, 3, NULL, NULL, NULL);
    CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_1, DMLREF_ERROR_DATA_TYPE, "RS4", "SequenceLengthsTensor.DataType",
               "(INT32) is not supported at feature level 2_1 (allowed: UINT32)");
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "RS4", "SequenceLengthsTensor.DataType",
               "(INT32) is not supported at feature level 6_4 (allowed: UINT32 UINT64)");
    rfix_init(&f, F32, DMLREF_TENSOR_DATA_TYPE_INT64, 4, s4, 3, NULL, NULL, NULL);
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "RS4", "SequenceLengthsTensor.DataType", "(INT64) is not supported");
    rfix_init(&f, F32, F32, 4, s4, 3, NULL, NULL, NULL);
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "RS4", "SequenceLengthsTensor.DataType", "(FLOAT32) is not supported");

    /* RS5: Axis < DimensionCount (before RS3, which needs it) */
    rfix_init(&f, F32, U32, 4, s4, 3, NULL, NULL, NULL);
    f.r.Axis = 4;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "RS5", "Axis",
               "REVERSE_SUBSEQUENCES: Axis (4) must be in [0, InputTensor.DimensionCount) = [0, 4) (RS5)");
    f.r.Axis = 0xFFFFFFFFu;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "RS5", "Axis", "Axis (4294967295) must be in");

    /* RS3: one length per sequence: Sizes[Axis] == 1, the others the input's */
    f.r.Axis = 2; /* the lengths {1,2,3,1} were made for Axis 3 */
    CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "RS3", "SequenceLengthsTensor.Sizes",
               "REVERSE_SUBSEQUENCES: SequenceLengthsTensor.Sizes[2] (3) must be 1: dimension 2 is Axis, one length "
               "per sequence (RS3)");
    rfix_init(&f, F32, U32, 4, s4, 2, NULL, NULL, NULL);
    f.len.sizes[3] = 1; /* broadcasting the lengths by size is not allowed (a zero stride is) */
    f.len.buf.TotalTensorSizeInBytes = 16;
    CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "RS3", "SequenceLengthsTensor.Sizes",
               "REVERSE_SUBSEQUENCES: SequenceLengthsTensor.Sizes[3] (1) must equal InputTensor.Sizes[3] (4) in every "
               "dimension but Axis (2) (RS3)");
    rfix_init(&f, F32, U32, 4, s4, 2, NULL, SIZES(0, 0, 0, 0), NULL); /* one length for all: valid */
    CHECK_VALID(&f, FL);

    /* order: RS2's type before RS4, RS4 before RS5, RS5 before RS3 */
    rfix_init(&f, F32, DMLREF_TENSOR_DATA_TYPE_INT32, 4, s4, 3, NULL, NULL, NULL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(1, 2, 3, 4));
    f.r.Axis = 9;
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "RS2", "OutputTensor.DataType", "must equal InputTensor.DataType");
    tdesc_init(&f.out, F32, DIMS(1, 2, 3, 4));
    CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "RS4", "SequenceLengthsTensor.DataType", "INT32");
    rfix_init(&f, F32, U32, 4, s4, 1, NULL, NULL, NULL);
    f.r.Axis = 7;
    CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "RS5", "Axis", "Axis (7)");

    /* the output may not overlap itself; the input may broadcast */
    rfix_init(&f, F32, U32, 4, s4, 3, SIZES(0, 0, 0, 1), NULL, SIZES(0, 0, 4, 1));
    CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor");
}

/* Runs f with the input and lengths buffers into an output of out_bytes prefilled
 * with 0xCD, through the oracle and the fast path with 1 and 2 threads (and the
 * checking option on the fast path): every run must write `want`.  Returns the fast
 * kernel's name. */
static const char *run_all_ways(const rfix *f, DMLREF_FEATURE_LEVEL fl, const void *in, size_t in_bytes,
                                const void *len, size_t len_bytes, const void *want, size_t out_bytes) {
    static char kernel[64];
    unsigned char *got = malloc(out_bytes);
    if (!got) abort();
    kernel[0] = 0;
    for (int k = 0; k < 4; ++k) {
        const uint32_t flags = k == 0 ? DMLREF_OPTION_FORCE_ORACLE : k == 3 ? DMLREF_OPTION_CHECK_INDICES : 0;
        const dmlref_options o = {.flags = flags, .threads = (uint32_t)(k == 0 || k == 3 ? 1 : k)};
        dmlref_operator *op = NULL;
        dmlref_error err;
        memset(got, 0xCD, out_bytes);
        CHECK_STATUS(dmlref_compile(&f->d, fl, &o, &op, &err), err, DMLREF_OK, NULL);
        if (!op) continue;
        if (k == 0) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
        else snprintf(kernel, sizeof kernel, "%s", dmlref_kernel_name(op));
        const dmlref_cbuffer ib[2] = {{in, in_bytes}, {len, len_bytes}};
        const dmlref_buffer ob[1] = {{got, out_bytes}};
        CHECK_STATUS(dmlref_execute(op, ib, 2, ob, 1, &err), err, DMLREF_OK, NULL);
        if (memcmp(got, want, out_bytes) != 0)
            test_fail(__FILE__, __LINE__, "%s (run %d): output differs", dmlref_kernel_name(op), k);
        dmlref_release(op);
    }
    free(got);
    return kernel;
}

/* The page's examples (P9; tests/cases/reverse_subsequences_doc1.json, _doc2.json). */
TEST(reverse_subsequences_doc_examples) {
    const float in[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    rfix f;
    /* 1: lengths {1,1,3,1} = [2,4,3] along Axis 3 */
    rfix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), 3, NULL, NULL, NULL);
    const uint32_t l1[3] = {2, 4, 3};
    const float w1[12] = {2, 1, 3, 4, 8, 7, 6, 5, 11, 10, 9, 12};
    CHECK(strncmp(run_all_ways(&f, DMLREF_FEATURE_LEVEL_2_1, in, sizeof in, l1, sizeof l1, w1, sizeof w1),
                  "reverse_subsequences.rows.", 26) == 0);
    /* 2: lengths {1,1,1,4} = [2,3,1,0] along Axis 2: lengths 1 and 0 change nothing */
    rfix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), 2, NULL, NULL, NULL);
    const uint32_t l2[4] = {2, 3, 1, 0};
    const float w2[12] = {5, 10, 3, 4, 1, 6, 7, 8, 9, 2, 11, 12};
    CHECK(strncmp(run_all_ways(&f, DMLREF_FEATURE_LEVEL_2_1, in, sizeof in, l2, sizeof l2, w2, sizeof w2),
                  "reverse_subsequences.blocks.", 28) == 0);
}

/* A length above the axis size is clamped to it (documented; the checking option,
 * one of run_all_ways' runs, reports nothing): UINT32 n + 1 and 2^32 - 1, UINT64
 * 2^64 - 1 (what ONNX's -1 reads as) and 2^32 + 1 (not wrapped to 1).  0 and 1 change
 * nothing, n reverses the whole sequence. */
TEST(reverse_subsequences_lengths_clamped_and_nops) {
    const uint16_t in[6 * 5] = {0,  1,  2,  3,  4,  10, 11, 12, 13, 14, 20, 21, 22, 23, 24,
                                30, 31, 32, 33, 34, 40, 41, 42, 43, 44, 50, 51, 52, 53, 54};
    const uint16_t want[6 * 5] = {4,  3,  2,  1,  0,  14, 13, 12, 11, 10, 20, 21, 22, 23, 24,
                                  30, 31, 32, 33, 34, 44, 43, 42, 41, 40, 51, 50, 52, 53, 54};
    rfix f;
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT16, U32, 2, SIZES(6, 5), 1, NULL, NULL, NULL);
    const uint32_t l32[6] = {6, 0xFFFFFFFFu, 0, 1, 5, 2};
    run_all_ways(&f, FL, in, sizeof in, l32, sizeof l32, want, sizeof want);
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT16, U64, 2, SIZES(6, 5), 1, NULL, NULL, NULL);
    const uint64_t l64[6] = {UINT64_MAX, (UINT64_C(1) << 32) + 5, 0, 1, UINT64_C(1) << 63, 2};
    run_all_ways(&f, FL, in, sizeof in, l64, sizeof l64, want, sizeof want);
    /* 2^32 + 1 is not 1: the whole row reversed */
    const uint64_t l64b[6] = {(UINT64_C(1) << 32) + 1, 5, 0, 0, 5, 2};
    run_all_ways(&f, FL, in, sizeof in, l64b, sizeof l64b, want, sizeof want);
    /* the same along the outer axis (columns): lengths {1,5} */
    uint16_t t_in[5 * 6], t_want[5 * 6];
    for (uint32_t i = 0; i < 6; ++i)
        for (uint32_t j = 0; j < 5; ++j) {
            t_in[j * 6 + i] = in[i * 5 + j];
            t_want[j * 6 + i] = want[i * 5 + j];
        }
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT16, U64, 2, SIZES(5, 6), 0, NULL, NULL, NULL);
    run_all_ways(&f, FL, t_in, sizeof t_in, l64, sizeof l64, t_want, sizeof t_want);
}

/* Every element size, an input read column-major with gaps, a gapped output, gapped
 * lengths; NaN payloads and -0.0 moved as bits; broadcast input and lengths. */
TEST(reverse_subsequences_data_every_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_INT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    for (int ti = 0; ti < 4; ++ti) {
        const uint32_t es = ti == 0 ? 1 : ti == 1 ? 2 : ti == 2 ? 4 : 8;
        /* input {3,5}: element [r][c] at slot r + 4c (strides {1,4}, a gap after each column) */
        unsigned char in[20 * 8];
        for (uint32_t i = 0; i < 20; ++i)
            for (uint32_t b = 0; b < es; ++b) in[i * es + b] = (unsigned char)(i * 16 + b);
        if (es >= 2) { /* [1][2] (slot 9): a signalling NaN with a payload; [2][2] (slot 10): -0.0 */
            const uint64_t nan = es == 2 ? 0x7d5au : es == 4 ? 0x7fa5a5a5u : UINT64_C(0x7ff5a5a5a5a5a5a5);
            const uint64_t nz = UINT64_C(1) << (8 * es - 1);
            for (uint32_t b = 0; b < es; ++b) {
                in[9 * es + b] = (unsigned char)(nan >> (8 * b));
                in[10 * es + b] = (unsigned char)(nz >> (8 * b));
            }
        }
        for (uint32_t axis = 0; axis < 2; ++axis) {
            /* lengths: Axis 1 -> {3,1} at slots 0, 2, 4 (stride 2); Axis 0 -> {1,5} at slots 0, 2, ... */
            const uint32_t lens[9] = {axis ? 4u : 2u, 77, 3, 77, axis ? 9u : 1u, 77, 0, 77, 2};
            rfix f;
            rfix_init(&f, types[ti], U32, 2, SIZES(3, 5), axis, SIZES(1, 4), axis ? SIZES(2, 1) : SIZES(1, 2),
                      SIZES(6, 1)); /* output rows padded to 6 slots */
            unsigned char want[18 * 8];
            memset(want, 0xCD, sizeof want);
            for (uint32_t r = 0; r < 3; ++r)
                for (uint32_t c = 0; c < 5; ++c) {
                    const uint32_t seq = axis ? r : c, k = axis ? c : r, n = axis ? 5 : 3;
                    uint32_t L = lens[2 * seq];
                    if (L > n) L = n;
                    const uint32_t src = k < L ? L - 1 - k : k;
                    const uint32_t sr = axis ? r : src, sc = axis ? src : c;
                    memcpy(want + (6 * r + c) * es, in + (sr + 4 * sc) * es, es);
                }
            const size_t out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
            CHECK(out_bytes <= sizeof want);
            run_all_ways(&f, FL, in, (size_t)f.in.buf.TotalTensorSizeInBytes, lens,
                         (size_t)f.len.buf.TotalTensorSizeInBytes, want, out_bytes);
        }
    }
    /* a broadcast input (rows all [10,20,30,40]) and one broadcast length (3) */
    const uint32_t row[4] = {10, 20, 30, 40}, three = 3;
    rfix f;
    rfix_init(&f, U32, U32, 2, SIZES(2, 4), 1, SIZES(0, 1), SIZES(0, 0), NULL);
    const uint32_t want[8] = {30, 20, 10, 40, 30, 20, 10, 40};
    run_all_ways(&f, FL, row, sizeof row, &three, sizeof three, want, sizeof want);
    /* the input broadcast along Axis: every element the same, whatever the length */
    rfix_init(&f, U32, U32, 2, SIZES(2, 4), 1, SIZES(1, 0), NULL, NULL);
    const uint32_t col[2] = {5, 6}, lens2[2] = {4, 2};
    const uint32_t want2[8] = {5, 5, 5, 5, 6, 6, 6, 6};
    run_all_ways(&f, FL, col, sizeof col, lens2, sizeof lens2, want2, sizeof want2);
}

/* Shapes that reach each copy of the fast path, against an independent reference:
 * rows reversed by copy plans (rows of 300 floats: the SIMD reverse), short rows
 * copied element by element, wide inner blocks of one length (block copies in
 * reversed row order), narrow runs of distinct lengths (the batch), a mix of
 * both, a single sequence, an axis of size 1. */
static void reference(const uint32_t *in, uint32_t outer, uint32_t n, uint32_t inner, const uint32_t *len,
                      uint32_t *out) {
    for (uint32_t o = 0; o < outer; ++o)
        for (uint32_t k = 0; k < n; ++k)
            for (uint32_t i = 0; i < inner; ++i) {
                uint32_t L = len[o * inner + i];
                if (L > n) L = n;
                const uint32_t src = k < L ? L - 1 - k : k;
                out[(o * n + k) * inner + i] = in[(o * n + src) * inner + i];
            }
}

TEST(reverse_subsequences_paths) {
    static const struct {
        uint32_t outer, n, inner;
        int pattern; /* lengths: 0 distinct, 1 all n/2 + 1, 2 blocks of 80 equal then distinct */
        const char *kernel;
    } cases[] = {
        {40, 300, 1, 0, "reverse_subsequences.rows."},   {500, 7, 1, 0, "reverse_subsequences.rows."},
        {40, 300, 1, 1, "reverse_subsequences.rows."},   {3, 9, 200, 1, "reverse_subsequences.blocks."},
        {3, 30, 200, 0, "reverse_subsequences.blocks."}, {2, 20, 300, 2, "reverse_subsequences.blocks."},
        {1, 1000, 1, 0, "reverse_subsequences.rows."},   {4, 1, 50, 0, "reverse_subsequences.blocks."},
        {300, 2, 1, 0, "reverse_subsequences.rows."},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const uint32_t outer = cases[c].outer, n = cases[c].n, inner = cases[c].inner;
        const uint32_t total = outer * n * inner, seqs = outer * inner;
        uint32_t *in = malloc(total * 4u), *want = malloc(total * 4u), *len = malloc(seqs * 4u);
        if (!in || !want || !len) abort();
        for (uint32_t i = 0; i < total; ++i) in[i] = i * 2654435761u;
        for (uint32_t s = 0; s < seqs; ++s) {
            const uint32_t distinct = (s * 7919u) % (n + 2);
            len[s] = cases[c].pattern == 1 ? n / 2 + 1 : cases[c].pattern == 2 && s % inner < 80 ? n - 3 : distinct;
        }
        reference(in, outer, n, inner, len, want);
        rfix f;
        /* {outer, n, inner} with Axis 1, or {outer, n} with Axis 1 when inner is 1 */
        if (inner == 1) rfix_init(&f, U32, U32, 2, SIZES(outer, n), 1, NULL, NULL, NULL);
        else rfix_init(&f, U32, U32, 3, SIZES(outer, n, inner), 1, NULL, NULL, NULL);
        const char *k = run_all_ways(&f, FL, in, total * 4u, len, seqs * 4u, want, total * 4u);
        if (strncmp(k, cases[c].kernel, strlen(cases[c].kernel)) != 0)
            test_fail(__FILE__, __LINE__, "case %zu: kernel %s, want %s*", c, k, cases[c].kernel);
        free(in);
        free(want);
        free(len);
    }
}

/* ---- the fast path against the oracle on random cases ------------------------------- */

static uint32_t rnd(uint64_t *s, uint32_t n) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*s >> 33) % n);
}

/* strides for sizes: packed (NULL), dims permuted with gaps, or (inputs) some zero */
static const uint32_t *random_strides(uint64_t *s, uint32_t n, const uint32_t *sizes, uint32_t *st, int input) {
    const uint32_t mode = rnd(s, input ? 4 : 3);
    if (mode == 0) return NULL;
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
        st[order[i]] = (uint32_t)acc;
        acc = acc * sizes[order[i]] + (rnd(s, 3) == 0 ? rnd(s, 3) : 0);
    }
    if (mode == 3)
        for (uint32_t d = 0; d < n; ++d)
            if (rnd(s, 3) == 0) st[d] = 0;
    return st;
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("reverse_subsequences.")

TEST(reverse_subsequences_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[5] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_INT16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_FLOAT16};
    const uint64_t base_seed = test_seed(20240923);
    uint64_t seed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 1500; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + rnd(&seed, 6), axis = rnd(&seed, n);
        uint32_t sizes[8], st_in[8], st_len[8], st_out[8];
        uint64_t elems = 1;
        const int big = iter % 10 == 0;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + rnd(&seed, big && (d == axis || d + 1 == n) ? 300 : 5);
            if (elems * sizes[d] > 30000) sizes[d] = 1;
            elems *= sizes[d];
        }
        const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(&seed, 5)], lt = rnd(&seed, 2) ? U32 : U64;
        rfix f;
        uint32_t ls[8];
        for (uint32_t d = 0; d < n; ++d) ls[d] = d == axis ? 1 : sizes[d];
        rfix_init(&f, dt, lt, n, sizes, axis, random_strides(&seed, n, sizes, st_in, 1),
                  random_strides(&seed, n, ls, st_len, 1), random_strides(&seed, n, sizes, st_out, 0));
        const size_t in_bytes = (size_t)f.in.buf.TotalTensorSizeInBytes, len_bytes = (size_t)f.len.buf.TotalTensorSizeInBytes,
                     out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in = malloc(in_bytes), *len = malloc(len_bytes), *ref = malloc(out_bytes), *got = malloc(out_bytes);
        if (!in || !len || !ref || !got) abort();
        for (size_t i = 0; i < in_bytes; ++i) in[i] = (unsigned char)rnd(&seed, 256);
        /* lengths: runs of repeats, from {0, 1, 2, n - 1, n, above n, a random one} */
        const uint32_t es = lt == U32 ? 4 : 8, A = sizes[axis];
        uint64_t v = 0;
        for (size_t i = 0; i + es <= len_bytes; i += es) {
            if (i == 0 || rnd(&seed, 3) == 0) {
                const uint32_t k = rnd(&seed, 7);
                v = k == 0 ? 0 : k == 1 ? 1 : k == 2 ? 2 : k == 3 ? A - 1 : k == 4 ? A : k == 5 ? (uint64_t)A + 1 + rnd(&seed, 1000) : rnd(&seed, A + 1);
                if (k == 5 && rnd(&seed, 4) == 0) v = es == 8 ? UINT64_MAX - rnd(&seed, 2) : 0xFFFFFFFFu;
            }
            if (es == 4) {
                const uint32_t v32 = (uint32_t)v;
                memcpy(len + i, &v32, 4);
            } else {
                memcpy(len + i, &v, 8);
            }
        }
        memset(ref, 0xCD, out_bytes);
        const dmlref_cbuffer ib[2] = {{in, in_bytes}, {len, len_bytes}};
        const dmlref_buffer rb[1] = {{ref, out_bytes}}, gb[1] = {{got, out_bytes}};
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ib, 2, rb, 1, &err), err, DMLREF_OK, NULL);
        for (uint32_t threads = 1; threads <= 2; ++threads) {
            const dmlref_options fast = {.flags = 0, .threads = threads};
            dmlref_operator *op = NULL;
            const int tiny_grain = iter % 2 == 0;
            if (tiny_grain) { /* split even small cases over the threads */
                setenv("DMLREF_PAR_GRAIN", "64", 1);
                env_reload();
            }
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (tiny_grain) {
                unsetenv("DMLREF_PAR_GRAIN");
                env_reload();
            }
            if (!op) continue;
            const char *k = dmlref_kernel_name(op);
            kernels_note(&seen, k);
            memset(got, 0xCD, out_bytes);
            CHECK_STATUS(dmlref_execute(op, ib, 2, gb, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u dims, axis %u, %u threads): fast path differs from the oracle",
                          iter, k, n, axis, threads);
            dmlref_release(op);
        }
        free(in);
        free(len);
        free(ref);
        free(got);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    CHECK_KERNELS_REACHED(&seen, "reverse_subsequences.", NULL); /* rows and blocks: every kernel of the list */
}
