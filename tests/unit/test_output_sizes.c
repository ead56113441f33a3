/*
 * dmlref_output_sizes (include/dmlref.h): every class in operators.def has the
 * output_sizes hook; the computed shapes of a few descs whose outputs are left out
 * (tests/shape/test_shape.c checks every documented example); the free parts read from
 * the output desc (SPLIT, ONE_HOT, DIAGONAL_MATRIX); and the errors.
 */
#include "check.h"
#include "core/registry.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define FL41 DMLREF_FEATURE_LEVEL_4_1
#define FL64 DMLREF_FEATURE_LEVEL_6_4

TEST(output_sizes_every_operator_has_the_hook) {
    const op_class *cls;
#define DMLREF_OP(ENUM, name)                                                                 \
    cls = registry_find(DMLREF_OPERATOR_##ENUM); /* NULL: left out of this build (OPS=) */   \
    if (cls && !cls->output_sizes)                                                           \
        test_fail(__FILE__, __LINE__, "%s (operators.def) has no output_sizes hook", #ENUM);
#include "core/operators.def"
#undef DMLREF_OP
}

/* The output's shape as n, s[0..n). */
static void want_sizes(const char *file, int line, const DMLREF_OPERATOR_DESC *d, DMLREF_FEATURE_LEVEL fl,
                       uint32_t output, uint32_t n, const uint32_t *s) {
    uint32_t got_n = 0, got[8];
    dmlref_error err;
    const dmlref_status st = dmlref_output_sizes(d, fl, output, &got_n, got, &err);
    check_status_at(file, line, st, &err, DMLREF_OK, NULL);
    if (st != DMLREF_OK) return;
    if (got_n != n || memcmp(got, s, n * sizeof *s) != 0) test_fail(file, line, "sizes differ");
}
#define WANT(d, fl, k, ...) want_sizes(__FILE__, __LINE__, d, fl, k, NDIMS(__VA_ARGS__), SIZES(__VA_ARGS__))

TEST(output_sizes_gather_without_output) {
    tdesc in, ix;
    tdesc_init(&in, F32, DIMS(1, 3, 4, 5));
    tdesc_init(&ix, U32, DIMS(1, 1, 2, 7));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, NULL, 2, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    uint32_t out[4];
    CHECK(dmlref_gather_output_sizes(4, 2, 2, in.sizes, ix.sizes, out) == 0);
    WANT(&d, FL41, 0, 3, 2, 7, 5);
    CHECK(out[0] == 3 && out[1] == 2 && out[2] == 7 && out[3] == 5);
    g.Axis = 4; /* G3, compile's message */
    uint32_t n, s[8];
    dmlref_error err;
    CHECK_STATUS(dmlref_output_sizes(&d, FL41, 0, &n, s, &err), err, DMLREF_ERROR_PARAMETER,
                 "GATHER: Axis (4) must be in [0, InputTensor.DimensionCount) = [0, 4)");
    CHECK(strcmp(err.rule, "G3") == 0);
}

TEST(output_sizes_join_tile_padding) {
    tdesc a, b;
    tdesc_init(&a, F32, DIMS(2, 3));
    tdesc_init(&b, F32, DIMS(2, 5));
    const DMLREF_TENSOR_DESC ins[2] = {a.desc, b.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {2, ins, NULL, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    WANT(&d, FL41, 0, 2, 8);
    DMLREF_TILE_OPERATOR_DESC t = {&a.desc, NULL, 2, SIZES(3, 2)};
    DMLREF_OPERATOR_DESC dt = {DMLREF_OPERATOR_TILE, &t};
    WANT(&dt, FL41, 0, 6, 6);
    DMLREF_PADDING_OPERATOR_DESC p = {&a.desc, NULL, DMLREF_PADDING_MODE_CONSTANT, 0.0f, 2, SIZES(1, 0), SIZES(2, 4)};
    DMLREF_OPERATOR_DESC dp = {DMLREF_OPERATOR_PADDING, &p};
    WANT(&dp, FL41, 0, 5, 7);
}

TEST(output_sizes_free_parts_come_from_the_output_desc) {
    tdesc in, o0, o1;
    tdesc_init(&in, F32, DIMS(2, 6));
    tdesc_init(&o0, F32, DIMS(9, 4)); /* only Sizes[Axis] is read */
    tdesc_init(&o1, F32, DIMS(9, 2));
    const DMLREF_TENSOR_DESC outs[2] = {o0.desc, o1.desc};
    DMLREF_SPLIT_OPERATOR_DESC sp = {&in.desc, 2, outs, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &sp};
    WANT(&d, FL41, 0, 2, 4);
    WANT(&d, FL41, 1, 2, 2);
    uint32_t n, s[8];
    dmlref_error err;
    CHECK_STATUS(dmlref_output_sizes(&d, FL41, 2, &n, s, &err), err, DMLREF_ERROR_PARAMETER, "no output 2");
    sp.OutputTensors = NULL;
    CHECK_STATUS(dmlref_output_sizes(&d, FL41, 0, &n, s, &err), err, DMLREF_ERROR_NULL_POINTER,
                 "SPLIT: OutputTensors is NULL");

    tdesc ix, va, out;
    tdesc_init(&ix, U32, DIMS(2, 1, 3));
    tdesc_init(&va, F32, DIMS(1, 1, 2));
    tdesc_init(&out, F32, DIMS(1, 10, 1));
    DMLREF_ONE_HOT_OPERATOR_DESC oh = {&ix.desc, &va.desc, &out.desc, 1};
    DMLREF_OPERATOR_DESC doh = {DMLREF_OPERATOR_ONE_HOT, &oh};
    WANT(&doh, FL41, 0, 2, 10, 3);
    oh.OutputTensor = NULL;
    CHECK_STATUS(dmlref_output_sizes(&doh, FL41, 0, &n, s, &err), err, DMLREF_ERROR_NULL_POINTER,
                 "the depth along Axis");

    tdesc dm;
    tdesc_init(&dm, F32, DIMS(1, 1, 3, 4));
    DMLREF_DIAGONAL_MATRIX_OPERATOR_DESC g = {&dm.desc, 0, 1.0f};
    DMLREF_OPERATOR_DESC dg = {DMLREF_OPERATOR_DIAGONAL_MATRIX, &g};
    WANT(&dg, FL41, 0, 1, 1, 3, 4);
}

TEST(output_sizes_errors) {
    uint32_t n = 7, s[8];
    dmlref_error err;
    tdesc in;
    tdesc_init(&in, F32, DIMS(2, 3));
    DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {&in.desc, NULL, NULL};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, &id};
    WANT(&d, FL41, 0, 2, 3);
    CHECK_STATUS(dmlref_output_sizes(NULL, FL41, 0, &n, s, &err), err, DMLREF_ERROR_NULL_POINTER, "desc is NULL");
    CHECK_STATUS(dmlref_output_sizes(&d, FL41, 0, NULL, s, &err), err, DMLREF_ERROR_NULL_POINTER, NULL);
    CHECK_STATUS(dmlref_output_sizes(&d, (DMLREF_FEATURE_LEVEL)0x1234, 0, &n, s, &err), err,
                 DMLREF_ERROR_FEATURE_LEVEL, NULL);
    id.InputTensor = NULL;
    CHECK_STATUS(dmlref_output_sizes(&d, FL64, 0, &n, s, &err), err, DMLREF_ERROR_NULL_POINTER,
                 "ELEMENT_WISE_IDENTITY: InputTensor is NULL");
    CHECK(n == 7); /* nothing written */
}
