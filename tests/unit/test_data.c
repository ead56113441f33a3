/*
 * (Over 600 lines on purpose: one section per operator over the shared
 * fixtures and sentinel checks of this file.)
 *
 * Data tests: what each operator writes, byte for byte.  Every data type,
 * DimensionCount 1-8, strided / broadcast inputs, strided outputs whose gap
 * bytes and rounding tail must keep the 0xCD sentinel, negative and
 * out-of-range indices (clamp and the checking option), SCATTER_ND
 * duplicates, extreme 64-bit values, NaN payloads and -0.0, and
 * compile-once / execute-many.
 *
 * Each tensor lives in its own malloc'd block of exactly
 * TotalTensorSizeInBytes (so ASan sees any access past it).  The expected
 * output is the prefilled output buffer with the expected elements stored at
 * the addresses the tensor desc gives them; comparing whole buffers checks
 * the addressed bytes and that no other byte was touched.
 */
#include <stdlib.h>

#include "check.h"
#include "util.h"

#define SENTINEL 0xCD
#define FL64 DMLREF_FEATURE_LEVEL_6_4
#define U32 DMLREF_TENSOR_DATA_TYPE_UINT32
#define I32 DMLREF_TENSOR_DATA_TYPE_INT32
#define U64 DMLREF_TENSOR_DATA_TYPE_UINT64
#define I64 DMLREF_TENSOR_DATA_TYPE_INT64

static const dmlref_options check_opt = {.flags = DMLREF_OPTION_CHECK_INDICES, .threads = 0};

static const DMLREF_TENSOR_DATA_TYPE all_types[] = {
    DMLREF_TENSOR_DATA_TYPE_FLOAT32, DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_UINT32,
    DMLREF_TENSOR_DATA_TYPE_UINT16,  DMLREF_TENSOR_DATA_TYPE_UINT8,   DMLREF_TENSOR_DATA_TYPE_INT32,
    DMLREF_TENSOR_DATA_TYPE_INT16,   DMLREF_TENSOR_DATA_TYPE_INT8,    DMLREF_TENSOR_DATA_TYPE_FLOAT64,
    DMLREF_TENSOR_DATA_TYPE_UINT64,  DMLREF_TENSOR_DATA_TYPE_INT64,
};
#define N_TYPES (sizeof all_types / sizeof all_types[0])

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void) { /* xorshift64 */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}

/* ---- a tensor with its own buffer ------------------------------------------ */

typedef struct tbuf {
    tdesc t;
    uint32_t esize, n;
    unsigned char *data; /* TotalTensorSizeInBytes bytes */
    size_t bytes;
} tbuf;

/* extra: bytes added to the minimum TotalTensorSizeInBytes; fill: -1 random, else the byte. */
static void tb_init(tbuf *b, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n, const uint32_t *sizes,
                    const uint32_t *strides, uint32_t extra, int fill) {
    tdesc_init(&b->t, dt, n, sizes, strides);
    b->t.buf.TotalTensorSizeInBytes += extra;
    b->esize = dmlref_data_type_size(dt);
    b->n = n;
    b->bytes = (size_t)b->t.buf.TotalTensorSizeInBytes;
    b->data = malloc(b->bytes);
    for (size_t i = 0; i < b->bytes; ++i) b->data[i] = (unsigned char)(fill < 0 ? rnd() : (uint32_t)fill);
}

static void tb_free(tbuf *b) {
    free(b->data);
    b->data = NULL;
}

static size_t tb_offset(const tbuf *b, const uint32_t *c) {
    size_t off = 0, stride = 1;
    for (uint32_t d = b->n; d-- > 0;) {
        const size_t s = b->t.buf.Strides ? b->t.buf.Strides[d] : stride;
        off += c[d] * s;
        stride *= b->t.sizes[d];
    }
    return off * b->esize;
}

static unsigned char *tb_at(const tbuf *b, const uint32_t *c) { return b->data + tb_offset(b, c); }

/* Stores an index value at c in the tensor's index type. */
static void tb_set_index(tbuf *b, const uint32_t *c, int64_t v) {
    unsigned char *p = tb_at(b, c);
    switch (b->t.buf.DataType) {
    case DMLREF_TENSOR_DATA_TYPE_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    case DMLREF_TENSOR_DATA_TYPE_UINT32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: { memcpy(p, &v, 8); break; } /* INT64, UINT64 (two's complement bits) */
    }
}

/* Next coordinate in row-major order; 0 when it wrapped past the last one. */
static int next_coord(uint32_t *c, const uint32_t *sizes, uint32_t n) {
    for (uint32_t d = n; d-- > 0;) {
        if (++c[d] < sizes[d]) return 1;
        c[d] = 0;
    }
    return 0;
}

/* A copy of b's bytes (to build the expected output in). */
static unsigned char *tb_copy(const tbuf *b) {
    unsigned char *p = malloc(b->bytes);
    memcpy(p, b->data, b->bytes);
    return p;
}

static void check_bytes_at(const char *file, int line, const unsigned char *got, const unsigned char *want,
                           size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (got[i] != want[i]) {
            test_fail(file, line, "byte %zu of %zu: got 0x%02x, want 0x%02x", i, n, got[i], want[i]);
            return;
        }
}
#define CHECK_BYTES(got, want, n) check_bytes_at(__FILE__, __LINE__, (got), (want), (n))

static dmlref_status run_tb(DMLREF_OPERATOR_TYPE type, const void *desc, const dmlref_options *opt,
                            tbuf *const *ins, uint32_t nin, tbuf *const *outs, uint32_t nout, dmlref_error *err) {
    dmlref_cbuffer in[8];
    dmlref_buffer out[8];
    for (uint32_t i = 0; i < nin; ++i) in[i] = (dmlref_cbuffer){ins[i]->data, ins[i]->bytes};
    for (uint32_t i = 0; i < nout; ++i) out[i] = (dmlref_buffer){outs[i]->data, outs[i]->bytes};
    const DMLREF_OPERATOR_DESC d = {type, desc};
    return dmlref_run(&d, FL64, opt, in, nin, out, nout, err);
}

/* ---- GATHER with K = 1: out[c] = in[c with c[a] = norm(idx[.., c[a]])] --- */

/* Runs GATHER (Axis a, K 1, indices {1,..,1,L}) and checks the output buffer. */
static void gather_k1_at(const char *file, int line, tbuf *in, tbuf *ix, tbuf *out, uint32_t a,
                         const dmlref_options *opt) {
    const uint32_t n = in->n, L = ix->t.sizes[n - 1];
    DMLREF_GATHER_OPERATOR_DESC g = {&in->t.desc, &ix->t.desc, &out->t.desc, a, 1};
    unsigned char *want = tb_copy(out);
    uint32_t c[8] = {0}, ic[8] = {0}, jc[8] = {0};
    do {
        memcpy(ic, c, sizeof ic);
        jc[n - 1] = c[a];
        int64_t v;
        const unsigned char *p = tb_at(ix, jc);
        if (ix->esize == 4) {
            int32_t x;
            memcpy(&x, p, 4);
            v = ix->t.buf.DataType == U32 ? (int64_t)(uint32_t)x : x;
        } else {
            memcpy(&v, p, 8);
        }
        ic[a] = (uint32_t)(v < 0 ? v + in->t.sizes[a] : v);
        memcpy(want + tb_offset(out, c), tb_at(in, ic), in->esize);
    } while (next_coord(c, out->t.sizes, n));
    (void)L;
    dmlref_error err;
    tbuf *ins[2] = {in, ix}, *outs[1] = {out};
    check_status_at(file, line, run_tb(DMLREF_OPERATOR_GATHER, &g, opt, ins, 2, outs, 1, &err), &err, DMLREF_OK,
                    NULL);
    check_bytes_at(file, line, out->data, want, out->bytes);
    free(want);
}
#define GATHER_K1(in, ix, out, a, opt) gather_k1_at(__FILE__, __LINE__, (in), (ix), (out), (a), (opt))

/* Fills a K = 1 indices tensor {1,..,1,L} with in-range values for n (some negative when signed). */
static void fill_indices_k1(tbuf *ix, uint32_t n_axis) {
    uint32_t c[8] = {0};
    const int is_signed = ix->t.buf.DataType == I32 || ix->t.buf.DataType == I64;
    do {
        int64_t v = rnd() % n_axis;
        if (is_signed && (rnd() & 1)) v -= n_axis;
        tb_set_index(ix, c, v);
    } while (next_coord(c, ix->t.sizes, ix->n));
}

TEST(data_gather_every_data_type) {
    for (size_t t = 0; t < N_TYPES; ++t) {
        tbuf in, ix, out;
        tb_init(&in, all_types[t], 2, SIZES(3, 5), NULL, 0, -1);
        tb_init(&ix, I64, 2, SIZES(1, 7), NULL, 0, 0);
        tb_init(&out, all_types[t], 2, SIZES(3, 7), NULL, 0, SENTINEL);
        fill_indices_k1(&ix, 5);
        GATHER_K1(&in, &ix, &out, 1, NULL);
        tb_free(&in), tb_free(&ix), tb_free(&out);
    }
}

TEST(data_gather_dimension_counts_1_to_8) {
    for (uint32_t n = 1; n <= 8; ++n)
        for (uint32_t a = 0; a < n; ++a) {
            uint32_t is[8], xs[8], os[8];
            for (uint32_t d = 0; d < n; ++d) is[d] = os[d] = 2, xs[d] = 1;
            is[a] = 3;
            xs[n - 1] = os[a] = 3;
            tbuf in, ix, out;
            tb_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT16, n, is, NULL, 0, -1);
            tb_init(&ix, (a & 1) ? I32 : U32, n, xs, NULL, 0, 0);
            tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT16, n, os, NULL, 2, SENTINEL);
            fill_indices_k1(&ix, 3);
            GATHER_K1(&in, &ix, &out, a, NULL);
            tb_free(&in), tb_free(&ix), tb_free(&out);
        }
}

TEST(data_gather_strided_broadcast_inputs_and_gapped_outputs) {
    /* Input {3,4}: rows padded to 7 elements; then a broadcast input (row stride 0) */
    tbuf in, inb, ix, out, out2;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(3, 4), SIZES(7, 1), 6, -1);
    tb_init(&inb, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(3, 4), SIZES(0, 1), 0, -1);
    /* Indices {1,5} with stride 3 (gaps), INT32 */
    tb_init(&ix, I32, 2, SIZES(1, 5), SIZES(5, 3), 0, 0x7F);
    /* Output {3,5} transposed and padded: element [r,c] at c*4 + r, TotalTensorSizeInBytes + 10 */
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(3, 5), SIZES(1, 4), 10, SENTINEL);
    tb_init(&out2, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(3, 5), SIZES(11, 2), 0, SENTINEL);
    const int32_t idx[5] = {3, -4, 0, -1, 2};
    for (uint32_t i = 0; i < 5; ++i) tb_set_index(&ix, (const uint32_t[]){0, i}, idx[i]);
    GATHER_K1(&in, &ix, &out, 1, NULL);
    GATHER_K1(&inb, &ix, &out2, 1, &check_opt);
    /* the broadcast input gives three equal rows */
    CHECK(memcmp(tb_at(&out2, (const uint32_t[]){0, 1}), tb_at(&out2, (const uint32_t[]){2, 1}), 2) == 0);
    /* broadcast indices: Indices {1,1,6} all reading one element (stride 0) */
    tbuf in3, ix3, out3;
    tb_init(&in3, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 3, SIZES(2, 1, 5), NULL, 0, -1);
    tb_init(&ix3, U64, 3, SIZES(1, 1, 6), SIZES(0, 0, 0), 0, 0);
    tb_init(&out3, DMLREF_TENSOR_DATA_TYPE_FLOAT64, 3, SIZES(2, 1, 6), SIZES(20, 13, 3), 4, SENTINEL);
    tb_set_index(&ix3, (const uint32_t[]){0, 0, 0}, 4);
    GATHER_K1(&in3, &ix3, &out3, 2, NULL);
    tb_free(&in), tb_free(&inb), tb_free(&ix), tb_free(&out), tb_free(&out2);
    tb_free(&in3), tb_free(&ix3), tb_free(&out3);
}

TEST(data_gather_general_k_and_cropping) {
    /* docs/operators.md 2.5 example 8 with strided tensors: Input {1,2,3,4,5} Axis 3 K 2, Indices {1,1,1,6,7}
     * -> Output {2,3,6,7,5}: output[p,q,r,s,t] = input[0,p,q, idx[0,0,0,r,s], t] */
    tbuf in, ix, out;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, 5, SIZES(1, 2, 3, 4, 5), SIZES(999, 70, 23, 5, 1), 3, -1);
    tb_init(&ix, I64, 5, SIZES(1, 1, 1, 6, 7), SIZES(0, 0, 0, 8, 1), 0, 0);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, 5, SIZES(2, 3, 6, 7, 5), SIZES(700, 230, 38, 5, 1), 1,
            SENTINEL);
    uint32_t c[5] = {0};
    do tb_set_index(&ix, c, (int64_t)(rnd() % 8) - 4);
    while (next_coord(c, ix.t.sizes, 5));
    unsigned char *want = tb_copy(&out);
    memset(c, 0, sizeof c);
    do {
        int64_t v;
        memcpy(&v, tb_at(&ix, (const uint32_t[]){0, 0, 0, c[2], c[3]}), 8);
        const uint32_t ic[5] = {0, c[0], c[1], (uint32_t)(v < 0 ? v + 4 : v), c[4]};
        want[tb_offset(&out, c)] = *tb_at(&in, ic);
    } while (next_coord(c, out.t.sizes, 5));
    DMLREF_GATHER_OPERATOR_DESC g = {&in.t.desc, &ix.t.desc, &out.t.desc, 3, 2};
    tbuf *ins[2] = {&in, &ix}, *outs[1] = {&out};
    dmlref_error err;
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_GATHER, &g, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_BYTES(out.data, want, out.bytes);
    free(want);
    tb_free(&in), tb_free(&ix), tb_free(&out);
}

/* ---- GATHER_ELEMENTS: out[c] = in[c with c[a] = norm(idx[c])] ----------------- */

static void gather_elements_at(const char *file, int line, tbuf *in, tbuf *ix, tbuf *out, uint32_t a,
                               const dmlref_options *opt) {
    const uint32_t n = in->n;
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in->t.desc, &ix->t.desc, &out->t.desc, a};
    unsigned char *want = tb_copy(out);
    uint32_t c[8] = {0}, ic[8];
    do {
        int64_t v;
        const unsigned char *p = tb_at(ix, c);
        if (ix->esize == 4) {
            int32_t x;
            memcpy(&x, p, 4);
            v = ix->t.buf.DataType == U32 ? (int64_t)(uint32_t)x : x;
        } else {
            memcpy(&v, p, 8);
        }
        memcpy(ic, c, sizeof ic);
        ic[a] = (uint32_t)(v < 0 ? v + in->t.sizes[a] : v);
        memcpy(want + tb_offset(out, c), tb_at(in, ic), in->esize);
    } while (next_coord(c, out->t.sizes, n));
    dmlref_error err;
    tbuf *ins[2] = {in, ix}, *outs[1] = {out};
    check_status_at(file, line, run_tb(DMLREF_OPERATOR_GATHER_ELEMENTS, &g, opt, ins, 2, outs, 1, &err), &err,
                    DMLREF_OK, NULL);
    check_bytes_at(file, line, out->data, want, out->bytes);
    free(want);
}
#define GATHER_ELEMENTS(in, ix, out, a, opt) gather_elements_at(__FILE__, __LINE__, (in), (ix), (out), (a), (opt))

static void fill_indices(tbuf *ix, uint32_t n_axis) {
    uint32_t c[8] = {0};
    const int is_signed = ix->t.buf.DataType == I32 || ix->t.buf.DataType == I64;
    do {
        int64_t v = rnd() % n_axis;
        if (is_signed && (rnd() & 1)) v -= n_axis;
        tb_set_index(ix, c, v);
    } while (next_coord(c, ix->t.sizes, ix->n));
}

TEST(data_gather_elements_every_data_type) {
    for (size_t t = 0; t < N_TYPES; ++t) {
        tbuf in, ix, out;
        tb_init(&in, all_types[t], 2, SIZES(3, 4), NULL, 0, -1);
        tb_init(&ix, (t & 1) ? I32 : U64, 2, SIZES(5, 4), NULL, 0, 0);
        tb_init(&out, all_types[t], 2, SIZES(5, 4), SIZES(1, 6), 0, SENTINEL); /* transposed, gaps */
        fill_indices(&ix, 3);
        GATHER_ELEMENTS(&in, &ix, &out, 0, NULL);
        tb_free(&in), tb_free(&ix), tb_free(&out);
    }
}

TEST(data_gather_elements_dimension_counts_1_to_8) {
    for (uint32_t n = 1; n <= 8; ++n)
        for (uint32_t a = 0; a < n; ++a) {
            uint32_t is[8], xs[8], ss[8];
            for (uint32_t d = 0; d < n; ++d) is[d] = xs[d] = 2;
            is[a] = 3;
            xs[a] = (n <= 4) ? 4 : 1;
            /* strided input: every dimension padded by one element */
            uint64_t s = 1;
            for (uint32_t d = n; d-- > 0;) {
                ss[d] = (uint32_t)s;
                s = s * is[d] + 1;
            }
            tbuf in, ix, out;
            tb_init(&in, DMLREF_TENSOR_DATA_TYPE_INT8, n, is, ss, 0, -1);
            tb_init(&ix, (a & 1) ? I64 : U32, n, xs, NULL, 0, 0);
            tb_init(&out, DMLREF_TENSOR_DATA_TYPE_INT8, n, xs, NULL, 3, SENTINEL);
            fill_indices(&ix, 3);
            GATHER_ELEMENTS(&in, &ix, &out, a, &check_opt);
            tb_free(&in), tb_free(&ix), tb_free(&out);
        }
}

TEST(data_gather_elements_broadcast_input_and_indices) {
    tbuf in, ix, out;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(2, 3, 4), SIZES(0, 4, 1), 0, -1);
    tb_init(&ix, I32, 3, SIZES(2, 5, 4), SIZES(0, 1, 0), 0, 0); /* depends on the middle coordinate only */
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(2, 5, 4), SIZES(41, 8, 2), 8, SENTINEL);
    fill_indices(&ix, 3);
    GATHER_ELEMENTS(&in, &ix, &out, 1, NULL);
    tb_free(&in), tb_free(&ix), tb_free(&out);
}

/* ---- SCATTER_ND ---------------------------------------------------------- */

/* Rows case: Input {R0, C} (R 2), Indices {K, 1} (Q 2, T 1), Updates {K, C}: out[idx[k], :] = up[k, :]. */
static void scatter_rows_at(const char *file, int line, tbuf *in, tbuf *ix, tbuf *up, tbuf *out,
                            const dmlref_options *opt) {
    const uint32_t rows = in->t.sizes[0], cols = in->t.sizes[1], k = ix->t.sizes[0];
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in->t.desc, &ix->t.desc, &up->t.desc, &out->t.desc, 2, 2};
    unsigned char *want = tb_copy(out);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c)
            memcpy(want + tb_offset(out, (const uint32_t[]){r, c}), tb_at(in, (const uint32_t[]){r, c}),
                   in->esize);
    for (uint32_t u = 0; u < k; ++u) { /* in order: the last duplicate wins */
        int64_t v;
        const unsigned char *p = tb_at(ix, (const uint32_t[]){u, 0});
        if (ix->esize == 4) {
            int32_t x;
            memcpy(&x, p, 4);
            v = ix->t.buf.DataType == U32 ? (int64_t)(uint32_t)x : x;
        } else {
            memcpy(&v, p, 8);
        }
        const uint32_t r = (uint32_t)(v < 0 ? v + rows : v);
        for (uint32_t c = 0; c < cols; ++c)
            memcpy(want + tb_offset(out, (const uint32_t[]){r, c}), tb_at(up, (const uint32_t[]){u, c}),
                   in->esize);
    }
    dmlref_error err;
    tbuf *ins[3] = {in, ix, up}, *outs[1] = {out};
    check_status_at(file, line, run_tb(DMLREF_OPERATOR_SCATTER_ND, &s, opt, ins, 3, outs, 1, &err), &err,
                    DMLREF_OK, NULL);
    check_bytes_at(file, line, out->data, want, out->bytes);
    free(want);
}
#define SCATTER_ROWS(in, ix, up, out, opt) scatter_rows_at(__FILE__, __LINE__, (in), (ix), (up), (out), (opt))

TEST(data_scatter_nd_every_data_type) {
    for (size_t t = 0; t < N_TYPES; ++t) {
        tbuf in, ix, up, out;
        tb_init(&in, all_types[t], 2, SIZES(5, 3), NULL, 0, -1);
        tb_init(&ix, (t & 1) ? I64 : I32, 2, SIZES(3, 1), NULL, 0, 0);
        tb_init(&up, all_types[t], 2, SIZES(3, 3), NULL, 0, -1);
        tb_init(&out, all_types[t], 2, SIZES(5, 3), SIZES(4, 1), 1, SENTINEL);
        const int64_t rows[3] = {4, -5, 2}; /* 4, 0, 2 */
        for (uint32_t i = 0; i < 3; ++i) tb_set_index(&ix, (const uint32_t[]){i, 0}, rows[i]);
        SCATTER_ROWS(&in, &ix, &up, &out, &check_opt);
        tb_free(&in), tb_free(&ix), tb_free(&up), tb_free(&out);
    }
}

TEST(data_scatter_nd_dimension_counts_1_to_8) {
    /* Input {3,2,..,2} R N, Indices {1,..,1,2,1} Q 2 (T 1): Updates {1..,2,2..} = J[0] ++ I[1..N). */
    for (uint32_t n = 1; n <= 8; ++n) {
        uint32_t is[8], xs[8], us[8];
        for (uint32_t d = 0; d < n; ++d) is[d] = us[d] = 2, xs[d] = 1;
        is[0] = 3;
        const uint32_t q = n >= 2 ? 2 : 1;
        if (n >= 2) xs[n - 2] = 2;
        if (n == 1) us[0] = 1; /* one tuple, M = 0 */
        tbuf in, ix, up, out;
        tb_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT32, n, is, NULL, 0, -1);
        tb_init(&ix, I32, n, xs, NULL, 0, 0);
        tb_init(&up, DMLREF_TENSOR_DATA_TYPE_UINT32, n, us, NULL, 0, -1);
        tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT32, n, is, NULL, 0, SENTINEL);
        uint32_t c[8] = {0};
        if (n >= 2) {
            c[n - 2] = 0, tb_set_index(&ix, c, -1); /* row 2 */
            c[n - 2] = 1, tb_set_index(&ix, c, 0);  /* row 0 */
        } else {
            tb_set_index(&ix, c, -2); /* element 1 */
        }
        unsigned char *want = tb_copy(&out);
        memcpy(want, in.data, in.bytes);
        const size_t slice = in.bytes / 3; /* 4 * 2^(n-1) bytes per outer row */
        if (n >= 2) {
            memcpy(want + 2 * slice, up.data, slice);
            memcpy(want + 0 * slice, up.data + slice, slice);
        } else {
            memcpy(want + 4, up.data, 4);
        }
        DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.t.desc, &ix.t.desc, &up.t.desc, &out.t.desc, n, q};
        tbuf *ins[3] = {&in, &ix, &up}, *outs[1] = {&out};
        dmlref_error err;
        CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s, &check_opt, ins, 3, outs, 1, &err), err, DMLREF_OK,
                     NULL);
        CHECK_BYTES(out.data, want, out.bytes);
        free(want);
        tb_free(&in), tb_free(&ix), tb_free(&up), tb_free(&out);
    }
}

TEST(data_scatter_nd_whole_element_tuples_strided) {
    /* Input {3,4} R 2, Indices {5,2} (T 2 = R): Updates {1,5}; broadcast input, strided everything */
    tbuf in, ix, up, out;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(3, 4), SIZES(0, 1), 0, -1);
    tb_init(&ix, I64, 2, SIZES(5, 2), SIZES(3, 1), 0, 0);
    tb_init(&up, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(1, 5), SIZES(9, 2), 0, -1);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_INT16, 2, SIZES(3, 4), SIZES(1, 5), 6, SENTINEL);
    static const int64_t tuples[5][2] = {{0, 0}, {2, -1}, {-2, 1}, {1, 0}, {-1, -4}}; /* the last is (2,0) */
    for (uint32_t i = 0; i < 5; ++i)
        for (uint32_t k = 0; k < 2; ++k)
            tb_set_index(&ix, (const uint32_t[]){i, k}, tuples[i][k]);
    unsigned char *want = tb_copy(&out);
    uint32_t c[2] = {0};
    do memcpy(want + tb_offset(&out, c), tb_at(&in, c), 2);
    while (next_coord(c, out.t.sizes, 2));
    static const uint32_t targets[5][2] = {{0, 0}, {2, 3}, {1, 1}, {1, 0}, {2, 0}};
    for (uint32_t i = 0; i < 5; ++i)
        memcpy(want + tb_offset(&out, targets[i]), tb_at(&up, (const uint32_t[]){0, i}), 2);
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.t.desc, &ix.t.desc, &up.t.desc, &out.t.desc, 2, 2};
    tbuf *ins[3] = {&in, &ix, &up}, *outs[1] = {&out};
    dmlref_error err;
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s, &check_opt, ins, 3, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_BYTES(out.data, want, out.bytes);
    free(want);
    tb_free(&in), tb_free(&ix), tb_free(&up), tb_free(&out);
}

TEST(data_scatter_nd_duplicates) {
    /* rows 1, 3, 1 (the last via -4): default = the last update in row-major order wins */
    tbuf in, ix, up, out;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(5, 2), NULL, 0, -1);
    tb_init(&ix, I32, 2, SIZES(3, 1), NULL, 0, 0);
    tb_init(&up, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(3, 2), NULL, 0, -1);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(5, 2), SIZES(3, 1), 0, SENTINEL);
    const int32_t rows[3] = {1, 3, -4};
    for (uint32_t i = 0; i < 3; ++i) tb_set_index(&ix, (const uint32_t[]){i, 0}, rows[i]);
    SCATTER_ROWS(&in, &ix, &up, &out, NULL);
    CHECK(memcmp(tb_at(&out, (const uint32_t[]){1, 0}), tb_at(&up, (const uint32_t[]){2, 0}), 8) == 0);

    /* the checking option reports the first duplicate and writes nothing */
    memset(out.data, SENTINEL, out.bytes);
    unsigned char *untouched = tb_copy(&out);
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&in.t.desc, &ix.t.desc, &up.t.desc, &out.t.desc, 2, 2};
    tbuf *ins[3] = {&in, &ix, &up}, *outs[1] = {&out};
    dmlref_error err;
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s, &check_opt, ins, 3, outs, 1, &err), err,
                 DMLREF_ERROR_DUPLICATE_INDEX,
                 "SCATTER_ND: IndicesTensor[2] repeats the target of IndicesTensor[0]");
    CHECK_BYTES(out.data, untouched, out.bytes);
    free(untouched);
    tb_free(&in), tb_free(&ix), tb_free(&up), tb_free(&out);

    /* 3-D tuple grid {2,3} of 2-tuples into {4,4}: the first duplicate in row-major order is reported */
    tbuf in2, ix2, up2, out2;
    tb_init(&in2, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(1, 4, 4), NULL, 0, -1);
    tb_init(&ix2, U64, 3, SIZES(2, 3, 2), NULL, 0, 0);
    tb_init(&up2, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(1, 2, 3), NULL, 0, -1);
    tb_init(&out2, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(1, 4, 4), NULL, 0, SENTINEL);
    static const uint64_t t2[2][3][2] = {{{0, 1}, {3, 3}, {2, 2}}, {{1, 1}, {2, 2}, {3, 3}}};
    for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t j = 0; j < 3; ++j)
            for (uint32_t k = 0; k < 2; ++k)
                tb_set_index(&ix2, (const uint32_t[]){i, j, k}, (int64_t)t2[i][j][k]);
    DMLREF_SCATTER_ND_OPERATOR_DESC s2 = {&in2.t.desc, &ix2.t.desc, &up2.t.desc, &out2.t.desc, 2, 3};
    tbuf *ins2[3] = {&in2, &ix2, &up2}, *outs2[1] = {&out2};
    unsigned char *untouched2 = tb_copy(&out2);
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s2, &check_opt, ins2, 3, outs2, 1, &err), err,
                 DMLREF_ERROR_DUPLICATE_INDEX, "IndicesTensor[1,1] repeats the target of IndicesTensor[0,2]");
    CHECK_BYTES(out2.data, untouched2, out2.bytes);
    /* default: last wins: (3,3) <- up[1,2], (2,2) <- up[1,1] */
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s2, NULL, ins2, 3, outs2, 1, &err), err, DMLREF_OK, NULL);
    CHECK(out2.data[15] == up2.data[5]);
    CHECK(out2.data[10] == up2.data[4]);
    CHECK(out2.data[1] == up2.data[0]);
    CHECK(out2.data[5] == up2.data[3]);
    CHECK(out2.data[0] == in2.data[0]);
    free(untouched2);
    tb_free(&in2), tb_free(&ix2), tb_free(&up2), tb_free(&out2);
}

/* ---- out-of-range indices: clamp by default, an error under the option ------ */

TEST(data_out_of_range_indices_clamp_and_check) {
    /* GATHER along an axis of 3 with one bad index at position 2 of 4 */
    static const struct {
        DMLREF_TENSOR_DATA_TYPE dt;
        int64_t bad;
        uint32_t clamped;
        const char *text;
    } cases[] = {
        {I32, 3, 2, "= 3 is out of range [-3, 3)"},
        {I32, -4, 0, "= -4 is out of range [-3, 3)"},
        {I32, INT32_MIN, 0, "= -2147483648 is out of range [-3, 3)"},
        {I32, INT32_MAX, 2, "= 2147483647 is out of range [-3, 3)"},
        {U32, 3, 2, "= 3 is out of range [0, 3)"},
        {U32, -1, 2, "= 4294967295 is out of range [0, 3)"},
        {I64, INT64_MIN, 0, "= -9223372036854775808 is out of range [-3, 3)"},
        {I64, INT64_MAX, 2, "= 9223372036854775807 is out of range [-3, 3)"},
        {I64, -4, 0, "= -4 is out of range [-3, 3)"},
        {U64, -1, 2, "= 18446744073709551615 is out of range [0, 3)"},
        {U64, INT64_MIN, 2, "= 9223372036854775808 is out of range [0, 3)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tbuf in, ix, out;
        tb_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT16, 2, SIZES(2, 3), NULL, 0, -1);
        tb_init(&ix, cases[i].dt, 2, SIZES(1, 4), NULL, 0, 0);
        tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT16, 2, SIZES(2, 4), NULL, 0, SENTINEL);
        tb_set_index(&ix, (const uint32_t[]){0, 0}, 1);
        tb_set_index(&ix, (const uint32_t[]){0, 1}, 0);
        tb_set_index(&ix, (const uint32_t[]){0, 2}, cases[i].bad);
        tb_set_index(&ix, (const uint32_t[]){0, 3}, 2);
        DMLREF_GATHER_OPERATOR_DESC g = {&in.t.desc, &ix.t.desc, &out.t.desc, 1, 1};
        tbuf *ins[2] = {&in, &ix}, *outs[1] = {&out};
        dmlref_error err;
        char needle[160];
        snprintf(needle, sizeof needle, "GATHER: IndicesTensor[0,2] %s for InputTensor.Sizes[1] (3)", cases[i].text);
        CHECK_STATUS(run_tb(DMLREF_OPERATOR_GATHER, &g, &check_opt, ins, 2, outs, 1, &err), err,
                     DMLREF_ERROR_INDEX_OUT_OF_RANGE, needle);
        for (size_t b = 0; b < out.bytes; ++b)
            if (out.data[b] != SENTINEL) {
                test_fail(__FILE__, __LINE__, "case %zu: output byte %zu written despite the error", i, b);
                break;
            }
        CHECK_STATUS(run_tb(DMLREF_OPERATOR_GATHER, &g, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
        for (uint32_t r = 0; r < 2; ++r)
            if (memcmp(tb_at(&out, (const uint32_t[]){r, 2}), tb_at(&in, (const uint32_t[]){r, cases[i].clamped}),
                       2) != 0 ||
                memcmp(tb_at(&out, (const uint32_t[]){r, 0}), tb_at(&in, (const uint32_t[]){r, 1}), 2) != 0)
                test_fail(__FILE__, __LINE__, "case %zu row %u: not clamped to %u", i, r, cases[i].clamped);
        tb_free(&in), tb_free(&ix), tb_free(&out);
    }
}

TEST(data_out_of_range_gather_elements_and_scatter_nd) {
    tbuf in, ix, out;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(4, 2), NULL, 0, -1);
    tb_init(&ix, I64, 2, SIZES(3, 2), NULL, 0, 0);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(3, 2), NULL, 0, SENTINEL);
    const int64_t v[6] = {0, 1, 4, -5, INT64_MAX, INT64_MIN}; /* 4 -> 3, -5 -> 0, MAX -> 3, MIN -> 0 */
    for (uint32_t i = 0; i < 6; ++i) tb_set_index(&ix, (const uint32_t[]){i / 2, i % 2}, v[i]);
    DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.t.desc, &ix.t.desc, &out.t.desc, 0};
    tbuf *ins[2] = {&in, &ix}, *outs[1] = {&out};
    dmlref_error err;
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_GATHER_ELEMENTS, &g, &check_opt, ins, 2, outs, 1, &err), err,
                 DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "GATHER_ELEMENTS: IndicesTensor[1,0] = 4 is out of range [-4, 4) for InputTensor.Sizes[0] (4)");
    CHECK(out.data[0] == SENTINEL && out.data[5] == SENTINEL);
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_GATHER_ELEMENTS, &g, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    const uint8_t want[6] = {in.data[0], in.data[3], in.data[6], in.data[1], in.data[6], in.data[1]};
    CHECK_MEM(out.data, want, 6);
    tb_free(&in), tb_free(&ix), tb_free(&out);

    /* SCATTER_ND: the write lands on the clamped coordinate */
    tbuf sin, six, sup, sout;
    tb_init(&sin, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(3, 3), NULL, 0, -1);
    tb_init(&six, U32, 2, SIZES(2, 2), NULL, 0, 0);
    tb_init(&sup, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(1, 2), NULL, 0, -1);
    tb_init(&sout, DMLREF_TENSOR_DATA_TYPE_UINT8, 2, SIZES(3, 3), NULL, 0, SENTINEL);
    const uint32_t t[4] = {0, 1, 7, 0xFFFFFFFFu}; /* (0,1) and (7 -> 2, max -> 2) */
    for (uint32_t i = 0; i < 4; ++i) tb_set_index(&six, (const uint32_t[]){i / 2, i % 2}, t[i]);
    DMLREF_SCATTER_ND_OPERATOR_DESC s = {&sin.t.desc, &six.t.desc, &sup.t.desc, &sout.t.desc, 2, 2};
    tbuf *sins[3] = {&sin, &six, &sup}, *souts[1] = {&sout};
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s, &check_opt, sins, 3, souts, 1, &err), err,
                 DMLREF_ERROR_INDEX_OUT_OF_RANGE,
                 "SCATTER_ND: IndicesTensor[1,0] = 7 is out of range [0, 3) for InputTensor.Sizes[0] (3)");
    for (size_t b = 0; b < sout.bytes; ++b) CHECK(sout.data[b] == SENTINEL);
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_SCATTER_ND, &s, NULL, sins, 3, souts, 1, &err), err, DMLREF_OK, NULL);
    unsigned char want2[12];
    memcpy(want2, sin.data, 9);
    want2[1] = sup.data[0];
    want2[8] = sup.data[1];
    CHECK_MEM(sout.data, want2, 9);
    CHECK(sout.data[9] == SENTINEL && sout.data[11] == SENTINEL); /* rounding tail */
    tb_free(&sin), tb_free(&six), tb_free(&sup), tb_free(&sout);
}

/* ---- SPLIT and JOIN ------------------------------------------------------ */

/* Splits `in` along a into pieces (sizes along a given) and checks each output; JOIN back and checks. */
static void split_join_at(const char *file, int line, DMLREF_TENSOR_DATA_TYPE dt, uint32_t n,
                          const uint32_t *sizes, uint32_t a, uint32_t count, const uint32_t *along,
                          int strided) {
    tbuf whole, pieces[8], joined;
    DMLREF_TENSOR_DESC pdesc[8];
    uint32_t ws[8];
    memcpy(ws, sizes, n * sizeof *ws);
    uint32_t wstr[8], pstr[8];
    if (strided) { /* padded whole: every dimension gets one extra element */
        uint64_t s = 1;
        for (uint32_t d = n; d-- > 0;) wstr[d] = (uint32_t)s, s = s * ws[d] + 1;
    }
    tb_init(&whole, dt, n, ws, strided ? wstr : NULL, 0, -1);
    tb_init(&joined, dt, n, ws, strided ? wstr : NULL, 5, SENTINEL);
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t ps[8];
        memcpy(ps, sizes, n * sizeof *ps);
        ps[a] = along[k];
        if (strided) { /* reversed dimension order (transposed) with a gap */
            uint64_t s = 2;
            for (uint32_t d = 0; d < n; ++d) pstr[d] = (uint32_t)s, s = s * ps[d] + 1;
        }
        tb_init(&pieces[k], dt, n, ps, strided ? pstr : NULL, k, SENTINEL);
        pdesc[k] = pieces[k].t.desc;
    }
    /* expected pieces */
    unsigned char *want[8];
    uint32_t base = 0;
    for (uint32_t k = 0; k < count; ++k) {
        want[k] = tb_copy(&pieces[k]);
        uint32_t c[8] = {0}, wc[8];
        do {
            memcpy(wc, c, sizeof wc);
            wc[a] += base;
            memcpy(want[k] + tb_offset(&pieces[k], c), tb_at(&whole, wc), whole.esize);
        } while (next_coord(c, pieces[k].t.sizes, n));
        base += along[k];
    }
    DMLREF_SPLIT_OPERATOR_DESC s = {&whole.t.desc, count, pdesc, a};
    tbuf *ins[1] = {&whole}, *outs[8];
    for (uint32_t k = 0; k < count; ++k) outs[k] = &pieces[k];
    dmlref_error err;
    check_status_at(file, line, run_tb(DMLREF_OPERATOR_SPLIT, &s, NULL, ins, 1, outs, count, &err), &err,
                    DMLREF_OK, NULL);
    for (uint32_t k = 0; k < count; ++k) check_bytes_at(file, line, pieces[k].data, want[k], pieces[k].bytes);

    /* JOIN the pieces back: every addressed element equals the whole's, the rest is sentinel */
    unsigned char *wj = tb_copy(&joined);
    uint32_t c[8] = {0};
    do memcpy(wj + tb_offset(&joined, c), tb_at(&whole, c), whole.esize);
    while (next_coord(c, ws, n));
    DMLREF_JOIN_OPERATOR_DESC j = {count, pdesc, &joined.t.desc, a};
    tbuf *jins[8], *jouts[1] = {&joined};
    for (uint32_t k = 0; k < count; ++k) jins[k] = &pieces[k];
    check_status_at(file, line, run_tb(DMLREF_OPERATOR_JOIN, &j, NULL, jins, count, jouts, 1, &err), &err,
                    DMLREF_OK, NULL);
    check_bytes_at(file, line, joined.data, wj, joined.bytes);
    free(wj);
    for (uint32_t k = 0; k < count; ++k) free(want[k]), tb_free(&pieces[k]);
    tb_free(&whole), tb_free(&joined);
}
#define SPLIT_JOIN(dt, n, sizes, a, count, along, strided)                                                \
    split_join_at(__FILE__, __LINE__, (dt), (n), (sizes), (a), (count), (along), (strided))

TEST(data_split_join_every_data_type) {
    for (size_t t = 0; t < N_TYPES; ++t) {
        SPLIT_JOIN(all_types[t], 2, SIZES(3, 6), 1, 3, SIZES(1, 3, 2), 0);
        SPLIT_JOIN(all_types[t], 2, SIZES(3, 6), 0, 2, SIZES(2, 1), 1);
    }
}

TEST(data_split_join_dimension_counts_1_to_8) {
    for (uint32_t n = 1; n <= 8; ++n)
        for (uint32_t a = 0; a < n; ++a) {
            uint32_t sizes[8];
            for (uint32_t d = 0; d < n; ++d) sizes[d] = 2;
            sizes[a] = 5;
            SPLIT_JOIN(DMLREF_TENSOR_DATA_TYPE_UINT8, n, sizes, a, 3, SIZES(2, 1, 2), (n + a) & 1);
            SPLIT_JOIN(DMLREF_TENSOR_DATA_TYPE_FLOAT16, n, sizes, a, 1, SIZES(5), 1);
            SPLIT_JOIN(DMLREF_TENSOR_DATA_TYPE_INT64, n, sizes, a, 5, SIZES(1, 1, 1, 1, 1), 0);
        }
}

TEST(data_join_broadcast_input) {
    /* JOIN of a broadcast row {3,4} (strides {0,1}) and a packed {2,4} along 0 */
    tbuf a, b, out;
    tb_init(&a, DMLREF_TENSOR_DATA_TYPE_UINT32, 2, SIZES(3, 4), SIZES(0, 1), 0, -1);
    tb_init(&b, DMLREF_TENSOR_DATA_TYPE_UINT32, 2, SIZES(2, 4), NULL, 0, -1);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT32, 2, SIZES(5, 4), SIZES(5, 1), 0, SENTINEL);
    DMLREF_TENSOR_DESC pd[2] = {a.t.desc, b.t.desc};
    DMLREF_JOIN_OPERATOR_DESC j = {2, pd, &out.t.desc, 0};
    tbuf *ins[2] = {&a, &b}, *outs[1] = {&out};
    dmlref_error err;
    CHECK_STATUS(run_tb(DMLREF_OPERATOR_JOIN, &j, NULL, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    unsigned char want[96];
    memset(want, SENTINEL, sizeof want);
    for (uint32_t r = 0; r < 5; ++r) memcpy(want + r * 20, r < 3 ? a.data : b.data + (r - 3) * 16, 16);
    CHECK_EQ_U64(out.bytes, 96);
    CHECK_BYTES(out.data, want, 96);
    tb_free(&a), tb_free(&b), tb_free(&out);
}

/* ---- values: extremes, NaN payloads, signed zeros ------------------------ */

TEST(data_int64_uint64_extremes_through_every_operator) {
    const uint64_t vals[6] = {(uint64_t)INT64_MIN, (uint64_t)INT64_MAX, UINT64_MAX, 0, 1, 0x8000000000000001u};
    for (int t = 0; t < 2; ++t) {
        const DMLREF_TENSOR_DATA_TYPE dt = t ? U64 : I64;
        tbuf in, ix, out;
        tb_init(&in, dt, 1, SIZES(6), NULL, 0, 0);
        memcpy(in.data, vals, sizeof vals);
        tb_init(&ix, I32, 1, SIZES(6), NULL, 0, 0);
        const int32_t rev[6] = {-1, 4, 3, 2, 1, 0};
        memcpy(ix.data, rev, sizeof rev);
        tb_init(&out, dt, 1, SIZES(6), NULL, 0, SENTINEL);
        GATHER_K1(&in, &ix, &out, 0, NULL);
        GATHER_ELEMENTS(&in, &ix, &out, 0, &check_opt);
        const uint64_t want[6] = {vals[5], vals[4], vals[3], vals[2], vals[1], vals[0]};
        CHECK_MEM(out.data, want, sizeof want);
        SPLIT_JOIN(dt, 1, SIZES(6), 0, 2, SIZES(4, 2), 1);
        tb_free(&in), tb_free(&ix), tb_free(&out);
    }
}

TEST(data_float_nan_payloads_and_signed_zero_bit_exact) {
    const uint16_t h[8] = {0x7C01, 0x7E00, 0xFE01, 0x7DFF, 0x8000, 0x0001, 0xFC00, 0x7FFF};
    const uint32_t f[8] = {0x7F800001u, 0x7FC00001u, 0xFFBFFFFFu, 0x7FA5A5A5u,
                           0x80000000u, 0x00000001u, 0xFFFFFFFFu, 0x7FFFFFFFu};
    const uint64_t d[8] = {0x7FF0000000000001u, 0x7FF8000000000001u, 0xFFF7FFFFFFFFFFFFu, 0x7FF4DEADBEEF0001u,
                           0x8000000000000000u, 0x0000000000000001u, 0xFFFFFFFFFFFFFFFFu, 0x7FFFFFFFFFFFFFFFu};
    const DMLREF_TENSOR_DATA_TYPE dts[3] = {DMLREF_TENSOR_DATA_TYPE_FLOAT16, DMLREF_TENSOR_DATA_TYPE_FLOAT32,
                                            DMLREF_TENSOR_DATA_TYPE_FLOAT64};
    const void *src[3] = {h, f, d};
    for (int t = 0; t < 3; ++t) {
        const uint32_t es = dmlref_data_type_size(dts[t]);
        tbuf in, ix, out, up, sout;
        tb_init(&in, dts[t], 2, SIZES(2, 4), NULL, 0, 0);
        memcpy(in.data, src[t], 8 * es);
        /* GATHER the 8 values in reverse (flat: rows swapped, columns reversed via GATHER_ELEMENTS) */
        tb_init(&ix, U32, 2, SIZES(1, 4), NULL, 0, 0);
        const uint32_t rev[4] = {3, 2, 1, 0};
        memcpy(ix.data, rev, sizeof rev);
        tb_init(&out, dts[t], 2, SIZES(2, 4), SIZES(9, 2), 0, SENTINEL);
        GATHER_K1(&in, &ix, &out, 1, NULL);
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t c = 0; c < 4; ++c)
                CHECK(memcmp(tb_at(&out, (const uint32_t[]){r, c}), (const unsigned char *)src[t] + (r * 4 + 3 - c) * es,
                             es) == 0);
        /* SCATTER_ND the values over a zero input */
        tbuf zin, six;
        tb_init(&zin, dts[t], 2, SIZES(2, 4), NULL, 0, 0);
        tb_init(&six, I64, 2, SIZES(2, 1), NULL, 0, 0);
        const int64_t rows[2] = {-1, 0};
        memcpy(six.data, rows, sizeof rows);
        tb_init(&up, dts[t], 2, SIZES(2, 4), NULL, 0, 0);
        memcpy(up.data, src[t], 8 * es);
        tb_init(&sout, dts[t], 2, SIZES(2, 4), NULL, 0, SENTINEL);
        SCATTER_ROWS(&zin, &six, &up, &sout, &check_opt);
        CHECK(memcmp(sout.data, (const unsigned char *)src[t] + 4 * es, 4 * es) == 0);
        CHECK(memcmp(sout.data + 4 * es, src[t], 4 * es) == 0);
        tb_free(&in), tb_free(&ix), tb_free(&out), tb_free(&up), tb_free(&sout), tb_free(&zin), tb_free(&six);
        /* SPLIT / JOIN */
        tbuf w, p0, p1, j;
        tb_init(&w, dts[t], 1, SIZES(8), NULL, 0, 0);
        memcpy(w.data, src[t], 8 * es);
        tb_init(&p0, dts[t], 1, SIZES(3), NULL, 0, SENTINEL);
        tb_init(&p1, dts[t], 1, SIZES(5), SIZES(2), 0, SENTINEL);
        DMLREF_TENSOR_DESC pd[2] = {p0.t.desc, p1.t.desc};
        DMLREF_SPLIT_OPERATOR_DESC s = {&w.t.desc, 2, pd, 0};
        tbuf *sin[1] = {&w}, *souts[2] = {&p0, &p1};
        dmlref_error err;
        CHECK_STATUS(run_tb(DMLREF_OPERATOR_SPLIT, &s, NULL, sin, 1, souts, 2, &err), err, DMLREF_OK, NULL);
        tb_init(&j, dts[t], 1, SIZES(8), NULL, 0, SENTINEL);
        DMLREF_JOIN_OPERATOR_DESC jd = {2, pd, &j.t.desc, 0};
        tbuf *jout[1] = {&j};
        CHECK_STATUS(run_tb(DMLREF_OPERATOR_JOIN, &jd, NULL, souts, 2, jout, 1, &err), err, DMLREF_OK, NULL);
        CHECK_MEM(j.data, src[t], 8 * es);
        tb_free(&w), tb_free(&p0), tb_free(&p1), tb_free(&j);
    }
}

/* ---- compile once, execute many ------------------------------------------- */

TEST(data_compile_once_execute_many) {
    tbuf in, ix, out, out_ref;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(2, 5, 3), SIZES(20, 4, 1), 0, -1);
    tb_init(&ix, I32, 3, SIZES(1, 1, 6), NULL, 0, 0);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(2, 6, 3), SIZES(1, 6, 2), 4, SENTINEL);
    tb_init(&out_ref, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(2, 6, 3), SIZES(1, 6, 2), 4, SENTINEL);
    DMLREF_GATHER_OPERATOR_DESC g = {&in.t.desc, &ix.t.desc, &out.t.desc, 1, 1};
    const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    dmlref_operator *op = NULL;
    dmlref_error err;
    CHECK_STATUS(dmlref_compile(&d, FL64, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (!op) return;
    CHECK(dmlref_kernel_name(op) != NULL);
    for (int round = 0; round < 5; ++round) {
        fill_indices_k1(&ix, 5);
        for (size_t i = 0; i < in.bytes; ++i) in.data[i] = (unsigned char)rnd();
        dmlref_cbuffer ins[2] = {{in.data, in.bytes}, {ix.data, ix.bytes}};
        dmlref_buffer outs[1] = {{out.data, out.bytes}};
        for (int rep = 0; rep < 3; ++rep) {
            memset(out.data, SENTINEL, out.bytes);
            CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
            /* the same as a fresh run, and as the test's own expectation */
            memset(out_ref.data, SENTINEL, out_ref.bytes);
            GATHER_K1(&in, &ix, &out_ref, 1, NULL);
            CHECK_BYTES(out.data, out_ref.data, out.bytes);
        }
    }
    /* the descriptor may change or go away after compile: the operator kept its own copy */
    g.Axis = 0;
    in.t.sizes[1] = 99;
    dmlref_cbuffer ins[2] = {{in.data, in.bytes}, {ix.data, ix.bytes}};
    dmlref_buffer outs[1] = {{out.data, out.bytes}};
    memset(out.data, SENTINEL, out.bytes);
    CHECK_STATUS(dmlref_execute(op, ins, 2, outs, 1, &err), err, DMLREF_OK, NULL);
    CHECK_BYTES(out.data, out_ref.data, out.bytes);
    dmlref_release(op);
    tb_free(&in), tb_free(&ix), tb_free(&out), tb_free(&out_ref);
}

TEST(data_options_force_oracle_and_threads_give_the_same_bytes) {
    tbuf in, ix, out;
    tb_init(&in, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(4, 7, 9), NULL, 0, -1);
    tb_init(&ix, U32, 3, SIZES(4, 5, 9), NULL, 0, 0);
    tb_init(&out, DMLREF_TENSOR_DATA_TYPE_UINT8, 3, SIZES(4, 5, 9), SIZES(64, 10, 1), 0, SENTINEL);
    fill_indices(&ix, 7);
    const dmlref_options opts[4] = {{.flags = 0, .threads = 0}, {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1}, {.flags = 0, .threads = 3},
                                    {.flags = DMLREF_OPTION_CHECK_INDICES | DMLREF_OPTION_FORCE_ORACLE, .threads = 2}};
    for (int i = 0; i < 4; ++i) {
        memset(out.data, SENTINEL, out.bytes);
        GATHER_ELEMENTS(&in, &ix, &out, 1, &opts[i]);
    }
    tb_free(&in), tb_free(&ix), tb_free(&out);
}
