/*
 * MAX_UNPOOLING (Q6): the desc's layout and schema, every rule (MU1-MU4) at the feature levels
 * where it differs, the checking option (N1 out of range, MU5 repeated targets, both before any
 * write), the example, clamping and the last write winning, -0.0 and NaN payloads as bits,
 * strided outputs, and the fast path against an independent reference on random cases (pooled
 * indices whose thread parts are disjoint, and indices anywhere with repeats and values past the
 * end) with 1 and 2 threads, every kernel reached; window_2x2 chunk by chunk, with defects that send
 * chunks the scatter way next to window chunks, aligned and misaligned outputs.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct mfix {
    tdesc in, ix, out;
    DMLREF_MAX_UNPOOLING_OPERATOR_DESC m;
    DMLREF_OPERATOR_DESC d;
} mfix;

static void mfix_init(mfix *f, DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE it, const uint32_t *in,
                      const uint32_t *in_st, const uint32_t *ix_st, const uint32_t *out, const uint32_t *out_st) {
    tdesc_init(&f->in, dt, 4, in, in_st);
    tdesc_init(&f->ix, it, 4, in, ix_st);
    tdesc_init(&f->out, dt, 4, out, out_st);
    f->m = (DMLREF_MAX_UNPOOLING_OPERATOR_DESC){&f->in.desc, &f->ix.desc, &f->out.desc};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_MAX_UNPOOLING, &f->m};
}

static dmlref_status validate(const mfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(max_unpooling_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_MAX_UNPOOLING_OPERATOR_DESC), 3 * p); /* 24 on LP64, 12 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_MAX_UNPOOLING_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_MAX_UNPOOLING_OPERATOR_DESC, IndicesTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_MAX_UNPOOLING_OPERATOR_DESC, OutputTensor), 2 * p);
    CHECK_EQ_U64(DMLREF_OPERATOR_MAX_UNPOOLING, 92);
}

TEST(max_unpooling_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_MAX_UNPOOLING);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "MAX_UNPOOLING") == 0);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_MAX_UNPOOLING_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_3_0); /* the page; the header's block is 0x2000 (Q0.1) */
    CHECK_EQ_U64(sc->n_slots, 3);
    CHECK(strcmp(sc->slots[1].name, "IndicesTensor") == 0 && sc->slots[1].is_index);
    CHECK(strcmp(sc->slots[2].name, "OutputTensor") == 0 && sc->slots[2].is_output);
    CHECK_EQ_U64(sc->n_params, 0);
}

TEST(max_unpooling_validation_rules) {
    mfix f;
    dmlref_error err;
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "MAX_UNPOOLING: not available at feature level 2_1 (introduced in 3_0)", "");

    /* MU1: exactly 4-D, all three */
    tdesc_init(&f.in, F32, DIMS(1, 2, 2));
    tdesc_init(&f.ix, U32, DIMS(1, 2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "InputTensor.DimensionCount (3)", "MU1");
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    tdesc_init(&f.out, F32, DIMS(1, 1, 1, 4, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "OutputTensor.DimensionCount (5) must equal InputTensor.DimensionCount (4)", "MU1");
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    tdesc_init(&f.ix, U32, DIMS(1, 2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "IndicesTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)", "MU1");

    /* MU2: Indices.Sizes == Input.Sizes */
    tdesc_init(&f.ix, U32, DIMS(1, 1, 2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "IndicesTensor.Sizes", "MU2");

    /* MU3: the same type; F32/F16 at 3_0, T10 from 5_0 (no FLOAT64) */
    mfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE, "INT8", "MU3");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
    mfix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64", "MU3");
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DIMS(1, 1, 4, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "OutputTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)", "MU3");

    /* MU4: UINT32 at 3_0, UINT64 too from 5_0; never signed */
    mfix_init(&f, F32, U64, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE, "UINT64", "MU4");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
    mfix_init(&f, F32, DMLREF_TENSOR_DATA_TYPE_INT32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "INT32", "MU4");

    /* Output's sizes are free: other N and C, smaller H and W */
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(3, 5, 1, 1), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    uint32_t n = 0, sizes[8] = {0};
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_OK, NULL);
    CHECK(n == 4 && sizes[0] == 3 && sizes[1] == 5 && sizes[2] == 1 && sizes[3] == 1);

    /* the tensor rules: output elements may not share memory */
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), SIZES(16, 16, 0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[2] is 0", "T15");
}

/* ---- data --------------------------------------------------------------------------- */

static uint32_t rnd(uint64_t *s, uint32_t n) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*s >> 33) % n);
}

static uint64_t elem_offset(const tdesc *t, const uint32_t *c, uint32_t es) {
    uint64_t off = 0, acc = 1;
    for (uint32_t d = 4; d-- > 0;) {
        off += (uint64_t)c[d] * (t->buf.Strides ? t->buf.Strides[d] : acc);
        acc *= t->sizes[d];
    }
    return off * es;
}

static int next(const uint32_t *sizes, uint32_t *c) {
    for (uint32_t d = 4; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

/* The reference, apart from the library: zeros, then each input in row-major order at its
 * clamped flat target (the last one wins). */
static void reference(const mfix *f, const unsigned char *in, const unsigned char *ix, unsigned char *out) {
    const uint32_t es = dmlref_data_type_size(f->in.buf.DataType), is = dmlref_data_type_size(f->ix.buf.DataType);
    const uint64_t count = (uint64_t)f->out.sizes[0] * f->out.sizes[1] * f->out.sizes[2] * f->out.sizes[3];
    uint32_t c[4] = {0};
    do memset(out + elem_offset(&f->out, c, es), 0, es);
    while (next(f->out.sizes, c));
    memset(c, 0, sizeof c);
    do {
        uint64_t t = 0;
        if (is == 4) {
            uint32_t v;
            memcpy(&v, ix + elem_offset(&f->ix, c, 4), 4);
            t = v;
        } else {
            memcpy(&t, ix + elem_offset(&f->ix, c, 8), 8);
        }
        if (t >= count) t = count - 1;
        uint32_t oc[4];
        for (uint32_t d = 4; d-- > 0;) {
            oc[d] = (uint32_t)(t % f->out.sizes[d]);
            t /= f->out.sizes[d];
        }
        memcpy(out + elem_offset(&f->out, oc, es), in + elem_offset(&f->in, c, es), es);
    } while (next(f->in.sizes, c));
}

/* Bytes past a 16-byte boundary at which run_all places Output (window_2x2 streams straight
 * into an aligned Output and stages a misaligned one). */
static size_t out_shift = 0;

/* Oracle and fast path (1 and 2 threads, tiny grain) against the reference, gaps kept. */
static int run_all(mfix *f, const unsigned char *in, const unsigned char *ix, kernels_seen *seen) {
    const size_t ib = (size_t)f->in.buf.TotalTensorSizeInBytes, xb = (size_t)f->ix.buf.TotalTensorSizeInBytes,
                 ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *block = malloc(ob + 32);
    if (!want || !block) abort();
    unsigned char *got = block + ((16 - (uintptr_t)block % 16) % 16) + out_shift;
    memset(want, 0xCD, ob);
    reference(f, in, ix, want);
    int ok = 1;
    for (int mode = 0; mode < 6; ++mode) { /* 4, 5: streaming stores from 64 bytes (flat_stream) */
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0,
                                  .threads = (uint32_t)(mode == 3 || mode == 5 ? 2 : 1)};
        if (mode >= 2) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            if (mode >= 4) setenv("DMLREF_STREAM_MIN", "64", 1);
            env_reload();
        }
        dmlref_operator *op = NULL;
        dmlref_error err;
        const dmlref_status st = dmlref_compile(&f->d, FL, &o, &op, &err);
        if (mode >= 2) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
        if (st != DMLREF_OK) {
            test_fail(__FILE__, __LINE__, "compile: %s", err.message);
            ok = 0;
            break;
        }
        if (seen && mode) kernels_note(seen, dmlref_kernel_name(op));
        memset(got, 0xCD, ob);
        const dmlref_cbuffer ins[2] = {{in, ib}, {ix, xb}};
        const dmlref_buffer outs[1] = {{got, ob}};
        if (dmlref_execute(op, ins, 2, outs, 1, &err) != DMLREF_OK || memcmp(want, got, ob) != 0) {
            test_fail(__FILE__, __LINE__, "mode %d (%s): differs from the reference", mode, dmlref_kernel_name(op));
            ok = 0;
        }
        dmlref_release(op);
    }
    free(want);
    free(block);
    return ok;
}

/* tests/cases/max_unpooling_doc1.json: ONNX's maxunpool_export_without_output_shape (the page
 * has no example). */
TEST(max_unpooling_example) {
    mfix f;
    mfix_init(&f, F32, U32, SIZES(1, 1, 2, 2), NULL, NULL, SIZES(1, 1, 4, 4), NULL);
    const float in[4] = {1, 2, 3, 4};
    const uint32_t ix[4] = {5, 7, 13, 15};
    const float want[16] = {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4};
    float out[16];
    memset(out, 0xCD, sizeof out);
    const dmlref_cbuffer ins[2] = {{in, sizeof in}, {ix, sizeof ix}};
    const dmlref_buffer outs[1] = {{out, sizeof out}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_3_0, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out, want, sizeof want);
    CHECK(run_all(&f, (const unsigned char *)in, (const unsigned char *)ix, NULL));
}

/* Clamping, the last write winning, bits; the checking option's N1 and MU5 before any write. */
TEST(max_unpooling_clamp_duplicates_check) {
    mfix f;
    mfix_init(&f, F32, U64, SIZES(1, 2, 1, 2), NULL, NULL, SIZES(1, 2, 2, 2), NULL);
    const uint32_t in[4] = {5, 0x7FC00001u, 8, 0x80000000u}; /* bit patterns */
    uint64_t ix[4] = {3, 0, 3, 99};
    uint32_t want[8] = {0x7FC00001u, 0, 0, 8, 0, 0, 0, 0x80000000u}, out[8];
    const dmlref_cbuffer ins[2] = {{in, sizeof in}, {ix, sizeof ix}};
    const dmlref_buffer outs[1] = {{out, sizeof out}};
    dmlref_error err;
    memset(out, 0xCD, sizeof out);
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out, want, sizeof want);
    CHECK(run_all(&f, (const unsigned char *)in, (const unsigned char *)ix, NULL));

    const dmlref_options chk = {.flags = DMLREF_OPTION_CHECK_INDICES};
    unsigned char untouched[32];
    memset(out, 0xCD, sizeof out);
    memset(untouched, 0xCD, sizeof untouched);
    CHECK_RULE(dmlref_run(&f.d, FL, &chk, ins, 2, outs, 1, &err), err, DMLREF_ERROR_INDEX_OUT_OF_RANGE,
               "MAX_UNPOOLING: IndicesTensor[0,1,0,1] = 99 is out of range [0, 8) for OutputTensor's element count (8)",
               "N1");
    CHECK_MEM(out, untouched, sizeof out);
    ix[3] = 7;
    CHECK_RULE(dmlref_run(&f.d, FL, &chk, ins, 2, outs, 1, &err), err, DMLREF_ERROR_DUPLICATE_INDEX,
               "MAX_UNPOOLING: IndicesTensor[0,1,0,0] repeats the target of IndicesTensor[0,0,0,0] (both write "
               "OutputTensor's flat element 3)",
               "MU5");
    CHECK_MEM(out, untouched, sizeof out);
    ix[2] = 6;
    CHECK_STATUS(dmlref_run(&f.d, FL, &chk, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
}

/* Every element size through strided inputs and gapped, permuted outputs. */
TEST(max_unpooling_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_INT64};
    uint64_t s = 5;
    for (int k = 0; k < 4; ++k) {
        mfix f;
        /* input {2,1,2,3} with a broadcast dim, indices gapped, output {2,1,4,6} permuted with gaps */
        mfix_init(&f, types[k], k % 2 ? U64 : U32, SIZES(2, 1, 2, 3), SIZES(0, 6, 3, 1), SIZES(8, 8, 4, 1),
                  SIZES(2, 1, 4, 6), SIZES(1, 2, 16, 2 * 70));
        unsigned char in[64], ix[128];
        for (size_t i = 0; i < sizeof in; ++i) in[i] = (unsigned char)rnd(&s, 256);
        memset(ix, 0, sizeof ix);
        uint32_t c[4] = {0};
        do { /* a 2x2 pooling's targets, now and then past the end or repeated */
            uint64_t t = (((uint64_t)c[0] * 1 + c[1]) * 4 + 2 * c[2] + rnd(&s, 2)) * 6 + 2 * c[3] + rnd(&s, 2);
            if (rnd(&s, 5) == 0) t = 48 + rnd(&s, 3);
            if (rnd(&s, 5) == 0) t = 0;
            const uint64_t off = elem_offset(&f.ix, c, k % 2 ? 8 : 4);
            if (k % 2) memcpy(ix + off, &t, 8);
            else {
                const uint32_t v = (uint32_t)t;
                memcpy(ix + off, &v, 4);
            }
        } while (next(f.in.sizes, c));
        CHECK(run_all(&f, in, ix, NULL));
    }
}

/* ---- the fast path against the reference on random cases ------------------------------- */

KERNELS_CHECKED("max_unpooling.")

TEST(max_unpooling_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_INT16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64};
    const uint64_t base_seed = (uint64_t)test_seed(9292);
    uint64_t seed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 300; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        seed = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        uint32_t in[4], out[4], in_st[4], ix_st[4], out_st[4];
        const int big = iter % 10 == 0;
        for (uint32_t d = 0; d < 4; ++d) in[d] = 1 + rnd(&seed, big ? 6 : 3);
        /* win: the shape of max_unpooling.window_2x2 (a 2x2 pooling's, most often FLOAT32 and UINT32) */
        const int win = rnd(&seed, 2) == 0;
        const uint32_t kh = win ? 2 : 1 + rnd(&seed, 3), kw = win ? 2 : 1 + rnd(&seed, 3);
        out[0] = in[0];
        out[1] = in[1];
        out[2] = in[2] * kh + (win ? 0 : rnd(&seed, 2));
        out[3] = in[3] * kw;
        const int mode = (int)rnd(&seed, 3); /* 0: pooled, 1: pooled with repeats and overflow, 2: anywhere */
        if (mode == 2 && rnd(&seed, 2)) out[1] = 1 + rnd(&seed, 4);
        uint64_t acc = 1, acc2 = 1, acc3 = 1;
        for (uint32_t d = 4; d-- > 0;) {
            in_st[d] = (uint32_t)acc;
            acc = acc * in[d] + (rnd(&seed, 4) == 0 ? 1 : 0);
            ix_st[d] = (uint32_t)acc2;
            acc2 = acc2 * in[d] + (rnd(&seed, 4) == 0 ? 3 : 0);
            out_st[d] = (uint32_t)acc3;
            acc3 = acc3 * out[d] + (rnd(&seed, 4) == 0 ? 2 : 0);
        }
        const int out_strided = rnd(&seed, win ? 6 : 3) == 0;
        const DMLREF_TENSOR_DATA_TYPE dt = win && rnd(&seed, 4) ? F32 : types[rnd(&seed, 4)],
                                      it = rnd(&seed, win ? 4 : 2) ? U32 : U64;
        mfix f;
        mfix_init(&f, dt, it, in, rnd(&seed, 3) == 0 ? in_st : NULL, rnd(&seed, 3) == 0 ? ix_st : NULL, out,
                  out_strided ? out_st : NULL);
        const uint64_t count = (uint64_t)out[0] * out[1] * out[2] * out[3];
        const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, xb = (size_t)f.ix.buf.TotalTensorSizeInBytes;
        unsigned char *data = malloc(ib), *ix = calloc(xb, 1);
        if (!data || !ix) abort();
        for (size_t i = 0; i < ib; ++i) data[i] = (unsigned char)rnd(&seed, 256);
        uint32_t c[4] = {0};
        uint64_t prev = 0;
        do {
            uint64_t t;
            if (mode == 2) t = rnd(&seed, (uint32_t)count + 2);
            else
                t = (((uint64_t)c[0] * out[1] + c[1]) * out[2] + (uint64_t)c[2] * kh + rnd(&seed, kh)) * out[3] +
                    (uint64_t)c[3] * kw + rnd(&seed, kw);
            /* a window_2x2 case: the chunks holding one (one element in about 64) go the scatter way */
            const uint32_t rare = win ? 8 : 1;
            if (mode == 1 && rnd(&seed, 8 * rare) == 0) t = prev;
            if (mode == 1 && rnd(&seed, 16 * rare) == 0) t = count + rnd(&seed, 1000);
            prev = t;
            const uint64_t off = elem_offset(&f.ix, c, it == U64 ? 8 : 4);
            if (it == U64) memcpy(ix + off, &t, 8);
            else {
                const uint32_t v = (uint32_t)t;
                memcpy(ix + off, &v, 4);
            }
        } while (next(in, c));
        if (!run_all(&f, data, ix, &seen)) test_fail(__FILE__, __LINE__, "case %d (mode %d)", iter, mode);
        free(data);
        free(ix);
    }
    if (!test_cases_end()) return;
    CHECK_KERNELS_REACHED(&seen, "max_unpooling.", NULL);
}

/* window_2x2 chunk by chunk: pooled indices with one defect in chosen input rows (a target
 * outside its window but inside the chunk's span, a repeat of an earlier target, one below
 * the cursor, one past the end, one in the next chunk's span, the first of the middle row
 * writing the row pair before it), so that window chunks and
 * scatter chunks alternate and meet; widths a multiple of 4 or not, Output aligned or not,
 * 1 and 2 threads, staged and streamed (run_all's modes). */
TEST(max_unpooling_window_chunks) {
    static const uint32_t shapes[][4] = {{2, 3, 64, 64}, {1, 2, 40, 8}, {1, 1, 70, 5}, {3, 1, 9, 1}, {1, 2, 33, 12}};
    uint64_t seed = (uint64_t)test_seed(4848);
    kernels_seen seen = {{0}, 0};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; ++si) {
        for (int defect = 0; defect < 7; ++defect) {
            const uint32_t *in = shapes[si];
            const uint32_t out[4] = {in[0], in[1], 2 * in[2], 2 * in[3]};
            const uint64_t n = (uint64_t)in[0] * in[1] * in[2] * in[3], w = in[3], count = 4 * n;
            mfix f;
            mfix_init(&f, F32, U32, in, NULL, NULL, out, NULL);
            float *data = malloc(4 * n);
            uint32_t *ix = malloc(4 * n);
            if (!data || !ix) abort();
            for (uint64_t e = 0; e < n; ++e) {
                const uint64_t r = e / w, j = e % w;
                ix[e] = (uint32_t)(4 * w * r + 2 * j + (rnd(&seed, 2) ? 2 * w : 0) + rnd(&seed, 2));
                const int32_t v = (int32_t)rnd(&seed, 2000) - 1000;
                data[e] = v == 0 ? -0.0f : (float)v;
            }
            /* defects in about one row in five, the first rows and the last included */
            if (defect == 6 && n / w > 1) { /* the middle row (2 threads: the second part's first) writes the
                                                * last element of the row pair before it */
                const uint64_t r = n / w / 2;
                ix[r * w] = (uint32_t)(4 * w * r - 1);
                if (ix[r * w - 1] == 4 * w * r - 1) ix[r * w - 1] -= 1;
            }
            for (uint64_t r = 0; r < n / w; ++r) {
                if (defect == 0 || defect == 6 || !(r == 0 || r + 1 == n / w || rnd(&seed, 5) == 0)) continue;
                const uint64_t e = r * w + rnd(&seed, (uint32_t)w);
                switch (defect) {
                case 1: ix[e] = (uint32_t)(4 * w * r + rnd(&seed, (uint32_t)(4 * w))); break; /* in the row pair */
                case 2: ix[e] = e ? ix[e - 1] : ix[e]; break;                                   /* a repeat */
                case 3: ix[e] = (uint32_t)rnd(&seed, (uint32_t)(4 * w * r + 1)); break;         /* below */
                case 4: ix[e] = (uint32_t)(count + rnd(&seed, 9)); break;                       /* past the end */
                default: ix[e] = (uint32_t)((4 * w * (r + 1) + rnd(&seed, (uint32_t)(8 * w))) % count); break;
                }
            }
            out_shift = (size_t)(4 * rnd(&seed, 4));
            if (!run_all(&f, (const unsigned char *)data, (const unsigned char *)ix, &seen))
                test_fail(__FILE__, __LINE__, "shape %zu, defect %d, Output at +%zu", si, defect, out_shift);
            out_shift = 0;
            free(data);
            free(ix);
        }
    }
    int reached = 0;
    for (int i = 0; i < seen.n; ++i) reached |= strncmp(seen.names[i], "max_unpooling.window_2x2", 24) == 0;
    if (reached == DMLREF_SMALL) /* a SMALL build plans none */
        test_fail(__FILE__, __LINE__, "max_unpooling.window_2x2 %sreached", reached ? "" : "not ");
}
