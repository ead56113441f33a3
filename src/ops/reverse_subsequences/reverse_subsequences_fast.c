/*
 * REVERSE_SUBSEQUENCES' fast path (reverse_subsequences.h; the class, its
 * rules and its oracle are op_reverse_subsequences.c), bit-identical to the
 * oracle and tested against it on random cases.
 *
 * The sequences are the points of every dimension but Axis
 * (collapsed at compile time over Output, Input and SequenceLengths); the
 * innermost of them is the "run" dimension.  At execute each thread walks a
 * range of sequences, reads their lengths and groups neighbours along the run
 * dimension that share a length into a run of r sequences.  A run is two
 * copies: its reversed prefix, a view of the input whose stride along Axis is
 * negative (base at element L - 1), and its tail [L, n), a forward view; both
 * go through copy_plan_init_view on the stack (nothing is allocated).  When
 * Axis is the innermost dimension ("rows") each sequence is a row reversed by
 * the rev_x* kernels (the SIMD reverse on contiguous rows); when it is an outer
 * one ("blocks") the run is a block of the inner dimensions, and the copy moves
 * whole blocks in reversed row order.  Runs of a few hundred bytes or less are
 * copied element by element instead (a plan would cost more than the copy).
 */
#include "ops/kernels.h"
#include "reverse_subsequences.h"

#include <stdlib.h>
#include <string.h>

/* A run of at most this many bytes (sequences x axis size x element size) is
 * copied element by element: below it, building its two copy plans costs more
 * than the copy. */
#define RS_PLAN_MIN 256u

typedef struct rs_plan {
    nest_t seq;          /* the sequences: every dim but Axis (st: output, input, lengths) */
    int run_after_axis;  /* seq's innermost dim follows Axis in the tensors ("blocks") */
    uint64_t n;          /* Input.Sizes[Axis]                                          */
    int64_t ost, ist;    /* byte strides along Axis: output, input                     */
    int64_t ors, irs;    /* byte strides along the run dim: output, input              */
    uint64_t lrs;        /* ... and lengths                                            */
    uint32_t esize, ldtype;
    uint32_t nth;
} rs_plan;

typedef struct rs_ctx {
    const rs_plan *p;
    const exec_args *x;
} rs_ctx;

/* One element of type T from s to d: a copy per width (T), or with DMLREF_SMALL (a
 * small target) one copy of each loop below, the width p->esize switched per element. */
#if DMLREF_SMALL
static inline void rs_put(unsigned char *d, const unsigned char *s, uint32_t es) {
    switch (es) {
    case 1: d[0] = s[0]; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, 8); break;
    }
}
#define RS_PUT(T, d, s) rs_put(d, s, p->esize)
#define RS_BY_WIDTH(M) M(uint8_t)
#else
#define RS_PUT(T, d, s)                                                                                 \
    do {                                                                                                \
        T v;                                                                                            \
        memcpy(&v, s, sizeof v);                                                                        \
        memcpy(d, &v, sizeof v);                                                                        \
    } while (0)
#define RS_BY_WIDTH(M)                                                                                  \
    switch (p->esize) {                                                                                 \
    case 1: M(uint8_t) break;                                                                           \
    case 2: M(uint16_t) break;                                                                          \
    case 4: M(uint32_t) break;                                                                          \
    default: M(uint64_t) break;                                                                         \
    }
#endif

/* Element by element: sequence q of the run at output ob + q * ors, input ib + q * irs. */
#define RS_SMALL(T)                                                                                     \
    for (uint64_t q = 0; q < r; ++q) {                                                                  \
        unsigned char *d = out + ob + q * (uint64_t)p->ors;                                             \
        const unsigned char *s = in + ib + q * (uint64_t)p->irs;                                        \
        for (uint64_t k = 0; k < n; ++k)                                                                \
            RS_PUT(T, d + k * (uint64_t)p->ost, s + (k < L ? L - 1 - k : k) * (uint64_t)p->ist);        \
    }

/* r sequences of length L (0: nothing reversed) whose coordinate 0 along Axis
 * is at output offset ob and input offset ib. */
static void rs_run(const rs_plan *p, unsigned char *out, const unsigned char *in, uint64_t ob, uint64_t ib,
                   uint64_t L, uint64_t r) {
    const uint64_t n = p->n;
    /* a small target: always element by element (no copy plan on the stack) */
    if (DMLREF_SMALL || r * n * p->esize <= RS_PLAN_MIN) {
        RS_BY_WIDTH(RS_SMALL)
        return;
    }
    /* two dims in the tensors' order: (Axis, run) for blocks, (run, Axis) for rows */
    const uint32_t ax = p->run_after_axis ? 0 : 1, rd = 1 - ax;
    uint64_t sizes[2];
    view_t dv, sv;
    copy_plan cp;
    mem_zero(&dv, sizeof dv);
    mem_zero(&sv, sizeof sv);
    sizes[rd] = r;
    dv.st[rd] = p->ors;
    sv.st[rd] = p->irs;
    if (L > 0) { /* the reversed prefix: input elements L - 1, ..., 0 along Axis */
        sizes[ax] = L;
        dv.base = ob;
        dv.st[ax] = p->ost;
        sv.base = ib + (L - 1) * (uint64_t)p->ist;
        sv.st[ax] = -p->ist;
        copy_plan_init_view(&cp, 2, sizes, &dv, &sv, p->esize);
        copy_plan_run(&cp, out, in, 0, cp.units);
    }
    if (L < n) { /* the tail: elements L, ..., n - 1 as they are */
        sizes[ax] = n - L;
        dv.base = ob + L * (uint64_t)p->ost;
        dv.st[ax] = p->ost;
        sv.base = ib + L * (uint64_t)p->ist;
        sv.st[ax] = p->ist;
        copy_plan_init_view(&cp, 2, sizes, &dv, &sv, p->esize);
        copy_plan_run(&cp, out, in, 0, cp.units);
    }
}

/* Narrow runs of the blocks mode (fewer than RS_WIDE bytes of a row: a column of
 * single elements, say) are batched, up to RS_TILE neighbouring sequences, and
 * copied row by row along Axis: each output row of the batch is written in one
 * pass, and the batch's input columns stay in cache from one row to the next
 * (copying each run on its own would walk the rows once per run). */
#if DMLREF_SMALL /* a small target: r and L below 256 bytes (a batch of 16 on the stack) */
#define RS_WIDE 16u
#define RS_TILE 16u
#else
#define RS_WIDE 64u
#define RS_TILE 64u
#endif

typedef struct rs_batch {
    uint32_t runs;                      /* runs in the batch                          */
    uint64_t seqs;                      /* sequences in them                          */
    uint64_t ob, ib;                    /* offsets of the first one (Axis coordinate 0) */
    uint64_t r[RS_TILE], L[RS_TILE];    /* each run: its sequences and their length   */
} rs_batch;

#define RS_BATCH(T)                                                                                     \
    for (uint64_t k = 0; k < n; ++k) {                                                                  \
        unsigned char *d = out + b->ob + k * (uint64_t)p->ost;                                          \
        const unsigned char *s = in + b->ib;                                                            \
        uint64_t q = 0;                                                                                 \
        for (uint32_t u = 0; u < b->runs; ++u) {                                                        \
            const uint64_t L = b->L[u], row = (k < L ? L - 1 - k : k) * (uint64_t)p->ist;                \
            for (const uint64_t end = q + b->r[u]; q < end; ++q) RS_PUT(T, d + q * ors, s + q * irs + row); \
        }                                                                                               \
    }

static void rs_flush(const rs_plan *p, unsigned char *out, const unsigned char *in, rs_batch *b) {
    const uint64_t n = p->n, ors = (uint64_t)p->ors, irs = (uint64_t)p->irs;
    if (!b->runs) return;
    RS_BY_WIDTH(RS_BATCH)
    b->runs = 0;
    b->seqs = 0;
}

/* The sequences [lo, hi): row segments of the run dim, split into runs of equal length. */
static void rs_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const rs_ctx *c = vc;
    const rs_plan *p = c->p;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0), *lens = IN_DATA(c->x, 1);
    const uint64_t n = p->n, ors = (uint64_t)p->ors, irs = (uint64_t)p->irs, lrs = p->lrs;
    rs_batch b;
    nest_it it;
    (void)part;
    b.runs = 0;
    b.seqs = 0;
    for (int more = nest_rows_begin(&p->seq, &it, lo, hi); more; more = nest_rows_next(&p->seq, &it)) {
        const unsigned char *lp = lens + it.off[2];
        uint64_t j = 0, L = seq_length(lp, p->ldtype, n);
        if (L == 1) L = 0; /* one element reversed is itself */
        for (uint64_t e = 1; e <= it.len; ++e) {
            uint64_t Le = 0;
            if (e < it.len) {
                Le = seq_length(lp + e * lrs, p->ldtype, n);
                if (Le == 1) Le = 0;
                if (Le == L) continue;
            }
            const uint64_t r = e - j, ob = it.off[0] + j * ors, ib = it.off[1] + j * irs;
            if (!p->run_after_axis || r * p->esize >= RS_WIDE) {
                rs_flush(p, out, in, &b);
                rs_run(p, out, in, ob, ib, L, r);
            } else { /* narrow: r < RS_WIDE <= RS_TILE, so it fits an empty batch */
                if (b.seqs + r > RS_TILE) rs_flush(p, out, in, &b);
                if (!b.runs) {
                    b.ob = ob;
                    b.ib = ib;
                }
                b.r[b.runs] = r;
                b.L[b.runs++] = L;
                b.seqs += r;
            }
            j = e;
            L = Le;
        }
        rs_flush(p, out, in, &b); /* the next row segment is elsewhere */
    }
}

static dmlref_status rs_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const rs_ctx c = {op->plan, x};
    (void)err;
    run_ranges(op, c.p->nth, c.p->seq.points, rs_range, &c);
    return DMLREF_OK;
}

static void rs_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_reverse_subsequences(op_t *op, uint32_t a, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *len = &op->inputs[1], *out = &op->outputs[0];
    (void)err;
    rs_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    /* the dims before Axis and those after it, each collapsed on its own (Axis separates them) */
    nest_t part[2];
    mem_zero(part, sizeof part);
    for (uint32_t d = 0; d < in->n; ++d) {
        if (d == a) continue;
        nest_t *nt = &part[d > a];
        nt->sizes[nt->m] = in->sizes[d];
        nt->st[0][nt->m] = out->bstrides[d];
        nt->st[1][nt->m] = in->bstrides[d];
        nt->st[2][nt->m] = len->bstrides[d];
        nt->m++;
    }
    for (int k = 0; k < 2; ++k) nest_collapse(&part[k], 3); /* {1} when empty or all 1s */
    const int inner = part[1].points > 1;
    nest_t *seq = &p->seq;
    for (int k = 0; k < 2; ++k) {
        if (part[k].points == 1) continue;
        for (uint32_t d = 0; d < part[k].m; ++d) {
            seq->sizes[seq->m] = part[k].sizes[d];
            for (uint32_t t = 0; t < NEST_K; ++t) seq->st[t][seq->m] = part[k].st[t][d];
            seq->m++;
        }
    }
    if (seq->m == 0) { /* one sequence */
        seq->m = 1;
        seq->sizes[0] = 1;
    }
    seq->points = 1;
    for (uint32_t d = 0; d < seq->m; ++d) seq->points *= seq->sizes[d];
    const uint32_t last = seq->m - 1;
    p->run_after_axis = inner;
    p->n = in->sizes[a];
    p->ost = (int64_t)out->bstrides[a]; /* < 2^35 */
    p->ist = (int64_t)in->bstrides[a];
    p->ors = (int64_t)seq->st[0][last];
    p->irs = (int64_t)seq->st[1][last];
    p->lrs = seq->st[2][last];
    p->esize = in->esize;
    p->ldtype = len->dtype;
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    op->plan = p;
    op->plan_free = rs_free;
    op->kernel = rs_kernel;
    op->kernel_name = inner ? KERNEL_NAME(REVERSE_SUBSEQUENCES_BLOCKS) : KERNEL_NAME(REVERSE_SUBSEQUENCES_ROWS);
    return DMLREF_OK;
}
