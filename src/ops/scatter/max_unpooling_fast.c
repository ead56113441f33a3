/*
 * MAX_UNPOOLING's fast path (max_unpooling_fast.h): bit-identical to the oracle in
 * op_max_unpooling.c (Output zeroed, then every input element written to its clamped flat
 * target in row-major order, the last write of a target winning), tested against it on
 * random cases with duplicate and out-of-range indices, 1 and 2 threads.
 *
 *   max_unpooling.flat     a packed Output: target t is at byte t * esize
 *   max_unpooling.strided  any other Output: t unravelled over its Sizes, through its strides
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
 * intervals overlap, or the scratch is in use by another execution of the same operator, or
 * one thread) Output is zeroed in parallel and the scatter runs serially, in row-major order.
 * A max pooling's indices (one window per pooled element, rows of windows in order) give
 * increasing intervals: the workload's case is the parallel one.
 */
#include "max_unpooling_fast.h"
#include "ops/kernels.h"

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
    scratch_t bounds;    /* nth parts of {lowest, highest} target */
} mu_plan;

typedef struct mu_ctx {
    const mu_plan *p;
    const exec_args *x;
    uint64_t *bounds;    /* claimed scratch, or NULL */
} mu_ctx;

/* Writes the input elements [lo, hi) (row-major) to their targets. */
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
        const uint64_t len = it.len;
        if (!p->packed) {
            for (uint64_t j = 0; j < len; ++j) {
                uint64_t t = index_load_clamp(b + j * s2, dt, n), off = 0;
                for (uint32_t d = 4; d-- > 0;) {
                    off += (t % p->osizes[d]) * p->obs[d];
                    t /= p->osizes[d];
                }
                memcpy(dst + off, a + j * s1, es);
            }
            continue;
        }
        switch (es) { /* a constant size per element width: one load and one store */
        case 2:
            for (uint64_t j = 0; j < len; ++j) memcpy(dst + 2 * index_load_clamp(b + j * s2, dt, n), a + j * s1, 2);
            break;
        case 4:
            for (uint64_t j = 0; j < len; ++j) memcpy(dst + 4 * index_load_clamp(b + j * s2, dt, n), a + j * s1, 4);
            break;
        case 8:
            for (uint64_t j = 0; j < len; ++j) memcpy(dst + 8 * index_load_clamp(b + j * s2, dt, n), a + j * s1, 8);
            break;
        default:
            for (uint64_t j = 0; j < len; ++j) memcpy(dst + es * index_load_clamp(b + j * s2, dt, n), a + j * s1, es);
            break;
        }
    } while (nest_rows_next(nt, &it));
}

/* Pass 1: each part's lowest and highest target. */
static void bounds_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    const mu_plan *p = c->p;
    const nest_t *nt = &p->nest;
    const unsigned char *ix = IN_DATA(c->x, 1);
    const uint64_t s2 = nt->st[2][nt->m - 1], n = p->count;
    uint64_t least = UINT64_MAX, most = 0;
    nest_it it;
    if (nest_rows_begin(nt, &it, lo * p->row, hi * p->row)) do {
            const unsigned char *b = ix + it.off[2];
            for (uint64_t j = 0; j < it.len; ++j) {
                const uint64_t t = index_load_clamp(b + j * s2, p->dtype, n);
                if (t < least) least = t;
                if (t > most) most = t;
            }
        } while (nest_rows_next(nt, &it));
    c->bounds[2 * part] = least;
    c->bounds[2 * part + 1] = most;
}

/* Pass 2 (disjoint parts): zero the part's share of a packed Output, then scatter. */
static void fused_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const mu_ctx *c = vc;
    const mu_plan *p = c->p;
    const uint32_t n = p->nth < p->rows ? p->nth : (uint32_t)p->rows;
    const uint64_t from = part == 0 ? 0 : c->bounds[2 * part];
    const uint64_t to = part + 1 == n ? p->count : c->bounds[2 * (part + 1)];
    memset(OUT_DATA(c->x, 0) + from * p->esize, 0, (size_t)((to - from) * p->esize));
    scatter_elems(p, c->x, lo * p->row, hi * p->row);
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
    mu_ctx c = {p, x, (uint64_t *)(void *)mem};
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
    } else {
        run_ranges(op, p->nth, p->zero.units, zero_range, &c);
        if (disjoint) run_ranges(op, p->nth, p->rows, scatter_range, &c);
        else scatter_elems(p, x, 0, p->nest.points);
    }
    if (mem) scratch_release(&p->bounds);
    return DMLREF_OK;
}

static void mu_free(const dmlref_allocator *al, void *vp) {
    mu_plan *p = vp;
    scratch_free(&p->bounds, al);
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
    if (p->nth > 1 && scratch_init(&p->bounds, &op->alloc, p->nth, 2 * sizeof(uint64_t)) < 0) {
        mu_free(&op->alloc, p);
        return plan_out_of_memory(op, err);
    }
    op->plan = p;
    op->plan_free = mu_free;
    op->kernel = max_unpooling_kernel;
    op->kernel_name = p->packed ? KERNEL_NAME(MAX_UNPOOLING_FLAT) : KERNEL_NAME(MAX_UNPOOLING_STRIDED);
    return DMLREF_OK;
}
