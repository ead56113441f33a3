/*
 * (Over 600 lines on purpose: every kernel family's sweep shares the scalar
 * references and guard-byte helpers of this file.)
 *
 * The fast paths' building blocks against scalar references: the dimension
 * normalizer (a table of sizes/strides -> collapsed nest), the SIMD small-block
 * copies and index normalizer at lengths around the vector width (below, equal,
 * multiples, above, odd) with guard bytes around every destination, the
 * strided copy kernels for each element width, and the gather kernels through
 * the API at lengths around their chunk and column-block sizes.
 */
#include <stdlib.h>

#include "check.h"
#include "core/env.h"
#include "engine/plan.h"
#include "simd/simd.h"
#include "util.h"

/* The copy kind's name, for messages (test-only: it lived in the library, used by nothing else). */
static const char *copy_kind_name(int kind) {
    switch (kind) {
    case COPY_BLOCK: return "block";
    case COPY_X1: return "x1";
    case COPY_X2: return "x2";
    case COPY_X4: return "x4";
    case COPY_X8: return "x8";
    case COPY_X16: return "b16";
    default: return "small";
    }
}

/* ---- normalizer ------------------------------------------------------------ */

typedef struct norm_row {
    uint32_t n;
    uint64_t sizes[4], a[4], b[4]; /* two tensors' byte strides              */
    uint64_t esize;
    uint32_t want_m;
    uint64_t want_sizes[4], want_a[4], want_b[4];
    uint64_t want_block;
} norm_row;

static const norm_row norm_table[] = {
    /* packed 3-d, both tensors: one block of everything */
    {3, {2, 3, 4}, {48, 16, 4}, {48, 16, 4}, 4, 1, {1}, {0}, {0}, 96},
    /* size-1 dims vanish */
    {4, {1, 5, 1, 2}, {40, 8, 8, 4}, {40, 8, 8, 4}, 4, 1, {1}, {0}, {0}, 40},
    /* a gap in b after dim 1: dims 1,2 merge, dim 0 stays; inner run folds */
    {3, {2, 3, 4}, {48, 16, 4}, {64, 16, 4}, 4, 1, {2}, {48}, {64}, 48},
    /* JOIN-like inner: piece rows of 16 B in a 64 B row of the whole */
    {3, {1024, 1024, 4}, {16384, 16, 4}, {65536, 64, 4}, 4, 1, {1048576}, {16}, {64}, 16},
    /* transposed: nothing merges, nothing folds */
    {2, {3, 5}, {20, 4}, {4, 12}, 4, 2, {3, 5}, {20, 4}, {4, 12}, 4},
    /* zero stride (broadcast) in b on the inner dim: no fold */
    {2, {3, 5}, {20, 4}, {4, 0}, 4, 2, {3, 5}, {20, 4}, {4, 0}, 4},
    /* broadcast outer dims merge with each other; the inner run folds */
    {3, {2, 3, 5}, {60, 20, 4}, {0, 0, 4}, 4, 1, {6}, {20}, {0}, 20},
    /* a 2-byte element strided in a: nothing folds */
    {2, {4, 6}, {24, 4}, {14, 2}, 2, 2, {4, 6}, {24, 4}, {14, 2}, 2},
    /* the same without the gap in b: dims merge, still no fold */
    {2, {4, 6}, {24, 4}, {12, 2}, 2, 1, {24}, {4}, {2}, 2},
    /* all ones: a scalar */
    {3, {1, 1, 1}, {4, 4, 4}, {4, 4, 4}, 2, 1, {1}, {0}, {0}, 2},
};

TEST(kernels_normalizer_table) {
    static const int want2[2] = {1, 1};
    for (size_t r = 0; r < sizeof norm_table / sizeof norm_table[0]; ++r) {
        const norm_row *t = &norm_table[r];
        nest_t nt;
        memset(&nt, 0, sizeof nt);
        nt.m = t->n;
        for (uint32_t d = 0; d < t->n; ++d) {
            nt.sizes[d] = t->sizes[d];
            nt.st[0][d] = t->a[d];
            nt.st[1][d] = t->b[d];
        }
        nest_collapse(&nt, 2);
        const uint64_t block = nest_fold(&nt, 2, t->esize, want2);
        int ok = nt.m == t->want_m && block == t->want_block;
        for (uint32_t d = 0; ok && d < nt.m; ++d)
            ok = nt.sizes[d] == t->want_sizes[d] && (nt.sizes[d] == 1 || (nt.st[0][d] == t->want_a[d] && nt.st[1][d] == t->want_b[d]));
        if (!ok)
            test_fail(__FILE__, __LINE__, "normalizer row %zu: m %u block %llu (want m %u block %llu), sizes[0] %llu", r,
                      nt.m, (unsigned long long)block, t->want_m, (unsigned long long)t->want_block,
                      (unsigned long long)nt.sizes[0]);
    }
}

/* ---- small-block copies ---------------------------------------------------- */

#define GUARD 32

TEST(kernels_copy_small_every_length_to_300) {
    unsigned char src[300 + 2 * GUARD], dst[300 + 2 * GUARD], ref[300 + 2 * GUARD];
    for (size_t i = 0; i < sizeof src; ++i) src[i] = (unsigned char)(i * 37 + 11);
    for (size_t n = 0; n <= 300; ++n)
        for (size_t mis = 0; mis < 3; ++mis) { /* unaligned destinations too */
            memset(dst, 0xEE, sizeof dst);
            memset(ref, 0xEE, sizeof ref);
            memcpy(ref + GUARD + mis, src + GUARD, n);
            simd_copy_small(dst + GUARD + mis, src + GUARD, n);
            if (memcmp(dst, ref, sizeof dst)) test_fail(__FILE__, __LINE__, "simd_copy_small n=%zu offset %zu", n, mis);
            memset(dst, 0xEE, sizeof dst);
            simd_copy_block(dst + GUARD + mis, src + GUARD, n);
            if (memcmp(dst, ref, sizeof dst)) test_fail(__FILE__, __LINE__, "simd_copy_block n=%zu offset %zu", n, mis);
        }
}

/* ---- index normalizer ------------------------------------------------------ */

static void put_index(unsigned char *p, uint32_t dtype, int64_t v) {
    if (dtype == DMLREF_TENSOR_DATA_TYPE_INT32 || dtype == DMLREF_TENSOR_DATA_TYPE_UINT32) {
        const uint32_t w = (uint32_t)(uint64_t)v;
        memcpy(p, &w, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

/* The build picked the widest vectors its flags allow (AVX2 with -mavx2). */
TEST(kernels_simd_level_of_this_build) {
    const char *want = !DMLREF_SIMD ? "scalar" : DMLREF_SIMD_AVX2 ? "avx2" : "sse2";
    CHECK(strcmp(simd_index_norm_impl(DMLREF_TENSOR_DATA_TYPE_INT32, 4, 100), want) == 0);
    CHECK(strcmp(simd_index_norm_impl(DMLREF_TENSOR_DATA_TYPE_UINT32, 4, 100), want) == 0);
    CHECK(strcmp(simd_index_norm_impl(DMLREF_TENSOR_DATA_TYPE_INT64, 8, 100), "scalar") == 0);
    CHECK(strcmp(simd_index_norm_impl(DMLREF_TENSOR_DATA_TYPE_INT32, 8, 100), "scalar") == 0); /* strided */
#if defined(__AVX2__) && DMLREF_SIMD && !defined(SIMDE_NO_NATIVE)
    CHECK(DMLREF_SIMD_AVX2);
#endif
}

TEST(kernels_index_norm_lengths_types_bounds) {
    static const uint32_t types[4] = {DMLREF_TENSOR_DATA_TYPE_INT32, DMLREF_TENSOR_DATA_TYPE_UINT32,
                                      DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    static const uint64_t bounds[] = {1, 2, 3, 5, 16, 1000, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
    static const size_t lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 33, 64, 67};
    unsigned char buf[67 * 8 * 3];
    uint32_t out[67 + 4];
    uint64_t seed = 99;
    for (int ti = 0; ti < 4; ++ti) {
        const uint32_t dt = types[ti], es = ti < 2 ? 4 : 8;
        for (size_t bi = 0; bi < sizeof bounds / sizeof bounds[0]; ++bi) {
            const uint64_t A = bounds[bi];
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li)
                for (uint64_t spread = 1; spread <= 3; spread += 2) { /* contiguous, and every third slot */
                    const size_t n = lengths[li];
                    const uint64_t js = es * spread;
                    for (size_t i = 0; i < n; ++i) {
                        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                        const int64_t edges[] = {0, 1, -1, (int64_t)A - 1, (int64_t)A, (int64_t)A + 1, -(int64_t)A,
                                                 -(int64_t)A - 1, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN,
                                                 (int64_t)(seed >> 33) % (int64_t)A};
                        put_index(buf + i * js, dt, edges[(seed >> 20) % 13]);
                    }
                    out[n] = 0xDEADBEEF;
                    simd_index_norm(buf, js, dt, A, n, out);
                    CHECK(out[n] == 0xDEADBEEF);
                    for (size_t i = 0; i < n; ++i) {
                        int in_range;
                        const uint64_t want = index_normalize(index_read(buf + i * js, dt), A, &in_range);
                        if (out[i] != want) {
                            test_fail(__FILE__, __LINE__, "index norm type %u A %llu n %zu js %llu at %zu: %u != %llu", dt,
                                      (unsigned long long)A, n, (unsigned long long)js, i, out[i],
                                      (unsigned long long)want);
                            break;
                        }
                    }
                }
        }
    }
}

/* ---- strided copy kernels (copy_plan) --------------------------------------- */

TEST(kernels_strided_copies_each_width) {
    static const uint64_t widths[] = {1, 2, 4, 8, 16, 3, 12, 24, 40, 300};
    static const uint64_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 64, 65};
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi)
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li)
            for (uint64_t gap = 0; gap <= 2; ++gap) {
                /* rows of `len` blocks of w bytes (w = the element size here, or a folded
                 * run), two rows, dst stride w+gap*w, src stride w*2 (always strided) */
                const uint64_t w = widths[wi], len = lengths[li];
                const uint64_t es = w <= 8 ? w : 1, per = w / es;
                const uint64_t ds = w + gap * es, ss = 2 * w;
                uint64_t sizes[3] = {2, len, per}, db[3], sb[3];
                db[2] = es;
                sb[2] = es;
                db[1] = ds;
                sb[1] = ss;
                db[0] = ds * len + 5 * es;
                sb[0] = ss * len;
                const size_t dbytes = (size_t)(db[0] * 2 + 2 * GUARD), sbytes = (size_t)(sb[0] * 2);
                unsigned char *src = malloc(sbytes), *dst = malloc(dbytes), *ref = malloc(dbytes);
                if (!src || !dst || !ref) abort();
                for (size_t i = 0; i < sbytes; ++i) src[i] = (unsigned char)(i * 13 + w);
                memset(dst, 0x5A, dbytes);
                memset(ref, 0x5A, dbytes);
                for (uint64_t r = 0; r < 2; ++r)
                    for (uint64_t i = 0; i < len; ++i)
                        memcpy(ref + GUARD + r * db[0] + i * ds, src + r * sb[0] + i * ss, (size_t)w);
                copy_plan cp;
                copy_plan_init(&cp, 3, sizes, db, sb, es);
                CHECK(cp.block == w);
                copy_plan_run(&cp, dst + GUARD, src, 0, cp.units / 2); /* two ranges, as two threads would */
                copy_plan_run(&cp, dst + GUARD, src, cp.units / 2, cp.units);
                if (memcmp(dst, ref, dbytes))
                    test_fail(__FILE__, __LINE__, "strided copy width %llu len %llu gap %llu (kernel %s)",
                              (unsigned long long)w, (unsigned long long)len, (unsigned long long)gap,
                              copy_kind_name(cp.kind));
                free(src);
                free(dst);
                free(ref);
            }
}

/* ---- negative-stride views (copy_plan_init_view, simd_reverse_xN) --------- */

/* Every reverse primitive against the element-by-element reference, at lengths around the
 * vector widths, with guard bytes around the destination and unaligned pointers. */
TEST(kernels_reverse_every_length_to_70) {
    unsigned char src[70 * 8 + 3], dst[70 * 8 + 2 * GUARD + 3], ref[sizeof dst];
    for (size_t i = 0; i < sizeof src; ++i) src[i] = (unsigned char)(i * 7 + 1);
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (size_t n = 0; n <= 70; ++n)
            for (size_t mis = 0; mis <= 3; mis += 3) {
                memset(dst, 0xEE, sizeof dst);
                memset(ref, 0xEE, sizeof ref);
                const unsigned char *s = src + mis;
                unsigned char *d = dst + GUARD + mis, *r = ref + GUARD + mis;
                for (size_t i = 0; i < n; ++i) memcpy(r + i * w, s + (n - 1 - i) * w, w);
                switch (w) {
                case 1: simd_reverse_x1(d, s, n); break;
                case 2: simd_reverse_x2(d, s, n); break;
                case 4: simd_reverse_x4(d, s, n); break;
                default: simd_reverse_x8(d, s, n); break;
                }
                if (memcmp(dst, ref, sizeof dst))
                    test_fail(__FILE__, __LINE__, "simd_reverse_x%u n=%zu offset %zu", w, n, mis);
            }
}

/* The reference of a view copy: every coordinate, offsets in signed 64-bit arithmetic. */
static void view_copy_ref(unsigned char *dst, const view_t *dv, const unsigned char *src, const view_t *sv,
                          uint32_t n, const uint64_t *sizes, uint64_t es) {
    uint64_t c[8] = {0}, total = 1;
    for (uint32_t d = 0; d < n; ++d) total *= sizes[d];
    for (uint64_t p = 0; p < total; ++p) {
        int64_t doff = (int64_t)dv->base, soff = (int64_t)sv->base;
        for (uint32_t d = 0; d < n; ++d) {
            doff += (int64_t)c[d] * dv->st[d];
            soff += (int64_t)c[d] * sv->st[d];
        }
        memcpy(dst + doff, src + soff, (size_t)es);
        for (uint32_t d = n; d-- > 0;) {
            if (++c[d] < sizes[d]) break;
            c[d] = 0;
        }
    }
}

static uint32_t view_rnd(uint64_t *seed, uint64_t m) {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((*seed >> 33) % m);
}

/* Random windows of a packed source (steps of either sign, -3..3, mostly +-1) copied into
 * a destination walked forwards or backwards, with gaps: copy_plan_init_view against the
 * reference, every byte (guards included), the units run as two ranges; and every kind of
 * row the planner picks for a reversed source is reached. */
TEST(kernels_view_copies_negative_strides) {
    const uint64_t base_seed = test_seed(4242);
    uint64_t seed = 0;
#define RND(m) view_rnd(&seed, (m))
    int seen[COPY_REV_BLOCK + 1] = {0};
    for (int iter = 0; iter < 3000; ++iter) {
        if (!test_case((uint64_t)iter)) continue; /* --case: that one alone */
        seed = (uint64_t)test_case_seed(base_seed, (uint64_t)iter);
        const uint64_t es = UINT64_C(1) << RND(4);
        const uint32_t n = 1 + RND(4);
        uint64_t sizes[4], ssz[4], sst[4], dst_st[4], acc;
        int64_t step[4], start[4];
        for (uint32_t d = 0; d < n; ++d) {
            sizes[d] = RND(3) == 0 ? 1 : 1 + RND(d + 1 == n && RND(2) ? 40 : 5);
            const uint32_t k = RND(10);
            step[d] = k < 4 ? 1 : k < 7 ? -1 : (int64_t)(1 + RND(3)) * (RND(2) ? 1 : -1);
            const uint64_t reach = (sizes[d] - 1) * (uint64_t)(step[d] < 0 ? -step[d] : step[d]);
            const uint64_t extra = RND(3);
            ssz[d] = reach + 1 + extra;
            start[d] = (int64_t)(step[d] < 0 ? reach + RND((uint32_t)extra + 1) : RND((uint32_t)extra + 1));
        }
        acc = es;
        for (uint32_t d = n; d-- > 0;) {
            sst[d] = acc;
            acc *= ssz[d];
        }
        const uint64_t sbytes = acc;
        acc = es;
        for (uint32_t d = n; d-- > 0;) { /* destination: packed, a gap now and then */
            dst_st[d] = acc;
            acc = acc * sizes[d] + (RND(4) == 0 ? es : 0);
        }
        const uint64_t dbytes = acc;
        view_t sv, dv;
        memset(&sv, 0, sizeof sv);
        memset(&dv, 0, sizeof dv);
        for (uint32_t d = 0; d < n; ++d) {
            sv.base += (uint64_t)start[d] * sst[d];
            sv.st[d] = step[d] * (int64_t)sst[d];
            const int back = RND(4) == 0; /* this dim of the destination walked backwards */
            dv.st[d] = back ? -(int64_t)dst_st[d] : (int64_t)dst_st[d];
            if (back) dv.base += (sizes[d] - 1) * dst_st[d];
        }
        unsigned char *src = malloc((size_t)sbytes), *dst = malloc((size_t)(dbytes + 2 * GUARD)),
                      *ref = malloc((size_t)(dbytes + 2 * GUARD));
        if (!src || !dst || !ref) abort();
        for (uint64_t i = 0; i < sbytes; ++i) src[i] = (unsigned char)RND(256);
        memset(dst, 0x5A, (size_t)(dbytes + 2 * GUARD));
        memset(ref, 0x5A, (size_t)(dbytes + 2 * GUARD));
        view_copy_ref(ref + GUARD, &dv, src, &sv, n, sizes, es);
        copy_plan cp;
        copy_plan_init_view(&cp, n, sizes, &dv, &sv, es);
        for (uint32_t d = 0; d < cp.nest.m; ++d) CHECK(!nest_st_negative(cp.nest.st[0][d])); /* dst forwards */
        seen[cp.kind] = 1;
        copy_plan_run(&cp, dst + GUARD, src, 0, cp.units / 2);
        copy_plan_run(&cp, dst + GUARD, src, cp.units / 2, cp.units);
        if (memcmp(dst, ref, (size_t)(dbytes + 2 * GUARD)))
            test_fail(__FILE__, __LINE__, "view copy case %d (n %u, es %llu, kind %s) differs", iter, n,
                      (unsigned long long)es, copy_kind_part(cp.kind));
        free(src);
        free(dst);
        free(ref);
    }
    if (!test_cases_end()) return; /* --case: the checks over all the cases do not apply */
#undef RND
    for (int k = COPY_BLOCK; k <= COPY_REV_BLOCK; ++k)
        if (!seen[k]) test_fail(__FILE__, __LINE__, "no random view used kind %s", copy_kind_part(k));
}

/* A view reversed in every dim of a packed tensor is one reversed run (the two negative dims
 * merge); a reversed row of 300 KiB blocks takes the chunked path; the views of a tensor. */
TEST(kernels_view_reversed_merges_and_chunks) {
    /* {3, 5} int32 reversed in both dims -> one row of 15, rev_x4 */
    const uint64_t sizes[2] = {3, 5};
    view_t sv = {.base = 14 * 4, .st = {-20, -4}}, dv = {.base = 0, .st = {20, 4}};
    copy_plan cp;
    copy_plan_init_view(&cp, 2, sizes, &dv, &sv, 4);
    CHECK_EQ_U64(cp.nest.m, 1);
    CHECK_EQ_U64(cp.nest.sizes[0], 15);
    CHECK(cp.kind == COPY_REV_X4);
    uint32_t in[15], out[15];
    for (uint32_t i = 0; i < 15; ++i) in[i] = i;
    copy_plan_run(&cp, (unsigned char *)out, (const unsigned char *)in, 0, cp.units);
    for (uint32_t i = 0; i < 15; ++i) CHECK_EQ_U64(out[i], 14 - i);
    /* a negative and a positive stride never merge; two negative ones by magnitude */
    CHECK(nest_adjacent((uint64_t)-20, (uint64_t)-4, 5));
    CHECK(!nest_adjacent((uint64_t)-20, 4, 5));
    CHECK(!nest_adjacent(20, (uint64_t)-4, 5));
    CHECK(nest_adjacent((uint64_t)INT64_MIN, (uint64_t)(INT64_MIN / 2), 2)); /* -2^63 = -2^62 * 2 */
    CHECK(!nest_adjacent(0, (uint64_t)INT64_MIN, 2));

    /* rows of 300 KiB (76800 int32) in reverse row order: blocks of 300 KiB, chunked */
    const uint64_t rows = 3, cols = 76800, big[2] = {rows, cols};
    uint32_t *a = malloc(rows * cols * 4), *b = malloc(rows * cols * 4);
    if (!a || !b) abort();
    for (uint64_t i = 0; i < rows * cols; ++i) a[i] = (uint32_t)i;
    view_t rs = {.base = (rows - 1) * cols * 4, .st = {-(int64_t)(cols * 4), 4}};
    view_t rd = {.base = 0, .st = {(int64_t)(cols * 4), 4}};
    copy_plan_init_view(&cp, 2, big, &rd, &rs, 4);
    CHECK(cp.chunks > 1);
    copy_plan_run(&cp, (unsigned char *)b, (const unsigned char *)a, 0, cp.units / 3);
    copy_plan_run(&cp, (unsigned char *)b, (const unsigned char *)a, cp.units / 3, cp.units);
    int bad = 0;
    for (uint64_t r = 0; r < rows; ++r)
        for (uint64_t c = 0; c < cols; ++c) bad |= b[r * cols + c] != (uint32_t)((rows - 1 - r) * cols + c);
    CHECK(!bad);
    free(a);
    free(b);

    /* view_window: size-1 dims get stride 0, a stride past int64 refuses */
    tensor_t t;
    memset(&t, 0, sizeof t);
    t.n = 2;
    t.esize = 8;
    t.sizes[0] = 4;
    t.sizes[1] = 5;
    t.bstrides[0] = 40;
    t.bstrides[1] = 8;
    const uint32_t vs[2] = {2, 1};
    const int64_t st0[2] = {3, 0}, stp[2] = {-3, INT64_MAX};
    view_t w;
    CHECK(view_window(&w, &t, vs, st0, stp));
    CHECK_EQ_U64(w.base, 120);
    CHECK_EQ_I64(w.st[0], -120);
    CHECK_EQ_I64(w.st[1], 0);
    t.bstrides[0] = UINT64_C(1) << 34;
    const int64_t huge[2] = {INT64_C(1) << 29, 1};
    CHECK(!view_window(&w, &t, vs, st0, huge));
    view_of_tensor(&w, &t);
    CHECK_EQ_I64(w.st[0], INT64_C(1) << 34);
    CHECK_EQ_U64(w.base, 0);
}

/* ---- gather kernels through the API ---------------------------------------- */

static DMLREF_TENSOR_DATA_TYPE type_of_width(uint32_t w) {
    return w == 1 ? DMLREF_TENSOR_DATA_TYPE_UINT8 : w == 2 ? DMLREF_TENSOR_DATA_TYPE_FLOAT16
         : w == 4 ? DMLREF_TENSOR_DATA_TYPE_FLOAT32 : DMLREF_TENSOR_DATA_TYPE_INT64;
}

/* Runs desc through the fast path (with `threads`) and the oracle; outputs must
 * match byte for byte. */
static void fast_vs_oracle_t(const DMLREF_OPERATOR_DESC *desc, const dmlref_cbuffer *in, uint32_t n_in,
                             size_t out_bytes, const char *want_kernel, const char *what, uint32_t threads) {
    dmlref_operator *f = NULL, *o = NULL;
    dmlref_error err;
    const dmlref_options fo = {.flags = 0, .threads = threads}, oo = {.flags = DMLREF_OPTION_FORCE_ORACLE, .threads = 1};
    CHECK_STATUS(dmlref_compile(desc, (DMLREF_FEATURE_LEVEL)0x6400, &fo, &f, &err), err, DMLREF_OK, NULL);
    CHECK_STATUS(dmlref_compile(desc, (DMLREF_FEATURE_LEVEL)0x6400, &oo, &o, &err), err, DMLREF_OK, NULL);
    if (!f || !o) return;
    if (want_kernel && !kernel_small_off(want_kernel) && strncmp(dmlref_kernel_name(f), want_kernel, strlen(want_kernel)))
        test_fail(__FILE__, __LINE__, "%s: kernel %s, want %s", what, dmlref_kernel_name(f), want_kernel);
    unsigned char *a = malloc(out_bytes), *b = malloc(out_bytes);
    if (!a || !b) abort();
    memset(a, 0x77, out_bytes);
    memset(b, 0x77, out_bytes);
    const dmlref_buffer ob[1] = {{a, out_bytes}}, obb[1] = {{b, out_bytes}};
    CHECK_STATUS(dmlref_execute(f, in, n_in, ob, 1, &err), err, DMLREF_OK, NULL);
    CHECK_STATUS(dmlref_execute(o, in, n_in, obb, 1, &err), err, DMLREF_OK, NULL);
    if (memcmp(a, b, out_bytes)) test_fail(__FILE__, __LINE__, "%s: fast path differs from the oracle", what);
    free(a);
    free(b);
    dmlref_release(f);
    dmlref_release(o);
}

static void fast_vs_oracle(const DMLREF_OPERATOR_DESC *desc, const dmlref_cbuffer *in, uint32_t n_in, size_t out_bytes,
                           const char *want_kernel, const char *what) {
    fast_vs_oracle_t(desc, in, n_in, out_bytes, want_kernel, what, 0);
}

TEST(kernels_gather_axis_last_lengths) {
    static const uint32_t lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 511, 512, 513, 1100};
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li) {
            const uint32_t L = lengths[li], rows = 3, A = 37;
            tdesc in, ix, out;
            tdesc_init(&in, type_of_width(w), 2, SIZES(rows, A), NULL);
            tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT32, 2, SIZES(1, L), NULL);
            tdesc_init(&out, type_of_width(w), 2, SIZES(rows, L), NULL);
            const DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1, 1};
            const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_GATHER, &g};
            const size_t xb = (size_t)in.buf.TotalTensorSizeInBytes;
            unsigned char *x = calloc(1, xb);
            int32_t *idx = malloc(L * 4);
            if (!x || !idx) abort();
            for (uint32_t i = 0; i < rows * A * w; ++i) x[i] = (unsigned char)(i * 7 + 3);
            for (uint32_t i = 0; i < L; ++i) idx[i] = (int32_t)((i * 11) % (A + 6)) - 3; /* incl. negative, out of range */
            const dmlref_cbuffer ib[2] = {{x, xb}, {idx, L * 4}};
            char what[64];
            snprintf(what, sizeof what, "gather axis_last w%u L%u", w, L);
            fast_vs_oracle(&desc, ib, 2, (size_t)out.buf.TotalTensorSizeInBytes, L > 1 ? "gather.axis_last" : NULL, what);
            free(x);
            free(idx);
        }
}

/* GATHER_ELEMENTS along the last axis with 64-bit indices: the fused
 * normalize-and-gather loop (and its next-row prefetch) at awkward lengths. */
TEST(kernels_gather_elements_axis_last_fused64) {
    static const uint32_t lengths[] = {2, 3, 5, 15, 16, 17, 63, 64, 65, 257};
    static const uint32_t types[] = {DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (size_t ti = 0; ti < 2; ++ti)
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; ++li) {
                const uint32_t L = lengths[li], A = L + 3 - (uint32_t)li % 5, rows = 4; /* A around L */
                tdesc in, ix, out;
                tdesc_init(&in, type_of_width(w), 2, SIZES(rows, A), NULL);
                tdesc_init(&ix, types[ti], 2, SIZES(rows, L), NULL);
                tdesc_init(&out, type_of_width(w), 2, SIZES(rows, L), NULL);
                const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1};
                const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_GATHER_ELEMENTS, &g};
                const size_t xb = (size_t)in.buf.TotalTensorSizeInBytes;
                unsigned char *x = calloc(1, xb);
                int64_t *idx = malloc((size_t)rows * L * 8);
                if (!x || !idx) abort();
                for (uint32_t i = 0; i < rows * A * w; ++i) x[i] = (unsigned char)(i * 7 + 3);
                for (uint32_t i = 0; i < rows * L; ++i) /* in range, negative and past the end */
                    idx[i] = (int64_t)((i * 11) % (A + 6)) - 3 + (i % 13 == 5 ? INT64_C(1) << 40 : 0);
                const dmlref_cbuffer ib[2] = {{x, xb}, {idx, (size_t)rows * L * 8}};
                char what[80];
                snprintf(what, sizeof what, "gather_elements axis_last %s w%u L%u", ti ? "u64" : "i64", w, L);
                fast_vs_oracle(&desc, ib, 2, (size_t)out.buf.TotalTensorSizeInBytes, "gather_elements.axis_last",
                               what);
                free(x);
                free(idx);
            }
}

TEST(kernels_gather_elements_axis_first_column_blocks) {
    static const uint32_t cols[] = {1, 3, 31, 32, 33, 63, 64, 65, 127, 128, 129, 257};
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (size_t ci = 0; ci < sizeof cols / sizeof cols[0]; ++ci) {
            const uint32_t C = cols[ci], R = 5, P = 6;
            if (C == 1) continue; /* one column: no axis_first shape */
            tdesc in, ix, out;
            tdesc_init(&in, type_of_width(w), 2, SIZES(R, C), NULL);
            tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT64, 2, SIZES(P, C), NULL);
            tdesc_init(&out, type_of_width(w), 2, SIZES(P, C), NULL);
            const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 0};
            const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_GATHER_ELEMENTS, &g};
            const size_t xb = (size_t)in.buf.TotalTensorSizeInBytes;
            unsigned char *x = calloc(1, xb);
            int64_t *idx = malloc(P * C * 8);
            if (!x || !idx) abort();
            for (uint32_t i = 0; i < R * C * w; ++i) x[i] = (unsigned char)(i * 5 + 1);
            for (uint32_t i = 0; i < P * C; ++i) idx[i] = (int64_t)((i * 7) % (R + 4)) - 2;
            const dmlref_cbuffer ib[2] = {{x, xb}, {idx, P * C * 8}};
            char what[64];
            snprintf(what, sizeof what, "gather_elements axis_first w%u C%u", w, C);
            fast_vs_oracle(&desc, ib, 2, (size_t)out.buf.TotalTensorSizeInBytes, "gather_elements.axis_first", what);
            free(x);
            free(idx);
        }
}

/* GATHER_ELEMENTS on the outer axis through scratch slabs (forced on small
 * planes with DMLREF_SLAB_MIN=0): slabs of every width, column counts around
 * the slab's block (SLAB_BYTES / (A * width), at most 256), axis sizes whose
 * block is just above and below 64 bytes, strided input columns, an outer
 * dimension, 1 to 3 threads with a small grain so that several parts each use
 * their own slab, and out-of-range / negative indices. */
TEST(kernels_gather_elements_axis_first_slab) {
    static const struct { uint32_t A, R; } shapes[] = {{5, 7}, {37, 3}, {300, 19}, {4100, 300}, {8192, 600}};
    static const uint32_t cols[] = {2, 15, 16, 17, 63, 64, 65, 255, 256, 257, 600};
    setenv("DMLREF_SLAB_MIN", "0", 1);
    setenv("DMLREF_PAR_GRAIN", "64", 1);
    env_reload(); /* the library reads the variables once: read them again */
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; ++si)
            for (size_t ci = 0; ci < sizeof cols / sizeof cols[0]; ++ci) {
                const uint32_t A = shapes[si].A, R = shapes[si].R, C = cols[ci];
                const uint32_t outer = (ci % 3 == 1) ? 2 : 1, gap = (ci % 3 == 2) ? 2 : 1; /* outer dim, strided columns */
                if ((uint64_t)A * C * w > (8u << 20) || (uint64_t)R * C > (1u << 20)) continue;
                const uint64_t slab_cols = (UINT64_C(512) << 10) / ((uint64_t)A * w);
                const int slab = (slab_cols >= C || (slab_cols >= 1 && slab_cols * w >= 64)) && R * 16 >= A;
                tdesc in, ix, out;
                tdesc_init(&in, type_of_width(w), 3, SIZES(outer, A, C), SIZES(A * C * gap, C * gap, gap));
                tdesc_init(&ix, (si + ci) % 2 ? DMLREF_TENSOR_DATA_TYPE_INT64 : DMLREF_TENSOR_DATA_TYPE_INT32, 3,
                           SIZES(outer, R, C), NULL);
                tdesc_init(&out, type_of_width(w), 3, SIZES(outer, R, C), NULL);
                const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1};
                const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_GATHER_ELEMENTS, &g};
                const size_t xb = (size_t)in.buf.TotalTensorSizeInBytes, ib_ = (size_t)ix.buf.TotalTensorSizeInBytes;
                const size_t count = (size_t)outer * R * C;
                unsigned char *x = malloc(xb), *idx = malloc(ib_);
                if (!x || !idx) abort();
                for (size_t i = 0; i < xb; ++i) x[i] = (unsigned char)(i * 7 + (i >> 8) + 3);
                for (size_t i = 0; i < count; ++i) { /* in range, negative and past the end */
                    const int64_t v = (int64_t)((i * 2654435761u) % (A + 4)) - 2;
                    if (ix.buf.DataType == DMLREF_TENSOR_DATA_TYPE_INT64) memcpy(idx + 8 * i, &v, 8);
                    else {
                        const int32_t v32 = (int32_t)v;
                        memcpy(idx + 4 * i, &v32, 4);
                    }
                }
                const dmlref_cbuffer ib[2] = {{x, xb}, {idx, ib_}};
                for (uint32_t t = 1; t <= 3; ++t) {
                    char what[96];
                    snprintf(what, sizeof what, "gather_elements slab w%u A%u R%u C%u outer %u gap %u threads %u", w, A,
                             R, C, outer, gap, t);
                    fast_vs_oracle_t(&desc, ib, 2, (size_t)out.buf.TotalTensorSizeInBytes,
                                     slab ? "gather_elements.axis_first_slab" : "gather_elements.axis_first.", what, t);
                }
                free(x);
                free(idx);
            }
    unsetenv("DMLREF_SLAB_MIN");
    unsetenv("DMLREF_PAR_GRAIN");
    env_reload(); /* the library reads the variables once: read them again */
}

/* Without the override, a plane of 1 MiB and more takes the slabs; below, not. */
TEST(kernels_gather_elements_slab_threshold) {
    static const struct { uint32_t C; const char *kernel; } rows[] = {
        {64, "gather_elements.axis_first_slab.x4." DMLREF_ISA}, /* 4096 x 64 x 4 B = 1 MiB */
        {63, "gather_elements.axis_first.x4." DMLREF_ISA},
    };
    for (size_t i = 0; i < 2; ++i) {
        tdesc in, ix, out;
        tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4096, rows[i].C));
        tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_INT64, DIMS(4096, rows[i].C));
        tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4096, rows[i].C));
        const DMLREF_GATHER_ELEMENTS_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 0};
        const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_GATHER_ELEMENTS, &g};
        dmlref_operator *op = NULL;
        dmlref_error err;
        CHECK_STATUS(dmlref_compile(&desc, (DMLREF_FEATURE_LEVEL)0x6400, NULL, &op, &err), err, DMLREF_OK, NULL);
        if (op && !kernel_small_off(rows[i].kernel) && strcmp(dmlref_kernel_name(op), rows[i].kernel))
            test_fail(__FILE__, __LINE__, "4096 x %u: kernel %s, want %s", rows[i].C, dmlref_kernel_name(op),
                      rows[i].kernel);
        dmlref_release(op);
    }
}

/* SCATTER_ND of whole rows that skips copying the rows an update overwrites
 * (forced on small outputs with DMLREF_STREAM_MIN=0): one or two index
 * components, rows of 64 bytes and more, duplicates (the last one wins),
 * negative and out-of-range components, rows padded apart in the output (no
 * runs to merge) or packed (runs), an input broadcast along the tuple
 * dimension, 1 to 3 threads. */
TEST(kernels_scatter_nd_rows_skip) {
    setenv("DMLREF_STREAM_MIN", "0", 1);
    setenv("DMLREF_PAR_GRAIN", "64", 1);
    env_reload(); /* the library reads the variables once: read them again */
    static const uint32_t widths[] = {16, 25, 64, 257}; /* 4-byte elements per row */
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi)
        for (int layout = 0; layout < 4; ++layout) {
            const uint32_t W = widths[wi], R = 13, C = 3, N = layout == 3 ? 17 : 9;
            const int two = layout >= 2; /* (r, c) tuples into [R, C, W] */
            tdesc in, ix, up, out;
            if (two) tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(R, C, W), layout == 3 ? SIZES(0, W, 1) : NULL);
            else tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(1, R, W), SIZES(R * (W + 5), W + 5, 1));
            if (two) tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(R, C, W), NULL);
            else tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(1, R, W), layout == 1 ? SIZES(R * (W + 3), W + 3, 1) : NULL);
            tdesc_init(&ix, layout % 2 ? DMLREF_TENSOR_DATA_TYPE_INT64 : DMLREF_TENSOR_DATA_TYPE_UINT32, 3,
                       SIZES(1, N, two ? 2 : 1), NULL);
            tdesc_init(&up, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 3, SIZES(1, N, W), NULL);
            const DMLREF_SCATTER_ND_OPERATOR_DESC sd = {&in.desc, &ix.desc, &up.desc, &out.desc, two ? 3 : 2, 2};
            const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_SCATTER_ND, &sd};
            const size_t xb = (size_t)in.buf.TotalTensorSizeInBytes, ub = (size_t)up.buf.TotalTensorSizeInBytes;
            const size_t ixb = (size_t)ix.buf.TotalTensorSizeInBytes, comps = two ? 2 : 1;
            unsigned char *x = malloc(xb), *u = malloc(ub), *idx = malloc(ixb);
            if (!x || !u || !idx) abort();
            for (size_t i = 0; i < xb; ++i) x[i] = (unsigned char)(i * 5 + 1);
            for (size_t i = 0; i < ub; ++i) u[i] = (unsigned char)(i * 3 + 128);
            for (uint32_t i = 0; i < N; ++i)
                for (size_t k = 0; k < comps; ++k) {
                    const uint32_t bound = k == 0 ? R : C;
                    int64_t v = (int64_t)((i * 5 + k * 3) % (bound + 2)); /* repeats, and bound, bound + 1 */
                    if (layout % 2 && i % 4 == 3) v = -v - 1;              /* negative (signed types) */
                    if (layout % 2) memcpy(idx + 8 * (i * comps + k), &v, 8);
                    else {
                        const uint32_t v32 = (uint32_t)v;
                        memcpy(idx + 4 * (i * comps + k), &v32, 4);
                    }
                }
            const dmlref_cbuffer ib[3] = {{x, xb}, {idx, ixb}, {u, ub}};
            for (uint32_t t = 1; t <= 3; ++t) {
                char what[80];
                snprintf(what, sizeof what, "scatter_nd rows_skip W%u layout %d threads %u", W, layout, t);
                fast_vs_oracle_t(&desc, ib, 3, (size_t)out.buf.TotalTensorSizeInBytes,
#if DMLREF_SIMD
                                 "scatter_nd.rows_skip." DMLREF_ISA,
#else
                                 "scatter_nd.rows." DMLREF_ISA,
#endif
                                 what, t);
            }
            free(x);
            free(u);
            free(idx);
        }
    unsetenv("DMLREF_STREAM_MIN");
    unsetenv("DMLREF_PAR_GRAIN");
    env_reload(); /* the library reads the variables once: read them again */
}

/* The scratch a plan lends: one execution at a time. */
TEST(kernels_scratch_claim) {
    scratch_t s;
    CHECK(scratch_init(&s, &mem_default, 3, 100) == 1);
    unsigned char *a = scratch_claim(&s);
    CHECK(a != NULL);
    CHECK(scratch_claim(&s) == NULL); /* taken */
    if (a) memset(a, 1, 300);         /* all parts are usable */
    scratch_release(&s);
    CHECK(scratch_claim(&s) == a);
    scratch_release(&s);
    scratch_free(&s, &mem_default);
    CHECK(scratch_init(&s, &mem_default, 2, SIZE_MAX / 2 + 1) == 0); /* overflow: no scratch */
    CHECK(scratch_claim(&s) == NULL);
    scratch_free(&s, &mem_default);
}

TEST(kernels_join_inner_block_sizes) {
    /* 4 pieces of w*k bytes per row: join.inner with blocks around 16 bytes;
     * 1100 rows cross the kernel's 4 KiB batches of rows at every row size */
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (uint32_t k = 1; k <= 9; ++k) {
            const uint32_t rows = 1100;
            tdesc p[4], out;
            DMLREF_TENSOR_DESC pd[4];
            dmlref_cbuffer ib[4];
            for (int i = 0; i < 4; ++i) {
                tdesc_init(&p[i], type_of_width(w), 2, SIZES(rows, k), NULL);
                pd[i] = p[i].desc;
                const size_t bytes = (size_t)p[i].buf.TotalTensorSizeInBytes;
                unsigned char *d = malloc(bytes);
                if (!d) abort();
                for (uint32_t b = 0; b < bytes; ++b) d[b] = (unsigned char)(b + 50 * i);
                ib[i].data = d;
                ib[i].size = bytes;
            }
            tdesc_init(&out, type_of_width(w), 2, SIZES(rows, 4 * k), NULL);
            const DMLREF_JOIN_OPERATOR_DESC j = {4, pd, &out.desc, 1};
            const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_JOIN, &j};
            char what[64];
            snprintf(what, sizeof what, "join inner w%u k%u", w, k);
            fast_vs_oracle(&desc, ib, 4, (size_t)out.buf.TotalTensorSizeInBytes, "join.inner." DMLREF_ISA, what);
            for (int i = 0; i < 4; ++i) free((void *)(uintptr_t)ib[i].data);
        }
}

TEST(kernels_scatter_nd_elems64_duplicates) {
    /* SCATTER_ND of single elements with INT64 / UINT64 (row, col) tuples:
     * duplicates (the last one wins), negative and out-of-range components */
    static const uint32_t types[] = {DMLREF_TENSOR_DATA_TYPE_INT64, DMLREF_TENSOR_DATA_TYPE_UINT64};
    for (uint32_t w = 1; w <= 8; w *= 2)
        for (size_t ti = 0; ti < 2; ++ti) {
            const uint32_t R = 5, C = 7, N = 61;
            tdesc in, ix, up, out;
            tdesc_init(&in, type_of_width(w), 2, SIZES(R, C), NULL);
            tdesc_init(&ix, types[ti], 2, SIZES(N, 2), NULL);
            tdesc_init(&up, type_of_width(w), 2, SIZES(1, N), NULL);
            tdesc_init(&out, type_of_width(w), 2, SIZES(R, C), NULL);
            const DMLREF_SCATTER_ND_OPERATOR_DESC sd = {&in.desc, &ix.desc, &up.desc, &out.desc, 2, 2};
            const DMLREF_OPERATOR_DESC desc = {DMLREF_OPERATOR_SCATTER_ND, &sd};
            const size_t xb = (size_t)in.buf.TotalTensorSizeInBytes, ub = (size_t)up.buf.TotalTensorSizeInBytes;
            unsigned char *x = malloc(xb), *u = malloc(ub);
            int64_t *idx = malloc((size_t)N * 16);
            if (!x || !u || !idx) abort();
            for (size_t i = 0; i < xb; ++i) x[i] = (unsigned char)(i * 5 + 1);
            for (size_t i = 0; i < ub; ++i) u[i] = (unsigned char)(i * 3 + 128);
            for (uint32_t i = 0; i < N; ++i) {
                idx[2 * i] = (int64_t)((i * 7) % (R + 4)) - 2;     /* rows, some negative or past the end */
                idx[2 * i + 1] = (int64_t)((i * 3) % (C + 4)) - 2; /* 61 tuples over 35 cells: duplicates */
            }
            const dmlref_cbuffer ib[3] = {{x, xb}, {idx, (size_t)N * 16}, {u, ub}};
            char what[64];
            snprintf(what, sizeof what, "scatter_nd elems %s w%u", ti ? "u64" : "i64", w);
            fast_vs_oracle(&desc, ib, 3, (size_t)out.buf.TotalTensorSizeInBytes, "scatter_nd.elems", what);
            free(x);
            free(u);
            free(idx);
        }
}

/* JOIN / SPLIT: one name per mode (join.block named two of them before, chosen by the first letter of a
 * string): blocks of at most 256 KiB run inner, larger ones chunked, non-contiguous pieces strided; every
 * fast name ends with the instruction set. */
TEST(kernels_concat_mode_names) {
    static const struct { uint32_t rows, cols; int strided; const char *join, *split; } cases[] = {
        {64, 16, 0, "join.inner." DMLREF_ISA, "split.inner." DMLREF_ISA},         /* 4 KiB blocks */
        {2, 70000, 0, "join.chunked." DMLREF_ISA, "split.chunked." DMLREF_ISA},   /* 547 KiB blocks */
        {3, 5, 1, "join.strided." DMLREF_ISA, "split.strided." DMLREF_ISA},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const uint32_t R = cases[c].rows, C = cases[c].cols;
        tdesc a, b, whole;
        tdesc_init(&a, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(R, C), NULL);
        tdesc_init(&b, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(R, C), NULL);
        if (cases[c].strided) /* transposed whole: pieces are not contiguous blocks */
            tdesc_init(&whole, DMLREF_TENSOR_DATA_TYPE_FLOAT32, 2, SIZES(2 * R, C), SIZES(1, 2 * R));
        else
            tdesc_init(&whole, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(2 * R, C));
        DMLREF_TENSOR_DESC pd[2] = {a.desc, b.desc};
        const size_t pbytes = (size_t)a.buf.TotalTensorSizeInBytes, wbytes = (size_t)whole.buf.TotalTensorSizeInBytes;
        unsigned char *pa = malloc(pbytes), *pb = malloc(pbytes), *w = malloc(wbytes);
        if (!pa || !pb || !w) abort();
        for (size_t i = 0; i < pbytes; ++i) {
            pa[i] = (unsigned char)(i * 7 + 1);
            pb[i] = (unsigned char)(i * 13 + 5);
        }
        for (size_t i = 0; i < wbytes; ++i) w[i] = (unsigned char)(i * 3 + 2);
        const DMLREF_JOIN_OPERATOR_DESC j = {2, pd, &whole.desc, 0};
        const DMLREF_OPERATOR_DESC jd = {DMLREF_OPERATOR_JOIN, &j};
        const dmlref_cbuffer jin[2] = {{pa, pbytes}, {pb, pbytes}};
        fast_vs_oracle(&jd, jin, 2, wbytes, cases[c].join, cases[c].join);
        dmlref_operator *op = NULL;
        dmlref_error err;
        CHECK_STATUS(dmlref_compile(&jd, DMLREF_FEATURE_LEVEL_6_4, NULL, &op, &err), err, DMLREF_OK, NULL);
        if (op && !kernel_small_off(cases[c].join)) CHECK(strcmp(dmlref_kernel_name(op), cases[c].join) == 0);
        dmlref_release(op);
        const DMLREF_SPLIT_OPERATOR_DESC s = {&whole.desc, 2, pd, 0};
        const DMLREF_OPERATOR_DESC sd = {DMLREF_OPERATOR_SPLIT, &s};
        op = NULL;
        CHECK_STATUS(dmlref_compile(&sd, DMLREF_FEATURE_LEVEL_6_4, NULL, &op, &err), err, DMLREF_OK, NULL);
        if (op && !kernel_small_off(cases[c].split)) CHECK(strcmp(dmlref_kernel_name(op), cases[c].split) == 0);
        dmlref_release(op);
        free(pa);
        free(pb);
        free(w);
    }
}

/* GATHER's names: no axis_first (GATHER never takes it), the ISA last. */
TEST(kernels_gather_names_end_with_isa) {
    tdesc in, ix, out;
    tdesc_init(&in, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4, 300));
    tdesc_init(&ix, DMLREF_TENSOR_DATA_TYPE_UINT32, DIMS(1, 300));
    tdesc_init(&out, DMLREF_TENSOR_DATA_TYPE_FLOAT32, DIMS(4, 300));
    const DMLREF_GATHER_OPERATOR_DESC g = {&in.desc, &ix.desc, &out.desc, 1, 1};
    const DMLREF_OPERATOR_DESC d = {DMLREF_OPERATOR_GATHER, &g};
    dmlref_operator *op = NULL;
    dmlref_error err;
    CHECK_STATUS(dmlref_compile(&d, DMLREF_FEATURE_LEVEL_6_4, NULL, &op, &err), err, DMLREF_OK, NULL);
    if (op) CHECK(strcmp(dmlref_kernel_name(op), "gather.axis_last.x4." DMLREF_ISA) == 0);
    dmlref_release(op);
}

/* Dimension merging is overflow-safe: an outer stride 0 over an inner stride 2^63 of size 2 is not
 * "adjacent" (2^63 * 2 wraps to 0: the unchecked product merged them into one dimension). */
TEST(kernels_nest_collapse_adjacency_overflow) {
    CHECK(!stride_adjacent(0, UINT64_C(1) << 63, 2));
    CHECK(!stride_adjacent(0, UINT64_MAX, UINT64_MAX));
    CHECK(stride_adjacent(UINT64_C(1) << 63, UINT64_C(1) << 62, 2));
    CHECK(stride_adjacent(12, 4, 3));
    CHECK(!stride_adjacent(12, 4, 4));
    nest_t nt;
    memset(&nt, 0, sizeof nt);
    nt.m = 2;
    nt.sizes[0] = 2;
    nt.sizes[1] = 2;
    nt.st[0][0] = 0;
    nt.st[0][1] = UINT64_C(1) << 63;
    nest_collapse(&nt, 1);
    CHECK_EQ_U64(nt.m, 2);
    CHECK_EQ_U64(nt.points, 4);
    /* and a true merge still happens: {2, 3} strides {12, 4} -> {6} stride 4 */
    memset(&nt, 0, sizeof nt);
    nt.m = 2;
    nt.sizes[0] = 2;
    nt.sizes[1] = 3;
    nt.st[0][0] = 12;
    nt.st[0][1] = 4;
    nest_collapse(&nt, 1);
    CHECK_EQ_U64(nt.m, 1);
    CHECK_EQ_U64(nt.sizes[0], 6);
    CHECK_EQ_U64(nt.st[0][0], 4);
}
