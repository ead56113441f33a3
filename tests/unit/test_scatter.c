/*
 * (Over 600 lines on purpose: one operator's tests over the shared fixture and
 * reference: rules, documented examples, data, duplicates, random cases against
 * the oracle and every kernel reached.)
 *
 * SCATTER = SCATTER_ELEMENTS (docs/operators.md P2): the desc's layout and
 * schema, every rule (SC1-SC7, with its id) at the feature levels where it
 * differs, the page's examples (Example 2 with its corrected {3,3} input),
 * every element size through strided, broadcast and gapped layouts with NaN
 * payloads and -0.0, out-of-range indices (clamped; N1 under the checking
 * option), duplicate targets (the last update in row-major order wins on every
 * path and thread count; SC8 under the checking option, before any write),
 * and the fast kernels against the oracle and an independent reference on
 * random cases with 1 and 2 threads, each kernel reached.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define F64 DMLREF_TENSOR_DATA_TYPE_FLOAT64
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct sfix {
    tdesc in, ix, up, out;
    DMLREF_SCATTER_OPERATOR_DESC s;
    DMLREF_OPERATOR_DESC d;
} sfix;

/* Input/Output {in sizes} of dt, Indices/Updates {ix sizes}; packed. */
static void sfix_init(sfix *f, DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE it, uint32_t n,
                      const uint32_t *in_sizes, const uint32_t *ix_sizes, uint32_t axis) {
    tdesc_init(&f->in, dt, n, in_sizes, NULL);
    tdesc_init(&f->ix, it, n, ix_sizes, NULL);
    tdesc_init(&f->up, dt, n, ix_sizes, NULL);
    tdesc_init(&f->out, dt, n, in_sizes, NULL);
    f->s = (DMLREF_SCATTER_OPERATOR_DESC){&f->in.desc, &f->ix.desc, &f->up.desc, &f->out.desc, axis};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_SCATTER, &f->s};
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *rule, const char *field, const char *needle) {
    check_status_at(file, line, st, err, want, needle);
    if (want != DMLREF_OK && (strcmp(err->rule, rule) != 0 || strcmp(err->field, field) != 0))
        test_fail(file, line, "rule \"%s\" field \"%s\", want \"%s\" \"%s\" (%s)", err->rule, err->field, rule, field,
                  err->message);
}
#define CHECK_RULE(st, err, want, rule, field, needle) \
    check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (rule), (field), (needle))

static dmlref_status validate(const sfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

TEST(scatter_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_SCATTER_OPERATOR_DESC), p == 8 ? 40 : 20); /* 40 on LP64 (the ABI's), 20 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_SCATTER_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_SCATTER_OPERATOR_DESC, IndicesTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_SCATTER_OPERATOR_DESC, UpdatesTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SCATTER_OPERATOR_DESC, OutputTensor), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SCATTER_OPERATOR_DESC, Axis), 4 * p);
    CHECK_EQ_U64(sizeof(DMLREF_SCATTER_ELEMENTS_OPERATOR_DESC), sizeof(DMLREF_SCATTER_OPERATOR_DESC));
    CHECK_EQ_U64(DMLREF_OPERATOR_SCATTER, 94);
    CHECK_EQ_U64(DMLREF_OPERATOR_SCATTER_ELEMENTS, 94);
}

TEST(scatter_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_SCATTER_ELEMENTS);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "SCATTER") == 0);
    CHECK(strcmp(dmlref_operator_name(DMLREF_OPERATOR_SCATTER), "SCATTER") == 0);
    CHECK_EQ_U64(sc->type, 94);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_SCATTER_OPERATOR_DESC));
    CHECK_EQ_U64(sc->flags, 0); /* not in place */
    CHECK_EQ_U64(sc->n_slots, 4);
    static const char *const names[4] = {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"};
    for (uint32_t i = 0; i < 4 && i < sc->n_slots; ++i) {
        CHECK(strcmp(sc->slots[i].name, names[i]) == 0);
        CHECK_EQ_U64(sc->slots[i].is_index, i == 1);
        CHECK_EQ_U64(sc->slots[i].is_output, i == 3);
        CHECK_EQ_U64(sc->slots[i].is_array, 0);
    }
    CHECK_EQ_U64(sc->slots[2].offset, offsetof(DMLREF_SCATTER_OPERATOR_DESC, UpdatesTensor));
    CHECK_EQ_U64(sc->n_params, 1);
    CHECK(strcmp(sc->params[0].name, "Axis") == 0 && sc->params[0].kind == DMLREF_PARAM_UINT);
    CHECK_EQ_U64(sc->params[0].offset, offsetof(DMLREF_SCATTER_OPERATOR_DESC, Axis));
}

TEST(scatter_validation) {
    sfix f;
    dmlref_error err;
    sfix_init(&f, F32, U32, 4, SIZES(1, 2, 3, 4), SIZES(1, 2, 5, 4), 2);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, "", "", NULL);

    /* SC7: from 2_0 on (the page's 1_0 is wrong, section 9 item 18); the API's own check, no rule id */
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, "", "",
               "SCATTER: not available at feature level 1_0 (introduced in 2_0)");

    /* SC1: one DimensionCount, allowed at the level */
    tdesc_init(&f.ix, U32, DIMS(2, 5, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "SC1", "IndicesTensor.DimensionCount",
               "SCATTER: IndicesTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    sfix_init(&f, F32, U32, 4, SIZES(1, 2, 3, 4), SIZES(1, 2, 5, 4), 2);
    tdesc_init(&f.up, F32, DIMS(2, 5, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "SC1", "UpdatesTensor.DimensionCount",
               "SCATTER: UpdatesTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    sfix_init(&f, F32, U32, 4, SIZES(1, 2, 3, 4), SIZES(1, 2, 5, 4), 2);
    tdesc_init(&f.out, F32, DIMS(1, 1, 2, 3, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "SC1", "OutputTensor.DimensionCount",
               "SCATTER: OutputTensor.DimensionCount (5) must equal InputTensor.DimensionCount (4)");
    sfix_init(&f, F32, U32, 2, SIZES(3, 4), SIZES(5, 4), 0);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "SC1",
               "InputTensor.DimensionCount",
               "SCATTER: InputTensor.DimensionCount (2) must be in [4, 4] at feature level 2_1");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F32, U32, 8, SIZES(1, 1, 1, 1, 1, 2, 3, 4), SIZES(1, 1, 1, 1, 1, 2, 3, 1), 7);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F32, U32, 5, SIZES(1, 1, 2, 3, 4), SIZES(1, 1, 2, 3, 1), 4);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "SC1",
               "InputTensor.DimensionCount", "(5) must be in [4, 4]");

    /* SC2: data types per level ({F32,F16} at 2_0, T8 at 2_1, T11 at 4_1), index types (U32, then IDX4 at 3_0) */
    sfix_init(&f, I8, U32, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE, "SC2", "InputTensor.DataType",
               "SCATTER: InputTensor.DataType (INT8) is not supported at feature level 2_0 (allowed: FLOAT32 FLOAT16)");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F16, U32, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F64, U32, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "SC2", "InputTensor.DataType",
               "InputTensor.DataType (FLOAT64) is not supported at feature level 4_0");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F32, I32, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DATA_TYPE, "SC2",
               "IndicesTensor.DataType",
               "SCATTER: IndicesTensor.DataType (INT32) is not supported at feature level 2_1 (allowed: UINT32)");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F32, I64, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, "", "", NULL);
    tdesc_init(&f.ix, DMLREF_TENSOR_DATA_TYPE_INT16, DIMS(1, 1, 2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "SC2", "IndicesTensor.DataType",
               "IndicesTensor.DataType (INT16) is not supported");
    sfix_init(&f, F32, U32, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    tdesc_init(&f.up, F16, DIMS(1, 1, 2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "SC2", "UpdatesTensor.DataType",
               "SCATTER: UpdatesTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)");
    sfix_init(&f, F32, U32, 4, SIZES(1, 1, 2, 2), SIZES(1, 1, 2, 2), 3);
    tdesc_init(&f.out, I32, DIMS(1, 1, 2, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "SC2", "OutputTensor.DataType",
               "SCATTER: OutputTensor.DataType (INT32) must equal InputTensor.DataType (FLOAT32)");

    /* SC3: Output.Sizes == Input.Sizes (not the indices' sizes) */
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(2, 3), 0);
    tdesc_init(&f.out, F32, DIMS(2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "SC3", "OutputTensor.Sizes",
               "SCATTER: OutputTensor.Sizes {2,3} must equal InputTensor.Sizes {3,3} (they differ at dimension 0)");

    /* SC6: 0 <= Axis < N (checked before SC4, which needs it) */
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(2, 3), 2);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "SC6", "Axis",
               "SCATTER: Axis (2) must be in [0, OutputTensor.DimensionCount) = [0, 2)");
    f.s.Axis = UINT32_MAX;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "SC6", "Axis", "Axis (4294967295)");

    /* SC4: Indices.Sizes[d] == Input.Sizes[d] for d != Axis; Indices.Sizes[Axis] free (also above it) */
    f.s.Axis = 1;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "SC4", "IndicesTensor.Sizes",
               "SCATTER: IndicesTensor.Sizes[0] (2) must equal InputTensor.Sizes[0] (3) in every dimension but Axis (1)");
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(7, 3), 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, "", "", NULL);
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(1, 3), 0);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, "", "", NULL);

    /* SC5: Updates.Sizes == Indices.Sizes */
    tdesc_init(&f.up, F32, DIMS(1, 2));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "SC5", "UpdatesTensor.Sizes",
               "SCATTER: UpdatesTensor.Sizes {1,2} must equal IndicesTensor.Sizes {1,3} (they differ at dimension 1)");

    /* the tensor rules come first; output elements may not share memory; inputs may broadcast */
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(2, 3), 0);
    tdesc_init(&f.out, F32, 2, SIZES(3, 3), SIZES(0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "T15", "OutputTensor.Strides", NULL);
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(2, 3), 0);
    tdesc_init(&f.in, F32, 2, SIZES(3, 3), SIZES(0, 1));
    tdesc_init(&f.ix, U32, 2, SIZES(2, 3), SIZES(0, 0));
    tdesc_init(&f.up, F32, 2, SIZES(2, 3), SIZES(1, 0));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_OK, "", "", NULL);
    f.s.UpdatesTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "T1", "UpdatesTensor",
               "SCATTER: UpdatesTensor is NULL");
    f.s.UpdatesTensor = &f.up.desc;
    f.up.buf.TotalTensorSizeInBytes = 4;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_TENSOR_SIZE, "T13", "UpdatesTensor.TotalTensorSizeInBytes",
               NULL);
}

/* Runs f over the buffers with the given options; the output buffer is prefilled by the caller. */
static dmlref_status run(const sfix *f, DMLREF_FEATURE_LEVEL fl, uint32_t flags, uint32_t threads, const void *in,
                         const void *ix, const void *up, void *out, dmlref_error *err) {
    const dmlref_options o = {.flags = flags, .threads = threads};
    dmlref_cbuffer ins[3] = {{in, (size_t)f->in.buf.TotalTensorSizeInBytes},
                             {ix, (size_t)f->ix.buf.TotalTensorSizeInBytes},
                             {up, (size_t)f->up.buf.TotalTensorSizeInBytes}};
    dmlref_buffer outs[1] = {{out, (size_t)f->out.buf.TotalTensorSizeInBytes}};
    return dmlref_run(&f->d, fl, &o, ins, 3, outs, 1, err);
}

/* The page's examples (P2.4), on every path: the oracle and the fast path, 1 and 2 threads. */
TEST(scatter_doc_examples) {
    sfix f;
    dmlref_error err;
    /* Example 1: index 3 twice, the later update (7) wins */
    const float in1[5] = {0, 1, 2, 3, 4}, up1[4] = {5, 6, 7, 8}, want1[5] = {8, 6, 2, 7, 4};
    const uint32_t ix1[4] = {3, 1, 3, 0};
    /* Example 2: the page declares Input {2,3} but shows (and needs) {3,3} (section 9 item 16) */
    const float in2[9] = {0}, up2[6] = {10, 11, 12, 20, 21, 22}, want2[9] = {20, 11, 0, 10, 0, 22, 0, 21, 12};
    const uint32_t ix2[6] = {1, 0, 2, 0, 2, 1};
    for (uint32_t threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            float out[9];
            sfix_init(&f, F32, U32, 1, SIZES(5), SIZES(4), 0);
            memset(out, 0xCD, sizeof out);
            CHECK_STATUS(run(&f, FL, flags, threads, in1, ix1, up1, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want1, sizeof want1);
            /* at 2_0, the first level, padded to 4-D (Axis 0 becomes 3) */
            sfix_init(&f, F32, U32, 4, SIZES(1, 1, 1, 5), SIZES(1, 1, 1, 4), 3);
            memset(out, 0xCD, sizeof out);
            CHECK_STATUS(run(&f, DMLREF_FEATURE_LEVEL_2_0, flags, threads, in1, ix1, up1, out, &err), err, DMLREF_OK,
                         NULL);
            CHECK_MEM(out, want1, sizeof want1);

            sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(2, 3), 0);
            memset(out, 0xCD, sizeof out);
            CHECK_STATUS(run(&f, FL, flags, threads, in2, ix2, up2, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want2, sizeof want2);
        }
    /* Example 1 under the checking option: the duplicate is reported (SC8) and nothing written */
    sfix_init(&f, F32, U32, 1, SIZES(5), SIZES(4), 0);
    for (uint32_t flags = DMLREF_OPTION_CHECK_INDICES; flags <= 3; flags |= DMLREF_OPTION_FORCE_ORACLE) {
        float out[5];
        memset(out, 0xCD, sizeof out);
        CHECK_RULE(run(&f, FL, flags, 1, in1, ix1, up1, out, &err), err, DMLREF_ERROR_DUPLICATE_INDEX, "SC8",
                   "IndicesTensor",
                   "SCATTER: IndicesTensor[2] repeats the target of IndicesTensor[0] (both write OutputTensor[3]); "
                   "two updates writing one output element are invalid");
        unsigned char cd[sizeof out];
        memset(cd, 0xCD, sizeof cd);
        CHECK_MEM(out, cd, sizeof out);
        if (flags == 3) break;
    }
    /* Example 2 has no repeated target: the checking option changes nothing */
    sfix_init(&f, F32, U32, 2, SIZES(3, 3), SIZES(2, 3), 0);
    float out[9];
    CHECK_STATUS(run(&f, FL, DMLREF_OPTION_CHECK_INDICES, 2, in2, ix2, up2, out, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out, want2, sizeof want2);
}

/* ---- an independent reference -------------------------------------------------- */

static uint64_t slot_of(const tdesc *t, const uint32_t *c) {
    uint64_t s = 0, acc = 1;
    for (uint32_t d = t->buf.DimensionCount; d-- > 0;) {
        s += (uint64_t)c[d] * (t->buf.Strides ? t->strides[d] : acc);
        acc *= t->sizes[d];
    }
    return s;
}

static int next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

static uint32_t esize_of(DMLREF_TENSOR_DATA_TYPE dt) { return dmlref_data_type_size(dt); }

/* The index at slot s of ix, clamped into [0, A): negative signed values count from the end. */
static uint32_t ref_index(const tdesc *ix, const unsigned char *p, uint64_t s, uint32_t A) {
    int64_t v;
    switch (ix->buf.DataType) {
    case I32: { int32_t x; memcpy(&x, p + s * 4, 4); v = x; break; }
    case U32: { uint32_t x; memcpy(&x, p + s * 4, 4); v = x; break; }
    case I64: { int64_t x; memcpy(&x, p + s * 8, 8); v = x; break; }
    default: {
        uint64_t x;
        memcpy(&x, p + s * 8, 8);
        return x >= A ? A - 1 : (uint32_t)x;
    }
    }
    if (v < 0) v += A;
    return v < 0 ? 0 : v >= (int64_t)A ? A - 1 : (uint32_t)v;
}

/* out = in; then out[c with c[axis] = index(c)] = up[c] for every c of Indices in row-major order. */
static void ref_scatter(const sfix *f, const unsigned char *in, const unsigned char *ix, const unsigned char *up,
                        unsigned char *out) {
    const uint32_t n = f->in.buf.DimensionCount, a = f->s.Axis, es = esize_of(f->in.buf.DataType);
    uint32_t c[8] = {0}, oc[8];
    do memcpy(out + slot_of(&f->out, c) * es, in + slot_of(&f->in, c) * es, es);
    while (next_coord(f->in.sizes, n, c));
    memset(c, 0, sizeof c);
    do {
        memcpy(oc, c, sizeof oc);
        oc[a] = ref_index(&f->ix, ix, slot_of(&f->ix, c), f->in.sizes[a]);
        memcpy(out + slot_of(&f->out, oc) * es, up + slot_of(&f->up, c) * es, es);
    } while (next_coord(f->ix.sizes, n, c));
}

/* ---- data: every element size, layouts, bits -------------------------------------- */

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static unsigned char *random_bytes(uint32_t *seed, uint64_t n) {
    unsigned char *p = malloc(n ? (size_t)n : 1);
    if (!p) abort();
    for (uint64_t i = 0; i < n; ++i) p[i] = (unsigned char)lcg(seed);
    return p;
}

/* Stores v (any sign) at slot s of an index tensor. */
static void put_index(const tdesc *ix, unsigned char *p, uint64_t s, int64_t v) {
    if (esize_of(ix->buf.DataType) == 4) {
        const uint32_t w = (uint32_t)(uint64_t)v;
        memcpy(p + s * 4, &w, 4);
    } else {
        memcpy(p + s * 8, &v, 8);
    }
}

/* Runs f on the buffers through the oracle and the fast path (1 and 2 threads) and compares each
 * output buffer, gaps included, with the reference.  Returns the kernel of the 2-thread run. */
static const char *check_all_paths(const sfix *f, DMLREF_FEATURE_LEVEL fl, const unsigned char *in,
                                   const unsigned char *ix, const unsigned char *up, const char *what) {
    const size_t ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *got = malloc(ob);
    if (!want || !got) abort();
    memset(want, 0x5A, ob);
    ref_scatter(f, in, ix, up, want);
    const char *kernel = NULL;
    for (int path = 0; path < 3; ++path) {
        const dmlref_options o = {.flags = path == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = path == 2 ? 2u : 1u};
        dmlref_operator *op = NULL;
        dmlref_error err;
        memset(got, 0x5A, ob);
        CHECK_STATUS(dmlref_compile(&f->d, fl, &o, &op, &err), err, DMLREF_OK, NULL);
        if (!op) continue;
        if (path == 0) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
        else CHECK(strncmp(dmlref_kernel_name(op), "scatter.", 8) == 0);
        dmlref_cbuffer ins[3] = {{in, (size_t)f->in.buf.TotalTensorSizeInBytes},
                                 {ix, (size_t)f->ix.buf.TotalTensorSizeInBytes},
                                 {up, (size_t)f->up.buf.TotalTensorSizeInBytes}};
        dmlref_buffer outs[1] = {{got, ob}};
        CHECK_STATUS(dmlref_execute(op, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
        if (memcmp(got, want, ob) != 0)
            test_fail(__FILE__, __LINE__, "%s: %s (%s) differs from the reference", what,
                      path == 0 ? "the oracle" : "the fast path", dmlref_kernel_name(op));
        if (path == 2) kernel = dmlref_kernel_name(op);
        dmlref_release(op);
    }
    free(want);
    free(got);
    return kernel;
}

/* Every element size, through permuted, gapped and broadcast layouts, each axis. */
TEST(scatter_data_layouts) {
    static const DMLREF_TENSOR_DATA_TYPE types[5] = {U8, F16, F32, F64, I64};
    static const DMLREF_TENSOR_DATA_TYPE itypes[4] = {U32, I32, U64, I64};
    uint32_t seed = 777;
    for (int t = 0; t < 5; ++t)
        for (uint32_t a = 0; a < 3; ++a) {
            sfix f;
            /* Input {3,4,5} read through a permuted, gapped layout; Output rows padded; the
             * Updates broadcast along dim 2; Indices {.., K, ..} with K = 6 on the axis (duplicates) */
            uint32_t ixs[3] = {3, 4, 5};
            ixs[a] = 6;
            sfix_init(&f, types[t], itypes[(t + a) % 4], 3, SIZES(3, 4, 5), ixs, a);
            tdesc_init(&f.in, types[t], 3, SIZES(3, 4, 5), SIZES(1, 3 * 5 + 1, 3));
            tdesc_init(&f.out, types[t], 3, SIZES(3, 4, 5), SIZES(4 * 7, 7, 1));
            const uint32_t ust[3] = {ixs[1] * 8, 8, 0};
            tdesc_init(&f.up, types[t], 3, ixs, ust);
            const uint32_t xst[3] = {1, ixs[0] * ixs[2] + 2, ixs[0]};
            tdesc_init(&f.ix, itypes[(t + a) % 4], 3, ixs, xst);
            unsigned char *in = random_bytes(&seed, f.in.buf.TotalTensorSizeInBytes);
            unsigned char *ix = random_bytes(&seed, f.ix.buf.TotalTensorSizeInBytes);
            unsigned char *up = random_bytes(&seed, f.up.buf.TotalTensorSizeInBytes);
            uint32_t c[3] = {0};
            const int sgn = itypes[(t + a) % 4] == I32 || itypes[(t + a) % 4] == I64;
            do {
                const uint32_t A = f.in.sizes[a];
                int64_t v = (int64_t)(lcg(&seed) % A);
                if (sgn && lcg(&seed) % 3 == 0) v -= A;
                put_index(&f.ix, ix, slot_of(&f.ix, c), v);
            } while (next_coord(ixs, 3, c));
            char what[64];
            snprintf(what, sizeof what, "type %d axis %u", (int)types[t], a);
            check_all_paths(&f, FL, in, ix, up, what);
            free(in);
            free(ix);
            free(up);
        }
}

/* NaN payloads, signalling NaNs, -0.0 and infinities move as bits, both from Input and from Updates. */
TEST(scatter_bits) {
    sfix f;
    dmlref_error err;
    const uint32_t in32[4] = {0x7fc01234u, 0x80000000u, 0xff800001u, 0x7f800000u};
    const uint32_t up32[2] = {0x7fa00001u, 0x80000000u};
    const uint32_t ix[2] = {2, 0};
    uint32_t out32[4];
    sfix_init(&f, F32, U32, 1, SIZES(4), SIZES(2), 0);
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        CHECK_STATUS(run(&f, FL, flags, 1, in32, ix, up32, out32, &err), err, DMLREF_OK, NULL);
        const uint32_t want[4] = {0x80000000u, 0x80000000u, 0x7fa00001u, 0x7f800000u};
        CHECK_MEM(out32, want, sizeof want);
    }
    const uint16_t in16[4] = {0x7e01, 0x8000, 0x0001, 0xfc00}, up16[2] = {0x7d55, 0x8000};
    uint16_t out16[4];
    sfix_init(&f, F16, U32, 1, SIZES(4), SIZES(2), 0);
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        CHECK_STATUS(run(&f, FL, flags, 2, in16, ix, up16, out16, &err), err, DMLREF_OK, NULL);
        const uint16_t want[4] = {0x8000, 0x8000, 0x7d55, 0xfc00};
        CHECK_MEM(out16, want, sizeof want);
    }
    const uint64_t in64[4] = {UINT64_C(0x7ff8000000000123), UINT64_C(0x8000000000000000), 1, 2};
    const uint64_t up64[2] = {UINT64_C(0x7ff0000000000001), UINT64_C(0x8000000000000000)};
    uint64_t out64[4];
    sfix_init(&f, F64, U32, 1, SIZES(4), SIZES(2), 0);
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        CHECK_STATUS(run(&f, FL, flags, 1, in64, ix, up64, out64, &err), err, DMLREF_OK, NULL);
        const uint64_t want[4] = {UINT64_C(0x8000000000000000), UINT64_C(0x8000000000000000),
                                  UINT64_C(0x7ff0000000000001), 2};
        CHECK_MEM(out64, want, sizeof want);
    }
}

/* Out-of-range indices: clamped by default (a clamped write may repeat a target: the last wins);
 * under the checking option, N1 before any write. */
TEST(scatter_out_of_range) {
    sfix f;
    dmlref_error err;
    const int32_t in[6] = {0, 1, 2, 3, 4, 5}, up[2 * 4] = {10, 11, 12, 13, 20, 21, 22, 23};
    /* Input {2,3}, Axis 1, Indices {2,4} INT32 */
    const int32_t ix[8] = {7, -1, -4, INT32_MIN, 1, 3, -3, 2};
    /* row 0: 7 -> 2, -1 -> 2, -4 -> 0, INT32_MIN -> 0: [13, 1, 11]; row 1: 1, 3 -> 2, -3 -> 0, 2: [22, 20, 23] */
    const int32_t want[6] = {13, 1, 11, 22, 20, 23};
    sfix_init(&f, I32, I32, 2, SIZES(2, 3), SIZES(2, 4), 1);
    for (uint32_t threads = 1; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            int32_t out[6];
            memset(out, 0xCD, sizeof out);
            CHECK_STATUS(run(&f, FL, flags, threads, in, ix, up, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
            memset(out, 0xCD, sizeof out);
            CHECK_RULE(run(&f, FL, flags | DMLREF_OPTION_CHECK_INDICES, threads, in, ix, up, out, &err), err,
                       DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1", "IndicesTensor",
                       "SCATTER: IndicesTensor[0,0] = 7 is out of range [-3, 3) for InputTensor.Sizes[1] (3)");
            unsigned char cd[sizeof out];
            memset(cd, 0xCD, sizeof cd);
            CHECK_MEM(out, cd, sizeof out);
        }
    /* unsigned 64-bit: 2^63 is out of range (never negative) */
    const uint64_t ix64[2] = {UINT64_C(1) << 63, 0};
    const int32_t up2[2] = {-1, -2}, want2[3] = {-2, 1, -1};
    sfix_init(&f, I32, U64, 1, SIZES(3), SIZES(2), 0);
    int32_t out2[3];
    CHECK_STATUS(run(&f, FL, 0, 1, in, ix64, up2, out2, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out2, want2, sizeof want2);
    CHECK_RULE(run(&f, FL, DMLREF_OPTION_CHECK_INDICES, 1, in, ix64, up2, out2, &err), err,
               DMLREF_ERROR_INDEX_OUT_OF_RANGE, "N1", "IndicesTensor",
               "IndicesTensor[0] = 9223372036854775808 is out of range [0, 3)");
}

/* Duplicates: the last update in row-major order of Indices wins, on every kernel and thread
 * count; the checking option reports the first repeat (row-major), naming both updates. */
TEST(scatter_duplicates) {
    sfix f;
    dmlref_error err;
    /* Axis 0: Input {3,2}, Indices {4,2}: column 0 gets 1, 1, 0, 1 (repeat at [1,0]), column 1
     * gets 2, 0, 0, 2 (repeat at [2,1]: later than [1,0] in row-major order) */
    const uint8_t in[8] = {1, 2, 3, 4, 5, 6}, up[8] = {10, 11, 20, 21, 30, 31, 40, 41};
    const uint32_t ix[8] = {1, 2, 1, 0, 0, 0, 1, 2};
    const uint8_t want[6] = {30, 31, 40, 4, 5, 41};
    sfix_init(&f, U8, U32, 2, SIZES(3, 2), SIZES(4, 2), 0);
    for (uint32_t threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            uint8_t out[8];
            CHECK_STATUS(run(&f, FL, flags, threads, in, ix, up, out, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
            memset(out, 0xCD, sizeof out);
            CHECK_RULE(run(&f, FL, flags | DMLREF_OPTION_CHECK_INDICES, threads, in, ix, up, out, &err), err,
                       DMLREF_ERROR_DUPLICATE_INDEX, "SC8", "IndicesTensor",
                       "SCATTER: IndicesTensor[1,0] repeats the target of IndicesTensor[0,0] (both write "
                       "OutputTensor[1,0])");
            const uint8_t cd[8] = {0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD, 0xCD};
            CHECK_MEM(out, cd, sizeof out);
        }
    /* a repeat through normalization (-1 and 2 on an axis of 3) and the earliest of several */
    const int64_t ix2[8] = {0, 1, 1, -1, 2, 0, 0, 1};
    sfix_init(&f, U8, I64, 2, SIZES(2, 3), SIZES(2, 4), 1);
    uint8_t out[8];
    CHECK_RULE(run(&f, FL, DMLREF_OPTION_CHECK_INDICES, 1, in, ix2, up, out, &err), err, DMLREF_ERROR_DUPLICATE_INDEX,
               "SC8", "IndicesTensor",
               "IndicesTensor[0,2] repeats the target of IndicesTensor[0,1] (both write OutputTensor[0,1])");
    /* Indices broadcast along the axis: every update of a line hits one element, the last wins */
    sfix_init(&f, U8, U32, 2, SIZES(2, 3), SIZES(2, 4), 1);
    tdesc_init(&f.ix, U32, 2, SIZES(2, 4), SIZES(1, 0));
    const uint32_t ixb[2] = {2, 0};
    const uint8_t wantb[6] = {1, 2, 21, 41, 5, 6}; /* row 0: 10, 11, 20, 21 onto [0,2]; row 1: onto [1,0] */
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        CHECK_STATUS(run(&f, FL, flags, 2, in, ixb, up, out, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, wantb, sizeof wantb);
        CHECK_RULE(run(&f, FL, flags | DMLREF_OPTION_CHECK_INDICES, 2, in, ixb, up, out, &err), err,
                   DMLREF_ERROR_DUPLICATE_INDEX, "SC8", "IndicesTensor",
                   "IndicesTensor[0,1] repeats the target of IndicesTensor[0,0] (both write OutputTensor[0,2])");
    }
    /* an axis of size 1: everything clamps onto it */
    sfix_init(&f, U8, U32, 2, SIZES(2, 1), SIZES(2, 3), 1);
    const uint32_t ix1[6] = {0, 5, 0, 9, 0, 0};
    const uint8_t want1[2] = {20, 31};
    CHECK_STATUS(run(&f, FL, 0, 1, in, ix1, up, out, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(out, want1, sizeof want1);
}

/* ---- the fast path against the oracle and the reference, random cases ------------- */

static uint32_t rnd(uint32_t *s, uint32_t n) { return lcg(s) % n; }

/* A strided layout (elements) for sizes: permuted order, gaps; or NULL-packed (returns 0). */
static int rand_layout(uint32_t *s, uint32_t n, const uint32_t *sizes, uint32_t *st, int broadcast) {
    const uint32_t mode = rnd(s, 8);
    if (mode < 3) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 6)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = rnd(s, d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = 1;
    for (uint32_t i = n; i-- > 0;) {
        const uint32_t d = order[i];
        st[d] = (uint32_t)next;
        next = next * sizes[d] + (rnd(s, 3) == 0 ? rnd(s, 3) : 0);
    }
    if (broadcast && mode == 5)
        for (uint32_t d = 0; d < n; ++d)
            if (rnd(s, 3) == 0) st[d] = 0;
    return 1;
}

static void rand_tensor(uint32_t *s, tdesc *t, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                        int broadcast) {
    uint32_t st[8];
    const int strided = rand_layout(s, n, sizes, st, broadcast);
    tdesc_init(t, dt, n, sizes, strided ? st : NULL);
    if (rnd(s, 8) == 0) t->buf.TotalTensorSizeInBytes += 4 * (1 + rnd(s, 3));
}

static const char *seen[16];
static int n_seen;
static void note(const char *k) {
    for (int i = 0; i < n_seen; ++i)
        if (!strcmp(seen[i], k)) return;
    if (n_seen < 16) seen[n_seen++] = k;
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("scatter.")

/* Random cases: 1-8 dims, each element size, the four index types (negative, out-of-range and
 * repeated values), strided / gapped / broadcast inputs, gapped outputs; half of them with a tiny
 * DMLREF_PAR_GRAIN and DMLREF_STREAM_MIN, so that small tensors split over threads and stream. */
TEST(scatter_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, F16, F32, F64};
    static const DMLREF_TENSOR_DATA_TYPE itypes[4] = {U32, I32, U64, I64};
    const uint64_t base_seed = test_seed(20261124);
    uint32_t seed = 0;
    n_seen = 0;
    for (int iter = 0; iter < 500; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        const int big = rnd(&seed, 6) == 0, tiny = rnd(&seed, 2) == 0;
        const uint32_t n = 1 + rnd(&seed, 8), a = rnd(&seed, n);
        uint32_t sizes[8], ixs[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = rnd(&seed, 4) == 0 ? 1 : 1 + rnd(&seed, big ? 24 : 5);
            if (total * sizes[d] > (big ? 40000u : 600u)) sizes[d] = 1;
            total *= sizes[d];
        }
        memcpy(ixs, sizes, sizeof ixs);
        ixs[a] = 1 + rnd(&seed, sizes[a] * 2 + 1);
        const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(&seed, 4)], it = itypes[rnd(&seed, 4)];
        sfix f;
        sfix_init(&f, dt, it, n, sizes, ixs, a);
        rand_tensor(&seed, &f.in, dt, n, sizes, 1);
        rand_tensor(&seed, &f.ix, it, n, ixs, 1);
        rand_tensor(&seed, &f.up, dt, n, ixs, 1);
        rand_tensor(&seed, &f.out, dt, n, sizes, 0);
        unsigned char *in = random_bytes(&seed, f.in.buf.TotalTensorSizeInBytes);
        unsigned char *ix = random_bytes(&seed, f.ix.buf.TotalTensorSizeInBytes);
        unsigned char *up = random_bytes(&seed, f.up.buf.TotalTensorSizeInBytes);
        const int sgn = it == I32 || it == I64;
        uint32_t c[8] = {0};
        do {
            const uint32_t A = sizes[a], k = rnd(&seed, 100);
            int64_t v = (int64_t)rnd(&seed, A);
            if (k >= 70 && k < 85 && sgn) v -= A;
            else if (k >= 85 && k < 92) v = (int64_t)A + rnd(&seed, 3);
            else if (k >= 92) {
                static const int64_t odd[] = {-1, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX, 1000000};
                v = odd[rnd(&seed, 6)];
            }
            put_index(&f.ix, ix, slot_of(&f.ix, c), v);
        } while (next_coord(ixs, n, c));
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "16", 1);
            setenv("DMLREF_STREAM_MIN", "0", 1);
            env_reload();
        }
        char what[96];
        snprintf(what, sizeof what, "case %d (n %u axis %u esize %u%s)", iter, n, a, esize_of(dt),
                 tiny ? ", tiny grain" : "");
        const char *k2 = check_all_paths(&f, FL, in, ix, up, what);
        if (k2) note(k2);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
        free(in);
        free(ix);
        free(up);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    kernels_seen all = {{0}, 0};
    for (int i = 0; i < n_seen; ++i) kernels_note(&all, seen[i]);
#ifdef _OPENMP
    static const char *const unreached[] = {NULL};
#else /* one thread (nth == 1): the planner always takes scatter.slab or scatter.stream */
    static const char *const unreached[] = {"scatter.lines", NULL};
#endif
    CHECK_KERNELS_REACHED(&all, "scatter.", unreached); /* every scatter.* kernel of src/ops/kernels.def */
}

/* The kernels named, and the oracle forced by the option. */
TEST(scatter_kernel_names) {
    sfix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    sfix_init(&f, F32, I64, 2, SIZES(64, 256), SIZES(64, 16), 1);
    const dmlref_options forced = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1}, one = {.flags = 0, .threads = 1};
    CHECK_STATUS(dmlref_compile(&f.d, FL, &forced, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
    dmlref_release(op);
    CHECK_STATUS(dmlref_compile(&f.d, FL, &one, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "scatter.slab.", 13) == 0); /* 64 KiB: no streaming */
    dmlref_release(op);
}
