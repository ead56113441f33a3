/*
 * The RESAMPLE family (Q11), NEAREST_NEIGHBOR: RESAMPLE2's desc layout and
 * schema, every rule (RS1-RS6) at the feature levels where it differs, the
 * normative examples of docs/operators.md (the 1-ulp case, FLT_MAX, 7/3), data
 * of every element size through strided, broadcast and gapped views against an
 * independent reference (the float32 steps written again here, with libm's
 * floorf/ceilf), NaN payloads and -0.0 as bits, and the fast path against the
 * oracle on random cases with 1 and 2 threads (resample.repeat and
 * resample.gather both reached).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLREF_TENSOR_DATA_TYPE_FLOAT16
#define U8 DMLREF_TENSOR_DATA_TYPE_UINT8
#define I8 DMLREF_TENSOR_DATA_TYPE_INT8
#define FL DMLREF_FEATURE_LEVEL_6_4
#define NEAREST DMLREF_INTERPOLATION_MODE_NEAREST_NEIGHBOR
#define INC DMLREF_AXIS_DIRECTION_INCREASING
#define DEC DMLREF_AXIS_DIRECTION_DECREASING

typedef struct rfix {
    tdesc in, out;
    float scale[8], in_off[8], out_off[8];
    DMLREF_RESAMPLE2_OPERATOR_DESC r;
    DMLREF_OPERATOR_DESC d;
} rfix;

/* Input sizes and strides (NULL = packed), output sizes and strides; scales and offsets
 * per dim; direction. */
static void rfix_init(rfix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *in_sizes,
                      const uint32_t *in_strides, const uint32_t *out_sizes, const uint32_t *out_strides,
                      const float *scale, const float *in_off, const float *out_off, uint32_t dir) {
    for (uint32_t i = 0; i < n; ++i) {
        f->scale[i] = scale[i];
        f->in_off[i] = in_off[i];
        f->out_off[i] = out_off[i];
    }
    tdesc_init(&f->in, dt, n, in_sizes, in_strides);
    tdesc_init(&f->out, dt, n, out_sizes, out_strides);
    f->r = (DMLREF_RESAMPLE2_OPERATOR_DESC){&f->in.desc, &f->out.desc, NEAREST, (DMLREF_AXIS_DIRECTION)dir, n,
                                            f->scale, f->in_off, f->out_off};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_RESAMPLE2, &f->r};
}

#define FLOATS(...) ((const float[]){__VA_ARGS__})

static dmlref_status validate(const rfix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

static void check_rule_at(const char *file, int line, dmlref_status st, const dmlref_error *err, dmlref_status want,
                          const char *needle, const char *rule) {
    check_status_at(file, line, st, err, want, needle);
    if (st == want && want != DMLREF_OK && strcmp(err->rule, rule) != 0)
        test_fail(file, line, "rule \"%s\", want \"%s\" (%s)", err->rule, rule, err->message);
}
#define CHECK_RULE(st, err, want, needle, rule) check_rule_at(__FILE__, __LINE__, (st), &(err), (want), (needle), (rule))

TEST(resample2_desc_layout) {
    const size_t p = sizeof(void *);
    /* x64: 56 (RoundingDirection 20, DimensionCount 24, Scales 32); ILP32: 32 (Scales 20) */
    CHECK_EQ_U64(sizeof(DMLREF_RESAMPLE2_OPERATOR_DESC), p == 8 ? 56 : 32);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, InterpolationMode), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, RoundingDirection), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, DimensionCount), 2 * p + 8);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, Scales), p == 8 ? 32 : 20);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, InputPixelOffsets), p == 8 ? 40 : 24);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, OutputPixelOffsets), p == 8 ? 48 : 28);
    CHECK_EQ_U64(sizeof(DMLREF_SIZE_2D), 8);
    CHECK_EQ_U64(offsetof(DMLREF_SIZE_2D, Width), 0);
    CHECK_EQ_U64(offsetof(DMLREF_SIZE_2D, Height), 4);
    CHECK_EQ_U64(sizeof(DMLREF_BOOL), 4);
    CHECK_EQ_U64(sizeof(DMLREF_INTERPOLATION_MODE), 4);
    CHECK_EQ_U64(sizeof(DMLREF_AXIS_DIRECTION), 4);
    CHECK_EQ_U64(DMLREF_INTERPOLATION_MODE_LINEAR, 1);
    CHECK_EQ_U64(DMLREF_AXIS_DIRECTION_DECREASING, 1);
}

TEST(resample2_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_RESAMPLE2);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "RESAMPLE2") == 0);
    CHECK_EQ_U64(sc->type, 161);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_RESAMPLE2_OPERATOR_DESC));
    CHECK_EQ_U64(sc->introduced, DMLREF_FEATURE_LEVEL_5_1);
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK_EQ_U64(sc->n_params, 6);
    static const char *const names[6] = {"InterpolationMode", "RoundingDirection", "DimensionCount",
                                         "Scales", "InputPixelOffsets", "OutputPixelOffsets"};
    for (uint32_t i = 0; i < 6 && i < sc->n_params; ++i) CHECK(strcmp(sc->params[i].name, names[i]) == 0);
    if (sc->n_params != 6) return;
    const dmlref_param *m = &sc->params[0], *dir = &sc->params[1], *s = &sc->params[3];
    CHECK(m->kind == DMLREF_PARAM_ENUM && m->enum_count == 2 && strcmp(m->enum_names[0], "NEAREST_NEIGHBOR") == 0 &&
          strcmp(m->enum_names[1], "LINEAR") == 0);
    CHECK(dir->kind == DMLREF_PARAM_ENUM && dir->enum_count == 2 && strcmp(dir->enum_names[0], "INCREASING") == 0 &&
          strcmp(dir->enum_names[1], "DECREASING") == 0);
    CHECK(sc->params[2].is_count);
    CHECK(s->kind == DMLREF_PARAM_FLOAT_ARRAY && s->count_name && strcmp(s->count_name, "DimensionCount") == 0);
    CHECK_EQ_U64(s->offset, offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, Scales));
    CHECK_EQ_U64(s->count_offset, offsetof(DMLREF_RESAMPLE2_OPERATOR_DESC, DimensionCount));
    CHECK(sc->params[4].kind == DMLREF_PARAM_FLOAT_ARRAY && sc->params[5].kind == DMLREF_PARAM_FLOAT_ARRAY);
}

static const float ONES[4] = {1, 1, 1, 1}, ZEROS[4] = {0, 0, 0, 0};

TEST(resample2_rules) {
    rfix f;
    dmlref_error err;
    rfix_init(&f, F32, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), NULL, SIZES(1, 1, 4, 6), NULL, FLOATS(1, 1, 2, 2), ZEROS,
              ZEROS, DEC);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);
    /* before 5_1 the operator does not exist */
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "RESAMPLE2: not available at feature level 5_0 (introduced in 5_1)", "");

    /* RS1: same DimensionCount, 1 to 4 */
    tdesc_init(&f.out, F32, DIMS(1, 4, 6));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "RESAMPLE2: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)", "RS1");
    rfix_init(&f, F32, NDIMS(1, 1, 1, 2, 3), SIZES(1, 1, 1, 2, 3), NULL, SIZES(1, 1, 1, 2, 3), NULL,
              FLOATS(1, 1, 1, 1, 1), FLOATS(0, 0, 0, 0, 0), FLOATS(0, 0, 0, 0, 0), DEC);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "RESAMPLE2: InputTensor.DimensionCount (5) must be in [1, 4] at feature level 6_4", "RS1");
    rfix_init(&f, F32, 1, SIZES(3), NULL, SIZES(5), NULL, FLOATS(1.5f), ZEROS, ZEROS, INC);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);

    /* RS2: same type; 5_1 {F32, F16}, 6_2 on {F32, F16, I8, U8} */
    rfix_init(&f, I8, 1, SIZES(3), NULL, SIZES(5), NULL, FLOATS(1.5f), ZEROS, ZEROS, INC);
    CHECK_RULE(validate(&f, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_ERROR_DATA_TYPE,
               "RESAMPLE2: InputTensor.DataType (INT8) is not supported at feature level 5_1 (allowed: FLOAT32 FLOAT16)",
               "RS2");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_6_2, &err), err, DMLREF_OK, NULL);
    rfix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT16, 1, SIZES(3), NULL, SIZES(5), NULL, FLOATS(1.5f), ZEROS, ZEROS, INC);
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE, "INT16", "RS2");
    rfix_init(&f, F32, 1, SIZES(3), NULL, SIZES(5), NULL, FLOATS(1.5f), ZEROS, ZEROS, INC);
    tdesc_init(&f.out, F16, DIMS(5));
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
               "RESAMPLE2: OutputTensor.DataType (FLOAT16) must equal InputTensor.DataType (FLOAT32)", "RS2");

    /* RS3: DimensionCount, arrays */
    rfix_init(&f, F32, 2, SIZES(3, 2), NULL, SIZES(5, 2), NULL, ONES, ZEROS, ZEROS, INC);
    f.r.DimensionCount = 1;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE2: DimensionCount (1) must equal InputTensor.DimensionCount (2)", "RS3");
    CHECK(strcmp(err.field, "DimensionCount") == 0);
    f.r.DimensionCount = 2;
    f.r.Scales = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "RESAMPLE2: Scales is NULL (DimensionCount is 2)",
               "RS3");
    f.r.Scales = f.scale;
    f.r.InputPixelOffsets = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "InputPixelOffsets is NULL", "RS3");
    f.r.InputPixelOffsets = f.in_off;
    f.r.OutputPixelOffsets = NULL;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "OutputPixelOffsets is NULL", "RS3");
    f.r.OutputPixelOffsets = f.out_off;

    /* RS4: every scale finite and > 0 */
    static const uint32_t bad_scales[5] = {0x00000000u, 0x80000000u, 0xBF800000u, 0x7F800000u, 0x7FC00000u};
    static const char *const shown[5] = {"Scales[1] (0) must be finite and greater than 0", "Scales[1] (-0)",
                                         "Scales[1] (-1)", "Scales[1] (inf)", "Scales[1] (nan)"};
    for (int i = 0; i < 5; ++i) {
        memcpy(&f.scale[1], &bad_scales[i], 4);
        CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, shown[i], "RS4");
        CHECK(strcmp(err.field, "Scales") == 0);
    }
    f.scale[1] = 1e-45f; /* the smallest subnormal: finite and > 0 */
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    f.scale[1] = 1;

    /* RS5: offsets finite */
    f.in_off[0] = INFINITY;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE2: InputPixelOffsets[0] (inf) must be finite", "RS5");
    f.in_off[0] = 0;
    f.out_off[1] = -NAN;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, "OutputPixelOffsets[1]", "RS5");
    f.out_off[1] = -3.4e38f;
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    f.out_off[1] = 0;

    /* RS6: NEAREST_NEIGHBOR only, a known RoundingDirection */
    f.r.InterpolationMode = DMLREF_INTERPOLATION_MODE_LINEAR;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE2: InterpolationMode LINEAR (1) is not supported by dmlref", "RS6");
    CHECK(strcmp(err.field, "InterpolationMode") == 0);
    f.r.InterpolationMode = (DMLREF_INTERPOLATION_MODE)2;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE2: InterpolationMode (2, an unknown value) must be NEAREST_NEIGHBOR (0)", "RS6");
    f.r.InterpolationMode = NEAREST;
    f.r.RoundingDirection = (DMLREF_AXIS_DIRECTION)2;
    CHECK_RULE(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE2: RoundingDirection (2) must be INCREASING (0) or DECREASING (1)", "RS6");
    f.r.RoundingDirection = DEC;
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* Output sizes are free (>= 1): crop, or more than the scale gives */
    tdesc_init(&f.out, F32, DIMS(1, 7));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    tdesc_init(&f.out, F32, DIMS(UINT32_MAX, 1));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    /* output_sizes: the given sizes, after the input's and the parameters' rules */
    uint32_t n = 0, sizes[8];
    tdesc_init(&f.out, F32, DIMS(1, 7));
    CHECK_STATUS(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_OK, NULL);
    CHECK(n == 2 && sizes[0] == 1 && sizes[1] == 7);
    f.scale[0] = 0;
    CHECK_RULE(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_ERROR_PARAMETER, "Scales[0] (0)", "RS4");
    f.scale[0] = 1;
    tdesc_init(&f.out, F32, DIMS(1, 7, 1));
    CHECK_RULE(dmlref_output_sizes(&f.d, FL, 0, &n, sizes, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (2)", "RS1");
}

/* ---- running it ---------------------------------------------------------------------- */

/* The source index, written again (libm's floorf and ceilf, every step stored to a volatile float). */
static uint32_t ref_index(uint32_t o, float s, float in_off, float out_off, int decreasing, uint32_t n) {
    volatile float t = (float)o;
    t = t - out_off;
    t = t / s;
    t = t - in_off;
    const float i = decreasing ? floorf(t) : ceilf(t);
    if (i <= 0.0f) return 0;
    if ((double)i >= (double)(n - 1)) return n - 1;
    return (uint32_t)i;
}

/* An independent reference: each output element's coordinates from its row-major number. */
static void ref_resample(const rfix *f, const unsigned char *in, unsigned char *out) {
    const DMLREF_BUFFER_TENSOR_DESC *ib = &f->in.buf, *ob = &f->out.buf;
    const uint32_t n = ib->DimensionCount, es = dmlref_data_type_size(ib->DataType);
    uint64_t count = 1, ist[4], ost[4];
    for (uint32_t d = n; d-- > 0;) {
        ist[d] = f->in.buf.Strides ? ib->Strides[d] : (d + 1 < n ? ist[d + 1] * ib->Sizes[d + 1] : 1);
        ost[d] = f->out.buf.Strides ? ob->Strides[d] : (d + 1 < n ? ost[d + 1] * ob->Sizes[d + 1] : 1);
        count *= ob->Sizes[d];
    }
    for (uint64_t e = 0; e < count; ++e) {
        uint64_t q = e, io = 0, oo = 0;
        for (uint32_t d = n; d-- > 0;) {
            const uint32_t c = (uint32_t)(q % ob->Sizes[d]);
            q /= ob->Sizes[d];
            oo += c * ost[d];
            io += ref_index(c, f->scale[d], f->in_off[d], f->out_off[d], f->r.RoundingDirection == DEC, ib->Sizes[d]) *
                  ist[d];
        }
        memcpy(out + oo * es, in + io * es, es);
    }
}

/* Runs f through the oracle and the fast path (threads 1 and 2) into outputs prefilled with
 * 0xA5 and compares each with the reference, byte for byte.  *kernel gets the last name. */
static int run_all_at(const char *file, int line, const rfix *f, const unsigned char *in, const char **kernel) {
    const size_t in_bytes = (size_t)f->in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f->out.buf.TotalTensorSizeInBytes;
    unsigned char *want = malloc(out_bytes), *got = malloc(out_bytes);
    const char *k = NULL;
    int ok = want && got;
    if (ok) {
        memset(want, 0xA5, out_bytes);
        ref_resample(f, in, want);
    }
    for (int mode = 0; ok && mode <= 2; ++mode) {
        const dmlref_options o = {.flags = mode == 0 ? DMLREF_OPTION_FORCE_ORACLE : 0, .threads = mode == 0 ? 1u : (uint32_t)mode};
        dmlref_operator *op = NULL;
        dmlref_error err;
        dmlref_status st = dmlref_compile(&f->d, FL, &o, &op, &err);
        if (st != DMLREF_OK) {
            test_fail(file, line, "compile: %s", err.message);
            ok = 0;
            break;
        }
        const char *name = dmlref_kernel_name(op);
        if (mode == 0 && strcmp(name, "oracle") != 0) test_fail(file, line, "FORCE_ORACLE ran %s", name);
        if (mode) k = name;
        memset(got, 0xA5, out_bytes);
        const dmlref_cbuffer ib = {in, in_bytes};
        const dmlref_buffer ob = {got, out_bytes};
        st = dmlref_execute(op, &ib, 1, &ob, 1, &err);
        dmlref_release(op);
        if (st != DMLREF_OK) {
            test_fail(file, line, "execute: %s", err.message);
            ok = 0;
            break;
        }
        for (size_t b = 0; b < out_bytes; ++b)
            if (got[b] != want[b]) {
                test_fail(file, line, "%s (threads %d) differs from the reference at byte %zu of %zu", name, mode, b,
                          out_bytes);
                ok = 0;
                break;
            }
    }
    if (kernel) *kernel = k;
    free(want);
    free(got);
    return ok;
}
#define RUN_ALL(f, in, k) run_all_at(__FILE__, __LINE__, (f), (in), (k))

static unsigned char *random_bytes(uint64_t *s, size_t n) {
    unsigned char *p = malloc(n ? n : 1);
    for (size_t i = 0; p && i < n; ++i) p[i] = (unsigned char)splitmix64(s);
    return p;
}

/* Runs f on float data in[] (packed input), checking the output against want[]. */
static void check_f32_at(const char *file, int line, const rfix *f, const float *in, const float *want, size_t n_out) {
    for (int threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            const dmlref_options o = {.flags = flags, .threads = (uint32_t)threads};
            float got[64];
            memset(got, 0xA5, sizeof got);
            dmlref_error err;
            const dmlref_cbuffer ib = {in, (size_t)f->in.buf.TotalTensorSizeInBytes};
            const dmlref_buffer ob = {got, (size_t)f->out.buf.TotalTensorSizeInBytes};
            const dmlref_status st = dmlref_run(&f->d, FL, &o, &ib, 1, &ob, 1, &err);
            if (st != DMLREF_OK) {
                test_fail(file, line, "run: %s", err.message);
                return;
            }
            for (size_t i = 0; i < n_out; ++i)
                if (memcmp(&got[i], &want[i], 4) != 0) {
                    test_fail(file, line, "element %zu: %g, want %g (threads %d, flags %u)", i, (double)got[i],
                              (double)want[i], threads, (unsigned)flags);
                    return;
                }
        }
}
#define CHECK_F32(f, in, want, n) check_f32_at(__FILE__, __LINE__, (f), (in), (want), (n))

/* docs/operators.md Q11.4, in RESAMPLE2 terms. */
TEST(resample2_doc_examples) {
    rfix f;
    /* half_pixel / round_prefer_floor, W 4 -> 2: columns 0 and 2.  o = 1: 1.5 / 0.6f = 2.4999999007 rounds to
     * fl32 2.5 (the spec's "1.4999999" is the unrounded quotient less 1), 2.5 - 1 = 1.5, ceil 2 */
    rfix_init(&f, F32, 4, SIZES(1, 1, 2, 4), NULL, SIZES(1, 1, 1, 2), NULL, FLOATS(1, 1, 0.6f, 0.6f), FLOATS(1, 1, 1, 1),
              FLOATS(-0.5f, -0.5f, -0.5f, -0.5f), INC);
    volatile float t = 1.5f;
    t = t / 0.6f;
    t = t - 1.0f;
    CHECK(t == 1.5f); /* rounded once at the division: exactly 1.5 */
    CHECK_F32(&f, FLOATS(1, 2, 3, 4, 5, 6, 7, 8), FLOATS(1, 3), 2);
    /* the same downsample with DECREASING: floor(1.4999999) = 1 */
    f.r.RoundingDirection = DEC;
    CHECK_F32(&f, FLOATS(1, 2, 3, 4, 5, 6, 7, 8), FLOATS(1, 2), 2);
    /* a size-1 dim with Scale FLT_MAX: any o maps to 0; W 2 -> 8 with Scale fl32(7/3), floor */
    rfix_init(&f, F32, 4, SIZES(1, 1, 1, 2), NULL, SIZES(1, 1, 3, 8), NULL,
              FLOATS(3.4028235e38f, 3.4028235e38f, 3.4028235e38f, 7.0f / 3.0f), ZEROS, ZEROS, DEC);
    CHECK_F32(&f, FLOATS(10, 20),
              FLOATS(10, 10, 10, 20, 20, 20, 20, 20, 10, 10, 10, 20, 20, 20, 20, 20, 10, 10, 10, 20, 20, 20, 20, 20), 24);
    /* RESAMPLE's example as RESAMPLE2 (InOff 0, OutOff -0.5, floor): {1,1,2,3} x {1,1,2,2} */
    rfix_init(&f, F32, 4, SIZES(1, 1, 2, 3), NULL, SIZES(1, 1, 4, 6), NULL, FLOATS(1, 1, 2, 2), ZEROS,
              FLOATS(-0.5f, -0.5f, -0.5f, -0.5f), DEC);
    CHECK_F32(&f, FLOATS(1, 2, 3, 4, 5, 6),
              FLOATS(1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6), 24);
    /* a tiny scale sends every o > OutOff past the end, -inf for o < OutOff to 0 */
    rfix_init(&f, F32, 1, SIZES(3), NULL, SIZES(4), NULL, FLOATS(1e-38f), ZEROS, FLOATS(1.0f), INC);
    CHECK_F32(&f, FLOATS(7, 8, 9), FLOATS(7, 7, 9, 9), 4);
}

/* An output dim longer than the fast path's table limit (2^22 entries: the sum of the output's
 * sizes) runs the oracle, with no table: a 1-byte output of 2^22 + 1 elements compiles in far
 * less memory than the 12 bytes per element the tables would take, and gives the fast path's
 * bytes (the attacker's finding: the tables were 12 times a UINT8 output, and a long enough
 * dim made a valid descriptor fail with OUT_OF_MEMORY). */
TEST(resample2_long_dim_runs_the_oracle) {
    const uint32_t big = (1u << 22) + 1;
    rfix f;
    rfix_init(&f, U8, 2, SIZES(1, 2), NULL, SIZES(1, big), NULL, FLOATS(1, 1), ZEROS, ZEROS, DEC);
    dmlref_operator *op = NULL;
    dmlref_error err;
    size_t bytes = 0;
    const dmlref_options o = {.threads = 2};
    CHECK_STATUS(dmlref_compile_memory(&f.d, FL, &o, &bytes, &err), err, DMLREF_OK, NULL);
    CHECK(bytes < big); /* the tables would take 12 * big */
    CHECK_STATUS(dmlref_compile(&f.d, FL, &o, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    CHECK(strcmp(dmlref_kernel_name(op), "oracle") == 0);
    const unsigned char in[4] = {7, 9, 0, 0}; /* TotalTensorSizeInBytes rounds up to 4 */
    const size_t out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
    unsigned char *got = malloc(out_bytes);
    if (!got) abort();
    const dmlref_cbuffer ib = {in, sizeof in};
    const dmlref_buffer ob = {got, out_bytes};
    CHECK_STATUS(dmlref_execute(op, &ib, 1, &ob, 1, &err), err, DMLREF_OK, NULL);
    /* Scale 1, offsets 0, DECREASING: o maps to floor(o), clamped to the input's 2 */
    CHECK(got[0] == 7 && got[1] == 9 && got[2] == 9 && got[big - 1] == 9);
    free(got);
    dmlref_release(op);
}

TEST(resample2_data_every_element_size) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, I8, F16, F32};
    uint64_t s = 99;
    for (int t = 0; t < 4; ++t) {
        rfix f;
        /* strided input with gaps, gapped output */
        rfix_init(&f, types[t], 3, SIZES(2, 3, 4), SIZES(20, 6, 1), SIZES(3, 5, 7), SIZES(50, 10, 1),
                  FLOATS(1.5f, 5.0f / 3.0f, 1.75f), FLOATS(0.5f, 0, -0.25f), FLOATS(-0.5f, 0, 0.5f), t % 2 ? INC : DEC);
        unsigned char *in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
        CHECK(RUN_ALL(&f, in, NULL));
        free(in);
        /* broadcast input (stride 0), integer upscale: the innermost repeat 2 on packed rows
         * (resample.rows), every output row after the first a copy of the one before */
        rfix_init(&f, types[t], 2, SIZES(3, 4), SIZES(0, 1), SIZES(6, 8), NULL, FLOATS(2, 2), ZEROS,
                  FLOATS(-0.5f, -0.5f), DEC);
        in = random_bytes(&s, (size_t)f.in.buf.TotalTensorSizeInBytes);
        const char *k = NULL;
        CHECK(RUN_ALL(&f, in, &k));
        CHECK(k && strncmp(k, "resample.rows.", 14) == 0);
        free(in);
    }
}

TEST(resample2_nan_payloads_and_negative_zero) {
    rfix f;
    rfix_init(&f, F32, 1, SIZES(3), NULL, SIZES(6), NULL, FLOATS(2), ZEROS, FLOATS(-0.5f), DEC);
    const uint32_t in[3] = {0x7FA00001u, 0x80000000u, 0xFFC12345u}; /* signalling NaN with payload, -0, negative qNaN */
    const uint32_t want[6] = {0x7FA00001u, 0x7FA00001u, 0x80000000u, 0x80000000u, 0xFFC12345u, 0xFFC12345u};
    float inf[3], wantf[6];
    memcpy(inf, in, sizeof in);
    memcpy(wantf, want, sizeof want);
    CHECK_F32(&f, inf, wantf, 6);
    /* and through the gather kernel (a non-integer scale) */
    rfix_init(&f, F32, 1, SIZES(3), NULL, SIZES(4), NULL, FLOATS(1.5f), ZEROS, ZEROS, DEC);
    const uint32_t want2[4] = {0x7FA00001u, 0x7FA00001u, 0x80000000u, 0xFFC12345u}; /* o / 1.5: 0, 0.67, 1.33, 2 */
    memcpy(wantf, want2, sizeof want2);
    CHECK_F32(&f, inf, wantf, 4);
}

/* Random strides for n dims of sizes s (0 = packed): permuted, gapped, broadcast (inputs). */
static int rand_strides(uint64_t *r, uint32_t n, const uint32_t *s, uint32_t *st, int is_input) {
    const uint32_t mode = (uint32_t)(splitmix64(r) % 10);
    if (mode < 3) return 0;
    uint32_t order[4];
    for (uint32_t d = 0; d < n; ++d) order[d] = d;
    if (mode >= 6)
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

static float bits_f(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

KERNELS_CHECKED("resample.")

/* The fast path writes exactly the oracle's (and the reference's) bytes on random cases:
 * every element size, 1-4 dims, integer upscales (resample.repeat) and every other kind of
 * scale and offset (resample.gather), random layouts; half with a tiny DMLREF_PAR_GRAIN so
 * that 2 threads really split the work. */
TEST(resample2_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {U8, I8, F16, F32};
    const uint64_t base_seed = test_seed(20261127);
    int failed = 0, repeat = 0, gather = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 500 && failed < 5; ++iter) {
        if (!test_case((uint64_t)iter)) continue;
        uint64_t r = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + (uint32_t)(splitmix64(&r) % 4);
        const int upscale = splitmix64(&r) % 3 == 0;
        uint32_t in[4], out[4], ist[4], ost[4];
        float sc[4], io[4], oo[4];
        uint64_t total = 1;
        for (uint32_t d = 0; d < n; ++d) {
            in[d] = 1 + (uint32_t)(splitmix64(&r) % (iter % 5 == 0 ? 40 : 6));
            if (upscale) {
                const uint32_t k = 1 + (uint32_t)(splitmix64(&r) % 4);
                out[d] = in[d] * k;
                sc[d] = (float)k;
                io[d] = 0;
                oo[d] = -0.5f;
            } else {
                out[d] = 1 + (uint32_t)(splitmix64(&r) % (2 * in[d] + 2));
                const uint32_t how = (uint32_t)(splitmix64(&r) % 6);
                switch (how) {
                case 0: sc[d] = (float)out[d] / (float)in[d]; break;
                case 1: sc[d] = bits_f(0x7F7FFFFFu); break;
                case 2: sc[d] = bits_f(0x00000001u); break;
                default: sc[d] = bits_f((uint32_t)(0x3D800000u + splitmix64(&r) % 0x3000000u)); break; /* [1/16, 8) */
                }
                io[d] = (splitmix64(&r) % 2) ? 0.5f : bits_f((uint32_t)(splitmix64(&r) % 0x40800000u) | (splitmix64(&r) % 2 ? 0x80000000u : 0));
                oo[d] = (splitmix64(&r) % 2) ? -0.5f : bits_f((uint32_t)(splitmix64(&r) % 0x40800000u) | (splitmix64(&r) % 2 ? 0x80000000u : 0));
                if (how == 5) { /* scale 1, offsets +-0: the planner's index without the float steps, the
                                 * output longer than the input (clamped) about half the time */
                    sc[d] = 1.0f;
                    io[d] = splitmix64(&r) % 2 ? 0.0f : -0.0f;
                    oo[d] = splitmix64(&r) % 2 ? 0.0f : -0.0f;
                }
            }
            if (total * out[d] > 30000) out[d] = 1, sc[d] = 1.0f / (float)in[d];
            total *= out[d];
        }
        const int in_strided = rand_strides(&r, n, in, ist, 1), out_strided = rand_strides(&r, n, out, ost, 0);
        rfix f;
        rfix_init(&f, types[splitmix64(&r) % 4], n, in, in_strided ? ist : NULL, out, out_strided ? ost : NULL, sc, io, oo,
                  splitmix64(&r) % 2 ? INC : DEC);
        if (splitmix64(&r) % 5 == 0) f.out.buf.TotalTensorSizeInBytes += 8;
        const int tiny = (int)(splitmix64(&r) % 2);
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            env_reload();
        }
        unsigned char *data = random_bytes(&r, (size_t)f.in.buf.TotalTensorSizeInBytes);
        const int before = test_failures();
        const char *k = NULL;
        RUN_ALL(&f, data, &k);
        if (k) kernels_note(&seen, k);
        if (k && (strncmp(k, "resample.repeat", 15) == 0 || strncmp(k, "resample.rows", 13) == 0)) ++repeat;
        if (k && strncmp(k, "resample.gather", 15) == 0) ++gather;
        if (test_failures() != before) {
            ++failed;
            fprintf(stderr, "  case %d: %u dims, %s\n", iter, n, tiny ? "grain 64" : "default grain");
        }
        free(data);
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            env_reload();
        }
    }
    if (!test_cases_end()) return;
    if (repeat < 50 || gather < 50) test_fail(__FILE__, __LINE__, "resample.repeat and resample.rows ran %d cases, resample.gather %d", repeat, gather);
    CHECK_KERNELS_REACHED(&seen, "resample.", NULL);
}

/* ---- RESAMPLE, RESAMPLE1, RESAMPLE3: thin classes over the same kernel ------------------- */

TEST(resample_family_desc_layouts) {
    const size_t p = sizeof(void *);
    /* RESAMPLE: x64 32 (ScaleCount 20, Scales 24); ILP32 20 */
    CHECK_EQ_U64(sizeof(DMLREF_RESAMPLE_OPERATOR_DESC), p == 8 ? 32 : 20);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE_OPERATOR_DESC, InterpolationMode), 2 * p);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE_OPERATOR_DESC, ScaleCount), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE_OPERATOR_DESC, Scales), p == 8 ? 24 : 16);
    /* RESAMPLE1: x64 48 (DimensionCount 20, Scales 24, InputPixelOffsets 32, OutputPixelOffsets 40); ILP32 28 */
    CHECK_EQ_U64(sizeof(DMLREF_RESAMPLE1_OPERATOR_DESC), p == 8 ? 48 : 28);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE1_OPERATOR_DESC, DimensionCount), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE1_OPERATOR_DESC, Scales), p == 8 ? 24 : 16);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE1_OPERATOR_DESC, InputPixelOffsets), p == 8 ? 32 : 20);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE1_OPERATOR_DESC, OutputPixelOffsets), p == 8 ? 40 : 24);
    /* RESAMPLE3: x64 64 (Antialiased at 56); ILP32 36 (at 32) */
    CHECK_EQ_U64(sizeof(DMLREF_RESAMPLE3_OPERATOR_DESC), p == 8 ? 64 : 36);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE3_OPERATOR_DESC, RoundingDirection), 2 * p + 4);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE3_OPERATOR_DESC, DimensionCount), 2 * p + 8);
    CHECK_EQ_U64(offsetof(DMLREF_RESAMPLE3_OPERATOR_DESC, Antialiased), p == 8 ? 56 : 32);
    static const struct {
        DMLREF_OPERATOR_TYPE type;
        const char *name;
        uint32_t value, introduced, n_params;
    } ops[3] = {{DMLREF_OPERATOR_RESAMPLE, "RESAMPLE", 96, DMLREF_FEATURE_LEVEL_2_0, 3},
                {DMLREF_OPERATOR_RESAMPLE1, "RESAMPLE1", 116, DMLREF_FEATURE_LEVEL_2_1, 5},
                {DMLREF_OPERATOR_RESAMPLE3, "RESAMPLE3", 175, DMLREF_FEATURE_LEVEL_6_4, 7}};
    for (int i = 0; i < 3; ++i) {
        const dmlref_schema *sc = dmlref_operator_schema(ops[i].type);
        CHECK(sc != NULL);
        if (!sc) continue;
        CHECK(strcmp(sc->name, ops[i].name) == 0);
        CHECK_EQ_U64(sc->type, ops[i].value);
        CHECK_EQ_U64(sc->introduced, ops[i].introduced);
        CHECK_EQ_U64(sc->n_params, ops[i].n_params);
    }
    const dmlref_schema *s3 = dmlref_operator_schema(DMLREF_OPERATOR_RESAMPLE3);
    if (s3 && s3->n_params == 7) {
        CHECK(strcmp(s3->params[6].name, "Antialiased") == 0 && s3->params[6].kind == DMLREF_PARAM_BOOL);
        CHECK_EQ_U64(s3->params[6].offset, offsetof(DMLREF_RESAMPLE3_OPERATOR_DESC, Antialiased));
    }
    const dmlref_schema *s0 = dmlref_operator_schema(DMLREF_OPERATOR_RESAMPLE);
    if (s0 && s0->n_params == 3)
        CHECK(strcmp(s0->params[2].name, "Scales") == 0 && strcmp(s0->params[2].count_name, "ScaleCount") == 0);
}

/* Runs a desc on in[] (FLOAT32, packed) into out (n_out elements), oracle and fast path alike. */
static void run_desc_at(const char *file, int line, const DMLREF_OPERATOR_DESC *d, DMLREF_FEATURE_LEVEL fl,
                        const float *in, size_t in_n, const float *want, size_t n_out) {
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags, .threads = 2};
        float got[64];
        memset(got, 0xA5, sizeof got);
        dmlref_error err;
        const dmlref_cbuffer ib = {in, in_n * 4};
        const dmlref_buffer ob = {got, n_out * 4};
        const dmlref_status st = dmlref_run(d, fl, &o, &ib, 1, &ob, 1, &err);
        if (st != DMLREF_OK) {
            test_fail(file, line, "run: %s", err.message);
            return;
        }
        if (memcmp(got, want, n_out * 4) != 0) test_fail(file, line, "output differs (flags %u)", (unsigned)flags);
    }
}
#define RUN_DESC(d, fl, in, in_n, want, n_out) run_desc_at(__FILE__, __LINE__, (d), (fl), (in), (in_n), (want), (n_out))

TEST(resample_family_rules_and_examples) {
    tdesc in, out;
    dmlref_error err;
    float sc[4] = {1, 1, 2, 2}, ipo[4] = {0.5f, 0.5f, 0.5f, 0.5f}, opo[4] = {-0.5f, -0.5f, -0.5f, -0.5f};
    tdesc_init(&in, F32, DIMS(1, 1, 2, 3));
    tdesc_init(&out, F32, DIMS(1, 1, 4, 6));
    DMLREF_RESAMPLE_OPERATOR_DESC r0 = {&in.desc, &out.desc, NEAREST, 4, sc};
    const DMLREF_OPERATOR_DESC d0 = {DMLREF_OPERATOR_RESAMPLE, &r0};
    DMLREF_RESAMPLE1_OPERATOR_DESC r1 = {&in.desc, &out.desc, NEAREST, 4, sc, ipo, opo};
    const DMLREF_OPERATOR_DESC d1 = {DMLREF_OPERATOR_RESAMPLE1, &r1};
    DMLREF_RESAMPLE3_OPERATOR_DESC r3 = {&in.desc, &out.desc, NEAREST, DEC, 4, sc, ZEROS, opo, 1};
    const DMLREF_OPERATOR_DESC d3 = {DMLREF_OPERATOR_RESAMPLE3, &r3};
    /* the page's example (Q11.5): rows [a,a,b,b,c,c] twice, then [d,d,e,e,f,f] twice, through all three */
    static const float x[6] = {1, 2, 3, 4, 5, 6};
    static const float want[24] = {1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6};
    RUN_DESC(&d0, DMLREF_FEATURE_LEVEL_2_0, x, 6, want, 24);
    RUN_DESC(&d1, DMLREF_FEATURE_LEVEL_2_1, x, 6, want, 24);
    RUN_DESC(&d3, FL, x, 6, want, 24);
    r3.Antialiased = 0; /* no effect on NEAREST_NEIGHBOR */
    RUN_DESC(&d3, FL, x, 6, want, 24);
    r3.Antialiased = -7;
    RUN_DESC(&d3, FL, x, 6, want, 24);

    /* levels: RESAMPLE from 2_0, RESAMPLE1 from 2_1, RESAMPLE3 at 6_4; exactly 4 dims before 5_1 */
    CHECK_RULE(dmlref_validate(&d0, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "RESAMPLE: not available at feature level 1_0 (introduced in 2_0)", "");
    CHECK_RULE(dmlref_validate(&d1, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "RESAMPLE1: not available at feature level 2_0 (introduced in 2_1)", "");
    CHECK_RULE(dmlref_validate(&d3, DMLREF_FEATURE_LEVEL_6_3, &err), err, DMLREF_ERROR_UNSUPPORTED_OPERATOR,
               "RESAMPLE3: not available at feature level 6_3 (introduced in 6_4)", "");
    tdesc_init(&in, F32, DIMS(2, 3));
    tdesc_init(&out, F32, DIMS(4, 6));
    r0.ScaleCount = 2;
    r0.Scales = sc + 2;
    CHECK_RULE(dmlref_validate(&d0, DMLREF_FEATURE_LEVEL_5_0, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
               "RESAMPLE: InputTensor.DimensionCount (2) must be in [4, 4] at feature level 5_0", "RS1");
    CHECK_STATUS(dmlref_validate(&d0, DMLREF_FEATURE_LEVEL_5_1, &err), err, DMLREF_OK, NULL);
    /* types: T2 until 6_2, then RS4 */
    tdesc_init(&in, U8, DIMS(2, 3));
    tdesc_init(&out, U8, DIMS(4, 6));
    CHECK_RULE(dmlref_validate(&d0, DMLREF_FEATURE_LEVEL_6_1, &err), err, DMLREF_ERROR_DATA_TYPE,
               "RESAMPLE: InputTensor.DataType (UINT8) is not supported at feature level 6_1", "RS2");
    CHECK_STATUS(dmlref_validate(&d0, DMLREF_FEATURE_LEVEL_6_2, &err), err, DMLREF_OK, NULL);
    /* RS3: ScaleCount; RS4; RS6 */
    r0.ScaleCount = 3;
    CHECK_RULE(dmlref_validate(&d0, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE: ScaleCount (3) must equal InputTensor.DimensionCount (2)", "RS3");
    CHECK(strcmp(err.field, "ScaleCount") == 0);
    r0.ScaleCount = 2;
    r0.InterpolationMode = DMLREF_INTERPOLATION_MODE_LINEAR;
    CHECK_RULE(dmlref_validate(&d0, FL, &err), err, DMLREF_ERROR_PARAMETER, "not supported by dmlref", "RS6");
    r0.InterpolationMode = NEAREST;
    sc[3] = -2;
    CHECK_RULE(dmlref_validate(&d0, FL, &err), err, DMLREF_ERROR_PARAMETER, "RESAMPLE: Scales[1] (-2) must be finite", "RS4");
    sc[3] = 2;
    /* RESAMPLE1: RS5 on its offsets */
    r1.DimensionCount = 2;
    ipo[1] = NAN;
    CHECK_RULE(dmlref_validate(&d1, FL, &err), err, DMLREF_ERROR_PARAMETER,
               "RESAMPLE1: InputPixelOffsets[1] (nan) must be finite", "RS5");
    ipo[1] = 0.5f;
    CHECK_STATUS(dmlref_validate(&d1, FL, &err), err, DMLREF_OK, NULL);
}

/* RESAMPLE1 == RESAMPLE2 DECREASING with InOff fl32(x - 0.5); RESAMPLE == RESAMPLE1 (0.5, -0.5);
 * RESAMPLE3 == RESAMPLE2: the same bytes on random cases (both kernels). */
TEST(resample_family_equivalences) {
    uint64_t r = test_seed(77);
    for (int iter = 0; iter < 200; ++iter) {
        const uint32_t n = 1 + (uint32_t)(splitmix64(&r) % 4);
        uint32_t in[4], out[4];
        float sc[4], ipo[4], opo[4], eff[4];
        for (uint32_t d = 0; d < n; ++d) {
            in[d] = 1 + (uint32_t)(splitmix64(&r) % 5);
            out[d] = 1 + (uint32_t)(splitmix64(&r) % 9);
            sc[d] = splitmix64(&r) % 2 ? (float)(1 + splitmix64(&r) % 3) : bits_f((uint32_t)(0x3D800000u + splitmix64(&r) % 0x3000000u));
            ipo[d] = bits_f((uint32_t)(splitmix64(&r) % 0x40400000u));
            opo[d] = bits_f((uint32_t)(splitmix64(&r) % 0x40400000u) | 0x80000000u);
            volatile float a = ipo[d];
            a = a - 0.5f;
            eff[d] = a;
        }
        const DMLREF_TENSOR_DATA_TYPE dt = splitmix64(&r) % 2 ? F16 : U8;
        rfix f2;
        rfix_init(&f2, dt, n, in, NULL, out, NULL, sc, eff, opo, DEC);
        unsigned char *data = random_bytes(&r, (size_t)f2.in.buf.TotalTensorSizeInBytes);
        const size_t ob = (size_t)f2.out.buf.TotalTensorSizeInBytes;
        unsigned char *want = malloc(ob), *got = malloc(ob);
        const dmlref_cbuffer ib = {data, (size_t)f2.in.buf.TotalTensorSizeInBytes};
        dmlref_error err;
        memset(want, 0xA5, ob);
        const dmlref_buffer wb = {want, ob}, gb = {got, ob};
        CHECK_STATUS(dmlref_run(&f2.d, FL, NULL, &ib, 1, &wb, 1, &err), err, DMLREF_OK, NULL);
        DMLREF_RESAMPLE1_OPERATOR_DESC r1 = {&f2.in.desc, &f2.out.desc, NEAREST, n, sc, ipo, opo};
        const DMLREF_OPERATOR_DESC d1 = {DMLREF_OPERATOR_RESAMPLE1, &r1};
        memset(got, 0xA5, ob);
        CHECK_STATUS(dmlref_run(&d1, FL, NULL, &ib, 1, &gb, 1, &err), err, DMLREF_OK, NULL);
        CHECK(memcmp(got, want, ob) == 0);
        DMLREF_RESAMPLE3_OPERATOR_DESC r3 = {&f2.in.desc, &f2.out.desc, NEAREST, DEC, n, sc, eff, opo, (int32_t)(splitmix64(&r) % 2)};
        const DMLREF_OPERATOR_DESC d3 = {DMLREF_OPERATOR_RESAMPLE3, &r3};
        memset(got, 0xA5, ob);
        CHECK_STATUS(dmlref_run(&d3, FL, NULL, &ib, 1, &gb, 1, &err), err, DMLREF_OK, NULL);
        CHECK(memcmp(got, want, ob) == 0);
        /* RESAMPLE: RESAMPLE1 with offsets 0.5 / -0.5 */
        for (uint32_t d = 0; d < n; ++d) ipo[d] = 0.5f, opo[d] = -0.5f;
        memset(want, 0xA5, ob);
        CHECK_STATUS(dmlref_run(&d1, FL, NULL, &ib, 1, &wb, 1, &err), err, DMLREF_OK, NULL);
        DMLREF_RESAMPLE_OPERATOR_DESC r0 = {&f2.in.desc, &f2.out.desc, NEAREST, n, sc};
        const DMLREF_OPERATOR_DESC d0 = {DMLREF_OPERATOR_RESAMPLE, &r0};
        memset(got, 0xA5, ob);
        CHECK_STATUS(dmlref_run(&d0, FL, NULL, &ib, 1, &gb, 1, &err), err, DMLREF_OK, NULL);
        CHECK(memcmp(got, want, ob) == 0);
        free(data);
        free(want);
        free(got);
    }
}
