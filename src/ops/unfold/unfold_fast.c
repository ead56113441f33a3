/*
 * UNFOLD's fast path (unfold.h; the class, its rules and its oracle are
 * op_unfold.c), bit-identical to the oracle and tested against it on random
 * cases.
 *
 * The work is the output's rows: one per (n, c, k), N * C * prod(W) of them,
 * split over threads (run_ranges).  A row is prod(B) elements: for each block
 * of the outer spatial dims (all but the last) a run of B_last elements, which
 * reads one input row shifted by k_last * Dilation - StartPadding, with zeros
 * where the window hangs over the input.  The source of every (window index,
 * block) pair of each spatial dim is computed at compile, in a table the plan
 * owns (a byte offset into the input, or UNFOLD_OUTSIDE); execute allocates
 * nothing.
 *
 *   unfold.rows    innermost Stride 1, innermost input and output dims
 *                  contiguous: a run's valid part [lo, hi) is one copy, the
 *                  rest zeroed (fixed-size moves for runs of up to 16 bytes,
 *                  memcpy/memset above); with two spatial dims the outer blocks
 *                  are one loop over dim 0's table, and without padding, blocks of
 *                  4 to 16 bytes and at most UNFOLD_IMAGE_MAX blocks an image, one
 *                  table over the image (small_images)
 *   unfold.gather  anything else: element by element through the tables
 *
 * Rows are walked as an odometer over (n, c, k): a division only for the first row
 * of a thread's range.
 */
#include "ops/kernels.h"
#include "unfold.h"
#include "engine/plan.h"
#include "simd/simd.h"

#include <string.h>

/* Table entries (8 bytes each) above which no plan is made: the oracle runs. */
#define UNFOLD_TABLE_MAX (UINT64_C(1) << 22)
#define UNFOLD_OUTSIDE UINT64_MAX
/* Blocks of an image (prod(W) * B_0) up to which small_range's table is made. */
#define UNFOLD_IMAGE_MAX 1024

typedef struct unfold_plan {
    uint32_t k, es, rows; /* spatial dims, element size, 1: unfold.rows             */
    uint32_t nth;
    uint64_t w[UNFOLD_MAX_SPATIAL], b[UNFOLD_MAX_SPATIAL];
    uint64_t pw, crows, units;            /* prod(W), C * prod(W), N * C * prod(W)   */
    uint64_t chans, images;               /* C, N * C                                */
    uint64_t isn, isc, osn, osr, osl;     /* byte strides: input N, C; output N, row, column */
    const uint64_t *tab[UNFOLD_MAX_SPATIAL]; /* tab[d][kd * B_d + bd]: source byte offset or UNFOLD_OUTSIDE */
    const uint64_t *row_set;              /* unfold.rows: per last window index kd, 4 words: the valid
                                           * bytes [ab, zb) of a block, the source offset of its first
                                           * valid block (0: none), 1 when every block is valid whole
                                           * and 4 to 16 bytes (image_range's rows_whole_*) */
    const uint64_t *all_in;               /* image_range: per first window index k0, 1 when every
                                           * block of the first dim lies in the input */
    const uint64_t *image;                /* small_range, or NULL: per row k of an image and block
                                           * q, image[k * B_0 + q], the block's source byte offset
                                           * in the image (every block inside it, whole) */
    uint64_t mem[];                       /* the tables                                           */
} unfold_plan;

typedef struct unfold_ctx {
    const unfold_plan *p;
    const exec_args *x;
} unfold_ctx;

/* One block of an unfold.rows row: rb bytes at o, the bytes [ab, zb) copied from s, the
 * rest zeros (s NULL: the block lies outside the input, all zeros). */
static inline void rows_block(unsigned char *o, const unsigned char *s, size_t ab, size_t zb, size_t rb) {
    if (!s) {
        zero_bytes(o, rb);
        return;
    }
    if (ab) zero_bytes(o, ab);
    if (zb > ab) simd_copy_block(o + ab, s, zb - ab);
    if (rb > zb) zero_bytes(o + zb, rb - zb);
}

/* A row of an image whose every block inside the input is valid whole (no padding in the last
 * dim for this window index): nb blocks of rb bytes at o, block q copied from sl + t0[q] or
 * zeroed (UNFOLD_OUTSIDE), with the two overlapping W-byte moves of a size class [W, 2W]
 * fixed for the row (tiny rows: a few instructions a block instead of rows_block's tests). */
#define ROWS_WHOLE(W, T)                                                                                     \
    static void rows_whole_##W(unsigned char *o, const unsigned char *sl, const uint64_t *t0, uint64_t nb,  \
                               size_t rb, int all_in) {                                                     \
        if (all_in) { /* no block outside the input: no test a block */                                     \
            for (uint64_t q = 0; q < nb; ++q, o += rb) {                                                    \
                T a, b;                                                                                     \
                memcpy(&a, sl + t0[q], W);                                                                  \
                memcpy(&b, sl + t0[q] + rb - W, W);                                                         \
                memcpy(o, &a, W);                                                                           \
                memcpy(o + rb - W, &b, W);                                                                  \
            }                                                                                               \
            return;                                                                                         \
        }                                                                                                   \
        for (uint64_t q = 0; q < nb; ++q, o += rb) {                                                        \
            T a = 0, b = 0;                                                                                 \
            if (t0[q] != UNFOLD_OUTSIDE) {                                                                  \
                memcpy(&a, sl + t0[q], W);                                                                  \
                memcpy(&b, sl + t0[q] + rb - W, W);                                                         \
            }                                                                                               \
            memcpy(o, &a, W);                                                                               \
            memcpy(o + rb - W, &b, W);                                                                      \
        }                                                                                                   \
    }
ROWS_WHOLE(4, uint32_t)
ROWS_WHOLE(8, uint64_t)

/* Rows [lo, hi) of the output: row u is (n, c, k[0..K)), u = (n * C + c) * prod(W) + k
 * row-major; the first one's coordinates by division, then an odometer.  (unfold.rows with two
 * spatial dims goes through image_range below.) */
static void unfold_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const unfold_ctx *cx = vc;
    const unfold_plan *p = cx->p;
    const unsigned char *src = IN_DATA(cx->x, 0);
    unsigned char *dst = OUT_DATA(cx->x, 0);
    const uint32_t K = p->k, L = K - 1, es = p->es;
    const uint64_t bl = p->b[L];
    (void)part;
    uint64_t n = 0, r = 0, c = 0, kd[UNFOLD_MAX_SPATIAL] = {0};
    if (lo) {
        n = lo / p->crows;
        r = lo % p->crows;
        c = r / p->pw;
        uint64_t kk = r % p->pw;
        for (uint32_t d = K; d-- > 0;) {
            kd[d] = kk % p->w[d];
            kk /= p->w[d];
        }
    }
    for (uint64_t u = lo; u < hi; ++u) {
        const unsigned char *ib = src + n * p->isn + c * p->isc;
        unsigned char *ob = dst + n * p->osn + r * p->osr;
        const uint64_t *last = p->tab[L] + kd[L] * bl, *rs = p->row_set + 4 * kd[L];
        /* unfold.rows: every block of the row has the same valid bytes [ab, zb) of rb, read
         * from sl plus the block's outer offset */
        const size_t ab = (size_t)rs[0], zb = (size_t)rs[1], rb = (size_t)(bl * es);
        const unsigned char *sl = ib + rs[2];
        /* the outer blocks, row-major (an odometer over dims 0 .. K-2) */
        uint64_t bo[UNFOLD_MAX_SPATIAL] = {0};
        for (uint64_t q = 0;; ++q) {
            uint64_t off = 0;
            int outside = 0;
            for (uint32_t d = 0; d < L; ++d) {
                const uint64_t t = p->tab[d][kd[d] * p->b[d] + bo[d]];
                if (t == UNFOLD_OUTSIDE) outside = 1;
                else off += t;
            }
            unsigned char *o = ob + q * bl * p->osl;
            if (p->rows) {
                rows_block(o, outside ? NULL : sl + off, ab, zb, rb);
            } else {
                for (uint64_t j = 0; j < bl; ++j) {
                    if (outside || last[j] == UNFOLD_OUTSIDE) memset(o + j * p->osl, 0, es);
                    else memcpy(o + j * p->osl, ib + off + last[j], es);
                }
            }
            uint32_t d = L;
            while (d-- > 0) {
                if (++bo[d] < p->b[d]) break;
                bo[d] = 0;
            }
            if (d == UINT32_MAX) break; /* every outer block done (or K == 1) */
        }
        /* the next row: k, then c (when every k wrapped), then n (when r wraps) */
        uint32_t d = K;
        while (d-- > 0) {
            if (++kd[d] < p->w[d]) break;
            kd[d] = 0;
        }
        if (d == UINT32_MAX) ++c;
        if (++r == p->crows) {
            r = 0;
            c = 0;
            ++n;
        }
    }
}

/* unfold.rows with two spatial dims (an image): rows [lo, hi) as unfold_range walks them, the
 * outer blocks of a row in one loop over dim 0's table, the row's pointers stepped rather
 * than recomputed (a tiny unfold is a few dozen rows of a few blocks each). */
static void image_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const unfold_ctx *cx = vc;
    const unfold_plan *p = cx->p;
    const unsigned char *src = IN_DATA(cx->x, 0);
    unsigned char *dst = OUT_DATA(cx->x, 0);
    const uint64_t w0 = p->w[0], w1 = p->w[1], b0 = p->b[0];
    const size_t rb = (size_t)(p->b[1] * p->es);
    (void)part;
    /* lo's (n, c, k0, k1), no division while each is below its size (a serial range starts at 0) */
    uint64_t n = lo;
    uint64_t r = coord_step(&n, p->crows); /* n = lo / crows, r = lo % crows */
    uint64_t c = r;
    uint64_t k0 = coord_step(&c, p->pw); /* c = r / pw, k0 = r % pw (split below) */
    uint64_t k1 = coord_step(&k0, w1);   /* k0 = r % pw / w1, k1 = r % pw % w1 */
    const unsigned char *ib = src + n * p->isn + c * p->isc;
    unsigned char *ob = dst + n * p->osn + r * p->osr;
    for (uint64_t u = lo; u < hi; ++u) {
        /* every block of the row has the same valid bytes [ab, zb) of rb, read from sl plus
         * the block's offset t0[q] */
        const uint64_t *t0 = p->tab[0] + k0 * b0, *rs = p->row_set + 4 * k1;
        const unsigned char *sl = ib + rs[2];
        if (rs[3]) { /* whole small blocks */
            if (rb >= 8) rows_whole_8(ob, sl, t0, b0, rb, (int)p->all_in[k0]);
            else rows_whole_4(ob, sl, t0, b0, rb, (int)p->all_in[k0]);
        } else {
            for (uint64_t q = 0; q < b0; ++q)
                rows_block(ob + q * rb, t0[q] == UNFOLD_OUTSIDE ? NULL : sl + t0[q], (size_t)rs[0], (size_t)rs[1], rb);
        }
        /* the next row: k1, then k0, then c (ib), then n */
        ob += p->osr;
        ++r;
        if (++k1 < w1) continue;
        k1 = 0;
        if (++k0 < w0) continue;
        k0 = 0;
        ++c;
        ib += p->isc;
        if (r == p->crows) {
            r = 0;
            c = 0;
            ++n;
            ib = src + n * p->isn;
            ob = dst + n * p->osn;
        }
    }
}

/* unfold.rows with two spatial dims, no padding and blocks of 4 to 16 bytes, at most
 * UNFOLD_IMAGE_MAX blocks an image (every tiny unfold without padding): the images [lo, hi)
 * (the work split by images, (n, c)), each block's source in one table over an image's rows
 * (a row costs a pointer step: a fifth of image_range's instructions a row); a block is two
 * moves of W bytes (a constant: 4 or 8). */
static DMLREF_ALWAYS_INLINE void small_images(const unfold_plan *p, const unsigned char *src, unsigned char *dst, uint64_t lo,
                                              uint64_t hi, const size_t W) {
    const uint64_t pw = p->pw, b0 = p->b[0], osr = p->osr, C = p->chans;
    const size_t rb = (size_t)(p->b[1] * p->es);
    uint64_t n = lo;
    uint64_t c = coord_step(&n, C); /* n = lo / C, c = lo % C */
    for (uint64_t u = lo; u < hi; ++u) {
        const unsigned char *ib = src + n * p->isn + c * p->isc;
        unsigned char *ob = dst + n * p->osn + c * pw * osr;
        const uint64_t *t = p->image;
        for (uint64_t k = 0; k < pw; ++k, ob += osr) {
            unsigned char *o = ob;
            for (uint64_t q = 0; q < b0; ++q, ++t, o += rb) {
                uint64_t a, b;
                memcpy(&a, ib + *t, W);
                memcpy(&b, ib + *t + rb - W, W);
                memcpy(o, &a, W);
                memcpy(o + rb - W, &b, W);
            }
        }
        if (++c == C) {
            c = 0;
            ++n;
        }
    }
}
static void small_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const unfold_ctx *cx = vc;
    const unfold_plan *p = cx->p;
    (void)part;
    if (p->b[1] * p->es >= 8) small_images(p, IN_DATA(cx->x, 0), OUT_DATA(cx->x, 0), lo, hi, 8);
    else small_images(p, IN_DATA(cx->x, 0), OUT_DATA(cx->x, 0), lo, hi, 4);
}

static dmlref_status unfold_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const unfold_ctx c = {op->plan, x};
    (void)err;
    const range_fn fn = c.p->image ? small_range : c.p->k == 2 && c.p->rows ? image_range : unfold_range;
    const uint64_t units = c.p->image ? c.p->images : c.p->units; /* images, or rows */
    if (c.p->nth <= 1) fn(&c, 0, units, 0); /* one thread (every tiny call): no partition */
    else run_ranges(op, c.p->nth, units, fn, &c);
    return DMLREF_OK;
}

static void unfold_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_unfold(op_t *op, const unfold_params *prm, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const uint32_t K = prm->k, D = out->n, L = K - 1;
    (void)err;
    /* every W_d * B_d <= prod(W) * prod(B) <= the output's elements (< 2^32), K <= 6 */
    uint64_t entries = 0;
    for (uint32_t d = 0; d < K; ++d) entries += (uint64_t)prm->w[d] * prm->blocks[d];
    entries += 4 * (uint64_t)prm->w[L] + prm->w[0]; /* row_set, all_in */
    if (entries > UNFOLD_TABLE_MAX) return DMLREF_OK; /* the oracle */
    const uint64_t image_entries = K == 2 ? prm->pw * prm->blocks[0] : 0; /* image, if it is used */
    const int image_fits = K == 2 && image_entries <= UNFOLD_IMAGE_MAX;
    if (image_fits) entries += image_entries;
    unfold_plan *p = mem_alloc(&op->alloc, sizeof *p + (size_t)entries * sizeof(uint64_t));
    if (!p) return plan_out_of_memory(op, err);
    mem_zero(p, sizeof *p);
    p->k = K;
    p->es = out->esize;
    uint64_t *t = p->mem;
    for (uint32_t d = 0; d < K; ++d) {
        p->w[d] = prm->w[d];
        p->b[d] = prm->blocks[d];
        p->tab[d] = t;
        for (uint64_t kd = 0; kd < p->w[d]; ++kd)
            for (uint64_t bd = 0; bd < p->b[d]; ++bd) {
                const int64_t s = unfold_source(prm, d, bd, kd);
                *t++ = s < 0 || s >= (int64_t)in->sizes[2 + d] ? UNFOLD_OUTSIDE : (uint64_t)s * in->bstrides[2 + d];
            }
    }
    /* a row's constants for each window index of the last dim: its valid blocks, a range [a, z)
     * (the source rises with the block), as bytes, and the rest (row_set above) */
    uint64_t *rs = t, *all_in = rs + 4 * p->w[L];
    const uint64_t rb = p->b[L] * p->es;
    for (uint64_t kd = 0; kd < p->w[L]; ++kd) {
        const uint64_t *row = p->tab[L] + kd * p->b[L];
        uint64_t a = 0, z;
        while (a < p->b[L] && row[a] == UNFOLD_OUTSIDE) ++a;
        z = a;
        while (z < p->b[L] && row[z] != UNFOLD_OUTSIDE) ++z;
        rs[4 * kd] = a * p->es;
        rs[4 * kd + 1] = z * p->es;
        rs[4 * kd + 2] = z > a ? row[a] : 0;
        rs[4 * kd + 3] = a == 0 && z == p->b[L] && rb >= 4 && rb <= 16;
    }
    /* per window index of the first dim, whether every block lies in the input (image_range) */
    for (uint64_t kd = 0; kd < p->w[0]; ++kd) {
        all_in[kd] = 1;
        for (uint64_t bd = 0; bd < p->b[0]; ++bd)
            if (p->tab[0][kd * p->b[0] + bd] == UNFOLD_OUTSIDE) all_in[kd] = 0;
    }
    p->row_set = rs;
    p->all_in = all_in;
    p->pw = prm->pw;
    p->crows = prm->pw * in->sizes[1];
    p->units = p->crows * in->sizes[0];
    p->chans = in->sizes[1];
    p->images = p->chans * in->sizes[0];
    p->isn = in->bstrides[0];
    p->isc = in->bstrides[1];
    p->osn = out->bstrides[D - 3];
    p->osr = out->bstrides[D - 2];
    p->osl = out->bstrides[D - 1];
    p->rows = prm->st[L] == 1 && in->bstrides[D - 1] == out->esize && p->osl == out->esize;
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    if (image_fits && p->rows) { /* small_range: every block inside the input, whole, 4 to 16 bytes */
        int small = 1;
        for (uint64_t kd = 0; kd < p->w[1]; ++kd) small &= rs[4 * kd + 3] != 0;
        for (uint64_t kd = 0; kd < p->w[0]; ++kd) small &= all_in[kd] != 0;
        if (small) {
            uint64_t *img = all_in + p->w[0];
            for (uint64_t k0 = 0; k0 < p->w[0]; ++k0)
                for (uint64_t k1 = 0; k1 < p->w[1]; ++k1)
                    for (uint64_t q = 0; q < p->b[0]; ++q) *img++ = p->tab[0][k0 * p->b[0] + q] + rs[4 * k1 + 2];
            p->image = all_in + p->w[0];
        }
    }
    op->plan = p;
    op->plan_free = unfold_free;
    op->kernel = unfold_kernel;
    op->kernel_name = p->rows ? KERNEL_NAME(UNFOLD_ROWS) : KERNEL_NAME(UNFOLD_GATHER);
    return DMLREF_OK;
}
