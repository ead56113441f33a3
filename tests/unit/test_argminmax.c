/*
 * ARGMIN and ARGMAX (docs/operators.md, ARGMIN / ARGMAX): the descs' layout and schemas,
 * every rule (AM1-AM7) at the feature levels where it differs, output_sizes, the page's
 * examples (tests/cases/argm*_doc*.json too), NaN (several payloads, either sign: a NaN
 * wins in both operators, the direction picks among NaNs), +-0 ties, +-Inf, axes listed out
 * of order, every input type and the four output types, and the fast path against an
 * independent reference (values compared as doubles / integers, not through the library's
 * order keys) on random cases: strided, gapped, broadcast and permuted layouts, all-equal
 * rows, with 1 and 2 threads; every argminmax.* kernel reached.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "simd/simd.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define F64 DMLREF_TENSOR_DATA_TYPE_FLOAT64
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define I16 DMLREF_TENSOR_DATA_TYPE_INT16
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define U16 DMLREF_TENSOR_DATA_TYPE_UINT16
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define FL DMLREF_FEATURE_LEVEL_6_4
#define INC DMLREF_AXIS_DIRECTION_INCREASING
#define DEC DMLREF_AXIS_DIRECTION_DECREASING

typedef struct afix {
    tdesc in, out;
    uint32_t axes[8];
    DMLREF_ARGMAX_OPERATOR_DESC a; /* ARGMIN's desc is field for field the same */
    DMLREF_ARGMIN_OPERATOR_DESC b;
    DMLREF_OPERATOR_DESC d;
    int is_max;
} afix;

/* The fixture's desc for ARGMAX (is_max) or ARGMIN; call again after changing a field. */
static void afix_bind(afix *f) {
    f->b.InputTensor = f->a.InputTensor = &f->in.desc;
    f->b.OutputTensor = f->a.OutputTensor = &f->out.desc;
    f->b.Axes = f->a.Axes;
    f->b.AxisCount = f->a.AxisCount;
    f->b.AxisDirection = f->a.AxisDirection;
    f->d = f->is_max ? (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ARGMAX, &f->a}
                     : (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ARGMIN, &f->b};
}

static void afix_init(afix *f, int is_max, DMLREF_TENSOR_DATA_TYPE dt, DMLREF_TENSOR_DATA_TYPE ot, uint32_t n,
                      const uint32_t *in, const uint32_t *in_st, const uint32_t *axes, uint32_t k,
                      const uint32_t *out_st, uint32_t dir) {
    uint32_t out[8];
    memset(f, 0, sizeof *f);
    for (uint32_t d = 0; d < n; ++d) out[d] = in[d];
    for (uint32_t i = 0; i < k; ++i) {
        f->axes[i] = axes[i];
        if (axes[i] < n) out[axes[i]] = 1;
    }
    tdesc_init(&f->in, dt, n, in, in_st);
    tdesc_init(&f->out, ot, n, out, out_st);
    f->is_max = is_max;
    f->a.Axes = f->axes;
    f->a.AxisCount = k;
    f->a.AxisDirection = (DMLREF_AXIS_DIRECTION)dir;
    afix_bind(f);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(argminmax_desc_layout) {
    const size_t p = sizeof(void *);
    /* LP64: 0, 8, 16, 24, 32, size 40 (the header's, Q0.1); ILP32: 0, 4, 8, 12, 16, size 20 */
    CHECK_EQ_U64(sizeof(DMLREF_ARGMIN_OPERATOR_DESC), p == 8 ? 40 : 20);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMIN_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMIN_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMIN_OPERATOR_DESC, AxisCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMIN_OPERATOR_DESC, Axes), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMIN_OPERATOR_DESC, AxisDirection), 4 * p);
    CHECK_EQ_U64(sizeof(DMLREF_ARGMAX_OPERATOR_DESC), sizeof(DMLREF_ARGMIN_OPERATOR_DESC));
    CHECK_EQ_U64(offsetof(DMLREF_ARGMAX_OPERATOR_DESC, AxisCount), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMAX_OPERATOR_DESC, Axes), 3 * p);
    CHECK_EQ_U64(offsetof(DMLREF_ARGMAX_OPERATOR_DESC, AxisDirection), 4 * p);
    CHECK_EQ_U64(DMLREF_OPERATOR_ARGMIN, 137);
    CHECK_EQ_U64(DMLREF_OPERATOR_ARGMAX, 138);
}

TEST(argminmax_schema) {
    for (int m = 0; m < 2; ++m) {
        const dmlref_schema *sc = dmlref_operator_schema(m ? DMLREF_OPERATOR_ARGMAX : DMLREF_OPERATOR_ARGMIN);
        CHECK(sc != NULL);
        if (!sc) return;
        CHECK(strcmp(sc->name, m ? "ARGMAX" : "ARGMIN") == 0);
        CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_3_0);
        CHECK_EQ_U64(sc->n_slots, 2);
        CHECK(strcmp(sc->slots[0].name, "InputTensor") == 0 && !sc->slots[0].is_index);
        CHECK(strcmp(sc->slots[1].name, "OutputTensor") == 0 && sc->slots[1].is_output && sc->slots[1].is_index);
        CHECK_EQ_U64(sc->n_params, 3);
        CHECK(strcmp(sc->params[0].name, "AxisCount") == 0);
        CHECK(strcmp(sc->params[1].name, "Axes") == 0 && sc->params[1].kind == DMLREF_PARAM_UINT_ARRAY);
        CHECK(strcmp(sc->params[2].name, "AxisDirection") == 0 && sc->params[2].kind == DMLREF_PARAM_ENUM);
    }
}

TEST(argminmax_validation_rules) {
    afix f;
    dmlref_error err;
    for (int m = 0; m < 2; ++m) {
        const char *O = m ? "ARGMAX" : "ARGMIN";
        char msg[200];
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
        snprintf(msg, sizeof msg, "%s: not available at feature level 2_1 (introduced in 3_0)", O);
        CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR, msg,
                   "");

        /* AM2: T8 at 3_0, T10 (64-bit integers) from 4_1, never FLOAT64 */
        afix_init(&f, m, I64, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                   "InputTensor.DataType (INT64) is not supported at feature level 4_0", "AM2");
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
        afix_init(&f, m, U64, U32, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);
        afix_init(&f, m, F64, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "InputTensor.DataType (FLOAT64) is not supported",
                   "AM2");
        afix_init(&f, m, I8, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);

        /* AM3: the output an index type, at every level */
        afix_init(&f, m, F32, F32, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "OutputTensor.DataType (FLOAT32) is not supported at feature level 6_4 (allowed: UINT32 INT32 UINT64 INT64)", "AM3");
        afix_init(&f, m, F32, I16, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        CHECK_RULE(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_ERROR_DATA_TYPE,
                   "OutputTensor.DataType (INT16) is not supported", "AM3");
        static const DMLREF_TENSOR_DATA_TYPE ots[4] = {I64, I32, U64, U32};
        for (int k = 0; k < 4; ++k) {
            afix_init(&f, m, F16, ots[k], 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
            CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
        }

        /* AM1: same DimensionCount, 1 to 8 */
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        tdesc_init(&f.out, I64, DIMS(1, 3, 1));
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT, "OutputTensor", "AM1");
        afix_init(&f, m, F32, I64, 8, SIZES(1, 2, 1, 2, 1, 2, 1, 3), NULL, SIZES(7, 0), 2, NULL, DEC);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
        afix_init(&f, m, F32, I64, 1, SIZES(5), NULL, SIZES(0), 1, NULL, INC);
        CHECK_STATUS(dmlref_validate(&f.d, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);

        /* AM4: AxisCount, Axes */
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        f.a.AxisCount = 0;
        afix_bind(&f);
        snprintf(msg, sizeof msg, "%s: AxisCount (0) must be in [1, InputTensor.DimensionCount] = [1, 2]", O);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_PARAMETER, msg, "AM4");
        f.a.AxisCount = 3;
        afix_bind(&f);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_PARAMETER, "AxisCount (3) must be in [1,", "AM4");
        f.a.AxisCount = 1;
        f.a.Axes = NULL;
        afix_bind(&f);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "Axes is NULL", "AM4");
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(2), 1, NULL, INC);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_PARAMETER,
                   "Axes[0] (2) must be in [0, InputTensor.DimensionCount) = [0, 2)", "AM4");
        afix_init(&f, m, F32, I64, 3, SIZES(3, 4, 2), NULL, SIZES(2, 0, 2), 3, NULL, INC);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_PARAMETER,
                   "Axes[2] (2) repeats an earlier axis; the axes must be distinct", "AM4");
        afix_init(&f, m, F32, I64, 3, SIZES(3, 4, 2), NULL, SIZES(2, 0, 1), 3, NULL, INC); /* any order */
        CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);

        /* AM5: 1 on the reduced axes, Input's elsewhere */
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, INC);
        tdesc_init(&f.out, I64, DIMS(3, 4));
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_SIZES,
                   "OutputTensor.Sizes {3,4} must equal InputTensor.Sizes with 1 on the Axes, {3,1}", "AM5");
        tdesc_init(&f.out, I64, DIMS(1, 4));
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_SIZES, "(they differ at dimension 0)", "AM5");

        /* AM6: AxisDirection */
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, NULL, 2);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_PARAMETER,
                   "AxisDirection (2) must be INCREASING (0) or DECREASING (1)", "AM6");

        /* AM7: INT32 holds every index up to 2^31 - 1 (a broadcast input of 2^31 + 1 elements) */
        afix_init(&f, m, F32, I32, 1, SIZES(0x80000001u), SIZES(0), SIZES(0), 1, NULL, INC);
        snprintf(msg, sizeof msg,
                 "%s: OutputTensor.DataType INT32 cannot hold every index: the reduced element count (2147483649) "
                 "is above 2^31",
                 O);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_DATA_TYPE, msg, "AM7");
        afix_init(&f, m, F32, U32, 1, SIZES(0x80000001u), SIZES(0), SIZES(0), 1, NULL, INC);
        CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);
        afix_init(&f, m, F32, I32, 2, SIZES(0x80000001u, 1), SIZES(0, 1), SIZES(1), 1, NULL, INC); /* not reduced */
        CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);
        afix_init(&f, m, F32, I32, 1, SIZES(0x80000000u), SIZES(0), SIZES(0), 1, NULL, INC); /* 2^31: ok */
        CHECK_STATUS(dmlref_validate(&f.d, FL, &err), err, DMLREF_OK, NULL);

        /* the tensor rules: output elements may not share memory */
        afix_init(&f, m, F32, I64, 2, SIZES(3, 4), NULL, SIZES(1), 1, SIZES(0, 1), INC);
        CHECK_RULE(dmlref_validate(&f.d, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0",
                   "T15");
    }
}

TEST(argminmax_output_sizes) {
    afix f;
    dmlref_error err;
    uint32_t n = 0, s[8] = {0};
    afix_init(&f, 1, F32, I64, 4, SIZES(2, 3, 4, 5), NULL, SIZES(3, 1), 2, NULL, INC);
    f.a.OutputTensor = NULL;
    f.d.Desc = &f.a;
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, s, &err), err, DMLREF_OK, NULL);
    CHECK_EQ_U64(n, 4);
    CHECK(s[0] == 2 && s[1] == 1 && s[2] == 4 && s[3] == 1);
    f.axes[1] = 3;
    CHECK_RULE(dmlref_output_sizes(&f.d, FL, 0, &n, s, &err), err, DMLREF_ERROR_PARAMETER,
               "ARGMAX: Axes[1] (3) repeats an earlier axis", "AM4");
}

/* ---- an independent reference ------------------------------------------------------- */

static double f16_value(uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return h & 0x8000 ? -v : v;
}

/* From the bits (no float conversion: exact whatever the FPU's DAZ/FTZ modes). */
static double f32_value(uint32_t b) {
    const int e = (b >> 23) & 255;
    const uint32_t m = b & 0x7FFFFF;
    const double v = e == 0 ? ldexp(m, -149) : e == 255 ? (m ? NAN : INFINITY) : ldexp(0x800000 + m, e - 150);
    return b >> 31 ? -v : v;
}

/* Element value: is_nan, and a double (floats) or an int64/uint64 rank. */
typedef struct val {
    int nan;
    double f;
    int64_t i;
    uint64_t u;
} val;

static val read_val(DMLREF_TENSOR_DATA_TYPE dt, const unsigned char *p) {
    val v = {0, 0, 0, 0};
    switch (dt) {
    case F32: { uint32_t b; memcpy(&b, p, 4); v.f = f32_value(b); v.nan = isnan(v.f); break; }
    case F16: { uint16_t h; memcpy(&h, p, 2); v.f = f16_value(h); v.nan = isnan(v.f); break; }
    case I8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case I16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case I32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case I64: { int64_t x; memcpy(&x, p, 8); v.i = x; break; }
    case U8: { uint8_t x; memcpy(&x, p, 1); v.u = x; break; }
    case U16: { uint16_t x; memcpy(&x, p, 2); v.u = x; break; }
    case U32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    default: memcpy(&v.u, p, 8); break;
    }
    return v;
}

/* -1, 0, 1: a below, equal to, above b in ARGMAX's order (a NaN above everything). */
static int cmp_val(DMLREF_TENSOR_DATA_TYPE dt, val a, val b) {
    if (dt == F32 || dt == F16) {
        if (a.nan || b.nan) return a.nan - b.nan;
        return (a.f > b.f) - (a.f < b.f); /* -0 == +0 */
    }
    if (dt == I8 || dt == I16 || dt == I32 || dt == I64) return (a.i > b.i) - (a.i < b.i);
    return (a.u > b.u) - (a.u < b.u);
}

static uint64_t elem_offset(const tdesc *t, const uint32_t *c) {
    uint64_t off = 0, acc = 1;
    for (uint32_t d = t->buf.DimensionCount; d-- > 0;) {
        off += (uint64_t)c[d] * (t->buf.Strides ? t->buf.Strides[d] : acc);
        acc *= t->sizes[d];
    }
    return off * dmlref_data_type_size(t->buf.DataType);
}

static int next_coord(const uint32_t *sizes, uint32_t n, uint32_t *c) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

static void reference(const afix *f, const unsigned char *in, unsigned char *out) {
    const uint32_t n = f->in.buf.DimensionCount;
    const DMLREF_TENSOR_DATA_TYPE dt = f->in.buf.DataType;
    const int last = f->a.AxisDirection == DEC;
    uint32_t red[8], nr = 0, rs[8], oc[8] = {0};
    for (uint32_t d = 0; d < n; ++d) /* the reduced axes in increasing order */
        for (uint32_t k = 0; k < f->a.AxisCount; ++k)
            if (f->axes[k] == d) {
                red[nr] = d;
                rs[nr++] = f->in.sizes[d];
            }
    do {
        uint32_t rc[8] = {0}, c[8];
        uint64_t j = 0, at = 0;
        val best = {0, 0, 0, 0};
        do {
            memcpy(c, oc, sizeof c);
            for (uint32_t k = 0; k < nr; ++k) c[red[k]] = rc[k];
            const val v = read_val(dt, in + elem_offset(&f->in, c));
            int s = j == 0 ? 1 : cmp_val(dt, v, best);
            if (!f->is_max && j && !v.nan && !best.nan) s = -s; /* a NaN wins in both */
            if (j == 0 || s > 0 || (last && s == 0)) {
                best = v;
                at = j;
            }
            ++j;
        } while (next_coord(rs, nr, rc));
        unsigned char *o = out + elem_offset(&f->out, oc);
        if (dmlref_data_type_size(f->out.buf.DataType) == 8) memcpy(o, &at, 8);
        else {
            const uint32_t v32 = (uint32_t)at;
            memcpy(o, &v32, 4);
        }
    } while (next_coord(f->out.sizes, n, oc));
}

/* Oracle and fast path (1 and 2 threads, tiny grain) against the reference, gaps kept. */
static int run_all(afix *f, const unsigned char *in, kernels_seen *seen) {
    const size_t ib = (size_t)f->in.buf.TotalTensorSizeInBytes, ob = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(ob), *got = malloc(ob);
    if (!want || !got) abort();
    memset(want, 0xCD, ob);
    reference(f, in, want);
    int ok = 1;
    /* mode 0 the oracle, 1 the fast path, 2 with a tiny grain, 3 with 2 threads, 4 mode 1 with
     * the baseline kernels only (no AVX2 pass 1 where the CPU has AVX2) */
    for (int mode = 0; mode < 5; ++mode) {
        const dmlref_options o = {.flags = mode == 0   ? DMLREF_OPTION_FORCE_ORACLE
                                           : mode == 4 ? DMLREF_OPTION_BASELINE_ISA
                                                       : 0,
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
        const char *name = dmlref_kernel_name(op);
        if (mode == 4 && !strcmp(name, "argminmax.rows_f32.avx2")) test_fail(__FILE__, __LINE__, "DMLREF_OPTION_BASELINE_ISA ran %s", name);

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

/* ---- the page's examples ---------------------------------------------------------- */

/* tests/cases/argmin_doc_*.json, argmax_doc_*.json: Input {3,3} [[1,2,3],[3,0,4],[2,5,2]],
 * INCREASING; ARGMIN Axes {0} -> [[0,1,2]], {1} -> [[0],[1],[0]], {0,1} -> [[4]]; ARGMAX
 * [[1,2,1]], [[2],[2],[1]], [[7]]; {1,0} gives what {0,1} gives. */
TEST(argminmax_doc_examples) {
    const float x[9] = {1, 2, 3, 3, 0, 4, 2, 5, 2};
    static const uint64_t want[2][4][3] = {{{0, 1, 2}, {0, 1, 0}, {4}, {4}}, {{1, 2, 1}, {2, 2, 1}, {7}, {7}}};
    static const uint32_t axes[4][2] = {{0}, {1}, {0, 1}, {1, 0}};
    for (int m = 0; m < 2; ++m)
        for (int k = 0; k < 4; ++k) {
            afix f;
            afix_init(&f, m, F32, U64, 2, SIZES(3, 3), NULL, axes[k], k >= 2 ? 2 : 1, NULL, INC);
            uint64_t out[3];
            memset(out, 0xCD, sizeof out);
            const dmlref_cbuffer ins[1] = {{x, sizeof x}};
            const dmlref_buffer outs[1] = {{out, (size_t)f.out.buf.TotalTensorSizeInBytes}};
            dmlref_error err;
            CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_3_0, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK,
                         NULL);
            CHECK_MEM(out, want[m][k], (size_t)f.out.buf.TotalTensorSizeInBytes);
            CHECK(run_all(&f, (const unsigned char *)x, NULL));
        }
    /* argmin({1,2,3,2,1}) = 0 (INCREASING) / 4 (DECREASING) */
    const int32_t v[5] = {1, 2, 3, 2, 1};
    for (uint32_t dir = 0; dir < 2; ++dir) {
        afix f;
        afix_init(&f, 0, I32, I32, 1, SIZES(5), NULL, SIZES(0), 1, NULL, dir);
        int32_t out = -1;
        const dmlref_cbuffer ins[1] = {{v, sizeof v}};
        const dmlref_buffer outs[1] = {{&out, 4}};
        dmlref_error err;
        CHECK_STATUS(dmlref_run(&f.d, DMLREF_FEATURE_LEVEL_3_0, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        CHECK_EQ_I64(out, dir ? 4 : 0);
        CHECK(run_all(&f, (const unsigned char *)v, NULL));
    }
}

/* One row through every kernel (rows of 1, 9 and 40 elements: scalar tails and vectors), and
 * the same values as the columns of an {n, 5} input. */
static void one_row(int is_max, DMLREF_TENSOR_DATA_TYPE dt, const void *row, uint32_t n, uint32_t dir, uint64_t want) {
    afix f;
    afix_init(&f, is_max, dt, I64, 1, SIZES(n), NULL, SIZES(0), 1, NULL, dir);
    uint64_t out = 99;
    const dmlref_cbuffer ins[1] = {{row, (size_t)f.in.buf.TotalTensorSizeInBytes}};
    const dmlref_buffer outs[1] = {{&out, 8}};
    dmlref_error err;
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    if (out != want)
        test_fail(__FILE__, __LINE__, "%s type %d dir %u n %u: got %llu, want %llu", is_max ? "ARGMAX" : "ARGMIN",
                  (int)dt, dir, n, (unsigned long long)out, (unsigned long long)want);
    CHECK(run_all(&f, row, NULL));
    /* the same values down each column of an {n, 5} input: the columns kernels */
    const uint32_t es = dmlref_data_type_size(dt);
    unsigned char *col = malloc((size_t)n * 5 * es);
    if (!col) abort();
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t c = 0; c < 5; ++c) memcpy(col + ((size_t)i * 5 + c) * es, (const unsigned char *)row + (size_t)i * es, es);
    afix g;
    afix_init(&g, is_max, dt, I64, 2, SIZES(n, 5), NULL, SIZES(0), 1, NULL, dir);
    uint64_t cols[5] = {99, 99, 99, 99, 99};
    const dmlref_cbuffer cins[1] = {{col, (size_t)g.in.buf.TotalTensorSizeInBytes}};
    const dmlref_buffer couts[1] = {{cols, sizeof cols}};
    CHECK_STATUS(dmlref_run(&g.d, FL, NULL, cins, 1, couts, 1, &err), err, DMLREF_OK, NULL);
    for (int c = 0; c < 5; ++c)
        if (cols[c] != want)
            test_fail(__FILE__, __LINE__, "column %d: %s type %d dir %u n %u: got %llu, want %llu", c,
                      is_max ? "ARGMAX" : "ARGMIN", (int)dt, dir, n, (unsigned long long)cols[c], (unsigned long long)want);
    CHECK(run_all(&g, col, NULL));
    free(col);
}

/* NaN wins (several payloads, either sign, signalling), the direction picks among NaNs;
 * +-0 tie; +-Inf; the same row as a column (columns kernels). */
TEST(argminmax_nan_zero_inf) {
    uint32_t r[40];
    for (uint32_t i = 0; i < 40; ++i) r[i] = 0x3F800000u; /* 1.0 */
    r[3] = 0x7FC00001u;  /* NaN payload 1 */
    r[17] = 0xFFC00000u; /* -NaN */
    r[31] = 0x7F800001u; /* signalling */
    r[5] = 0x7F800000u;  /* +Inf */
    r[6] = 0xFF800000u;  /* -Inf */
    for (int m = 0; m < 2; ++m) {
        one_row(m, F32, r, 40, INC, 3);
        one_row(m, F32, r, 40, DEC, 31);
        one_row(m, F32, r, 9, DEC, 3);
    }
    r[3] = r[17] = r[31] = 0x3F800000u;
    one_row(1, F32, r, 40, INC, 5);
    one_row(0, F32, r, 40, DEC, 6);
    for (uint32_t i = 0; i < 40; ++i) r[i] = i % 3 ? 0x80000000u : 0; /* -0 and +0 */
    for (int m = 0; m < 2; ++m) {
        one_row(m, F32, r, 40, INC, 0);
        one_row(m, F32, r, 40, DEC, 39);
    }
    r[20] = 0x80000001u; /* the smallest negative subnormal */
    one_row(0, F32, r, 40, INC, 20);
    one_row(1, F32, r, 40, DEC, 39);
    uint16_t h[40];
    for (uint32_t i = 0; i < 40; ++i) h[i] = i % 2 ? 0x8000u : 0x0000u;
    h[11] = 0x7E01u;
    h[12] = 0xFC01u;
    h[35] = 0x7C01u;
    for (int m = 0; m < 2; ++m) {
        one_row(m, F16, h, 40, INC, 11);
        one_row(m, F16, h, 40, DEC, 35);
    }
    h[11] = h[12] = h[35] = 0;
    h[7] = 0xFC00u; /* -Inf */
    h[8] = 0x7C00u;
    one_row(0, F16, h, 40, INC, 7);
    one_row(1, F16, h, 40, DEC, 8);
    one_row(1, F16, h, 1, DEC, 0);
    /* integers at their extremes */
    int32_t s[9] = {5, INT32_MIN, INT32_MAX, -1, 0, INT32_MAX, INT32_MIN, 7, 0};
    one_row(1, I32, s, 9, INC, 2);
    one_row(1, I32, s, 9, DEC, 5);
    one_row(0, I32, s, 9, INC, 1);
    one_row(0, I32, s, 9, DEC, 6);
    uint32_t u[9] = {5, 0, UINT32_MAX, 0x80000000u, 0x7FFFFFFFu, UINT32_MAX, 0, 7, 1};
    one_row(1, U32, u, 9, INC, 2);
    one_row(0, U32, u, 9, DEC, 6);
    uint16_t u16[9] = {5, 0, 0xFFFF, 0x8000, 0x7FFF, 0xFFFF, 0, 7, 1};
    one_row(1, U16, u16, 9, DEC, 5);
    one_row(0, U16, u16, 9, INC, 1);
    int16_t i16[9] = {5, INT16_MIN, INT16_MAX, -1, 0, INT16_MAX, INT16_MIN, 7, 0};
    one_row(1, I16, i16, 9, INC, 2);
    one_row(0, I16, i16, 9, DEC, 6);
    int64_t i64[4] = {INT64_MIN, INT64_MAX, -1, INT64_MAX};
    one_row(1, I64, i64, 4, DEC, 3);
    one_row(0, I64, i64, 4, INC, 0);
}

/* ---- the fast path against the reference on random cases ---------------------------- */

static uint32_t rnd(uint64_t *s, uint32_t n) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*s >> 33) % n);
}

/* A pool value of type dt: small numbers, ties, extremes, NaNs of several payloads, +-0, +-Inf. */
static void pool_value(uint64_t *s, DMLREF_TENSOR_DATA_TYPE dt, unsigned char *p) {
    static const uint32_t f32[] = {0x3F800000u, 0xBF800000u, 0, 0x80000000u, 0x7F800000u, 0xFF800000u,
                                   0x7FC00000u, 0xFFC00000u, 0x7FC0BEEFu, 0x7F800001u, 0xFFFFFFFFu, 0x00000001u,
                                   0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x40000000u};
    static const uint16_t f16[] = {0x3C00u, 0xBC00u, 0, 0x8000u, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE00u,
                                   0x7E01u, 0x7C01u, 0xFFFFu, 0x0001u, 0x8001u, 0x7BFFu, 0xFBFFu, 0x4000u};
    const uint64_t r = ((uint64_t)rnd(s, 1u << 16) << 48) ^ ((uint64_t)rnd(s, 1u << 16) << 32) ^
                       ((uint64_t)rnd(s, 1u << 16) << 16) ^ rnd(s, 1u << 16);
    if (dt == F32) memcpy(p, &f32[rnd(s, 16)], 4);
    else if (dt == F16) memcpy(p, &f16[rnd(s, 16)], 2);
    else {
        const uint32_t es = dmlref_data_type_size(dt), c = rnd(s, 6);
        const uint64_t top = UINT64_C(1) << (8 * es - 1); /* the signed minimum's bits */
        const uint64_t w = c == 0 ? r : c == 1 ? UINT64_MAX : c == 2 ? top : c == 3 ? top - 1 : rnd(s, 7);
        for (uint32_t b = 0; b < es; ++b) { /* host order of the low es bytes */
            const uint64_t one = 1;
            const int little = *(const unsigned char *)&one == 1;
            p[little ? b : es - 1 - b] = (unsigned char)(w >> (8 * b));
        }
    }
}

KERNELS_CHECKED("argminmax.")

TEST(argminmax_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[10] = {F32, F16, I32, U32, I16, U16, I8, U8, I64, U64};
    static const DMLREF_TENSOR_DATA_TYPE otypes[4] = {I64, I32, U64, U32};
    const uint64_t base_seed = (uint64_t)test_seed(13738);
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 400; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        uint64_t seed = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + rnd(&seed, rnd(&seed, 3) ? 3 : 6);
        uint32_t in[8], in_st[8], out[8], out_st[8], axes[8], order[8];
        const int big = iter % 8 == 0;
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            in[d] = 1 + rnd(&seed, big ? 40 : total > 64 ? 2 : 9);
            /* a big case stays under 2^16 elements (long rows and threads' parts, not the
             * hundreds of millions six dims of up to 40 reach, seconds even natively) */
            if (total * in[d] > (UINT64_C(1) << 16)) in[d] = (uint32_t)((UINT64_C(1) << 16) / total);
            if (in[d] == 0) in[d] = 1;
            total *= in[d];
        }
        for (uint32_t d = 0; d < n; ++d) order[d] = d;
        for (uint32_t d = n; d > 1; --d) {
            const uint32_t j = rnd(&seed, d), t = order[d - 1];
            order[d - 1] = order[j];
            order[j] = t;
        }
        const uint32_t k = rnd(&seed, 4) == 0 ? n : 1 + rnd(&seed, n);
        for (uint32_t i = 0; i < k; ++i) axes[i] = order[i];
        for (uint32_t d = 0; d < n; ++d) out[d] = in[d];
        for (uint32_t i = 0; i < k; ++i) out[axes[i]] = 1;
        /* layouts: packed, gapped, permuted, broadcast */
        const int layout = (int)rnd(&seed, 5);
        uint64_t acc = 1, acc2 = 1;
        uint32_t perm[8];
        for (uint32_t d = 0; d < n; ++d) perm[d] = d;
        if (layout == 3)
            for (uint32_t d = n; d > 1; --d) {
                const uint32_t j = rnd(&seed, d), t = perm[d - 1];
                perm[d - 1] = perm[j];
                perm[j] = t;
            }
        for (uint32_t q = n; q-- > 0;) {
            const uint32_t d = perm[q];
            in_st[d] = layout == 4 && rnd(&seed, 3) == 0 ? 0 : (uint32_t)acc;
            acc = acc * in[d] + (layout == 2 && rnd(&seed, 3) == 0 ? 1 : 0);
        }
        for (uint32_t d = n; d-- > 0;) {
            out_st[d] = (uint32_t)acc2;
            acc2 = acc2 * out[d] + (rnd(&seed, 4) == 0 ? 2 : 0);
        }
        const DMLREF_TENSOR_DATA_TYPE dt = types[rnd(&seed, 10)], ot = otypes[rnd(&seed, 4)];
        afix f;
        afix_init(&f, (int)rnd(&seed, 2), dt, ot, n, in, layout >= 2 ? in_st : NULL, axes, k,
                  rnd(&seed, 3) == 0 ? out_st : NULL, rnd(&seed, 2));
        const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes;
        const uint32_t es = dmlref_data_type_size(dt);
        unsigned char *data = malloc(ib), pool[6][8];
        if (!data) abort();
        const uint32_t np = rnd(&seed, 6) == 0 ? 1 : 2 + rnd(&seed, 5);
        for (uint32_t i = 0; i < np; ++i) pool_value(&seed, dt, pool[i]);
        for (size_t i = 0; i + es <= ib; i += es) memcpy(data + i, pool[rnd(&seed, np)], es);
        if (!run_all(&f, data, &seen)) test_fail(__FILE__, __LINE__, "case %d", iter);
        free(data);
    }
    if (!test_cases_end()) return;
    static const char *const no_avx2[] = {"argminmax.rows_f32.avx2", NULL};
    CHECK_KERNELS_REACHED(&seen, "argminmax.", simd_cpu_avx2() ? NULL : no_avx2);
}

/* Columns wider than a chunk (4096 columns for FLOAT32, 2048 for the other 4-byte types; 1024 at a
 * time for the 64-bit keys; 32 and 16 in a DMLREF_SMALL build): every chunk and sub-chunk, the last one partial, NaNs in a few columns. */
TEST(argminmax_wide_columns) {
    static const DMLREF_TENSOR_DATA_TYPE types[3] = {F32, I8, U64};
    uint64_t seed = 77;
    for (int k = 0; k < 3; ++k)
        for (int m = 0; m < 2; ++m) {
            afix f;
            afix_init(&f, m, types[k], U32, 2, SIZES(5, 4200), NULL, SIZES(0), 1, NULL, (uint32_t)m);
            const size_t ib = (size_t)f.in.buf.TotalTensorSizeInBytes;
            unsigned char *data = malloc(ib);
            if (!data) abort();
            for (size_t i = 0; i < ib; ++i) data[i] = (unsigned char)rnd(&seed, 4); /* many ties */
            if (types[k] == F32)
                for (int q = 0; q < 3; ++q) {
                    const uint32_t nan = 0x7FC00000u | (uint32_t)q, at = 4 * (rnd(&seed, 5) * 4200 + rnd(&seed, 4200));
                    memcpy(data + at, &nan, 4);
                }
            kernels_seen seen = {{0}, 0};
            CHECK(run_all(&f, data, &seen));
            CHECK(kernels_saw(&seen, "argminmax.columns"));
            free(data);
        }
}

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <xmmintrin.h>
/* The FLOAT32 rows' float-domain pass with the caller's MXCSR set to DAZ and FTZ (subnormals read
 * as zero): a best that is a subnormal or a zero is found again on the exact keys, so the bytes
 * are the oracle's (which never touches the FPU). */
TEST(argminmax_daz_ftz) {
    /* first a 2-thread run with the MXCSR as it is: OpenMP's worker thread, started by the
     * first parallel region, copies the MXCSR of the thread that starts it, and one started
     * under DAZ below would keep DAZ for every later test (ELEMENT_WISE_IDENTITY's arithmetic) */
    {
        afix w;
        afix_init(&w, 1, F32, U32, 2, SIZES(16, 8), NULL, SIZES(0), 1, NULL, 0);
        float wd[16 * 8];
        for (int i = 0; i < 16 * 8; ++i) wd[i] = (float)((i * 37) % 19);
        CHECK(run_all(&w, (const unsigned char *)wd, NULL));
    }
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040u);
    uint32_t r[40];
    for (uint32_t i = 0; i < 40; ++i) r[i] = 0x80000005u; /* -5 ulp subnormals */
    r[9] = 0x00000003u;                                   /* the largest: a positive subnormal */
    r[30] = 0x80000001u;
    one_row(1, F32, r, 40, INC, 9);
    one_row(0, F32, r, 40, INC, 0);
    one_row(0, F32, r, 40, DEC, 39);
    r[9] = 0x80000000u; /* -0 and subnormals: the largest is -0... or +0 */
    r[17] = 0;
    one_row(1, F32, r, 40, INC, 9);
    one_row(1, F32, r, 40, DEC, 17);
    /* columns (FLOAT32's block pass, float compares): subnormals, zeros of both signs and a few
     * normals, both operators and directions, against the reference; one thread (a worker
     * thread started under DAZ would keep it for the tests after this one) */
    uint64_t seed = 91;
    static const uint32_t pool[6] = {0x00000003u, 0x80000001u, 0x80000000u, 0u, 0x00000001u, 0x3F800000u};
    for (int m = 0; m < 2; ++m)
        for (int dir = 0; dir < 2; ++dir) {
            afix f;
            afix_init(&f, m, F32, U32, 2, SIZES(37, 20), NULL, SIZES(0), 1, NULL, (uint32_t)dir);
            uint32_t data[37 * 20], want[20], got[20];
            for (int i = 0; i < 37 * 20; ++i) data[i] = pool[rnd(&seed, (i % 3) ? 5 : 6)];
            reference(&f, (const unsigned char *)data, (unsigned char *)want);
            const dmlref_options o = {.threads = 1};
            dmlref_operator *op = NULL;
            dmlref_error err;
            CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            CHECK(strncmp(dmlref_kernel_name(op), "argminmax.columns", 17) == 0); /* columns_x4.<isa> with SIMD */
            const dmlref_cbuffer ins[1] = {{data, sizeof data}};
            const dmlref_buffer outs[1] = {{got, sizeof got}};
            CHECK_STATUS(dmlref_execute(op, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
            CHECK(memcmp(want, got, sizeof got) == 0);
            dmlref_release(op);
        }
    _mm_setcsr(csr);
}
#endif

/* FLOAT32 rows through argminmax.rows_x4's blocks (pass 1 keeps each block's lane maxima,
 * pass 2 looks in the first or last block holding the best): distinct normal values with the
 * best repeated two or three times, in one block, in several, in the tail past the blocks;
 * rows of one block, of 16-element blocks and of larger ones, ARGMAX and ARGMIN, both
 * directions, against the reference. */
TEST(argminmax_f32_blocks) {
    static const uint32_t lens[] = {16, 31, 32, 33, 100, 1024, 1025, 1040, 1060, 4096, 4099, 5000};
    uint64_t s = (uint64_t)test_seed(7171);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; ++li) {
        const uint32_t n = lens[li], rows = 6;
        float *x = malloc((size_t)rows * n * 4);
        if (!x) abort();
        for (int is_max = 0; is_max < 2; ++is_max)
            for (uint32_t dir = 0; dir < 2; ++dir) {
                for (uint32_t r = 0; r < rows; ++r) {
                    float *row = x + (size_t)r * n;
                    for (uint32_t i = 0; i < n; ++i) row[i] = (float)(rnd(&s, 1000000) + 1) * (rnd(&s, 2) ? 1.0f : -1.0f);
                    const float best = is_max ? 2e6f : -2e6f;
                    const uint32_t a = rnd(&s, n), k = 2 + rnd(&s, 2);
                    for (uint32_t q = 0; q < k; ++q) { /* near the first (same block), anywhere, the tail */
                        const uint32_t at = q == 0 ? a : r % 3 == 0 ? (a + 1 + rnd(&s, 20)) % n
                                                   : r % 3 == 1 ? n - 1 - rnd(&s, n % 16 + 1) : rnd(&s, n);
                        row[at] = best;
                    }
                }
                afix f;
                afix_init(&f, is_max, F32, I64, 2, SIZES(rows, n), NULL, SIZES(1), 1, NULL, dir);
                if (!run_all(&f, (const unsigned char *)x, NULL))
                    test_fail(__FILE__, __LINE__, "n %u, %s, direction %u", n, is_max ? "ARGMAX" : "ARGMIN", dir);
            }
        free(x);
    }
}

/* One NaN per FLOAT32 row, row r's at position r (rows of 16 to 100: every lane and vector of
 * pass 1, 4 and 8 lanes a vector, and the tail), of either sign and several payloads: ARGMAX and
 * ARGMIN both find it (a NaN wins), on every kernel run_all takes. */
TEST(argminmax_f32_one_nan) {
    static const uint32_t lens[] = {16, 17, 32, 47, 64, 100};
    static const uint32_t nans[] = {0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0xFFFFFFFFu};
    uint64_t s = (uint64_t)test_seed(9191);
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; ++li) {
        const uint32_t n = lens[li];
        float *x = malloc((size_t)n * n * 4);
        if (!x) abort();
        for (uint32_t r = 0; r < n; ++r)
            for (uint32_t i = 0; i < n; ++i) {
                float v = (float)(rnd(&s, 1000) + 1) * (rnd(&s, 2) ? 1.0f : -1.0f);
                if (i == r) memcpy(&v, &nans[rnd(&s, 4)], 4);
                x[(size_t)r * n + i] = v;
            }
        for (int is_max = 0; is_max < 2; ++is_max)
            for (uint32_t dir = 0; dir < 2; ++dir) {
                afix f;
                afix_init(&f, is_max, F32, I64, 2, SIZES(n, n), NULL, SIZES(1), 1, NULL, dir);
                if (!run_all(&f, (const unsigned char *)x, NULL))
                    test_fail(__FILE__, __LINE__, "n %u, %s, direction %u", n, is_max ? "ARGMAX" : "ARGMIN", dir);
            }
        free(x);
    }
}
