/*
 * SLICE_GRAD (Q5): the desc's layout and schema, every rule (SG1-SG5) at the feature levels
 * where it differs, the page's example, data of every element size through strided, gapped and
 * broadcast views with negative strides against an independent reference (the gaps between
 * output elements keep their bytes), -0.0 and NaN payloads as bits, and the fast path against
 * the oracle on random cases with 1 and 2 threads (both kernels reached).
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct gfix {
    tdesc in, out;
    uint32_t n, off[8], size[8];
    int32_t stride[8];
    DMLREF_SLICE_GRAD_OPERATOR_DESC s;
    DMLREF_OPERATOR_DESC d;
} gfix;

/* InputGradient sizes / strides (NULL = packed), OutputGradient sizes / strides, the window. */
static void gfix_init(gfix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *in, const uint32_t *in_st,
                      const uint32_t *out, const uint32_t *out_st, const uint32_t *off, const uint32_t *size,
                      const int32_t *stride) {
    f->n = n;
    for (uint32_t i = 0; i < n; ++i) {
        f->off[i] = off[i];
        f->size[i] = size[i];
        f->stride[i] = stride[i];
    }
    tdesc_init(&f->in, dt, n, in, in_st);
    tdesc_init(&f->out, dt, n, out, out_st);
    f->s = (DMLREF_SLICE_GRAD_OPERATOR_DESC){&f->in.desc, &f->out.desc, n, f->off, f->size, f->stride};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SLICE_GRAD, &f->s};
}
#define STRIDES(...) ((const int32_t[]){__VA_ARGS__})

static dmlref_status validate(const gfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(slice_grad_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_SLICE_GRAD_OPERATOR_DESC), 6 * p); /* 48 on LP64, 24 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, InputGradientTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, OutputGradientTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, DimensionCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, InputWindowOffsets), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, InputWindowSizes), 4 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, InputWindowStrides), 5 * p);
    CHECK_EQ_U64(DMLREF_OPERATOR_SLICE_GRAD, 135);
}

TEST(slice_grad_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_SLICE_GRAD);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "SLICE_GRAD") == 0 && strcmp(dmlref_operator_name(DMLREF_OPERATOR_SLICE_GRAD), "SLICE_GRAD") == 0);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_SLICE_GRAD_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_3_0);
    CHECK_EQ_U64(sc->flags, 0);
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputGradientTensor") == 0 && !sc->slots[0].is_output);
    CHECK(strcmp(sc->slots[1].name, "OutputGradientTensor") == 0 && sc->slots[1].is_output);
    CHECK_EQ_U64(sc->n_params, 4);
    CHECK(strcmp(sc->params[0].name, "DimensionCount") == 0 && sc->params[0].is_count);
    CHECK(strcmp(sc->params[3].name, "InputWindowStrides") == 0 && sc->params[3].kind == DMLREF_PARAM_INT_ARRAY);
    CHECK_EQ_U64(sc->params[3].offset, offsetof(DMLREF_SLICE_GRAD_OPERATOR_DESC, InputWindowStrides));
}

TEST(slice_grad_validation_rules) {
    gfix f;
    dmlref_error err;
    /* the page's window: {1,1,2,2} into {1,1,4,4}, strides 2 */
    gfix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, SIZES(1, 1, 4, 4), NULL, SIZES(0, 0, 0, 0), SIZES(1, 1, 4, 4),
              STRIDES(1, 1, 2, 2));
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "SLICE_GRAD: not available at feature level 2_1 (introduced in 3_0)", "");

    /* SG1: 4-5 dims at 3_0, 1-8 from 3_1; DimensionCount; the arrays */
    gfix_init(&f, F32, 2, SIZES(2, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4), STRIDES(2, 2));
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "InputGradientTensor.DimensionCount (2)", "SG1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    f.s.DimensionCount = 3;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "SLICE_GRAD: DimensionCount (3) must equal InputGradientTensor.DimensionCount (2) (SG1)", "SG1");
    f.s.DimensionCount = 2;
    f.s.InputWindowSizes = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER,
               "SLICE_GRAD: InputWindowSizes is NULL; it must point to DimensionCount (2) values (SG1)", "SG1");
    f.s.InputWindowSizes = f.size;
    tdesc_init(&f.out, F32, DIMS(1, 4, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "OutputGradientTensor.DimensionCount (3) must equal InputGradientTensor.DimensionCount (2)", "SG1");
    tdesc_init(&f.out, F32, DIMS(4, 4));

    /* SG2: the same type, T8 until 4_1, T11 from 4_1 */
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DIMS(4, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "OutputGradientTensor.DataType (FLOAT16) must equal InputGradientTensor.DataType (FLOAT32)", "SG2");
    gfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT64, 2, SIZES(2, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4),
              STRIDES(2, 2));
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "INT64", "SG2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
    gfix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 2, SIZES(2, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4),
              STRIDES(2, 2));
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64", "SG2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);

    /* SG3: the window is not empty and lies in OutputGradient (64-bit end) */
    gfix_init(&f, F32, 2, SIZES(2, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4), STRIDES(2, 2));
    f.size[1] = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "SLICE_GRAD: InputWindowSizes[1] is 0; the window must not be empty (SG3)", "SG3");
    f.size[1] = 4;
    f.off[1] = 1;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "SLICE_GRAD: the window ends outside OutputGradientTensor in dimension 1: InputWindowOffsets[1] + "
               "InputWindowSizes[1] = 1 + 4 = 5 exceeds OutputGradientTensor.Sizes[1] (4) (SG3)",
               "SG3");
    f.off[1] = UINT32_MAX; /* no 32-bit wrap */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "= 4294967295 + 4 = 4294967299 exceeds", "SG3");
    f.off[1] = 0;

    /* SG4: no zero stride */
    f.stride[0] = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "SLICE_GRAD: InputWindowStrides[0] is 0; strides may not be 0 (SG4)", "SG4");
    f.stride[0] = -2; /* negative: fine */
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* SG5: InputGradient no larger than the window reaches; |INT32_MIN| in 64 bits */
    gfix_init(&f, F32, 2, SIZES(3, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4), STRIDES(2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "SLICE_GRAD: InputGradientTensor.Sizes[0] (3) exceeds the elements the window reaches: 1 + "
               "(InputWindowSizes[0] - 1) / |InputWindowStrides[0]| = 1 + 3 / 2 = 2 (SG5)",
               "SG5");
    gfix_init(&f, F32, 2, SIZES(1, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4), STRIDES(INT32_MIN, 2));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    gfix_init(&f, F32, 2, SIZES(2, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4), STRIDES(INT32_MIN, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "1 + 3 / 2147483648 = 1 (SG5)", "SG5");

    /* the tensor rules: OutputGradient elements may not share memory */
    gfix_init(&f, F32, 2, SIZES(2, 2), NULL, SIZES(4, 4), SIZES(0, 1), SIZES(0, 0), SIZES(4, 4), STRIDES(2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputGradientTensor.Strides[0] is 0", "T15");
    gfix_init(&f, F32, 2, SIZES(2, 2), SIZES(0, 1), SIZES(4, 4), NULL, SIZES(0, 0), SIZES(4, 4), STRIDES(2, 2));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL); /* a broadcast input gradient */
}

/* The output's shape comes from OutputGradientTensor (the forward input's), checked against the window. */
TEST(slice_grad_output_sizes) {
    gfix f;
    dmlref_error err;
    uint32_t n = 0, sizes[8] = {0};
    gfix_init(&f, F32, 2, SIZES(2, 2), NULL, SIZES(4, 5), NULL, SIZES(0, 1), SIZES(4, 4), STRIDES(-2, 2));
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(n, 2);
    CHECK(sizes[0] == 4 && sizes[1] == 5);
    tdesc_init(&f.out, F32, DIMS(4, 4));
    CHECK_RULE(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_ERROR_PARAMETER, "exceeds", "SG3");
}

/* ---- data --------------------------------------------------------------------------- */

static uint32_t rnd(uint64_t *s, uint32_t n) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*s >> 33) % n);
}

static uint64_t elem_offset(const tdesc *t, const uint32_t *c, uint32_t n, uint32_t es) {
    uint64_t off = 0, acc = 1;
    for (uint32_t d = n; d-- > 0;) {
        const uint64_t st = t->buf.Strides ? t->buf.Strides[d] : acc;
        off += (uint64_t)c[d] * st;
        acc *= t->sizes[d];
    }
    return off * es;
}

static int next(const uint32_t *sizes, uint32_t n, uint32_t *c) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

/* The reference, written apart from the library: every element 0, then the window. */
static void reference(const gfix *f, const unsigned char *in, unsigned char *out, uint32_t es) {
    uint32_t c[8] = {0};
    do memset(out + elem_offset(&f->out, c, f->n, es), 0, es);
    while (next(f->out.sizes, f->n, c));
    memset(c, 0, sizeof c);
    do {
        uint32_t oc[8];
        for (uint32_t d = 0; d < f->n; ++d)
            oc[d] = (uint32_t)((int64_t)f->off[d] + (f->stride[d] < 0 ? (int64_t)f->size[d] - 1 : 0) +
                               (int64_t)f->stride[d] * c[d]);
        memcpy(out + elem_offset(&f->out, oc, f->n, es), in + elem_offset(&f->in, c, f->n, es), es);
    } while (next(f->in.sizes, f->n, c));
}

/* The oracle and the fast path (1 and 2 threads, tiny grain) against the reference, gaps
 * kept (0xCD); the fast kernel's name into seen. */
static int run_all(gfix *f, const unsigned char *in, kernels_seen *seen) {
    const uint32_t es = dmlref_data_type_size(f->in.buf.DataType);
    const size_t ib = (size_t)f->in.buf.TotalTensorSizeInBytes, ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *got = malloc(ob);
    if (!want || !got) abort();
    memset(want, 0xCD, ob);
    reference(f, in, want, es);
    int ok = 1;
    for (int mode = 0; mode < 4; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0,
                                  .threads = (uint32_t)(mode == 3 ? 2 : 1)};
        if (mode >= 2) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        dmlref_operator *op = NULL;
        dmlref_error err;
        const dmlref_status st = dmlref_compile(&f->d, FL, &o, &op, &err);
        if (mode >= 2) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
        if (st != DMLREF_OK) {
            test_fail(__FILE__, __LINE__, "compile: %s", err.message);
            ok = 0;
            break;
        }
        if (seen && mode) kernels_note(seen, dmlref_kernel_name(op));
        memset(got, 0xCD, ob);
        const dmlref_cbuffer ins[1] = {{in, ib}};
        const dmlref_buffer outs[1] = {{got, ob}};
        if (dmlref_execute(op, ins, 1, outs, 1, &err) != DMLREF_OK || memcmp(want, got, ob) != 0) {
            test_fail(__FILE__, __LINE__, "mode %d (%s): differs from the reference", mode, dmlref_kernel_name(op));
            ok = 0;
        }
        dmlref_release(op);
    }
    free(want);
    free(got);
    return ok;
}

/* The page's example (docs/operators.md Q5; tests/cases/slice_grad_doc1.json). */
TEST(slice_grad_doc_example) {
    gfix f;
    gfix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, SIZES(1, 1, 4, 4), NULL, SIZES(0, 0, 0, 0), SIZES(1, 1, 4, 4),
              STRIDES(1, 1, 2, 2));
    const float in[4] = {1, 3, 9, 11}; /* the page's a, c, i, k */
    const float want[16] = {1, 0, 3, 0, 0, 0, 0, 0, 9, 0, 11, 0, 0, 0, 0, 0};
    float out[16];
    memset(out, 0xCD, sizeof out);
    dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[1] = {{out, sizeof out}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_3_0, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out, want, sizeof want);
    CHECK(run_all(&f, (const unsigned char *)in, NULL));
}

/* -0.0 and NaN payloads are copied as bits; the unread elements are +0.0 (all-zero bits). */
TEST(slice_grad_bits) {
    gfix f;
    gfix_init(&f, F32, 2, SIZES(2, 2), NULL, SIZES(4, 4), NULL, SIZES(0, 1), SIZES(4, 3), STRIDES(-2, 2));
    const uint32_t in[4] = {0x7FC00123u, 0xFF800001u, 0x80000000u, 0x3F800000u};
    uint32_t out[16], want[16] = {0};
    want[3 * 4 + 1] = in[0]; /* start {3, 1} */
    want[3 * 4 + 3] = in[1];
    want[1 * 4 + 1] = in[2];
    want[1 * 4 + 3] = in[3];
    dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[1] = {{out, sizeof out}};
    dmlref_error err;
    memset(out, 0xCD, sizeof out);
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out, want, sizeof want);
    CHECK(run_all(&f, (const unsigned char *)in, NULL));
}

/* Every element size through gapped, permuted and broadcast views. */
TEST(slice_grad_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_INT64};
    uint64_t s = 11;
    for (int k = 0; k < 4; ++k) {
        gfix f;
        /* input {2,3} broadcast in dim 0, output {5,7} with rows padded to 9 */
        gfix_init(&f, types[k], 2, SIZES(2, 3), SIZES(0, 1), SIZES(5, 7), SIZES(9, 1), SIZES(1, 1), SIZES(4, 5),
                  STRIDES(-3, 2));
        unsigned char in[64];
        for (size_t i = 0; i < sizeof in; ++i) in[i] = (unsigned char)rnd(&s, 256);
        CHECK(run_all(&f, in, NULL));
        /* a permuted gapped input, a packed output, stride 1: the rows kernel */
        gfix_init(&f, types[k], 3, SIZES(2, 3, 4), SIZES(1, 10, 2), SIZES(3, 4, 6), NULL, SIZES(1, 0, 1),
                  SIZES(2, 4, 5), STRIDES(1, 1, 1));
        unsigned char in2[512];
        for (size_t i = 0; i < sizeof in2; ++i) in2[i] = (unsigned char)rnd(&s, 256);
        CHECK(run_all(&f, in2, NULL));
    }
}

/* ---- the fast path against the oracle on random cases -------------------------------- */

KERNELS_CHECKED("slice_grad.")

TEST(slice_grad_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_INT16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64};
    const uint64_t base_seed = (uint64_t)test_seed(4242);
    uint64_t seed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 400; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        seed = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + rnd(&seed, 5);
        uint32_t in[8], out[8], off[8], size[8], in_st[8], out_st[8];
        int32_t st[8];
        const int plain = rnd(&seed, 2); /* strides 1: the rows kernel's cases */
        uint64_t acc = 1;
        for (uint32_t d = 0; d < n; ++d) {
            out[d] = 1 + rnd(&seed, d + 1 == n && iter % 7 == 0 ? 200 : 6);
            off[d] = rnd(&seed, out[d]);
            size[d] = 1 + rnd(&seed, out[d] - off[d]);
            const uint32_t mag = plain || rnd(&seed, 3) ? 1 : 1 + rnd(&seed, size[d]);
            st[d] = !plain && rnd(&seed, 3) == 0 ? -(int32_t)mag : (int32_t)mag;
            in[d] = 1 + rnd(&seed, 1 + (size[d] - 1) / mag);
            if (rnd(&seed, 3) == 0) in[d] = 1 + (size[d] - 1) / mag;
        }
        for (uint32_t d = n; d-- > 0;) {
            in_st[d] = (uint32_t)acc;
            acc = acc * in[d] + (rnd(&seed, 4) == 0 ? 2 : 0);
        }
        acc = 1;
        for (uint32_t d = n; d-- > 0;) {
            out_st[d] = (uint32_t)acc;
            acc = acc * out[d] + (rnd(&seed, 5) == 0 ? 1 : 0);
        }
        const int in_strided = rnd(&seed, 3) == 0, out_strided = rnd(&seed, 3) == 0;
        const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(&seed, 4)];
        gfix f;
        gfix_init(&f, dt, n, in, in_strided ? in_st : NULL, out, out_strided ? out_st : NULL, off, size, st);
        const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes;
        unsigned char *data = malloc(ib);
        if (!data) abort();
        for (size_t i = 0; i < ib; ++i) data[i] = (unsigned char)rnd(&seed, 256);
        if (!run_all(&f, data, &seen)) test_fail(__FILE__, __LINE__, "case %d", iter);
        free(data);
    }
    if (!test_cases_end()) return;
    CHECK_KERNELS_REACHED(&seen, "slice_grad.", NULL);
}
