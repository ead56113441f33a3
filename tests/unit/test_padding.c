/*
 * (Over 600 lines on purpose: one family's tests (PADDING and PADDING1) over the
 * shared fixture and reference: rules, documented examples, fill values, data,
 * random cases against the oracle and every kernel reached.)
 *
 * PADDING and PADDING1 (docs/operators.md P5): the descs' layout, the schemas,
 * every rule (message and rule id) at the levels where it differs, every
 * example of P5.4 for both operators (plus WRAP and the 1-D [1,2,3] vectors),
 * the fill values (PADDING's FLOAT converted, PADDING1's union bit for bit),
 * every element size through strided, gapped and broadcast layouts against an
 * independent reference (folding, not modulo), NaN payloads and -0.0, and the
 * fast path against the oracle on random cases with 1 and 2 threads.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define FL DMLREF_FEATURE_LEVEL_6_4
#define CONSTANT DMLREF_PADDING_MODE_CONSTANT
#define EDGE DMLREF_PADDING_MODE_EDGE
#define REFLECTION DMLREF_PADDING_MODE_REFLECTION
#define SYMMETRIC DMLREF_PADDING_MODE_SYMMETRIC
#define WRAP DMLREF_PADDING_MODE_WRAP

/* One case of either operator; pfix_init points every field into the struct
 * (so a pfix is not copied). */
typedef struct pfix {
    tdesc in, out;
    uint32_t start[8], end[8];
    DMLREF_PADDING_OPERATOR_DESC p0;
    DMLREF_PADDING1_OPERATOR_DESC p1;
    DMLREF_OPERATOR_DESC d;
} pfix;

/* Output sizes = in + start + end; strides NULL = packed; the fill 0. */
static void pfix_init(pfix *f, int v1, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *in_sizes,
                      const uint32_t *start, const uint32_t *end, uint32_t mode, const uint32_t *in_strides,
                      const uint32_t *out_strides) {
    uint32_t out_sizes[8];
    memset(f, 0, sizeof *f);
    for (uint32_t d = 0; d < n; ++d) {
        f->start[d] = start[d];
        f->end[d] = end[d];
        out_sizes[d] = in_sizes[d] + start[d] + end[d];
    }
    tdesc_init(&f->in, dt, n, in_sizes, in_strides);
    tdesc_init(&f->out, dt, n, out_sizes, out_strides);
    f->p0 = (DMLREF_PADDING_OPERATOR_DESC){&f->in.desc, &f->out.desc, (DMLREF_PADDING_MODE)mode, 0.0f, n, f->start,
                                           f->end};
    f->p1 = (DMLREF_PADDING1_OPERATOR_DESC){&f->in.desc, &f->out.desc, (DMLREF_PADDING_MODE)mode, dt, {{0}}, n,
                                            f->start, f->end};
    f->d = v1 ? (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_PADDING1, &f->p1}
              : (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_PADDING, &f->p0};
}

static dmlref_status validate(const pfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

/* Status, message fragment and rule id. */
#define CHECK_RULE(st, err, want, needle, rule_id)                                       \
    do {                                                                                 \
        CHECK_STATUS((st), (err), (want), (needle));                                     \
        if (strcmp((err).rule, (rule_id)) != 0)                                          \
            test_fail(__FILE__, __LINE__, "rule \"%s\", want \"%s\"", (err).rule, (rule_id)); \
    } while (0)

static dmlref_status run_opts(const pfix *f, DMLREF_FEATURE_LEVEL fl, const dmlref_options *o, const void *in,
                              void *out, dmlref_error *err) {
    dmlref_cbuffer ins[1] = {{in, (size_t)f->in.buf.TotalTensorSizeInBytes}};
    dmlref_buffer outs[1] = {{out, (size_t)f->out.buf.TotalTensorSizeInBytes}};
    return dmlref_run(&f->d, fl, o, ins, 1, outs, 1, err);
}

/* ---- layout and schema ----------------------------------------------------------- */

TEST(padding_desc_layout) {
    struct probe { char c; uint64_t u; };
    const size_t a64 = offsetof(struct probe, u), p = sizeof(void *);
    if (p != 8 && p != 4) {
        TEST_SKIP("no layout table for this host's ABI");
        return;
    }
    /* PADDING: InputTensor, OutputTensor, PaddingMode, PaddingValue, DimensionCount,
     * StartPadding, EndPadding: 48 bytes on LP64, 28 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_PADDING_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING_OPERATOR_DESC, PaddingMode), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING_OPERATOR_DESC, PaddingValue), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING_OPERATOR_DESC, DimensionCount), 2 * p + 8);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING_OPERATOR_DESC, StartPadding), p == 8 ? 32 : 20);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING_OPERATOR_DESC, EndPadding), p == 8 ? 40 : 24);
    CHECK_EQ_U64(sizeof(DMLREF_PADDING_OPERATOR_DESC), p == 8 ? 48 : 28);
    /* PADDING1: the union at 24 (LP64) or 16 (ILP32), 8-aligned where uint64_t is */
    CHECK_EQ_U64(offsetof(DMLREF_PADDING1_OPERATOR_DESC, PaddingMode), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING1_OPERATOR_DESC, PaddingValueDataType), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING1_OPERATOR_DESC, PaddingValue), p == 8 ? 24 : 16);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING1_OPERATOR_DESC, DimensionCount), p == 8 ? 32 : 24);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING1_OPERATOR_DESC, StartPadding), p == 8 ? 40 : 28);
    CHECK_EQ_U64(offsetof(DMLREF_PADDING1_OPERATOR_DESC, EndPadding), p == 8 ? 48 : 32);
    CHECK_EQ_U64(sizeof(DMLREF_PADDING1_OPERATOR_DESC), p == 8 ? 56 : a64 == 8 ? 40 : 36);
    CHECK_EQ_U64(sizeof(DMLREF_PADDING_MODE), 4);
    CHECK_EQ_U64(DMLREF_OPERATOR_PADDING, 64);
    CHECK_EQ_U64(DMLREF_OPERATOR_PADDING1, 155);
    CHECK_EQ_U64(DMLREF_PADDING_MODE_SYMMETRIC, 3);
    CHECK_EQ_U64(DMLREF_PADDING_MODE_WRAP, 4);
}

static void check_common_params(const dmlref_schema *sc, const dmlref_param *mode, const dmlref_param *count,
                                const dmlref_param *start, const dmlref_param *end) {
    static const char *const names[] = {"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"};
    CHECK(strcmp(mode->name, "PaddingMode") == 0 && mode->kind == DMLREF_PARAM_ENUM && mode->enum_count == 5);
    for (uint32_t i = 0; i < 5 && i < mode->enum_count; ++i) CHECK(strcmp(mode->enum_names[i], names[i]) == 0);
    CHECK(strcmp(count->name, "DimensionCount") == 0 && count->kind == DMLREF_PARAM_UINT && count->is_count);
    CHECK(strcmp(start->name, "StartPadding") == 0 && start->kind == DMLREF_PARAM_UINT_ARRAY);
    CHECK(strcmp(end->name, "EndPadding") == 0 && end->kind == DMLREF_PARAM_UINT_ARRAY);
    CHECK(start->count_offset == count->offset && end->count_offset == count->offset);
    CHECK(strcmp(start->count_name, "DimensionCount") == 0 && strcmp(end->count_name, "DimensionCount") == 0);
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output);
    CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output);
    CHECK(!(sc->flags & DMLREF_SCHEMA_IN_PLACE));
}

TEST(padding_schemas) {
    const dmlref_schema *a = dmlref_operator_schema(DMLREF_OPERATOR_PADDING);
    const dmlref_schema *b = dmlref_operator_schema(DMLREF_OPERATOR_PADDING1);
    if (!a || !b) {
        TEST_SKIP("PADDING or PADDING1 is not built (make OPS=...)");
        return;
    }
#define P0 DMLREF_PADDING_OPERATOR_DESC
#define P1 DMLREF_PADDING1_OPERATOR_DESC
    CHECK(strcmp(a->name, "PADDING") == 0 && a->introduced == DMLREF_FEATURE_LEVEL_1_0);
    CHECK_EQ_U64(a->desc_size, sizeof(P0));
    CHECK_EQ_U64(a->n_params, 5);
    if (a->n_params == 5) {
        check_common_params(a, &a->params[0], &a->params[2], &a->params[3], &a->params[4]);
        CHECK(strcmp(a->params[1].name, "PaddingValue") == 0 && a->params[1].kind == DMLREF_PARAM_FLOAT);
        CHECK_EQ_U64(a->params[0].offset, offsetof(P0, PaddingMode));
        CHECK_EQ_U64(a->params[1].offset, offsetof(P0, PaddingValue));
        CHECK_EQ_U64(a->params[2].offset, offsetof(P0, DimensionCount));
        CHECK_EQ_U64(a->params[3].offset, offsetof(P0, StartPadding));
        CHECK_EQ_U64(a->params[4].offset, offsetof(P0, EndPadding));
    }
    CHECK(strcmp(b->name, "PADDING1") == 0 && b->introduced == DMLREF_FEATURE_LEVEL_5_0);
    CHECK_EQ_U64(b->desc_size, sizeof(P1));
    CHECK_EQ_U64(b->n_params, 6);
    if (b->n_params == 6) {
        check_common_params(b, &b->params[0], &b->params[3], &b->params[4], &b->params[5]);
        const dmlref_param *t = &b->params[1], *v = &b->params[2];
        CHECK(strcmp(t->name, "PaddingValueDataType") == 0 && t->kind == DMLREF_PARAM_ENUM && t->enum_count == 12);
        if (t->enum_count == 12)
            CHECK(strcmp(t->enum_names[DMLREF_TENSOR_DATA_TYPE_INT64], "INT64") == 0 && t->enum_names[0] == NULL);
        CHECK(strcmp(v->name, "PaddingValue") == 0 && v->kind == DMLREF_PARAM_SCALAR_UNION);
        CHECK_EQ_U64(v->offset, offsetof(P1, PaddingValue));
        CHECK_EQ_U64(v->type_offset, offsetof(P1, PaddingValueDataType));
        CHECK_EQ_U64(b->params[5].offset, offsetof(P1, EndPadding));
    }
#undef P0
#undef P1
}

/* ---- the rules ----------------------------------------------------------------------- */

TEST(padding_validation) {
    pfix f;
    dmlref_error err;
    const uint32_t *s4 = SIZES(0, 0, 1, 2), *e4 = SIZES(0, 0, 3, 4);
    for (int v1 = 0; v1 <= 1; ++v1) {
        const char *name = v1 ? "PADDING1" : "PADDING";
        char msg[160];
        pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, CONSTANT, NULL, NULL);
        CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

        /* PD1: equal DimensionCount */
        tdesc_init(&f.out, F32, DIMS(1, 8, 10));
        snprintf(msg, sizeof msg, "%s: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)", name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, msg, "PD1");
        pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, CONSTANT, NULL, NULL);
        f.p0.DimensionCount = f.p1.DimensionCount = 3;
        snprintf(msg, sizeof msg, "%s: DimensionCount (3) must equal InputTensor.DimensionCount (4)", name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, msg, "PD1");
        CHECK(strcmp(err.field, "DimensionCount") == 0);
        f.p0.DimensionCount = f.p1.DimensionCount = 4;
        /* PD1: the arrays */
        f.p0.StartPadding = f.p1.StartPadding = NULL;
        snprintf(msg, sizeof msg, "%s: StartPadding is NULL (it must hold DimensionCount = 4 entries)", name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, msg, "PD1");
        f.p0.StartPadding = f.p1.StartPadding = f.start;
        f.p0.EndPadding = f.p1.EndPadding = NULL;
        snprintf(msg, sizeof msg, "%s: EndPadding is NULL", name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, msg, "PD1");
        f.p0.EndPadding = f.p1.EndPadding = f.end;

        /* PD2: equal DataType */
        tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(1, 1, 8, 10));
        snprintf(msg, sizeof msg, "%s: OutputTensor.DataType (INT32) must equal InputTensor.DataType (FLOAT32)", name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, msg, "PD2");

        /* PD3: Output.Sizes = In + Start + End, computed in 64 bits */
        pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, CONSTANT, NULL, NULL);
        tdesc_init(&f.out, F32, DIMS(1, 1, 8, 9));
        snprintf(msg, sizeof msg,
                 "%s: OutputTensor.Sizes[3] (9) must equal InputTensor.Sizes[3] + StartPadding[3] + EndPadding[3] = 4 + 2 + 4 = 10",
                 name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, msg, "PD3");
        CHECK(strcmp(err.field, "OutputTensor.Sizes") == 0);
        pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, CONSTANT, NULL, NULL);
        f.start[3] = UINT32_MAX;
        f.end[3] = UINT32_MAX; /* 4 + 2 (2^32 - 1) wraps to 2 in 32 bits */
        tdesc_init(&f.out, F32, DIMS(1, 1, 8, 2));
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "= 4 + 4294967295 + 4294967295 = 8589934594", "PD3");

        /* PD4: the mode, per level */
        pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, 5, NULL, NULL);
        snprintf(msg, sizeof msg, "%s: PaddingMode (5) is not a DML_PADDING_MODE", name);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, msg, "PD4");
        f.p0.PaddingMode = f.p1.PaddingMode = (DMLREF_PADDING_MODE)0xFFFFFFFFu;
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "PaddingMode (4294967295)", "PD4");
        f.p0.PaddingMode = f.p1.PaddingMode = WRAP;
        snprintf(msg, sizeof msg, "%s: PaddingMode WRAP (4) is defined from feature level 6_4, not at 6_3", name);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_6_3, &err), err, DMLREF_ERROR_PARAMETER, msg, "PD4");
        CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
        f.p0.PaddingMode = f.p1.PaddingMode = SYMMETRIC;
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
        for (uint32_t m = CONSTANT; m <= REFLECTION; ++m) {
            f.p0.PaddingMode = f.p1.PaddingMode = (DMLREF_PADDING_MODE)m;
            CHECK_STATUS(validate(&f, v1 ? DMLREF_FEATURE_LEVEL_5_0 : DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK,
                         NULL);
        }

        /* PD6: padding larger than the input is valid in every mode */
        for (uint32_t m = CONSTANT; m <= WRAP; ++m) {
            pfix_init(&f, v1, F32, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), SIZES(0, 0, 5, 9), SIZES(0, 0, 7, 3), m, NULL,
                      NULL);
            CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
        }

        /* the tensor rules come first */
        pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, CONSTANT, NULL, NULL);
        f.p0.InputTensor = f.p1.InputTensor = NULL;
        snprintf(msg, sizeof msg, "%s: InputTensor is NULL", name);
        CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, msg);
    }

    /* PADDING's levels: 4-5 dims {F32, F16} at 1_0, 4-5 T8 at 2_1, 1-8 T8 at 3_1, 1-8 T11 at 5_0 */
    pfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_INT8, NDIMS(1, 1, 2, 2), SIZES(1, 1, 2, 2), SIZES(0, 0, 1, 1),
              SIZES(0, 0, 1, 1), EDGE, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE,
               "PADDING: InputTensor.DataType (INT8) is not supported at feature level 2_0", "PD2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
    pfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_FLOAT16, NDIMS(1, 1, 1, 2, 2), SIZES(1, 1, 1, 2, 2),
              SIZES(0, 0, 0, 1, 1), SIZES(0, 0, 0, 1, 1), EDGE, NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    pfix_init(&f, 0, F32, NDIMS(2, 3), SIZES(2, 3), SIZES(1, 1), SIZES(1, 1), EDGE, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "PADDING: InputTensor.DimensionCount (2) must be in [4, 5] at feature level 3_0", "PD1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    pfix_init(&f, 0, DMLREF_TENSOR_DATA_TYPE_INT64, NDIMS(2, 3), SIZES(2, 3), SIZES(1, 1), SIZES(1, 1), EDGE, NULL,
              NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE, "(INT64) is not supported",
               "PD2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
    /* SYMMETRIC from 3_0 */
    pfix_init(&f, 0, F32, NDIMS(1, 1, 2, 2), SIZES(1, 1, 2, 2), SIZES(0, 0, 1, 1), SIZES(0, 0, 1, 1), SYMMETRIC, NULL,
              NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_PARAMETER,
               "PADDING: PaddingMode SYMMETRIC (3) is defined from feature level 3_0, not at 2_1", "PD4");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);

    /* PADDING1: from 5_0 only, 1-8 T11 */
    pfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT64, NDIMS(3), SIZES(3), SIZES(2), SIZES(1), REFLECTION, NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
                 "PADDING1: not available at feature level 4_1 (introduced in 5_0)");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);

    /* PD5: PaddingValueDataType == Output.DataType, in every mode */
    for (uint32_t m = CONSTANT; m <= WRAP; ++m) {
        pfix_init(&f, 1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), s4, e4, m, NULL, NULL);
        f.p1.PaddingValueDataType = DMLREF_TENSOR_DATA_TYPE_INT32;
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
                   "PADDING1: PaddingValueDataType (INT32) must equal OutputTensor.DataType (FLOAT32)", "PD5");
        CHECK(strcmp(err.field, "PaddingValueDataType") == 0);
    }
    f.p1.PaddingValueDataType = (DMLREF_TENSOR_DATA_TYPE)99;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "PADDING1: PaddingValueDataType (99) must equal",
               "PD5");
    f.p1.PaddingValueDataType = (DMLREF_TENSOR_DATA_TYPE)0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "PADDING1: PaddingValueDataType (0) must equal",
               "PD5");
}

/* ---- the examples (P5.4; tests/cases/padding*_doc_*.json hold the same) ----------------- */

static const float doc_in[16] = {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8};
static const float doc_want[5][80] = {
    {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 1, 2, 3, 4, 9, 9, 9, 9,
     9, 9, 5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9},
    {1, 1, 1, 2, 3, 4, 4, 4, 4, 4, 1, 1, 1, 2, 3, 4, 4, 4, 4, 4, 5, 5, 5, 6, 7, 8, 8, 8, 8, 8, 1, 1, 1, 2, 3, 4, 4, 4, 4, 4,
     5, 5, 5, 6, 7, 8, 8, 8, 8, 8, 5, 5, 5, 6, 7, 8, 8, 8, 8, 8, 5, 5, 5, 6, 7, 8, 8, 8, 8, 8, 5, 5, 5, 6, 7, 8, 8, 8, 8, 8},
    {7, 6, 5, 6, 7, 8, 7, 6, 5, 6, 3, 2, 1, 2, 3, 4, 3, 2, 1, 2, 7, 6, 5, 6, 7, 8, 7, 6, 5, 6, 3, 2, 1, 2, 3, 4, 3, 2, 1, 2,
     7, 6, 5, 6, 7, 8, 7, 6, 5, 6, 3, 2, 1, 2, 3, 4, 3, 2, 1, 2, 7, 6, 5, 6, 7, 8, 7, 6, 5, 6, 3, 2, 1, 2, 3, 4, 3, 2, 1, 2},
    {2, 1, 1, 2, 3, 4, 4, 3, 2, 1, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1, 6, 5, 5, 6, 7, 8, 8, 7, 6, 5, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1,
     6, 5, 5, 6, 7, 8, 8, 7, 6, 5, 6, 5, 5, 6, 7, 8, 8, 7, 6, 5, 2, 1, 1, 2, 3, 4, 4, 3, 2, 1, 6, 5, 5, 6, 7, 8, 8, 7, 6, 5},
    {7, 8, 5, 6, 7, 8, 5, 6, 7, 8, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 7, 8, 5, 6, 7, 8, 5, 6, 7, 8, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4,
     7, 8, 5, 6, 7, 8, 5, 6, 7, 8, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 7, 8, 5, 6, 7, 8, 5, 6, 7, 8, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4},
};

/* Every example with the oracle and the fast path, 1 and 2 threads, at the first
 * level that has the mode and at 6_4. */
TEST(padding_doc_examples) {
    for (int v1 = 0; v1 <= 1; ++v1)
        for (uint32_t m = CONSTANT; m <= WRAP; ++m) {
            pfix f;
            dmlref_error err;
            pfix_init(&f, v1, F32, NDIMS(1, 1, 4, 4), SIZES(1, 1, 4, 4), SIZES(0, 0, 1, 2), SIZES(0, 0, 3, 4), m, NULL,
                      NULL);
            if (m == CONSTANT) {
                f.p0.PaddingValue = 9.0f;
                f.p1.PaddingValue.Float32 = 9.0f;
                f.p1.PaddingValueDataType = F32;
            }
            const DMLREF_FEATURE_LEVEL first = m == WRAP        ? FL
                                               : v1             ? DMLREF_FEATURE_LEVEL_5_0
                                               : m == SYMMETRIC ? DMLREF_FEATURE_LEVEL_3_0
                                                                : DMLREF_FEATURE_LEVEL_1_0;
            for (int k = 0; k < 6; ++k) {
                const dmlref_options o = {.flags = k < 2 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = (uint32_t)(k % 3)};
                float out[80];
                memset(out, 0xCD, sizeof out);
                CHECK_STATUS(run_opts(&f, k & 1 ? first : FL, &o, doc_in, out, &err), err, DMLREF_OK, NULL);
                if (memcmp(out, doc_want[m], sizeof out) != 0)
                    test_fail(__FILE__, __LINE__, "%s mode %u, run %d: output differs from P5.4",
                              v1 ? "PADDING1" : "PADDING", m, k);
            }
        }
}

/* P5.3: [1,2,3] padded by 7 on each side; REFLECTION of a size-1 input reads index 0. */
TEST(padding_1d_vectors_and_size_one) {
    static const int32_t want[5][17] = {
        {0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0},
        {1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3},
        {2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2},
        {1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3},
        {3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1},
    };
    const int32_t in[3] = {1, 2, 3}, one[1] = {42};
    for (int v1 = 0; v1 <= 1; ++v1)
        for (uint32_t m = CONSTANT; m <= WRAP; ++m)
            for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
                const dmlref_options o = {.flags = flags, .threads = 0};
                pfix f;
                dmlref_error err;
                int32_t out[17];
                pfix_init(&f, v1, DMLREF_TENSOR_DATA_TYPE_INT32, 1, SIZES(3), SIZES(7), SIZES(7), m, NULL, NULL);
                CHECK_STATUS(run_opts(&f, FL, &o, in, out, &err), err, DMLREF_OK, NULL);
                CHECK_MEM(out, want[m], sizeof out);
                pfix_init(&f, v1, DMLREF_TENSOR_DATA_TYPE_INT32, 1, SIZES(1), SIZES(5), SIZES(3), m, NULL, NULL);
                int32_t o9[9], w9[9];
                for (int i = 0; i < 9; ++i) w9[i] = m == CONSTANT && i != 5 ? 0 : 42;
                CHECK_STATUS(run_opts(&f, FL, &o, one, o9, &err), err, DMLREF_OK, NULL);
                CHECK_MEM(o9, w9, sizeof o9);
            }
}

/* ---- fill values ------------------------------------------------------------------------- */

/* The fill element PADDING writes for value v in type dt (1-D, CONSTANT, one element padded). */
static void padding_fill_of(DMLREF_TENSOR_DATA_TYPE dt, float v, unsigned char *got) {
    pfix f;
    dmlref_error err;
    unsigned char in[8] = {0}, out[16];
    pfix_init(&f, 0, dt, 1, SIZES(1), SIZES(1), SIZES(0), CONSTANT, NULL, NULL);
    f.p0.PaddingValue = v;
    memset(out, 0xEE, sizeof out);
    CHECK_STATUS(run_opts(&f, FL, NULL, in, out, &err), err, DMLREF_OK, NULL);
    memcpy(got, out, 8);
}

TEST(padding_fill_value_conversion) {
    unsigned char b[8];
    int32_t i32;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_INT32, 10.6f, b); /* the page: 10.6 becomes 10 */
    memcpy(&i32, b, 4);
    CHECK_EQ_I64(i32, 10);
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_INT32, -10.6f, b);
    memcpy(&i32, b, 4);
    CHECK_EQ_I64(i32, -10);
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_INT32, NAN, b);
    memcpy(&i32, b, 4);
    CHECK_EQ_I64(i32, 0);
    int8_t i8;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_INT8, -300.0f, b);
    memcpy(&i8, b, 1);
    CHECK_EQ_I64(i8, -128);
    uint8_t u8;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_UINT8, 300.0f, b);
    memcpy(&u8, b, 1);
    CHECK_EQ_I64(u8, 255);
    uint16_t u16;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_UINT16, -5.5f, b);
    memcpy(&u16, b, 2);
    CHECK_EQ_I64(u16, 0);
    int64_t i64;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_INT64, INFINITY, b);
    memcpy(&i64, b, 8);
    CHECK(i64 == INT64_MAX);
    uint64_t u64;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_UINT64, 1e30f, b);
    memcpy(&u64, b, 8);
    CHECK(u64 == UINT64_MAX);
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_FLOAT16, 1.0f / 3.0f, b); /* 0x3555: nearest even */
    memcpy(&u16, b, 2);
    CHECK_EQ_U64(u16, 0x3555);
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_FLOAT16, 65520.0f, b); /* rounds up to infinity */
    memcpy(&u16, b, 2);
    CHECK_EQ_U64(u16, 0x7c00);
    double f64;
    padding_fill_of(DMLREF_TENSOR_DATA_TYPE_FLOAT64, 0.1f, b); /* widened exactly */
    memcpy(&f64, b, 8);
    uint64_t f64_bits;
    memcpy(&f64_bits, &f64, 8);
    CHECK_EQ_U64(f64_bits, 0x3FB99999A0000000ull); /* (double)(float)0.1; not (double)0.1f, which a
                                                      host with FLT_EVAL_METHOD 1 (s390x) evaluates as 0.1 */
    /* FLOAT32 keeps the bits: -0.0 and a NaN payload */
    uint32_t bits = 0x7fc01234u, got;
    float v;
    memcpy(&v, &bits, 4);
    padding_fill_of(F32, v, b);
    memcpy(&got, b, 4);
    CHECK_EQ_U64(got, 0x7fc01234u);
    padding_fill_of(F32, -0.0f, b);
    memcpy(&got, b, 4);
    CHECK_EQ_U64(got, 0x80000000u);
}

TEST(padding1_fill_value_bits) {
    static const struct { DMLREF_TENSOR_DATA_TYPE dt; uint64_t bits; } cases[] = {
        {DMLREF_TENSOR_DATA_TYPE_INT64, UINT64_C(0x8000000000000000)},
        {DMLREF_TENSOR_DATA_TYPE_UINT64, UINT64_MAX},
        {DMLREF_TENSOR_DATA_TYPE_FLOAT64, UINT64_C(0x7ff80000deadbeef)}, /* a NaN payload */
        {DMLREF_TENSOR_DATA_TYPE_FLOAT64, UINT64_C(0x8000000000000000)}, /* -0.0 */
        {F32, 0x7fa00001u},                                              /* a signalling NaN */
        {F32, 0x80000000u},
        {DMLREF_TENSOR_DATA_TYPE_FLOAT16, 0x3555u},
        {DMLREF_TENSOR_DATA_TYPE_FLOAT16, 0x7d01u},
        {DMLREF_TENSOR_DATA_TYPE_INT32, 0x80000000u},
        {DMLREF_TENSOR_DATA_TYPE_UINT16, 0xfffeu},
        {DMLREF_TENSOR_DATA_TYPE_INT8, 0x80u},
        {DMLREF_TENSOR_DATA_TYPE_UINT8, 0xa5u},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const uint32_t es = dmlref_data_type_size(cases[i].dt);
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            const dmlref_options o = {.flags = flags, .threads = 0};
            pfix f;
            dmlref_error err;
            unsigned char in[16], out[128], want[128];
            /* {1,2} -> {3,5}: fill rows and fill columns around two input elements */
            pfix_init(&f, 1, cases[i].dt, 2, SIZES(1, 2), SIZES(1, 1), SIZES(1, 2), CONSTANT, NULL, NULL);
            /* the union holds the value in the type's host encoding from byte 0 */
            switch (es) {
            case 1: f.p1.PaddingValue.UInt8 = (uint8_t)cases[i].bits; break;
            case 2: f.p1.PaddingValue.UInt16 = (uint16_t)cases[i].bits; break;
            case 4: f.p1.PaddingValue.UInt32 = (uint32_t)cases[i].bits; break;
            default: f.p1.PaddingValue.UInt64 = cases[i].bits; break;
            }
            memset(in, 0x11, sizeof in);
            CHECK_STATUS(run_opts(&f, FL, &o, in, out, &err), err, DMLREF_OK, NULL);
            for (uint32_t k = 0; k < 15; ++k) {
                const int inside = k == 6 || k == 7; /* row 1, columns 1-2 */
                memcpy(want + k * es, inside ? in : f.p1.PaddingValue.Bytes, es);
            }
            if (memcmp(out, want, 15 * es) != 0)
                test_fail(__FILE__, __LINE__, "PADDING1 %s fill 0x%llx: bytes differ", dmlref_data_type_name(cases[i].dt),
                          (unsigned long long)cases[i].bits);
        }
    }
}

/* ---- data: an independent reference over every layout ------------------------------------- */

/* The source index by folding at the edges, one reflection at a time (not the
 * library's modulo); -1 reads the fill. */
static int64_t ref_index(uint32_t mode, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    if (mode == CONSTANT) return -1;
    if (mode == EDGE) return i < 0 ? 0 : n - 1;
    if (mode == WRAP) {
        while (i < 0) i += n;
        while (i >= n) i -= n;
        return i;
    }
    if (mode == REFLECTION && n == 1) return 0;
    while (i < 0 || i >= n) {
        if (i < 0) i = mode == REFLECTION ? -i : -i - 1;
        else i = mode == REFLECTION ? 2 * (n - 1) - i : 2 * n - 1 - i;
    }
    return i;
}

/* want = out's prefill with every output element written by the reference. */
static void reference(const pfix *f, uint32_t mode, const unsigned char *fill, const unsigned char *in,
                      unsigned char *want) {
    const DMLREF_BUFFER_TENSOR_DESC *ib = &f->in.buf, *ob = &f->out.buf;
    const uint32_t n = ob->DimensionCount, es = dmlref_data_type_size(ob->DataType);
    uint32_t c[8] = {0}, ist[8], ost[8];
    for (uint32_t d = n, si = 1, so = 1; d-- > 0;) { /* packed strides when none are given */
        ist[d] = ib->Strides ? ib->Strides[d] : si;
        ost[d] = ob->Strides ? ob->Strides[d] : so;
        si *= ib->Sizes[d];
        so *= ob->Sizes[d];
    }
    for (;;) {
        uint64_t io = 0, oo = 0;
        int outside = 0;
        for (uint32_t d = 0; d < n; ++d) {
            const int64_t k = ref_index(mode, (int64_t)c[d] - f->start[d], ib->Sizes[d]);
            if (k < 0) outside = 1;
            else io += (uint64_t)k * ist[d];
            oo += (uint64_t)c[d] * ost[d];
        }
        memcpy(want + oo * es, outside ? fill : in + io * es, es);
        uint32_t d = n;
        while (d-- > 0 && ++c[d] == ob->Sizes[d]) c[d] = 0;
        if (d == UINT32_MAX) break;
    }
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Strides for sizes: dims in a random order (or row-major), a gap now and then;
 * for inputs some dims broadcast (stride 0). */
static void rand_strides(uint32_t *seed, uint32_t n, const uint32_t *sizes, int broadcast, uint32_t *st) {
    uint32_t perm[8];
    for (uint32_t d = 0; d < n; ++d) perm[d] = d;
    if (lcg(seed) % 2)
        for (uint32_t d = n; d-- > 1;) {
            const uint32_t j = lcg(seed) % (d + 1), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
    uint32_t s = 1;
    for (uint32_t k = n; k-- > 0;) {
        const uint32_t d = perm[k];
        st[d] = s;
        s *= sizes[d] + (lcg(seed) % 3 == 0 ? lcg(seed) % 3 : 0);
    }
    if (broadcast)
        for (uint32_t d = 0; d < n; ++d)
            if (lcg(seed) % 4 == 0) st[d] = 0;
}

static const DMLREF_TENSOR_DATA_TYPE size_types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                      F32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};

/* Every element size and mode through a gapped transposed output and a strided,
 * broadcast input holding NaN payloads and -0.0; gaps keep their bytes. */
TEST(padding_data_every_size_and_layout) {
    uint32_t seed = 99;
    for (int t = 0; t < 4; ++t)
        for (uint32_t m = CONSTANT; m <= WRAP; ++m)
            for (int v1 = 0; v1 <= 1; ++v1) {
                const DMLREF_TENSOR_DATA_TYPE dt = size_types[t];
                const uint32_t es = dmlref_data_type_size(dt);
                const uint32_t in_sizes[3] = {2, 3, 4}, start[3] = {1, 0, 5}, end[3] = {2, 1, 3};
                const uint32_t in_st[3] = {1, 0, 7}; /* column-major-ish, dim 1 broadcast */
                const uint32_t out_st[3] = {1, 61, 5}; /* {5,4,12}: dim 0 innermost, then 2, then 1 after a gap */
                pfix f;
                dmlref_error err;
                pfix_init(&f, v1, dt, 3, in_sizes, start, end, m, in_st, out_st);
                unsigned char fill[8];
                const uint64_t fbits = UINT64_C(0x7ff4000000000abc); /* a NaN in FLOAT64; some bits in others */
                memcpy(fill, &fbits, 8);
                if (v1) memcpy(f.p1.PaddingValue.Bytes, fill, 8);
                else { /* -0.0: every float type keeps the sign, UINT8 truncates to 0 */
                    const uint16_t h = 0x8000u;
                    const float s = -0.0f;
                    const double g = -0.0;
                    f.p0.PaddingValue = -0.0f;
                    memset(fill, 0, 8);
                    if (es == 2) memcpy(fill, &h, 2);
                    if (es == 4) memcpy(fill, &s, 4);
                    if (es == 8) memcpy(fill, &g, 8);
                }
                const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
                unsigned char *in = malloc(ib), *want = malloc(ob), *got = malloc(ob);
                if (!in || !want || !got) abort();
                for (size_t i = 0; i < ib; ++i) in[i] = (unsigned char)lcg(&seed);
                if (es == 4) { /* a NaN payload and -0.0 among the values */
                    const uint32_t nan = 0x7f812345u, nz = 0x80000000u;
                    memcpy(in, &nan, 4);
                    memcpy(in + 7 * 4, &nz, 4);
                }
                memset(want, 0xCD, ob);
                reference(&f, m, fill, in, want);
                for (int k = 0; k < 3; ++k) {
                    const dmlref_options o = {.flags = k == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = (uint32_t)k};
                    memset(got, 0xCD, ob);
                    CHECK_STATUS(run_opts(&f, FL, &o, in, got, &err), err, DMLREF_OK, NULL);
                    if (memcmp(got, want, ob) != 0)
                        test_fail(__FILE__, __LINE__, "%s %s mode %u run %d: differs from the reference",
                                  v1 ? "PADDING1" : "PADDING", dmlref_data_type_name(dt), m, k);
                }
                free(in);
                free(want);
                free(got);
            }
}

/* 1 to 8 dimensions, packed, each mode, against the reference. */
TEST(padding_data_dimension_counts_1_to_8) {
    uint32_t seed = 7;
    for (uint32_t n = 1; n <= 8; ++n)
        for (uint32_t m = CONSTANT; m <= WRAP; ++m) {
            uint32_t sizes[8], start[8], end[8];
            for (uint32_t d = 0; d < n; ++d) {
                sizes[d] = 1 + lcg(&seed) % 3;
                start[d] = lcg(&seed) % 3;
                end[d] = lcg(&seed) % 3;
            }
            pfix f;
            dmlref_error err;
            pfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_INT16, n, sizes, start, end, m, NULL, NULL);
            f.p1.PaddingValue.Int16 = -7;
            const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
            unsigned char *in = malloc(ib), *want = malloc(ob), *got = malloc(ob);
            if (!in || !want || !got) abort();
            for (size_t i = 0; i < ib; ++i) in[i] = (unsigned char)lcg(&seed);
            memset(want, 0xCD, ob);
            reference(&f, m, f.p1.PaddingValue.Bytes, in, want);
            for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
                const dmlref_options o = {.flags = flags, .threads = 2};
                memset(got, 0xCD, ob);
                CHECK_STATUS(run_opts(&f, FL, &o, in, got, &err), err, DMLREF_OK, NULL);
                if (memcmp(got, want, ob) != 0)
                    test_fail(__FILE__, __LINE__, "%u dims mode %u flags %u: differs from the reference", n, m, flags);
            }
            free(in);
            free(want);
            free(got);
        }
}

/* ---- the fast path ---------------------------------------------------------------------- */

static int n_seen;
static char seen[16][48];
static void note_kernel(const char *name) {
    for (int i = 0; i < n_seen; ++i)
        if (strcmp(seen[i], name) == 0) return;
    if (n_seen < 16) snprintf(seen[n_seen++], sizeof seen[0], "%s", name);
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("padding.")

/* Random shapes, pads (some larger than the input), modes, element sizes and
 * layouts: the fast path writes the oracle's bytes (and the reference's), gaps
 * included, with 1 and 2 threads; half the cases with a tiny thread grain so
 * that small tensors split into thread parts and row chunks. */
TEST(padding_fast_path_matches_oracle) {
    const uint64_t base_seed = test_seed(4242);
    uint32_t seed = 0;
    for (int iter = 0; iter < 500; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + lcg(&seed) % 5, mode = lcg(&seed) % 5;
        const int v1 = (int)(lcg(&seed) % 2);
        uint32_t sizes[8], start[8], end[8], in_st[8], out_st[8], out_sizes[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + lcg(&seed) % (n <= 2 ? 40 : 5);
            const uint32_t k = lcg(&seed) % 6;
            start[d] = k == 0 ? 0 : lcg(&seed) % 4;
            end[d] = k == 0 ? 0 : lcg(&seed) % 4;
            if (k == 5) { /* larger than the input */
                start[d] += sizes[d] + lcg(&seed) % 5;
                end[d] += 2 * sizes[d];
            }
            out_sizes[d] = sizes[d] + start[d] + end[d];
            total *= out_sizes[d];
        }
        if (total > 20000) continue;
        const int packed_in = lcg(&seed) % 3 == 0, packed_out = lcg(&seed) % 3 == 0;
        rand_strides(&seed, n, sizes, 1, in_st);
        rand_strides(&seed, n, out_sizes, 0, out_st);
        const DMLREF_TENSOR_DATA_TYPE dt = size_types[lcg(&seed) % 4];
        pfix f;
        dmlref_error err;
        pfix_init(&f, v1, dt, n, sizes, start, end, mode, packed_in ? NULL : in_st, packed_out ? NULL : out_st);
        f.p0.PaddingValue = (float)((int)(lcg(&seed) % 200) - 100);
        f.p1.PaddingValue.UInt64 = (uint64_t)lcg(&seed) << 32 | lcg(&seed);
        const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in = malloc(ib), *ref = malloc(ob), *got = malloc(ob);
        if (!in || !ref || !got) abort();
        for (size_t i = 0; i < ib; ++i) in[i] = (unsigned char)lcg(&seed);
        memset(ref, 0xCD, ob);
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        CHECK_STATUS(run_opts(&f, FL, &oracle, in, ref, &err), err, DMLREF_OK, NULL);
        const int tiny = (int)(lcg(&seed) % 2);
        for (uint32_t threads = 1; threads <= 2; ++threads) {
            const dmlref_options fast = {.flags = 0, .threads = threads};
            dmlref_operator *op = NULL;
            if (tiny) { /* small tensors take the paths of large ones: thread parts, chunks, streaming */
                setenv("DMLREF_PAR_GRAIN", "16", 1);
                setenv("DMLREF_STREAM_MIN", "0", 1);
                env_reload();
            }
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (tiny) {
                unsetenv("DMLREF_PAR_GRAIN");
                unsetenv("DMLREF_STREAM_MIN");
                env_reload();
            }
            if (!op) continue;
            note_kernel(dmlref_kernel_name(op));
            memset(got, 0xCD, ob);
            dmlref_cbuffer ins[1] = {{in, ib}};
            dmlref_buffer outs[1] = {{got, ob}};
            CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, ob) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u threads, mode %u, %u dims): fast path differs from the oracle",
                          iter, dmlref_kernel_name(op), threads, mode, n);
            dmlref_release(op);
        }
        /* and the oracle agrees with the reference */
        unsigned char fill[8];
        memcpy(fill, f.p1.PaddingValue.Bytes, 8);
        if (v1 || mode != CONSTANT) { /* PADDING's converted fill: padding_fill_value_conversion */
            memset(got, 0xCD, ob);
            reference(&f, mode, fill, in, got);
            if (memcmp(ref, got, ob) != 0)
                test_fail(__FILE__, __LINE__, "case %d: the oracle differs from the reference", iter);
        }
        free(in);
        free(ref);
        free(got);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    kernels_seen all = {{0}, 0};
    for (int i = 0; i < n_seen; ++i) kernels_note(&all, seen[i]);
    CHECK_KERNELS_REACHED(&all, "padding.", NULL); /* every padding.* kernel of src/ops/kernels.def */
}

/* Large enough for the default grain: rows split over threads, and a single
 * row split into chunks (1-D), with ordinary and (stream) streaming stores;
 * FORCE_ORACLE names the oracle. */
TEST(padding_fast_path_threads_and_chunks) {
    static const uint32_t shapes[3][2] = {{1, 300000}, {200, 700}, {3, 50000}};
    for (int stream = 0; stream <= 1; ++stream)
    for (int s = 0; s < 3; ++s)
        for (uint32_t m = CONSTANT; m <= WRAP; ++m) {
            pfix f;
            dmlref_error err;
            if (shapes[s][0] == 1)
                pfix_init(&f, 1, F32, 1, shapes[s] + 1, SIZES(3), SIZES(1000), m, NULL, NULL);
            else
                pfix_init(&f, 1, F32, 2, shapes[s], SIZES(2, 5), SIZES(1, 9), m, NULL, NULL);
            f.p1.PaddingValue.Float32 = 2.5f;
            const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
            unsigned char *in = malloc(ib), *ref = malloc(ob), *got = malloc(ob);
            if (!in || !ref || !got) abort();
            for (size_t i = 0; i < ib; ++i) in[i] = (unsigned char)(i * 131 + (i >> 8));
            memset(ref, 0xCD, ob);
            const dmlref_options oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 2};
            dmlref_operator *op = NULL;
            CHECK_STATUS(dmlref_compile(&f.d, FL, &oo, &op, &err), err, DMLREF_OK, NULL);
            if (op) {
                CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
                dmlref_release(op);
            }
            CHECK_STATUS(run_opts(&f, FL, &oo, in, ref, &err), err, DMLREF_OK, NULL);
            for (uint32_t threads = 1; threads <= 2; ++threads) {
                const dmlref_options fo = {.flags = 0, .threads = threads};
                memset(got, 0xCD, ob);
                if (stream) {
                    setenv("DMLREF_STREAM_MIN", "0", 1);
                    env_reload();
                }
                CHECK_STATUS(dmlref_compile(&f.d, FL, &fo, &op, &err), err, DMLREF_OK, NULL);
                if (stream) {
                    unsetenv("DMLREF_STREAM_MIN");
                    env_reload();
                }
                if (!op) continue;
                CHECK(strncmp(dmlref_kernel_name(op), "padding.", 8) == 0);
                CHECK((strstr(dmlref_kernel_name(op), "_stream.") != NULL) == (stream && DMLREF_SIMD));
                dmlref_cbuffer ins[1] = {{in, ib}};
                dmlref_buffer outs[1] = {{got, ob}};
                CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
                if (memcmp(ref, got, ob) != 0)
                    test_fail(__FILE__, __LINE__, "shape %d mode %u threads %u: fast path differs", s, m, threads);
                dmlref_release(op);
            }
            free(in);
            free(ref);
            free(got);
        }
}

/* Border maps beyond the plan's limit (2^22 entries): the oracle runs, with
 * the same result. */
TEST(padding_huge_pads_fall_back_to_the_oracle) {
    pfix f;
    dmlref_error err;
    const uint32_t pad = (1u << 22) + 5;
    pfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(2), SIZES(pad), SIZES(1), EDGE, NULL, NULL);
    dmlref_operator *op = NULL;
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
    const size_t ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
    unsigned char in[4] = {7, 9, 0, 0}, *got = malloc(ob);
    if (!got) abort();
    dmlref_cbuffer ins[1] = {{in, 4}};
    dmlref_buffer outs[1] = {{got, ob}};
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK(got[0] == 7 && got[pad - 1] == 7 && got[pad] == 7 && got[pad + 1] == 9 && got[pad + 2] == 9);
    dmlref_release(op);
    /* CONSTANT needs no maps: planned whatever the pads */
    pfix_init(&f, 1, DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(2), SIZES(pad), SIZES(1), CONSTANT, NULL, NULL);
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    CHECK(strncmp(dmlref_kernel_name(op), "padding.constant.", 17) == 0);
    dmlref_release(op);
    free(got);
}
