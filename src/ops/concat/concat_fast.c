/*
 * The JOIN / SPLIT fast paths (concat.h's plan_concat).
 *
 * JOIN and SPLIT move each piece's slab [a_k, inner...] once per coordinate of
 * the dims before Axis ("outer").  When every piece's slab collapses to one
 * contiguous block, the kernel walks the outer coordinates and copies every
 * piece's block at each of them (join.inner), or, when a block exceeds a chunk,
 * runs chunk-sized units of every block (join.chunked): one pass over the
 * whole tensor, whatever the block size.  Otherwise each piece is its own
 * strided copy (join.strided, the engine's copy_plan).
 */
#include "ops/kernels.h"
#include "concat.h"
#include "simd/simd.h"

#include <stdlib.h>


#if DMLREF_SMALL
#define CONCAT_MAX_INNER_PIECES 16u /* a small target: 192 bytes of offsets on the stack */
#else
#define CONCAT_MAX_INNER_PIECES 64u /* the inner walk keeps one offset per piece on the stack */
#endif
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

typedef struct concat_fast_plan {
    int split, mode;
    uint32_t count, nth;
    uint32_t om;                           /* outer dims (collapsed over all tensors) */
    uint64_t osz[MAX_DIMS], wst[MAX_DIMS]; /* their sizes, and strides in the whole   */
    uint64_t opoints;
    uint64_t upo;                          /* chunked mode: units per outer point     */
    int stream;                            /* chunked mode: streaming stores (plan_stream) */
    concat_piece pieces[];
} concat_fast_plan;

typedef struct concat_ctx {
    const concat_fast_plan *p;
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
#if !DMLREF_SMALL /* a small target links the strided mode only (plan_concat) */
static void concat_inner_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    (void)part;
    const concat_ctx *c = vc;
    const concat_fast_plan *p = c->p;
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
            coord[d] = coord_step(&q, p->osz[d]);
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
    const concat_fast_plan *p = c->p;
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
            const uint64_t cd = coord_step(&q, p->osz[d]);
            woff += cd * p->wst[d];
            poff += cd * pc->ost[d];
        }
        unsigned char *pp = piece_ptr(c, a, &ww, &wr) + poff + at;
        unsigned char *d = p->split ? pp : ww + woff + pc->base + at;
        const unsigned char *s = p->split ? wr + woff + pc->base + at : pp;
        if (p->stream) simd_copy_stream(d, s, (size_t)len);
        else memcpy(d, s, (size_t)len);
    }
    if (p->stream) simd_stream_fence();
}

#endif

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
    const concat_fast_plan *p = op->plan;
    concat_ctx c = {p, x, 0};
    (void)err;
    switch (p->mode) {
#if !DMLREF_SMALL
    case CONCAT_INNER: run_ranges(op, p->nth, p->opoints, concat_inner_range, &c); break;
    case CONCAT_CHUNKED: run_ranges(op, p->nth, p->opoints * p->upo, concat_chunked_range, &c); break;
#endif
    default:
        for (c.k = 0; c.k < p->count; ++c.k)
            run_ranges(op, p->pieces[c.k].nth, p->pieces[c.k].cp.units, concat_strided_range, &c);
        break;
    }
    return DMLREF_OK;
}

static void concat_free(const dmlref_allocator *al, void *p) { mem_free(al, p); }

dmlref_status plan_concat(op_t *op, int split, uint32_t a, dmlref_error *err) {
    const uint32_t count = split ? op->n_outputs : op->n_inputs;
    const tensor_t *whole = split ? &op->inputs[0] : &op->outputs[0];
    const tensor_t *pieces = split ? op->outputs : op->inputs;
    const uint32_t n = whole->n;
    const uint64_t esize = whole->esize;
    (void)err;

    const uint64_t bytes = sizeof(concat_fast_plan) + (uint64_t)count * sizeof(concat_piece);
    concat_fast_plan *p = bytes == (size_t)bytes ? mem_zalloc(&op->alloc, (size_t)bytes) : NULL;
    if (!p) return plan_out_of_memory(op, err);
    p->split = split;
    p->count = count;

    /* outer dims: drop size 1, merge where adjacent in the whole and every piece */
    uint32_t om = 0;
    for (uint32_t d = 0; d < (DMLREF_SMALL ? 0 : a); ++d) { /* DMLREF_SMALL: the strided mode only, which needs none */
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
        if (!DMLREF_SMALL) { /* DMLREF_SMALL: the strided mode only, which needs none of this */
            const uint64_t *dst = split ? t->bstrides : whole->bstrides, *src = split ? whole->bstrides : t->bstrides;
            /* One block when the slab's dims (size 1 aside) are packed on both sides: what a
             * copy_plan of the slab finds (adjacent dims merged into one contiguous run),
             * without building one.  Otherwise the strided mode, which uses no block. */
            uint64_t block = esize;
            for (uint32_t d = n; d-- > a;) {
                if (t->sizes[d] == 1) continue;
                if (dst[d] != block || src[d] != block) {
                    all_blocks = 0;
                    break;
                }
                block *= t->sizes[d]; /* <= the piece's bytes */
            }
            pc->block = block;
            pc->chunks = (block + COPY_CHUNK - 1) / COPY_CHUNK;
            pc->prefix = upo;
            upo += pc->chunks;
            if (block < min_block) min_block = block;
            if (block > max_block) max_block = block;
        }
        total += t->elements * esize;
    }
    p->upo = upo;
    p->nth = plan_threads(op, total);
    p->stream = plan_stream(total);

    /* Blocks larger than a chunk always go out as chunk-sized memcpy units:
     * memcpy calls of a chunk (256 KiB, within L2) copy a large tensor faster
     * than calls of megabytes, and the units spread evenly over the threads
     * however few outer points there are.
     * With DMLREF_SMALL every piece is its own strided copy: on a core without
     * vector moves copy_plan copies the same blocks (one memcpy per collapsed row),
     * so the same bytes land, and the inner and chunked walks are not linked. */
    if (DMLREF_SMALL) p->mode = CONCAT_STRIDED;
    else if (all_blocks && max_block <= COPY_CHUNK) p->mode = CONCAT_INNER;
    else if (all_blocks) p->mode = CONCAT_CHUNKED;
    else p->mode = CONCAT_STRIDED;
    if (p->mode == CONCAT_STRIDED) /* the strided fallback: each piece as one copy */
        for (uint32_t k = 0; k < count; ++k) {
            concat_piece *pc = &p->pieces[k];
            const tensor_t *t = &pieces[k];
            const uint64_t *dst = split ? t->bstrides : whole->bstrides, *src = split ? whole->bstrides : t->bstrides;
            uint64_t sizes[MAX_DIMS];
            for (uint32_t d = 0; d < n; ++d) sizes[d] = t->sizes[d];
            copy_plan_init(&pc->cp, n, sizes, dst, src, esize);
            pc->nth = plan_threads(op, t->elements * esize);
        }
    /* one name per mode (the enum's order), and the instruction set */
    static const char *const names[2][CONCAT_MODES] = {
        {kernel_name_JOIN_INNER, kernel_name_JOIN_CHUNKED, kernel_name_JOIN_STRIDED},
        {kernel_name_SPLIT_INNER, kernel_name_SPLIT_CHUNKED, kernel_name_SPLIT_STRIDED}};
    op->kernel_name = DMLREF_SMALL ? (split ? KERNEL_NAME(SPLIT_STRIDED) : KERNEL_NAME(JOIN_STRIDED)) : names[split][p->mode];
    op->plan = p;
    op->plan_free = concat_free;
    op->kernel = concat_kernel;
    return DMLREF_OK;
}
