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
 *
 * Rows (scatter_nd.rows_skip): when every update overwrites a whole block of
 * at least 64 bytes that is contiguous in Input and in Output, and the output
 * is large enough for streaming stores (plan_stream), the copy skips the
 * blocks some update will overwrite anyway.  The targets are first marked in
 * a bitmap (scratch the plan owns, one bit per target), then each thread
 * copies the unmarked blocks of its range, then the updates are applied as
 * above; both copies and updates go out with streaming stores, since blocks
 * this small are below memcpy's own no-read-for-ownership strategies.  For
 * the benchmark's 16384 updates of 1 KiB rows into 65536 rows, the copy
 * moves a quarter less and the traffic is what an ideal copy moves.
 */
#include "ops/kernels.h"
#include "scatter_nd_fast.h"
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
    /* rows_skip */
    uint64_t ist[MAX_DIMS]; /* Input byte strides of the tuple dims          */
    scratch_t marks;        /* one bit per flat target, or none              */
} scatter_plan;

typedef struct scatter_ctx {
    const scatter_plan *p;
    const exec_args *x;
    const unsigned char *marks; /* rows_skip: the targets marked, or NULL */
} scatter_ctx;

static void copy_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const scatter_ctx *c = vc;
    copy_plan_run(&c->p->copy, OUT_DATA(c->x, 0), IN_DATA(c->x, 0), lo, hi);
}

#if DMLREF_SMALL
#define APPLY_CHUNK 8u /* a small target: target[] of 64 bytes on the stack */
#else
#define APPLY_CHUNK 64u /* targets computed (and prefetched) ahead of their writes */
#endif
#define SKIP_MIN_BLOCK 64u                   /* rows_skip: blocks of at least a cache line */
#define SKIP_MAX_TARGETS (UINT64_C(1) << 26) /* rows_skip: a bitmap of at most 8 MiB       */

/* One element of b bytes (1, 2, 4 or 8). */
static inline void store_elem(unsigned char *dst, const unsigned char *src, uint64_t b) {
    switch (b) {
    case 1: dst[0] = src[0]; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    default: memcpy(dst, src, 8); break;
    }
}

/* The output byte offset of the tuple at q (components normalized), and its
 * flat target number (row-major over the bounds) in *flat. */
static inline uint64_t tuple_target(const scatter_plan *p, const unsigned char *q, uint64_t *flat) {
    uint64_t tg = 0, f = 0;
    for (uint32_t k = 0; k < p->t; ++k) {
        const uint64_t v = index_load_clamp(q + k * p->cs, p->ixtype, p->bound[k]);
        tg += v * p->ost[k];
        f += v * p->mul[k];
    }
    *flat = f;
    return tg;
}

/* rows_skip: sets the bit of every tuple's flat target (serial: the bitmap
 * is small next to the copy).  Not inlined: its frame is not to stay on the
 * stack under the copy and the updates that follow it. */
static DMLREF_NOINLINE void mark_targets(const scatter_plan *p, const exec_args *x, unsigned char *marks) {
    const nest_t *nt = &p->tuples;
    const uint64_t js = nt->st[2][nt->m - 1];
    const unsigned char *ix = IN_DATA(x, 1);
    nest_it it;
    memset(marks, 0, (size_t)((p->flat_total + 7) / 8));
    for (int more = nest_rows_begin(nt, &it, 0, nt->points); more; more = nest_rows_next(nt, &it)) {
        const unsigned char *q = ix + it.off[2];
        for (uint64_t i = 0; i < it.len; ++i, q += js) {
            uint64_t f;
            tuple_target(p, q, &f);
            marks[f / 8] |= (unsigned char)(1u << (f % 8));
        }
    }
}

/* rows_skip: flat targets [lo, hi), the unmarked ones copied Input -> Output,
 * adjacent ones (contiguous in both) as one run, with streaming stores. */
static void copy_unmarked_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const scatter_ctx *c = vc;
    const scatter_plan *p = c->p;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0);
    const uint64_t b = p->slice.block;
    uint64_t cnt[MAX_DIMS], oo = 0, io = 0, rest = lo, run_o = 0, run_i = 0, run = 0;
    (void)part;
    for (uint32_t k = p->t; k-- > 0;) { /* the coordinates of target lo */
        cnt[k] = rest % p->bound[k];
        rest /= p->bound[k];
        oo += cnt[k] * p->ost[k];
        io += cnt[k] * p->ist[k];
    }
    for (uint64_t f = lo; f < hi; ++f) {
        if (!(c->marks[f / 8] & (1u << (f % 8)))) {
            if (run && run_o + run == oo && run_i + run == io) {
                run += b;
            } else {
                if (run) simd_copy_stream(out + run_o, in + run_i, (size_t)run);
                run_o = oo;
                run_i = io;
                run = b;
            }
        }
        for (uint32_t k = p->t; k-- > 0;) { /* the next target's offsets */
            oo += p->ost[k];
            io += p->ist[k];
            if (++cnt[k] < p->bound[k]) break;
            oo -= p->bound[k] * p->ost[k];
            io -= p->bound[k] * p->ist[k];
            cnt[k] = 0;
        }
    }
    if (run) simd_copy_stream(out + run_o, in + run_i, (size_t)run);
    simd_stream_fence();
}

/* Applies, in row-major order, the updates whose flat target is in [flo, fhi). */
static void apply(const scatter_plan *p, const exec_args *x, uint64_t flo, uint64_t fhi) {
    unsigned char *out = OUT_DATA(x, 0);
    const unsigned char *ix = IN_DATA(x, 1), *up = IN_DATA(x, 2);
    const nest_t *nt = &p->tuples;
    const uint32_t l = nt->m - 1;
    const uint64_t us = nt->st[0][l], js = nt->st[2][l], b = p->slice.block;
    const int all = flo == 0 && fhi >= p->flat_total;
    const int stream = p->kind == S_ROWS && p->marks.mem; /* no prefetch: streamed rows are not read */
    uint64_t target[APPLY_CHUNK];
    nest_it it;
    if (all && p->kind == S_ELEMS && p->t == 1 && nt->points <= APPLY_CHUNK) {
        /* a few single-element updates of one component (tiny calls): each written as it is
         * read, in the same order, with no target list and no prefetch */
        const uint64_t bound = p->bound[0], ost = p->ost[0];
        for (int more = nest_rows_begin(nt, &it, 0, nt->points); more; more = nest_rows_next(nt, &it)) {
            const unsigned char *q = ix + it.off[2], *src = up + it.off[0];
            for (uint64_t i = 0; i < it.len; ++i, q += js, src += us)
                store_elem(out + index_load_clamp(q, p->ixtype, bound) * ost, src, b);
        }
        return;
    }
    for (int more = nest_rows_begin(nt, &it, 0, nt->points); more; more = nest_rows_next(nt, &it)) {
        for (uint64_t i0 = 0; i0 < it.len; i0 += APPLY_CHUNK) {
            const uint64_t n = it.len - i0 < APPLY_CHUNK ? it.len - i0 : APPLY_CHUNK;
            const unsigned char *q = ix + it.off[2] + i0 * js;
            for (uint64_t i = 0; i < n; ++i, q += js) {
                uint64_t flat, tg = tuple_target(p, q, &flat);
                if (!all && (flat < flo || flat >= fhi)) tg = UINT64_MAX; /* another thread's */
                else if (!stream) PREFETCH_W(out + tg);
                target[i] = tg;
            }
            const unsigned char *src = up + it.off[0] + i0 * us;
            for (uint64_t i = 0; i < n; ++i, src += us) {
                if (target[i] == UINT64_MAX) continue;
                unsigned char *dst = out + target[i];
                switch (p->kind) {
                case S_ELEMS: store_elem(dst, src, b); break;
                case S_ROWS:
                    if (p->marks.mem) simd_copy_stream(dst, src, (size_t)b);
                    else simd_copy_block(dst, src, (size_t)b);
                    break;
                default: copy_plan_run(&p->slice, dst, src, 0, p->slice.units); break;
                }
            }
        }
    }
}

#if DMLREF_SMALL
#define ELEMS_AHEAD 4u  /* a small target: a ring of 48 bytes on the stack */
#else
#define ELEMS_AHEAD 16u /* apply_elems64: owned targets prefetched this many stores ahead */
#endif

/* The elements kind with 64-bit index components (INT64 / UINT64), the
 * common case, in a tighter loop: the thread owns the targets whose first
 * component lies in [rlo, rhi) (a range of whole rows of the flat order, so
 * still one owner per element), decided from that component alone before
 * the others are read; only owned targets are computed and written.
 * Components go through index_load_clamp (index.h, the policy's one
 * definition, inlined).  Random
 * single-element stores are bound by the latency of their lines, so each
 * owned target is prefetched for writing when computed and stored
 * ELEMS_AHEAD owned targets later (a ring on the stack, drained in order, so
 * the stores keep the row-major order): the line fetches overlap. */
static void apply_elems64(const scatter_plan *p, const exec_args *x, uint64_t rlo, uint64_t rhi) {
    unsigned char *out = OUT_DATA(x, 0);
    const unsigned char *ix = IN_DATA(x, 1), *up = IN_DATA(x, 2);
    const nest_t *nt = &p->tuples;
    const uint32_t l = nt->m - 1, t = p->t, ixtype = p->ixtype;
    const uint64_t us = nt->st[0][l], js = nt->st[2][l], cs = p->cs, b = p->slice.block;
    const uint64_t b0 = p->bound[0], o0 = p->ost[0], rlen = rhi - rlo;
    uint64_t ring_tg[ELEMS_AHEAD];
    const unsigned char *ring_src[ELEMS_AHEAD];
    uint64_t queued = 0; /* owned targets computed so far; the ring holds the last min(queued, AHEAD) */
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, 0, nt->points); more; more = nest_rows_next(nt, &it)) {
        const unsigned char *q = ix + it.off[2], *src = up + it.off[0];
        for (uint64_t i = 0; i < it.len; ++i, q += js, src += us) {
            uint64_t v = index_load_clamp(q, ixtype, b0);
            if (v - rlo >= rlen) continue; /* another thread's */
            uint64_t tg = v * o0;
            for (uint32_t k = 1; k < t; ++k) {
                v = index_load_clamp(q + k * cs, ixtype, p->bound[k]);
                tg += v * p->ost[k];
            }
            PREFETCH_W(out + tg);
            const uint32_t slot = (uint32_t)(queued % ELEMS_AHEAD);
            if (queued >= ELEMS_AHEAD) store_elem(out + ring_tg[slot], ring_src[slot], b);
            ring_tg[slot] = tg;
            ring_src[slot] = src;
            ++queued;
        }
    }
    for (uint64_t k = queued > ELEMS_AHEAD ? queued - ELEMS_AHEAD : 0; k < queued; ++k)
        store_elem(out + ring_tg[k % ELEMS_AHEAD], ring_src[k % ELEMS_AHEAD], b);
}

/* DMLREF_SMALL: never (apply, whose owners are flat targets, applies the same
 * updates in the same order), so that apply_elems64 is not linked. */
static int fast_elems(const scatter_plan *p) {
    return !DMLREF_SMALL && p->kind == S_ELEMS &&
           (p->ixtype == DMLREF_TENSOR_DATA_TYPE_INT64 || p->ixtype == DMLREF_TENSOR_DATA_TYPE_UINT64);
}

static void apply_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const scatter_ctx *c = vc;
    const scatter_plan *p = c->p;
    const uint64_t T = p->up_nth, F = p->flat_total, B0 = p->bound[0];
    if (fast_elems(p)) apply_elems64(p, c->x, B0 * lo / T, B0 * hi / T);
    else apply(p, c->x, F * lo / T, F * hi / T);
    simd_stream_fence();
}

static dmlref_status scatter_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const scatter_plan *p = op->plan;
    scatter_ctx c = {p, x, NULL};
    (void)err;
    unsigned char *marks = PLAN_STREAM_ANY ? scratch_claim(&p->marks) : NULL; /* rows_skip needs plan_stream */
    if (marks) {
        mark_targets(p, x, marks);
        c.marks = marks;
        run_ranges(op, p->copy_nth, p->flat_total, copy_unmarked_range, &c);
        scratch_release(&p->marks);
    } else {
        run_ranges(op, p->copy_nth, p->copy.units, copy_range, &c);
    }
    if (p->up_nth > 1) run_ranges(op, p->up_nth, p->up_nth, apply_range, &c);
    else if (fast_elems(p)) apply_elems64(p, x, 0, p->bound[0]);
    else apply(p, x, 0, p->flat_total);
    simd_stream_fence();
    return DMLREF_OK;
}

static void scatter_free(const dmlref_allocator *al, void *vp) {
    scatter_plan *p = vp;
    scratch_free(&p->marks, al);
    mem_free(al, p);
}

dmlref_status plan_scatter_nd(op_t *op, uint32_t r, uint32_t q, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *up = &op->inputs[2], *out = &op->outputs[0];
    const uint32_t n = in->n, t = ix->sizes[n - 1];
    const uint32_t m = (q - 1) + (r - t);
    const uint64_t esize = in->esize;
    scatter_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);

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
        p->ist[c] = in->bstrides[n - r + c];
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

    /* rows_skip: the slice is also one block of the same bytes in Input, and the flat targets
     * tile the whole output: rule S6 (the leading N - R dimensions are 1; validation enforces it,
     * checked here again since the skip copy relies on it), so that the blocks of the flat targets
     * are every output byte exactly once. */
    int tiles = out->elements * esize == p->flat_total * p->slice.block; /* disjoint dims of Output: <= its bytes */
    for (uint32_t d = 0; d < n - r; ++d)
        if (out->sizes[d] != 1) tiles = 0;
    if (p->kind == S_ROWS && tiles && p->slice.block >= SKIP_MIN_BLOCK && p->flat_total <= SKIP_MAX_TARGETS &&
        plan_stream(out->elements * esize)) {
        uint64_t sin[MAX_DIMS];
        copy_plan in_slice;
        for (uint32_t e = 0; e < sn; ++e) sin[e] = in->bstrides[n - r + t + e];
        copy_plan_init(&in_slice, sn, ssz, sdst, sin, esize);
        if (in_slice.nest.points == 1 && in_slice.chunks == 1 && in_slice.block == p->slice.block &&
            scratch_init(&p->marks, &op->alloc, 1, (size_t)((p->flat_total + 7) / 8)) < 0) {
            scatter_free(&op->alloc, p);
            return plan_out_of_memory(op, err);
        }
    }

    static const char *const elems[9] = {NULL, kernel_name_SCATTER_ND_ELEMS_X1, kernel_name_SCATTER_ND_ELEMS_X2,
                                         NULL, kernel_name_SCATTER_ND_ELEMS_X4, NULL,
                                         NULL, NULL, kernel_name_SCATTER_ND_ELEMS_X8};
    op->kernel_name = p->kind == S_ELEMS ? elems[esize]
                    : p->kind == S_ROWS  ? (p->marks.mem ? KERNEL_NAME(SCATTER_ND_ROWS_SKIP) : KERNEL_NAME(SCATTER_ND_ROWS))
                                         : KERNEL_NAME(SCATTER_ND_SLICES);
    op->plan = p;
    op->plan_free = scatter_free;
    op->kernel = scatter_kernel;
    return DMLREF_OK;
}
