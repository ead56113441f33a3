/*
 * NONZERO_COORDINATES (Q10): the desc's layout and schema, every rule (NZ1-NZ6) at
 * 3_0 and 4_0, the page's example, the zero test on the bits (+-0 zero, NaN and
 * subnormals nonzero), N below the rank, the rows past the count written as 0 and
 * reported undefined by dmlref_defined_elements, and the fast path against the
 * oracle and an independent reference on random cases with 1 and 2 threads (all
 * zero, all nonzero, -0 only, NaN, every element size).
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define FL DMLREF_FEATURE_LEVEL_6_4
/* a kernel name starts with want (the ISA suffix follows) */
#define CHECK_EQ_STR(got, want) CHECK(strncmp((got), (want), strlen(want)) == 0)

typedef struct nfix {
    tdesc in, cnt, co;
    DMLREF_NONZERO_COORDINATES_OPERATOR_DESC w;
    DMLREF_OPERATOR_DESC d;
} nfix;

/* Input of sizes (strides NULL: packed); count {1} x cn dims; coordinates {1.., M, N} in cdims dims. */
static void nfix_init(nfix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, const uint32_t *st,
                      uint32_t cn, uint32_t cdims, uint32_t N) {
    uint64_t M = 1;
    for (uint32_t d = 0; d < n; ++d) M *= sizes[d];
    uint32_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1}, cs[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    cs[cdims - 2] = (uint32_t)M;
    cs[cdims - 1] = N;
    tdesc_init(&f->in, dt, n, sizes, st);
    tdesc_init(&f->cnt, U32, cn, ones, NULL);
    tdesc_init(&f->co, U32, cdims, cs, NULL);
    f->w = (DMLREF_NONZERO_COORDINATES_OPERATOR_DESC){&f->in.desc, &f->cnt.desc, &f->co.desc};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_NONZERO_COORDINATES, &f->w};
}

static dmlref_status validate(const nfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(nonzero_coordinates_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_NONZERO_COORDINATES_OPERATOR_DESC), 3 * p); /* 24 on LP64, 12 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_NONZERO_COORDINATES_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_NONZERO_COORDINATES_OPERATOR_DESC, OutputCountTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_NONZERO_COORDINATES_OPERATOR_DESC, OutputCoordinatesTensor), 2 * p);
}

TEST(nonzero_coordinates_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_NONZERO_COORDINATES);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "NONZERO_COORDINATES") == 0);
    CHECK_EQ_U64(sc->type, 133);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_NONZERO_COORDINATES_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_3_0);
    CHECK_EQ_U64(sc->n_slots, 3);
    CHECK_EQ_U64(sc->n_params, 0);
    static const char *const names[3] = {"InputTensor", "OutputCountTensor", "OutputCoordinatesTensor"};
    for (uint32_t k = 0; k < 3 && k < sc->n_slots; ++k) {
        CHECK(strcmp(sc->slots[k].name, names[k]) == 0);
        CHECK_EQ_U64(sc->slots[k].is_output, k > 0);
        CHECK_EQ_U64(sc->slots[k].offset, k * sizeof(void *));
    }
}

TEST(nonzero_coordinates_validation_rules) {
    nfix f;
    dmlref_error err;
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* NZ2: T8, never 64-bit */
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT64, 2, SIZES(2, 3), NULL, 1, 2, 2);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "NONZERO_COORDINATES: InputTensor.DataType (INT64) is not supported at feature level 6_4", "NZ2");
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 2, SIZES(2, 3), NULL, 1, 2, 2);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "InputTensor.DataType (FLOAT64)", "NZ2");
    /* NZ3: the outputs UINT32 */
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    f.cnt.buf.DataType = DMLREF_TENSOR_DATA_TYPE_INT32;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "NONZERO_COORDINATES: OutputCountTensor.DataType (INT32) is not supported at feature level 6_4 "
               "(allowed: UINT32)",
               "NZ3");
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    tdesc_init(&f.co, DMLREF_TENSOR_DATA_TYPE_UINT64, DIMS(6, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "OutputCoordinatesTensor.DataType (UINT64)", "NZ3");
    /* NZ4: the count a scalar */
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    tdesc_init(&f.cnt, U32, DIMS(1, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "NONZERO_COORDINATES: OutputCountTensor.Sizes {1,2} must all be 1 (a scalar; Sizes[1] is 2)", "NZ4");
    /* NZ5: {1, ..., 1, M, N} */
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    tdesc_init(&f.co, U32, DIMS(5, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "NONZERO_COORDINATES: OutputCoordinatesTensor.Sizes {5,2} must be {1, ..., 1, M, N} = {6,2} with M = "
               "InputTensor's element count (6) (they differ at dimension 0)",
               "NZ5");
    tdesc_init(&f.co, U32, DIMS(2, 6, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "{2,6,2} must be {1, ..., 1, M, N} = {1,6,2}", "NZ5");
    /* NZ6: effective rank <= N <= DimensionCount */
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 1);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "NONZERO_COORDINATES: OutputCoordinatesTensor.Sizes' last size N (1) must be in [effective rank, "
               "InputTensor.DimensionCount] = [2, 2]",
               "NZ6");
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 3);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "N (3) must be in [effective rank", "NZ6");
    /* leading 1s: N from the effective rank (2) to the DimensionCount (4) */
    for (uint32_t N = 1; N <= 5; ++N) {
        nfix_init(&f, F32, 4, SIZES(1, 1, 2, 3), NULL, 1, 3, N);
        if (N >= 2 && N <= 4)
            CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
        else
            CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "= [2, 4]", "NZ6");
    }
    /* an all-1 input: effective rank 0, N 1 to DimensionCount */
    nfix_init(&f, F32, 3, SIZES(1, 1, 1), NULL, 1, 2, 1);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    /* the outputs' elements may not share memory */
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    tdesc_init(&f.co, U32, 2, SIZES(6, 2), SIZES(0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputCoordinatesTensor.Strides[0] is 0",
               "T15");
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 1, 2, 2);
    f.w.OutputCountTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "NONZERO_COORDINATES: OutputCountTensor is NULL",
               "T1");
}

/* NZ1 (Q0.2): none before 3_0; at 3_0 each tensor 4 or 5 dims, independently; from 4_0 Input
 * 1-8, OutputCount 1-8, OutputCoordinates 2-8. */
TEST(nonzero_coordinates_feature_levels) {
    nfix f;
    dmlref_error err;
    nfix_init(&f, F32, 4, SIZES(1, 1, 2, 3), NULL, 4, 5, 2);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, NULL);
    nfix_init(&f, F32, 5, SIZES(1, 1, 1, 2, 3), NULL, 5, 4, 4);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    nfix_init(&f, F32, 2, SIZES(2, 3), NULL, 4, 4, 2);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "NONZERO_COORDINATES: InputTensor.DimensionCount (2) must be in [4, 5] at feature level 3_1", "NZ1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    nfix_init(&f, F32, 4, SIZES(1, 1, 2, 3), NULL, 1, 4, 2);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "NONZERO_COORDINATES: OutputCountTensor.DimensionCount (1) must be in [4, 5] at feature level 3_0",
               "NZ1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    nfix_init(&f, F32, 4, SIZES(1, 1, 2, 3), NULL, 4, 2, 2);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "OutputCoordinatesTensor.DimensionCount (2) must be in [4, 5] at feature level 3_0", "NZ1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    /* 8 dims from 4_0; a 1-D input */
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, 8, SIZES(1, 2, 1, 2, 1, 2, 1, 2), NULL, 8, 8, 7);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT16, 1, SIZES(7), NULL, 1, 2, 1);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_OK, NULL);
    /* the output shapes dmlref_output_sizes gives: the count's and the coordinates' DimensionCount
     * and N read from the descs */
    nfix_init(&f, F32, 4, SIZES(1, 1, 2, 3), NULL, 3, 4, 3);
    uint32_t n = 0, s[8];
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, s, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(n, 3);
    CHECK(s[0] == 1 && s[1] == 1 && s[2] == 1);
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 1, &n, s, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(n, 4);
    CHECK(s[0] == 1 && s[1] == 1 && s[2] == 6 && s[3] == 3);
}

/* ---- running it ---------------------------------------------------------------------- */

/* An independent reference: each element's coordinate from its row-major number, the zero
 * test per type written out; rows past the count 0. */
static uint32_t ref_nonzero(const nfix *f, const unsigned char *in, uint32_t *co) {
    const DMLREF_BUFFER_TENSOR_DESC *b = &f->in.buf;
    const uint32_t n = b->DimensionCount, es = dmlref_data_type_size(b->DataType);
    const uint32_t N = f->co.buf.Sizes[f->co.buf.DimensionCount - 1];
    uint64_t st[8], M = 1;
    for (uint32_t d = n, a = 1; d-- > 0;) {
        st[d] = b->Strides ? b->Strides[d] : a;
        a *= b->Sizes[d];
    }
    for (uint32_t d = 0; d < n; ++d) M *= b->Sizes[d];
    memset(co, 0, (size_t)(M * N * 4));
    uint32_t count = 0;
    for (uint64_t e = 0; e < M; ++e) {
        uint64_t q = e, off = 0;
        uint32_t c[8];
        for (uint32_t d = n; d-- > 0;) {
            c[d] = (uint32_t)(q % b->Sizes[d]);
            q /= b->Sizes[d];
            off += c[d] * st[d];
        }
        const unsigned char *p = in + off * es;
        int nz;
        if (b->DataType == F32) {
            float v;
            memcpy(&v, p, 4);
            nz = v != 0.0f || v != v; /* the FPU here: +-0 == 0, NaN != 0 */
        } else if (b->DataType == F16) {
            uint16_t v;
            memcpy(&v, p, 2);
            nz = (v & 0x7FFF) != 0;
        } else {
            nz = 0;
            for (uint32_t k = 0; k < es; ++k) nz |= p[k] != 0;
        }
        if (!nz) continue;
        for (uint32_t j = 0; j < N; ++j) co[(uint64_t)count * N + j] = c[n - N + j];
        ++count;
    }
    return count;
}

/* The oracle and the fast path (threads 1 and 2) against the reference (coordinates packed),
 * and dmlref_defined_elements.  Returns the kernel name of the fast runs (or "oracle"). */
static const char *run_all_at(const char *file, int line, const nfix *f, DMLREF_FEATURE_LEVEL fl,
                              const unsigned char *in) {
    const size_t cb = (size_t)f->co.buf.TotalTensorSizeInBytes;
    uint32_t *want = malloc(cb), *got = malloc(cb);
    if (!want || !got) abort();
    const uint32_t wcount = ref_nonzero(f, in, want);
    const uint32_t N = f->co.buf.Sizes[f->co.buf.DimensionCount - 1];
    const char *kernel = "oracle";
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0,
                                  .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, fl, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (mode > 0) kernel = name;
        memset(got, 0xA5, cb);
        uint32_t count[8];
        memset(count, 0xA5, sizeof count);
        const dmlref_cbuffer ins[1] = {{in, (size_t)f->in.buf.TotalTensorSizeInBytes}};
        dmlref_buffer outs[2] = {{count, (size_t)f->cnt.buf.TotalTensorSizeInBytes}, {got, cb}};
        check_status_at(file, line, dmlref_execute(op, ins, 1, outs, 2, &err), &err, DMLREF_OK, NULL);
        if (count[0] != wcount) test_fail(file, line, "%s: count %u, want %u", name, count[0], wcount);
        if (memcmp(got, want, cb) != 0) {
            size_t at = 0;
            while (got[at] == want[at]) ++at;
            test_fail(file, line, "%s (threads %d) differs from the reference at element %zu of %zu (%u, want %u)",
                      name, mode ? mode : 1, at, cb / 4, got[at], want[at]);
        }
        uint64_t def = 0;
        check_status_at(file, line, dmlref_defined_elements(op, outs, 2, 1, &def, &err), &err, DMLREF_OK, NULL);
        if (def != (uint64_t)wcount * N) test_fail(file, line, "defined %llu, want %llu", (unsigned long long)def,
                                                   (unsigned long long)wcount * N);
        check_status_at(file, line, dmlref_defined_elements(op, outs, 2, 0, &def, &err), &err, DMLREF_OK, NULL);
        if (def != 1) test_fail(file, line, "count defined %llu, want 1", (unsigned long long)def);
        dmlref_release(op);
    }
    free(want);
    free(got);
    return kernel;
}
#define RUN_ALL(f, fl, in) run_all_at(__FILE__, __LINE__, (f), (fl), (in))

/* The page's example (docs/operators.md Q10; tests/cases/nonzero_coordinates_doc1.json):
 * {1,1,2,4} [[1,0,0,2],[-0,3.5,0,-5.2]], N 3: count 4, rows [0,0,0],[0,0,3],[0,1,1],[0,1,3],
 * then four rows of zeros (the page prints zeros; it calls them undefined). */
TEST(nonzero_coordinates_doc_example) {
    nfix f;
    nfix_init(&f, F32, 4, SIZES(1, 1, 2, 4), NULL, 4, 4, 3);
    const float in[8] = {1, 0, 0, 2, -0.0f, 3.5f, 0, -5.2f};
    const uint32_t want[24] = {0, 0, 0, 0, 0, 3, 0, 1, 1, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags};
        uint32_t count = 0xCDCDCDCDu, co[24];
        memset(co, 0xCD, sizeof co);
        const dmlref_cbuffer ins[1] = {{in, sizeof in}};
        dmlref_buffer outs[2] = {{&count, sizeof count}, {co, sizeof co}};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_3_0, &o, ins, 1, outs, 2, &err), err, DMLREF_OK, NULL);
        CHECK_EQ_U64(count, 4);
        CHECK_MEM(co, want, sizeof want);
    }
    RUN_ALL(&f, DMLREF_FEATURE_LEVEL_3_0, (const unsigned char *)in);
}

/* dmlref_defined_elements: every element for an operator without undefined ones; errors. */
TEST(nonzero_coordinates_defined_elements_api) {
    nfix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    nfix_init(&f, F32, 1, SIZES(5), NULL, 1, 2, 1);
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    const float in[5] = {0, 1, 0, 2, 0};
    uint32_t count = 0, co[5];
    const dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[2] = {{&count, sizeof count}, {co, sizeof co}};
    CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 2, &err), err, DMLREF_OK, NULL);
    uint64_t def = 99;
    CHECK_STATUS(dmlref_defined_elements(op, outs, 2, 1, &def, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(def, 2);
    CHECK_STATUS(dmlref_defined_elements(op, outs, 2, 2, &def, &err), err, DMLREF_ERROR_PARAMETER,
                 "NONZERO_COORDINATES has 2 outputs; there is no output 2");
    CHECK_STATUS(dmlref_defined_elements(op, outs, 1, 1, &def, &err), err, DMLREF_ERROR_BINDING, NULL);
    CHECK_STATUS(dmlref_defined_elements(op, outs, 2, 1, NULL, &err), err, DMLREF_ERROR_NULL_POINTER, NULL);
    dmlref_release(op);
    /* another operator: all of its elements */
    tdesc a, b;
    tdesc_init(&a, F32, DIMS(2, 3));
    tdesc_init(&b, F32, DIMS(2, 3));
    DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id = {&a.desc, &b.desc, NULL};
    const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, &id};
    CHECK_STATUS(dmlref_compile(&d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    CHECK_STATUS(dmlref_defined_elements(op, NULL, 0, 0, &def, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(def, 6);
    dmlref_release(op);
}

/* The zero test on the bits: +-0 zero (float32, float16), NaN (quiet, signalling, negative,
 * payloads), subnormals and infinities nonzero; integers of each size, any bit. */
TEST(nonzero_coordinates_zero_test) {
    static const uint32_t f32[12] = {0x00000000u, 0x80000000u, 0x7fc01234u, 0x7f800001u, 0xffc00001u, 0x00000001u,
                                     0x80000001u, 0x7f800000u, 0x80000000u, 0x3f800000u, 0x00000000u, 0x807fffffu};
    nfix f;
    nfix_init(&f, F32, 1, SIZES(12), NULL, 1, 2, 1);
    CHECK_EQ_STR(RUN_ALL(&f, FL, (const unsigned char *)f32), "nonzero_coordinates.packed");
    static const uint16_t f16[20] = {0x0000, 0x8000, 0x7e01, 0x7c01, 0xfe00, 0x0001, 0x8001, 0x7c00, 0x8000, 0x3c00,
                                     0x0000, 0x83ff, 0x8000, 0x8000, 0x0000, 0x8000, 0x8000, 0x0000, 0x8000, 0xfc00};
    nfix_init(&f, F16, 1, SIZES(20), NULL, 1, 2, 1);
    RUN_ALL(&f, FL, (const unsigned char *)f16);
    /* INT16 0x8000 (a -0 bit pattern) is nonzero */
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, 1, SIZES(20), NULL, 1, 2, 1);
    RUN_ALL(&f, FL, (const unsigned char *)f16);
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT32, 1, SIZES(12), NULL, 1, 2, 1);
    RUN_ALL(&f, FL, (const unsigned char *)f32);
    /* exact counts: float32 zeros at 0, 1, 8, 10 -> 8 nonzero; INT32: 0 and 10 -> 10 */
    uint32_t count, co[20];
    const dmlref_cbuffer ins[1] = {{f32, sizeof f32}};
    dmlref_buffer outs[2] = {{&count, 4}, {co, 12 * 4}};
    dmlref_error err;
    nfix_init(&f, F32, 1, SIZES(12), NULL, 1, 2, 1);
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 2, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(count, 8);
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT32, 1, SIZES(12), NULL, 1, 2, 1);
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 2, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(count, 10);
}

/* N below the rank (leading 1s dropped), a strided input (the oracle), a strided output. */
TEST(nonzero_coordinates_layouts) {
    uint64_t s = 3;
    unsigned char buf[4 * 200];
    for (size_t i = 0; i < sizeof buf; ++i) buf[i] = (unsigned char)(splitmix64(&s) % 4 == 0 ? splitmix64(&s) : 0);
    nfix f;
    for (uint32_t N = 2; N <= 5; ++N) {
        nfix_init(&f, F32, 5, SIZES(1, 1, 1, 5, 7), NULL, 2, 3, N);
        CHECK_EQ_STR(RUN_ALL(&f, FL, buf), "nonzero_coordinates.packed");
    }
    nfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(4, 5, 3), SIZES(1, 12, 60), 1, 2, 3);
    CHECK_EQ_STR(RUN_ALL(&f, FL, buf), "oracle");
    /* a gapped coordinates output: the reference's packed rows compared through the strides */
    nfix_init(&f, F16, 2, SIZES(6, 9), NULL, 1, 2, 2);
    tdesc_init(&f.co, U32, 2, SIZES(54, 2), SIZES(3, 1));
    dmlref_operator *op = NULL;
    dmlref_error err;
    for (int force = 0; force < 2; ++force) {
        const dmlref_options o = {.flags = force ? DMLREF_OPTION_FORCE_ORACLE : 0};
        CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
        if (!op) return;
        uint32_t count, co[54 * 3], want[54 * 2];
        memset(co, 0xA5, sizeof co);
        const dmlref_cbuffer ins[1] = {{buf, 54 * 2}};
        dmlref_buffer outs[2] = {{&count, 4}, {co, sizeof co}};
        CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 2, &err), err, DMLREF_OK, NULL);
        nfix g;
        nfix_init(&g, F16, 2, SIZES(6, 9), NULL, 1, 2, 2);
        CHECK_EQ_U64(count, ref_nonzero(&g, buf, want));
        for (int r = 0; r < 54; ++r) {
            CHECK(co[3 * r] == want[2 * r] && co[3 * r + 1] == want[2 * r + 1]);
            CHECK(co[3 * r + 2] == 0xA5A5A5A5u); /* the gaps untouched */
        }
        dmlref_release(op);
    }
}

/* The benchmark's shape (bench nonzero: FLOAT32 [4096, 4096]) compiles to the packed kernel. */
TEST(nonzero_coordinates_benchmark_shape) {
    nfix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    nfix_init(&f, F32, 2, SIZES(4096, 4096), NULL, 1, 2, 2);
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK_EQ_STR(dmlref_kernel_name(op), "nonzero_coordinates.packed");
    dmlref_release(op);
}

KERNELS_CHECKED("nonzero_coordinates.")

/* The fast path writes exactly the reference's and the oracle's bytes on random cases: every
 * input type, 1-8 dims, N from the effective rank to the rank, densities from all zero to all
 * nonzero, -0 only, NaN; half of them with a tiny DMLREF_PAR_GRAIN so that 2 threads split. */
TEST(nonzero_coordinates_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[8] = {
        F32, F16, DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_DATA_TYPE_UINT32, DMLREF_TENSOR_DATA_TYPE_INT16,
        DMLREF_TENSOR_DATA_TYPE_UINT16, DMLREF_TENSOR_DATA_TYPE_INT8, DMLREF_TENSOR_DATA_TYPE_UINT8};
    const uint64_t base_seed = test_seed(20261128);
    uint64_t r = 0;
    int failed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 400 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + (uint32_t)(splitmix64(&r) % 8);
        uint32_t sizes[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(splitmix64(&r) % (iter % 4 == 0 ? 300 : 6));
            if (splitmix64(&r) % 5 == 0) sizes[d] = 1;
            if (total * sizes[d] > 20000) sizes[d] = 1;
            total *= sizes[d];
        }
        uint32_t lead = 0;
        while (lead < n && sizes[lead] == 1) ++lead;
        const uint32_t eff = n - lead, lo = eff ? eff : 1;
        const uint32_t N = lo + (uint32_t)(splitmix64(&r) % (n - lo + 1));
        const DMLREF_TENSOR_DATA_TYPE dt = types[splitmix64(&r) % 8];
        nfix f;
        nfix_init(&f, dt, n, sizes, NULL, 1 + (uint32_t)(splitmix64(&r) % 8), 2 + (uint32_t)(splitmix64(&r) % 7), N);
        const uint32_t es = dmlref_data_type_size(dt);
        unsigned char *in = malloc((size_t)(total * es));
        if (!in) abort();
        const uint32_t kind = (uint32_t)(splitmix64(&r) % 6);
        for (uint64_t i = 0; i < total; ++i) {
            unsigned char *p = in + i * es;
            for (uint32_t k = 0; k < es; ++k) p[k] = (unsigned char)splitmix64(&r);
            const int zero = kind == 0 ? 1 : kind == 1 ? 0 : (splitmix64(&r) % 10) >= (kind == 2 ? 1u : 9u);
            if (zero || kind == 3) memset(p, 0, es);
            if (kind == 3 && dt == F32) memcpy(p, &(uint32_t){0x80000000u}, 4); /* -0 only */
            if (kind == 3 && dt == F16) memcpy(p, &(uint16_t){0x8000u}, 2);
            if (kind == 4 && !zero && dt == F32) memcpy(p, &(uint32_t){0x7fc00000u | (uint32_t)(i & 0xFF)}, 4);
        }
        const int tiny = (int)(splitmix64(&r) % 2), stream = (int)(splitmix64(&r) % 2); /* streaming zero rows from 64 bytes */
        if (tiny || stream) {
            if (tiny) setenv("DMLREF_PAR_GRAIN", "64", 1);
            if (stream) setenv("DMLREF_STREAM_MIN", "64", 1);
            env_reload();
        }
        const int before = test_failures();
        const char *k = RUN_ALL(&f, FL, in);
        if (k) kernels_note(&seen, k);
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u dims, %s\n", iter, n, tiny ? "grain 64" : "default grain");
        }
        free(in);
        if (tiny || stream) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return;
    CHECK_KERNELS_REACHED(&seen, "nonzero_coordinates.", NULL);
}
