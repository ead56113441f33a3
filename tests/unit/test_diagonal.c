/*
 * (Over 600 lines on purpose: one family's tests (two operators) over the shared
 * fixtures, reference and runner: rules, documented examples, data, random cases
 * against the oracle and every kernel reached.)
 *
 * DIAGONAL_MATRIX and DIAGONAL_MATRIX1 (P10): the descs' layouts and schemas,
 * every rule (DM1-DM4, DG1-DG7) at the feature levels where it differs, the
 * section's examples, the FLOAT value's conversion into every type (v0) and
 * the union's bits (v1), data of every element size through gapped, permuted
 * and broadcast layouts against an independent reference, NaN payloads and
 * -0.0, 64-bit band arithmetic at the INT32 extremes, the bindings, and the
 * fast path against the oracle on random cases with 1 and 2 threads (both
 * kernels reached).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define F64 DMLREF_TENSOR_DATA_TYPE_FLOAT64
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define I16 DMLREF_TENSOR_DATA_TYPE_INT16
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define U16 DMLREF_TENSOR_DATA_TYPE_UINT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define FL DMLREF_FEATURE_LEVEL_6_4
/* n, sizes (gfix_init takes the strides apart) */
#define SHAPE(...) NDIMS(__VA_ARGS__), SIZES(__VA_ARGS__)

static const DMLREF_TENSOR_DATA_TYPE all_types[11] = {F32, F16, U32, U16, U8, I32, I16, I8, F64, U64, I64};

/* ---- fixtures ------------------------------------------------------------------------- */

typedef struct dfix { /* DIAGONAL_MATRIX */
    tdesc out;
    DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC t;
    DMLREF_OPERATOR_DESC d;
} dfix;

static void dfix_init(dfix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, const uint32_t *strides,
                      int32_t offset, float value) {
    tdesc_init(&f->out, dt, n, sizes, strides);
    f->t = (DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC){&f->out.desc, offset, value};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_DIAGONAL_MATRIX, &f->t};
}

typedef struct gfix { /* DIAGONAL_MATRIX1 */
    tdesc in, out;
    DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC t;
    DMLREF_OPERATOR_DESC d;
} gfix;

/* in_strides: NULL = packed; with_input 0: InputTensor NULL.  Value: the union's
 * first esize bytes from `value` (bits, host order), the rest zero. */
static void gfix_init(gfix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, int with_input,
                      const uint32_t *in_strides, const uint32_t *out_strides, uint64_t value, int32_t begin,
                      int32_t end) {
    memset(f, 0, sizeof *f);
    tdesc_init(&f->in, dt, n, sizes, in_strides);
    tdesc_init(&f->out, dt, n, sizes, out_strides);
    DMLREF_SCALAR_UNION u;
    memset(&u, 0, sizeof u);
    switch (dmlref_data_type_size(dt)) {
    case 1: u.UInt8 = (uint8_t)value; break;
    case 2: u.UInt16 = (uint16_t)value; break;
    case 4: u.UInt32 = (uint32_t)value; break;
    default: u.UInt64 = value; break;
    }
    f->t = (DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC){with_input ? &f->in.desc : NULL, &f->out.desc, dt, u, begin, end};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_DIAGONAL_MATRIX1, &f->t};
}

static uint64_t f32_bits(float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}

/* The status, a fragment of the message, and the rule id ("" for none). */
static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

/* ---- layout and schema ------------------------------------------------------------------ */

enum { ABI_LP64, ABI_ILP32_A8, ABI_ILP32_A4, ABI_UNKNOWN };

static int host_abi(void) {
    struct probe { char c; uint64_t u; };
    const size_t a64 = offsetof(struct probe, u);
    if (sizeof(void *) == 8 && a64 == 8) return ABI_LP64;
    if (sizeof(void *) == 4 && a64 == 8) return ABI_ILP32_A8;
    if (sizeof(void *) == 4 && a64 == 4) return ABI_ILP32_A4;
    return ABI_UNKNOWN;
}

TEST(diagonal_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_SCALAR_UNION), 8);
    /* v0: OutputTensor, Offset, Value: 16 bytes on LP64, 12 on ILP32 */
    CHECK_EQ_U64(sizeof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC), p + 8);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC, OutputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC, Offset), p);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC, Value), p + 4);
    /* v1: InputTensor, OutputTensor, ValueDataType, Value (the union's alignment), Begin, End, sizeof */
    static const uint32_t want[3][7] = {{0, 8, 16, 24, 32, 36, 40}, {0, 4, 8, 16, 24, 28, 32}, {0, 4, 8, 12, 20, 24, 28}};
    const int abi = host_abi();
    if (abi == ABI_UNKNOWN) {
        TEST_SKIP("no layout table for this host's ABI");
        return;
    }
    const uint32_t *w = want[abi];
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, InputTensor), w[0]);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, OutputTensor), w[1]);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, ValueDataType), w[2]);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, Value), w[3]);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillBegin), w[4]);
    CHECK_EQ_U64(offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillEnd), w[5]);
    CHECK_EQ_U64(sizeof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC), w[6]);
}

TEST(diagonal_schemas) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_DIAGONAL_MATRIX);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "DIAGONAL_MATRIX") == 0);
    CHECK_EQ_U64(sc->type, 93);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_2_0);
    CHECK_EQ_U64(sc->flags, 0);
    CHECK_EQ_U64(sc->n_slots, 1);
    CHECK(strcmp(sc->slots[0].name, "OutputTensor") == 0 && sc->slots[0].is_output && !sc->slots[0].is_optional);
    CHECK_EQ_U64(sc->n_params, 2);
    CHECK(strcmp(sc->params[0].name, "Offset") == 0 && sc->params[0].kind == DMLREF_PARAM_INT);
    CHECK_EQ_U64(sc->params[0].offset, offsetof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC, Offset));
    CHECK(strcmp(sc->params[1].name, "Value") == 0 && sc->params[1].kind == DMLREF_PARAM_FLOAT);
    CHECK_EQ_U64(sc->params[1].offset, offsetof(DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC, Value));

    sc = dmlref_operator_schema(DMLREF_OPERATOR_DIAGONAL_MATRIX1);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "DIAGONAL_MATRIX1") == 0);
    CHECK_EQ_U64(sc->type, 163);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_5_1);
    CHECK_EQ_U64(sc->flags, 0); /* no in-place execution */
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output && sc->slots[0].is_optional);
    CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output && !sc->slots[1].is_optional);
    CHECK_EQ_U64(sc->slots[1].offset, offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, OutputTensor));
    CHECK_EQ_U64(sc->n_params, 4);
    const dmlref_param *t = &sc->params[0], *v = &sc->params[1], *b = &sc->params[2], *e = &sc->params[3];
    CHECK(strcmp(t->name, "ValueDataType") == 0 && t->kind == DMLREF_PARAM_ENUM && t->enum_count == 12);
    CHECK(t->enum_names && t->enum_names[1] && strcmp(t->enum_names[1], "FLOAT32") == 0);
    CHECK(t->enum_names && t->enum_names[11] && strcmp(t->enum_names[11], "INT64") == 0);
    CHECK_EQ_U64(t->offset, offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, ValueDataType));
    CHECK(strcmp(v->name, "Value") == 0 && v->kind == DMLREF_PARAM_SCALAR_UNION);
    CHECK_EQ_U64(v->offset, offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, Value));
    CHECK_EQ_U64(v->type_offset, offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, ValueDataType));
    CHECK(strcmp(b->name, "DiagonalFillBegin") == 0 && b->kind == DMLREF_PARAM_INT);
    CHECK_EQ_U64(b->offset, offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillBegin));
    CHECK(strcmp(e->name, "DiagonalFillEnd") == 0 && e->kind == DMLREF_PARAM_INT);
    CHECK_EQ_U64(e->offset, offsetof(DMLREF_DIAGONAL_MATRIX1_OPERATOR_DESC, DiagonalFillEnd));
}

/* ---- rules ---------------------------------------------------------------------------------- */

/* P0.3: 2_0 4-D {F32, F16}; 2_1 4-D T8; 4_0 2-4 dims T8; 5_1 2-4 dims T11. */
TEST(diagonal_matrix_rules) {
    dfix f;
    dmlref_error err;
    dfix_init(&f, F32, DIMS(1, 1, 3, 3), 0, 1.0f);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);

    /* DM3: before 2_0 the operator does not exist (the API's check, no rule id) */
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "DIAGONAL_MATRIX: not available at feature level 1_0 (introduced in 2_0)", "");

    /* DM1: exactly 4 dims before 4_0, then 2 to 4 */
    dfix_init(&f, F32, DIMS(3, 3), 0, 1.0f);
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "DIAGONAL_MATRIX: OutputTensor.DimensionCount (2) must be in [4, 4] at feature level 2_0", "DM1");
    CHECK(strcmp(err.field, "OutputTensor.DimensionCount") == 0);
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "must be in [4, 4] at feature level 3_1", "DM1");
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    dfix_init(&f, F32, DIMS(2, 3, 3), 0, 1.0f);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    dfix_init(&f, F32, DIMS(3), 0, 1.0f);
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "DIAGONAL_MATRIX: OutputTensor.DimensionCount (1) must be in [2, 4] at feature level 6_4", "DM1");
    dfix_init(&f, F32, DIMS(1, 1, 1, 3, 3), 0, 1.0f);
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "OutputTensor.DimensionCount (5) must be in [2, 4]", "DM1");

    /* DM2: {F32, F16} at 2_0, T8 from 2_1, T11 from 5_1 */
    dfix_init(&f, F16, DIMS(1, 1, 3, 3), 0, 1.0f);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);
    dfix_init(&f, I8, DIMS(1, 1, 3, 3), 0, 1.0f);
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE,
               "DIAGONAL_MATRIX: OutputTensor.DataType (INT8) is not supported at feature level 2_0 (allowed: FLOAT32 "
               "FLOAT16)",
               "DM2");
    CHECK(strcmp(err.field, "OutputTensor.DataType") == 0);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
    static const DMLREF_TENSOR_DATA_TYPE wide[3] = {F64, I64, U64};
    for (int k = 0; k < 3; ++k) {
        dfix_init(&f, wide[k], DIMS(3, 3), 0, 1.0f);
        CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                   "is not supported at feature level 5_0 (allowed: FLOAT32 FLOAT16 UINT32 UINT16 UINT8 INT32 INT16 INT8)",
                   "DM2");
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);
    }
    /* dims are checked before the type */
    dfix_init(&f, I8, DIMS(3, 3), 0, 1.0f);
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "[4, 4]", "DM1");

    /* DM4: every Offset and Value is valid */
    static const int32_t offsets[4] = {INT32_MIN, INT32_MAX, -1000000, 1000000};
    static const float values[5] = {NAN, INFINITY, -INFINITY, -0.0f, 3.4e38f};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 5; ++j)
            for (int k = 0; k < 11; ++k) {
                dfix_init(&f, all_types[k], DIMS(2, 3), offsets[i], values[j]);
                CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);
            }

    /* the tensor rules */
    dfix_init(&f, F32, DIMS(3, 3), 0, 1.0f);
    f.t.OutputTensor = NULL;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "DIAGONAL_MATRIX: OutputTensor is NULL",
               "T1");
    dfix_init(&f, F32, 2, SIZES(3, 3), SIZES(0, 1), 0, 1.0f);
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0", "T15");
    dfix_init(&f, F32, DIMS(3, 3), 0, 1.0f);
    f.out.buf.TotalTensorSizeInBytes = 32;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_TENSOR_SIZE, "OutputTensor", "T13");
}

TEST(diagonal_matrix1_rules) {
    gfix f;
    dmlref_error err;
    gfix_init(&f, F32, SHAPE(4, 5), 0, NULL, NULL, f32_bits(7.0f), 0, 3);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, INT32_MIN, 1);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);

    /* DG6: before 5_1 the operator does not exist (the API's check, no rule id) */
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "DIAGONAL_MATRIX1: not available at feature level 5_0 (introduced in 5_1)", "");

    /* DG1: 2 to 4 dims */
    for (int with = 0; with < 2; ++with) {
        gfix_init(&f, F32, SHAPE(5), with, NULL, NULL, 0, 0, 1);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                   "DIAGONAL_MATRIX1: OutputTensor.DimensionCount (1) must be in [2, 4] at feature level 6_4", "DG1");
        gfix_init(&f, F32, SHAPE(1, 1, 1, 4, 5), with, NULL, NULL, 0, 0, 1);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                   "OutputTensor.DimensionCount (5) must be in [2, 4]", "DG1");
        gfix_init(&f, F32, SHAPE(2, 3, 4, 5), with, NULL, NULL, 0, 0, 1);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);
    }
    /* DG2: T11, all of it at 5_1; 4-bit and unknown types are the tensor rules' */
    for (int k = 0; k < 11; ++k) {
        gfix_init(&f, all_types[k], SHAPE(2, 3), 1, NULL, NULL, 0, 0, 1);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);
    }
    gfix_init(&f, F32, SHAPE(2, 4), 0, NULL, NULL, 0, 0, 1);
    f.out.buf.DataType = (DMLREF_TENSOR_DATA_TYPE)12; /* UINT4 */
    f.t.ValueDataType = (DMLREF_TENSOR_DATA_TYPE)12;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "OutputTensor", "T5");

    /* DG3: the input's DataType, then its DimensionCount */
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, 0, 1);
    f.in.buf.DataType = F16;
    f.in.buf.TotalTensorSizeInBytes = 40;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "DIAGONAL_MATRIX1: InputTensor.DataType (FLOAT16) must equal OutputTensor.DataType (FLOAT32)", "DG3");
    CHECK(strcmp(err.field, "InputTensor.DataType") == 0);
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, 0, 1);
    tdesc_init(&f.in, F32, DIMS(1, 4, 5));
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "DIAGONAL_MATRIX1: InputTensor.DimensionCount (3) must equal OutputTensor.DimensionCount (2)", "DG3");
    CHECK(strcmp(err.field, "InputTensor.DimensionCount") == 0);

    /* DG4 (decision, section 9 item 33): the input's Sizes */
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, 0, 1);
    tdesc_init(&f.in, F32, DIMS(4, 1));
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_SIZES,
               "DIAGONAL_MATRIX1: InputTensor.Sizes {4,1} must equal OutputTensor {4,5} (they differ at dimension 1)",
               "DG4");
    CHECK(strcmp(err.field, "InputTensor.Sizes") == 0);
    /* a broadcast input of the same Sizes is fine (zero strides) */
    gfix_init(&f, F32, 2, SIZES(4, 5), 1, SIZES(0, 1), NULL, 0, 0, 1);
    CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);

    /* DG5: ValueDataType is the output's */
    gfix_init(&f, I32, SHAPE(4, 5), 0, NULL, NULL, 7, 0, 1);
    f.t.ValueDataType = F32;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "DIAGONAL_MATRIX1: ValueDataType (FLOAT32) must equal OutputTensor.DataType (INT32)", "DG5");
    CHECK(strcmp(err.field, "ValueDataType") == 0);
    f.t.ValueDataType = (DMLREF_TENSOR_DATA_TYPE)0;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "DIAGONAL_MATRIX1: ValueDataType (0) must equal OutputTensor.DataType (INT32)", "DG5");
    f.t.ValueDataType = (DMLREF_TENSOR_DATA_TYPE)99;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "ValueDataType (99) must equal", "DG5");
    /* order: the input's rules (DG3) come before DG5 */
    gfix_init(&f, I32, SHAPE(4, 5), 1, NULL, NULL, 7, 0, 1);
    f.t.ValueDataType = F32;
    tdesc_init(&f.in, I32, DIMS(4, 4));
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_SIZES, "InputTensor.Sizes", "DG4");

    /* DG7: every Begin and End is valid */
    static const int32_t ends[5] = {INT32_MIN, -1, 0, 1, INT32_MAX};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
            gfix_init(&f, U8, SHAPE(2, 3), (i + j) & 1, NULL, NULL, 9, ends[i], ends[j]);
            CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);
        }

    /* the tensor rules of both tensors, the input's first */
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, 0, 1);
    f.in.buf.Sizes = NULL;
    f.out.buf.Sizes = NULL;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "DIAGONAL_MATRIX1: InputTensor.Sizes is NULL",
               "T9");
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, 0, 1);
    f.in.desc.Desc = NULL;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "InputTensor.Desc is NULL", "T3");
    gfix_init(&f, F32, SHAPE(4, 5), 0, NULL, NULL, 0, 0, 1);
    f.t.OutputTensor = NULL;
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "DIAGONAL_MATRIX1: OutputTensor is NULL",
               "T1");
    gfix_init(&f, F32, 2, SIZES(4, 5), 0, NULL, SIZES(1, 0), 0, 0, 1);
    CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[1] is 0", "T15");
}

/* ---- running it ---------------------------------------------------------------------------- */

static unsigned char *random_bytes(uint64_t *s, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    if (!p) abort();
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)splitmix64(s);
    return p;
}

/* An independent reference, written from the section's words rather than its
 * XOR: [Begin, End) of x - y when Begin <= End, else everything outside
 * [End, Begin).  Each output element from its row-major number; value = esize
 * bytes; in NULL: zero bytes; other bytes untouched. */
static void ref_diagonal(const DMLREF_BUFFER_TENSOR_DESC *ob, const DMLREF_BUFFER_TENSOR_DESC *ib,
                         const unsigned char *in, int64_t begin, int64_t end, const unsigned char *value,
                         unsigned char *out) {
    const uint32_t n = ob->DimensionCount, es = dmlref_data_type_size(ob->DataType);
    uint64_t count = 1, ist[8] = {0}, ost[8];
    for (uint32_t d = n, a = 1, b = 1; d-- > 0;) {
        ost[d] = ob->Strides ? ob->Strides[d] : b;
        if (ib) ist[d] = ib->Strides ? ib->Strides[d] : a;
        a *= ob->Sizes[d];
        b *= ob->Sizes[d];
        count *= ob->Sizes[d];
    }
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t q = e, io = 0, oo = 0, c[8];
        for (uint32_t d = n; d-- > 0;) {
            c[d] = q % ob->Sizes[d];
            q /= ob->Sizes[d];
            oo += c[d] * ost[d];
            io += c[d] * ist[d];
        }
        const int64_t t = (int64_t)c[n - 1] - (int64_t)c[n - 2];
        const int band = begin <= end ? (t >= begin && t < end) : (t < end || t >= begin);
        if (band) memcpy(out + oo * es, value, es);
        else if (in) memcpy(out + oo * es, in + io * es, es);
        else memset(out + oo * es, 0, es);
    }
}

/* Runs desc d through the oracle and the fast path (threads 1 and 2) into
 * outputs prefilled with 0xA5, each compared with `want`; in may be NULL.
 * Returns 1 when a run used a diagonal.* kernel; *kernel gets the last name. */
static int run_all_at(const char *file, int line, const DMLREF_OPERATOR_DESC *d, DMLREF_FEATURE_LEVEL fl,
                      const unsigned char *in, size_t in_bytes, size_t out_bytes, const unsigned char *want,
                      const char **kernel) {
    unsigned char *got = malloc(out_bytes ? out_bytes : 1);
    if (!got) abort();
    int fast = 0;
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(d, fl, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (mode > 0 && strncmp(name, "diagonal.", 9) == 0) fast = 1;
        if (kernel) *kernel = name;
        memset(got, 0xA5, out_bytes);
        dmlref_cbuffer ib[1] = {{in, in_bytes}};
        dmlref_buffer ob[1] = {{got, out_bytes}};
        const uint32_t n_in = in ? 1 : 0;
        check_status_at(file, line, dmlref_execute(op, ib, n_in, ob, 1, &err), &err, DMLREF_OK, NULL);
        if (memcmp(got, want, out_bytes) != 0) {
            size_t at = 0;
            while (got[at] == want[at]) ++at;
            test_fail(file, line, "%s (threads %d) differs from the reference at byte %zu of %zu", name,
                      mode ? mode : 1, at, out_bytes);
        }
        dmlref_release(op);
    }
    free(got);
    return fast;
}
#define RUN_ALL(d, fl, in, in_bytes, out_bytes, want, kernel)                                                          \
    run_all_at(__FILE__, __LINE__, (d), (fl), (in), (in_bytes), (out_bytes), (want), (kernel))

/* DIAGONAL_MATRIX1 fixture against the reference (value: the union's bytes). */
static int run_g_at(const char *file, int line, const gfix *f, const unsigned char *in, const char **kernel) {
    const size_t ob = (size_t)f->out.buf.TotalTensorSizeInBytes, ibytes = (size_t)f->in.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob ? ob : 1);
    if (!want) abort();
    memset(want, 0xA5, ob);
    const int has = f->t.InputTensor != NULL;
    ref_diagonal(&f->out.buf, has ? &f->in.buf : NULL, has ? in : NULL, f->t.DiagonalFillBegin, f->t.DiagonalFillEnd,
                 f->t.Value.Bytes, want);
    const int r = run_all_at(file, line, &f->d, FL, has ? in : NULL, has ? ibytes : 0, ob, want, kernel);
    free(want);
    return r;
}
#define RUN_G(f, in, kernel) run_g_at(__FILE__, __LINE__, (f), (in), (kernel))

/* ---- the section's examples (tests/cases/diagonal_matrix*_doc*.json) ------------------------------------ */

TEST(diagonal_matrix_doc_examples) {
    /* Value 1.0, FLOAT32: Offset 0 {1,1,3,3} identity; 1 {1,1,3,3}; -1 {1,1,3,2}; -3 {1,1,3,2} zeros */
    static const struct {
        int32_t offset;
        uint32_t w;
        float want[9];
    } ex[4] = {
        {0, 3, {1, 0, 0, 0, 1, 0, 0, 0, 1}},
        {1, 3, {0, 1, 0, 0, 0, 1, 0, 0, 0}},
        {-1, 2, {0, 0, 1, 0, 0, 1}},
        {-3, 2, {0, 0, 0, 0, 0, 0}},
    };
    for (int k = 0; k < 4; ++k) {
        dfix f;
        dfix_init(&f, F32, DIMS(1, 1, 3, ex[k].w), ex[k].offset, 1.0f);
        const size_t bytes = 3 * ex[k].w * sizeof(float);
        CHECK_EQ_U64(f.out.buf.TotalTensorSizeInBytes, bytes);
        CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_2_0, NULL, 0, bytes, (const unsigned char *)ex[k].want, NULL));
        /* also FLOAT16 at 2_0: 1.0 = 0x3C00 */
        dfix_init(&f, F16, DIMS(1, 1, 3, ex[k].w), ex[k].offset, 1.0f);
        uint16_t h[9];
        for (uint32_t i = 0; i < 3 * ex[k].w; ++i) h[i] = ex[k].want[i] != 0 ? 0x3C00 : 0;
        const size_t hb = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char hw[20];
        memset(hw, 0xA5, sizeof hw);
        memcpy(hw, h, 3 * ex[k].w * 2);
        CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_2_0, NULL, 0, hb, hw, NULL));
    }
}

TEST(diagonal_matrix1_doc_examples) {
    gfix f;
    /* {4,5} F32, no input: Begin 0, End 3, Value 7 */
    static const float band[20] = {7, 7, 7, 0, 0, 0, 7, 7, 7, 0, 0, 0, 7, 7, 7, 0, 0, 0, 7, 7};
    gfix_init(&f, F32, SHAPE(4, 5), 0, NULL, NULL, f32_bits(7.0f), 0, 3);
    CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_5_1, NULL, 0, sizeof band, (const unsigned char *)band, NULL));
    /* "Default identity matrix": Begin 0, End 1.  The page prints Value 7 with an
     * output of ones (section 9 item 32): Value 1 gives ones, Value 7 sevens */
    float eye[20] = {0};
    for (int i = 0; i < 4; ++i) eye[i * 5 + i] = 1;
    gfix_init(&f, F32, SHAPE(4, 5), 0, NULL, NULL, f32_bits(1.0f), 0, 1);
    CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_5_1, NULL, 0, sizeof eye, (const unsigned char *)eye, NULL));
    for (int i = 0; i < 4; ++i) eye[i * 5 + i] = 7;
    gfix_init(&f, F32, SHAPE(4, 5), 0, NULL, NULL, f32_bits(7.0f), 0, 1);
    CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_5_1, NULL, 0, sizeof eye, (const unsigned char *)eye, NULL));
    /* with an input, Value 0 */
    static const float in[20] = {4, 7, 3, 7, 9, 1, 2, 8, 6, 9, 9, 4, 1, 8, 7, 4, 3, 4, 2, 4};
    static const float upper[20] = {0, 7, 3, 7, 9, 0, 0, 8, 6, 9, 0, 0, 0, 8, 7, 0, 0, 0, 0, 4};
    static const float diag[20] = {4, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0};
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, INT32_MIN, 1);
    CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_5_1, (const unsigned char *)in, sizeof in, sizeof upper,
                  (const unsigned char *)upper, NULL));
    gfix_init(&f, F32, SHAPE(4, 5), 1, NULL, NULL, 0, 1, 0); /* inverted: the diagonal kept */
    CHECK(RUN_ALL(&f.d, DMLREF_FEATURE_LEVEL_5_1, (const unsigned char *)in, sizeof in, sizeof diag,
                  (const unsigned char *)diag, NULL));
    /* v0 is v1 with [Offset, Offset + 1): the same bytes for every Offset across the matrix */
    for (int32_t off = -6; off <= 6; ++off) {
        dfix d0;
        dfix_init(&d0, F32, DIMS(4, 5), off, 7.0f);
        float w[20];
        gfix_init(&f, F32, SHAPE(4, 5), 0, NULL, NULL, f32_bits(7.0f), off, off + 1);
        memset(w, 0xA5, sizeof w);
        ref_diagonal(&f.out.buf, NULL, NULL, off, off + 1, f.t.Value.Bytes, (unsigned char *)w);
        CHECK(RUN_ALL(&d0.d, FL, NULL, 0, sizeof w, (const unsigned char *)w, NULL));
        CHECK(RUN_ALL(&f.d, FL, NULL, 0, sizeof w, (const unsigned char *)w, NULL));
    }
}

/* ---- values --------------------------------------------------------------------------------- */

/* v0's FLOAT Value as each type (scalar_from_float): truncate toward zero, saturate, NaN -> 0,
 * FLOAT16 to nearest even, FLOAT64 exact, -0.0 kept in the float types. */
TEST(diagonal_matrix_value_conversion) {
    static const struct {
        DMLREF_TENSOR_DATA_TYPE dt;
        float v;
        uint64_t bits;
    } cases[] = {
        {I32, 10.6f, 10},
        {I32, -10.6f, (uint32_t)-10},
        {U32, -10.6f, 0},
        {U8, 300.0f, 255},
        {I8, 300.0f, 127},
        {I8, -300.0f, 0x80},
        {I16, NAN, 0},
        {U64, INFINITY, UINT64_MAX},
        {I64, -INFINITY, (uint64_t)INT64_MIN},
        {I64, 1e30f, (uint64_t)INT64_MAX},
        {U16, 65535.9f, 65535},
        {I32, 2147483648.0f, 0x7fffffff},
        {F16, 1.0f, 0x3C00},
        {F16, 0.1f, 0x2E66},      /* 0.0999755859375, nearest */
        {F16, 65520.0f, 0x7C00},  /* halfway to 2^16 rounds to even: infinity */
        {F16, -0.0f, 0x8000},
        {F32, -0.0f, 0x80000000u},
        {F64, 0.1f, 0x3FB99999A0000000ull}, /* (double)0.1f, exact */
        {F64, -0.0f, 0x8000000000000000ull},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        dfix f;
        dfix_init(&f, cases[k].dt, DIMS(2, 2), 0, cases[k].v);
        const uint32_t es = dmlref_data_type_size(cases[k].dt);
        unsigned char want[32], v[8];
        switch (es) {
        case 1: { const uint8_t x = (uint8_t)cases[k].bits; memcpy(v, &x, 1); break; }
        case 2: { const uint16_t x = (uint16_t)cases[k].bits; memcpy(v, &x, 2); break; }
        case 4: { const uint32_t x = (uint32_t)cases[k].bits; memcpy(v, &x, 4); break; }
        default: memcpy(v, &cases[k].bits, 8); break;
        }
        const size_t ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
        memset(want, 0xA5, sizeof want);
        memset(want, 0, 4 * es);
        memcpy(want, v, es);
        memcpy(want + 3 * es, v, es);
        const int before = test_failures();
        CHECK(RUN_ALL(&f.d, FL, NULL, 0, ob, want, NULL));
        if (test_failures() != before) fprintf(stderr, "  conversion case %zu\n", k);
    }
    /* NaN stays a NaN in the float types (FLOAT16: quiet, the top payload bits) */
    dfix f;
    const uint32_t nan_bits = 0x7FC01234u;
    float nanv;
    memcpy(&nanv, &nan_bits, 4);
    dfix_init(&f, F32, DIMS(1, 1), 0, nanv);
    uint32_t out32 = 0;
    dmlref_buffer ob[1] = {{&out32, 4}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, NULL, 0, ob, 1, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(out32, nan_bits);
    dfix_init(&f, F16, DIMS(1, 2), 0, nanv);
    uint16_t out16[2] = {1, 1};
    dmlref_buffer ob16[1] = {{out16, 4}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, NULL, 0, ob16, 1, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(out16[0], 0x7E00u | (0x7FC01234u >> 13 & 0x3FFu));
    CHECK_EQ_U64(out16[1], 0);
}

/* v1's union: the first esize bytes, bit for bit (NaN payloads, -0.0, the integer extremes); the
 * bytes past them are ignored. */
TEST(diagonal_matrix1_value_bits) {
    static const struct {
        DMLREF_TENSOR_DATA_TYPE dt;
        uint64_t bits;
    } cases[] = {
        {F16, 0x7E01}, {F16, 0x7C01}, {F16, 0x8000}, {F16, 0x0001}, {F32, 0x7F800001u}, {F32, 0x80000000u},
        {F32, 0x7FC01234u}, {F64, 0x7FF0000000000001ull}, {F64, 0x8000000000000000ull}, {I64, (uint64_t)INT64_MIN},
        {I64, (uint64_t)INT64_MAX}, {U64, UINT64_MAX}, {I8, 0x80}, {U16, 0xFFFF}, {I32, 0x80000000u},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
        gfix f;
        gfix_init(&f, cases[k].dt, SHAPE(3, 3), 0, NULL, NULL, cases[k].bits, 0, 1);
        const uint32_t es = dmlref_data_type_size(cases[k].dt);
        for (uint32_t b = es; b < 8; ++b) f.t.Value.Bytes[b] = 0xEE; /* not the value's */
        unsigned char want[80];
        memset(want, 0, sizeof want);
        for (int i = 0; i < 3; ++i) memcpy(want + (size_t)(4 * i) * es, f.t.Value.Bytes, es);
        const size_t ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
        memset(want + 9 * es, 0xA5, ob - 9 * es);
        CHECK(RUN_ALL(&f.d, FL, NULL, 0, ob, want, NULL));
    }
}

/* 64-bit band arithmetic: y + Offset, y + Begin, y + End never wrap. */
TEST(diagonal_extreme_offsets) {
    uint64_t s = 3;
    dfix f;
    float zeros[16] = {0}, ones[16];
    for (int i = 0; i < 16; ++i) ones[i] = 1;
    /* Offset INT32_MAX: End = 2^31 in 64 bits (in 32 bits INT32_MIN, which would invert the band: all ones) */
    dfix_init(&f, F32, DIMS(4, 4), INT32_MAX, 1.0f);
    CHECK(RUN_ALL(&f.d, FL, NULL, 0, sizeof zeros, (const unsigned char *)zeros, NULL));
    dfix_init(&f, F32, DIMS(4, 4), INT32_MIN, 1.0f);
    CHECK(RUN_ALL(&f.d, FL, NULL, 0, sizeof zeros, (const unsigned char *)zeros, NULL));
    gfix g;
    /* [INT32_MIN, INT32_MAX): everything; inverted [INT32_MAX, INT32_MIN): nothing */
    gfix_init(&g, F32, SHAPE(4, 4), 0, NULL, NULL, f32_bits(1.0f), INT32_MIN, INT32_MAX);
    CHECK(RUN_ALL(&g.d, FL, NULL, 0, sizeof ones, (const unsigned char *)ones, NULL));
    gfix_init(&g, F32, SHAPE(4, 4), 1, NULL, NULL, f32_bits(1.0f), INT32_MAX, INT32_MIN);
    unsigned char *in = random_bytes(&s, sizeof ones);
    CHECK(RUN_G(&g, in, NULL));
    free(in);
    /* Begin == End: an empty band, whatever its place */
    static const int32_t same[4] = {INT32_MIN, 0, 2, INT32_MAX};
    for (int k = 0; k < 4; ++k) {
        gfix_init(&g, F32, SHAPE(4, 4), 0, NULL, NULL, f32_bits(1.0f), same[k], same[k]);
        CHECK(RUN_ALL(&g.d, FL, NULL, 0, sizeof zeros, (const unsigned char *)zeros, NULL));
    }
    /* ONNX Trilu's bands, 64-bit ends: upper [INT32_MIN, k), lower [k + 1, INT32_MAX) */
    for (int32_t k = -5; k <= 5; ++k) {
        gfix_init(&g, I16, SHAPE(3, 5), 1, NULL, NULL, 0, INT32_MIN, k);
        in = random_bytes(&s, (size_t)g.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_G(&g, in, NULL));
        free(in);
        gfix_init(&g, I16, SHAPE(3, 5), 1, NULL, NULL, 0, k + 1, INT32_MAX);
        in = random_bytes(&s, (size_t)g.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_G(&g, in, NULL));
        free(in);
    }
}

/* ---- data ------------------------------------------------------------------------------------ */

/* Every element size: a permuted gapped output, a strided input with a broadcast dim, and
 * exact values through a gapped output whose gaps must keep their bytes. */
TEST(diagonal_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, F16, F32, I64};
    uint64_t s = 17;
    for (int k = 0; k < 4; ++k) {
        gfix f;
        /* {2,3,4}: input strides {0,5,1} (batch broadcast, a gap after each row); output permuted
         * (x outermost) with gaps */
        gfix_init(&f, types[k], 3, SIZES(2, 3, 4), 1, SIZES(0, 5, 1), SIZES(1, 2, 9), 0x7F, -1, 2);
        unsigned char *in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_G(&f, in, NULL));
        f.t.DiagonalFillBegin = 2, f.t.DiagonalFillEnd = -1; /* inverted */
        CHECK(RUN_G(&f, in, NULL));
        f.t.InputTensor = NULL;
        CHECK(RUN_G(&f, in, NULL));
        free(in);
        /* packed, rows padded */
        gfix_init(&f, types[k], 2, SIZES(3, 5), 1, NULL, SIZES(7, 1), 0x55, 1, 3);
        in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_G(&f, in, NULL));
        free(in);
        dfix d;
        dfix_init(&d, types[k], 4, SIZES(2, 1, 3, 3), SIZES(20, 20, 1, 4), -1, 5.0f);
        const size_t ob = (size_t)d.out.buf.TotalTensorSizeInBytes;
        unsigned char *want = malloc(ob), value[8];
        if (!want) abort();
        {
            /* 5.0 as each of the four types */
            const uint8_t v8 = 5;
            const uint16_t v16 = 0x4500;
            const float v32 = 5.0f;
            const int64_t v64 = 5;
            memcpy(value, types[k] == U8 ? (const void *)&v8 : types[k] == F16 ? (const void *)&v16
                          : types[k] == F32 ? (const void *)&v32 : (const void *)&v64, dmlref_data_type_size(types[k]));
        }
        memset(want, 0xA5, ob);
        ref_diagonal(&d.out.buf, NULL, NULL, -1, 0, value, want);
        CHECK(RUN_ALL(&d.d, FL, NULL, 0, ob, want, NULL));
        free(want);
    }
    /* exact INT16: {3,3} input [[1,2,3],[4,5,6],[7,8,9]], band [0,1) Value -1 into an output with
     * row stride 4 (one gap element per row, kept) */
    gfix f;
    gfix_init(&f, I16, 2, SIZES(3, 3), 1, NULL, SIZES(4, 1), (uint16_t)-1, 0, 1);
    const int16_t in[3 * 3 + 1] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
    int16_t out[12];
    for (int i = 0; i < 12; ++i) out[i] = 99;
    dmlref_cbuffer ins[1] = {{in, sizeof in}}; /* 18 bytes rounded up to 4 */
    dmlref_buffer outs[1] = {{out, sizeof out}};
    dmlref_error err;
    CHECK_EQ_U64(f.out.buf.TotalTensorSizeInBytes, 24);
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    const int16_t want[12] = {-1, 2, 3, 99, 4, -1, 6, 99, 7, 8, -1, 99};
    CHECK_MEM(out, want, sizeof want);
}

/* Input NaN payloads (quiet and signalling), -0.0 and infinities move as bits around the band. */
TEST(diagonal_input_bits) {
    gfix f;
    gfix_init(&f, F32, SHAPE(2, 3), 1, NULL, NULL, 0x7FA00001u, 1, 2);
    const uint32_t in[6] = {0x7fc01234u, 0x80000000u, 0x7f800001u, 0xff800000u, 0x00000001u, 0xffc00000u};
    const uint32_t want[6] = {0x7fc01234u, 0x7FA00001u, 0x7f800001u, 0xff800000u, 0x00000001u, 0x7FA00001u};
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags, .threads = 0};
        uint32_t out[6] = {0};
        dmlref_cbuffer ins[1] = {{in, sizeof in}};
        dmlref_buffer outs[1] = {{out, sizeof out}};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
    gfix_init(&f, F16, SHAPE(2, 2), 1, NULL, NULL, 0x8000, 0, 1); /* -0.0 on the diagonal */
    const uint16_t h[4] = {0x7e01u, 0x7c01u, 0xfc00u, 0x3c00u};
    uint16_t hout[4] = {0};
    dmlref_cbuffer hin[1] = {{h, sizeof h}};
    dmlref_buffer houts[1] = {{hout, sizeof hout}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, hin, 1, houts, 1, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(hout[0], 0x8000);
    CHECK_EQ_U64(hout[1], 0x7c01);
    CHECK_EQ_U64(hout[2], 0xfc00);
    CHECK_EQ_U64(hout[3], 0x8000);
}

/* ---- bindings ----------------------------------------------------------------------------- */

TEST(diagonal_bindings) {
    dmlref_error err;
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6];
    /* v0 binds no input */
    dfix d;
    dfix_init(&d, F32, DIMS(2, 3), 0, 1.0f);
    dmlref_operator *op = NULL;
    CHECK_STATUS(dmlref_compile(&d.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(dmlref_input_count(op), 0);
    CHECK_EQ_U64(dmlref_output_count(op), 1);
    dmlref_cbuffer ins[1] = {{a, sizeof a}};
    dmlref_buffer outs[1] = {{b, sizeof b}};
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "DIAGONAL_MATRIX: execute was given 1 input and 1 output buffers; the operator binds 0 and 1");
    CHECK_STATUS(dmlref_execute(op, NULL, 0, outs, 1, &err), err, DMLREF_OK, NULL);
    outs[0].size = 20;
    CHECK_STATUS(dmlref_execute(op, NULL, 0, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "DIAGONAL_MATRIX: the OutputTensor buffer holds 20 bytes");
    dmlref_release(op);
    outs[0].size = sizeof b;

    /* v1: one input with InputTensor, none without */
    gfix g;
    gfix_init(&g, F32, SHAPE(2, 3), 1, NULL, NULL, 0, 0, 1);
    CHECK_STATUS(dmlref_compile(&g.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(dmlref_input_count(op), 1);
    CHECK_STATUS(dmlref_execute(op, NULL, 0, outs, 1, &err), err, DMLREF_ERROR_BINDING, "execute was given 0 input");
    ins[0].data = NULL;
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "DIAGONAL_MATRIX1: the InputTensor buffer is NULL");
    /* no in-place form: the output may not overlap the input */
    ins[0].data = a;
    outs[0].data = a;
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "DIAGONAL_MATRIX1: the OutputTensor buffer overlaps the InputTensor buffer");
    CHECK(strcmp(err.rule, "B5") == 0);
    outs[0].data = b;
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK(b[0] == 0 && b[1] == 2 && b[4] == 0 && b[5] == 6);
    dmlref_release(op);
    gfix_init(&g, F32, SHAPE(2, 3), 0, NULL, NULL, 0, 0, 1);
    CHECK_STATUS(dmlref_compile(&g.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(dmlref_input_count(op), 0);
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING, "the operator binds 0 and 1");
    dmlref_release(op);
}

/* ---- the fast path ---------------------------------------------------------------------- */

/* The kernels on shapes where runs are long, strided, empty or cover the row. */
TEST(diagonal_fast_path_shapes) {
    uint64_t s = 29;
    const char *k = NULL;
    gfix f;
    /* a large packed identity (memset + pattern runs), then a band of width 100 in wide rows */
    gfix_init(&f, F32, SHAPE(257, 300), 0, NULL, NULL, f32_bits(1.0f), 0, 1);
    CHECK(RUN_G(&f, NULL, &k));
    CHECK(k && strcmp(k, "diagonal.fill") == 0);
    gfix_init(&f, U16, SHAPE(3, 40, 700), 0, NULL, NULL, 0x1234, -50, 50);
    CHECK(RUN_G(&f, NULL, &k));
    gfix_init(&f, I8, SHAPE(3, 40, 700), 0, NULL, NULL, 0, -50, 50); /* a zero value: memset */
    CHECK(RUN_G(&f, NULL, &k));
    /* the input's rows around the band (memcpy runs), inverted, with a transposed input */
    gfix_init(&f, F64, SHAPE(64, 96), 1, NULL, NULL, 0x3FF0000000000000ull, 3, -2);
    unsigned char *in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_G(&f, in, &k));
    CHECK(k && strcmp(k, "diagonal.copy") == 0);
    free(in);
    gfix_init(&f, U32, 3, SIZES(5, 30, 40), 1, SIZES(1, 5, 150), SIZES(1300, 41, 1), 9, -3, 4);
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_G(&f, in, &k));
    free(in);
    /* a whole row broadcast (input strides {0, 1}) and single-element rows and columns */
    gfix_init(&f, U8, 2, SIZES(50, 33), 1, SIZES(0, 1), NULL, 0xAB, -2, 3);
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_G(&f, in, &k));
    free(in);
    gfix_init(&f, F16, 4, SIZES(3, 2, 37, 1), 1, NULL, SIZES(1, 3, 6, 1000), 0x3C00, -1, 0);
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_G(&f, in, &k));
    free(in);
    gfix_init(&f, I32, SHAPE(2, 1, 45), 0, NULL, NULL, 0xFFFFFFFFu, 40, 2);
    CHECK(RUN_G(&f, NULL, &k));
}

/* Random strides for n dims of sizes s: packed (returns 0), permuted, gapped, broadcast (inputs). */
static int rand_strides(uint64_t *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_input) {
    const uint32_t mode = (uint32_t)(splitmix64(r) % 10);
    if (mode < 3) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 6)
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

static int32_t rand_end(uint64_t *r, uint32_t h, uint32_t w) {
    const uint32_t k = (uint32_t)(splitmix64(r) % 10);
    if (k == 0) return (splitmix64(r) & 1) ? INT32_MIN : INT32_MAX;
    return (int32_t)(splitmix64(r) % (h + w + 3)) - (int32_t)(h + 1);
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("diagonal.")

/* The fast path writes exactly the reference's (and the oracle's) bytes on random
 * cases of both operators: every data type, 2-4 dims, random layouts, bands across,
 * inverted, empty and half-infinite; half of them with a tiny DMLREF_PAR_GRAIN so
 * that 2 threads really split the rows. */
TEST(diagonal_fast_path_matches_oracle) {
    const uint64_t base_seed = test_seed(20260414);
    uint64_t r = 0;
    int failed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 800 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 2 + (uint32_t)(splitmix64(&r) % 3);
        uint32_t sizes[4], ist[4], ost[4];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(splitmix64(&r) % (d + 2 >= n ? (iter % 5 == 0 ? 60 : 9) : 4));
            if (total * sizes[d] > 20000) sizes[d] = 1;
            total *= sizes[d];
        }
        const DMLREF_TENSOR_DATA_TYPE dt = all_types[splitmix64(&r) % 11];
        const int v0 = (int)(splitmix64(&r) % 3 == 0), with_input = !v0 && (int)(splitmix64(&r) & 1);
        const int in_strided = rand_strides(&r, n, sizes, ist, 1), out_strided = rand_strides(&r, n, sizes, ost, 0);
        int32_t begin = rand_end(&r, sizes[n - 2], sizes[n - 1]), end = rand_end(&r, sizes[n - 2], sizes[n - 1]);
        const uint64_t vbits = splitmix64(&r);
        gfix g;
        gfix_init(&g, dt, n, sizes, with_input, in_strided ? ist : NULL, out_strided ? ost : NULL, vbits, begin, end);
        if (splitmix64(&r) % 5 == 0) g.out.buf.TotalTensorSizeInBytes += 8; /* a tail nobody addresses */
        dfix d;
        if (v0) {
            const float fv = (float)((int64_t)(splitmix64(&r) % 513) - 256) / 4.0f;
            d.out = g.out;
            d.out.buf.Sizes = d.out.sizes;
            d.out.buf.Strides = out_strided ? d.out.strides : NULL;
            d.out.desc.Desc = &d.out.buf;
            d.t = (DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC){&d.out.desc, begin, fv};
            d.d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_DIAGONAL_MATRIX, &d.t};
        }
        const int tiny = (int)(splitmix64(&r) % 2);
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        const size_t ob = (size_t)g.out.buf.TotalTensorSizeInBytes, ib = (size_t)g.in.buf.TotalTensorSizeInBytes;
        unsigned char *in = random_bytes(&r, ib), *want = malloc(ob);
        if (!want) abort();
        memset(want, 0xA5, ob);
        const char *k = NULL;
        const int before = test_failures();
        if (v0) {
            /* the FLOAT as an element: the oracle's own conversion is checked above; here the
             * value is read back from a 1-element run of the oracle */
            dfix one;
            dfix_init(&one, dt, DIMS(1, 1), 0, d.t.Value);
            unsigned char v[8] = {0};
            dmlref_buffer vb[1] = {{v, 8}};
            const dmlref_options o = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
            dmlref_error err;
            CHECK_STATUS(dmlref_run(&one.d, FL, &o, NULL, 0, vb, 1, &err), err, DMLREF_OK, NULL);
            ref_diagonal(&d.out.buf, NULL, NULL, begin, (int64_t)begin + 1, v, want);
            const int hit = RUN_ALL(&d.d, FL, NULL, 0, ob, want, &k);
            CHECK(hit);
            if (hit && k) kernels_note(&seen, k);
        } else {
            ref_diagonal(&g.out.buf, with_input ? &g.in.buf : NULL, with_input ? in : NULL, begin, end, g.t.Value.Bytes,
                         want);
            const int hit = RUN_ALL(&g.d, FL, with_input ? in : NULL, with_input ? ib : 0, ob, want, &k);
            CHECK(hit);
            if (hit && k) kernels_note(&seen, k);
        }
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %s, %u dims, %s, [%d, %d)%s\n", iter, v0 ? "v0" : "v1", n,
                    dmlref_data_type_name(dt), begin, end, tiny ? ", grain 64" : "");
        }
        free(in);
        free(want);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    CHECK_KERNELS_REACHED(&seen, "diagonal.", NULL); /* fill and copy: every diagonal.* kernel of src/ops/kernels.def */
}
