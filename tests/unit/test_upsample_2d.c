/*
 * UPSAMPLE_2D (Q7): the desc's layout and schema, every rule (US1-US5), the
 * documented example (ScaleSize {Width 3, Height 2} on {1,1,2,2}), NaN payloads
 * and -0.0 as bits, and the fast paths (upsample_2d.rows, .repeat) against an
 * independent reference and the oracle on random cases with 1 and 2 threads.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16

typedef struct ufix {
    tdesc in, out;
    DMLREF_UPSAMPLE_2D_OPERATOR_DESC u;
    DMLREF_OPERATOR_DESC d;
} ufix;

/* Input sizes and strides, ScaleSize (w, h), the output In.Sizes scaled with out_strides. */
static void ufix_init(ufix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                      const uint32_t *in_strides, uint32_t w, uint32_t h, const uint32_t *out_strides) {
    uint32_t out[8];
    for (uint32_t i = 0; i < n; ++i) out[i] = sizes[i];
    out[n - 2] *= h;
    out[n - 1] *= w;
    tdesc_init(&f->in, dt, n, sizes, in_strides);
    tdesc_init(&f->out, dt, n, out, out_strides);
    f->u = (DMLREF_UPSAMPLE_2D_OPERATOR_DESC){&f->in.desc, &f->out.desc, {w, h},
                                              DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_UPSAMPLE_2D, &f->u};
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(upsample_2d_desc_layout) {
    const size_t p = sizeof(void *);
    /* x64: 32 (ScaleSize 16, InterpolationMode 24); ILP32: 20 (8, 16) */
    CHECK_EQ_U64(sizeof(DMLREF_UPSAMPLE_2D_OPERATOR_DESC), p == 8 ? 32 : 20);
    CHECK_EQ_U64(offsetof(DMLREF_UPSAMPLE_2D_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_UPSAMPLE_2D_OPERATOR_DESC, ScaleSize), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_UPSAMPLE_2D_OPERATOR_DESC, InterpolationMode), 2 * p + 8);
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_UPSAMPLE_2D);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "UPSAMPLE_2D") == 0);
    CHECK_EQ_U64(sc->type, 66);
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_1_0);
    CHECK_EQ_U64(sc->n_params, 2);
    if (sc->n_params != 2) return;
    CHECK(strcmp(sc->params[0].name, "ScaleSize") == 0 && sc->params[0].kind == DMLREF_PARAM_SIZE_2D);
    CHECK_EQ_U64(sc->params[0].offset, offsetof(DMLREF_UPSAMPLE_2D_OPERATOR_DESC, ScaleSize));
    CHECK(strcmp(sc->params[1].name, "InterpolationMode") == 0 && sc->params[1].kind == DMLREF_PARAM_ENUM);
}

TEST(upsample_2d_rules) {
    ufix f;
    dmlref_error err;
    const DMLREF_FEATURE_LEVEL fl = DMLREF_FEATURE_LEVEL_1_0;
    ufix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, 3, 2, NULL);
    CHECK_STATUS(dmlref_validate(&f.d, fl, &err), err, DMLREF_OK, NULL);
    CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_6_4, &err), err, DMLREF_OK, NULL);
    /* US1: 4 or 5 dims, the same count */
    ufix_init(&f, F32, 3, SIZES(1, 2, 2), NULL, 3, 2, NULL);
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "UPSAMPLE_2D: InputTensor.DimensionCount (3) must be in [4, 5] at feature level 1_0", "US1");
    ufix_init(&f, F32, 5, SIZES(1, 1, 3, 2, 2), NULL, 3, 2, NULL);
    CHECK_STATUS(dmlref_validate(&f.d, fl, &err), err, DMLREF_OK, NULL); /* depth (3) never scaled */
    tdesc_init(&f.out, F32, DIMS(1, 3, 4, 6));
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "UPSAMPLE_2D: OutputTensor.DimensionCount (4) must equal InputTensor.DimensionCount (5)", "US1");
    /* US2: F32 or F16, the same */
    ufix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 4, SIZES(1, 1, 2, 2), NULL, 3, 2, NULL);
    CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_6_4, &err), err, DMLREF_ERROR_DATA_TYPE,
               "UPSAMPLE_2D: InputTensor.DataType (UINT8) is not supported at feature level 6_4", "US2");
    ufix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, 3, 2, NULL);
    tdesc_init(&f.out, F16, DIMS(1, 1, 4, 6));
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_DATA_TYPE,
               "UPSAMPLE_2D: OutputTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)", "US2");
    /* US3: scales >= 1, products <= 2^32 - 1 */
    ufix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, 3, 2, NULL);
    f.u.ScaleSize.Height = 0;
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_PARAMETER,
               "UPSAMPLE_2D: ScaleSize {Width 3, Height 0}: both must be at least 1", "US3");
    CHECK(strcmp(err.field, "ScaleSize") == 0);
    f.u.ScaleSize.Height = 2;
    f.u.ScaleSize.Width = 0;
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_PARAMETER, "{Width 0, Height 2}", "US3");
    f.u.ScaleSize.Width = 0x80000000u;
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_PARAMETER,
               "UPSAMPLE_2D: InputTensor.Sizes[3] * ScaleSize.Width = 2 * 2147483648 = 4294967296 is above 2^32 - 1", "US3");
    f.u.ScaleSize.Width = 3;
    /* US4: the output's sizes */
    tdesc_init(&f.out, F32, DIMS(1, 1, 4, 5));
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_SIZES,
               "UPSAMPLE_2D: OutputTensor.Sizes[3] (5) must be 6 (InputTensor.Sizes[3] * ScaleSize.Width)", "US4");
    tdesc_init(&f.out, F32, DIMS(2, 1, 4, 6));
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_SIZES, "Sizes[0] (2) must be 1", "US4");
    tdesc_init(&f.out, F32, DIMS(1, 1, 4, 6));
    /* US5: NEAREST_NEIGHBOR only */
    f.u.InterpolationMode = DMLREF_INTERPOLATION_MODE_LINEAR;
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_PARAMETER,
               "UPSAMPLE_2D: InterpolationMode LINEAR (1) is not supported by dmlref", "US5");
    f.u.InterpolationMode = (DMLREF_INTERPOLATION_MODE)5;
    CHECK_RULE(dmlref_validate(&f.d, fl, &err), err, DMLREF_ERROR_PARAMETER,
               "InterpolationMode (5, an unknown value) must be NEAREST_NEIGHBOR (0)", "US5");
    f.u.InterpolationMode = DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR;
    /* output_sizes */
    uint32_t n = 0, sizes[8];
    CHECK_STATUS(dmlref_output_sizes(&f.d, fl, 0, &n, sizes, &err), err, DMLREF_OK, NULL);
    CHECK(n == 4 && sizes[0] == 1 && sizes[1] == 1 && sizes[2] == 4 && sizes[3] == 6);
}

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* An independent reference: each output element's coordinates from its row-major number. */
static void ref_upsample(const ufix *f, const unsigned char *in, unsigned char *out) {
    const DMLREF_BUFFER_TENSOR_DESC *ib = &f->in.buf, *ob = &f->out.buf;
    const uint32_t n = ib->DimensionCount, es = dmlref_data_type_size(ib->DataType);
    uint64_t count = 1, ist[8], ost[8];
    for (uint32_t d = n; d-- > 0;) {
        ist[d] = ib->Strides ? ib->Strides[d] : (d + 1 < n ? ist[d + 1] * ib->Sizes[d + 1] : 1);
        ost[d] = ob->Strides ? ob->Strides[d] : (d + 1 < n ? ost[d + 1] * ob->Sizes[d + 1] : 1);
        count *= ob->Sizes[d];
    }
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t q = e, io = 0, oo = 0;
        for (uint32_t d = n; d-- > 0;) {
            const uint64_t c = q % ob->Sizes[d];
            q /= ob->Sizes[d];
            oo += c * ost[d];
            const uint64_t s = d == n - 2 ? f->u.ScaleSize.Height : d == n - 1 ? f->u.ScaleSize.Width : 1;
            io += (c / s) * ist[d];
        }
        memcpy(out + oo * es, in + io * es, es);
    }
}

/* The oracle and the fast path (threads 1, 2) against the reference; *kernel: the fast path's name. */
static int run_all_at(const char *file, int line, const ufix *f, const unsigned char *in, const char **kernel) {
    const size_t in_bytes = (size_t)f->in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(out_bytes), *got = malloc(out_bytes);
    int ok = want && got;
    if (ok) {
        memset(want, 0xA5, out_bytes);
        ref_upsample(f, in, want);
    }
    for (int mode = 0; ok && mode <= 2; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        if (dmlref_compile(&f->d, DMLREF_FEATURE_LEVEL_6_4, &o, &op, &err) != DMLREF_OK) {
            test_fail(file, line, "compile: %s", err.message);
            ok = 0;
            break;
        }
        if (mode && kernel) *kernel = dmlref_kernel_name(op);
        memset(got, 0xA5, out_bytes);
        const dmlref_cbuffer ib = {in, in_bytes};
        const dmlref_buffer ob = {got, out_bytes};
        const dmlref_status st = dmlref_execute(op, &ib, 1, &ob, 1, &err);
        dmlref_release(op);
        if (st != DMLREF_OK || memcmp(got, want, out_bytes) != 0) {
            test_fail(file, line, "mode %d: %s", mode, st != DMLREF_OK ? err.message : "bytes differ from the reference");
            ok = 0;
        }
    }
    free(want);
    free(got);
    return ok;
}
#define RUN_ALL(f, in, k) run_all_at(__FILE__, __LINE__, (f), (in), (k))

TEST(upsample_2d_doc_example_and_bits) {
    ufix f;
    ufix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, 3, 2, NULL);
    static const float in[4] = {1, 2, 3, 4};
    static const float want[24] = {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4};
    float got[24];
    dmlref_error err;
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags, .threads = 2};
        const dmlref_cbuffer ib = {in, sizeof in};
        const dmlref_buffer ob = {got, sizeof got};
        CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_1_0, &o, &ib, 1, &ob, 1, &err), err, DMLREF_OK, NULL);
        CHECK(memcmp(got, want, sizeof want) == 0);
    }
    /* NaN payloads and -0.0 as bits (FLOAT16) */
    ufix_init(&f, F16, 4, SIZES(1, 1, 1, 3), NULL, 2, 2, NULL);
    const uint16_t bits[3] = {0x7D01u, 0x8000u, 0xFE12u};
    const char *k = NULL;
    CHECK(RUN_ALL(&f, (const unsigned char *)bits, &k));
    CHECK(k && strncmp(k, "upsample_2d.rows.", 17) == 0); /* W packed, Width 2 */
}

KERNELS_CHECKED("upsample_2d.")

TEST(upsample_2d_fast_path_matches_oracle) {
    const uint64_t base_seed = test_seed(20261128);
    int failed = 0, reached = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 300 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        uint64_t r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 4 + (uint32_t)(rnd(&r) % 2);
        uint32_t sizes[5], ist[5], ost[5], out[5];
        for (uint32_t d = 0; d < n; ++d) sizes[d] = 1 + (uint32_t)(rnd(&r) % (iter % 5 == 0 ? 24 : 4));
        const uint32_t w = 1 + (uint32_t)(rnd(&r) % 4), h = 1 + (uint32_t)(rnd(&r) % 4);
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            out[d] = sizes[d] * (d == n - 2 ? h : d == n - 1 ? w : 1);
            total *= out[d];
        }
        if (total > 40000) continue;
        /* strides: packed, or permuted with gaps; broadcast inputs now and then */
        const int strided = rnd(&r) % 2;
        uint64_t next = 1;
        for (uint32_t d = n; d-- > 0;) ist[d] = (uint32_t)next, next = next * sizes[d] + rnd(&r) % 2;
        if (rnd(&r) % 4 == 0) ist[rnd(&r) % n] = 0;
        next = 1;
        for (uint32_t d = n; d-- > 0;) ost[d] = (uint32_t)next, next = next * out[d] + rnd(&r) % 2;
        ufix f;
        ufix_init(&f, rnd(&r) % 2 ? F32 : F16, n, sizes, strided ? ist : NULL, w, h, strided ? ost : NULL);
        const int tiny = (int)(rnd(&r) % 2);
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        const size_t nb = (size_t)f.in.buf.TotalTensorSizeInBytes;
        unsigned char *data = malloc(nb ? nb : 1);
        for (size_t i = 0; data && i < nb; ++i) data[i] = (unsigned char)rnd(&r);
        const char *k = NULL;
        if (!RUN_ALL(&f, data, &k)) ++failed;
        if (k) kernels_note(&seen, k), ++reached;
        free(data);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return;
    CHECK(reached > 100);
    CHECK_KERNELS_REACHED(&seen, "upsample_2d.", NULL);
}
