/*
 * Strided copies: the engine's copy_plan (plan.h), which every operator that
 * moves a view of one tensor into another uses (SLICE, TILE, PADDING's
 * interior, ELEMENT_WISE_IDENTITY, SCATTER_ND's first phase, JOIN / SPLIT's
 * strided pieces), and the views those copies are planned from.
 */
#include "plan.h"
#include "simd/simd.h"

#include <stdlib.h>

/* The nest is filled (st[0] dst, st[1] src, two's complement): collapse, fold,
 * chunking and the row kernel. */
static void copy_plan_finish(copy_plan *cp, uint64_t esize) {
    static const int want[2] = {1, 1};
    nest_collapse(&cp->nest, 2);
    cp->block = nest_fold(&cp->nest, 2, esize, want);
    cp->chunk = cp->block > COPY_CHUNK ? COPY_CHUNK : cp->block;
    cp->chunks = cp->block <= COPY_CHUNK ? 1 : (cp->block + cp->chunk - 1) / cp->chunk;
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
    cp->stream = (cp->kind == COPY_SMALL || cp->kind == COPY_BLOCK) &&
                 cp->block <= UINT64_MAX / (cp->nest.points ? cp->nest.points : 1) &&
                 plan_stream(cp->nest.points * cp->block);
}

void copy_plan_init(copy_plan *cp, uint32_t n, const uint64_t *sizes, const uint64_t *dst_bstrides,
                    const uint64_t *src_bstrides, uint64_t esize) {
    mem_zero(cp, sizeof *cp);
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
    mem_zero(cp, sizeof *cp);
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
    mem_zero(v, sizeof *v);
    for (uint32_t d = 0; d < t->n; ++d) v->st[d] = (int64_t)t->bstrides[d]; /* < 2^35: uint32 strides x 8 */
}

int view_window(view_t *v, const tensor_t *t, const uint32_t *sizes, const int64_t *start, const int64_t *step) {
    mem_zero(v, sizeof *v);
    for (uint32_t d = 0; d < t->n; ++d) {
        const uint64_t bs = t->bstrides[d]; /* < 2^35 */
        v->base += (uint64_t)start[d] * bs; /* start < t->sizes[d]: the sum stays within the span */
        if (sizes[d] == 1 || step[d] == 0 || bs == 0) continue;
        const uint64_t mag = step[d] < 0 ? 0 - (uint64_t)step[d] : (uint64_t)step[d];
        if (mag >> 28 && mag > (uint64_t)INT64_MAX / bs) return 0; /* |step * stride| >= 2^63 (bs < 2^35) */
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
            prefetch_range(p, b);
        }
        simd_copy_stream(d + i * ds, s + i * ss, (size_t)b);
    }
}

/* ---- transposing copies (copy_plan_transpose) ------------------------------ */
#if !DMLREF_SMALL /* a small target: no tiles (plan.h) */

/* A tile: tile_p(W) elements along the destination's contiguous dim (p) by tile_q(W) along the
 * source's (q), consecutive tiles along q: one cache line (64 bytes) of each of its source rows
 * and two (128 bytes) of each of its destination rows, whatever the width W.  A whole tile is
 * staged (tile_staged_x*): its source lines copied whole into a buffer, each read once and in
 * order, transposed there in K x K blocks into a second buffer of whole destination rows, and
 * each row then written out as two whole lines (streaming stores for a copy of at least
 * plan_stream's size).  Chosen on [4096,4096] transposes of 1, 2 and 4-byte elements with one
 * thread (2026-11-28, docs/performance.md): source rows 4 KiB apart or a multiple of it all
 * fall in one L1 set, so a tile that read a line's 16-byte columns one K-row block at a time
 * (the earlier 16 x 64 tiles) fetched each line up to four times; destination rows written a
 * single line each took three times as long to stream as runs of two lines or more. */
static uint64_t tile_p(uint64_t e) { return 128u / e; }
static uint64_t tile_q(uint64_t e) { return 64u / e; }
/* The least stride (bytes) along the other side's contiguous dim that makes a copy a transpose
 * worth tiling: a cache line, below which the row kernels read whole lines anyway. */
#define TILE_MIN_STRIDE 64u

int copy_plan_transpose(copy_plan *cp, int baseline) {
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
    cp->stream = plan_stream(nt->points * e);
    /* with streaming stores, one more tile along p: execute shifts the tiles so that every
     * one but the first starts its destination rows on a cache line (transpose_run), the
     * last then empty where the rows are aligned already */
    cp->tiles_p = (nt->sizes[p] + tile_p(e) - 1) / tile_p(e) + (cp->stream ? 1 : 0);
    cp->tiles_q = (nt->sizes[q] + tile_q(e) - 1) / tile_q(e) + 1; /* one more: transpose_run's shift along q */
    cp->units = nt->points / nt->sizes[p] / nt->sizes[q] * cp->tiles_p * cp->tiles_q;
    cp->kind = kind;
#if DMLREF_X86_AVX2
    cp->avx2 = !baseline && simd_cpu_avx2();
#else
    (void)baseline;
#endif
    return 1;
}

/* One tile: a < na along q (the source's contiguous dim), b < nb along p (the destination's).
 * Each width goes in K x K blocks transposed in registers (simd_transpose_x1, _x2, _x4, _x8:
 * K = 16, 8, 4, 2; K rows of the source in, K rows of the destination out), the edges element
 * by element. */
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

/* A part of a tile (its edges), straight from the source to the destination. */
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
TILE_BLOCKS(1, 16)
TILE_BLOCKS(2, 8)
TILE_BLOCKS(4, 4)
TILE_BLOCKS(8, 2)

/* A whole tile (na = tile_q(W), nb = tile_p(W)), staged: nb source lines into `in` (64 bytes
 * apart), transposed into `out` (na destination rows of 128 bytes; in AVX2 with avx2), each row
 * written out whole.  Any other tile: tile_x*. */
#if DMLREF_X86_AVX2
#define TILE_AVX2(W, out, in) transpose_tile_avx2_x##W(out, in)
#else
#define TILE_AVX2(W, out, in) ((void)0)
#endif
#define TILE_STAGED(W, K)                                                                                      \
    static void tile_staged_x##W(unsigned char *d, uint64_t dq, const unsigned char *s, uint64_t sp,          \
                                 uint64_t na, uint64_t nb, int stream, int avx2) {                             \
        if (na != 64 / W || nb != 128 / W) {                                                                   \
            tile_x##W(d, dq, s, sp, na, nb, stream);                                                           \
            return;                                                                                            \
        }                                                                                                      \
        _Alignas(64) unsigned char in[128 / W * 64], out[64 / W * 128];                                        \
        for (uint64_t b = 0; b < 128 / W; ++b) memcpy(in + b * 64, s + b * sp, 64);                           \
        if (avx2)                                                                                              \
            TILE_AVX2(W, out, in);                                                                             \
        else                                                                                                   \
            for (uint64_t a = 0; a < 64 / W; a += K)                                                           \
                for (uint64_t b = 0; b < 128 / W; b += K)                                                      \
                    simd_transpose_x##W(out + a * 128 + b * W, 128, in + b * 64 + a * W, 64, 0);               \
        if (stream)                                                                                            \
            for (uint64_t a = 0; a < 64 / W; ++a) simd_copy_stream(d + a * dq, out + a * 128, 128);           \
        else                                                                                                   \
            for (uint64_t a = 0; a < 64 / W; ++a) memcpy(d + a * dq, out + a * 128, 128);                      \
    }
TILE_STAGED(1, 16)
TILE_STAGED(2, 8)
TILE_STAGED(4, 4)
TILE_STAGED(8, 2)

static void transpose_run(const copy_plan *cp, unsigned char *dst, const unsigned char *src, uint64_t lo,
                          uint64_t hi) {
    const nest_t *nt = &cp->nest;
    const uint32_t p = cp->tp, q = cp->tq;
    const uint64_t dq = nt->st[0][q], sp = nt->st[1][p], tp = tile_p(cp->block);
    for (uint64_t u = lo; u < hi; ++u) {
        const uint64_t iq = u % cp->tiles_q, ip = u / cp->tiles_q % cp->tiles_p;
        uint64_t o = u / cp->tiles_p / cp->tiles_q, od = cp->base[0], os = cp->base[1];
        for (uint32_t d = nt->m; d-- > 0;) { /* the point of the other dims */
            if (d == p || d == q) continue;
            const uint64_t c = coord_step(&o, nt->sizes[d]);
            od += c * nt->st[0][d];
            os += c * nt->st[1][d];
        }
        /* streaming: tiles along p shifted back by `shift` elements, so that tile ip > 0
         * starts on a cache line when every destination row shares the line offset of the
         * first (dq a multiple of 64): the first tile is then the lead up to the line (lead
         * bytes, tp - shift elements), the last (planned one more) may be empty.  (Until
         * 2026-11-28 the shift was the lead itself, right only for a lead of 0 or 32 bytes:
         * a destination 16 or 48 bytes past a line, as numpy's large arrays are, was
         * streamed a part of a line at a time, at half the speed.) */
        uint64_t shift = 0;
        if (cp->stream && dq % 64 == 0) {
            const uint64_t lead = (64 - ((uintptr_t)(dst + od) & 63)) & 63; /* bytes to the next line */
            if (lead && lead % cp->block == 0) shift = tp - lead / cp->block;
        }
        const uint64_t b0 = ip == 0 ? 0 : ip * tp - shift, b1 = (ip + 1) * tp - shift;
        if (b0 >= nt->sizes[p]) continue; /* the spare tile, or past a row shorter than it */
        /* tiles along q shifted the same way on the source's lines when every source row
         * shares the line offset of the first (sp a multiple of 64), always (one more tile
         * planned): a whole tile then reads whole lines, not parts of two (through the Python
         * package, numpy's arrays 16 bytes past a line: FLOAT16 7.4 -> 4.8-5.9 ms, FLOAT32
         * 12.3-14.8 -> 8.3-11.0 ms with the shift) */
        const uint64_t tq = tile_q(cp->block);
        uint64_t qshift = 0;
        if (sp % 64 == 0) {
            const uint64_t lead = (64 - ((uintptr_t)(src + os) & 63)) & 63; /* bytes to the next line */
            if (lead && lead % cp->block == 0) qshift = tq - lead / cp->block;
        }
        const uint64_t a0 = iq == 0 ? 0 : iq * tq - qshift, a1 = (iq + 1) * tq - qshift;
        if (a0 >= nt->sizes[q]) continue; /* the spare tile, or past a row shorter than it */
        const uint64_t na = (a1 < nt->sizes[q] ? a1 : nt->sizes[q]) - a0;
        const uint64_t nb = (b1 < nt->sizes[p] ? b1 : nt->sizes[p]) - b0;
        unsigned char *d = dst + (od + a0 * dq + b0 * nt->st[0][p]);
        const unsigned char *s = src + (os + a0 * nt->st[1][q] + b0 * sp);
        /* streaming stores where every row of the tile starts 16-aligned */
        const int stream = cp->stream && (((uintptr_t)d | (uintptr_t)dq) & 15) == 0;
        switch (cp->kind) {
        case COPY_T_X1: tile_staged_x1(d, dq, s, sp, na, nb, stream, cp->avx2); break;
        case COPY_T_X2: tile_staged_x2(d, dq, s, sp, na, nb, stream, cp->avx2); break;
        case COPY_T_X4: tile_staged_x4(d, dq, s, sp, na, nb, stream, cp->avx2); break;
        default: tile_staged_x8(d, dq, s, sp, na, nb, stream, cp->avx2); break;
        }
    }
    if (cp->stream) simd_stream_fence();
}
#endif

void copy_plan_run(const copy_plan *cp, unsigned char *dst, const unsigned char *src, uint64_t lo, uint64_t hi) {
    const nest_t *nt = &cp->nest;
#if !DMLREF_SMALL
    if (cp->kind >= COPY_T_X1) {
        transpose_run(cp, dst, src, lo, hi);
        return;
    }
#endif
    const uint64_t db = cp->base[0], sb = cp->base[1];
    if (cp->chunks > 1) { /* a few huge blocks, split into chunks */
        for (uint64_t u = lo; u < hi; ++u) {
            uint64_t off[NEST_K];
            const uint64_t ch = u % cp->chunks;
            nest_offsets(nt, u / cp->chunks, off);
            const uint64_t at = ch * cp->chunk, len = cp->block - at < cp->chunk ? cp->block - at : cp->chunk;
            if (cp->stream) simd_copy_stream(dst + (db + off[0]) + at, src + (sb + off[1]) + at, (size_t)len);
            else memcpy(dst + (db + off[0]) + at, src + (sb + off[1]) + at, (size_t)len);
        }
        if (cp->stream) simd_stream_fence();
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
            if (cp->stream)
                for (uint64_t i = 0; i < it.len; ++i) simd_copy_stream(d + i * ds, s + i * ss, (size_t)b);
            else
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

