/*
 * Every error about a rule carries the rule's id (docs/operators.md) and the
 * desc field it concerns, apart from its message: a backend's test can assert
 * that the same descriptor is refused for the same reason.  (test_validation.c
 * checks that every validation error it provokes has both; these pin values.)
 */
#include "check.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define FL DMLREF_FEATURE_LEVEL_6_4

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *rule, const char *field) {
    check_status_at(file, line, st, err, want, NULL);
    if (strcmp(err->rule, rule) != 0 || strcmp(err->field, field) != 0)
        test_fail(file, line, "rule \"%s\" field \"%s\", want \"%s\" \"%s\" (%s)", err->rule, err->field, rule, field,
                  err->message);
}
#define CHECK_RULE(st, err, want, rule, field) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (rule), (field))

TEST(rules_gather) {
    tdesc in, ix, out;
    dmlref_error err;
    tdesc_init(&in, F32, DIMS(1, 1, 3, 4));
    tdesc_init(&ix, U32, DIMS(2, 1, 1, 2)); /* a non-1 leading indices dim: G9 */
    tdesc_init(&out, F32, DIMS(1, 1, 2, 4));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 2, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_SIZES, "G9", "IndicesTensor.Sizes");
    tdesc_init(&ix, U32, DIMS(1, 1, 1, 2));
    g.Axis = 4;
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_PARAMETER, "G3", "Axis");
    g.Axis = 2;
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT16, DIMS(1, 1, 1, 2));
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "G2", "IndicesTensor.DataType");
    tdesc_init(&ix, U32, DIMS(1, 1, 1, 2));
    in.buf.TotalTensorSizeInBytes = 4;
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_TENSOR_SIZE, "T13", "InputTensor.TotalTensorSizeInBytes");
    tdesc_init(&in, F32, DIMS(1, 1, 3, 4));
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_OK, "", "");

    /* the checking option: an index out of range (N1) */
    const float input[12] = {0};
    const uint32_t idx[2] = {0, 7};
    float output[8];
    dmlref_cbuffer ins[2] = {{input, sizeof input}, {idx, sizeof idx}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    const dmlref_options check = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 1};
    CHECK_RULE(dmlref_run(&d, FL, &check, ins, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1",
               "IndicesTensor");
    /* bindings (B3) */
    outs[0].size = 4;
    CHECK_RULE(dmlref_run(&d, FL, NULL, ins, 2, outs, 1, &err), err, DMLREF_ERROR_BINDING, "B3", "OutputTensor");
    /* the API's own errors name no rule */
    CHECK_RULE(dmlref_validate(NULL, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "", "");
    CHECK_RULE(dmlref_validate(&d, (DMLREF_FEATURE_LEVEL)0x1234, &err), err, DMLREF_ERROR_FEATURE_LEVEL, "", "");
}

TEST(rules_join_and_split) {
    tdesc a, b, out;
    dmlref_error err;
    tdesc_init(&a, F32, DIMS(2, 3));
    tdesc_init(&b, F32, DIMS(2, 2));
    tdesc_init(&out, F32, DIMS(2, 6));
    DMLREF_TENSOR_DESC pieces[2] = {a.desc, b.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {2, pieces, &out.desc, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_SIZES, "J5", "InputTensors.Sizes");
    j.Axis = 2;
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_PARAMETER, "J3", "Axis");
    j.Axis = 1;
    j.InputCount = 0;
    CHECK_RULE(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_PARAMETER, "J1", "InputCount");

    DMLREF_SPLIT_OPERATOR_DESC s = {&out.desc, 2, pieces, 0};
    DMLREF_OPERATOR_DESC sd = {DMLREF_OPERATOR_SPLIT, &s};
    CHECK_RULE(dmlref_validate(&sd, FL, &err), err, DMLREF_ERROR_SIZES, "P4", "OutputTensors[0].Sizes");
    /* a tensor rule: output elements sharing memory (T15) */
    const uint32_t zero[2] = {0, 1};
    tdesc_init(&a, F32, 2, SIZES(2, 3), zero);
    pieces[0] = a.desc;
    s.Axis = 1;
    tdesc_init(&b, F32, DIMS(2, 3));
    pieces[1] = b.desc;
    CHECK_RULE(dmlref_validate(&sd, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "T15", "OutputTensors[0].Strides");

    /* a piece past index 9 is named with its whole index, in the field and in the message */
    tdesc one, bad, whole;
    tdesc_init(&one, F32, DIMS(2, 1));
    tdesc_init(&bad, F32, DIMS(3, 1));
    tdesc_init(&whole, F32, DIMS(2, 12));
    DMLREF_TENSOR_DESC twelve[12];
    for (int k = 0; k < 12; ++k) twelve[k] = k == 11 ? bad.desc : one.desc;
    DMLREF_JOIN_OPERATOR_DESC j12 = {12, twelve, &whole.desc, 1};
    DMLREF_OPERATOR_DESC d12 = {DMLREF_OPERATOR_JOIN, &j12};
    CHECK_RULE(dmlref_validate(&d12, FL, &err), err, DMLREF_ERROR_SIZES, "J4", "InputTensors[11].Sizes");
    CHECK(strstr(err.message, "InputTensors[11]") != NULL);
}
