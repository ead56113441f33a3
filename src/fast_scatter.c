/*
 * SCATTER_ND fast path.
 *
 * Phase 1 copies Input to Output (a copy_plan, threads over disjoint output
 * ranges).  Phase 2 applies the updates.  With T threads, thread t owns the
 * targets whose flattened index tuple (over Input.Sizes[N-R .. N-R+T)) lies in
 * [F*t/T, F*(t+1)/T): every thread walks all tuples in row-major order and
 * applies only its own.  Each output element is owned by exactly one thread,
 * which applies that element's updates in the serial order, so the last
 * duplicate wins exactly as in the oracle, byte for byte.  Single elements
 * with 64-bit indices (apply_elems64) own whole rows instead: thread t owns
 * the first components in [B*t/T, B*(t+1)/T), tested before the rest of the
 * tuple is read.
 */
#include "plan.h"
#include "simd/simd.h"

#include <stdlib.h>

enum { S_ELEMS, S_ROWS, S_SLICES };

typedef struct scatter_plan {
    copy_plan copy;     /* Input -> Output                                   */
    uint32_t copy_nth, up_nth;
    nest_t tuples;      /* st[0] = updates, st[2] = indices (tuple dims)     */
    uint32_t t;         /* components per tuple                              */
    uint32_t ixtype;
    uint64_t cs;        /* byte stride between components                    */
    uint64_t bound[MAX_DIMS], ost[MAX_DIMS], mul[MAX_DIMS];
    uint64_t flat_total; /* product of the bounds                            */
    copy_plan slice;    /* one update slice: st[0] = output, st[1] = updates */
    int kind;
} scatter_plan;

typedef struct scatter_ctx {
    const scatter_plan *p;
    const exec_args *x;
} scatter_ctx;

static void copy_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const scatter_ctx *c = vc;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

#define APPLY_CHUNK 64u /* targets computed (and prefetched) ahead of their writes */

/* Applies, in row-major order, the updates whose flat target is in [flo, fhi). */
static void apply(const scatter_plan *p, const exec_args *x, uint64_t flo, uint64_t fhi) {
    unsigned char *out = OUT_DATA(x, 0);
    const unsigned char *ix = IN_DATA(x, 1), *up = IN_DATA(x, 2);
    const nest_t *nt = &p->tuples;
    const uint32_t l = nt->m - 1, t = p->t, ixtype = p->ixtype;
    const uint64_t us = nt->st[0][l], js = nt->st[2][l], cs = p->cs, b = p->slice.block;
    const int all = flo == 0 && fhi >= p->flat_total;
    uint64_t target[APPLY_CHUNK];
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, 0, nt->points); more; more = nest_rows_next(nt, &it)) {
        for (uint64_t i0 = 0; i0 < it.len; i0 += APPLY_CHUNK) {
            const uint64_t n = it.len - i0 < APPLY_CHUNK ? it.len - i0 : APPLY_CHUNK;
            const unsigned char *q = ix + it.off[2] + i0 * js;
            for (uint64_t i = 0; i < n; ++i, q += js) {
                uint64_t tg = 0, flat = 0;
                for (uint32_t k = 0; k < t; ++k) {
                    const uint64_t v = index_norm_fast(q + k * cs, ixtype, p->bound[k]);
                    tg += v * p->ost[k];
                    flat += v * p->mul[k];
                }
                if (!all && (flat < flo || flat >= fhi)) tg = UINT64_MAX; /* another thread's */
                else PREFETCH_W(out + tg);
                target[i] = tg;
            }
            const unsigned char *src = up + it.off[0] + i0 * us;
            for (uint64_t i = 0; i < n; ++i, src += us) {
                if (target[i] == UINT64_MAX) continue;
                unsigned char *dst = out + target[i];
                switch (p->kind) {
                case S_ELEMS:
                    switch (b) {
                    case 1: dst[0] = src[0]; break;
                    case 2: memcpy(dst, src, 2); break;
                    case 4: memcpy(dst, src, 4); break;
                    default: memcpy(dst, src, 8); break;
                    }
                    break;
                case S_ROWS: simd_copy_block(dst, src, (size_t)b); break;
                default: copy_plan_run(&p->slice, dst, src, 0, p->slice.units); break;
                }
            }
        }
    }
}

/* The elements kind with 64-bit index components (INT64 / UINT64), the
 * common case, in a tighter loop: the thread owns the targets whose first
 * component lies in [rlo, rhi) (a range of whole rows of the flat order, so
 * still one owner per element), decided from that component alone before
 * the others are read; only owned targets are computed, prefetched and
 * written.  In-range components take one unsigned compare (negative INT64
 * values are huge as unsigned); the rest go to the library's normalizer. */
static void apply_elems64(const scatter_plan *p, const exec_args *x, uint64_t rlo, uint64_t rhi) {
    unsigned char *out = OUT_DATA(x, 0);
    const unsigned char *ix = IN_DATA(x, 1), *up = IN_DATA(x, 2);
    const nest_t *nt = &p->tuples;
    const uint32_t l = nt->m - 1, t = p->t, ixtype = p->ixtype;
    const uint64_t us = nt->st[0][l], js = nt->st[2][l], cs = p->cs, b = p->slice.block;
    const uint64_t b0 = p->bound[0], o0 = p->ost[0], rlen = rhi - rlo;
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, 0, nt->points); more; more = nest_rows_next(nt, &it)) {
        const unsigned char *q = ix + it.off[2], *src = up + it.off[0];
        for (uint64_t i = 0; i < it.len; ++i, q += js, src += us) {
            uint64_t v;
            memcpy(&v, q, 8);
            if (v >= b0) v = index_load_norm(q, ixtype, b0);
            if (v - rlo >= rlen) continue; /* another thread's */
            uint64_t tg = v * o0;
            for (uint32_t k = 1; k < t; ++k) {
                memcpy(&v, q + k * cs, 8);
                if (v >= p->bound[k]) v = index_load_norm(q + k * cs, ixtype, p->bound[k]);
                tg += v * p->ost[k];
            }
            unsigned char *dst = out + tg;
            switch (b) {
            case 1: dst[0] = src[0]; break;
            case 2: memcpy(dst, src, 2); break;
            case 4: memcpy(dst, src, 4); break;
            default: memcpy(dst, src, 8); break;
            }
        }
    }
}

static int fast_elems(const scatter_plan *p) {
    return p->kind == S_ELEMS &&
           (p->ixtype == DMLREF_TENSOR_DATA_TYPE_INT64 || p->ixtype == DMLREF_TENSOR_DATA_TYPE_UINT64);
}

static void apply_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const scatter_ctx *c = vc;
    const scatter_plan *p = c->p;
    const uint64_t T = p->up_nth, F = p->flat_total, B0 = p->bound[0];
    if (fast_elems(p)) apply_elems64(p, c->x, B0 * lo / T, B0 * hi / T);
    else apply(p, c->x, F * lo / T, F * hi / T);
}

static dmlref_status scatter_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const scatter_plan *p = op->plan;
    const scatter_ctx c = {p, x};
    (void)err;
    run_ranges(p->copy_nth, p->copy.units, copy_range, &c);
    if (p->up_nth > 1) run_ranges(p->up_nth, p->up_nth, apply_range, &c);
    else if (fast_elems(p)) apply_elems64(p, x, 0, p->bound[0]);
    else apply(p, x, 0, p->flat_total);
    return DMLREF_OK;
}

static void scatter_free(void *p) { free(p); }

dmlref_status plan_scatter_nd(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2], *out = &op->outputs[0];
    const uint32_t n = in->n, r = op->input_dim_count, q = op->indices_dim_count, t = ix->sizes[n - 1];
    const uint32_t m = (q - 1) + (r - t);
    const uint64_t esize = in->esize;
    (void)err;
    scatter_plan *p = calloc(1, sizeof *p);
    if (!p) return DMLREF_OK;

    uint64_t sizes[MAX_DIMS];
    for (uint32_t d = 0; d < n; ++d) sizes[d] = out->sizes[d];
    copy_plan_init(&p->copy, n, sizes, out->bstrides, in->bstrides, esize);
    p->copy_nth = plan_threads(op, 2 * out->elements * esize);

    /* tuples: indices dims [N-Q, N-1) <-> updates dims [N-M, N-M+Q-1) */
    nest_t *nt = &p->tuples;
    nt->m = q - 1;
    for (uint32_t b = 0; b + 1 < q; ++b) {
        nt->sizes[b] = ix->sizes[n - q + b];
        nt->st[0][b] = up->bstrides[n - m + b];
        nt->st[2][b] = ix->bstrides[n - q + b];
    }
    if (nt->m == 0) {
        nt->m = 1;
        nt->sizes[0] = 1;
    }
    nest_collapse(nt, 3);

    p->t = t;
    p->ixtype = ix->dtype;
    p->cs = ix->bstrides[n - 1];
    p->flat_total = 1;
    for (uint32_t c = t; c-- > 0;) {
        p->bound[c] = in->sizes[n - r + c];
        p->ost[c] = out->bstrides[n - r + c];
        p->mul[c] = p->flat_total;
        p->flat_total *= p->bound[c];
    }

    /* one slice: output dims [N-R+T, N) <-> updates dims [N-M+Q-1, N) */
    const uint32_t sn = r - t;
    uint64_t ssz[MAX_DIMS], sdst[MAX_DIMS], ssrc[MAX_DIMS];
    for (uint32_t e = 0; e < sn; ++e) {
        ssz[e] = in->sizes[n - r + t + e];
        sdst[e] = out->bstrides[n - r + t + e];
        ssrc[e] = up->bstrides[n - m + q - 1 + e];
    }
    copy_plan_init(&p->slice, sn, ssz, sdst, ssrc, esize);

    const int single = p->slice.nest.points == 1 && p->slice.chunks == 1;
    p->kind = single ? (p->slice.block == esize ? S_ELEMS : S_ROWS) : S_SLICES;
    const uint64_t up_bytes = nt->points * p->slice.block * p->slice.nest.points;
    p->up_nth = plan_threads(op, 2 * up_bytes);
    if (p->up_nth > p->flat_total) p->up_nth = (uint32_t)p->flat_total;
    if (fast_elems(p) && p->up_nth > p->bound[0]) p->up_nth = (uint32_t)p->bound[0]; /* owners are rows */

    static const char *const elems[9] = {"", "scatter_nd.elems.x1", "scatter_nd.elems.x2", "", "scatter_nd.elems.x4",
                                         "", "", "", "scatter_nd.elems.x8"};
    op->kernel_name = p->kind == S_ELEMS ? elems[esize] : p->kind == S_ROWS ? "scatter_nd.rows" : "scatter_nd.slices";
    op->plan = p;
    op->plan_free = scatter_free;
    op->kernel = scatter_kernel;
    return DMLREF_OK;
}
