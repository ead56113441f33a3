/* The README's example: compile a GATHER once, execute it, read the output. */
#include <dmlref.h>
#include <stdio.h>

int main(void) {
    /* input {3,2} FLOAT32, indices {1,4} UINT32 along axis 0 -> output {4,2} */
    const uint32_t in_sizes[] = {3, 2}, idx_sizes[] = {1, 4}, out_sizes[] = {4, 2};
    DMLREF_BUFFER_TENSOR_DESC in_buf = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                        in_sizes, NULL, 24, 0};
    DMLREF_BUFFER_TENSOR_DESC idx_buf = {DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                         idx_sizes, NULL, 16, 0};
    DMLREF_BUFFER_TENSOR_DESC out_buf = {DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_FLAG_NONE, 2,
                                         out_sizes, NULL, 32, 0};
    DMLREF_TENSOR_DESC in = {DMLREF_TENSOR_TYPE_BUFFER, &in_buf};
    DMLREF_TENSOR_DESC idx = {DMLREF_TENSOR_TYPE_BUFFER, &idx_buf};
    DMLREF_TENSOR_DESC out = {DMLREF_TENSOR_TYPE_BUFFER, &out_buf};
    DMLREF_GATHER_OPERATOR_DESC gather = {&in, &idx, &out, /*Axis*/ 0, /*IndexDimensions*/ 1};
    DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_GATHER, &gather};

    dmlref_operator *op;
    dmlref_error err;
    if (dmlref_compile(&desc, DMLREF_FEATURE_LEVEL_4_1, NULL, &op, &err) != DMLREF_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }

    const float input[6] = {1, 2, 3, 4, 5, 6};
    const uint32_t indices[4] = {0, 1, 1, 2};
    float output[8];
    const dmlref_cbuffer inputs[2] = {{input, sizeof input}, {indices, sizeof indices}};
    const dmlref_buffer outputs[1] = {{output, sizeof output}};
    if (dmlref_execute(op, inputs, 2, outputs, 1, &err) != DMLREF_OK) {
        fprintf(stderr, "%s\n", err.message);
        dmlref_release(op);
        return 1;
    }
    dmlref_release(op);

    for (int r = 0; r < 4; ++r) printf("[%g, %g]\n", output[2 * r], output[2 * r + 1]);
    return 0; /* prints [1, 2] [3, 4] [3, 4] [5, 6] */
}
