/*
 * TOP_K and TOP_K1's fast path (topk.h): bit-identical to the oracle (topk.c), tested
 * against it on random cases (ties, NaNs of several payloads, +-0, +-Inf, all-equal
 * rows, K = 1 and K = the axis size) with 1 and 2 threads.  Sequences are split across
 * threads (run_ranges), each written by one part.
 *
 *   top_k.list_f32  FLOAT32, the sequence contiguous in the input, K <= 16: from 16 elements on
 *                   (bound_prepare, bound_finish), a first pass takes 16 lanes' float extremes,
 *                   a sorting network their K-th best t (a bound: the K best are at least as
 *                   good as t), a second screens every element against t with ordered float
 *                   compares, and the few that pass (about 10 a row of 256 at K = 8) are taken
 *                   and ranked on the exact 32-bit keys below by counting in vectors (no data-
 *                   dependent branch), or, more than 16, go through a running list of the K
 *                   best (key, position) on the stack.  Shorter rows: every element through that
 *                   list, the keys 4 at a time, and with K 1 or 2 the list in registers, each
 *                   insert without a branch; rows of up to 4 through a sorting network of 4
 *                   entries (short_run).  The row is never sorted.  A row's
 *                   bound is prepared before the previous row is finished (bounded_run).
 *   top_k.list      any other type or layout, K <= 16: the same list on the 64-bit
 *                   keys of scalar_order_key, element by element.
 *   top_k.heap      K > 16: the oracle's selection (a heap of K positions in the
 *                   sequence's OutputIndex row, then heapsorted there: O(n log K),
 *                   no memory), sequences split across threads.
 *
 * The list's order: "greater is better" on key' = key (DECREASING) or the key negated /
 * complemented (INCREASING), ties kept in position order (a new element, always the
 * highest position so far, goes after the equal keys): exactly the order of topk.h.
 *
 * FLOAT32's 32-bit key (signed): m = bits & 0x7FFFFFFF; a NaN (m > 0x7F800000) is
 * 0x7F800001, above +Inf's 0x7F800000; otherwise m for a positive sign, -m for a negative
 * one, so -0 and +0 are both 0.  The same order as scalar_order_key on FLOAT32 (tested),
 * on the bits only.  The float compares of the bound and the screen only choose which elements
 * reach the keys, and keep every one of the K best under a denormals-are-zero mode too
 * (bound_prepare), so a caller's MXCSR changes nothing.
 */
#include <math.h>

#include "topk.h"
#include "core/scalar.h"
#include "engine/plan.h"
#include "ops/kernels.h"
#include "simd/simd.h"

#define LIST_MAX 16u

typedef struct topk_plan_t {
    nest_t nest;        /* the sequences: st[0] OutputValue's, st[1] Input's, st[2] OutputIndex's */
    uint64_t n, k;      /* Input.Sizes[Axis], K */
    uint64_t in_st, val_st, ix_st; /* byte strides along Axis */
    uint32_t dtype, ix_dtype, esize, decreasing;
    uint32_t nth;
} topk_plan_t;

typedef struct topk_ctx {
    const topk_plan_t *p;
    const exec_args *x;
} topk_ctx;

static void put_index(unsigned char *ix, uint32_t ix_dtype, uint64_t j) {
    if (ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT64) {
        memcpy(ix, &j, 8);
    } else {
        const uint32_t v = (uint32_t)j;
        memcpy(ix, &v, 4);
    }
}

/* ---- top_k.list_f32 ------------------------------------------------------------------ */

static inline int32_t f32_key(uint32_t b) {
    const uint32_t m = b & 0x7FFFFFFFu;
    if (m > 0x7F800000u) return 0x7F800001;
    return (b >> 31) ? -(int32_t)m : (int32_t)m;
}

/* Inserts (key, j) into the list of cnt (< cap or replacing the last): after the keys
 * that are >= key. */
static inline uint32_t list_insert32(int32_t *key, uint32_t *pos, uint32_t cnt, uint32_t cap, int32_t kj, uint32_t j) {
    uint32_t i = cnt < cap ? cnt++ : cap - 1;
    while (i > 0 && key[i - 1] < kj) {
        key[i] = key[i - 1];
        pos[i] = pos[i - 1];
        --i;
    }
    key[i] = kj;
    pos[i] = j;
    return cnt;
}

#if DMLREF_SIMD
/* ---- the bounded selection (list_f32_seq, n >= 16) ---------------------------------------- */

#define CAND_MAX 16u /* candidates ranked at once; more: the list */

/* The better / worse of two vectors lane by lane in the direction's float order: max / min
 * (DECREASING), min / max (INCREASING).  Both return one of their operands (the second when
 * they compare equal); NaNs never reach them (bound_prepare checks). */
static DMLREF_ALWAYS_INLINE simde__m128 vbest(simde__m128 a, simde__m128 b, int dec) {
    return dec ? simde_mm_max_ps(a, b) : simde_mm_min_ps(a, b);
}
static DMLREF_ALWAYS_INLINE simde__m128 vworst(simde__m128 a, simde__m128 b, int dec) {
    return dec ? simde_mm_min_ps(a, b) : simde_mm_max_ps(a, b);
}
#define TOPK_CE(x, y)                               \
    do {                                            \
        const simde__m128 b_ = vbest(x, y, dec);    \
        y = vworst(x, y, dec);                      \
        x = b_;                                     \
    } while (0)

/* A bitonic sequence of 4 lanes sorted, best first. */
static DMLREF_ALWAYS_INLINE simde__m128 bitonic4(simde__m128 v, int dec) {
    simde__m128 s = simde_mm_shuffle_ps(v, v, SIMDE_MM_SHUFFLE(1, 0, 3, 2)); /* v2 v3 v0 v1 */
    simde__m128 b = vbest(v, s, dec), w = vworst(v, s, dec);
    v = simde_mm_shuffle_ps(b, w, SIMDE_MM_SHUFFLE(3, 2, 1, 0));             /* b0 b1 w2 w3 */
    s = simde_mm_shuffle_ps(v, v, SIMDE_MM_SHUFFLE(2, 3, 0, 1));             /* v1 v0 v3 v2 */
    b = vbest(v, s, dec), w = vworst(v, s, dec);
    v = simde_mm_shuffle_ps(b, w, SIMDE_MM_SHUFFLE(2, 0, 2, 0));             /* b0 b2 w0 w2 */
    return simde_mm_shuffle_ps(v, v, SIMDE_MM_SHUFFLE(3, 1, 2, 0));          /* b0 w0 b2 w2 */
}

/* Two sorted vectors (best first) merged: *x the best 4, *y the next 4, sorted. */
static DMLREF_ALWAYS_INLINE void merge44(simde__m128 *x, simde__m128 *y, int dec) {
    const simde__m128 r = simde_mm_shuffle_ps(*y, *y, SIMDE_MM_SHUFFLE(0, 1, 2, 3));
    const simde__m128 b = vbest(*x, r, dec), w = vworst(*x, r, dec);
    *x = bitonic4(b, dec);
    *y = bitonic4(w, dec);
}

/* The K-th best of the 16 lanes of a, b, c, d in the float order (1 <= K <= 16), in every lane.
 * A sorting network: the four columns, a transpose, two merges of 4 + 4; for K = 8 the worst of
 * the best 8 of the two 8-lists (the half-cleaner of their bitonic merge), else a full merge. */
static DMLREF_ALWAYS_INLINE simde__m128 kth_of_16(simde__m128 a, simde__m128 b, simde__m128 c, simde__m128 d, uint32_t k, int dec) {
    TOPK_CE(a, b);
    TOPK_CE(c, d);
    TOPK_CE(a, c);
    TOPK_CE(b, d);
    TOPK_CE(b, c);
    const simde__m128 t0 = simde_mm_unpacklo_ps(a, b), t1 = simde_mm_unpacklo_ps(c, d),
                      t2 = simde_mm_unpackhi_ps(a, b), t3 = simde_mm_unpackhi_ps(c, d);
    simde__m128 x0 = simde_mm_movelh_ps(t0, t1), x1 = simde_mm_movehl_ps(t1, t0), /* lanes 0, 1 */
                y0 = simde_mm_movelh_ps(t2, t3), y1 = simde_mm_movehl_ps(t3, t2); /* lanes 2, 3 */
    merge44(&x0, &x1, dec);
    merge44(&y0, &y1, dec);
    /* the half-cleaner of x0 x1 | reversed y: l0 l1 the best 8 (bitonic), h0 h1 the rest */
    const simde__m128 ry1 = simde_mm_shuffle_ps(y1, y1, SIMDE_MM_SHUFFLE(0, 1, 2, 3)),
                      ry0 = simde_mm_shuffle_ps(y0, y0, SIMDE_MM_SHUFFLE(0, 1, 2, 3));
    simde__m128 l0 = vbest(x0, ry1, dec), l1 = vbest(x1, ry0, dec);
    if (k == 8) { /* the worst of the best 8 */
        simde__m128 v = vworst(l0, l1, dec);
        v = vworst(v, simde_mm_shuffle_ps(v, v, SIMDE_MM_SHUFFLE(1, 0, 3, 2)), dec);
        return vworst(v, simde_mm_shuffle_ps(v, v, SIMDE_MM_SHUFFLE(2, 3, 0, 1)), dec);
    }
    simde__m128 h0 = vworst(x0, ry1, dec), h1 = vworst(x1, ry0, dec);
    TOPK_CE(l0, l1);
    TOPK_CE(h0, h1);
    float s[16];
    simde_mm_storeu_ps(s, bitonic4(l0, dec));
    simde_mm_storeu_ps(s + 4, bitonic4(l1, dec));
    simde_mm_storeu_ps(s + 8, bitonic4(h0, dec));
    simde_mm_storeu_ps(s + 12, bitonic4(h1, dec));
    uint32_t tb;
    memcpy(&tb, s + (k - 1), 4);
    return simde_mm_castsi128_ps(simde_mm_set1_epi32((int32_t)tb));
}

/* The elements at p[0..15] that cannot be as good as threshold t, as bytes (0xFF: out): x < t
 * (DECREASING) or x > t (INCREASING), ordered compares, so a NaN is never out.  (The screen keeps
 * the complement: SIMDe's portable simde_mm_cmpnlt_ps is cmpge, which is false for a NaN.) */
static DMLREF_ALWAYS_INLINE simde__m128i out16(const unsigned char *p, simde__m128 t, int dec) {
    const float *q = (const float *)(const void *)p;
    const simde__m128 x0 = simde_mm_loadu_ps(q), x1 = simde_mm_loadu_ps(q + 4), x2 = simde_mm_loadu_ps(q + 8),
                      x3 = simde_mm_loadu_ps(q + 12);
    simde__m128 c0, c1, c2, c3;
    if (dec)
        c0 = simde_mm_cmplt_ps(x0, t), c1 = simde_mm_cmplt_ps(x1, t), c2 = simde_mm_cmplt_ps(x2, t),
        c3 = simde_mm_cmplt_ps(x3, t);
    else
        c0 = simde_mm_cmpgt_ps(x0, t), c1 = simde_mm_cmpgt_ps(x1, t), c2 = simde_mm_cmpgt_ps(x2, t),
        c3 = simde_mm_cmpgt_ps(x3, t);
    const simde__m128i a = simde_mm_packs_epi32(simde_mm_castps_si128(c0), simde_mm_castps_si128(c1)),
                       b = simde_mm_packs_epi32(simde_mm_castps_si128(c2), simde_mm_castps_si128(c3));
    return simde_mm_packs_epi16(a, b);
}

/* The 16-bit mask of the elements at p[0..15] that may be as good as t: out16's complement. */
static DMLREF_ALWAYS_INLINE uint32_t screen16(const unsigned char *p, simde__m128 t, int dec) {
    return (uint32_t)simde_mm_movemask_epi8(out16(p, t, dec)) ^ 0xFFFFu;
}

/* The order keys key' of 4 elements' bits (f32_key, negated for INCREASING), as vectors. */
static DMLREF_ALWAYS_INLINE simde__m128i keys4(simde__m128i b, int dec) {
    const simde__m128i m0 = simde_mm_and_si128(b, simde_mm_set1_epi32(0x7FFFFFFF));
    const simde__m128i nan = simde_mm_cmpgt_epi32(m0, simde_mm_set1_epi32(0x7F800000));
    const simde__m128i m = simde_mm_or_si128(simde_mm_andnot_si128(nan, m0),
                                             simde_mm_and_si128(nan, simde_mm_set1_epi32(0x7F800001)));
    const simde__m128i s = simde_mm_andnot_si128(nan, simde_mm_srai_epi32(b, 31)); /* -1: negative, not NaN */
    const simde__m128i x = simde_mm_xor_si128(m, s);
    return dec ? simde_mm_sub_epi32(x, s) : simde_mm_sub_epi32(s, x);
}

/* Rank counting of R * 4 candidates (keys k[], positions in order): rank_i = the number of j
 * that come before i (key_j > key_i, or key_j == key_i and j < i: key_j > key_i - 1).  The
 * sentinels past the candidates (the least key) rank after them, in place: the ranks are a
 * permutation of 0 .. 4R-1, and out[rank_i] = pos_i puts the candidates in order. */
#define TOPK_RANK_R(s, q, r)                                                                           \
    acc[r] = simde_mm_sub_epi32(                                                                       \
        acc[r], simde_mm_cmpgt_epi32(bj, r < s ? kv[r] : r > s ? km[r] : simde_mm_add_epi32(kv[r], after[q])))
#define TOPK_RANK_J(s, q)                                                                              \
    do {                                                                                               \
        const simde__m128i bj = simde_mm_shuffle_epi32(kv[s], SIMDE_MM_SHUFFLE(q, q, q, q));          \
        TOPK_RANK_R(s, q, 0);                                                                          \
        TOPK_RANK_R(s, q, 1);                                                                          \
        TOPK_RANK_R(s, q, 2);                                                                          \
        if (R == 4) TOPK_RANK_R(s, q, 3);                                                              \
    } while (0)
#define TOPK_RANK_S(s)                                                                                 \
    do {                                                                                               \
        TOPK_RANK_J(s, 0);                                                                             \
        TOPK_RANK_J(s, 1);                                                                             \
        TOPK_RANK_J(s, 2);                                                                             \
        TOPK_RANK_J(s, 3);                                                                             \
    } while (0)

/* R = 3 or 4 vectors of keys kv (R * 4 candidates, sentinels included) */
static DMLREF_ALWAYS_INLINE void rank_scatter(const simde__m128i *kv, const uint32_t *pos, uint32_t *out, const uint32_t R) {
    const simde__m128i one = simde_mm_set1_epi32(1);
    const simde__m128i after[4] = {simde_mm_set_epi32(-1, -1, -1, 0), simde_mm_set_epi32(-1, -1, 0, 0),
                                   simde_mm_set_epi32(-1, 0, 0, 0), simde_mm_setzero_si128()};
    const simde__m128i km[4] = {simde_mm_sub_epi32(kv[0], one), simde_mm_sub_epi32(kv[1], one),
                                simde_mm_sub_epi32(kv[2], one), simde_mm_sub_epi32(kv[3], one)};
    simde__m128i acc[4] = {simde_mm_setzero_si128(), simde_mm_setzero_si128(), simde_mm_setzero_si128(),
                           simde_mm_setzero_si128()};
    TOPK_RANK_S(0);
    TOPK_RANK_S(1);
    TOPK_RANK_S(2);
    if (R == 4) TOPK_RANK_S(3);
    uint32_t rank[CAND_MAX];
    simde_mm_storeu_si128((simde__m128i *)(void *)rank, acc[0]);
    simde_mm_storeu_si128((simde__m128i *)(void *)(rank + 4), acc[1]);
    simde_mm_storeu_si128((simde__m128i *)(void *)(rank + 8), acc[2]);
    if (R == 4) simde_mm_storeu_si128((simde__m128i *)(void *)(rank + 12), acc[3]);
#define TOPK_PUT4(i) out[rank[i]] = pos[i], out[rank[i + 1]] = pos[i + 1], out[rank[i + 2]] = pos[i + 2], out[rank[i + 3]] = pos[i + 3]
    TOPK_PUT4(0);
    TOPK_PUT4(4);
    TOPK_PUT4(8);
    if (R == 4) TOPK_PUT4(12);
#undef TOPK_PUT4
}

/* Pass 1 of bound_prepare: the float extreme of each of 16 interleaved lanes (element j in lane
 * j % 16, j < n16) into m[0..3].  in_order 0: maxps(x, m) (DECREASING; minps, INCREASING), which
 * keeps m when x is a NaN: each lane an element of the lane (under denormals-are-zero maybe one
 * read as a zero, the same under every compare below) or the start value -Inf (+Inf) if the
 * lane holds only NaNs.  1 (the sequence 16-aligned): maxps(m, x), x read as the instruction's
 * memory operand, which takes x when either is a NaN: each lane an element of the lane all the
 * same (the first one taken whatever it is), but a NaN may stand for the lane, or a NaN taken
 * may be dropped by the next maxps: the caller then asks again in order 0. */
static DMLREF_ALWAYS_INLINE void lanes16(const unsigned char *in, uint32_t n16, simde__m128 *m, const int dec, const int in_order) {
    const simde__m128 start = simde_mm_set1_ps(dec ? -INFINITY : INFINITY);
    simde__m128 m0 = start, m1 = start, m2 = start, m3 = start;
    for (uint32_t j = 0; j < n16; j += 16) {
        const float *q = (const float *)(const void *)(in + 4 * (uint64_t)j);
        if (in_order) {
            const simde__m128 x0 = simde_mm_load_ps(q), x1 = simde_mm_load_ps(q + 4), x2 = simde_mm_load_ps(q + 8),
                              x3 = simde_mm_load_ps(q + 12);
            if (dec) {
                m0 = simde_mm_max_ps(m0, x0), m1 = simde_mm_max_ps(m1, x1);
                m2 = simde_mm_max_ps(m2, x2), m3 = simde_mm_max_ps(m3, x3);
            } else {
                m0 = simde_mm_min_ps(m0, x0), m1 = simde_mm_min_ps(m1, x1);
                m2 = simde_mm_min_ps(m2, x2), m3 = simde_mm_min_ps(m3, x3);
            }
        } else {
            const simde__m128 x0 = simde_mm_loadu_ps(q), x1 = simde_mm_loadu_ps(q + 4), x2 = simde_mm_loadu_ps(q + 8),
                              x3 = simde_mm_loadu_ps(q + 12);
            if (dec) {
                m0 = simde_mm_max_ps(x0, m0), m1 = simde_mm_max_ps(x1, m1);
                m2 = simde_mm_max_ps(x2, m2), m3 = simde_mm_max_ps(x3, m3);
            } else {
                m0 = simde_mm_min_ps(x0, m0), m1 = simde_mm_min_ps(x1, m1);
                m2 = simde_mm_min_ps(x2, m2), m3 = simde_mm_min_ps(x3, m3);
            }
        }
    }
    m[0] = m0, m[1] = m1, m[2] = m2, m[3] = m3;
}

/* 1 when a lane of m[0..3] is a NaN. */
static DMLREF_ALWAYS_INLINE int lanes_unordered(const simde__m128 *m) {
    return simde_mm_movemask_ps(simde_mm_or_ps(simde_mm_cmpunord_ps(m[0], m[1]), simde_mm_cmpunord_ps(m[2], m[3]))) != 0;
}

/* Takes the lowest set bit of w into pos[c + i] (none: the word's last position, hi its bit):
 * no branch; the word's count of set bits comes separately. */
#define TOPK_TAKE(i)                                 \
    do {                                             \
        pos[c + i] = j + simd_ctz64(w | hi);         \
        w &= w - 1;                                  \
    } while (0)
#define TOPK_TAKES 5u /* per word without branches: more in 3% of the words of topk_rows */

/* 4 elements' bits by position, as a vector */
static DMLREF_ALWAYS_INLINE simde__m128i gather4(const unsigned char *in, const uint32_t *pos) {
    int32_t v[4];
    for (int i = 0; i < 4; ++i) memcpy(v + i, in + 4 * (uint64_t)pos[i], 4);
    const simde__m128i a = simde_mm_unpacklo_epi32(simde_mm_cvtsi32_si128(v[0]), simde_mm_cvtsi32_si128(v[1]));
    const simde__m128i b = simde_mm_unpacklo_epi32(simde_mm_cvtsi32_si128(v[2]), simde_mm_cvtsi32_si128(v[3]));
    return simde_mm_unpacklo_epi64(a, b);
}

/* The keys of the candidates pos[4r .. 4r+3] (r < R), the slots from c on the sentinel's */
static DMLREF_ALWAYS_INLINE void cand_keys(const unsigned char *in, const uint32_t *pos, uint32_t c, simde__m128i *kv, const uint32_t R,
                                           int dec) {
    const simde__m128i sent = simde_mm_set1_epi32(dec ? (int32_t)0xFF800000u : 0x7FC00000), cv = simde_mm_set1_epi32((int32_t)c);
    for (uint32_t r = 0; r < R; ++r) {
        const simde__m128i in_ = simde_mm_cmpgt_epi32(cv, simde_mm_set_epi32((int32_t)(4 * r + 3), (int32_t)(4 * r + 2),
                                                                              (int32_t)(4 * r + 1), (int32_t)(4 * r)));
        const simde__m128i b = gather4(in, pos + 4 * r);
        kv[r] = keys4(simde_mm_or_si128(simde_mm_and_si128(in_, b), simde_mm_andnot_si128(in_, sent)), dec);
    }
    for (uint32_t r = R; r < 4; ++r) kv[r] = kv[0]; /* unused */
}

/* The sequence's K best with SIMD, n >= 16, in two steps: bound_prepare (1 and 2 below: 0 when a
 * lane's extreme is a NaN, a maxps that propagates NaNs: not x86's), then bound_finish (3: 0,
 * nothing written, if it cannot happen); the caller runs the next sequence's bound_prepare
 * before this one's bound_finish, two independent dependency chains.
 *  1. one element per lane of 16 interleaved lanes (element j in lane j % 16, up to the last
 *     whole group of 16), mostly the lane's float maximum (DECREASING; minimum, INCREASING):
 *     an element of the lane, or the start value -Inf (+Inf), never a NaN (lanes16).
 *  2. t: the K-th best of the 16 in the float order (kth_of_16).  Either t is a start value
 *     (the screen below keeps every element), or K distinct elements are at least as good as t
 *     under the compares; then so is the K-th best element of the sequence (the float order is
 *     a coarsening of the key order, with NaNs at the top), and so are all better ones.
 *  3. the screen: groups of 16 by not x < t (NaNs in), the last partial group as the last 16
 *     elements (overlapping), the bits of the positions already screened dropped; 64 positions
 *     a word, its count of set bits from a sum of bytes, the bits taken TOPK_TAKES at a time
 *     without branches, then one by one.  The candidates (at least K: the K best are among
 *     them) in position order, at most CAND_MAX: ranked on the exact keys (rank_scatter); more:
 *     each through the list (list_insert32), the threshold then raised to the list's last. */
static DMLREF_ALWAYS_INLINE int bound_prepare(const topk_plan_t *p, const unsigned char *in, simde__m128 *t, const int dec) {
    const uint32_t n16 = (uint32_t)p->n & ~15u;
    simde__m128 m[4];
    if (((uintptr_t)in & 15) == 0) {
        lanes16(in, n16, m, dec, 1);
        if (lanes_unordered(m)) lanes16(in, n16, m, dec, 0);
    } else
        lanes16(in, n16, m, dec, 0);
    if (lanes_unordered(m)) return 0;
    *t = kth_of_16(m[0], m[1], m[2], m[3], (uint32_t)p->k, dec);
    return 1;
}

/* Steps 3 on (above) with the bound t of bound_prepare. */
static DMLREF_ALWAYS_INLINE int bound_finish(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix,
                                             const simde__m128 t, const int dec) {
    const uint32_t k = (uint32_t)p->k, n = (uint32_t)p->n, n16 = n & ~15u;
    /* the candidates' positions (unset slots: position 0) */
    uint32_t pos[CAND_MAX + TOPK_TAKES];
    for (uint32_t i = 0; i < CAND_MAX; i += 4)
        simde_mm_storeu_si128((simde__m128i *)(void *)(pos + i), simde_mm_setzero_si128());
    uint32_t c = 0;
    for (uint32_t j = 0; j < n; j += 64) {
        uint64_t w, hi = (uint64_t)1 << 63;
        uint32_t cnt;
        if (j + 64 <= n16) { /* the mask, and its count: 64 less the out bytes' count (sad: a sum of bytes) */
            const unsigned char *q = in + 4 * (uint64_t)j;
            const simde__m128i o0 = out16(q, t, dec), o1 = out16(q + 64, t, dec), o2 = out16(q + 128, t, dec),
                               o3 = out16(q + 192, t, dec);
            w = ~((uint64_t)(uint32_t)simde_mm_movemask_epi8(o0) | (uint64_t)(uint32_t)simde_mm_movemask_epi8(o1) << 16 |
                  (uint64_t)(uint32_t)simde_mm_movemask_epi8(o2) << 32 | (uint64_t)(uint32_t)simde_mm_movemask_epi8(o3) << 48);
            const simde__m128i z = simde_mm_setzero_si128(),
                               outs = simde_mm_sub_epi8(simde_mm_sub_epi8(simde_mm_sub_epi8(simde_mm_sub_epi8(z, o0), o1), o2), o3),
                               sad = simde_mm_sad_epu8(outs, z);
            cnt = 64 - (uint32_t)simde_mm_cvtsi128_si32(simde_mm_add_epi64(sad, simde_mm_unpackhi_epi64(sad, sad)));
        } else { /* the last groups, then the partial one */
            w = 0;
            uint32_t g = j;
            for (; g < n16; g += 16) w |= (uint64_t)screen16(in + 4 * (uint64_t)g, t, dec) << (g - j);
            if (g < n) w |= (uint64_t)(screen16(in + 4 * ((uint64_t)n - 16), t, dec) >> (16 - (n - g))) << (g - j);
            hi = (uint64_t)1 << (n - 1 - j); /* n - j <= 64 */
            cnt = simd_popcount32((uint32_t)w) + simd_popcount32((uint32_t)(w >> 32));
        }
        if (c + cnt > CAND_MAX) goto many;
        TOPK_TAKE(0);
        TOPK_TAKE(1);
        TOPK_TAKE(2);
        TOPK_TAKE(3);
        TOPK_TAKE(4);
        for (uint32_t i = TOPK_TAKES; w; ++i) { /* more than TOPK_TAKES (c + cnt <= CAND_MAX: room) */
            pos[c + i] = j + simd_ctz64(w);
            w &= w - 1;
        }
        c += cnt;
    }
    if (c < k) return 0; /* cannot happen (the K best pass the screen); never read an unset slot */
    {
        simde__m128i kv[4];
        uint32_t out[CAND_MAX] = {0};
        if (c <= 12) {
            cand_keys(in, pos, c, kv, 3, dec);
            rank_scatter(kv, pos, out, 3);
        } else {
            cand_keys(in, pos, c, kv, 4, dec);
            rank_scatter(kv, pos, out, 4);
        }
        const uint64_t val_st = p->val_st, ix_st = p->ix_st;
        uint32_t r = 0;
        if (p->ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT32 && val_st == 4 && ix_st == 4) /* packed rows: 4 at a time */
            for (; r + 4 <= k; r += 4, val += 16, ix += 16) { /* out[] read 4 bytes at a time: a 16-byte
                                                                 * load of 4-byte stores waits for them */
                simde_mm_storeu_si128((simde__m128i *)(void *)val, gather4(in, out + r));
                const simde__m128i a = simde_mm_unpacklo_epi32(simde_mm_cvtsi32_si128((int32_t)out[r]),
                                                               simde_mm_cvtsi32_si128((int32_t)out[r + 1]));
                const simde__m128i b = simde_mm_unpacklo_epi32(simde_mm_cvtsi32_si128((int32_t)out[r + 2]),
                                                               simde_mm_cvtsi32_si128((int32_t)out[r + 3]));
                simde_mm_storeu_si128((simde__m128i *)(void *)ix, simde_mm_unpacklo_epi64(a, b));
            }
        if (p->ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT32)
            for (; r < k; ++r, val += val_st, ix += ix_st) {
                memcpy(val, in + 4 * (uint64_t)out[r], 4);
                memcpy(ix, out + r, 4);
            }
        else
            for (; r < k; ++r, val += val_st, ix += ix_st) {
                const uint64_t j = out[r];
                memcpy(val, in + 4 * j, 4);
                memcpy(ix, &j, 8);
            }
        return 1;
    }
many: /* more candidates than CAND_MAX: every one (again from the start) through the list, the
       * screen's threshold raised to the list's last element once the list is full (the elements
       * that can still enter are at least as good) */
    {
        int32_t key[LIST_MAX];
        uint32_t lpos[LIST_MAX], cnt = 0;
        const int32_t sign = dec ? 1 : -1;
        simde__m128 tm = t;
        for (uint32_t j = 0; j < n; j += 16) {
            uint32_t w = j + 16 <= n ? screen16(in + 4 * (uint64_t)j, tm, dec)
                                     : screen16(in + 4 * ((uint64_t)n - 16), tm, dec) >> (16 - (n - j));
            while (w) {
                const uint32_t jj = j + simd_ctz32(w);
                w &= w - 1;
                uint32_t bl;
                memcpy(&bl, in + 4 * (uint64_t)jj, 4);
                const int32_t kl = sign * f32_key(bl);
                if (cnt < k || kl > key[k - 1]) cnt = list_insert32(key, lpos, cnt, k, kl, jj);
            }
            if (cnt == k) {
                uint32_t tb;
                memcpy(&tb, in + 4 * (uint64_t)lpos[k - 1], 4);
                tm = simde_mm_castsi128_ps(simde_mm_set1_epi32((int32_t)tb));
            }
        }
        if (cnt < k) return 0; /* cannot happen, as above */
        for (uint32_t r = 0; r < k; ++r) {
            memcpy(val + r * p->val_st, in + 4 * (uint64_t)lpos[r], 4);
            put_index(ix + r * p->ix_st, p->ix_dtype, lpos[r]);
        }
        return 1;
    }
}
#endif

/* The sequence's K best (key, position) in a running list of the K best, each element entering
 * only when it beats the list's last (a later position never wins a tie): sequences shorter
 * than 16, no SIMD, or the bounded selection declining. */
static void list_f32_seq(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix) {
    /* each entry one 64-bit word, the larger the better: the key' (biased to unsigned) above the
     * complement of the position (an earlier position wins a tie) */
    uint64_t list[LIST_MAX];
    const uint32_t k = (uint32_t)p->k, n = (uint32_t)p->n;
    const int32_t sign = p->decreasing ? 1 : -1; /* key' = sign * key: no overflow (|key| <= 0x7F800001) */
    uint32_t cnt = 0;
    for (uint32_t j = 0; j < n; ++j) {
        uint32_t b;
        memcpy(&b, in + 4 * (uint64_t)j, 4);
        const uint64_t e = (uint64_t)((uint32_t)(sign * f32_key(b)) ^ 0x80000000u) << 32 | (uint32_t)~j;
        if (cnt == k && e <= list[k - 1]) continue;
        uint32_t i = cnt < k ? cnt++ : k - 1;
        for (; i > 0 && list[i - 1] < e; --i) list[i] = list[i - 1];
        list[i] = e;
    }
    for (uint32_t r = 0; r < k; ++r) {
        const uint32_t at = ~(uint32_t)list[r];
        memcpy(val + r * p->val_st, in + 4 * (uint64_t)at, 4);
        put_index(ix + r * p->ix_st, p->ix_dtype, at);
    }
}

/* ---- top_k.list ---------------------------------------------------------------------- */

static void list_seq(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix) {
    uint64_t key[LIST_MAX];
    uint32_t pos[LIST_MAX];
    const uint32_t k = (uint32_t)p->k, n = (uint32_t)p->n;
    const uint64_t flip = p->decreasing ? 0 : UINT64_MAX; /* INCREASING: the complement */
    const DMLREF_TENSOR_DATA_TYPE dt = (DMLREF_TENSOR_DATA_TYPE)p->dtype;
    uint32_t cnt = 0;
    for (uint32_t j = 0; j < n; ++j) {
        const uint64_t kj = scalar_order_key(dt, in + j * p->in_st, 0) ^ flip;
        if (cnt == k && kj <= key[k - 1]) continue;
        uint32_t i = cnt < k ? cnt++ : k - 1;
        while (i > 0 && key[i - 1] < kj) {
            key[i] = key[i - 1];
            pos[i] = pos[i - 1];
            --i;
        }
        key[i] = kj;
        pos[i] = j;
    }
    for (uint32_t r = 0; r < k; ++r) {
        memcpy(val + r * p->val_st, in + pos[r] * p->in_st, p->esize);
        put_index(ix + r * p->ix_st, p->ix_dtype, pos[r]);
    }
}

/* ---- the kernels ----------------------------------------------------------------------- */

static void heap_seq(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix) {
    topk_sequence(in, p->in_st, p->dtype, ix, p->ix_st, p->ix_dtype, p->decreasing, p->n, p->k);
    for (uint64_t r = 0; r < p->k; ++r) {
        uint64_t j;
        if (p->ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT64) {
            memcpy(&j, ix + r * p->ix_st, 8);
        } else {
            uint32_t v;
            memcpy(&v, ix + r * p->ix_st, 4);
            j = v;
        }
        memcpy(val + r * p->val_st, in + j * p->in_st, p->esize);
    }
}

/* A run: len sequences apart by s1 (Input), s0 (OutputValue) and s2 (OutputIndex). */
typedef void (*runs_fn)(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix,
                        uint64_t len, uint64_t s1, uint64_t s0, uint64_t s2);

/* The sequences [lo, hi), a run (a segment of the nest's innermost dim) at a time. */
static inline void walk_runs(const topk_ctx *c, uint64_t lo, uint64_t hi, runs_fn run) {
    const topk_plan_t *p = c->p;
    const nest_t *nt = &p->nest;
    const unsigned char *in = IN_DATA(c->x, 0);
    unsigned char *val = OUT_DATA(c->x, 0), *ix = OUT_DATA(c->x, 1);
    const uint64_t s0 = nt->st[0][nt->m - 1], s1 = nt->st[1][nt->m - 1], s2 = nt->st[2][nt->m - 1];
    nest_it it;
    if (!nest_rows_begin(nt, &it, lo, hi)) return;
    do {
        run(p, in + it.off[1], val + it.off[0], ix + it.off[2], it.len, s1, s0, s2);
    } while (nest_rows_next(nt, &it));
}

/* A run of a kernel that takes one sequence at a time. */
#define SEQ_RUNS(name, seq)                                                                                   \
    static void name(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix,    \
                     uint64_t len, uint64_t s1, uint64_t s0, uint64_t s2) {                                   \
        for (uint64_t i = 0; i < len; ++i) seq(p, in + i * s1, val + i * s0, ix + i * s2);                    \
    }
SEQ_RUNS(list_runs, list_seq)
SEQ_RUNS(heap_runs, heap_seq)
#if !DMLREF_SIMD
SEQ_RUNS(list_f32_runs, list_f32_seq)
#endif

#if DMLREF_SIMD
/* Runs of sequences n < 16 apart by s1, s0, s2: list_f32_seq's entries (the key' biased to
 * unsigned above the complement of the position: unique, an earlier position wins a tie) and
 * order, with the row's keys taken 4 at a time (keys4) and the row's constants out of the row
 * loop.  Rows of at most 4 (any k <= n) go through a 4-entry sorting network, the keys past n
 * zero (their entries below every real one), cut to what k reads: K 1 three maxima, K 2 four
 * compare-exchanges less one half and a max, k 3 or 4 (K 0) all five; each of the k entries
 * written out from its register (TOP_K's example 734 -> 589 instructions with the one-run call
 * of KERNEL_FN, 46 -> 36 ns; TOP_K1's 806 -> 638, 47 -> 36).  Longer rows: K 1 or 2 (a
 * constant: top-1 and top-2 of a few logits) keep the list in registers and insert every entry
 * without a branch, a max and a min per slot, into a list of zeros (below every entry: k <= n
 * replaces them all); any other k the list on the stack, an entry going in only above its last
 * (K 3 and 4 by the registers' inserts measured no faster than the list on rows of 4). */
/* A compare-exchange of two list entries: the larger first. */
#define SHORT_CE(a, b)                                             \
    do {                                                           \
        const uint64_t hi_ = a > b ? a : b, lo_ = a > b ? b : a;   \
        a = hi_;                                                   \
        b = lo_;                                                   \
    } while (0)
/* The entry e of the list: the element its position names, and that position. */
static DMLREF_ALWAYS_INLINE void short_put(const unsigned char *in, unsigned char *val, unsigned char *ix, const int ix64, uint64_t e) {
    const uint32_t at = ~(uint32_t)e;
    memcpy(val, in + 4 * at, 4);
    if (ix64) {
        const uint64_t a64 = at;
        memcpy(ix, &a64, 8);
    } else {
        memcpy(ix, &at, 4);
    }
}
static DMLREF_ALWAYS_INLINE void short_run(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix,
                                           uint64_t len, uint64_t s1, uint64_t s0, uint64_t s2, const int dec, const uint32_t K) {
    const uint32_t k = K ? K : (uint32_t)p->k, n = (uint32_t)p->n, n4 = n & ~3u;
    const uint64_t val_st = p->val_st, ix_st = p->ix_st;
    const int ix64 = p->ix_dtype == DMLREF_TENSOR_DATA_TYPE_UINT64;
    const int32_t sign = dec ? 1 : -1;
    const simde__m128i bias = simde_mm_set1_epi32((int32_t)0x80000000u);
    for (uint64_t q = 0; q < len; ++q, in += s1, val += s0, ix += s2) {
        uint32_t key[LIST_MAX];
        uint64_t list[LIST_MAX];
        uint32_t j = 0;
        if (n <= 4) /* the sorting network below reads 4 keys: those past n zero */
            simde_mm_storeu_si128((simde__m128i *)(void *)key, simde_mm_setzero_si128());
        for (; j < n4; j += 4)
            simde_mm_storeu_si128((simde__m128i *)(void *)(key + j),
                                  simde_mm_xor_si128(keys4(simde_mm_loadu_si128((const simde__m128i *)(const void *)(in + 4 * j)), dec), bias));
        for (; j < n; ++j) {
            uint32_t b;
            memcpy(&b, in + 4 * j, 4);
            key[j] = (uint32_t)(sign * f32_key(b)) ^ 0x80000000u;
        }
        if (n <= 4) { /* the top k of at most 4 (k <= n): a sorting network, cut to what k reads */
            uint64_t e0 = (uint64_t)key[0] << 32 | 0xFFFFFFFFu, e1 = (uint64_t)key[1] << 32 | 0xFFFFFFFEu;
            uint64_t e2 = (uint64_t)key[2] << 32 | 0xFFFFFFFDu, e3 = (uint64_t)key[3] << 32 | 0xFFFFFFFCu;
            SHORT_CE(e0, e1);
            SHORT_CE(e2, e3);
            if (K == 1) {
                short_put(in, val, ix, ix64, e0 > e2 ? e0 : e2);
                continue;
            }
            SHORT_CE(e0, e2);
            short_put(in, val, ix, ix64, e0);
            if (K == 2) {
                e1 = e1 > e3 ? e1 : e3;
                short_put(in, val + val_st, ix + ix_st, ix64, e1 > e2 ? e1 : e2);
                continue;
            }
            SHORT_CE(e1, e3);
            SHORT_CE(e1, e2);
            short_put(in, val + val_st, ix + ix_st, ix64, e1);
            short_put(in, val + 2 * val_st, ix + 2 * ix_st, ix64, e2);
            if (k > 3) short_put(in, val + 3 * val_st, ix + 3 * ix_st, ix64, e3);
            continue;
        }
        if (K) {
            uint64_t l[2] = {0, 0};
            for (j = 0; j < n; ++j) {
                uint64_t e = (uint64_t)key[j] << 32 | (uint32_t)~j;
                for (uint32_t i = 0; i < K; ++i) {
                    const uint64_t hi = l[i] > e ? l[i] : e;
                    e = l[i] > e ? e : l[i];
                    l[i] = hi;
                }
            }
            for (uint32_t i = 0; i < K; ++i) list[i] = l[i];
        } else {
            for (j = 0; j < k; ++j) { /* k <= n */
                const uint64_t e = (uint64_t)key[j] << 32 | (uint32_t)~j;
                uint32_t i = j;
                for (; i > 0 && list[i - 1] < e; --i) list[i] = list[i - 1];
                list[i] = e;
            }
            for (; j < n; ++j) {
                const uint64_t e = (uint64_t)key[j] << 32 | (uint32_t)~j;
                if (e <= list[k - 1]) continue;
                uint32_t i = k - 1;
                for (; i > 0 && list[i - 1] < e; --i) list[i] = list[i - 1];
                list[i] = e;
            }
        }
        for (uint32_t r = 0; r < k; ++r) short_put(in, val + r * val_st, ix + r * ix_st, ix64, list[r]);
    }
}

/* Runs of sequences n >= 16 apart by s1, s0, s2: each sequence's bound prepared before the
 * previous one is finished (a pipeline of two). */
static DMLREF_ALWAYS_INLINE void bounded_run(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix,
                                             uint64_t len, uint64_t s1, uint64_t s0, uint64_t s2, const int dec) {
    simde__m128 t = simde_mm_setzero_ps(), t_next = t;
    int ok = bound_prepare(p, in, &t, dec);
    for (uint64_t i = 0; i < len; ++i, in += s1, val += s0, ix += s2) {
        const int ok_next = i + 1 < len ? bound_prepare(p, in + s1, &t_next, dec) : 0;
        if (!ok || !bound_finish(p, in, val, ix, t, dec)) list_f32_seq(p, in, val, ix);
        ok = ok_next, t = t_next;
    }
}
#endif

#if DMLREF_SIMD
/* top_k.list_f32's runs: short rows (K 1 and 2 their own copies), else the bounded selection;
 * the direction a constant in each. */
static void list_f32_runs(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix,
                          uint64_t len, uint64_t s1, uint64_t s0, uint64_t s2) {
    if (p->n < 16) {
        const int dec = (int)p->decreasing;
        switch (p->k) {
        case 1: short_run(p, in, val, ix, len, s1, s0, s2, dec, 1); break;
        case 2: short_run(p, in, val, ix, len, s1, s0, s2, dec, 2); break;
        default: short_run(p, in, val, ix, len, s1, s0, s2, dec, 0); break;
        }
    } else if (p->decreasing) {
        bounded_run(p, in, val, ix, len, s1, s0, s2, 1);
    } else {
        bounded_run(p, in, val, ix, len, s1, s0, s2, 0);
    }
}
#endif

static void list_f32_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    walk_runs(vc, lo, hi, list_f32_runs);
}
static void list_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    walk_runs(vc, lo, hi, list_runs);
}
static void heap_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    walk_runs(vc, lo, hi, heap_runs);
}

/* The kernel: the sequences split over threads, each part walked a run at a time; one
 * thread over a nest of one dim (every tiny call) is one run, called without the walk. */
#define KERNEL_FN(name, range, runs)                                                                   \
    static dmlref_status name(const op_t *op, const exec_args *x, dmlref_error *err) {                 \
        const topk_plan_t *p = op->plan;                                                               \
        const nest_t *nt = &p->nest;                                                                   \
        (void)err;                                                                                     \
        if (p->nth <= 1 && nt->m == 1) {                                                               \
            runs(p, IN_DATA(x, 0), OUT_DATA(x, 0), OUT_DATA(x, 1), nt->sizes[0], nt->st[1][0], nt->st[0][0], \
                 nt->st[2][0]);                                                                        \
            return DMLREF_OK;                                                                          \
        }                                                                                              \
        const topk_ctx c = {p, x};                                                                     \
        run_ranges(op, p->nth, nt->points, range, &c);                                                 \
        return DMLREF_OK;                                                                              \
    }
KERNEL_FN(list_f32_kernel, list_f32_range, list_f32_runs)
KERNEL_FN(list_kernel, list_range, list_runs)
KERNEL_FN(heap_kernel, heap_range, heap_runs)

static void topk_plan_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status topk_plan(op_t *op, dmlref_error *err) {
    const topk_params *tp = OP_CPARAMS(op, topk_params);
    const tensor_t *in = &op->inputs[0], *val = &op->outputs[0], *ix = &op->outputs[1];
    const uint32_t a = tp->axis;
    topk_plan_t *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->nest.m = in->n;
    for (uint32_t d = 0; d < in->n; ++d) { /* the axis as a size-1 dim: collapsed away */
        p->nest.sizes[d] = d == a ? 1 : in->sizes[d];
        p->nest.st[0][d] = val->bstrides[d];
        p->nest.st[1][d] = in->bstrides[d];
        p->nest.st[2][d] = ix->bstrides[d];
    }
    nest_collapse(&p->nest, 3);
    p->n = in->sizes[a];
    p->k = tp->k;
    p->in_st = in->bstrides[a];
    p->val_st = val->bstrides[a];
    p->ix_st = ix->bstrides[a];
    p->dtype = in->dtype;
    p->ix_dtype = ix->dtype;
    p->esize = in->esize;
    p->decreasing = tp->decreasing;
    p->nth = plan_threads(op, in->elements * in->esize);
    op->plan = p;
    op->plan_free = topk_plan_free;
    if (p->k > LIST_MAX) {
        op->kernel = heap_kernel;
        op->kernel_name = KERNEL_NAME(TOP_K_HEAP);
    } else if (in->dtype == DMLREF_TENSOR_DATA_TYPE_FLOAT32 && (p->in_st == 4 || p->n == 1)) {
        p->in_st = 4;
        op->kernel = list_f32_kernel;
        op->kernel_name = KERNEL_NAME(TOP_K_LIST_F32);
    } else {
        op->kernel = list_kernel;
        op->kernel_name = KERNEL_NAME(TOP_K_LIST);
    }
    return DMLREF_OK;
}
