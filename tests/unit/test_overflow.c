/*
 * The overflow audit: every size, stride, count, parameter and index value
 * near a 32- or 64-bit limit is either computed exactly or rejected with a
 * clear error, never wrapped.  Under ASan (make test-asan) these tests also
 * show that no array the caller passes is read past its declared length.
 */
#include <stdlib.h>

#include "check.h"
#include "util.h"

#define U32MAX UINT32_C(0xFFFFFFFF)
#define FL DMLREF_FEATURE_LEVEL_6_4

static uint64_t calc(DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, const uint32_t *strides) {
    return dmlref_calc_buffer_tensor_size(dt, n, sizes, strides);
}

/* SPLIT of `in` into the single piece `out` along axis 0: a vehicle for the
 * tensor rules (the input is checked first, then the output). */
static dmlref_status split1(const tdesc *in, const tdesc *out, dmlref_error *err) {
    DMLREF_SPLIT_OPERATOR_DESC s = {&in->desc, 1, &out->desc, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    return dmlref_validate(&d, FL, err);
}

/* ---- DMLCalcBufferTensorSize ------------------------------------------------ */

TEST(overflow_calc_size_2_32_elements) {
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(U32MAX), NULL), UINT64_C(0x100000000));
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_FLOAT64, 1, SIZES(U32MAX), NULL), UINT64_C(0x7FFFFFFF8));
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT4, 1, SIZES(U32MAX), NULL), UINT64_C(0x80000000));
    /* the packed product is not limited to 2^32-1 elements here, only to 64 bits */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(U32MAX, 2), NULL), UINT64_C(0x200000000));
}

TEST(overflow_calc_size_packed_products_near_2_64) {
    /* (2^16-1)^4 = 18445618199572250625 fits; rounded up to a multiple of 4 */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 4, SIZES(0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF), NULL),
                 UINT64_C(18445618199572250628));
    /* the same count of FLOAT64 is 2^3 times too large */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_FLOAT64, 4, SIZES(0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF), NULL), 0);
    /* (2^16-1)^8 and (2^32-1)^8 far beyond 2^64: 0, never a wrapped product */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 8,
                      SIZES(0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF), NULL), 0);
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 8,
                      SIZES(U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX), NULL), 0);
    /* 2^32 * 2^32 wraps to 0 in 64 bits: (2^32-1)^2 * 2 must not look small */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(U32MAX, U32MAX, 2), NULL), 0);
}

TEST(overflow_calc_size_strided_dot_product) {
    /* last = (2^32-2)(2^32-1) = 2^64 - 3*2^32 + 2: fits in bytes for 1-byte types */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(U32MAX), SIZES(U32MAX)),
                 UINT64_C(0xFFFFFFFD00000004));
    /* Regression (found by fuzz_desc): the size used to be computed in bits, so
     * count * 8 overflowed and 0 came back for results in [2^61, 2^64) that
     * validation accepts. */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_INT8, 1, SIZES(U32MAX), SIZES(U32MAX)),
                 UINT64_C(0xFFFFFFFD00000004));
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT4, 1, SIZES(U32MAX), SIZES(U32MAX)),
                 UINT64_C(0x7FFFFFFE80000004));
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(0x20000002), SIZES(U32MAX)),
                 UINT64_C(0x20000000E0000000)); /* just past 2^61 */
    /* times 2 bytes it does not */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_FLOAT16, 1, SIZES(U32MAX), SIZES(U32MAX)), 0);
    /* two such terms overflow the 64-bit sum itself */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(U32MAX, U32MAX), SIZES(U32MAX, U32MAX)), 0);
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 8,
                      SIZES(U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX),
                      SIZES(U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX)), 0);
}

TEST(overflow_calc_size_last_bytes_below_2_64) {
    /* last = (2^32-2)(2^32-1) + 2(2^32-1) + (2^32-1-k): count = 2^64 - 3 - k + 1 */
    /* count = UINT64_MAX - 3: exactly representable after rounding to 4 */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(U32MAX, 3, 0xFFFFFFFC), SIZES(U32MAX, U32MAX, 1)),
                 UINT64_MAX - 3);
    /* count = UINT64_MAX - 2 and UINT64_MAX - 1: rounding up to 4 would wrap */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(U32MAX, 3, 0xFFFFFFFD), SIZES(U32MAX, U32MAX, 1)), 0);
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(U32MAX, 3, 0xFFFFFFFE), SIZES(U32MAX, U32MAX, 1)), 0);
    /* count = UINT64_MAX */
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(U32MAX, 3, U32MAX), SIZES(U32MAX, U32MAX, 1)), 0);
}

TEST(overflow_calc_size_degenerate_arguments) {
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_FLOAT32, 0, SIZES(4), NULL), 0);
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_FLOAT32, 1, NULL, NULL), 0);
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(4, 0), SIZES(1, 1)), 0);
    CHECK_EQ_U64(calc(DMLREF_TENSOR_DATA_TYPE_UNKNOWN, 1, SIZES(4), NULL), 0);
    CHECK_EQ_U64(calc((DMLREF_TENSOR_DATA_TYPE)99, 1, SIZES(4), NULL), 0);
    CHECK_EQ_U64(calc((DMLREF_TENSOR_DATA_TYPE)0x80000000u, 1, SIZES(4), NULL), 0);
}

/* ---- the tensor rules ------------------------------------------------------------ */

TEST(overflow_element_limit_2_32_minus_1) {
    tdesc in, out;
    dmlref_error err;
    /* exactly 2^32-1 elements: valid (validation allocates nothing that large) */
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_OK, NULL);
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(0xFFFF, 0x10001));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(0xFFFF, 0x10001));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_OK, NULL);
    /* one more: 2^32 */
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(0x10000, 0x10000));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE,
                 "SPLIT: InputTensor.Sizes {65536,65536} hold more than 4294967295 (2^32-1) elements");
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX, 2));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE, "{4294967295,2} hold more than");
}

TEST(overflow_element_products_near_2_64) {
    tdesc in, out;
    dmlref_error err;
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(4));
    /* products that would wrap 64 bits, with NULL strides (calc gives 0: Total is set by hand) */
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF));
    in.buf.TotalTensorSizeInBytes = UINT64_MAX;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE, "hold more than 4294967295 (2^32-1) elements");
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX));
    in.buf.TotalTensorSizeInBytes = UINT64_MAX;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE, "hold more than 4294967295 (2^32-1) elements");
    /* 2^32 * 2^32 = 2^64 wraps to 0 in 64 bits; (2^16)^4 = 2^64 likewise */
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(0x10000, 0x10000, 0x10000, 0x10000));
    in.buf.TotalTensorSizeInBytes = UINT64_MAX;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE, "hold more than");
    /* strides do not help: the limit is on elements */
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(U32MAX, 2), SIZES(0, 0));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE, "hold more than");
}

TEST(overflow_strided_span_beyond_2_64_bytes) {
    tdesc in, out;
    dmlref_error err;
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(U32MAX));
    /* Within the element limit the element offset of the last element is at
     * most (2^32-2)(2^32-1) < 2^64, but times the element size it is not. */
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 1, SIZES(U32MAX), SIZES(U32MAX));
    in.buf.TotalTensorSizeInBytes = UINT64_MAX;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE,
                 "SPLIT: InputTensor spans more than 2^64 bytes (IndexOfLastElement 18446744060824649730)");
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(2, 0x7FFFFFFF));
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_INT64, 2, SIZES(2, 0x7FFFFFFF), SIZES(U32MAX, U32MAX));
    in.buf.TotalTensorSizeInBytes = UINT64_MAX;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TOO_LARGE, "spans more than 2^64 bytes");
    /* the same span in 1-byte elements is below 2^64 - 3: valid, and the minimum
     * that validation demands is what dmlref_calc_buffer_tensor_size gives */
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX));
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(U32MAX), SIZES(U32MAX));
    CHECK_EQ_U64(in.buf.TotalTensorSizeInBytes, UINT64_C(0xFFFFFFFD00000004));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_OK, NULL);
    in.buf.TotalTensorSizeInBytes -= 1;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_TENSOR_SIZE,
                 "InputTensor.TotalTensorSizeInBytes (18446744060824649731) is less than the minimum 18446744060824649732");
}

TEST(overflow_total_tensor_size_near_2_64) {
    tdesc in, out;
    dmlref_error err;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 3));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 3));
    /* larger than the minimum is allowed; validation never allocates it */
    in.buf.TotalTensorSizeInBytes = UINT64_MAX;
    out.buf.TotalTensorSizeInBytes = UINT64_MAX - 3;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_OK, NULL);

    /* ... and the verdict is the same on every host; compiling needs the
     * buffers to be addressable here (only a 32-bit host fails this) */
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 1, &out.desc, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    dmlref_operator *op = NULL;
    if ((uint64_t)SIZE_MAX < UINT64_MAX) {
        CHECK_STATUS(dmlref_compile(&d, FL, NULL, &op, &err), err, DMLREF_ERROR_HOST_LIMIT,
                     "SPLIT: InputTensor.TotalTensorSizeInBytes (18446744073709551615) is valid but exceeds what "
                     "this host can address");
        CHECK(op == NULL);
    } else {
        CHECK_STATUS(dmlref_compile(&d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
        dmlref_release(op);
    }

    /* executing refuses any binding smaller than TotalTensorSizeInBytes; the
     * largest sizes a host can compile are SIZE_MAX (and that rounded to 4) */
    const uint64_t host_max = (uint64_t)SIZE_MAX, host_max4 = host_max & ~UINT64_C(3);
    in.buf.TotalTensorSizeInBytes = host_max;
    out.buf.TotalTensorSizeInBytes = host_max4;
    float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {0};
    dmlref_cbuffer ins[1] = {{x, sizeof x}};
    dmlref_buffer outs[1] = {{y, sizeof y}};
    char want[160];
    snprintf(want, sizeof want, "SPLIT: the InputTensor buffer holds 24 bytes, less than its TotalTensorSizeInBytes (%llu)",
             (unsigned long long)host_max);
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING, want);
    in.buf.TotalTensorSizeInBytes = 24;
    snprintf(want, sizeof want,
             "SPLIT: the OutputTensors[0] buffer holds 24 bytes, less than its TotalTensorSizeInBytes (%llu)",
             (unsigned long long)host_max4);
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING, want);
    const float zero[6] = {0};
    CHECK_MEM(y, zero, sizeof y);
}

/* A valid descriptor is valid everywhere: UINT8 {2^32-1} needs 2^32 bytes,
 * which a 32-bit host cannot address.  validate says OK on every host;
 * compile says HOST_LIMIT exactly where SIZE_MAX is below the size. */
TEST(overflow_host_limit_is_not_a_verdict) {
    tdesc in, out;
    dmlref_error err;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX));
    CHECK_EQ_U64(in.buf.TotalTensorSizeInBytes, UINT64_C(0x100000000));
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_OK, NULL);
    CHECK(err.message[0] == '\0');
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 1, &out.desc, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    dmlref_operator *op = NULL;
    const dmlref_status st = dmlref_compile(&d, FL, NULL, &op, &err);
    if ((uint64_t)SIZE_MAX < UINT64_C(0x100000000)) {
        CHECK_STATUS(st, err, DMLREF_ERROR_HOST_LIMIT,
                     "SPLIT: InputTensor.TotalTensorSizeInBytes (4294967296) is valid but exceeds what this host can "
                     "address (SIZE_MAX 4294967295)");
        CHECK(op == NULL);
        CHECK(strcmp(dmlref_status_name(st), "DMLREF_ERROR_HOST_LIMIT") == 0);
    } else {
        CHECK_STATUS(st, err, DMLREF_OK, NULL);
        CHECK(op != NULL);
        CHECK_EQ_U64(dmlref_input_count(op), 1);
    }
    dmlref_release(op);
}

/* Regression: the output/input overlap test added pointer + TotalTensorSizeInBytes,
 * which wraps for sizes near 2^64, so two bindings of one buffer passed. */
TEST(overflow_binding_overlap_with_total_near_2_64) {
    tdesc in, out;
    dmlref_error err;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4));
    /* the largest multiple of 4 this host can address: 2^64 - 4 on 64-bit hosts */
    in.buf.TotalTensorSizeInBytes = (uint64_t)SIZE_MAX & ~UINT64_C(3);
    out.buf.TotalTensorSizeInBytes = (uint64_t)SIZE_MAX & ~UINT64_C(3);
    DMLREF_SPLIT_OPERATOR_DESC s = {&in.desc, 1, &out.desc, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SPLIT, &s};
    float buf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    /* a caller that does not know its buffer sizes may pass SIZE_MAX */
    dmlref_cbuffer ins[1] = {{buf, SIZE_MAX}};
    dmlref_buffer outs[1] = {{buf + 1, SIZE_MAX}};
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "the OutputTensors[0] buffer overlaps the InputTensor buffer");
    outs[0].data = buf;
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING, "overlaps");
    const float want[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_MEM(buf, want, sizeof buf);
}

TEST(overflow_dimension_count_uint32_max) {
    tdesc in, out;
    dmlref_error err;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4));
    in.buf.DimensionCount = U32MAX; /* Sizes still has one entry: never read */
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "SPLIT: InputTensor.DimensionCount (4294967295) must be in [1, 8]");
    in.buf.DimensionCount = 9;
    CHECK_STATUS(split1(&in, &out, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "(9) must be in [1, 8]");
}

/* ---- counts and parameters ------------------------------------------------------------ */

TEST(overflow_join_split_count_uint32_max) {
    tdesc whole, a, b;
    dmlref_error err;
    tdesc_init(&whole, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 4));
    tdesc_init(&a, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 2));
    tdesc_init(&b, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 2));
    /* a heap array of exactly two pieces, so ASan sees any read past it */
    DMLREF_TENSOR_DESC *pieces = malloc(2 * sizeof *pieces);
    CHECK(pieces != NULL);
    if (!pieces) return;
    pieces[0] = a.desc;
    pieces[1] = b.desc;

    DMLREF_JOIN_OPERATOR_DESC j = {U32MAX, pieces, &whole.desc, 1};
    DMLREF_OPERATOR_DESC dj = {DMLREF_OPERATOR_JOIN, &j};
    CHECK_STATUS(dmlref_validate(&dj, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "JOIN: InputCount (4294967295) exceeds OutputTensor.Sizes[Axis] (4): every piece is at least 1 along Axis");
    j.InputCount = 5; /* one more than Sizes[Axis], still more than the array */
    CHECK_STATUS(dmlref_validate(&dj, FL, &err), err, DMLREF_ERROR_PARAMETER, "InputCount (5) exceeds");
    j.InputCount = 2;
    CHECK_STATUS(dmlref_validate(&dj, FL, &err), err, DMLREF_OK, NULL);
    j.InputCount = 0;
    CHECK_STATUS(dmlref_validate(&dj, FL, &err), err, DMLREF_ERROR_PARAMETER, "JOIN: InputCount must be greater than 0");
    j.InputCount = U32MAX;
    j.Axis = U32MAX; /* Axis is checked before the count is compared with Sizes[Axis] */
    CHECK_STATUS(dmlref_validate(&dj, FL, &err), err, DMLREF_ERROR_PARAMETER, "JOIN: Axis (4294967295) must be in [0,");

    DMLREF_SPLIT_OPERATOR_DESC s = {&whole.desc, U32MAX, pieces, 1};
    DMLREF_OPERATOR_DESC ds = {DMLREF_OPERATOR_SPLIT, &s};
    CHECK_STATUS(dmlref_validate(&ds, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "SPLIT: OutputCount (4294967295) exceeds InputTensor.Sizes[Axis] (4)");
    s.OutputCount = 2;
    CHECK_STATUS(dmlref_validate(&ds, FL, &err), err, DMLREF_OK, NULL);
    s.OutputCount = U32MAX;
    s.Axis = U32MAX;
    CHECK_STATUS(dmlref_validate(&ds, FL, &err), err, DMLREF_ERROR_PARAMETER, "SPLIT: Axis (4294967295) must be in [0,");
    free(pieces);
}

TEST(overflow_join_piece_sizes_sum_past_2_32) {
    /* pieces whose Axis sizes sum past 2^32 (a 32-bit sum would wrap to 2) */
    tdesc whole, a, b;
    dmlref_error err;
    tdesc_init(&whole, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(4));
    tdesc_init(&a, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(U32MAX));
    tdesc_init(&b, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(3));
    DMLREF_TENSOR_DESC pieces[2] = {a.desc, b.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {2, pieces, &whole.desc, 0};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_JOIN, &j};
    CHECK_STATUS(dmlref_validate(&d, FL, &err), err, DMLREF_ERROR_SIZES,
                 "JOIN: the InputTensors sizes along Axis (0) sum to 4294967298, but OutputTensor.Sizes[0] is 4");
}

TEST(overflow_parameters_uint32_max) {
    tdesc in, ix, up, out;
    dmlref_error err;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 3));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(2, 3));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2, 3));

    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, U32MAX, 1};
    DMLREF_OPERATOR_DESC dg = {DMLREF_OPERATOR_GATHER, &g};
    CHECK_STATUS(dmlref_validate(&dg, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "GATHER: Axis (4294967295) must be in [0, InputTensor.DimensionCount) = [0, 2)");
    g.Axis = 1;
    g.IndexDimensions = U32MAX;
    CHECK_STATUS(dmlref_validate(&dg, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "GATHER: IndexDimensions (4294967295) must be in [0, IndicesTensor.DimensionCount] = [0, 2]");
    g.Axis = U32MAX; /* Axis + 1 would wrap to 0 */
    CHECK_STATUS(dmlref_validate(&dg, FL, &err), err, DMLREF_ERROR_PARAMETER, "Axis (4294967295)");

    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC e = {&in.desc, &ix.desc, &out.desc, U32MAX};
    DMLREF_OPERATOR_DESC de = {DMLREF_OPERATOR_GATHER_ELEMENTS, &e};
    CHECK_STATUS(dmlref_validate(&de, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "GATHER_ELEMENTS: Axis (4294967295) must be in [0, InputTensor.DimensionCount) = [0, 2)");

    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(1, 1));
    tdesc_init(&up, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 3));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, U32MAX, 2};
    DMLREF_OPERATOR_DESC ds = {DMLREF_OPERATOR_SCATTER_ND, &s};
    CHECK_STATUS(dmlref_validate(&ds, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "SCATTER_ND: InputDimensionCount (4294967295) must be in [1, InputTensor.DimensionCount] = [1, 2]");
    s.InputDimensionCount = 2;
    s.IndicesDimensionCount = U32MAX;
    CHECK_STATUS(dmlref_validate(&ds, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "SCATTER_ND: IndicesDimensionCount (4294967295) must be in [1, IndicesTensor.DimensionCount] = [1, 2]");
    s.IndicesDimensionCount = 1; /* (Q - 1) + (R - T) = 0 + 1: valid */
    CHECK_STATUS(dmlref_validate(&ds, FL, &err), err, DMLREF_OK, NULL);
}

/* ---- huge index values at execute ----------------------------------------------------- */

TEST(overflow_gather_extreme_index_values) {
    tdesc in, ix, out;
    dmlref_error err;
    const float input[3] = {10, 20, 30};
    float output[5];
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(3));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(5));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 0, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    const dmlref_options check = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 0};
    const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};

    /* INT64: clamped per index by default (docs/operators.md 1.8): -2^63 -> 0, 2^63-1 -> 2 */
    const int64_t i64[5] = {INT64_MIN, INT64_MAX, -3, -4, 3};
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(5));
    dmlref_cbuffer ins[2] = {{input, sizeof input}, {i64, sizeof i64}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    const float want64[5] = {10, 30, 10, 10, 30};
    for (int k = 0; k < 2; ++k) {
        memset(output, 0, sizeof output);
        CHECK_STATUS(dmlref_run(&d, FL, k ? &oracle : NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(output, want64, sizeof want64);
    }
    memset(output, 0, sizeof output);
    CHECK_STATUS(dmlref_run(&d, FL, &check, ins, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "GATHER: IndicesTensor[0] = -9223372036854775808 is out of range [-3, 3) for InputTensor.Sizes[0] (3)");
    const float zero[5] = {0};
    CHECK_MEM(output, zero, sizeof zero); /* nothing written */

    /* UINT64 and UINT32 maxima clamp to the last row */
    const uint64_t u64[5] = {UINT64_MAX, UINT64_C(1) << 32, 2, UINT64_C(1) << 63, 0};
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_UINT64, DIMS(5));
    ins[1].data = u64;
    ins[1].size = sizeof u64;
    const float wantu[5] = {30, 30, 30, 30, 10};
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, wantu, sizeof wantu);
    CHECK_STATUS(dmlref_run(&d, FL, &check, ins, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "IndicesTensor[0] = 18446744073709551615 is out of range [0, 3)");

    const uint32_t u32[5] = {U32MAX, 0x80000000u, 1, 0, 3};
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_UINT32, DIMS(5));
    ins[1].data = u32;
    ins[1].size = sizeof u32;
    const float want32[5] = {30, 30, 20, 10, 30};
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want32, sizeof want32);

    const int32_t s32[5] = {INT32_MIN, INT32_MAX, -1, -3, 0};
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(5));
    ins[1].data = s32;
    ins[1].size = sizeof s32;
    const float wants32[5] = {10, 30, 30, 10, 10};
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, wants32, sizeof wants32);
    CHECK_STATUS(dmlref_run(&d, FL, &check, ins, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "IndicesTensor[0] = -2147483648 is out of range [-3, 3)");
}

TEST(overflow_gather_elements_extreme_index_values) {
    tdesc in, ix, out;
    dmlref_error err;
    const uint8_t input[8] = {1, 2, 3, 4, 5, 6}; /* 6 bytes rounded up to 8 */
    const int64_t idx[2][2] = {{INT64_MIN, INT64_MAX}, {-1, -(INT64_C(1) << 32)}};
    uint8_t output[4] = {0};
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(2, 3));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(2, 2));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(2, 2));
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC e = {&in.desc, &ix.desc, &out.desc, 1};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER_ELEMENTS, &e};
    dmlref_cbuffer ins[2] = {{input, sizeof input}, {idx, sizeof idx}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    const uint8_t want[4] = {1, 3, 6, 4};
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);
    const dmlref_options check = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 0};
    CHECK_STATUS(dmlref_run(&d, FL, &check, ins, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "GATHER_ELEMENTS: IndicesTensor[0,0] = -9223372036854775808 is out of range [-3, 3)");
}

TEST(overflow_scatter_nd_extreme_index_values) {
    tdesc in, ix, up, out;
    dmlref_error err;
    const float input[4] = {1, 2, 3, 4}, updates[2] = {-1, -2};
    const int64_t idx[2] = {INT64_MIN, INT64_MAX};
    float output[4] = {0};
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 4));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(2, 1));
    tdesc_init(&up, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 2));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(1, 4));
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.desc, &ix.desc, &up.desc, &out.desc, 1, 2};
    DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_SCATTER_ND, &s};
    dmlref_cbuffer ins[3] = {{input, sizeof input}, {idx, sizeof idx}, {updates, sizeof updates}};
    dmlref_buffer outs[1] = {{output, sizeof output}};
    const float want[4] = {-1, 2, 3, -2};
    CHECK_STATUS(dmlref_run(&d, FL, NULL, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(output, want, sizeof want);
    memset(output, 0, sizeof output);
    const dmlref_options check = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 0};
    CHECK_STATUS(dmlref_run(&d, FL, &check, ins, 3, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "SCATTER_ND: IndicesTensor[0,0] = -9223372036854775808 is out of range [-4, 4) for InputTensor.Sizes[1] (4)");
    const float zero[4] = {0};
    CHECK_MEM(output, zero, sizeof zero);
}
