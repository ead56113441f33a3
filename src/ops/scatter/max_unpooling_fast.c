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

static dmlref_status max_unpooling_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const mu_plan *p = op->plan;
    (void)err;
    unsigned char *mem = p->nth > 1 ? scratch_claim(&p->bounds) : NULL;
    mu_ctx c = {p, x, (uint64_t *)(void *)mem, p->stream ? scratch_claim(&p->stage) : NULL};
    int disjoint = 0;
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
    if ((p->nth > 1 && scratch_init(&p->bounds, &op->alloc, p->nth, 2 * sizeof(uint64_t)) < 0) ||
        (p->stream && scratch_init(&p->stage, &op->alloc, p->nth, MU_STAGE) < 0)) {
        mu_free(&op->alloc, p);
        return plan_out_of_memory(op, err);
    }
    op->plan = p;
    op->plan_free = mu_free;
    op->kernel = max_unpooling_kernel;
    op->kernel_name = p->stream   ? KERNEL_STREAM_NAME(MAX_UNPOOLING_FLAT_STREAM)
                      : p->packed ? KERNEL_NAME(MAX_UNPOOLING_FLAT)
                                  : KERNEL_NAME(MAX_UNPOOLING_STRIDED);
    return DMLREF_OK;
}
