/*
 * TILE (P4): the desc's layout and schema, every rule (TI1-TI4) at the feature
 * levels where it differs, the page's example, data of every element size
 * through strided, broadcast and gapped views against an independent
 * reference, NaN payloads and -0.0 as bits, and the fast path against the
 * oracle on random cases with 1 and 2 threads (the tile kernel reached, its
 * outer walk over more than 8 split dims, its chunked blocks).
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct tfix {
    tdesc in, out;
    uint32_t rep[8];
    DMLREF_TILE_OPERATOR_DESC t;
    DMLREF_OPERATOR_DESC d;
} tfix;

/* Input sizes and strides (NULL = packed), Repeats, and the output
 * Input.Sizes * Repeats with out_strides (NULL = packed). */
static void tfix_init(tfix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                      const uint32_t *in_strides, const uint32_t *rep, const uint32_t *out_strides) {
    uint32_t out[8];
    for (uint32_t i = 0; i < n; ++i) {
        f->rep[i] = rep[i];
        out[i] = sizes[i] * rep[i];
    }
    tdesc_init(&f->in, dt, n, sizes, in_strides);
    tdesc_init(&f->out, dt, n, out, out_strides);
    f->t = (DMLREF_TILE_OPERATOR_DESC){&f->in.desc, &f->out.desc, n, f->rep};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_TILE, &f->t};
}

static dmlref_status validate(const tfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

/* The status, a fragment of the message, and the rule id. */
static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(tile_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_TILE_OPERATOR_DESC), 4 * p); /* 32 on LP64, 16 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_TILE_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_TILE_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_TILE_OPERATOR_DESC, RepeatsCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_TILE_OPERATOR_DESC, Repeats), 3 * p);
}

TEST(tile_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_TILE);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "TILE") == 0 && strcmp(dmlref_operator_name(DMLREF_OPERATOR_TILE), "TILE") == 0);
    CHECK_EQ_U64(sc->type, 70);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_TILE_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_1_0);
    CHECK_EQ_U64(sc->flags, 0); /* no in-place execution */
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output && !sc->slots[0].is_array);
    CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output);
    CHECK_EQ_U64(sc->slots[1].offset, offsetof(DMLREF_TILE_OPERATOR_DESC, OutputTensor));
    CHECK_EQ_U64(sc->n_params, 2);
    const dmlref_param *c = &sc->params[0], *r = &sc->params[1];
    CHECK(strcmp(c->name, "RepeatsCount") == 0 && c->kind == DMLREF_PARAM_UINT && c->is_count);
    CHECK_EQ_U64(c->offset, offsetof(DMLREF_TILE_OPERATOR_DESC, RepeatsCount));
    CHECK(strcmp(r->name, "Repeats") == 0 && r->kind == DMLREF_PARAM_UINT_ARRAY && !r->is_count);
    CHECK_EQ_U64(r->offset, offsetof(DMLREF_TILE_OPERATOR_DESC, Repeats));
    CHECK_EQ_U64(r->count_offset, offsetof(DMLREF_TILE_OPERATOR_DESC, RepeatsCount));
    CHECK(r->count_name && strcmp(r->count_name, "RepeatsCount") == 0);
}

TEST(tile_validation_rules) {
    tfix f;
    dmlref_error err;
    tfix_init(&f, F32, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), NULL, SIZES(1, 1, 3, 3), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);

    /* TI1: the Output's DimensionCount, RepeatsCount, Repeats not NULL */
    tdesc_init(&f.out, F32, DIMS(1, 6, 9));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "TILE: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)", "TI1");
    tdesc_init(&f.out, F32, DIMS(1, 1, 6, 9));
    f.t.RepeatsCount = 3;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "TILE: RepeatsCount (3) must equal InputTensor.DimensionCount (4)", "TI1");
    CHECK(strcmp(err.field, "RepeatsCount") == 0);
    f.t.RepeatsCount = 5;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "RepeatsCount (5) must equal", "TI1");
    f.t.RepeatsCount = 4;
    f.t.Repeats = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "TILE: Repeats is NULL (RepeatsCount is 4)",
               "TI1");
    CHECK(strcmp(err.field, "Repeats") == 0);
    f.t.Repeats = f.rep;

    /* TI2: every repeat > 0 (before the sizes: a 0 would make any output size wrong) */
    f.rep[2] = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "TILE: Repeats[2] is 0; every repeat must be greater than 0", "TI2");
    f.rep[2] = 3;

    /* TI3: Output.Sizes = Input.Sizes * Repeats */
    tdesc_init(&f.out, F32, DIMS(1, 1, 6, 6));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "TILE: OutputTensor.Sizes[3] (6) must equal InputTensor.Sizes[3] * Repeats[3] = 3 * 3 = 9", "TI3");
    CHECK(strcmp(err.field, "OutputTensor.Sizes") == 0);
    tdesc_init(&f.out, F32, DIMS(1, 1, 2, 9)); /* the input's size: repeats ignored */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "Sizes[2] (2) must equal", "TI3");
    /* a product above 2^32 - 1 is never wrapped: 65537 * 65537 = 2^32 + 131073, whose low 32 bits are 131073 */
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 1, SIZES(65537), NULL, SIZES(65537), NULL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(131073));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "TILE: OutputTensor.Sizes[0] (131073) must equal InputTensor.Sizes[0] * Repeats[0] = 65537 * 65537 = "
               "4295098369, which is above 2^32 - 1",
               "TI3");
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(1, 1), NULL, SIZES(UINT32_MAX, 1), NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL); /* exactly 2^32 - 1 elements */
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(2, 1), NULL, SIZES(UINT32_MAX, 1), NULL);
    CHECK_EQ_U64(f.out.sizes[0], UINT32_MAX - 1); /* the product's low 32 bits: a valid output size */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "OutputTensor.Sizes[0] (4294967294) must equal InputTensor.Sizes[0] * Repeats[0] = 2 * 4294967295 = "
               "8589934590, which is above 2^32 - 1",
               "TI3");

    /* TI4: same DataType, in the level's set */
    tfix_init(&f, F32, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), NULL, SIZES(1, 2, 1, 1), NULL);
    tdesc_init(&f.out, F16, DIMS(1, 2, 2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "TILE: OutputTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)", "TI4");

    /* the tensor rules: output elements may not share memory; input zero strides broadcast */
    tfix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), SIZES(2, 1), SIZES(0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0", "T15");
    tfix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), SIZES(2, 1), NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    f.t.InputTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "TILE: InputTensor is NULL", "T1");
}

/* P0.3: 1_0 4-D {F32, F16}; 2_1 4-D T8; 3_1 1-8 dims T8; 4_1 1-8 dims T10 (no FLOAT64, ever). */
TEST(tile_feature_levels) {
    tfix f;
    dmlref_error err;
    tfix_init(&f, F16, NDIMS(1, 1, 2, 2), SIZES(1, 1, 2, 2), NULL, SIZES(2, 1, 1, 2), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, NDIMS(1, 1, 2, 2), SIZES(1, 1, 2, 2), NULL, SIZES(2, 1, 1, 2), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DATA_TYPE,
               "TILE: InputTensor.DataType (INT8) is not supported at feature level 1_0 (allowed: FLOAT32 FLOAT16)",
               "TI4");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE, "INT8", "TI4");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);

    /* dims: exactly 4 until 3_1, then 1 to 8 */
    tfix_init(&f, F32, NDIMS(2, 3, 4), SIZES(2, 3, 4), NULL, SIZES(1, 2, 1), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "TILE: InputTensor.DimensionCount (3) must be in [4, 4] at feature level 1_0", "TI1");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "must be in [4, 4] at feature level 3_0", "TI1");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    tfix_init(&f, F32, NDIMS(1, 1, 1, 1, 2), SIZES(1, 1, 1, 1, 2), NULL, SIZES(1, 1, 1, 1, 2), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "[4, 4]", "TI1");
    tfix_init(&f, F32, NDIMS(2, 1, 2, 1, 2, 1, 2, 1), SIZES(2, 1, 2, 1, 2, 1, 2, 1), NULL,
              SIZES(1, 2, 1, 2, 1, 2, 1, 2), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);
    tfix_init(&f, F32, NDIMS(5), SIZES(5), NULL, SIZES(2), NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_1, &err), err, DMLREF_OK, NULL);

    /* 64-bit integers from 4_1; FLOAT64 at no level (the 4_1 table has none) */
    static const DMLREF_TENSOR_DATA_TYPE i64[2] = {DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    for (int k = 0; k < 2; ++k) {
        tfix_init(&f, i64[k], NDIMS(2, 3), SIZES(2, 3), NULL, SIZES(2, 2), NULL);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "feature level 4_0",
                   "TI4");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
    }
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, NDIMS(2, 3), SIZES(2, 3), NULL, SIZES(2, 2), NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE,
               "TILE: InputTensor.DataType (FLOAT64) is not supported at feature level 4_1 (allowed: FLOAT32 FLOAT16 "
               "UINT32 UINT16 UINT8 INT32 INT16 INT8 UINT64 INT64)",
               "TI4");
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64", "TI4");
}

/* ---- running it ---------------------------------------------------------------------- */

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t esize(DMLREF_TENSOR_DATA_TYPE dt) { return dmlref_data_type_size(dt); }

/* An independent reference: each output element's coordinate from its row-major
 * number, the input coordinate by modulo, bytes copied; other bytes untouched. */
static void ref_tile(const tfix *f, const unsigned char *in, unsigned char *out) {
    const DMLREF_BUFFER_TENSOR_DESC *ib = &f->in.buf, *ob = &f->out.buf;
    const uint32_t n = ib->DimensionCount, es = esize(ib->DataType);
    uint64_t count = 1, ist[8], ost[8];
    for (uint32_t d = n, a = 1, b = 1; d-- > 0;) {
        ist[d] = ib->Strides ? ib->Strides[d] : a;
        ost[d] = ob->Strides ? ob->Strides[d] : b;
        a *= ib->Sizes[d];
        b *= ob->Sizes[d];
        count *= ob->Sizes[d];
    }
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t q = e, io = 0, oo = 0;
        for (uint32_t d = n; d-- > 0;) {
            const uint64_t c = q % ob->Sizes[d];
            q /= ob->Sizes[d];
            oo += c * ost[d];
            io += (c % ib->Sizes[d]) * ist[d];
        }
        memcpy(out + oo * es, in + io * es, es);
    }
}

/* Runs f through the oracle and the fast path (threads 1 and 2) into outputs
 * prefilled with 0xA5 and compares each with the reference, byte for byte.
 * Returns 1 when a run used a tile.* kernel; *kernel gets the last name. */
static int run_all_at(const char *file, int line, const tfix *f, const unsigned char *in, const char **kernel) {
    const size_t in_bytes = (size_t)f->in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(out_bytes), *got = malloc(out_bytes);
    if (!want || !got) abort();
    memset(want, 0xA5, out_bytes);
    ref_tile(f, in, want);
    int fast = 0;
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, FL, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (mode > 0 && strncmp(name, "tile.", 5) == 0) fast = 1;
        if (kernel) *kernel = name;
        memset(got, 0xA5, out_bytes);
        dmlref_cbuffer ib[1] = {{in, in_bytes}};
        dmlref_buffer ob[1] = {{got, out_bytes}};
        check_status_at(file, line, dmlref_execute(op, ib, 1, ob, 1, &err), &err, DMLREF_OK, NULL);
        if (memcmp(got, want, out_bytes) != 0) {
            size_t at = 0;
            while (got[at] == want[at]) ++at;
            test_fail(file, line, "%s (threads %d) differs from the reference at byte %zu of %zu", name,
                      mode ? mode : 1, at, out_bytes);
        }
        dmlref_release(op);
    }
    free(want);
    free(got);
    return fast;
}
#define RUN_ALL(f, in, kernel) run_all_at(__FILE__, __LINE__, (f), (in), (kernel))

static unsigned char *random_bytes(uint64_t *s, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    if (!p) abort();
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)rnd(s);
    return p;
}

/* The page's example (docs/operators.md P4; tests/cases/tile_doc.json): the page
 * labels the output block InputTensor (section 9 item 23). */
TEST(tile_doc_example) {
    tfix f;
    tfix_init(&f, F32, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), NULL, SIZES(1, 1, 3, 3), NULL);
    const float in[6] = {1, 2, 3, 4, 5, 6};
    float want[54];
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 9; ++c) want[r * 9 + c] = in[(r % 2) * 3 + c % 3];
    CHECK(want[9] == 4 && want[17] == 6 && want[18] == 1); /* rows alternate [1,2,3,...] and [4,5,6,...] */
    for (int threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            const dmlref_options o = {.flags = flags, .threads = (uint32_t)threads};
            float out[54];
            memset(out, 0xCD, sizeof out);
            dmlref_cbuffer ins[1] = {{in, sizeof in}};
            dmlref_buffer outs[1] = {{out, sizeof out}};
            dmlref_error err;
            CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_1_0, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
            CHECK_MEM(out, want, sizeof want);
        }
    CHECK(RUN_ALL(&f, (const unsigned char *)in, NULL));
}

/* Every element size through a gapped, permuted output and a strided input with
 * a broadcast dim; and a gapped output whose gaps must keep their bytes. */
TEST(tile_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, F16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64};
    uint64_t s = 7;
    for (int k = 0; k < 4; ++k) {
        tfix f;
        /* input {2,3,2}: strides {0,3,1}: dim 0 broadcast, rows of 3 with a gap element between */
        /* output {4,3,6}: permuted (dim 2 outermost) with a gap after every dim-1 row */
        tfix_init(&f, types[k], 3, SIZES(2, 3, 2), SIZES(0, 3, 1), SIZES(2, 1, 3), SIZES(1, 5, 16));
        unsigned char *in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_ALL(&f, in, NULL));
        free(in);
        /* packed input, output rows padded */
        tfix_init(&f, types[k], 2, SIZES(3, 2), NULL, SIZES(2, 3), SIZES(8, 1));
        in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_ALL(&f, in, NULL));
        free(in);
    }
    /* exact values: INT16 {2,2} = [[1,-2],[3,-4]] tiled {2,2} into a gapped output (strides {5,1}) */
    tfix f;
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(2, 2), NULL, SIZES(2, 2), SIZES(5, 1));
    const int16_t in[4] = {1, -2, 3, -4};
    int16_t out[20]; /* 19 elements' span, the buffer rounded up to 4 bytes */
    for (int i = 0; i < 20; ++i) out[i] = 99;
    dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[1] = {{out, sizeof out}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    const int16_t want[20] = {1, -2, 1, -2, 99, 3, -4, 3, -4, 99, 1, -2, 1, -2, 99, 3, -4, 3, -4, 99};
    CHECK_MEM(out, want, sizeof want);
}

/* NaN payloads (quiet and signalling), -0.0, infinities and FLOAT16 bit patterns move as bits. */
TEST(tile_nan_payloads_and_negative_zero) {
    tfix f;
    dmlref_error err;
    tfix_init(&f, F32, 1, SIZES(4), NULL, SIZES(3), NULL);
    const uint32_t in[4] = {0x7fc01234u, 0x80000000u, 0x7f800001u, 0xff800000u};
    uint32_t want[12];
    for (int i = 0; i < 12; ++i) want[i] = in[i % 4];
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags, .threads = 0};
        uint32_t out[12] = {0};
        dmlref_cbuffer ins[1] = {{in, sizeof in}};
        dmlref_buffer outs[1] = {{out, sizeof out}};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
    tfix_init(&f, F16, NDIMS(1, 1, 1, 3), SIZES(1, 1, 1, 3), NULL, SIZES(1, 1, 2, 2), NULL);
    const uint16_t h[4] = {0x7e01u, 0x8000u, 0x7c01u, 0}; /* 3 elements, the buffer rounded up to 4 bytes */
    uint16_t hout[12] = {0};
    dmlref_cbuffer hin[1] = {{h, sizeof h}};
    dmlref_buffer houts[1] = {{hout, sizeof hout}};
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_1_0, NULL, hin, 1, houts, 1, &err), err, DMLREF_OK, NULL);
    for (int i = 0; i < 12; ++i) CHECK_EQ_U64(hout[i], h[i % 3]);
}

/* Binding: the output may not overlap the input (TILE has no in-place form). */
TEST(tile_no_aliasing) {
    tfix f;
    dmlref_error err;
    tfix_init(&f, F32, 1, SIZES(2), NULL, SIZES(2), NULL);
    float buf[4] = {1, 2, 3, 4};
    dmlref_cbuffer ins[1] = {{buf, 2 * sizeof(float)}};
    dmlref_buffer outs[1] = {{buf, sizeof buf}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "TILE: the OutputTensor buffer overlaps the InputTensor buffer");
}

/* The plan's shapes: an outer tile and an inner tile of whole rows are block
 * copies; a tile of 8 dims that split into 16 takes the outer walk; blocks
 * above a chunk are copied in chunks. */
TEST(tile_fast_path_shapes) {
    uint64_t s = 11;
    const char *k = NULL;
    tfix f;
    tfix_init(&f, F32, 2, SIZES(16, 1024), NULL, SIZES(4, 1), NULL); /* tile_outer, small: 4 blocks of 64 KiB */
    unsigned char *in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, &k));
    CHECK(k && strncmp(k, "tile.block.", 11) == 0);
    free(in);
    tfix_init(&f, F32, 2, SIZES(64, 1024), NULL, SIZES(1, 4), NULL); /* tile_inner, small: rows of 4 KiB */
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, &k));
    CHECK(k && strncmp(k, "tile.block.", 11) == 0);
    free(in);
    tfix_init(&f, F32, 2, SIZES(160, 1024), NULL, SIZES(3, 1), NULL); /* blocks of 640 KiB: chunked */
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, &k));
    CHECK(k && strncmp(k, "tile.block.", 11) == 0);
    free(in);
    /* 8 dims of size 2 repeated twice each: 16 split dims that do not merge */
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT16, 8, SIZES(2, 2, 2, 2, 2, 2, 2, 2), NULL,
              SIZES(2, 2, 2, 2, 2, 2, 2, 2), NULL);
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, &k));
    CHECK(k && strncmp(k, "tile.x4.", 8) == 0); /* the innermost input pair folds into 4-byte blocks */
    free(in);
    /* the same, input permuted with gaps, output gapped */
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 8, SIZES(2, 3, 2, 1, 2, 2, 2, 2), SIZES(1, 2, 7, 50, 14, 28, 56, 112),
              SIZES(2, 1, 2, 3, 2, 1, 2, 2), NULL);
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, NULL));
    free(in);
    /* all repeats 1: a plain copy; one element repeated */
    tfix_init(&f, F32, 3, SIZES(2, 3, 4), SIZES(1, 2, 6), SIZES(1, 1, 1), NULL);
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, NULL));
    free(in);
    tfix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT64, 2, SIZES(1, 1), NULL, SIZES(3, 5), SIZES(7, 1));
    in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
    CHECK(RUN_ALL(&f, in, &k));
    CHECK(k && strncmp(k, "tile.x8.", 8) == 0);
    free(in);
}

/* Random strides for n dims of sizes s (0 = packed): permuted, gapped, broadcast (inputs). */
static int rand_strides(uint64_t *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_input) {
    const uint32_t mode = (uint32_t)(rnd(r) % 10);
    if (mode < 3) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 6)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = (uint32_t)(rnd(r) % d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = 1;
    for (uint32_t i = n; i-- > 0;) {
        st[order[i]] = (uint32_t)next;
        next = next * s[order[i]] + (rnd(r) % 3 == 0 ? rnd(r) % 3 : 0);
    }
    if (is_input && mode == 9)
        for (uint32_t d = 0; d < n; ++d)
            if (rnd(r) % 3 == 0) st[d] = 0;
    return 1;
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("tile.")

/* The fast path writes exactly the oracle's bytes on random cases: every element
 * size but 8-byte floats, 1-8 dims, repeats 1-4, random layouts; half of them
 * with a tiny DMLREF_PAR_GRAIN so that 2 threads really split the work. */
TEST(tile_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[5] = {DMLREF_TENSOR_DATA_TYPE_UINT8, F16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    const uint64_t base_seed = test_seed(20260401);
    uint64_t r = 0;
    int reached = 0, failed = 0, doubling = 0, walked = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 600 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + (uint32_t)(rnd(&r) % 8);
        uint32_t sizes[8], rep[8], ist[8], ost[8], out[8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(rnd(&r) % (iter % 7 == 0 ? 40 : 4));
            rep[d] = 1 + (uint32_t)(rnd(&r) % 4);
            if (total * sizes[d] * rep[d] > 20000) sizes[d] = rep[d] = 1;
            total *= sizes[d] * rep[d];
            out[d] = sizes[d] * rep[d];
        }
        const int in_strided = rand_strides(&r, n, sizes, ist, 1), out_strided = rand_strides(&r, n, out, ost, 0);
        tfix f;
        tfix_init(&f, types[rnd(&r) % 5], n, sizes, in_strided ? ist : NULL, rep, out_strided ? ost : NULL);
        if (rnd(&r) % 5 == 0) f.out.buf.TotalTensorSizeInBytes += 8; /* a tail nobody addresses */
        const int tiny = (int)(rnd(&r) % 2);
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        unsigned char *in = random_bytes(&r, (size_t)f.in.buf.TotalTensorSizeInBytes);
        const int before = test_failures();
        const char *k = NULL;
        reached |= RUN_ALL(&f, in, &k);
        if (k) kernels_note(&seen, k);
        if (k && strcmp(k, "tile.doubling") == 0) ++doubling;
        else if (k && strncmp(k, "tile.", 5) == 0) ++walked;
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u dims, %s\n", iter, n, tiny ? "grain 64" : "default grain");
        }
        free(in);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    CHECK(reached);
    /* both kernels reached: tile.doubling (small packed outputs) and the copy walk */
    if ((doubling < 50 && !kernel_small_off("tile.doubling")) || walked < 50) test_fail(__FILE__, __LINE__, "tile.doubling ran %d cases, the walk %d", doubling, walked);
    CHECK_KERNELS_REACHED(&seen, "tile.", NULL); /* every tile.* kernel of src/ops/kernels.def */
}
