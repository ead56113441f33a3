/*
 * ELEMENT_WISE_IF (Q3): the desc's layout and schema, every rule (IF1-IF5) at the
 * feature levels where it differs, the page's example, any nonzero condition byte
 * as true, NaN payloads and -0.0 as bits, every element size through strided,
 * broadcast (zero-stride) and gapped layouts against an independent reference,
 * and the fast path against the oracle on random cases with 1 and 2 threads
 * (both element_wise_if kernels reached).
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct ifix {
    tdesc c, a, b, out;
    DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC w;
    DMLREF_OPERATOR_DESC d;
} ifix;

/* Four tensors of one shape; strides NULL = packed (cs, as, bs, os in elements). */
static void ifix_init(ifix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, const uint32_t *cs,
                      const uint32_t *as, const uint32_t *bs, const uint32_t *os) {
    tdesc_init(&f->c, U8, n, sizes, cs);
    tdesc_init(&f->a, dt, n, sizes, as);
    tdesc_init(&f->b, dt, n, sizes, bs);
    tdesc_init(&f->out, dt, n, sizes, os);
    f->w = (DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC){&f->c.desc, &f->a.desc, &f->b.desc, &f->out.desc};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ELEMENT_WISE_IF, &f->w};
}

static dmlref_status validate(const ifix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(element_wise_if_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC), 4 * p); /* 32 on LP64, 16 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC, ConditionTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC, ATensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC, BTensor), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC, OutputTensor), 3 * p);
}

TEST(element_wise_if_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_ELEMENT_WISE_IF);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "ELEMENT_WISE_IF") == 0);
    CHECK_EQ_U64(sc->type, 88);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_ELEMENT_WISE_IF_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_2_0);
    CHECK_EQ_U64(sc->n_slots, 4);
    CHECK_EQ_U64(sc->n_params, 0);
    static const char *const names[4] = {"ConditionTensor", "ATensor", "BTensor", "OutputTensor"};
    for (uint32_t k = 0; k < 4 && k < sc->n_slots; ++k) {
        CHECK(strcmp(sc->slots[k].name, names[k]) == 0);
        CHECK_EQ_U64(sc->slots[k].is_output, k == 3);
        CHECK_EQ_U64(sc->slots[k].offset, k * sizeof(void *));
    }
}

TEST(element_wise_if_validation_rules) {
    ifix f;
    dmlref_error err;
    ifix_init(&f, F32, 2, SIZES(2, 3), NULL, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* IF1: the same DimensionCount and Sizes */
    tdesc_init(&f.c, U8, DIMS(1, 2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "ELEMENT_WISE_IF: ConditionTensor.DimensionCount (3) must equal OutputTensor.DimensionCount (2)", "IF1");
    tdesc_init(&f.c, U8, DIMS(2, 4));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "ConditionTensor", "IF1");
    tdesc_init(&f.c, U8, DIMS(2, 3));
    tdesc_init(&f.a, F32, DIMS(3, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "ATensor", "IF1");
    tdesc_init(&f.a, F32, DIMS(2, 3));
    tdesc_init(&f.b, F32, DIMS(6));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "BTensor.DimensionCount (1)", "IF1");
    tdesc_init(&f.b, F32, DIMS(2, 3));

    /* IF3: the condition is UINT8 */
    tdesc_init(&f.c, DMLREF_TENSOR_DATA_TYPE_INT8, DIMS(2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "ELEMENT_WISE_IF: ConditionTensor.DataType (INT8) must be UINT8", "IF3");
    CHECK(strcmp(err.field, "ConditionTensor.DataType") == 0);
    tdesc_init(&f.c, F32, DIMS(2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "(FLOAT32) must be UINT8", "IF3");
    tdesc_init(&f.c, U8, DIMS(2, 3));

    /* IF4: A, B and the output of one type */
    tdesc_init(&f.a, F16, DIMS(2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "ELEMENT_WISE_IF: ATensor.DataType (FLOAT16) must equal OutputTensor.DataType (FLOAT32)", "IF4");
    tdesc_init(&f.a, F32, DIMS(2, 3));
    tdesc_init(&f.b, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(2, 3));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "BTensor.DataType (INT32)", "IF4");

    /* broadcast inputs (zero strides) are fine; an output whose elements share memory is not */
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), SIZES(0, 0), SIZES(3, 0), NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, F32, 2, SIZES(2, 3), NULL, NULL, NULL, SIZES(0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0", "T15");
    ifix_init(&f, F32, 2, SIZES(2, 3), NULL, NULL, NULL, NULL);
    f.w.BTensor = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "ELEMENT_WISE_IF: BTensor is NULL", "T1");
}

/* Q0.2: none before 2_0; 2_0 4-D FLOAT16 only (the page's row, Q13 item 46); 3_0 1-8 dims T8;
 * 5_0 T11 (the 64-bit types). */
TEST(element_wise_if_feature_levels) {
    ifix f;
    dmlref_error err;
    ifix_init(&f, F16, 4, SIZES(1, 1, 2, 2), NULL, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_OK, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, NULL);
    ifix_init(&f, F32, 4, SIZES(1, 1, 2, 2), NULL, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE,
               "ELEMENT_WISE_IF: OutputTensor.DataType (FLOAT32) is not supported at feature level 2_0 (allowed: "
               "FLOAT16)",
               "IF5");
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DATA_TYPE, "feature level 2_1", "IF5");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, F16, 3, SIZES(1, 2, 2), NULL, NULL, NULL, NULL);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "ELEMENT_WISE_IF: OutputTensor.DimensionCount (3) must be in [4, 4] at feature level 2_0", "IF2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, 8, SIZES(1, 2, 1, 2, 1, 2, 1, 2), NULL, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    static const DMLREF_TENSOR_DATA_TYPE t64[3] = {DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64,
                                                   DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    for (int k = 0; k < 3; ++k) {
        ifix_init(&f, t64[k], 1, SIZES(5), NULL, NULL, NULL, NULL);
        CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_ERROR_DATA_TYPE, "feature level 4_1",
                   "IF5");
        CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_OK, NULL);
    }
}

/* ---- running it ---------------------------------------------------------------------- */

/* Element strides of a tdesc (given or packed). */
static void strides_of(const tdesc *t, uint64_t *st) {
    const DMLREF_BUFFER_TENSOR_DESC *b = &t->buf;
    for (uint32_t d = b->DimensionCount, a = 1; d-- > 0;) {
        st[d] = b->Strides ? b->Strides[d] : a;
        a *= b->Sizes[d];
    }
}

/* An independent reference: each element's coordinate from its row-major number; the
 * condition byte picks A's or B's bytes; other output bytes untouched. */
static void ref_if(const ifix *f, const unsigned char *c, const unsigned char *a, const unsigned char *b,
                   unsigned char *out) {
    const uint32_t n = f->out.buf.DimensionCount, es = dmlref_data_type_size(f->out.buf.DataType);
    uint64_t st[4][8], count = 1;
    strides_of(&f->out, st[0]);
    strides_of(&f->c, st[1]);
    strides_of(&f->a, st[2]);
    strides_of(&f->b, st[3]);
    for (uint32_t d = 0; d < n; ++d) count *= f->out.buf.Sizes[d];
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t q = e, off[4] = {0, 0, 0, 0};
        for (uint32_t d = n; d-- > 0;) {
            const uint64_t x = q % f->out.buf.Sizes[d];
            q /= f->out.buf.Sizes[d];
            for (int t = 0; t < 4; ++t) off[t] += x * st[t][d];
        }
        memcpy(out + off[0] * es, c[off[1]] ? a + off[2] * es : b + off[3] * es, es);
    }
}

/* The oracle and the fast path (threads 1 and 2) against the reference, byte for byte,
 * into outputs prefilled with 0xA5.  Returns 1 when a run used an element_wise_if kernel. */
static int run_all_at(const char *file, int line, const ifix *f, DMLREF_FEATURE_LEVEL fl, const unsigned char *c,
                      const unsigned char *a, const unsigned char *b, const char **kernel) {
    const size_t ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *got = malloc(ob);
    if (!want || !got) abort();
    memset(want, 0xA5, ob);
    ref_if(f, c, a, b, want);
    int fast = 0;
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0,
                                  .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, fl, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (mode > 0 && strncmp(name, "element_wise_if.", 16) == 0) fast = 1;
        if (kernel && mode > 0) *kernel = name;
        memset(got, 0xA5, ob);
        const dmlref_cbuffer ins[3] = {{c, (size_t)f->c.buf.TotalTensorSizeInBytes},
                                       {a, (size_t)f->a.buf.TotalTensorSizeInBytes},
                                       {b, (size_t)f->b.buf.TotalTensorSizeInBytes}};
        dmlref_buffer outs[1] = {{got, ob}};
        check_status_at(file, line, dmlref_execute(op, ins, 3, outs, 1, &err), &err, DMLREF_OK, NULL);
        if (memcmp(got, want, ob) != 0) {
            size_t at = 0;
            while (got[at] == want[at]) ++at;
            test_fail(file, line, "%s (threads %d) differs from the reference at byte %zu of %zu", name,
                      mode ? mode : 1, at, ob);
        }
        dmlref_release(op);
    }
    free(want);
    free(got);
    return fast;
}
#define RUN_ALL(f, fl, c, a, b, kernel) run_all_at(__FILE__, __LINE__, (f), (fl), (c), (a), (b), (kernel))

static unsigned char *random_bytes(uint64_t *s, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    if (!p) abort();
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)splitmix64(s);
    return p;
}

/* The page's example (docs/operators.md Q3; tests/cases/element_wise_if_doc*.json). */
TEST(element_wise_if_doc_example) {
    ifix f;
    ifix_init(&f, F32, 2, SIZES(2, 2), NULL, NULL, NULL, NULL);
    const unsigned char c[4] = {1, 0, 1, 1};
    const float a[4] = {1, 2, 3, 4}, b[4] = {9, 8, 7, 6}, want[4] = {1, 8, 3, 4};
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags};
        float out[4];
        memset(out, 0xCD, sizeof out);
        const dmlref_cbuffer ins[3] = {{c, sizeof c}, {a, sizeof a}, {b, sizeof b}};
        dmlref_buffer outs[1] = {{out, sizeof out}};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_3_0, &o, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
    CHECK(RUN_ALL(&f, FL, c, (const unsigned char *)a, (const unsigned char *)b, NULL));
    /* at 2_0: 4-D FLOAT16 (1, 2, 3, 4 and 9, 8, 7, 6 as binary16) */
    ifix_init(&f, F16, 4, SIZES(1, 1, 2, 2), NULL, NULL, NULL, NULL);
    const uint16_t ha[4] = {0x3C00, 0x4000, 0x4200, 0x4400}, hb[4] = {0x4880, 0x4800, 0x4700, 0x4600};
    const uint16_t hw[4] = {0x3C00, 0x4800, 0x4200, 0x4400};
    uint16_t hout[4] = {0};
    const dmlref_cbuffer ins[3] = {{c, sizeof c}, {ha, sizeof ha}, {hb, sizeof hb}};
    dmlref_buffer outs[1] = {{hout, sizeof hout}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_2_0, NULL, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(hout, hw, sizeof hw);
}

/* Any nonzero condition byte is true (not bit 0 only: 2, 0x80, 0xFE); NaN payloads
 * (quiet, signalling, negative), -0.0 and infinities are copied as bits. */
TEST(element_wise_if_nonzero_bytes_nan_payloads_negative_zero) {
    ifix f;
    ifix_init(&f, F32, 1, SIZES(40), NULL, NULL, NULL, NULL);
    unsigned char c[40];
    uint32_t a[40], b[40], want[40];
    static const uint32_t specials[6] = {0x7fc01234u, 0x7f800001u, 0xffc00001u, 0x80000000u, 0x7f800000u, 0x00000001u};
    for (int i = 0; i < 40; ++i) {
        c[i] = (unsigned char)(i % 5 == 0 ? 0 : i % 5 == 1 ? 2 : i % 5 == 2 ? 0x80 : i % 5 == 3 ? 0xFE : 1);
        a[i] = specials[i % 6];
        b[i] = specials[(i + 3) % 6] ^ (uint32_t)i;
        want[i] = c[i] ? a[i] : b[i];
    }
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags};
        uint32_t out[40] = {0};
        const dmlref_cbuffer ins[3] = {{c, sizeof c}, {a, sizeof a}, {b, sizeof b}};
        dmlref_buffer outs[1] = {{out, sizeof out}};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
    CHECK(RUN_ALL(&f, FL, c, (const unsigned char *)a, (const unsigned char *)b, NULL));
}

/* Every element size: a broadcast condition row (ONNX Where's [1, W] against [H, W]), a
 * broadcast scalar B, a permuted gapped A, a gapped output; and the packed rows. */
TEST(element_wise_if_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, F16, F32, DMLREF_TENSOR_DATA_TYPE_INT64};
    uint64_t s = 17;
    for (int k = 0; k < 4; ++k) {
        ifix f;
        ifix_init(&f, types[k], 2, SIZES(5, 37), SIZES(0, 1), SIZES(1, 6), SIZES(0, 0), SIZES(40, 1));
        unsigned char *c = random_bytes(&s, (size_t)f.c.buf.TotalTensorSizeInBytes);
        unsigned char *a = random_bytes(&s, (size_t)f.a.buf.TotalTensorSizeInBytes);
        unsigned char *b = random_bytes(&s, (size_t)f.b.buf.TotalTensorSizeInBytes);
        const char *kn = NULL;
        CHECK(RUN_ALL(&f, FL, c, a, b, &kn));
        CHECK(kn && strcmp(kn, "element_wise_if.strided") == 0);
        free(c), free(a), free(b);
        ifix_init(&f, types[k], 3, SIZES(3, 5, 37), NULL, NULL, NULL, NULL);
        c = random_bytes(&s, (size_t)f.c.buf.TotalTensorSizeInBytes);
        a = random_bytes(&s, (size_t)f.a.buf.TotalTensorSizeInBytes);
        b = random_bytes(&s, (size_t)f.b.buf.TotalTensorSizeInBytes);
        for (size_t i = 0; i < (size_t)f.c.buf.TotalTensorSizeInBytes; ++i) c[i] = (unsigned char)(c[i] % 3 ? c[i] : 0);
        CHECK(RUN_ALL(&f, FL, c, a, b, &kn));
        CHECK(kn && strncmp(kn, "element_wise_if.rows.", 21) == 0);
        free(c), free(a), free(b);
    }
}

/* The benchmark's shape (bench where: UINT8 condition and two FLOAT32 [4096, 4096], packed)
 * compiles to the row kernel; inputs offset by one byte inside their buffers still match. */
TEST(element_wise_if_benchmark_shape) {
    ifix f;
    dmlref_error err;
    dmlref_operator *op = NULL;
    ifix_init(&f, F32, 2, SIZES(4096, 4096), NULL, NULL, NULL, NULL);
    CHECK_STATUS(dmlref_compile(&f.d, FL, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strncmp(dmlref_kernel_name(op), "element_wise_if.rows.", 21) == 0);
    dmlref_release(op);
    /* unaligned data: 1003 elements at odd addresses */
    ifix_init(&f, F32, 1, SIZES(1003), NULL, NULL, NULL, NULL);
    uint64_t s = 5;
    unsigned char *c = random_bytes(&s, 1004), *a = random_bytes(&s, 4 * 1003 + 1), *b = random_bytes(&s, 4 * 1003 + 3);
    CHECK(RUN_ALL(&f, FL, c + 1, a + 1, b + 3, NULL));
    free(c), free(a), free(b);
}

/* Random strides for n dims of sizes s (0 = packed): permuted, gapped, broadcast (inputs). */
static int rand_strides(uint64_t *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_input) {
    const uint32_t mode = (uint32_t)(splitmix64(r) % 10);
    if (mode < 4) return 0;
    uint32_t order[8];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 7)
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = (uint32_t)(splitmix64(r) % d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
    uint64_t next = 1;
    for (uint32_t i = n; i-- > 0;) {
        st[order[i]] = (uint32_t)next;
        next = next * s[order[i]] + (splitmix64(r) % 3 == 0 ? splitmix64(r) % 3 : 0);
    }
    if (is_input && mode == 9)
        for (uint32_t d = 0; d < n; ++d)
            if (splitmix64(r) % 3 == 0) st[d] = 0;
    return 1;
}

KERNELS_CHECKED("element_wise_if.")

/* The fast path writes exactly the oracle's bytes on random cases: every element size,
 * 1-8 dims, random layouts of each tensor (broadcast inputs included), conditions with
 * runs of zeros and any nonzero byte; half of them with a tiny DMLREF_PAR_GRAIN so that
 * 2 threads really split the work. */
TEST(element_wise_if_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[5] = {U8, F16, F32, DMLREF_TENSOR_DATA_TYPE_INT64,
                                                     DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    const uint64_t base_seed = test_seed(20261127);
    uint64_t r = 0;
    int failed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 500 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + (uint32_t)(splitmix64(&r) % 8);
        uint32_t sizes[8], st[4][8];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + (uint32_t)(splitmix64(&r) % (iter % 5 == 0 ? 70 : 5));
            if (total * sizes[d] > 20000) sizes[d] = 1;
            total *= sizes[d];
        }
        int has[4];
        for (int t = 0; t < 4; ++t) has[t] = rand_strides(&r, n, sizes, st[t], t < 3);
        ifix f;
        ifix_init(&f, types[splitmix64(&r) % 5], n, sizes, has[0] ? st[0] : NULL, has[1] ? st[1] : NULL,
                  has[2] ? st[2] : NULL, has[3] ? st[3] : NULL);
        const int tiny = (int)(splitmix64(&r) % 2);
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        unsigned char *c = random_bytes(&r, (size_t)f.c.buf.TotalTensorSizeInBytes);
        unsigned char *a = random_bytes(&r, (size_t)f.a.buf.TotalTensorSizeInBytes);
        unsigned char *b = random_bytes(&r, (size_t)f.b.buf.TotalTensorSizeInBytes);
        const uint32_t zeros = (uint32_t)(splitmix64(&r) % 4); /* 0: random bytes; else runs of zeros and ones */
        for (size_t i = 0; zeros && i < (size_t)f.c.buf.TotalTensorSizeInBytes; ++i)
            c[i] = (unsigned char)((i / (zeros * 7)) % 2 ? c[i] | 1 : 0);
        const int before = test_failures();
        const char *k = NULL;
        RUN_ALL(&f, FL, c, a, b, &k);
        if (k) kernels_note(&seen, k);
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u dims, %s\n", iter, n, tiny ? "grain 64" : "default grain");
        }
        free(c), free(a), free(b);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return;
    CHECK_KERNELS_REACHED(&seen, "element_wise_if.", NULL);
}
