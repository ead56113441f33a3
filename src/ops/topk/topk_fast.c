/*
 * TOP_K and TOP_K1's fast path (topk.h): bit-identical to the oracle (topk.c), tested
 * against it on random cases (ties, NaNs of several payloads, +-0, +-Inf, all-equal
 * rows, K = 1 and K = the axis size) with 1 and 2 threads.  Sequences are split across
 * threads (run_ranges), each written by one part.
 *
 *   top_k.list_f32  FLOAT32, the sequence contiguous in the input, K <= 16: a running list of
 *                   the K best (key, position), best first, on the stack, on a 32-bit order key
 *                   (below); from 32 elements on, a first pass bounds the K-th best key from
 *                   below and a second screens four elements at a time against that bound
 *                   (SSE2 integer compares), inserting only the few that pass
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
/* Four elements' keys (sign * f32_key), on the bits. */
static inline simde__m128i key4(const unsigned char *p, simde__m128i flip) {
    const simde__m128i b = simde_mm_loadu_si128((const simde__m128i *)(const void *)p);
    const simde__m128i m = simde_mm_and_si128(b, simde_mm_set1_epi32(0x7FFFFFFF)), neg = simde_mm_srai_epi32(b, 31);
    const simde__m128i isnan = simde_mm_cmpgt_epi32(m, simde_mm_set1_epi32(0x7F800000));
    simde__m128i kv = simde_mm_sub_epi32(simde_mm_xor_si128(m, neg), neg); /* neg ? -m : m */
    kv = simde_mm_or_si128(simde_mm_andnot_si128(isnan, kv), simde_mm_and_si128(isnan, simde_mm_set1_epi32(0x7F800001)));
    return simde_mm_sub_epi32(simde_mm_xor_si128(kv, flip), flip); /* INCREASING (flip all ones): negated */
}

static inline simde__m128i max4(simde__m128i a, simde__m128i b) { /* SSE2 has no pmaxsd */
    const simde__m128i gt = simde_mm_cmpgt_epi32(a, b);
    return simde_mm_or_si128(simde_mm_and_si128(gt, a), simde_mm_andnot_si128(gt, b));
}

static inline simde__m128i min4(simde__m128i a, simde__m128i b) { /* SSE2 has no pminsd */
    const simde__m128i gt = simde_mm_cmpgt_epi32(a, b);
    return simde_mm_or_si128(simde_mm_and_si128(gt, b), simde_mm_andnot_si128(gt, a));
}
#endif

/* The sequence's K best (key, position) into the list; each element enters only when it beats
 * the list's last (a later position never wins a tie).  With SIMD and n >= 32, a first pass
 * takes the maximum key of each of P interleaved lanes (P = 8 for K <= 8, else 16; element j in
 * lane j % P, up to the last whole group of P): those maxima are P >= K distinct elements, so
 * the least of them, L, is at most the K-th best key, and only elements with key >= L can be
 * among the K best.  The second pass screens four at a time against L (then against the full list's last,
 * when that is higher) and inserts the few that pass, in position order: the same list as
 * inserting every element. */
static void list_f32_seq(const topk_plan_t *p, const unsigned char *in, unsigned char *val, unsigned char *ix) {
    int32_t key[LIST_MAX];
    uint32_t pos[LIST_MAX];
    const uint32_t k = (uint32_t)p->k, n = (uint32_t)p->n;
    const int32_t sign = p->decreasing ? 1 : -1; /* key' = sign * key: no overflow (|key| <= 0x7F800001) */
    uint32_t cnt = 0, j = 0;
#if DMLREF_SIMD
    if (n >= 32) {
        const simde__m128i flip = simde_mm_set1_epi32(p->decreasing ? 0 : -1);
        const int q_n = k <= 8 ? 2 : 4; /* lanes: 8 for K <= 8, else 16 (>= K, each one non-empty: n >= 32) */
        const uint32_t step = 4u * (uint32_t)q_n;
        simde__m128i m[4];
        for (int q = 0; q < q_n; ++q) m[q] = key4(in + 16 * (uint64_t)q, flip);
        for (j = step; j + step <= n; j += step)
            for (int q = 0; q < q_n; ++q) m[q] = max4(m[q], key4(in + 4 * ((uint64_t)j + 4 * q), flip));
        /* L: the least lane maximum (the lanes' maxima are >= K distinct elements) */
        simde__m128i lo = min4(m[0], m[1]);
        if (q_n == 4) lo = min4(lo, min4(m[2], m[3]));
        lo = min4(lo, simde_mm_shuffle_epi32(lo, 0x4E));
        lo = min4(lo, simde_mm_shuffle_epi32(lo, 0xB1));
        int32_t floor_key = simde_mm_cvtsi128_si32(lo); /* L > -0x7F800002: floor_key - 1 does not overflow */
        simde__m128i thr = simde_mm_set1_epi32(floor_key - 1);
        for (j = 0; j + 4 <= n; j += 4) {
            const int mask =
                simde_mm_movemask_ps(simde_mm_castsi128_ps(simde_mm_cmpgt_epi32(key4(in + 4 * (uint64_t)j, flip), thr)));
            if (!mask) continue;
            for (uint32_t l = 0; l < 4; ++l) {
                if (!(mask >> l & 1)) continue;
                uint32_t bl;
                memcpy(&bl, in + 4 * ((uint64_t)j + l), 4);
                const int32_t kl = sign * f32_key(bl);
                if (kl >= floor_key && (cnt < k || kl > key[k - 1])) cnt = list_insert32(key, pos, cnt, k, kl, j + l);
            }
            if (cnt == k && key[k - 1] > floor_key) {
                floor_key = key[k - 1] + 1; /* from now on only keys above the list's last */
                thr = simde_mm_set1_epi32(key[k - 1]);
            }
        }
        for (; j < n; ++j) {
            uint32_t b;
            memcpy(&b, in + 4 * (uint64_t)j, 4);
            const int32_t kj = sign * f32_key(b);
            if (kj >= floor_key && (cnt < k || kj > key[k - 1])) cnt = list_insert32(key, pos, cnt, k, kj, j);
        }
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
