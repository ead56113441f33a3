/*
 * Strided copies (the copy_plan of plan.h) and the JOIN / SPLIT fast paths.
 *
 * JOIN and SPLIT move each piece's slab [a_k, inner...] once per coordinate of
 * the dims before Axis ("outer").  When every piece's slab collapses to one
 * contiguous block, the kernel walks the outer coordinates and copies every
 * piece's block at each of them (join.inner), or, when a block exceeds a chunk,
 * runs chunk-sized units of every block (join.chunked): one pass over the
 * whole tensor, whatever the block size.  Otherwise each piece is its own
 * strided copy (join.strided).
 */
#include "plan.h"
#include "simd/simd.h"

#include <stdlib.h>

#define COPY_CHUNK (UINT64_C(256) << 10) /* bytes per unit when a block is split */

/* The nest is filled (st[0] dst, st[1] src, two's complement): collapse, fold,
 * chunking and the row kernel. */
static void copy_plan_finish(copy_plan *cp, uint64_t esize) {
    static const int want[2] = {1, 1};
    nest_collapse(&cp->nest, 2);
    cp->block = nest_fold(&cp->nest, 2, esize, want);
    cp->chunk = cp->block > COPY_CHUNK ? COPY_CHUNK : cp->block;
    cp->chunks = (cp->block + cp->chunk - 1) / cp->chunk;
    cp->units = cp->nest.points * cp->chunks;
    /* Only the source may walk backwards (copy_plan_init_view flips the rest). */
    const int rev = nest_st_negative(cp->nest.st[1][cp->nest.m - 1]);
    switch (cp->block) {
    case 1: cp->kind = rev ? COPY_REV_X1 : COPY_X1; break;
    case 2: cp->kind = rev ? COPY_REV_X2 : COPY_X2; break;
    case 4: cp->kind = rev ? COPY_REV_X4 : COPY_X4; break;
    case 8: cp->kind = rev ? COPY_REV_X8 : COPY_X8; break;
    case 16: cp->kind = rev ? COPY_REV_X16 : COPY_X16; break;
    default:
        if (cp->block >= 256) cp->kind = rev ? COPY_REV_BLOCK : COPY_BLOCK;
        else cp->kind = rev ? COPY_REV_SMALL : COPY_SMALL;
        break;
    }
    /* points * block: the bytes copied, at most the destination's span */
    cp->stream = cp->kind == COPY_SMALL && cp->block <= UINT64_MAX / (cp->nest.points ? cp->nest.points : 1) &&
                 plan_stream(cp->nest.points * cp->block);
}

void copy_plan_init(copy_plan *cp, uint32_t n, const uint64_t *sizes, const uint64_t *dst_bstrides,
                    const uint64_t *src_bstrides, uint64_t esize) {
    memset(cp, 0, sizeof *cp);
    cp->nest.m = n;
    for (uint32_t d = 0; d < n; ++d) {
        cp->nest.sizes[d] = sizes[d];
        cp->nest.st[0][d] = dst_bstrides[d];
        cp->nest.st[1][d] = src_bstrides[d];
    }
    copy_plan_finish(cp, esize);
}

void copy_plan_init_view(copy_plan *cp, uint32_t n, const uint64_t *sizes, const view_t *dst, const view_t *src,
                         uint64_t esize) {
    memset(cp, 0, sizeof *cp);
    cp->nest.m = n;
    /* Offsets are sums modulo 2^64 (plan.h): base + (size - 1) * st is the true offset of the
     * dimension's last point, which the view addresses. */
    uint64_t db = dst->base, sb = src->base;
    for (uint32_t d = 0; d < n; ++d) {
        uint64_t ds = (uint64_t)dst->st[d], ss = (uint64_t)src->st[d];
        if (dst->st[d] < 0 && sizes[d] > 1) { /* walk this dim backwards: dst forwards */
            db += (sizes[d] - 1) * ds;
            sb += (sizes[d] - 1) * ss;
            ds = 0 - ds;
            ss = 0 - ss;
        }
        cp->nest.sizes[d] = sizes[d];
        cp->nest.st[0][d] = ds;
        cp->nest.st[1][d] = ss;
    }
    cp->base[0] = db;
    cp->base[1] = sb;
    copy_plan_finish(cp, esize);
}

const char *copy_kind_part(int kind) {
    switch (kind) {
    case COPY_BLOCK: return "block";
    case COPY_X1: return "x1";
    case COPY_X2: return "x2";
    case COPY_X4: return "x4";
    case COPY_X8: return "x8";
    case COPY_X16: return "b16";
    case COPY_SMALL: return "small";
    case COPY_REV_X1: return "rev_x1";
    case COPY_REV_X2: return "rev_x2";
    case COPY_REV_X4: return "rev_x4";
    case COPY_REV_X8: return "rev_x8";
    case COPY_REV_X16: return "rev_b16";
    case COPY_REV_SMALL: return "rev_small";
    case COPY_T_X1: return "transpose_x1";
    case COPY_T_X2: return "transpose_x2";
    case COPY_T_X4: return "transpose_x4";
    case COPY_T_X8: return "transpose_x8";
    default: return "rev_block";
    }
}

void view_of_tensor(view_t *v, const tensor_t *t) {
    memset(v, 0, sizeof *v);
    for (uint32_t d = 0; d < t->n; ++d) v->st[d] = (int64_t)t->bstrides[d]; /* < 2^35: uint32 strides x 8 */
}

int view_window(view_t *v, const tensor_t *t, const uint32_t *sizes, const int64_t *start, const int64_t *step) {
    memset(v, 0, sizeof *v);
    for (uint32_t d = 0; d < t->n; ++d) {
        const uint64_t bs = t->bstrides[d]; /* < 2^35 */
        v->base += (uint64_t)start[d] * bs; /* start < t->sizes[d]: the sum stays within the span */
        if (sizes[d] == 1 || step[d] == 0 || bs == 0) continue;
        const uint64_t mag = step[d] < 0 ? 0 - (uint64_t)step[d] : (uint64_t)step[d];
        if (mag > (uint64_t)INT64_MAX / bs) return 0; /* |step * stride| >= 2^63 */
        v->st[d] = step[d] < 0 ? -(int64_t)(mag * bs) : (int64_t)(mag * bs);
    }
    return 1;
}

/* len elements of W bytes, strided on both sides: the width-specialized rows. */
#define STRIDED_ROW(W, T)                                                                   \
    static void row_x##W(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ss, \
                         uint64_t len) {                                                    \
        for (uint64_t i = 0; i < len; ++i) {                                                \
            T v;                                                                            \
            memcpy(&v, s + i * ss, sizeof v);                                               \
            memcpy(d + i * ds, &v, sizeof v);                                               \
        }                                                                                   \
    }
STRIDED_ROW(1, uint8_t)
STRIDED_ROW(2, uint16_t)
STRIDED_ROW(4, uint32_t)
STRIDED_ROW(8, uint64_t)

/* The same with the source walking backwards: element i at s - i * ns (ns = -stride > 0); a
 * run contiguous on both sides is one simd_reverse (its lowest source address first). */
#define REVERSED_ROW(W, T)                                                                        \
    static void rrow_x##W(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ns,      \
                          uint64_t len) {                                                         \
        if (ds == W && ns == W) {                                                                 \
            simd_reverse_x##W(d, s - (len - 1) * W, (size_t)len);                                 \
            return;                                                                               \
        }                                                                                         \
        for (uint64_t i = 0; i < len; ++i) {                                                      \
            T v;                                                                                  \
            memcpy(&v, s - i * ns, sizeof v);                                                     \
            memcpy(d + i * ds, &v, sizeof v);                                                     \
        }                                                                                         \
    }
REVERSED_ROW(1, uint8_t)
REVERSED_ROW(2, uint16_t)
REVERSED_ROW(4, uint32_t)
REVERSED_ROW(8, uint64_t)

static void row_b16(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ss, uint64_t len) {
    for (uint64_t i = 0; i < len; ++i) simd_copy16(d + i * ds, s + i * ss);
}

#define SMALL_AHEAD 8 /* rows */
static void rows_small_stream(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ss, uint64_t len,
                              uint64_t b) {
    for (uint64_t i = 0; i < len; ++i) {
        if (i + SMALL_AHEAD < len) {
            const unsigned char *p = s + (i + SMALL_AHEAD) * ss;
            for (uint64_t k = 0; k < b; k += 64) PREFETCH_R(p + k);
            PREFETCH_R(p + b - 1);
        }
        simd_copy_stream(d + i * ds, s + i * ss, (size_t)b);
    }
}

/* ---- transposing copies (copy_plan_transpose) ------------------------------ */

/* A tile: TILE_P elements along the destination's contiguous dim (p) by TILE_Q along the
 * source's (q), consecutive tiles along q.  So a thread reads TILE_P source rows
 * sequentially, streams few enough for the hardware prefetcher to follow, TILE_Q elements of
 * each per tile, and writes TILE_Q destination runs of TILE_P elements per tile (streaming
 * stores for widths 4 and 8).  Measured on 64 MiB transposes with one thread: FLOAT32
 * 4096 x 4096, 20 ms with 32 x 32 tiles walked along p, 15.4 ms with them walked along q,
 * 11.5 ms with 16 (p) x 64 (q); 8-byte elements 10.8 -> 4.4 ms, 2-byte 144 -> 70 ms, 1-byte
 * 204 -> 63 ms.  16 along p was the best of 8, 16, 32 and 64 for every width; 32 to 128 along
 * q were within 2%. */
#define TILE_P 16u
#define TILE_Q 64u
/* The least stride (bytes) along the other side's contiguous dim that makes a copy a transpose
 * worth tiling: a cache line, below which the row kernels read whole lines anyway. */
#define TILE_MIN_STRIDE 64u

int copy_plan_transpose(copy_plan *cp) {
    nest_t *nt = &cp->nest;
    const uint64_t e = cp->block;
    int kind;
    switch (cp->kind) {
    case COPY_X1: kind = COPY_T_X1; break;
    case COPY_X2: kind = COPY_T_X2; break;
    case COPY_X4: kind = COPY_T_X4; break;
    case COPY_X8: kind = COPY_T_X8; break;
    default: return 0; /* blocks, reversed rows */
    }
    if (cp->chunks != 1 || nt->m < 2) return 0;
    uint32_t p = MAX_DIMS, q = MAX_DIMS;
    for (uint32_t d = 0; d < nt->m; ++d) {
        if (nt->st[0][d] == e && nt->st[1][d] >= TILE_MIN_STRIDE && !nest_st_negative(nt->st[1][d])) p = d;
        if (nt->st[1][d] == e && nt->st[0][d] >= TILE_MIN_STRIDE) q = d; /* st[0] >= 0 (plan.h) */
    }
    if (p == MAX_DIMS || q == MAX_DIMS) return 0;
    cp->tp = p;
    cp->tq = q;
    cp->tiles_p = (nt->sizes[p] + TILE_P - 1) / TILE_P;
    cp->tiles_q = (nt->sizes[q] + TILE_Q - 1) / TILE_Q;
    cp->units = nt->points / nt->sizes[p] / nt->sizes[q] * cp->tiles_p * cp->tiles_q;
    cp->kind = kind;
    cp->stream = plan_stream(nt->points * e);
    return 1;
}

/* One tile: a < na along q (the source's contiguous dim), b < nb along p (the destination's).
 * Widths 4 and 8 go in K x K blocks transposed in registers (simd_transpose_x4, _x8: K rows
 * of the source in, K rows of the destination out), the edges element by element; widths 1
 * and 2 element by element. */
#define TILE_SCALAR(W, T)                                                                          \
    static void tile_scalar_x##W(unsigned char *d, uint64_t dq, const unsigned char *s, uint64_t sp, \
                                 uint64_t a0, uint64_t na, uint64_t b0, uint64_t nb) {              \
        for (uint64_t a = a0; a < na; ++a)                                                          \
            for (uint64_t b = b0; b < nb; ++b) {                                                    \
                T v;                                                                                \
                memcpy(&v, s + a * W + b * sp, W);                                                  \
                memcpy(d + a * dq + b * W, &v, W);                                                  \
            }                                                                                       \
    }
TILE_SCALAR(1, uint8_t)
TILE_SCALAR(2, uint16_t)
TILE_SCALAR(4, uint32_t)
TILE_SCALAR(8, uint64_t)

#define TILE_BLOCKS(W, K)                                                                                      \
    static void tile_x##W(unsigned char *d, uint64_t dq, const unsigned char *s, uint64_t sp, uint64_t na,     \
                          uint64_t nb, int stream) {                                                           \
        const uint64_t ka = na - na % K, kb = nb - nb % K;                                                     \
        for (uint64_t a = 0; a < ka; a += K)                                                                   \
            for (uint64_t b = 0; b < kb; b += K)                                                               \
                simd_transpose_x##W(d + a * dq + b * W, (size_t)dq, s + a * W + b * sp, (size_t)sp, stream);   \
        tile_scalar_x##W(d, dq, s, sp, 0, ka, kb, nb); /* the right edge */                                    \
        tile_scalar_x##W(d, dq, s, sp, ka, na, 0, nb); /* the bottom edge */                                   \
    }
TILE_BLOCKS(4, 4)
TILE_BLOCKS(8, 2)

static void transpose_run(const copy_plan *cp, unsigned char *dst, const unsigned char *src, uint64_t lo,
                          uint64_t hi) {
    const nest_t *nt = &cp->nest;
    const uint32_t p = cp->tp, q = cp->tq;
    const uint64_t dq = nt->st[0][q], sp = nt->st[1][p];
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t iq = u % cp->tiles_q, ip = u / cp->tiles_q % cp->tiles_p;
        uint64_t o = u / cp->tiles_p / cp->tiles_q, od = cp->base[0], os = cp->base[1];
        for (uint32_t d = nt->m; d-- > 0;) { /* the point of the other dims */
            if (d == p || d == q) continue;
            const uint64_t c = o % nt->sizes[d];
            o /= nt->sizes[d];
            od += c * nt->st[0][d];
            os += c * nt->st[1][d];
        }
        const uint64_t a0 = iq * TILE_Q, b0 = ip * TILE_P;
        const uint64_t na = nt->sizes[q] - a0 < TILE_Q ? nt->sizes[q] - a0 : TILE_Q;
        const uint64_t nb = nt->sizes[p] - b0 < TILE_P ? nt->sizes[p] - b0 : TILE_P;
        unsigned char *d = dst + (od + a0 * dq + b0 * nt->st[0][p]);
        const unsigned char *s = src + (os + a0 * nt->st[1][q] + b0 * sp);
        /* streaming stores where every row of the tile starts 16-aligned */
        const int stream = cp->stream && (((uintptr_t)d | (uintptr_t)dq) & 15) == 0;
        switch (cp->kind) {
        case COPY_T_X1: tile_scalar_x1(d, dq, s, sp, 0, na, 0, nb); break;
        case COPY_T_X2: tile_scalar_x2(d, dq, s, sp, 0, na, 0, nb); break;
        case COPY_T_X4: tile_x4(d, dq, s, sp, na, nb, stream); break;
        default: tile_x8(d, dq, s, sp, na, nb, stream); break;
        }
    }
    if (cp->stream) simd_stream_fence();
}

void copy_plan_run(const copy_plan *cp, unsigned char *dst, const unsigned char *src, uint64_t lo, uint64_t hi) {
    const nest_t *nt = &cp->nest;
    if (cp->kind >= COPY_T_X1) {
        transpose_run(cp, dst, src, lo, hi);
        return;
    }
    const uint64_t db = cp->base[0], sb = cp->base[1];
    if (cp->chunks > 1) { /* a few huge blocks, split into chunks */
        for (uint64_t u = lo; u < hi; ++u) {
            uint64_t off[NEST_K];
            const uint64_t ch = u % cp->chunks;
            nest_offsets(nt, u / cp->chunks, off);
            const uint64_t at = ch * cp->chunk, len = cp->block - at < cp->chunk ? cp->block - at : cp->chunk;
            memcpy(dst + (db + off[0]) + at, src + (sb + off[1]) + at, (size_t)len);
        }
        return;
    }
    /* ns: the magnitude of a negative source stride (COPY_REV_*) */
    const uint64_t ds = nt->st[0][nt->m - 1], ss = nt->st[1][nt->m - 1], ns = 0 - ss, b = cp->block;
    nest_it it;
    for (int more = nest_rows_begin(nt, &it, lo, hi); more; more = nest_rows_next(nt, &it)) {
        unsigned char *d = dst + (db + it.off[0]);
        const unsigned char *s = src + (sb + it.off[1]);
        switch (cp->kind) {
        case COPY_X1: row_x1(d, ds, s, ss, it.len); break;
        case COPY_X2: row_x2(d, ds, s, ss, it.len); break;
        case COPY_X4: row_x4(d, ds, s, ss, it.len); break;
        case COPY_X8: row_x8(d, ds, s, ss, it.len); break;
        case COPY_X16: row_b16(d, ds, s, ss, it.len); break;
        case COPY_BLOCK:
            for (uint64_t i = 0; i < it.len; ++i) memcpy(d + i * ds, s + i * ss, (size_t)b);
            break;
        case COPY_SMALL:
            if (cp->stream) rows_small_stream(d, ds, s, ss, it.len, b);
            else
                for (uint64_t i = 0; i < it.len; ++i) simd_copy_small(d + i * ds, s + i * ss, (size_t)b);
            break;
        case COPY_REV_X1: rrow_x1(d, ds, s, ns, it.len); break;
        case COPY_REV_X2: rrow_x2(d, ds, s, ns, it.len); break;
        case COPY_REV_X4: rrow_x4(d, ds, s, ns, it.len); break;
        case COPY_REV_X8: rrow_x8(d, ds, s, ns, it.len); break;
        case COPY_REV_X16:
            for (uint64_t i = 0; i < it.len; ++i) simd_copy16(d + i * ds, s - i * ns);
            break;
        case COPY_REV_SMALL:
            for (uint64_t i = 0; i < it.len; ++i) simd_copy_small(d + i * ds, s - i * ns, (size_t)b);
            break;
        default: /* COPY_REV_BLOCK */
            for (uint64_t i = 0; i < it.len; ++i) memcpy(d + i * ds, s - i * ns, (size_t)b);
            break;
        }
    }
    if (cp->stream) simd_stream_fence();
}

/* ---- JOIN / SPLIT --------------------------------------------------------- */

#define CONCAT_MAX_INNER_PIECES 64u /* the inner walk keeps one offset per piece on the stack */
#define CONCAT_BATCH_BYTES (UINT64_C(4) << 10) /* inner walk: bytes of the whole per batch of rows */

enum { CONCAT_INNER, CONCAT_CHUNKED, CONCAT_STRIDED, CONCAT_MODES };

typedef struct concat_piece {
    uint64_t block;          /* bytes of the piece's slab (inner / chunked modes) */
    uint64_t chunks, prefix; /* chunked mode: units of this piece, and of earlier ones */
    uint64_t base;           /* byte offset of the piece's origin in the whole       */
    uint64_t ost[MAX_DIMS];  /* strides of the outer dims in the piece               */
    uint32_t nth;            /* strided mode: threads for this piece                 */
    copy_plan cp;            /* strided mode: the whole piece as one copy            */
} concat_piece;

typedef struct concat_plan {
    int split, mode;
    uint32_t count, nth;
    uint32_t om;                           /* outer dims (collapsed over all tensors) */
    uint64_t osz[MAX_DIMS], wst[MAX_DIMS]; /* their sizes, and strides in the whole   */
    uint64_t opoints;
    uint64_t upo;                          /* chunked mode: units per outer point     */
    concat_piece pieces[];
} concat_plan;

typedef struct concat_ctx {
    const concat_plan *p;
    const exec_args *x;
    uint32_t k; /* strided mode: the piece */
} concat_ctx;

static unsigned char *piece_ptr(const concat_ctx *c, uint32_t k, unsigned char **whole_w,
                                const unsigned char **whole_r) {
    /* JOIN reads pieces (inputs) and writes the whole (output 0); SPLIT the reverse. */
    if (c->p->split) {
        *whole_w = NULL;
        *whole_r = IN_DATA(c->x, 0);
        return OUT_DATA(c->x, k);
    }
    *whole_w = OUT_DATA(c->x, 0);
    *whole_r = NULL;
    return (unsigned char *)(uintptr_t)IN_DATA(c->x, k);
}

/* Outer points [lo, hi); at each, every piece's block. */
static void concat_inner_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const concat_ctx *c = vc;
    const concat_plan *p = c->p;
    const uint32_t count = p->count, om = p->om, last = om - 1;
    unsigned char *ptr[CONCAT_MAX_INNER_PIECES];
    unsigned char *ww = NULL;
    const unsigned char *wr = NULL;
    uint64_t coord[MAX_DIMS];
    for (uint32_t k = 0; k < count; ++k) ptr[k] = piece_ptr(c, k, &ww, &wr);
    unsigned char *whole = p->split ? (unsigned char *)(uintptr_t)wr : ww;
    const int split = p->split;

    uint64_t o = lo;
    while (o < hi) {
        /* the row of the last outer dim that holds o */
        uint64_t q = o, woff = 0;
        for (uint32_t d = om; d-- > 0;) {
            coord[d] = q % p->osz[d];
            q /= p->osz[d];
            woff += coord[d] * p->wst[d];
        }
        const uint64_t run = p->osz[last] - coord[last] < hi - o ? p->osz[last] - coord[last] : hi - o;
        const uint64_t wstep = p->wst[last];
        uint64_t pbase[CONCAT_MAX_INNER_PIECES];
        for (uint32_t k = 0; k < count; ++k) {
            uint64_t poff = 0;
            for (uint32_t d = 0; d < om; ++d) poff += coord[d] * p->pieces[k].ost[d];
            pbase[k] = poff;
        }
        /* A batch of rows of the whole at a time, each piece's blocks of the
         * batch in one tight strided loop: the piece side is one sequential
         * run, and the whole's batch stays in L1 between the pieces. */
        const uint64_t batch = wstep < CONCAT_BATCH_BYTES ? CONCAT_BATCH_BYTES / (wstep ? wstep : 1) : 1;
        for (uint64_t j0 = 0; j0 < run; j0 += batch) {
            const uint64_t nj = run - j0 < batch ? run - j0 : batch;
            for (uint32_t k = 0; k < count; ++k) {
                const concat_piece *pc = &p->pieces[k];
                const uint64_t ps = pc->ost[last], b = pc->block;
                unsigned char *pp = ptr[k] + pbase[k] + j0 * ps, *wp = whole + woff + j0 * wstep + pc->base;
                unsigned char *d = split ? pp : wp;
                const unsigned char *s = split ? wp : pp;
                const uint64_t ds = split ? ps : wstep, ss = split ? wstep : ps;
                if (b == 16)
                    for (uint64_t j = 0; j < nj; ++j) simd_copy16(d + j * ds, s + j * ss);
                else
                    for (uint64_t j = 0; j < nj; ++j) simd_copy_block(d + j * ds, s + j * ss, (size_t)b);
            }
        }
        o += run;
    }
}

static void concat_chunked_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const concat_ctx *c = vc;
    const concat_plan *p = c->p;
    unsigned char *ww = NULL;
    const unsigned char *wr = NULL;
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t o = u / p->upo, r = u % p->upo;
        uint32_t a = 0, b = p->count; /* last piece with prefix <= r */
        while (b - a > 1) {
            const uint32_t mid = a + (b - a) / 2;
            if (p->pieces[mid].prefix <= r) a = mid;
            else b = mid;
        }
        const concat_piece *pc = &p->pieces[a];
        const uint64_t at = (r - pc->prefix) * COPY_CHUNK;
        const uint64_t len = pc->block - at < COPY_CHUNK ? pc->block - at : COPY_CHUNK;
        uint64_t q = o, woff = 0, poff = 0;
        for (uint32_t d = p->om; d-- > 0;) {
            const uint64_t cd = q % p->osz[d];
            q /= p->osz[d];
            woff += cd * p->wst[d];
            poff += cd * pc->ost[d];
        }
        unsigned char *pp = piece_ptr(c, a, &ww, &wr) + poff + at;
        if (p->split) memcpy(pp, wr + woff + pc->base + at, (size_t)len);
        else memcpy(ww + woff + pc->base + at, pp, (size_t)len);
    }
}

static void concat_strided_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const concat_ctx *c = vc;
    const concat_piece *pc = &c->p->pieces[c->k];
    unsigned char *ww = NULL;
    const unsigned char *wr = NULL;
    unsigned char *pp = piece_ptr(c, c->k, &ww, &wr);
    if (c->p->split) copy_plan_run(&pc->cp, pp, wr + pc->base, lo, hi);
    else copy_plan_run(&pc->cp, ww + pc->base, pp, lo, hi);
}

static dmlref_status concat_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const concat_plan *p = op->plan;
    concat_ctx c = {p, x, 0};
    (void)err;
    switch (p->mode) {
    case CONCAT_INNER: run_ranges(p->nth, p->opoints, concat_inner_range, &c); break;
    case CONCAT_CHUNKED: run_ranges(p->nth, p->opoints * p->upo, concat_chunked_range, &c); break;
    default:
        for (c.k = 0; c.k < p->count; ++c.k)
            run_ranges(p->pieces[c.k].nth, p->pieces[c.k].cp.units, concat_strided_range, &c);
        break;
    }
    return DMLREF_OK;
}

static void concat_free(void *p) { free(p); }

dmlref_status plan_concat(op_t *op, int split, uint32_t a, dmlref_error *err) {
    const uint32_t count = split ? op->n_outputs : op->n_inputs;
    const tensor_t *whole = split ? &op->inputs[0] : &op->outputs[0];
    const tensor_t *pieces = split ? op->outputs : op->inputs;
    const uint32_t n = whole->n;
    const uint64_t esize = whole->esize;
    (void)err;

    concat_plan *p = calloc(1, sizeof *p + (size_t)count * sizeof(concat_piece));
    if (!p) return DMLREF_OK; /* no memory for a plan: the oracle stays */
    p->split = split;
    p->count = count;

    /* outer dims: drop size 1, merge where adjacent in the whole and every piece */
    uint32_t om = 0;
    for (uint32_t d = 0; d < a; ++d) {
        if (whole->sizes[d] == 1) continue;
        int adj = om > 0;
        if (adj) {
            if (!stride_adjacent(p->wst[om - 1], whole->bstrides[d], whole->sizes[d])) adj = 0;
            for (uint32_t k = 0; adj && k < count; ++k)
                if (!stride_adjacent(p->pieces[k].ost[om - 1], pieces[k].bstrides[d], pieces[k].sizes[d])) adj = 0;
        }
        if (adj) {
            p->osz[om - 1] *= whole->sizes[d];
            p->wst[om - 1] = whole->bstrides[d];
            for (uint32_t k = 0; k < count; ++k) p->pieces[k].ost[om - 1] = pieces[k].bstrides[d];
        } else {
            p->osz[om] = whole->sizes[d];
            p->wst[om] = whole->bstrides[d];
            for (uint32_t k = 0; k < count; ++k) p->pieces[k].ost[om] = pieces[k].bstrides[d];
            ++om;
        }
    }
    if (om == 0) {
        p->osz[0] = 1;
        om = 1;
    }
    p->om = om;
    p->opoints = 1;
    for (uint32_t d = 0; d < om; ++d) p->opoints *= p->osz[d];

    /* each piece's slab: one block? */
    int all_blocks = count <= CONCAT_MAX_INNER_PIECES;
    uint64_t base = 0, min_block = UINT64_MAX, max_block = 0, upo = 0, total = 0;
    for (uint32_t k = 0; k < count; ++k) {
        concat_piece *pc = &p->pieces[k];
        const tensor_t *t = &pieces[k];
        pc->base = base * whole->bstrides[a];
        base += t->sizes[a];
        copy_plan sub;
        const uint64_t *dst = split ? t->bstrides : whole->bstrides, *src = split ? whole->bstrides : t->bstrides;
        uint64_t sizes[MAX_DIMS];
        for (uint32_t d = 0; d < n; ++d) sizes[d] = t->sizes[d];
        copy_plan_init(&sub, n - a, sizes + a, dst + a, src + a, esize);
        if (sub.nest.points != 1) all_blocks = 0;
        pc->block = sub.block;
        pc->chunks = (sub.block + COPY_CHUNK - 1) / COPY_CHUNK;
        pc->prefix = upo;
        upo += pc->chunks;
        if (sub.block < min_block) min_block = sub.block;
        if (sub.block > max_block) max_block = sub.block;
        /* the strided fallback: the whole piece as one copy */
        copy_plan_init(&pc->cp, n, sizes, dst, src, esize);
        pc->nth = plan_threads(op, t->elements * esize);
        total += t->elements * esize;
    }
    p->upo = upo;
    p->nth = plan_threads(op, total);

    /* Blocks larger than a chunk always go out as chunk-sized memcpy units:
     * measured here, 256 KiB memcpy calls copy 64 MiB faster (about 135 GB/s
     * with 2 threads) than 2 MiB calls (about 105 GB/s), and spread evenly
     * over the threads however few outer points there are. */
    if (all_blocks && max_block <= COPY_CHUNK) p->mode = CONCAT_INNER;
    else if (all_blocks) p->mode = CONCAT_CHUNKED;
    else p->mode = CONCAT_STRIDED;
    /* one name per mode (the enum's order), and the instruction set */
    static const char *const names[2][CONCAT_MODES] = {
        {"join.inner." DMLREF_ISA, "join.chunked." DMLREF_ISA, "join.strided." DMLREF_ISA},
        {"split.inner." DMLREF_ISA, "split.chunked." DMLREF_ISA, "split.strided." DMLREF_ISA}};
    op->kernel_name = names[split][p->mode];
    op->plan = p;
    op->plan_free = concat_free;
    op->kernel = concat_kernel;
    return DMLREF_OK;
}
