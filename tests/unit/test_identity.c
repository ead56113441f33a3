/*
 * ELEMENT_WISE_IDENTITY (P7): every rule at the feature levels where it
 * differs, the copy through strided, broadcast and gapped views, in-place
 * execution with snapshot semantics, and the fast path against the oracle on
 * random layouts with 1 and 2 threads.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct ifix {
    tdesc in, out;
    DMLREF_SCALE_BIAS sb;
    DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id;
    DMLREF_OPERATOR_DESC d;
} ifix;

/* Input and output of the same type and sizes; strides NULL = packed. */
static void ifix_init(ifix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                      const uint32_t *in_strides, const uint32_t *out_strides) {
    tdesc_init(&f->in, dt, n, sizes, in_strides);
    tdesc_init(&f->out, dt, n, sizes, out_strides);
    f->sb = (DMLREF_SCALE_BIAS){1.0f, 0.0f};
    f->id = (DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){&f->in.desc, &f->out.desc, NULL};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, &f->id};
}

static dmlref_status validate(const ifix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

TEST(identity_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "ELEMENT_WISE_IDENTITY") == 0);
    CHECK(sc->flags & DMLREF_SCHEMA_IN_PLACE);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC));
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK_EQ_U64(sc->n_params, 1);
    const dmlref_param *p = &sc->params[0];
    CHECK(strcmp(p->name, "ScaleBias") == 0 && p->kind == DMLREF_PARAM_STRUCT && p->is_optional);
    CHECK_EQ_U64(p->offset, offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias));
    CHECK_EQ_U64(p->struct_size, sizeof(DMLREF_SCALE_BIAS));
    CHECK(p->field_count == 2 && strcmp(p->field_names[0], "Scale") == 0 && strcmp(p->field_names[1], "Bias") == 0);
    /* only IDENTITY may run in place */
    const dmlref_schema *o;
    for (uint32_t i = 0; (o = dmlref_operator_schema_at(i)) != NULL; ++i)
        CHECK(((o->flags & DMLREF_SCHEMA_IN_PLACE) != 0) == (o->type == DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY));
}

TEST(identity_validation) {
    ifix f;
    dmlref_error err;
    ifix_init(&f, F32, NDIMS(1, 2, 3, 4), SIZES(1, 2, 3, 4), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);

    /* ID1: same DimensionCount, DataType and Sizes */
    tdesc_init(&f.out, F32, DIMS(1, 2, 4, 3));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
                 "ELEMENT_WISE_IDENTITY: OutputTensor.Sizes {1,2,4,3} must equal InputTensor.Sizes {1,2,3,4}");
    tdesc_init(&f.out, F32, DIMS(2, 3, 4));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "ELEMENT_WISE_IDENTITY: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(1, 2, 3, 4));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
                 "ELEMENT_WISE_IDENTITY: OutputTensor.DataType (INT32) must equal InputTensor.DataType (FLOAT32)");

    /* ID2 per feature level: 4-5 dims F32/F16 at 1_0, 4-5 T8 at 2_1, 1-8 T8 at 3_0, T11 at 4_1 */
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, NDIMS(1, 1, 2, 2), SIZES(1, 1, 2, 2), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE, "INT8");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, F32, NDIMS(2, 2, 2, 2, 2), SIZES(2, 2, 2, 2, 2), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, F32, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "InputTensor.DimensionCount (2)");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);

    /* ID3: output elements may not share memory; input zero strides broadcast */
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), SIZES(0, 1));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0");
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* ScaleBias is arithmetic: refused, whatever its values */
    ifix_init(&f, F32, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    f.id.ScaleBias = &f.sb;
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
                 "ELEMENT_WISE_IDENTITY: ScaleBias is not supported: x * Scale + Bias is arithmetic");
    f.id.ScaleBias = NULL;
    f.id.OutputTensor = NULL;
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "ELEMENT_WISE_IDENTITY: OutputTensor is NULL");
}

/* A transposing copy into a gapped output: every element lands at its
 * coordinate's offset, the gaps keep their bytes. */
TEST(identity_transpose_into_gaps) {
    ifix f;
    dmlref_error err;
    /* input {2,3} read column-major (strides {1,2}); output rows padded to 4 */
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(1, 2), SIZES(4, 1));
    const float in[6] = {1, 2, 3, 4, 5, 6}; /* element [r][c] = in[r + 2c] */
    float out[8];
    for (int threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            const dmlref_options o = {flags, (uint32_t)threads};
            for (int i = 0; i < 8; ++i) out[i] = -1;
            dmlref_cbuffer ins[1] = {{in, sizeof in}};
            dmlref_buffer outs[1] = {{out, sizeof out}};
            CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
            const float want[8] = {1, 3, 5, -1, 2, 4, 6, -1};
            CHECK_MEM(out, want, sizeof want);
        }
}

TEST(identity_broadcast_and_bits) {
    ifix f;
    dmlref_error err;
    /* a row broadcast down 3 rows; NaN payloads and -0.0 move as bits */
    ifix_init(&f, F32, 2, SIZES(3, 2), SIZES(0, 1), NULL);
    const uint32_t in[2] = {0x7fc01234u, 0x80000000u};
    uint32_t out[6] = {0};
    dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[1] = {{out, sizeof out}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    const uint32_t want[6] = {0x7fc01234u, 0x80000000u, 0x7fc01234u, 0x80000000u, 0x7fc01234u, 0x80000000u};
    CHECK_MEM(out, want, sizeof want);
}

/* ID4: in place.  The same layout is a no-op; another layout reads every
 * input element before writing (a 2x2 transpose in one buffer); an output
 * that only overlaps the input is still a binding error. */
TEST(identity_in_place) {
    ifix f;
    dmlref_error err;
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {flags, 0};
        ifix_init(&f, F32, NDIMS(2, 2), SIZES(2, 2), NULL, NULL);
        float buf[4] = {1, 2, 3, 4};
        dmlref_cbuffer ins[1] = {{buf, sizeof buf}};
        dmlref_buffer outs[1] = {{buf, sizeof buf}};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        const float same[4] = {1, 2, 3, 4};
        CHECK_MEM(buf, same, sizeof buf);

        ifix_init(&f, F32, 2, SIZES(2, 2), SIZES(1, 2), NULL); /* read transposed, write packed */
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        const float transposed[4] = {1, 3, 2, 4};
        CHECK_MEM(buf, transposed, sizeof buf);

        float big[6] = {1, 2, 3, 4, 5, 6};
        ifix_init(&f, F32, NDIMS(2, 2), SIZES(2, 2), NULL, NULL);
        dmlref_cbuffer ins2[1] = {{big, 4 * sizeof(float)}};
        dmlref_buffer outs2[1] = {{big + 1, 4 * sizeof(float)}};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins2, 1, outs2, 1, &err), err, DMLREF_ERROR_BINDING,
                     "ELEMENT_WISE_IDENTITY: the OutputTensor buffer overlaps the InputTensor buffer");
    }
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* The fast path writes exactly the oracle's bytes, gaps included, over random
 * permuted, padded and broadcast layouts of every element size. */
TEST(identity_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    uint32_t seed = 12345;
    int reached_fast = 0;
    for (int iter = 0; iter < 400; ++iter) {
        const uint32_t n = 1 + lcg(&seed) % 5;
        uint32_t sizes[8], perm[8], in_st[8], out_st[8];
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + lcg(&seed) % 5;
            perm[d] = d;
        }
        for (uint32_t d = n; d-- > 1;) {
            const uint32_t j = lcg(&seed) % (d + 1), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
        /* output: a permuted packed layout with an optional pad per dim; input:
         * packed row-major, some dims broadcast */
        uint32_t s = 1;
        for (uint32_t k = n; k-- > 0;) {
            const uint32_t d = perm[k];
            out_st[d] = s;
            s *= sizes[d] + lcg(&seed) % 2;
        }
        s = 1;
        for (uint32_t d = n; d-- > 0;) {
            in_st[d] = lcg(&seed) % 5 == 0 ? 0 : s;
            s *= sizes[d];
        }
        ifix f;
        dmlref_error err;
        const DMLREF_TENSOR_DATA_TYPE dt = types[lcg(&seed) % 4];
        ifix_init(&f, dt, n, sizes, in_st, out_st);
        const size_t in_bytes = (size_t)f.in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in = malloc(in_bytes), *ref = malloc(out_bytes), *got = malloc(out_bytes);
        if (!in || !ref || !got) abort();
        for (size_t i = 0; i < in_bytes; ++i) in[i] = (unsigned char)lcg(&seed);
        memset(ref, 0xCD, out_bytes);
        dmlref_cbuffer ins[1] = {{in, in_bytes}};
        dmlref_buffer r[1] = {{ref, out_bytes}}, g[1] = {{got, out_bytes}};
        const dmlref_options oracle = {DMLREF_OPTION_FORCE_ORACLE, 1};
        CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ins, 1, r, 1, &err), err, DMLREF_OK, NULL);
        for (uint32_t threads = 1; threads <= 2; ++threads) {
            const dmlref_options fast = {0, threads};
            dmlref_operator *op = NULL;
            memset(got, 0xCD, out_bytes);
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            if (strncmp(dmlref_kernel_name(op), "identity.", 9) == 0) reached_fast = 1;
            CHECK_STATUS(dmlref_execute(op, ins, 1, g, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u threads): fast path differs from the oracle", iter,
                          dmlref_kernel_name(op), threads);
            dmlref_release(op);
        }
        free(in);
        free(ref);
        free(got);
    }
    CHECK(reached_fast);
}

TEST(identity_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_SCALE_BIAS), 8);
    CHECK_EQ_U64(offsetof(DMLREF_SCALE_BIAS, Bias), 4);
    CHECK_EQ_U64(sizeof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC), 3 * p); /* 24 on LP64, 12 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias), 2 * p);
}
