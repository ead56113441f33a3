/*
 * (Over 600 lines on purpose: one family's tests over its shared fixture and
 * runner: rules, documented examples, data of every layout, random cases against
 * the oracle and every kernel reached; split, each part would re-declare them.)
 *
 * GATHER_ND and GATHER_ND1 (P1): the descs' layout, the schemas, every rule
 * GN1-GN8 (message, status, rule id and field) at the feature levels where
 * they differ, the checking option (N1), every example of P1.4, data of every
 * element size through strided, broadcast and gapped layouts, NaN payloads and
 * -0.0, the clamp of each component, and the fast paths against the oracle on
 * random cases with 1 and 2 threads, each fast kernel reached.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "simd/simd.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define FL DMLREF_FEATURE_LEVEL_6_4

/* One GATHER_ND or GATHER_ND1 case (nd1 picks the desc). */
typedef struct nfix {
    tdesc in, ix, out;
    DMLREF_GATHER_ND_OPERATOR_DESC nd;
    DMLREF_GATHER_ND1_OPERATOR_DESC nd1;
    DMLREF_OPERATOR_DESC d;
} nfix;

/* Points the desc at the tensors (initialized in place before or after). */
static void nfix_desc(nfix *f, int nd1, uint32_t r, uint32_t q, uint32_t b) {
    f->nd = (DMLREF_GATHER_ND_OPERATOR_DESC){&f->in.desc, &f->ix.desc, &f->out.desc, r, q};
    f->nd1 = (DMLREF_GATHER_ND1_OPERATOR_DESC){&f->in.desc, &f->ix.desc, &f->out.desc, r, q, b};
    f->d = nd1 ? (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_GATHER_ND1, &f->nd1}
               : (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_GATHER_ND, &f->nd};
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule, const char *field) {
    check_status_at(file, line, st, err, want, needle);
    if (strcmp(err->rule, rule) != 0 || strcmp(err->field, field) != 0)
        test_fail(file, line, "rule \"%s\" field \"%s\", want \"%s\" \"%s\" (%s)", err->rule, err->field, rule, field,
                  err->message);
}
#define CHECK_RULE(st, err, want, needle, rule, field) \
    check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule), (field))

static dmlref_status validate(const nfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

/* Runs f with the given buffers (output prefilled by the caller). */
static dmlref_status run(const nfix *f, DMLREF_FEATURE_LEVEL fl, const dmlref_options *o, const void *in,
                         const void *ix, void *out, dmlref_error *err) {
    const dmlref_cbuffer ins[2] = {{in, (size_t)f->in.buf.TotalTensorSizeInBytes},
                                   {ix, (size_t)f->ix.buf.TotalTensorSizeInBytes}};
    dmlref_buffer outs[1] = {{out, (size_t)f->out.buf.TotalTensorSizeInBytes}};
    return dmlref_run(&f->d, fl, o, ins, 2, outs, 1, err);
}

/* The option sets every data test runs under: the oracle, the fast path with 1, 2 and the default threads. */
static const dmlref_options modes[4] = {{.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1}, {.flags = 0, .threads = 1}, {.flags = 0, .threads = 2}, {.flags = 0, .threads = 0}};

TEST(gather_nd_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_GATHER_ND_OPERATOR_DESC), 3 * p + 8); /* 32 on LP64, 20 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND_OPERATOR_DESC, IndicesTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND_OPERATOR_DESC, OutputTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND_OPERATOR_DESC, InputDimensionCount), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND_OPERATOR_DESC, IndicesDimensionCount), 3 * p + 4);
    /* 40 on LP64 (36 rounded to the pointers' alignment), 24 on ILP32 */
    CHECK_EQ_U64(sizeof(DMLREF_GATHER_ND1_OPERATOR_DESC), p == 8 ? 40 : 24);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND1_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND1_OPERATOR_DESC, IndicesTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND1_OPERATOR_DESC, OutputTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND1_OPERATOR_DESC, InputDimensionCount), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND1_OPERATOR_DESC, IndicesDimensionCount), 3 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount), 3 * p + 8);
    CHECK_EQ_U64(DMLREF_OPERATOR_GATHER_ND, 108);
    CHECK_EQ_U64(DMLREF_OPERATOR_GATHER_ND1, 140);
}

TEST(gather_nd_schemas) {
    static const char *const slot_names[3] = {"InputTensor", "IndicesTensor", "OutputTensor"};
    static const char *const param_names[3] = {"InputDimensionCount", "IndicesDimensionCount", "BatchDimensionCount"};
    for (int v = 0; v < 2; ++v) {
        const dmlref_schema *sc = dmlref_operator_schema(v ? DMLREF_OPERATOR_GATHER_ND1 : DMLREF_OPERATOR_GATHER_ND);
        CHECK(sc != NULL);
        if (!sc) continue;
        CHECK(strcmp(sc->name, v ? "GATHER_ND1" : "GATHER_ND") == 0);
        CHECK_EQ_U64(sc->desc_size, v ? sizeof(DMLREF_GATHER_ND1_OPERATOR_DESC) : sizeof(DMLREF_GATHER_ND_OPERATOR_DESC));
        CHECK_EQ_U64(sc->introduced, v ? DMLREF_FEATURE_LEVEL_3_0 : DMLREF_FEATURE_LEVEL_2_1);
        CHECK_EQ_U64(sc->flags, 0); /* no in-place */
        CHECK_EQ_U64(sc->n_slots, 3);
        for (uint32_t i = 0; i < sc->n_slots && i < 3; ++i) {
            CHECK(strcmp(sc->slots[i].name, slot_names[i]) == 0);
            CHECK_EQ_U64(sc->slots[i].offset, i * sizeof(void *));
            CHECK_EQ_U64(sc->slots[i].is_output, i == 2);
            CHECK_EQ_U64(sc->slots[i].is_index, i == 1);
        }
        CHECK_EQ_U64(sc->n_params, v ? 3 : 2);
        for (uint32_t i = 0; i < sc->n_params && i < 3; ++i) {
            CHECK(strcmp(sc->params[i].name, param_names[i]) == 0);
            CHECK(sc->params[i].kind == DMLREF_PARAM_UINT);
            CHECK_EQ_U64(sc->params[i].offset, 3 * sizeof(void *) + 4 * i);
        }
    }
}

/* GN1, GN2 and the levels: 4-D T8/UINT32 at 2_1, 1-8 D T8/IDX4 at 3_0, T11 from 4_1; GATHER_ND1 from 3_0. */
TEST(gather_nd_rules_feature_levels) {
    nfix f;
    dmlref_error err;
    tdesc_init(&f.in, F32, DIMS(2, 2));
    tdesc_init(&f.ix, U32, DIMS(2, 1));
    tdesc_init(&f.out, F32, DIMS(2, 2));
    nfix_desc(&f, 0, 2, 2, 0);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "GATHER_ND: not available at feature level 2_0 (introduced in 2_1)", "", "");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "GATHER_ND: InputTensor.DimensionCount (2) must be in [4, 4] at feature level 2_1", "GN1",
               "InputTensor.DimensionCount");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL, "", "");
    nfix_desc(&f, 1, 2, 2, 0);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "GATHER_ND1: not available at feature level 2_1 (introduced in 3_0)", "", "");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL, "", "");

    /* 4-D at 2_1: UINT32 indices only, T8 data */
    tdesc_init(&f.in, DMLREF_TENSOR_DATA_TYPE_INT8, DIMS(1, 1, 2, 2));
    tdesc_init(&f.ix, I32, DIMS(1, 1, 2, 1));
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT8, DIMS(1, 1, 2, 2));
    nfix_desc(&f, 0, 2, 2, 0);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DATA_TYPE,
               "GATHER_ND: IndicesTensor.DataType (INT32) is not supported at feature level 2_1 (allowed: UINT32)",
               "GN2", "IndicesTensor.DataType");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL, "", "");
    tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 1));
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL, "", "");
    /* 64-bit data from 4_1 */
    for (int v = 0; v < 2; ++v) {
        tdesc_init(&f.in, DMLREF_TENSOR_DATA_TYPE_FLOAT64, DIMS(2, 2));
        tdesc_init(&f.ix, I64, DIMS(2, 1));
        tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_FLOAT64, DIMS(2, 2));
        nfix_desc(&f, v, 2, 2, 0);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                   v ? "GATHER_ND1: InputTensor.DataType (FLOAT64) is not supported at feature level 4_0"
                     : "GATHER_ND: InputTensor.DataType (FLOAT64) is not supported at feature level 4_0",
                   "GN2", "InputTensor.DataType");
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL, "", "");
    }
    /* GN1: one DimensionCount; GN2: Output's DataType is Input's; 8 dims at most */
    tdesc_init(&f.in, F32, DIMS(2, 2));
    tdesc_init(&f.ix, U32, DIMS(1, 2, 1));
    tdesc_init(&f.out, F32, DIMS(2, 2));
    nfix_desc(&f, 0, 2, 2, 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "GATHER_ND: IndicesTensor.DimensionCount (3) must equal InputTensor.DimensionCount (2)", "GN1",
               "IndicesTensor.DimensionCount");
    tdesc_init(&f.ix, U32, DIMS(2, 1));
    tdesc_init(&f.out, F32, DIMS(1, 2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "GATHER_ND: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (2)", "GN1",
               "OutputTensor.DimensionCount");
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT32, DIMS(2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "GATHER_ND: OutputTensor.DataType (UINT32) must equal InputTensor.DataType (FLOAT32)", "GN2",
               "OutputTensor.DataType");
    tdesc_init(&f.out, F32, DIMS(2, 2));
    tdesc_init(&f.ix, F32, DIMS(2, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "GATHER_ND: IndicesTensor.DataType (FLOAT32) is not supported at feature level 6_4", "GN2",
               "IndicesTensor.DataType");
    /* the tensor rules come first (T10: a size of 0) */
    tdesc_init(&f.ix, U32, DIMS(2, 0));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "IndicesTensor.Sizes[1] is 0", "T10",
               "IndicesTensor.Sizes");
}

/* GN3-GN8 for both operators. */
TEST(gather_nd_rules_shapes) {
    nfix f;
    dmlref_error err;
    /* a valid GATHER_ND1 base: Input {1,3,4,5} R 3, Indices {1,3,2,2} Q 3, B 1 -> T 2, M 2, Output {1,1,3,2} */
    tdesc_init(&f.in, F32, DIMS(1, 3, 4, 5));
    tdesc_init(&f.ix, U32, DIMS(1, 3, 2, 2));
    tdesc_init(&f.out, F32, DIMS(1, 1, 3, 2));
    nfix_desc(&f, 1, 3, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, NULL, "", "");

    /* GN3: 1 <= R <= N, 1 <= Q <= N (inclusive) */
    nfix_desc(&f, 1, 0, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "GATHER_ND1: InputDimensionCount (0) must be in [1, InputTensor.DimensionCount] = [1, 4]", "GN3",
               "InputDimensionCount");
    nfix_desc(&f, 1, 5, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "InputDimensionCount (5) must be in", "GN3",
               "InputDimensionCount");
    nfix_desc(&f, 1, 0xFFFFFFFFu, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "InputDimensionCount (4294967295) must be in",
               "GN3", "InputDimensionCount");
    nfix_desc(&f, 1, 3, 0, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "GATHER_ND1: IndicesDimensionCount (0) must be in [1, IndicesTensor.DimensionCount] = [1, 4]", "GN3",
               "IndicesDimensionCount");
    nfix_desc(&f, 1, 3, 5, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "IndicesDimensionCount (5) must be in", "GN3",
               "IndicesDimensionCount");

    /* GN4: the leading N-R input and N-Q indices dims are 1 */
    nfix_desc(&f, 1, 2, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND1: InputTensor.Sizes[1] (3) must be 1: only the trailing InputDimensionCount (2) dimensions "
               "are meaningful",
               "GN4", "InputTensor.Sizes");
    nfix_desc(&f, 1, 3, 2, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND1: IndicesTensor.Sizes[1] (3) must be 1: only the trailing IndicesDimensionCount (2) "
               "dimensions are meaningful",
               "GN4", "IndicesTensor.Sizes");

    /* GN5: B < R and B < Q */
    tdesc_init(&f.ix, U32, DIMS(1, 1, 3, 2));
    nfix_desc(&f, 1, 3, 2, 2);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "GATHER_ND1: BatchDimensionCount (2) must be < InputDimensionCount (3) and < IndicesDimensionCount (2)",
               "GN5", "BatchDimensionCount");
    tdesc_init(&f.ix, U32, DIMS(1, 3, 4, 1));
    nfix_desc(&f, 1, 3, 4, 3);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "GATHER_ND1: BatchDimensionCount (3) must be < InputDimensionCount (3) and < IndicesDimensionCount (4)",
               "GN5", "BatchDimensionCount");
    nfix_desc(&f, 1, 3, 4, 0xFFFFFFFFu);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "BatchDimensionCount (4294967295) must be <",
               "GN5", "BatchDimensionCount");

    /* GN6: 1 <= T <= R - B */
    tdesc_init(&f.ix, U32, DIMS(1, 3, 2, 3));
    nfix_desc(&f, 1, 3, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND1: IndicesTensor.Sizes[3] (3), the length of an index tuple, must be in "
               "[1, InputDimensionCount - BatchDimensionCount] = [1, 2]",
               "GN6", "IndicesTensor.Sizes");
    tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 4));
    nfix_desc(&f, 0, 3, 2, 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND: IndicesTensor.Sizes[3] (4), the length of an index tuple, must be in "
               "[1, InputDimensionCount] = [1, 3]",
               "GN6", "IndicesTensor.Sizes");

    /* GN7: the batch sizes agree */
    tdesc_init(&f.ix, U32, DIMS(1, 2, 2, 2));
    nfix_desc(&f, 1, 3, 3, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND1: IndicesTensor.Sizes[1] (2) must equal InputTensor.Sizes[1] (3): batch dimension 0 of "
               "BatchDimensionCount (1)",
               "GN7", "IndicesTensor.Sizes");

    /* GN8: M <= N, then the shape */
    tdesc_init(&f.in, F32, DIMS(2, 3));
    tdesc_init(&f.ix, U32, DIMS(4, 1));
    tdesc_init(&f.out, F32, DIMS(4, 3));
    nfix_desc(&f, 0, 2, 2, 0); /* M = 1 + (2 - 1) = 2 */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, NULL, "", "");
    nfix_desc(&f, 1, 2, 2, 1); /* GN7 again: Indices {4,1} against Input {2,3} with B 1 */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "IndicesTensor.Sizes[0] (4) must equal InputTensor.Sizes[0] (2)",
               "GN7", "IndicesTensor.Sizes");
    tdesc_init(&f.in, F32, DIMS(1, 5, 3));
    tdesc_init(&f.ix, U32, DIMS(2, 2, 1));
    tdesc_init(&f.out, F32, DIMS(2, 2, 3));
    nfix_desc(&f, 0, 2, 3, 0); /* M = 2 + (2 - 1) = 3 */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, NULL, "", "");
    nfix_desc(&f, 0, 3, 3, 0); /* R 3 needs Input.Sizes[0] 1: fine; M = 2 + (3 - 1) = 4 > 3 */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND: OutputTensor would need 4 dimensions ((IndicesDimensionCount - 1) + "
               "(InputDimensionCount - IndicesTensor.Sizes[2])), more than DimensionCount (3)",
               "GN8", "OutputTensor.DimensionCount");
    nfix_desc(&f, 1, 3, 3, 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND1: OutputTensor would need 4 dimensions ((IndicesDimensionCount - 1) + "
               "(InputDimensionCount - BatchDimensionCount - IndicesTensor.Sizes[2])), more than DimensionCount (3)",
               "GN8", "OutputTensor.DimensionCount");
    tdesc_init(&f.out, F32, DIMS(2, 3, 2));
    nfix_desc(&f, 0, 2, 3, 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "GATHER_ND: OutputTensor.Sizes {2,3,2} must equal the gathered shape {2,2,3} (they differ at dimension 1)",
               "GN8", "OutputTensor.Sizes");
    /* the page's formula (operators.md 9 item 14) would give {1,1,2,5,6,7} for its own example: invalid */
    tdesc_init(&f.in, F32, DIMS(3, 4, 5, 6, 7));
    tdesc_init(&f.ix, U32, DIMS(1, 1, 1, 2, 3));
    tdesc_init(&f.out, F32, DIMS(1, 2, 5, 6, 7));
    nfix_desc(&f, 0, 5, 3, 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "must equal the gathered shape {1,1,2,6,7}", "GN8",
               "OutputTensor.Sizes");
    tdesc_init(&f.out, F32, DIMS(1, 1, 2, 6, 7));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, NULL, "", "");

    /* P1.4 example 5: Indices {1,3,4,5,6,7}, Q 5, B 2: tuples of 7 components fit no 6-D input (GN6) */
    tdesc_init(&f.in, F32, DIMS(1, 3, 4, 5, 6, 7));
    tdesc_init(&f.ix, U32, DIMS(1, 3, 4, 5, 6, 7));
    tdesc_init(&f.out, F32, DIMS(1, 1, 3, 4, 5, 6));
    for (uint32_t r = 5; r <= 6; ++r) { /* R 5 or 6: the leading input dims are 1 (GN4) */
        nfix_desc(&f, 1, r, 5, 2);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "IndicesTensor.Sizes[5] (7), the length of an index tuple",
                   "GN6", "IndicesTensor.Sizes");
    }
    /* its batch/index split with a tuple that fits: Input {1,1,3,4,7,8} R 4, Indices {1,3,4,5,6,2} -> Output {1,1,3,4,5,6} */
    tdesc_init(&f.in, F32, DIMS(1, 1, 3, 4, 7, 8));
    tdesc_init(&f.ix, U32, DIMS(1, 3, 4, 5, 6, 2));
    nfix_desc(&f, 1, 4, 5, 2);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, NULL, "", "");
}

/* N1: the checking option finds an out-of-range component before any output byte is written. */
TEST(gather_nd_check_indices) {
    nfix f;
    dmlref_error err;
    tdesc_init(&f.in, F32, DIMS(2, 3));
    tdesc_init(&f.ix, I32, DIMS(2, 2));
    tdesc_init(&f.out, F32, DIMS(1, 2));
    for (int v = 0; v < 2; ++v) {
        nfix_desc(&f, v, 2, 2, 0);
        const float in[6] = {0, 1, 2, 3, 4, 5};
        const int32_t ok_ix[4] = {1, -1, -2, 2}, bad_ix[4] = {1, -1, -2, 3}, bad0[4] = {-3, 0, 0, 0};
        float out[2];
        for (int m = 0; m < 4; ++m) {
            const dmlref_options o = {.flags = modes[m].flags | DMLREF_OPTION_CHECK_INDICES, .threads = modes[m].threads};
            out[0] = out[1] = -7;
            CHECK_RULE(run(&f, FL, &o, in, ok_ix, out, &err), err, DMLREF_OK, NULL, "", "");
            CHECK(out[0] == 5 && out[1] == 2);
            out[0] = out[1] = -7;
            CHECK_RULE(run(&f, FL, &o, in, bad_ix, out, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                       v ? "GATHER_ND1: IndicesTensor[1,1] = 3 is out of range [-3, 3) for InputTensor.Sizes[1] (3)"
                         : "GATHER_ND: IndicesTensor[1,1] = 3 is out of range [-3, 3) for InputTensor.Sizes[1] (3)",
                       "N1", "IndicesTensor");
            CHECK(out[0] == -7 && out[1] == -7); /* nothing written */
            CHECK_RULE(run(&f, FL, &o, in, bad0, out, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                       "IndicesTensor[0,0] = -3 is out of range [-2, 2) for InputTensor.Sizes[0] (2)", "N1",
                       "IndicesTensor");
            /* without the option the component is clamped: 3 -> 2 */
            CHECK_RULE(run(&f, FL, &modes[m], in, bad_ix, out, &err), err, DMLREF_OK, NULL, "", "");
            CHECK(out[0] == 5 && out[1] == 2);
        }
    }
    /* unsigned indices: the range reads [0, n) */
    tdesc_init(&f.ix, U32, DIMS(1, 2));
    tdesc_init(&f.out, F32, DIMS(1, 1));
    nfix_desc(&f, 0, 2, 2, 0);
    const float in[6] = {0, 1, 2, 3, 4, 5};
    const uint32_t ix[2] = {0, 3};
    float out[1];
    const dmlref_options o = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 1};
    CHECK_RULE(run(&f, FL, &o, in, ix, out, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
               "GATHER_ND: IndicesTensor[0,1] = 3 is out of range [0, 3) for InputTensor.Sizes[1] (3)", "N1",
               "IndicesTensor");
}

/* P1.4 examples 1-6 (also tests/cases/gather_nd*_doc*.json), through the oracle and the fast path. */
TEST(gather_nd_doc_examples) {
    nfix f;
    dmlref_error err;
    for (int m = 0; m < 4; ++m) {
        /* 1: GATHER_ND and GATHER_ND1 (B 0), Input {2,2}, Indices {2,1} [[1],[0]] -> [[2,3],[0,1]]; 6: INT32 [[-1],[-2]] */
        for (int v = 0; v < 3; ++v) {
            tdesc_init(&f.in, F32, DIMS(2, 2));
            tdesc_init(&f.ix, v == 2 ? I32 : U32, DIMS(2, 1));
            tdesc_init(&f.out, F32, DIMS(2, 2));
            nfix_desc(&f, v == 1, 2, 2, 0);
            const float in[4] = {0, 1, 2, 3}, want[4] = {2, 3, 0, 1};
            const uint32_t ix[2] = {1, 0};
            const int32_t sx[2] = {-1, -2};
            float out[4] = {-1, -1, -1, -1};
            CHECK_STATUS(run(&f, v == 1 ? DMLREF_FEATURE_LEVEL_3_0 : FL, &modes[m], in, v == 2 ? (const void *)sx : ix,
                             out, &err),
                         err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
        /* 1 at FL 2_1, padded to 4-D */
        tdesc_init(&f.in, F32, DIMS(1, 1, 2, 2));
        tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 1));
        tdesc_init(&f.out, F32, DIMS(1, 1, 2, 2));
        nfix_desc(&f, 0, 2, 2, 0);
        {
            const float in[4] = {0, 1, 2, 3}, want[4] = {2, 3, 0, 1};
            const uint32_t ix[2] = {1, 0};
            float out[4] = {-1, -1, -1, -1};
            CHECK_STATUS(run(&f, DMLREF_FEATURE_LEVEL_2_1, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
        /* 2: R 3, Q 2, Input {1,2,2,2} = 0..7, Indices {1,1,2,2} = [[0,1],[1,0]] -> {1,1,2,2} [[2,3],[4,5]] */
        tdesc_init(&f.in, F32, DIMS(1, 2, 2, 2));
        tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 2));
        tdesc_init(&f.out, F32, DIMS(1, 1, 2, 2));
        nfix_desc(&f, 0, 3, 2, 0);
        {
            const float in[8] = {0, 1, 2, 3, 4, 5, 6, 7}, want[4] = {2, 3, 4, 5};
            const uint32_t ix[4] = {0, 1, 1, 0};
            float out[4] = {-1, -1, -1, -1};
            CHECK_STATUS(run(&f, DMLREF_FEATURE_LEVEL_2_1, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
        /* 3: GATHER_ND1 R 3, Q 3, B 1, Input {1,3,2,2} = 0..11 -> {1,1,3,2} [[0,3],[7,4],[9,10]] */
        tdesc_init(&f.in, F32, DIMS(1, 3, 2, 2));
        tdesc_init(&f.ix, U32, DIMS(1, 3, 2, 2));
        tdesc_init(&f.out, F32, DIMS(1, 1, 3, 2));
        nfix_desc(&f, 1, 3, 3, 1);
        {
            float in[12], out[6] = {-1, -1, -1, -1, -1, -1};
            for (int i = 0; i < 12; ++i) in[i] = (float)i;
            const uint32_t ix[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
            const float want[6] = {0, 3, 7, 4, 9, 10};
            CHECK_STATUS(run(&f, DMLREF_FEATURE_LEVEL_3_0, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
        /* 4: Input {3,4,5,6,7} R 5, Indices {1,1,1,2,3} Q 3 -> Output {1,1,2,6,7} */
        tdesc_init(&f.in, F32, DIMS(3, 4, 5, 6, 7));
        tdesc_init(&f.ix, U32, DIMS(1, 1, 1, 2, 3));
        tdesc_init(&f.out, F32, DIMS(1, 1, 2, 6, 7));
        nfix_desc(&f, 0, 5, 3, 0);
        {
            static float in[2520];
            float out[84], want[84];
            for (int i = 0; i < 2520; ++i) in[i] = (float)i;
            const uint32_t ix[6] = {0, 1, 2, 2, 3, 4};
            for (int i = 0; i < 42; ++i) {
                want[i] = (float)(294 + i);       /* (0,1,2): element (0*4 + 1)*5 + 2 = 7 of 60, * 42 */
                want[42 + i] = (float)(2478 + i); /* (2,3,4): 59 * 42 */
            }
            CHECK_STATUS(run(&f, FL, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
    }
}

/* Every element size through a gapped input (row pitch 5 for 4 columns), a transposed one and a broadcast
 * one, into a gapped output (row pitch 6): the rows of the index tuples, the gaps untouched. */
TEST(gather_nd_every_size_strided_broadcast_gapped) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_INT64};
    static const uint32_t in_strides[3][2] = {{5, 1}, {1, 3}, {0, 1}}; /* gapped, transposed, broadcast */
    for (int ti = 0; ti < 4; ++ti) {
        const uint32_t es = 1u << ti;
        for (int li = 0; li < 3; ++li) {
            for (int v = 0; v < 2; ++v) {
                nfix f;
                dmlref_error err;
                /* T 1: Input {3,4} R 2, Indices {2,1} -> Output {2,4} rows; into a gapped output */
                tdesc_init(&f.in, types[ti], 2, SIZES(3, 4), in_strides[li]);
                tdesc_init(&f.ix, I64, DIMS(2, 1));
                tdesc_init(&f.out, types[ti], 2, SIZES(2, 4), SIZES(6, 1));
                nfix_desc(&f, v, 2, 2, 0);
                unsigned char in[256], out[256], want[256];
                for (int i = 0; i < 256; ++i) in[i] = (unsigned char)(17 * i + 3);
                const int64_t ix[2] = {2, -3}; /* rows 2 and 0 */
                const size_t ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
                memset(want, 0xCD, sizeof want);
                for (uint32_t o = 0; o < 2; ++o)
                    for (uint32_t c = 0; c < 4; ++c) {
                        const uint32_t row = o ? 0 : 2;
                        const uint32_t slot = row * in_strides[li][0] + c * in_strides[li][1];
                        memcpy(want + (o * 6 + c) * es, in + slot * es, es);
                    }
                for (int m = 0; m < 4; ++m) {
                    memset(out, 0xCD, sizeof out);
                    CHECK_STATUS(run(&f, FL, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
                    if (memcmp(out, want, ob) != 0)
                        test_fail(__FILE__, __LINE__, "size %u layout %d %s mode %d: wrong bytes", es, li,
                                  v ? "GATHER_ND1" : "GATHER_ND", m);
                }
                /* T 2 (single elements): Indices {3,2} -> Output {3} */
                tdesc_init(&f.ix, I32, DIMS(3, 2));
                tdesc_init(&f.out, types[ti], 2, SIZES(1, 3), SIZES(9, 2));
                nfix_desc(&f, v, 2, 2, 0);
                const int32_t ix2[6] = {1, 3, -1, 0, 0, -3}; /* (1,3) (2,0) (0,1) */
                const uint32_t rc[3][2] = {{1, 3}, {2, 0}, {0, 1}};
                memset(want, 0xCD, sizeof want);
                for (uint32_t o = 0; o < 3; ++o)
                    memcpy(want + o * 2 * es, in + (rc[o][0] * in_strides[li][0] + rc[o][1] * in_strides[li][1]) * es,
                           es);
                for (int m = 0; m < 4; ++m) {
                    memset(out, 0xCD, sizeof out);
                    CHECK_STATUS(run(&f, FL, &modes[m], in, ix2, out, &err), err, DMLREF_OK, NULL);
                    if (memcmp(out, want, (size_t)f.out.buf.TotalTensorSizeInBytes) != 0)
                        test_fail(__FILE__, __LINE__, "T 2: size %u layout %d %s mode %d: wrong bytes", es, li,
                                  v ? "GATHER_ND1" : "GATHER_ND", m);
                }
            }
        }
    }
}

/* Broadcast indices (one tuple for every batch) and a batch gather (B 1) of single elements along the
 * last axis: output[b, j] = input[b, indices[b, j, 0]]. */
TEST(gather_nd_batches_and_broadcast_indices) {
    nfix f;
    dmlref_error err;
    tdesc_init(&f.in, DMLREF_TENSOR_DATA_TYPE_UINT16, DIMS(1, 3, 5));
    tdesc_init(&f.ix, U32, 3, SIZES(3, 4, 1), SIZES(0, 1, 1)); /* the same 4 indices for every batch */
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT16, DIMS(1, 3, 4));
    nfix_desc(&f, 1, 2, 3, 1);
    const uint16_t in[15] = {10, 11, 12, 13, 14, 20, 21, 22, 23, 24, 30, 31, 32, 33, 34};
    const uint32_t ix[4] = {4, 0, 9, 2}; /* 9 clamps to 4 */
    const uint16_t want[12] = {14, 10, 14, 12, 24, 20, 24, 22, 34, 30, 34, 32};
    uint16_t out[12];
    for (int m = 0; m < 4; ++m) {
        memset(out, 0, sizeof out);
        CHECK_STATUS(run(&f, FL, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
}

/* NaN payloads (quiet and signalling), -0.0, FLOAT16 and FLOAT64 bit patterns move as bytes. */
TEST(gather_nd_nan_payloads_and_negative_zero) {
    nfix f;
    dmlref_error err;
    tdesc_init(&f.in, F32, DIMS(2, 2));
    tdesc_init(&f.ix, U32, DIMS(4, 2));
    tdesc_init(&f.out, F32, DIMS(1, 4));
    nfix_desc(&f, 0, 2, 2, 0);
    const uint32_t in[4] = {0x7fc01234u, 0x80000000u, 0x7f800001u, 0xffbfffffu};
    const uint32_t ix[8] = {1, 1, 1, 0, 0, 1, 0, 0};
    const uint32_t want[4] = {0xffbfffffu, 0x7f800001u, 0x80000000u, 0x7fc01234u};
    uint32_t out[4];
    for (int m = 0; m < 4; ++m) {
        memset(out, 0, sizeof out);
        CHECK_STATUS(run(&f, FL, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
    tdesc_init(&f.in, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DIMS(2, 2));
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DIMS(1, 4));
    nfix_desc(&f, 0, 2, 2, 0);
    const uint16_t h[4] = {0x7e01, 0x8000, 0x7c01, 0x0001}, hw[4] = {0x0001, 0x7c01, 0x8000, 0x7e01};
    uint16_t ho[4];
    for (int m = 0; m < 4; ++m) {
        memset(ho, 0, sizeof ho);
        CHECK_STATUS(run(&f, FL, &modes[m], h, ix, ho, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(ho, hw, sizeof hw);
    }
    tdesc_init(&f.in, DMLREF_TENSOR_DATA_TYPE_FLOAT64, DIMS(2, 2));
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_FLOAT64, DIMS(1, 4));
    nfix_desc(&f, 0, 2, 2, 0);
    const uint64_t d[4] = {UINT64_C(0x7ff8000000001234), UINT64_C(0x8000000000000000), UINT64_C(0x7ff0000000000001),
                           UINT64_C(0x0000000000000001)};
    const uint64_t dw[4] = {d[3], d[2], d[1], d[0]};
    uint64_t dout[4];
    for (int m = 0; m < 4; ++m) {
        memset(dout, 0, sizeof dout);
        CHECK_STATUS(run(&f, FL, &modes[m], d, ix, dout, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(dout, dw, sizeof dw);
    }
}

/* Each component clamps against its own dimension, for every 64-bit extreme. */
TEST(gather_nd_clamp_per_component) {
    nfix f;
    dmlref_error err;
    tdesc_init(&f.in, F32, DIMS(2, 3));
    tdesc_init(&f.ix, I64, DIMS(4, 2));
    tdesc_init(&f.out, F32, DIMS(1, 4));
    const float in[6] = {0, 1, 2, 3, 4, 5};
    const int64_t ix[8] = {5, -1, -7, 9, INT64_MIN, INT64_MAX, -2, -3};
    const float want[4] = {5, 2, 2, 0}; /* (1,2) (0,2) (0,2) (0,0) */
    float out[4];
    for (int v = 0; v < 2; ++v) {
        nfix_desc(&f, v, 2, 2, 0);
        for (int m = 0; m < 4; ++m) {
            memset(out, 0, sizeof out);
            CHECK_STATUS(run(&f, FL, &modes[m], in, ix, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
    }
    tdesc_init(&f.ix, DMLREF_TENSOR_DATA_TYPE_UINT64, DIMS(2, 2));
    tdesc_init(&f.out, F32, DIMS(1, 2));
    nfix_desc(&f, 0, 2, 2, 0);
    const uint64_t ux[4] = {UINT64_MAX, 1, UINT64_C(1) << 32, UINT64_MAX - 1};
    const float uw[2] = {4, 5};
    for (int m = 0; m < 4; ++m) {
        memset(out, 0, sizeof out);
        CHECK_STATUS(run(&f, FL, &modes[m], in, ux, out, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, uw, sizeof uw);
    }
}

/* DMLREF_OPTION_FORCE_ORACLE keeps the oracle; the default picks a gather_nd kernel. */
TEST(gather_nd_force_oracle_and_kernel_names) {
    nfix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    struct {
        uint32_t in[3], ix[3], out[3], r, q, b;
        int nd1;
        const char *kernel;
    } cases[] = {
        /* T 2, rows of 64 floats */
        {{4, 8, 64}, {1, 10, 2}, {1, 10, 64}, 3, 2, 0, 0, "gather_nd.tuples." DMLREF_ISA},
        /* T 1, rows: GATHER's rows kernel */
        {{1, 8, 64}, {1, 10, 1}, {1, 10, 64}, 2, 2, 0, 0, "gather_nd.rows." DMLREF_ISA},
        /* T 1 along the last axis, per batch (B 1): axis_last */
        {{1, 8, 64}, {8, 10, 1}, {1, 8, 10}, 2, 3, 1, 1, "gather_nd.axis_last.x4." DMLREF_ISA},
        /* T 2 single elements */
        {{1, 8, 64}, {1, 10, 2}, {1, 1, 10}, 2, 2, 0, 0, "gather_nd.tuples." DMLREF_ISA},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        tdesc_init(&f.in, F32, 3, cases[c].in, NULL);
        tdesc_init(&f.ix, I64, 3, cases[c].ix, NULL);
        tdesc_init(&f.out, F32, 3, cases[c].out, NULL);
        nfix_desc(&f, cases[c].nd1, cases[c].r, cases[c].q, cases[c].b);
        CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
        if (op && strcmp(dmlref_kernel_name(op), cases[c].kernel) != 0)
            test_fail(__FILE__, __LINE__, "case %zu: kernel %s, want %s", c, dmlref_kernel_name(op), cases[c].kernel);
        dmlref_release(op);
        const dmlref_options o = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 0};
        CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
        if (op) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
        dmlref_release(op);
    }
}

/* The benchmark's shape: FLOAT32 [256,256,256], INT64 indices [65536,2], B 0 -> [65536,256]: rows of
 * 1 KiB, one tuple of two clamped components each, streamed (a 64 MiB output) in SIMD builds.
 * Compiled only (no buffers); the same shape, smaller, runs against the oracle. */
TEST(gather_nd_benchmark_shape) {
    nfix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    tdesc_init(&f.in, F32, DIMS(256, 256, 256));
    tdesc_init(&f.ix, I64, DIMS(1, 65536, 2));
    tdesc_init(&f.out, F32, DIMS(1, 65536, 256));
    for (int v = 0; v < 2; ++v) {
        nfix_desc(&f, v, 3, 2, 0);
        CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
        if (op)
            CHECK(strcmp(dmlref_kernel_name(op),
                         DMLREF_SIMD ? "gather_nd.tuples_stream." DMLREF_ISA : "gather_nd.tuples." DMLREF_ISA) == 0);
        dmlref_release(op);
    }
    /* [32,32,64] with 2048 tuples (one out of range), 1 and 2 threads, streamed and not */
    tdesc_init(&f.in, F32, DIMS(32, 32, 64));
    tdesc_init(&f.ix, I64, DIMS(1, 2048, 2));
    tdesc_init(&f.out, F32, DIMS(1, 2048, 64));
    nfix_desc(&f, 0, 3, 2, 0);
    const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
    float *in = malloc(ib), *ref = malloc(ob), *got = malloc(ob);
    int64_t *ix = malloc(2048 * 2 * sizeof *ix);
    if (!in || !ref || !got || !ix) abort();
    for (size_t i = 0; i < ib / 4; ++i) in[i] = (float)i;
    uint32_t s = 99;
    for (int i = 0; i < 4096; ++i) {
        s = s * 1664525u + 1013904223u;
        ix[i] = (int64_t)(s >> 8) % 64 - 32; /* [-32, 32): in range, the negative ones counted from the end */
    }
    ix[7] = 40; /* out of range: clamped to 31 */
    const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    memset(ref, 0xCD, ob);
    CHECK_STATUS(run(&f, FL, &oracle, in, ix, ref, &err), err, DMLREF_OK, NULL);
    for (int stream = 0; stream < 2; ++stream) {
        if (stream) {
            setenv("DMLREF_STREAM_MIN", "0", 1);
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        for (uint32_t threads = 1; threads <= 2; ++threads) {
            const dmlref_options o = {.flags = 0, .threads = threads};
            CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            const char *want = stream && DMLREF_SIMD ? "gather_nd.tuples_stream." DMLREF_ISA : "gather_nd.tuples." DMLREF_ISA;
            if (strcmp(dmlref_kernel_name(op), want) != 0)
                test_fail(__FILE__, __LINE__, "kernel %s, want %s", dmlref_kernel_name(op), want);
            memset(got, 0xCD, ob);
            const dmlref_cbuffer ins[2] = {{in, ib}, {ix, 2048 * 2 * sizeof *ix}};
            dmlref_buffer outs[1] = {{got, ob}};
            CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, ob) != 0)
                test_fail(__FILE__, __LINE__, "stream %d, %u threads: differs from the oracle", stream, threads);
            dmlref_release(op);
        }
        if (stream) {
            unsetenv("DMLREF_STREAM_MIN");
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
    }
    /* spot check: tuple 0 reads input row (ix[0] mod 32, ix[1] mod 32) */
    const int64_t a = ix[0] < 0 ? ix[0] + 32 : ix[0], b = ix[1] < 0 ? ix[1] + 32 : ix[1];
    CHECK(ref[0] == (float)((a * 32 + b) * 64) && ref[63] == (float)((a * 32 + b) * 64 + 63));
    CHECK(ref[3 * 64] == (float)(((ix[6] < 0 ? ix[6] + 32 : ix[6]) * 32 + 31) * 64)); /* tuple 3: (ix[6], 40 -> 31) */
    free(in);
    free(ref);
    free(got);
    free(ix);
}

/* The tuples kernel's block copies at every length class (1, 2, 4, 8, 16 bytes, small, >= 256 with
 * prefetch, streamed), with a gapped output and a strided (unfolded) trailing dim, against the oracle. */
TEST(gather_nd_tuples_block_lengths) {
    static const uint32_t lens[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 64, 65, 100, 300};
    for (int stream = 0; stream < 2; ++stream) {
        if (stream) {
            setenv("DMLREF_STREAM_MIN", "0", 1);
            env_reload();
        }
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; ++li)
            for (int es = 1; es <= 4; es *= 4)
                for (int gap = 0; gap < 3; ++gap) {
                    const uint32_t L = lens[li];
                    nfix f;
                    dmlref_error err;
                    const DMLREF_TENSOR_DATA_TYPE dt = es == 1 ? DMLREF_TENSOR_DATA_TYPE_UINT8 : F32;
                    /* gap 1: output rows padded; gap 2: input rows read with a stride of 2 (no folding) */
                    if (gap == 2) tdesc_init(&f.in, dt, 3, SIZES(3, 5, L), SIZES(10 * L, 2 * L, 2));
                    else tdesc_init(&f.in, dt, DIMS(3, 5, L));
                    tdesc_init(&f.ix, I32, DIMS(1, 13, 2));
                    if (gap == 1) tdesc_init(&f.out, dt, 3, SIZES(1, 13, L), SIZES(13 * (L + 3), L + 3, 1));
                    else tdesc_init(&f.out, dt, DIMS(1, 13, L));
                    nfix_desc(&f, 0, 3, 2, 0);
                    const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
                    unsigned char *in = malloc(ib), *ref = malloc(ob), *got = malloc(ob);
                    if (!in || !ref || !got) abort();
                    for (size_t i = 0; i < ib; ++i) in[i] = (unsigned char)(i * 7 + 1);
                    const int32_t ix[26] = {0, 0, 2, 4, 1, 1, -1, -1, 5, 9, 2, 0, 0, 4,
                                            1, 2, -3, -5, 2, 3, 0, 1, 1, 0, 2, 2};
                    memset(ref, 0xCD, ob);
                    const dmlref_options oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
                    CHECK_STATUS(run(&f, FL, &oo, in, ix, ref, &err), err, DMLREF_OK, NULL);
                    for (uint32_t threads = 1; threads <= 2; ++threads) {
                        const dmlref_options o = {.flags = 0, .threads = threads};
                        dmlref_operator *op = NULL;
                        CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
                        if (!op) continue;
                        CHECK(strncmp(dmlref_kernel_name(op), "gather_nd.tuples", 16) == 0);
                        memset(got, 0xCD, ob);
                        const dmlref_cbuffer ins[2] = {{in, ib}, {ix, sizeof ix}};
                        dmlref_buffer outs[1] = {{got, ob}};
                        CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
                        if (memcmp(ref, got, ob) != 0)
                            test_fail(__FILE__, __LINE__, "%s: L %u esize %d gap %d threads %u differs", dmlref_kernel_name(op),
                                      L, es, gap, threads);
                        dmlref_release(op);
                    }
                    free(in);
                    free(ref);
                    free(got);
                }
        if (stream) {
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
    }
}

/* ---- random cases: the fast paths against the oracle -------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rnext(rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rint_(rng *r, uint32_t lo, uint32_t hi) { return lo + (uint32_t)(rnext(r) % ((uint64_t)hi - lo + 1)); }

static uint64_t prod(const uint32_t *s, uint32_t n) {
    uint64_t p = 1;
    for (uint32_t d = 0; d < n; ++d) p *= s[d];
    return p;
}

/* Strides (elements): packed (0 returned), permuted, gapped; inputs may broadcast. */
static int rand_strides(rng *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_output) {
    const uint32_t mode = rint_(r, 0, 9);
    if (mode < 4) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 7)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = rint_(r, 0, d - 1), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = rint_(r, 0, 4) == 0 ? 2 : 1;
    for (uint32_t i = n; i-- > 0;) {
        const uint32_t d = order[i];
        st[d] = (uint32_t)next;
        next = next * s[d] + (rint_(r, 0, 9) < 4 ? rint_(r, 1, 3) : 0);
    }
    if (!is_output && mode == 6)
        for (uint32_t d = 0; d < n; ++d)
            if (rint_(r, 0, 9) < 3) st[d] = 0;
    return 1;
}

static void mk(rng *r, tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, int is_output) {
    uint32_t st[8];
    const int strided = rand_strides(r, n, sizes, st, is_output);
    tdesc_init(t, dt, n, sizes, strided ? st : NULL);
    if (rint_(r, 0, 9) == 0) t->buf.TotalTensorSizeInBytes += rint_(r, 1, 3) * 4;
}

/* A random index value for a dimension of size A: mostly in range, sometimes negative or far out. */
static int64_t rand_index(rng *r, uint32_t A, int is_signed) {
    const uint32_t k = rint_(r, 0, 99);
    if (k < 75) return (int64_t)rint_(r, 0, A - 1);
    if (k < 88 && is_signed) return -(int64_t)rint_(r, 1, A);
    static const int64_t odd[] = {0, -1, 1000000, -1000000, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    if (k < 94) return (int64_t)A + (int64_t)rint_(r, 0, 2);
    return odd[rint_(r, 0, 7)];
}

/* One random case; 1 equal, 0 differs, -1 none drawn. */
static int random_case(uint64_t seed, uint64_t idx, kernels_seen *seen) {
    static const DMLREF_TENSOR_DATA_TYPE dts[] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_INT8,
                                                  DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_INT16,
                                                  F32, U32, DMLREF_TENSOR_DATA_TYPE_FLOAT64, I64};
    static const DMLREF_TENSOR_DATA_TYPE its[] = {I32, U32, I64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    rng r = {seed ^ (idx * 0x9E3779B97F4A7C15ull)};
    const int big = rint_(&r, 0, 99) < 5, nd1 = (int)rint_(&r, 0, 1);
    const uint32_t n = rint_(&r, 1, 8), R = rint_(&r, 1, n), Q = rint_(&r, 1, n);
    const uint32_t B = nd1 ? rint_(&r, 0, (R < Q ? R : Q) - 1) : 0, T = rint_(&r, 1, R - B);
    const uint32_t M = (Q - 1) + (R - B - T);
    if (M > n) return -1;
    const uint64_t cap = big ? 40000 : 1500;
    uint32_t I[8], J[8], in[8], ix[8], out[8];
    for (uint32_t k = 0; k < R; ++k) I[k] = rint_(&r, 0, 3) == 0 ? 1 : rint_(&r, 2, big ? 40 : 6);
    if (big && R > B + T) I[R - 1] = rint_(&r, 16, 300); /* long rows */
    for (uint32_t k = 0; k < B; ++k) J[k] = I[k];
    for (uint32_t k = B; k + 1 < Q; ++k) J[k] = rint_(&r, 1, big ? 200 : 7);
    J[Q - 1] = T;
    for (;;) { /* halve the largest meaningful output size until the output and input fit */
        uint64_t po = prod(J, Q - 1) * prod(I + B + T, R - B - T), pi = prod(I, R);
        if (po <= cap && pi <= 4 * cap) break;
        uint32_t *best = NULL;
        for (uint32_t k = B; k < R; ++k)
            if (!best || I[k] > *best) best = &I[k];
        for (uint32_t k = B; k + 1 < Q; ++k)
            if (J[k] > *best) best = &J[k];
        if (*best == 1) return -1;
        *best = (*best + 1) / 2;
    }
    for (uint32_t d = 0; d < n; ++d) in[d] = ix[d] = out[d] = 1;
    memcpy(in + (n - R), I, R * sizeof *I);
    memcpy(ix + (n - Q), J, Q * sizeof *J);
    for (uint32_t k = 0; k + 1 < Q; ++k) out[n - M + k] = J[k];
    for (uint32_t e = 0; e < R - B - T; ++e) out[n - M + Q - 1 + e] = I[B + T + e];
    const DMLREF_TENSOR_DATA_TYPE dt = dts[rint_(&r, 0, 7)], it = its[rint_(&r, 0, 3)];
    nfix f;
    mk(&r, &f.in, dt, n, in, 0);
    mk(&r, &f.ix, it, n, ix, 0);
    mk(&r, &f.out, dt, n, out, 1);
    nfix_desc(&f, nd1, R, Q, B);
    const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, xb = (size_t)f.ix.buf.TotalTensorSizeInBytes;
    const size_t ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
    unsigned char *inb = malloc(ib), *ixb = malloc(xb), *ref = malloc(ob), *got = malloc(ob);
    if (!inb || !ixb || !ref || !got) abort();
    for (size_t i = 0; i < ib; ++i) inb[i] = (unsigned char)rnext(&r);
    memset(ixb, 0, xb);
    /* every index element: a value for its component's dimension (clamped when out of range) */
    const int sgn = it == I32 || it == I64;
    const uint32_t ies = it == I32 || it == U32 ? 4 : 8;
    uint32_t c[8] = {0};
    do {
        uint64_t off = 0;
        for (uint32_t d = 0; d < n; ++d) off += (uint64_t)c[d] * (f.ix.buf.Strides ? f.ix.strides[d] : prod(ix + d + 1, n - d - 1));
        int64_t v = rand_index(&r, I[B + c[n - 1]], sgn);
        if (ies == 4) {
            const uint32_t w = (uint32_t)(uint64_t)v;
            memcpy(ixb + off * 4, &w, 4);
        } else {
            memcpy(ixb + off * 8, &v, 8);
        }
        uint32_t d = n;
        while (d-- > 0 && ++c[d] == ix[d]) c[d] = 0;
        if (d == UINT32_MAX) break;
    } while (1);
    dmlref_error err;
    int ok = 1;
    memset(ref, 0xA5, ob);
    const dmlref_options oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    if (run(&f, FL, &oo, inb, ixb, ref, &err) != DMLREF_OK) {
        fprintf(stderr, "  case %llu: oracle: %s\n", (unsigned long long)idx, err.message);
        ok = 0;
    }
    const int tiny = rint_(&r, 0, 1);
    for (uint32_t threads = 1; ok && threads <= 2; ++threads) {
        if (tiny) { /* small tensors take the paths of large ones: thread parts, slabs, streaming stores */
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            setenv("DMLREF_SLAB_MIN", "0", 1);
            setenv("DMLREF_STREAM_MIN", "0", 1);
            env_reload();
        }
        dmlref_operator *op = NULL;
        const dmlref_options fo = {.flags = 0, .threads = threads};
        const dmlref_status st = dmlref_compile(&f.d, FL, &fo, &op, &err);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_SLAB_MIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
        if (st != DMLREF_OK || !op) {
            fprintf(stderr, "  case %llu: compile: %s\n", (unsigned long long)idx, err.message);
            ok = 0;
            break;
        }
        kernels_note(seen, dmlref_kernel_name(op));
        memset(got, 0xA5, ob);
        const dmlref_cbuffer ins[2] = {{inb, ib}, {ixb, xb}};
        dmlref_buffer outs[1] = {{got, ob}};
        if (dmlref_execute(op, ins, 2, outs, 1, &err) != DMLREF_OK || memcmp(ref, got, ob) != 0) {
            fprintf(stderr, "  case %llu (%s, n %u R %u Q %u B %u T %u, %u threads%s): differs from the oracle\n",
                    (unsigned long long)idx, dmlref_kernel_name(op), n, R, Q, B, T, threads, tiny ? ", tiny grain" : "");
            ok = 0;
        }
        dmlref_release(op);
    }
    free(inb);
    free(ixb);
    free(ref);
    free(got);
    return ok;
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("gather_nd.")

TEST(gather_nd_fast_path_matches_oracle) {
    const char *e = getenv("DMLREF_GATHER_ND_CASES");
    const uint64_t cases = e && *e ? strtoull(e, NULL, 10) : 1500, seed = test_seed(20261201);
    kernels_seen seen = {{0}, 0};
    uint64_t ran = 0, failed = 0;
    for (uint64_t i = 0; i < cases && failed < 5; ++i) {
        if (!test_case(i)) continue; /* --case: that one alone */
        const int rc = random_case(seed, i, &seen);
        if (rc >= 0) ++ran;
        if (rc == 0) {
            ++failed;
            test_fail(__FILE__, __LINE__, "case %llu differs from the oracle", (unsigned long long)i);
        }
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    if (failed) test_fail(__FILE__, __LINE__, "%llu of %llu random cases differ (seed %llu)", (unsigned long long)failed,
                          (unsigned long long)ran, (unsigned long long)seed);
    CHECK(ran >= cases / 2);
    /* every gather_nd.* kernel of src/ops/kernels.def, but the two that need a broadcast the
     * random layouts hardly draw, reached and checked by gather_nd_slab_and_shared_stream:
     * axis_first_slab (an input broadcast over the batch rows) and axis_last_stream
     * (indices broadcast over the batch rows) */
    static const char *const unreached[] = {"gather_nd.axis_first_slab.x1", "gather_nd.axis_first_slab.x2",
                                            "gather_nd.axis_first_slab.x4", "gather_nd.axis_first_slab.x8",
                                            "gather_nd.axis_last_stream.x4", "gather_nd.axis_last_stream.x8", NULL};
    CHECK_KERNELS_REACHED(&seen, "gather_nd.", unreached);
    if (getenv("DMLREF_GATHER_ND_VERBOSE")) {
        fprintf(stderr, "  %llu of %llu cases drawn\n", (unsigned long long)ran, (unsigned long long)cases);
        for (int i = 0; i < seen.n; ++i) fprintf(stderr, "  kernel seen: %s\n", seen.names[i]);
    }
}

/* One GATHER_ND1 case through the oracle and the fast path (1 and 2 threads, thread parts
 * of 64 bytes, slabs and streaming stores at any size), byte for byte; notes the kernel. */
static void slab_stream_case(const char *what, DMLREF_TENSOR_DATA_TYPE dt, const uint32_t *in, const uint32_t *in_st,
                             const uint32_t *ix, const uint32_t *ix_st, const uint32_t *out, uint32_t b, uint32_t A,
                             kernels_seen *seen, rng *r) {
    nfix f;
    tdesc_init(&f.in, dt, 3, in, in_st);
    tdesc_init(&f.ix, I32, 3, ix, ix_st);
    tdesc_init(&f.out, dt, 3, out, NULL);
    nfix_desc(&f, 1, b + 1, 3, b); /* R = B + 1 (T = 1, no trailing block), Q = 3 */
    const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, xb = (size_t)f.ix.buf.TotalTensorSizeInBytes;
    const size_t ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
    unsigned char *inb = malloc(ib), *ixb = malloc(xb), *ref = malloc(ob), *got = malloc(ob);
    if (!inb || !ixb || !ref || !got) abort();
    for (size_t i = 0; i < ib; ++i) inb[i] = (unsigned char)rnext(r);
    for (size_t i = 0; i + 4 <= xb; i += 4) { /* in range, negative (from the end) or clamped */
        const int32_t v = (int32_t)rand_index(r, A, 1);
        memcpy(ixb + i, &v, 4);
    }
    dmlref_error err;
    memset(ref, 0xA5, ob);
    const dmlref_options oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    CHECK_STATUS(run(&f, FL, &oo, inb, ixb, ref, &err), err, DMLREF_OK, NULL);
    setenv("DMLREF_PAR_GRAIN", "64", 1);
    setenv("DMLREF_SLAB_MIN", "0", 1);
    setenv("DMLREF_STREAM_MIN", "0", 1);
    env_reload();
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        const dmlref_options fo = {.flags = 0, .threads = threads};
        dmlref_operator *op = NULL;
        CHECK_STATUS(dmlref_compile(&f.d, FL, &fo, &op, &err), err, DMLREF_OK, NULL);
        if (!op) continue;
        kernels_note(seen, dmlref_kernel_name(op));
        memset(got, 0xA5, ob);
        const dmlref_cbuffer ins[2] = {{inb, ib}, {ixb, xb}};
        dmlref_buffer outs[1] = {{got, ob}};
        CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
        if (memcmp(ref, got, ob) != 0)
            test_fail(__FILE__, __LINE__, "%s (%s, %u threads): differs from the oracle", what, dmlref_kernel_name(op), threads);
        dmlref_release(op);
    }
    unsetenv("DMLREF_PAR_GRAIN");
    unsetenv("DMLREF_SLAB_MIN");
    unsetenv("DMLREF_STREAM_MIN");
    env_reload();
    free(inb);
    free(ixb);
    free(ref);
    free(got);
}

KERNELS_CHECKED("gather_nd.axis_first_slab.")
KERNELS_CHECKED("gather_nd.axis_last_stream.")

/* The kernels that need a broadcast (the random cases' exceptions above), GATHER_ND1, every
 * width they have:
 *   axis_first_slab   Input [B0, B1, A] broadcast over B0 (strides {0, A, 1}), Indices
 *                     [B0, B1, 1], B = 2: the innermost output dim moves both input and
 *                     indices (axis_first), the rows (B0) only the indices, so a column
 *                     block of the input plane is copied into a slab and read from there
 *   axis_last_stream  Input [1, B0, A], Indices [B0, K, 1] broadcast over B0 (strides
 *                     {0, 1, 1}), B = 1: every row gathers the same K indices of its own
 *                     input row (axis_last with shared indices), a packed output of 4- or
 *                     8-byte elements written with streaming stores */
TEST(gather_nd_slab_and_shared_stream) {
    static const DMLREF_TENSOR_DATA_TYPE dts[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16, F32,
                                                   DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    rng r = {20261202};
    kernels_seen seen = {{0}, 0};
    char what[96];
    for (int w = 0; w < 4; ++w) {
        const uint32_t B0 = 7, B1 = 37 + 8 * (uint32_t)w, A = 50;
        snprintf(what, sizeof what, "slab, %u-byte elements", 1u << w);
        slab_stream_case(what, dts[w], SIZES(B0, B1, A), SIZES(0, A, 1), SIZES(B0, B1, 1), NULL, SIZES(1, B0, B1), 2, A,
                         &seen, &r);
    }
    for (int w = 2; w < 4; ++w) {
        const uint32_t B0 = 9, K = 45, A = 60;
        snprintf(what, sizeof what, "shared indices, %u-byte elements", 1u << w);
        slab_stream_case(what, dts[w], SIZES(1, B0, A), NULL, SIZES(B0, K, 1), SIZES(0, 1, 1), SIZES(1, B0, K), 1, A,
                         &seen, &r);
    }
    CHECK_KERNELS_REACHED(&seen, "gather_nd.axis_first_slab.", NULL);
    CHECK_KERNELS_REACHED(&seen, "gather_nd.axis_last_stream.", NULL); /* none without SIMD (util.h) */
}
