/*
 * Every example of the five DirectML pages (docs/operators.md), typed in as the
 * pages print them, with the documented outputs - corrected only where
 * docs/operators.md section 9 says the page is wrong - plus its own worked examples
 * (2.5 #6-#9, 3.4 WPT, 4.5, 5.4, 6.4) and the DMLCalcBufferTensorSize values of 1.4.
 */
#include "check.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define FL41 DMLREF_FEATURE_LEVEL_4_1
#define FL64 DMLREF_FEATURE_LEVEL_6_4
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const dmlref_options check_opt = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 0};

/* Runs a GATHER and compares the float output with want (n elements). */
static void gather_case(const char *file, int line, DMLREF_FEATURE_LEVEL fl, const dmlref_options *opt,
                        const tdesc *in, const tdesc *ix, const tdesc *out, uint32_t axis, uint32_t k,
                        const void *input, size_t in_bytes, const void *indices, size_t ix_bytes,
                        const float *want, size_t n) {
    DMLREF_GATHER_OPERATOR_DESC g = {&in->desc, &ix->desc, &out->desc, axis, k};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    float output[256];
    memset(output, 0xCD, sizeof output);
    dmlref_cbuffer ins[2] = {{input, in_bytes}, {indices, ix_bytes}};
    dmlref_buffer outs[1] = {{output, n * sizeof(float)}};
    dmlref_error err;
    check_status_at(file, line, dmlref_run(&d, fl, opt, ins, 2, outs, 1, &err), &err, DMLREF_OK, NULL);
    if (memcmp(output, want, n * sizeof(float)) != 0) {
        test_fail(file, line, "GATHER output differs:");
        for (size_t i = 0; i < n; ++i) fprintf(stderr, " %g/%g", output[i], want[i]);
        fputc('\n', stderr);
    }
}
#define GATHER_CASE(fl, opt, in, ix, out, axis, k, input, indices, want)                                 \
    gather_case(__FILE__, __LINE__, fl, opt, in, ix, out, axis, k, input, sizeof(input), indices,          \
                sizeof(indices), want, COUNT(want))

/* ---- GATHER: the five examples of the page -------------------------------- */

TEST(example_gather_1_remap_1d) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(4));
    tdesc_init(&ix, U32, DIMS(5));
    tdesc_init(&out, F32, DIMS(5));
    const float input[] = {11, 12, 13, 14};
    const uint32_t indices[] = {3, 1, 3, 0, 2};
    const float want[] = {14, 12, 14, 11, 13};
    GATHER_CASE(FL41, NULL, &in, &ix, &out, 0, 1, input, indices, want);
}

TEST(example_gather_2_concat_rows) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(3, 2));
    tdesc_init(&ix, U32, DIMS(1, 4));
    tdesc_init(&out, F32, DIMS(4, 2));
    const float input[] = {1, 2, 3, 4, 5, 6};
    const uint32_t indices[] = {0, 1, 1, 2};
    const float want[] = {1, 2, 3, 4, 3, 4, 5, 6};
    GATHER_CASE(FL41, NULL, &in, &ix, &out, 0, 1, input, indices, want);
}

TEST(example_gather_3_swap_columns) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(3, 2));
    tdesc_init(&ix, U32, DIMS(1, 2));
    tdesc_init(&out, F32, DIMS(3, 2));
    const float input[] = {1, 2, 3, 4, 5, 6};
    const uint32_t indices[] = {1, 0};
    const float want[] = {2, 1, 4, 3, 6, 5};
    /* operators.md 9 item 1: the page prints IndexDimensions 2, which would crop Input.Sizes[0] = 3. */
    GATHER_CASE(FL41, NULL, &in, &ix, &out, 1, 1, input, indices, want);

    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    dmlref_error err;
    CHECK_STATUS(dmlref_validate(&d, FL41, &err), err, DMLREF_ERROR_SIZES, "InputTensor.Sizes[0] (3) must be 1");
}

TEST(example_gather_4_nested_indices_axis2) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(1, 3, 3));
    tdesc_init(&ix, U32, DIMS(1, 1, 2));
    tdesc_init(&out, F32, DIMS(3, 1, 2));
    const float input[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const uint32_t indices[] = {0, 2};
    const float want[] = {1, 3, 4, 6, 7, 9};
    /* "Example 4. 2D, Axis 1" - the struct field is 2 (padded numbering, operators.md 9 item 2). */
    GATHER_CASE(FL41, NULL, &in, &ix, &out, 2, 2, input, indices, want);
}

TEST(example_gather_5_nested_indices_axis1) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(1, 3, 2));
    tdesc_init(&ix, U32, DIMS(1, 2, 2));
    tdesc_init(&out, F32, DIMS(2, 2, 2));
    const float input[] = {1, 2, 3, 4, 5, 6};
    const uint32_t indices[] = {0, 1, 1, 2};
    const float want[] = {1, 2, 3, 4, 3, 4, 5, 6};
    GATHER_CASE(FL41, NULL, &in, &ix, &out, 1, 2, input, indices, want);
}

/* ---- GATHER: operators.md 2.5 additional examples ------------------------- */

TEST(example_gather_6_onnx_scalar_index_k0) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(3, 4));
    tdesc_init(&ix, I64, DIMS(1, 1));
    tdesc_init(&out, F32, DIMS(1, 4));
    const float input[] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
    const int64_t indices[] = {2};
    const float want[] = {20, 21, 22, 23};
    GATHER_CASE(FL64, NULL, &in, &ix, &out, 0, 0, input, indices, want);
}

TEST(example_gather_7_chromium_scalar_index_k1) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(3, 4));
    tdesc_init(&ix, I32, DIMS(1, 1));
    tdesc_init(&out, F32, DIMS(1, 4));
    const float input[] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
    const int32_t indices[] = {2};
    const float want[] = {20, 21, 22, 23};
    GATHER_CASE(FL64, NULL, &in, &ix, &out, 0, 1, input, indices, want);
}

TEST(example_gather_8_onnx_rank5) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(1, 2, 3, 4, 5));
    tdesc_init(&ix, I32, DIMS(1, 1, 1, 6, 7));
    tdesc_init(&out, F32, DIMS(2, 3, 6, 7, 5));
    float input[120], want[2 * 3 * 6 * 7 * 5];
    int32_t indices[42];
    for (int i = 0; i < 120; ++i) input[i] = (float)i;
    for (int i = 0; i < 42; ++i) indices[i] = (i * 7 + 3) % 4 - (i % 3 == 0 ? 4 : 0); /* some negative */
    /* output[p,q,r,s,t] = input[0,p,q, idx[0,0,0,r,s], t] */
    size_t w = 0;
    for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 3; ++q)
            for (int r = 0; r < 6; ++r)
                for (int s = 0; s < 7; ++s)
                    for (int t = 0; t < 5; ++t) {
                        int v = indices[r * 7 + s];
                        if (v < 0) v += 4;
                        want[w++] = input[((p * 3 + q) * 4 + v) * 5 + t];
                    }
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 3, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    float output[COUNT(want)];
    dmlref_cbuffer ins[2] = {{input, sizeof input}, {indices, sizeof indices}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, FL64, &check_opt, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);
}

TEST(example_gather_9_out_of_range_clamps) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(2, 12));
    tdesc_init(&ix, I32, DIMS(1, 1));
    tdesc_init(&out, F32, DIMS(1, 12));
    float input[24], row0[12], row1[12];
    for (int i = 0; i < 24; ++i) input[i] = (float)(i * 3 - 7);
    memcpy(row0, input, sizeof row0);
    memcpy(row1, input + 12, sizeof row1);
    const int32_t ten[] = {10}, minus_ten[] = {-10}, minus_one[] = {-1};
    GATHER_CASE(FL64, NULL, &in, &ix, &out, 0, 0, input, ten, row1);
    GATHER_CASE(FL64, NULL, &in, &ix, &out, 0, 0, input, minus_ten, row0);
    GATHER_CASE(FL64, NULL, &in, &ix, &out, 0, 0, input, minus_one, row1);
    GATHER_CASE(FL64, &check_opt, &in, &ix, &out, 0, 0, input, minus_one, row1);

    /* the checking option turns the clamped ones into errors naming position and value */
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 0, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    float output[12];
    dmlref_buffer outs[1] = {{output, sizeof output}};
    dmlref_error err;
    dmlref_cbuffer a[2] = {{input, sizeof input}, {ten, sizeof ten}};
    CHECK_STATUS(dmlref_run(&d, FL64, &check_opt, a, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "IndicesTensor[0,0] = 10 is out of range [-2, 2)");
    dmlref_cbuffer b[2] = {{input, sizeof input}, {minus_ten, sizeof minus_ten}};
    CHECK_STATUS(dmlref_run(&d, FL64, &check_opt, b, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "IndicesTensor[0,0] = -10");
}

/* ---- GATHER_ELEMENTS ---------------------------------------------------- */

static void gather_elements_case(const char *file, int line, uint32_t axis, const tdesc *in, const tdesc *ix,
                                 const tdesc *out, const float *input, size_t in_bytes, const uint32_t *indices,
                                 size_t ix_bytes, const float *want, size_t n) {
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in->desc, &ix->desc, &out->desc, axis};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER_ELEMENTS, &g};
    float output[64];
    dmlref_cbuffer ins[2] = {{input, in_bytes}, {indices, ix_bytes}};
    dmlref_buffer outs[1] = {{output, n * sizeof(float)}};
    dmlref_error err;
    check_status_at(file, line, dmlref_run(&d, DMLREF_FEATURE_LEVEL_3_0, NULL, ins, 2, outs, 1, &err), &err,
                    DMLREF_OK, NULL);
    if (memcmp(output, want, n * sizeof(float)) != 0) test_fail(file, line, "GATHER_ELEMENTS output differs");
}

TEST(example_gather_elements_doc) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(3, 3));
    tdesc_init(&ix, U32, DIMS(2, 3));
    tdesc_init(&out, F32, DIMS(2, 3)); /* the page says UINT32 (operators.md 9 item 6) */
    const float input[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const uint32_t indices[] = {1, 2, 0, 2, 0, 0};
    const float want[] = {4, 8, 3, 7, 2, 3};
    gather_elements_case(__FILE__, __LINE__, 0, &in, &ix, &out, input, sizeof input, indices, sizeof indices,
                         want, COUNT(want));

    /* as printed, the output type differs from the input's */
    tdesc bad;
    tdesc_init(&bad, U32, DIMS(2, 3));
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &bad.desc, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER_ELEMENTS, &g};
    dmlref_error err;
    CHECK_STATUS(dmlref_validate(&d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                 "OutputTensor.DataType (UINT32) must equal InputTensor.DataType (FLOAT32)");
}

TEST(example_gather_elements_wpt_axis1) {
    tdesc in, ix, out;
    tdesc_init(&in, F32, DIMS(3, 3));
    tdesc_init(&ix, U32, DIMS(3, 2));
    tdesc_init(&out, F32, DIMS(3, 2));
    const float input[] = {-66.059f, -68.920f, -77.020f, -26.158f, 89.034f,
                           -45.897f, 43.848f,  48.818f,  51.799f};
    const uint32_t indices[] = {1, 0, 2, 2, 1, 0};
    const float want[] = {-68.920f, -66.059f, -45.897f, -45.897f, 48.818f, 43.848f};
    gather_elements_case(__FILE__, __LINE__, 1, &in, &ix, &out, input, sizeof input, indices, sizeof indices,
                         want, COUNT(want));
}

/* ---- SCATTER_ND --------------------------------------------------------- */

TEST(example_scatter_nd_doc_valid_encoding) {
    /* operators.md 4.5: the page's 1-D example with one DimensionCount (2) and UINT32 indices. */
    tdesc in, ix, up, out;
    tdesc_init(&in, F32, DIMS(1, 8));
    tdesc_init(&ix, U32, DIMS(4, 1));
    tdesc_init(&up, F32, DIMS(1, 4));
    tdesc_init(&out, F32, DIMS(1, 8));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, 1, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SCATTER_ND, &s};
    const float input[] = {1, 2, 3, 4, 5, 6, 7, 8}, updates[] = {9, 10, 11, 12};
    const uint32_t indices[] = {4, 3, 1, 7};
    const float want[] = {1, 11, 3, 10, 9, 6, 7, 12};
    float output[8];
    dmlref_cbuffer ins[3] = {{input, sizeof input}, {indices, sizeof indices}, {updates, sizeof updates}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_3_0, NULL, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_3_0, &check_opt, ins, 3, outs, 1, &err), err, DMLREF_OK,
                 NULL);
    CHECK_MEM(output, want, sizeof want);
}

TEST(example_scatter_nd_doc_as_printed_is_invalid) {
    /* Input {8}, Indices {4,1} FLOAT32, Updates {4}: mixed DimensionCounts, float indices (operators.md 9 items 9, 10). */
    tdesc in, ix, up, out, ix1;
    tdesc_init(&in, F32, DIMS(8));
    tdesc_init(&ix, F32, DIMS(4, 1));
    tdesc_init(&up, F32, DIMS(4));
    tdesc_init(&out, F32, DIMS(8));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, 1, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SCATTER_ND, &s};
    dmlref_error err;
    CHECK_STATUS(dmlref_validate(&d, FL64, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "IndicesTensor.DimensionCount (2) must equal InputTensor.DimensionCount (1)");
    /* with 1-D float indices the data type is what is wrong */
    tdesc_init(&ix1, F32, DIMS(4));
    s.IndicesTensor = &ix1.desc;
    s.IndicesDimensionCount = 1;
    CHECK_STATUS(dmlref_validate(&d, FL64, &err), err, DMLREF_ERROR_DATA_TYPE,
                 "IndicesTensor.DataType (FLOAT32) is not supported at feature level 6_4");
}

TEST(example_scatter_nd_doc_shape_example) {
    /* Input {3,4,5,6,7} R 5 (= N: inclusive bound), Indices {1,1,1,2,3} Q 3 -> Updates {1,1,2,6,7}. */
    tdesc in, ix, up, out, up_formula;
    tdesc_init(&in, F32, DIMS(3, 4, 5, 6, 7));
    tdesc_init(&ix, I32, DIMS(1, 1, 1, 2, 3));
    tdesc_init(&up, F32, DIMS(1, 1, 2, 6, 7));
    tdesc_init(&out, F32, DIMS(3, 4, 5, 6, 7));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, 5, 3};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SCATTER_ND, &s};
    dmlref_error err;
    CHECK_STATUS(dmlref_validate(&d, FL64, &err), err, DMLREF_OK, NULL);

    /* and run it: output[i0,i1,i2,s0,s1] = updates[0,0,b,s0,s1], (i0,i1,i2) = indices[..,b,0..2] */
    enum { IN_N = 3 * 4 * 5 * 6 * 7, UP_N = 2 * 6 * 7 };
    static float input[IN_N], updates[UP_N], output[IN_N], want[IN_N];
    const int32_t indices[] = {2, 1, 4, -3, -1, 0}; /* (2,1,4) and (0,3,0) */
    for (int i = 0; i < IN_N; ++i) input[i] = want[i] = (float)i;
    for (int i = 0; i < UP_N; ++i) updates[i] = (float)(-1 - i);
    for (int b = 0; b < 2; ++b) {
        const int i0 = b ? 0 : 2, i1 = b ? 3 : 1, i2 = b ? 0 : 4;
        for (int e = 0; e < 42; ++e) want[((i0 * 4 + i1) * 5 + i2) * 42 + e] = updates[b * 42 + e];
    }
    dmlref_cbuffer ins[3] = {{input, sizeof input}, {indices, sizeof indices}, {updates, sizeof updates}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    CHECK_STATUS(dmlref_run(&d, FL64, &check_opt, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);

    /* the page's UpdatesTensor.Sizes formula gives {5,6,7} (operators.md 9 item 11): rejected */
    tdesc_init(&up_formula, F32, DIMS(1, 1, 5, 6, 7));
    s.UpdatesTensor = &up_formula.desc;
    CHECK_STATUS(dmlref_validate(&d, FL64, &err), err, DMLREF_ERROR_SIZES,
                 "UpdatesTensor.Sizes {1,1,5,6,7} must equal the scattered slice shape {1,1,2,6,7}");
}

TEST(example_scatter_nd_insert_entire_slices) {
    /* ONNX/WPT: data [4,4,4], indices [[0],[2]], updates [2,4,4], padded to 4-D as ORT does. */
    tdesc in, ix, up, out;
    tdesc_init(&in, F32, DIMS(1, 4, 4, 4));
    tdesc_init(&ix, I64, DIMS(1, 1, 2, 1));
    tdesc_init(&up, F32, DIMS(1, 2, 4, 4));
    tdesc_init(&out, F32, DIMS(1, 4, 4, 4));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, 3, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SCATTER_ND, &s};
    float input[64], updates[32], output[64], want[64];
    const int64_t indices[] = {0, 2};
    for (int i = 0; i < 64; ++i) input[i] = want[i] = (float)(100 + i);
    for (int i = 0; i < 32; ++i) updates[i] = (float)i;
    memcpy(want, updates, 16 * sizeof(float));           /* slice 0 <- updates[0] */
    memcpy(want + 32, updates + 16, 16 * sizeof(float)); /* slice 2 <- updates[1] */
    dmlref_cbuffer ins[3] = {{input, sizeof input}, {indices, sizeof indices}, {updates, sizeof updates}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, FL64, NULL, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);
}

/* ---- SPLIT -------------------------------------------------------------- */

static const float split_input[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

TEST(example_split_axis2_three_outputs) {
    tdesc in, o0, o1, o2;
    tdesc_init(&in, F32, DIMS(1, 1, 6, 2));
    tdesc_init(&o0, F32, DIMS(1, 1, 2, 2));
    tdesc_init(&o1, F32, DIMS(1, 1, 1, 2));
    tdesc_init(&o2, F32, DIMS(1, 1, 3, 2));
    DMLREF_TENSOR_DESC outs_desc[3] = {o0.desc, o1.desc, o2.desc};
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 3, outs_desc, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    float a[4], b[2], c[6];
    const float wa[] = {1, 2, 3, 4}, wb[] = {5, 6}, wc[] = {7, 8, 9, 10, 11, 12};
    dmlref_cbuffer ins[1] = {{split_input, sizeof split_input}};
    dmlref_buffer outs[3] = {{a, sizeof a}, {b, sizeof b}, {c, sizeof c}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_1_0, NULL, ins, 1, outs, 3, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(a, wa, sizeof wa);
    CHECK_MEM(b, wb, sizeof wb);
    CHECK_MEM(c, wc, sizeof wc);
}

TEST(example_split_axis3_two_outputs) {
    tdesc in, o0, o1;
    tdesc_init(&in, F32, DIMS(1, 1, 6, 2));
    tdesc_init(&o0, F32, DIMS(1, 1, 6, 1));
    tdesc_init(&o1, F32, DIMS(1, 1, 6, 1));
    DMLREF_TENSOR_DESC outs_desc[2] = {o0.desc, o1.desc};
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 2, outs_desc, 3};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    float a[6], b[6];
    const float wa[] = {1, 3, 5, 7, 9, 11}, wb[] = {2, 4, 6, 8, 10, 12};
    dmlref_cbuffer ins[1] = {{split_input, sizeof split_input}};
    dmlref_buffer outs[2] = {{a, sizeof a}, {b, sizeof b}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_1_0, NULL, ins, 1, outs, 2, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(a, wa, sizeof wa);
    CHECK_MEM(b, wb, sizeof wb);
}

TEST(example_split_single_output_is_a_copy) {
    tdesc in, o0;
    tdesc_init(&in, F32, DIMS(1, 1, 6, 2));
    tdesc_init(&o0, F32, DIMS(1, 1, 6, 2));
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 1, &o0.desc, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    float a[12];
    dmlref_cbuffer ins[1] = {{split_input, sizeof split_input}};
    dmlref_buffer outs[1] = {{a, sizeof a}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_1_0, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(a, split_input, sizeof a);
}

/* ---- JOIN --------------------------------------------------------------- */

TEST(example_join_axis3_two_inputs) {
    tdesc a, b, out;
    tdesc_init(&a, F32, DIMS(1, 1, 2, 3));
    tdesc_init(&b, F32, DIMS(1, 1, 2, 4));
    tdesc_init(&out, F32, DIMS(1, 1, 2, 7));
    DMLREF_TENSOR_DESC inputs[2] = {a.desc, b.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {2, inputs, &out.desc, 3};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    const float x[] = {1, 2, 3, 4, 5, 6}, y[] = {7, 8, 9, 10, 11, 12, 13, 14};
    const float want[] = {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14};
    float o[14];
    dmlref_cbuffer ins[2] = {{x, sizeof x}, {y, sizeof y}};
    dmlref_buffer outs[1] = {{o, sizeof o}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_1_0, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(o, want, sizeof want);
}

TEST(example_join_three_inputs_every_axis) {
    static const float x[] = {1, 2, 3, 4}, y[] = {5, 6, 7, 8}, z[] = {9, 10, 11, 12};
    static const uint32_t out_sizes[4][4] = {{3, 1, 2, 2}, {1, 3, 2, 2}, {1, 1, 6, 2}, {1, 1, 2, 6}};
    static const float want[4][12] = {
        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, /* axis 0: not printed, the same order as axis 1 */
        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
        {1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12},
    };
    tdesc a, b, c, out;
    tdesc_init(&a, F32, DIMS(1, 1, 2, 2));
    tdesc_init(&b, F32, DIMS(1, 1, 2, 2));
    tdesc_init(&c, F32, DIMS(1, 1, 2, 2));
    DMLREF_TENSOR_DESC inputs[3] = {a.desc, b.desc, c.desc};
    for (uint32_t axis = 0; axis < 4; ++axis) {
        tdesc_init(&out, F32, 4, out_sizes[axis], NULL);
        DMLREF_JOIN_OPERATOR_DESC j = {3, inputs, &out.desc, axis};
        DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
        float o[12];
        dmlref_cbuffer ins[3] = {{x, sizeof x}, {y, sizeof y}, {z, sizeof z}};
        dmlref_buffer outs[1] = {{o, sizeof o}};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&d, DMLREF_FEATURE_LEVEL_1_0, NULL, ins, 3, outs, 1, &err), err, DMLREF_OK,
                     NULL);
        CHECK_MEM(o, want[axis], sizeof o);
    }
}

/* ---- DMLCalcBufferTensorSize (operators.md 1.4 worked values) -------------- */

TEST(example_calc_buffer_tensor_size_worked_values) {
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 2, SIZES(2, 3), NULL), 24);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_FLOAT16, 1, SIZES(3), NULL), 8);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(5), NULL), 8);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_INT8, 4, SIZES(1, 1, 1, 1), NULL), 4);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 2, SIZES(2, 3), SIZES(4, 1)), 28);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 2, SIZES(2, 3), SIZES(0, 1)), 12);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_FLOAT16, 4, SIZES(1, 1, 3, 5),
                                                SIZES(15, 1, 5, 1)),
                 32);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(I64, 1, SIZES(3), NULL), 24);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_UINT4, 1, SIZES(5), NULL), 4);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_INT4, 1, SIZES(9), NULL), 8);
    /* packed and explicitly packed strides agree */
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 3, SIZES(2, 3, 5), SIZES(15, 5, 1)), 120);
    /* invalid inputs give 0 */
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_UNKNOWN, 1, SIZES(3), NULL), 0);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size((DMLREF_TENSOR_DATA_TYPE)99, 1, SIZES(3), NULL), 0);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 0, SIZES(3), NULL), 0);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 2, SIZES(3, 0), NULL), 0);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 1, NULL, NULL), 0);
    /* beyond 4 GiB: no 32-bit wrap (DirectMLX commit 4e48e63) */
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(DMLREF_TENSOR_DATA_TYPE_FLOAT64, 2, SIZES(65536, 65535), NULL),
                 UINT64_C(65536) * 65535 * 8);
    CHECK_EQ_U64(dmlref_calc_buffer_tensor_size(F32, 2, SIZES(2, 2), SIZES(0xFFFFFFFFu, 1)),
                 (UINT64_C(0xFFFFFFFF) + 2) * 4);
}
