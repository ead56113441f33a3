/*
 * (Over 600 lines on purpose: one operator's tests over the shared fixture: rules,
 * copies, ScaleBias values, random cases against the oracle and every kernel
 * reached (plain copies, transposes, ScaleBias).)
 *
 * ELEMENT_WISE_IDENTITY (P7): every rule at the feature levels where it
 * differs, the copy through strided, broadcast and gapped views, in-place
 * execution with snapshot semantics, and the fast path against the oracle on
 * random layouts with 1 and 2 threads.  ScaleBias: its arithmetic bit for bit
 * (two roundings and no fused multiply-add, -0.0, NaN, subnormals, binary16
 * rounding), through every layout and in place, and its fast path against the
 * oracle.
 */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "core/env.h" /* env_reload: tiny DMLREF_PAR_GRAIN, DMLREF_STREAM_MIN */
#include "core/scalar.h"
#include "simd/simd.h"
#include "util.h"

#define F32 DMLREF_TENSOR_DATA_TYPE_FLOAT32
#define FL DMLREF_FEATURE_LEVEL_6_4

typedef struct ifix {
    tdesc in, out;
    DMLREF_SCALE_BIAS sb;
    DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id;
    DMLREF_OPERATOR_DESC d;
} ifix;

/* Input and output of the same type and sizes; strides NULL = packed. */
static void ifix_init(ifix *f, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                      const uint32_t *in_strides, const uint32_t *out_strides) {
    tdesc_init(&f->in, dt, n, sizes, in_strides);
    tdesc_init(&f->out, dt, n, sizes, out_strides);
    f->sb = (DMLREF_SCALE_BIAS){1.0f, 0.0f};
    f->id = (DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC){&f->in.desc, &f->out.desc, NULL};
    f->d = (DMLREF_OPERATOR_DESC){DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY, &f->id};
}

static dmlref_status validate(const ifix *f, DMLREF_FEATURE_LEVEL fl, dmlref_error *err) {
    return dmlref_validate(&f->d, fl, err);
}

TEST(identity_schema) {
    const dmlref_schema *sc = dmlref_operator_schema(DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY);
    CHECK(sc != NULL);
    if (!sc) return;
    CHECK(strcmp(sc->name, "ELEMENT_WISE_IDENTITY") == 0);
    CHECK(sc->flags & DMLREF_SCHEMA_IN_PLACE);
    CHECK_EQ_U64(sc->desc_size, sizeof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC));
    CHECK_EQ_U64(sc->n_slots, 2);
    CHECK_EQ_U64(sc->n_params, 1);
    const dmlref_param *p = &sc->params[0];
    CHECK(strcmp(p->name, "ScaleBias") == 0 && p->kind == DMLREF_PARAM_STRUCT && p->is_optional);
    CHECK_EQ_U64(p->offset, offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias));
    CHECK_EQ_U64(p->struct_size, sizeof(DMLREF_SCALE_BIAS));
    CHECK(p->field_count == 2 && strcmp(p->field_names[0], "Scale") == 0 && strcmp(p->field_names[1], "Bias") == 0);
    /* only IDENTITY may run in place */
    const dmlref_schema *o;
    for (uint32_t i = 0; (o = dmlref_operator_schema_at(i)) != NULL; ++i)
        CHECK(((o->flags & DMLREF_SCHEMA_IN_PLACE) != 0) == (o->type == DMLREF_OPERATOR_ELEMENT_WISE_IDENTITY));
}

TEST(identity_validation) {
    ifix f;
    dmlref_error err;
    ifix_init(&f, F32, NDIMS(1, 2, 3, 4), SIZES(1, 2, 3, 4), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);

    /* ID1: same DimensionCount, DataType and Sizes */
    tdesc_init(&f.out, F32, DIMS(1, 2, 4, 3));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_SIZES,
                 "ELEMENT_WISE_IDENTITY: OutputTensor.Sizes {1,2,4,3} must equal InputTensor.Sizes {1,2,3,4}");
    tdesc_init(&f.out, F32, DIMS(2, 3, 4));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "ELEMENT_WISE_IDENTITY: OutputTensor.DimensionCount (3) must equal InputTensor.DimensionCount (4)");
    tdesc_init(&f.out, DMLREF_TENSOR_DATA_TYPE_INT32, DIMS(1, 2, 3, 4));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_DATA_TYPE,
                 "ELEMENT_WISE_IDENTITY: OutputTensor.DataType (INT32) must equal InputTensor.DataType (FLOAT32)");

    /* ID2 per feature level: 4-5 dims F32/F16 at 1_0, 4-5 T8 at 2_1, 1-8 T8 at 3_0, T11 at 4_1 */
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_INT8, NDIMS(1, 1, 2, 2), SIZES(1, 1, 2, 2), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_0, &err), err, DMLREF_ERROR_DATA_TYPE, "INT8");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, F32, NDIMS(2, 2, 2, 2, 2), SIZES(2, 2, 2, 2, 2), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, F32, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_DIMENSION_COUNT,
                 "InputTensor.DimensionCount (2)");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_3_0, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT64, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_0, &err), err, DMLREF_ERROR_DATA_TYPE, "FLOAT64");
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_4_1, &err), err, DMLREF_OK, NULL);

    /* ID3: output elements may not share memory; input zero strides broadcast */
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), SIZES(0, 1));
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_OUTPUT_OVERLAP, "OutputTensor.Strides[0] is 0");
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(0, 1), NULL);
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);

    /* ID5: ScaleBias with FLOAT32 and FLOAT16 only, at every level that has the type */
    ifix_init(&f, F32, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    f.id.ScaleBias = &f.sb;
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL);
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT16, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), NULL, NULL);
    f.id.ScaleBias = &f.sb;
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_OK, NULL);
    static const DMLREF_TENSOR_DATA_TYPE refused[9] = {
        DMLREF_TENSOR_DATA_TYPE_FLOAT64, DMLREF_TENSOR_DATA_TYPE_INT64,  DMLREF_TENSOR_DATA_TYPE_INT32,
        DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,   DMLREF_TENSOR_DATA_TYPE_UINT64,
        DMLREF_TENSOR_DATA_TYPE_UINT32,  DMLREF_TENSOR_DATA_TYPE_UINT16, DMLREF_TENSOR_DATA_TYPE_UINT8};
    for (int k = 0; k < 9; ++k) {
        char want[160];
        snprintf(want, sizeof want,
                 "ELEMENT_WISE_IDENTITY: ScaleBias is not supported for DataType %s: x * Scale + Bias is computed "
                 "for FLOAT32 and FLOAT16 only",
                 dmlref_data_type_name(refused[k]));
        ifix_init(&f, refused[k], NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
        CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_OK, NULL); /* valid without */
        f.id.ScaleBias = &f.sb;
        CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_PARAMETER, want);
        CHECK(strcmp(err.rule, "ID5") == 0 && strcmp(err.field, "ScaleBias") == 0);
    }
    /* the level's table first (ID2), then ScaleBias (ID5) */
    ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_UINT8, NDIMS(1, 1, 2, 3), SIZES(1, 1, 2, 3), NULL, NULL);
    f.id.ScaleBias = &f.sb;
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_1_0, &err), err, DMLREF_ERROR_DATA_TYPE, "UINT8");
    CHECK(strcmp(err.rule, "ID2") == 0);
    CHECK_STATUS(validate(&f, DMLREF_FEATURE_LEVEL_2_1, &err), err, DMLREF_ERROR_PARAMETER, "DataType UINT8");
    CHECK(strcmp(err.rule, "ID5") == 0);
    ifix_init(&f, F32, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
    f.id.OutputTensor = NULL;
    CHECK_STATUS(validate(&f, FL, &err), err, DMLREF_ERROR_NULL_POINTER, "ELEMENT_WISE_IDENTITY: OutputTensor is NULL");
}

/* A transposing copy into a gapped output: every element lands at its
 * coordinate's offset, the gaps keep their bytes. */
TEST(identity_transpose_into_gaps) {
    ifix f;
    dmlref_error err;
    /* input {2,3} read column-major (strides {1,2}); output rows padded to 4 */
    ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(1, 2), SIZES(4, 1));
    const float in[6] = {1, 2, 3, 4, 5, 6}; /* element [r][c] = in[r + 2c] */
    float out[8];
    for (int threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            const dmlref_options o = {.flags = flags, .threads = (uint32_t)threads};
            for (int i = 0; i < 8; ++i) out[i] = -1;
            dmlref_cbuffer ins[1] = {{in, sizeof in}};
            dmlref_buffer outs[1] = {{out, sizeof out}};
            CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
            const float want[8] = {1, 3, 5, -1, 2, 4, 6, -1};
            CHECK_MEM(out, want, sizeof want);
        }
}

TEST(identity_broadcast_and_bits) {
    ifix f;
    dmlref_error err;
    /* a row broadcast down 3 rows; NaN payloads and -0.0 move as bits */
    ifix_init(&f, F32, 2, SIZES(3, 2), SIZES(0, 1), NULL);
    const uint32_t in[2] = {0x7fc01234u, 0x80000000u};
    uint32_t out[6] = {0};
    dmlref_cbuffer ins[1] = {{in, sizeof in}};
    dmlref_buffer outs[1] = {{out, sizeof out}};
    CHECK_STATUS(dmlref_run(&f.d, FL, NULL, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
    const uint32_t want[6] = {0x7fc01234u, 0x80000000u, 0x7fc01234u, 0x80000000u, 0x7fc01234u, 0x80000000u};
    CHECK_MEM(out, want, sizeof want);
}

/* ID4: in place.  The same layout is a no-op; another layout reads every
 * input element before writing (a 2x2 transpose in one buffer); an output
 * that only overlaps the input is still a binding error. */
TEST(identity_in_place) {
    ifix f;
    dmlref_error err;
    for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
        const dmlref_options o = {.flags = flags, .threads = 0};
        ifix_init(&f, F32, NDIMS(2, 2), SIZES(2, 2), NULL, NULL);
        float buf[4] = {1, 2, 3, 4};
        dmlref_cbuffer ins[1] = {{buf, sizeof buf}};
        dmlref_buffer outs[1] = {{buf, sizeof buf}};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        const float same[4] = {1, 2, 3, 4};
        CHECK_MEM(buf, same, sizeof buf);

        ifix_init(&f, F32, 2, SIZES(2, 2), SIZES(1, 2), NULL); /* read transposed, write packed */
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
        const float transposed[4] = {1, 3, 2, 4};
        CHECK_MEM(buf, transposed, sizeof buf);

        float big[6] = {1, 2, 3, 4, 5, 6};
        ifix_init(&f, F32, NDIMS(2, 2), SIZES(2, 2), NULL, NULL);
        dmlref_cbuffer ins2[1] = {{big, 4 * sizeof(float)}};
        dmlref_buffer outs2[1] = {{big + 1, 4 * sizeof(float)}};
        CHECK_STATUS(dmlref_run(&f.d, FL, &o, ins2, 1, outs2, 1, &err), err, DMLREF_ERROR_BINDING,
                     "ELEMENT_WISE_IDENTITY: the OutputTensor buffer overlaps the InputTensor buffer");
    }
}

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("identity.")

/* The fast path writes exactly the oracle's bytes, gaps included, over random
 * permuted, padded and broadcast layouts of every element size. */
TEST(identity_fast_path_matches_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    const uint64_t base_seed = test_seed(12345);
    uint32_t seed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 400; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 1 + lcg(&seed) % 5;
        uint32_t sizes[8], perm[8], in_st[8], out_st[8];
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + lcg(&seed) % 5;
            perm[d] = d;
        }
        for (uint32_t d = n; d-- > 1;) {
            const uint32_t j = lcg(&seed) % (d + 1), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
        /* output: a permuted packed layout with an optional pad per dim; input:
         * packed row-major, some dims broadcast */
        uint32_t s = 1;
        for (uint32_t k = n; k-- > 0;) {
            const uint32_t d = perm[k];
            out_st[d] = s;
            s *= sizes[d] + lcg(&seed) % 2;
        }
        s = 1;
        for (uint32_t d = n; d-- > 0;) {
            in_st[d] = lcg(&seed) % 5 == 0 ? 0 : s;
            s *= sizes[d];
        }
        ifix f;
        dmlref_error err;
        const DMLREF_TENSOR_DATA_TYPE dt = types[lcg(&seed) % 4];
        ifix_init(&f, dt, n, sizes, in_st, out_st);
        const size_t in_bytes = (size_t)f.in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in = malloc(in_bytes), *ref = malloc(out_bytes), *got = malloc(out_bytes);
        if (!in || !ref || !got) abort();
        for (size_t i = 0; i < in_bytes; ++i) in[i] = (unsigned char)lcg(&seed);
        memset(ref, 0xCD, out_bytes);
        dmlref_cbuffer ins[1] = {{in, in_bytes}};
        dmlref_buffer r[1] = {{ref, out_bytes}}, g[1] = {{got, out_bytes}};
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ins, 1, r, 1, &err), err, DMLREF_OK, NULL);
        /* 1 and 2 threads, then the baseline kernels only (no AVX2 tiles where the CPU has AVX2) */
        for (uint32_t run = 0; run < 3; ++run) {
            const uint32_t threads = run == 2 ? 1 + (uint32_t)iter % 2 : run + 1;
            const dmlref_options fast = {.flags = run == 2 ? DMLREF_OPTION_BASELINE_ISA : 0, .threads = threads};
            dmlref_operator *op = NULL;
            memset(got, 0xCD, out_bytes);
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            kernels_note(&seen, dmlref_kernel_name(op));
            CHECK_STATUS(dmlref_execute(op, ins, 1, g, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u threads): fast path differs from the oracle", iter,
                          dmlref_kernel_name(op), threads);
            dmlref_release(op);
        }
        free(in);
        free(ref);
        free(got);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    CHECK(kernels_saw(&seen, "identity."));
    /* every identity.* kernel of src/ops/kernels.def, but the ones the next tests check:
     * the tiled transposes of 1- to 4-byte elements (identity_transpose_tiles_match_oracle:
     * sides of up to 70; these cases, of up to 5, reach the 8-byte tiles only) and
     * ScaleBias (identity_scale_bias_fast_path_matches_oracle) */
    static const char *const unreached[] = {"identity.transpose_x1", "identity.transpose_x2", "identity.transpose_x4",
                                            "identity.transpose_avx2.x1", "identity.transpose_avx2.x2",
                                            "identity.transpose_avx2.x4", "identity.scale_bias.f32",
                                            "identity.scale_bias.f16", NULL, NULL};
    /* the 8-byte tiles: SSE2's, and AVX2's where the CPU has it (run-time dispatch) */
    const char *list[10];
    memcpy(list, unreached, sizeof list);
    list[8] = simd_cpu_avx2() ? NULL : "identity.transpose_avx2.x8";
    CHECK_KERNELS_REACHED(&seen, "identity.", list);
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("identity.transpose_")

/* Permuted layouts large enough for the tiled transpose (copy_plan_transpose): 2 or 3 dims
 * of up to 70 (2 dims up to 300), every width, one side packed and the other permuted (either way round), now
 * and then a gap per dim or an offset of one element, which spoils the 16-byte alignment
 * of streaming stores; half the cases with a tiny thread grain and streaming stores for
 * every size.  Every byte as the oracle writes it, and every width's tiles reached. */
TEST(identity_transpose_tiles_match_oracle) {
    static const DMLREF_TENSOR_DATA_TYPE types[4] = {DMLREF_TENSOR_DATA_TYPE_UINT8, DMLREF_TENSOR_DATA_TYPE_FLOAT16,
                                                     F32, DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    const uint64_t base_seed = test_seed(777);
    uint32_t seed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 320; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint32_t n = 2 + lcg(&seed) % 2;
        uint32_t w = lcg(&seed) % 4;
        /* half the 2-dim cases up to 300 a side, half of those multiples of 16 up to 256
         * without gaps or offsets (rows that start 16-aligned: streaming stores): whole staged
         * tiles (tile_staged_x*: 128 bytes along p by 64 along q) for every width, streamed
         * or not, also after the shift that puts tiles on a cache line (up to 48 bytes) */
        const uint32_t side = n == 2 && lcg(&seed) % 2 ? 300 : 70;
        const uint32_t by16 = side == 300 && lcg(&seed) % 2;
        uint32_t sizes[8], perm[8], packed[8], permuted[8];
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = by16 ? 16 * (1 + lcg(&seed) % 16) : 1 + lcg(&seed) % side;
            perm[d] = n - 1 - d; /* reversed dim order: a true transpose */
        }
        if (n == 3 && lcg(&seed) % 2) { /* or another permutation that moves the last dim */
            perm[0] = 2;
            perm[1] = 0;
            perm[2] = 1;
        }
        const uint32_t gap = lcg(&seed) % 3 == 0 && !by16;
        uint32_t st = 1;
        for (uint32_t d = n; d-- > 0;) {
            packed[d] = st;
            st *= sizes[d];
        }
        st = 1;
        for (uint32_t k = n; k-- > 0;) {
            permuted[perm[k]] = st;
            st *= sizes[perm[k]] + gap;
        }
        const int out_permuted = lcg(&seed) % 2;
        ifix f;
        dmlref_error err;
        ifix_init(&f, types[w], n, sizes, out_permuted ? packed : permuted, out_permuted ? permuted : packed);
        /* buffers at +0 or +1 element; by16: at +0, 16, 32 or 48 bytes (streaming stores, the
         * tiles shifted to start on a cache line: transpose_run) */
        const uint32_t es = 1u << w, shift = by16 ? 16 * (lcg(&seed) % 4) : lcg(&seed) % 2 ? es : 0;
        const size_t in_bytes = (size_t)f.in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in_mem = aligned_alloc(64, (in_bytes + 127) & ~(size_t)63), *ref = malloc(out_bytes);
        unsigned char *got_mem = aligned_alloc(64, (out_bytes + 127) & ~(size_t)63);
        if (!in_mem || !ref || !got_mem) abort();
        unsigned char *in = in_mem + shift, *got = got_mem + shift;
        for (size_t i = 0; i < in_bytes; ++i) in[i] = (unsigned char)lcg(&seed);
        memset(ref, 0xCD, out_bytes);
        dmlref_cbuffer ins[1] = {{in, in_bytes}};
        dmlref_buffer r[1] = {{ref, out_bytes}}, g[1] = {{got, out_bytes}};
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ins, 1, r, 1, &err), err, DMLREF_OK, NULL);
        const int tiny = iter % 2;
        if (tiny) {
            setenv("DMLREF_PAR_GRAIN", "64", 1);
            setenv("DMLREF_STREAM_MIN", "0", 1);
            env_reload();
        }
        /* 1 and 2 threads, then the baseline kernels only (no AVX2 tiles where the CPU has AVX2) */
        for (uint32_t run = 0; run < 3; ++run) {
            const uint32_t threads = run == 2 ? 1 + (uint32_t)iter % 2 : run + 1;
            const dmlref_options fast = {.flags = run == 2 ? DMLREF_OPTION_BASELINE_ISA : 0, .threads = threads};
            dmlref_operator *op = NULL;
            memset(got, 0xCD, out_bytes);
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            kernels_note(&seen, dmlref_kernel_name(op));
            CHECK_STATUS(dmlref_execute(op, ins, 1, g, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u threads): fast path differs from the oracle", iter,
                          dmlref_kernel_name(op), threads);
            dmlref_release(op);
        }
        if (tiny) {
            unsetenv("DMLREF_PAR_GRAIN");
            unsetenv("DMLREF_STREAM_MIN");
            env_reload();
        }
        free(in_mem);
        free(ref);
        free(got_mem);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    /* the tiles of every width, both ways where the CPU has AVX2 */
    static const char *const no_avx2[] = {"identity.transpose_avx2.x1", "identity.transpose_avx2.x2",
                                          "identity.transpose_avx2.x4", "identity.transpose_avx2.x8", NULL};
    CHECK_KERNELS_REACHED(&seen, "identity.transpose_", simd_cpu_avx2() ? NULL : no_avx2);
}

TEST(identity_desc_layout) {
    const size_t p = sizeof(void *);
    CHECK_EQ_U64(sizeof(DMLREF_SCALE_BIAS), 8);
    CHECK_EQ_U64(offsetof(DMLREF_SCALE_BIAS, Bias), 4);
    CHECK_EQ_U64(sizeof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC), 3 * p); /* 24 on LP64, 12 on ILP32 */
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, InputTensor), 0);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, OutputTensor), p);
    CHECK_EQ_U64(offsetof(DMLREF_ELEMENT_WISE_IDENTITY_OPERATOR_DESC, ScaleBias), 2 * p);
}

/* ---- ScaleBias ------------------------------------------------------------- */

static float f32_of(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Runs f (ScaleBias set) on in into out: the oracle (flags FORCE_ORACLE) or the fast path. */
static void sb_run(ifix *f, uint32_t flags, uint32_t threads, const void *in, size_t in_bytes, void *out,
                   size_t out_bytes) {
    dmlref_error err;
    const dmlref_options o = {.flags = flags, .threads = threads};
    dmlref_cbuffer ins[1] = {{in, in_bytes}};
    dmlref_buffer outs[1] = {{out, out_bytes}};
    CHECK_STATUS(dmlref_run(&f->d, FL, &o, ins, 1, outs, 1, &err), err, DMLREF_OK, NULL);
}

/* FLOAT32, element by element: fl32(fl32(x * Scale) + Bias), each row of the
 * table through the oracle and (in a run of 37 copies, so the vector kernel
 * and its tail both see it) the fast path. */
TEST(identity_scale_bias_f32_values) {
    static const struct {
        uint32_t x, scale, bias, want;
        const char *what;
    } rows[] = {
        /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds (a tie, to even) to 1 + 2^-11; minus that is +0.
         * A fused multiply-add keeps the 2^-24: 0x33800000. */
        {0x3F800800u, 0x3F800800u, 0xBF801000u, 0x00000000u, "two roundings, no FMA"},
        {0x80000000u, 0x3F800000u, 0x00000000u, 0x00000000u, "-0.0 * 1 + 0 is +0.0"},
        {0x80000000u, 0x3F800000u, 0x80000000u, 0x80000000u, "-0.0 * 1 + -0.0 is -0.0"},
        {0x00000000u, 0xBF800000u, 0x00000000u, 0x00000000u, "0 * -1 + 0 is +0.0"},
        {0x40400000u, 0x3F000000u, 0x3F800000u, 0x40200000u, "3 * 0.5 + 1 = 2.5"},
        {0x7FC01234u, 0x3F800000u, 0x00000000u, 0x7FC00000u, "a NaN payload does not survive"},
        {0xFFC00000u, 0x3F800000u, 0x00000000u, 0x7FC00000u, "nor a NaN's sign"},
        {0x7F800001u, 0x3F800000u, 0x00000000u, 0x7FC00000u, "a signalling NaN: the canonical quiet NaN"},
        {0x7F800000u, 0x00000000u, 0x00000000u, 0x7FC00000u, "inf * 0: the canonical NaN (x86 makes 0xFFC00000)"},
        {0x7F800000u, 0x3F800000u, 0xFF800000u, 0x7FC00000u, "inf - inf"},
        {0x3F800000u, 0x7FC00000u, 0x00000000u, 0x7FC00000u, "Scale NaN"},
        {0x3F800000u, 0x3F800000u, 0x7FA00000u, 0x7FC00000u, "Bias a signalling NaN"},
        {0x7F7FFFFFu, 0x40000000u, 0x00000000u, 0x7F800000u, "overflow to inf"},
        /* FLT_MAX * 2 overflows before -FLT_MAX is added; fused, the result would be FLT_MAX */
        {0x7F7FFFFFu, 0x40000000u, 0xFF7FFFFFu, 0x7F800000u, "the product overflows first, no FMA"},
        {0x00800001u, 0x3F000000u, 0x00000000u, 0x00400000u, "into the subnormals: a tie, to even"},
        {0x00800003u, 0x3F000000u, 0x00000000u, 0x00400002u, "into the subnormals: a tie, to even (up)"},
        {0x00000001u, 0x3F800000u, 0x00000000u, 0x00000001u, "a subnormal input is not flushed"},
        {0x00000001u, 0x3F000000u, 0x00000000u, 0x00000000u, "2^-150 rounds (a tie) to +0"},
        {0x4B800000u, 0x3F800000u, 0x3F800000u, 0x4B800000u, "2^24 + 1 rounds to 2^24"},
    };
    const size_t n_rows = sizeof rows / sizeof rows[0];
    for (size_t k = 0; k < n_rows; ++k) {
        ifix f;
        ifix_init(&f, F32, NDIMS(37), SIZES(37), NULL, NULL);
        f.sb = (DMLREF_SCALE_BIAS){f32_of(rows[k].scale), f32_of(rows[k].bias)};
        f.id.ScaleBias = &f.sb;
        uint32_t in[37], out[37];
        for (int i = 0; i < 37; ++i) in[i] = rows[k].x;
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            memset(out, 0xCD, sizeof out);
            sb_run(&f, flags, 1, in, sizeof in, out, sizeof out);
            for (int i = 0; i < 37; ++i)
                if (out[i] != rows[k].want) {
                    test_fail(__FILE__, __LINE__, "%s (%s, element %d): got 0x%08X, want 0x%08X", rows[k].what,
                              flags ? "oracle" : "fast path", i, (unsigned)out[i], (unsigned)rows[k].want);
                    break;
                }
        }
    }
}

/* FLOAT16: widened exactly, the FLOAT32 arithmetic, one rounding to binary16. */
TEST(identity_scale_bias_f16_values) {
    static const struct {
        uint16_t x;
        uint32_t scale, bias;
        uint16_t want;
        const char *what;
    } rows[] = {
        /* (1 + 2^-10)(1 + 2^-14) = 1 + 2^-10 + 2^-14 + 2^-24: the binary32 product rounds (a tie, to
         * even) the 2^-24 away, the sum is +0; fused, it would be 2^-24, binary16 0x0001 */
        {0x3C01u, 0x3F800200u, 0xBF802200u, 0x0000u, "two roundings, no FMA"},
        {0x8000u, 0x3F800000u, 0x00000000u, 0x0000u, "-0.0 * 1 + 0 is +0.0"},
        {0x8000u, 0x3F800000u, 0x80000000u, 0x8000u, "-0.0 * 1 + -0.0 is -0.0"},
        {0x3C00u, 0x3F800000u, 0x3A000000u, 0x3C00u, "1 + 2^-11: a binary16 tie, to even (down)"},
        {0x3C00u, 0x3F800000u, 0x3AC00000u, 0x3C02u, "1 + 3 * 2^-11: a binary16 tie, to even (up)"},
        {0x3C00u, 0x3F800000u, 0x3A000001u, 0x3C00u, "1 + 2^-11 + 2^-34: rounded in binary32 first, then a tie"},
        {0x0400u, 0x3F000000u, 0x00000000u, 0x0200u, "2^-14 * 0.5: a binary16 subnormal"},
        {0x0001u, 0x3F800000u, 0x00000000u, 0x0001u, "the smallest subnormal, widened exactly"},
        {0x7BFFu, 0x40000000u, 0x00000000u, 0x7C00u, "65504 * 2 overflows to inf"},
        {0x3C00u, 0x477FF000u, 0x00000000u, 0x7C00u, "65520: a binary16 tie between 65504 and 2^16, to inf"},
        {0x3C00u, 0x477FEFFFu, 0x00000000u, 0x7BFFu, "just below 65520: 65504"},
        {0x7D00u, 0x3F800000u, 0x00000000u, 0x7E00u, "a signalling NaN: the canonical quiet NaN"},
        {0xFE01u, 0x3F800000u, 0x00000000u, 0x7E00u, "a NaN payload and sign do not survive"},
        {0x7C00u, 0x00000000u, 0x00000000u, 0x7E00u, "inf * 0"},
        {0x4200u, 0x3F000000u, 0xBF800000u, 0x3800u, "3 * 0.5 - 1 = 0.5"},
    };
    const size_t n_rows = sizeof rows / sizeof rows[0];
    for (size_t k = 0; k < n_rows; ++k) {
        ifix f;
        ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT16, NDIMS(9), SIZES(9), NULL, NULL);
        f.sb = (DMLREF_SCALE_BIAS){f32_of(rows[k].scale), f32_of(rows[k].bias)};
        f.id.ScaleBias = &f.sb;
        uint16_t in[10], out[10];
        for (int i = 0; i < 10; ++i) in[i] = rows[k].x;
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            memset(out, 0xCD, sizeof out);
            sb_run(&f, flags, 1, in, sizeof in, out, sizeof out);
            for (int i = 0; i < 9; ++i)
                if (out[i] != rows[k].want) {
                    test_fail(__FILE__, __LINE__, "%s (%s, element %d): got 0x%04X, want 0x%04X", rows[k].what,
                              flags ? "oracle" : "fast path", i, (unsigned)out[i], (unsigned)rows[k].want);
                    break;
                }
            CHECK_EQ_U64(out[9], 0xCDCD); /* the padding to 4 bytes is no element */
        }
    }
}

/* Every binary16 -> binary32 widening is exact: back to binary16 gives the same
 * bits (NaNs: quieted), and the values agree with the binary16 formula. */
TEST(identity_f16_widening_exact) {
    for (uint32_t h = 0; h < 0x10000u; ++h) {
        const uint32_t w = scalar_f16_to_f32_bits((uint16_t)h);
        const int is_nan = (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu);
        uint16_t back;
        if (is_nan) {
            back = (uint16_t)((w >> 16 & 0x8000u) | 0x7C00u | (w >> 13 & 0x3FFu)); /* the payload, in place */
            if (back != h || (w & 0x7F800000u) != 0x7F800000u) {
                test_fail(__FILE__, __LINE__, "NaN 0x%04X widened to 0x%08X", (unsigned)h, (unsigned)w);
                return;
            }
            continue;
        }
        back = scalar_f32_to_f16(f32_of(w));
        /* the value: (-1)^s * 2^(e-15) * 1.m, or 2^-14 * 0.m */
        const uint32_t e = h >> 10 & 0x1Fu, m = h & 0x3FFu;
        double v = e == 0 ? m / 16777216.0 : e == 31 ? 1e300 * 1e300 : (1024 + m) / 1024.0;
        for (uint32_t k = 15; e && e != 31 && k < e; ++k) v *= 2;
        for (uint32_t k = e; e && k < 15; ++k) v /= 2;
        if (h & 0x8000u) v = -v;
        if (back != h || (double)f32_of(w) != v) {
            test_fail(__FILE__, __LINE__, "0x%04X widened to 0x%08X, back 0x%04X", (unsigned)h, (unsigned)w,
                      (unsigned)back);
            return;
        }
    }
}

/* Through a transposing, gapped output, a broadcast input, and in place (the
 * same layout: computed where it stands; another layout: a snapshot first). */
TEST(identity_scale_bias_layouts) {
    ifix f;
    for (int threads = 0; threads <= 2; ++threads)
        for (uint32_t flags = 0; flags <= DMLREF_OPTION_FORCE_ORACLE; flags += DMLREF_OPTION_FORCE_ORACLE) {
            /* input {2,3} read column-major, output rows padded to 4 */
            ifix_init(&f, F32, 2, SIZES(2, 3), SIZES(1, 2), SIZES(4, 1));
            f.sb = (DMLREF_SCALE_BIAS){2.0f, -1.0f};
            f.id.ScaleBias = &f.sb;
            const float in[6] = {1, 2, 3, 4, 5, 6}; /* element [r][c] = in[r + 2c] */
            float out[8];
            for (int i = 0; i < 8; ++i) out[i] = -7;
            sb_run(&f, flags, (uint32_t)threads, in, sizeof in, out, sizeof out);
            const float want[8] = {1, 5, 9, -7, 3, 7, 11, -7};
            CHECK_MEM(out, want, sizeof want);

            /* a FLOAT16 row broadcast down 3 rows: 1.5 * 2 - 1 = 2, -0.0 * 2 + 0.5 = 0.5 */
            ifix_init(&f, DMLREF_TENSOR_DATA_TYPE_FLOAT16, 2, SIZES(3, 2), SIZES(0, 1), NULL);
            f.sb = (DMLREF_SCALE_BIAS){2.0f, -1.0f};
            f.id.ScaleBias = &f.sb;
            const uint16_t hin[2] = {0x3E00u, 0x8000u};
            uint16_t hout[6];
            sb_run(&f, flags, (uint32_t)threads, hin, sizeof hin, hout, sizeof hout);
            const uint16_t hwant[6] = {0x4000u, 0xBC00u, 0x4000u, 0xBC00u, 0x4000u, 0xBC00u};
            CHECK_MEM(hout, hwant, sizeof hwant);

            /* in place, same layout: computed in its place (not a no-op) */
            ifix_init(&f, F32, NDIMS(2, 3), SIZES(2, 3), NULL, NULL);
            f.sb = (DMLREF_SCALE_BIAS){1.0f, 0.0f};
            f.id.ScaleBias = &f.sb;
            uint32_t buf[6] = {0x80000000u, 0x7FC01234u, 0x3F800000u, 0x80000000u, 0x00000001u, 0xFF800000u};
            sb_run(&f, flags, (uint32_t)threads, buf, sizeof buf, buf, sizeof buf);
            const uint32_t bwant[6] = {0, 0x7FC00000u, 0x3F800000u, 0, 0x00000001u, 0xFF800000u};
            CHECK_MEM(buf, bwant, sizeof bwant);

            /* in place, a transpose: every element read before any is written */
            ifix_init(&f, F32, 2, SIZES(2, 2), SIZES(1, 2), NULL);
            f.sb = (DMLREF_SCALE_BIAS){10.0f, 1.0f};
            f.id.ScaleBias = &f.sb;
            float t[4] = {1, 2, 3, 4};
            sb_run(&f, flags, (uint32_t)threads, t, sizeof t, t, sizeof t);
            const float twant[4] = {11, 31, 21, 41};
            CHECK_MEM(t, twant, sizeof twant);
        }
}

/* the prefixes of this test's CHECK_KERNELS_REACHED calls (the whole-list check) */
KERNELS_CHECKED("identity.scale_bias.")

/* The fast path writes exactly the oracle's bytes with ScaleBias: random
 * layouts (long contiguous rows for the vector kernel, strided, broadcast,
 * gapped), random bits in the data (NaNs, subnormals, infinities), random
 * Scale and Bias, 1 and 2 threads (large cases split between them). */
TEST(identity_scale_bias_fast_path_matches_oracle) {
    static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x3F800000u, 0xBF800000u, 0x7F800000u,
                                        0xFF800000u, 0x7FC00000u, 0x7F800001u, 0x00000001u, 0x7F7FFFFFu,
                                        0x3F000000u, 0x40000000u, 0x00800000u, 0x33800000u};
    const uint64_t base_seed = test_seed(4242);
    uint32_t seed = 0;
    kernels_seen seen = {{0}, 0};
    for (int iter = 0; iter < 300; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint32_t)test_case_seed(base_seed, (uint64_t)iter);
        const int large = iter % 25 == 0;
        const uint32_t n = 1 + lcg(&seed) % (large ? 2 : 4);
        uint32_t sizes[8], in_st[8], out_st[8], perm[8];
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = 1 + lcg(&seed) % (large ? 2 : 9);
            perm[d] = d;
        }
        /* 2^16 elements and more: 256 KiB of work (FLOAT16), split between two threads */
        if (large) sizes[n - 1] = 66000 + lcg(&seed) % 3000;
        const int permute = lcg(&seed) % 3 == 0;
        for (uint32_t d = n; permute && d-- > 1;) {
            const uint32_t j = lcg(&seed) % (d + 1), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
        uint32_t s = 1;
        for (uint32_t k = n; k-- > 0;) {
            const uint32_t d = perm[k];
            out_st[d] = s;
            s *= sizes[d] + (lcg(&seed) % 4 == 0);
        }
        s = 1;
        for (uint32_t d = n; d-- > 0;) {
            in_st[d] = lcg(&seed) % 6 == 0 ? 0 : s;
            s *= sizes[d] + (lcg(&seed) % 5 == 0);
        }
        ifix f;
        dmlref_error err;
        const int f16 = lcg(&seed) % 2;
        const DMLREF_TENSOR_DATA_TYPE dt = f16 ? DMLREF_TENSOR_DATA_TYPE_FLOAT16 : F32;
        ifix_init(&f, dt, n, sizes, in_st, out_st);
        uint32_t sb[2];
        for (int k = 0; k < 2; ++k)
            sb[k] = lcg(&seed) % 4 == 0 ? specials[lcg(&seed) % (sizeof specials / sizeof specials[0])]
                                        : (lcg(&seed) << 8 ^ lcg(&seed)) & 0xBFFFFFFFu; /* |v| < 2 mostly */
        f.sb = (DMLREF_SCALE_BIAS){f32_of(sb[0]), f32_of(sb[1])};
        f.id.ScaleBias = &f.sb;
        const size_t in_bytes = (size_t)f.in.buf.TotalTensorSizeInBytes, out_bytes = (size_t)f.out.buf.TotalTensorSizeInBytes;
        unsigned char *in = malloc(in_bytes), *ref = malloc(out_bytes), *got = malloc(out_bytes);
        if (!in || !ref || !got) abort();
        for (size_t i = 0; i < in_bytes; i += 4) {
            uint32_t v = lcg(&seed) << 8 ^ lcg(&seed);
            if (lcg(&seed) % 8 == 0) v = specials[lcg(&seed) % (sizeof specials / sizeof specials[0])];
            memcpy(in + i, &v, in_bytes - i < 4 ? in_bytes - i : 4);
        }
        memset(ref, 0xCD, out_bytes);
        dmlref_cbuffer ins[1] = {{in, in_bytes}};
        dmlref_buffer r[1] = {{ref, out_bytes}}, g[1] = {{got, out_bytes}};
        const dmlref_options oracle = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
        CHECK_STATUS(dmlref_run(&f.d, FL, &oracle, ins, 1, r, 1, &err), err, DMLREF_OK, NULL);
        /* 1 and 2 threads, then the baseline kernels only (no AVX2 tiles where the CPU has AVX2) */
        for (uint32_t run = 0; run < 3; ++run) {
            const uint32_t threads = run == 2 ? 1 + (uint32_t)iter % 2 : run + 1;
            const dmlref_options fast = {.flags = run == 2 ? DMLREF_OPTION_BASELINE_ISA : 0, .threads = threads};
            dmlref_operator *op = NULL;
            memset(got, 0xCD, out_bytes);
            CHECK_STATUS(dmlref_compile(&f.d, FL, &fast, &op, &err), err, DMLREF_OK, NULL);
            if (!op) continue;
            const char *name = dmlref_kernel_name(op);
            kernels_note(&seen, name);
            CHECK_STATUS(dmlref_execute(op, ins, 1, g, 1, &err), err, DMLREF_OK, NULL);
            if (memcmp(ref, got, out_bytes) != 0)
                test_fail(__FILE__, __LINE__, "case %d (%s, %u threads, Scale 0x%08X Bias 0x%08X): fast path differs "
                          "from the oracle", iter, name, threads, (unsigned)sb[0], (unsigned)sb[1]);
            dmlref_release(op);
        }
        free(in);
        free(ref);
        free(got);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
    CHECK_KERNELS_REACHED(&seen, "identity.scale_bias.", NULL); /* f32 and f16 */
}
