/*
 * UNFOLD (docs/operators.md, UNFOLD): the desc's layout (LP64 and ILP32) and
 * schema, every rule (UF1-UF6) and the feature level, the output_sizes hook, the
 * page's two examples (the output kept 4-D: docs/operators.md §9 item 57), data of every element
 * size through strided, broadcast and gapped views against an independent
 * reference, NaN payloads and -0.0 as bits, and the fast path against the
 * oracle on random cases with 1 and 2 threads (unfold.rows and unfold.gather
 * both reached).
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct ufix {
    tdesc in, out;
    uint32_t w[6], st[6], dil[6], p0[6], p1[6];
    DMLREF_UNFOLD_OPERATOR_DESC u;
    DMLREF_OPERATOR_DESC d;
} ufix;

/* The output's sizes by the spec's formula, computed here independently. */
static void expect_sizes(uint32_t n, const uint32_t *in, uint32_t k, const uint32_t *w, const uint32_t *st,
                         const uint32_t *dil, const uint32_t *p0, const uint32_t *p1, uint32_t *out) {
    uint64_t pw = 1, pb = 1;
    for (uint32_t d = 0; d < k; ++d) {
        pw *= w[d];
        pb *= ((uint64_t)in[2 + d] + p0[d] + p1[d] - (uint64_t)dil[d] * (w[d] - 1) - 1) / st[d] + 1;
    }
    for (uint32_t d = 0; d + 3 < n; ++d) out[d] = 1;
    out[n - 3] = in[0];
    out[n - 2] = (uint32_t)(in[1] * pw);
    out[n - 1] = (uint32_t)pb;
}

/* Input sizes (and strides, NULL = packed), the five arrays (NULL: all 1 for w/st/dil, 0 for
 * pads), the output from the formula with out_strides (NULL = packed). */
static void ufix_init(ufix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes, const uint32_t *in_strides,
                      const uint32_t *w, const uint32_t *st, const uint32_t *dil, const uint32_t *p0,
                      const uint32_t *p1, const uint32_t *out_strides) {
    const uint32_t k = n - 2;
    uint32_t out[8];
    for (uint32_t d = 0; d < k; ++d) {
        f->w[d] = w ? w[d] : 1;
        f->st[d] = st ? st[d] : 1;
        f->dil[d] = dil ? dil[d] : 1;
        f->p0[d] = p0 ? p0[d] : 0;
        f->p1[d] = p1 ? p1[d] : 0;
    }
    expect_sizes(n, sizes, k, f->w, f->st, f->dil, f->p0, f->p1, out);
    tdesc_init(&f->in, dt, n, sizes, in_strides);
    tdesc_init(&f->out, dt, n, out, out_strides);
    f->u = (DMLREF_UNFOLD_OPERATOR_DESC){&f->in.desc, &f->out.desc, k, f->w, f->st, f->dil, f->p0, f->p1};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_UNFOLD, &f->u};
}

static dmlref_status validate(const ufix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

/* DirectML.h: {InputTensor, OutputTensor, UINT DimensionCount, five const UINT *}: 64 bytes on
 * x64, 32 on a 32-bit target. */
TEST(unfold_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_UNFOLD_OPERATOR_DESC), 8 * p); /* 64 on LP64, 32 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, DimensionCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, WindowSizes), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, Strides), 4 * p);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, Dilations), 5 * p);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, StartPadding), 6 * p);
    CHECK_EQ_U64(offsetof(DMLREF_UNFOLD_OPERATOR_DESC, EndPadding), 7 * p);
    if (p == 8) CHECK_EQ_U64(sizeof(DMLREF_UNFOLD_OPERATOR_DESC), 64);
    if (p == 4) CHECK_EQ_U64(sizeof(DMLREF_UNFOLD_OPERATOR_DESC), 32);
}

TEST(unfold_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_UNFOLD);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "UNFOLD") == 0 && strcmp(dmlref_operator_name(DMLREF_OPERATOR_UNFOLD), "UNFOLD") == 0);
    CHECK_EQ_U64(sc->type, 177);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_UNFOLD_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_6_4);
    CHECK_EQ_U64(sc->flags, 0);
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_output);
    CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output);
    CHECK_EQ_U64(sc->n_params, 6);
    static const char *const names[6] = {"DimensionCount", "WindowSizes", "Strides", "Dilations", "StartPadding",
                                         "EndPadding"};
    static const size_t offs[6] = {
        offsetof(DMLREF_UNFOLD_OPERATOR_DESC, DimensionCount), offsetof(DMLREF_UNFOLD_OPERATOR_DESC, WindowSizes),
        offsetof(DMLREF_UNFOLD_OPERATOR_DESC, Strides),        offsetof(DMLREF_UNFOLD_OPERATOR_DESC, Dilations),
        offsetof(DMLREF_UNFOLD_OPERATOR_DESC, StartPadding),   offsetof(DMLREF_UNFOLD_OPERATOR_DESC, EndPadding)};
    for (uint32_t i = 0; i < 6 && i < sc->n_params; ++i) {
        CHECK(strcmp(sc->params[i].name, names[i]) == 0);
        CHECK_EQ_U64(sc->params[i].offset, offs[i]);
        CHECK_EQ_U64(sc->params[i].kind, i == 0 ? DMLREF_PARAM_UINT : DMLREF_PARAM_UINT_ARRAY);
    }
    CHECK(sc->params[0].is_count);
}

TEST(unfold_validation_rules) {
    ufix f;
    dmlref_error err;
    ufix_init(&f, F32, 4, SIZES(1, 1, 5, 5), NULL, SIZES(3, 3), NULL, NULL, NULL, NULL, NULL);
    CHECK_EQ_U64(f.out.sizes[2], 9);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* the operator is new at 6_4 (none below) */
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_6_3, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, NULL);

    /* UF1: same DimensionCount, 3 to 8 */
    tdesc_init(&f.out, F32, DIMS(1, 9, 9));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "UNFOLD: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)", "UF1");
    ufix_init(&f, F32, 3, SIZES(1, 1, 5), NULL, SIZES(2), NULL, NULL, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL); /* 3-D: one spatial dim */
    tdesc_init(&f.in, F32, DIMS(1, 5));
    tdesc_init(&f.out, F32, DIMS(1, 5));
    f.u.DimensionCount = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "UNFOLD: InputTensor.DimensionCount (2)", "UF1");

    /* UF2: same DataType; all 11 accepted */
    ufix_init(&f, F32, 4, SIZES(1, 1, 5, 5), NULL, SIZES(3, 3), NULL, NULL, NULL, NULL, NULL);
    f.out.buf.DataType = F16;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "UNFOLD: OutputTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)", "UF2");
    for (int dt = DMLREF_TENSOR_DATA_TYPE_FLOAT32; dt <= DMLREF_TENSOR_DATA_TYPE_INT8; ++dt) {
        if (dmlref_data_type_size((DMLREF_TENSOR_DATA_TYPE)dt) == 0) continue;
        ufix_init(&f, (DMLREF_TENSOR_DATA_TYPE)dt, 4, SIZES(1, 1, 5, 5), NULL, SIZES(3, 3), NULL, NULL, NULL, NULL, NULL);
        CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    }

    /* UF3: DimensionCount = D - 2, arrays not NULL */
    ufix_init(&f, F32, 4, SIZES(1, 1, 5, 5), NULL, SIZES(3, 3), NULL, NULL, NULL, NULL, NULL);
    f.u.DimensionCount = 4;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "UNFOLD: DimensionCount (4) must equal InputTensor.DimensionCount - 2 = 4 - 2 = 2", "UF3");
    CHECK(strcmp(err.field, "DimensionCount") == 0);
    f.u.DimensionCount = 2;
    f.u.Dilations = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER,
               "UNFOLD: Dilations is NULL (it must hold DimensionCount = 2 entries)", "UF3");
    f.u.Dilations = f.dil;
    f.u.EndPadding = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "UNFOLD: EndPadding is NULL", "UF3");
    f.u.EndPadding = f.p1;

    /* UF4: WindowSizes, Strides, Dilations >= 1 */
    f.st[1] = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "UNFOLD: Strides[1] is 0; every entry must be at least 1", "UF4");
    f.st[1] = 1;
    f.w[0] = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "UNFOLD: WindowSizes[0] is 0", "UF4");
    f.w[0] = 3;
    f.dil[0] = 0;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "UNFOLD: Dilations[0] is 0", "UF4");
    f.dil[0] = 1;

    /* UF5: the dilated window fits the padded input (5 + 0 + 0 < 3 * (3 - 1) + 1 = 7) */
    f.dil[1] = 3;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "UNFOLD: the window of spatial dimension 1 does not fit: InputTensor.Sizes[3] + StartPadding[1] + "
               "EndPadding[1] = 5 is below Dilations[1] * (WindowSizes[1] - 1) + 1 = 7",
               "UF5");
    f.p0[1] = 1;
    f.p1[1] = 1; /* 7: exactly one block */
    tdesc_init(&f.out, F32, DIMS(1, 1, 9, 3));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    /* a huge dilation: the 64-bit product, never wrapped */
    f.dil[1] = 0x80000001u;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "= 4294967299", "UF5");

    /* UF6: the output's Sizes */
    ufix_init(&f, F32, 4, SIZES(2, 3, 5, 6), NULL, SIZES(2, 3), SIZES(2, 1), SIZES(1, 2), SIZES(1, 0), SIZES(0, 2),
              NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(f.out.sizes[0], 1);
    CHECK_EQ_U64(f.out.sizes[1], 2);
    CHECK_EQ_U64(f.out.sizes[2], 18); /* 3 * 2 * 3 */
    CHECK_EQ_U64(f.out.sizes[3], 12); /* B = {(6 - 1 - 1) / 2 + 1, (8 - 4 - 1) / 1 + 1} = {3, 4} */
    tdesc_init(&f.out, F32, DIMS(1, 2, 18, 11));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "UNFOLD: OutputTensor.Sizes[3] (11) must be 12: OutputTensor.Sizes = {1 x (D - 3), N, C * "
               "prod(WindowSizes), prod(blocks)} = {1 x 1, 2, 18, 12}",
               "UF6");
    CHECK(strcmp(err.field, "OutputTensor.Sizes") == 0);
    tdesc_init(&f.out, F32, DIMS(2, 1, 18, 12)); /* the leading 1s are required */
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES, "OutputTensor.Sizes[0] (2) must be 1", "UF6");
    /* products above 2^32 - 1: C * prod(W) (65536 * 65536) and prod(B) */
    ufix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 4, SIZES(1, 65536, 1, 1), NULL, SIZES(256, 256), NULL, NULL,
              SIZES(255, 255), NULL, NULL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(1, 1, 1, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "UNFOLD: InputTensor.Sizes[1] * prod(WindowSizes) (through WindowSizes[1]: 65536 * 65536) is above "
               "2^32 - 1",
               "UF6");
    ufix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 4, SIZES(1, 1, 1, 1), NULL, NULL, NULL, NULL,
              SIZES(0xFFFF0000u, 0x10000u), NULL, NULL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(1, 1, 1, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "UNFOLD: the block count prod(B) (through spatial dimension 1: 4294901761 * 65537) is above 2^32 - 1",
               "UF6");
    ufix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(1, 1, 2), NULL, NULL, NULL, NULL, SIZES(0xFFFFFFFFu),
              SIZES(0xFFFFFFFFu), NULL);
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_UINT8, DIMS(1, 1, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
               "(through spatial dimension 0: 1 * 8589934592) is above 2^32 - 1", "UF6");

    /* the tensor rules: a broadcast input is fine, an overlapping output is not */
    ufix_init(&f, F32, 4, SIZES(1, 2, 3, 3), SIZES(0, 0, 3, 1), SIZES(2, 2), NULL, NULL, NULL, NULL, NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    ufix_init(&f, F32, 4, SIZES(1, 2, 3, 3), NULL, SIZES(2, 2), NULL, NULL, NULL, NULL, SIZES(0, 0, 0, 1));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[2] is 0", "T15");
}

/* dmlref_output_sizes: the same rules, the formula's shape, from the input alone. */
TEST(unfold_output_sizes) {
    ufix f;
    dmlref_error err;
    uint32_t n = 0, s[8] = {0};
    ufix_init(&f, F32, 6, SIZES(2, 3, 4, 5, 6, 7), NULL, SIZES(1, 2, 3, 2), SIZES(1, 2, 3, 1), SIZES(2, 1, 1, 3),
              SIZES(0, 1, 2, 0), SIZES(1, 0, 2, 1), NULL);
    f.u.OutputTensor = NULL;
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, s, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(n, 6);
    for (uint32_t d = 0; d < 6; ++d) CHECK_EQ_U64(s[d], f.out.sizes[d]);
    CHECK_EQ_U64(s[4], 3 * 12);
    f.st[2] = 0;
    CHECK_RULE(dmlref_output_sizes(&f.d, FL, 0, &n, s, &err), err, DMLREF_ERROR_PARAMETER, "UNFOLD: Strides[2] is 0",
               "UF4");
}

/* An independent reference: for each output element (row-major number e), its row r and column l,
 * r = c * prod(W) + k; the window offsets from k and the blocks from l (row-major), the padded
 * coordinate b * stride + k * dilation, the input element copied or zero bytes written. */
static void ref_unfold(const ufix *f, const unsigned char *in, unsigned char *out) {
    const DMLREF_BUFFER_TENSOR_DESC *ib = &f->in.buf, *ob = &f->out.buf;
    const uint32_t n = ib->DimensionCount, k = n - 2, es = dmlref_data_type_size(ib->DataType);
    uint64_t ist[8], ost[8], bl[6], pw = 1, count = 1;
    for (uint32_t d = n, a = 1, b = 1; d-- > 0;) {
        ist[d] = ib->Strides ? ib->Strides[d] : a;
        ost[d] = ob->Strides ? ob->Strides[d] : b;
        a *= ib->Sizes[d];
        b *= ob->Sizes[d];
        count *= ob->Sizes[d];
    }
    for (uint32_t d = 0; d < k; ++d) {
        pw *= f->w[d];
        bl[d] = ((uint64_t)ib->Sizes[2 + d] + f->p0[d] + f->p1[d] - (uint64_t)f->dil[d] * (f->w[d] - 1) - 1) / f->st[d] + 1;
    }
    const uint64_t L = ob->Sizes[n - 1], R = ob->Sizes[n - 2];
    for (uint64_t e = 0; e < count; ++e) {
        const uint64_t l = e % L, r = (e / L) % R, nn = e / L / R;
        uint64_t oo = l * ost[n - 1] + r * ost[n - 2] + nn * ost[n - 3];
        uint64_t io = nn * ist[0] + (r / pw) * ist[1], kk = r % pw, ll = l;
        int zero = 0;
        for (uint32_t d = k; d-- > 0;) {
            const int64_t padded = (int64_t)((ll % bl[d]) * f->st[d] + (kk % f->w[d]) * f->dil[d]);
            const int64_t src = padded - f->p0[d];
            kk /= f->w[d];
            ll /= bl[d];
            if (src < 0 || src >= (int64_t)ib->Sizes[2 + d]) zero = 1;
            else io += (uint64_t)src * ist[2 + d];
        }
        if (zero) memset(out + oo * es, 0, es);
        else memcpy(out + oo * es, in + io * es, es);
    }
}

/* f through the oracle and the fast path (threads 1 and 2) into outputs prefilled with 0xA5,
 * each compared with the reference byte for byte.  *kernel gets the last kernel's name. */
static void run_all_at(const char *file, int line, const ufix *f, const unsigned char *in, const char **kernel) {
    const size_t in_bytes = (size_t)f->in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(out_bytes), *got = malloc(out_bytes);
    if (!want || !got) abort();
    memset(want, 0xA5, out_bytes);
    ref_unfold(f, in, want);
    for (int mode = 0; mode < 3; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        check_status_at(file, line, dmlref_compile(&f->d, FL, &o, &op, &err), &err, DMLREF_OK, NULL);
        if (!op) continue;
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (kernel && mode > 0) *kernel = name;
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
}
#define RUN_ALL(f, in, kernel) run_all_at(__FILE__, __LINE__, (f), (in), (kernel))

static unsigned char *random_bytes(uint64_t *s, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    if (!p) abort();
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)splitmix64(s);
    return p;
}

/* The page's two examples (tests/cases/unfold_doc1.json, unfold_doc2.json): the page prints the
 * outputs 3-D ({1, 9, 9}); UF1 keeps the input's 4 dims, {1, 1, 9, 9} (docs/operators.md §9 item 57). */
TEST(unfold_doc_examples) {
    float in[25];
    for (int i = 0; i < 25; ++i) in[i] = (float)i;
    for (int ex = 0; ex < 2; ++ex) {
        ufix f;
        ufix_init(&f, F32, 4, SIZES(1, 1, 5, 5), NULL, SIZES(3, 3), NULL, NULL, ex ? SIZES(1, 0) : NULL,
                  ex ? SIZES(1, 0) : NULL, NULL);
        const uint32_t L = ex ? 15 : 9;
        CHECK_EQ_U64(f.out.sizes[0], 1);
        CHECK_EQ_U64(f.out.sizes[1], 1);
        CHECK_EQ_U64(f.out.sizes[2], 9);
        CHECK_EQ_U64(f.out.sizes[3], L);
        static const float row0a[9] = {0, 1, 2, 5, 6, 7, 10, 11, 12};
        static const float row0b[15] = {0, 0, 0, 0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17};
        for (int threads = 0; threads <= 2; ++threads)
            for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
                const dmlref_options o = {.flags = flags, .threads = (uint32_t)threads};
                float out[135];
                memset(out, 0xCD, sizeof out);
                dmlref_cbuffer ins[1] = {{in, sizeof in}};
                dmlref_buffer outs[1] = {{out, 9 * L * sizeof(float)}};
                dmlref_error err;
                CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
                if (ex == 0) CHECK_MEM(out, row0a, sizeof row0a);
                else {
                    CHECK_MEM(out, row0b, sizeof row0b);
                    /* row 8 (window offset (2, 2)) ends with three zeros: rows 5 and 6 of the padded input */
                    const float end8[3] = {0, 0, 0}, mid8[3] = {22, 23, 24};
                    CHECK_MEM(out + 8 * 15 + 12, end8, sizeof end8);
                    CHECK_MEM(out + 8 * 15 + 9, mid8, sizeof mid8);
                }
                /* row 4 (the window's centre) is the input where no padding is read */
                if (ex == 0) CHECK(out[4 * 9 + 0] == 6 && out[4 * 9 + 8] == 18);
            }
    }
}

/* Every element size, strided/broadcast inputs and gapped outputs, against the reference. */
TEST(unfold_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, F16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    uint64_t r = 7;
    for (int t = 0; t < 4; ++t) {
        ufix f;
        const char *k = NULL;
        /* packed, 2 spatial dims, stride 1: unfold.rows */
        ufix_init(&f, types[t], 4, SIZES(2, 3, 5, 7), NULL, SIZES(3, 2), NULL, SIZES(1, 2), SIZES(1, 2), SIZES(2, 1),
                  NULL);
        unsigned char *in = random_bytes(&r, (size_t)f.in.buf.TotalTensorSizeInBytes);
        RUN_ALL(&f, in, &k);
        CHECK(k && strcmp(k, "unfold.rows") == 0);
        free(in);
        /* a permuted, gapped input; a broadcast channel; a gapped output; strides 2: unfold.gather */
        ufix_init(&f, types[t], 5, SIZES(2, 2, 3, 4, 3), SIZES(1, 0, 24, 6, 2), SIZES(2, 2, 2), SIZES(2, 1, 3),
                  SIZES(1, 2, 1), SIZES(1, 0, 1), SIZES(0, 1, 1), SIZES(8000, 4000, 1000, 1, 20));
        in = random_bytes(&r, (size_t)f.in.buf.TotalTensorSizeInBytes);
        RUN_ALL(&f, in, &k);
        CHECK(k && strcmp(k, "unfold.gather") == 0);
        free(in);
    }
}

/* Elements are moved as bits: NaN payloads (quiet and signalling, either sign), -0.0; the padding
 * is all-zero bits (+0.0). */
TEST(unfold_nan_payloads_and_negative_zero) {
    ufix f;
    dmlref_error err;
    ufix_init(&f, F32, 3, SIZES(1, 1, 4), NULL, SIZES(2), NULL, NULL, SIZES(1), SIZES(1), NULL);
    const uint32_t in[4] = {0x7fc01234u, 0x80000000u, 0x7f800001u, 0xffa00005u};
    /* window 2 over {0, in..., 0}: blocks 0..4; row 0 reads padded[b], row 1 padded[b + 1] */
    const uint32_t want[10] = {0, in[0], in[1], in[2], in[3], in[0], in[1], in[2], in[3], 0};
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags, .threads = 0};
        uint32_t out[10];
        memset(out, 0xCD, sizeof out);
        dmlref_cbuffer ins[1] = {{in, sizeof in}};
        dmlref_buffer outs[1] = {{out, sizeof out}};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(out, want, sizeof want);
    }
    ufix_init(&f, F16, 3, SIZES(1, 1, 3), NULL, NULL, SIZES(2), NULL, SIZES(1), NULL, NULL);
    const uint16_t h[4] = {0x7e01u, 0x8000u, 0xfc01u, 0}; /* 3 elements, the buffer rounded up to 4 bytes */
    const uint16_t hwant[2] = {0, 0x8000u};               /* padded {0, h0, h1, h2}, stride 2 */
    uint16_t hout[2] = {0xCDCD, 0xCDCD};
    dmlref_cbuffer hin[1] = {{h, sizeof h}};
    dmlref_buffer houts[1] = {{hout, sizeof hout}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, hin, 1, houts, 1, &err), err, DMLREF_OK, NULL);
    CHECK_MEM(hout, hwant, sizeof hwant);
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("unfold.")

/* A random case: half of the time with a tiny DMLREF_PAR_GRAIN (2 threads really split the
 * work), random input bytes, RUN_ALL.  *kernel: the fast path's name; *tiny: which grain; 1 when
 * the case failed. */
static int run_random(const ufix *f, uint64_t *r, const char **kernel, int *tiny) {
    *tiny = (int)(splitmix64(r) % 2);
    if (*tiny) {
        setenv("DMLREF_PAR_GRAIN", "64", 1);
        env_reload();
    }
    unsigned char *in = random_bytes(r, (size_t)f->in.buf.TotalTensorSizeInBytes);
    const int before = test_failures();
    *kernel = NULL;
    RUN_ALL(f, in, kernel);
    free(in);
    if (*tiny) {
        unsetenv("DMLREF_PAR_GRAIN");
        env_reload();
    }
    return test_failures() != before;
}

/* The fast path writes exactly the oracle's bytes on random cases: every element size, 1 to 6
 * spatial dims, windows, strides, dilations and paddings, random layouts; half of them with a
 * tiny DMLREF_PAR_GRAIN so that 2 threads really split the rows. */
TEST(unfold_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[5] = {DMLREF_TENSOR_DATA_TYPE_UINT8, F16, F32,
                                                     DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    const uint64_t base_seed = test_seed(20261127);
    uint64_t r = 0;
    int failed = 0, rows = 0, gather = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 500 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t k = 1 + (uint32_t)(splitmix64(&r) % (iter % 3 ? 2 : 6)), n = k + 2;
        uint32_t sizes[8], w[6], st[6], dil[6], p0[6], p1[6], ist[8], ost[8];
        uint64_t total = 1;
        sizes[0] = 1 + (uint32_t)(splitmix64(&r) % 3);
        sizes[1] = 1 + (uint32_t)(splitmix64(&r) % 3);
        for (uint32_t d = 0; d < k; ++d) {
            sizes[2 + d] = 1 + (uint32_t)(splitmix64(&r) % (k <= 2 ? 9 : 3));
            w[d] = 1 + (uint32_t)(splitmix64(&r) % 3);
            st[d] = splitmix64(&r) % 3 ? 1 : 2 + (uint32_t)(splitmix64(&r) % 2);
            dil[d] = 1 + (uint32_t)(splitmix64(&r) % 2);
            p0[d] = (uint32_t)(splitmix64(&r) % 3);
            p1[d] = (uint32_t)(splitmix64(&r) % 3);
            if ((uint64_t)sizes[2 + d] + p0[d] + p1[d] < (uint64_t)dil[d] * (w[d] - 1) + 1) w[d] = 1;
            total *= w[d] * (sizes[2 + d] + p0[d] + p1[d]);
            if (total > 4000) w[d] = 1, sizes[2 + d] = 1, p0[d] = p1[d] = 0;
        }
        ufix f;
        ufix_init(&f, types[splitmix64(&r) % 5], n, sizes, NULL, w, st, dil, p0, p1, NULL);
        /* strided layouts now and then: a reversed-order input with a gap, gapped output rows
         * and batches */
        if (splitmix64(&r) % 3 == 0) {
            uint64_t s = 1;
            for (uint32_t d = 0; d < n; ++d) {
                ist[d] = (uint32_t)s;
                s *= sizes[d] + (d == 0);
            }
            tdesc_init(&f.in, f.in.buf.DataType, n, sizes, ist);
        }
        if (splitmix64(&r) % 3 == 0) {
            uint32_t os[8];
            uint64_t s = 1;
            memcpy(os, f.out.sizes, sizeof os);
            for (uint32_t d = n; d-- > 0;) {
                ost[d] = (uint32_t)s;
                s *= os[d] + (d == n - 1 || d == n - 2);
            }
            tdesc_init(&f.out, f.out.buf.DataType, n, os, ost);
        }
        f.u.InputTensor = &f.in.desc;
        f.u.OutputTensor = &f.out.desc;
        if (splitmix64(&r) % 5 == 0) f.out.buf.TotalTensorSizeInBytes += 8; /* a tail nobody addresses */
        const char *kn;
        int tiny;
        const int bad = run_random(&f, &r, &kn, &tiny);
        if (kn) kernels_note(&seen, kn);
        if (kn && strcmp(kn, "unfold.rows") == 0) ++rows;
        else if (kn && strcmp(kn, "unfold.gather") == 0) ++gather;
        if (bad) {
            ++failed;
            fprintf(stderr, "  case %d: %u spatial dims, %s\n", iter, k, tiny ? "grain 64" : "default grain");
        }
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    if (rows < 50 || gather < 50) test_fail(__FILE__, __LINE__, "unfold.rows ran %d cases, unfold.gather %d", rows, gather);
    CHECK_KERNELS_REACHED(&seen, "unfold.", NULL); /* every unfold.* kernel of src/ops/kernels.def */
}

/* Images without padding whose blocks are 4 to 16 bytes (the fast path's one-table copy of
 * whole blocks, which the random cases above reach only when all four paddings are 0): every
 * element size at every block width it allows, windows, strides and dilations of the first
 * dim, 1 to 3 batches and channels, gapped layouts, 2 threads splitting the images; and now
 * and then an image of more blocks than the table takes (the other path). */
TEST(unfold_small_images_match_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, F16, F32, DMLREF_TENSOR_DATA_TYPE_UINT64};
    const uint64_t base_seed = test_seed(20261128);
    int failed = 0;
    for (int iter = 0; iter < 300 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        uint64_t r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const DMLREF_TENSOR_DATA_TYPE dt = types[splitmix64(&r) % 4];
        const uint32_t es = dmlref_data_type_size(dt), bmin = (4 + es - 1) / es, bmax = 16 / es;
        uint32_t sizes[4], w[2], st[2] = {1, 1}, dil[2], ist[4];
        sizes[0] = 1 + (uint32_t)(splitmix64(&r) % 3);
        sizes[1] = 1 + (uint32_t)(splitmix64(&r) % 3);
        w[0] = 1 + (uint32_t)(splitmix64(&r) % 3);
        w[1] = 1 + (uint32_t)(splitmix64(&r) % 3);
        dil[0] = 1 + (uint32_t)(splitmix64(&r) % 2);
        dil[1] = 1 + (uint32_t)(splitmix64(&r) % 2);
        st[0] = 1 + (uint32_t)(splitmix64(&r) % 3);
        sizes[2] = dil[0] * (w[0] - 1) + 1 + (uint32_t)(splitmix64(&r) % (iter % 25 == 0 ? 1200 : 8));
        sizes[3] = dil[1] * (w[1] - 1) + bmin + (uint32_t)(splitmix64(&r) % (bmax - bmin + 1)); /* B_1 = bmin .. bmax */
        ufix f;
        ufix_init(&f, dt, 4, sizes, NULL, w, st, dil, NULL, NULL, NULL);
        if (splitmix64(&r) % 3 == 0) { /* gapped input rows and channels (the innermost dim packed) */
            uint64_t s = 1;
            for (uint32_t d = 4; d-- > 0;) {
                ist[d] = (uint32_t)s;
                s *= sizes[d] + (d == 3 || d == 1 ? 1 + (uint32_t)(splitmix64(&r) % 5) : 0);
            }
            tdesc_init(&f.in, dt, 4, sizes, ist);
        }
        if (splitmix64(&r) % 3 == 0) { /* gapped output rows and batches */
            uint32_t os[4], ost[4];
            uint64_t s = 1;
            memcpy(os, f.out.sizes, sizeof os);
            for (uint32_t d = 4; d-- > 0;) {
                ost[d] = (uint32_t)s;
                s *= os[d] + (d >= 2);
            }
            tdesc_init(&f.out, dt, 4, os, ost);
        }
        f.u.InputTensor = &f.in.desc;
        f.u.OutputTensor = &f.out.desc;
        const char *kn;
        int tiny;
        int bad = run_random(&f, &r, &kn, &tiny);
        if (kn && strcmp(kn, "unfold.rows") != 0) {
            test_fail(__FILE__, __LINE__, "case %d ran %s, not unfold.rows", iter, kn);
            bad = 1;
        }
        if (bad) {
            ++failed;
            fprintf(stderr, "  case %d: %s, input %ux%ux%ux%u, %s\n", iter, dmlref_data_type_name(dt), sizes[0], sizes[1],
                    sizes[2], sizes[3], tiny ? "grain 64" : "default grain");
        }
    }
}
