/*
 * TOP_K and TOP_K1's fast path (topk.h): bit-identical to the oracle (topk.c), tested
 * against it on random cases (ties, NaNs of several payloads, +-0, +-Inf, all-equal
 * rows, K = 1 and K = the axis size) with 1 and 2 threads.  Sequences are split across
 * threads (run_ranges), each written by one part.
 *
 *   top_k.list_f32  FLOAT32, the sequence contiguous in the input, K <= 16: a running list of
 *                   the K best (key, position), best first, on the stack, on a 32-bit order key
 *                   (below); from 32 elements on, a first pass bounds the K-th best key from
 *                   below and a second screens 16 elements at a time against that bound with
 *                   ordered float compares, inserting only the few that pass
 *                   (list_f32_seq).  The row is never sorted.
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
 * on the bits only: no float compare, so a caller's denormals-are-zero mode changes nothing.
 */
#include <math.h>

#include "topk.h"
#include "core/scalar.h"
#include "engine/plan.h"
#include "ops/kernels.h"
#include "simd/simd.h"

#define LIST_MAX 16u

/* Functions that take or return vectors: always inlined (a split-off copy would pass vectors
 * by value, an ABI question on an i386 build without SSE: gcc's -Wpsabi) */
#if defined(__GNUC__)
#define TOPK_INLINE static inline __attribute__((always_inline))
#else
#define TOPK_INLINE static inline
#endif

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
/* The 16-bit mask of the elements at p[0..15] that may beat threshold element t: not x < t
 * (DECREASING) or not x > t (INCREASING), so a NaN on either side is always in.  (Written as
 * the complement of an ordered compare: SIMDe's portable simde_mm_cmpnlt_ps is cmpge, which
 * is false for a NaN.) */
TOPK_INLINE uint32_t screen16(const unsigned char *p, simde__m128 t, int decreasing) {
    const simde__m128 x0 = simde_mm_loadu_ps((const float *)(const void *)p),
                      x1 = simde_mm_loadu_ps((const float *)(const void *)(p + 16)),
                      x2 = simde_mm_loadu_ps((const float *)(const void *)(p + 32)),
                      x3 = simde_mm_loadu_ps((const float *)(const void *)(p + 48));
    uint32_t out;
    if (decreasing)
        out = (uint32_t)simde_mm_movemask_ps(simde_mm_cmplt_ps(x0, t)) |
              (uint32_t)simde_mm_movemask_ps(simde_mm_cmplt_ps(x1, t)) << 4 |
              (uint32_t)simde_mm_movemask_ps(simde_mm_cmplt_ps(x2, t)) << 8 |
              (uint32_t)simde_mm_movemask_ps(simde_mm_cmplt_ps(x3, t)) << 12;
    else
        out = (uint32_t)simde_mm_movemask_ps(simde_mm_cmpgt_ps(x0, t)) |
              (uint32_t)simde_mm_movemask_ps(simde_mm_cmpgt_ps(x1, t)) << 4 |
              (uint32_t)simde_mm_movemask_ps(simde_mm_cmpgt_ps(x2, t)) << 8 |
              (uint32_t)simde_mm_movemask_ps(simde_mm_cmpgt_ps(x3, t)) << 12;
    return out ^ 0xFFFFu;
}

#endif

/* The sequence's K best (key, position) into the list; each element enters only when it beats
 * the list's last (a later position never wins a tie).  With SIMD and n >= 32, two passes:
 *  1. one element per lane of 16 interleaved lanes (element j in lane j % 16, up to the last
 *     whole group of 16): the lane's float maximum (DECREASING; minimum, INCREASING), which is
 *     one of the lane's elements whatever maxps does with NaNs or a denormals-are-zero mode
 *     (or the start value +-Inf, which only lowers the bound below); for K <= 8, the better of
 *     lanes l and l + 8, 8 picks.  The K-th best of the picks by the exact key is a bound L: K
 *     distinct elements are at least as good, so every element of the K best has key >= key(L).
 *  2. groups of 16 screened by float compares against a threshold element t (first L, then the
 *     list's last once the list is full): not x < t (so x >= t, or unordered) keeps every element whose key
 *     is >= key(t) (+-0 compare equal; a subnormal under denormals-are-zero compares as a zero
 *     of either sign, which only keeps more), and the few kept go through the exact keys and
 *     the list, in position order: the same list as inserting every element. */
static void list_f32_seq(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix) {
    int32_t key[LIST_MAX];
    uint32_t pos[LIST_MAX];
    const uint32_t k = (uint32_t)p->k, n = (uint32_t)p->n;
    const int32_t sign = p->decreasing ? 1 : -1; /* key' = sign * key: no overflow (|key| <= 0x7F800001) */
    uint32_t cnt = 0, j = 0;
#if DMLREF_SIMD
    if (n >= 32) {
        const int dec = p->decreasing != 0;
        const uint32_t n16 = n & ~15u;
        /* pass 1: a float extreme per lane */
        const simde__m128 start = simde_mm_set1_ps(dec ? -INFINITY : INFINITY);
        simde__m128 m0 = start, m1 = start, m2 = start, m3 = start;
        for (j = 0; j < n16; j += 16) {
            const unsigned char *q = in + 4 * (uint64_t)j;
            const simde__m128 x0 = simde_mm_loadu_ps((const float *)(const void *)q),
                              x1 = simde_mm_loadu_ps((const float *)(const void *)(q + 16)),
                              x2 = simde_mm_loadu_ps((const float *)(const void *)(q + 32)),
                              x3 = simde_mm_loadu_ps((const float *)(const void *)(q + 48));
            if (dec) {
                m0 = simde_mm_max_ps(x0, m0), m1 = simde_mm_max_ps(x1, m1);
                m2 = simde_mm_max_ps(x2, m2), m3 = simde_mm_max_ps(x3, m3);
            } else {
                m0 = simde_mm_min_ps(x0, m0), m1 = simde_mm_min_ps(x1, m1);
                m2 = simde_mm_min_ps(x2, m2), m3 = simde_mm_min_ps(x3, m3);
            }
        }
        float lanef[16];
        uint32_t lane[16];
        simde_mm_storeu_ps(lanef, m0);
        simde_mm_storeu_ps(lanef + 4, m1);
        simde_mm_storeu_ps(lanef + 8, m2);
        simde_mm_storeu_ps(lanef + 12, m3);
        memcpy(lane, lanef, sizeof lane);
        /* INCREASING: +Inf may be the start value of a lane of NaNs only, which are worse than
         * +Inf there: count it as a NaN (no better than any element of the lane) */
        for (uint32_t l = 0; l < 16; ++l)
            if (!dec && lane[l] == 0x7F800000u) lane[l] = 0x7FC00000u;
        /* K <= 8: 8 picks, the better of lanes l and l + 8 (fewer to rank, at the cost of a
         * lower bound); the K-th best of them: for K = 8 their least, else a list of K */
        const uint32_t np = k <= 8 ? 8 : 16;
        if (np == 8)
            for (uint32_t l = 0; l < 8; ++l)
                if (sign * f32_key(lane[l + 8]) > sign * f32_key(lane[l])) lane[l] = lane[l + 8];
        int32_t floor_key;
        uint32_t tb;
        if (k == np) {
            floor_key = INT32_MAX, tb = 0;
            for (uint32_t l = 0; l < np; ++l) {
                const int32_t kl = sign * f32_key(lane[l]);
                if (kl < floor_key) floor_key = kl, tb = lane[l];
            }
        } else {
            int32_t lk[LIST_MAX];
            uint32_t lb[LIST_MAX], lc = 0;
            for (uint32_t l = 0; l < np; ++l) {
                const int32_t kl = sign * f32_key(lane[l]);
                if (lc < k || kl > lk[k - 1]) lc = list_insert32(lk, lb, lc, k, kl, lane[l]);
            }
            floor_key = lk[k - 1]; /* k <= np = lc */
            tb = lb[k - 1];
        }
        simde__m128 t = simde_mm_castsi128_ps(simde_mm_set1_epi32((int32_t)tb));
        /* pass 2 */
        for (j = 0; j < n16; j += 16) {
            uint32_t mask = screen16(in + 4 * (uint64_t)j, t, dec);
            if (!mask) continue;
            do {
                const uint32_t l = simd_ctz32(mask);
                mask &= mask - 1;
                uint32_t bl;
                memcpy(&bl, in + 4 * ((uint64_t)j + l), 4);
                const int32_t kl = sign * f32_key(bl);
                if (kl >= floor_key && (cnt < k || kl > key[k - 1])) cnt = list_insert32(key, pos, cnt, k, kl, j + l);
            } while (mask);
            if (cnt == k && key[k - 1] >= floor_key) {
                floor_key = key[k - 1]; /* the list's last is an element: screen against it */
                memcpy(&tb, in + 4 * (uint64_t)pos[k - 1], 4);
                t = simde_mm_castsi128_ps(simde_mm_set1_epi32((int32_t)tb));
            }
        }
        for (; j < n; ++j) {
            uint32_t b;
            memcpy(&b, in + 4 * (uint64_t)j, 4);
            const int32_t kj = sign * f32_key(b);
            if (kj >= floor_key && (cnt < k || kj > key[k - 1])) cnt = list_insert32(key, pos, cnt, k, kj, j);
        }
        if (cnt < k) cnt = 0, j = 0; /* cannot happen (K elements reach the bound); never read an unset list */
    }
#endif
    if (j == 0) /* no SIMD pass: every element through the list */
        for (; j < n; ++j) {
            uint32_t b;
            memcpy(&b, in + 4 * (uint64_t)j, 4);
            const int32_t kj = sign * f32_key(b);
            if (cnt < k || kj > key[k - 1]) cnt = list_insert32(key, pos, cnt, k, kj, j);
        }
    for (uint32_t r = 0; r < k; ++r) {
        memcpy(val + r * p->val_st, in + 4 * (uint64_t)pos[r], 4);
        put_index(ix + r * p->ix_st, p->ix_dtype, pos[r]);
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

typedef void (*seq_fn)(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix);

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

static inline void run_seqs(const topk_ctx *c, uint64_t lo, uint64_t hi, seq_fn fn) {
    const topk_plan_t *p = c->p;
    const nest_t *nt = &p->nest;
    const unsigned char *in = IN_DATA(c->x, 0);
    unsigned char *val = OUT_DATA(c->x, 0), *ix = OUT_DATA(c->x, 1);
    const uint64_t s0 = nt->st[0][nt->m - 1], s1 = nt->st[1][nt->m - 1], s2 = nt->st[2][nt->m - 1];
    nest_it it;
    if (!nest_rows_begin(nt, &it, lo, hi)) return;
    do {
        for (uint64_t i = 0; i < it.len; ++i)
            fn(p, in + it.off[1] + i * s1, val + it.off[0] + i * s0, ix + it.off[2] + i * s2);
    } while (nest_rows_next(nt, &it));
}

static void list_f32_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    run_seqs(vc, lo, hi, list_f32_seq);
}
static void list_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    run_seqs(vc, lo, hi, list_seq);
}
static void heap_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    run_seqs(vc, lo, hi, heap_seq);
}

#define KERNEL_FN(name, range)                                                          \
    static dmlref_status name(const op_t *op, const exec_args *x, dmlref_error *err) {  \
        const topk_plan_t *p = op->plan;                                                \
        const topk_ctx c = {p, x};                                                      \
        (void)err;                                                                      \
        run_ranges(op, p->nth, p->nest.points, range, &c);                              \
        return DMLREF_OK;                                                               \
    }
KERNEL_FN(list_f32_kernel, list_f32_range)
KERNEL_FN(list_kernel, list_range)
KERNEL_FN(heap_kernel, heap_range)

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
