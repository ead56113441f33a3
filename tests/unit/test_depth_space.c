/*
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH, DEPTH_TO_SPACE1 and SPACE_TO_DEPTH1 (P6):
 * the descs' layout, the schemas, every rule (DS1-DS6) at the feature levels
 * where it differs, every example of docs/operators.md P6.4 and its inverse,
 * data of every element size through strided, broadcast and gapped layouts
 * (NaN payloads and -0.0 as bits), and the fast path against the oracle on
 * random cases with 1 and 2 threads, reaching every kernel.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h" /* env_reload: a tiny DMLREF_PAR_GRAIN for the thread parts */
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define FL DMLREF_FEATURE_LEVEL_6_4
#define DCR DMLREF_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW
#define CRD DMLREF_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH

/* The four operators: kind & 1 = SPACE_TO_DEPTH, kind >= 2 = the 1 forms (Order). */
enum { D2S, S2D, D2S1, S2D1 };
static const DMLREF_OPERATOR_TYPE kind_type[4] = {DMLREF_OPERATOR_DEPTH_TO_SPACE, DMLREF_OPERATOR_SPACE_TO_DEPTH,
                                                  DMLREF_OPERATOR_DEPTH_TO_SPACE1, DMLREF_OPERATOR_SPACE_TO_DEPTH1};
static const char *const kind_name[4] = {"DEPTH_TO_SPACE", "SPACE_TO_DEPTH", "DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1"};
#define TO_SPACE(k) (((k) & 1) == 0)

typedef struct dsfix {
    tdesc in, out;
    DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC d2s;
    DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC s2d;
    DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC d2s1;
    DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC s2d1;
    DMLREF_OPERATOR_DESC d;
} dsfix;

/* Points the kind's desc at f->in and f->out (initialized by the caller). */
static void dsfix_op(dsfix *f, int kind, uint32_t block, uint32_t order) {
    const DMLREF_TENSOR_DESC *i = &f->in.desc, *o = &f->out.desc;
    f->d2s = (DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC){i, o, block};
    f->s2d = (DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC){i, o, block};
    f->d2s1 = (DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC){i, o, block, (DMLREF_DEPTH_SPACE_ORDER)order};
    f->s2d1 = (DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC){i, o, block, (DMLREF_DEPTH_SPACE_ORDER)order};
    const void *descs[4] = {&f->d2s, &f->s2d, &f->d2s1, &f->s2d1};
    f->d = (DMLREF_OPERATOR_DESC){kind_type[kind], descs[kind]};
}

/* Packed tensors of the given sizes. */
static void dsfix_init(dsfix *f, int kind, DMLREF_TENSOR_DATA_TYPE dt, const uint32_t *in, const uint32_t *out,
                       uint32_t block, uint32_t order) {
    tdesc_init(&f->in, dt, 4, in, NULL);
    tdesc_init(&f->out, dt, 4, out, NULL);
    dsfix_op(f, kind, block, order);
}

/* The status, the message fragment and the rule id. */
#define CHECK_RULE(f, fl, want, needle, rule_id)                                                      \
    do {                                                                                             \
        dmlref_error e_;                                                                             \
        CHECK_STATUS(dmlref_validate(&(f)->d, (fl), &e_), e_, (want), (needle));                    \
        if (strcmp(e_.rule, (rule_id)) != 0)                                                         \
            test_fail(__FILE__, __LINE__, "rule \"%s\", want \"%s\" (%s)", e_.rule, (rule_id), e_.message); \
    } while (0)

TEST(depth_space_desc_layout) {
    const size_t p = sizeof(void *);
    /* v0: two pointers and a UINT (24 bytes on LP64, 12 on ILP32); v1: and the enum (24, 16) */
    CHECK_EQ_U64(sizeof(DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC), p == 8 ? 24 : 12);
    CHECK_EQ_U64(sizeof(DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC), p == 8 ? 24 : 12);
    CHECK_EQ_U64(sizeof(DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC), 2 * p + 8);
    CHECK_EQ_U64(sizeof(DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC), 2 * p + 8);
    CHECK_EQ_U64(sizeof(DMLREF_DEPTH_SPACE_ORDER), 4);
    CHECK_EQ_U64(offsetof(DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC, BlockSize), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC, BlockSize), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC, BlockSize), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC, Order), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC, BlockSize), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC, Order), 2 * p + 4);
    CHECK_EQ_U64(DMLREF_OPERATOR_SPACE_TO_DEPTH, 68);
    CHECK_EQ_U64(DMLREF_OPERATOR_DEPTH_TO_SPACE, 69);
    CHECK_EQ_U64(DMLREF_OPERATOR_DEPTH_TO_SPACE1, 113);
    CHECK_EQ_U64(DMLREF_OPERATOR_SPACE_TO_DEPTH1, 114);
    CHECK_EQ_U64(DCR, 0);
    CHECK_EQ_U64(CRD, 1);
}

TEST(depth_space_schema) {
    static const size_t sizes[4] = {sizeof(DMLREF_DEPTH_TO_SPACE_OPERATOR_DESC),
                                    sizeof(DMLREF_SPACE_TO_DEPTH_OPERATOR_DESC),
                                    sizeof(DMLREF_DEPTH_TO_SPACE1_OPERATOR_DESC),
                                    sizeof(DMLREF_SPACE_TO_DEPTH1_OPERATOR_DESC)};
    for (int k = 0; k < 4; ++k) {
        const dmlref_schema *sc = dmlref_operator_schema(kind_type[k]);
        CHECK(sc != NULL);
        if (!sc) continue;
        CHECK(strcmp(sc->name, kind_name[k]) == 0);
        CHECK(strcmp(dmlref_operator_name(kind_type[k]), kind_name[k]) == 0);
        CHECK_EQ_U64(sc->desc_size, sizes[k]);
        CHECK_EQ_U64(sc->flags, 0); /* no in-place execution */
        CHECK_EQ_U64(sc->n_slots, 2);
        CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output);
        CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output);
        CHECK_EQ_U64(sc->slots[1].offset, sizeof(void *));
        CHECK_EQ_U64(sc->n_params, k >= 2 ? 2 : 1);
        CHECK(strcmp(sc->params[0].name, "BlockSize") == 0 && sc->params[0].kind == DMLREF_PARAM_UINT);
        CHECK_EQ_U64(sc->params[0].offset, 2 * sizeof(void *));
        if (k >= 2 && sc->n_params == 2) {
            const dmlref_param *o = &sc->params[1];
            CHECK(strcmp(o->name, "Order") == 0 && o->kind == DMLREF_PARAM_ENUM);
            CHECK_EQ_U64(o->offset, 2 * sizeof(void *) + 4);
            CHECK(o->enum_count == 2 && strcmp(o->enum_names[0], "DEPTH_COLUMN_ROW") == 0 &&
                  strcmp(o->enum_names[1], "COLUMN_ROW_DEPTH") == 0);
        }
    }
}

/* DS1 and DS2 per feature level: v0 4-D {F32,F16} at 1_0, T8 from 2_1, T11 from 5_0;
 * v1 absent before 2_1, then T8, T11 from 5_0; 4-D only at every level. */
TEST(depth_space_levels) {
    dsfix f;
    dmlref_error err;
    for (int k = 0; k < 4; ++k) {
        const int ts = TO_SPACE(k);
        const uint32_t *depth = SIZES(1, 4, 2, 3), *space = SIZES(1, 1, 4, 6);
        dsfix_init(&f, k, F32, ts ? depth : space, ts ? space : depth, 2, DCR);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_1_0, &err), err,
                     k >= 2 ? DMLREF_ERROR_UNSUPPORTED_OPERATOR : DMLREF_OK, k >= 2 ? "introduced in 2_1" : NULL);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_0, &err), err,
                     k >= 2 ? DMLREF_ERROR_UNSUPPORTED_OPERATOR : DMLREF_OK, NULL);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
        CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);

        dsfix_init(&f, k, DMLREF_TENSOR_DATA_TYPE_INT8, ts ? depth : space, ts ? space : depth, 2, DCR);
        if (k < 2) CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_0, DMLREF_ERROR_DATA_TYPE,
                              "InputTensor.DataType (INT8) is not supported at feature level 2_0 (allowed: FLOAT32 FLOAT16)",
                              "DS2");
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
        for (int t = 0; t < 3; ++t) {
            static const DMLREF_TENSOR_DATA_TYPE wide[3] = {DMLREF_TENSOR_DATA_TYPE_FLOAT64,
                                                            DMLREF_TENSOR_DATA_TYPE_INT64,
                                                            DMLREF_TENSOR_DATA_TYPE_UINT64};
            dsfix_init(&f, k, wide[t], ts ? depth : space, ts ? space : depth, 2, DCR);
            CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_4_1, DMLREF_ERROR_DATA_TYPE, "is not supported at feature level 4_1", "DS2");
            CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
        }

        /* DS1: exactly 4-D, at every level (8 dims allowed nowhere) */
        tdesc_init(&f.in, F32, DIMS(1, 1, 4, 2, 3));
        tdesc_init(&f.out, F32, DIMS(1, 1, 1, 4, 6));
        dsfix_op(&f, k, 1, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_DIMENSION_COUNT,
                   "InputTensor.DimensionCount (5) must be in [4, 4] at feature level 6_4", "DS1");
        tdesc_init(&f.in, F32, DIMS(4, 2, 3));
        CHECK_RULE(&f, DMLREF_FEATURE_LEVEL_2_1, DMLREF_ERROR_DIMENSION_COUNT,
                   "InputTensor.DimensionCount (3) must be in [4, 4] at feature level 2_1", "DS1");
        tdesc_init(&f.in, F32, DIMS(1, 4, 2, 3));
        tdesc_init(&f.out, F32, DIMS(4, 2, 3));
        CHECK_RULE(&f, FL, DMLREF_ERROR_DIMENSION_COUNT, "OutputTensor.DimensionCount (3) must be in [4, 4]", "DS1");

        /* DS2: the same DataType */
        dsfix_init(&f, k, F32, ts ? depth : space, ts ? space : depth, 2, DCR);
        tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT32, 4, ts ? space : depth, NULL);
        CHECK_RULE(&f, FL, DMLREF_ERROR_DATA_TYPE, "OutputTensor.DataType (INT32) must equal InputTensor.DataType (FLOAT32)",
                   "DS2");
    }
}

/* DS3-DS6: the block, divisibility and the output shape, in 64 bits. */
TEST(depth_space_rules) {
    dsfix f;
    char msg[256];
    for (int k = 0; k < 4; ++k) {
        const char *op = kind_name[k];
        const int ts = TO_SPACE(k);
        const uint32_t *depth = SIZES(1, 8, 2, 3), *space = SIZES(1, 2, 4, 6);
        dsfix_init(&f, k, U32, ts ? depth : space, ts ? space : depth, 0, DCR);
        snprintf(msg, sizeof msg, "%s: BlockSize (0) must be at least 1", op);
        CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, msg, "DS3");
        /* BlockSize 1: a copy with the same sizes */
        dsfix_init(&f, k, U32, SIZES(2, 3, 4, 5), SIZES(2, 3, 4, 5), 1, DCR);
        CHECK_RULE(&f, FL, DMLREF_OK, NULL, "");
        if (k >= 2) { /* DS6 */
            dsfix_init(&f, k, U32, ts ? depth : space, ts ? space : depth, 2, 2);
            snprintf(msg, sizeof msg, "%s: Order (2) must be DEPTH_COLUMN_ROW (0) or COLUMN_ROW_DEPTH (1)", op);
            CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, msg, "DS6");
            dsfix_op(&f, k, 2, 0x80000000u);
            CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "Order (2147483648) must be", "DS6");
            dsfix_op(&f, k, 0, 7); /* DS3 comes first */
            CHECK_RULE(&f, FL, DMLREF_ERROR_PARAMETER, "BlockSize (0)", "DS3");
        }
    }

    /* DS4: C a multiple of B*B, then the output {N, C/(B*B), H*B, W*B} */
    for (int k = D2S; k <= D2S1; k += 2) {
        dsfix_init(&f, k, U32, SIZES(1, 6, 2, 3), SIZES(1, 2, 4, 6), 2, DCR);
        snprintf(msg, sizeof msg, "%s: InputTensor.Sizes[1] (Channels, 6) must be a multiple of BlockSize * BlockSize (2 * 2 = 4)",
                 kind_name[k]);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, msg, "DS4");
        dsfix_init(&f, k, U32, SIZES(1, 8, 2, 3), SIZES(1, 2, 4, 7), 2, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES,
                   "OutputTensor.Sizes {1,2,4,7} must equal {N, C / (B * B), H * B, W * B} = {1,2,4,6} for "
                   "InputTensor.Sizes {1,8,2,3} and BlockSize 2 (they differ at dimension 3)",
                   "DS4");
        dsfix_init(&f, k, U32, SIZES(1, 8, 2, 3), SIZES(1, 8, 2, 3), 2, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "(they differ at dimension 1)", "DS4");
        /* B*B past 32 bits: 65536^2 = 2^32 does not divide 4294836225 */
        tdesc_init(&f.in, U32, 4, SIZES(1, 4294836225u, 1, 1), SIZES(0, 0, 0, 0));
        tdesc_init(&f.out, U32, DIMS(1, 1, 1, 1)); /* DS4 checks C before the output */
        dsfix_op(&f, k, 65536, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "(Channels, 4294836225) must be a multiple of BlockSize * BlockSize "
                   "(65536 * 65536 = 4294967296)", "DS4");
        dsfix_op(&f, k, 0xFFFFFFFFu, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "(4294967295 * 4294967295 = 18446744065119617025)", "DS4");
        /* the largest block a valid tensor allows: B*B = 4294836225 channels */
        tdesc_init(&f.out, U32, DIMS(1, 1, 65535, 65535));
        dsfix_op(&f, k, 65535, CRD);
        CHECK_RULE(&f, FL, DMLREF_OK, NULL, "");
        /* H*B computed in 64 bits: a channel count that passes DS4 but an output that cannot match */
        tdesc_init(&f.in, U32, 4, SIZES(1, 4, 2147483647u, 1), SIZES(0, 0, 0, 0));
        tdesc_init(&f.out, U32, 4, SIZES(1, 1, 4294967294u, 2), SIZES(0, 0, 0, 1));
        dsfix_op(&f, k, 2, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_TOO_LARGE, NULL, "T11"); /* the input's elements, before any DS rule */
    }

    /* DS5: H and W multiples of B, then the output {N, C*B*B, H/B, W/B} */
    for (int k = S2D; k <= S2D1; k += 2) {
        dsfix_init(&f, k, U32, SIZES(1, 2, 5, 6), SIZES(1, 8, 2, 3), 2, DCR);
        snprintf(msg, sizeof msg, "%s: InputTensor.Sizes[2] (Height, 5) must be a multiple of BlockSize (2)", kind_name[k]);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, msg, "DS5");
        dsfix_init(&f, k, U32, SIZES(1, 2, 4, 7), SIZES(1, 8, 2, 3), 2, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "InputTensor.Sizes[3] (Width, 7) must be a multiple of BlockSize (2)",
                   "DS5");
        /* the pages' formula {N, C/(B*B), H*B, W*B} (section 9 item 31) is not the output */
        dsfix_init(&f, k, U32, SIZES(1, 2, 4, 6), SIZES(1, 1, 8, 12), 2, DCR); /* C / 4 rounded up */
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES,
                   "OutputTensor.Sizes {1,1,8,12} must equal {N, C * B * B, H / B, W / B} = {1,8,2,3} for "
                   "InputTensor.Sizes {1,2,4,6} and BlockSize 2 (they differ at dimension 1)",
                   "DS5");
        /* a block larger than the height */
        dsfix_init(&f, k, U32, SIZES(1, 2, 4, 6), SIZES(1, 8, 2, 3), 0xFFFFFFFFu, DCR);
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "(Height, 4) must be a multiple of BlockSize (4294967295)", "DS5");
        /* C*B*B past 32 bits is no overflow: 65535^2 channels */
        tdesc_init(&f.in, U32, 4, SIZES(1, 1, 65535, 65535), SIZES(0, 0, 0, 0));
        tdesc_init(&f.out, U32, DIMS(1, 4294836225u, 1, 1));
        dsfix_op(&f, k, 65535, CRD);
        CHECK_RULE(&f, FL, DMLREF_OK, NULL, "");
        f.out.sizes[1] = 1;
        CHECK_RULE(&f, FL, DMLREF_ERROR_SIZES, "= {1,4294836225,1,1}", "DS5");
    }
}

/* ---- the examples of P6.4 ---------------------------------------------------- */

/* channel k of the depth tensor {1,8,2,3} holds 9k + [0,1,2; 3,4,5] */
static void doc_depth(uint32_t *v) {
    for (uint32_t k = 0; k < 8; ++k)
        for (uint32_t e = 0; e < 6; ++e) v[k * 6 + e] = 9 * k + e;
}

static const uint32_t doc_dcr[48] = {
    0,  18, 1,  19, 2,  20, 36, 54, 37, 55, 38, 56, 3,  21, 4,  22, 5,  23, 39, 57, 40, 58, 41, 59,
    9,  27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65, 12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68};
static const uint32_t doc_crd[48] = {
    0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29, 3,  12, 4,  13, 5,  14, 21, 30, 22, 31, 23, 32,
    36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65, 39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68};

/* Runs f with the oracle and the fast path (1 and 2 threads) and compares with want. */
static void run_expect(const dsfix *f, DMLREF_FEATURE_LEVEL fl, const void *in, size_t in_bytes, const void *want,
                       size_t out_bytes, const char *what) {
    unsigned char got[512];
    dmlref_error err;
    if (out_bytes > sizeof got) abort();
    for (uint32_t threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            const dmlref_options o = {.flags = flags, .threads = threads};
            memset(got, 0xCD, sizeof got);
            dmlref_cbuffer ins[1] = {{in, in_bytes}};
            dmlref_buffer outs[1] = {{got, out_bytes}};
            CHECK_STATUS(dmlref_run(&f->d, fl, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(got, want, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "%s, threads %u, flags %u: wrong output", what, threads, flags);
        }
}

TEST(depth_space_doc_examples) {
    dsfix f;
    uint32_t depth[48];
    doc_depth(depth);
    for (int k = 0; k < 4; ++k)
        for (uint32_t order = DCR; order <= (k >= 2 ? (uint32_t)CRD : (uint32_t)DCR); ++order) {
            const uint32_t *space = order == DCR ? doc_dcr : doc_crd;
            const int ts = TO_SPACE(k);
            dsfix_init(&f, k, U32, ts ? SIZES(1, 8, 2, 3) : SIZES(1, 2, 4, 6), ts ? SIZES(1, 2, 4, 6) : SIZES(1, 8, 2, 3), 2,
                       order);
            /* the example (DEPTH_TO_SPACE) or its inverse (SPACE_TO_DEPTH) */
            run_expect(&f, FL, ts ? depth : space, sizeof depth, ts ? space : depth, sizeof depth, kind_name[k]);
            run_expect(&f, DMLREF_FEATURE_LEVEL_2_1, ts ? depth : space, sizeof depth, ts ? space : depth, sizeof depth,
                       kind_name[k]);
        }
    /* the v0 operators at FL 1_0: FLOAT32 */
    float fd[48], fs[48];
    for (int i = 0; i < 48; ++i) {
        fd[i] = (float)depth[i];
        fs[i] = (float)doc_dcr[i];
    }
    dsfix_init(&f, D2S, F32, SIZES(1, 8, 2, 3), SIZES(1, 2, 4, 6), 2, DCR);
    run_expect(&f, DMLREF_FEATURE_LEVEL_1_0, fd, sizeof fd, fs, sizeof fs, "DEPTH_TO_SPACE at 1_0");
    dsfix_init(&f, S2D, F32, SIZES(1, 2, 4, 6), SIZES(1, 8, 2, 3), 2, DCR);
    run_expect(&f, DMLREF_FEATURE_LEVEL_1_0, fs, sizeof fs, fd, sizeof fd, "SPACE_TO_DEPTH at 1_0");
}

/* ---- a reference written apart from the library ------------------------------- */

typedef struct dscase {
    int kind;
    uint32_t B, order, esize;
    uint32_t space[4], depth[4]; /* {N, C, H*B, W*B} and {N, C*B*B, H, W} */
} dscase;

/* Byte offset of coordinate c in a tensor desc (strides or packed). */
static uint64_t offset_of(const tdesc *t, const uint32_t *c, uint32_t esize) {
    uint64_t off = 0, packed = 1;
    for (uint32_t d = 4; d-- > 0;) {
        off += (uint64_t)c[d] * (t->buf.Strides ? t->strides[d] : packed);
        packed *= t->sizes[d];
    }
    return off * esize;
}

/* want = out's prefill with every space element moved to its depth element or back. */
static void reference(const dscase *c, const tdesc *in, const tdesc *out, const unsigned char *src,
                      unsigned char *want) {
    const uint32_t B = c->B, Cs = c->space[1];
    uint32_t sc[4], dc[4];
    for (sc[0] = 0; sc[0] < c->space[0]; ++sc[0])
        for (sc[1] = 0; sc[1] < c->space[1]; ++sc[1])
            for (sc[2] = 0; sc[2] < c->space[2]; ++sc[2])
                for (sc[3] = 0; sc[3] < c->space[3]; ++sc[3]) {
                    const uint32_t i = sc[2] % B, j = sc[3] % B;
                    dc[0] = sc[0];
                    dc[1] = c->order == DCR ? (i * B + j) * Cs + sc[1] : (sc[1] * B + i) * B + j;
                    dc[2] = sc[2] / B;
                    dc[3] = sc[3] / B;
                    const int ts = TO_SPACE(c->kind);
                    memcpy(want + offset_of(out, ts ? sc : dc, c->esize), src + offset_of(in, ts ? dc : sc, c->esize),
                           c->esize);
                }
}

/* Bit patterns worth moving: NaNs with payloads (quiet and signalling), -0.0, infinities. */
static const uint64_t specials[8] = {
    UINT64_C(0x7FF8000000001234), UINT64_C(0xFFF0000000000001), UINT64_C(0x8000000000000000), UINT64_C(0x7FC01234),
    UINT64_C(0xFFA00001),         UINT64_C(0x80000000),         UINT64_C(0x7E01),               UINT64_C(0x8000)};

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Strides: packed (NULL result), or a random dimension order with gaps; inputs may broadcast. */
static int rand_layout(uint32_t *seed, const uint32_t *sizes, uint32_t *st, int allow_broadcast) {
    const uint32_t mode = lcg(seed) % 4;
    if (mode == 0) return 0;
    uint32_t order[4] = {0, 1, 2, 3};
    if (mode >= 2)
        for (uint32_t d = 3; d > 0; --d) {
            const uint32_t j = lcg(seed) % (d + 1), t = order[d];
            order[d] = order[j];
            order[j] = t;
        }
    uint32_t s = 1;
    for (uint32_t k = 4; k-- > 0;) {
        st[order[k]] = s;
        s *= sizes[order[k]] + lcg(seed) % 2;
    }
    if (allow_broadcast && mode == 3)
        for (uint32_t d = 0; d < 4; ++d)
            if (sizes[d] > 1 && lcg(seed) % 3 == 0) st[d] = 0;
    return 1;
}

static const DMLREF_TENSOR_DATA_TYPE by_size[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                   DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};

/* Kernel names the random cases reached. */
static kernels_seen seen;

/* One case: the oracle against the reference, the fast path (1 and 2 threads,
 * thread parts of 64 bytes for 2) against the oracle, gaps included. */
static void check_case(const dscase *c, const uint32_t *in_st, const uint32_t *out_st, uint32_t *seed, int with_specials,
                       const char *what) {
    dsfix f;
    dmlref_error err;
    const int ts = TO_SPACE(c->kind);
    const DMLREF_TENSOR_DATA_TYPE dt = by_size[c->esize == 1 ? 0 : c->esize == 2 ? 1 : c->esize == 4 ? 2 : 3];
    tdesc_init(&f.in, dt, 4, ts ? c->depth : c->space, in_st);
    tdesc_init(&f.out, dt, 4, ts ? c->space : c->depth, out_st);
    f.in.buf.TotalTensorSizeInBytes += 4 * (lcg(seed) % 2); /* a tail no element addresses */
    f.out.buf.TotalTensorSizeInBytes += 4 * (lcg(seed) % 2);
    dsfix_op(&f, c->kind, c->B, c->order);
    const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes, ob = (size_t)f.out.buf.TotalTensorSizeInBytes;
    unsigned char *in = malloc(ib), *want = malloc(ob), *ref = malloc(ob), *got = malloc(ob);
    if (!in || !want || !ref || !got) abort();
    for (size_t i = 0; i < ib; ++i) in[i] = (unsigned char)lcg(seed);
    if (with_specials && c->esize >= 2)
        for (size_t i = 0; i + c->esize <= ib; i += c->esize) {
            const uint64_t v = specials[(c->esize == 8 ? 0 : c->esize == 4 ? 3 : 6) + lcg(seed) % (c->esize == 2 ? 2 : 3)];
            memcpy(in + i, &v, c->esize); /* host order, as the library copies bytes */
        }
    for (size_t i = 0; i < ob; ++i) want[i] = (unsigned char)(0xA5 ^ i);
    memcpy(ref, want, ob);
    reference(c, &f.in, &f.out, in, want);
    dmlref_cbuffer ins[1] = {{in, ib}};
    dmlref_buffer r[1] = {{ref, ob}};
    const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ins, 1, r, 1, &err), err, DMLREF_OK, NULL);
    if (memcmp(ref, want, ob) != 0) test_fail(__FILE__, __LINE__, "%s: the oracle differs from the reference", what);
    for (uint32_t threads = 1; threads <= 2; ++threads) {
        const dmlref_options fast = {.flags = 0, .threads = threads};
        dmlref_operator *op = NULL;
        if (threads == 2) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        const dmlref_status st = dmlref_compile(&f.d, FL, &fast, &op, &err);
        if (threads == 2) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
        CHECK_STATUS(st, err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        kernels_note(&seen, name);
        const char *prefix = ts ? "depth_to_space." : "space_to_depth.";
        if (strncmp(name, prefix, strlen(prefix)) != 0)
            test_fail(__FILE__, __LINE__, "%s: kernel %s, want %s*", what, name, prefix);
        for (size_t i = 0; i < ob; ++i) got[i] = (unsigned char)(0xA5 ^ i);
        dmlref_buffer g[1] = {{got, ob}};
        CHECK_STATUS(dmlref_execute(op, ins, 1, g, 1, &err), err, DMLREF_OK, NULL);
        if (memcmp(ref, got, ob) != 0)
            test_fail(__FILE__, __LINE__, "%s (%s, %u threads): the fast path differs from the oracle", what, name, threads);
        dmlref_release(op);
    }
    free(in);
    free(want);
    free(ref);
    free(got);
}

static void make_case(dscase *c, int kind, uint32_t B, uint32_t order, uint32_t esize, uint32_t N, uint32_t C,
                      uint32_t H, uint32_t W) {
    c->kind = kind;
    c->B = B;
    c->order = kind >= 2 ? order : DCR;
    c->esize = esize;
    const uint32_t space[4] = {N, C, H * B, W * B}, depth[4] = {N, C * B * B, H, W};
    memcpy(c->space, space, sizeof space);
    memcpy(c->depth, depth, sizeof depth);
}

/* Every element size, both orders, both directions: packed, gapped, permuted
 * and broadcast layouts; NaN payloads, signalling NaNs and -0.0 move as bits. */
TEST(depth_space_data_every_size) {
    uint32_t seed = 777;
    char what[128];
    for (int k = 0; k < 4; ++k)
        for (uint32_t es = 1; es <= 8; es *= 2)
            for (uint32_t order = DCR; order <= CRD; ++order)
                for (int layout = 0; layout < 4; ++layout) {
                    dscase c;
                    make_case(&c, k, 2 + (uint32_t)layout % 2, order, es, 2, 3, 2, 5 + (uint32_t)layout);
                    const uint32_t *in_sizes = TO_SPACE(k) ? c.depth : c.space;
                    const uint32_t *out_sizes = TO_SPACE(k) ? c.space : c.depth;
                    uint32_t in_st[4], out_st[4];
                    int has_in = 0, has_out = 0;
                    if (layout == 1) { /* gaps after every row and plane */
                        in_st[3] = out_st[3] = 1;
                        for (uint32_t d = 3; d-- > 0;) {
                            in_st[d] = in_st[d + 1] * (in_sizes[d + 1] + 1);
                            out_st[d] = out_st[d + 1] * (out_sizes[d + 1] + 2);
                        }
                        has_in = has_out = 1;
                    } else if (layout == 2) { /* channels last on both sides (NHWC) */
                        const uint32_t *sz[2] = {in_sizes, out_sizes};
                        uint32_t *st[2] = {in_st, out_st};
                        for (int t = 0; t < 2; ++t) {
                            st[t][1] = 1;
                            st[t][3] = sz[t][1];
                            st[t][2] = sz[t][1] * sz[t][3];
                            st[t][0] = st[t][2] * sz[t][2];
                        }
                        has_in = has_out = 1;
                    } else if (layout == 3) { /* a broadcast input: every batch and row reads the same */
                        in_st[3] = 1;
                        in_st[2] = 0;
                        in_st[1] = in_sizes[3];
                        in_st[0] = 0;
                        has_in = 1;
                    }
                    snprintf(what, sizeof what, "%s es %u order %u layout %d", kind_name[k], es, order, layout);
                    check_case(&c, has_in ? in_st : NULL, has_out ? out_st : NULL, &seed, 1, what);
                }
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("depth_to_space.")
KERNELS_CHECKED("space_to_depth.")

/* Random cases: sizes, blocks 1-4, orders, element sizes and layouts; every
 * kernel is reached (interleave2/deinterleave2 for B = 2 in the packed NCHW
 * layout, interleave/deinterleave for B > 2, the strided copy otherwise). */
TEST(depth_space_fast_path_matches_oracle) {
    const uint64_t base_seed = test_seed(20260101);
    uint32_t seed = 0;
    char what[160];
    seen.n = 0;
    for (int iter = 0; iter < 600; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        dscase c;
        const int k = (int)(lcg(&seed) % 4);
        static const uint32_t blocks[6] = {1, 2, 2, 2, 3, 4}; /* B = 2 has the SIMD kernels */
        const uint32_t B = blocks[lcg(&seed) % 6], es = 1u << (lcg(&seed) % 4);
        const uint32_t W = 1 + lcg(&seed) % (B == 2 ? 40 : 9);
        /* drawn one by one (as arguments their order is unspecified: the cases, and the kernels
         * they reach, differed between compilers); the order gcc evaluated them in, right to left */
        const uint32_t H = 1 + lcg(&seed) % 3, C = 1 + lcg(&seed) % 3, N = 1 + lcg(&seed) % 2, order = lcg(&seed) % 2;
        make_case(&c, k, B, order, es, N, C, H, W);
        uint32_t in_st[4], out_st[4];
        const int ts = TO_SPACE(k);
        const int has_in = rand_layout(&seed, ts ? c.depth : c.space, in_st, 1);
        const int has_out = rand_layout(&seed, ts ? c.space : c.depth, out_st, 0);
        snprintf(what, sizeof what, "case %d: %s B %u order %u es %u space {%u,%u,%u,%u}", iter, kind_name[k], B, c.order,
                 es, c.space[0], c.space[1], c.space[2], c.space[3]);
        check_case(&c, has_in ? in_st : NULL, has_out ? out_st : NULL, &seed, iter % 3 == 0, what);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    /* every kernel of src/ops/kernels.def of the two operators, but: the reverse row modes
     * (DEPTH_TO_SPACE deinterleaving, SPACE_TO_DEPTH interleaving: a layout that makes the
     * source contiguous over the lanes, which rand_layout draws only for some widths) and
     * copy kind block (contiguous runs of 256 B and more: B = 1 with long packed rows,
     * longer than the random widths) */
    static const char *const d2s[] = {"depth_to_space.copy.block",       "depth_to_space.deinterleave2.x1",
                                      "depth_to_space.deinterleave2.x2", "depth_to_space.deinterleave2.x4",
                                      "depth_to_space.deinterleave.x1",  "depth_to_space.deinterleave.x2",
                                      "depth_to_space.deinterleave.x4",  "depth_to_space.deinterleave.x8",
                                      NULL};
    static const char *const s2d[] = {"space_to_depth.copy.block",     "space_to_depth.interleave2.x1",
                                      "space_to_depth.interleave2.x2", "space_to_depth.interleave2.x4",
                                      "space_to_depth.interleave.x1",  "space_to_depth.interleave.x2",
                                      "space_to_depth.interleave.x4",  NULL};
    CHECK_KERNELS_REACHED(&seen, "depth_to_space.", d2s);
    CHECK_KERNELS_REACHED(&seen, "space_to_depth.", s2d);
}

/* The benchmark shapes' kernels, scaled down ([16,256,64,64] F32 B 2 <-> [16,64,128,128]):
 * NCHW packed F32 with B 2 takes interleave2 / deinterleave2 with both orders. */
TEST(depth_space_bench_shape_kernels) {
    uint32_t seed = 99;
    for (int k = 0; k < 4; ++k)
        for (uint32_t order = DCR; order <= CRD; ++order) {
            dsfix f;
            dmlref_error err;
            dmlref_operator *op = NULL;
            const int ts = TO_SPACE(k);
            dsfix_init(&f, k, F32, ts ? SIZES(2, 32, 8, 64) : SIZES(2, 8, 16, 128), ts ? SIZES(2, 8, 16, 128) : SIZES(2, 32, 8, 64),
                       2, order);
            CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            const char *want = ts ? "depth_to_space.interleave2.x4." : "space_to_depth.deinterleave2.x4.";
            if (!kernel_small_off(want) && strncmp(dmlref_kernel_name(op), want, strlen(want)) != 0)
                test_fail(__FILE__, __LINE__, "%s: kernel %s, want %s*", kind_name[k], dmlref_kernel_name(op), want);
            dmlref_release(op);
            dscase c;
            make_case(&c, k, 2, order, 4, 2, 8, 8, 64);
            check_case(&c, NULL, NULL, &seed, 0, "bench shape");
        }
}

/* DMLREF_OPTION_FORCE_ORACLE: the oracle's name; an output bound over the input: a binding error. */
TEST(depth_space_force_oracle_and_binding) {
    dsfix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    dsfix_init(&f, D2S1, F32, SIZES(1, 8, 2, 3), SIZES(1, 2, 4, 6), 2, CRD);
    const dmlref_options o = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 0};
    CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
    dmlref_release(op);
    float buf[48] = {0};
    dmlref_cbuffer ins[1] = {{buf, sizeof buf}};
    dmlref_buffer outs[1] = {{buf, sizeof buf}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_ERROR_BINDING,
                 "the OutputTensor buffer overlaps the InputTensor buffer");
}
