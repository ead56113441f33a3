/*
 * (Over 600 lines on purpose: one operator's tests over the shared fixture,
 * reference and all-paths runner: rules, documented examples, values, data,
 * random cases against the oracle and every kernel reached.)
 *
 * ONE_HOT (docs/operators.md P8): the desc's layout and schema, every rule
 * (OH1-OH5, with its id and field) at the feature levels where it differs, the
 * page's four examples, the out-of-range rule (the whole sequence off: never
 * clamped, below -n and UINT64 values of 2^63 and more included, and never
 * reported by DMLREF_OPTION_CHECK_INDICES), Off/On chosen by coordinates in a
 * strided or broadcast Values, every element size through strided, broadcast
 * and gapped layouts, NaN payloads and -0.0, and every fast kernel against the
 * oracle and an independent reference on random cases with 1 and 2 threads
 * (each kernel reached, the benchmark's shape included).
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define F64 DMLREF_TENSOR_DATA_TYPE_FLOAT64
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define U16 DMLREF_TENSOR_DATA_TYPE_UINT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct ofix {
    tdesc ix, va, out;
    DMLREF_ONE_HOT_OPERATOR_DESC o;
    DMLREF_OPERATOR_DESC d;
} ofix;

/* Output {out sizes} of dt with Output.Sizes[axis] the depth, Indices the same with a 1 at
 * axis (index type it), Values {va sizes} of dt; all packed. */
static void ofix_init(ofix *f, DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE it, uint32_t n,
                      const uint32_t *out_sizes, const uint32_t *va_sizes, uint32_t axis) {
    uint32_t ixs[8];
    memcpy(ixs, out_sizes, n * sizeof *ixs);
    if (axis < n) ixs[axis] = 1;
    tdesc_init(&f->ix, it, n, ixs, NULL);
    tdesc_init(&f->va, dt, n, va_sizes, NULL);
    tdesc_init(&f->out, dt, n, out_sizes, NULL);
    f->o = (DMLREF_ONE_HOT_OPERATOR_DESC){&f->ix.desc, &f->va.desc, &f->out.desc, axis};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ONE_HOT, &f->o};
}

static dmlref_status validate(const ofix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *rule, const char *field, const char *needle) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && (strcmp(err->rule, rule) != 0 || strcmp(err->field, field) != 0))
        test_fail(file, line, "rule \"%s\" field \"%s\", want \"%s\" \"%s\" (%s)", err->rule, err->field, rule, field,
                  err->message);
}
#define CHECK_RULE(st, err, want, rule, field, needle) \
    check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (rule), (field), (needle))

/* dmlref_run with the tensors' whole buffers. */
static dmlref_status run(const ofix *f, DMLREF_FEATURE_LEVEL fl, uint32_t flags, uint32_t threads, const void *ix,
                         const void *va, void *out, dmlref_error *err) {
    const dmlref_options o = {.flags = flags, .threads = threads};
    dmlref_cbuffer ins[2] = {{ix, (size_t)f->ix.buf.TotalTensorSizeInBytes},
                             {va, (size_t)f->va.buf.TotalTensorSizeInBytes}};
    dmlref_buffer outs[1] = {{out, (size_t)f->out.buf.TotalTensorSizeInBytes}};
    return dmlref_run(&f->d, fl, &o, ins, 2, outs, 1, err);
}

TEST(one_hot_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_ONE_HOT_OPERATOR_DESC), p == 8 ? 32 : 16); /* 32 on LP64 (the ABI's), 16 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, IndicesTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, ValuesTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, OutputTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, Axis), 3 * p);
    CHECK_EQ_U64(DMLREF_OPERATOR_ONE_HOT, 95);
}

TEST(one_hot_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_ONE_HOT);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "ONE_HOT") == 0 && strcmp(dmlref_operator_name(DMLREF_OPERATOR_ONE_HOT), "ONE_HOT") == 0);
    CHECK_EQ_U64(sc->type, 95);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_ONE_HOT_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_2_0);
    CHECK_EQ_U64(sc->flags, 0); /* not in place */
    CHECK_EQ_U64(sc->n_slots, 3);
    /* Indices first, then Values, then Output: the binding order */
    static const char *const names[3] = {"IndicesTensor", "ValuesTensor", "OutputTensor"};
    static const size_t offs[3] = {offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, IndicesTensor),
                                   offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, ValuesTensor),
                                   offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, OutputTensor)};
    for (uint32_t i = 0; i < 3 && i < sc->n_slots; ++i) {
        CHECK(strcmp(sc->slots[i].name, names[i]) == 0);
        CHECK_EQ_U64(sc->slots[i].offset, offs[i]);
        CHECK_EQ_U64(sc->slots[i].is_index, i == 0);
        CHECK_EQ_U64(sc->slots[i].is_output, i == 2);
        CHECK_EQ_U64(sc->slots[i].is_array, 0);
        CHECK_EQ_U64(sc->slots[i].is_optional, 0);
    }
    CHECK_EQ_U64(sc->n_params, 1);
    CHECK(strcmp(sc->params[0].name, "Axis") == 0 && sc->params[0].kind == DMLREF_PARAM_UINT);
    CHECK_EQ_U64(sc->params[0].offset, offsetof(DMLREF_ONE_HOT_OPERATOR_DESC, Axis));
}

TEST(one_hot_validation_rules) {
    ofix f;
    dmlref_error err;
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 1, 2), 3);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);

    /* OH1: one DimensionCount */
    tdesc_init(&f.va, F32, DIMS(1, 1, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "OH1", "ValuesTensor.DimensionCount",
               "ONE_HOT: ValuesTensor.DimensionCount (3) must equal IndicesTensor.DimensionCount (4)");
    tdesc_init(&f.va, F32, DIMS(1, 1, 1, 2));
    tdesc_init(&f.out, F32, DIMS(1, 1, 3, 4, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "OH1", "OutputTensor.DimensionCount",
               "ONE_HOT: OutputTensor.DimensionCount (5) must equal IndicesTensor.DimensionCount (4)");
    tdesc_init(&f.out, F32, DIMS(1, 1, 3, 4));

    /* OH2: Output's type is Values' (not Indices'), in the level's set; Indices in the index set */
    tdesc_init(&f.out, F16, DIMS(1, 1, 3, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "OH2", "OutputTensor.DataType",
               "ONE_HOT: OutputTensor.DataType (FLOAT16) must equal ValuesTensor.DataType (FLOAT32)");
    tdesc_init(&f.out, F32, DIMS(1, 1, 3, 4));
    tdesc_init(&f.ix, F32, DIMS(1, 1, 3, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "OH2", "IndicesTensor.DataType",
               "ONE_HOT: IndicesTensor.DataType (FLOAT32) is not supported at feature level 6_4 (allowed: UINT32 "
               "INT32 UINT64 INT64)");
    tdesc_init(&f.ix, U32, DIMS(1, 1, 3, 1));

    /* OH3: Axis < N */
    f.o.Axis = 4;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "OH3", "Axis",
               "ONE_HOT: Axis (4) must be in [0, IndicesTensor.DimensionCount) = [0, 4)");
    f.o.Axis = UINT32_MAX;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "OH3", "Axis", "Axis (4294967295) must be in");
    f.o.Axis = 3;

    /* OH4: Indices like Output but Axis, and 1 at Axis; any depth */
    tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "OH4", "IndicesTensor.Sizes",
               "ONE_HOT: IndicesTensor.Sizes[2] (2) must equal OutputTensor.Sizes[2] (3) in every dimension but Axis (3)");
    tdesc_init(&f.ix, U32, DIMS(1, 1, 3, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "OH4", "IndicesTensor.Sizes",
               "ONE_HOT: IndicesTensor.Sizes[3] (4) must be 1: Axis (3) is where OutputTensor.Sizes[3] (4) holds the "
               "depth");
    /* the page's shape example: Output {2,3,4,5}, Axis 1 -> Indices {2,1,4,5} */
    ofix_init(&f, F32, U32, 4, SIZES(2, 3, 4, 5), SIZES(1, 1, 1, 2), 1);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(f.ix.sizes[1], 1);
    /* a depth of 1 is valid (Output.Sizes[Axis] > 0 is all the rule asks) */
    ofix_init(&f, F32, U32, 4, SIZES(2, 1, 4, 5), SIZES(1, 1, 1, 2), 1);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);

    /* OH5: Values holds at least two elements, of any shape */
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 1, 1), 3);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "OH5", "ValuesTensor.Sizes",
               "ONE_HOT: ValuesTensor.Sizes {1,1,1,1} hold 1 element; Values must contain at least two (the off value "
               "and the on value)");
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(2, 1, 1, 1), 3);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(3, 2, 5, 7), 3);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    /* two elements through zero strides count as two */
    tdesc_init(&f.va, F32, 4, SIZES(1, 1, 1, 2), SIZES(0, 0, 0, 0));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* the order: OH1 before OH2 before OH3 before OH4 before OH5 */
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 1, 1), 7);
    tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 9));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "OH3", "Axis", "Axis (7)");
    f.o.Axis = 3;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "OH4", "IndicesTensor.Sizes", "Sizes[2] (2)");
    tdesc_init(&f.ix, I8, DIMS(1, 1, 2, 9));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "OH2", "IndicesTensor.DataType", "INT8");

    /* the tensor rules: the output may not overlap itself; inputs may broadcast */
    ofix_init(&f, F32, U32, 2, SIZES(3, 4), SIZES(1, 2), 1);
    tdesc_init(&f.out, F32, 2, SIZES(3, 4), SIZES(0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "T15", "OutputTensor.Strides",
               "OutputTensor.Strides[0] is 0");
    ofix_init(&f, F32, U32, 2, SIZES(3, 4), SIZES(1, 2), 1);
    tdesc_init(&f.ix, U32, 2, SIZES(3, 1), SIZES(0, 0));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    f.o.ValuesTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "T1", "ValuesTensor",
               "ONE_HOT: ValuesTensor is NULL");
}

/* P0.3: 2_0 4-D {F32, F16} / UINT32; 2_1 4-D T8 / UINT32; 3_0 1-8 dims T8 / the four index
 * types; 4_1 1-8 dims T11.  Before 2_0 the operator does not exist. */
TEST(one_hot_feature_levels) {
    ofix f;
    dmlref_error err;
    ofix_init(&f, F16, U32, 4, SIZES(1, 2, 3, 4), SIZES(1, 1, 1, 2), 2);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
                 "ONE_HOT: not available at feature level 1_0 (introduced in 2_0)");

    /* data types: {F32, F16} at 2_0, T8 from 2_1, T11 from 4_1 (FLOAT64 included) */
    ofix_init(&f, I8, U32, 4, SIZES(1, 2, 3, 4), SIZES(1, 1, 1, 2), 2);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE, "OH2",
               "ValuesTensor.DataType",
               "ONE_HOT: ValuesTensor.DataType (INT8) is not supported at feature level 2_0 (allowed: FLOAT32 FLOAT16)");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
    static const DMLREF_TENSOR_DATA_TYPE t64[3] = {F64, I64, U64};
    for (int k = 0; k < 3; ++k) {
        ofix_init(&f, t64[k], U32, 4, SIZES(1, 2, 3, 4), SIZES(1, 1, 1, 2), 2);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "OH2",
                   "ValuesTensor.DataType", "feature level 4_0");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
    }

    /* index types: UINT32 only before 3_0 */
    static const DMLREF_TENSOR_DATA_TYPE its[3] = {I32, U64, I64};
    for (int k = 0; k < 3; ++k) {
        ofix_init(&f, F32, its[k], 4, SIZES(1, 2, 3, 4), SIZES(1, 1, 1, 2), 2);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DATA_TYPE, "OH2",
                   "IndicesTensor.DataType", "is not supported at feature level 2_1 (allowed: UINT32)");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    }

    /* dims: exactly 4 before 3_0, then 1 to 8 */
    ofix_init(&f, F32, U32, 3, SIZES(2, 3, 4), SIZES(1, 1, 2), 1);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "OH1",
               "ValuesTensor.DimensionCount",
               "ONE_HOT: ValuesTensor.DimensionCount (3) must be in [4, 4] at feature level 2_1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    ofix_init(&f, F32, U32, 1, SIZES(5), SIZES(2), 0);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    ofix_init(&f, F32, U32, 8, SIZES(2, 1, 2, 1, 2, 1, 2, 3), SIZES(1, 1, 1, 1, 1, 1, 1, 2), 7);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "OH1",
               "ValuesTensor.DimensionCount", "(8) must be in [4, 4]");
}

/* ---- running it ------------------------------------------------------------------- */

/* Runs f through the oracle (forced), and the default path with 1 and 2 threads, each with
 * and without the checking option, into outputs prefilled with 0xCD; each must equal want
 * (a whole output buffer). */
static void run_paths_at(const char *file, int line, const ofix *f, DMLREF_FEATURE_LEVEL fl, const void *ix,
                         const void *va, const void *want) {
    const size_t ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *got = malloc(ob);
    if (!got) abort();
    for (int mode = 0; mode < 3; ++mode)
        for (uint32_t check = 0; check <= DMLREF_OPTION_CHECK_INDICES; check += DMLREF_OPTION_CHECK_INDICES) {
            const uint32_t flags = (mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0) | check;
            dmlref_error err;
            memset(got, 0xCD, ob);
            check_status_at(file, line, run(f, fl, flags, mode == 2 ? 2 : 1, ix, va, got, &err), &err, DMLREF_OK,
                            NULL);
            if (memcmp(got, want, ob) != 0)
                test_fail(file, line, "mode %d (flags %u): output bytes differ", mode, flags);
        }
    free(got);
}
#define RUN_PATHS(f, fl, ix, va, want) run_paths_at(__FILE__, __LINE__, (f), (fl), (ix), (va), (want))

/* The page's examples (docs/operators.md P8.4; tests/cases/one_hot_doc*.json). */
TEST(one_hot_doc_examples) {
    ofix f;
    const float v01[2] = {0, 1};
    /* 1: Indices {1,1,3,1} = [0,3,2], Axis 3 */
    const uint32_t ix1[3] = {0, 3, 2};
    const float want1[12] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0};
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 1, 2), 3);
    RUN_PATHS(&f, DMLREF_FEATURE_LEVEL_2_0, ix1, v01, want1);
    /* 2: Indices {1,1,1,4} = [0,2,1,0], Axis 2: column j is on at row Indices[j] */
    const uint32_t ix2[4] = {0, 2, 1, 0};
    const float want2[12] = {1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0};
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 1, 2), 2);
    RUN_PATHS(&f, DMLREF_FEATURE_LEVEL_2_0, ix2, v01, want2);
    /* 3: Values {1,1,3,1} = [4,2,9]: off 4, on Values[0,0,1,0] = 2, 9 unused */
    const float v3[3] = {4, 2, 9}, want3[12] = {2, 4, 4, 4, 4, 4, 4, 2, 4, 4, 2, 4};
    ofix_init(&f, F32, U32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 3, 1), 3);
    RUN_PATHS(&f, DMLREF_FEATURE_LEVEL_2_0, ix1, v3, want3);
    /* 4: INT32 [-3, 100, 3]: -3 counts from the end, 100 is out of range (its row all off) */
    const int32_t ix4[3] = {-3, 100, 3};
    const float want4[12] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    ofix_init(&f, F32, I32, 4, SIZES(1, 1, 3, 4), SIZES(1, 1, 1, 2), 3);
    RUN_PATHS(&f, DMLREF_FEATURE_LEVEL_3_0, ix4, v01, want4);
    dmlref_error err;
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DATA_TYPE, "IndicesTensor");
}

/* The out-of-range rule: never a clamp; every value outside [-n, n) (signed) or [0, n)
 * (unsigned) makes its whole sequence the off value, whatever its magnitude; the checking
 * option reports nothing (defined behaviour). */
TEST(one_hot_out_of_range) {
    ofix f;
    dmlref_error err;
    const int16_t va[2] = {-7, 9}; /* off -7, on 9 */
    /* Output {9,3} INT16, Axis 1 (n = 3), Indices {9,1} INT64 */
    const int64_t ix[9] = {-3, -4, 3, 2, INT64_MIN, INT64_MAX, -1, 4, (int64_t)INT32_MIN};
    const int16_t want[28] = {9, -7, -7, /* -3 -> 0 */ -7, -7, -7, /* -4: below -n, off (not clamped to 0) */
                              -7, -7, -7, /* 3 = n: off (not clamped to 2) */ -7, -7, 9,  /* 2 */
                              -7, -7, -7, -7, -7, -7, /* INT64_MIN, INT64_MAX */ -7, -7, 9, /* -1 -> 2 */
                              -7, -7, -7, -7, -7, -7, (int16_t)0xCDCD /* the buffer's rounding tail */};
    ofix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, I64, 2, SIZES(9, 3), SIZES(1, 2), 1);
    RUN_PATHS(&f, FL, ix, va, want); /* RUN_PATHS runs every path with and without the checking option */
    CHECK_STATUS(run(&f, FL, DMLREF_OPTION_CHECK_INDICES, 1, ix, va, (int16_t[28]){0}, &err), err, DMLREF_OK, NULL);

    /* UINT64: 2^63 and above are large unsigned values, never negative: off; UINT32 likewise */
    const uint64_t ix64[5] = {UINT64_C(1) << 63, UINT64_MAX, 2, UINT64_C(1) << 32, 0};
    const int16_t want64[15] = {-7, -7, -7, -7, -7, -7, -7, -7, 9, -7, -7, -7, 9, -7, -7};
    ofix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, U64, 2, SIZES(5, 3), SIZES(1, 2), 1);
    int16_t buf64[16];
    memcpy(buf64, want64, sizeof want64);
    buf64[15] = (int16_t)0xCDCD; /* the rounding tail of the output buffer is never written */
    RUN_PATHS(&f, FL, ix64, va, buf64);
    const uint32_t ix32[4] = {UINT32_MAX, 3, 0x80000000u, 1};
    const int16_t want32[12] = {-7, -7, -7, -7, -7, -7, -7, -7, -7, -7, 9, -7};
    ofix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, U32, 2, SIZES(4, 3), SIZES(1, 2), 1);
    RUN_PATHS(&f, FL, ix32, va, want32);
    const int32_t ixs[4] = {INT32_MIN, INT32_MAX, -3, 5};
    const int16_t wants[12] = {-7, -7, -7, -7, -7, -7, 9, -7, -7, -7, -7, -7};
    ofix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, I32, 2, SIZES(4, 3), SIZES(1, 2), 1);
    RUN_PATHS(&f, FL, ixs, va, wants);

    /* an axis that is not the last: the column of an out-of-range index is all off */
    const int32_t ixc[3] = {1, -9, 0}; /* Output {2,3} Axis 0 (n = 2), Indices {1,3} */
    const int16_t wantc[6] = {-7, -7, 9, 9, -7, -7};
    ofix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, I32, 2, SIZES(2, 3), SIZES(1, 2), 0);
    RUN_PATHS(&f, FL, ixc, va, wantc);
}

/* Off is Values[0,...,0]; On the element at coordinate 1 along the last dimension of size > 1,
 * found through the strides (not the second element in memory). */
TEST(one_hot_values_by_coordinates) {
    ofix f;
    const uint32_t ix[2] = {1, 0};
    /* Values {2,1}: the last dim of size > 1 is dim 0; strides {3,1}: On is memory slot 3 */
    const uint8_t va[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    const uint8_t want[4] = {10, 13, 13, 10};
    ofix_init(&f, U8, U32, 2, SIZES(2, 2), SIZES(2, 1), 1);
    tdesc_init(&f.va, U8, 2, SIZES(2, 1), SIZES(3, 1));
    RUN_PATHS(&f, FL, ix, va, want);
    /* Values {2,3} packed: dim 1 is the last of size > 1: On = Values[0,1] (slot 1), not Values[1,0] */
    ofix_init(&f, U8, U32, 2, SIZES(2, 2), SIZES(2, 3), 1);
    const uint8_t want2[4] = {10, 11, 11, 10};
    RUN_PATHS(&f, FL, ix, va, want2);
    /* the same Values transposed in memory (strides {1,2}): Values[0,1] is slot 2 */
    tdesc_init(&f.va, U8, 2, SIZES(2, 3), SIZES(1, 2));
    const uint8_t want3[4] = {10, 12, 12, 10};
    RUN_PATHS(&f, FL, ix, va, want3);
    /* broadcast Values: both coordinates read one element, so On == Off */
    tdesc_init(&f.va, U8, 2, SIZES(2, 3), SIZES(0, 0));
    const uint8_t want4[4] = {10, 10, 10, 10};
    RUN_PATHS(&f, FL, ix, va, want4);
    /* 8-D Values with the size-2 dim outermost: On = Values[1,0,...,0] at its stride (slot 5) */
    ofix_init(&f, U8, U32, 8, SIZES(1, 1, 1, 1, 1, 1, 2, 2), SIZES(2, 1, 1, 1, 1, 1, 1, 1), 7);
    tdesc_init(&f.va, U8, 8, SIZES(2, 1, 1, 1, 1, 1, 1, 1), SIZES(5, 1, 1, 1, 1, 1, 1, 1));
    const uint8_t want5[4] = {10, 15, 15, 10};
    RUN_PATHS(&f, FL, ix, va, want5);
}

/* Off and On are copied as elements: NaN payloads, signalling NaNs, -0.0, FLOAT16 patterns. */
TEST(one_hot_bits) {
    ofix f;
    const uint32_t ix[3] = {2, 0, 7};
    const uint32_t va[2] = {0x80000000u, 0x7f800001u}; /* off -0.0f, on a signalling NaN */
    uint32_t want[9];
    for (int i = 0; i < 9; ++i) want[i] = i == 2 || i == 3 ? va[1] : va[0];
    ofix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(1, 2), 1);
    RUN_PATHS(&f, FL, ix, va, want);
    const uint16_t h[2] = {0x7e01u, 0x8000u}; /* off a quiet NaN with payload, on -0 */
    uint16_t hw[10];
    for (int i = 0; i < 9; ++i) hw[i] = i == 2 || i == 3 ? h[1] : h[0];
    hw[9] = 0xCDCD; /* the rounding tail */
    ofix_init(&f, F16, U32, 2, SIZES(3, 3), SIZES(1, 2), 1);
    RUN_PATHS(&f, FL, ix, h, hw);
    const uint64_t d[2] = {UINT64_C(0x7ff0000000000001), UINT64_C(0xfff8000000000abc)};
    uint64_t dw[9];
    for (int i = 0; i < 9; ++i) dw[i] = i == 2 || i == 3 ? d[1] : d[0];
    ofix_init(&f, F64, U32, 2, SIZES(3, 3), SIZES(1, 2), 1);
    RUN_PATHS(&f, FL, ix, d, dw);
}

/* Binding: no output may overlap an input (ONE_HOT has no in-place form). */
TEST(one_hot_no_aliasing) {
    ofix f;
    dmlref_error err;
    ofix_init(&f, U32, U32, 1, SIZES(4), SIZES(2), 0);
    uint32_t buf[8] = {1, 0, 5};
    const dmlref_options o = {.flags = 0, .threads = 1};
    dmlref_cbuffer ins[2] = {{buf, 4}, {buf + 1, 8}};
    dmlref_buffer outs[1] = {{buf + 2, 16}};
    CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 2, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "ONE_HOT: the OutputTensor buffer overlaps the ValuesTensor buffer");
    ins[1].data = buf + 6;
    CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
}

/* ---- an independent reference, random cases, the kernels ---------------------------- */

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}
static uint32_t rnd(uint32_t *s, uint32_t n) { return lcg(s) % n; }

static unsigned char *random_bytes(uint32_t *s, uint64_t n) {
    unsigned char *p = malloc(n ? (size_t)n : 1);
    if (!p) abort();
    for (uint64_t i = 0; i < n; ++i) p[i] = (unsigned char)lcg(s);
    return p;
}

static uint64_t stride_of(const tdesc *t, uint32_t d) {
    if (t->buf.Strides) return t->buf.Strides[d];
    uint64_t s = 1;
    for (uint32_t k = d + 1; k < t->buf.DimensionCount; ++k) s *= t->buf.Sizes[k];
    return s;
}

static uint64_t slot_of(const tdesc *t, const uint32_t *c) {
    uint64_t s = 0;
    for (uint32_t d = 0; d < t->buf.DimensionCount; ++d) s += (uint64_t)c[d] * stride_of(t, d);
    return s;
}

static int next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

static void put_index(DMLREF_TENSOR_DATA_TYPE it, unsigned char *p, uint64_t slot, int64_t v) {
    if (dmlref_data_type_size(it) == 4) {
        const uint32_t u = (uint32_t)(uint64_t)v;
        memcpy(p + slot * 4, &u, 4);
    } else {
        memcpy(p + slot * 8, &v, 8);
    }
}

/* The reference: every output element from its coordinate; the index read as its own type
 * and compared with 64-bit arithmetic written independently of index.h. */
static void reference(const ofix *f, const unsigned char *ix, const unsigned char *va, unsigned char *out) {
    const uint32_t n = f->out.buf.DimensionCount, a = f->o.Axis, es = dmlref_data_type_size(f->out.buf.DataType);
    const DMLREF_TENSOR_DATA_TYPE it = f->ix.buf.DataType;
    uint32_t vd = 0, c[8] = {0}, vc[8] = {0};
    for (uint32_t d = 0; d < n; ++d)
        if (f->va.buf.Sizes[d] > 1) vd = d;
    vc[vd] = 1;
    const unsigned char *off = va, *on = va + slot_of(&f->va, vc) * es;
    const uint64_t depth = f->out.buf.Sizes[a];
    do {
        uint32_t ic[8];
        memcpy(ic, c, sizeof ic);
        ic[a] = 0;
        const uint64_t s = slot_of(&f->ix, ic);
        int hit = 0;
        if (it == I32 || it == I64) {
            int64_t v;
            if (it == I32) {
                int32_t w;
                memcpy(&w, ix + s * 4, 4);
                v = w;
            } else {
                memcpy(&v, ix + s * 8, 8);
            }
            if (v < 0 && v >= -(int64_t)depth) v += (int64_t)depth;
            hit = v >= 0 && (uint64_t)v == c[a];
        } else {
            uint64_t v;
            if (it == U32) {
                uint32_t w;
                memcpy(&w, ix + s * 4, 4);
                v = w;
            } else {
                memcpy(&v, ix + s * 8, 8);
            }
            hit = v == c[a];
        }
        memcpy(out + slot_of(&f->out, c) * es, hit ? on : off, es);
    } while (next_coord(f->out.buf.Sizes, n, c));
}

/* A strided layout (elements): permuted order, gaps; or packed (returns 0). */
static int rand_layout(uint32_t *s, uint32_t n, const uint32_t *sizes, uint32_t *st, int broadcast) {
    const uint32_t mode = rnd(s, 8);
    if (mode < 3) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 6)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = rnd(s, d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = 1;
    for (uint32_t i = n; i-- > 0;) {
        const uint32_t d = order[i];
        st[d] = (uint32_t)next;
        next = next * sizes[d] + (rnd(s, 3) == 0 ? rnd(s, 3) : 0);
    }
    if (broadcast && mode == 5)
        for (uint32_t d = 0; d < n; ++d)
            if (rnd(s, 3) == 0) st[d] = 0;
    return 1;
}

static void rand_tensor(uint32_t *s, tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                        int broadcast) {
    uint32_t st[8];
    const int strided = rand_layout(s, n, sizes, st, broadcast);
    tdesc_init(t, dt, n, sizes, strided ? st : NULL);
    if (rnd(s, 8) == 0) t->buf.TotalTensorSizeInBytes += 4 * (1 + rnd(s, 3));
}

static const char *seen[16];
static int n_seen;
static void note(const char *k) {
    for (int i = 0; i < n_seen; ++i)
        if (!strcmp(seen[i], k)) return;
    if (n_seen < 16) seen[n_seen++] = k;
}
static int saw(const char *prefix) {
    for (int i = 0; i < n_seen; ++i)
        if (!strncmp(seen[i], prefix, strlen(prefix))) return 1;
    return 0;
}

/* The reference into a 0xCD prefill, then the oracle and the fast path with 1 and 2 threads:
 * every output byte equal (gaps keep 0xCD).  Notes the fast kernels' names. */
static void check_all_paths_at(const char *file, int line, const ofix *f, const unsigned char *ix,
                               const unsigned char *va, const char *what) {
    const size_t ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *got = malloc(ob);
    if (!want || !got) abort();
    memset(want, 0xCD, ob);
    reference(f, ix, va, want);
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = mode == 2 ? 2u : 1u};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, FL, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *k = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(k, "oracle") != 0) test_fail(file, line, "%s: FORCE_ORACLE ran %s", what, k);
        if (mode > 0) {
            if (strncmp(k, "one_hot.", 8) != 0) test_fail(file, line, "%s: no fast kernel (%s)", what, k);
            note(k);
        }
        memset(got, 0xCD, ob);
        dmlref_cbuffer ins[2] = {{ix, (size_t)f->ix.buf.TotalTensorSizeInBytes},
                                 {va, (size_t)f->va.buf.TotalTensorSizeInBytes}};
        dmlref_buffer outs[1] = {{got, ob}};
        check_status_at(file, line, dmlref_execute(op, ins, 2, outs, 1, &err), &err, DMLREF_OK, NULL);
        if (memcmp(got, want, ob) != 0) {
            size_t at = 0;
            while (got[at] == want[at]) ++at;
            test_fail(file, line, "%s: %s (threads %u) differs from the reference at byte %zu of %zu", what, k,
                      o.threads, at, ob);
        }
        dmlref_release(op);
    }
    free(want);
    free(got);
}
#define CHECK_ALL_PATHS(f, ix, va, what) check_all_paths_at(__FILE__, __LINE__, (f), (ix), (va), (what))

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("one_hot.")

/* Random cases: 1-8 dims, every element size, the four index types (in range, negative,
 * just out of range, extreme), strided / gapped / broadcast Indices and Values, gapped
 * outputs, depths up to 700 (lines over 2 KiB); half of them with a tiny DMLREF_PAR_GRAIN
 * and DMLREF_STREAM_MIN, so that small tensors split over threads and stream. */
TEST(one_hot_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, F16, F32, F64};
    static const DMLREF_TENSOR_DATA_TYPE itypes[4] = {U32, I32, U64, I64};
    const uint64_t base_seed = test_seed(20261125);
    uint32_t seed = 0;
    n_seen = 0;
    for (int iter = 0; iter < 400; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        const int big = rnd(&seed, 5) == 0, tiny = rnd(&seed, 2) == 0;
        const uint32_t n = 1 + rnd(&seed, 8);
        /* the axis: the last dim half of the time (the rows kernels) */
        const uint32_t a = rnd(&seed, 2) ? n - 1 : rnd(&seed, n);
        uint32_t sizes[8], vs[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = rnd(&seed, 4) == 0 ? 1 : 1 + rnd(&seed, big ? 24 : 5);
            if (total * sizes[d] > (big ? 30000u : 600u)) sizes[d] = 1;
            total *= sizes[d];
        }
        if (rnd(&seed, 6) == 0) { /* a long line: depth up to 700 */
            const uint32_t depth = 200 + rnd(&seed, 501);
            if (total / sizes[a] * depth <= 40000u) sizes[a] = depth;
        }
        for (uint32_t d = 0; d < n; ++d) vs[d] = 1 + rnd(&seed, 2);
        if (vs[rnd(&seed, n)] == 1) vs[rnd(&seed, n)] = 2;
        uint64_t vcount = 1;
        for (uint32_t d = 0; d < n; ++d) vcount *= vs[d];
        if (vcount < 2) vs[0] = 2;
        const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(&seed, 4)], it = itypes[rnd(&seed, 4)];
        ofix f;
        ofix_init(&f, dt, it, n, sizes, vs, a);
        uint32_t ixs[8];
        memcpy(ixs, sizes, sizeof ixs);
        ixs[a] = 1;
        rand_tensor(&seed, &f.ix, it, n, ixs, 1);
        rand_tensor(&seed, &f.va, dt, n, vs, 1);
        rand_tensor(&seed, &f.out, dt, n, sizes, 0);
        unsigned char *ix = random_bytes(&seed, f.ix.buf.TotalTensorSizeInBytes);
        unsigned char *va = random_bytes(&seed, f.va.buf.TotalTensorSizeInBytes);
        const int sgn = it == I32 || it == I64;
        const uint32_t A = sizes[a];
        uint32_t c[8] = {0};
        do {
            const uint32_t k = rnd(&seed, 100);
            int64_t v = (int64_t)rnd(&seed, A);
            if (k >= 60 && k < 80 && sgn) v -= A;
            else if (k >= 80 && k < 88) v = (int64_t)A + rnd(&seed, 3);
            else if (k >= 88 && k < 92 && sgn) v = -(int64_t)A - 1 - rnd(&seed, 3);
            else if (k >= 92) {
                static const int64_t odd[] = {-1, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX, 1000000};
                v = odd[rnd(&seed, 6)];
            }
            put_index(it, ix, slot_of(&f.ix, c), v);
        } while (next_coord(ixs, n, c));
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "16", 1);
            setenv("DMLREF_STREAM_MIN", "0", 1);
            env_reload();
        }
        char what[96];
        snprintf(what, sizeof what, "case %d (n %u axis %u depth %u esize %u%s)", iter, n, a, A,
                 dmlref_data_type_size(dt), tiny ? ", tiny grain" : "");
        CHECK_ALL_PATHS(&f, ix, va, what);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
        free(ix);
        free(va);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    kernels_seen all = {{0}, 0};
    for (int i = 0; i < n_seen; ++i) kernels_note(&all, seen[i]);
    CHECK_KERNELS_REACHED(&all, "one_hot.", NULL); /* every one_hot.* kernel of src/ops/kernels.def */
}

/* The benchmark's shape (bench one_hot: INT32 indices {1048576,1}, FLOAT32 Values {1,2} = {0,1},
 * Axis 1, Output {1048576,16}) compiles to the streaming row kernel; the same shape with fewer
 * rows, run with DMLREF_STREAM_MIN=0 and a tiny grain, matches the reference on 1 and 2 threads. */
TEST(one_hot_benchmark_shape) {
    ofix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    ofix_init(&f, F32, I32, 2, SIZES(1048576, 16), SIZES(1, 2), 1);
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
#if DMLREF_SIMD
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "one_hot.rows_stream.", 20) == 0);
#else
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "one_hot.rows.", 13) == 0);
#endif
    dmlref_release(op);
    const dmlref_options forced = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    CHECK_STATUS(dmlref_compile(&f.d, FL, &forced, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
    dmlref_release(op);

    ofix_init(&f, F32, I32, 2, SIZES(4099, 16), SIZES(1, 2), 1);
    uint32_t seed = 5;
    int32_t *ix = malloc(4099 * sizeof *ix);
    if (!ix) abort();
    for (int i = 0; i < 4099; ++i) ix[i] = (int32_t)rnd(&seed, 20) - 2; /* -2 .. 17: some from the end, some off */
    const float va[2] = {0, 1};
    n_seen = 0;
    setenv("DMLREF_PAR_GRAIN", "64", 1);
    setenv("DMLREF_STREAM_MIN", "0", 1);
    env_reload();
    CHECK_ALL_PATHS(&f, (const unsigned char *)ix, (const unsigned char *)va, "benchmark shape, 4099 rows");
    unsetenv("DMLREF_PAR_GRAIN");
    unsetenv("DMLREF_STREAM_MIN");
    env_reload();
#if DMLREF_SIMD
    CHECK(saw("one_hot.rows_stream."));
#else
    CHECK(saw("one_hot.rows."));
#endif
    /* the output misaligned by 4 bytes inside its buffer: the same bytes */
    float *big = malloc((4099 * 16 + 1) * sizeof *big), *want = malloc(4099 * 16 * sizeof *want);
    if (!big || !want) abort();
    memset(want, 0xCD, 4099 * 16 * sizeof *want);
    reference(&f, (const unsigned char *)ix, (const unsigned char *)va, (unsigned char *)want);
    setenv("DMLREF_STREAM_MIN", "0", 1);
    env_reload();
    CHECK_STATUS(run(&f, FL, 0, 2, ix, va, big + 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(big + 1, want, 4099 * 16 * sizeof *want);
    unsetenv("DMLREF_STREAM_MIN");
    env_reload();
    free(big);
    free(want);
    free(ix);
}

/* The kernels by shape: contiguous lines (rows), long lines (over 2 KiB), lines with a
 * stride (strided), dims after Axis (planes). */
TEST(one_hot_kernel_names) {
    static const struct {
        uint32_t n, sizes[3], strides[3], axis;
        const char *kernel;
    } cases[] = {
        {2, {64, 10}, {0}, 1, "one_hot.rows."},
        {3, {64, 10, 1}, {0}, 1, "one_hot.rows."},
        {2, {8, 600}, {0}, 1, "one_hot.long_rows."},
        {2, {64, 10}, {1, 64}, 1, "one_hot.strided."},
        {2, {10, 64}, {0}, 0, "one_hot.planes."},
        {3, {4, 10, 5}, {0}, 1, "one_hot.planes."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ofix f;
        dmlref_error err;
        dmlref_operator *op = NULL;
        ofix_init(&f, F32, U32, cases[i].n, cases[i].sizes, SIZES(1, 1, 2) + 3 - cases[i].n, cases[i].axis);
        if (cases[i].strides[0]) tdesc_init(&f.out, F32, cases[i].n, cases[i].sizes, cases[i].strides);
        const dmlref_options one = {.flags = 0, .threads = 1};
        CHECK_STATUS(dmlref_compile(&f.d, FL, &one, &op, &err), err, DMLREF_OK, NULL);
        if (op && strncmp(dmlref_kernel_name(op), cases[i].kernel, strlen(cases[i].kernel)) != 0)
            test_fail(__FILE__, __LINE__, "case %zu: kernel %s, want %s", i, dmlref_kernel_name(op), cases[i].kernel);
        dmlref_release(op);
    }
}

/* Every element size through fixed layouts: a permuted output with gaps (its gap bytes keep
 * their prefill), Indices broadcast along a dim and strided, Values strided with gaps; Axis
 * outermost (planes), in the middle (planes) and last with a padded row stride (rows). */
TEST(one_hot_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, U16, F32, I64};
    static const DMLREF_TENSOR_DATA_TYPE itypes[4] = {I32, U32, I64, U64};
    uint32_t seed = 99;
    for (int k = 0; k < 4; ++k)
        for (uint32_t a = 0; a < 3; ++a) {
            ofix f;
            uint32_t out[3] = {3, 4, 2}, ixs[3];
            out[a] = 5; /* the depth */
            memcpy(ixs, out, sizeof ixs);
            ixs[a] = 1;
            ofix_init(&f, types[k], itypes[k], 3, out, SIZES(1, 3, 1), a);
            /* output: dim 2 outermost, a gap after each dim-1 run */
            const uint32_t os[3] = {1, out[0] + 1, (out[0] + 1) * out[1] + 2};
            tdesc_init(&f.out, types[k], 3, out, os);
            /* indices: dim 0 broadcast (when it is not the axis), the rest strided with a gap */
            const uint32_t xs[3] = {a == 0 ? 1 : 0, 2 * ixs[2] + 1, 2};
            tdesc_init(&f.ix, itypes[k], 3, ixs, xs);
            /* values {1,3,1} at stride 2: on = Values[0,1,0] is memory slot 2 */
            tdesc_init(&f.va, types[k], 3, SIZES(1, 3, 1), SIZES(1, 2, 1));
            unsigned char *ix = random_bytes(&seed, f.ix.buf.TotalTensorSizeInBytes);
            unsigned char *va = random_bytes(&seed, f.va.buf.TotalTensorSizeInBytes);
            uint32_t c[3] = {0};
            do {
                const int64_t v = (int64_t)rnd(&seed, 7) - 1; /* -1 .. 5: 5 is off, -1 is off for unsigned */
                put_index(itypes[k], ix, slot_of(&f.ix, c), v);
            } while (next_coord(ixs, 3, c));
            char what[64];
            snprintf(what, sizeof what, "element size %u, axis %u", dmlref_data_type_size(types[k]), a);
            CHECK_ALL_PATHS(&f, ix, va, what);
            free(ix);
            free(va);
        }
    /* exact values: UINT16, Axis 1 last, rows padded to 4 elements (stride 4): gaps keep 0xCDCD */
    ofix f;
    ofix_init(&f, U16, U32, 2, SIZES(2, 3), SIZES(1, 2), 1);
    tdesc_init(&f.out, U16, 2, SIZES(2, 3), SIZES(4, 1));
    const uint32_t ix[2] = {2, 3};
    const uint16_t va[2] = {7, 0xBEEF};
    const uint16_t want[8] = {7, 7, 0xBEEF, 0xCDCD, 7, 7, 7, 0xCDCD};
    RUN_PATHS(&f, FL, ix, va, want);
}
