/*
 * GATHER, GATHER_ELEMENTS and GATHER_ND(1) fast paths.
 *
 * One file of about 690 lines, on purpose: the five kernels below (rows,
 * axis_last, axis_last_shared, axis_first and GATHER_ND's tuples) run over one
 * plan (gather_plan) and one context, are dispatched by one gather_kernel and
 * planned through one gather_finish, and the first four share the
 * width-specialized element movers (gather_elems, gather2, the streaming x4/x8
 * loops), static so that each kernel gets them inlined.  The tuples kernel is
 * the one separable part (about 80 lines); moving it out would put
 * gather_plan's layout in a header two files share, for a file still read as
 * one planner.
 *
 * All are planned as one loop nest over the output's coordinates c with three
 * byte-stride vectors: out (st[0]), input without its Axis term (st[1]) and
 * indices (st[2]):
 *     out[c . st0] = in[c . st1 + norm(ix[c . st2]) * AxisStride]
 * (GATHER: st1 is zero on the index dims, st2 zero off them; GATHER_ELEMENTS:
 * st1 is zero on Axis; GATHER_ND: batch dims have both, the index grid's dims
 * only st2, the trailing block's dims only st1, and the index tuple at
 * c . st2 has T components, one per gathered input dim.)  GATHER_ND with
 * T = 1 is exactly that form and takes the kernels below; with T >= 2 it takes
 * `tuples` (the last entry).  After collapsing, the innermost dim decides the
 * kernel:
 *
 *   rows        a contiguous block of the input per index (Axis not innermost):
 *               one index read, one block copy, row i + ROW_AHEAD prefetched
 *               while row i is copied; with a large output and blocks of at
 *               least 64 bytes, written with streaming stores (rows_stream,
 *               as tuples_stream below)
 *   axis_last   the index varies along the innermost dim and the input does not
 *               (gather along the innermost axis): indices normalized a chunk at
 *               a time, then a width-specialized element gather; when the
 *               indices are the same for every outer row (GATHER) a chunk is
 *               normalized once and reused for all rows
 *   axis_first  index and input both vary along the innermost dim
 *               (GATHER_ELEMENTS on an outer axis): column-blocked walk, a block
 *               of columns over all rows of the axis.  On a large input the
 *               block's input columns are first copied into a scratch slab
 *               (axis_first_slab): a column block of a row-major tensor is
 *               scattered over a few cache sets (rows a power of two apart
 *               share sets), so in place it never stays cached, while the
 *               contiguous slab does and every random read hits it
 *   generic     anything else: the rows kernel with one element per index
 *   tuples      GATHER_ND with T >= 2 components per index tuple: the input
 *               offsets of a chunk of points are computed first (T clamped
 *               components each, index.h's policy), then the blocks copied,
 *               row i + ROW_AHEAD prefetched while row i is copied; with a
 *               large output and blocks of at least 64 bytes the blocks go
 *               out with streaming stores (tuples_stream: the output lines
 *               are not read for ownership, blocks this small being below
 *               memcpy's own non-temporal threshold)
 */
#include "ops/kernels.h"
#include "gather_fast.h"
#include "simd/simd.h"

#include <stdlib.h>

#if DMLREF_SMALL                /* a small target: every buffer below 256 bytes      */
#define NORM_CHUNK 64u
#define SHARED_CHUNK 64u
#define TUPLE_CHUNK 32u
#define COLBLOCK_BYTES 64u
#else
#define NORM_CHUNK 512u         /* indices normalized per step (stack)              */
#define SHARED_CHUNK 4096u      /* axis_last with shared indices: per chunk (stack) */
#define TUPLE_CHUNK NORM_CHUNK  /* tuples: input offsets per step (stack)           */
#define COLBLOCK_BYTES 256u     /* axis_first: output bytes per column block         */
#endif
#define ROW_AHEAD 8u            /* rows: random rows prefetched this far ahead       */
#define PREFETCH_ROWS 16u       /* axis_first: rows ahead to prefetch                */
#define PF_ROW_MAX (UINT64_C(64) << 10) /* axis_last_shared: next input rows prefetched up to this */
#define SLAB_BYTES (UINT64_C(512) << 10)     /* axis_first_slab: one slab (A x columns)  */
#define SLAB_MIN_DEFAULT (UINT64_C(1) << 20) /* input planes below this stay cached as is */
#define SLAB_MAX_PARTS 16u                   /* slabs per plan (8 MiB at most)            */

enum { G_ROWS, G_AXIS_LAST, G_AXIS_LAST_SHARED, G_AXIS_FIRST, G_TUPLES };

typedef struct gather_plan {
    nest_t nest;
    uint64_t block, esize;
    uint64_t A, as;   /* the input's Axis size and byte stride */
    uint32_t ixtype;
    int kind;
    uint32_t nth;
    uint64_t units;   /* partition units                        */
    uint64_t cb;      /* axis_first: columns per block          */
    uint64_t nblocks; /* axis_first: column blocks per row      */
    scratch_t slab;   /* axis_first_slab: one slab per part     */
    /* tuples (GATHER_ND, T >= 2): component c of the tuple at q is read at
     * q + c * cs, clamped into [0, bound[c]) and moves the input by ist[c] */
    uint32_t t;
    uint64_t cs, bound[MAX_DIMS], ist[MAX_DIMS];
    int stream;       /* rows, axis_last_shared, tuples: written with streaming stores */
} gather_plan;

typedef struct gather_ctx {
    const gather_plan *p;
    const exec_args *x;
    unsigned char *slab; /* the claimed slabs, or NULL */
} gather_ctx;

#if DMLREF_SMALL
/* A small target: one loop per mover, the element width (1, 2, 4 or 8 bytes) a
 * switch per element (the same bytes; host builds: one loop per width, below). */
static inline void move_w(unsigned char *d, const unsigned char *s, uint64_t w) {
    switch (w) {
    case 1: d[0] = s[0]; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    default: memcpy(d, s, 8); break;
    }
}

static void gather_elems(uint64_t w, unsigned char *out, uint64_t os, const unsigned char *in, uint64_t as,
                         const uint32_t *nidx, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) move_w(out + i * os, in + nidx[i] * as, w);
}
#else
/* Width-specialized element gathers: out[i * os] = in[nidx[i] * as]. */
#define GATHER_ELEMS(W, T)                                                                        \
    static void gather_x##W(unsigned char *out, uint64_t os, const unsigned char *in, uint64_t as, \
                            const uint32_t *nidx, uint64_t n) {                                   \
        if (os == W) {                                                                            \
            for (uint64_t i = 0; i < n; ++i) {                                                    \
                T v;                                                                              \
                memcpy(&v, in + nidx[i] * as, W);                                                 \
                memcpy(out + i * W, &v, W);                                                       \
            }                                                                                     \
        } else {                                                                                  \
            for (uint64_t i = 0; i < n; ++i) {                                                    \
                T v;                                                                              \
                memcpy(&v, in + nidx[i] * as, W);                                                 \
                memcpy(out + i * os, &v, W);                                                      \
            }                                                                                     \
        }                                                                                         \
    }
GATHER_ELEMS(1, uint8_t)
GATHER_ELEMS(2, uint16_t)
GATHER_ELEMS(4, uint32_t)
GATHER_ELEMS(8, uint64_t)

static void gather_elems(uint64_t w, unsigned char *out, uint64_t os, const unsigned char *in, uint64_t as,
                         const uint32_t *nidx, uint64_t n) {
    switch (w) {
    case 1: gather_x1(out, os, in, as, nidx, n); break;
    case 2: gather_x2(out, os, in, as, nidx, n); break;
    case 4: gather_x4(out, os, in, as, nidx, n); break;
    default: gather_x8(out, os, in, as, nidx, n); break;
    }
}
#endif

/* gather_xW into a packed destination with streaming stores, 16 bytes at a time (W = 4, 8):
 * out[i] = in[nidx[i] * as]; the head up to 16-byte alignment and the tail stored plainly. */
static void gather_stream_x4(unsigned char *out, const unsigned char *in, uint64_t as, const uint32_t *nidx,
                             uint64_t n) {
    uint64_t i = 0;
    for (; i < n && ((uintptr_t)(out + i * 4) & 15); ++i) memcpy(out + i * 4, in + nidx[i] * as, 4);
#if DMLREF_SIMD
    for (; i + 4 <= n; i += 4) {
        int32_t v0, v1, v2, v3; /* in registers: a staged array would stall on store forwarding */
        memcpy(&v0, in + nidx[i] * as, 4);
        memcpy(&v1, in + nidx[i + 1] * as, 4);
        memcpy(&v2, in + nidx[i + 2] * as, 4);
        memcpy(&v3, in + nidx[i + 3] * as, 4);
        simde_mm_stream_si128((simde__m128i *)(void *)(out + i * 4), simde_mm_set_epi32(v3, v2, v1, v0));
    }
#endif
    for (; i < n; ++i) memcpy(out + i * 4, in + nidx[i] * as, 4);
}

static void gather_stream_x8(unsigned char *out, const unsigned char *in, uint64_t as, const uint32_t *nidx,
                             uint64_t n) {
    uint64_t i = 0;
    for (; i < n && ((uintptr_t)(out + i * 8) & 15); ++i) memcpy(out + i * 8, in + nidx[i] * as, 8);
#if DMLREF_SIMD
    for (; i + 2 <= n; i += 2) {
        int64_t v0, v1;
        memcpy(&v0, in + nidx[i] * as, 8);
        memcpy(&v1, in + nidx[i + 1] * as, 8);
        simde_mm_stream_si128((simde__m128i *)(void *)(out + i * 8), simde_mm_set_epi64x(v1, v0));
    }
#endif
    for (; i < n; ++i) memcpy(out + i * 8, in + nidx[i] * as, 8);
}

/* Normalization fused into the element gather for 64-bit indices (INT64 or
 * UINT64): out[i * os] = in[norm(ix[i * js]) * as].  The in-range test is one
 * unsigned compare once index_load_clamp (index.h, the policy's one
 * definition) is inlined.  No intermediate index array,
 * so each index is read once and used at once.
 *
 * The reads of the input row are random, so the hardware prefetcher cannot
 * follow them and each first touch of a line would stall; instead the next
 * row's lines (pf, pflines of them, NULL for none) are prefetched one per
 * `step` elements while this row is gathered. */
#if DMLREF_SMALL
static void gather64(uint64_t w, unsigned char *out, uint64_t os, const unsigned char *in, uint64_t as,
                     const unsigned char *ix, uint64_t js, uint32_t dtype, uint64_t A, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) move_w(out + i * os, in + index_load_clamp64(ix + i * js, dtype, A) * as, w);
}
#else
#define GATHER_FUSED64(W, T)                                                                              \
    static void gather64_x##W(unsigned char *out, uint64_t os, const unsigned char *in, uint64_t as,       \
                              const unsigned char *ix, uint64_t js, uint32_t dtype, uint64_t A, uint64_t n, \
                              const unsigned char *pf, uint64_t pflines) {                               \
        const uint64_t step = pf && pflines && n / pflines ? n / pflines : n ? n : 1;                     \
        for (uint64_t i0 = 0, line = 0; i0 < n; i0 += step, ++line) {                                     \
            const uint64_t i1 = n - i0 < step ? n : i0 + step;                                            \
            if (pf && line < pflines) PREFETCH_R(pf + line * 64);                                         \
            if (os == W && js == 8) { /* both packed: constant strides */                                \
                for (uint64_t i = i0; i < i1; ++i) {                                                      \
                    const uint64_t v = index_load_clamp64(ix + i * 8, dtype, A);                          \
                    T e;                                                                                  \
                    memcpy(&e, in + v * as, W);                                                           \
                    memcpy(out + i * W, &e, W);                                                           \
                }                                                                                         \
            } else {                                                                                      \
                for (uint64_t i = i0; i < i1; ++i) {                                                      \
                    const uint64_t v = index_load_clamp64(ix + i * js, dtype, A);                         \
                    T e;                                                                                  \
                    memcpy(&e, in + v * as, W);                                                           \
                    memcpy(out + i * os, &e, W);                                                          \
                }                                                                                         \
            }                                                                                             \
        }                                                                                                 \
    }
GATHER_FUSED64(1, uint8_t)
GATHER_FUSED64(2, uint16_t)
GATHER_FUSED64(4, uint32_t)
GATHER_FUSED64(8, uint64_t)
#endif

static int index_is64(uint32_t dtype) {
    return dtype == DMLREF_TENSOR_DATA_TYPE_INT64 || dtype == DMLREF_TENSOR_DATA_TYPE_UINT64;
}

/* out[i * os] = in[i * is + nidx[i] * as] (axis_first's inner step). */
#if DMLREF_SMALL
static void gather2(uint64_t w, unsigned char *out, uint64_t os, const unsigned char *in, uint64_t is, uint64_t as,
                    const uint32_t *nidx, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) move_w(out + i * os, in + i * is + nidx[i] * as, w);
}
#else
#define GATHER_ELEMS2(W, T)                                                                        \
    static void gather2_x##W(unsigned char *out, uint64_t os, const unsigned char *in, uint64_t is, \
                             uint64_t as, const uint32_t *nidx, uint64_t n) {                      \
        for (uint64_t i = 0; i < n; ++i) {                                                         \
            T v;                                                                                   \
            memcpy(&v, in + i * is + nidx[i] * as, W);                                             \
            memcpy(out + i * os, &v, W);                                                           \
        }                                                                                          \
    }
GATHER_ELEMS2(1, uint8_t)
GATHER_ELEMS2(2, uint16_t)
GATHER_ELEMS2(4, uint32_t)
GATHER_ELEMS2(8, uint64_t)

/* gather2_xW by element width w (1, 2, 4 or 8). */
static void gather2(uint64_t w, unsigned char *out, uint64_t os, const unsigned char *in, uint64_t is, uint64_t as,
                    const uint32_t *nidx, uint64_t n) {
    switch (w) {
    case 1: gather2_x1(out, os, in, is, as, nidx, n); break;
    case 2: gather2_x2(out, os, in, is, as, nidx, n); break;
    case 4: gather2_x4(out, os, in, is, as, nidx, n); break;
    default: gather2_x8(out, os, in, is, as, nidx, n); break;
    }
}
#endif

/* Points [lo, hi): one index each, a block copy each. */
static void rows_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const gather_ctx *c = vc;
    const gather_plan *p = c->p;
    const nest_t *nt = &p->nest;
    const uint32_t l = nt->m - 1;
    const uint64_t os = nt->st[0][l], is = nt->st[1][l], js = nt->st[2][l], b = p->block, as = p->as;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0), *ix = IN_DATA(c->x, 1);
    uint32_t nidx[NORM_CHUNK];
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {
        for (uint64_t i0 = 0; i0 < it.len; i0 += NORM_CHUNK) {
            const uint64_t n = it.len - i0 < NORM_CHUNK ? it.len - i0 : NORM_CHUNK;
            simd_index_norm(ix + it.off[2] + i0 * js, js, p->ixtype, p->A, n, nidx);
            unsigned char *o = out + it.off[0] + i0 * os;
            const unsigned char *s = in + it.off[1] + i0 * is;
            if (b >= 64 && (p->stream || b >= 256)) {
                /* random rows: start fetching row i + ROW_AHEAD while row i is copied */
                for (uint64_t i = 0; i < n; ++i) {
                    if (i + ROW_AHEAD < n && b <= 4096) {
                        const unsigned char *nx = s + (i + ROW_AHEAD) * is + nidx[i + ROW_AHEAD] * as;
                        prefetch_range(nx, b);
                    }
                    if (p->stream) simd_copy_stream(o + i * os, s + i * is + nidx[i] * as, (size_t)b);
                    else memcpy(o + i * os, s + i * is + nidx[i] * as, (size_t)b);
                }
            } else if (b == 16) {
                for (uint64_t i = 0; i < n; ++i) simd_copy16(o + i * os, s + i * is + nidx[i] * as);
            } else if (b == 1 || b == 2 || b == 4 || b == 8) {
                gather2(b, o, os, s, is, as, nidx, n);
            } else {
                for (uint64_t i = 0; i < n; ++i) simd_copy_small(o + i * os, s + i * is + nidx[i] * as, (size_t)b);
            }
        }
    }
    if (p->stream) simd_stream_fence();
}

/* Points [lo, hi) of a nest whose innermost dim walks the index (and not the input). */
static void axis_last_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const gather_ctx *c = vc;
    const gather_plan *p = c->p;
    const nest_t *nt = &p->nest;
    const uint32_t l = nt->m - 1;
    const uint64_t os = nt->st[0][l], js = nt->st[2][l];
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0), *ix = IN_DATA(c->x, 1);
    uint32_t nidx[NORM_CHUNK];
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {
        if (index_is64(p->ixtype)) { /* fused: one pass over the row */
            unsigned char *o = out + it.off[0];
            const unsigned char *s = in + it.off[1], *q = ix + it.off[2];
            /* the next input row, when it exists and its A elements are contiguous */
            const unsigned char *pf = NULL;
            if (nt->m >= 2 && p->as == p->esize && it.c[l - 1] + 1 < nt->sizes[l - 1]) pf = s + nt->st[1][l - 1];
#if DMLREF_SMALL
            (void)pf;
            gather64(p->esize, o, os, s, p->as, q, js, p->ixtype, p->A, it.len);
#else
            const uint64_t pfl = (p->A * p->esize + 63) / 64;
            switch (p->esize) {
            case 1: gather64_x1(o, os, s, p->as, q, js, p->ixtype, p->A, it.len, pf, pfl); break;
            case 2: gather64_x2(o, os, s, p->as, q, js, p->ixtype, p->A, it.len, pf, pfl); break;
            case 4: gather64_x4(o, os, s, p->as, q, js, p->ixtype, p->A, it.len, pf, pfl); break;
            default: gather64_x8(o, os, s, p->as, q, js, p->ixtype, p->A, it.len, pf, pfl); break;
            }
#endif
            continue;
        }
        for (uint64_t i0 = 0; i0 < it.len; i0 += NORM_CHUNK) {
            const uint64_t n = it.len - i0 < NORM_CHUNK ? it.len - i0 : NORM_CHUNK;
            simd_index_norm(ix + it.off[2] + i0 * js, js, p->ixtype, p->A, n, nidx);
            gather_elems(p->esize, out + it.off[0] + i0 * os, os, in + it.off[1], p->as, nidx, n);
        }
    }
}

/* The same when the indices do not depend on the outer dims: each chunk of
 * the innermost dim is normalized once and used for every row of the range. */
static void axis_last_shared_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const gather_ctx *c = vc;
    const gather_plan *p = c->p;
    const nest_t *nt = &p->nest;
    const uint32_t l = nt->m - 1;
    const uint64_t L = nt->sizes[l], os = nt->st[0][l], js = nt->st[2][l];
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0), *ix = IN_DATA(c->x, 1);
    uint32_t nidx[SHARED_CHUNK];
    /* the columns this range touches: all of them unless it lies within one row */
    const uint64_t first = lo / L == (hi - 1) / L ? lo % L : 0;
    const uint64_t end = lo / L == (hi - 1) / L ? (hi - 1) % L + 1 : L;
    for (uint64_t c0 = first; c0 < end; c0 += SHARED_CHUNK) {
        const uint64_t c1 = end - c0 < SHARED_CHUNK ? end : c0 + SHARED_CHUNK;
        /* the next row's input prefetched whole when the chunk is the whole row, the row is
         * contiguous along the axis and small enough to stay cached */
        const int pf_next = c0 == 0 && c1 == L && nt->m >= 2 && p->as == p->esize && p->A * p->esize <= PF_ROW_MAX;
        simd_index_norm(ix + c0 * js, js, p->ixtype, p->A, c1 - c0, nidx);
        nest_it it;
        for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {
            const uint64_t s = it.c[l], e = s + it.len; /* this row segment's columns */
            const uint64_t a = s > c0 ? s : c0, b = e < c1 ? e : c1;
            if (a >= b) continue;
            if (pf_next && it.c[l - 1] + 1 < nt->sizes[l - 1]) { /* the next row's lines, read at random */
                const unsigned char *nx = in + it.off[1] + nt->st[1][l - 1];
                prefetch_range(nx, p->A * p->esize);
            }
            unsigned char *o = out + it.off[0] + (a - s) * os;
            if (p->stream && p->esize == 4) gather_stream_x4(o, in + it.off[1], p->as, nidx + (a - c0), b - a);
            else if (p->stream) gather_stream_x8(o, in + it.off[1], p->as, nidx + (a - c0), b - a);
            else gather_elems(p->esize, o, os, in + it.off[1], p->as, nidx + (a - c0), b - a);
        }
    }
}

/* Columns [j0, j0 + n) of one outer point's (R, L) plane, for every row: the
 * rows are strided, so the next rows' index and output lines are prefetched
 * (the hardware does not follow such strides).  With a slab (A x n elements,
 * rows n * esize apart), the block's input columns at every position of the
 * axis are first copied into it, and the rows then read from the slab. */
static void axis_first_block(const gather_plan *p, const exec_args *x, uint64_t outer, uint64_t j0, uint64_t n,
                             unsigned char *slab) {
    const nest_t *nt = &p->nest;
    const uint32_t l = nt->m - 1, r = nt->m - 2;
    const uint64_t L = nt->sizes[l], R = nt->sizes[r], es = p->esize;
    const uint64_t os = nt->st[0][l], js = nt->st[2][l], ros = nt->st[0][r], rjs = nt->st[2][r];
    uint64_t is = nt->st[1][l], ris = nt->st[1][r], as = p->as;
    uint32_t nidx[COLBLOCK_BYTES];
    uint64_t off[NEST_K];
    nest_offsets(nt, outer * R * L, off); /* the first point of this outer point's (R, L) plane */
    unsigned char *o = OUT_DATA(x, 0) + off[0] + j0 * os;
    const unsigned char *s = IN_DATA(x, 0) + off[1] + j0 * is, *q = IN_DATA(x, 1) + off[2] + j0 * js;
    if (slab) { /* ris is 0 here: the rows are the axis */
        for (uint64_t v = 0; v < p->A; ++v) {
            const unsigned char *sv = s + v * as;
            unsigned char *d = slab + v * n * es;
            /* prefetch addresses stay inside the row's elements (never past the buffer's end) */
            if (v + PREFETCH_ROWS < p->A)
                prefetch_range(sv + PREFETCH_ROWS * as, (n - 1) * is + 1);
            if (is == es) memcpy(d, sv, (size_t)(n * es));
            else
                for (uint64_t j = 0; j < n; ++j) memcpy(d + j * es, sv + j * is, (size_t)es);
        }
        s = slab;
        is = es;
        as = n * es;
    }
    for (uint64_t i = 0; i < R; ++i) {
        if (i + PREFETCH_ROWS < R) {
            const unsigned char *qn = q + (i + PREFETCH_ROWS) * rjs;
            unsigned char *on = o + (i + PREFETCH_ROWS) * ros;
            /* up to the row's last element, not n strides on (which may lie past the buffer) */
            prefetch_range(qn, (n - 1) * js + 1);
            prefetch_range_w(on, (n - 1) * os + 1);
        }
        simd_index_norm(q + i * rjs, js, p->ixtype, p->A, n, nidx);
        gather2(es, o + i * ros, os, s + i * ris, is, as, nidx, n);
    }
}

/* Units [lo, hi) = (outer point, column block); each walks every row of the
 * second-innermost dim for its columns, through this part's slab when the
 * execution holds the plan's slabs. */
static void axis_first_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const gather_ctx *c = vc;
    const gather_plan *p = c->p;
    const uint64_t L = p->nest.sizes[p->nest.m - 1];
    unsigned char *slab = c->slab && part < p->slab.parts ? c->slab + part * p->slab.part_bytes : NULL;
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t outer = u / p->nblocks, j0 = (u % p->nblocks) * p->cb;
        axis_first_block(p, c->x, outer, j0, L - j0 < p->cb ? L - j0 : p->cb, slab);
    }
}

/*
 * Whether axis_first reads through slabs, and their size: when the rows of the
 * walk are the axis itself (the input moves along them only through the
 * index), the input plane (A x L elements) is at least DMLREF_SLAB_MIN bytes
 * (default 1 MiB; smaller planes stay cached as they are), a block of at
 * least 64 bytes (or the whole row) fits in SLAB_BYTES at every position of
 * the axis, and the R rows reuse a slab enough to pay for copying it
 * (R >= A / 16).  The slabs are allocated here, once, for at most
 * SLAB_MAX_PARTS thread parts; further parts walk without one.
 */
static int plan_slab(const op_t *op, gather_plan *p) {
    const nest_t *nt = &p->nest;
    const uint32_t l = nt->m - 1, r = nt->m - 2;
    const uint64_t A = p->A, L = nt->sizes[l], R = nt->sizes[r], es = p->esize;
    if (nt->st[1][r] != 0 || R * 16 < A) return 0;
    if (A * L * es < env_bytes(ENV_SLAB_MIN, SLAB_MIN_DEFAULT)) return 0; /* A * L: input elements, < 2^32 */
    uint64_t cb = SLAB_BYTES / (A * es);
    if (cb > L) cb = L;
    if (cb > COLBLOCK_BYTES) cb = COLBLOCK_BYTES; /* the nidx buffer */
    if (cb == 0 || (cb * es < 64 && cb < L)) return 0;
    const int got = scratch_init(&p->slab, &op->alloc, p->nth < SLAB_MAX_PARTS ? p->nth : SLAB_MAX_PARTS,
                                 (size_t)(A * cb * es));
    if (got == 1) p->cb = cb;
    return got;
}

/* The input byte offset of the index tuple at q: its T components clamped
 * (index.h's policy, inlined) and scaled by their input strides. */
static inline uint64_t tuple_offset(const gather_plan *p, const unsigned char *q) {
    uint64_t off = 0;
    if (index_is64(p->ixtype))
        for (uint32_t c = 0; c < p->t; ++c) off += index_load_clamp64(q + c * p->cs, p->ixtype, p->bound[c]) * p->ist[c];
    else
        for (uint32_t c = 0; c < p->t; ++c) off += index_load_clamp(q + c * p->cs, p->ixtype, p->bound[c]) * p->ist[c];
    return off;
}

/* n blocks of W bytes (1, 2, 4 or 8): out[i * os] = s[src[i]]. */
#if DMLREF_SMALL
static void tuple_elems(uint64_t w, unsigned char *o, uint64_t os, const unsigned char *s, const uint64_t *src,
                        uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) move_w(o + i * os, s + src[i], w);
}
#else
#define TUPLE_ELEMS(W, T)                                                                                   \
    static void tuple_elems_x##W(unsigned char *o, uint64_t os, const unsigned char *s, const uint64_t *src, \
                                 uint64_t n) {                                                              \
        for (uint64_t i = 0; i < n; ++i) {                                                                  \
            T v;                                                                                            \
            memcpy(&v, s + src[i], W);                                                                      \
            memcpy(o + i * os, &v, W);                                                                      \
        }                                                                                                   \
    }
TUPLE_ELEMS(1, uint8_t)
TUPLE_ELEMS(2, uint16_t)
TUPLE_ELEMS(4, uint32_t)
TUPLE_ELEMS(8, uint64_t)
#endif

/* Points [lo, hi) of GATHER_ND with T >= 2: per chunk of a row, every point's
 * input offset first (one tuple each, or one for the whole row when the
 * tuple does not move along it), then the blocks. */
static void tuples_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const gather_ctx *c = vc;
    const gather_plan *p = c->p;
    const nest_t *nt = &p->nest;
    const uint32_t l = nt->m - 1;
    const uint64_t os = nt->st[0][l], is = nt->st[1][l], js = nt->st[2][l], b = p->block;
    unsigned char *out = OUT_DATA(c->x, 0);
    const unsigned char *in = IN_DATA(c->x, 0), *ix = IN_DATA(c->x, 1);
    uint64_t src[TUPLE_CHUNK]; /* input offsets from the chunk's first point */
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {
        const uint64_t row_tuple = js == 0 ? tuple_offset(p, ix + it.off[2]) : 0;
        for (uint64_t i0 = 0; i0 < it.len; i0 += TUPLE_CHUNK) {
            const uint64_t n = it.len - i0 < TUPLE_CHUNK ? it.len - i0 : TUPLE_CHUNK;
            const unsigned char *q = ix + it.off[2] + i0 * js;
            if (js == 0)
                for (uint64_t i = 0; i < n; ++i) src[i] = row_tuple + i * is;
            else
                for (uint64_t i = 0; i < n; ++i) src[i] = tuple_offset(p, q + i * js) + i * is;
            unsigned char *o = out + it.off[0] + i0 * os;
            const unsigned char *s = in + it.off[1] + i0 * is;
            if (b >= 64 && (p->stream || b >= 256)) {
                /* random rows: start fetching row i + ROW_AHEAD while row i is copied */
                for (uint64_t i = 0; i < n; ++i) {
                    if (i + ROW_AHEAD < n && b <= 4096)
                        prefetch_range(s + src[i + ROW_AHEAD], b);
                    if (p->stream) simd_copy_stream(o + i * os, s + src[i], (size_t)b);
                    else memcpy(o + i * os, s + src[i], (size_t)b);
                }
            } else if (b == 16) {
                for (uint64_t i = 0; i < n; ++i) simd_copy16(o + i * os, s + src[i]);
#if DMLREF_SMALL
            } else if (b == 1 || b == 2 || b == 4 || b == 8) {
                tuple_elems(b, o, os, s, src, n);
#else
            } else if (b == 1) {
                tuple_elems_x1(o, os, s, src, n);
            } else if (b == 2) {
                tuple_elems_x2(o, os, s, src, n);
            } else if (b == 4) {
                tuple_elems_x4(o, os, s, src, n);
            } else if (b == 8) {
                tuple_elems_x8(o, os, s, src, n);
#endif
            } else {
                for (uint64_t i = 0; i < n; ++i) simd_copy_small(o + i * os, s + src[i], (size_t)b);
            }
        }
    }
    if (p->stream) simd_stream_fence();
}

static dmlref_status gather_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    /* DMLREF_SMALL plans no axis_last_shared, no axis_first (gather_finish): not linked */
    static const range_fn fns[] = {rows_range, axis_last_range, DMLREF_SMALL ? NULL : axis_last_shared_range,
                                   DMLREF_SMALL ? NULL : axis_first_range, tuples_range};
    const gather_plan *p = op->plan;
    gather_ctx c = {p, x, NULL};
    (void)err;
    if (p->kind == G_AXIS_FIRST) c.slab = scratch_claim(&p->slab);
    run_ranges(op, p->nth, p->units, fns[p->kind], &c);
    if (c.slab) scratch_release(&p->slab);
    return DMLREF_OK;
}

static void gather_free(const dmlref_allocator *al, void *vp) {
    gather_plan *p = vp;
    scratch_free(&p->slab, al);
    mem_free(al, p);
}

/* The operator families whose names the plans carry (the rows of `names` below). */
enum { FAM_GATHER, FAM_GATHER_ELEMENTS, FAM_GATHER_ND, FAM_N };

/* The common part of the planners: p->nest holds the output's sizes and the
 * three stride vectors (out, input without the gathered dim, indices), the
 * gathered dim has size A and byte stride as.  Collapses and folds the nest,
 * picks the kernel and names it. */
static dmlref_status gather_finish(op_t *op, gather_plan *p, int fam, uint64_t A, uint64_t as, dmlref_error *err) {
    const tensor_t *ix = &op->inputs[1], *out = &op->outputs[0];
    nest_t *nt = &p->nest;
    nest_collapse(nt, 3);
    static const int want[3] = {1, 1, 0};
    p->esize = out->esize;
    p->block = nest_fold(nt, 3, p->esize, want);
    p->A = A;
    p->as = as;
    p->ixtype = ix->dtype;
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    p->units = nt->points;

    const uint32_t l = nt->m - 1;
    const uint64_t is = nt->st[1][l], js = nt->st[2][l];
    enum { K_ROWS, K_AXIS_LAST, K_AXIS_FIRST, K_GENERIC, K_AXIS_FIRST_SLAB, K_ROWS_STREAM, K_AXIS_LAST_STREAM, K_NAMES } ki; /* the name's row */
    if (p->block > p->esize || nt->points == 1) {
        p->kind = G_ROWS;
        ki = K_ROWS;
        p->stream = p->block >= 64 && plan_stream(out->elements * out->esize);
        if (p->stream) ki = K_ROWS_STREAM;
    } else if (js != 0 && is == 0) {
        int shared = 1;
        for (uint32_t d = 0; d < l; ++d)
            if (nt->st[2][d] != 0) shared = 0;
        /* DMLREF_SMALL: the indices normalized per row even when shared (axis_last_range:
         * the same elements, the same kernel name), so that one loop is linked, not two */
        p->kind = !DMLREF_SMALL && shared && nt->m > 1 ? G_AXIS_LAST_SHARED : G_AXIS_LAST;
        ki = K_AXIS_LAST;
        /* shared indices into a packed row of 4- or 8-byte elements: streamed when large */
        p->stream = p->kind == G_AXIS_LAST_SHARED && (p->esize == 4 || p->esize == 8) && nt->st[0][l] == p->esize &&
                    plan_stream(out->elements * out->esize);
        if (p->stream) ki = K_AXIS_LAST_STREAM;
    } else if (!DMLREF_SMALL && js != 0 && nt->m >= 2) {
        /* DMLREF_SMALL: generic instead (the rows kernel, one element per index: the same
         * elements); the column blocks and the slab are for the caches */
        p->kind = G_AXIS_FIRST;
        p->cb = COLBLOCK_BYTES / p->esize;
        if (plan_slab(op, p) < 0) {
            gather_free(&op->alloc, p);
            return plan_out_of_memory(op, err);
        }
        p->nblocks = (nt->sizes[l] + p->cb - 1) / p->cb;
        p->units = nt->points / (nt->sizes[l] * nt->sizes[l - 1]) * p->nblocks;
        ki = p->slab.mem ? K_AXIS_FIRST_SLAB : K_AXIS_FIRST;
    } else {
        p->kind = G_ROWS;
        ki = K_GENERIC;
    }
#define W4(o, k) {kernel_name_##o##_##k##_X1, kernel_name_##o##_##k##_X2, kernel_name_##o##_##k##_X4, kernel_name_##o##_##k##_X8}
#define W1(o, k) {kernel_name_##o##_##k, kernel_name_##o##_##k, kernel_name_##o##_##k, kernel_name_##o##_##k}
#define W1S(o, k) {KERNEL_STREAM_NAME(o##_##k), KERNEL_STREAM_NAME(o##_##k), KERNEL_STREAM_NAME(o##_##k), KERNEL_STREAM_NAME(o##_##k)}
#define W48(o, k) {NULL, NULL, KERNEL_STREAM_NAME(o##_##k##_X4), KERNEL_STREAM_NAME(o##_##k##_X8)}
#define NONE {NULL, NULL, NULL, NULL}
#if DMLREF_SMALL /* no axis_first (above) */
#define W4F(o, k) NONE
#else
#define W4F(o, k) W4(o, k)
#endif
    /* GATHER never takes axis_first: each output dimension comes from either the
     * input or the indices, never both, so the innermost one never varies in both.
     * axis_last_stream: 4- and 8-byte elements only (p->stream above). */
    static const char *const names[FAM_N][K_NAMES][4] = {
        {W1(GATHER, ROWS), W4(GATHER, AXIS_LAST), NONE, W4(GATHER, GENERIC), NONE, W1S(GATHER, ROWS_STREAM),
         W48(GATHER, AXIS_LAST_STREAM)},
        {W1(GATHER_ELEMENTS, ROWS), W4(GATHER_ELEMENTS, AXIS_LAST), W4F(GATHER_ELEMENTS, AXIS_FIRST),
         W4(GATHER_ELEMENTS, GENERIC), W4F(GATHER_ELEMENTS, AXIS_FIRST_SLAB), W1S(GATHER_ELEMENTS, ROWS_STREAM),
         W48(GATHER_ELEMENTS, AXIS_LAST_STREAM)},
        {W1(GATHER_ND, ROWS), W4(GATHER_ND, AXIS_LAST), W4F(GATHER_ND, AXIS_FIRST), W4(GATHER_ND, GENERIC),
         W4F(GATHER_ND, AXIS_FIRST_SLAB), W1S(GATHER_ND, ROWS_STREAM), W48(GATHER_ND, AXIS_LAST_STREAM)},
    };
#undef W4
#undef W1
#undef W1S
#undef W48
#undef W4F
#undef NONE
    const int wi = p->esize == 1 ? 0 : p->esize == 2 ? 1 : p->esize == 4 ? 2 : 3;
    const char *const name = names[fam][ki][wi];
    if (!name) { /* unreachable (see above); the oracle stays the kernel */
        gather_free(&op->alloc, p);
        return DMLREF_OK;
    }
    op->kernel_name = name;
    op->plan = p;
    op->plan_free = gather_free;
    op->kernel = gather_kernel;
    return DMLREF_OK;
}

/* The output's sizes and byte strides as the nest, the other two vectors zero. */
static gather_plan *gather_plan_new(op_t *op, const tensor_t *out) {
    gather_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return NULL;
    p->nest.m = out->n;
    for (uint32_t d = 0; d < out->n; ++d) {
        p->nest.sizes[d] = out->sizes[d];
        p->nest.st[0][d] = out->bstrides[d];
    }
    return p;
}

dmlref_status plan_gather(op_t *op, int elements, uint32_t a, uint32_t k, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const uint32_t n = out->n;
    gather_plan *p = gather_plan_new(op, out);
    if (!p) return plan_out_of_memory(op, err);
    nest_t *nt = &p->nest;
    if (elements) {
        for (uint32_t d = 0; d < n; ++d) {
            nt->st[1][d] = d == a ? 0 : in->bstrides[d];
            nt->st[2][d] = ix->bstrides[d];
        }
    } else { /* gather_map of op_gather.c, as strides */
        for (uint32_t d = a + 1; d < n; ++d) nt->st[1][d] = in->bstrides[d];
        for (uint32_t t = 0; t < k; ++t) nt->st[2][a + 1 - k + t] = ix->bstrides[n - k + t];
        for (uint32_t s = 0; s < a; ++s) {
            const int64_t od = (int64_t)a - (int64_t)k - (int64_t)s;
            if (od >= 0) nt->st[1][od] = in->bstrides[a - 1 - s];
        }
    }
    return gather_finish(op, p, elements ? FAM_GATHER_ELEMENTS : FAM_GATHER, in->sizes[a], in->bstrides[a], err);
}

/*
 * GATHER_ND / GATHER_ND1 (R = InputDimensionCount, Q = IndicesDimensionCount,
 * B = BatchDimensionCount, T = Indices.Sizes[N-1], M = (Q-1) + (R-B-T)): the
 * meaningful output dims [N-M, N) are the batch dims (input and indices move),
 * the rest of the index grid (indices only) and the trailing block (input
 * only), as gather_nd_map of gather_nd.c says.  The tuple's component c
 * indexes input dim N-R+B+c.  T = 1 is the form of the kernels above; T >= 2
 * takes `tuples`.
 */
dmlref_status plan_gather_nd(op_t *op, uint32_t r, uint32_t q, uint32_t b, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *ix = &op->inputs[1], *out = &op->outputs[0];
    const uint32_t n = out->n, t = ix->sizes[n - 1], m = (q - 1) + (r - b - t);
    gather_plan *p = gather_plan_new(op, out);
    if (!p) return plan_out_of_memory(op, err);
    nest_t *nt = &p->nest;
    for (uint32_t k = 0; k < m; ++k) {
        const uint32_t d = n - m + k;
        if (k < q - 1) nt->st[2][d] = ix->bstrides[n - q + k];               /* batch and index grid */
        if (k < b) nt->st[1][d] = in->bstrides[n - r + k];                   /* batch                */
        if (k >= q - 1) nt->st[1][d] = in->bstrides[n - r + b + t + (k - (q - 1))]; /* trailing block */
    }
    if (t == 1) return gather_finish(op, p, FAM_GATHER_ND, in->sizes[n - r + b], in->bstrides[n - r + b], err);

    nest_collapse(nt, 3);
    static const int want[3] = {1, 1, 0};
    p->esize = out->esize;
    p->block = nest_fold(nt, 3, p->esize, want);
    p->ixtype = ix->dtype;
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    p->units = nt->points;
    p->kind = G_TUPLES;
    p->t = t;
    p->cs = ix->bstrides[n - 1];
    for (uint32_t c = 0; c < t; ++c) {
        p->bound[c] = in->sizes[n - r + b + c];
        p->ist[c] = in->bstrides[n - r + b + c];
    }
    p->stream = p->block >= 64 && plan_stream(out->elements * out->esize);
    op->kernel_name = p->stream ? KERNEL_NAME(GATHER_ND_TUPLES_STREAM) : KERNEL_NAME(GATHER_ND_TUPLES);
    op->plan = p;
    op->plan_free = gather_free;
    op->kernel = gather_kernel;
    return DMLREF_OK;
}
