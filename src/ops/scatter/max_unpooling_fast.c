/*
 * MAX_UNPOOLING's fast path (max_unpooling_fast.h): bit-identical to the oracle in
 * op_max_unpooling.c (Output zeroed, then every input element written to its clamped flat
 * target in row-major order, the last write of a target winning), tested against it on
 * random cases with duplicate and out-of-range indices, 1 and 2 threads.
 *
 *   max_unpooling.flat         a packed Output: target t is at byte t * esize
 *   max_unpooling.flat_stream  the same, large: each chunk's span built in a staging buffer
 *                              and streamed out (SIMD builds, from DMLREF_STREAM_MIN bytes)
 *   max_unpooling.strided      any other Output: t unravelled over its Sizes, through its strides
 *   max_unpooling.window_2x2   a packed 4-byte Output twice Input's height and width, UINT32
 *                              indices (SIMD builds): chunks whose every target lies in its own
 *                              2x2 window written whole by compares, no scatter (below)
 *
 * A packed Output goes chunk by chunk (a few hundred input elements, row-major): a first look
 * at the chunk's indices gives its lowest and highest target, the bytes from the last written
 * target up to the highest are zeroed, and the chunk is scattered into them while they are in
 * cache.  Everything below the cursor is final (zeroed, and holding every write so far), every
 * byte above it untouched, so a chunk whose targets go back below it writes there directly, in
 * row-major order as ever.  flat_stream zeroes the span in a 16 KiB staging buffer instead,
 * scatters into that and streams the span out whole, so that Output is written once, without
 * being read for ownership (the workload's 2x2 pooling: a chunk's targets are its own rows).
 *
 * Threads and the last write winning.  Input is split into ranges of whole rows (its
 * innermost dimension, in row-major order), range p for thread part p.  A first parallel
 * pass reads the indices and records each range's lowest and highest (clamped) target in
 * plan-owned scratch (scratch_t: claimed by one execution at a time; execute allocates
 * nothing).  When the ranges' target intervals are increasing and disjoint (part p's highest
 * below part p + 1's lowest), no two parts write one element, so each part scattering its
 * own range in row-major order gives exactly the serial result: the scatter runs in parallel.
 * A packed Output is then also zeroed by the parts themselves, part p the flat elements from
 * its own lowest target (0 for the first) to the next part's lowest (the end for the last),
 * just before it scatters into them (each part's bytes are still in cache).  Otherwise (the
 * intervals overlap, or the scratch is in use by another execution of the same operator) a
 * packed Output is zeroed and scattered chunk by chunk on one thread, and a strided one is
 * zeroed in parallel and scattered serially, in row-major order.
 * A max pooling's indices (one window per pooled element, rows of windows in order) give
 * increasing intervals: the workload's case is the parallel one.
 *
 * window_2x2.  Output [N,C,2H,2W] of Input [N,C,H,W]: input element e = R*W + j (R its row,
 * j its column) has the window whose top-left flat target is 4W*R + 2j, and the input rows
 * [R0, R1) have the windows of the Output span [4W*R0, 4W*R1).  A chunk of whole input rows
 * whose every index is one of its element's four window targets (checked first, 4 lanes at a
 * time) writes only inside that span, each target once, and the span is then exactly: each
 * window's target holding its element, every other element zero.  Each output row pair is
 * built with compares (lane k of a window row is its element when the index equals that
 * lane's flat target, else zero bits), no per-element store.  The chunk goes this way when
 * it also starts at the cursor (nothing above its span written yet: the gap below zeroed
 * first); any other chunk goes the scatter way above, so the bytes are the oracle's.  With
 * threads there is no bounds pass: each part writes its rows' span chunk by chunk as window
 * chunks (the parts' spans are disjoint and tile Output), and should a part meet a chunk that
 * is not one, the whole Output is done again on one thread as above (which writes every
 * element), after the parts have finished.
 */
#include "max_unpooling_fast.h"
#include "ops/kernels.h"
#include "simd/simd.h"

#include <stdlib.h>

/* ---- the plan ----------------------------------------------------------------- */

typedef struct mu_plan {
    zero_plan zero;
    nest_t nest;         /* over Input: st[1] Input's, st[2] Indices' byte strides */
    uint64_t row;        /* elements per unit: Input.Sizes[3] */
    uint64_t rows;       /* units */
    uint64_t count;      /* Output's elements */
    uint32_t esize, dtype;
    int packed;          /* max_unpooling.flat */
    uint32_t osizes[4];  /* strided: Output's Sizes and byte strides */
    uint64_t obs[4];
    uint32_t nth;
    uint32_t chunk;      /* input elements per chunk (packed Output) */
    int stream;          /* flat_stream */
    scratch_t bounds;    /* nth parts of {lowest, highest} target */
    scratch_t stage;     /* flat_stream: nth staging buffers of MU_STAGE bytes */
    int win;             /* window_2x2 (the header); chunk is then whole input rows */
} mu_plan;

#define MU_STAGE 16384   /* bytes of a part's staging buffer */
#define MU_CHUNK_MAX 512 /* input elements per chunk */

typedef struct mu_ctx {
    const mu_plan *p;
    const exec_args *x;
    uint64_t *bounds;    /* claimed scratch, or NULL */
    unsigned char *stage; /* claimed staging buffers (flat_stream), or NULL */
} mu_ctx;

/* A strided Output: the input elements [lo, hi) (row-major) written to their targets. */
static void scatter_elems(const mu_plan *p, const exec_args *x, uint64_t lo, uint64_t hi) {
    const nest_t *nt = &p->nest;
    unsigned char *dst = OUT_DATA(x, 0);
    const unsigned char *src = IN_DATA(x, 0), *ix = IN_DATA(x, 1);
    const uint64_t s1 = nt->st[1][nt->m - 1], s2 = nt->st[2][nt->m - 1], n = p->count;
    const uint32_t dt = p->dtype, es = p->esize;
    nest_it it;
    if (!nest_rows_begin(nt, &it, lo, hi)) return;
    do {
        const unsigned char *a = src + it.off[1], *b = ix + it.off[2];
        for (uint64_t j = 0; j < it.len; ++j) {
            uint64_t t = index_load_clamp(b + j * s2, dt, n), off = 0;
            for (uint32_t d = 4; d-- > 0;) {
                off += (t % p->osizes[d]) * p->obs[d];
                t /= p->osizes[d];
            }
            memcpy(dst + off, a + j * s1, es);
        }
    } while (nest_rows_next(nt, &it));
}

/* The UINT32 at q (any alignment). */
static inline uint32_t u32_at(const unsigned char *q) {
    uint32_t v;
    memcpy(&v, q, 4);
    return v;
}

/* Input elements [lo, hi) (row-major) written into base, target t at byte (t - origin) * es.
 * raw: the indices are contiguous UINT32 values all below Output's element count (no clamp). */
static void scatter_into(const mu_plan *p, const exec_args *x, uint64_t lo, uint64_t hi, unsigned char *base,
                         uint64_t origin, int raw) {
    const nest_t *nt = &p->nest;
    const unsigned char *src = IN_DATA(x, 0), *ix = IN_DATA(x, 1);
    const uint64_t s1 = nt->st[1][nt->m - 1], s2 = nt->st[2][nt->m - 1], n = p->count;
    const uint32_t dt = p->dtype, es = p->esize;
    nest_it it;
    if (!nest_rows_begin(nt, &it, lo, hi)) return;
    do {
        const unsigned char *a = src + it.off[1], *b = ix + it.off[2];
        const uint64_t len = it.len;
#define MU_SCATTER(W, T) \
    for (uint64_t j = 0; j < len; ++j) memcpy(base + (W) * ((T) - origin), a + j * s1, (W))
        if (raw && es == 4) {
            MU_SCATTER(4, u32_at(b + 4 * j));
            continue;
        }
        switch (es) { /* a constant size per element width: one load and one store */
        case 2: MU_SCATTER(2, index_load_clamp(b + j * s2, dt, n)); break;
        case 4: MU_SCATTER(4, index_load_clamp(b + j * s2, dt, n)); break;
        case 8: MU_SCATTER(8, index_load_clamp(b + j * s2, dt, n)); break;
        default: MU_SCATTER(es, index_load_clamp(b + j * s2, dt, n)); break;
        }
#undef MU_SCATTER
    } while (nest_rows_next(nt, &it));
}

/* The lowest and highest of n contiguous UINT32 values (the existing *lo, *hi included). */
static void minmax_u32(const unsigned char *b, uint64_t n, uint64_t *lo, uint64_t *hi) {
    uint32_t mn = *lo > UINT32_MAX ? UINT32_MAX : (uint32_t)*lo, mx = (uint32_t)*hi;
    uint64_t j = 0;
#if DMLREF_SIMD
    if (n >= 8) { /* unsigned order as signed after flipping the top bit */
        const simde__m128i bias = simde_mm_set1_epi32(INT32_MIN);
        simde__m128i vmn = simde_mm_set1_epi32((int32_t)(mn ^ 0x80000000u)), vmx = simde_mm_set1_epi32((int32_t)(mx ^ 0x80000000u));
        for (; j + 4 <= n; j += 4) {
            const simde__m128i v = simde_mm_xor_si128(simde_mm_loadu_si128((const simde__m128i *)(const void *)(b + 4 * j)), bias);
            const simde__m128i lt = simde_mm_cmplt_epi32(v, vmn), gt = simde_mm_cmpgt_epi32(v, vmx);
            vmn = simde_mm_or_si128(simde_mm_and_si128(lt, v), simde_mm_andnot_si128(lt, vmn));
            vmx = simde_mm_or_si128(simde_mm_and_si128(gt, v), simde_mm_andnot_si128(gt, vmx));
        }
        uint32_t l[4], h[4];
        simde_mm_storeu_si128((simde__m128i *)(void *)l, simde_mm_xor_si128(vmn, bias));
        simde_mm_storeu_si128((simde__m128i *)(void *)h, simde_mm_xor_si128(vmx, bias));
        for (int k = 0; k < 4; ++k) {
            if (l[k] < mn) mn = l[k];
            if (h[k] > mx) mx = h[k];
        }
    }
#endif
    for (; j < n; ++j) {
        const uint32_t v = u32_at(b + 4 * j);
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    *lo = mn;
    *hi = mx;
}

/* The lowest and highest clamped target of the input elements [lo, hi) into *least, *most;
 * 1 when the indices are contiguous UINT32 values all in range (scatter_into's raw). */
static int target_bounds(const mu_plan *p, const unsigned char *ix, uint64_t lo, uint64_t hi, uint64_t *least,
                         uint64_t *most) {
    const nest_t *nt = &p->nest;
    const uint64_t s2 = nt->st[2][nt->m - 1], n = p->count;
    const int u32 = p->dtype == DMLREF_TENSOR_DATA_TYPE_UINT32 && s2 == 4;
    uint64_t l = UINT64_MAX, m = 0;
    nest_it it;
    if (u32) { /* the raw values' bounds; clamping is monotone, so the targets' are these clamped */
        if (nest_rows_begin(nt, &it, lo, hi)) do
                minmax_u32(ix + it.off[2], it.len, &l, &m);
            while (nest_rows_next(nt, &it));
    } else if (nest_rows_begin(nt, &it, lo, hi)) {
        do {
            const unsigned char *b = ix + it.off[2];
            for (uint64_t j = 0; j < it.len; ++j) {
                const uint64_t t = index_load_clamp(b + j * s2, p->dtype, n);
                if (t < l) l = t;
                if (t > m) m = t;
            }
        } while (nest_rows_next(nt, &it));
    }
    const int raw = u32 && m < n;
    *least = l < n ? l : n - 1;
    *most = m < n ? m : n - 1;
    return raw;
}

#if !DMLREF_SMALL
/* window_2x2: 1 when each of the n UINT32 indices at b (input row R's elements j0..) is one
 * of its element's window targets: d = index - (t0 + 2j) is 0, 1, 2W or 2W + 1 (t0 = 4W*R;
 * no wrap: every target is below Output's count, at most 2^32). */
static int window_ok(const unsigned char *b, uint64_t n, uint32_t t0, uint32_t w2) {
    uint64_t j = 0;
    int ok = 1;
#if DMLREF_SIMD
    const simde__m128i odd = simde_mm_set1_epi32(~1), vw2 = simde_mm_set1_epi32((int32_t)w2),
                        step = simde_mm_set1_epi32(8);
    simde__m128i e = simde_mm_add_epi32(simde_mm_set1_epi32((int32_t)t0), simde_mm_setr_epi32(0, 2, 4, 6));
    simde__m128i all = simde_mm_set1_epi32(-1);
    for (; j + 4 <= n; j += 4) {
        const simde__m128i d = simde_mm_and_si128(
            simde_mm_sub_epi32(simde_mm_loadu_si128((const simde__m128i *)(const void *)(b + 4 * j)), e), odd);
        all = simde_mm_and_si128(all, simde_mm_or_si128(simde_mm_cmpeq_epi32(d, simde_mm_setzero_si128()),
                                                        simde_mm_cmpeq_epi32(d, vw2)));
        e = simde_mm_add_epi32(e, step);
    }
    ok = simde_mm_movemask_epi8(all) == 0xffff;
#endif
    for (; j < n; ++j) {
        const uint32_t d = (u32_at(b + 4 * j) - (t0 + 2 * (uint32_t)j)) & ~1u;
        ok &= d == 0 || d == w2;
    }
    return ok;
}

/* window_2x2: input row R's n elements (values a, UINT32 indices b, both packed) written as
 * Output's rows o0 and o1 = o0 + 2W (2n elements each), t0 = 4W*R; window_ok held.  stream:
 * streaming stores (o0 and o1 16-byte aligned, n a multiple of 4). */
static void window_row(unsigned char *o0, const unsigned char *a, const unsigned char *b, uint64_t n, uint32_t t0,
                       uint32_t w2, int stream) {
    unsigned char *o1 = o0 + 4 * (uint64_t)w2;
    uint64_t j = 0;
#if DMLREF_SIMD
    const simde__m128i step = simde_mm_set1_epi32(8), vw2 = simde_mm_set1_epi32((int32_t)w2);
    simde__m128i e = simde_mm_add_epi32(simde_mm_set1_epi32((int32_t)t0), simde_mm_setr_epi32(0, 1, 2, 3));
    for (; j + 4 <= n; j += 4) {
        const simde__m128i t = simde_mm_loadu_si128((const simde__m128i *)(const void *)(b + 4 * j));
        const simde__m128i v = simde_mm_loadu_si128((const simde__m128i *)(const void *)(a + 4 * j));
        const simde__m128i tl = simde_mm_unpacklo_epi32(t, t), th = simde_mm_unpackhi_epi32(t, t);
        const simde__m128i vl = simde_mm_unpacklo_epi32(v, v), vh = simde_mm_unpackhi_epi32(v, v);
        const simde__m128i eh = simde_mm_add_epi32(e, simde_mm_set1_epi32(4));
        unsigned char *q0 = o0 + 8 * j, *q1 = o1 + 8 * j;
        simd_store16(q0, simde_mm_and_si128(simde_mm_cmpeq_epi32(tl, e), vl), stream);
        simd_store16(q0 + 16, simde_mm_and_si128(simde_mm_cmpeq_epi32(th, eh), vh), stream);
        simd_store16(q1, simde_mm_and_si128(simde_mm_cmpeq_epi32(tl, simde_mm_add_epi32(e, vw2)), vl), stream);
        simd_store16(q1 + 16, simde_mm_and_si128(simde_mm_cmpeq_epi32(th, simde_mm_add_epi32(eh, vw2)), vh), stream);
        e = simde_mm_add_epi32(e, step);
    }
#else
    (void)stream;
#endif
    for (; j < n; ++j) {
        const uint32_t t = u32_at(b + 4 * j), e0 = t0 + 2 * (uint32_t)j;
        static const unsigned char zero[4] = {0};
        for (uint32_t k = 0; k < 2; ++k) {
            memcpy(o0 + 8 * j + 4 * k, t == e0 + k ? a + 4 * j : zero, 4);
            memcpy(o1 + 8 * j + 4 * k, t == e0 + w2 + k ? a + 4 * j : zero, 4);
        }
    }
}

/* window_2x2: the input rows of elements [lo, hi) (whole rows) written into base as Output's
 * span [4*lo, 4*hi), target t at byte 4 * (t - origin), when every index is in its window;
 * 0 (nothing written) otherwise.  stream: window_row's. */
static int window_chunk(const mu_plan *p, const exec_args *x, uint64_t lo, uint64_t hi, unsigned char *base,
                        uint64_t origin, int stream) {
    const nest_t *nt = &p->nest;
    const unsigned char *src = IN_DATA(x, 0), *ix = IN_DATA(x, 1);
    const uint64_t w = p->row;
    const uint32_t w2 = (uint32_t)(2 * w);
    nest_it it;
    if (!nest_rows_begin(nt, &it, lo, hi)) return 1;
    uint64_t e = lo; /* the element at it.off: pieces are whole input rows, in order */
    do {
        for (uint64_t j = 0; j < it.len; j += w)
            if (!window_ok(ix + it.off[2] + 4 * j, w, (uint32_t)(4 * (e + j)), w2)) return 0;
        e += it.len;
    } while (nest_rows_next(nt, &it));
    nest_rows_begin(nt, &it, lo, hi);
    e = lo;
    do {
        for (uint64_t j = 0; j < it.len; j += w)
            window_row(base + 4 * (4 * (e + j) - origin), src + it.off[1] + 4 * j, ix + it.off[2] + 4 * j, w,
                       (uint32_t)(4 * (e + j)), w2, stream);
        e += it.len;
    } while (nest_rows_next(nt, &it));
    return 1;
}

/* window_chunk into Output's span [4*lo, 4*hi): streamed straight there when its rows are
 * 16-byte aligned, else built in the staging buffer stage and streamed out (stage NULL: plain
 * stores into Output).  0 (nothing written) when the chunk is not a window chunk. */
static int window_span(const mu_plan *p, const exec_args *x, uint64_t lo, uint64_t hi, unsigned char *stage) {
    unsigned char *dst = OUT_DATA(x, 0);
    const int direct = stage && p->row % 4 == 0 && ((uintptr_t)dst & 15) == 0, staged = stage && !direct;
    if (!window_chunk(p, x, lo, hi, staged ? stage : dst, staged ? 4 * lo : 0, direct)) return 0;
    if (staged) simd_copy_stream(dst + 16 * lo, stage, (size_t)(16 * (hi - lo)));
    return 1;
}
#endif

/* A packed Output's flat elements [from, to), written by the input elements [lo, hi) (whose
 * targets are all in [from, to)), chunk by chunk (the header); stage: a staging buffer of
 * MU_STAGE bytes (flat_stream), or NULL. */
static void flat_part(const mu_plan *p, const exec_args *x, uint64_t lo, uint64_t hi, uint64_t from, uint64_t to,
                      unsigned char *stage) {
    unsigned char *dst = OUT_DATA(x, 0);
    const unsigned char *ix = IN_DATA(x, 1);
    const uint64_t es = p->esize, stage_el = MU_STAGE / es;
    uint64_t z = from; /* [from, z) final, [z, to) untouched */
    for (uint64_t c0 = lo; c0 < hi; c0 += p->chunk) {
        const uint64_t c1 = hi - c0 < p->chunk ? hi : c0 + p->chunk;
#if !DMLREF_SMALL
        /* window_2x2: the span [4*c0, 4*c1) built whole, or nothing */
        if (p->win && z <= 4 * c0 && 4 * c1 <= to && window_span(p, x, c0, c1, stage)) {
            if (z < 4 * c0) memset(dst + z * es, 0, (size_t)((4 * c0 - z) * es));
            z = 4 * c1;
            continue;
        }
#endif
        uint64_t least, most;
        const int raw = target_bounds(p, ix, c0, c1, &least, &most);
        if (stage && least >= z && most - z < stage_el) { /* the span [z, most] built in the buffer */
            memset(stage, 0, (size_t)((most + 1 - z) * es));
            scatter_into(p, x, c0, c1, stage, z, raw);
            simd_copy_stream(dst + z * es, stage, (size_t)((most + 1 - z) * es));
            z = most + 1;
            continue;
        }
        if (most >= z) { /* [z, most] zeroed before the chunk writes into it */
            memset(dst + z * es, 0, (size_t)((most + 1 - z) * es));
            z = most + 1;
        }
        scatter_into(p, x, c0, c1, dst, 0, raw);
    }
    if (z < to) memset(dst + z * es, 0, (size_t)((to - z) * es));
    if (stage) simd_stream_fence();
}

/* Pass 1: each part's lowest and highest target. */
static void bounds_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    const mu_plan *p = c->p;
    uint64_t least, most;
    target_bounds(p, IN_DATA(c->x, 1), lo * p->row, hi * p->row, &least, &most);
    c->bounds[2 * part] = least;
    c->bounds[2 * part + 1] = most;
}

/* Pass 2 (disjoint parts, packed Output): the part's share of Output, from its lowest target
 * (0 for the first part) to the next part's lowest (the end for the last). */
static void fused_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    const mu_plan *p = c->p;
    const uint32_t n = p->nth < p->rows ? p->nth : (uint32_t)p->rows;
    const uint64_t from = part == 0 ? 0 : c->bounds[2 * part];
    const uint64_t to = part + 1 == n ? p->count : c->bounds[2 * (part + 1)];
    flat_part(p, c->x, lo * p->row, hi * p->row, from, to, c->stage ? c->stage + (size_t)part * MU_STAGE : NULL);
}

/* Pass 2 (disjoint parts, strided Output, already zeroed): scatter. */
static void scatter_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    (void)part;
    scatter_elems(c->p, c->x, lo * c->p->row, hi * c->p->row);
}

static void zero_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    (void)part;
    zero_plan_run(&c->p->zero, OUT_DATA(c->x, 0), lo, hi);
}

#if !DMLREF_SMALL
/* window_2x2 with threads: part p's input rows [lo, hi) written as Output's span [4*lo*W,
 * 4*hi*W) chunk by chunk, each a window chunk; at the first chunk that is not, the part stops
 * and marks its bounds slot (the kernel then does the whole Output again on one thread). */
static void window_part(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    const mu_plan *p = c->p;
    unsigned char *stage = c->stage ? c->stage + (size_t)part * MU_STAGE : NULL;
    for (uint64_t c0 = lo * p->row, end = hi * p->row; c0 < end; c0 += p->chunk) {
        const uint64_t c1 = end - c0 < p->chunk ? end : c0 + p->chunk;
        if (!window_span(p, c->x, c0, c1, stage)) {
            c->bounds[2 * part] = 1;
            break;
        }
    }
    if (stage) simd_stream_fence();
}
#endif

static dmlref_status max_unpooling_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const mu_plan *p = op->plan;
    (void)err;
    unsigned char *mem = p->nth > 1 ? scratch_claim(&p->bounds) : NULL;
    mu_ctx c = {p, x, (uint64_t *)(void *)mem, p->stream ? scratch_claim(&p->stage) : NULL};
    int disjoint = 0;
#if !DMLREF_SMALL
    /* window_2x2 with threads: every part's rows as window chunks, in parallel (no bounds
     * pass: window chunks write only their own span); a part that meets another chunk stops,
     * and the whole Output is then done again on one thread (flat_part writes every element) */
    if (mem && p->win) {
        for (uint32_t k = 0; k < p->nth; ++k) c.bounds[2 * k] = 0;
        run_ranges(op, p->nth, p->rows, window_part, &c);
        int whole = 1;
        for (uint32_t k = 0; k < p->nth; ++k) whole &= c.bounds[2 * k] == 0;
        if (!whole) flat_part(p, x, 0, p->nest.points, 0, p->count, c.stage);
        scratch_release(&p->bounds);
        if (c.stage) scratch_release(&p->stage);
        return DMLREF_OK;
    }
#endif
    if (mem) {
        const uint32_t n = p->nth < p->rows ? p->nth : (uint32_t)p->rows;
        run_ranges(op, p->nth, p->rows, bounds_range, &c);
        disjoint = 1;
        for (uint32_t k = 0; k + 1 < n; ++k)
            if (c.bounds[2 * k + 1] >= c.bounds[2 * (k + 1)]) disjoint = 0;
    }
    if (disjoint && p->packed) {
        run_ranges(op, p->nth, p->rows, fused_range, &c);
    } else if (p->packed) { /* one thread, or parts that may write one element */
        flat_part(p, x, 0, p->nest.points, 0, p->count, c.stage);
    } else {
        run_ranges(op, p->nth, p->zero.units, zero_range, &c);
        if (disjoint) run_ranges(op, p->nth, p->rows, scatter_range, &c);
        else scatter_elems(p, x, 0, p->nest.points);
    }
    if (mem) scratch_release(&p->bounds);
    if (c.stage) scratch_release(&p->stage);
    return DMLREF_OK;
}

static void mu_free(const dmlref_allocator *al, void *vp) {
    mu_plan *p = vp;
    scratch_free(&p->bounds, al);
    scratch_free(&p->stage, al);
    mem_free(al, p);
}

/* 1 when t's elements are packed row-major (no gaps). */
static int packed(const tensor_t *t) {
    uint64_t want = t->esize;
    for (uint32_t d = t->n; d-- > 0;) {
        if (t->sizes[d] > 1 && t->bstrides[d] != want) return 0;
        want *= t->sizes[d];
    }
    return 1;
}

/* 1 for window_2x2 (the header): a packed 4-byte Output [N,C,2H,2W] of Input [N,C,H,W] with
 * at most 2^32 elements, UINT32 indices, Input's and Indices' rows packed; with staging, a row
 * pair's 16W bytes within the staging buffer. */
static int window_plan(const mu_plan *p, const tensor_t *in, const tensor_t *ix, const tensor_t *out) {
    const nest_t *nt = &p->nest;
    if (DMLREF_SMALL || !p->packed || p->esize != 4 || ix->dtype != DMLREF_TENSOR_DATA_TYPE_UINT32) return 0;
    if (out->sizes[0] != in->sizes[0] || out->sizes[1] != in->sizes[1] || out->sizes[2] != 2 * (uint64_t)in->sizes[2] ||
        out->sizes[3] != 2 * (uint64_t)in->sizes[3] || out->elements > (uint64_t)UINT32_MAX + 1)
        return 0;
    if (nt->m < 1 || nt->st[1][nt->m - 1] != 4 || nt->st[2][nt->m - 1] != 4) return 0;
    return !p->stream || 16 * p->row <= MU_STAGE;
}

dmlref_status plan_max_unpooling(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    mu_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    zero_plan_init(&p->zero, out);
    p->nest.m = in->n;
    for (uint32_t d = 0; d < in->n; ++d) {
        p->nest.sizes[d] = in->sizes[d];
        p->nest.st[1][d] = in->bstrides[d];
        p->nest.st[2][d] = ix->bstrides[d];
    }
    nest_collapse(&p->nest, 3); /* the row-major order of the elements is kept */
    p->row = in->sizes[in->n - 1];
    p->rows = in->elements / p->row;
    p->count = out->elements;
    p->esize = out->esize;
    p->dtype = ix->dtype;
    p->packed = packed(out);
    for (uint32_t d = 0; d < 4 && d < out->n; ++d) {
        p->osizes[d] = out->sizes[d];
        p->obs[d] = out->bstrides[d];
    }
    p->nth = plan_threads(op, out->elements * out->esize + in->elements * (in->esize + ix->esize));
    p->stream = p->packed && !DMLREF_SMALL && plan_stream(out->elements * out->esize);
    /* chunks: a 2x2 pooling's span of 8 bytes per input byte fits the staging buffer; small
     * tensors go in a few dozen chunks */
    uint64_t chunk = MU_STAGE / (8 * (uint64_t)p->esize);
    if (chunk > MU_CHUNK_MAX) chunk = MU_CHUNK_MAX;
    if (chunk > in->elements / 64) chunk = in->elements / 64;
    p->chunk = chunk < 16 ? 16 : (uint32_t)chunk;
    p->win = window_plan(p, in, ix, out);
    if (p->win) { /* whole input rows a chunk: as many as the staging buffer holds, a few dozen chunks */
        uint64_t r = (MU_STAGE / 16) / p->row;
        if (r > p->rows / 64) r = p->rows / 64;
        p->chunk = (uint32_t)((r < 1 ? 1 : r) * p->row);
    }
    if ((p->nth > 1 && scratch_init(&p->bounds, &op->alloc, p->nth, 2 * sizeof(uint64_t)) < 0) ||
        (p->stream && scratch_init(&p->stage, &op->alloc, p->nth, MU_STAGE) < 0)) {
        mu_free(&op->alloc, p);
        return plan_out_of_memory(op, err);
    }
    op->plan = p;
    op->plan_free = mu_free;
    op->kernel = max_unpooling_kernel;
    op->kernel_name = p->win      ? KERNEL_NAME(MAX_UNPOOLING_WINDOW_2X2)
                      : p->stream ? KERNEL_STREAM_NAME(MAX_UNPOOLING_FLAT_STREAM)
                      : p->packed ? KERNEL_NAME(MAX_UNPOOLING_FLAT)
                                  : KERNEL_NAME(MAX_UNPOOLING_STRIDED);
    return DMLREF_OK;
}
