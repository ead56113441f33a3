/*
 * SCATTER's fast path (scatter_fast.h; the class, its rules and its oracle are
 * op_scatter.c), bit-identical to the oracle and tested against it on random
 * cases.
 *
 * An output element (o, v, i) (o: the coordinates before Axis, i: those after
 * it) can only be written by the updates (o, k, i) of its "line" (o, i), in
 * increasing k.  So any split of the lines over threads, each
 * line walked in increasing k, writes exactly the oracle's bytes, duplicates
 * and clamped indices included.  Three kernels:
 *   scatter.slab    threads over the outer points o; at each, the slab
 *                   Output[o, ...] is copied from Input[o, ...] and at once
 *                   (still in cache) receives its updates, k by k;
 *   scatter.stream  the same, but the slab (one contiguous block in Input and
 *                   Output, up to 256 KiB) is built in a per-thread scratch
 *                   block and written out with streaming stores: the output
 *                   lines are never read for ownership (large outputs only,
 *                   plan_stream);
 *   scatter.lines   few outer points: the whole copy (threads over its units),
 *                   then the updates with threads over ranges of lines.
 */
#include "ops/kernels.h"
#include "scatter_fast.h"
#include "simd/simd.h"

#include <stdlib.h>
#include <string.h>

enum { SC_SLAB, SC_STREAM, SC_LINES };
enum { T_OUT, T_IN, T_UP, T_IX, T_COUNT }; /* the outer dims' tensors */

#define STREAM_MAX_SLAB (UINT64_C(256) << 10) /* scatter.stream: a slab that stays in L2          */
#define STREAM_MAX_SCRATCH (UINT64_C(32) << 20) /* scatter.stream: scratch of all thread parts    */
#define SLAB_MIN_PER_THREAD 4u                  /* scatter.slab: outer points per thread at least */

struct scatter_plan;
/* Applies one outer point's updates, k by k, to the inner points [ilo, ihi):
 * out, up, ix point at the outer point's origin in each tensor. */
typedef void (*scatter_fn)(const struct scatter_plan *p, unsigned char *out, const unsigned char *up,
                           const unsigned char *ix, uint64_t ilo, uint64_t ihi);

typedef struct scatter_plan {
    int mode;
    uint32_t nth, copy_nth;
    uint32_t ixtype;
    /* the dims before Axis: size 1 dropped, merged where adjacent in all four tensors */
    uint32_t om;
    uint64_t osz[MAX_DIMS], ost[T_COUNT][MAX_DIMS];
    uint64_t opoints;
    /* Axis: the bound, the updates per line, byte strides in Output, Updates, Indices */
    uint64_t A, K, oas, uas, xas;
    /* the dims after Axis: st[0] Output, st[1] Updates, st[2] Indices */
    nest_t inner;
    copy_plan slab;     /* Input -> Output over the dims Axis..N of one outer point */
    uint64_t slab_bytes; /* the slab as one block in both (bytes), or 0              */
    copy_plan whole;    /* scatter.lines: Input -> Output, every dim                */
    scratch_t tmp;      /* scatter.stream: one slab per thread part                 */
    scatter_fn fn;
#if DMLREF_SMALL
    unsigned es;        /* a small target: scatter_any's element size, index width  */
    int ix64;
#endif
} scatter_plan;

typedef struct scatter_ctx {
    const scatter_plan *p;
    const exec_args *x;
    unsigned char *tmp; /* scatter.stream: the claimed scratch, or NULL */
} scatter_ctx;

/* The outer point o: its coordinates and its byte offset in each tensor. */
static void outer_at(const scatter_plan *p, uint64_t o, uint64_t *c, uint64_t *off) {
    for (uint32_t t = 0; t < T_COUNT; ++t) off[t] = 0;
    for (uint32_t d = p->om; d-- > 0;) {
        c[d] = coord_step(&o, p->osz[d]);
        for (uint32_t t = 0; t < T_COUNT; ++t) off[t] += c[d] * p->ost[t][d];
    }
}

/* The next outer point (row-major; wraps after the last). */
static void outer_next(const scatter_plan *p, uint64_t *c, uint64_t *off) {
    for (uint32_t d = p->om; d-- > 0;) {
        for (uint32_t t = 0; t < T_COUNT; ++t) off[t] += p->ost[t][d];
        if (++c[d] < p->osz[d]) return;
        for (uint32_t t = 0; t < T_COUNT; ++t) off[t] -= p->osz[d] * p->ost[t][d];
        c[d] = 0;
    }
}

/* One element of ES bytes (a constant in each instance below). */
static DMLREF_ALWAYS_INLINE void put_elem(unsigned char *d, const unsigned char *s, unsigned es) {
    switch (es) {
    case 1: d[0] = s[0]; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, 8); break;
    }
}

/* An index through the policy's one definition (index.h), clamped. */
static DMLREF_ALWAYS_INLINE uint64_t get_index(const unsigned char *q, uint32_t dtype, uint64_t A, int ix64) {
    return ix64 ? index_load_clamp64(q, dtype, A) : index_load_clamp(q, dtype, A);
}

static DMLREF_ALWAYS_INLINE void scatter_body(const scatter_plan *p, unsigned char *out, const unsigned char *up,
                                              const unsigned char *ix, uint64_t ilo, uint64_t ihi, unsigned es, int ix64) {
    const uint64_t A = p->A, K = p->K, oas = p->oas, uas = p->uas, xas = p->xas;
    const uint32_t dtype = p->ixtype;
    const nest_t *nt = &p->inner;
    if (nt->points == 1) { /* Axis is the innermost dim that is not 1: one line per outer point */
        for (uint64_t k = 0; k < K; ++k)
            put_elem(out + get_index(ix + k * xas, dtype, A, ix64) * oas, up + k * uas, es);
        return;
    }
    const uint32_t l = nt->m - 1;
    const uint64_t os = nt->st[0][l], us = nt->st[1][l], xs = nt->st[2][l];
    if (nt->m == 1) { /* one inner dim: the points [ilo, ihi) are one row at ilo (no nest walk per k) */
        for (uint64_t k = 0; k < K; ++k) {
            unsigned char *o = out + ilo * os;
            const unsigned char *u = up + k * uas + ilo * us, *q = ix + k * xas + ilo * xs;
            for (uint64_t j = 0; j < ihi - ilo; ++j)
                put_elem(o + get_index(q + j * xs, dtype, A, ix64) * oas + j * os, u + j * us, es);
        }
        return;
    }
    for (uint64_t k = 0; k < K; ++k) {
        const unsigned char *uk = up + k * uas, *xk = ix + k * xas;
        nest_it it;
        for (int more = nest_rows_begin(nt, &it, ilo, ihi); more; more = nest_rows_next(nt, &it)) {
            unsigned char *o = out + it.off[0];
            const unsigned char *u = uk + it.off[1], *q = xk + it.off[2];
            for (uint64_t j = 0; j < it.len; ++j)
                put_elem(o + get_index(q + j * xs, dtype, A, ix64) * oas + j * os, u + j * us, es);
        }
    }
}

#if DMLREF_SMALL
/* A small target: one copy of the body, the element size and index width read at
 * run time (the same bytes; host builds: one copy per size and width, below). */
static void scatter_any(const scatter_plan *p, unsigned char *out, const unsigned char *up, const unsigned char *ix,
                        uint64_t ilo, uint64_t ihi) {
    scatter_body(p, out, up, ix, ilo, ihi, p->es, p->ix64);
}
#else
#define SCATTER_FN(ES, W)                                                                                   \
    static void scatter_x##ES##_i##W(const scatter_plan *p, unsigned char *out, const unsigned char *up,   \
                                     const unsigned char *ix, uint64_t ilo, uint64_t ihi) {                 \
        scatter_body(p, out, up, ix, ilo, ihi, ES, W == 64);                                               \
    }
SCATTER_FN(1, 32)
SCATTER_FN(2, 32)
SCATTER_FN(4, 32)
SCATTER_FN(8, 32)
SCATTER_FN(1, 64)
SCATTER_FN(2, 64)
SCATTER_FN(4, 64)
SCATTER_FN(8, 64)
#endif

/* scatter.slab / scatter.stream: the outer points [lo, hi), each slab copied then updated. */
static void slab_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const scatter_ctx *c = vc;
    const scatter_plan *p = c->p;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0), *up = IN_DATA(c->x, 2), *ix = IN_DATA(c->x, 1);
    unsigned char *tmp = c->tmp ? c->tmp + (size_t)part * p->tmp.part_bytes : NULL;
    const uint64_t ip = p->inner.points, sb = p->slab_bytes;
    uint64_t co[MAX_DIMS], off[T_COUNT];
    outer_at(p, lo, co, off);
    for (uint64_t o = lo; o < hi; ++o) {
        if (o > lo) outer_next(p, co, off);
        unsigned char *dst = out + off[T_OUT];
        const unsigned char *src = in + off[T_IN];
        if (tmp) { /* the slab is one block in both: built in cache, streamed out */
            simd_copy_block(tmp, src, (size_t)sb);
            p->fn(p, tmp, up + off[T_UP], ix + off[T_IX], 0, ip);
            simd_copy_stream(dst, tmp, (size_t)sb);
            continue;
        }
        if (sb) simd_copy_block(dst, src, (size_t)sb);
        else copy_plan_run(&p->slab, dst, src, 0, p->slab.units);
        p->fn(p, dst, up + off[T_UP], ix + off[T_IX], 0, ip);
    }
    if (tmp) simd_stream_fence();
}

/* scatter.lines, first pass: the copy's units [lo, hi). */
static void copy_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const scatter_ctx *c = vc;
    (void)part;
    copy_plan_run(&c->p->whole, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

/* scatter.lines, second pass: the lines [lo, hi) (row-major over outer x inner points). */
static void lines_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const scatter_ctx *c = vc;
    const scatter_plan *p = c->p;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *up = IN_DATA(c->x, 2), *ix = IN_DATA(c->x, 1);
    const uint64_t ip = p->inner.points;
    uint64_t co[MAX_DIMS], off[T_COUNT], i0 = lo % ip;
    (void)part;
    outer_at(p, lo / ip, co, off);
    while (lo < hi) {
        const uint64_t i1 = ip - i0 < hi - lo ? ip : i0 + (hi - lo);
        p->fn(p, out + off[T_OUT], up + off[T_UP], ix + off[T_IX], i0, i1);
        lo += i1 - i0;
        i0 = 0;
        outer_next(p, co, off);
    }
}

static dmlref_status scatter_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const scatter_plan *p = op->plan;
    scatter_ctx c = {p, x, NULL};
    (void)err;
    if (p->mode == SC_LINES) {
        run_ranges(op, p->copy_nth, p->whole.units, copy_range, &c);
        run_ranges(op, p->nth, p->opoints * p->inner.points, lines_range, &c);
        return DMLREF_OK;
    }
    c.tmp = p->mode == SC_STREAM ? scratch_claim(&p->tmp) : NULL; /* taken: the in-place variant, same bytes */
    run_ranges(op, p->nth, p->opoints, slab_range, &c);
    if (c.tmp) scratch_release(&p->tmp);
    return DMLREF_OK;
}

static void scatter_free(const dmlref_allocator *al, void *vp) {
    scatter_plan *p = vp;
    scratch_free(&p->tmp, al);
    mem_free(al, p);
}

dmlref_status plan_scatter(op_t *op, uint32_t a, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2], *out = &op->outputs[0];
    const uint32_t n = in->n;
    const uint64_t es = in->esize;
    scatter_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);

    /* outer dims [0, a) */
    const tensor_t *four[T_COUNT] = {out, in, up, ix};
    uint32_t om = 0;
    for (uint32_t d = 0; d < a; ++d) {
        if (in->sizes[d] == 1) continue;
        int adj = om > 0;
        for (uint32_t t = 0; adj && t < T_COUNT; ++t)
            if (!stride_adjacent(p->ost[t][om - 1], four[t]->bstrides[d], in->sizes[d])) adj = 0;
        if (adj) {
            p->osz[om - 1] *= in->sizes[d];
            for (uint32_t t = 0; t < T_COUNT; ++t) p->ost[t][om - 1] = four[t]->bstrides[d];
        } else {
            p->osz[om] = in->sizes[d];
            for (uint32_t t = 0; t < T_COUNT; ++t) p->ost[t][om] = four[t]->bstrides[d];
            ++om;
        }
    }
    if (om == 0) p->osz[om++] = 1;
    p->om = om;
    p->opoints = 1;
    for (uint32_t d = 0; d < om; ++d) p->opoints *= p->osz[d];

    /* Axis, and the inner dims (a, n) */
    p->A = in->sizes[a];
    p->K = ix->sizes[a];
    p->oas = out->bstrides[a];
    p->uas = up->bstrides[a];
    p->xas = ix->bstrides[a];
    p->ixtype = ix->dtype;
    nest_t *nt = &p->inner;
    nt->m = 0;
    for (uint32_t d = a + 1; d < n; ++d) {
        nt->sizes[nt->m] = ix->sizes[d];
        nt->st[0][nt->m] = out->bstrides[d];
        nt->st[1][nt->m] = up->bstrides[d];
        nt->st[2][nt->m] = ix->bstrides[d];
        ++nt->m;
    }
    if (nt->m == 0) {
        nt->m = 1;
        nt->sizes[0] = 1;
    }
    nest_collapse(nt, 3);

    /* the copies: one slab (dims a..n), and the whole tensor */
    uint64_t sizes[MAX_DIMS];
    for (uint32_t d = 0; d < n; ++d) sizes[d] = in->sizes[d];
    copy_plan_init(&p->slab, n - a, sizes + a, out->bstrides + a, in->bstrides + a, es);
    p->slab_bytes = p->slab.nest.points == 1 ? p->slab.block : 0;
    const uint64_t out_bytes = out->elements * es;
    const uint32_t nth = plan_threads(op, 2 * out_bytes + ix->elements * (ix->esize + 2 * es));

#if DMLREF_SMALL
    p->es = (unsigned)es;
    p->ix64 = ix->esize == 8;
    p->fn = scatter_any;
#else
    static const scatter_fn fns[2][4] = {{scatter_x1_i32, scatter_x2_i32, scatter_x4_i32, scatter_x8_i32},
                                         {scatter_x1_i64, scatter_x2_i64, scatter_x4_i64, scatter_x8_i64}};
    p->fn = fns[ix->esize == 8][es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3];
#endif

    if (nth == 1 || p->opoints >= (uint64_t)SLAB_MIN_PER_THREAD * nth) {
        p->mode = SC_SLAB;
        p->nth = nth;
        const uint64_t sb = p->slab_bytes;
        if (sb >= 64 && sb <= STREAM_MAX_SLAB && plan_stream(out_bytes)) {
            const uint32_t parts = p->opoints < nth ? (uint32_t)p->opoints : nth; /* run_ranges' parts */
            const int got = parts * sb <= STREAM_MAX_SCRATCH ? scratch_init(&p->tmp, &op->alloc, parts, (size_t)sb) : 0;
            if (got < 0) {
                scatter_free(&op->alloc, p);
                return plan_out_of_memory(op, err);
            }
            if (got) p->mode = SC_STREAM;
        }
    } else {
        p->mode = SC_LINES;
        copy_plan_init(&p->whole, n, sizes, out->bstrides, in->bstrides, es);
        p->copy_nth = plan_threads(op, 2 * out_bytes);
        const uint64_t lines = p->opoints * nt->points;
        p->nth = lines < nth ? (uint32_t)lines : nth;
    }

    static const char *const names[3] = {kernel_name_SCATTER_SLAB, KERNEL_STREAM_NAME(SCATTER_STREAM), kernel_name_SCATTER_LINES};
    op->kernel_name = names[p->mode];
    op->plan = p;
    op->plan_free = scatter_free;
    op->kernel = scatter_kernel;
    return DMLREF_OK;
}
