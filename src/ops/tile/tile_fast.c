/*
 * TILE's fast path (tile_fast.h; the class, its rules and its oracle are
 * op_tile.c), bit-identical to the oracle and tested against it on random
 * cases.
 */
#include "ops/kernels.h"
#include "tile_fast.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fast path: one strided copy over the split output ------------------
 *
 * Output dim i of size R*I is the pair (r, c) with o = r*I + c: r at output
 * stride I*os and input stride 0 (every repeat reads the same block), c at
 * output stride os and input stride is.  Size-1 dims are dropped and adjacent
 * dims merged, so a tile along the outer dims becomes a few large blocks and a
 * tile along the last dim rows of the whole input row.  At most 8 dims go to the
 * copy_plan; the dims before them (up to 8 more) are an outer walk. */

typedef struct tile_plan {
    nest_t outer;   /* dims outside the copy: st[0] = output, st[1] = input */
    copy_plan copy; /* the innermost dims (at most 8)                        */
    uint64_t units; /* outer.points * copy.units                             */
    uint32_t nth;
    /* tile.doubling: the dims that are not 1 in the output, outermost first */
    uint32_t sm, es;
    uint64_t ssz[MAX_DIMS], srep[MAX_DIMS], sist[MAX_DIMS], sost[MAX_DIMS];
} tile_plan;

/* ---- tile.doubling: a small packed output, built by doubling -------------------
 *
 * The output block of dims d.. at o is the input block of dims d+1.. built for
 * each of the Input.Sizes[d] input coordinates, then that whole (contiguous in a
 * packed output) copied Repeats[d] - 1 more times, from the output itself, in
 * doubling copies.  An output of a few dozen elements takes a few copies instead
 * of a row walk; the bytes are the oracle's, each output element being a copy
 * of the input element it names. */
#define TILE_SMALL_MAX (UINT64_C(16) << 10) /* output bytes: the doubling reads it back from L1 */

static void tile_build(const tile_plan *p, uint32_t d, unsigned char *o, const unsigned char *s) {
    const uint64_t n = p->ssz[d], os = p->sost[d], is = p->sist[d];
    if (d + 1 == p->sm && is == p->es) { /* the innermost input row is contiguous */
        memcpy(o, s, (size_t)(n * os));
    } else if (d + 1 == p->sm) {
        for (uint64_t i = 0; i < n; ++i) memcpy(o + i * os, s + i * is, p->es);
    } else {
        for (uint64_t i = 0; i < n; ++i) tile_build(p, d + 1, o + i * os, s + i * is);
    }
    const uint64_t total = n * os * p->srep[d];
    for (uint64_t have = n * os; have < total;) {
        const uint64_t c = total - have < have ? total - have : have;
        memcpy(o + have, o, (size_t)c);
        have += c;
    }
}

static dmlref_status tile_doubling_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    (void)err;
    tile_build(op->plan, 0, OUT_DATA(x, 0), IN_DATA(x, 0));
    return DMLREF_OK;
}

/* tile.doubling when the output is packed (row-major, no gaps) and at most TILE_SMALL_MAX bytes. */
static int tile_doubling_plan(tile_plan *p, const tensor_t *in, const tensor_t *out, const uint32_t *repeats) {
    if (out->elements * out->esize > TILE_SMALL_MAX) return 0;
    uint64_t want = out->esize;
    uint32_t m = 0;
    for (uint32_t d = out->n; d-- > 0;) {
        if (out->sizes[d] == 1) continue;
        if (out->bstrides[d] != want) return 0;
        want *= out->sizes[d];
        ++m;
    }
    p->es = out->esize;
    p->sm = m ? m : 1;
    p->ssz[0] = p->srep[0] = 1; /* one element */
    p->sost[0] = out->esize;
    p->sist[0] = in->bstrides[0];
    for (uint32_t d = 0, k = 0; d < out->n; ++d) {
        if (out->sizes[d] == 1) continue;
        p->ssz[k] = in->sizes[d];
        p->srep[k] = repeats[d];
        p->sost[k] = out->bstrides[d];
        p->sist[k] = in->bstrides[d];
        ++k;
    }
    return 1;
}

static const char *tile_name(int kind) {
    switch (kind) {
    case COPY_BLOCK: return KERNEL_NAME(TILE_BLOCK);
    case COPY_X1: return KERNEL_NAME(TILE_X1);
    case COPY_X2: return KERNEL_NAME(TILE_X2);
    case COPY_X4: return KERNEL_NAME(TILE_X4);
    case COPY_X8: return KERNEL_NAME(TILE_X8);
    case COPY_X16: return KERNEL_NAME(TILE_B16);
    default: return KERNEL_NAME(TILE_SMALL);
    }
}

typedef struct tile_ctx {
    const tile_plan *p;
    const exec_args *x;
} tile_ctx;

/* Units [lo, hi): unit u is unit u % copy.units of the copy at outer point u / copy.units. */
static void tile_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const tile_ctx *c = vc;
    const tile_plan *p = c->p;
    const uint64_t cu = p->copy.units;
    (void)part;
    for (uint64_t u = lo; u < hi;) {
        const uint64_t o = u / cu, a = u % cu, b = hi - u < cu - a ? a + (hi - u) : cu;
        uint64_t off[NEST_K];
        nest_offsets(&p->outer, o, off);
        copy_plan_run(&p->copy, OUT_DATA(c->x, 0) + off[0], IN_DATA(c->x, 0) + off[1], a, b);
        u += b - a;
    }
}

static dmlref_status tile_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const tile_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->units, tile_range, &c);
    return DMLREF_OK;
}

static void tile_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_tile(op_t *op, const uint32_t *repeats, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    (void)err;
    /* the split dims, outermost first: sizes and byte strides (output, input) */
    uint64_t sz[2 * MAX_DIMS], os[2 * MAX_DIMS], is[2 * MAX_DIMS];
    uint32_t m = 0;
    for (uint32_t d = 0; d < out->n; ++d) {
        const uint64_t r = repeats[d], i = in->sizes[d];
        /* r > 1, i > 1: (r-1)*i*os[d] < the output's span, so i*os[d] does not overflow */
        if (r > 1) sz[m] = r, os[m] = i * out->bstrides[d], is[m] = 0, ++m;
        if (i > 1) sz[m] = i, os[m] = out->bstrides[d], is[m] = in->bstrides[d], ++m;
    }
    /* merge a dim into the next inner one where both tensors allow it */
    uint32_t w = 0;
    for (uint32_t k = 0; k < m; ++k) {
        if (w > 0 && stride_adjacent(os[w - 1], os[k], sz[k]) && stride_adjacent(is[w - 1], is[k], sz[k])) {
            sz[w - 1] *= sz[k];
            os[w - 1] = os[k];
            is[w - 1] = is[k];
            continue;
        }
        sz[w] = sz[k], os[w] = os[k], is[w] = is[k], ++w;
    }
    if (w == 0) sz[0] = 1, os[0] = is[0] = 0, w = 1; /* one element */
    const uint32_t n_outer = w > MAX_DIMS ? w - MAX_DIMS : 0;

    tile_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->outer.m = n_outer ? n_outer : 1;
    p->outer.sizes[0] = 1;
    for (uint32_t k = 0; k < n_outer; ++k) {
        p->outer.sizes[k] = sz[k];
        p->outer.st[0][k] = os[k];
        p->outer.st[1][k] = is[k];
    }
    p->outer.points = 1;
    for (uint32_t k = 0; k < p->outer.m; ++k) p->outer.points *= p->outer.sizes[k];
    copy_plan_init(&p->copy, w - n_outer, sz + n_outer, os + n_outer, is + n_outer, out->esize);
    p->units = p->outer.points * p->copy.units;
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = tile_free;
    op->kernel = tile_kernel;
    op->kernel_name = tile_name(p->copy.kind);
    if (!DMLREF_SMALL && tile_doubling_plan(p, in, out, repeats)) { /* DMLREF_SMALL: the strided copy only */
        op->kernel = tile_doubling_kernel;
        op->kernel_name = KERNEL_NAME(TILE_DOUBLING);
    }
    return DMLREF_OK;
}
