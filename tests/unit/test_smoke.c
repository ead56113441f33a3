/* First end-to-end checks: one documented example per operator family. */
#include "check.h"
#include "util.h"

TEST(smoke_gather_doc_example_1) {
    tdesc in, ix, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_UINT32, DIMS(5));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(5));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 0, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    const float input[4] = {11, 12, 13, 14};
    const uint32_t indices[5] = {3, 1, 3, 0, 2};
    float output[5] = {0}, want[5] = {14, 12, 14, 11, 13};
    dmlref_cbuffer ins[2] = {{input, sizeof input}, {indices, sizeof indices}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_4_1, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);
}

TEST(smoke_join_doc_axis3) {
    tdesc a, b, out;
    tdesc_init(&a, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 2, 3));
    tdesc_init(&b, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 2, 4));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 2, 7));
    DMLREF_TENSOR_DESC inputs[2] = {a.desc, b.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {2, inputs, &out.desc, 3};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    const float x[6] = {1, 2, 3, 4, 5, 6}, y[8] = {7, 8, 9, 10, 11, 12, 13, 14};
    float o[14], want[14] = {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14};
    dmlref_cbuffer ins[2] = {{x, sizeof x}, {y, sizeof y}};
    dmlref_buffer outs[1] = {{o, sizeof o}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_4_1, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(o, want, sizeof want);
}

TEST(smoke_gather_rank_mismatch_message) {
    tdesc in, ix, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 1, 4));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_UINT32, DIMS(1, 1, 5));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 1, 1, 5));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 3, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    dmlref_error err;
    CHECK_STATUS(dmlref_validate(&d, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "GATHER: IndicesTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
}
