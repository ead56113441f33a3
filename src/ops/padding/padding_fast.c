/*
 * PADDING and PADDING1's fast path (padding.h's padding_plan, both classes' plan
 * hook): the row walk below, bit-identical to the oracle in padding.c (the
 * family's rules and oracle), tested against it on random cases.
 */
#include "ops/kernels.h"
#include "padding.h"

#include "engine/plan.h"
#include "simd/simd.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fast path --------------------------------------------------------------
 *
 * The output is walked row by row (its innermost dimension after the plan has
 * dropped size-1 dims, merged adjacent unpadded dims and folded a short
 * contiguous unpadded innermost dim into the element), writing every output
 * byte once: a row whose outer coordinates read outside (CONSTANT) is the fill;
 * otherwise its source row is found through the outer dims' maps, and the row is
 * [left border | the interior, one copy | right border].  A border element reads
 * the source row through the row dim's map (map modes) or is the fill (CONSTANT).
 * The maps are plan-owned tables of source byte offsets for the border
 * coordinates only (StartPadding + EndPadding entries per padded dim); the fill
 * is a plan-owned pattern of fill elements, written like memset.  Rows are split
 * into chunks when there are too few of them for the threads.  A packed output
 * too large to stay cached (plan_stream) is written through streaming stores
 * (the writer below), each thread's range being one contiguous run of bytes.
 */

#define PAD_TAB_MAX (UINT64_C(1) << 22)   /* map entries a plan may hold (8 bytes each); more: the oracle */
#if DMLREF_SMALL
#define PAD_FOLD_MAX UINT64_C(256)        /* a small target: the streaming writer's tmp on the stack */
#else
#define PAD_FOLD_MAX UINT64_C(4096)       /* bytes: an unpadded contiguous innermost dim up to this is one element */
#endif
#define PAD_PATTERN_MIN UINT64_C(256)     /* bytes of fill pattern, at least */
#define PAD_OUTSIDE UINT64_MAX            /* a coordinate that reads the fill (CONSTANT) */

typedef struct pad_dim {
    uint64_t out_n, in_n, s; /* output and input sizes, StartPadding           */
    uint64_t obs, ibs;       /* byte strides: output, input                      */
    const uint64_t *tab;     /* map modes, padded dims: the source byte offsets of
                                the border coordinates o < s (entry o) and
                                o >= s + in_n (entry o - in_n); else NULL        */
} pad_dim;

typedef struct pad_plan {
    uint32_t m, nth;
    int constant;
    int stream;                    /* the output is one contiguous run: streaming stores */
    uint64_t w;                    /* element bytes: esize, or a folded block          */
    uint64_t rows, chunks, units;  /* rows of the last dim, units per row, in all     */
    pad_dim d[MAX_DIMS];
    int fill_byte;                 /* CONSTANT: the fill's byte when all are equal, else -1 */
    uint64_t pattern_bytes;        /* CONSTANT: fill elements, a multiple of w        */
    unsigned char *pattern;
    uint64_t *tabs;                /* storage of the maps                             */
} pad_plan;

/* len elements of w bytes at stride ds, each a copy of the element at e. */
static void put_elems(unsigned char *d, uint64_t ds, const unsigned char *e, uint64_t w, uint64_t len) {
#define PUT(T)                                                     \
    do {                                                           \
        T v;                                                       \
        memcpy(&v, e, sizeof v);                                   \
        for (uint64_t k = 0; k < len; ++k) memcpy(d + k * ds, &v, sizeof v); \
    } while (0)
    switch (w) {
    case 1: PUT(uint8_t); return;
    case 2: PUT(uint16_t); return;
    case 4: PUT(uint32_t); return;
    case 8: PUT(uint64_t); return;
    default:
        for (uint64_t k = 0; k < len; ++k) memcpy(d + k * ds, e, (size_t)w);
        return;
    }
#undef PUT
}

/* len elements: d[k] = s[k] at strides ds, ss. */
static void copy_elems(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ss, uint64_t w, uint64_t len) {
#define COPY(T)                                                    \
    for (uint64_t k = 0; k < len; ++k) {                           \
        T v;                                                       \
        memcpy(&v, s + k * ss, sizeof v);                          \
        memcpy(d + k * ds, &v, sizeof v);                          \
    }                                                              \
    return
    switch (w) {
    case 1: COPY(uint8_t);
    case 2: COPY(uint16_t);
    case 4: COPY(uint32_t);
    case 8: COPY(uint64_t);
    default:
        for (uint64_t k = 0; k < len; ++k) memcpy(d + k * ds, s + k * ss, (size_t)w);
        return;
    }
#undef COPY
}

/* len elements: d[k] = row[tab[k]] (byte offsets). */
static void gather_elems(unsigned char *d, uint64_t ds, const unsigned char *row, const uint64_t *tab, uint64_t w,
                         uint64_t len) {
#define GATHER(T)                                                  \
    for (uint64_t k = 0; k < len; ++k) {                           \
        T v;                                                       \
        memcpy(&v, row + tab[k], sizeof v);                        \
        memcpy(d + k * ds, &v, sizeof v);                          \
    }                                                              \
    return
    switch (w) {
    case 1: GATHER(uint8_t);
    case 2: GATHER(uint16_t);
    case 4: GATHER(uint32_t);
    case 8: GATHER(uint64_t);
    default:
        for (uint64_t k = 0; k < len; ++k) memcpy(d + k * ds, row + tab[k], (size_t)w);
        return;
    }
#undef GATHER
}

/* len fill elements at stride ds: contiguous ones like memset, from the pattern. */
static void pad_fill(const pad_plan *p, unsigned char *d, uint64_t ds, uint64_t len) {
    if (ds != p->w || len <= 8) { /* strided, or a few elements: stored one by one */
        put_elems(d, ds, p->pattern, p->w, len);
        return;
    }
    uint64_t bytes = len * p->w;
    if (p->fill_byte >= 0 && bytes > PAD_PATTERN_MIN) {
        memset(d, p->fill_byte, (size_t)bytes);
        return;
    }
    while (bytes > p->pattern_bytes) {
        memcpy(d, p->pattern, (size_t)p->pattern_bytes);
        d += p->pattern_bytes;
        bytes -= p->pattern_bytes;
    }
    memcpy(d, p->pattern, (size_t)bytes);
}

/* Output elements [j0, j1) of one row; srow is the source row (NULL when an
 * outer coordinate reads the fill). */
static void pad_row(const pad_plan *p, unsigned char *orow, const unsigned char *srow, uint64_t j0, uint64_t j1) {
    const pad_dim *pd = &p->d[p->m - 1];
    const uint64_t s = pd->s, n = pd->in_n, os = pd->obs, w = p->w;
    if (!srow) {
        pad_fill(p, orow + j0 * os, os, j1 - j0);
        return;
    }
    uint64_t a = j0, b = j1 < s ? j1 : s; /* the left border */
    if (a < b) {
        if (p->constant) pad_fill(p, orow + a * os, os, b - a);
        else gather_elems(orow + a * os, os, srow, pd->tab + a, w, b - a);
    }
    a = j0 > s ? j0 : s; /* the interior */
    b = j1 < s + n ? j1 : s + n;
    if (a < b) {
        unsigned char *d = orow + a * os;
        const unsigned char *from = srow + (a - s) * pd->ibs;
        if (os == w && pd->ibs == w) memcpy(d, from, (size_t)((b - a) * w));
        else if (pd->ibs == 0) put_elems(d, os, from, w, b - a); /* a broadcast input */
        else copy_elems(d, os, from, pd->ibs, w, b - a);
    }
    a = j0 > s + n ? j0 : s + n; /* the right border */
    b = j1;
    if (a < b) {
        if (p->constant) pad_fill(p, orow + a * os, os, b - a);
        else gather_elems(orow + a * os, os, srow, pd->tab + (a - n), w, b - a);
    }
}

/* ---- streaming writes (a contiguous output larger than a cache: plan_stream) ----
 *
 * A thread's units then cover one contiguous byte range of the output, written in
 * order: bytes are staged per 64-byte line and whole lines go out with streaming
 * stores (no read for ownership), directly from the source when a piece covers
 * whole lines; the partial lines at the two ends of the range are written with
 * ordinary stores, so no byte outside the range is touched. */

#define SW_LINE 64u

typedef struct swriter {
    unsigned char *out;          /* the output buffer                           */
    uint64_t pos, from;          /* the next byte; the first staged one (offsets) */
    unsigned char buf[SW_LINE];  /* the staged bytes, at their offset in the line */
    unsigned char tmp[PAD_FOLD_MAX]; /* gathered elements on their way out     */
} swriter;

static void sw_flush(swriter *w) {
    const uint64_t n = w->pos - w->from;
    if (n == SW_LINE) simd_copy_stream(w->out + w->from, w->buf, SW_LINE); /* a whole line: aligned */
    else if (n) memcpy(w->out + w->from, w->buf + ((uintptr_t)(w->out + w->from) & (SW_LINE - 1)), (size_t)n);
    w->from = w->pos;
}

/* The next n output bytes are s[0, n). */
static void sw_put(swriter *w, const unsigned char *s, uint64_t n) {
    while (n) {
        const uint64_t off = (uintptr_t)(w->out + w->pos) & (SW_LINE - 1);
        if (off == 0 && n >= SW_LINE) { /* whole lines, nothing staged */
            const uint64_t full = n & ~(uint64_t)(SW_LINE - 1);
            simd_copy_stream(w->out + w->pos, s, (size_t)full);
            w->pos += full;
            w->from = w->pos;
            s += full;
            n -= full;
            continue;
        }
        const uint64_t k = SW_LINE - off < n ? SW_LINE - off : n;
        memcpy(w->buf + off, s, (size_t)k);
        w->pos += k;
        s += k;
        n -= k;
        if (off + k == SW_LINE) sw_flush(w);
    }
}

/* The next len elements are the fill. */
static void sw_fill(const pad_plan *p, swriter *w, uint64_t len) {
    for (uint64_t bytes = len * p->w; bytes;) {
        const uint64_t k = bytes < p->pattern_bytes ? bytes : p->pattern_bytes;
        sw_put(w, p->pattern, k);
        bytes -= k;
    }
}

/* The next len elements: row[tab[k]] (tab) or s[k * ss] (else), through tmp. */
static void sw_elems(const pad_plan *p, swriter *w, const unsigned char *row, const uint64_t *tab, uint64_t ss,
                     uint64_t len) {
    const uint64_t per = PAD_FOLD_MAX / p->w; /* >= 1: a folded element is at most PAD_FOLD_MAX bytes */
    for (uint64_t k = 0; k < len; k += per) {
        const uint64_t c = len - k < per ? len - k : per;
        if (tab) gather_elems(w->tmp, p->w, row, tab + k, p->w, c);
        else if (ss == 0) put_elems(w->tmp, p->w, row, p->w, c);
        else copy_elems(w->tmp, p->w, row + k * ss, ss, p->w, c);
        sw_put(w, w->tmp, c * p->w);
    }
}

/* pad_row's elements [j0, j1) through the writer. */
static void pad_row_stream(const pad_plan *p, swriter *w, const unsigned char *srow, uint64_t j0, uint64_t j1) {
    const pad_dim *pd = &p->d[p->m - 1];
    const uint64_t s = pd->s, n = pd->in_n;
    if (!srow) {
        sw_fill(p, w, j1 - j0);
        return;
    }
    uint64_t a = j0, b = j1 < s ? j1 : s;
    if (a < b) {
        if (p->constant) sw_fill(p, w, b - a);
        else sw_elems(p, w, srow, pd->tab + a, 0, b - a);
    }
    a = j0 > s ? j0 : s;
    b = j1 < s + n ? j1 : s + n;
    if (a < b) {
        const unsigned char *from = srow + (a - s) * pd->ibs;
        if (pd->ibs == p->w) sw_put(w, from, (b - a) * p->w);
        else sw_elems(p, w, from, NULL, pd->ibs, b - a);
    }
    a = j0 > s + n ? j0 : s + n;
    b = j1;
    if (a < b) {
        if (p->constant) sw_fill(p, w, b - a);
        else sw_elems(p, w, srow, pd->tab + (a - n), 0, b - a);
    }
}

/* The source byte offset of output coordinate o along pd (PAD_OUTSIDE: the fill). */
static uint64_t coord_src(const pad_plan *p, const pad_dim *pd, uint64_t o) {
    if (o >= pd->s && o - pd->s < pd->in_n) return (o - pd->s) * pd->ibs;
    if (p->constant) return PAD_OUTSIDE;
    return pd->tab[o < pd->s ? o : o - pd->in_n];
}

typedef struct pad_ctx {
    const pad_plan *p;
    unsigned char *out;
    const unsigned char *in;
} pad_ctx;

/* Units [lo, hi): unit u is chunk u % chunks of row u / chunks. */
static void pad_range(const void *vc, uint64_t lo, uint64_t hi, uint32_t part) {
    const pad_ctx *c = vc;
    const pad_plan *p = c->p;
    const uint32_t rd = p->m - 1; /* the row dim; dims [0, rd) are the outer ones */
    const uint64_t row_n = p->d[rd].out_n, chunks = p->chunks;
    uint64_t co[MAX_DIMS], src[MAX_DIMS];
    (void)part;
    uint64_t q = lo / chunks, ch = lo % chunks, ooff = 0;
    for (uint32_t d = rd; d-- > 0;) {
        co[d] = coord_step(&q, p->d[d].out_n);
        ooff += co[d] * p->d[d].obs;
        src[d] = coord_src(p, &p->d[d], co[d]);
    }
    swriter *w = NULL;
#if DMLREF_SIMD /* else plan_stream is 0: no writer (nor its buffers on the stack) */
    swriter sw;
    if (p->stream) { /* the range is contiguous: it starts at this unit's first byte */
        sw.out = c->out;
        sw.pos = sw.from = ooff + ch * row_n / chunks * p->w;
        w = &sw;
    }
#endif
    uint64_t u = lo;
    for (;;) {
        uint64_t soff = 0;
        int outside = 0;
        for (uint32_t d = 0; d < rd; ++d) {
            if (src[d] == PAD_OUTSIDE) outside = 1;
            else soff += src[d];
        }
        const unsigned char *srow = outside ? NULL : c->in + soff;
        for (; ch < chunks && u < hi; ++ch, ++u) {
            const uint64_t j0 = ch * row_n / chunks, j1 = (ch + 1) * row_n / chunks;
            if (w) pad_row_stream(p, w, srow, j0, j1);
            else pad_row(p, c->out + ooff, srow, j0, j1);
        }
        if (u >= hi) {
            if (w) {
                sw_flush(w);
                simd_stream_fence();
            }
            return;
        }
        ch = 0;
        for (uint32_t d = rd; d-- > 0;) { /* the next row */
            const pad_dim *pd = &p->d[d];
            if (++co[d] < pd->out_n) {
                ooff += pd->obs;
                src[d] = coord_src(p, pd, co[d]);
                break;
            }
            ooff -= (pd->out_n - 1) * pd->obs;
            co[d] = 0;
            src[d] = coord_src(p, pd, 0);
        }
    }
}

static dmlref_status pad_kernel(const op_t *op, const exec_args *x, dmlref_error *err) {
    const pad_ctx c = {op->plan, OUT_DATA(x, 0), IN_DATA(x, 0)};
    (void)err;
    run_ranges(op, c.p->nth, c.p->units, pad_range, &c);
    return DMLREF_OK;
}

static void pad_plan_free(const dmlref_allocator *al, void *vp) {
    pad_plan *p = vp;
    if (!p) return;
    mem_free(al, p->pattern);
    mem_free(al, p->tabs);
    mem_free(al, p);
}

dmlref_status padding_plan(op_t *op, dmlref_error *err) {
    const tensor_t *in = &op->inputs[0], *out = &op->outputs[0];
    const padding_params *pp = OP_CPARAMS(op, padding_params);
    const int constant = pp->mode == DMLREF_PADDING_MODE_CONSTANT;

    /* normalize: drop size-1 dims (never padded), merge adjacent unpadded dims */
    pad_dim dims[MAX_DIMS];
    uint64_t ends[MAX_DIMS];
    uint32_t m = 0;
    for (uint32_t d = 0; d < out->n; ++d) {
        if (out->sizes[d] == 1) continue;
        const pad_dim x = {out->sizes[d], in->sizes[d], pp->start[d], out->bstrides[d], in->bstrides[d], NULL};
        const uint64_t e = pp->end[d];
        if (m > 0 && x.s == 0 && e == 0 && dims[m - 1].s == 0 && ends[m - 1] == 0 &&
            stride_adjacent(dims[m - 1].obs, x.obs, x.out_n) && stride_adjacent(dims[m - 1].ibs, x.ibs, x.in_n)) {
            dims[m - 1].out_n *= x.out_n;
            dims[m - 1].in_n *= x.in_n;
            dims[m - 1].obs = x.obs;
            dims[m - 1].ibs = x.ibs;
            continue;
        }
        dims[m] = x;
        ends[m++] = e;
    }
    if (m == 0) { /* one element */
        dims[0] = (pad_dim){1, 1, 0, out->esize, in->esize, NULL};
        ends[0] = 0;
        m = 1;
    }
    uint64_t w = out->esize;
    const pad_dim *last = &dims[m - 1];
    if (m > 1 && last->s == 0 && ends[m - 1] == 0 && last->obs == w && last->ibs == w && last->out_n * w <= PAD_FOLD_MAX) {
        w *= last->out_n; /* the innermost dim is one contiguous block on both sides */
        --m;
    }

    uint64_t entries = 0;
    if (!constant)
        for (uint32_t d = 0; d < m; ++d) entries += dims[d].s + ends[d];
    if (entries > PAD_TAB_MAX) return DMLREF_OK; /* maps too large: the oracle stays */

    pad_plan *p = mem_zalloc(&op->alloc, sizeof *p);
    if (!p) return plan_out_of_memory(op, err);
    p->m = m;
    p->constant = constant;
    p->w = w;
    p->fill_byte = -1;
    if (entries) {
        p->tabs = mem_array(&op->alloc, entries, sizeof *p->tabs);
        if (!p->tabs) {
            pad_plan_free(&op->alloc, p);
            return plan_out_of_memory(op, err);
        }
    }
    uint64_t *t = p->tabs;
    for (uint32_t d = 0; d < m; ++d) {
        p->d[d] = dims[d];
        const uint64_t s = dims[d].s, e = ends[d], n = dims[d].in_n;
        if (constant || s + e == 0) continue;
        for (uint64_t k = 0; k < s + e; ++k) {
            const uint64_t o = k < s ? k : k + n;
            const int64_t i = padding_source_index(pp->mode, (int64_t)o - (int64_t)s, (uint32_t)n);
            t[k] = (uint64_t)i * dims[d].ibs;
        }
        p->d[d].tab = t;
        t += s + e;
    }
    if (constant) {
        const uint64_t es = out->esize;
        p->pattern_bytes = w * ((PAD_PATTERN_MIN + w - 1) / w);
        p->pattern = mem_alloc(&op->alloc, (size_t)p->pattern_bytes);
        if (!p->pattern) {
            pad_plan_free(&op->alloc, p);
            return plan_out_of_memory(op, err);
        }
        for (uint64_t b = 0; b < p->pattern_bytes; b += es) memcpy(p->pattern + b, pp->fill, (size_t)es);
        int same = 1;
        for (uint64_t b = 1; b < es; ++b) same &= pp->fill[b] == pp->fill[0];
        if (same) p->fill_byte = pp->fill[0];
    }

    p->rows = 1;
    for (uint32_t d = 0; d + 1 < m; ++d) p->rows *= p->d[d].out_n;
    p->nth = plan_threads(op, 2 * out->elements * out->esize);
    p->chunks = 1;
    if (p->nth > 1 && p->rows < 4 * (uint64_t)p->nth) { /* too few rows for the threads: split them */
        const uint64_t want = (4 * (uint64_t)p->nth + p->rows - 1) / p->rows, row_n = p->d[m - 1].out_n;
        p->chunks = want < row_n ? want : row_n;
    }
    p->units = p->rows * p->chunks;
    /* one contiguous output (packed, in the normalized dims) too large to stay cached:
     * stream it (only with SIMD: plan_stream) */
    int packed = p->d[m - 1].obs == w;
    for (uint32_t d = 0; d + 1 < m; ++d)
        if (!stride_adjacent(p->d[d].obs, p->d[d + 1].obs, p->d[d + 1].out_n)) packed = 0;
    p->stream = packed && plan_stream(out->elements * out->esize);

    op->plan = p;
    op->plan_free = pad_plan_free;
    op->kernel = pad_kernel;
    op->kernel_name = constant ? (p->stream ? KERNEL_NAME(PADDING_CONSTANT_STREAM) : KERNEL_NAME(PADDING_CONSTANT))
                               : (p->stream ? KERNEL_NAME(PADDING_MAP_STREAM) : KERNEL_NAME(PADDING_MAP));
    return DMLREF_OK;
}
